"""Filters of the explorer (space, document type, dates, relation kinds, superseded,
forgotten, inferred) and the local text search — plain functions over an :class:`Analysis`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Literal

from memscope.graph.analysis import Analysis
from memscope.graph.build import EDGE_KINDS
from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord
from memscope.records.text import ELLIPSIS

Inferred = Literal["show", "hide", "only"]
#: what the inferred-memories filter can do, in the order offered, with its words
INFERRED_CHOICES: dict[str, str] = {"show": "show", "hide": "hide", "only": "only these"}


@dataclass(frozen=True)
class Filters:
    """What to show. Empty sets mean "all"."""

    spaces: frozenset[str] = frozenset()
    document_types: frozenset[str] = frozenset()
    date_from: date | None = None
    date_to: date | None = None
    edge_kinds: frozenset[str] = field(default_factory=lambda: frozenset(EDGE_KINDS))
    show_superseded: bool = True
    show_forgotten: bool = True
    #: memories the service inferred (``is_inference``): ``"show"`` them with the
    #: others, ``"hide"`` them, or show ``"only"`` them
    inferred: Inferred = "show"

    def __post_init__(self) -> None:
        if self.inferred not in INFERRED_CHOICES:
            raise ValueError(f"inferred must be one of {', '.join(INFERRED_CHOICES)}, "
                             f"not {self.inferred!r}.")

    def active(self) -> int:
        """How many filters narrow what is shown (differ from showing everything); the
        date range counts once.

        >>> Filters().active(), Filters(spaces=frozenset({"a"}), show_forgotten=False,
        ...                             date_to=date(2026, 1, 1)).active()
        (0, 3)
        """
        every = Filters()
        return sum((self.spaces != every.spaces, self.document_types != every.document_types,
                    (self.date_from, self.date_to) != (every.date_from, every.date_to),
                    self.edge_kinds != every.edge_kinds,
                    self.show_superseded != every.show_superseded,
                    self.show_forgotten != every.show_forgotten,
                    self.inferred != every.inferred))

    def key(self) -> tuple:
        """A small hashable form, for caches."""
        return (tuple(sorted(self.spaces)), tuple(sorted(self.document_types)),
                self.date_from, self.date_to, tuple(sorted(self.edge_kinds)),
                self.show_superseded, self.show_forgotten, self.inferred)


def _in_range(day: date | None, f: Filters) -> bool:
    if day is None:
        return True
    if f.date_from is not None and day < f.date_from:
        return False
    return not (f.date_to is not None and day > f.date_to)


def visible_nodes(analysis: Analysis, f: Filters) -> set[str]:
    """Ids of the nodes that pass the filters.

    A memory passes on its space, its documents' types, its creation date and its
    superseded/forgotten/inferred flags; a document passes on its type and date and, when
    spaces are chosen or only inferred memories are shown, only if one of its memories
    passes; entities pass on their date (and are hidden when only inferred memories are
    shown).

    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> a = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": "m", "memory": "x", "isForgotten": True}]}]}]))
    >>> sorted(visible_nodes(a, Filters())), sorted(visible_nodes(a, Filters(show_forgotten=False)))
    (['d', 'm'], ['d'])
    """
    ds = analysis.dataset
    keep = {mem_id for mem_id, mem in ds.memories.items() if _memory_passes(ds, mem_id, mem, f)}
    for doc_id, doc in ds.documents.items():
        if f.document_types and doc.type not in f.document_types:
            continue
        if not _in_range(_day(doc.created_at), f):
            continue
        if (f.spaces or f.inferred == "only") and not any(m in keep for m in doc.memory_ids):
            continue
        keep.add(doc_id)
    if f.inferred != "only":
        keep.update(ent_id for ent_id, ent in ds.entities.items()
                    if _in_range(_day(ent.created_at), f))
    return keep


def _day(when: datetime | None) -> date | None:
    return when.date() if when else None


def _memory_passes(ds: Dataset, mem_id: str, mem: MemoryRecord, f: Filters) -> bool:
    """Whether a memory passes on space, flags, creation date and its documents' types."""
    if f.spaces and mem.space not in f.spaces:
        return False
    if not f.show_forgotten and mem.is_forgotten:
        return False
    if not f.show_superseded and not mem.is_latest:
        return False
    if f.inferred != "show" and mem.is_inference != (f.inferred == "only"):
        return False
    if not _in_range(_day(mem.created_at), f):
        return False
    if f.document_types:
        types = {ds.documents[d].type for d in ds.memory_documents.get(mem_id, ())}
        return bool(types & f.document_types)
    return True


@dataclass(frozen=True, slots=True)
class Match:
    """A search hit: the node, where the text matched, and a short excerpt."""

    node_id: str
    kind: str
    field: str
    excerpt: str


def _excerpt(text: str, at: int, length: int, width: int = 60) -> str:
    """The match with up to ``width`` characters either side, an ellipsis where cut."""
    start, end = max(0, at - width), min(len(text), at + length + width)
    return (ELLIPSIS if start else "") + text[start:end] + (ELLIPSIS if end < len(text) else "")


#: ``(node id, kind, ((field, text), …))``: a node's searchable fields, in the order tried
_Searchable = tuple[str, str, tuple[tuple[str, str | None], ...]]


def _searchable(ds: Dataset) -> Iterator[_Searchable]:
    """Memories (text), then documents (title, summary), then entities (name, aliases)."""
    for mem_id, mem in ds.memories.items():
        yield mem_id, "memory", (("memory", mem.memory),)
    for doc_id, doc in ds.documents.items():
        yield doc_id, "document", (("title", doc.title), ("summary", doc.summary))
    for ent_id, ent in ds.entities.items():
        yield ent_id, "entity", (("name", ent.name), ("aliases", " · ".join(ent.aliases)))


def search_text(analysis: Analysis, query: str, *, within: set[str] | None = None,
                limit: int = 200) -> list[Match]:
    """Case-insensitive search over memory text, document title/summary and entity names.

    One match per node at most (its first matching field); at most ``limit`` matches.

    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> a = analyse(from_feed_pages([{"documents": [{"id": "d", "title": "Tea notes",
    ...     "memoryEntries": [{"id": "m", "memory": "Likes green TEA"}]}]}]))
    >>> [(m.node_id, m.field, m.excerpt) for m in search_text(a, "tea")]
    [('m', 'memory', 'Likes green TEA'), ('d', 'title', 'Tea notes')]
    """
    needle = query.strip().casefold()
    if not needle:
        return []
    out: list[Match] = []
    for node_id, kind, fields in _searchable(analysis.dataset):
        if within is None or node_id in within:
            match = _first_match(node_id, kind, fields, needle)
            if match is not None:
                out.append(match)
        if len(out) >= limit:
            break
    return out


def _first_match(node_id: str, kind: str, fields: tuple[tuple[str, str | None], ...],
                 needle: str) -> Match | None:
    """The first field of a node whose case-folded text holds ``needle``."""
    for name, text in fields:
        if not text:
            continue
        at = text.casefold().find(needle)
        if at >= 0:
            return Match(node_id, kind, name, _excerpt(text, at, len(needle)))
    return None
