"""A long version chain in the overview lies along a line from its document (issue 32,
item 1): its clusters' hexagons in chain order, one box apart, folded into rows; no spokes
from the document through them; an expanded cluster or a selected version drawn where its
hexagon is; and nothing else moves (short or branching chains, views within the budget).
"""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

import networkx as nx
import pytest
from test_long_chain import MEDIUM, bare_chain

from memscope.graph.analysis import Analysis, analyse
from memscope.records.dataset import from_feed_pages
from memscope.view.budget import CLUSTER_PREFIX, Overview, overview_of, with_kept
from memscope.view.build import VisNode
from memscope.view.derived import Derived, compute
from memscope.view.lines import LINE_MIN, chain_lines

#: low enough that the medium chain is drawn as an overview
BUDGET = 100


@pytest.fixture(scope="module")
def chain() -> tuple[Analysis, Derived]:
    an = analyse(from_feed_pages([bare_chain(MEDIUM)]))
    return an, compute(an)


def xy(node: VisNode) -> tuple[float, float]:
    """Where ``node`` is drawn (every node of these views is placed)."""
    return float(node.get("x", math.nan)), float(node.get("y", math.nan))


def drawn(an: Analysis, d: Derived, **kw: Any) -> Overview:
    return overview_of(an, d.positions, d.clusters, d.labels, budget=BUDGET,
                       clustering=(d.clusters, d.labels, d.order), **kw)


def order_of(an: Analysis, d: Derived) -> list[str]:
    """The chain's clusters in chain order, read from the data (not from the line)."""
    out: list[str] = []
    for i in range(MEDIUM):
        key = d.clusters[f"b_v{i}"]
        if not out or out[-1] != key:
            out.append(key)
    return out


def test_a_long_chain_lies_along_a_line_from_its_document(chain):
    an, d = chain
    ov = drawn(an, d)
    hexes = {n["id"].removeprefix(CLUSTER_PREFIX): n for n in ov.view["nodes"]
             if n.get("kind") == "cluster"}
    order = order_of(an, d)
    assert len(order) >= LINE_MIN and set(order) == set(hexes)  # each stretch one hexagon
    assert d.clusters["doc"] == order[0]  # the line starts at the document's cluster
    places = [xy(hexes[k]) for k in order]
    gaps = [math.dist(a, b) for a, b in pairwise(places)]
    # one box from each to the next: along a row, or down at a row's end
    xs = sorted({round(p[0]) for p in places})
    ys = sorted({round(p[1]) for p in places})
    step_x, step_y = xs[1] - xs[0], ys[1] - ys[0]
    assert all(abs(g - step_x) < 2 or abs(g - step_y) < 2 for g in gaps), (gaps, xs, ys)
    assert len(set(places)) == len(places)  # no two on one place
    # folded into rows, wider than tall, as the canvas is
    assert len(ys) >= 2 and (xs[-1] - xs[0]) > (ys[-1] - ys[0])
    # the drawn links join neighbours on the line only: no spokes from the document
    ends = {frozenset((e["from"], e["to"])) for e in ov.view["edges"]}
    neighbours = {frozenset((CLUSTER_PREFIX + a, CLUSTER_PREFIX + b))
                  for a, b in pairwise(order)}
    assert ends == neighbours


def test_an_expanded_cluster_and_a_selected_version_are_drawn_at_their_hexagon(chain):
    an, d = chain
    closed = drawn(an, d)
    places = {n["id"]: xy(n) for n in closed.view["nodes"]}
    key = order_of(an, d)[3]
    opened = drawn(an, d, expanded=[key])
    members = [n for n in opened.view["nodes"] if d.clusters.get(n["id"]) == key
               and n.get("kind") != "cluster"]
    assert len(members) == sum(1 for k in d.clusters.values() if k == key)
    cx = sum(xy(n)[0] for n in members) / len(members)
    cy = sum(xy(n)[1] for n in members) / len(members)
    assert math.dist((cx, cy), places[CLUSTER_PREFIX + key]) < 1.0
    # the other hexagons keep their places (nothing jumps when a hexagon opens)
    for n in opened.view["nodes"]:
        if n.get("kind") == "cluster":
            assert xy(n) == places[n["id"]]
    # a selected version is drawn by its own cluster's hexagon, not where the layout
    # folded the chain
    version = next(n for n, k in d.clusters.items() if k == key and n != "doc")
    view, _ = with_kept(closed, [version])
    node = next(n for n in view["nodes"] if n["id"] == version)
    width = max(abs(a[0] - b[0]) for a in places.values() for b in places.values())
    assert math.dist(xy(node), places[CLUSTER_PREFIX + key]) < width / 4
    # the document drawn as itself links to the version and to its own cluster's
    # versions, and sends no spokes to the other hexagons along the line
    view, _ = with_kept(closed, ["doc", version])
    from_doc = {e["to"] for e in view["edges"] if e["from"] == "doc"}
    assert from_doc == {version, CLUSTER_PREFIX + d.clusters["doc"]}


def test_within_the_budget_every_node_keeps_its_layout_place(chain):
    an, d = chain
    ov = overview_of(an, d.positions, d.clusters, d.labels, budget=10_000)
    assert all(xy(n) == tuple(round(c, 1) for c in d.positions[n["id"]])
               for n in ov.view["nodes"])


def path_graph(clusters: int, *, branch: bool = False, ring: bool = False
               ) -> tuple[nx.MultiDiGraph, dict[str, str]]:
    """A document with versions, two per cluster, chained by ``updates`` (``branch``: a
    second chain off the third cluster; ``ring``: the last version updates the first)."""
    g = nx.MultiDiGraph()
    g.add_node("doc", kind="document")
    keys = {"doc": "k0"}
    ids = [f"v{i}" for i in range(2 * clusters)]
    for i, v in enumerate(ids):
        g.add_node(v, kind="memory")
        keys[v] = f"k{i // 2}"
        g.add_edge("doc", v, kind="source")
        if i:
            g.add_edge(v, ids[i - 1], kind="updates")
    if branch:
        g.add_node("w", kind="memory")
        keys["w"] = "kw"
        g.add_edge("w", "v5", kind="updates")
    if ring:
        g.add_edge(ids[0], ids[-1], kind="updates")
    return g, keys


@pytest.mark.parametrize(("clusters", "kw", "lined"), [
    (LINE_MIN, {}, True),
    (LINE_MIN - 1, {}, False),  # short: left where the layout put it
    (LINE_MIN + 4, {"branch": True}, False),  # a branch: not one line
    (LINE_MIN + 4, {"ring": True}, False),
])
def test_only_a_long_unbranched_chain_is_lined(clusters, kw, lined):
    g, keys = path_graph(clusters, **kw)
    positions = {n: (float(i), 0.0) for i, n in enumerate(g)}
    line = chain_lines(g, positions, keys, {})
    assert bool(line) is lined
    if lined:
        assert line.lines == [[f"k{i}" for i in range(clusters)]]
        # a filter that hides the middle of the chain breaks it into two short ones
        shown = {n for n in g if n not in ("v6", "v7")}
        assert not chain_lines(g, positions, keys, {}, shown=shown)
