"""The view pipeline recomputes exactly what a change touches (counted, not timed), and
its keying bugs of old stay fixed. No Streamlit: a file source, an in-memory layout
store, a fixed clock, a low budget (so the overview path runs)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import date, timedelta

import pytest
from conftest import NOW, SM

from memscope.lenses.filters import Filters
from memscope.pipeline import steps
from memscope.pipeline.core import Pipeline
from memscope.pipeline.keeping import Keeper
from memscope.pipeline.loads import Loads
from memscope.pipeline.request import ViewRequest
from memscope.sources.files import FileSource
from memscope.view.budget import DEFAULT_BUDGET, is_cluster
from memscope.view.build import cluster_groups

BUDGET = 5  # the fixtures' 31 nodes are past it: hexagons


class MemoryLayouts:
    """The shared layout store, in memory."""

    def __init__(self) -> None:
        self.kept: dict[str, dict] = {}

    def get_layout(self, key: str):
        return self.kept.get(key)

    def put_layout(self, key: str, positions) -> None:
        self.kept[key] = dict(positions)


@pytest.fixture
def source() -> FileSource:
    return FileSource([SM / f"documents_page{i}.json" for i in (1, 2, 3)])


@pytest.fixture
def pipe(tmp_path) -> Pipeline:
    return Pipeline(Loads(keep=None, settle=None, read=lambda _s: None),
                    Keeper(tmp_path, MemoryLayouts()), clock=lambda: NOW)


def _mid(p: Pipeline, req: ViewRequest):
    """Two instants on either side of one state transition of the data."""
    t = p.get("base", req).transitions[5]
    return t - timedelta(seconds=1), t + timedelta(seconds=1)


@pytest.fixture
def req(pipe: Pipeline, source: FileSource) -> ViewRequest:
    ref = pipe.loads.load(source)
    first = pipe.first(ref, source.identity())
    before, _after = _mid(pipe, first)
    return replace(pipe.first(ref, source.identity(), before), budget=BUDGET,
                   query="lisbon", since=None)


def _refuse(*_a, **_k):
    raise AssertionError("computed again")


def _grown(p: Pipeline, req: ViewRequest) -> set[str]:
    before = Counter(p.memo.calls)
    p.view(req)
    return {k for k, v in p.memo.calls.items() if v > before[k]}


#: change → the memoised steps that recompute (nothing else does)
TABLE: dict[str, tuple[dict, set[str]]] = {
    "color_by": ({"color_by": "space"}, {"base_view", "overview"}),
    "edge_kinds": ({"edge_kinds": frozenset({"updates"})}, {"base_view", "overview"}),
    "budget": ({"budget": BUDGET + 1}, {"overview"}),
    "expanded": ({"expanded": frozenset({"c1"})}, {"overview"}),
    "query": ({"query": "tea"}, {"matches"}),
    "selected": ({"selected": "mem_trip"}, set()),
    "marked": ({"marked": frozenset({"mem_trip"})}, set()),
    "node_filters": ({"node_filters": Filters(show_forgotten=False)},
                     {"visible", "base_view", "overview", "matches"}),
    "as_of": ({"as_of": date(2026, 11, 15)},
              {"past", "past_dependents", "visible", "base_view", "overview", "matches"}),
    "presenter": ({"presenter": True}, {"masked", "masked_today", "masked_labels",
                                        "masked_today_dependents", "visible", "base_view",
                                        "overview", "matches"}),
    "since": ({"since": date(2026, 11, 10)}, {"comparison"}),
}


@pytest.mark.parametrize("change", sorted(TABLE))
def test_one_field_recomputes_exactly_its_steps(pipe, req, change):
    fields, expected = TABLE[change]
    pipe.view(req)
    assert _grown(pipe, replace(req, **fields)) == expected


def test_the_same_request_recomputes_nothing(pipe, req):
    pipe.view(req)
    assert _grown(pipe, replace(req, now=req.now + timedelta(microseconds=1))) == set()


def test_a_state_transition_recomputes_todays_view_only(pipe, req):
    pipe.view(req)
    _before, after = _mid(pipe, req)
    later = replace(req, now=after, epoch=pipe.epoch(req.load, after))
    assert later.epoch == req.epoch + 1
    assert _grown(pipe, later) == {"today", "visible", "base_view", "overview", "matches"}


def test_an_as_of_view_is_not_keyed_by_todays_epoch(pipe, req):
    past = replace(req, as_of=date(2026, 11, 15))
    pipe.view(past)
    _before, after = _mid(pipe, req)
    assert _grown(pipe, replace(past, now=after, epoch=pipe.epoch(req.load, after))) == set()


def test_presenter_mode_masks_once_per_load_not_per_epoch(pipe, req):
    masked = replace(req, presenter=True)
    pipe.view(masked)
    _before, after = _mid(pipe, req)
    grown = _grown(pipe, replace(masked, now=after, epoch=pipe.epoch(req.load, after)))
    assert grown == {"masked_today", "visible", "base_view", "overview", "matches"}


def test_presenter_mode_keeps_todays_clusters(pipe, req):
    plain = pipe.view(replace(req, budget=DEFAULT_BUDGET))
    masked = pipe.view(replace(req, budget=DEFAULT_BUDGET, presenter=True))
    groups = {n["id"]: n["color_group"] for n in plain.drawn["nodes"]}
    assert {n["id"]: n["color_group"] for n in masked.drawn["nodes"]} == groups
    today_keys, _ = cluster_groups(pipe.get("base", req))
    assert {k for k in groups.values() if k} <= set(today_keys.values())


def test_touching_unchanged_content_keeps_the_layout(pipe, req):
    pipe.view(req)
    touched = pipe.loads.touch(req.load.key)
    assert touched is not None
    grown = _grown(pipe, replace(req, load=touched))
    assert grown == {"base", "digest", "today", "today_dependents", "visible", "base_view",
                     "overview", "matches"}


def test_an_as_of_view_is_coloured_and_named_by_todays_clusters(pipe, req):
    """Colours, hexagons, legend and names come from ONE clustering: today's. (The
    as-of graph clustered on its own gives other keys on this day: the old Painter's.)"""
    past = replace(req, as_of=date(2026, 11, 15), budget=DEFAULT_BUDGET)
    view = pipe.view(past)
    today_keys, today_names = pipe.get("groups", past)[:2]
    drawn = {n["id"]: n["color_group"] for n in view.drawn["nodes"]}
    assert drawn == {n: today_keys.get(n, "") for n in drawn}
    own, _ = cluster_groups(view.scoped)
    assert any(own[n] != today_keys.get(n, "") for n in drawn)  # the test has teeth
    legend = {c["key"]: c["label"] for c in view.legend["colors"]}
    assert all(legend[k] == today_names[k] for k in legend if k in today_names)
    # past the budget, the hexagons are today's clusters too
    small = pipe.view(replace(past, budget=BUDGET))
    hexagons = {n["id"].split(":", 1)[1] for n in small.drawn["nodes"] if is_cluster(n["id"])}
    assert hexagons <= {*today_keys.values(), "unlinked"} | {
        h for h in hexagons if h.startswith("small-clusters")}


