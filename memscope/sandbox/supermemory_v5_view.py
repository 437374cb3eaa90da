"""The store seen namespace by namespace, in Supermemory v5 shapes (SDK 5.0.1 models).

One :class:`V5Index` is built per data version of the store from the same feed the legacy
routes serve, so both dialects always describe the same data. A namespace is a container
tag ("same values, nothing moved"); a document with no tag lives in
:data:`DEFAULT_NAMESPACE`, where the legacy API puts untagged content.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from memscope.sandbox.supermemory_api import ApiError

DEFAULT_NAMESPACE = "sm_project_default"
#: how far the history view reaches along a version chain (the SDK: "up to three steps")
VERSION_STEPS = 3
#: relations the v5 API knows; ``updates`` links versions, the other two are siblings
SIBLING_RELATIONS = ("extends", "derives")
#: related memories per list when a request does not say (``relatedLimit``)
DEFAULT_RELATED_LIMIT = 10


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def memory_json(m: dict[str, Any]) -> dict[str, Any]:
    """A v5 ``Memory`` (list item): no parent id — chains come from the history view."""
    return {"id": m["id"], "memory": m.get("memory") or "", "metadata": _dict(m.get("metadata")),
            "isStatic": bool(m.get("isStatic")), "isInference": bool(m.get("isInference")),
            "isLatest": bool(m.get("isLatest", True)),
            "isForgotten": bool(m.get("isForgotten")), "version": int(m.get("version") or 1),
            "system": {"createdAt": m["createdAt"], "updatedAt": m["updatedAt"]}}


def document_brief(d: dict[str, Any]) -> dict[str, Any]:
    """The source document attached to a memory or a search result (``included.document``)."""
    return {"id": d["id"], "title": d.get("title"), "type": d.get("type"),
            "metadata": _dict(d.get("metadata")), "summary": d.get("summary"),
            "system": {"createdAt": d["createdAt"], "updatedAt": d["updatedAt"]}}


def chunk_texts(d: dict[str, Any]) -> list[str]:
    """A document's chunks: the non-empty lines of its content (or of its summary)."""
    text = d.get("content") or d.get("summary") or ""
    return [c for c in (part.strip() for part in re.split(r"\n+", text)) if c]


def chunk_json(d: dict[str, Any], position: int, text: str, *,
               with_document_id: bool) -> dict[str, Any]:
    """A v5 ``Chunk`` (``ChunkListItem`` also carries ``documentId``)."""
    out = {"id": f"{d['id']}#chunk{position}", "position": position, "content": text,
           "type": "text", "metadata": {}, "system": {"createdAt": d["createdAt"]}}
    if with_document_id:
        out["documentId"] = d["id"]
    return out


def namespace_of(doc: dict[str, Any]) -> str:
    """The one namespace a document lives in."""
    tags = doc.get("containerTags") or []
    return tags[0] if tags else DEFAULT_NAMESPACE


