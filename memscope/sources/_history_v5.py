"""Loading Supermemory v5: the list pages, then the history views, with as few requests as
possible.

A v5 list item names neither its document nor its chain: only the history view
``GET /ns/{ns}/memories/{id}?include=related&include=documents`` does, one memory per
request. Its ``related`` lists describe other memories too: parents and children are the
versions up to three steps away (each with its document), so one view of a chain's latest
version describes a chain of four, and a second one the rest of a longer chain. Siblings
are the direct extends/derives links.

The plan, from what the list already says (``version``, ``isLatest``, ``isForgotten``):

1. the latest version of every chain (``isLatest`` and version > 1) first — the heads of
   different chains never describe each other, so none of these requests is wasted;
2. meanwhile every single-version memory and every forgotten one: nothing else names a
   single version's document or links, and forgotten memories are left out of related
   lists, so each needs its own view;
3. once no view that may still name one is in flight (every head, forgotten memory and
   earlier wave has answered; a single version names none), the next wave of older
   versions no view settled yet: first those a view named (their parent is the unknown:
   each such view reaches three versions further down), then any that no view named —
   of either, only versions no other in the wave can reach (:func:`apart`). So what a
   wave holds follows from the answers alone, never from their order or the pool's
   width, and a load makes the same views however its requests interleave.

Requests run on a bounded pool (:data:`DEFAULT_POOL` to start with): as many are in flight
as ``width()`` allows — the client's adaptive limit, which doubles each round trip until the
first 429, shrinks on a 429 and then grows by one per window while the service keeps up.
429/5xx/dropped connections are retried by :class:`~memscope.sources._http.HttpClient`
within its retry budget; a view that still fails is an error of the outcome (its memory
is *unread*), and :meth:`HistoryPlan.again` views only those, knowing all the first run
learnt.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from memscope.records.models import SpaceRecord
from memscope.records.text import counted
from memscope.sources._feed import pages_from
from memscope.sources.errors import SourceError
from memscope.sources.results import LoadProgress, ProgressCallback

#: History views in flight to start with (and the threads of a plan given no ``width``).
#: Each is a small GET, so latency, not bandwidth, bounds a load: 8 in flight keep a 50 ms
#: link at ~160 requests/s. The client's adaptive limit (``width()``) grows from there
#: while the service answers without a 429 — up to the source's ceiling (Supermemory v5:
#: ``VIEW_CEILING``, 32) — and narrows again when it throttles (a 429 with ``Retry-After``
#: pauses the whole pool, see ``HttpClient``). Configurable as ``history_concurrency``.
DEFAULT_POOL = 8

#: ``(namespace, memory id) -> MemoryDetails answer``
ViewFetcher = Callable[[str, str], Any]
#: ``(views done, views planned)``, called on the loading thread
ViewProgress = Callable[[int, int], None]

RELATED = ("parents", "children", "siblings")
#: how many versions up and down a view's parents and children reach
REACH = 3
#: how often the number of views still planned is recounted for the progress display
PROGRESS_EVERY_S = 0.25


@dataclass
class HistoryOutcome:
    """What the views told: documents, chain edges, links, and views that failed."""

    #: memory id -> document id
    memory_document: dict[str, str] = field(default_factory=dict)
    #: document id -> the ``document`` object a view included
    documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: memory id -> the previous version's id / the chain's first version's id
    parent: dict[str, str] = field(default_factory=dict)
    root: dict[str, str] = field(default_factory=dict)
    #: memory id -> {other id: relation} (updates, extends, derives), legacy direction
    relations: dict[str, dict[str, str]] = field(default_factory=dict)
    #: memories seen only in related lists (not in the listed pages): id -> related item
    unlisted: dict[str, dict[str, Any]] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    views: int = 0


def _obj(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _num(value: Any) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return None


class HistoryPlan:
    """Fetch the views of ``items`` (``id -> (namespace, list item)``), reusing related.

    ``pool`` threads at most; ``width()``, when given, is how many may be in flight now
    (at least 1)."""

    def __init__(self, items: dict[str, tuple[str, dict[str, Any]]], fetch: ViewFetcher, *,
                 pool: int = DEFAULT_POOL, progress: ViewProgress | None = None,
                 width: Callable[[], int] | None = None) -> None:
        self.items, self.fetch, self.pool, self.progress = items, fetch, pool, progress
        self.width = width
        #: the memories a plan made by :meth:`again` views (``None``: every one needed)
        self._retry: list[str] | None = None
        self.out = HistoryOutcome()
        self.described: set[str] = set()
        #: memories some view's parents or children named
        self.named: set[str] = set()
        self.version: dict[str, float] = {}
        #: memory id -> (parent id, direct): direct when a view of the memory itself or of
        #: its parent said so (versions one apart), else read off a longer path
        self._parent: dict[str, tuple[str, bool]] = {}
        self._links: dict[tuple[str, str], str] = {}
        #: memory id -> its view as it was absorbed (:func:`slim`), for a refresh to reuse
        self.answers: dict[str, dict[str, Any]] = {}
        #: single versions (latest first versions): their views name no other version
        self._mute: set[str] = set()

    # -- planning ------------------------------------------------------------------------

    def _tiers(self) -> tuple[list[str], list[str], list[str]]:
        """Heads, memories viewed alone (forgotten ones first: they may name older
        versions, so they should answer early; single versions name none) and the held
        older versions."""
        heads, forgotten_ones, alone, held = [], [], [], []
        for mem_id, (_ns, raw) in self.items.items():
            version = _num(raw.get("version")) or 1.0
            latest, forgotten = raw.get("isLatest", True) is not False, raw.get("isForgotten")
            if forgotten is True:
                forgotten_ones.append(mem_id)
            elif latest and version > 1:
                heads.append(mem_id)
            elif latest:
                alone.append(mem_id)
            else:
                held.append(mem_id)
            self.version[mem_id] = version
        self._mute = set(alone)
        return heads, forgotten_ones + alone, held

    def again(self, ids: Iterable[str], fetch: ViewFetcher, *, pool: int = DEFAULT_POOL,
              progress: ViewProgress | None = None,
              width: Callable[[], int] | None = None) -> HistoryPlan:
        """A new plan that knows everything this one learnt, to view ``ids`` again (those
        whose view failed) with :meth:`run`; this plan and its outcome are left as they
        are."""
        retry = set(ids)
        twin = HistoryPlan(self.items, fetch, pool=pool, progress=progress, width=width)
        out = self.out
        twin.out = HistoryOutcome(
            memory_document=dict(out.memory_document), documents=dict(out.documents),
            unlisted=dict(out.unlisted),
            errors={k: v for k, v in out.errors.items() if k not in retry})
        twin.described = self.described - retry
        twin.named, twin.version = set(self.named), dict(self.version)
        twin._parent, twin._links = dict(self._parent), dict(self._links)
        twin.answers = dict(self.answers)
        twin._retry = [i for i in dict.fromkeys(ids) if i in self.items]
        return twin

    def run(self) -> HistoryOutcome:
        """Fetch every view needed (a plan made by :meth:`again`: only the views it was
        given); return what they told."""
        if self._retry is not None:
            heads, alone, held = [], list(self._retry), []
        else:
            heads, alone, held = self._tiers()
        if not (heads or alone or held):
            self._finish()
            return self.out
        self._ready: deque[str] = deque(heads + alone)
        self._heads_open = set(heads)  # heads not answered (or skipped) yet
        self._held = sorted(held, key=lambda i: -self.version.get(i, 1.0))
        self._running: dict[Future[Any], str] = {}
        self._done, self._last_count = 0, (0.0, 0)
        workers = max(1, min(self.pool, len(heads) + len(alone) + len(held)))
        executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="memscope-v5")
        try:
            while True:
                self._fill(executor, workers)
                if self._release():
                    continue
                if not self._running:
                    break
                finished, _ = wait(self._running, return_when=FIRST_COMPLETED)
                for fut in finished:
                    self._settle(self._running.pop(fut), fut)
                if self.progress is not None:
                    self.progress(self._done, self._planned())
        finally:
            executor.shutdown(wait=True, cancel_futures=True)
        if self.progress is not None:
            self.progress(self._done, self._done)  # every view planned is done
        self.out.views = self._done
        self._finish()
        return self.out

    def _fill(self, executor: ThreadPoolExecutor, workers: int) -> None:
        """Start views until ``workers`` (or, when narrower, ``width()``) are in flight,
        skipping memories now settled."""
        room = workers if self.width is None else max(1, min(workers, self.width()))
        while self._ready and len(self._running) < room:
            mem_id = self._ready.popleft()
            if mem_id in self.described:
                self._heads_open.discard(mem_id)
                continue
            self._running[executor.submit(self.fetch, self.items[mem_id][0], mem_id)] = mem_id

    def _release(self) -> bool:
        """Queue the next wave of older versions once every view started may no longer
        name one (only single versions are in flight, if any): what is settled then, and
        so the wave, depends on the answers alone, not on the order they came in."""
        if not self._held or self._heads_open or self._ready:
            return False
        if any(mem_id not in self._mute for mem_id in self._running.values()):
            return False
        self._held = [i for i in self._held if i not in self.described]
        wave = self._wave(self._held)
        if not wave:
            return False
        self._ready.extend(wave)
        queued = set(wave)
        self._held = [i for i in self._held if i not in queued]
        return True

    def _settle(self, mem_id: str, fut: Future[Any]) -> None:
        self._done += 1
        self._heads_open.discard(mem_id)
        try:
            self._absorb(mem_id, fut.result())
        except SourceError as exc:
            self.out.errors[mem_id] = str(exc)
            self.described.add(mem_id)

    def _planned(self) -> int:
        """Views done, in flight and still needed (recounted every
        :data:`PROGRESS_EVERY_S`: counting the waiting ones costs O(N))."""
        now, busy = time.monotonic(), self._done + len(self._running)
        if now - self._last_count[0] >= PROGRESS_EVERY_S or not (
                self._ready or self._held or self._running):
            waiting = sum(1 for i in [*self._ready, *self._held] if i not in self.described)
            self._last_count = (now, busy + waiting)
        return max(self._last_count[1], busy)

    def _wave(self, held: list[str]) -> list[str]:
        """The older versions to view next: those a view already named whose parent is
        still unknown (each reaches three versions further down its chain), else the ones
        no view named; of them, only those no other in the wave may name (:func:`apart`),
        so none is settled while its own view is waiting or in flight."""
        named = [i for i in held if i in self.named]
        return apart(named or held, self.version)

    # -- reading one view ----------------------------------------------------------------

    def _doc(self, mem_id: str, doc: Any) -> None:
        if isinstance(doc, dict) and isinstance(doc.get("id"), str):
            self.out.memory_document.setdefault(mem_id, doc["id"])
            self.out.documents.setdefault(doc["id"], doc)

    def _set_parent(self, child: str, parent: str, direct: bool) -> None:
        known = self._parent.get(child)
        if known is None or (direct and not known[1]):
            self._parent[child] = (parent, direct)

    def _settled(self, mem_id: str) -> bool:
        """Its document and its place in the chain are known (a first version has no
        parent), so its own view would tell nothing new about it."""
        if mem_id not in self.out.memory_document:
            return False
        return self.version.get(mem_id, 1.0) <= 1 or mem_id in self._parent

    def _absorb(self, mem_id: str, answer: Any) -> None:
        self.described.add(mem_id)
        if not isinstance(answer, dict):
            self.out.errors[mem_id] = "the history view was not an object"
            return
        mine = _num(answer.get("version"))
        if mine is not None:
            self.version[mem_id] = mine
        mine = self.version.get(mem_id, 1.0)
        included = _obj(answer.get("included"))
        self._doc(mem_id, included.get("document"))
        lists = self._related(mem_id, _obj(included.get("related")))
        self._parents_path(mem_id, mine, lists.get("parents", []))
        self._children_steps(mem_id, mine, lists.get("children", []))
        self.answers[mem_id] = slim(answer, self.items, self.out.documents)
        touched = [i for kind in ("parents", "children") for i, _ in lists.get(kind, [])]
        self.named.update(touched)
        for other in touched:
            if self._settled(other):
                self.described.add(other)

    def _related(self, mem_id: str, related: dict[str, Any]
                 ) -> dict[str, list[tuple[str, float | None]]]:
        """Documents and links of the related items; ``{parents|children: [(id, v)]}``."""
        lists: dict[str, list[tuple[str, float | None]]] = {}
        for kind in RELATED:
            for item in related.get(kind) or ():
                if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                    continue
                other = item["id"]
                self._doc(other, item.get("document"))
                if other not in self.items:
                    self.out.unlisted.setdefault(other, item)
                if kind == "siblings":
                    self._link(mem_id, other, str(item.get("relation") or "extends"))
                    continue
                version = _num(item.get("version"))
                if version is not None:
                    self.version.setdefault(other, version)
                lists.setdefault(kind, []).append((other, version))
        return lists

    def _parents_path(self, mem_id: str, mine: float,
                      parents: list[tuple[str, float | None]]) -> None:
        """Parents are the path to the first version, nearest first; forgotten ones are
        left out, so a version gap means the direct parent is hidden: stop there."""
        below, below_v = mem_id, mine
        for other, version in parents:
            if version is None or version != below_v - 1:
                break
            self._set_parent(below, other, True)
            below, below_v = other, version

    def _children_steps(self, mem_id: str, mine: float,
                        children: list[tuple[str, float | None]]) -> None:
        """Children are every branch, step by step: one version up is a direct child;
        further up, the one item a version below (when there is just one) is its parent."""
        by_version: dict[float, list[str]] = {}
        for other, version in children:
            if version is not None:
                by_version.setdefault(version, []).append(other)
        for version, ids in by_version.items():
            below = [mem_id] if version == mine + 1 else by_version.get(version - 1, [])
            if len(below) == 1:
                for other in ids:
                    self._set_parent(other, below[0], version == mine + 1)

    def _created(self, mem_id: str) -> str:
        raw = self.items.get(mem_id, ("", {}))[1]
        return str(_obj(raw.get("system")).get("createdAt") or "")

    def _link(self, a: str, b: str, relation: str) -> None:
        """An extends/derives link seen from ``a``. A view lists it at both ends without
        saying which end holds it: the newer memory does (it extends or derives from the
        older one), so the link reads the same whichever end was fetched."""
        holder, other = sorted((a, b), key=lambda i: (self._created(i), i), reverse=True)
        self._links.setdefault((holder, other), relation)

    def _finish(self) -> None:
        """Parents, roots (the first version up the parent path) and links, from all
        that is known (a plan made by :meth:`again` knows what its first run learnt)."""
        self.out.parent, self.out.root, self.out.relations = {}, {}, {}
        parents = {child: parent for child, (parent, _) in self._parent.items()}
        for child, parent in parents.items():
            self.out.parent[child] = parent
            self.out.relations.setdefault(child, {})[parent] = "updates"
            top, seen = parent, {child}
            while top in parents and top not in seen:
                seen.add(top)
                top = parents[top]
            self.out.root[child] = top
        for (a, b), relation in self._links.items():
            self.out.relations.setdefault(a, {})[b] = relation


def apart(ids: list[str], version: dict[str, float]) -> list[str]:
    """Of ``ids``, newest version first, those no view of another one taken may name: a
    view names only versions one to :data:`REACH` steps from its own, so versions equal
    or further apart than that can be viewed at once without one telling the other's.
    (Across all chains: a chain may span documents, and its id is not known before its
    views. It costs at most :data:`REACH` more round trips per wave.)

    >>> apart(["a5", "a4", "b4", "a1"], {"a5": 5, "a4": 4, "b4": 4, "a1": 1})
    ['a5', 'a1']
    """
    taken: set[float] = set()
    out: list[str] = []
    for mem_id in sorted(ids, key=lambda i: -version.get(i, 1.0)):
        mine = version.get(mem_id, 1.0)
        if all(v == mine or abs(v - mine) > REACH for v in taken):
            taken.add(mine)
            out.append(mem_id)
    return out


@dataclass(frozen=True)
class LoadState:
    """What a v5 load read, kept with its result so a resume views only what failed:
    the namespaces, their list pages, the listed memories and the plan that viewed them
    (never changed after the load: a resume works on :meth:`HistoryPlan.again`)."""

    names: list[str]
    spaces: list[SpaceRecord]
    lists: dict[tuple[str, str], list[Any]]
    items: dict[str, tuple[str, dict[str, Any]]]
    plan: HistoryPlan
    #: namespace -> its profile answer as the load read it (a refresh keeps those of
    #: namespaces where nothing changed)
    profiles: dict[str, Any] = field(default_factory=dict)


def slim(answer: dict[str, Any], items: dict[str, Any],
         documents: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What :meth:`HistoryPlan._absorb` reads of a view (its version, document and related
    lists: of a related item its id, version, relation and document, all of it when the
    item is not listed): absorbing it tells exactly what the whole view told. A document
    equal to the one kept in ``documents`` is that one (held once, not once a view)."""
    def same(doc: Any) -> Any:
        ident = doc.get("id") if isinstance(doc, dict) else None
        kept = documents.get(ident) if isinstance(ident, str) else None
        return kept if kept is not None and kept == doc else doc

    included = _obj(answer.get("included"))
    related = _obj(included.get("related"))
    out_related: dict[str, list[Any]] = {}
    for kind in RELATED:
        kept: list[Any] = []
        for item in related.get(kind) or ():
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                continue
            if item["id"] in items:
                item = {k: same(item[k]) if k == "document" else item[k]
                        for k in ("id", "version", "relation", "document") if k in item}
            kept.append(item)
        out_related[kind] = kept
    out: dict[str, Any] = {"included": {"document": same(included.get("document")),
                                        "related": out_related}}
    if "version" in answer:
        out["version"] = answer["version"]
    return out


