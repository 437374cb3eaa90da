"""The overview built straight from the clusters equals the one built from the full view,
always fits the budget (merging the smallest clusters when they are too many), and says
what is true."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest

from memscope.demo.generator import generate
from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.filters import Filters, visible_nodes
from memscope.records.dataset import from_feed_pages
from memscope.view.budget import (
    CLUSTER_PREFIX,
    UNLINKED,
    Overview,
    cluster_of,
    is_cluster,
    is_merged,
    overview,
    overview_base,
    overview_of,
    with_kept,
)
from memscope.view.build import ColorBy, build_view, cluster_groups
from memscope.view.edges import keep_edge_kinds
from memscope.view.layout import layout_positions

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


def _world(n_documents: int, n_memories: int):
    demo = generate(7, now=NOW, n_documents=n_documents, n_memories=n_memories)
    an = analyse(from_feed_pages(demo.to_feed_pages()), NOW)
    clusters, labels = cluster_groups(an)
    return an, layout_positions(an.graph.graph, seed=7), clusters, labels


@pytest.fixture(scope="module")
def demo():
    """The app's demo data (72 documents, 360 memories)."""
    return _world(72, 360)


@pytest.fixture(scope="module")
def big():
    """A synthetic store of 5,000 memories."""
    return _world(1000, 5000)


def _old(an: Analysis, pos, clusters, labels, *, visible=None, color_by: ColorBy = "cluster",
         budget=3000, expanded=(), edge_kinds=None) -> Overview:
    view = build_view(an, color_by=color_by, visible=visible, positions=pos)
    return overview(keep_edge_kinds(view, edge_kinds), clusters, labels, budget=budget,
                    expanded=expanded)


def _assert_same(new: Overview, old: Overview) -> None:
    assert new.view == old.view
    assert new.info == old.info
    assert new.rep == old.rep
    assert new.legend == old.legend and new.total_edges == old.total_edges
    assert dict(new.nodes) == dict(old.nodes)
    assert {k: new.edges_of[k] for k in new.edges_of} == \
        {k: v for k, v in old.edges_of.items() if v}


def _biggest(clusters: dict[str, str], n: int) -> list[str]:
    return [k for k, _ in Counter(v for v in clusters.values() if v).most_common(n)]


CASES = [
    {"budget": 100},
    {"budget": 100, "color_by": "space"},
    {"budget": 150, "color_by": "document_type", "edge_kinds": {"updates", "source"}},
    {"budget": 120, "expanded": "top2"},
    {"budget": 100, "filters": Filters(show_superseded=False, show_forgotten=False)},
    {"budget": 10_000},  # fits: the full view
]


