"""The playback's timeline on both clocks (issue 34, item 4: "Playback likewise").

A Graphiti graph written into a real Kuzu file with graphiti-core's own classes
(``tests/graphiti_support.py``), read back by the Graphiti source, is played on what the
memory believed (transaction time) and on what was true (valid time). Every expected
figure comes from the as-of lens on the same clock (``as_of`` + ``analyse`` at the end of
the day, ``compare`` for a step's marks) or from the graph's own dates; the timeline is
never compared with itself. Data without a world clock plays the same on either.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from graphiti_support import write_graph
from test_pipeline_invalidation import MemoryLayouts

from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.asof import BELIEVED, CLOCKS, TRUE, Clock, as_of, compare
from memscope.pipeline.core import Pipeline
from memscope.pipeline.keeping import Keeper
from memscope.pipeline.loads import Loads
from memscope.records.dataset import Dataset, from_feed_pages
from memscope.records.time import day_end
from memscope.sources.graphiti import GraphitiConfig, GraphitiSource
from memscope.view.build import build_view
from memscope.view.timeline import (
    AS_DRAWN,
    DAYS_MAX,
    LOOK_KEYS,
    Timeline,
    build_timeline,
    day_label,
    memory_states,
    state_on,
    status_line,
    steps,
)

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
UNDATED = ("1 fact does not say when it became true; it appears on the day the memory "
           "learnt it.")


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_graph(tmp_path_factory.mktemp("graphiti") / "alice.kuzu")


@pytest.fixture(scope="module")
def alice(graph_file: Path) -> Iterator[Analysis]:
    source = GraphitiSource(GraphitiConfig("kuzu", str(graph_file)))
    try:
        yield analyse(source.load().dataset, now=NOW)
    finally:
        source.close()


def _timeline(an: Analysis, clock: Clock) -> Timeline:
    tl = build_timeline(an, build_view(an), clock=clock)
    assert tl is not None
    return tl


def _day(tl: Timeline, d: int) -> date:
    return date.fromisoformat(tl["start"]) + timedelta(days=d)


def _index(tl: Timeline, day: date) -> int:
    return (day - date.fromisoformat(tl["start"])).days


def _lens(ds: Dataset, day: date, clock: Clock) -> Analysis:
    when = day_end(day)
    return analyse(as_of(ds, when, clock), now=when)


def _row_at(row: list[Any], d: int) -> tuple[bool, int | None]:
    """What playback.js reads off a node row on day ``d``: present, and its look."""
    look = None
    for i in range(4, len(row), 2):
        if row[i] <= d:
            look = row[i + 1]
    return row[1] <= d, look


def _present(tl: Timeline, node_id: str, d: int) -> bool:
    row = next((r for r in tl["nodes"] if r[0] == node_id), None)
    return True if row is None else _row_at(row, d)[0]


def _check_days(an: Analysis, tl: Timeline, days: list[int], clock: Clock) -> None:
    """On each day: the nodes present, each memory's state and look, the counts, all as
    the as-of lens has them on ``clock``."""
    ds = an.dataset
    drawn = {n["id"]: n for n in build_view(an)["nodes"]}
    rows = {r[0]: r for r in tl["nodes"]}
    pairs = memory_states(an, clock)
    for d in days:
        past = _lens(ds, _day(tl, d), clock)
        past_view = {n["id"]: n for n in build_view(past)["nodes"]}
        pds = past.dataset
        for node_id, node in drawn.items():
            present, look = _row_at(rows[node_id], d) if node_id in rows else (True, AS_DRAWN)
            assert present == (node_id in pds.memories or node_id in pds.documents
                               or node_id in pds.entities), (clock, node_id, d)
            if node_id not in ds.memories or not present:
                continue
            state = past.state(node_id)
            assert state_on(pairs[node_id], d) == state, (clock, node_id, d)
            assert look is not None, (clock, node_id, d)
            shown = node if look == AS_DRAWN else tl["looks"][look]
            for key in LOOK_KEYS:  # the fill follows today's colour groups
                if key != "color" or state == "forgotten":
                    assert shown.get(key) == past_view[node_id].get(key), (clock, node_id, d)
        assert tl["counts"][d] == [
            len(pds.memories), sum(past.state(m) == "superseded" for m in pds.memories),
            sum(past.state(m) == "forgotten" for m in pds.memories)], (clock, d)


@pytest.mark.parametrize("clock", CLOCKS)
def test_every_day_played_is_what_as_of_shows_on_that_clock(alice: Analysis, clock: Clock
                                                             ) -> None:
    tl = _timeline(alice, clock)
    _check_days(alice, tl, list(range(tl["days"] + 1)), clock)


def test_on_what_was_true_a_fact_appears_when_it_became_true_not_when_it_was_learnt(
        alice: Analysis) -> None:
    believed, true = _timeline(alice, BELIEVED), _timeline(alice, TRUE)
    # the first fact became true on 1 January, before anything was learnt (1 March)
    assert true["start"] == "2026-01-01" and believed["start"] >= true["start"]
    assert _day(true, true["days"]) == _day(believed, believed["days"]) == date(2026, 7, 2)
    # the contradicted fact's chain: v1 true from 15 January (learnt 1 March), v2 from
    # 1 June (learnt that day); on 15 February what was true holds v1 alone, what was
    # believed neither
    feb15 = _index(true, date(2026, 2, 15))
    assert _present(true, "fact-engineer", feb15)
    assert not _present(true, "fact-engineer", _index(true, date(2026, 1, 14)))
    assert not _present(true, "fact-lead", feb15)
    first = {r[0]: r[1] for r in believed["nodes"]}
    assert _day(believed, first["fact-engineer"]) == date(2026, 3, 1)
    assert _day(believed, first["fact-lead"]) == date(2026, 6, 1)
    # the episode that told it (saved 1 March) is there as soon as one of its facts was
    first_true = {r[0]: r[1] for r in true["nodes"]}
    assert _day(believed, first["ep-intro"]) == date(2026, 3, 1)
    assert _day(true, first_true["ep-intro"]) == date(2026, 1, 1)  # Porto, true then


def test_a_fact_that_stopped_being_true_is_no_longer_true_only_on_that_clock(
        alice: Analysis) -> None:
    """Porto stopped being true on 1 February, but the memory never retired the fact:
    believed all along, no longer true from 1 February on the world clock."""
    believed, true = memory_states(alice, BELIEVED), memory_states(alice, TRUE)
    tl_true, tl_believed = _timeline(alice, TRUE), _timeline(alice, BELIEVED)
    feb1 = _index(tl_true, date(2026, 2, 1))
    assert state_on(true["fact-porto"], feb1 - 1) != "superseded"
    assert state_on(true["fact-porto"], feb1) == "superseded"
    assert all(state != "superseded" for _, state in believed["fact-porto"])
    # on 15 March: one more fact no longer true than superseded in the memory's belief
    mar15 = date(2026, 3, 15)
    on_true = tl_true["counts"][_index(tl_true, mar15)]
    on_believed = tl_believed["counts"][_index(tl_believed, mar15)]
    assert on_true[1] == on_believed[1] + 1
    label = day_label(date(2026, 1, 1), _index(tl_true, mar15))
    assert status_line(label, on_true, TRUE).startswith(
        "15 Mar 2026, what was true · ") and "no longer true" in status_line(
        label, on_true, TRUE)
    assert status_line(label, on_believed) == (
        f"15 Mar 2026 · {on_believed[0]} memories · {on_believed[1]} superseded · 0 forgotten")


def test_a_fact_retired_with_no_newer_one_is_superseded_from_its_retirement(
        alice: Analysis) -> None:
    """The bike fact was expired on 2 July with no newer fact: superseded from that day
    on both clocks (it carries no end of its own), latest before."""
    for clock in CLOCKS:
        tl = _timeline(alice, clock)
        pairs = memory_states(alice, clock)
        jul2 = _index(tl, date(2026, 7, 2))
        assert state_on(pairs["fact-bike"], jul2 - 1) == "latest", clock
        assert state_on(pairs["fact-bike"], jul2) == "superseded", clock


def test_a_fact_that_does_not_say_when_it_became_true_is_placed_and_explained(
        alice: Analysis) -> None:
    true, believed = _timeline(alice, TRUE), _timeline(alice, BELIEVED)
    appear = {r[0]: r[1] for r in true["nodes"]}
    assert appear["fact-sister"] == _index(true, date(2026, 3, 1))  # learnt that day
    said_true, said_believed = true.get("note", ""), believed.get("note", "")
    assert true.get("clock") == TRUE and UNDATED in said_true
    assert "what was true on each day" in said_true
    assert believed.get("clock") == BELIEVED and UNDATED not in said_believed
    assert "what the memory believed on each day" in said_believed


@pytest.mark.parametrize("clock", CLOCKS)
def test_each_week_step_marks_what_compare_says_on_that_clock(alice: Analysis, clock: Clock
                                                             ) -> None:
    tl = _timeline(alice, clock)
    week = steps(tl["days"], "week")
    seen: set[str | None] = set()
    for prev, d in zip([-1, *week], week, strict=False):
        change = compare(alice.dataset, day_end(_day(tl, prev)), day_end(_day(tl, d)), clock)
        for row in tl["nodes"]:
            if row[0] not in alice.dataset.memories or row[1] > d:
                continue
            _, appear, updated, gone = row[:4]
            mark = ("forgotten" if gone >= 0 and prev < gone <= d else
                    ("updated" if updated else "added") if appear >= 0 and prev < appear
                    else None)
            assert mark == change.change_of(row[0]), (clock, row[0], prev, d)
            seen.add(mark)
    assert {"added", "updated"} <= seen


def test_data_with_one_clock_plays_the_same_on_either_and_says_nothing_of_clocks() -> None:
    ds = from_feed_pages([{"documents": [{"id": "d", "createdAt": "2026-03-01T08:00:00Z",
                                          "memoryEntries": [
        {"id": "a", "memory": "one", "isLatest": False, "createdAt": "2026-03-01T09:00:00Z"},
        {"id": "b", "memory": "two", "parentMemoryId": "a",
         "createdAt": "2026-03-04T09:00:00Z"}]}]}])
    an = analyse(ds, now=NOW)
    believed, true = _timeline(an, BELIEVED), _timeline(an, TRUE)
    assert believed == true
    assert "clock" not in true and "note" not in true


def _facts(*memories: dict[str, Any]) -> Dataset:
    return from_feed_pages([{"documents": [{"id": "ep", "createdAt": "2026-06-01T09:00:00Z",
                                            "memoryEntries": list(memories)}]}])


def test_a_fact_true_since_long_ago_starts_the_days_no_earlier_than_the_span_allows() -> None:
    """A fact true since 1950 does not push the played days so far back that today falls
    off their end: they start at most :data:`DAYS_MAX` days before the last change, the
    old fact there from the first day; a fact that becomes true after now never shows."""
    an = analyse(_facts(
        {"id": "born", "memory": "Ana was born in Porto", "createdAt": "2026-06-01T09:00:00Z",
         "validAt": "1950-04-02T00:00:00Z"},
        {"id": "move", "memory": "Ana moves to Lyon", "createdAt": "2026-06-01T09:00:00Z",
         "validAt": "2027-01-01T00:00:00Z"},
        {"id": "job", "memory": "Ana works at Acme", "createdAt": "2026-06-02T09:00:00Z",
         "validAt": "2026-05-01T00:00:00Z", "invalidAt": "2026-07-01T00:00:00Z"}),
        now=NOW)
    tl = _timeline(an, TRUE)
    assert _day(tl, tl["days"]) == date(2026, 7, 1)  # the job's end, the last change
    assert tl["days"] <= DAYS_MAX
    assert _present(tl, "born", 0) and not _present(tl, "move", tl["days"])
    _check_days(an, tl, [0, _index(tl, date(2026, 5, 1)), tl["days"]], TRUE)


def _pipeline(tmp_path: Path) -> Pipeline:
    return Pipeline(Loads(keep=None, settle=None, read=lambda _s: None),
                    Keeper(tmp_path, MemoryLayouts()), clock=lambda: NOW)


def test_switching_the_clock_rebuilds_the_playback_and_switching_back_reuses_it(
        graph_file: Path, tmp_path: Path) -> None:
    pipe = _pipeline(tmp_path)
    source = GraphitiSource(GraphitiConfig("kuzu", str(graph_file)))
    try:
        req = pipe.first(pipe.loads.load(source), source.identity())
    finally:
        source.close()
    believed = pipe.playback(req)
    assert believed is not None and believed.clock == BELIEVED
    calls = dict(pipe.memo.calls)
    true = pipe.playback(replace(req, clock=TRUE))
    assert true is not None and true.clock == TRUE
    assert pipe.memo.calls["memory_states"] == calls["memory_states"] + 1
    assert pipe.memo.calls["playback"] == calls["playback"] + 1
    assert (true.start, true.days) != (believed.start, believed.days)
    assert true.note is not None and UNDATED in true.note
    again = dict(pipe.memo.calls)
    assert pipe.playback(req) is believed and pipe.playback(replace(req, clock=TRUE)) is true
    assert pipe.memo.calls == again  # both kept: switching back computes nothing
