"""Large connected components are split into communities from all of their edges.

``memscope.view.groups.communities`` reads a weakly connected component's edges as its nodes'
out-edges (a component holds every edge out of its nodes), not through a subgraph view.
These tests pin that the split still sees every edge, whatever its direction, parallel
edges and self-loops included, and that small components stay whole.
"""

from __future__ import annotations

from itertools import combinations, pairwise

import networkx as nx

from memscope.view.groups import COMMUNITY_MIN, communities


def _clique(g: nx.MultiDiGraph, prefix: str, size: int) -> set[str]:
    """``size`` nodes, each pair linked once, the direction alternating; parallel edges
    and a self-loop on the first node."""
    nodes = [f"{prefix}{i:02d}" for i in range(size)]
    for n, (a, b) in enumerate(combinations(nodes, 2)):
        g.add_edge(*((a, b) if n % 2 else (b, a)), key="updates")
    g.add_edge(nodes[0], nodes[1], key="extends")  # a parallel edge
    g.add_edge(nodes[0], nodes[0], key="derives")  # a self-loop
    return set(nodes)


def _parts(g: nx.MultiDiGraph) -> set[frozenset[str]]:
    return {frozenset(map(str, part)) for part in communities(g)}


def test_two_dense_groups_joined_by_one_edge_split_into_those_groups() -> None:
    size = COMMUNITY_MIN // 2 + 5
    g = nx.MultiDiGraph()
    left, right = _clique(g, "a", size), _clique(g, "b", size)
    g.add_edge("b00", "a00", key="updates")  # the one bridge, pointing into the first group
    g.add_edge("x", "y", key="extends")  # a small component of its own
    assert len(left | right) >= COMMUNITY_MIN
    assert _parts(g) == {frozenset(left), frozenset(right), frozenset({"x", "y"})}


def test_a_long_chain_is_split_into_runs_that_cover_it_once() -> None:
    g = nx.MultiDiGraph()
    versions = [f"v{i:03d}" for i in range(4 * COMMUNITY_MIN)]
    for older, newer in pairwise(versions):
        g.add_edge(newer, older, key="updates")  # a later version points at the one before
    parts = communities(g)
    assert len(parts) > 1
    assert all(len(part) > 1 for part in parts)  # no version left on its own
    assert sorted(str(n) for part in parts for n in part) == versions
    for part in parts:  # each community is one unbroken run of versions
        index = sorted(versions.index(str(n)) for n in part)
        assert index == list(range(index[0], index[-1] + 1))


def test_a_component_below_the_threshold_is_kept_whole() -> None:
    g = nx.MultiDiGraph()
    small = _clique(g, "s", 6)
    assert _parts(g) == {frozenset(small)}
