"""The sandbox's Supermemory v5 routes, served from the same store as v3/v4.

Routes, fields and casing follow the official SDK ``supermemory==5.0.1`` (its
``raw_client.py`` files say what a client sends, its ``types/`` what comes back); where
the v5 reference pages differ, the SDK's wire format wins. ``GET /ns`` (what the SDK
calls) and ``GET /namespaces`` (what the reference shows) are the same route.

Where the reference and the SDK differ, the sandbox takes both where it can: the
namespace list is ``GET /ns`` in the SDK and ``GET /namespaces`` in the reference;
``include`` is repeated by the SDK (``include=related&include=documents``) and
comma-separated in the reference. Otherwise it follows the SDK: search takes ``query``
(v4: ``q``) and ``searchMode`` ``hybrid|memories|chunks`` (v4's ``documents`` is a 400);
the history view reaches versions up to three steps away, nearest first, ``relatedLimit``
per list; related items carry no ``isForgotten`` (forgotten ones are left out);
``included.document`` is one document; forget by ids takes only ``ids`` (no reason);
semantic forget requires ``query`` and a boolean ``dryRun``; profile entries are
``{id, memory}`` beside a required ``buckets`` object; a namespace's ``memoryCount`` counts
current memories (latest, not forgotten), unlike v3's container-tag count.

What the sandbox decides where the service does not say: a forget by id reports an
unknown id, an id of another namespace and an already forgotten memory as per-id errors;
semantic forget matches with the store's own text search (deterministic), at most
:data:`SEMANTIC_LIMIT` memories; search ranks by the share of query words a text holds,
as the legacy ``/v4/search`` does. Unknown body fields are ignored. Errors are
``{"error", "details"}`` (the SDK's ``ErrorResponse``).
"""

from __future__ import annotations

import functools
import json
import math
import threading
from typing import Any
from urllib.parse import unquote

from memscope.sandbox.supermemory_api import TAG, ApiError, Reply, SupermemoryApi, _overlap, _words
from memscope.sandbox.supermemory_v5_view import (
    DEFAULT_RELATED_LIMIT,
    V5Index,
    chunk_hit,
    chunk_json,
    chunk_texts,
    document_brief,
    list_document,
    matches,
    memory_hit,
    memory_json,
    namespace_of,
)
from memscope.store.store import StoreError

LIST_TYPES = ("documents", "chunks", "memories")
MEMORY_INCLUDES = ("related", "documents")
DOCUMENT_INCLUDES = ("chunks", "memories")
SEARCH_MODES = ("hybrid", "memories", "chunks")
#: the most ids one exact forget takes (the SDK's docs: 1–500)
FORGET_MAX_IDS = 500
#: the most memories one semantic forget matches
SEMANTIC_LIMIT = 100
DEFAULT_LIMIT, MAX_LIMIT = 10, 1100
MAX_RELATED_LIMIT = 100
#: the most lists (namespace, kind, order, filter) kept built for one data version
LIST_CACHE = 64


def is_v5_path(path: str) -> bool:
    """True for the v5 routes: ``/namespaces``, ``/ns`` and ``/ns/…``."""
    return path in ("/namespaces", "/ns") or path.startswith("/ns/")


