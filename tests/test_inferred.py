"""Inferred memories (``isInference``) as a state of their own: the graph's mark, the
legend line and its count, the filter, the exports and the node panel's badge."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from apptest_support import graph_payload, run_page

from components.sections import legend as legend_section
from components.sections.panels import INFERRED_BADGE as PANEL_BADGE
from components.sections.sidebar import F_INFERRED
from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.filters import Filters, visible_nodes
from memscope.lenses.presenter import mask
from memscope.records.dataset import from_feed_pages
from memscope.settings import store_path
from memscope.sources.embedded import EmbeddedSource
from memscope.view.budget import overview_base
from memscope.view.build import build_view, cluster_groups
from memscope.view.style import INFERRED_BADGE, INFERRED_STYLE, STATIC_BADGE

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
OLD = (NOW - timedelta(days=30)).isoformat().replace("+00:00", "Z")
DOTS = INFERRED_STYLE["shapeProperties"]["borderDashes"]


def _mem(mem_id: str, **extra: object) -> dict:
    return {"id": mem_id, "memory": f"text of {mem_id}", "createdAt": OLD, **extra}


@pytest.fixture(scope="module")
def small() -> Analysis:
    """Stated and inferred memories in several states."""
    page = {"documents": [
        {"id": "d1", "title": "One", "memoryEntries": [
            _mem("said"),
            _mem("guess", isInference=True, memoryRelations={"said": "derives"}),
            _mem("guess_static", isInference=True, isStatic=True),
            _mem("guess_old", isInference=True, isLatest=False),
            _mem("guess_new", isInference=True, parentMemoryId="guess_old", version=2),
            _mem("guess_forgotten", isInference=True, isForgotten=True),
        ]},
        {"id": "d2", "title": "Two", "memoryEntries": [_mem("said_too")]},
    ]}
    return analyse(from_feed_pages([page]), NOW)


@pytest.fixture(scope="module")
def demo() -> Analysis:
    from memscope.demo.generator import generate

    data = generate(7, now=NOW)
    return analyse(from_feed_pages(data.to_feed_pages()), NOW)


def _inferred_ids(an: Analysis) -> set[str]:
    return {m.id for m in an.dataset.memories.values() if m.is_inference}


def test_inferred_nodes_carry_the_mark_and_stated_ones_do_not(small: Analysis) -> None:
    nodes: dict[str, Any] = {n["id"]: n for n in build_view(small)["nodes"]}
    for node_id in ("guess", "guess_static", "guess_old", "guess_new", "guess_forgotten"):
        node = nodes[node_id]
        assert node.get("inferred") is True, node_id
        assert node["label"].endswith(INFERRED_BADGE)
        assert "inferred, not stated by you" in node["title"]
    for node_id in ("said", "said_too", "d1"):
        assert "inferred" not in nodes[node_id]
        assert not nodes[node_id]["label"].endswith(INFERRED_BADGE)
        assert "inferred" not in nodes[node_id]["title"]
    # a state without its own dashes gets the dotted border …
    for node_id in ("guess", "guess_new", "guess_forgotten"):
        assert nodes[node_id]["shapeProperties"]["borderDashes"] == DOTS
        assert nodes[node_id]["borderWidth"] == INFERRED_STYLE["borderWidth"]
    # … a superseded version keeps its dashes (its state stays readable)
    assert nodes["guess_old"]["state"] == "superseded"
    assert nodes["guess_old"]["shapeProperties"]["borderDashes"] != DOTS
    # static and inferred together: both marks
    assert nodes["guess_static"]["label"].startswith(STATIC_BADGE)
    assert nodes["guess_static"]["label"].endswith(INFERRED_BADGE)
    # the mark does not come from the text: masked (presenter) data keeps it
    masked = {n["id"]: n for n in build_view(analyse(mask(small.dataset), NOW))["nodes"]}
    assert {i for i, n in masked.items() if n.get("inferred")} == _inferred_ids(small)
    assert all(masked[i]["label"].endswith(INFERRED_BADGE) for i in _inferred_ids(small))


def test_the_legend_counts_the_inferred_memories_drawn(demo: Analysis) -> None:
    inferred = _inferred_ids(demo)
    assert len(inferred) >= 3  # the demo data has some
    for visible in (None, visible_nodes(demo, Filters(show_superseded=False)),
                    visible_nodes(demo, Filters(spaces=frozenset({"acme_work"})))):
        view = build_view(demo, visible=visible)
        drawn = {n["id"] for n in view["nodes"] if n.get("inferred")}
        shown = inferred if visible is None else inferred & set(visible)
        assert drawn == shown
        legend = view["legend"]
        assert legend["inferred"] == len(drawn)
        line = next(e for e in legend["state_styles"] if e["key"] == "inferred")
        assert line["count"] == len(drawn)
        assert line["style"]["borderDashes"] == DOTS
        assert "inferred" in line["label"]
    # the legend section lists the line (with its count) and picking it shows only them
    view = build_view(demo)
    entries = legend_section.entries(view)
    picked = next(e for e in entries if e.key == "inferred")
    assert picked.count == len(inferred)
    only = legend_section.only(view, picked)
    assert {n["id"] for n in only["nodes"]} == inferred


def test_the_overview_past_the_budget_counts_them_too(demo: Analysis) -> None:
    clusters, _ = cluster_groups(demo)
    base = overview_base(demo, None, clusters)
    assert base.legend["inferred"] == build_view(demo)["legend"]["inferred"]
    assert base.legend["state_styles"] == build_view(demo)["legend"]["state_styles"]


def test_the_filter_shows_hides_or_shows_only_inferred(demo: Analysis) -> None:
    inferred = _inferred_ids(demo)
    memories = set(demo.dataset.memories)
    everything = visible_nodes(demo, Filters())
    hidden = visible_nodes(demo, Filters(inferred="hide"))
    only = visible_nodes(demo, Filters(inferred="only"))
    assert inferred <= everything
    assert everything - hidden == inferred
    assert only & memories == inferred
    # only their documents come along (each holds at least one inferred memory)
    for doc_id in only - memories:
        assert set(demo.dataset.documents[doc_id].memory_ids) & inferred
    assert Filters(inferred="hide").key() != Filters().key() != Filters(inferred="only").key()
    with pytest.raises(ValueError, match="inferred must be one of"):
        Filters(inferred="maybe")  # pyright: ignore[reportArgumentType]


def test_exports_say_which_memories_are_inferred(small: Analysis) -> None:
    from memscope.export.formats import evidence_json, flat_graph, memories_csv

    rows = list(csv.DictReader(io.StringIO(memories_csv(small).decode("utf-8"))))
    assert {r["id"] for r in rows if r["inferred"] == "True"} == _inferred_ids(small)
    assert {r["id"] for r in rows if r["inferred"] == "False"} == {"said", "said_too"}
    g = flat_graph(small)
    assert {n for n, d in g.nodes(data=True) if d.get("is_inference")} == _inferred_ids(small)
    pack = evidence_json(small, ["guess", "said"])
    flags = {m["id"]: m["isInference"] for m in pack["nodes"] if m["kind"] == "memory"}
    assert flags == {"guess": True, "said": False}


# -- the app -------------------------------------------------------------------------------


def test_the_panel_badge_and_the_sidebar_filter(fresh_data_dir) -> None:
    run_page()  # seeds the store
    an = analyse(EmbeddedSource(store_path()).load().dataset)
    inferred = _inferred_ids(an)
    stated = next(m for m in an.dataset.memories.values() if not m.is_inference)
    target = sorted(inferred)[0]
    at = run_page(selected_node=target)
    assert an.dataset.memories[target].memory in [t.value for t in at.text]
    assert any(f"-badge[≈ {PANEL_BADGE}]" in m.value for m in at.markdown)
    # a fresh session (the URL names no node yet), its filters open
    at = run_page(selected_node=stated.id, filters_open=True)
    assert stated.memory in [t.value for t in at.text]
    assert PANEL_BADGE not in " ".join(m.value for m in at.markdown)
    # the sidebar's filter reaches the graph
    drawn = {n["id"] for n in graph_payload(at)["nodes"]}
    assert inferred <= drawn
    at.radio(key=str(F_INFERRED.widget)).set_value("hide").run()
    drawn = {n["id"] for n in graph_payload(at)["nodes"]}
    assert not inferred & drawn and stated.id in drawn
    at.session_state["selected_node"] = None  # a selected node is drawn whatever the filters
    at.radio(key=str(F_INFERRED.widget)).set_value("only").run()
    drawn = {n["id"] for n in graph_payload(at)["nodes"]}
    assert drawn & set(an.dataset.memories) == inferred
    assert F_INFERRED.name in at.session_state
    assert at.session_state[F_INFERRED.name] == "only"


# -- a real browser: the mark, the legend line and the badge in light, dark and presenter --

INFERRED_NODES = """el => el.__network.body.data.nodes.get().filter(n => n.inferred)
  .map(n => ({id: n.id, label: n.label, dashes: (n.shapeProperties || {}).borderDashes}))"""


@pytest.mark.browser
def test_the_mark_legend_line_and_badge_in_a_browser(server, data_dir) -> None:
    from browser_support import GRAPH, chromium, open_app
    from conftest import ROOT

    from memscope.settings import STORE_FILE

    shots = ROOT / "test-screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    ds = EmbeddedSource(data_dir / STORE_FILE).load().dataset
    inferred = {m.id for m in ds.memories.values() if m.is_inference}
    target = sorted(i for i in inferred if ds.memories[i].is_latest
                    and not ds.memories[i].is_forgotten)[0]
    with chromium() as browser:
        for name, scheme, query in (("light", "light", ""), ("dark", "dark", ""),
                                    ("presenter", "dark", "presenter=1&")):
            page = open_app(browser, f"{server.url}/?{query}node={target}", width=1800,
                            color_scheme=scheme)
            graph = page.locator(GRAPH)
            drawn = graph.evaluate(INFERRED_NODES)
            assert {n["id"] for n in drawn} == inferred
            assert all(n["label"].endswith(INFERRED_BADGE) for n in drawn)
            if name == "presenter":  # the mark holds on masked labels
                assert all(n["label"].startswith("Memory ") for n in drawn)
            badge = page.get_by_text(f"≈ {PANEL_BADGE}", exact=True)
            badge.wait_for(timeout=20_000)
            page.screenshot(path=str(shots / f"inferred-page-{name}.png"))
            # the legend is a panel on the canvas: its States section, opened
            legend = page.locator("[data-testid='memscope-legend']")
            states = legend.locator("button[data-action='legend-section-state']")
            if states.get_attribute("aria-expanded") == "false":
                states.click()
            line = legend.locator("button[data-line='state:inferred']")
            line.scroll_into_view_if_needed()
            box = line.bounding_box()
            assert box is not None
            page.wait_for_timeout(300)
            legend.screenshot(path=str(shots / f"inferred-legend-{name}.png"))
            page.close()


def test_inspect_json_and_the_memory_table_say_which_memories_are_inferred(small: Analysis
                                                                           ) -> None:
    from memscope.reports.inspection import inspect_json
    from memscope.reports.memory_table import memory_frame

    nodes = inspect_json(small)["nodes"]
    inferred = {n["id"] for n in nodes if n["inferred"]}
    expected = {m for m, rec in small.dataset.memories.items() if rec.is_inference}
    assert inferred == expected == {"guess", "guess_static", "guess_old", "guess_new",
                                    "guess_forgotten"}
    assert not any(n["inferred"] for n in nodes if n["kind"] == "document")
    frame = memory_frame(small)
    assert set(frame.loc[frame["inferred"], "id"]) == expected
