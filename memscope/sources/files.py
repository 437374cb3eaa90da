"""Snapshot files: open saved feed pages or a Spomory passport; save what a source loaded.

A saved Supermemory snapshot is one ``/v3/documents/documents`` response page holding
every loaded document, so ``memscope inspect`` reads it too; spaces, profiles and memories
seen without a document (history look-ups) ride along under the ``x-memscope`` key, which
the core's readers ignore and :class:`FileSource` restores. A Spomory snapshot is a memory
passport (the decoded ``/v1/export`` body). Data that mixes both (feed pages and a passport
opened together) is saved as the documents page with the passport's ``entities`` and
``relations`` beside ``documents``; ``memscope inspect`` reads that too. Saving then
opening gives equal records.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memscope import __version__
from memscope.records.dataset import (
    Dataset,
    UnrecognisedInput,
    decode_json_bytes,
    from_objects,
    input_shape,
)
from memscope.records.jsonsafe import JsonError
from memscope.records.models import (
    Profile,
    SpaceRecord,
    cap_text,
    parse_memory,
    parse_profile,
    parse_spaces,
)
from memscope.records.passport import EntityRecord, Provenance, RelationRecord
from memscope.records.time import format_time, utc_now
from memscope.sources._spaces import spaces_seen
from memscope.sources.base import Capabilities, Source, merge_history
from memscope.sources.errors import FileError
from memscope.sources.file_ask import KeptAsk
from memscope.sources.results import LoadProgress, LoadResult, ProgressCallback, SearchResult
from memscope.sources.worker import dumps, loads, offload, run_in_worker

EXTRA_KEY = "x-memscope"
READ_ONLY = "A snapshot file is read-only; connect to the live service to change it."
PASSPORT_CONTEXT = {"@vocab": "https://schema.org/",
                    "memory": "https://memory-core.dev/schema/memory#",
                    "prov": "http://www.w3.org/ns/prov#"}


# -- records → wire ---------------------------------------------------------------------

def _space_wire(space: SpaceRecord) -> dict[str, Any]:
    return {**space.extra, "containerTag": space.container_tag, "id": space.id,
            "name": space.name, "description": space.description, "emoji": space.emoji}


def _profile_wire(profile: Profile) -> dict[str, Any]:
    return {kind: [{"text": line.text, "memoryIds": list(line.memory_ids)}
                   for line in getattr(profile, kind)] for kind in ("static", "dynamic")}


def _provenance_wire(items: list[Provenance]) -> list[dict[str, Any]]:
    return [{"source_id": p.source_id, "source_span": p.source_span, "extractor": p.extractor,
             "client_name": p.client_name, "session_id": p.session_id} for p in items]


def entity_wire(ent: EntityRecord) -> dict[str, Any]:
    """The passport shape of an entity, unknown keys restored."""
    return {**ent.extra, "id": ent.id, "name": ent.name, "type": ent.type,
            "memory_type": ent.memory_type, "attributes": dict(ent.attributes),
            "aliases": list(ent.aliases), "provenance": _provenance_wire(ent.provenance),
            "created_at": format_time(ent.created_at), "updated_at": format_time(ent.updated_at)}


def relation_wire(rel: RelationRecord) -> dict[str, Any]:
    """The passport (or ``/v1/graph``) shape of a relation, unknown keys restored."""
    out = {**rel.extra, "id": rel.id, "subject_id": rel.subject_id, "predicate": rel.predicate,
           "object_id": rel.object_id, "confidence": rel.confidence,
           "memory_type": rel.memory_type, "provenance": _provenance_wire(rel.provenance),
           "created_at": format_time(rel.created_at), "updated_at": format_time(rel.updated_at)}
    if rel.last_retrieved_at is not None:
        out["last_retrieved_at"] = format_time(rel.last_retrieved_at)
    if rel.mention_count is not None:
        out["mention_count"] = rel.mention_count
    if rel.valid_from is not None:
        out["valid_from"] = format_time(rel.valid_from)
    return out


def _passport_parts(ds: Dataset) -> dict[str, Any]:
    return {"entities": [entity_wire(e) for e in ds.entities.values()],
            "relations": [relation_wire(r) for r in ds.relations.values()]}


def _feed_page(ds: Dataset, meta: dict[str, Any]) -> dict[str, Any]:
    memories = ds.memories
    documents = [doc.to_wire([memories[m].to_wire() for m in doc.memory_ids])
                 for doc in ds.documents.values()]
    meta.update(
        spaces=[_space_wire(s) for s in ds.spaces],
        profiles={tag: _profile_wire(p) for tag, p in ds.profiles.items()},
        memories=[m.to_wire() for i, m in memories.items() if not ds.memory_documents.get(i)],
    )
    n = len(documents)
    return {"documents": documents,
            "pagination": {"currentPage": 1, "limit": max(1, n), "totalItems": n,
                           "totalPages": 1 if n else 0},
            EXTRA_KEY: meta}


def snapshot_object(data: LoadResult | Dataset) -> dict[str, Any]:
    """The JSON value a snapshot file holds for a load result or a dataset: a documents
    page, a memory passport, or (for mixed data) a documents page that also holds the
    passport's ``entities`` and ``relations``."""
    result = data if isinstance(data, LoadResult) else None
    ds = data.dataset if isinstance(data, LoadResult) else data
    meta: dict[str, Any] = {"format": 1, "memscope": __version__,
                            "savedAt": format_time(utc_now())}
    if result is not None:
        meta.update(source=result.source, missingPages=list(result.missing_pages))
    if ds.unread:  # reopened, its gaps stay gaps: no finding rests on them
        meta["unread"] = sorted(ds.unread)
    if not ds.keeps_documents:
        meta["keepsDocuments"] = False
    graph = bool(ds.entities or ds.relations)
    if graph and (ds.documents or ds.memories):
        return {**_feed_page(ds, meta), **_passport_parts(ds)}
    if graph or (result is not None and result.source == "spomory"):
        return {"@context": PASSPORT_CONTEXT, "@type": "memory:MemoryPassport",
                "exported_at": format_time(result.loaded_at if result else utc_now()),
                "subject_id": "default", **_passport_parts(ds), EXTRA_KEY: meta}
    return _feed_page(ds, meta)


