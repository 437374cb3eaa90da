"""The drawing budget: past a node count, draw an overview instead of everything.

Clusters (the explorer's default colour groups) that are not expanded collapse into one
super-node each, placed at their members' centre; edges between collapsed parts are
merged into one weighted edge. The selection, its neighbours and search hits are always
drawn as themselves, so selecting, searching and history keep working on the full graph.

Example::

    >>> view = {"nodes": [{"id": "a", "x": 0, "y": 0, "color": {"background": "#fff"}},
    ...                   {"id": "b", "x": 2, "y": 0, "color": {"background": "#fff"}}],
    ...         "edges": [], "legend": {}}
    >>> small, info = apply_budget(view, {"a": "c1", "b": "c1"}, {"c1": "cluster 1"},
    ...                            budget=1)
    >>> [n["id"] for n in small["nodes"]], info.collapsed_nodes
    (['cluster:c1'], 2)
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace

from memscope.view.build import Legend, ViewData, VisEdge, VisNode

CLUSTER_PREFIX = "cluster:"
DEFAULT_BUDGET = 3000
MIN_BUDGET, MAX_BUDGET = 100, 20_000
UNLINKED = "unlinked"


@dataclass
class BudgetInfo:
    """What the overview hides, for the sentence on screen."""

    total_nodes: int
    drawn_nodes: int
    collapsed_clusters: int = 0
    collapsed_nodes: int = 0
    expanded: list[str] = field(default_factory=list)
    over_budget: bool = False

    @property
    def active(self) -> bool:
        """True when something is collapsed."""
        return self.collapsed_clusters > 0

    def sentence(self, budget: int) -> str:
        """One line for the page."""
        if not self.active:
            return f"Drawing all {self.total_nodes} nodes."
        text = (f"Overview: {self.total_nodes} nodes exceed the drawing budget of {budget}; "
                f"{self.collapsed_nodes} nodes are collapsed into {self.collapsed_clusters} "
                "cluster nodes (hexagons). Click one to expand it, search or select to "
                "draw a node itself, or raise the budget.")
        if self.over_budget:
            text += " The expanded clusters alone exceed the budget: collapse some."
        return text


def is_cluster(node_id: str | None) -> bool:
    """True for the id of a collapsed cluster node."""
    return bool(node_id) and str(node_id).startswith(CLUSTER_PREFIX)


def cluster_of(node_id: str) -> str:
    """The cluster key inside a cluster node id."""
    return node_id[len(CLUSTER_PREFIX):]


def _super_node(key: str, label: str, members: list[VisNode]) -> VisNode:
    """The hexagon a collapsed cluster is drawn as, at its members' centre."""
    xs = [m["x"] for m in members if "x" in m]
    ys = [m["y"] for m in members if "y" in m]
    kinds = Counter(m.get("kind", "node") for m in members)
    color = Counter(m["color"]["background"] for m in members).most_common(1)[0][0]
    parts = ", ".join(f"{n} {k}s" for k, n in sorted(kinds.items()))
    node: VisNode = {
        "id": CLUSTER_PREFIX + key, "kind": "cluster", "shape": "hexagon",
        "label": f"{label} ({len(members)})",
        "title": f"{label}: {len(members)} nodes ({parts}). Click to expand.",
        "size": round(14 + 6 * math.log2(len(members)), 1),
        "color": {"background": color, "border": "#333333"}, "borderWidth": 2,
        "color_group": key,
    }
    if xs and ys:
        node["x"], node["y"] = round(sum(xs) / len(xs), 1), round(sum(ys) / len(ys), 1)
    return node


@dataclass
class Overview:
    """A collapsed view and what is needed to draw more nodes on top of it cheaply."""

    view: ViewData
    info: BudgetInfo
    #: node id → the id it is drawn as (itself, or its cluster node)
    rep: dict[str, str]
    #: every node of the full view, by id
    nodes: dict[str, VisNode]
    #: the full view's edges, per node id
    edges_of: dict[str, list[VisEdge]]


