"""What the graph component draws, typed: vis-network node and edge dicts and the legend.

Plain JSON-ready dicts (:func:`memscope.view.build.build_view` makes them); the fields
``kind``, ``state``, ``static``, ``inferred``, ``color_group``, ``highlighted`` and
``change`` are Memscope's own, the rest are vis-network option names.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class NodeColor(TypedDict):
    """vis-network node colours."""

    background: str
    border: str


class EdgeStyle(TypedDict):
    """How one edge kind is drawn (vis-network edge options)."""

    color: dict[str, str]
    width: float
    arrows: NotRequired[str]
    dashes: NotRequired[list[int]]


class VisNode(TypedDict):
    """One vis-network node; ``kind``/``state``/``static``/``color_group`` are Memscope's own
    (``kind`` is ``"cluster"`` for the drawing budget's collapsed clusters).

    (Not vis-network's ``group``: vis would invent group colours for unknown names.)
    """

    id: str
    label: str
    title: str
    kind: str
    color_group: str
    shape: str
    size: float
    color: NodeColor
    borderWidth: NotRequired[int]  # 1 (the component's default) when absent
    state: NotRequired[str]
    static: NotRequired[bool]
    inferred: NotRequired[bool]
    opacity: NotRequired[float]
    shapeProperties: NotRequired[dict[str, Any]]
    shadow: NotRequired[dict[str, Any]]
    font: NotRequired[dict[str, Any]]
    x: NotRequired[float]
    y: NotRequired[float]
    widthConstraint: NotRequired[dict[str, int]]  # a document card's width
    margin: NotRequired[int]  # a document card's padding around its title
    highlighted: NotRequired[bool]  # set by :func:`memscope.view.paint.highlight`
    faded: NotRequired[bool]  # left out of a highlight (:func:`memscope.view.paint.faded`)
    change: NotRequired[str]  # set by :func:`memscope.view.paint.mark_changes`


VisEdge = TypedDict("VisEdge", {
    "id": str, "from": str, "to": str, "kind": str, "title": NotRequired[str],
    "color": dict[str, Any],  # "color", "highlight"…; "opacity" (a float) when faded
    "width": float, "arrows": NotRequired[str], "dashes": NotRequired[list[int]],
    "label": NotRequired[str], "predicate": NotRequired[str],
})


class LegendColor(TypedDict):
    """One colour group in the legend: its fill and border (draw the swatch from them)."""

    key: str
    label: str
    color: str
    border: str
    count: int


class LegendEntry(TypedDict):
    """One legend line: a shape, a state or an edge kind, how many are drawn, and the
    exact style they are drawn with (vis-network option names; a state's missing
    ``background`` means "the colour group's fill")."""

    key: str
    label: str
    count: int
    style: dict[str, Any]


class Legend(TypedDict):
    """What is drawn and how: counts per kind, state, edge kind and colour group, and the
    style of each (so swatches are drawn from data, not hard-coded).

    ``colors`` lists every colour group drawn in a colour of its own (at most
    :data:`~memscope.view.style.LEGEND_MAX`, largest first; then the neutral group
    ``""``); ``other`` is the groups past the palette together, in
    :data:`~memscope.view.colors.OTHER_COLOR` (``None`` when there are none; its nodes are
    those whose ``color_group`` is not a key of ``colors``), and ``other_colors`` how many
    groups it holds.
    """

    color_by: str
    kinds: dict[str, int]
    states: dict[str, int]
    static: int
    edges: dict[str, int]
    #: inferred memories drawn
    inferred: int
    colors: list[LegendColor]
    other: LegendColor | None
    other_colors: int
    shapes: list[LegendEntry]
    state_styles: list[LegendEntry]
    edge_styles: list[LegendEntry]


class ViewData(TypedDict):
    """What the graph component draws."""

    nodes: list[VisNode]
    edges: list[VisEdge]
    legend: Legend


__all__ = ["EdgeStyle", "Legend", "LegendColor", "LegendEntry", "NodeColor", "ViewData",
           "VisEdge", "VisNode"]
