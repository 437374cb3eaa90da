"""Graph → what the browser draws: vis-network node and edge dicts plus a legend.

The assembling module: :class:`Painter` puts together, for one analysis, its colour
groups (:mod:`~memscope.view.groups`), one node or edge at a time
(:mod:`~memscope.view.nodes`: text from :mod:`~memscope.view.titles`, sizes from
:mod:`~memscope.view.sizes`, the style vocabulary of :mod:`~memscope.view.style` and
:mod:`~memscope.view.colors`) and the legend (:mod:`~memscope.view.legend`);
:func:`build_view` draws a whole graph with it. What is drawn on top of a view
(highlights, change marks, differences, recall counts) is :mod:`~memscope.view.paint`'s.
The names most callers use are importable from here.

Plain JSON-ready dicts, deterministic (the same analysis gives identical dicts, so the
component's payload stays byte-identical across reruns). Text from the data goes into
``label`` (truncated) and ``title`` (full, plain text); the component never renders it as
HTML.

Example::

    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "title": "Notes", "memoryEntries": [
    ...     {"id": "a", "memory": "x"}, {"id": "b", "memory": "y", "parentMemoryId": "a"}]}]}])
    >>> view = build_view(analyse(ds))
    >>> [n["id"] for n in view["nodes"]], [(e["from"], e["to"], e["kind"]) for e in view["edges"]]
    (['d', 'a', 'b'], [('d', 'a', 'source'), ('d', 'b', 'source'), ('a', 'b', 'updates')])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Mapping

from memscope.graph.analysis import Analysis
from memscope.view import sizes
from memscope.view.groups import Groups, cluster_groups, group_keys, palette_of
from memscope.view.legend import legend_of, legend_of_nodes, legend_styles
from memscope.view.nodes import state_fill, vis_edge, vis_node
from memscope.view.paint import highlight
from memscope.view.payload import (
    EdgeStyle,
    Legend,
    LegendColor,
    LegendEntry,
    NodeColor,
    ViewData,
    VisEdge,
    VisNode,
)
from memscope.view.style import COLOR_BY, ColorBy

Positions = Mapping[Hashable, tuple[float, float]]


class Painter:
    """How every node of one analysis is drawn under one ``color_by``: the colour groups,
    the palette and one :class:`VisNode` at a time (what :func:`build_view` draws, for
    callers that draw only some nodes, e.g. the drawing budget's overview).

    ``groups``: the clusters to colour by (e.g. today's, for an as-of or masked analysis:
    one clustering for the colours, the hexagons and the names; default: the graph's
    own, computed now). ``depending``: each memory's dependents
    (:func:`memscope.view.sizes.dependents` of the graph; computed now when not given).
    """

    def __init__(self, analysis: Analysis, color_by: ColorBy = "cluster",
                 positions: Positions | None = None, groups: Groups | None = None,
                 depending: Mapping[Hashable, int] | None = None) -> None:
        if color_by not in COLOR_BY:
            raise ValueError(f"color_by must be one of {', '.join(COLOR_BY)}, "
                             f"not {color_by!r}.")
        self.analysis = analysis
        self.color_by = color_by
        self.positions = positions
        self.keys, self.labels, self.order = (
            groups if groups is not None and color_by == "cluster"
            else group_keys(analysis, color_by))
        self.colors = palette_of(self.order)
        self.dependents = (sizes.dependents(analysis.graph.graph) if depending is None
                           else depending)

    def node(self, node_id: Hashable) -> VisNode:
        """The node as :func:`build_view` draws it."""
        an = self.analysis
        attrs = an.graph.graph.nodes[node_id]
        state = an.state(node_id) if attrs["kind"] == "memory" else None  # type: ignore[arg-type]
        group = self.keys.get(node_id, "")
        node = vis_node(node_id, attrs, state, group, self.colors[group], an.now,
                        self.dependents.get(node_id, 0))
        positions = self.positions
        if positions is not None and node_id in positions:
            x, y = positions[node_id]
            node["x"], node["y"] = round(float(x), 1), round(float(y), 1)
        return node

    def fill(self, kind: str, state: str | None, group: str) -> str:
        """The background a node of ``kind``/``state`` in colour ``group`` is drawn with
        (the same as ``self.node(...)["color"]["background"]``, without building it)."""
        return state_fill(kind, state, self.colors[group])

    def legend(self, kinds: Mapping[str, int], states: Mapping[str, int], static: int,
               groups: Counter[str], edge_kinds: Mapping[str, int], *,
               inferred: int = 0) -> Legend:
        """The legend of a view with these counts (what :func:`build_view` would list)."""
        return legend_of(self.color_by, kinds, states, static, groups, edge_kinds,
                         self.labels, self.colors, inferred=inferred)


def build_view(analysis: Analysis, *, color_by: ColorBy = "cluster",
               visible: Collection[str] | None = None, positions: Positions | None = None,
               groups: Groups | None = None,
               depending: Mapping[Hashable, int] | None = None) -> ViewData:
    """The nodes, edges and legend the graph component draws.

    ``color_by`` picks the fill colour: ``"cluster"`` (default: weakly connected components,
    the large ones split into Louvain communities), memory
    ``"space"`` (container tag) or ``"document_type"``; colours are assigned on the whole
    graph, so filtering with ``visible`` (node ids to draw; ``None`` = all; unknown ids
    are ignored) does not recolour anything. ``positions`` (e.g. from
    :func:`memscope.view.layout.layout_positions`) adds ``x``/``y``; ``groups`` are the
    clusters to colour by and ``depending`` the memories' dependents (default: this
    graph's own, computed now).
    """
    painter = Painter(analysis, color_by, positions, groups, depending)
    g = analysis.graph.graph
    shown = None if visible is None else set(visible)
    nodes = [painter.node(node_id) for node_id in g
             if shown is None or node_id in shown]
    edges: list[VisEdge] = []
    for i, (u, v, data) in enumerate(g.edges(data=True)):
        if shown is None or (u in shown and v in shown):
            edges.append(vis_edge(g, i, u, v, data))
    return {"nodes": nodes, "edges": edges,
            "legend": legend_of_nodes(color_by, nodes, edges, painter.labels,
                                      painter.colors)}


__all__ = ["COLOR_BY", "ColorBy", "EdgeStyle", "Groups", "Legend", "LegendColor", "LegendEntry",
           "NodeColor", "Painter", "Positions", "ViewData", "VisEdge", "VisNode", "build_view",
           "cluster_groups", "highlight", "legend_styles", "vis_edge"]
