"""The sandbox's Supermemory routes (v3/v4), served from the embedded store.

``POST /v3/documents`` answers ``queued``; each ``GET /v3/documents/{id}`` then moves the
document on (``extracting``, ``chunking`` … for ``faults.processing_polls`` reads) until
it is stored with one memory (``done``) or, when ``faults.fail_processing`` caught it,
``failed`` with nothing stored. ``/v4/search`` answers memory results and chunk results
(lines of the documents' content), as hybrid search does.
"""

from __future__ import annotations

import functools
import json
import math
import re
import threading
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import unquote

from memscope.sandbox.faults import Faults
from memscope.store.store import Store, StoreError, StoreNotFound

TAG = re.compile(r"^[A-Za-z0-9_-]{1,100}$")
#: what a status read answers while an added document is being processed
PROCESSING = ("extracting", "chunking", "embedding", "indexing")


class ApiError(Exception):
    """An error answer: status and the service's own text."""

    def __init__(self, status: int, details: Any, error: str | None = None) -> None:
        super().__init__(str(details))
        self.status, self.details, self.error = status, details, error


@dataclass
class Reply:
    """An answer: a JSON value or pre-encoded bytes, and extra headers."""

    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class _Pending:
    """A document accepted by ``POST /v3/documents`` and not processed yet."""

    id: str
    content: str
    tag: str
    title: str | None
    created: str
    polls_left: int
    fail: bool
    status: str = "queued"

    def answer(self) -> dict[str, Any]:
        """The ``GET /v3/documents/{id}`` answer while processing (no memories yet)."""
        return {"id": self.id, "status": self.status, "title": self.title,
                "content": self.content, "type": "text", "containerTags": [self.tag],
                "createdAt": self.created, "updatedAt": self.created,
                "dreamingStatus": "dreaming", "latestRevision": 1, "raw": self.content,
                "taskType": "memory"}


#: keys of a memory in a ``GET /v3/documents/{id}`` answer (``memories[]``)
DOCUMENT_MEMORY_KEYS = ("id", "memory", "createdAt", "updatedAt", "isForgotten",
                        "isInference", "isLatest", "isStatic", "metadata", "parentMemoryId",
                        "rootMemoryId", "sourceCount", "version")


def document_answer(doc: dict[str, Any]) -> dict[str, Any]:
    """A stored feed document as ``GET /v3/documents/{id}`` answers it: ``memories``
    instead of the feed's ``memoryEntries``, plus the processing fields."""
    out = {k: v for k, v in doc.items() if k != "memoryEntries"}
    out.update(dreamingStatus="done", latestRevision=1, raw=doc.get("content"),
               taskType="memory")
    if doc.get("memoryEntries"):
        out["memories"] = [{k: e.get(k) for k in DOCUMENT_MEMORY_KEYS}
                           for e in doc["memoryEntries"]]
    return out


def _object(value: Any) -> dict[str, Any] | None:
    """``metadata`` as the API types it in search answers: an object or null."""
    return value if isinstance(value, dict) else None


@dataclass
class _Feed:
    docs: list[dict[str, Any]]
    encoded: list[bytes]
    memories: dict[str, dict[str, Any]]
    memory_docs: dict[str, list[str]]
    by_id: dict[str, dict[str, Any]] = field(default_factory=dict)


