"""The playback's timeline (memscope.view.timeline) against the as-of lens.

Every expected figure comes from the lens itself (``as_of`` + ``analyse`` at the end of the
day, ``compare`` for a step's changes) or from a dataset built by hand here; the timeline
is never compared with itself.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from conftest import SM, SP
from sandbox_fixture import running_sandbox, spomory, supermemory, supermemory_v5

from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.asof import as_of, compare
from memscope.records.dataset import Dataset, from_feed_pages
from memscope.records.time import day_end
from memscope.settings import STORE_FILE
from memscope.sources import FileSource
from memscope.sources.embedded import EmbeddedSource
from memscope.view.build import build_view, highlight
from memscope.view.timeline import (
    AS_DRAWN,
    LOOK_KEYS,
    Timeline,
    build_timeline,
    day_label,
    for_view,
    memory_states,
    state_on,
    status_line,
    steps,
)

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


@pytest.fixture(scope="module")
def demo(data_dir: Path) -> Analysis:
    return analyse(EmbeddedSource(data_dir / STORE_FILE).load().dataset)


def _day(tl: Timeline, d: int) -> date:
    return date.fromisoformat(tl["start"]) + timedelta(days=d)


def _lens(ds: Dataset, day: date) -> Analysis:
    when = day_end(day)
    return analyse(as_of(ds, when), now=when)


def _row_at(row: list[Any], d: int) -> tuple[bool, int | None]:
    """What playback.js reads off a node row on day ``d``: present, and its look."""
    present = row[1] <= d
    look = None
    for i in range(4, len(row), 2):
        if row[i] <= d:
            look = row[i + 1]
    return present, look


def _mark(row: list[Any], prev: int, d: int) -> str | None:
    """The change mark playback.js draws on a step from ``prev`` (exclusive) to ``d``."""
    _, appear, updated, gone = row[:4]
    if appear > d:
        return None
    if gone >= 0 and prev < gone <= d:
        return "forgotten"
    if appear >= 0 and prev < appear <= d:
        return "updated" if updated else "added"
    return None


def _check_days(an: Analysis, tl: Timeline, days: list[int]) -> None:
    """On each day: the nodes present, each memory's state and look, the counts, all as
    the as-of lens has them."""
    ds = an.dataset
    view = build_view(an)
    drawn = {n["id"]: n for n in view["nodes"]}
    rows = {r[0]: r for r in tl["nodes"]}
    pairs = memory_states(an)
    for d in days:
        past = _lens(ds, _day(tl, d))
        past_view = {n["id"]: n for n in build_view(past)["nodes"]}
        pds = past.dataset
        for node_id, node in drawn.items():
            row = rows.get(node_id)
            present, look = _row_at(row, d) if row else (True, AS_DRAWN)
            assert present == (node_id in pds.memories or node_id in pds.documents
                               or node_id in pds.entities), (node_id, d)
            if node_id not in ds.memories or not present:
                continue
            state = past.state(node_id)
            assert state_on(pairs[node_id], d) == state, (node_id, d)
            assert look is not None, (node_id, d)  # a present memory has a look
            shown = node if look == AS_DRAWN else tl["looks"][look]
            then = past_view[node_id]
            for key in LOOK_KEYS:  # the fill follows today's colour groups
                if key != "color" or state == "forgotten":
                    assert shown.get(key) == then.get(key), (node_id, d, key)
        counts = [len(pds.memories),
                  sum(past.state(m) == "superseded" for m in pds.memories),
                  sum(past.state(m) == "forgotten" for m in pds.memories)]
        assert tl["counts"][d] == counts, d


def test_the_demo_store_played_back_is_the_as_of_lens_on_every_checked_day(demo) -> None:
    tl = build_timeline(demo, build_view(demo))
    assert tl is not None
    days = tl["days"]
    assert days > 30  # the demo spans months
    assert date.fromisoformat(tl["start"]) == demo.date_range[0]  # type: ignore[index]
    forgotten_days = sorted({r[3] for r in tl["nodes"] if r[3] >= 0})
    checked = sorted({0, days // 5, days // 2, 4 * days // 5, days, *forgotten_days[:2]})
    _check_days(demo, tl, checked)
    # the counts grow over the history and end where today's data is
    assert tl["counts"][0][0] < tl["counts"][days][0]
    ds = demo.dataset
    assert tl["today"]["counts"] == [
        len(ds.memories), sum(demo.state(m) == "superseded" for m in ds.memories),
        sum(demo.state(m) == "forgotten" for m in ds.memories)]


def test_each_week_step_marks_what_compare_says_changed_in_that_week(demo) -> None:
    tl = build_timeline(demo, build_view(demo))
    assert tl is not None
    week = steps(tl["days"], "week")
    assert week[0] == 0 and week[-1] == tl["days"]
    assert all(b - a == 7 for a, b in pairwise(week[:-1]))
    assert 0 < week[-1] - week[-2] <= 7
    rows = [r for r in tl["nodes"] if r[0] in demo.dataset.memories]
    seen = set()
    for prev, d in zip([-1, *week], week, strict=False):
        change = compare(demo.dataset, day_end(_day(tl, prev)), day_end(_day(tl, d)))
        for row in rows:
            mark = _mark(row, prev, d)
            assert mark == change.change_of(row[0]), (row[0], prev, d)
            seen.add(mark)
    assert {"added", "updated", "forgotten"} <= seen  # the demo has all three


def test_a_step_by_day_is_every_day_and_the_labels_read_as_dates() -> None:
    assert steps(3, "day") == [0, 1, 2, 3]
    assert steps(14, "week") == [0, 7, 14]
    assert steps(0, "day") == [0]
    with pytest.raises(ValueError, match="steps by day or week"):
        steps(3, "month")
    assert day_label(date(2026, 2, 27), 3) == "2 Mar 2026"
    assert status_line("2 Mar 2026", [1, 0, 2]) == ("2 Mar 2026 · 1 memory · 0 superseded · "
                                                    "2 forgotten")


def test_nothing_dated_gives_no_timeline() -> None:
    empty = analyse(Dataset(), now=NOW)
    assert build_timeline(empty, build_view(empty)) is None
    assert memory_states(empty) == {}
    undated = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "a", "memory": "no date"}]}]}]), now=NOW)
    assert build_timeline(undated, build_view(undated)) is None


def _feed(memories: list[dict[str, Any]]) -> Dataset:
    return from_feed_pages([{"documents": [{"id": "doc", "createdAt": "2026-03-01T08:00:00Z",
                                            "memoryEntries": memories}]}])


def test_a_version_cycle_is_played_without_looping_and_as_the_lens_has_it() -> None:
    ds = _feed([
        {"id": "a", "memory": "one", "parentMemoryId": "b", "isLatest": False,
         "createdAt": "2026-03-01T09:00:00Z"},
        {"id": "b", "memory": "two", "parentMemoryId": "a", "isLatest": False,
         "createdAt": "2026-03-04T09:00:00Z"},
        {"id": "c", "memory": "three", "isForgotten": True,
         "createdAt": "2026-03-02T09:00:00Z", "updatedAt": "2026-03-06T10:00:00Z"}])
    an = analyse(ds, now=NOW)
    tl = build_timeline(an, build_view(an))
    assert tl is not None
    assert tl["start"] == "2026-03-01" and tl["days"] == 5  # the forgetting is played
    _check_days(an, tl, list(range(tl["days"] + 1)))
    pairs = memory_states(an)
    # a is the newest version until b arrives; then each supersedes the other (b is
    # superseded from its first day: its child a is already there)
    assert state_on(pairs["a"], 2) == "latest" and state_on(pairs["a"], 3) == "superseded"
    assert state_on(pairs["b"], 2) is None and state_on(pairs["b"], 3) == "superseded"
    assert state_on(pairs["c"], 4) == "latest" and state_on(pairs["c"], 5) == "forgotten"


def test_the_last_played_day_is_never_after_now_and_the_payload_keeps_drawn_rows() -> None:
    ds = _feed([{"id": "a", "memory": "one", "createdAt": "2026-03-01T09:00:00Z"},
                {"id": "b", "memory": "two", "createdAt": "2026-03-20T09:00:00Z"}])
    an = analyse(ds, now=datetime(2026, 3, 10, tzinfo=UTC))
    tl = build_timeline(an, build_view(an))
    assert tl is not None and tl["days"] == 9
    kept = for_view(tl, {"a"})
    assert [r[0] for r in kept["nodes"]] == ["a"]
    with pytest.raises(TypeError, match="build_timeline"):
        for_view({"nodes": []}, {"a"})


def test_a_search_hit_keeps_its_border_on_every_day() -> None:
    ds = _feed([{"id": "a", "memory": "one", "isLatest": False,
                 "createdAt": "2026-03-01T09:00:00Z"},
                {"id": "b", "memory": "two", "parentMemoryId": "a",
                 "createdAt": "2026-03-03T09:00:00Z"}])
    an = analyse(ds, now=NOW)
    view = highlight(build_view(an), ["a"])
    tl = build_timeline(an, view)
    assert tl is not None
    row = next(r for r in tl["nodes"] if r[0] == "a")
    _, first_look = _row_at(row, 0)  # latest then, superseded (as drawn) today
    assert first_look is not None and first_look != AS_DRAWN
    look = tl["looks"][first_look]
    assert look["borderWidth"] == 5 and look["color"]["border"] == "#000000"


@pytest.mark.parametrize("client", ["legacy", "v5", "spomory", "snapshot"])
def test_sources_of_every_kind_are_played_as_the_lens_has_them(tmp_path, client) -> None:
    if client == "snapshot":
        ds = FileSource([SM / f"documents_page{i}.json" for i in (1, 2, 3)]
                        + [SP / "passport.json"]).load().dataset
    else:
        with running_sandbox(tmp_path / "sandbox") as sandbox:
            make = {"legacy": supermemory, "v5": supermemory_v5, "spomory": spomory}[client]
            ds = make(sandbox).load().dataset
    an = analyse(ds, now=NOW)
    assert an.dataset.memories or an.dataset.entities
    tl = build_timeline(an, build_view(an))
    assert tl is not None
    _check_days(an, tl, sorted({0, tl["days"] // 3, 2 * tl["days"] // 3, tl["days"]}))
    if ds.relations:  # a relation stated after its entities appears on its own day
        for edge_id, day in tl["edges"]:
            assert 0 <= day <= tl["days"] and edge_id.startswith("e")


def test_a_clusters_hexagon_appears_with_its_first_member(demo) -> None:
    """In the overview (past the drawing budget) each hexagon is present on a day exactly
    when the as-of lens has one of its members that day (its edges go with it in the
    browser, as every hidden node's do)."""
    from memscope.view.budget import MIN_BUDGET, is_cluster, overview

    ds = demo.dataset
    full = build_view(demo)
    spaces = {n["id"]: (ds.memories[n["id"]].container_tag or "") if n["id"] in ds.memories
              else "docs" for n in full["nodes"]}
    ov = overview(full, spaces, {}, budget=MIN_BUDGET)
    hexagons = [n["id"] for n in ov.view["nodes"] if is_cluster(n["id"])]
    assert hexagons, "the budget collapses the spaces into hexagons"
    tl = build_timeline(demo, ov.view, rep=ov.rep)
    assert tl is not None
    rows = {r[0]: r for r in tl["nodes"]}
    members = {h: [m for m, r in ov.rep.items() if r == h and m != h] for h in hexagons}
    late = [h for h in hexagons if h in rows and rows[h][1] > 0]
    assert late, "some hexagon's members all come after the first day"
    for d in sorted({0, *(rows[h][1] for h in late), tl["days"] // 2}):
        past = _lens(ds, _day(tl, d)).dataset
        there = set(past.memories) | set(past.documents)
        for h in hexagons:
            present, _ = _row_at(rows[h], d) if h in rows else (True, None)
            assert present == any(m in there for m in members[h]), (h, d)
    # a rerun over the same sets gives the same timeline
    assert build_timeline(demo, ov.view, rep=ov.rep) == tl
