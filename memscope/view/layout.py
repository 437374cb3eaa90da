"""Server-side node positions for the graph view (python-igraph Fruchterman–Reingold).

The browser draws with physics off, so every node needs ``x``/``y`` up front. Each
connected component is laid out on its own (FR, with igraph's grid variant for large
components), scaled so that a typical edge is :data:`EDGE_PX` pixels long and turned so
that its long axis lies across, and the components are set as one map: the largest in
the middle, every next one at the first free place along a spiral out from it that is
:data:`ASPECT` times wider than tall (so the map fills a wide canvas and reads as one
island, not as rows). Everything is seeded: the same graph gives the same positions.

Example::

    >>> import networkx as nx
    >>> pos = layout_positions(nx.path_graph(["a", "b", "c"]))
    >>> sorted(pos) == ["a", "b", "c"] and pos == layout_positions(nx.path_graph(["a", "b", "c"]))
    True
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from statistics import median

import igraph as ig
import networkx as nx

Position = tuple[float, float]

#: pixels for a typical edge in vis-network coordinates (memories are 11–23 px, a
#: document card about 136 px wide: a memory clears its document's card)
EDGE_PX = 100.0
#: components at least this large use igraph's grid FR (much faster, slightly rougher)
GRID_MIN = 500
#: free space between the drawing and a new component set beside it
#: (:func:`extend_positions`), in edge lengths; the map itself keeps :data:`CELL` apart
GAP = 1.0
#: width : height of the packed drawing (the graph canvas is wider than tall)
ASPECT = 1.6
#: FR uses igraph's global RNG (jitter for coincident vertices); swap it under a lock
_RNG_LOCK = threading.Lock()


@contextmanager
def seeded_igraph(seed: float) -> Iterator[None]:
    """Run igraph calls with its global RNG seeded (under a lock), then restore it."""
    with _RNG_LOCK:
        ig.set_random_number_generator(random.Random(seed))
        try:
            yield
        finally:
            ig.set_random_number_generator(random)


def _edges(graph: nx.Graph, index: Mapping[Hashable, int]) -> list[tuple[int, int]]:
    """Undirected simple edges as index pairs (multi-edges and self-loops dropped)."""
    seen: set[tuple[int, int]] = set()
    for u, v in graph.edges():
        a, b = index[u], index[v]
        if a != b:
            seen.add((a, b) if a < b else (b, a))
    return sorted(seen)


def _fr(n: int, edges: list[tuple[int, int]], rng: random.Random, *, grid: bool | None,
        niter: int | None, start: list[list[float]] | None = None,
        pinned: Mapping[int, Position] | None = None) -> list[list[float]]:
    """One seeded FR run; ``pinned`` vertices keep their (unit-space) coordinates.

    igraph's FR draws its random start and its jitter from igraph's global RNG, so the
    run swaps in a generator seeded from ``rng`` (under a lock) and puts Python's back.
    """
    if n == 1:
        return [[0.0, 0.0]]
    use_grid = grid if grid is not None else n >= GRID_MIN
    kwargs: dict = {}
    if pinned:
        big = 1e9
        kwargs["minx"] = [pinned[i][0] if i in pinned else -big for i in range(n)]
        kwargs["maxx"] = [pinned[i][0] if i in pinned else big for i in range(n)]
        kwargs["miny"] = [pinned[i][1] if i in pinned else -big for i in range(n)]
        kwargs["maxy"] = [pinned[i][1] if i in pinned else big for i in range(n)]
    g = ig.Graph(n=n, edges=edges)
    iters = niter if niter is not None else (500 if n < GRID_MIN else 300)
    with seeded_igraph(rng.random()):
        # without a start, igraph draws its own (compact) start from the seeded RNG
        layout = g.layout_fruchterman_reingold(niter=iters, seed=start, grid=use_grid,
                                               **kwargs)
    return [list(p) for p in layout.coords]


def _normalise(coords: list[list[float]], edges: list[tuple[int, int]]) -> list[list[float]]:
    """Scale so the median edge is one unit long and centre on the origin."""
    if edges:
        lengths = [math.dist(coords[a], coords[b]) for a, b in edges]
        unit = median(lengths) or 1.0
    else:
        unit = 1.0
    xs = [c[0] for c in coords]
    ys = [c[1] for c in coords]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return [[(x - cx) / unit, (y - cy) / unit] for x, y in coords]


def _component_layouts(graph: nx.Graph, rng: random.Random, *, grid: bool | None,
                       niter: int | None
                       ) -> list[tuple[list[Hashable], list[list[float]], list[tuple[int, int]]]]:
    """Each connected component laid out alone in unit space, largest first, with its
    edges (as local index pairs)."""
    nodes = list(graph.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    edges = _edges(graph, index)
    g = ig.Graph(n=len(nodes), edges=edges)
    members = [list(c) for c in g.connected_components(mode="weak")]
    members.sort(key=lambda c: (-len(c), c[0]))
    local_edges: dict[int, list[tuple[int, int]]] = {}
    comp_of = {}
    local_index = {}
    for ci, comp in enumerate(members):
        for li, v in enumerate(comp):
            comp_of[v] = ci
            local_index[v] = li
    for a, b in edges:
        local_edges.setdefault(comp_of[a], []).append((local_index[a], local_index[b]))
    out = []
    for ci, comp in enumerate(members):
        comp_edges = local_edges.get(ci, [])
        if len(comp) == 2:
            coords = [[-0.5, 0.0], [0.5, 0.0]]
        else:
            coords = _normalise(_fr(len(comp), comp_edges, rng, grid=grid, niter=niter),
                                comp_edges)
        out.append(([nodes[v] for v in comp], coords, comp_edges))
    return out


def _turned_wide(coords: list[list[float]]) -> list[list[float]]:
    """``coords`` (centred) turned so that their main axis lies along x, centred on their
    bounding box (a principal-axis turn: a long chain becomes a wide, flat box)."""
    n = len(coords)
    if n < 3:
        return coords
    mx = sum(c[0] for c in coords) / n
    my = sum(c[1] for c in coords) / n
    sxx = sum((c[0] - mx) ** 2 for c in coords)
    syy = sum((c[1] - my) ** 2 for c in coords)
    sxy = sum((c[0] - mx) * (c[1] - my) for c in coords)
    angle = 0.5 * math.atan2(2 * sxy, sxx - syy)
    cos, sin = math.cos(-angle), math.sin(-angle)
    turned = [[(x - mx) * cos - (y - my) * sin, (x - mx) * sin + (y - my) * cos]
              for x, y in coords]
    xs = [c[0] for c in turned]
    ys = [c[1] for c in turned]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return [[x - cx, y - cy] for x, y in turned]


def _cells(coords: list[list[float]], edges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The :data:`CELL` cells a laid-out component covers: its nodes and points along its
    edges (at most half a cell apart), relative to its centre, in a stable order."""
    seen: set[tuple[int, int]] = set()
    out: list[tuple[int, int]] = []

    def add(x: float, y: float) -> None:
        key = (math.floor(x / CELL), math.floor(y / CELL))
        if key not in seen:
            seen.add(key)
            out.append(key)

    for x, y in coords:
        add(x, y)
    for a, b in edges:
        (x0, y0), (x1, y1) = coords[a], coords[b]
        steps = int(math.dist((x0, y0), (x1, y1)) / (CELL / 2))
        for k in range(1, steps):
            f = k / steps
            add(x0 + (x1 - x0) * f, y0 + (y1 - y0) * f)
    return out


