"""The view pipeline: a request in, what the explorer draws out.

:class:`Pipeline` resolves the steps of :mod:`memscope.pipeline.steps` against a
:class:`~memscope.pipeline.request.ViewRequest` — each memoised by exactly the parts of
the request it depends on — and :meth:`Pipeline.view` is the one place they are
composed. One object per process (the UI wraps it in one cache boundary).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from memscope.graph.analysis import Analysis
from memscope.lenses.asof import Comparison
from memscope.lenses.filters import Match
from memscope.meaning.findings import SemanticFinding
from memscope.pipeline import steps
from memscope.pipeline.keeping import Keeper
from memscope.pipeline.loads import Entry, LoadRef, Loads
from memscope.pipeline.memo import Memo
from memscope.pipeline.request import ViewRequest
from memscope.sources import Source
from memscope.view.budget import BudgetInfo, with_extra, with_kept
from memscope.view.build import ColorBy, Legend, Painter, ViewData
from memscope.view.edges import Pair, count_contradictions, pairs_within, with_contradictions
from memscope.view.paint import highlight, mark_changes
from memscope.view.timeline import PlaybackBasis

log = logging.getLogger("memscope")


@dataclass(frozen=True)
class View:
    """What the explorer draws for one request."""

    #: the drawable graph (overview or full view, plus the selection, marks, changes)
    drawn: ViewData
    info: BudgetInfo
    #: the full view's legend (the drawn one counts collapsed clusters)
    legend: Legend
    matches: list[Match]
    #: the highlighted ids among the shown ones (search hits, marks)
    marked: frozenset[str]
    #: the ids shown (the filters' plus a hidden selection)
    shown: frozenset[str]
    total_nodes: int
    total_edges: int
    #: the selected node's cluster name, if it has one
    cluster_name: str | None
    #: the analysis the view shows (as of, masked)
    scoped: Analysis
    comparison: Comparison | None
    #: each node the filters let through → the drawn node that stands for it (itself, or
    #: its cluster's hexagon in the overview)
    rep: Mapping[str, str] = field(default_factory=dict)

    @property
    def filtered(self) -> bool:
        """True when the filters hide something."""
        return len(self.shown) < self.total_nodes

    def focus(self, selected: str | None) -> str | None:
        """The node the graph centres on: the selection when it is shown."""
        return selected if selected in self.shown else None

    def fit(self, drawn: ViewData) -> tuple[set[str], str]:
        """What "fit" frames in ``drawn`` (this view, perhaps narrowed) and its label."""
        if self.marked:
            return set(self.marked), "Fit matches"
        return ({n["id"] for n in drawn["nodes"]} if self.filtered else set(),
                "Fit filtered")

    def caption(self, budget: int) -> str:
        """How much is shown, in one or two sentences."""
        return (f"Showing {len(self.shown)} of {self.total_nodes} nodes and "
                f"{self.total_edges} edges. {self.info.sentence(budget)}")


def _keep(analysis: Analysis, selected: str | None, marked: Collection[str],
          pairs: Collection[Pair] = ()) -> set[str]:
    """Nodes always drawn as themselves: the selection, its neighbours (a suspected
    contradiction's other memory too), the highlights."""
    keep = set(marked)
    g = analysis.graph.graph
    if selected and selected in g:
        keep.add(selected)
        keep.update(g.predecessors(selected))
        keep.update(g.successors(selected))
        keep.update(b if a == selected else a for a, b, _ in pairs if selected in (a, b)
                    and (b if a == selected else a) in g)
    return keep


def contradiction_pairs(findings: list[SemanticFinding] | None,
                        dismissed: Collection[str] = ()) -> list[Pair]:
    """The suspected contradictions of ``findings`` as drawable pairs, less those
    reviewed as not a conflict (their keys in ``dismissed``)."""
    keyed, _pairs = steps.contradictions(findings or [])
    return _undismissed(keyed, dismissed)


def _undismissed(keyed: list[steps.Keyed], dismissed: Collection[str]) -> list[Pair]:
    return [(a, b, score) for a, b, score, key in keyed if key not in dismissed]


class Pipeline:
    """The steps, memoised, over the shared ``loads``; derived data kept by ``keeper``.
    ``clock`` is read once per request (:meth:`request`, :meth:`first`)."""

    def __init__(self, loads: Loads | None = None, keeper: Keeper | None = None, *,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.keeper = keeper or Keeper()
        self.loads = loads or Loads(read=self.keeper.read_load, keep=self.keeper.keep_load)
        self.clock = clock
        self.memo = Memo()
        self.loads.on_change.append(self._changed)

    def _changed(self, key: tuple) -> None:
        entry = self.loads.entry(key)
        self.memo.evict(key, keep_revision=entry.revision if entry is not None else None)

    # -- resolving steps -------------------------------------------------------------------

    def _entry(self, req: ViewRequest, given: Entry | None = None) -> Entry:
        return self.loads.get(req.load) if given is None else given

    def _input(self, name: str, req: ViewRequest, given: Entry | None = None) -> Any:
        if name == "entry":
            return self._entry(req, given)
        if name == "preview":
            return self._entry(req, given).drawn
        if name == "keeper":
            return self.keeper
        return getattr(req, name)

    def _contribution(self, name: str, req: ViewRequest) -> Hashable:
        if name in steps.STEPS:
            up = steps.STEPS[name]
            return self.get(name, req) if up.token == "value" else self.key(name, req)
        if name == "entry":
            return req.load
        if name == "preview":  # one fetch's drawing: the clock reading of that load
            entry = self._entry(req)
            return None if entry.drawn is None else ("preview", entry.at)
        return getattr(req, name)

    def _pick(self, name: str, req: ViewRequest) -> str:
        s = steps.STEPS[name]
        return s.fn(**{p: getattr(req, p) for p in s.params})

    def key(self, name: str, req: ViewRequest) -> Hashable:
        """The memo key of step ``name`` for ``req``."""
        s = steps.STEPS[name]
        if s.options:
            return self.key(self._pick(name, req), req)
        return (name, *(self._contribution(p, req) for p in s.keyed))

    def get(self, name: str, req: ViewRequest, entry: Entry | None = None) -> Any:
        """Step ``name``'s result for ``req`` (memoised unless the step is cheap);
        ``entry``: the load ``req.load`` names, when it is held already (a revision that
        may have been replaced since)."""
        s = steps.STEPS[name]
        if s.options:
            return self.get(self._pick(name, req), req, entry)

        def compute() -> Any:
            args = {p: (self._thunk(p, req, entry) if p in s.lazy
                        else self._arg(p, req, entry)) for p in s.params}
            return s.fn(**args)

        if s.keep == 0:
            return compute()
        return self.memo.get(name, self.key(name, req), s.keep, compute)

    def _arg(self, name: str, req: ViewRequest, entry: Entry | None) -> Any:
        if name in steps.STEPS:
            return self.get(name, req, entry)
        return self._input(name, req, entry)

    def _thunk(self, name: str, req: ViewRequest, entry: Entry | None
               ) -> Callable[[], Any]:
        return lambda: self.get(name, req, entry)

    def cached(self, name: str, req: ViewRequest) -> bool:
        """True when step ``name`` needs no computing for ``req`` (a spinner otherwise)."""
        s = steps.STEPS[name]
        if s.options:
            return self.cached(self._pick(name, req), req)
        return s.keep == 0 or self.memo.has(name, self.key(name, req))

    # -- requests --------------------------------------------------------------------------

    def epoch(self, ref: LoadRef, now: datetime) -> int:
        """The state epoch of ``ref``'s data at ``now``."""
        return self.get("base", _probe(ref, now)).epoch(now)

    def first(self, ref: LoadRef, identity: str, now: datetime | None = None
              ) -> ViewRequest:
        """The request of a first visit (:meth:`ViewRequest.first`), from one clock
        reading."""
        when = self.clock() if now is None else now
        return ViewRequest.first(ref, identity, when, self.epoch(ref, when))

    def today(self, req: ViewRequest) -> Analysis:
        """The data as it is now, unmasked (what actions act on)."""
        return self.get("today", req)

    def scoped(self, req: ViewRequest) -> Analysis:
        """What the pages show: as of the day, masked in presenter mode."""
        return self.get("scoped", req)

    def comparison(self, req: ViewRequest) -> Comparison | None:
        """What changed since ``req.since`` (``None`` without one)."""
        return self.get("comparison", req) if req.since is not None else None

    def playback(self, req: ViewRequest) -> PlaybackBasis | None:
        """What a playback of ``req``'s view reads besides the drawn view, on ``req.clock``
        (memoised per scope, shown set and clock)."""
        return self.get("playback", req)

    def semantic(self, req: ViewRequest, *, wait: bool = True
                 ) -> list[SemanticFinding] | None:
        """The semantic audit of ``req``'s load (the ``semantic`` step: once per load
        revision, never on a click). ``wait=False`` (what a view draws): the audit if it
        is done, else ``None`` (the warm-up and the Audit page compute it; a view never
        waits for it)."""
        if not wait and not self.cached("semantic", req):
            return None
        return self.get("semantic", req)

    def texts(self, entry: Entry) -> tuple[str, ...]:
        """Every text of the load presenter mode hides (of ``entry`` itself, even when
        a newer revision replaced it: a toast may quote the data before an action)."""
        return self.get("texts", _probe(entry.ref), entry)

    # -- the view --------------------------------------------------------------------------

    def view(self, req: ViewRequest) -> View:
        """Everything the explorer draws for ``req``: the one place steps are composed.

        Only the last part (the selection and its neighbours drawn as themselves, the
        highlights, the change marks) runs on every call; the rest is memoised. What a
        call computed is logged at INFO (``view computed …``; other sessions' work at the
        same moment may show in it too).
        """
        t0, before = time.perf_counter(), Counter(self.memo.calls)
        view = self._view(req)
        grown = sorted(k for k, v in self.memo.calls.items() if v > before[k])
        if grown:
            log.info("view computed %s in %.2f s", ", ".join(grown), time.perf_counter() - t0)
        return view

    def _view(self, req: ViewRequest) -> View:
        scoped = self.scoped(req)
        visible: frozenset[str] = self.get("visible", req)
        ov = self.get("overview", req)
        groups = self.get("groups", req)
        hidden: str | None = self.get("hidden", req)
        matches: list[Match] = self.get("matches", req) if req.query else []
        shown = visible | {hidden} if hidden else visible
        if hidden:  # drawn on top: the overview's keys stay those of the filters
            painter = Painter(scoped, _color(req.color_by), self.get("positions", req),
                              groups, self.get("dependents", req))
            ov = with_extra(ov, painter, hidden, visible=visible, edge_kinds=req.edge_kinds)
        marked = frozenset(({m.node_id for m in matches} | req.marked) & shown)
        pairs = self._contradictions(req)
        drawn, info = with_kept(ov, _keep(scoped, req.selected, marked, pairs))
        drawn = with_contradictions(drawn, pairs, req.edge_kinds)
        if marked:
            drawn = highlight(drawn, marked)
        comparison = self.comparison(req)
        if comparison is not None:
            drawn = mark_changes(drawn, comparison)
        clusters, labels, _order = groups
        group = clusters.get(req.selected) if req.selected else None
        legend = ov.legend or ov.view["legend"]
        if pairs:
            legend = count_contradictions(legend,
                                          len(pairs_within(pairs, shown, req.edge_kinds)))
        return View(drawn, info, legend, matches, marked, shown,
                    scoped.graph.graph.number_of_nodes(), ov.total_edges,
                    labels.get(group) if group else None, scoped, comparison, ov.rep)

    def _contradictions(self, req: ViewRequest) -> list[Pair]:
        """The audit's suspected contradictions to draw (none until the audit is done),
        less those ``req`` dismissed: their keys are the ``contradictions`` step's, once
        per audit; with nothing dismissed, the same list for every request (read, never
        changed, by its users)."""
        if not self.cached("semantic", req):
            return []
        keyed, pairs = self.get("contradictions", req)
        return _undismissed(keyed, req.dismissed) if req.dismissed else pairs

    def prewarm(self, source: Source, now: datetime | None = None, *,
                semantic: bool = True, summary: bool = True) -> ViewRequest:
        """What a first visit draws, ahead of it (the server's warm-up): the load, the
        semantic audit, the derived data, the first view and its summary sentences (and
        whether the data has a world clock, which the sidebar asks) — exactly what the
        page asks for; returns the first request (the caller then
        settles the heap, :func:`memscope.kept.settle_heap`). ``semantic=False``,
        ``summary=False`` (``memscope warm``, whose process ends and keeps only the
        derived data): no semantic audit, no summary."""
        req = self.first(self.loads.load(source), source.identity(), now)
        if semantic:
            try:  # before the view, so the first view draws its edges; never stops a warm-up
                self.semantic(req)
            except Exception as exc:  # the Audit page computes it again and says why
                log.warning("semantic audit not warmed (%s: %s)", type(exc).__name__, exc)
        self.view(req)
        if summary:  # and what the sidebar reads: whether the data has a world clock
            self.get("summary", req)
            self.get("clocks", req)
        return req


#: the ``now`` of a request that names only a load (never keyed, never read by its steps)
_NO_TIME = datetime(1970, 1, 1, tzinfo=UTC)


def _probe(ref: LoadRef, now: datetime = _NO_TIME) -> ViewRequest:
    """A request naming ``ref`` and nothing else: for the steps of the load alone."""
    return ViewRequest(load=ref, identity="", epoch=0, now=now)


def _color(color_by: str) -> ColorBy:
    return color_by  # type: ignore[return-value]  # the sidebar offers only COLOR_BY


__all__ = ["Pipeline", "View"]
