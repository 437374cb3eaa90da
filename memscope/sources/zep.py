"""The Zep Cloud source: users' graphs and standalone graphs over Zep's v4 API.

Every request carries ``Authorization: Api-Key <key>`` (as ``zep-cloud`` 4.0.1 sends it, and
nothing else of the key) and, like the SDK, an ``Idempotency-Key`` on every POST and DELETE.
A load lists the graphs (``POST graphs/list``) and the users (``POST users/list``: a user
graph is named by its user), then, for each chosen graph, its episodes, nodes and edges
(``POST graphs/{uuid}/episodes/list``, ``…/nodes/list``, ``…/edges/list``, body ``{}``,
``page_size`` and the answer's ``next_cursor`` in the query) on a pool of ``concurrency``
lists at once. Retries, 429 pauses and errors are the shared HTTP layer's
(:mod:`memscope.sources._http`).

What Zep answers is read as Graphiti's model (:mod:`memscope.sources.graphiti_map`):
an episode is a document, an edge a fact with both clocks, a node an entity (its summary a
profile line), a graph a space (``user:<user id>`` or ``graph:<graph id>``), and a fact
Zep retired beside a newer one of the same relation between the same entities is that
one's older version (:func:`~memscope.sources.graphiti_map.chain_facts`).

Forgetting deletes for good: one fact (``DELETE graphs/{uuid}/edges/{uuid}``) or one
episode (``DELETE graphs/{uuid}/episodes/{uuid}``), which takes along the facts drawn
from it alone (:meth:`ZepSource.forget_preview` says which). Search is Zep's own edge
search (``POST graphs/{uuid}/search/edges``).
"""

from __future__ import annotations

import time
import uuid as uuidlib
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, ClassVar
from urllib.parse import quote

from pydantic import Field

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord, ParseReport, Profile, SpaceRecord
from memscope.records.patch import mark_forgotten
from memscope.records.text import clip, counted
from memscope.sources._http import ApiConfig, ambiguous, ensure
from memscope.sources._remote import HttpSource
from memscope.sources.base import Capabilities, forget_each
from memscope.sources.errors import BadRequest, NotFound, SourceError
from memscope.sources.graphiti_map import Entity, Episode, Fact, dataset_of, utc
from memscope.sources.results import (
    ForgetReport,
    ForgetResult,
    LoadProgress,
    LoadResult,
    ProgressCallback,
    SearchHit,
    SearchResult,
)

SERVICE = "Zep"
DEFAULT_URL = "https://api.getzep.com/api/v4"
#: the largest page Zep's list routes take
MAX_PAGE = 100
KINDS = ("episodes", "nodes", "edges")
FOREVER = "A delete in Zep cannot be undone."
#: how a deleted fact or episode is drawn after a forget (kept, greyed, until a reload)
DELETED = "Deleted in Zep."


class ZepConfig(ApiConfig):
    """Zep Cloud settings (``repr`` hides the key)."""

    base_url: str = DEFAULT_URL
    #: the graphs to load: a space as Memscope names it (``user:alice``,
    #: ``graph:products``), a graph's or user's uuid, a graph id or a user id; empty:
    #: every graph ``graphs/list`` lists
    graphs: tuple[str, ...] = ()
    page_size: int = Field(default=MAX_PAGE, ge=1, le=MAX_PAGE)
    #: a safety cap on the pages of one list
    max_pages: int = Field(default=100_000, ge=1)


def _q(value: str) -> str:
    return quote(value, safe="")