#: how far back along the spiral (in cells of arc) the next component's search starts
BACK = 24
#: the packing's grid cell, in edge lengths: a component keeps at least one cell (and at
#: most about two) away from every node and edge of the others
CELL = 0.5


def _pack(parts: list[tuple[list[Hashable], list[list[float]], list[tuple[int, int]]]]
          ) -> dict[Hashable, Position]:
    """Set laid-out components (unit space, largest first) as one map: the first in the
    middle, each next one at the first place along a wide spiral (x stretched by
    ``sqrt(ASPECT)``, y squeezed by as much) where none of its nodes and edges falls in a
    cell next to another component's (so small components settle into the bays of big
    ones instead of keeping a box around each). The spiral resumes :data:`BACK` cells
    (of arc) before where the last component was set, so the search stays short: it
    fills the gaps just behind, not a whole turn again."""
    taken: set[tuple[int, int]] = set()
    sx, sy = math.sqrt(ASPECT), 1 / math.sqrt(ASPECT)
    out: dict[Hashable, Position] = {}
    t_last = 0.0
    for ids, coords, edges in parts:
        coords = _turned_wide(coords)
        cells = _cells(coords, edges)
        t = max(0.0, t_last - BACK / max(t_last / (2 * math.pi), 1.0))
        last: tuple[int, int] | None = None
        while True:  # the spiral: one cell further out per turn
            rho = CELL * t / (2 * math.pi)
            at = (round(sx * rho * math.cos(t) / CELL), round(sy * rho * math.sin(t) / CELL))
            if at != last:
                last = at
                ox, oy = at
                if not any((cx + ox, cy + oy) in taken for cx, cy in cells):
                    break
            t += 0.8 / max(rho / CELL, 1.0)
        t_last = t
        ox, oy = last
        for cx, cy in cells:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    taken.add((cx + ox + dx, cy + oy + dy))
        for node, (x, y) in zip(ids, coords, strict=True):
            out[node] = (x + ox * CELL, y + oy * CELL)
    return out