def test_the_search_sees_the_hidden_selection_whoever_searched_first(pipe, req):
    """A selected node the filters hide is searched too: the search is keyed with it."""
    hide = replace(req, node_filters=Filters(show_forgotten=False), query="allerg")
    assert "mem_allergy" not in pipe.get("visible", hide)
    alone = pipe.view(hide)
    assert "mem_allergy" not in {m.node_id for m in alone.matches}
    selected = pipe.view(replace(hide, selected="mem_allergy"))
    assert "mem_allergy" in {m.node_id for m in selected.matches}
    assert "mem_allergy" in {n["id"] for n in selected.drawn["nodes"]}  # drawn on top
    assert _grown(pipe, replace(hide, selected="mem_allergy", color_by="space")) == {
        "base_view", "overview"}  # the hidden selection is in no heavy key


def test_the_clock_is_read_once_per_request(source, tmp_path):
    """A clock that passes a transition between two readings: the request's epoch and
    the states drawn agree, because the clock is read once."""
    probe = Pipeline(Loads(keep=None, settle=None, read=lambda _s: None), Keeper(tmp_path))
    ref = probe.loads.load(source)
    before, after = _mid(probe, probe.first(ref, source.identity(), NOW))
    readings = iter([before, after, after])
    reads: list = []

    def clock():
        reads.append(1)
        return next(readings)

    p = Pipeline(Loads(keep=None, settle=None, read=lambda _s: None), Keeper(tmp_path),
                 clock=clock)
    req = p.first(p.loads.load(source), source.identity())
    view = p.view(req)
    base = p.get("base", req)
    assert len(reads) == 1 and req.epoch == base.epoch(req.now)
    truth = base.at(req.now)
    assert {m: view.scoped.state(m) for m in base.dataset.memories} == {
        m: truth.state(m) for m in base.dataset.memories}


def test_the_warm_up_leaves_nothing_for_the_first_view(pipe, source):
    req = pipe.prewarm(source)
    before = Counter(pipe.memo.calls)
    page = req.with_settings(presenter=False, as_of=None, since=None, filters=Filters(),
                             color_by="cluster", budget=DEFAULT_BUDGET, query="")
    assert page == req  # what a first visit's sidebar asks for is the first request
    pipe.view(pipe.first(req.load, source.identity()))
    assert pipe.memo.calls == before