@pytest.mark.parametrize("world", ["demo", "big"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: ",".join(map(str, c.values())))
def test_the_direct_overview_equals_the_one_from_the_full_view(request, world, case):
    an, pos, clusters, labels = request.getfixturevalue(world)
    kwargs = {k: v for k, v in case.items() if k != "filters"}
    if kwargs.get("expanded") == "top2":
        kwargs["expanded"] = _biggest(clusters, 2)
    if "filters" in case:
        kwargs["visible"] = visible_nodes(an, case["filters"])
    new = overview_of(an, pos, clusters, labels, **kwargs)
    old = _old(an, pos, clusters, labels, **kwargs)
    _assert_same(new, old)
    if world == "big" and kwargs["budget"] < 1000 and not kwargs.get("expanded"):
        assert new.info.merged_hexagons  # the merging path is compared too
    some = list(old.nodes)[::37]
    assert with_kept(new, some) == with_kept(old, some)


def test_the_direct_overview_draws_only_what_it_shows(big):
    an, pos, clusters, labels = big
    ov = overview_of(an, pos, clusters, labels, budget=500)
    assert ov.info.active and len(ov.view["nodes"]) <= 500
    # no full view was built: the nodes are drawn on first use, only those asked for
    assert len(ov.nodes._drawn) == sum(1 for n in ov.view["nodes"]  # type: ignore[attr-defined]
                                       if not is_cluster(n["id"]))
    node = next(iter(ov.nodes))
    assert ov.nodes[node]["id"] == node and len(ov.nodes) == an.graph.graph.number_of_nodes()


@pytest.mark.parametrize("budget", [100, 137, 300, 1000, 3000])
def test_the_overview_always_fits_and_represents_every_node_once(big, budget):
    an, pos, clusters, labels = big
    ov = overview_of(an, pos, clusters, labels, budget=budget)
    info, drawn = ov.info, ov.view["nodes"]
    groups = {v or UNLINKED for v in clusters.values()}
    assert len(groups) > 100  # more clusters than the smallest budget: merging is needed
    assert info.drawn_nodes == len(drawn) <= budget and not info.over_budget
    ids = {n["id"] for n in drawn}
    assert len(ids) == len(drawn)
    assert set(ov.rep) == set(clusters) and set(ov.rep.values()) == ids
    per_hexagon = Counter(ov.rep.values())
    assert all(per_hexagon[n["id"]] == int(n["label"].rsplit("(", 1)[1].rstrip(")"))
               for n in drawn if is_cluster(n["id"]))
    assert info.collapsed_nodes == sum(per_hexagon[i] for i in ids if is_cluster(i))
    merged = [i for i in ids if is_cluster(i) and is_merged(cluster_of(i))]
    assert info.merged_hexagons == len(merged)
    # the merged hexagons hold whole clusters, as many as the sentence says
    inside = {clusters[n] or UNLINKED for n, r in ov.rep.items() if r in set(merged)}
    assert len(inside) == info.merged_clusters
    for key in inside:
        assert {ov.rep[n] for n, k in clusters.items() if (k or UNLINKED) == key} <= set(merged)
    sentence = info.sentence(budget)
    assert "collapse some" not in sentence
    if merged:
        assert f"The {len(inside)} smallest clusters share {len(merged)} hexagon" in sentence
    assert ov.view["legend"]["shapes"][-1]["count"] == info.collapsed_clusters
    assert all(e["from"] in ids and e["to"] in ids for e in ov.view["edges"])


def test_a_merged_hexagon_expands_into_its_nodes(big):
    an, pos, clusters, labels = big
    ov = overview_of(an, pos, clusters, labels, budget=200)
    hexagon = next(n["id"] for n in ov.view["nodes"]
                   if is_cluster(n["id"]) and is_merged(cluster_of(n["id"])))
    members = {n for n, r in ov.rep.items() if r == hexagon}
    opened = overview_of(an, pos, clusters, labels, budget=200, expanded=[cluster_of(hexagon)])
    ids = {n["id"] for n in opened.view["nodes"]}
    assert members <= ids and hexagon not in ids
    assert opened.info.expanded_nodes == len(members)


def test_collapse_some_is_said_only_when_the_expanded_clusters_overflow(big):
    an, pos, clusters, labels = big
    top = _biggest(clusters, 3)
    size = sum(1 for v in clusters.values() if v in top)
    fits = overview_of(an, pos, clusters, labels, budget=size + 50, expanded=top)
    assert fits.info.drawn_nodes <= size + 50 and not fits.info.over_budget
    assert "collapse some" not in fits.info.sentence(size + 50)
    over = overview_of(an, pos, clusters, labels, budget=size - 1, expanded=top)
    assert over.info.over_budget and over.info.expanded_nodes == size
    assert over.info.drawn_nodes > size - 1
    assert f"take {size} of the {size - 1} nodes: collapse some" in over.info.sentence(size - 1)
    assert CLUSTER_PREFIX + top[0] not in {n["id"] for n in over.view["nodes"]}


def test_expansions_sharing_one_base_equal_fresh_overviews(big):
    """Opening hexagons reuses the view's expansion-independent base (what the explorer
    caches per view): each expansion, in any order, equals the one built from scratch,
    and a node drawn for one expansion is not changed for the next."""
    an, pos, clusters, labels = big
    filters = Filters(show_superseded=False)
    visible = visible_nodes(an, filters)
    base = overview_base(an, pos, clusters, visible=visible, color_by="space",
                         edge_kinds=filters.edge_kinds)
    top = _biggest(clusters, 3)
    for expanded in ([], top[:1], top, top[1:2], []):
        shared = overview_of(an, pos, clusters, labels, visible=visible, color_by="space",
                             budget=300, expanded=expanded, edge_kinds=filters.edge_kinds,
                             base=base)
        _assert_same(shared, _old(an, pos, clusters, labels, visible=visible,
                                  color_by="space", budget=300, expanded=expanded,
                                  edge_kinds=filters.edge_kinds))