def _time(value: Any, report: ParseReport, where: str) -> datetime | None:
    """An ISO time of Zep's as an aware UTC time; anything else is noted and missing."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        try:
            return utc(datetime.fromisoformat(value))
        except ValueError:
            pass
    report.skip(where, f"the time {str(value)[:40]!r} cannot be read; it is left out")
    return None


def _text(raw: dict[str, Any], key: str) -> str:
    value = raw.get(key)
    return value if isinstance(value, str) else ""


@dataclass(frozen=True)
class ZepGraph:
    """One graph Zep lists, with the space tag Memscope shows for it."""

    uuid: str
    tag: str
    name: str
    kind: str
    user_uuid: str | None = None
    graph_id: str | None = None
    user_id: str | None = None

    def answers_to(self, ref: str) -> bool:
        """True when ``ref`` names this graph (tag, uuid, graph id, user uuid or id)."""
        return ref in {self.tag, self.uuid, self.graph_id, self.user_uuid, self.user_id,
                       self.name} - {None}


def graph_of(raw: dict[str, Any], users: dict[str, dict[str, Any]]) -> ZepGraph | None:
    """A ``Graph`` record (with the users by uuid) as a :class:`ZepGraph`, or ``None``."""
    uid = raw.get("uuid")
    if not isinstance(uid, str) or not uid:
        return None
    user_uuid = raw.get("user_uuid") if isinstance(raw.get("user_uuid"), str) else None
    graph_id = raw.get("graph_id") if isinstance(raw.get("graph_id"), str) else None
    if user_uuid or raw.get("type") == "user":
        user = users.get(user_uuid or "", {})
        user_id = user.get("user_id") if isinstance(user.get("user_id"), str) else None
        tag = f"user:{user_id or user_uuid or uid}"
        full = " ".join(p for p in (user.get("first_name"), user.get("last_name"))
                        if isinstance(p, str) and p)
        name = _text(raw, "name") or full or tag
        return ZepGraph(uid, tag, name, "user", user_uuid, None, user_id)
    tag = f"graph:{graph_id or uid}"
    return ZepGraph(uid, tag, _text(raw, "name") or tag, "standard", None, graph_id)


@dataclass
class _Read:
    """What one load read, kept with its result: the graphs and where each item lives."""

    graphs: list[ZepGraph]
    #: episode or fact uuid -> the uuid of the graph that holds it
    home: dict[str, str] = field(default_factory=dict)
    #: fact uuid -> the episodes it came from
    sources: dict[str, tuple[str, ...]] = field(default_factory=dict)


def read_items(graph: ZepGraph, kind: str, items: list[Any], report: ParseReport
               ) -> list[Episode] | list[Entity] | list[Fact]:
    """Zep's ``Episode``, ``Node`` or ``Edge`` records (``kind``) of ``graph`` as
    Graphiti's values; a record without a uuid is skipped and noted."""
    out: list[Any] = []
    for i, raw in enumerate(items):
        where = f"{graph.tag} {kind}[{i}]"
        uid = raw.get("uuid") if isinstance(raw, dict) else None
        if not isinstance(uid, str) or not uid:
            report.skip(where, "the record has no uuid")
            continue
        assert isinstance(raw, dict)
        if kind == "episodes":
            content = _text(raw, "content")
            role = _text(raw, "role_name") or _text(raw, "role")
            head = content.strip().splitlines()[0] if content.strip() else ""
            name = clip(head, 60) or _text(raw, "source_description") or "episode"
            described = _text(raw, "source_description")
            if role and not described:
                described = f"a message from {role}"
            out.append(Episode(uid, name, graph.tag, content, _text(raw, "source") or "text",
                               described, _time(raw.get("reference_time"), report, where),
                               _time(raw.get("created_at"), report, where)))
        elif kind == "nodes":
            labels = raw.get("labels") if isinstance(raw.get("labels"), list) else []
            out.append(Entity(uid, _text(raw, "name") or uid, graph.tag,
                              _text(raw, "summary"),
                              tuple(str(x) for x in labels or () if isinstance(x, str))))
        else:
            eps = raw.get("episode_uuids") if isinstance(raw.get("episode_uuids"), list) else []
            src, dst = _text(raw, "source_node_uuid"), _text(raw, "target_node_uuid")
            if not src or not dst:
                report.skip(where, "the fact does not name its two entities")
                continue
            out.append(Fact(uid, graph.tag, _text(raw, "name"), _text(raw, "fact"), src, dst,
                            tuple(e for e in eps or () if isinstance(e, str)),
                            _time(raw.get("created_at"), report, where),
                            _time(raw.get("expired_at"), report, where),
                            _time(raw.get("valid_at"), report, where),
                            _time(raw.get("invalid_at"), report, where)))
    return out