def _int(query: dict[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = query.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError(400, f"{name} must be an integer") from None
    if not low <= value <= high:
        raise ApiError(400, f"{name} must be between {low} and {high}")
    return value


def _includes(pairs: list[tuple[str, str]], allowed: tuple[str, ...]) -> set[str]:
    """``include`` values, repeated (``include=a&include=b``) or comma-separated."""
    out = {part.strip() for key, value in pairs if key == "include"
           for part in value.split(",") if part.strip()}
    unknown = out - set(allowed)
    if unknown:
        raise ApiError(400, f"include must be among {', '.join(allowed)} "
                            f"(got {', '.join(sorted(unknown))})")
    return out


def _page(items: list[Any], page: int, limit: int, shift: int = 0
          ) -> tuple[list[Any], dict[str, Any]]:
    total = len(items) + shift
    start = max(0, (page - 1) * limit - shift)
    return items[start:max(start, page * limit - shift)], {
        "currentPage": page, "limit": limit, "totalItems": total,
        "totalPages": math.ceil(total / limit)}


def _sorted(items: list[dict[str, Any]], sort: str, order: str) -> list[dict[str, Any]]:
    return sorted(items, key=lambda m: (m.get(sort) or "", m["id"]), reverse=order == "desc")


class SupermemoryV5Api:
    """The v5 routes over the legacy routes' store, feed and pending documents."""

    def __init__(self, legacy: SupermemoryApi) -> None:
        self.legacy, self.store, self.faults = legacy, legacy.store, legacy.faults
        self._indexes = functools.lru_cache(maxsize=2)(self._build_index)
        self._index_lock = threading.Lock()
        #: the lists built for one index (:meth:`_listed`), dropped when the data changes
        self._lists_of: V5Index | None = None
        self._lists: dict[tuple[str, ...], list[dict[str, Any]]] = {}

    def _index(self) -> V5Index:
        version = self.store.data_version()
        with self._index_lock:
            return self._indexes(version)

    def _build_index(self, version: int) -> V5Index:
        feed = self.legacy._feed()
        memories = dict(feed.memories)
        for mem in list(memories.values()):  # versions listed under no document
            if mem.get("parentMemoryId") and mem["parentMemoryId"] not in memories:
                for entry in self.store.history(mem["id"]):
                    memories.setdefault(entry["id"], entry)
        return V5Index.build(feed.docs, memories, feed.memory_docs)

    def route(self, method: str, path: str, pairs: list[tuple[str, str]], body: Any) -> Reply:
        """Answer one v5 request (auth already checked); 429 beyond the fault switch
        ``rate_limit``."""
        if self.faults.over_rate():
            reply = Reply(429, {"error": "Too Many Requests",
                                "details": "Rate limit exceeded, slow down"})
            if self.faults.retry_after is not None:
                reply.headers["Retry-After"] = str(self.faults.retry_after)
            return reply
        query = dict(pairs)
        body = body if isinstance(body, dict) else {}
        if path in ("/namespaces", "/ns"):
            if method != "GET":
                raise ApiError(405, f"Method {method} is not allowed on {path}")
            return self.namespaces(query)
        parts = [unquote(p) for p in path.split("/")[2:]]
        ns, rest = parts[0], parts[1:]
        if not TAG.match(ns):
            raise ApiError(400, "The namespace must be 1-100 characters of [A-Za-z0-9_-]")
        handlers = {
            ("GET", ()): lambda: self.namespace(ns),
            ("POST", ("search",)): lambda: self.search(ns, body),
            ("POST", ("profile",)): lambda: self.profile(ns, body),
            ("POST", ("document",)): lambda: self.add(ns, body),
            ("DELETE", ("memories",)): lambda: self.forget(ns, body),
            ("DELETE", ("memories", "semantic")): lambda: self.forget_semantic(ns, body),
        }
        handler = handlers.get((method, tuple(rest)))
        if handler is not None:
            return handler()
        if method == "POST" and len(rest) == 2 and rest[0] == "list":
            return self.list(ns, rest[1], query, body)
        if method == "GET" and len(rest) == 2 and rest[0] == "document":
            return self.document(ns, rest[1], pairs)
        if method == "GET" and len(rest) == 2 and rest[0] == "memories":
            return self.memory(ns, rest[1], pairs, query)
        raise ApiError(404, f"No route {method} {path}")

    # -- namespaces ----------------------------------------------------------------------

    def _namespace_rows(self) -> list[dict[str, Any]]:
        """Every namespace with its counts and timestamps, newest first."""
        index = self._index()
        spaces = {s["containerTag"]: s for s in self.store.list_spaces()}
        rows = []
        for ns in index.namespaces() | set(spaces):
            docs = index.namespace_docs(ns)
            space = spaces.get(ns) or {}
            stamps = sorted(d["createdAt"] for d in docs) or ["1970-01-01T00:00:00Z"]
            rows.append({
                "id": space.get("id") or f"ns_{ns}", "namespace": ns,
                "documentCount": len(docs),
                "memoryCount": sum(1 for m in index.namespace_memories(ns)
                                   if m.get("isLatest", True) and not m.get("isForgotten")),
                "description": space.get("description") or space.get("name"),
                "system": {"createdAt": space.get("createdAt") or stamps[0],
                           "updatedAt": space.get("updatedAt") or stamps[-1]}})
        rows.sort(key=lambda r: (r["system"]["createdAt"], r["id"]), reverse=True)
        return rows

    def namespaces(self, query: dict[str, str]) -> Reply:
        """``GET /namespaces`` (alias ``GET /ns``): ``NamespaceList``."""
        page = _int(query, "page", 1, 1, 10**9)
        limit = _int(query, "limit", DEFAULT_LIMIT, 1, 100)
        needle = (query.get("q") or "").casefold()
        rows = [r for r in self._namespace_rows() if needle in r["namespace"].casefold()]
        items, pagination = _page(rows, page, limit)
        return Reply(200, {"namespaces": items, "pagination": pagination})

    def namespace(self, ns: str) -> Reply:
        """``GET /ns/{ns}``: ``NamespaceDetails``."""
        row = next((r for r in self._namespace_rows() if r["namespace"] == ns), None)
        if row is None:
            raise ApiError(404, f"Namespace {ns} not found")
        return Reply(200, {"namespace": ns, "supportingContext": row["description"],
                           "system": row["system"]})

    # -- lists ---------------------------------------------------------------------------

    def list(self, ns: str, kind: str, query: dict[str, str], body: dict[str, Any]) -> Reply:
        """``POST /ns/{ns}/list/{documents|chunks|memories}``: ``ListResponse``."""
        if kind not in LIST_TYPES:
            raise ApiError(400, f"The list type must be one of {', '.join(LIST_TYPES)}")
        page = _int(query, "page", 1, 1, 10**9)
        limit = _int(query, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        sort, order = query.get("sort") or "createdAt", query.get("order") or "desc"
        sorts = ("createdAt", "updatedAt", "position") if kind == "chunks" else (
            "createdAt", "updatedAt")
        if sort not in sorts or order not in ("asc", "desc"):
            raise ApiError(400, f"sort must be one of {', '.join(sorts)}, order asc or desc")
        include = body.get("include") or {}
        if not isinstance(include, dict):
            raise ApiError(400, "include must be an object")
        if page in self.faults.fail_pages:
            raise ApiError(self.faults.fail_status,
                           self.faults.error_details or f"Page {page} failed")
        items = self._listed(ns, kind, sort, order, include, body.get("filter"))
        out: dict[str, Any] = {"documents": [], "chunks": [], "memories": []}
        shift = self.faults.shift if page > 1 else 0
        out[kind], pagination = _page(items, page, limit, shift)
        if not self.faults.omit_pagination:
            out["pagination"] = pagination
        return Reply(200, out)

    def _listed(self, ns: str, kind: str, sort: str, order: str, include: dict[str, Any],
                flt: Any) -> list[dict[str, Any]]:
        """Every item of one list in its order, built once per data version and query
        (a page is a slice of it), as a service's index answers a page without reading the
        whole namespace again."""
        index = self._index()
        key = (ns, kind, sort, order, json.dumps(include, sort_keys=True, default=str),
               json.dumps(flt, sort_keys=True, default=str))
        with self._index_lock:
            if self._lists_of is not index:
                self._lists_of, self._lists = index, {}
            items = self._lists.get(key)
        if items is not None:
            return items
        if kind == "memories":
            rows = [m for m in index.namespace_memories(ns)
                    if (include.get("forgotten") or not m.get("isForgotten"))
                    and matches(flt, m.get("metadata") or {})]
            items = [memory_json(m) for m in _sorted(rows, sort, order)]
        elif kind == "documents":
            docs = [d for d in index.namespace_docs(ns) if matches(flt, d.get("metadata") or {})]
            items = [list_document(d, ns, include) for d in _sorted(docs, sort, order)]
        else:
            items = self._chunks(index, ns, sort, order, flt)
        with self._index_lock:
            if self._lists_of is index and len(self._lists) < LIST_CACHE:
                self._lists[key] = items
        return items

    @staticmethod
    def _chunks(index: V5Index, ns: str, sort: str, order: str,
                flt: Any) -> list[dict[str, Any]]:
        rows = []
        for d in index.namespace_docs(ns):
            for pos, text in enumerate(chunk_texts(d)):
                if matches(flt, {}):
                    rows.append((d, pos, text))
        key = (lambda r: (r[0]["id"], r[1])) if sort == "position" else (
            lambda r: (r[0][sort], r[0]["id"], r[1]))
        rows.sort(key=key, reverse=order == "desc")
        return [chunk_json(d, pos, text, with_document_id=True) for d, pos, text in rows]

    # -- one document, one memory --------------------------------------------------------

    def document(self, ns: str, doc_id: str, pairs: list[tuple[str, str]]) -> Reply:
        """``GET /ns/{ns}/document/{id}?include=chunks,memories``: ``Document``; each read
        of an added document moves it on, as the legacy status read does."""
        include = _includes(pairs, DOCUMENT_INCLUDES)
        pending = self.legacy.advance(doc_id, ns)
        if pending is not None:
            out: dict[str, Any] = {
                "id": pending.id, "title": pending.title, "type": "text",
                "summary": None, "content": pending.content, "metadata": {},
                "system": {"status": pending.status, "dreamingStatus": "dreaming",
                           "createdAt": pending.created, "updatedAt": pending.created}}
            out.update({k: [] for k in include})
            return Reply(200, out)
        doc = self._index().docs.get(doc_id)
        if doc is None or namespace_of(doc) != ns:
            raise ApiError(404, f"Document {doc_id} not found in namespace {ns}")
        out = {"id": doc["id"], "title": doc.get("title"), "type": doc.get("type") or "text",
               "summary": doc.get("summary"), "content": doc.get("content"),
               "metadata": doc.get("metadata") or {},
               "system": {"status": doc.get("status") or "done", "dreamingStatus": "done",
                          "createdAt": doc["createdAt"], "updatedAt": doc["updatedAt"]}}
        if "chunks" in include:
            out["chunks"] = [chunk_json(doc, pos, text, with_document_id=False)
                             for pos, text in enumerate(chunk_texts(doc))]
        if "memories" in include:
            out["memories"] = [memory_json(e) for e in doc.get("memoryEntries") or []]
        return Reply(200, out)

    def memory(self, ns: str, mem_id: str, pairs: list[tuple[str, str]],
               query: dict[str, str]) -> Reply:
        """``GET /ns/{ns}/memories/{id}?include=related&include=documents&relatedLimit=N``:
        ``MemoryDetails`` (a forgotten memory too, with ``isForgotten``)."""
        include = _includes(pairs, MEMORY_INCLUDES)
        limit = _int(query, "relatedLimit", DEFAULT_RELATED_LIMIT, 1, MAX_RELATED_LIMIT)
        index = self._index()
        mem = index.memories.get(mem_id)
        if mem is None or index.memory_namespace(mem) != ns:
            raise ApiError(404, f"Memory {mem_id} not found in namespace {ns}")
        out = memory_json(mem)
        if include:
            included: dict[str, Any] = {}
            if "related" in include:
                included["related"] = index.related(mem_id, limit,
                                                    with_documents="documents" in include)
            doc = index.source_document(mem_id) if "documents" in include else None
            if doc is not None:
                included["document"] = document_brief(doc)
            out["included"] = included
        return Reply(200, out)

    # -- forget --------------------------------------------------------------------------

    def forget(self, ns: str, body: dict[str, Any]) -> Reply:
        """``DELETE /ns/{ns}/memories {ids}``: ``ForgetResult`` with one match or one error
        per id; each forget is the store's soft forget (ledgered, history kept)."""
        ids = body.get("ids")
        if not isinstance(ids, list) or not all(isinstance(i, str) and i for i in ids) \
                or not 1 <= len(ids) <= FORGET_MAX_IDS:
            raise ApiError(400, f"ids must be a list of 1 to {FORGET_MAX_IDS} memory ids")
        index = self._index()
        found, errors = [], []
        for mem_id in dict.fromkeys(ids):
            mem = self.store.get_memory(mem_id)
            if mem is None or index.memory_namespace(mem) != ns:
                errors.append({"id": mem_id, "error": f"Memory not found in namespace {ns}"})
            elif mem["isForgotten"]:
                errors.append({"id": mem_id, "error": "Memory is already forgotten"})
            else:
                try:
                    self.store.forget_memory(mem_id, None, source="sandbox")
                except StoreError as exc:
                    errors.append({"id": mem_id, "error": str(exc)})
                    continue
                found.append({"id": mem_id, "memory": mem["memory"]})
        return Reply(200, {"count": len(found), "errors": errors, "matches": found})

    def forget_semantic(self, ns: str, body: dict[str, Any]) -> Reply:
        """``DELETE /ns/{ns}/memories/semantic {query, dryRun}``: the memories the store's
        text search finds for ``query`` (current ones of this namespace); a dry run changes
        nothing."""
        query, dry = body.get("query"), body.get("dryRun")
        if not isinstance(query, str) or not query.strip():
            raise ApiError(400, "query is required: what the memories to forget are about")
        if not isinstance(dry, bool):
            raise ApiError(400, "dryRun is required: true previews the matches, false "
                                "forgets them")
        index = self._index()
        hits = self.store.search(query, limit=SEMANTIC_LIMIT, container_tag=ns)["hits"]
        found = []
        for hit in hits:
            mem = index.memories.get(hit["id"]) if hit["kind"] == "memory" else None
            if mem is not None and not mem.get("isForgotten") \
                    and index.memory_namespace(mem) == ns:
                found.append({"id": mem["id"], "memory": mem.get("memory") or ""})
        errors = []
        if not dry:
            for item in list(found):
                try:
                    self.store.forget_memory(item["id"], None, source="sandbox")
                except StoreError as exc:
                    found.remove(item)
                    errors.append({"id": item["id"], "error": str(exc)})
        return Reply(200, {"count": len(found), "errors": errors, "matches": found})

    # -- search, profile, add ------------------------------------------------------------

    def search(self, ns: str, body: dict[str, Any]) -> Reply:
        """``POST /ns/{ns}/search``: memory and chunk results by ``searchMode``."""
        query, mode = body.get("query"), body.get("searchMode", "hybrid")
        if not isinstance(query, str) or not query.strip():
            raise ApiError(400, "query is required")
        if mode not in SEARCH_MODES:
            raise ApiError(400, f"searchMode must be one of {', '.join(SEARCH_MODES)}")
        limit = body.get("limit", DEFAULT_LIMIT)
        threshold = body.get("threshold", 0)
        include = body.get("include") or {}
        if not isinstance(limit, int) or not 1 <= limit <= 100 \
                or not isinstance(threshold, int | float) or not isinstance(include, dict):
            raise ApiError(400, "limit must be 1-100, threshold 0-1, include an object")
        words, index, flt = _words(query), self._index(), body.get("filter")
        scored: list[tuple[float, int, dict[str, Any]]] = []
        if mode != "chunks":
            for m in index.namespace_memories(ns):
                score = _overlap(words, m.get("memory") or "") if words else 0.0
                if score > 0 and (include.get("forgotten") or not m.get("isForgotten")) \
                        and matches(flt, m.get("metadata") or {}):
                    scored.append((score, 0, memory_hit(index, m, score, include)))
        if mode != "memories":
            for d in index.namespace_docs(ns):
                for pos, text in enumerate(chunk_texts(d)):
                    score = _overlap(words, text) if words else 0.0
                    if score > 0 and matches(flt, d.get("metadata") or {}):
                        scored.append((score, 1, chunk_hit(d, pos, text, score, include)))
        scored.sort(key=lambda s: (-s[0], s[1], s[2]["id"]))
        results = [hit for score, _, hit in scored if score >= threshold][:limit]
        return Reply(200, {"results": results, "searchTime": 1.0})

    def profile(self, ns: str, body: dict[str, Any]) -> Reply:
        """``POST /ns/{ns}/profile``: entries ``{id, memory}``; a line citing exactly one
        memory carries its id, any other an ``aggregated_`` id."""
        raw = self.store.profile(ns)
        profile: dict[str, Any] = {"buckets": {}}
        for kind in ("static", "dynamic"):
            profile[kind] = [
                {"id": line["memoryIds"][0] if len(line["memoryIds"]) == 1
                 else f"aggregated_{ns}_{kind}_{pos}", "memory": line["text"]}
                for pos, line in enumerate(raw[kind])]
        return Reply(200, {"profile": {k: profile[k] for k in ("static", "dynamic",
                                                               "buckets")}})

    def add(self, ns: str, body: dict[str, Any]) -> Reply:
        """``POST /ns/{ns}/document``: ``DocumentRef`` ``queued``; reads of
        ``GET /ns/{ns}/document/{id}`` then move it on like the legacy add. A caller id
        already stored answers its state (``done``) and changes nothing."""
        content, doc_id, meta = body.get("content"), body.get("id"), body.get("metadata")
        if not isinstance(content, str) or not content.strip():
            raise ApiError(400, "content is required")
        if doc_id is not None and (not isinstance(doc_id, str) or not TAG.match(doc_id)):
            raise ApiError(400, "id must be 1-100 characters of [A-Za-z0-9_-]")
        if meta is not None and not isinstance(meta, dict):
            raise ApiError(400, "metadata must be an object")
        if doc_id and doc_id in self._index().docs:
            return Reply(200, {"id": doc_id, "status": "done"})
        title = (meta or {}).get("title")
        title = title if isinstance(title, str) else None
        return Reply(200, {"id": self.legacy.queue(content, ns, title, doc_id),
                           "status": "queued"})