def _to_px(pos: Mapping[Hashable, Position], edge_px: float) -> dict[Hashable, Position]:
    """Unit space → vis-network pixels, centred on the origin, rounded to 0.1 px."""
    if not pos:
        return {}
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    return {n: (round((x - cx) * edge_px, 1), round((y - cy) * edge_px, 1))
            for n, (x, y) in pos.items()}


def layout_positions(graph: nx.Graph, *, seed: int = 0, grid: bool | None = None,
                     niter: int | None = None, edge_px: float = EDGE_PX
                     ) -> dict[Hashable, Position]:
    """Positions ``{node_id: (x, y)}`` in vis-network pixels for every node of ``graph``.

    ``grid=None`` picks igraph's grid FR for components of :data:`GRID_MIN` nodes or more;
    ``niter`` overrides the FR iteration count. Edge direction and multiplicity are ignored.
    """
    if graph.number_of_nodes() == 0:
        return {}
    rng = random.Random(seed)
    parts = _component_layouts(graph, rng, grid=grid, niter=niter)
    return _to_px(_pack(parts), edge_px)


def extend_positions(graph: nx.Graph, positions: Mapping[Hashable, Position], *,
                     seed: int = 0, edge_px: float = EDGE_PX) -> dict[Hashable, Position]:
    """Positions for every node of ``graph``, keeping the given ones exactly.

    New nodes linked (directly or through other new nodes) to placed ones are laid out
    around them with the placed nodes pinned; new components with no placed node are
    laid out on their own and set to the right of the existing drawing.
    """
    out: dict[Hashable, Position] = {n: (p[0], p[1]) for n, p in positions.items()
                                     if n in graph}
    new = [n for n in graph.nodes if n not in out]
    if not new:
        return out
    if not out:
        return layout_positions(graph, seed=seed, edge_px=edge_px)
    rng = random.Random(seed)
    undirected = nx.Graph(graph.to_undirected(as_view=True))
    fresh = undirected.subgraph(new)
    attached: list[Hashable] = []
    detached: list[Hashable] = []
    for comp in sorted(nx.connected_components(fresh), key=lambda c: min(map(str, c))):
        touches = any(nb in out for n in comp for nb in undirected[n])
        (attached if touches else detached).extend(sorted(comp, key=str))
    if attached:
        out.update(_place_attached(undirected, out, attached, rng, edge_px))
    if detached:
        part = layout_positions(undirected.subgraph(detached), seed=seed, edge_px=edge_px)
        right = max(p[0] for p in out.values()) + GAP * edge_px
        left = min(p[0] for p in part.values())
        top = min(p[1] for p in out.values())
        part_top = min(p[1] for p in part.values())
        out.update({n: (round(x - left + right, 1), round(y - part_top + top, 1))
                    for n, (x, y) in part.items()})
    return out


def _place_attached(graph: nx.Graph, placed: Mapping[Hashable, Position],
                    new: Iterable[Hashable], rng: random.Random,
                    edge_px: float) -> dict[Hashable, Position]:
    """FR over the new nodes and their placed neighbours, the placed ones pinned."""
    new = list(new)
    new_set = set(new)
    anchors = sorted({nb for n in new for nb in graph[n] if nb in placed}, key=str)
    nodes = anchors + new
    index = {n: i for i, n in enumerate(nodes)}
    pinned = {index[a]: (placed[a][0] / edge_px, placed[a][1] / edge_px) for a in anchors}
    start: list[list[float]] = [list(pinned[i]) for i in range(len(anchors))]
    for n in new:  # start at the mean of placed neighbours (or of all anchors), jittered
        near = [pinned[index[nb]] for nb in graph[n] if nb in placed] or list(pinned.values())
        mx = sum(p[0] for p in near) / len(near)
        my = sum(p[1] for p in near) / len(near)
        start.append([mx + rng.uniform(-0.5, 0.5), my + rng.uniform(-0.5, 0.5)])
    edges = _edges(graph.subgraph(nodes), index)
    edges = [(a, b) for a, b in edges if nodes[a] in new_set or nodes[b] in new_set]
    coords = _fr(len(nodes), edges, rng, grid=False, niter=200, start=start, pinned=pinned)
    return {nodes[i]: (round(coords[i][0] * edge_px, 1), round(coords[i][1] * edge_px, 1))
            for i in range(len(anchors), len(nodes))}