class ZepSource(HttpSource):
    """Zep Cloud's graphs over HTTP (httpx). Thread-safe for its pool."""

    kind = "zep"
    service = SERVICE
    capabilities = Capabilities(
        history=True, profile=True, forget=True, search=True, spaces=True, forget_many=True,
        why_not=(
            ("restore", f"Zep deletes facts and episodes for good. {FOREVER}"),
            ("forget_all", "Zep deletes one fact or one episode at a time; Memscope does "
                           "not clear a whole graph."),
            ("add", "Memscope does not add episodes to Zep: add them through Zep itself."),
            ("semantic_forget", "Zep has no dry run of a forget by meaning; search, then "
                                "forget the facts you picked."),
        ),
    )
    search_note: ClassVar[str | None] = ("Zep searches its facts on its own service (one "
                                         "request a graph); the results are its ranking.")
    forgets_documents: ClassVar[bool] = True

    def __init__(self, config: ZepConfig, *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__(config, {"Authorization":
                                  f"Api-Key {config.api_key.get_secret_value()}"},
                         sleep=sleep)
        self.config: ZepConfig = config
        self._read: _Read | None = None

    def cache_key(self) -> tuple[str, ...]:
        return (self.kind, self.config.base_url, self.config.credential_fingerprint(),
                ",".join(self.config.graphs))

    # -- requests --------------------------------------------------------------------------

    def _post(self, path: str, op: str, *, body: dict[str, Any] | None = None,
              params: dict[str, Any] | None = None) -> Any:
        """A POST as the SDK sends it: a JSON body (``{}`` when it has no field) and an
        ``Idempotency-Key``."""
        return self._http.request("POST", path, operation=op, json=body or {},
                                  params=params,
                                  headers={"Idempotency-Key": str(uuidlib.uuid4())})

    def _pages(self, path: str, op: str, progress: Callable[[], None] | None = None
               ) -> list[Any]:
        """Every item of a v4 list route, page after page by ``next_cursor``."""
        items: list[Any] = []
        cursor: str | None = None
        for number in range(1, self.config.max_pages + 1):
            params: dict[str, Any] = {"page_size": self.config.page_size}
            if cursor:
                params["cursor"] = cursor
            answer = self._post(path, f"{op} (page {number})", params=params)
            found = answer.get("items") if isinstance(answer, dict) else None
            ensure(isinstance(found, list) or (isinstance(answer, dict) and found is None),
                   SERVICE, op, "no items list")
            items.extend(found or [])
            if progress is not None:
                progress()
            nxt = answer.get("next_cursor") if isinstance(answer, dict) else None
            if not isinstance(nxt, str) or not nxt or nxt == cursor:
                break
            cursor = nxt
        return items

    def _graphs(self) -> list[ZepGraph]:
        """Every graph Zep lists, named (a user graph by its user)."""
        users = {u["uuid"]: u for u in self._pages("users/list", "list the users")
                 if isinstance(u, dict) and isinstance(u.get("uuid"), str)}
        out = []
        for raw in self._pages("graphs/list", "list the graphs"):
            graph = graph_of(raw, users) if isinstance(raw, dict) else None
            if graph is not None:
                out.append(graph)
        return out

    def _chosen(self, graphs: list[ZepGraph]) -> list[ZepGraph]:
        if not self.config.graphs:
            return graphs
        out = []
        for ref in self.config.graphs:
            match = next((g for g in graphs if g.answers_to(ref)), None)
            if match is None:
                raise NotFound(f"Zep lists no graph or user called {ref!r} for this key.",
                               service=SERVICE)
            if match not in out:
                out.append(match)
        return out

    # -- loading -----------------------------------------------------------------------------

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        """Every episode, node and edge of the chosen graphs (all by default); cached
        unless ``refresh``. A list that still fails after the retry budget raises its
        :class:`SourceError` (nothing half-read is shown)."""
        if self._last is not None and not refresh:
            return self._last
        calls0 = self.calls
        graphs = self._chosen(self._graphs())
        lists = self._lists(graphs, progress)
        read, ds = self._dataset(graphs, lists)
        result = LoadResult(dataset=ds, source=self.kind, label=self.label,
                            pages_total=len(lists), calls=self.calls - calls0)
        if not graphs:
            result.notes.append("This Zep key sees no graphs yet.")
        self._last, self._read = result, read
        return result

    def _lists(self, graphs: Sequence[ZepGraph], progress: ProgressCallback | None
               ) -> dict[tuple[ZepGraph, str], list[Any]]:
        """The episodes, nodes and edges of every graph, ``concurrency`` lists at once
        (each list's pages one after the other: a cursor names the next); progress is
        reported on the calling thread after each list."""
        jobs = {(g, kind): (lambda g=g, kind=kind: self._pages(
            f"graphs/{_q(g.uuid)}/{kind}/list", f"list the {kind} of {g.tag}"))
            for g in graphs for kind in KINDS}
        lists: dict[tuple[ZepGraph, str], list[Any]] = {}

        def report() -> None:
            if progress is not None:
                progress(LoadProgress(len(lists), len(jobs), 0, 0, unit="lists"))

        report()
        if not jobs:
            return lists
        with ThreadPoolExecutor(max_workers=max(1, min(self.config.concurrency, len(jobs))),
                                thread_name_prefix="memscope-zep") as pool:
            running: dict[Future[list[Any]], tuple[ZepGraph, str]] = {
                pool.submit(fn): key for key, fn in jobs.items()}
            try:
                while running:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        lists[running.pop(fut)] = fut.result()
                        report()
            except SourceError:
                for fut in running:
                    fut.cancel()
                raise
        return lists

    def _dataset(self, graphs: Sequence[ZepGraph],
                 lists: dict[tuple[ZepGraph, str], list[Any]]) -> tuple[_Read, Dataset]:
        """What was listed as Graphiti's values, then as one dataset."""
        report = ParseReport()
        read = _Read(list(graphs))
        eps: list[Episode] = []
        ents: list[Entity] = []
        facts: list[Fact] = []
        for g in graphs:
            for item in read_items(g, "episodes", lists.get((g, "episodes"), []), report):
                if isinstance(item, Episode):
                    eps.append(item)
                    read.home[item.uuid] = g.uuid
            ents.extend(e for e in read_items(g, "nodes", lists.get((g, "nodes"), []),
                                              report) if isinstance(e, Entity))
            for item in read_items(g, "edges", lists.get((g, "edges"), []), report):
                if isinstance(item, Fact):
                    facts.append(item)
                    read.home[item.uuid] = g.uuid
                    read.sources[item.uuid] = item.episodes
        ds = dataset_of(eps, ents, facts)
        ds.report.skipped.extend(report.skipped)
        ds.report.issues.extend(report.issues)
        ds.spaces = self._spaces(graphs, ds)
        return read, ds

    @staticmethod
    def _spaces(graphs: Sequence[ZepGraph], ds: Dataset) -> list[SpaceRecord]:
        """Every chosen graph as a space, named as Zep names it, with its counts."""
        counted_ = {s.container_tag: s for s in ds.spaces}
        out = []
        for g in graphs:
            seen = counted_.get(g.tag)
            out.append(SpaceRecord(container_tag=g.tag, id=g.uuid, name=g.name,
                                   description=("A user's graph" if g.kind == "user"
                                                else "A standalone graph"),
                                   document_count=seen.document_count if seen else 0,
                                   memory_count=seen.memory_count if seen else 0))
        return out

    def spaces(self) -> list[SpaceRecord]:
        """The graphs this key sees, as spaces (two list requests, no graph read)."""
        return [SpaceRecord(container_tag=g.tag, id=g.uuid, name=g.name)
                for g in self._graphs()]

    def profile(self, container_tag: str) -> Profile:
        """The graph's entities that have a summary, each citing its facts."""
        return self.load().dataset.profiles.get(container_tag, Profile(container_tag))

    def history(self, memory_id: str, *, container_tag: str | None = None
                ) -> list[MemoryRecord]:
        """Every version of the fact ``memory_id``'s chain, oldest first (read with the
        graph: no request)."""
        ds = self.load().dataset
        mem = ds.memories.get(memory_id)
        if mem is None:
            raise NotFound(f"No fact {memory_id} was loaded from Zep.", service=SERVICE)
        root = mem.root_id or mem.id
        chain = [m for m in ds.memories.values() if m.id == root or m.root_id == root]
        return sorted(chain, key=lambda m: (m.version, m.id))

    # -- search ------------------------------------------------------------------------------

    def _graph(self, tag: str | None) -> ZepGraph:
        read = self._read
        graphs = read.graphs if read else []
        found = next((g for g in graphs if tag is not None and g.answers_to(tag)), None)
        if found is None:
            raise BadRequest(f"Choose one of the loaded Zep graphs (not {tag!r}).",
                             service=SERVICE)
        return found

    def search(self, query: str, *, container_tag: str | None = None,
               limit: int = 10) -> SearchResult:
        """Zep's own edge search (``POST graphs/{uuid}/search/edges``) in the chosen graph,
        or in each loaded graph (one request each, merged by Zep's score)."""
        self.load()
        read = self._read
        graphs = [self._graph(container_tag)] if container_tag else list(read.graphs if read
                                                                          else [])
        size = max(1, min(MAX_PAGE, limit))
        loaded = self._last.dataset.memories if self._last else {}
        hits: list[SearchHit] = []
        for g in graphs:
            answer = self._post(f"graphs/{_q(g.uuid)}/search/edges",
                                f"search the facts of {g.tag}", body={"query": query},
                                params={"page_size": size})
            found = answer.get("items") if isinstance(answer, dict) else None
            ensure(found is None or isinstance(found, list), SERVICE, "search", "no items")
            for raw in found or []:
                if not isinstance(raw, dict) or not isinstance(raw.get("fact"), str):
                    continue
                uid = raw.get("uuid") if isinstance(raw.get("uuid"), str) else None
                score = raw.get("score")
                rec = loaded.get(uid) if uid else None
                hits.append(SearchHit(
                    "memory", raw["fact"], id=uid,
                    similarity=float(score) if isinstance(score, int | float)
                    and not isinstance(score, bool) else None, record=rec, raw=raw,
                    document_ids=[e for e in raw.get("episode_uuids") or []
                                  if isinstance(e, str)]))
        hits.sort(key=lambda h: -(h.similarity or 0.0))
        hits = hits[:limit]
        return SearchResult(hits, len(hits), note="Zep ranked these facts.")

    # -- forgetting --------------------------------------------------------------------------

    def _where(self, target_id: str) -> tuple[str, str]:
        """``(kind, graph uuid)`` of a loaded fact (``edges``) or episode (``episodes``)."""
        ds = self.load().dataset
        read = self._read
        home = read.home.get(target_id) if read else None
        if home is None:
            raise NotFound(f"{target_id} is no fact or episode loaded from Zep; reload the "
                           "graph.", service=SERVICE)
        return ("episodes" if target_id in ds.documents else "edges"), home

    def taken_along(self, episode_id: str) -> tuple[list[str], list[str]]:
        """The loaded facts deleting ``episode_id`` deletes (drawn from it alone), and the
        ones that keep their other episodes."""
        read = self._read
        gone, kept = [], []
        for fact, eps in (read.sources.items() if read else []):
            if episode_id in eps:
                (gone if set(eps) <= {episode_id} else kept).append(fact)
        return gone, kept

    def forget_preview(self, target_id: str) -> str:
        """What forgetting ``target_id`` deletes, in plain words; sends nothing."""
        kind, _ = self._where(target_id)
        ds = self.load().dataset
        if kind == "edges":
            return f"Zep deletes this fact. {FOREVER}"
        gone, kept = self.taken_along(target_id)
        texts = [f"“{clip(ds.memories[f].memory, 80).rstrip('.')}”" for f in gone
                 if f in ds.memories]
        words = f"Zep deletes this episode and the {counted(len(gone), 'fact')} drawn " \
                f"from it alone" + (": " + "; ".join(texts[:10]) if texts else "") + "."
        if kept:
            words += (f" {counted(len(kept), 'fact')} also drawn from other episodes "
                      f"{'stays' if len(kept) == 1 else 'stay'}.")
        return f"{words} {FOREVER}"

    def forget(self, target_id: str, *, reason: str | None = None,
               container_tag: str | None = None) -> ForgetResult:
        """Delete one fact (``DELETE graphs/{uuid}/edges/{uuid}``) or one episode with the
        facts drawn from it alone (``…/episodes/{uuid}``), for good; Zep takes no reason
        (the ledger keeps it)."""
        kind, home = self._where(target_id)
        ds = self.load().dataset
        gone = self.taken_along(target_id)[0] if kind == "episodes" else [target_id]
        what = "episode" if kind == "episodes" else "fact"
        with ambiguous(SERVICE, "delete request", f"deleted the {what}"):
            self._http.request("DELETE", f"graphs/{_q(home)}/{kind}/{_q(target_id)}",
                               operation=f"delete {what} {target_id}", idempotent=False,
                               headers={"Idempotency-Key": str(uuidlib.uuid4())})
        self._mark_deleted([target_id])
        mem = ds.memories.get(target_id)
        doc = ds.documents.get(target_id)
        tag = mem.container_tag if mem else (doc.metadata.get("group") if doc else None)
        if kind == "episodes":
            message = (f"Zep deleted the episode and {counted(len(gone), 'fact')} drawn from "
                       f"it alone. {FOREVER}")
        else:
            message = f"Zep deleted the fact. {FOREVER}"
        return ForgetResult(target_id, True, message, container_tag=tag or container_tag,
                            snapshot=mem.memory if mem else (doc.content if doc else None),
                            removed_ids=list(gone))

    def forget_many(self, ids: Sequence[str], *, reason: str | None = None,
                    container_tag: str | None = None) -> ForgetReport:
        """One delete request per fact or episode (Zep has no batch delete)."""
        return forget_each(self, ids, reason=reason, container_tag=container_tag)

    def _mark_deleted(self, ids: Sequence[str]) -> None:
        """This source's last load with ``ids`` deleted (a new result on a patched copy)."""
        if self._last is not None:
            self._last = replace(self._last, dataset=deleted(self._last.dataset, ids))

    def patch_forgotten(self, previous: LoadResult, ids: Sequence[str], *,
                        reason: str | None = None) -> LoadResult | None:
        """``previous`` (never changed) with ``ids`` deleted as this source draws a delete:
        a fact stays, forgotten ("Deleted in Zep."), until a reload; an episode leaves,
        and the facts drawn from it alone are forgotten — nothing is asked."""
        return replace(previous, dataset=deleted(previous.dataset, ids))


def deleted(ds: Dataset, ids: Sequence[str]) -> Dataset:
    """``ds`` with the facts and episodes ``ids`` deleted in Zep: each fact, and every
    fact drawn only from a deleted episode, forgotten; each episode gone (its facts no
    longer link it)."""
    episodes = {i for i in ids if i in ds.documents}
    facts = [i for i in ids if i in ds.memories]
    facts += [m for m, docs in ds.memory_documents.items()
              if docs and set(docs) <= episodes]
    out = mark_forgotten(ds, facts, at=None, reason=DELETED)
    if not episodes:
        return out
    for ep in episodes:
        out.documents.pop(ep, None)
    out.memory_documents = {m: [d for d in docs if d not in episodes]
                            for m, docs in out.memory_documents.items()}
    return out


__all__ = ["DEFAULT_URL", "MAX_PAGE", "ZepConfig", "ZepGraph", "ZepSource", "deleted",
           "graph_of", "read_items"]
