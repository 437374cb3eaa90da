"""memscope.view.layout: seeded server-side positions."""

from __future__ import annotations

import math
from pathlib import Path

import igraph as ig
import networkx as nx
import pytest

from memscope.graph.build import build_graph
from memscope.records.dataset import read_files
from memscope.view.layout import EDGE_PX, GRID_MIN, extend_positions, layout_positions

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(scope="module")
def fixture_graph() -> nx.MultiDiGraph:
    files = [FIXTURES / "supermemory" / f"documents_page{i}.json" for i in (1, 2, 3)]
    return build_graph(read_files([*files, FIXTURES / "spomory" / "passport.json"])).graph


def _finite(pos: dict) -> bool:
    return all(math.isfinite(x) and math.isfinite(y) for x, y in pos.values())


def test_every_node_gets_finite_coordinates(fixture_graph: nx.MultiDiGraph) -> None:
    pos = layout_positions(fixture_graph)
    assert set(pos) == set(fixture_graph.nodes)
    assert _finite(pos)
    assert len(set(pos.values())) == len(pos)  # no two nodes on the same spot


def test_large_components_use_the_grid_variant(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, bool]] = []
    original = ig.Graph.layout_fruchterman_reingold

    def spy(self: ig.Graph, *args: object, **kwargs: object) -> ig.Layout:
        calls.append((self.vcount(), bool(kwargs.get("grid"))))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(ig.Graph, "layout_fruchterman_reingold", spy)
    graph = nx.gnm_random_graph(GRID_MIN + 200, 3 * GRID_MIN, seed=3)
    graph.add_edges_from([(GRID_MIN + 300, GRID_MIN + 301), (GRID_MIN + 301, GRID_MIN + 302)])
    graph.add_nodes_from(range(GRID_MIN + 400, GRID_MIN + 430))  # isolated nodes too
    pos = layout_positions(graph, niter=60)
    assert set(pos) == set(graph.nodes) and _finite(pos)
    assert (max(n for n, _ in calls), True) in calls  # the giant component: grid
    assert (3, False) in calls  # a small one: exact FR


def test_layout_is_deterministic(fixture_graph: nx.MultiDiGraph) -> None:
    assert layout_positions(fixture_graph) == layout_positions(fixture_graph)
    assert layout_positions(fixture_graph, seed=1) != layout_positions(fixture_graph, seed=2)


def test_edges_are_about_edge_px_long(fixture_graph: nx.MultiDiGraph) -> None:
    pos = layout_positions(fixture_graph)
    lengths = sorted(math.dist(pos[u], pos[v]) for u, v in fixture_graph.edges() if u != v)
    median = lengths[len(lengths) // 2]
    assert 0.5 * EDGE_PX < median < 2 * EDGE_PX


def test_multi_edges_self_loops_and_empty_graphs() -> None:
    graph = nx.MultiDiGraph([("a", "b"), ("a", "b"), ("b", "a"), ("c", "c")])
    pos = layout_positions(graph)
    assert set(pos) == {"a", "b", "c"} and _finite(pos)
    assert layout_positions(nx.MultiDiGraph()) == {}
    assert layout_positions(nx.path_graph(["only"])) == {"only": (0.0, 0.0)}


def test_extend_keeps_existing_positions(fixture_graph: nx.MultiDiGraph) -> None:
    nodes = list(fixture_graph.nodes)
    old = layout_positions(fixture_graph.subgraph(nodes[:20]))
    new = extend_positions(fixture_graph, old)
    assert set(new) == set(fixture_graph.nodes) and _finite(new)
    assert all(new[n] == old[n] for n in old)
    assert len(set(new.values())) == len(new)
    assert extend_positions(fixture_graph, old) == new


def test_extend_places_new_nodes_near_their_neighbours() -> None:
    graph = nx.path_graph(["a", "b", "c", "d"])
    old = layout_positions(graph)
    graph.add_edge("d", "e")  # attached to the drawing
    graph.add_edge("x", "y")  # a new component on its own
    new = extend_positions(graph, old)
    assert all(new[n] == old[n] for n in old)
    assert math.dist(new["e"], new["d"]) < 3 * EDGE_PX
    right_edge = max(x for x, _ in old.values())
    assert new["x"][0] > right_edge and new["y"][0] > right_edge
    assert extend_positions(graph, {}) == layout_positions(graph)
