"""The sandbox's mem0 platform routes, served from the same store as the other APIs.

The store's version chains are read as mem0 memories: a chain's main line (from its root,
each time the child marked latest, else the newest) is one mem0 memory whose id is the
line's last version's and whose history is an ``ADD`` (the root's text), an ``UPDATE``
per later version (old and new text) and a ``DELETE`` when that last version is forgotten
(a deleted memory is no longer listed). A space is the user entity of its container tag.
Deleting forgets the store's memory, adding stores a document with one memory, so every
API of the sandbox sees the change. Routes (under the ``/mem0`` prefix, see
:mod:`memscope.sandbox.mem0_server`) are the ones ``mem0ai``'s ``MemoryClient`` 2.2.1
calls.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from memscope.sandbox.faults import Faults
from memscope.sandbox.supermemory_api import TAG, ApiError, Reply, SupermemoryApi, _overlap, _words

PREFIX = "/mem0"
MAX_PAGE_SIZE = 1000
BATCH_LIMIT = 1000
ORG, PROJECT = "org_sandbox", "proj_sandbox"
_ONE = re.compile(r"^/v1/memories/([^/]+)/(history/)?$")
_ENTITY_KEYS = ("user_id", "agent_id", "app_id", "run_id")


@dataclass
class _View:
    """The store as mem0 memories: listed ones newest first, every history by id."""

    memories: dict[str, dict[str, Any]] = field(default_factory=dict)
    listed: list[str] = field(default_factory=list)
    history: dict[str, list[dict[str, Any]]] = field(default_factory=dict)


def _main_line(root: dict[str, Any], children: dict[str, list[dict[str, Any]]]
               ) -> list[dict[str, Any]]:
    line, seen = [root], {root["id"]}
    while kids := [k for k in children.get(line[-1]["id"], []) if k["id"] not in seen]:
        nxt = next((k for k in kids if k.get("isLatest")), None) or max(
            kids, key=lambda k: (k.get("createdAt") or "", k["id"]))
        line.append(nxt)
        seen.add(nxt["id"])
    return line


def _event(mem_id: str, entry: dict[str, Any], kind: str, old: str | None,
           new: str | None, at: str | None, user: str | None) -> dict[str, Any]:
    return {"id": f"hist_{entry['id']}" + ("_del" if kind == "DELETE" else ""),
            "memory_id": mem_id, "input": [], "old_memory": old, "new_memory": new,
            "user_id": user, "categories": [], "event": kind, "metadata": None,
            "created_at": at, "updated_at": at}


def build_view(entries: dict[str, dict[str, Any]]) -> _View:
    """Every chain of ``entries`` (store memory entries by id) as a mem0 memory."""
    children: dict[str, list[dict[str, Any]]] = {}
    for entry in entries.values():
        parent = entry.get("parentMemoryId")
        if parent in entries:
            children.setdefault(parent, []).append(entry)
    view = _View()
    roots = [e for e in entries.values() if e.get("parentMemoryId") not in entries]
    for root in roots:
        line = _main_line(root, children)
        last, user = line[-1], root.get("spaceContainerTag")
        mem_id = last["id"]
        events = [_event(mem_id, root, "ADD", None, root["memory"], root.get("createdAt"),
                         user)]
        events += [_event(mem_id, v, "UPDATE", p["memory"], v["memory"], v.get("createdAt"),
                          user) for p, v in itertools.pairwise(line)]
        if last.get("isForgotten"):
            events.append(_event(mem_id, last, "DELETE", last["memory"], None,
                                 last.get("updatedAt"), user))
        view.history[mem_id] = events
        expiry = last.get("forgetAfter")
        view.memories[mem_id] = {
            "id": mem_id, "memory": last["memory"], "user_id": user, "agent_id": None,
            "app_id": None, "run_id": None,
            "hash": hashlib.md5(last["memory"].encode(), usedforsecurity=False).hexdigest(),
            "metadata": last.get("metadata") or None, "categories": [],
            "created_at": root.get("createdAt"), "updated_at": last.get("createdAt"),
            "expiration_date": expiry[:10] if isinstance(expiry, str) else None,
            "immutable": False}
        if not last.get("isForgotten"):
            view.listed.append(mem_id)
    view.listed.sort(key=lambda m: (view.memories[m]["created_at"] or "", m), reverse=True)
    return view


def _matches(memory: dict[str, Any], filters: Any) -> bool:
    """mem0's filter object: entity keys (``"*"`` is any), ``AND`` and ``OR`` lists."""
    if not isinstance(filters, dict) or not filters:
        return False
    for key, value in filters.items():
        if key in ("AND", "OR"):
            if not isinstance(value, list):
                raise ApiError(400, f"{key} must be a list of filters")
            parts = [_matches(memory, part) for part in value]
            if not (all(parts) if key == "AND" else any(parts)):
                return False
        elif key in _ENTITY_KEYS:
            if value != "*" and memory.get(key) != value:
                return False
            if value == "*" and not memory.get(key):
                return False
        else:
            raise ApiError(400, f"Unsupported filter: {key}")
    return True


