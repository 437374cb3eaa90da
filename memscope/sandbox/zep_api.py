"""The sandbox's Zep Cloud routes (API v4, as ``zep-cloud`` 4.0.1 calls them), in memory.

A small Graphiti-like account (:func:`small_account`): two users, each with a user graph,
and one standalone graph, holding contradicted facts (``invalid_at`` / ``expired_at`` set
and the newer fact beside them), facts with one clock only, a fact retired with no newer
one, an episode shared by several facts and a fact drawn from two episodes.
:func:`synthetic_account` makes a large one (the bench).

Routes (relative to the base URL ``…/zep/api/v4``): ``POST graphs/list``, ``POST
users/list``, ``POST graphs/{uuid}/episodes/list``, ``…/nodes/list``, ``…/edges/list``
(``page_size`` at most 100, an opaque ``cursor``: items in descending uuid order, the page
after the last uuid the cursor names; ``next_cursor`` only when more remain), ``POST
graphs/{uuid}/search/edges`` (words in common), ``DELETE graphs/{uuid}/edges/{uuid}`` and
``DELETE graphs/{uuid}/episodes/{uuid}`` (a deleted episode takes along the facts drawn from
it alone; an answer is an ``AsyncResult`` whose task already succeeded). A user graph may be
addressed by its user's uuid too. Errors are ``{"error": {"code", "message"}}``.
"""

from __future__ import annotations

import base64
import re
import threading
import uuid as uuidlib
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from memscope.sandbox.supermemory_api import ApiError, Reply

PREFIX = "/zep/api/v4"
MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 50
_LIST = re.compile(r"^/graphs/([^/]+)/(episodes|nodes|edges)/list$")
_SEARCH = re.compile(r"^/graphs/([^/]+)/search/edges$")
_ONE = re.compile(r"^/graphs/([^/]+)/(episodes|edges)/([^/]+)$")


def _at(day: str) -> str:
    """An ISO time as Zep writes it (``2026-03-01T09:00:00Z``)."""
    return day if "T" in day else f"{day}T09:00:00Z"


def _uid(name: str) -> str:
    """A stable uuid for a sandbox name."""
    return str(uuidlib.uuid5(uuidlib.NAMESPACE_URL, f"memscope-sandbox-zep:{name}"))


@dataclass
class ZepGraph:
    """One graph: its record (as ``Graph``), its episodes, nodes and edges by uuid."""

    record: dict[str, Any]
    episodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    nodes: dict[str, dict[str, Any]] = field(default_factory=dict)
    edges: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def uuid(self) -> str:
        return self.record["uuid"]

    def _owner(self) -> dict[str, Any]:
        user = self.record.get("user_uuid")
        return {"graph_uuid": self.uuid, **({"user_uuid": user} if user else {})}

    def episode(self, name: str, content: str, *, source: str = "text",
                description: str = "", reference: str, created: str | None = None,
                role: str | None = None) -> str:
        """Add an episode; its uuid."""
        uid = _uid(f"{self.uuid}:episode:{name}")
        self.episodes[uid] = {
            "uuid": uid, "content": content, "source": source,
            "source_description": description, "reference_time": _at(reference),
            "created_at": _at(created or reference), "processed": True,
            **({"role": role, "role_name": "Alice"} if role else {}), **self._owner()}
        return uid

    def node(self, name: str, summary: str = "", labels: tuple[str, ...] = ("Entity",),
             created: str = "2025-01-01") -> str:
        """Add an entity node; its uuid."""
        uid = _uid(f"{self.uuid}:node:{name}")
        self.nodes[uid] = {"uuid": uid, "name": name, "summary": summary,
                           "labels": list(labels), "created_at": _at(created),
                           "attributes": {}, "episode_uuids": [],
                           "episode_uuids_truncated": False, **self._owner()}
        return uid

    def edge(self, key: str, name: str, fact: str, source: str, target: str,
             episodes: list[str], *, created: str, valid: str | None = None,
             invalid: str | None = None, expired: str | None = None) -> str:
        """Add a fact (an entity edge) between two nodes; its uuid."""
        uid = _uid(f"{self.uuid}:edge:{key}")
        src, dst = self.nodes[source], self.nodes[target]
        self.edges[uid] = {
            "uuid": uid, "name": name, "fact": fact, "scope": "entity",
            "source_node_uuid": source, "target_node_uuid": target,
            "source_node_name": src["name"], "target_node_name": dst["name"],
            "source_node_labels": src["labels"], "target_node_labels": dst["labels"],
            "episode_uuids": list(episodes), "created_at": _at(created),
            "valid_at": _at(valid) if valid else None,
            "invalid_at": _at(invalid) if invalid else None,
            "expired_at": _at(expired) if expired else None,
            "attributes": {}, **self._owner()}
        for ep in episodes:
            for end in (src, dst):
                if ep not in end["episode_uuids"]:
                    end["episode_uuids"].insert(0, ep)
        return uid