class SupermemoryApi:
    """Routes of the Supermemory API over a :class:`~memscope.store.store.Store`."""

    def __init__(self, store: Store, faults: Faults) -> None:
        self.store, self.faults = store, faults
        self._lock = threading.Lock()
        self._pending: dict[str, _Pending] = {}
        #: whole feeds by (data version, tags, sort, order): a write makes a new version
        self._feeds = functools.lru_cache(maxsize=2)(self._build_feed)
        self._feed_lock = threading.Lock()  # concurrent page reads build a feed once

    def _feed(self, tags: tuple[str, ...] = (), sort: str = "createdAt",
              order: str = "desc") -> _Feed:
        version = self.store.data_version()
        with self._feed_lock:
            return self._feeds(version, tags, sort, order)

    def _build_feed(self, version: int, tags: tuple[str, ...], sort: str,
                    order: str) -> _Feed:
        """Every document of the store (for ``tags``) in feed order, encoded once."""
        first = self.store.list_documents(1, 1, list(tags), sort, order)
        total = first["pagination"]["totalItems"]
        docs = (self.store.list_documents(1, max(1, total), list(tags), sort, order)
                ["documents"] if total else [])
        memories: dict[str, dict[str, Any]] = {}
        memory_docs: dict[str, list[str]] = {}
        for doc in docs:
            for entry in doc["memoryEntries"]:
                memories.setdefault(entry["id"], entry)
                memory_docs.setdefault(entry["id"], []).append(doc["id"])
        return _Feed(docs, [json.dumps(d, ensure_ascii=False).encode() for d in docs],
                     memories, memory_docs, {d["id"]: d for d in docs})

    def route(self, method: str, path: str, body: Any) -> Reply:
        """Answer one request (auth already checked)."""
        body = body if isinstance(body, dict) else {}
        routes = {
            ("POST", "/v3/documents/documents"): self.documents,
            ("GET", "/v3/container-tags/list"): self.spaces,
            ("POST", "/v4/profile"): self.profile,
            ("POST", "/v4/search"): self.search,
            ("POST", "/v4/memories/list"): self.memories_list,
            ("DELETE", "/v4/memories"): self.forget,
            ("POST", "/v4/memories/forget-matching"): self.forget_matching,
            ("POST", "/v3/documents"): self.add_document,
        }
        handler = routes.get((method, path))
        if handler is not None:
            return handler(body)
        if method == "GET" and path.startswith("/v3/documents/"):
            return self.get_document(unquote(path.rsplit("/", 1)[-1]))
        if any(p == path for _, p in routes):
            raise ApiError(405, f"Method {method} is not allowed on {path}")
        raise ApiError(404, f"No route {method} {path}")

    # -- the feed ------------------------------------------------------------------------

    def documents(self, body: dict[str, Any]) -> Reply:
        page, limit = body.get("page", 1), body.get("limit", 10)
        sort, order = body.get("sort", "createdAt"), body.get("order", "desc")
        if not isinstance(page, int) or not isinstance(limit, int) or page < 1 or \
                not 1 <= limit <= 1100:
            raise ApiError(400, "page must be ≥ 1 and limit between 1 and 1100")
        if sort not in ("createdAt", "updatedAt") or order not in ("asc", "desc"):
            raise ApiError(400, "sort must be createdAt or updatedAt, order asc or desc")
        tags = body.get("containerTags") or []
        if not isinstance(tags, list) or not all(isinstance(t, str) and TAG.match(t)
                                                 for t in tags):
            raise ApiError(400, "containerTags must be a list of [A-Za-z0-9_-] tags")
        if page in self.faults.fail_pages:
            status = self.faults.fail_status
            raise ApiError(status, self.faults.error_details or f"Page {page} failed")
        feed = self._feed(tuple(tags), sort, order)
        shift = self.faults.shift if page > 1 else 0
        total = len(feed.docs) + shift
        start = max(0, (page - 1) * limit - shift)
        chunk = feed.encoded[start:max(start, page * limit - shift)]
        pagination = {"currentPage": page, "limit": limit, "totalItems": total,
                      "totalPages": math.ceil(total / limit)}
        raw = b'{"documents":[' + b",".join(chunk) + b"]"
        if not self.faults.omit_pagination:
            raw += b',"pagination":' + json.dumps(pagination).encode()
        raw += b"}"
        return Reply(200, raw)

    def get_document(self, doc_id: str) -> Reply:
        """A processed document from the store, or the status of one being processed: each
        read moves it one step on (``faults.processing_polls`` reads, then ``done`` — or
        ``failed`` when ``faults.fail_processing`` caught it)."""
        pending = self.advance(doc_id)
        if pending is not None:
            return Reply(200, pending.answer())
        doc = self._feed().by_id.get(doc_id)
        if doc is None:
            raise ApiError(404, f"Document {doc_id} not found")
        return Reply(200, document_answer(doc))

    def add_document(self, body: dict[str, Any]) -> Reply:
        """Accept a text for asynchronous processing (see :meth:`get_document`)."""
        content, tag = body.get("content"), body.get("containerTag") or "sm_project_default"
        if not isinstance(content, str) or not content.strip():
            raise ApiError(400, "content is required")
        if not isinstance(tag, str) or not TAG.match(tag):
            raise ApiError(400, "containerTag must be 1-100 characters of [A-Za-z0-9_-]")
        meta = body.get("metadata")
        title = meta.get("title") if isinstance(meta, dict) else None
        title = title if isinstance(title, str) else None
        return Reply(200, {"id": self.queue(content, tag, title), "status": "queued"})

    def queue(self, content: str, tag: str, title: str | None,
              doc_id: str | None = None) -> str:
        """Accept a document for processing (both dialects' add); returns its id."""
        doc_id = doc_id or f"doc_{uuid.uuid4().hex[:16]}"
        created = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        with self._lock:
            self._pending[doc_id] = _Pending(doc_id, content, tag, title, created,
                                             max(0, self.faults.processing_polls),
                                             self.faults.take("fail_processing"))
        return doc_id

    def advance(self, doc_id: str, tag: str | None = None) -> _Pending | None:
        """One status read of an added document (both dialects): moves it one step on and
        returns it while it is processing or failed; ``None`` once stored, unknown, or
        (with ``tag``) added to another space — then it is not moved on."""
        with self._lock:
            pending = self._pending.get(doc_id)
            if pending is not None and tag is not None and pending.tag != tag:
                return None
            if pending is not None and pending.status != "failed":
                if pending.polls_left > 0:
                    step = self.faults.processing_polls - pending.polls_left
                    pending.status = PROCESSING[min(step, len(PROCESSING) - 1)]
                    pending.polls_left -= 1
                elif pending.fail:
                    pending.status = "failed"
                else:
                    self.store.add_document(pending.content, pending.tag, title=pending.title,
                                            source="sandbox", document_id=pending.id)
                    del self._pending[doc_id]
                    pending = None
            return pending

    # -- spaces, profile, search -------------------------------------------------------

    def spaces(self, body: dict[str, Any]) -> Reply:
        status = self.faults.spaces_status
        if status is not None and status >= 400:
            raise ApiError(status, self.faults.error_details or
                           "This API key cannot list container tags")
        return Reply(200, self.store.list_spaces())

    def profile(self, body: dict[str, Any]) -> Reply:
        tag = body.get("containerTag")
        if not isinstance(tag, str) or not TAG.match(tag):
            raise ApiError(400, "containerTag is required")
        raw = self.store.profile(tag)
        profile = {kind: [line["text"] for line in raw[kind]] for kind in ("static", "dynamic")}
        results = None
        if isinstance(body.get("q"), str):
            hits = self._search(body["q"], tag, 10)
            results = {"results": hits, "total": len(hits), "timing": 1}
        return Reply(200, {"profile": profile, "searchResults": results})

    def _search(self, query: str, tag: str | None, limit: int) -> list[dict[str, Any]]:
        words = _words(query)
        if not words:
            return []
        feed = self._feed()
        scored = []
        for mem in feed.memories.values():
            if tag and mem.get("spaceContainerTag") != tag:
                continue
            score = _overlap(words, mem.get("memory") or "")
            if score > 0:
                scored.append((score, mem))
        scored.sort(key=lambda s: (-s[0], s[1]["id"]))
        return [{"id": m["id"], "memory": m["memory"], "similarity": round(s, 3),
                 "metadata": _object(m.get("metadata")), "updatedAt": m["updatedAt"],
                 "version": m["version"], "rootMemoryId": m.get("rootMemoryId"),
                 "documents": [{"id": d, "createdAt": feed.by_id[d]["createdAt"],
                                "updatedAt": feed.by_id[d]["updatedAt"]}
                               for d in feed.memory_docs.get(m["id"], [])],
                 "context": {"parents": [], "children": [], "related": []}}
                for s, m in scored[:limit]]

    def _chunks(self, query: str, tag: str | None, limit: int) -> list[dict[str, Any]]:
        """Chunk results: the lines of each document's content (or its summary)."""
        words = _words(query)
        if not words:
            return []
        scored = []
        for doc in self._feed((tag,) if tag else ()).docs:
            text = doc.get("content") or doc.get("summary") or ""
            for pos, chunk in enumerate(c.strip() for c in re.split(r"\n+", text)):
                score = _overlap(words, chunk) if chunk else 0.0
                if score > 0:
                    scored.append((score, doc, pos, chunk))
        scored.sort(key=lambda s: (-s[0], s[1]["id"], s[2]))
        return [{"id": f"{doc['id']}#chunk{pos}", "chunk": chunk, "similarity": round(s, 3),
                 "metadata": _object(doc.get("metadata")), "updatedAt": doc["updatedAt"],
                 "documents": [{"id": doc["id"], "title": _text(doc.get("title")),
                                "type": _text(doc.get("type")),
                                "createdAt": doc["createdAt"],
                                "updatedAt": doc["updatedAt"]}]}
                for s, doc, pos, chunk in scored[:limit]]

    def search(self, body: dict[str, Any]) -> Reply:
        """Hybrid search: memory results and chunk results, best first (memories first on
        a tie), ``limit`` in all; ``searchMode`` ``memories`` or ``documents`` picks one."""
        query = body.get("q")
        if not isinstance(query, str) or not query.strip():
            raise ApiError(400, "q is required")
        limit = body.get("limit", 10) if isinstance(body.get("limit"), int) else 10
        tag = body.get("containerTag") if isinstance(body.get("containerTag"), str) else None
        mode = body.get("searchMode", "hybrid")
        hits = [] if mode == "documents" else self._search(query, tag, limit)
        if mode != "memories":
            hits += self._chunks(query, tag, limit)
        hits.sort(key=lambda h: (-h["similarity"], "chunk" in h))
        hits = hits[:limit]
        return Reply(200, {"results": hits, "total": len(hits), "timing": 1})

    # -- memories ----------------------------------------------------------------------

    def memories_list(self, body: dict[str, Any]) -> Reply:
        tags = body.get("containerTags")
        if not isinstance(tags, list) or not tags or not all(
                isinstance(t, str) and TAG.match(t) for t in tags):
            raise ApiError(400, "containerTags is required: 1+ tags of [A-Za-z0-9_-]")
        page, limit = body.get("page", 1), body.get("limit", 50)
        if not isinstance(page, int) or not isinstance(limit, int) or page < 1 or limit < 1:
            raise ApiError(400, "page and limit must be positive integers")
        memories = {i: m for i, m in self._feed().memories.items()
                    if m.get("spaceContainerTag") in tags}
        for mem_id, mem in list(memories.items()):  # versions listed under no document
            if not mem.get("parentMemoryId") or mem["parentMemoryId"] in memories:
                continue
            for entry in self.store.history(mem_id):
                if entry.get("spaceContainerTag") in tags:
                    memories.setdefault(entry["id"], entry)
        parents = {m.get("parentMemoryId") for m in memories.values()}
        tips = sorted((m for i, m in memories.items() if i not in parents),
                      key=lambda m: (m["createdAt"], m["id"]), reverse=True)
        out = []
        for tip in tips[(page - 1) * limit: page * limit]:
            history, seen, cur = [], {tip["id"]}, tip.get("parentMemoryId")
            while cur and cur in memories and cur not in seen:
                seen.add(cur)
                old = memories[cur]
                history.append({k: old.get(k) for k in (
                    "id", "memory", "version", "createdAt", "updatedAt", "parentMemoryId",
                    "rootMemoryId", "isLatest", "isForgotten")})
                cur = old.get("parentMemoryId")
            entry = {k: tip.get(k) for k in (
                "id", "memory", "version", "isLatest", "isForgotten", "isStatic",
                "isInference", "createdAt", "updatedAt", "sourceCount", "parentMemoryId",
                "rootMemoryId")}
            entry["documentIds"] = self._feed().memory_docs.get(tip["id"], [])
            entry["history"] = history
            out.append(entry)
        return Reply(200, {"memoryEntries": out, "pagination": {
            "currentPage": page, "limit": limit, "totalItems": len(tips),
            "totalPages": math.ceil(len(tips) / limit)}})

    def _find(self, body: dict[str, Any]) -> dict[str, Any]:
        mem_id, content, tag = body.get("id"), body.get("content"), body.get("containerTag")
        mem = None
        if isinstance(mem_id, str) and mem_id:
            mem = self.store.get_memory(mem_id)
        elif isinstance(content, str) and content:
            mem = next((m for m in self._feed().memories.values()
                        if m.get("memory") == content), None)
        else:
            raise ApiError(400, "id or content is required")
        if mem is None or (tag and mem.get("spaceContainerTag") != tag):
            raise ApiError(404, "Memory not found")
        return mem

    def forget(self, body: dict[str, Any]) -> Reply:
        """Soft-forget one memory by id (or exact content) in its space: ``containerTag``
        is required, as the API declares it."""
        tag = body.get("containerTag")
        if not isinstance(tag, str) or not TAG.match(tag):
            raise ApiError(400, "containerTag is required: the space of the memory")
        mem = self._find(body)
        try:
            self.store.forget_memory(mem["id"], body.get("reason"), source="sandbox")
        except StoreNotFound as exc:
            raise ApiError(404, str(exc)) from None
        return Reply(200, {"id": mem["id"], "forgotten": True})

    def forget_matching(self, body: dict[str, Any]) -> Reply:
        ids, tag = body.get("ids"), body.get("containerTag")
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise ApiError(400, "ids must be a list of memory ids")
        dry = body.get("dryRun", True) is not False
        found = []
        for mem_id in dict.fromkeys(ids):
            mem = self.store.get_memory(mem_id)
            if mem and not mem["isForgotten"] and (not tag or mem["spaceContainerTag"] == tag):
                found.append({"id": mem_id, "memory": mem["memory"], "score": 1.0})
        if not dry:
            for item in found:
                try:
                    self.store.forget_memory(item["id"], body.get("reason"), source="sandbox")
                except StoreError:
                    continue
        key = "candidates" if dry else "forgotten"
        verb = "would be forgotten" if dry else "forgotten"
        return Reply(200, {"dryRun": dry, "count": len(found), key: found,
                           "forgetBatchId": None if dry else f"fb_{uuid.uuid4().hex[:12]}",
                           "summary": f"{len(found)} memories {verb}."})


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _words(query: str) -> list[str]:
    return [w for w in re.findall(r"\w+", query.casefold()) if w]


def _overlap(words: list[str], text: str) -> float:
    """Share of the query's words that occur in ``text``."""
    low = text.casefold()
    return sum(w in low for w in words) / len(words)
