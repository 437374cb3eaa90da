"""Filters of the explorer (space, document type, dates, relation kinds, superseded,
forgotten) and the local text search — plain functions over an :class:`Analysis`."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from memscope.graph.analysis import Analysis
from memscope.graph.build import EDGE_KINDS


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

    def key(self) -> tuple:
        """A small hashable form, for caches."""
        return (tuple(sorted(self.spaces)), tuple(sorted(self.document_types)),
                self.date_from, self.date_to, tuple(sorted(self.edge_kinds)),
                self.show_superseded, self.show_forgotten)


def _in_range(day: date | None, f: Filters) -> bool:
    if day is None:
        return True
    if f.date_from is not None and day < f.date_from:
        return False
    return not (f.date_to is not None and day > f.date_to)


def visible_nodes(analysis: Analysis, f: Filters) -> set[str]:
    """Ids of the nodes that pass the filters.

    A memory passes on its space, its documents' types, its creation date and its
    superseded/forgotten flags; a document passes on its type and date and, when spaces
    are chosen, only if one of its memories passes; entities pass on their date.
    """
    ds = analysis.dataset
    keep: set[str] = set()
    for mem_id, mem in ds.memories.items():
        if f.spaces and mem.space not in f.spaces:
            continue
        if not f.show_forgotten and mem.is_forgotten:
            continue
        if not f.show_superseded and not mem.is_latest:
            continue
        if not _in_range(mem.created_at.date() if mem.created_at else None, f):
            continue
        if f.document_types:
            types = {ds.documents[d].type for d in ds.memory_documents.get(mem_id, ())}
            if not types & f.document_types:
                continue
        keep.add(mem_id)
    for doc_id, doc in ds.documents.items():
        if f.document_types and doc.type not in f.document_types:
            continue
        if not _in_range(doc.created_at.date() if doc.created_at else None, f):
            continue
        if f.spaces and not any(m in keep for m in doc.memory_ids):
            continue
        keep.add(doc_id)
    for ent_id, ent in ds.entities.items():
        if _in_range(ent.created_at.date() if ent.created_at else None, f):
            keep.add(ent_id)
    return keep


@dataclass(frozen=True, slots=True)
class Match:
    """A search hit: the node, where the text matched, and a short excerpt."""

    node_id: str
    kind: str
    field: str
    excerpt: str


def _excerpt(text: str, at: int, length: int, width: int = 60) -> str:
    start, end = max(0, at - width), min(len(text), at + length + width)
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def search_text(analysis: Analysis, query: str, *, within: set[str] | None = None,
                limit: int = 200) -> list[Match]:
    """Case-insensitive search over memory text, document title/summary and entity names."""
    needle = query.strip().casefold()
    if not needle:
        return []
    ds = analysis.dataset
    out: list[Match] = []

    def check(node_id: str, kind: str, name: str, text: str | None) -> bool:
        if not text or (within is not None and node_id not in within):
            return False
        at = text.casefold().find(needle)
        if at < 0:
            return False
        out.append(Match(node_id, kind, name, _excerpt(text, at, len(needle))))
        return True

    for mem_id, mem in ds.memories.items():
        check(mem_id, "memory", "memory", mem.memory)
        if len(out) >= limit:
            return out
    for doc_id, doc in ds.documents.items():
        if not check(doc_id, "document", "title", doc.title):
            check(doc_id, "document", "summary", doc.summary)
        if len(out) >= limit:
            return out
    for ent_id, ent in ds.entities.items():
        if not check(ent_id, "entity", "name", ent.name):
            check(ent_id, "entity", "aliases", " · ".join(ent.aliases))
        if len(out) >= limit:
            return out
    return out