@dataclass
class V5Index:
    """Memories, documents and links of the whole store, keyed for the v5 routes."""

    docs: dict[str, dict[str, Any]]             # feed order (createdAt desc)
    memories: dict[str, dict[str, Any]]
    docs_of: dict[str, list[str]]               # memory id -> document ids
    children: dict[str, list[str]] = field(default_factory=dict)
    siblings: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def build(cls, docs: Iterable[dict[str, Any]], memories: dict[str, dict[str, Any]],
              docs_of: dict[str, list[str]]) -> V5Index:
        """The index over feed documents and every memory (versions under no document
        included); children and extends/derives links are indexed both ways."""
        index = cls({d["id"]: d for d in docs}, memories, docs_of)
        for m in sorted(memories.values(), key=lambda m: (m["createdAt"], m["id"])):
            parent = m.get("parentMemoryId")
            if parent:
                index.children.setdefault(parent, []).append(m["id"])
            for other, kind in (m.get("memoryRelations") or {}).items():
                if kind in SIBLING_RELATIONS and other in memories:
                    index.siblings.setdefault(m["id"], {})[other] = kind
                    index.siblings.setdefault(other, {}).setdefault(m["id"], kind)
        return index

    def memory_namespace(self, m: dict[str, Any]) -> str:
        """The namespace of a memory: its space, else its first document's."""
        if m.get("spaceContainerTag"):
            return m["spaceContainerTag"]
        doc_ids = self.docs_of.get(m["id"]) or []
        return namespace_of(self.docs[doc_ids[0]]) if doc_ids and doc_ids[0] in self.docs \
            else DEFAULT_NAMESPACE

    def namespace_memories(self, ns: str) -> list[dict[str, Any]]:
        return [m for m in self.memories.values() if self.memory_namespace(m) == ns]

    def namespace_docs(self, ns: str) -> list[dict[str, Any]]:
        return [d for d in self.docs.values() if namespace_of(d) == ns]

    def namespaces(self) -> set[str]:
        """Every namespace that holds a document or a memory."""
        return ({namespace_of(d) for d in self.docs.values()}
                | {self.memory_namespace(m) for m in self.memories.values()})

    def source_document(self, mem_id: str) -> dict[str, Any] | None:
        doc_ids = [d for d in self.docs_of.get(mem_id) or [] if d in self.docs]
        return self.docs[doc_ids[0]] if doc_ids else None

    # -- the history view ---------------------------------------------------------------

    def parents(self, mem_id: str) -> list[str]:
        """Earlier versions up to :data:`VERSION_STEPS` away, nearest first."""
        out, cur = [], self.memories[mem_id].get("parentMemoryId")
        while cur and cur in self.memories and cur != mem_id and cur not in out \
                and len(out) < VERSION_STEPS:
            out.append(cur)
            cur = self.memories[cur].get("parentMemoryId")
        return out

    def descendants(self, mem_id: str) -> list[str]:
        """Newer versions up to :data:`VERSION_STEPS` away, nearest first (by step, then
        creation); every branch."""
        out, level, seen = [], [mem_id], {mem_id}
        for _ in range(VERSION_STEPS):
            level = [c for p in level for c in self.children.get(p, []) if c not in seen]
            seen.update(level)
            out.extend(level)
        return out

    def related(self, mem_id: str, limit: int, *, with_documents: bool) -> dict[str, Any]:
        """``included.related``: parents, children and siblings, forgotten ones left out,
        at most ``limit`` each."""
        def items(ids: Iterable[str], relation: dict[str, str] | str) -> list[dict[str, Any]]:
            out = []
            for other in ids:
                m = self.memories[other]
                if m.get("isForgotten"):
                    continue
                kind = relation if isinstance(relation, str) else relation[other]
                item = {"id": other, "relation": kind, "version": int(m.get("version") or 1),
                        "memory": m.get("memory") or "", "metadata": _dict(m.get("metadata")),
                        "system": {"updatedAt": m["updatedAt"]}}
                doc = self.source_document(other) if with_documents else None
                if doc is not None:
                    item["document"] = document_brief(doc)
                out.append(item)
                if len(out) == limit:
                    break
            return out

        links = self.siblings.get(mem_id, {})
        return {"parents": items(self.parents(mem_id), "updates"),
                "children": items(self.descendants(mem_id), "updates"),
                "siblings": items(sorted(links, key=lambda i: (
                    self.memories[i]["createdAt"], i)), links)}


# -- list items and search hits ------------------------------------------------------


def list_document(d: dict[str, Any], ns: str, include: dict[str, Any]) -> dict[str, Any]:
    """A v5 ``DocumentListItem``: ``content`` and ``system.memoryCount`` only when asked."""
    system: dict[str, Any] = {"status": d.get("status") or "done",
                              "dreamingStatus": "done"}
    if include.get("memoryCount"):
        system["memoryCount"] = sum(
            1 for e in d.get("memoryEntries") or []
            if not e.get("isForgotten") and (e.get("spaceContainerTag") or ns) == ns)
    system.update(createdAt=d["createdAt"], updatedAt=d["updatedAt"])
    out = {"id": d["id"], "title": d.get("title"), "type": d.get("type") or "text",
           "summary": d.get("summary"), "metadata": d.get("metadata") or {},
           "url": d.get("url"), "system": system}
    if include.get("content"):
        out["content"] = d.get("content")
    return out