def named_by(answer: dict[str, Any]) -> set[str]:
    """The memories and documents a (slim) view names: a change to any of them may change
    the view."""
    included = _obj(answer.get("included"))
    out: set[str] = set()
    doc = _obj(included.get("document"))
    if isinstance(doc.get("id"), str):
        out.add(doc["id"])
    for kind in RELATED:
        for item in _obj(included.get("related")).get(kind) or ():
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                out.add(item["id"])
                other = _obj(item.get("document"))
                if isinstance(other.get("id"), str):
                    out.add(other["id"])
    return out


def plan_views(items: dict[str, tuple[str, dict[str, Any]]], fetch: ViewFetcher, *,
               pool: int = DEFAULT_POOL, progress: ViewProgress | None = None,
               width: Callable[[], int] | None = None) -> HistoryOutcome:
    """Run a :class:`HistoryPlan` over ``items`` and return its outcome."""
    return HistoryPlan(items, fetch, pool=pool, progress=progress, width=width).run()


def chain_records(answer: dict[str, Any]) -> Iterable[dict[str, Any]]:
    """The memory of one view and its parents and children (its chain, as far as the view
    reaches), each a raw dict with ``id``, ``memory``, ``version``, ``system``."""
    yield answer
    related = _obj(_obj(answer.get("included")).get("related"))
    for kind in ("parents", "children"):
        for item in related.get(kind) or ():
            if isinstance(item, dict) and isinstance(item.get("id"), str):
                yield item


