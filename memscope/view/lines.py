"""A long version chain in the overview, laid along a line from its document.

Past the drawing budget each cluster is one hexagon at its members' centre
(:mod:`memscope.view.budget`). A chain of thousands of versions is split by the clustering
into many clusters, consecutive stretches of the chain linked one to the next by
``updates``; at their members' centres (a force layout folds a long chain into a disk)
their hexagons pile onto one disk with the document's spokes through them. Here the
clusters of such a chain — a path of at least :data:`LINE_MIN` clusters, each linked by
``updates`` to at most two others — get places along a line instead: in chain order from
the cluster that holds its document, folded into rows (left to right, then right to left)
so the line fills a canvas :data:`~memscope.view.layout.ASPECT` times wider than tall,
one hexagon's box apart. Each member of a placed cluster moves with it (its offset from
the cluster's centre kept, shrunk to at most :data:`CLOUD` places across), so an expanded
cluster or a selected version is drawn where its hexagon was, and the hexagon, at its
members' centre, lands on its place.

>>> import networkx as nx
>>> g = nx.MultiDiGraph()
>>> ids = [f"v{i}" for i in range(12)]
>>> g.add_node("d", kind="document")
>>> for i, v in enumerate(ids):
...     g.add_node(v, kind="memory")
...     _ = g.add_edge("d", v, kind="source")
...     if i:
...         _ = g.add_edge(v, ids[i - 1], kind="updates")
>>> clusters = {"d": "c0", **{v: f"c{i}" for i, v in enumerate(ids)}}
>>> positions = {n: (0.0, 0.0) for n in g}
>>> line = chain_lines(g, positions, clusters, {})
>>> line.lines[0][:3]   # from the cluster that holds the document
['c0', 'c1', 'c2']
>>> moved = line.positions(positions)
>>> abs(moved["v1"][0] - moved["v0"][0] - line.step[0]) < 0.2   # a box along row one
True
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

import networkx as nx

from memscope.view.hexagons import hexagon_box, hexagon_size
from memscope.view.layout import ASPECT, Position

#: a path of at least this many clusters is laid along a line
LINE_MIN = 8
#: a placed cluster's members stay within this many places across (they keep their
#: shape, shrunk; an expanded cluster then covers its neighbours' places, not the map)
CLOUD = 3.0


@dataclass
class Lines:
    """The places of the clusters of long chains, and how their members move."""

    #: node id → cluster key (``""`` = unlinked), as :func:`chain_lines` was given
    clusters: Mapping[str, str] = field(default_factory=dict, repr=False)
    #: cluster key → its place (the hexagon's centre)
    places: dict[str, Position] = field(default_factory=dict)
    #: cluster key → (its members' centre, the factor their offsets are shrunk by)
    centres: dict[str, tuple[Position, float]] = field(default_factory=dict)
    #: the distance from one place to the next along a row, and from row to row
    step: Position = (0.0, 0.0)
    #: each line's clusters in chain order, from its document
    lines: list[list[str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.places)

    def positions(self, positions: Mapping[Hashable, Position]) -> dict[Hashable, Position]:
        """``positions`` with each member of a placed cluster moved with its cluster."""
        keys = self.clusters
        out: dict[Hashable, Position] = dict(positions)
        for node, (x, y) in positions.items():
            key = keys.get(str(node))
            if key is None or key not in self.places:
                continue
            (cx, cy), shrink = self.centres[key]
            px, py = self.places[key]
            out[node] = (round(px + (x - cx) * shrink, 1), round(py + (y - cy) * shrink, 1))
        return out


def _box(count: int, label: str) -> Position:
    """The box of a hexagon of ``count`` members named ``label`` (its drawn label adds
    " (count)")."""
    return hexagon_box(hexagon_size(count), f"{label} ({count})")


def _paths(links: Mapping[str, set[str]]) -> list[list[str]]:
    """The components of the cluster graph ``links`` that are simple paths of at least
    :data:`LINE_MIN` clusters, each from one end to the other."""
    out: list[list[str]] = []
    seen: set[str] = set()
    for start in sorted(links):
        if start in seen:
            continue
        comp: set[str] = set()
        stack = [start]
        while stack:
            k = stack.pop()
            if k in comp:
                continue
            comp.add(k)
            stack.extend(links[k] - comp)
        seen |= comp
        if len(comp) < LINE_MIN or any(len(links[k]) > 2 for k in comp):
            continue
        ends = sorted(k for k in comp if len(links[k]) == 1)
        if len(ends) != 2:  # a ring
            continue
        path, prev = [ends[0]], None
        while len(path) < len(comp):
            nxt = next(iter(links[path[-1]] - {prev} - {path[-1]}))
            prev = path[-1]
            path.append(nxt)
        out.append(path)
    return out


def chain_lines(graph: nx.MultiDiGraph, positions: Mapping[Hashable, Position],
                clusters: Mapping[str, str], labels: Mapping[str, str], *,
                shown: set[str] | frozenset[str] | None = None) -> Lines:
    """The places of the clusters of each long chain among the ``shown`` nodes of
    ``graph`` (``clusters``: node id → key, ``""`` = unlinked; ``labels``: key → name,
    for the width of its hexagon's label; ``positions``: where the layout put each node,
    the line is centred where its clusters were)."""
    links: dict[str, set[str]] = defaultdict(set)
    for u, v, data in graph.edges(data=True):
        if data.get("kind") != "updates" or (shown is not None
                                             and (u not in shown or v not in shown)):
            continue
        a, b = clusters.get(str(u), ""), clusters.get(str(v), "")
        if a and b and a != b:
            links[a].add(b)
            links[b].add(a)
    paths = _paths(links)
    if not paths:
        return Lines()
    wanted = {k for p in paths for k in p}
    members: dict[str, list[Position]] = defaultdict(list)
    documents: set[str] = set()
    for node, kind in graph.nodes(data="kind"):
        key = clusters.get(str(node), "")
        if key not in wanted or (shown is not None and node not in shown):
            continue
        xy = positions.get(node)
        if xy is not None:
            members[key].append((float(xy[0]), float(xy[1])))
        if kind == "document":
            documents.add(key)
    out = Lines(clusters)
    for path in paths:
        if path[-1] in documents and path[0] not in documents:
            path.reverse()  # from the cluster that holds the document
        _place(out, path, members, labels)
    return out


def _place(out: Lines, path: list[str], members: Mapping[str, list[Position]],
           labels: Mapping[str, str]) -> None:
    """Lay ``path`` (cluster keys in chain order) in rows into ``out``."""
    boxes = [_box(len(members.get(k, ())), labels.get(k, k)) for k in path]
    w = max(b[0] for b in boxes)
    h = max(b[1] for b in boxes)
    n = len(path)
    cols = max(1, min(n, round(math.sqrt(n * ASPECT * h / w))))
    rows = -(-n // cols)
    points = [p for k in path for p in members.get(k, ())]
    cx = sum(p[0] for p in points) / len(points) if points else 0.0
    cy = sum(p[1] for p in points) / len(points) if points else 0.0
    x0, y0 = cx - (cols - 1) * w / 2, cy - (rows - 1) * h / 2
    out.step = (w, h)
    out.lines.append(list(path))
    for i, key in enumerate(path):
        row, col = divmod(i, cols)
        if row % 2:
            col = cols - 1 - col
        out.places[key] = (round(x0 + col * w, 1), round(y0 + row * h, 1))
        pts = members.get(key, [])
        if pts:
            mx = sum(p[0] for p in pts) / len(pts)
            my = sum(p[1] for p in pts) / len(pts)
            rms = math.sqrt(sum((p[0] - mx) ** 2 + (p[1] - my) ** 2 for p in pts) / len(pts))
        else:
            mx = my = rms = 0.0
        reach = CLOUD * min(w, h) / 2
        out.centres[key] = ((mx, my), min(1.0, reach / rms) if rms > 0 else 1.0)


__all__ = ["CLOUD", "LINE_MIN", "Lines", "chain_lines"]
