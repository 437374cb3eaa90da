"""What a server-side search result means for the loaded graph: which nodes to highlight
and how to list each hit — plain functions, no Streamlit.

>>> from memscope.graph.analysis import analyse
>>> from memscope.records.dataset import from_feed_pages
>>> from memscope.sources import SearchHit, SearchResult
>>> an = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
...     {"id": "m", "memory": "Likes tea."}]}]}]))
>>> sorted(highlight_ids(an, SearchResult([SearchHit("memory", "Likes tea.", "m"),
...                                        SearchHit("chunk", "…tea…", "c", document_ids=["d"]),
...                                        SearchHit("memory", "Gone.", "m_gone")])))
['d', 'm']
>>> describe(SearchHit("memory", "Gone.", "m_gone"), an).note
'This memory (m_gone) is not in the loaded graph: reload, or check the space filter.'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memscope.graph.analysis import Analysis
from memscope.records.text import one_line, shorten
from memscope.records.text import relation_label as join_relation
from memscope.sources import SearchHit, SearchResult

LABEL_MAX = 90
#: provenance spans shorter than this are too vague to match a context text
MIN_SPAN = 4
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class HitView:
    """One search hit as the result list shows it.

    ``node_id`` is what selecting the hit selects (``None``: nothing of it is loaded, and
    ``note`` says so); ``label`` is one line of plain text.
    """

    kind: str
    label: str
    text: str
    node_id: str | None
    note: str | None = None
    score: float | None = None


def _squash(text: str) -> str:
    """Case-folded text without whitespace (Spomory joins sentences without spaces)."""
    return _SPACE.sub("", text).casefold()


def context_relations(analysis: Analysis, context: str) -> list[str]:
    """Ids of the relations whose provenance ``source_span`` or whose ``subject predicate
    object`` sentence appears in a Spomory context text (whitespace and case ignored)."""
    haystack = _squash(context)
    if not haystack:
        return []
    ds = analysis.dataset
    names = {e_id: e.name for e_id, e in ds.entities.items()}
    found = []
    for rel_id, rel in ds.relations.items():
        candidates = [rel.sentence(names)]
        candidates += [p.source_span for p in rel.provenance if p.source_span]
        for text in candidates:
            needle = _squash(text)
            if len(needle) >= MIN_SPAN and needle in haystack:
                found.append(rel_id)
                break
    return found


def _hit_nodes(analysis: Analysis, hit: SearchHit) -> list[str]:
    ds = analysis.dataset
    if hit.kind == "memory":
        return [hit.id] if hit.id and hit.id in ds.memories else []
    if hit.kind == "chunk":
        return [d for d in hit.document_ids if d in ds.documents]
    if hit.kind == "context":
        ends = []
        for rel_id in context_relations(analysis, hit.text):
            rel = ds.relations[rel_id]
            ends += [e for e in (rel.subject_id, rel.object_id) if e in ds.entities]
        return list(dict.fromkeys(ends))
    return []


def highlight_ids(analysis: Analysis, result: SearchResult | None) -> set[str]:
    """The loaded nodes a search result points at: memory hits → the memory; chunk hits →
    their documents; a Spomory context → the entities at both ends of every relation it
    quotes. Hits whose records are not loaded add nothing."""
    if result is None:
        return set()
    return {node for hit in result.hits for node in _hit_nodes(analysis, hit)}


def describe(hit: SearchHit, analysis: Analysis) -> HitView:
    """How to list ``hit``: a one-line label, what selecting it selects, and a note when
    what it points at is not loaded."""
    ds = analysis.dataset
    score = f" · {hit.similarity:.2f}" if hit.similarity is not None else ""
    nodes = _hit_nodes(analysis, hit)
    if hit.kind == "memory":
        state = analysis.state(nodes[0]) if nodes else None
        label = (f"memory{score}{f' · {state}' if state else ''}: "
                 f"{shorten(one_line(hit.text), LABEL_MAX)}")
        note = None if nodes else (
            f"This memory ({hit.id or 'no id'}) is not in the loaded graph: reload, or check "
            "the space filter.")
        return HitView("memory", label, hit.text, nodes[0] if nodes else None, note,
                       hit.similarity)
    if hit.kind == "chunk":
        doc = ds.documents.get(nodes[0]) if nodes else None
        where = (doc.title or doc.id) if doc else (", ".join(hit.document_ids) or "unknown")
        label = (f"excerpt{score} from “{shorten(one_line(where), 40)}”: "
                 f"{shorten(one_line(hit.text), 70)}")
        note = None if doc else (
            f"Its document ({where}) is not in the loaded graph." if hit.document_ids
            else "The service did not say which document this excerpt is from.")
        return HitView("chunk", label, hit.text, nodes[0] if nodes else None, note,
                       hit.similarity)
    rels = context_relations(analysis, hit.text) if hit.kind == "context" else []
    label = (f"context quoting {len(rels)} loaded fact{'s' if len(rels) != 1 else ''}"
             if hit.kind == "context"
             else f"{hit.kind}{score}: {shorten(one_line(hit.text), LABEL_MAX)}")
    note = None if nodes else "None of the facts it quotes is in the loaded graph."
    return HitView(hit.kind, label, hit.text, nodes[0] if nodes else None, note,
                   hit.similarity)


def relation_label(analysis: Analysis, relation_id: str) -> str:
    """``subject — predicate — object`` of a loaded relation, as one line
    (:func:`memscope.records.text.relation_label`), shortened.

    >>> from memscope.records.dataset import from_objects
    >>> from memscope.graph.analysis import analyse
    >>> an = analyse(from_objects([{"entities": [{"id": "e1", "name": "张三"}], "relations": [
    ...     {"id": "r", "subject_id": "e1", "predicate": "knows", "object_id": "e_missing"}]}]))
    >>> relation_label(an, "r")
    '张三 — knows — e_missing'
    """
    ds = analysis.dataset
    rel = ds.relations[relation_id]
    names = {e_id: e.name for e_id, e in ds.entities.items()}
    return shorten(join_relation(names.get(rel.subject_id, rel.subject_id), rel.predicate,
                                  names.get(rel.object_id, rel.object_id)), LABEL_MAX)


__all__ = ["HitView", "context_relations", "describe", "highlight_ids", "relation_label"]