def overview(view: ViewData, clusters: Mapping[str, str], labels: Mapping[str, str], *,
             budget: int = DEFAULT_BUDGET, expanded: Collection[str] = ()) -> Overview:
    """The collapsed view of ``view`` (cache it: it does not depend on the selection)."""
    nodes = view["nodes"]
    info = BudgetInfo(total_nodes=len(nodes), drawn_nodes=len(nodes))
    by_id = {n["id"]: n for n in nodes}
    edges_of: dict[str, list[VisEdge]] = defaultdict(list)
    for edge in view["edges"]:
        edges_of[edge["from"]].append(edge)
        edges_of[edge["to"]].append(edge)
    if len(nodes) <= budget:
        return Overview(view, info, {n: n for n in by_id}, by_id, edges_of)
    open_keys = set(expanded)
    drawn: list[VisNode] = []
    groups: dict[str, list[VisNode]] = defaultdict(list)
    for node in nodes:
        key = clusters.get(node["id"], "") or UNLINKED
        (drawn if key in open_keys else groups[key]).append(node)
    rep: dict[str, str] = {n["id"]: n["id"] for n in drawn}
    for key, members in groups.items():
        if len(members) == 1:  # a cluster of one is just the node
            drawn.append(members[0])
            rep[members[0]["id"]] = members[0]["id"]
            continue
        label = labels.get(key, "unlinked nodes" if key == UNLINKED else key)
        drawn.append(_super_node(key, label, members))
        for m in members:
            rep[m["id"]] = CLUSTER_PREFIX + key
        info.collapsed_clusters += 1
        info.collapsed_nodes += len(members)
    edges = _edges(view["edges"], rep)
    info.drawn_nodes = len(drawn)
    info.expanded = sorted(open_keys)
    info.over_budget = info.drawn_nodes > budget
    small: ViewData = {"nodes": drawn, "edges": edges,
                       "legend": _count_clusters(view["legend"], info.collapsed_clusters)}
    return Overview(small, info, rep, by_id, edges_of)


def _count_clusters(legend: Legend, clusters: int) -> Legend:
    """A copy of ``legend`` whose ``cluster`` shape counts the collapsed clusters (the
    other counts stay those of the full view: every node is in some cluster's count).

    >>> from memscope.view.build import legend_styles
    >>> shapes = legend_styles()[0]
    >>> [s["count"] for s in _count_clusters({"shapes": shapes}, 3)["shapes"]]
    [0, 0, 0, 3]
    """
    if "shapes" not in legend:
        return legend
    out = legend.copy()
    out["shapes"] = [{**s, "count": clusters} if s["key"] == "cluster" else s
                     for s in legend["shapes"]]
    return out


def _edges(full: list[VisEdge], rep: Mapping[str, str]) -> list[VisEdge]:
    """Edges between drawn nodes as they are; the rest merged per pair of drawn ends."""
    edges: list[VisEdge] = []
    merged: Counter[tuple[str, str]] = Counter()
    for edge in full:
        a, b = rep.get(edge["from"]), rep.get(edge["to"])
        if a is None or b is None or a == b:
            continue
        if a == edge["from"] and b == edge["to"]:
            edges.append(edge)
        else:
            merged[(a, b)] += 1
    for (a, b), count in sorted(merged.items()):
        edges.append({"id": f"agg:{a}->{b}", "from": a, "to": b, "kind": "merged",
                      "color": {"color": "#AAAAAA"}, "width": round(1 + math.log2(count), 1),
                      "title": f"{count} links"})
    return edges


def with_kept(ov: Overview, keep: Collection[str]) -> tuple[ViewData, BudgetInfo]:
    """``ov`` plus ``keep`` drawn as themselves, with their own edges.

    Cheap: it touches only the kept nodes' edges. The cluster nodes keep their counts
    (a kept node is also counted in its cluster's total).
    """
    extra = [k for k in dict.fromkeys(keep) if k in ov.nodes and ov.rep.get(k) != k]
    if not extra:
        return ov.view, ov.info
    rep = dict(ov.rep)
    rep.update({k: k for k in extra})
    nodes = list(ov.view["nodes"]) + [ov.nodes[k] for k in extra]
    seen = {e["id"] for e in ov.view["edges"]}
    local: dict[str, VisEdge] = {}
    for k in extra:
        for edge in ov.edges_of.get(k, ()):
            local[edge["id"]] = edge
    added = [e for e in _edges(list(local.values()), rep) if e["id"] not in seen]
    info = replace(ov.info, drawn_nodes=ov.info.drawn_nodes + len(extra))
    return ({"nodes": nodes, "edges": list(ov.view["edges"]) + added,
             "legend": ov.view["legend"]}, info)


def apply_budget(view: ViewData, clusters: Mapping[str, str], labels: Mapping[str, str], *,
                 budget: int = DEFAULT_BUDGET, expanded: Collection[str] = (),
                 keep: Collection[str] = ()) -> tuple[ViewData, BudgetInfo]:
    """``view`` itself when it fits ``budget``; otherwise the overview described above.

    ``clusters`` maps node id → cluster key (``""`` = unlinked), ``labels`` key → name,
    ``expanded`` lists cluster keys drawn in full and ``keep`` node ids always drawn.
    The input view is not changed.
    """
    return with_kept(overview(view, clusters, labels, budget=budget, expanded=expanded),
                     keep)