@dataclass
class ZepAccount:
    """Every user and graph of one sandbox account."""

    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    graphs: dict[str, ZepGraph] = field(default_factory=dict)

    def user_graph(self, user_id: str, first: str, last: str, created: str) -> ZepGraph:
        """A user and their graph."""
        user_uuid, graph_uuid = _uid(f"user:{user_id}"), _uid(f"user-graph:{user_id}")
        self.users[user_uuid] = {"uuid": user_uuid, "user_id": user_id, "first_name": first,
                                 "last_name": last, "graph_uuid": graph_uuid,
                                 "created_at": _at(created), "metadata": {}}
        graph = ZepGraph({"uuid": graph_uuid, "type": "user", "user_uuid": user_uuid,
                          "name": f"{first} {last}", "created_at": _at(created),
                          "updated_at": _at(created), "time_zone": "UTC"})
        self.graphs[graph_uuid] = graph
        return graph

    def standard_graph(self, graph_id: str, name: str, created: str) -> ZepGraph:
        """A standalone (standard) graph."""
        uid = _uid(f"graph:{graph_id}")
        graph = ZepGraph({"uuid": uid, "type": "standard", "graph_id": graph_id, "name": name,
                          "description": f"The {name} graph.", "created_at": _at(created),
                          "updated_at": _at(created), "time_zone": "UTC"})
        self.graphs[uid] = graph
        return graph

    def find(self, ref: str) -> ZepGraph:
        """A graph by its uuid, or a user graph by its user's uuid (else 404)."""
        if ref in self.graphs:
            return self.graphs[ref]
        user = self.users.get(ref)
        if user is not None and user.get("graph_uuid") in self.graphs:
            return self.graphs[user["graph_uuid"]]
        raise ApiError(404, {"code": "not_found", "message": f"graph {ref} not found"})


def small_account() -> ZepAccount:
    """The sandbox's default account: Alice's and Bob's graphs and a standalone one."""
    acc = ZepAccount()
    alice = acc.user_graph("alice", "Alice", "Moreau", "2025-01-01")
    a, acme, porto, lyon, py = (
        alice.node("Alice", "Alice is a platform engineer at Acme who lives in Lyon.",
                   ("Entity", "Person")),
        alice.node("Acme", "Acme makes delivery robots.", ("Entity", "Organization")),
        alice.node("Porto", "A city in Portugal.", ("Entity", "Location")),
        alice.node("Lyon", "", ("Entity", "Location")),
        alice.node("Python", "A programming language.", ("Entity", "Topic")))
    intro = alice.episode("intro", "Alice: I'm a junior engineer at Acme, I live in Porto "
                          "and I mostly write Python.", source="message", role="user",
                          description="onboarding chat", reference="2025-02-03")
    promo = alice.episode("promotion", "Alice was promoted to lead the platform team at "
                          "Acme on 1 March 2026.", description="HR note",
                          reference="2026-03-01", created="2026-03-04")
    move = alice.episode("move", '{"person": "Alice", "moved_to": "Lyon", "on": "2026-06-10"}',
                         source="json", description="address change",
                         reference="2026-06-10", created="2026-06-12")
    alice.edge("works-old", "WORKS_AT", "Alice is a junior engineer at Acme.", a, acme,
               [intro], created="2025-02-03T09:00:05Z", valid="2025-02-03",
               invalid="2026-03-01", expired="2026-03-04T09:00:05Z")
    alice.edge("works-new", "WORKS_AT", "Alice leads the platform team at Acme.", a, acme,
               [promo], created="2026-03-04T09:00:05Z", valid="2026-03-01")
    alice.edge("lives-porto", "LIVES_IN", "Alice lives in Porto.", a, porto, [intro],
               created="2025-02-03T09:00:06Z", valid="2025-02-03", invalid="2026-06-10",
               expired="2026-06-12T09:00:04Z")
    alice.edge("lives-lyon", "LIVES_IN", "Alice lives in Lyon.", a, lyon, [move],
               created="2026-06-12T09:00:04Z", valid="2026-06-10")
    alice.edge("python", "USES", "Alice mostly writes Python.", a, py, [intro, promo],
               created="2025-02-03T09:00:07Z")  # one clock: no valid_at
    bob = acc.user_graph("bob", "Bob", "Okafor", "2025-05-01")
    b, tea, coffee, rome = (bob.node("Bob", "Bob drinks coffee now.", ("Entity", "Person")),
                            bob.node("Drinks", "Hot drinks.", ("Entity", "Topic")),
                            bob.node("Coffee"), bob.node("Rome"))
    chat1 = bob.episode("chat-1", "Bob: I only drink tea, never coffee.", source="message",
                        role="user", description="support chat", reference="2025-05-02")
    chat2 = bob.episode("chat-2", "Bob: these days I drink coffee every morning.",
                        source="message", role="user", description="support chat",
                        reference="2026-01-15")
    bob.edge("prefers-tea", "PREFERS", "Bob only drinks tea.", b, tea, [chat1],
             created="2025-05-02T09:00:03Z", valid="2025-05-02", invalid="2026-01-15",
             expired="2026-01-15T09:00:03Z")
    bob.edge("prefers-coffee", "PREFERS", "Bob drinks coffee every morning.", b, tea,
             [chat2], created="2026-01-15T09:00:03Z", valid="2026-01-15")
    bob.edge("likes-coffee", "LIKES", "Bob likes coffee.", b, coffee, [chat2],
             created="2026-01-15T09:00:04Z", valid="2026-01-15")
    bob.edge("visited-rome", "VISITED", "Bob visited Rome.", b, rome, [chat1],
             created="2025-05-02T09:00:04Z", valid="2024-09-01", invalid="2024-09-08")
    products = acc.standard_graph("acme-products", "Acme products", "2025-03-01")
    r1, r2, wh = (products.node("R1 robot", "Acme's first delivery robot."),
                  products.node("R2 robot", "Acme's second delivery robot."),
                  products.node("Warehouse"))
    sheet = products.episode("spec-sheet", "The R1 robot carries 20 kg; the R2 robot "
                             "carries 35 kg and replaces it in the warehouse.",
                             description="product sheet", reference="2025-09-01")
    products.edge("r1-serves", "SERVES", "The R1 robot serves the warehouse.", r1, wh,
                  [sheet], created="2025-03-02", valid="2025-03-01")
    products.edge("r2-serves", "SERVES", "The R2 robot serves the warehouse.", r2, wh,
                  [sheet], created="2025-09-01T09:00:02Z", valid="2025-09-01")
    products.edge("r2-replaces", "REPLACES", "The R2 robot replaces the R1 robot.", r2, r1,
                  [sheet], created="2025-09-01T09:00:03Z", valid="2025-09-01")
    return acc


