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

With ``dream`` on, the store is served the way mem0's Dream leaves a user's memories
(docs.mem0.ai/platform/features/dream; the API reference's ``replaced_by``): each version
of a chain's main line is a memory of its own (one ``ADD``), each older one
``replaced_by`` the next (superseded, listed by default); a memory named by another's
``extends`` relation is ``merged_into`` that one (listed only with ``include_merged``);
an inferred one is ``synthesized``. A list or search takes ``latest_only`` (the active
memories only) and ``include_merged`` in its body, as the client sends them.
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


def _memory(mem_id: str, first: dict[str, Any], last: dict[str, Any], user: str | None
            ) -> dict[str, Any]:
    """The mem0 memory ``mem_id``: ``last``'s text, created when ``first`` was."""
    expiry = last.get("forgetAfter")
    return {
        "id": mem_id, "memory": last["memory"], "user_id": user, "agent_id": None,
        "app_id": None, "run_id": None,
        "hash": hashlib.md5(last["memory"].encode(), usedforsecurity=False).hexdigest(),
        "metadata": last.get("metadata") or None, "categories": [],
        "created_at": first.get("createdAt"), "updated_at": last.get("createdAt"),
        "expiration_date": expiry[:10] if isinstance(expiry, str) else None,
        "immutable": False}


def _dream_line(view: _View, line: list[dict[str, Any]], user: str | None) -> None:
    """A main line as Dream leaves it: each version a memory of its own (one ``ADD``),
    every older one superseded (``replaced_by``) by the next; a forgotten one deleted."""
    for v, nxt in itertools.zip_longest(line, line[1:]):
        mem_id = v["id"]
        view.history[mem_id] = [_event(mem_id, v, "ADD", None, v["memory"],
                                       v.get("createdAt"), user)]
        if v.get("isForgotten"):
            view.history[mem_id].append(_event(mem_id, v, "DELETE", v["memory"], None,
                                               v.get("updatedAt"), user))
        mem = _memory(mem_id, v, v, user)
        mem.update(replaced_by=nxt["id"] if nxt else None, merged_into=None,
                   synthesized=bool(v.get("isInference")))
        if nxt:
            mem["updated_at"] = nxt.get("createdAt")
        view.memories[mem_id] = mem
        if not v.get("isForgotten"):
            view.listed.append(mem_id)


def build_view(entries: dict[str, dict[str, Any]], *, dream: bool = False) -> _View:
    """Every chain of ``entries`` (store memory entries by id) as a mem0 memory; with
    ``dream``, as mem0's Dream leaves them: each version its own memory, superseded by the
    next, and a memory another ``extends`` merged into it (``merged_into``)."""
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
        if dream:
            _dream_line(view, line, user)
            continue
        mem_id = last["id"]
        events = [_event(mem_id, root, "ADD", None, root["memory"], root.get("createdAt"),
                         user)]
        events += [_event(mem_id, v, "UPDATE", p["memory"], v["memory"], v.get("createdAt"),
                          user) for p, v in itertools.pairwise(line)]
        if last.get("isForgotten"):
            events.append(_event(mem_id, last, "DELETE", last["memory"], None,
                                 last.get("updatedAt"), user))
        view.history[mem_id] = events
        view.memories[mem_id] = _memory(mem_id, root, last, user)
        if not last.get("isForgotten"):
            view.listed.append(mem_id)
    if dream:
        for entry in entries.values():
            for other, kind in (entry.get("memoryRelations") or {}).items():
                if kind == "extends" and other in view.memories and other != entry["id"] \
                        and entry["id"] in view.memories:
                    view.memories[other]["merged_into"] = entry["id"]
    view.listed.sort(key=lambda m: (view.memories[m]["created_at"] or "", m), reverse=True)
    return view


def shown(memory: dict[str, Any], *, latest_only: bool = False,
          include_merged: bool = False) -> bool:
    """Whether a read returns ``memory`` (Dream's rules): by default the active and the
    superseded ones, not the merged; ``latest_only`` the active ones only;
    ``include_merged`` every one."""
    if memory.get("merged_into"):
        return include_merged and not latest_only
    return not (latest_only and memory.get("replaced_by"))


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


def _read_flags(body: dict[str, Any]) -> dict[str, bool]:
    """A read's Dream flags (``latest_only``, ``include_merged``: booleans, else 400)."""
    flags = {}
    for name in ("latest_only", "include_merged"):
        value = body.get(name)
        if value is not None and not isinstance(value, bool):
            raise ApiError(400, f"{name} must be true or false")
        flags[name] = bool(value)
    return flags


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

    def __init__(self, sm: SupermemoryApi, faults: Faults, *, dream: bool = False) -> None:
        self.sm, self.faults = sm, faults
        #: serve the store as mem0's Dream leaves it (:func:`build_view`)
        self.dream = dream
        self.store = sm.store
        self._views = functools.lru_cache(maxsize=2)(self._build)
        self._lock = threading.Lock()

    def _build(self, version: int, dream: bool) -> _View:
        return build_view(self.sm._feed().memories, dream=dream)

    def view(self) -> _View:
        """The current store as mem0 memories (rebuilt after every write)."""
        version = self.store.data_version()
        with self._lock:
            return self._views(version, self.dream)

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
        view, flags = self.view(), _read_flags(body)
        ids = [m for m in view.listed if _matches(view.memories[m], body["filters"])
               and shown(view.memories[m], **flags)]
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
            if user and shown(view.memories[mem_id]):
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
        view, words, flags = self.view(), _words(query), _read_flags(body)
        scored = []
        for mem_id in view.listed:
            mem = view.memories[mem_id]
            if _matches(mem, body["filters"]) and words and shown(mem, **flags):
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