class ListPages:
    """Every list page of the namespaces: page 1 of each list, then the rest, with at most
    ``concurrency`` requests in flight. A page-1 failure raises; a later page that still
    fails after every retry is numbered in :attr:`failed` (pages count 1… across every
    list: first pages, then the rest) with its sentence."""

    def __init__(self, fetch: Callable[[str, str, int], tuple[list[Any], dict[str, Any]]],
                 concurrency: int, max_pages: int, progress: ProgressCallback | None, *,
                 page_limit: int = 200) -> None:
        self.fetch, self.concurrency, self.max_pages = fetch, concurrency, max_pages
        self.progress, self.page_limit = progress, page_limit
        self.done = self.total = self.docs = self.mems = 0
        self.failed: dict[int, str] = {}
        self.notes: list[str] = []

    def _tick(self, kind: str, n: int) -> None:
        self.done += 1
        if kind == "documents":
            self.docs += n
        else:
            self.mems += n
        if self.progress is not None:
            self.progress(LoadProgress(self.done, self.total, self.docs, self.mems,
                                       len(self.failed)))

    def _follow(self, key: tuple[str, str], pages: dict[int, list[Any]]) -> None:
        """No page count in the answer: follow full pages one at a time."""
        page = 1
        while len(pages[page]) >= self.page_limit and page < self.max_pages:
            page += 1
            self.total += 1
            pages[page], _ = self.fetch(key[0], key[1], page)
            self._tick(key[1], len(pages[page]))

    def run(self, names: list[str]) -> dict[tuple[str, str], list[Any]]:
        """``{(namespace, documents|memories): items}``, pages in order."""
        keys = [(ns, kind) for ns in names for kind in ("documents", "memories")]
        out: dict[tuple[str, str], dict[int, list[Any]]] = {k: {} for k in keys}
        self.total = len(keys)
        # threads start as pages need them: the first pages are one per list, the rest
        # may be many more (the client's adaptive limit decides how many are in flight)
        with ThreadPoolExecutor(max_workers=max(1, self.concurrency),
                                thread_name_prefix="memscope-v5-list") as pool:
            firsts = list(pool.map(lambda k: self.fetch(k[0], k[1], 1), keys))
            rest: list[tuple[str, str, int]] = []
            for key, (items, pagination) in zip(keys, firsts, strict=True):
                out[key][1] = items
                self._tick(key[1], len(items))
                total = pages_from(pagination, self.fetch_limit(pagination, items))
                if total is None:
                    self._follow(key, out[key])
                    continue
                rest += [(key[0], key[1], p) for p in range(2, min(total, self.max_pages) + 1)]
            self.total += len(rest)
            futures = [(r, pool.submit(self.fetch, *r)) for r in rest]
            for number, ((ns, kind, page), fut) in enumerate(futures, start=self.total - len(
                    rest) + 1):
                try:
                    items, _ = fut.result()
                except SourceError as exc:
                    self.failed[number] = (f"Page {page} of the {kind} of {ns} could not be "
                                           f"loaded: {exc}")
                    continue
                out[(ns, kind)][page] = items
                self._tick(kind, len(items))
        if self.failed:
            self.notes.append(f"{counted(len(self.failed), 'list page')} could not be "
                              "loaded, so "
                              f"their memories are missing — reload to try again. "
                              f"{next(iter(self.failed.values()))}")
        return {k: [x for p in sorted(v) for x in v[p]] for k, v in out.items()}

    def fetch_limit(self, pagination: dict[str, Any], items: list[Any]) -> int:
        """The page size the answer reports, else the one asked for."""
        limit = pagination.get("limit")
        if isinstance(limit, int | float) and not isinstance(limit, bool) and limit >= 1:
            return int(limit)
        return self.page_limit
