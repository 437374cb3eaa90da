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
    #: nodes drawn because their cluster (or merged hexagon) is expanded
    expanded_nodes: int = 0
    #: small clusters merged into shared hexagons, and how many hexagons they share
    merged_clusters: int = 0
    merged_hexagons: int = 0

    @property
    def active(self) -> bool:
        """True when something is collapsed."""
        return self.collapsed_clusters > 0

    def sentence(self, budget: int) -> str:
        """One line for the page.

        >>> BudgetInfo(10, 10).sentence(20)
        'Drawing all 10 nodes.'
        >>> info = BudgetInfo(500, 130, collapsed_clusters=120, collapsed_nodes=490,
        ...                   merged_clusters=30, merged_hexagons=2)
        >>> "The 30 smallest clusters share 2 hexagons." in info.sentence(130)
        True
        """
        if not self.active:
            return f"Drawing all {self.total_nodes} nodes."
        text = (f"Overview: {self.total_nodes} nodes exceed the drawing budget of {budget}; "
                f"{self.collapsed_nodes} nodes are collapsed into {self.collapsed_clusters} "
                "cluster nodes (hexagons). Click one to expand it, search or select to "
                "draw a node itself, or raise the budget.")
        if self.merged_clusters:
            text += (f" The {self.merged_clusters} smallest clusters share "
                     f"{self.merged_hexagons} hexagon{'s' if self.merged_hexagons != 1 else ''}.")
        if self.over_budget:
            text += (f" The expanded clusters take {self.expanded_nodes} of the {budget} "
                     "nodes: collapse some.")
        return text


def is_cluster(node_id: str | None) -> bool:
    """True for the id of a collapsed cluster node."""
    return bool(node_id) and str(node_id).startswith(CLUSTER_PREFIX)


def cluster_of(node_id: str) -> str:
    """The cluster key inside a cluster node id."""
    return node_id[len(CLUSTER_PREFIX):]


def is_merged(key: str) -> bool:
    """True for the key of a hexagon that holds several small clusters."""
    return key.startswith(MERGED_PREFIX)


@dataclass
class _Group:
    """The members of one collapsed cluster (or merged hexagon), in drawing order."""

    key: str
    ids: list[str] = field(default_factory=list)
    xs: list[float] = field(default_factory=list)
    ys: list[float] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)
    colors: Counter[str] = field(default_factory=Counter)

    def add(self, item: _Item) -> None:
        node_id, _, kind, color, x, y = item
        self.ids.append(node_id)
        self.kinds[kind] += 1
        self.colors[color] += 1
        if x is not None:
            self.xs.append(x)
        if y is not None:
            self.ys.append(y)

    def absorb(self, other: _Group) -> None:
        self.ids += other.ids
        self.xs += other.xs
        self.ys += other.ys
        self.kinds.update(other.kinds)
        self.colors.update(other.colors)

    def centre(self) -> tuple[float, float] | None:
        if not self.xs or not self.ys:
            return None
        return sum(self.xs) / len(self.xs), sum(self.ys) / len(self.ys)


#: one node as the budget sees it: id, cluster key, kind, fill, x, y
_Item = tuple[str, str, str, str, "float | None", "float | None"]


def _super_node(group: _Group, label: str) -> VisNode:
    """The hexagon a collapsed cluster is drawn as, at its members' centre."""
    count = len(group.ids)
    color = group.colors.most_common(1)[0][0]
    parts = ", ".join(f"{n} {k}s" for k, n in sorted(group.kinds.items()))
    node: VisNode = {
        "id": CLUSTER_PREFIX + group.key, "kind": "cluster", "shape": "hexagon",
        "label": f"{label} ({count})",
        "title": f"{label}: {count} nodes ({parts}). Click to expand.",
        "size": round(14 + 6 * math.log2(count), 1),
        "color": {"background": color, "border": "#333333"}, "borderWidth": 2,
        "color_group": group.key,
    }
    centre = group.centre()
    if centre is not None:
        node["x"], node["y"] = round(centre[0], 1), round(centre[1], 1)
    return node


