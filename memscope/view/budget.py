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
from collections import ChainMap, Counter, defaultdict
from collections.abc import Callable, Collection, Hashable, Iterator, Mapping
from dataclasses import dataclass, field, replace

from memscope.graph.analysis import Analysis
from memscope.graph.build import EDGE_KINDS
from memscope.records.text import counted
from memscope.view.build import (
    ColorBy,
    Groups,
    Legend,
    Painter,
    ViewData,
    VisEdge,
    VisNode,
    build_view,
    vis_edge,
)
from memscope.view.edges import keep_edge_kinds
from memscope.view.hexagons import HEX_LABEL_H, hexagon_box, hexagon_size
from memscope.view.lines import Lines, chain_lines

CLUSTER_PREFIX = "cluster:"
DEFAULT_BUDGET = 3000
MIN_BUDGET, MAX_BUDGET = 100, 20_000
UNLINKED = "unlinked"
#: the key of a hexagon holding several small clusters starts with this
MERGED_PREFIX = "small-clusters:"
#: past the budget's room, one merged hexagon per this many places
MERGE_SHARE = 100


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
    parts = ", ".join(counted(n, k) for k, n in sorted(group.kinds.items()))
    node: VisNode = {
        "id": CLUSTER_PREFIX + group.key, "kind": "cluster", "shape": "hexagon",
        "label": f"{label} ({count})",
        "title": f"{label}: {count} nodes ({parts}). Click to expand.",
        "size": hexagon_size(count),
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
    #: the full view's legend (``view``'s counts its collapsed clusters) and edge count
    legend: Legend | None = None
    total_edges: int = 0
    #: whether an edge drawn merged is left out: a document's link to its versions along
    #: its line (:mod:`memscope.view.lines`; the line says it, no spokes)
    unspoken: Callable[[str, str, str], bool] | None = None


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
    edges_of = _EdgesByNode(view["edges"])
    if len(nodes) <= budget:
        return Overview(view, info, {n: n for n in by_id}, by_id, edges_of,
                        view["legend"], len(view["edges"]))
    drawn, rep = _collapse([_item(n, clusters) for n in nodes], by_id, labels, info,
                           budget=budget, expanded=expanded)
    edges = _edges(view["edges"], rep)
    small: ViewData = {"nodes": drawn, "edges": edges,
                       "legend": _count_clusters(view["legend"], info.collapsed_clusters)}
    return Overview(small, info, rep, by_id, edges_of, view["legend"], len(view["edges"]))


def _grouped(items: list[_Item]) -> dict[str, _Group]:
    """``items`` grouped by cluster key, the keys in first-seen order (read only after:
    :class:`OverviewBase` shares them between expansions)."""
    groups: dict[str, _Group] = {}
    for item in items:
        key = item[1]
        group = groups.get(key)
        if group is None:
            group = groups[key] = _Group(key)
        group.add(item)
    return groups


def _collapse(items: list[_Item], nodes: Mapping[str, VisNode], labels: Mapping[str, str],
              info: BudgetInfo, *, budget: int, expanded: Collection[str],
              grouped: Mapping[str, _Group] | None = None
              ) -> tuple[list[VisNode], dict[str, str]]:
    """The drawn nodes and where each node is drawn; fills in ``info``. ``grouped`` is
    :func:`_grouped` of ``items`` when already made (an expansion then only regroups the
    clusters, not every node)."""
    open_keys = set(expanded)
    if grouped is None:
        grouped = _grouped(items)
    groups = {k: g for k, g in grouped.items() if k not in open_keys}
    opened = ([item[0] for item in items if item[1] in open_keys]
              if open_keys & grouped.keys() else [])
    own, merged = _plan(groups, budget - len(opened))
    drawn = [nodes[i] for i in opened]
    rep: dict[str, str] = {i: i for i in opened}
    info.expanded_nodes = len(opened)
    hexagons: list[tuple[_Group, str]] = [(g, _label(g.key, labels)) for g in own]
    for group, count in merged:
        if count == 1:  # alone in its place: still itself
            hexagons.append((group, _label(group.key, labels)))
        elif group.key in open_keys:
            drawn += [nodes[i] for i in group.ids]
            rep.update({i: i for i in group.ids})
            info.expanded_nodes += len(group.ids)
        else:
            hexagons.append((group, f"{count} small clusters"))
            info.merged_clusters += count
            info.merged_hexagons += 1
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
    spread([n for n in drawn if n.get("kind") == "cluster" and "x" in n and "y" in n])
    info.drawn_nodes = len(drawn)
    info.expanded = sorted(open_keys)
    info.over_budget = info.drawn_nodes > budget
    return drawn, rep


def spread(hexagons: list[VisNode], rounds: int = 200) -> None:
    """Moves ``hexagons`` (placed cluster nodes, changed in place) apart until no two
    boxes overlap, each box the hexagon with its label under it and the gap around it
    (:func:`~memscope.view.hexagons.hexagon_box`): a pair that overlaps is pushed apart
    along the axis it overlaps least, each by half. Deterministic; a 20,000-version
    chain's 139 hexagons, laid on one disk by their members' centres, come apart in a
    few dozen rounds.

    >>> a = {"x": 0.0, "y": 0.0, "size": 20.0, "label": "a"}
    >>> b = {"x": 5.0, "y": 0.0, "size": 20.0, "label": "b"}
    >>> from memscope.view.hexagons import HEX_GAP
    >>> spread([a, b]); b["x"] - a["x"] >= 2 * 20 + HEX_GAP
    True
    """
    n = len(hexagons)
    if n < 2:
        return
    boxes = [hexagon_box(float(h["size"]), str(h.get("label", ""))) for h in hexagons]
    hw = [b[0] / 2 for b in boxes]
    hh = [b[1] / 2 for b in boxes]
    xs = [float(h.get("x", 0.0)) for h in hexagons]
    ys = [float(h.get("y", 0.0)) + HEX_LABEL_H / 2 for h in hexagons]  # the box's centre
    cell = 2 * max(max(hw), max(hh))
    for _ in range(rounds):
        grid: dict[tuple[int, int], list[int]] = defaultdict(list)
        for i in range(n):
            grid[(math.floor(xs[i] / cell), math.floor(ys[i] / cell))].append(i)
        moved = False
        for (gx, gy), members in grid.items():
            near = [j for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                    for j in grid.get((gx + dx, gy + dy), ())]
            for i in members:
                for j in near:
                    if j <= i:
                        continue
                    dx, dy = xs[j] - xs[i], ys[j] - ys[i]
                    ox = hw[i] + hw[j] - abs(dx)
                    oy = hh[i] + hh[j] - abs(dy)
                    if ox <= 0 or oy <= 0:
                        continue
                    moved = True
                    if ox <= oy:
                        step = (ox / 2 + 0.5) * (1 if dx > 0 or (dx == 0 and i % 2) else -1)
                        xs[i] -= step
                        xs[j] += step
                    else:
                        step = (oy / 2 + 0.5) * (1 if dy > 0 or (dy == 0 and i % 2) else -1)
                        ys[i] -= step
                        ys[j] += step
        if not moved:
            break
    for i, h in enumerate(hexagons):
        h["x"], h["y"] = round(xs[i], 1), round(ys[i] - HEX_LABEL_H / 2, 1)


def _label(key: str, labels: Mapping[str, str]) -> str:
    return labels.get(key, "unlinked nodes" if key == UNLINKED else key)


def _plan(groups: Mapping[str, _Group], room: int
          ) -> tuple[list[_Group], list[tuple[_Group, int]]]:
    """The clusters drawn as hexagons of their own (in first-seen order) and, when there
    are more than ``room``, the smallest ones merged by place into
    ``max(1, room // MERGE_SHARE)`` hexagons (each with how many clusters it holds)."""
    values = list(groups.values())
    if len(values) <= room:
        return values, []
    shares = max(1, room // MERGE_SHARE)
    order = sorted(range(len(values)), key=lambda i: (-len(values[i].ids), i))
    kept = set(order[:max(0, room - shares)])
    own = [g for i, g in enumerate(values) if i in kept]
    small = [g for i, g in enumerate(values) if i not in kept]
    return own, _merge(small, shares)


def _merge(small: list[_Group], shares: int) -> list[tuple[_Group, int]]:
    """``small`` grouped by place into at most ``shares`` hexagons, about as many
    clusters in each: rows by height, each row cut by width (clusters without a
    position share one more); in row order, each with how many clusters it holds."""
    cells: dict[int, list[_Group]] = defaultdict(list)
    located = [(g, c) for g in small if (c := g.centre()) is not None]
    grid = shares - 1 if len(located) < len(small) else shares
    placed: set[int] = set()
    if grid >= 1 and located:
        w = (max(c[0] for _, c in located) - min(c[0] for _, c in located)) or 1.0
        h = (max(c[1] for _, c in located) - min(c[1] for _, c in located)) or 1.0
        cols = max(1, min(grid, round(math.sqrt(grid * w / h))))
        rows = max(1, grid // cols)
        by_height = sorted(located, key=lambda gc: (gc[1][1], gc[1][0]))
        for r, row in enumerate(_chunks(by_height, rows)):
            for c, part in enumerate(_chunks(sorted(row, key=lambda gc: gc[1][0]), cols)):
                cells[1 + r * cols + c] = [g for g, _ in part]
                placed.update(id(g) for g, _ in part)
    for g in small:
        if id(g) not in placed:
            cells[0].append(g)
    out: list[tuple[_Group, int]] = []
    for cell in sorted(cells):
        members = cells[cell]
        if len(members) == 1:
            out.append((members[0], 1))
            continue
        bucket = _Group(f"{MERGED_PREFIX}{cell}")
        for g in members:
            bucket.absorb(g)
        out.append((bucket, len(members)))
    return out


def _chunks(items: list, n: int) -> list[list]:
    """``items`` cut into at most ``n`` consecutive runs of (nearly) equal length.

    >>> _chunks([1, 2, 3, 4, 5], 2), _chunks([1], 3)
    ([[1, 2, 3], [4, 5]], [[1]])
    """
    size = -(-len(items) // max(1, n))
    return [items[i:i + size] for i in range(0, len(items), size)]


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


def _edges(full: list[VisEdge], rep: Mapping[str, str],
           unspoken: Callable[[str, str, str], bool] | None = None) -> list[VisEdge]:
    """Edges between drawn nodes as they are; the rest merged per pair of drawn ends
    (less those ``unspoken(kind, from, to)`` leaves out)."""
    edges: list[VisEdge] = []
    merged: Counter[tuple[str, str]] = Counter()
    for edge in full:
        a, b = rep.get(edge["from"]), rep.get(edge["to"])
        if a is None or b is None or a == b:
            continue
        if a == edge["from"] and b == edge["to"]:
            edges.append(edge)
        elif unspoken is None or not unspoken(edge["kind"], edge["from"], edge["to"]):
            merged[(a, b)] += 1
    return edges + _merged_edges(merged)


def _merged_edges(merged: Counter[tuple[str, str]]) -> list[VisEdge]:
    """One weighted edge per pair of drawn ends, in pair order."""
    return [{"id": f"agg:{a}->{b}", "from": a, "to": b, "kind": "merged",
             "color": {"color": "#AAAAAA"}, "width": round(1 + math.log2(count), 1),
             "title": f"{count} links"} for (a, b), count in sorted(merged.items())]


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
    added = [e for e in _edges(list(local.values()), rep, ov.unspoken)
             if e["id"] not in seen]
    info = replace(ov.info, drawn_nodes=ov.info.drawn_nodes + len(extra))
    return ({"nodes": nodes, "edges": list(ov.view["edges"]) + added,
             "legend": ov.view["legend"]}, info)


def with_extra(ov: Overview, painter: Painter, node_id: str, *,
               visible: Collection[str], edge_kinds: Collection[str] | None = None
               ) -> Overview:
    """``ov`` with ``node_id`` — a node its filters hide (e.g. the selection) — drawn on
    top as itself, with its edges to the shown nodes: the overview (and its caches) stay
    those of the filters alone. ``painter`` draws the node (the view's own)."""
    g = painter.analysis.graph.graph
    if node_id in ov.nodes or node_id not in g:
        return ov
    keep = None if edge_kinds is None or set(edge_kinds) >= set(EDGE_KINDS) \
        else set(edge_kinds)
    shown = set(visible) | {node_id}
    own = [vis_edge(g, i, u, v, data)
           for i, (u, v, data) in enumerate(g.edges(data=True))
           if node_id in (u, v) and u in shown and v in shown
           and (keep is None or data["kind"] in keep)]
    node = painter.node(node_id)
    rep = {**ov.rep, node_id: node_id}
    seen = {e["id"] for e in ov.view["edges"]}
    added = [e for e in _edges(own, rep, ov.unspoken) if e["id"] not in seen]
    view: ViewData = {"nodes": [*ov.view["nodes"], node],
                      "edges": [*ov.view["edges"], *added], "legend": ov.view["legend"]}
    info = replace(ov.info, total_nodes=ov.info.total_nodes + 1,
                   drawn_nodes=ov.info.drawn_nodes + 1)
    # its neighbours' edges gain the ones to it, so drawing a neighbour as itself later
    # (with_kept) links the two
    touching: dict[str, list[VisEdge]] = {node_id: own}
    for e in own:
        for end in (e["from"], e["to"]):
            if end != node_id:
                touching.setdefault(end, list(ov.edges_of.get(end, ()))).append(e)
    return replace(ov, view=view, info=info, rep=rep,
                   nodes=ChainMap({node_id: node}, ov.nodes),  # type: ignore[arg-type]
                   edges_of=ChainMap(touching, ov.edges_of))  # type: ignore[arg-type]


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


class _EdgesByNode(Mapping[str, list[VisEdge]]):
    """A view's edges per node id, indexed on first use (a view that fits the budget
    never asks: every node is drawn as itself)."""

    def __init__(self, edges: list[VisEdge]) -> None:
        self._edges = edges
        self._index: dict[str, list[VisEdge]] | None = None

    @property
    def _by_node(self) -> dict[str, list[VisEdge]]:
        if self._index is None:
            index: dict[str, list[VisEdge]] = defaultdict(list)
            for edge in self._edges:
                index[edge["from"]].append(edge)
                index[edge["to"]].append(edge)
            self._index = dict(index)
        return self._index

    def __getitem__(self, node_id: str) -> list[VisEdge]:
        return self._by_node[node_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_node)

    def __len__(self) -> int:
        return len(self._by_node)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._by_node


class _LazyNodes(Mapping[str, VisNode]):
    """The full view's nodes by id, each drawn on first use (and kept)."""

    def __init__(self, ids: list[str], draw: Callable[[str], VisNode]) -> None:
        self._ids = dict.fromkeys(ids)
        self._draw = draw
        self._drawn: dict[str, VisNode] = {}

    def __getitem__(self, node_id: str) -> VisNode:
        node = self._drawn.get(node_id)
        if node is None:
            if node_id not in self._ids:
                raise KeyError(node_id)
            node = self._drawn[node_id] = self._draw(node_id)
        return node

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._ids


_Passed = tuple[int, Hashable, Hashable, Mapping]


class _LazyEdges(Mapping[str, list[VisEdge]]):
    """The full view's edges per node id, indexed and drawn on first use."""

    def __init__(self, analysis: Analysis, passed: list[_Passed]) -> None:
        self._g = analysis.graph.graph
        self._passed = passed
        self._index: dict[str, list[int]] | None = None
        self._drawn: dict[int, VisEdge] = {}

    @property
    def _touching(self) -> dict[str, list[int]]:
        if self._index is None:
            index: dict[str, list[int]] = defaultdict(list)
            for at, (_, u, v, _) in enumerate(self._passed):
                index[u].append(at)  # type: ignore[index]
                index[v].append(at)  # type: ignore[index]
            self._index = dict(index)
        return self._index

    def _edge(self, at: int) -> VisEdge:
        edge = self._drawn.get(at)
        if edge is None:
            i, u, v, data = self._passed[at]
            edge = self._drawn[at] = vis_edge(self._g, i, u, v, data)
        return edge

    def __getitem__(self, node_id: str) -> list[VisEdge]:
        return [self._edge(at) for at in self._touching[node_id]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._touching)

    def __len__(self) -> int:
        return len(self._touching)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._touching


@dataclass
class OverviewBase:
    """What an overview past the budget needs that does not depend on which clusters are
    expanded (:func:`overview_base`): compute it once per view and share it between
    expansions, so opening a hexagon only regroups and reconnects."""

    #: each shown node as the budget sees it, in graph order
    items: list[_Item]
    #: every shown node, drawn on first use (and kept)
    nodes: Mapping[str, VisNode]
    #: the edges that pass the filters (index in the graph, ends, data)
    passed: list[_Passed]
    #: the full view's legend
    legend: Legend
    edges: Mapping[str, list[VisEdge]]
    #: ``items`` grouped by cluster key (:func:`_grouped`; read only)
    groups: Mapping[str, _Group]
    #: the long chains laid along lines (:mod:`memscope.view.lines`): ``items`` and
    #: ``nodes`` are at the moved positions
    lines: Lines = field(default_factory=Lines)


def overview_base(analysis: Analysis, positions: Mapping[Hashable, tuple[float, float]] | None,
                  clusters: Mapping[str, str], *, visible: Collection[str] | None = None,
                  color_by: ColorBy = "cluster", edge_kinds: Collection[str] | None = None,
                  clustering: Groups | None = None,
                  depending: Mapping[Hashable, int] | None = None) -> OverviewBase:
    """The expansion-independent part of :func:`overview_of`: with the long chains'
    clusters laid along lines (their members moved with them)."""
    shown = None if visible is None else set(visible)
    lines = (chain_lines(analysis.graph.graph, positions, clusters,
                         clustering[1] if clustering is not None else {}, shown=shown)
             if positions else Lines())
    if lines and positions:
        positions = lines.positions(positions)
    painter = Painter(analysis, color_by, positions, clustering, depending)
    items, counts = _items(analysis, painter, clusters, shown)
    passed, all_kinds, kept_kinds = _passed_edges(analysis, shown, edge_kinds)
    kinds, states, static, groups, inferred = counts
    legend = painter.legend(kinds, states, static, groups, all_kinds, inferred=inferred)
    if kept_kinds is not None:  # as keep_edge_kinds counts them
        legend["edges"] = {k: kept_kinds.get(k, 0) for k in legend["edges"]}
    return OverviewBase(items, _LazyNodes([it[0] for it in items], painter.node), passed,
                        legend, _LazyEdges(analysis, passed), _grouped(items), lines)


def overview_of(analysis: Analysis, positions: Mapping[Hashable, tuple[float, float]] | None,
                clusters: Mapping[str, str], labels: Mapping[str, str], *,
                visible: Collection[str] | None = None, color_by: ColorBy = "cluster",
                budget: int = DEFAULT_BUDGET, expanded: Collection[str] = (),
                edge_kinds: Collection[str] | None = None,
                base: OverviewBase | None = None, clustering: Groups | None = None,
                depending: Mapping[Hashable, int] | None = None) -> Overview:
    """The same :class:`Overview` as ``overview(keep_edge_kinds(build_view(analysis,
    color_by=color_by, visible=visible, positions=positions), edge_kinds), clusters,
    labels, budget=budget, expanded=expanded)``, built straight from the graph, the
    positions and the clusters: past the budget only the drawn nodes are built (the
    others on first use, e.g. by :func:`with_kept`), and a long chain's clusters lie
    along a line (:mod:`memscope.view.lines`; ``overview`` leaves them where they are).
    ``base``, when given, is :func:`overview_base` of the same arguments (shared between
    expansions); ``clustering``
    the clusters to colour by and ``depending`` the memories' dependents
    (:class:`~memscope.view.build.Painter`: default, the graph's own).

    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> an = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": "a", "memory": "x"}, {"id": "b", "memory": "y"}]}]}]))
    >>> ov = overview_of(an, None, {"d": "c1", "a": "c1", "b": "c1"}, {"c1": "notes"},
    ...                  budget=1)
    >>> [n["label"] for n in ov.view["nodes"]], ov.info.collapsed_nodes, ov.rep["a"]
    (['notes (3)'], 3, 'cluster:c1')
    """
    g = analysis.graph.graph
    if base is not None:  # its items are the shown nodes: no scan of the whole graph
        count = len(base.items)
    elif visible is None:
        count = g.number_of_nodes()
    else:
        shown = visible if isinstance(visible, (set, frozenset)) else set(visible)
        count = sum(1 for n in g if n in shown)
    if count <= budget:
        view = keep_edge_kinds(build_view(analysis, color_by=color_by, visible=visible,
                                          positions=positions, groups=clustering,
                                          depending=depending), edge_kinds)
        return overview(view, clusters, labels, budget=budget, expanded=expanded)
    if base is None:
        base = overview_base(analysis, positions, clusters, visible=visible,
                             color_by=color_by, edge_kinds=edge_kinds,
                             clustering=clustering, depending=depending)
    items = base.items
    info = BudgetInfo(total_nodes=len(items), drawn_nodes=len(items))
    drawn, rep = _collapse(items, base.nodes, labels, info, budget=budget, expanded=expanded,
                           grouped=base.groups)
    edges: list[VisEdge] = []
    merged: Counter[tuple[str, str]] = Counter()
    unspoken = _unspoken(base.lines)
    for i, u, v, data in base.passed:
        a, b = rep.get(u), rep.get(v)  # type: ignore[arg-type]
        if a is None or b is None or a == b:
            continue
        if a == u and b == v:
            edges.append(vis_edge(g, i, u, v, data))
        elif unspoken is None or not unspoken(data["kind"], u, v):  # type: ignore[arg-type]
            merged[(a, b)] += 1
    small: ViewData = {"nodes": drawn, "edges": edges + _merged_edges(merged),
                       "legend": _count_clusters(base.legend, info.collapsed_clusters)}
    return Overview(small, info, rep, base.nodes, base.edges, base.legend,
                    len(base.passed), unspoken)


def _unspoken(lines: Lines) -> Callable[[str, str, str], bool] | None:
    """Whether an edge (kind, from, to) drawn merged is a document's link to one of its
    versions along its line, left out (``None`` when no chain is laid along a line)."""
    if not lines:
        return None
    line_of = {key: i for i, line in enumerate(lines.lines) for key in line}
    clusters = lines.clusters

    def unspoken(kind: str, u: str, v: str) -> bool:
        if kind != "source":
            return False
        a, b = clusters.get(u, ""), clusters.get(v, "")
        return a != b and a in line_of and line_of[a] == line_of.get(b)
    return unspoken


def _items(analysis: Analysis, painter: Painter, clusters: Mapping[str, str],
           shown: set[str] | None
           ) -> tuple[list[_Item], tuple[Counter[str], Counter[str], int, Counter[str], int]]:
    """Each shown node as the budget sees it, in graph order, and the legend's node
    counts (per kind, per state, static, per colour group, inferred)."""
    positions = painter.positions or {}
    memories = analysis.dataset.memories
    keys, fill, state_of = painter.keys, painter.fill, analysis.state
    kinds: list[str] = []
    states: list[str] = []
    groups: list[str] = []
    static = inferred = 0
    items: list[_Item] = []
    for node_id, attrs in analysis.graph.graph.nodes(data=True):
        if shown is not None and node_id not in shown:
            continue
        kind = attrs["kind"]
        state = state_of(node_id) if kind == "memory" else None
        group = keys.get(node_id, "")
        kinds.append(kind)
        groups.append(group)
        if state is not None:
            states.append(state)
            static += memories[node_id].is_static
            inferred += memories[node_id].is_inference
        xy = positions.get(node_id)
        x, y = (None, None) if xy is None else (round(float(xy[0]), 1), round(float(xy[1]), 1))
        items.append((str(node_id), clusters.get(str(node_id), "") or UNLINKED, kind,
                      fill(kind, state, group), x, y))
    return items, (Counter(kinds), Counter(states), static, Counter(groups), inferred)


def _passed_edges(analysis: Analysis, shown: set[str] | None,
                  edge_kinds: Collection[str] | None
                  ) -> tuple[list[_Passed], Counter[str], Counter[str] | None]:
    """The full view's edges (index in the graph, ends, data), and the edges per kind
    before the kind filter and after it (``None``: no filter)."""
    keep = (None if edge_kinds is None or set(edge_kinds) >= set(EDGE_KINDS)
            else set(edge_kinds))
    passed: list[_Passed] = [
        (i, u, v, data) for i, (u, v, data) in enumerate(analysis.graph.graph.edges(data=True))
        if shown is None or (u in shown and v in shown)]
    all_kinds = Counter([p[3]["kind"] for p in passed])
    if keep is None:
        return passed, all_kinds, None
    passed = [p for p in passed if p[3]["kind"] in keep]
    return passed, all_kinds, Counter([p[3]["kind"] for p in passed])