def _int(value: Any, default: int, name: str, top: int) -> int:
    if value is None:
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise ApiError(400, f"{name} must be a whole number") from None
    if not 1 <= number <= top:
        raise ApiError(400, f"{name} must be between 1 and {top}")
    return number


class Mem0Api:
    """mem0's platform routes over the Supermemory routes' store (and their feed cache)."""

    def __init__(self, sm: SupermemoryApi, faults: Faults) -> None:
        self.sm, self.faults = sm, faults
        self.store = sm.store
        self._views = functools.lru_cache(maxsize=2)(self._build)
        self._lock = threading.Lock()

    def _build(self, version: int) -> _View:
        return build_view(self.sm._feed().memories)

    def view(self) -> _View:
        """The current store as mem0 memories (rebuilt after every write)."""
        version = self.store.data_version()
        with self._lock:
            return self._views(version)

    def route(self, method: str, path: str, query: dict[str, str], body: Any,
              base: str) -> Reply:
        """Answer one request to ``path`` (without the prefix); auth already checked."""
        body = body if isinstance(body, dict) else {}
        if (method, path) == ("GET", "/v1/ping/"):
            return Reply(200, {"status": "ok", "message": "API key is valid", "org_id": ORG,
                               "project_id": PROJECT, "user_email": "sandbox@memscope.invalid"})
        if (method, path) == ("POST", "/v3/memories/"):
            return self.list(body, query, base)
        if (method, path) == ("POST", "/v3/memories/search/"):
            return self.search(body)
        if (method, path) == ("POST", "/v3/memories/add/"):
            return self.add(body)
        if (method, path) == ("GET", "/v1/entities/"):
            return self.entities()
        if (method, path) == ("DELETE", "/v1/batch/"):
            return self.batch_delete(body)
        found = _ONE.match(path)
        if found and method == "GET":
            return self.history(found[1]) if found[2] else self.one(found[1])
        if found and method == "DELETE" and not found[2]:
            return self.delete(found[1])
        raise ApiError(404, "Not found.")

    def list(self, body: dict[str, Any], query: dict[str, str], base: str) -> Reply:
        """``POST /v3/memories/``: one page of the memories the filters match."""
        if "filters" not in body:
            raise ApiError(400, "filters are required, e.g. {\"user_id\": \"alice\"}")
        page = _int(query.get("page"), 1, "page", 10**9)
        size = _int(query.get("page_size"), 100, "page_size", MAX_PAGE_SIZE)
        if page in self.faults.fail_pages:
            raise ApiError(self.faults.fail_status, f"page {page} failed (sandbox fault)")
        view = self.view()
        ids = [m for m in view.listed if _matches(view.memories[m], body["filters"])]
        pages = -(-len(ids) // size)
        if page > max(1, pages):
            raise ApiError(404, "Invalid page.")

        def link(n: int) -> str | None:
            return f"{base}/v3/memories/?page={n}&page_size={size}" if 1 <= n <= pages else None

        chosen = ids[(page - 1) * size: page * size]
        return Reply(200, {"count": len(ids), "next": link(page + 1),
                           "previous": link(page - 1),
                           "results": [view.memories[m] for m in chosen]})

    def one(self, mem_id: str) -> Reply:
        """``GET /v1/memories/{id}/``."""
        view = self.view()
        if mem_id not in view.listed:
            raise ApiError(404, "Memory not found.")
        return Reply(200, view.memories[mem_id])

    def history(self, mem_id: str) -> Reply:
        """``GET /v1/memories/{id}/history/``: a bare list of events, oldest first."""
        events = self.view().history.get(mem_id)
        if events is None:
            raise ApiError(404, "Memory not found.")
        return Reply(200, events)

    def entities(self) -> Reply:
        """``GET /v1/entities/``: one user per space that has memories."""
        view = self.view()
        counts: dict[str, int] = {}
        for mem_id in view.listed:
            user = view.memories[mem_id]["user_id"]
            if user:
                counts[user] = counts.get(user, 0) + 1
        rows = [{"id": tag, "name": tag, "type": "user", "total_memories": n,
                 "owner": "sandbox", "organization": ORG, "metadata": {},
                 "created_at": None, "updated_at": None} for tag, n in sorted(counts.items())]
        return Reply(200, {"count": len(rows), "next": None, "previous": None, "results": rows})

    def search(self, body: dict[str, Any]) -> Reply:
        """``POST /v3/memories/search/``: memories sharing words with the query."""
        query = body.get("query")
        if not isinstance(query, str) or not query.strip():
            raise ApiError(400, "query is required")
        if "filters" not in body:
            raise ApiError(400, "filters are required, e.g. {\"user_id\": \"alice\"}")
        top = _int(body.get("top_k"), 10, "top_k", 1000)
        view, words = self.view(), _words(query)
        scored = []
        for mem_id in view.listed:
            mem = view.memories[mem_id]
            if _matches(mem, body["filters"]) and words:
                score = _overlap(words, mem["memory"])
                if score > 0:
                    scored.append((score, mem_id))
        scored.sort(key=lambda s: (-s[0], s[1]))
        return Reply(200, {"results": [{**view.memories[m], "score": round(s, 4)}
                                       for s, m in scored[:top]]})

    def add(self, body: dict[str, Any]) -> Reply:
        """``POST /v3/memories/add/``: the user messages' text stored as one memory."""
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            raise ApiError(400, "messages must be a non-empty list")
        texts: list[str] = [m["content"] for m in messages
                            if isinstance(m, dict) and isinstance(m.get("content"), str)]
        owner = next((body[k] for k in _ENTITY_KEYS if isinstance(body.get(k), str)), None)
        if owner is None:
            raise ApiError(400, "one of user_id, agent_id, app_id or run_id is required")
        if not TAG.match(owner):
            raise ApiError(400, "the sandbox keeps entities named with letters, digits, _ "
                                "and - only")
        text = "\n".join(t.strip() for t in texts if t.strip())
        if not text:
            raise ApiError(400, "the messages hold no text")
        doc = self.store.add_document(text, owner, source="mem0")
        mem_id = doc["memoryEntries"][0]["id"]
        return Reply(200, {"results": [{"id": mem_id, "memory": text, "event": "ADD"}]})

    def _delete(self, ids: list[str]) -> None:
        view = self.view()
        missing = [m for m in ids if m not in view.listed]
        if missing:
            raise ApiError(404, f"Memory not found: {missing[0]}")
        for mem_id in ids:
            self.store.forget_memory(mem_id, "deleted through the mem0 API", source="mem0")

    def delete(self, mem_id: str) -> Reply:
        """``DELETE /v1/memories/{id}/``."""
        self._delete([mem_id])
        return Reply(200, {"message": "Memory deleted successfully!"})

    def batch_delete(self, body: dict[str, Any]) -> Reply:
        """``DELETE /v1/batch/`` with ``{"memories": [{"memory_id"}…]}``: all or none."""
        items = body.get("memories")
        if not isinstance(items, list) or not items:
            raise ApiError(400, "memories must be a non-empty list")
        if len(items) > BATCH_LIMIT:
            raise ApiError(400, f"at most {BATCH_LIMIT} memories a batch")
        ids: list[str] = [i["memory_id"] for i in items if isinstance(i, dict)
                          and isinstance(i.get("memory_id"), str) and i["memory_id"]]
        if len(ids) != len(items):
            raise ApiError(400, "every item needs a memory_id")
        self._delete(list(dict.fromkeys(ids)))
        return Reply(200, {"message": f"Successfully deleted {len(ids)} memories"})