@dataclass
class Overview:
    """A collapsed view and what is needed to draw more nodes on top of it cheaply."""

    view: ViewData
    info: BudgetInfo
    #: node id → the id it is drawn as (itself, or its cluster node)
    rep: dict[str, str]
    #: every node of the full view, by id (built on first use by :func:`overview_of`)
    nodes: Mapping[str, VisNode]
    #: the full view's edges, per node id
    edges_of: Mapping[str, list[VisEdge]]


def _item(node: VisNode, clusters: Mapping[str, str]) -> _Item:
    return (node["id"], clusters.get(node["id"], "") or UNLINKED, node.get("kind", "node"),
            node["color"]["background"], node.get("x"), node.get("y"))


def overview(view: ViewData, clusters: Mapping[str, str], labels: Mapping[str, str], *,
             budget: int = DEFAULT_BUDGET, expanded: Collection[str] = ()) -> Overview:
    """The collapsed view of ``view`` (cache it: it does not depend on the selection).

    Past the budget, each cluster (``clusters``: node id → key, ``""`` = unlinked) that
    is not ``expanded`` is one hexagon; when there are more clusters than the budget
    has room for, the smallest share hexagons by where they lie (:func:`is_merged`
    keys, which expand like clusters), so the overview always fits unless the expanded
    clusters alone fill it.
    """
    nodes = view["nodes"]
    info = BudgetInfo(total_nodes=len(nodes), drawn_nodes=len(nodes))
    by_id = {n["id"]: n for n in nodes}
    edges_of: dict[str, list[VisEdge]] = defaultdict(list)
    for edge in view["edges"]:
        edges_of[edge["from"]].append(edge)
        edges_of[edge["to"]].append(edge)
    if len(nodes) <= budget:
        return Overview(view, info, {n: n for n in by_id}, by_id, edges_of)
    drawn, rep = _collapse([_item(n, clusters) for n in nodes], by_id, labels, info,
                           budget=budget, expanded=expanded)
    edges = _edges(view["edges"], rep)
    small: ViewData = {"nodes": drawn, "edges": edges,
                       "legend": _count_clusters(view["legend"], info.collapsed_clusters)}
    return Overview(small, info, rep, by_id, edges_of)


def _collapse(items: list[_Item], nodes: Mapping[str, VisNode], labels: Mapping[str, str],
              info: BudgetInfo, *, budget: int, expanded: Collection[str]
              ) -> tuple[list[VisNode], dict[str, str]]:
    """The drawn nodes and where each node is drawn; fills in ``info``."""
    open_keys = set(expanded)
    opened: list[str] = []
    groups: dict[str, _Group] = {}
    for item in items:
        key = item[1]
        if key in open_keys:
            opened.append(item[0])
        else:
            group = groups.get(key)
            if group is None:
                group = groups[key] = _Group(key)
            group.add(item)
    own, merged = _plan(groups, budget - len(opened))
    drawn = [nodes[i] for i in opened]
    rep: dict[str, str] = {i: i for i in opened}
    info.expanded_nodes = len(opened)
    hexagons: list[tuple[_Group, str]] = [
        (g, labels.get(g.key, "unlinked nodes" if g.key == UNLINKED else g.key))
        for g in own]
    for group in merged:
        if group.key in open_keys:
            drawn += [nodes[i] for i in group.ids]
            rep.update({i: i for i in group.ids})
            info.expanded_nodes += len(group.ids)
        else:
            hexagons.append((group, f"{group.kinds.total() and len(group.colors) and 0 or 0}"
                             if False else group.key))
    for group, label in hexagons:
        if len(group.ids) == 1:  # a cluster of one is just the node
            drawn.append(nodes[group.ids[0]])
            rep[group.ids[0]] = group.ids[0]
            continue
        drawn.append(_super_node(group, label))
        for m in group.ids:
            rep[m] = CLUSTER_PREFIX + group.key
        info.collapsed_clusters += 1
        info.collapsed_nodes += len(group.ids)
    info.drawn_nodes = len(drawn)
    info.expanded = sorted(open_keys)
    info.over_budget = info.drawn_nodes > budget
    return drawn, rep


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