def snapshot_bytes(data: LoadResult | Dataset) -> bytes:
    """A snapshot as UTF-8 JSON bytes (for a download button)."""
    obj = snapshot_object(data)
    try:
        return json.dumps(obj, ensure_ascii=False, indent=1).encode("utf-8")
    except UnicodeEncodeError:  # pragma: no cover - records are made safe when read
        return json.dumps(obj, ensure_ascii=True, indent=1).encode("ascii")


def save_snapshot(data: LoadResult | Dataset, path: str | Path) -> Path:
    """Write a snapshot file (atomically: a temporary file, then a rename)."""
    target = Path(path)
    tmp = target.with_name(target.name + ".tmp")
    try:
        tmp.write_bytes(snapshot_bytes(data))
        tmp.replace(target)
    except OSError as exc:
        raise FileError(f"Cannot write {target.name}: {exc.strerror or exc}.") from None
    return target


# -- files → records --------------------------------------------------------------------

def _apply_extras(ds: Dataset, extras: list[dict[str, Any]]) -> None:
    for meta in extras:
        if meta.get("keepsDocuments") is False:
            ds.keeps_documents = False
        if isinstance(meta.get("spaces"), list):
            known = {s.container_tag for s in ds.spaces}
            ds.spaces.extend(s for s in parse_spaces(meta["spaces"], ds.report)
                             if s.container_tag not in known)
        if isinstance(meta.get("profiles"), dict):
            for tag, raw in meta["profiles"].items():
                tag = cap_text(tag) or ""
                ds.profiles.setdefault(tag, parse_profile(raw, tag, ds.report))
        memories = meta.get("memories")
        for i, raw in enumerate(memories if isinstance(memories, list) else []):
            mem = parse_memory(raw, f"{EXTRA_KEY}.memories[{i}]", ds.report)
            if mem is not None:
                merge_history(ds, [mem])
        unread = meta.get("unread")
        ds.unread.update(i for i in (unread if isinstance(unread, list) else [])
                         if isinstance(i, str) and i in ds.memories)


def parse_files(files: Sequence[tuple[str, bytes]]) -> tuple[Dataset, frozenset[str], int]:
    """``(dataset, shapes, count)`` of snapshot files given as ``(name, content)``:
    every file decoded, its shape checked, all merged into one dataset. Raises
    :class:`FileError` naming the file that is unreadable or of no supported shape.

    >>> ds, shapes, n = parse_files([("a.json", b'{"documents": []}')])
    >>> (len(ds.documents), sorted(shapes), n)
    (0, ['feed'], 1)
    >>> parse_files([("b.json", b"[1")])
    Traceback (most recent call last):
    ...
    memscope.sources.errors.FileError: b.json is not JSON (...).
    """
    objects, extras, shapes, notes = [], [], set(), []
    for name, data in files:
        try:
            obj, said = decode_json_bytes(data)
        except JsonError as exc:
            raise FileError(f"{name} is {exc}.") from None
        shape = input_shape(obj)
        if shape is None:
            raise FileError(f"{name} is neither a Supermemory documents page nor a "
                            "Spomory passport.")
        shapes.add(shape)
        objects.append(obj)
        notes.extend((name, note) for note in said)
        if isinstance(obj, dict) and isinstance(obj.get(EXTRA_KEY), dict):
            extras.append(obj[EXTRA_KEY])
    try:
        ds = from_objects(objects)
    except UnrecognisedInput as exc:  # pragma: no cover - input_shape checked it
        raise FileError(str(exc)) from None
    for name, note in notes:
        ds.report.note(name, note)
    _apply_extras(ds, extras)
    if not any("spaces" in meta for meta in extras):
        ds.spaces = spaces_seen(ds)
    return ds, frozenset(shapes), len(objects)