def memory_hit(index: V5Index, m: dict[str, Any], score: float,
               include: dict[str, Any]) -> dict[str, Any]:
    """A memory ``SearchResult`` (a forgotten one is not latest), with what ``include``
    asks for."""
    hit: dict[str, Any] = {
        "id": m["id"], "memory": m.get("memory") or "", "metadata": m.get("metadata") or {},
        "similarity": round(score, 3),
        "isLatest": bool(m.get("isLatest", True)) and not m.get("isForgotten"),
        "isInference": bool(m.get("isInference")),
        "system": {"updatedAt": m["updatedAt"], "createdAt": m["createdAt"]}}
    included: dict[str, Any] = {}
    if include.get("related"):
        related = index.related(m["id"], DEFAULT_RELATED_LIMIT, with_documents=False)
        included["related"] = related
    doc = index.source_document(m["id"]) if include.get("documents") else None
    if doc is not None:
        included["document"] = document_brief(doc)
    if included:
        hit["included"] = included
    return hit

def chunk_hit(d: dict[str, Any], pos: int, text: str, score: float,
              include: dict[str, Any]) -> dict[str, Any]:
    """A chunk ``SearchResult`` (a line of a document)."""
    hit: dict[str, Any] = {
        "id": f"{d['id']}#chunk{pos}", "chunk": text, "metadata": d.get("metadata") or {},
        "similarity": round(score, 3), "isLatest": True, "isInference": False,
        "system": {"updatedAt": d["updatedAt"], "createdAt": d["createdAt"]}}
    if include.get("documents"):
        hit["included"] = {"document": document_brief(d)}
    return hit


# -- typed metadata filters (the SDK's FilterExpression) --------------------------------

_STRING_OPS = ("eq", "neq", "contains", "notContains")
_NUMBER_OPS = ("gt", "gte", "lt", "lte")
_ARRAY_OPS = ("arrayContains", "arrayNotContains")


def _compare_strings(op: str, have: Any, want: str, case_sensitive: bool) -> bool:
    if not isinstance(have, str):
        return op in ("neq", "notContains")
    if not case_sensitive:
        have, want = have.casefold(), want.casefold()
    return {"eq": have == want, "neq": have != want, "contains": want in have,
            "notContains": want not in have}[op]


def _predicate(expr: dict[str, Any], metadata: dict[str, Any]) -> bool:
    key, op, want = expr.get("field"), expr.get("operator"), expr.get("value")
    if not isinstance(key, str):
        raise ApiError(400, "Every filter needs a field (a metadata key)")
    have = metadata.get(key)
    if op in _NUMBER_OPS and isinstance(want, int | float) and not isinstance(want, bool):
        if not isinstance(have, int | float) or isinstance(have, bool):
            return False
        return {"gt": have > want, "gte": have >= want, "lt": have < want,
                "lte": have <= want}[op]
    if op in _ARRAY_OPS and isinstance(want, str):
        inside = isinstance(have, list) and want in have
        return inside if op == "arrayContains" else not inside
    if op in ("eq", "neq") and not isinstance(want, str):
        if not isinstance(want, int | float | bool):
            raise ApiError(400, f"Filter value of {key!r} must be a string, number or boolean")
        return (have == want and type(have) is type(want)) == (op == "eq")
    if op in _STRING_OPS and isinstance(want, str):
        return _compare_strings(op, have, want, bool(expr.get("caseSensitive", False)))
    raise ApiError(400, f"Unknown filter operator {op!r} for field {key!r}")


def matches(expr: Any, metadata: dict[str, Any]) -> bool:
    """Whether ``metadata`` satisfies the filter expression (``None``: no filter)."""
    if expr is None:
        return True
    if not isinstance(expr, dict):
        raise ApiError(400, "filter must be an object")
    op = expr.get("operator")
    if op in ("and", "or"):
        operands = expr.get("operands")
        if not isinstance(operands, list) or not operands:
            raise ApiError(400, f"An {op!r} filter needs a non-empty operands list")
        results = (matches(o, metadata) for o in operands)
        return all(results) if op == "and" else any(results)
    return _predicate(expr, metadata)