def test_the_layout_is_shared_once_and_read_back_by_another_replica(pipe, req, tmp_path,
                                                                     monkeypatch):
    pipe.view(req)
    monkeypatch.setattr("memscope.view.derived.layout_positions", _refuse)  # no new layout
    layouts = pipe.keeper.layouts
    assert isinstance(layouts, MemoryLayouts) and len(layouts.kept) == 1
    other = Pipeline(Loads(keep=None, settle=None, read=lambda _s: None),
                     Keeper(tmp_path / "other", layouts), clock=lambda: NOW)
    source = FileSource([SM / f"documents_page{i}.json" for i in (1, 2, 3)])
    view = other.view(replace(req, load=other.loads.load(source)))
    def places(drawn) -> dict:
        return {n["id"]: (n.get("x"), n.get("y")) for n in drawn["nodes"]}

    assert places(view.drawn) == places(pipe.view(req).drawn)


#: each step's keyed dependencies (a choice: its fields | its options) — a new parameter
#: shows up here in review
GOLDEN = {
    "base": ("entry",),
    "digest": ("entry", "base"),
    "texts": ("entry",),
    "semantic": ("base",),
    "contradictions": ("semantic",),
    "derived": ("digest", "identity"),
    "positions": ("derived", "preview"),
    "today_labels": ("derived",),
    "masked": ("entry",),
    "masked_labels": ("derived",),
    "labels": ("presenter", "|", "today_labels", "masked_labels"),
    "groups": ("derived", "labels"),
    "today": ("base", "epoch"),
    "masked_today": ("masked", "epoch"),
    "clocks": ("entry",),
    "past": ("entry", "as_of", "presenter", "clock"),
    "scoped": ("as_of", "presenter", "|", "today", "masked_today", "past"),
    "today_dependents": ("base",),
    "masked_today_dependents": ("masked",),
    "past_dependents": ("past",),
    "dependents": ("as_of", "presenter", "|", "today_dependents", "masked_today_dependents",
                   "past_dependents"),
    "summary": ("scoped",),
    "memory_table": ("scoped",),
    "visible": ("scoped", "node_filters"),
    "hidden": ("scoped", "visible", "selected"),
    "base_view": ("scoped", "positions", "groups", "visible", "color_by", "edge_kinds",
                  "dependents"),
    "overview": ("scoped", "positions", "groups", "visible", "color_by", "edge_kinds",
                 "budget", "expanded", "dependents", "base_view"),
    "memory_states": ("scoped", "clock"),
    "playback": ("scoped", "memory_states", "visible", "hidden", "overview", "clock"),
    "matches": ("scoped", "visible", "query", "hidden"),
    "comparison": ("entry", "since", "as_of", "clock"),
}


def test_the_dependency_table_is_the_written_one():
    assert steps.dependencies() == GOLDEN
    assert steps.closure("derived") == {"content", "identity"}
    assert "selected" not in steps.closure("overview")  # a click never misses it
    assert "marked" not in {p for s in steps.STEPS.values() for p in s.keyed}
    # what a page shows beside the view is per scope; a memory's size never per epoch
    assert steps.closure("summary") == {"load", "epoch", "as_of", "presenter", "clock"}
    assert steps.closure("dependents") == {"load", "as_of", "presenter", "clock"}
    assert steps.closure("contradictions") == {"load"}


def _computed(p: Pipeline, req: ViewRequest, names: tuple[str, ...]) -> set[str]:
    before = Counter(p.memo.calls)
    for name in names:
        p.get(name, req)
    return {k for k, v in p.memo.calls.items() if v > before[k]}


PAGE_STEPS = ("summary", "memory_table")


def test_the_page_steps_are_computed_once_per_scope(pipe, req):
    """The summary sentences and the memory table: a click, a search, a colouring or a
    budget computes neither again; another day, presenter mode or a state transition
    does (with what it scopes)."""
    assert _computed(pipe, req, PAGE_STEPS) == {"today", *PAGE_STEPS}  # base: the request's
    for change in ({"selected": "mem_trip"}, {"query": "tea"}, {"color_by": "space"},
                   {"budget": BUDGET + 1}, {"node_filters": Filters(show_forgotten=False)}):
        assert _computed(pipe, replace(req, **change), PAGE_STEPS) == set()
    assert _computed(pipe, replace(req, as_of=date(2026, 11, 15)), PAGE_STEPS) == {
        "past", *PAGE_STEPS}
    assert _computed(pipe, replace(req, presenter=True), PAGE_STEPS) == {
        "masked", "masked_today", *PAGE_STEPS}
    _before, after = _mid(pipe, req)
    later = replace(req, now=after, epoch=pipe.epoch(req.load, after))
    assert _computed(pipe, later, PAGE_STEPS) == {"today", *PAGE_STEPS}
    assert pipe.get("summary", later) != [] and len(pipe.get("memory_table", later)) == len(
        pipe.get("base", req).dataset.memories)


