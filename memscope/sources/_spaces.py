"""Spaces and profiles that come with a load (shared by the Supermemory and file sources)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from memscope.records.dataset import Dataset
from memscope.records.models import ParseReport, SpaceRecord, parse_profile
from memscope.records.text import counted
from memscope.sources.errors import AuthError, Forbidden, SourceError
from memscope.sources.results import LoadResult


def spaces_seen(ds: Dataset, extra_tags: Iterable[str] = ()) -> list[SpaceRecord]:
    """A space per container tag the loaded memories carry (first seen first), plus
    ``extra_tags`` — the fallback when the real list cannot be had."""
    seen: dict[str, str | None] = {}
    for mem in ds.memories.values():
        if mem.container_tag and mem.container_tag not in seen:
            seen[mem.container_tag] = mem.space_id
    for tag in extra_tags:
        seen.setdefault(tag, None)
    return [SpaceRecord(container_tag=t, id=i) for t, i in seen.items()]


def space_of_memory(ds: Dataset, memory_id: str) -> str | None:
    """The container tag of a loaded memory: its own tag, else the tag of the space its
    ``spaceId`` names, else the one tag its documents share; ``None`` when unknown.

    >>> from memscope.records.models import MemoryRecord
    >>> ds = Dataset(spaces=[SpaceRecord(container_tag="work", id="sp1")])
    >>> ds.add_memory(MemoryRecord(id="m1", memory="x", space_id="sp1"), None)
    >>> space_of_memory(ds, "m1"), space_of_memory(ds, "m2")
    ('work', None)
    """
    mem = ds.memories.get(memory_id)
    if mem is None:
        return None
    if mem.container_tag:
        return mem.container_tag
    if mem.space_id:
        tag = next((s.container_tag for s in ds.spaces if s.id == mem.space_id), None)
        if tag:
            return tag
    tags = set()
    for doc_id in ds.memory_documents.get(memory_id, []):
        doc = ds.documents.get(doc_id)
        found = doc.extra.get("containerTags") if doc is not None else None
        tags.update(t for t in found or () if isinstance(t, str) and t)
    return tags.pop() if len(tags) == 1 else None


def add_spaces_and_profiles(
    result: LoadResult, *, list_spaces: Callable[[ParseReport], list[SpaceRecord]] | None,
    fetch_profile: Callable[[str], Any] | None, tags: tuple[str, ...] = (),
    max_profiles: int = 50, concurrency: int = 4,
) -> None:
    """Fill ``result.dataset`` with spaces (listed, or seen in the memories when the key
    may not list them) and profiles (fetched concurrently); failures become notes."""
    ds = result.dataset
    ds.spaces = spaces_seen(ds, tags)
    if list_spaces is not None:
        try:
            ds.spaces = list_spaces(ds.report)
        except (AuthError, Forbidden) as exc:
            result.notes.append("Spaces are listed from the loaded memories because the key "
                                f"may not list spaces: {exc}")
        except SourceError as exc:
            result.notes.append(f"Spaces are listed from the loaded memories: {exc}")
    if fetch_profile is None or max_profiles == 0:
        return
    wanted = list(tags) or [s.container_tag for s in ds.spaces]
    if len(wanted) > max_profiles:
        result.notes.append(f"Profiles were loaded for the first {max_profiles} of "
                            f"{len(wanted)} spaces.")
        wanted = wanted[:max_profiles]
    if not wanted:
        return

    def one(tag: str) -> Any:
        try:
            return fetch_profile(tag)
        except SourceError as exc:
            return exc

    with ThreadPoolExecutor(max_workers=min(concurrency, len(wanted))) as pool:
        answers = list(pool.map(one, wanted))
    failures: dict[str, list[str]] = {}
    for tag, answer in zip(wanted, answers, strict=True):
        if isinstance(answer, SourceError):
            failures.setdefault(answer.kind, []).append(str(answer))
        else:
            ds.profiles[tag] = parse_profile(answer, tag, ds.report)
    for messages in failures.values():
        result.notes.append(f"{counted(len(messages), 'profile')} could not be loaded: "
                            f"{messages[0]}")