def _parse_job(files: list[tuple[str, bytes]]) -> bytes:
    """:func:`parse_files` in a worker process; the result pickled by
    the worker's :func:`~memscope.sources.worker.dumps` (a :class:`FileError` is raised as is)."""
    return dumps(parse_files(files))


class FileSource(Source):
    """One or more snapshot files (feed pages and/or passports) as a read-only source."""

    kind = "file"
    capabilities = Capabilities(
        profile=True, spaces=True,
        why_not=(
            ("forget", READ_ONLY), ("forget_all", READ_ONLY), ("restore", READ_ONLY),
            ("history", "A snapshot holds only the versions that were saved; connect to the "
                        "live service to read more history."),
            ("add", READ_ONLY),
        ),
        search=True,  # local: words and meaning over the loaded records (file_ask)
    )

    def __init__(self, paths: Sequence[str | Path] = (), *,
                 contents: Sequence[tuple[str, bytes]] = (),
                 offload_bytes: int | None = None) -> None:
        self._paths = [Path(p) for p in paths]
        self._offload_bytes = offload_bytes
        self._contents = list(contents)
        self._last: LoadResult | None = None
        self._digest: str | None = None
        self._ask = KeptAsk()
        if not self._paths and not self._contents:
            raise FileError("Choose at least one snapshot file to open.")

    @classmethod
    def from_bytes(cls, files: Sequence[tuple[str, bytes]], *,
                   offload_bytes: int | None = None) -> FileSource:
        """A source over uploaded files: ``(name, content)`` pairs (``offload_bytes``: see
        :meth:`load`)."""
        return cls(contents=files, offload_bytes=offload_bytes)

    @property
    def label(self) -> str:
        names = [p.name for p in self._paths] + [name for name, _ in self._contents]
        return "file " + ", ".join(names) if len(names) < 4 else f"{len(names)} files"

    def _read_all(self) -> list[tuple[str, bytes]]:
        out = list(self._contents)
        for path in self._paths:
            try:
                out.append((path.name, path.read_bytes()))
            except OSError as exc:
                raise FileError(f"Cannot read {path.name}: {exc.strerror or exc}.") from None
        return out

    def cache_key(self) -> tuple[str, ...]:
        """``("file", content hash)`` — uploaded bytes are hashed once, files every time."""
        if self._digest is None or self._paths:
            digest = hashlib.sha256()
            for name, data in self._read_all():
                digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
            self._digest = digest.hexdigest()[:16]
        return (self.kind, self._digest)

    def data_version(self) -> str | None:
        return self.cache_key()[1]

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        """Parse every file into one dataset; raises :class:`FileError` with the file's
        name when one is unreadable or not a supported shape. Inputs of
        ``offload_bytes`` or more in all are parsed in a worker process
        (:mod:`memscope.sources.worker`), with the same result."""
        if self._last is not None and not refresh:
            return self._last
        files = self._read_all()
        if offload(sum(len(data) for _, data in files), self._offload_bytes):
            names = ", ".join(name for name, _ in files)
            ds, shapes, count = loads(run_in_worker(_parse_job, files, what=names))
        else:
            ds, shapes, count = parse_files(files)
        result = LoadResult(dataset=ds, source=self.kind, label=self.label,
                            raw_passport={} if shapes <= {"passport", "empty"} else None)
        self._last = result
        if progress is not None:
            progress(LoadProgress(count, count, len(ds.documents), len(ds.memories)))
        return result

    def spaces(self) -> list[SpaceRecord]:
        """The spaces the file holds (or the tags its memories carry)."""
        return list(self.load().dataset.spaces)

    def profile(self, container_tag: str) -> Profile:
        """The saved profile of a space (empty when the file has none)."""
        return self.load().dataset.profiles.get(container_tag, Profile(container_tag))

    def search(self, query: str, *, container_tag: str | None = None,
               limit: int = 10) -> SearchResult:
        """Ask over the loaded records, ranked on this computer as the embedded store
        ranks (words and meaning fused; :mod:`memscope.sources.file_ask`); the index is
        built on the first question about a load and kept."""
        result = self.load()
        return self._ask.search(result, query, container_tag=container_tag, limit=limit)

    def close(self) -> None:
        """Drop the kept Ask index."""
        self._ask.close()