def test_the_semantic_audit_is_one_step_per_load_revision(pipe, req, monkeypatch):
    calls: list[int] = []
    monkeypatch.setattr(steps, "semantic_findings", lambda base: calls.append(1) or [])
    assert pipe.semantic(req, wait=False) is None  # a view never starts it
    assert pipe.semantic(req) == [] and pipe.semantic(replace(req, as_of=date(2026, 11, 15),
                                                              presenter=True)) == []
    assert len(calls) == 1 and pipe.semantic(req, wait=False) == []
    touched = replace(req, load=pipe.loads.touch(req.load.key))
    assert pipe.semantic(touched, wait=False) is None
    pipe.semantic(touched)
    assert len(calls) == 2


def test_memo_computes_once_for_threads_arriving_together():
    import threading
    import time

    from memscope.pipeline.memo import Memo

    memo, out = Memo(), []

    def slow() -> int:
        time.sleep(0.05)
        return 7

    threads = [threading.Thread(target=lambda: out.append(memo.get("s", 1, 2, slow)))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [7] * 4 and memo.calls["s"] == 1


def _result(name: str, value):
    """A step's result in a comparable form."""
    if name in ("overview",):
        return value.view, value.info, value.rep
    if name == "base_view":
        return value.items, value.legend, [p[:3] for p in value.passed]
    return value


def test_no_step_reads_an_input_its_key_leaves_out(pipe, req):
    """Computed from scratch, two requests with one key give one result: no step reads
    a request field it does not declare (the old search read the hidden selection
    without keying it)."""
    import random

    rng = random.Random(7)
    choices = {
        "as_of": [None, date(2026, 11, 15), date(2026, 11, 20)],
        "presenter": [False, True],
        "node_filters": [Filters(), Filters(show_forgotten=False)],
        "edge_kinds": [req.edge_kinds, frozenset({"updates"})],
        "color_by": ["cluster", "space"],
        "budget": [BUDGET, DEFAULT_BUDGET],
        "expanded": [frozenset(), frozenset({"c1"})],
        "query": ["lisbon", "allerg"],
        "selected": [None, "mem_trip", "mem_allergy"],
        "marked": [frozenset(), frozenset({"mem_trip"})],
    }
    bases = [replace(req, **{f: rng.choice(v) for f, v in choices.items()})
             for _ in range(6)]
    # each random request beside every one-field variant of it
    requests = [*bases, *(replace(b, **{f: v}) for b in bases
                          for f, values in choices.items() for v in values)]
    shared = 0
    for name in ("visible", "hidden", "base_view", "overview", "matches"):
        seen: dict = {}
        for r in requests:
            pipe.memo.clear()
            key = pipe.key(name, r)
            value = _result(name, pipe.get(name, r))
            if key in seen:
                assert seen[key] == value, (name, r)
                shared += 1
            seen[key] = value
    assert shared  # some requests did share a key


def test_the_texts_of_a_replaced_revision_are_its_own_and_kept_once(pipe, req):
    """Presenter mode redacts the texts of the load an action started from, even once a
    newer revision replaced it; the step's key is the one its table gives."""
    entry = pipe.loads.get(req.load)
    texts = pipe.texts(entry)
    assert "Lisbon" in " ".join(texts) and pipe.texts(entry) is texts
    assert pipe.memo.has("texts", pipe.key("texts", req)) and pipe.memo.calls["texts"] == 1
    touched = pipe.loads.touch(req.load.key)
    assert touched is not None and touched != req.load
    assert pipe.texts(entry) == texts  # the replaced revision's own texts, no LoadGone


def test_a_playback_is_computed_once_per_scope_and_shown_set(pipe, req):
    """The memory states once per scope, the counts and hexagons' days once per shown
    overview: a click or a search while playing computes neither again (the
    module-global caches the timeline kept are gone); another filter or colouring (a new
    overview) counts again, without judging the states again."""
    assert _computed(pipe, req, ("playback",)) >= {"memory_states", "playback"}
    shown = next(iter(pipe.get("visible", req)))
    for change in ({"selected": shown}, {"query": "tea"}):
        assert _computed(pipe, replace(req, **change), ("playback",)) == set()
    for change in ({"node_filters": Filters(show_forgotten=False)}, {"color_by": "space"}):
        again = _computed(pipe, replace(req, **change), ("playback",))
        assert "playback" in again and "memory_states" not in again
    basis = pipe.playback(req)
    assert basis is not None and basis.counts[-1][0] > 0