def synthetic_account(facts: int, *, graphs: int = 10) -> ZepAccount:
    """An account of ``graphs`` user graphs holding ``facts`` facts in all (one episode
    per five facts; every tenth fact is a two-version chain's older half)."""
    acc = ZepAccount()
    start = datetime(2025, 1, 1, tzinfo=UTC)
    per = -(-facts // max(1, graphs))
    made = 0
    for g in range(graphs):
        graph = acc.user_graph(f"user{g:03d}", "User", f"{g:03d}", "2025-01-01")
        people = [graph.node(f"Person {g}-{i}") for i in range(20)]
        topics = [graph.node(f"Topic {g}-{i}") for i in range(50)]
        ep = ""
        for i in range(min(per, facts - made)):
            when = start + timedelta(minutes=made)
            if i % 5 == 0:
                ep = graph.episode(f"ep{i}", f"Notes {g}-{i} about the people and topics.",
                                   reference=when.strftime("%Y-%m-%dT%H:%M:%SZ"))
            stamp = when.strftime("%Y-%m-%dT%H:%M:%SZ")
            if i % 10 == 1:  # the older half of a chain: retired when the next was learnt
                nxt = (when + timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
                graph.edge(f"f{i}", "KNOWS", f"Person {g}-{i % 20} knew topic {i}.",
                           people[i % 20], topics[(i + 1) % 50], [ep], created=stamp,
                           valid=stamp, invalid=nxt, expired=nxt)
            else:  # the newer half (i % 10 == 2) stands between the same two entities
                who = (i - 1) % 20 if i % 10 == 2 else i % 20
                graph.edge(f"f{i}", "KNOWS", f"Person {g}-{who} knows topic {i}.",
                           people[who], topics[i % 50], [ep], created=stamp, valid=stamp)
            made += 1
    return acc


def _cursor(uid: str) -> str:
    return base64.urlsafe_b64encode(f"after:{uid}".encode()).decode().rstrip("=")


def _after(cursor: str) -> str:
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except ValueError:
        text = ""
    if not text.startswith("after:"):
        raise ApiError(400, {"code": "invalid_cursor", "message": "The cursor is not valid.",
                             "param": "cursor"})
    return text[len("after:"):]


def _page_size(query: dict[str, str]) -> int:
    raw = query.get("page_size")
    try:
        size = int(raw) if raw is not None else DEFAULT_PAGE_SIZE
    except ValueError:
        size = -1
    if not 1 <= size <= MAX_PAGE_SIZE:
        raise ApiError(400, {"code": "invalid_page_size", "param": "page_size",
                             "message": f"page_size must be between 1 and {MAX_PAGE_SIZE}."})
    return size


def page(items: list[dict[str, Any]], query: dict[str, str], *,
         total: bool = False) -> dict[str, Any]:
    """One page of ``items`` in descending uuid order, as every v4 list answers it."""
    size = _page_size(query)
    ordered = sorted(items, key=lambda i: i["uuid"], reverse=True)
    if query.get("cursor"):
        last = _after(query["cursor"])
        ordered = [i for i in ordered if i["uuid"] < last]
    chunk = ordered[:size]
    out: dict[str, Any] = {"items": [{k: v for k, v in i.items() if v is not None}
                                     for i in chunk]}
    if len(ordered) > size:
        out["next_cursor"] = _cursor(chunk[-1]["uuid"])
    if total:
        out["total_size"] = len(items)
    return out


def _task(kind: str, result: dict[str, Any]) -> dict[str, Any]:
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {"task": {"uuid": str(uuidlib.uuid4()), "type": kind, "status": "succeeded",
                     "created_at": now, "completed_at": now, "result": result}}


class ZepApi:
    """Zep's v4 graph routes over one :class:`ZepAccount` (thread-safe)."""

    def __init__(self, account: ZepAccount | None = None) -> None:
        self.account = account or small_account()
        self._lock = threading.Lock()

    def route(self, method: str, path: str, query: dict[str, str], body: Any) -> Reply:
        """The answer to one request (``path`` without the prefix)."""
        with self._lock:
            return self._route(method, path, query, body)

    def _route(self, method: str, path: str, query: dict[str, str], body: Any) -> Reply:
        acc = self.account
        if method == "POST" and body is not None and not isinstance(body, dict):
            raise ApiError(400, {"code": "invalid_body", "message": "The body is not an "
                                                                    "object."})
        if (method, path) == ("POST", "/graphs/list"):
            return Reply(200, page([g.record for g in acc.graphs.values()], query, total=True))
        if (method, path) == ("POST", "/users/list"):
            return Reply(200, page(list(acc.users.values()), query, total=True))
        if method == "POST" and (found := _LIST.match(path)):
            graph = acc.find(found[1])
            items = getattr(graph, found[2])
            return Reply(200, page(list(items.values()), query))
        if method == "POST" and (found := _SEARCH.match(path)):
            return Reply(200, self._search(acc.find(found[1]), body or {}, query))
        if method == "DELETE" and (found := _ONE.match(path)):
            graph = acc.find(found[1])
            if found[2] == "edges":
                return self._delete_edge(graph, found[3])
            return self._delete_episode(graph, found[3])
        raise ApiError(404, {"code": "not_found", "message": f"No route {method} {path}"})

    @staticmethod
    def _search(graph: ZepGraph, body: dict[str, Any], query: dict[str, str]) -> dict[str, Any]:
        text = body.get("query")
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, {"code": "invalid_query", "param": "query",
                                 "message": "query is required."})
        words = set(re.findall(r"\w+", text.lower()))
        scored = []
        for edge in graph.edges.values():
            have = set(re.findall(r"\w+", (edge.get("fact") or "").lower()))
            common = len(words & have)
            if common:
                scored.append((common / len(words), edge))
        scored.sort(key=lambda p: (-p[0], p[1]["uuid"]))
        size = _page_size(query)
        return {"items": [{**{k: v for k, v in e.items() if v is not None},
                           "score": round(s, 4)} for s, e in scored[:size]]}

    @staticmethod
    def _delete_edge(graph: ZepGraph, uid: str) -> Reply:
        if graph.edges.pop(uid, None) is None:
            raise ApiError(404, {"code": "not_found", "message": f"edge {uid} not found"})
        return Reply(202, _task("edge_delete", {"edge_uuid": uid}))

    @staticmethod
    def _delete_episode(graph: ZepGraph, uid: str) -> Reply:
        """The episode, and every fact drawn from it alone (a fact from other episodes
        too keeps them)."""
        if graph.episodes.pop(uid, None) is None:
            raise ApiError(404, {"code": "not_found", "message": f"episode {uid} not found"})
        for key, edge in list(graph.edges.items()):
            if uid in edge["episode_uuids"]:
                edge["episode_uuids"] = [e for e in edge["episode_uuids"] if e != uid]
                if not edge["episode_uuids"]:
                    del graph.edges[key]
        for node in graph.nodes.values():
            node["episode_uuids"] = [e for e in node["episode_uuids"] if e != uid]
        return Reply(202, _task("episode_delete", {"episode_uuid": uid}))


__all__ = ["DEFAULT_PAGE_SIZE", "MAX_PAGE_SIZE", "PREFIX", "ZepAccount", "ZepApi", "ZepGraph",
           "page", "small_account", "synthetic_account"]
