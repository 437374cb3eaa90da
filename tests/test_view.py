"""memscope.view.build: graph → vis-network dicts and legend."""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from memscope.graph.analysis import Analysis, analyse
from memscope.records.dataset import from_feed_pages, read_files
from memscope.view.build import ColorBy, build_view
from memscope.view.colors import FORGOTTEN_COLOR, NEUTRAL, OTHER_COLOR, STATE_BORDERS
from memscope.view.layout import layout_positions
from memscope.view.style import EDGE_STYLES, PALETTE, STATIC_BADGE
from memscope.view.titles import LABEL_MAX, TITLE_MAX

FIXTURES = Path(__file__).resolve().parent / "fixtures"
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


def _iso(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


@pytest.fixture(scope="module")
def fixture_analysis() -> Analysis:
    files = [FIXTURES / "supermemory" / f"documents_page{i}.json" for i in (1, 2, 3)]
    return analyse(read_files([*files, FIXTURES / "spomory" / "passport.json"]), NOW)


@pytest.fixture(scope="module")
def states_analysis() -> Analysis:
    """One memory per state, plus a static one and a long one."""
    old = _iso(NOW - timedelta(days=30))

    def mem(mem_id: str, **extra: object) -> dict:
        return {"id": mem_id, "memory": f"text of {mem_id}", "createdAt": old,
                "spaceId": "sp", **extra}

    page = {"documents": [
        {"id": "d1", "title": "One", "type": "pdf", "memoryEntries": [
            mem("m_forgotten", isForgotten=True),
            mem("m_expired", forgetAfter=_iso(NOW - timedelta(hours=1))),
            mem("m_expiring", forgetAfter=_iso(NOW + timedelta(days=2))),
            mem("m_old", isLatest=False),
            mem("m_new", parentMemoryId="m_old", version=2),
            mem("m_recent", createdAt=_iso(NOW - timedelta(hours=2))),
        ]},
        {"id": "d2", "title": "Two", "type": "webpage", "memoryEntries": [
            mem("m_latest"),
            mem("m_static", isStatic=True, memoryRelations={"m_latest": "extends"}),
            mem("m_long", memory="x" * (TITLE_MAX + 500),
                memoryRelations={"m_latest": "derives"}),
        ]},
    ]}
    return analyse(from_feed_pages([page]), NOW)


def _nodes(view) -> dict:
    return {n["id"]: n for n in view["nodes"]}


def test_counts_match_the_graph(fixture_analysis: Analysis) -> None:
    g = fixture_analysis.graph.graph
    view = build_view(fixture_analysis)
    assert len(view["nodes"]) == g.number_of_nodes()
    assert len(view["edges"]) == g.number_of_edges()
    assert {n["id"] for n in view["nodes"]} == set(g.nodes)
    assert Counter((e["from"], e["to"], e["kind"]) for e in view["edges"]) == Counter(
        (u, v, d["kind"]) for u, v, d in g.edges(data=True))
    assert len({e["id"] for e in view["edges"]}) == len(view["edges"])


def test_shapes_per_kind(fixture_analysis: Analysis) -> None:
    shapes = {(n["kind"], n["shape"]) for n in build_view(fixture_analysis)["nodes"]}
    assert shapes == {("document", "box"), ("memory", "dot"), ("entity", "diamond")}


@pytest.mark.parametrize(("node_id", "state"), [
    ("m_forgotten", "forgotten"), ("m_expired", "expired"), ("m_expiring", "expiring"),
    ("m_old", "superseded"), ("m_recent", "recent"), ("m_latest", "latest"),
])
def test_each_state_gets_its_style(states_analysis: Analysis, node_id: str, state: str) -> None:
    node = _nodes(build_view(states_analysis))[node_id]
    assert node["state"] == state == states_analysis.state(node_id)
    if state == "forgotten":
        assert node["color"] == FORGOTTEN_COLOR and node["opacity"] < 1
    elif state == "superseded":
        assert node["opacity"] < 1 and node["shapeProperties"]["borderDashes"]
    elif state in ("expiring", "expired"):
        assert node["color"]["border"] == STATE_BORDERS[state]
        assert node["borderWidth"] >= 3
    elif state == "recent":
        assert node["shadow"]["enabled"] and node["color"]["border"] == STATE_BORDERS["recent"]
    else:
        assert not {"borderWidth", "opacity", "shadow", "shapeProperties"} & set(node)


def test_the_six_states_look_different(states_analysis: Analysis) -> None:
    nodes = _nodes(build_view(states_analysis))
    ids = ["m_forgotten", "m_expired", "m_expiring", "m_old", "m_recent", "m_latest"]
    styles = {json.dumps({k: v for k, v in nodes[i].items()
                          if k not in ("id", "label", "title", "state", "x", "y")},
                         sort_keys=True) for i in ids}
    assert len(styles) == len(ids)


def test_static_badge_whatever_the_state(states_analysis: Analysis) -> None:
    nodes = _nodes(build_view(states_analysis))
    assert nodes["m_static"]["static"] is True
    assert nodes["m_static"]["label"].startswith(STATIC_BADGE)
    assert "static" in nodes["m_static"]["title"]
    assert "static" not in nodes["m_latest"]
    assert not nodes["m_latest"]["label"].startswith(STATIC_BADGE)


def test_updates_arrows_point_from_older_to_newer(fixture_analysis: Analysis) -> None:
    memories = fixture_analysis.dataset.memories
    updates = [e for e in build_view(fixture_analysis)["edges"] if e["kind"] == "updates"]
    assert updates
    for edge in updates:
        assert edge.get("arrows") == "to"
        newer = memories[edge["to"]]
        assert newer.parent_id == edge["from"] or edge["from"] in (newer.relations or {})
    pairs = {(e["from"], e["to"]) for e in updates}
    assert {("mem_fe_v1", "mem_fe_v2"), ("mem_fe_v2", "mem_fe_v3")} <= pairs


def test_edge_styles_per_kind(fixture_analysis: Analysis) -> None:
    by_kind: dict[str, list] = {}
    for edge in build_view(fixture_analysis)["edges"]:
        by_kind.setdefault(edge["kind"], []).append(edge)
    # every kind but a temporal fact's edges to its entities (test_graphiti_source draws them)
    assert set(by_kind) == set(EDGE_STYLES) - {"about"}
    assert all("arrows" not in e and "dashes" not in e for e in by_kind["source"])
    assert all("title" not in e for k in ("source", "updates", "extends", "derives")
               for e in by_kind[k])
    assert all(e["width"] <= 1 for e in by_kind["source"])
    assert {tuple(e["dashes"]) for e in by_kind["extends"]} != {
        tuple(e["dashes"]) for e in by_kind["derives"]}
    predicates = {e["predicate"] for e in by_kind["relation"]}
    assert predicates == {"任职于", "住在", "擅长", "mentions"}
    assert all(e["label"] == e["predicate"] and e["arrows"] == "to"
               for e in by_kind["relation"])


def test_hostile_text_is_kept_verbatim_as_data(fixture_analysis: Analysis) -> None:
    view = build_view(fixture_analysis)
    nodes = _nodes(view)
    assert nodes["doc_hostile"]["title"].startswith("<img src=x onerror=alert('title')>\n")
    assert nodes["doc_hostile"]["label"].startswith("<img src=x onerror=")
    assert nodes["mem_hostile"]["title"].startswith(
        "<script>alert('memory')</script> likes <b>bold</b> text\n")
    assert nodes["e_x"]["title"].startswith("<svg onload=alert('entity')>\n")
    assert nodes["e_x"]["label"].startswith("<svg onload=alert(")
    assert "<svg onload=alert('entity')> — mentions — " in next(
        e.get("title", "") for e in view["edges"] if e.get("predicate") == "mentions")
    # the JSON payload carries the same characters, not HTML entities
    decoded = json.loads(json.dumps(view))
    assert decoded == view
    assert "&lt;" not in json.dumps(view)


def test_labels_are_short_and_titles_capped(states_analysis: Analysis) -> None:
    nodes = _nodes(build_view(states_analysis))
    assert all(len(n["label"]) <= LABEL_MAX + len(STATIC_BADGE) for n in nodes.values())
    long = nodes["m_long"]
    assert long["label"].endswith("…") and len(long["label"]) == LABEL_MAX
    assert len(long["title"]) == TITLE_MAX and long["title"].endswith("…")


def test_same_input_gives_identical_output(fixture_analysis: Analysis) -> None:
    positions = layout_positions(fixture_analysis.graph.graph)
    first = build_view(fixture_analysis, positions=positions)
    assert build_view(fixture_analysis, positions=positions) == first
    again = analyse(fixture_analysis.dataset, NOW)  # a new graph built from the same data
    second = build_view(again, positions=layout_positions(again.graph.graph))
    assert json.dumps(second) == json.dumps(first)


def test_colour_by_cluster_follows_small_components(fixture_analysis: Analysis) -> None:
    view = build_view(fixture_analysis, color_by="cluster")
    nodes = _nodes(view)
    for comp in nx.weakly_connected_components(fixture_analysis.graph.graph):
        fills = {nodes[n]["color_group"] for n in comp}
        assert len(fills) == 1
        if len(comp) == 1:
            assert fills == {""}
    assert nodes["doc_empty"]["color"]["background"] == NEUTRAL
    assert nodes["mem_fe_v3"]["color_group"] == nodes["doc_stack_0"]["color_group"]
    assert nodes["mem_fe_v3"]["color_group"] != nodes["e_zs"]["color_group"]


def test_big_components_are_split_into_communities() -> None:
    """Two 30-memory documents joined by one relation: one component, two clusters."""
    def doc(name: str, link: dict | None = None) -> dict:
        entries: list[dict[str, Any]] = [{"id": f"{name}{i}", "memory": f"{name} fact {i}"}
                                         for i in range(30)]
        if link:
            entries[0]["memoryRelations"] = link
        return {"id": f"doc_{name}", "title": name, "memoryEntries": entries}

    page = {"documents": [doc("a"), doc("b", {"a0": "extends"})]}
    analysis = analyse(from_feed_pages([page]), NOW)
    assert nx.number_weakly_connected_components(analysis.graph.graph) == 1
    view = build_view(analysis)
    nodes = _nodes(view)
    assert {nodes[f"a{i}"]["color_group"] for i in range(1, 30)} == {nodes["doc_a"]["color_group"]}
    assert {nodes[f"b{i}"]["color_group"] for i in range(1, 30)} == {nodes["doc_b"]["color_group"]}
    assert nodes["doc_a"]["color_group"] != nodes["doc_b"]["color_group"]
    assert nodes["doc_a"]["color"] != nodes["doc_b"]["color"]
    assert build_view(analyse(from_feed_pages([page]), NOW)) == view


def test_colour_by_space(fixture_analysis: Analysis) -> None:
    nodes = _nodes(build_view(fixture_analysis, color_by="space"))
    memory_groups = {n["color_group"] for n in nodes.values() if n["kind"] == "memory"}
    assert memory_groups == {"sm_project_personal"}
    assert nodes["doc_stack_2"]["color_group"] == "sm_project_personal"
    assert nodes["doc_empty"]["color_group"] == "" and nodes["e_zs"]["color_group"] == ""
    assert nodes["e_zs"]["color"]["background"] == NEUTRAL


def test_colour_by_document_type(fixture_analysis: Analysis) -> None:
    nodes = _nodes(build_view(fixture_analysis, color_by="document_type"))
    g = fixture_analysis.graph.graph
    for node_id, attrs in g.nodes(data=True):
        if attrs["kind"] == "memory" and attrs["documents"]:
            assert nodes[node_id]["color_group"] == nodes[attrs["documents"][0]]["color_group"]
        elif attrs["kind"] == "document":
            assert nodes[node_id]["color_group"] == f"type:{attrs['record'].type}"
    assert nodes["doc_trip"]["color_group"] == "type:webpage"
    assert nodes["doc_trip"]["color"]["background"] != nodes["doc_stack_2"]["color"]["background"]
    assert nodes["e_zs"]["color_group"] == "entity:unknown"
    with pytest.raises(ValueError, match="color_by must be one of"):
        # a value outside ColorBy on purpose: build_view must refuse it
        build_view(fixture_analysis, color_by="colour")  # pyright: ignore[reportArgumentType]


def test_legend_counts_equal_what_is_drawn(fixture_analysis: Analysis) -> None:
    color_bys: tuple[ColorBy, ...] = ("cluster", "space", "document_type")
    for color_by in color_bys:
        view = build_view(fixture_analysis, color_by=color_by)
        legend = view["legend"]
        nodes, edges = view["nodes"], view["edges"]
        assert legend["color_by"] == color_by
        assert legend["kinds"] == {"document": 12, "memory": 19, "entity": 5}
        assert sum(legend["kinds"].values()) == len(nodes)
        assert legend["states"] == {s: sum(1 for n in nodes if n.get("state") == s)
                                    for s in legend["states"]}
        assert sum(legend["states"].values()) == legend["kinds"]["memory"]
        assert legend["static"] == sum(1 for n in nodes if n.get("static"))
        assert legend["edges"] == dict(Counter(e["kind"] for e in edges)) | {
            k: 0 for k in legend["edges"] if k not in {e["kind"] for e in edges}}
        assert sum(c["count"] for c in legend["colors"]) == len(nodes)
        assert legend["other_colors"] == 0 and legend["other"] is None
        colours = {n["color_group"]: n["color"]["background"] for n in nodes
                   if n.get("state") not in ("forgotten", "expired")}
        assert all(colours.get(c["key"], c["color"]) == c["color"] for c in legend["colors"])


def test_visible_filters_without_recolouring(fixture_analysis: Analysis) -> None:
    full = _nodes(build_view(fixture_analysis))
    keep = {"doc_stack_2", "mem_fe_v3", "mem_ts_course", "e_zs", "not-a-node"}
    view = build_view(fixture_analysis, visible=keep)
    assert {n["id"] for n in view["nodes"]} == keep - {"not-a-node"}
    assert all(e["from"] in keep and e["to"] in keep for e in view["edges"])
    assert {(e["from"], e["to"]) for e in view["edges"]} == {
        ("doc_stack_2", "mem_fe_v3"), ("doc_stack_2", "mem_ts_course"),
        ("mem_fe_v3", "mem_ts_course")}
    for node in view["nodes"]:
        assert node["color"] == full[node["id"]]["color"]
    assert view["legend"]["kinds"] == {"document": 1, "memory": 2, "entity": 1}


def test_positions_become_x_and_y(fixture_analysis: Analysis) -> None:
    view = build_view(fixture_analysis, positions={"doc_trip": (1.234, -5.678)})
    nodes = _nodes(view)
    assert (nodes["doc_trip"]["x"], nodes["doc_trip"]["y"]) == (1.2, -5.7)
    assert "x" not in nodes["doc_stack_2"]


# -- legend data, distinct colours, states at fit zoom, plain words (issue 12) -------------


def _many_clusters(n: int) -> Analysis:
    """``n`` separate documents of decreasing size (document i has n - i + 1 memories)."""
    docs = [{"id": f"d{i:02}", "title": f"Topic {i}", "memoryEntries": [
        {"id": f"m{i:02}_{j}", "memory": f"fact {j} of topic {i}"} for j in range(n - i + 1)]}
        for i in range(1, n + 1)]
    return analyse(from_feed_pages([{"documents": docs}]), NOW)


def test_no_two_groups_drawn_in_a_colour_of_their_own_share_it() -> None:
    analysis = _many_clusters(len(PALETTE) + 5)
    view = build_view(analysis)
    legend = view["legend"]
    fills = [c["color"] for c in legend["colors"]]
    assert len(fills) == len(set(fills)) == len(PALETTE)
    assert OTHER_COLOR not in fills and NEUTRAL not in fills
    other = legend["other"]
    assert other is not None and other["color"] == OTHER_COLOR
    assert legend["other_colors"] == 5
    own = {c["key"] for c in legend["colors"]}
    rest = [n for n in view["nodes"] if n["color_group"] not in own]
    assert other["count"] == len(rest) and {n["color"]["background"] for n in rest} == {OTHER_COLOR}
    assert sum(c["count"] for c in legend["colors"]) + other["count"] == len(view["nodes"])
    # the largest groups get the colours of their own
    smallest_own = min(c["count"] for c in legend["colors"])
    assert all(n_count <= smallest_own for n_count in Counter(
        n["color_group"] for n in rest).values())
    for group in legend["colors"]:  # each swatch is what its nodes are drawn with
        drawn = {n["color"]["background"] for n in view["nodes"]
                 if n["color_group"] == group["key"]}
        assert drawn == {group["color"]}


def test_a_filtered_view_keeps_distinct_colours() -> None:
    analysis = _many_clusters(len(PALETTE) + 5)
    full = build_view(analysis)
    third = {n["id"] for n in full["nodes"] if n["id"].startswith(("d03", "m03"))}
    last = {n["id"] for n in full["nodes"] if n["id"].startswith(("d25", "m25"))}
    legend = build_view(analysis, visible=third | last)["legend"]
    before = {c["key"]: c["color"] for c in full["legend"]["colors"]}
    assert [(c["color"], c["count"]) for c in legend["colors"]] == [
        (before[legend["colors"][0]["key"]], len(third))]  # its colour, not recoloured
    assert legend["other"] is not None and legend["other"]["count"] == len(last)
    assert legend["other_colors"] == 1


def test_legend_carries_the_style_of_every_shape_state_and_edge(states_analysis: Analysis
                                                                 ) -> None:
    view = build_view(states_analysis)
    legend = view["legend"]
    nodes = _nodes(view)
    shapes = {e["key"]: e for e in legend["shapes"]}
    assert set(shapes) == {"document", "memory", "entity", "cluster"}
    for kind in ("document", "memory", "entity"):
        drawn = [n for n in nodes.values() if n["kind"] == kind]
        assert shapes[kind]["count"] == len(drawn)
        assert all(n["shape"] == shapes[kind]["style"]["shape"] for n in drawn)
    assert shapes["cluster"]["style"]["shape"] == "hexagon"
    states = {e["key"]: e for e in legend["state_styles"]}
    assert set(states) >= {"superseded", "forgotten", "expiring", "expired", "recent",
                           "static"}
    for state, entry in states.items():
        drawn = [n for n in nodes.values()
                 if (n.get("static") if state == "static" else n.get("state") == state)]
        assert entry["count"] == len(drawn), state
        style = entry["style"]
        for n in drawn if state != "static" else ():
            if "border" in style:
                assert n["color"]["border"] == style["border"]
            if "background" in style:
                assert n["color"]["background"] == style["background"]
            if "borderWidth" in style:
                assert n["borderWidth"] == style["borderWidth"]
            if "borderDashes" in style:
                assert n["shapeProperties"]["borderDashes"] == style["borderDashes"]
    edges = {e["key"]: e for e in legend["edge_styles"]}
    assert {k: e["count"] for k, e in edges.items()} == legend["edges"]
    assert all(edges[k]["style"]["color"] == EDGE_STYLES[k]["color"] for k in edges)


def test_expiring_and_expired_differ_in_more_than_a_border_shade(states_analysis: Analysis
                                                                 ) -> None:
    nodes = _nodes(build_view(states_analysis))
    expiring, expired = nodes["m_expiring"], nodes["m_expired"]
    # different fill (visible at fit zoom, where borders are a pixel wide) …
    assert expiring["color"]["background"] != expired["color"]["background"]
    assert expired["color"]["background"] not in PALETTE
    # … and a different outline: a thick solid ring against a dashed border
    assert expiring["borderWidth"] >= 2 * 3 > expired["borderWidth"] - 1
    assert "shapeProperties" not in expiring and expired["shapeProperties"]["borderDashes"]


def test_memory_tooltips_say_when_in_words(states_analysis: Analysis) -> None:
    nodes = _nodes(build_view(states_analysis))
    assert "added 1 month ago" in nodes["m_latest"]["title"]  # created 30 days before NOW
    assert "to be forgotten in " in nodes["m_expiring"]["title"]
    assert "forget date passed " in nodes["m_expired"]["title"]
    assert " ago" in nodes["m_expired"]["title"].split("forget date passed ")[1]


def test_cluster_labels_are_named_by_their_words() -> None:
    docs = [{"id": "trip", "title": "Lisbon trip", "memoryEntries": [
        {"id": f"t{i}", "memory": f"Maya flies to Lisbon for the trip, day {i}."}
        for i in range(3)]},
            {"id": "db", "title": "Database choice", "memoryEntries": [
        {"id": f"b{i}", "memory": f"Atlas uses Postgres as its database, note {i}."}
        for i in range(3)]}]
    view = build_view(analyse(from_feed_pages([{"documents": docs}]), NOW))
    names = {c["label"] for c in view["legend"]["colors"]}
    assert any("Lisbon" in n for n in names) and any("Postgres" in n or "Atlas" in n
                                                     for n in names)
