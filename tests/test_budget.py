"""The drawing budget's overview on a generated store larger than the budget."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from memscope.demo.generator import generate
from memscope.graph.analysis import analyse
from memscope.records.dataset import from_feed_pages
from memscope.view.budget import CLUSTER_PREFIX, apply_budget, cluster_of, is_cluster
from memscope.view.build import build_view, cluster_groups
from memscope.view.layout import layout_positions

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


@pytest.fixture(scope="module")
def big():
    demo = generate(11, now=NOW, n_documents=400, n_memories=2000)
    an = analyse(from_feed_pages(demo.to_feed_pages()), NOW)
    view = build_view(an, positions=layout_positions(an.graph.graph, seed=1))
    clusters, labels = cluster_groups(an)
    return an, view, clusters, labels


def test_a_view_within_budget_is_returned_unchanged(big):
    _, view, clusters, labels = big
    same, info = apply_budget(view, clusters, labels, budget=len(view["nodes"]))
    assert same is view and not info.active


def test_overview_represents_every_node_once_and_keeps_edges_consistent(big):
    _, view, clusters, labels = big
    budget = 300
    small, info = apply_budget(view, clusters, labels, budget=budget)
    assert info.active and info.total_nodes == len(view["nodes"])
    real = [n for n in small["nodes"] if not is_cluster(n["id"])]
    supers = [n for n in small["nodes"] if is_cluster(n["id"])]
    assert len(supers) == info.collapsed_clusters
    # each collapsed cluster node counts its members; together with the real nodes
    # they account for every node of the full view exactly once
    full_per_cluster = Counter((clusters.get(n["id"]) or "unlinked") for n in view["nodes"])
    represented = sum(full_per_cluster[cluster_of(n["id"])] for n in supers)
    assert represented == info.collapsed_nodes
    assert represented + len(real) == len(view["nodes"])
    assert len(small["nodes"]) < len(view["nodes"]) // 3
    ids = {n["id"] for n in small["nodes"]}
    assert all(e["from"] in ids and e["to"] in ids for e in small["edges"])
    assert all(e["from"] != e["to"] for e in small["edges"] if e["kind"] == "merged")
    assert all("x" in n and "y" in n for n in supers)
    assert view["nodes"][0].get("kind") != "cluster"  # the input was not changed


def test_expanded_clusters_and_kept_nodes_are_drawn_themselves(big):
    _, view, clusters, labels = big
    key = Counter(v for v in clusters.values() if v).most_common(1)[0][0]
    lonely = next(n["id"] for n in view["nodes"] if clusters.get(n["id"]) not in ("", key))
    small, info = apply_budget(view, clusters, labels, budget=300, expanded=[key],
                               keep=[lonely])
    ids = {n["id"] for n in small["nodes"]}
    members = {n for n, k in clusters.items() if k == key}
    assert members <= ids and lonely in ids
    assert CLUSTER_PREFIX + key not in ids
    assert info.expanded == [key]


def test_a_hexagon_says_what_it_holds_in_plain_words(big):
    """"12 memories", "1 document": never "memorys" (a title a demo audience reads)."""
    _, view, clusters, labels = big
    small, _ = apply_budget(view, clusters, labels, budget=300)
    titles = [n["title"] for n in small["nodes"] if is_cluster(n["id"])]
    assert any("memories" in t for t in titles)
    assert not any("memorys" in t or "entitys" in t or " 1 documents" in t or "(1 documents"
                   in t for t in titles)


def test_a_hidden_node_is_drawn_on_top_of_the_overview_with_its_edges(big):
    """``with_extra``: a node the filters hide joins the overview as itself, linked to
    what is drawn, without the overview being rebuilt for it."""
    from memscope.view.budget import overview_of, with_extra, with_kept
    from memscope.view.build import Painter

    an, _view, clusters, labels = big
    g = an.graph.graph
    hidden = next(n for n in an.dataset.memories if g.degree(n) >= 2)
    visible = set(g) - {hidden}
    positions = layout_positions(g, seed=1)
    ov = overview_of(an, positions, clusters, labels, visible=visible, budget=300)
    assert hidden not in ov.nodes
    on_top = with_extra(ov, Painter(an, "cluster", positions), hidden, visible=visible)
    ids = [n["id"] for n in on_top.view["nodes"]]
    assert ids.count(hidden) == 1 and on_top.info.drawn_nodes == ov.info.drawn_nodes + 1
    drawn = set(ids)
    assert all(e["from"] in drawn and e["to"] in drawn for e in on_top.view["edges"])
    assert any(hidden in (e["from"], e["to"]) for e in on_top.view["edges"])
    assert ov.view["nodes"] == on_top.view["nodes"][:-1]  # the overview itself unchanged
    # its neighbours then drawn as themselves get the edges to it
    near = set(g.predecessors(hidden)) | set(g.successors(hidden))
    full, _ = with_kept(on_top, near | {hidden})
    ends = {(e["from"], e["to"]) for e in full["edges"]}
    assert any(hidden in pair and (set(pair) - {hidden}) <= near for pair in ends)


def test_a_given_clustering_colours_the_overview(big):
    """The Painter takes the clusters it is given (today's, for an as-of or masked view):
    the colour groups are exactly those, whatever this graph's own clustering says."""
    from memscope.view.budget import overview_of

    an, _view, clusters, labels = big
    swapped = {n: ("c2" if k == "c1" else "c1" if k == "c2" else k) for n, k in clusters.items()}
    order = sorted({k for k in swapped.values() if k}, key=lambda k: int(k[1:]))
    ov = overview_of(an, None, swapped, labels, budget=10_000,
                     clustering=(swapped, labels, order))
    assert {n["id"]: n["color_group"] for n in ov.view["nodes"]} == {
        n: swapped.get(n, "") for n in map(str, an.graph.graph)}
