"""The one painter (memscope/view/paint.py) and the one home of each colour vocabulary
(memscope/view/colors.py): highlights, change marks, a comparison's differences and recall
counts drawn over a view, its input never changed, and no other module of the view or
the app writing a state's, a change's or a recall bucket's colour again."""

from __future__ import annotations

import copy
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.asof import Comparison
from memscope.records.dataset import from_feed_pages
from memscope.reports.recall import BUCKETS, bucket_of
from memscope.view.build import ViewData, build_view
from memscope.view.colors import (
    CHANGE_COLORS,
    DIFFERENCE_COLORS,
    FORGOTTEN_COLOR,
    HIGHLIGHT_BORDER,
    NEUTRAL,
    RECALL_COLORS,
    RESERVED,
    STATE_BORDERS,
    STATE_FILLS,
    UNCHANGED_FILL,
    darker,
)
from memscope.view.paint import (
    DIFFERENCE_LABELS,
    HIGHLIGHT_WIDTH,
    MARK_MIN_SIZE,
    NOT_COUNTED,
    UNCHANGED_OPACITY,
    highlight,
    mark_changes,
    mark_differences,
    paint_recall,
)

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


def _iso(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


@pytest.fixture(scope="module")
def analysis() -> Analysis:
    old = _iso(NOW - timedelta(days=30))
    return analyse(from_feed_pages([{"documents": [{"id": "d", "title": "Notes",
                                                    "memoryEntries": [
        {"id": "a", "memory": "Maya lives in Porto.", "createdAt": old, "isLatest": False},
        {"id": "b", "memory": "Maya lives in Lisbon.", "parentMemoryId": "a",
         "createdAt": old},
        {"id": "e", "memory": "Maya's passport expires.", "createdAt": old,
         "forgetAfter": _iso(NOW + timedelta(days=2))},
        {"id": "n", "memory": "Maya joined today.", "createdAt": _iso(NOW - timedelta(hours=2))},
    ]}]}]), NOW)


@pytest.fixture
def view(analysis: Analysis) -> ViewData:
    return build_view(analysis)


def _nodes(view: ViewData) -> dict[str, dict]:
    return {n["id"]: dict(n) for n in view["nodes"]}


def test_every_painter_leaves_its_input_as_it_was(view: ViewData) -> None:
    before = copy.deepcopy(view)
    highlight(view, ["a"])
    mark_changes(view, Comparison(NOW, NOW, added=["b"], updated=[], forgotten=[]))
    mark_differences(view, {"a": "removed", "b": "changed"})
    paint_recall(view, {"a": 0, "b": 3}, {k: label for k, _, label in BUCKETS}, bucket_of, 4)
    assert view == before


def test_a_highlight_is_a_heavy_black_border_on_the_same_fill(view: ViewData) -> None:
    drawn = _nodes(highlight(view, ["b", "no-such-node"]))
    plain = _nodes(view)
    assert drawn["b"]["borderWidth"] == HIGHLIGHT_WIDTH and drawn["b"]["highlighted"]
    assert drawn["b"]["color"] == {"background": plain["b"]["color"]["background"],
                                   "border": HIGHLIGHT_BORDER}
    assert drawn["a"]["faded"] and drawn["a"]["opacity"] <= 0.25 * plain["a"].get("opacity", 1)
    assert {k: v for k, v in drawn["a"].items() if k not in ("faded", "opacity")} == {
        k: v for k, v in plain["a"].items() if k != "opacity"}


def test_changes_since_colour_the_changed_and_fade_the_rest(view: ViewData) -> None:
    change = Comparison(NOW, NOW, added=["n"], updated=["b"], forgotten=["a"])
    drawn = _nodes(mark_changes(view, change))
    for node_id, kind in (("n", "added"), ("b", "updated"), ("a", "forgotten")):
        assert drawn[node_id]["change"] == kind and drawn[node_id]["opacity"] == 1.0
        assert drawn[node_id]["color"] == {"background": CHANGE_COLORS[kind],
                                           "border": CHANGE_COLORS[kind]}
    assert drawn["d"]["opacity"] == drawn["e"]["opacity"] == UNCHANGED_OPACITY
    assert "change" not in drawn["d"]


def test_differences_use_the_change_colours_of_the_same_meaning(view: ViewData) -> None:
    same = {"added": "added", "changed": "updated", "removed": "forgotten"}
    assert {k: CHANGE_COLORS[v] for k, v in same.items()} == DIFFERENCE_COLORS
    painted = mark_differences(view, {"b": "changed", "d": "added"})
    drawn = _nodes(painted)
    assert drawn["b"]["color"]["background"] == DIFFERENCE_COLORS["changed"]
    assert drawn["b"]["color_group"] == "difference:changed"
    assert drawn["b"]["size"] >= MARK_MIN_SIZE > _nodes(view)["b"]["size"]  # a dot grows
    assert drawn["d"]["size"] == _nodes(view)["d"]["size"]  # a card does not
    assert drawn["a"]["color"] == {"background": UNCHANGED_FILL, "border": UNCHANGED_FILL}
    assert drawn["a"]["color_group"] == "" and drawn["a"]["opacity"] == UNCHANGED_OPACITY
    legend = painted["legend"]
    assert legend["color_by"] == "difference" and legend["other"] is None
    assert [(c["key"], c["label"], c["count"]) for c in legend["colors"]] == [
        ("difference:added", DIFFERENCE_LABELS["added"], 1),
        ("difference:changed", DIFFERENCE_LABELS["changed"], 1),
        ("", "The same on both sides", 3)]


def test_recall_counts_fill_by_bucket_and_keep_the_states_borders(view: ViewData) -> None:
    labels = {key: label for key, _, label in BUCKETS}
    painted = paint_recall(view, {"a": 0, "b": 1, "e": 2, "n": 7}, labels, bucket_of, 9)
    drawn = _nodes(painted)
    plain = _nodes(view)
    for node_id, key in (("a", "0"), ("b", "1"), ("e", "2-3"), ("n", "4+")):
        assert drawn[node_id]["color"]["background"] == RECALL_COLORS[key]
        assert drawn[node_id]["color_group"] == key
    assert drawn["b"]["title"].endswith("\nRecalled by 1 of 9 questions")
    # an expiring memory keeps its amber ring, a "recent" one its blue; the rest darken
    assert drawn["e"]["color"]["border"] == STATE_BORDERS["expiring"]
    assert drawn["n"]["color"]["border"] == STATE_BORDERS["recent"]
    assert drawn["a"]["color"]["border"] == darker(RECALL_COLORS["0"])
    assert drawn["d"]["color"] == {"background": NEUTRAL, "border": darker(NEUTRAL)}
    assert drawn["d"]["color_group"] == NOT_COUNTED and drawn["d"]["title"] == plain["d"]["title"]
    legend = painted["legend"]
    assert legend["color_by"] == "times recalled"
    assert [(c["key"], c["count"]) for c in legend["colors"]] == [
        ("0", 1), ("1", 1), ("2-3", 1), ("4+", 1), (NOT_COUNTED, 1)]


def test_a_collapsed_cluster_is_never_counted(view: ViewData) -> None:
    hexagon = view["nodes"][0].copy()
    hexagon["id"], hexagon["kind"] = "cluster:c1", "cluster"
    with_hexagon: ViewData = {"nodes": [hexagon], "edges": [], "legend": view["legend"]}
    drawn = paint_recall(with_hexagon, {"cluster:c1": 5}, {"0": "never"}, bucket_of, 5)
    assert drawn["nodes"][0]["color_group"] == NOT_COUNTED


def test_the_recall_colours_name_exactly_the_reports_buckets() -> None:
    assert list(RECALL_COLORS) == [key for key, _, _ in BUCKETS]


#: the colours of the three vocabularies (states, changes, recall buckets)
VOCABULARY = {c.upper() for c in (*STATE_BORDERS.values(), *STATE_FILLS.values(),
                                  FORGOTTEN_COLOR["background"], FORGOTTEN_COLOR["border"],
                                  *CHANGE_COLORS.values(), *RECALL_COLORS.values(),
                                  *RESERVED)}


def test_each_colour_vocabulary_is_written_once() -> None:
    """No module of the view or of the app writes one of these colours again (the
    colour groups' palette keeps away from them; memscope/reports/insights.py, which may
    not import the view, has chart colours of its own)."""
    hexes = re.compile(r"#[0-9A-Fa-f]{6}\b")
    found = {}
    for path in [*(ROOT / "memscope" / "view").glob("*.py"),
                 *(ROOT / "components").rglob("*.py")]:
        if path.name == "colors.py":
            continue
        written = {h.upper() for h in hexes.findall(path.read_text(encoding="utf-8"))}
        if written & VOCABULARY:
            found[str(path.relative_to(ROOT))] = sorted(written & VOCABULARY)
    assert found == {}
