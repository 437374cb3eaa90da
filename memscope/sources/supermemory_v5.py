"""Supermemory's current API (v5, namespace-scoped): the same capabilities as the legacy
(v3/v4) source wherever v5 has a route.

>>> src = SupermemoryV5Source(SupermemoryConfig(api_key="sk-…"))    # doctest: +SKIP
>>> src.load(progress=print).dataset.memory_count                   # doctest: +SKIP

Wire format — what supermemory 5.0.1 (``raw_client.py``) sends for the same call, which
the SDK contract test compares (where the v5 reference pages differ, the SDK wins: the
namespace list is ``GET /ns``, not ``/namespaces``; forget takes no reason):

=========================  ===============================================================
namespaces (first route)   ``client.namespaces.list(page=p, limit=100)``
list a page                ``client.list(ns, "documents"|"memories", page=p, limit=L,
                           sort=s, order=o, include={"forgotten": True}`` (memories only))
history view               ``client.memories.get(ns, id, include=["related", "documents"],
                           related_limit=N)``
forget by ids              ``client.memories.forget(ns, ids=[…≤500])``
semantic preview           ``client.memories.forget_matching(ns, query=q, dry_run=True)``
search                     ``client.search(ns, query=q, search_mode="hybrid", limit=n,
                           include={"documents": True})``
profile                    ``client.profile(ns)`` (body ``{}``)
add                        ``client.add(ns, content=t, metadata={"title": …})``
document status            ``client.documents.get(ns, id, include="memories")``
=========================  ===============================================================

A load costs ``1 + 2·S`` list requests for ``S`` namespaces of one page each (more pages,
more requests), plus the history views :mod:`memscope.sources._history_v5` plans: one per
chain of up to four versions, one more per longer chain, and one per single-version or
forgotten memory — each needs its own view, since nothing else names its document.
A refresh (:meth:`SupermemoryV5Source.refresh`) reads the namespaces and list pages again
and views only new or changed memories and those whose views name a change.

List pages and views share the client's adaptive limit: it starts at
``max(concurrency, history_concurrency)`` in flight, doubles each round trip until the
service first answers 429, and grows up to :data:`VIEW_CEILING` (or the configured
``concurrency_ceiling``); a 429 narrows it to 70 %, a ``Retry-After`` pauses every request.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar
from urllib.parse import quote

from memscope.records import patch as rp
from memscope.records.models import (
    MemoryRecord,
    ParseReport,
    Profile,
    SpaceRecord,
    parse_memory,
    parse_profile,
)
from memscope.sources._feed import pages_from
from memscope.sources._history_v5 import (
    HistoryOutcome,
    HistoryPlan,
    ListPages,
    LoadState,
    ViewProgress,
    chain_records,
    named_by,
)
from memscope.sources._http import ambiguous, ensure
from memscope.sources._remote import HttpSource
from memscope.sources._spaces import add_spaces_and_profiles, space_of_memory
from memscope.sources._v5wire import chain as wire_chain
from memscope.sources._v5wire import dataset as wire_dataset
from memscope.sources._v5wire import forget_answer, match_texts, memory_wire
from memscope.sources._v5wire import hits as wire_hits
from memscope.sources._v5wire import profile as wire_profile
from memscope.sources._v5wire import space as wire_space
from memscope.sources._v5wire import status as wire_status
from memscope.sources.base import Capabilities
from memscope.sources.dialects import probe_v5
from memscope.sources.errors import BadRequest, NotFound, SourceError, route_missing
from memscope.sources.patch import now, patched, profiles_again, with_profiles_read_again
from memscope.sources.processing import status_sentence
from memscope.sources.results import (
    AddResult,
    ForgetAllPreview,
    ForgetReport,
    ForgetResult,
    LoadProgress,
    LoadResult,
    ProgressCallback,
    SearchHit,
    SearchResult,
    SemanticPreview,
)
from memscope.sources.supermemory import (
    ADD_NOTE,
    DEFAULT_SPACE,
    SERVICE,
    SupermemoryConfig,
    SupermemorySource,
    auth_headers,
)

FIRST_ROUTE = "GET /ns"
#: how the note on unread histories begins (a resume replaces it)
HISTORY_NOTE = "The history of "
#: ids per ``DELETE /ns/{ns}/memories`` (the API takes 1–500)
FORGET_BATCH = 500
NS_PAGE = 100
#: the most requests in flight a load may grow to while the service answers without a 429
#: (list pages and history views share it; ``concurrency_ceiling`` overrides it): at 50 ms
#: a request, 32 keep ~600 views/s going, so 10,000 memories load in well under 20 s
VIEW_CEILING = 32

#: What v5 has no route for, one sentence each (shown instead of the button).
NO_ROUTE = {
    "restore": "Supermemory's current API (v5) has no route to restore a forgotten memory.",
    "create_memory": "Supermemory's current API (v5) has no route to create a memory "
                     "directly; add a document and Supermemory extracts its memories.",
    "update_memory": "Supermemory's current API (v5) has no route for a versioned update of "
                     "a memory; add a document that states the new fact instead.",
    "review_inferred": "Supermemory approves or declines an inferred memory only on its "
                       "legacy API (v3), so on the current API (v5) Memscope shows them but "
                       "cannot review them.",
}


def _q(value: str) -> str:
    return quote(value, safe="")


class SupermemoryV5Source(HttpSource):
    """Supermemory over its v5 API (httpx); thread-safe for concurrent requests."""

    kind = "supermemory"
    service = SERVICE
    dialect: ClassVar[str] = "v5"
    refreshes_changes: ClassVar[bool] = True
    capabilities = Capabilities(
        history=True, profile=True, forget=True, forget_all=True, search=True, spaces=True,
        add=True, forget_all_by_ids=True, forget_many=True, semantic_forget=True,
        why_not=(("restore", NO_ROUTE["restore"]),
                 ("review_inferred", NO_ROUTE["review_inferred"])),
    )
    add_note: ClassVar[str | None] = ADD_NOTE

    def __init__(self, config: SupermemoryConfig, *,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__(config, auth_headers(config), sleep=sleep,
                         ceiling=view_ceiling(config))
        self.config: SupermemoryConfig = config
        self._doc_space: dict[str, str] = {}
        #: history views the last load made (the rest of its calls were list pages)
        self.last_views = 0
        #: chosen by ``auto`` (v5 answered its first route)
        self.auto = False

    def probe(self) -> Any:
        """One ``GET /ns`` of one namespace: whether the service answers v5 at all (a 404
        here is read by :func:`~memscope.sources.dialects.probe_v5`)."""
        return self._http.request("GET", "/ns", params={"page": 1, "limit": 1},
                                  operation="ask whether the service answers the current "
                                            "API (v5)")

    @property
    def label(self) -> str:
        return f"{SERVICE} (v5) at {self.config.host}"

    def cache_key(self) -> tuple[str, ...]:
        return (self.kind, "v5", self.config.base_url, self.config.credential_fingerprint(),
                ",".join(self.config.container_tags))

    # -- namespaces ----------------------------------------------------------------------

    def _namespaces(self) -> list[SpaceRecord]:
        """Every namespace (``GET /ns``, all pages) with its counts; a 404 on the first
        page is a :class:`~memscope.sources.errors.DialectMismatch`."""
        out: list[SpaceRecord] = []
        page, report = 1, ParseReport()
        while True:
            try:
                answer = self._http.request("GET", "/ns", params={"page": page,
                                                                  "limit": NS_PAGE},
                                            operation="list namespaces")
            except NotFound as exc:
                if page == 1:
                    raise route_missing(exc, "v5", FIRST_ROUTE) from None
                raise
            ensure(isinstance(answer, dict) and isinstance(answer.get("namespaces"), list),
                   SERVICE, "list namespaces", "no namespaces list")
            out.extend(wire_space(raw, report) for raw in answer["namespaces"]
                       if isinstance(raw, dict) and isinstance(raw.get("namespace"), str))
            pagination = answer.get("pagination")
            total = pages_from(pagination if isinstance(pagination, dict) else {}, NS_PAGE)
            if not answer["namespaces"] or total is None or page >= total or page >= 1000:
                return out
            page += 1

    def spaces(self) -> list[SpaceRecord]:
        """``GET /ns``: the namespaces with their document and memory counts."""
        return self._namespaces()

    # -- loading -------------------------------------------------------------------------

    def _list(self, ns: str, kind: str, page: int) -> tuple[list[Any], dict[str, Any]]:
        cfg = self.config
        body: dict[str, Any] = {"include": {"forgotten": True}} if kind == "memories" else {}
        op = f"load page {page} of the {kind} of {ns}"
        answer = self._http.request(
            "POST", f"/ns/{_q(ns)}/list/{kind}", json=body, operation=op,
            params={"page": page, "limit": cfg.page_limit, "sort": cfg.sort,
                    "order": cfg.order})
        ensure(isinstance(answer, dict) and isinstance(answer.get(kind), list), SERVICE, op,
               f"no {kind} list")
        pagination = answer.get("pagination")
        return answer[kind], pagination if isinstance(pagination, dict) else {}

    def _view(self, ns: str, memory_id: str) -> Any:
        return self._http.request(
            "GET", f"/ns/{_q(ns)}/memories/{_q(memory_id)}",
            params={"include": ["related", "documents"],
                    "relatedLimit": self.config.history_related_limit},
            operation=f"read the history of memory {memory_id}")

    def _width(self) -> int:
        """History views to have started now: the client's adaptive limit, plus the views
        waiting out a backoff (they hold no place in flight)."""
        return self._http.gate.width

    def _views(self, plan: HistoryPlan) -> HistoryOutcome:
        """Run ``plan`` (its views on the adaptive pool); remember how many it made."""
        outcome = plan.run()
        self.last_views = outcome.views
        return outcome

    def _result(self, state: LoadState, outcome: HistoryOutcome, notes: list[str], *,
                pages_total: int, failed: dict[int, str]) -> LoadResult:
        """The result of the lists and views in ``state``: a memory whose view failed is
        unread (in the dataset and in ``unread_histories``), so the load is incomplete."""
        ds = wire_dataset(state.names, state.spaces, state.lists, state.items, outcome)
        unread = {i: e for i, e in outcome.errors.items() if i in ds.memories}
        ds.unread = set(unread)
        notes = [n for n in notes if not n.startswith(HISTORY_NOTE)]
        if unread:
            n = len(unread)
            notes.append(f"{HISTORY_NOTE}{n:,} {'memory' if n == 1 else 'memories'} could "
                         "not be read, so their documents and versions are not shown yet: "
                         f"{next(iter(unread.values()))}")
        return LoadResult(
            dataset=ds, source=self.kind, label=self.label, pages_total=pages_total,
            pages_fetched=[n for n in range(1, pages_total + 1) if n not in failed],
            missing_pages=sorted(failed), page_errors=dict(failed), notes=notes,
            unread_histories=unread, resume_state=(state, ds))

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        """The namespaces, every page of their documents and memories (forgotten ones
        too), the history views that link memories to documents and chains, and the
        profiles. Progress counts list pages, then history views. A view that still
        fails after the retry budget leaves its memory unread (the load is incomplete and
        :meth:`resume` views only those)."""
        if self._last is not None and not refresh:
            return self._last
        calls0 = self.calls
        spaces, names, pages, lists, items = self._listing(progress)
        plan = HistoryPlan(items, self._view, pool=self._pool(),
                           progress=self._view_progress(progress, lists, names, len(items)),
                           width=self._width)
        state = LoadState(names, spaces, lists, items, plan)
        result = self._result(state, self._views(plan), list(pages.notes),
                              pages_total=pages.total, failed=pages.failed)
        self._spaces_and_profiles(result, state, self._raw_profile)
        result.calls = self.calls - calls0
        self._last = result
        return result

    def _spaces_and_profiles(self, result: LoadResult, state: LoadState,
                             fetch: Callable[[str], Any]) -> None:
        """The namespaces and (when configured) the profiles, each profile answer kept in
        ``state`` for a refresh."""
        cfg, spaces, names = self.config, state.spaces, state.names
        listed = {s.container_tag for s in spaces}

        def profile(tag: str) -> Any:
            answer = fetch(tag)
            state.profiles[tag] = answer
            return answer

        add_spaces_and_profiles(
            result, list_spaces=lambda _report: spaces + [SpaceRecord(container_tag=n)
                                                          for n in names if n not in listed],
            fetch_profile=profile if cfg.load_profiles else None,
            tags=cfg.container_tags, max_profiles=cfg.max_profiles,
            concurrency=cfg.concurrency)

    def _listing(self, progress: ProgressCallback | None
                 ) -> tuple[list[SpaceRecord], list[str], ListPages,
                            dict[tuple[str, str], list[Any]],
                            dict[str, tuple[str, dict[str, Any]]]]:
        """The namespaces, the names to read, every list page of their documents and
        memories, and the listed memories by id (``id -> (namespace, list item)``): what
        a load and a refresh both read first."""
        cfg = self.config
        spaces = self._namespaces()
        names = list(cfg.container_tags) or [s.container_tag for s in spaces]
        pages = ListPages(self._list, max(cfg.concurrency, self._http.gate.ceiling),
                          cfg.max_pages, progress, page_limit=cfg.page_limit)
        lists = pages.run(names)
        items = {m["id"]: (ns, m) for ns in names for m in lists[(ns, "memories")]
                 if isinstance(m, dict) and isinstance(m.get("id"), str)}
        return spaces, names, pages, lists, items

    def _pool(self) -> int:
        """Threads for the history views: enough for the adaptive limit's ceiling, and as
        many again for views waiting out a backoff."""
        return max(self.config.history_concurrency, 2 * self._http.gate.ceiling)

    @staticmethod
    def _view_progress(progress: ProgressCallback | None,
                       lists: dict[tuple[str, str], list[Any]], names: list[str],
                       memories: int) -> ViewProgress | None:
        """``(views done, planned)`` as load progress counted in histories."""
        if progress is None:
            return None
        docs = sum(len(lists[(ns, "documents")]) for ns in names)
        return lambda done, planned: progress(LoadProgress(done, planned, docs, memories,
                                                           unit="histories"))

    def resume(self, previous: LoadResult,
               progress: ProgressCallback | None = None) -> LoadResult:
        """A load with unread memories: only their history views, merged into a new
        result with everything else ``previous`` read (``previous`` is left as it is).
        A load that missed list pages is loaded again in full: the views it would need
        depend on every memory, so there is no cheaper partial fetch."""
        if previous.complete:
            return previous
        kept = previous.resume_state
        # pages missing, or a result changed since (a forget patched its dataset): all again
        if previous.missing_pages or not (isinstance(kept, tuple) and len(kept) == 2 and
                                          isinstance(kept[0], LoadState) and
                                          kept[1] is previous.dataset):
            return self.load(progress, refresh=True)
        state: LoadState = kept[0]
        calls0 = self.calls
        plan = state.plan.again(previous.unread_histories, self._view, pool=self._pool(),
                                progress=self._view_progress(progress, state.lists,
                                                             state.names, len(state.items)),
                                width=self._width)
        outcome = self._views(plan)
        result = self._result(LoadState(state.names, state.spaces, state.lists, state.items,
                                        plan, state.profiles), outcome, list(previous.notes),
                              pages_total=previous.pages_total,
                              failed=dict(previous.page_errors))
        old = previous.dataset
        result.dataset.spaces = list(old.spaces)
        result.dataset.profiles = dict(old.profiles)
        result.calls = self.calls - calls0
        self._last = result
        return result

    def refresh(self, previous: LoadResult,
                progress: ProgressCallback | None = None) -> LoadResult:
        """A load read again at the cost of what changed since ``previous``: the
        namespaces and every list page, then history views only for memories whose list
        item is new or changed and for those whose views name a changed, new or gone
        memory or document; every other memory keeps what ``previous``'s views told
        (their answers are replayed through the same plan a load runs, so the result
        equals a fresh load). Profiles are read again only for namespaces where something
        changed. ``previous`` is left as it is; without the state of a v5 load (another
        source's result) this is a full load."""
        kept = previous.resume_state
        if not (isinstance(kept, tuple) and len(kept) == 2 and isinstance(kept[0], LoadState)):
            return self.load(progress, refresh=True)
        old: LoadState = kept[0]
        calls0 = self.calls
        spaces, names, pages, lists, items = self._listing(progress)
        changed = {i for i, item in items.items() if old.items.get(i) != item}
        gone = set(old.items) - set(items)
        docs_before, docs_now = _documents(old.lists, old.names), _documents(lists, names)
        docs_changed = {d for d in docs_before.keys() | docs_now.keys()
                        if docs_before.get(d) != docs_now.get(d)}
        fresh = self._fresh_views(changed, items)
        stale = set(changed)
        failed_ns: set[str] = set()
        for mem_id, answer in fresh.items():
            if isinstance(answer, dict):
                stale |= named_by(answer)
            else:
                failed_ns.add(items[mem_id][0])
        moved = changed | gone | {d for _, d in docs_changed}
        reuse = {m: a for m, a in old.plan.answers.items()
                 if m in items and m not in stale and items[m][0] not in failed_ns
                 and not named_by(a) & moved}
        views, counting = [len(fresh)], threading.Lock()

        def fetch(ns: str, mem_id: str) -> Any:
            if mem_id in reuse:
                return reuse[mem_id]
            answer = fresh.get(mem_id)
            if isinstance(answer, dict):
                return answer
            with counting:
                views[0] += 1
            return self._view(ns, mem_id)

        plan = HistoryPlan(items, fetch, pool=self._pool(),
                           progress=self._view_progress(progress, lists, names, len(items)),
                           width=self._width)
        state = LoadState(names, spaces, lists, items, plan)
        outcome = plan.run()
        outcome.views = self.last_views = views[0]
        result = self._result(state, outcome, list(pages.notes), pages_total=pages.total,
                              failed=pages.failed)
        touched = ({items[i][0] for i in changed} | {old.items[i][0] for i in gone}
                   | {ns for ns, _ in docs_changed}
                   | _spaces_changed(old.spaces, spaces))

        def profile(tag: str) -> Any:
            if tag not in touched and tag in old.profiles:
                return old.profiles[tag]
            return self._raw_profile(tag)

        self._spaces_and_profiles(result, state, profile)
        result.calls = self.calls - calls0
        self._last = result
        return result

    def _fresh_views(self, ids: set[str], items: dict[str, tuple[str, dict[str, Any]]]
                     ) -> dict[str, Any]:
        """The history views of ``ids`` (concurrently): ``{id: answer or the
        SourceError}``."""
        def one(mem_id: str) -> Any:
            try:
                return self._view(items[mem_id][0], mem_id)
            except SourceError as exc:
                return exc

        if not ids:
            return {}
        order = sorted(ids)
        with ThreadPoolExecutor(max_workers=max(1, min(self._pool(), len(order))),
                                thread_name_prefix="memscope-v5") as pool:
            return dict(zip(order, pool.map(one, order), strict=True))

    # -- profiles, history, search -----------------------------------------------------

    def _raw_profile(self, tag: str) -> Any:
        answer = self._http.request("POST", f"/ns/{_q(tag)}/profile", json={},
                                    operation=f"load the profile of {tag}")
        return wire_profile(answer)

    def profile(self, container_tag: str) -> Profile:
        """``POST /ns/{ns}/profile``; each line names the memory it is (``id``)."""
        return parse_profile(self._raw_profile(container_tag), container_tag, ParseReport())

    def _tag_of(self, memory_id: str, container_tag: str | None) -> str | None:
        if container_tag:
            return container_tag
        if self._last is not None:
            tag = space_of_memory(self._last.dataset, memory_id)
            if tag:
                return tag
        return self.config.container_tags[0] if len(self.config.container_tags) == 1 else None

    def _need_tag(self, tag: str | None, what: str) -> str:
        if tag is None:
            raise BadRequest(f"Nothing was sent: Memscope does not know which space {what} "
                             "is in, and Supermemory needs the space — load the graph that "
                             "shows it (or choose its space) and try again.", service=SERVICE)
        return tag

    def history(self, memory_id: str, *, container_tag: str | None = None
                ) -> list[MemoryRecord]:
        """The versions the history view of ``memory_id`` names (up to three steps either
        way), oldest first."""
        tag = self._need_tag(self._tag_of(memory_id, container_tag), f"memory {memory_id}")
        answer = self._view(tag, memory_id)
        ensure(isinstance(answer, dict), SERVICE, f"read the history of memory {memory_id}",
               "not an object")
        return wire_chain(list(chain_records(answer)), tag)

    def _search_tags(self, container_tag: str | None) -> list[str]:
        if container_tag:
            return [container_tag]
        if self.config.container_tags:
            return list(self.config.container_tags)
        if self._last is not None and self._last.dataset.spaces:
            return [s.container_tag for s in self._last.dataset.spaces]
        return [s.container_tag for s in self._namespaces()]

    def search(self, query: str, *, container_tag: str | None = None,
               limit: int = 10) -> SearchResult:
        """``POST /ns/{ns}/search`` (hybrid) in the space, or in every space (merged by
        similarity) when none is given."""
        tags = self._search_tags(container_tag)

        def one(tag: str) -> list[SearchHit]:
            op = f"search memories in {tag}"
            answer = self._http.request(
                "POST", f"/ns/{_q(tag)}/search", operation=op,
                json={"query": query, "searchMode": "hybrid", "limit": limit,
                      "include": {"documents": True}})
            ensure(isinstance(answer, dict) and isinstance(answer.get("results"), list),
                   SERVICE, op, "no results list")
            return wire_hits(answer["results"], tag)

        with ThreadPoolExecutor(max_workers=max(1, min(self.config.concurrency,
                                                       len(tags)))) as pool:
            found = [h for hits in pool.map(one, tags) for h in hits]
        found.sort(key=lambda h: -(h.similarity or 0.0))
        return SearchResult(found[:limit], len(found),
                            note=None if len(tags) == 1 else
                            f"Searched {len(tags)} spaces; the best matches of all are shown.")

    # -- adding --------------------------------------------------------------------------

    def add(self, text: str, *, container_tag: str | None = None,
            title: str | None = None) -> AddResult:
        """``POST /ns/{ns}/document``, sent once; poll :meth:`document_status`."""
        tags = self.config.container_tags
        tag = container_tag or (tags[0] if len(tags) == 1 else DEFAULT_SPACE)
        body: dict[str, Any] = {"content": text}
        if title:
            body["metadata"] = {"title": title}
        op = f"add a document to {tag}"
        with ambiguous(SERVICE, "add request", "created the document"):
            answer = self._http.request("POST", f"/ns/{_q(tag)}/document", json=body,
                                        operation=op, idempotent=False)
        ensure(isinstance(answer, dict) and isinstance(answer.get("id"), str), SERVICE, op,
               "no document id")
        self._doc_space[answer["id"]] = tag
        status = str(answer.get("status") or "queued")
        return AddResult(answer["id"], status, status_sentence(SERVICE, answer["id"], status),
                         container_tag=tag, title=title, raw=answer)

    def document_status(self, document_id: str) -> AddResult:
        """``GET /ns/{ns}/document/{id}?include=memories``: ``system.status``."""
        tags = self.config.container_tags
        tag = self._doc_space.get(document_id) or (tags[0] if len(tags) == 1
                                                    else DEFAULT_SPACE)
        op = f"read the status of document {document_id}"
        answer = self._http.request("GET", f"/ns/{_q(tag)}/document/{_q(document_id)}",
                                    params={"include": "memories"}, operation=op)
        ensure(isinstance(answer, dict), SERVICE, op, "not an object")
        return wire_status(document_id, answer, tag)

    # -- patching the loaded data after an action (memscope.sources.patch) -------------

    def patch_forgotten(self, previous: LoadResult, ids: Sequence[str], *,
                        reason: str | None = None) -> LoadResult | None:
        """Forgotten memories as a v5 load reads them: ``isForgotten``, ``updatedAt`` now,
        no reason (v5 keeps none; the ledger does), no link between two forgotten
        memories (the history views leave forgotten ones out of every related list), one
        current memory fewer in the namespace's count; the profiles of the spaces touched
        are read again (a request each). Nothing else is asked."""
        before = previous.dataset
        ds = rp.mark_forgotten(before, ids, at=now(), reason=None)
        ds = rp.recount(rp.unlink_forgotten(ds, set(ids)), before, ids)
        self._last = with_profiles_read_again(self, previous, ds, ids, self._raw_profile)
        return self._last

    def _read_each(self, tag: str, ids: Sequence[str]) -> dict[str, Any]:
        """``GET /ns/{ns}/memories/{id}`` per id (concurrently): ``{id: memory}``; an id
        the service no longer has is left out."""
        def one(mem_id: str) -> tuple[str, Any]:
            try:
                return mem_id, self._http.request(
                    "GET", f"/ns/{_q(tag)}/memories/{_q(mem_id)}",
                    operation=f"read memory {mem_id} again")
            except NotFound:
                return mem_id, None

        workers = max(1, min(self.config.history_concurrency, len(ids)))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return {i: a for i, a in pool.map(one, ids) if isinstance(a, dict)}

    def _read_listed(self, tag: str, ids: set[str]) -> dict[str, Any]:
        """The namespace's memory list (forgotten ones too), page by page until every id
        in ``ids`` was seen: ``{id: memory}`` of those."""
        found: dict[str, Any] = {}
        page = 1
        while page <= self.config.max_pages:
            items, pagination = self._list(tag, "memories", page)
            found.update({m["id"]: m for m in items if isinstance(m, dict)
                          and m.get("id") in ids})
            total = pages_from(pagination, self.config.page_limit)
            if len(found) == len(ids) or not items or total is None or page >= total:
                break
            page += 1
        return found

    def reread(self, previous: LoadResult, ids: Sequence[str]) -> LoadResult | None:
        """The memories ``ids`` read again, per namespace by their own views when they
        are fewer than the namespace's list pages, else from those pages; one no longer
        there is removed. The namespaces (their counts) and the profiles touched are read
        again too. Raises the :class:`SourceError` of a read that failed."""
        before, calls0 = previous.dataset, self.calls
        by_tag: dict[str, list[str]] = {}
        for mem_id in ids:
            tag = space_of_memory(before, mem_id) or self._tag_of(mem_id, None)
            if tag is not None:
                by_tag.setdefault(tag, []).append(mem_id)
        space_ids = {s.container_tag: s.id for s in before.spaces}
        records: list[MemoryRecord] = []
        gone: list[str] = []
        report = ParseReport()
        for tag, tag_ids in by_tag.items():
            held = sum(1 for m in before.memories.values() if m.container_tag == tag)
            pages = -(-held // self.config.page_limit) + 1
            raws = (self._read_each(tag, tag_ids) if len(tag_ids) <= pages
                    else self._read_listed(tag, set(tag_ids)))
            for mem_id in tag_ids:
                raw = raws.get(mem_id)
                rec = parse_memory(memory_wire(raw, tag, space_ids.get(tag)), mem_id,
                                   report) if isinstance(raw, dict) else None
                if rec is None:
                    gone.append(mem_id)
                else:
                    records.append(rec)
        ds = rp.unlink_forgotten(rp.refresh_memories(before, records, gone=gone), set(ids))
        ds = rp.with_spaces(ds, self._namespaces())
        profiles, notes = profiles_again(ds, list(by_tag), self._raw_profile)
        result = patched(previous, rp.with_profiles(ds, profiles), calls=self.calls - calls0,
                         notes=notes)
        self._last = result
        return result

    def patch_added(self, previous: LoadResult, added: AddResult) -> LoadResult | None:
        """The added document and its memories, from the last status answer
        (``GET /ns/{ns}/document/{id}?include=memories``; read once more only when the
        answer lacks them), each memory's history view (its version chain and links, as
        a load reads them: a version it replaced is no longer latest), the namespaces
        (their counts, a new one) and the space's profile when the load has it."""
        if added.id is None:
            return None
        calls0, notes = self.calls, []
        answer, tag = added.raw, added.container_tag or self._doc_space.get(added.id)
        if not isinstance(answer.get("memories"), list) or tag is None:
            status = self.document_status(added.id)
            answer, tag = status.raw, status.container_tag
        if not isinstance(answer.get("memories"), list) or tag is None:
            return None
        mems = [m for m in answer["memories"] if isinstance(m, dict)
                and isinstance(m.get("id"), str)]
        items = {m["id"]: (tag, m) for m in mems}
        outcome = HistoryPlan(items, self._view, pool=self.config.history_concurrency).run()
        for mem_id in items:
            outcome.memory_document.setdefault(mem_id, added.id)
        if outcome.errors:
            notes.append(f"The history of {len(outcome.errors)} added memories could not be "
                         f"read: {next(iter(outcome.errors.values()))}")
        try:
            spaces = self._namespaces()
        except SourceError as exc:
            spaces = list(previous.dataset.spaces)
            notes.append(f"The spaces could not be read again: {exc}")
        doc = {k: v for k, v in answer.items() if k not in ("content", "memories", "chunks")}
        fragment = wire_dataset([tag], spaces, {(tag, "documents"): [doc],
                                                (tag, "memories"): mems}, items, outcome)
        replaced = [outcome.parent[m] for m in items if m in outcome.parent]
        ds = rp.with_spaces(rp.add_records(previous.dataset, fragment, not_latest=replaced),
                            spaces)
        profiles, said = profiles_again(ds, [tag], self._raw_profile)
        result = patched(previous, rp.with_profiles(ds, profiles), calls=self.calls - calls0,
                         notes=notes + said)
        self._last = result
        return result

    # -- forgetting ----------------------------------------------------------------------

    def forget_many(self, ids: Sequence[str], *, reason: str | None = None,
                    container_tag: str | None = None) -> ForgetReport:
        """``DELETE /ns/{ns}/memories {"ids"}`` per space, at most 500 ids a request; the
        report holds the service's answer per id. v5 takes no reason (the ledger keeps
        it)."""
        requested = tuple(dict.fromkeys(ids))
        by_tag: dict[str, list[str]] = {}
        errors: dict[str, str] = {}
        for mem_id in requested:
            tag = self._tag_of(mem_id, container_tag)
            if tag is None:
                errors[mem_id] = (f"Nothing was sent for memory {mem_id}: Memscope does not "
                                  "know which space it is in.")
            else:
                by_tag.setdefault(tag, []).append(mem_id)
        forgotten: list[str] = []
        for tag, tag_ids in by_tag.items():
            for start in range(0, len(tag_ids), FORGET_BATCH):
                batch = tag_ids[start:start + FORGET_BATCH]
                op = f"forget {len(batch)} memories in {tag}"
                answer = self._http.request("DELETE", f"/ns/{_q(tag)}/memories",
                                            json={"ids": batch}, operation=op)
                ensure(isinstance(answer, dict), SERVICE, op, "not an object")
                done, failed = forget_answer(answer)
                forgotten += [i for i in done if i in batch]
                errors.update({i: e for i, e in failed.items() if i in batch})
        self._mark_forgotten(forgotten)
        note = None
        if reason:
            note = "Supermemory's current API (v5) takes no reason; Memscope's ledger keeps it."
        return ForgetReport(requested, tuple(forgotten), errors, note=note,
                            container_tag=container_tag or (next(iter(by_tag))
                                                            if len(by_tag) == 1 else None))

    def _mark_forgotten(self, ids: Sequence[str]) -> None:
        """This source's last load with ``ids`` forgotten: a new result (the old one may
        be shared; :meth:`patch_forgotten` is what the UI hands on)."""
        if self._last is None or not ids:
            return
        ds = rp.mark_forgotten(self._last.dataset, ids, at=now(), reason=None)
        self._last = patched(self._last, rp.unlink_forgotten(ds, set(ids)))

    def forget(self, target_id: str, *, reason: str | None = None,
               container_tag: str | None = None) -> ForgetResult:
        """Forget one memory by id (:meth:`forget_many` of one); the result carries the
        per-id report."""
        tag = self._need_tag(self._tag_of(target_id, container_tag), f"memory {target_id}")
        mem = self._last.dataset.memories.get(target_id) if self._last else None
        report = self.forget_many([target_id], reason=reason, container_tag=tag)
        ok = target_id in report.forgotten
        said = report.errors.get(target_id)
        message = (f"Supermemory forgot memory {target_id}." if ok else
                   f"Supermemory did not forget memory {target_id}"
                   + (f": {said}" if said else " (it matched no memory).")
                   + ("" if not said or said.endswith(".") else "."))
        return ForgetResult(target_id, ok, message, container_tag=tag,
                            snapshot=mem.memory if mem else None, report=report)

    def forget_all_preview(self, container_tag: str | None = None) -> ForgetAllPreview:
        """The loaded, not-yet-forgotten memories of the space (v5 has no dry run by ids:
        step two forgets exactly these ids); deletes nothing."""
        if not container_tag:
            raise BadRequest("Choose a space to forget everything in.", service=SERVICE)
        ds = self.load().dataset
        mems = [m for m in ds.memories.values() if m.container_tag == container_tag]
        ids = [m.id for m in mems if not m.is_forgotten]
        docs = {d for i in ids for d in ds.memory_documents.get(i, [])}
        message = (f"{len(ids)} memories from {len(docs)} documents in {container_tag} would "
                   "be forgotten (of the memories loaded), by id, at most "
                   f"{FORGET_BATCH} a request.")
        return ForgetAllPreview(container_tag, len(ids), ids, len(docs),
                                already_forgotten=len(mems) - len(ids), message=message,
                                confirm_words=(container_tag, str(len(ids))))

    def forget_semantic_preview(self, query: str, *, container_tag: str | None = None
                                ) -> SemanticPreview:
        """``DELETE /ns/{ns}/memories/semantic`` with ``dryRun: true`` — always: the
        memories it would forget; nothing is deleted. Forget the reviewed ids with
        :meth:`forget_many` (never a second semantic call)."""
        tags = self.config.container_tags
        tag = self._need_tag(container_tag or (tags[0] if len(tags) == 1 else None),
                             "the forget by meaning")
        op = f"preview forgetting memories about {query!r} in {tag}"
        answer = self._http.request("DELETE", f"/ns/{_q(tag)}/memories/semantic", operation=op,
                                    json={"query": query, "dryRun": True})
        ensure(isinstance(answer, dict) and isinstance(answer.get("matches"), list), SERVICE,
               op, "no matches list")
        texts = match_texts(answer["matches"])
        return SemanticPreview(query, tag, tuple(texts), texts,
                               note=f"A dry run: {len(texts)} memories in {tag} match; "
                                    "nothing was deleted.")


def view_ceiling(config: SupermemoryConfig) -> int:
    """How many requests in flight the adaptive limit may grow to: ``concurrency_ceiling``
    when the configuration sets it, else :data:`VIEW_CEILING` (history views are small
    GETs, so latency bounds a load; a 429 narrows the pool again)."""
    if "concurrency_ceiling" in config.model_fields_set:
        return config.concurrency_ceiling
    return max(VIEW_CEILING, config.concurrency_ceiling)


def _documents(lists: dict[tuple[str, str], list[Any]], names: list[str]
               ) -> dict[tuple[str, str], Any]:
    """``{(namespace, document id): list item}`` of every listed document."""
    return {(ns, d["id"]): d for ns in names for d in lists.get((ns, "documents"), [])
            if isinstance(d, dict) and isinstance(d.get("id"), str)}


def _spaces_changed(before: list[SpaceRecord], now: list[SpaceRecord]) -> set[str]:
    """The namespaces whose record (its counts…) is new, gone or different."""
    a = {s.container_tag: s for s in before}
    b = {s.container_tag: s for s in now}
    return {t for t in a.keys() | b.keys() if a.get(t) != b.get(t)}


def supermemory_source(config: SupermemoryConfig, *,
                       sleep: Callable[[float], None] = time.sleep
                       ) -> SupermemoryV5Source | SupermemorySource:
    """The Supermemory source for ``config.dialect``: v5 (current), legacy (v3/v4), or —
    ``auto``, the default — v5 unless its first route answers 404 (one ``GET /ns``), then
    the legacy API. Any other failure of that first request is raised as it is."""
    if config.dialect == "legacy":
        return SupermemorySource(config, sleep=sleep)
    v5 = SupermemoryV5Source(config, sleep=sleep)
    if config.dialect == "v5":
        return v5
    try:
        found = probe_v5(v5.probe)
    except BaseException:
        v5.close()
        raise
    if found.answers:
        v5.auto = True
        return v5
    v5.close()
    legacy = SupermemorySource(config.model_copy(update={"dialect": "legacy"}), sleep=sleep)
    legacy.fell_back()
    return legacy


__all__ = ["NO_ROUTE", "SupermemoryV5Source", "supermemory_source"]
