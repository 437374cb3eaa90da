"""The legend: what a view draws, counted, and the exact style of each line (so the
browser draws every swatch from data, never from its own copy of the styles).

>>> shapes, states, edges = legend_styles()
>>> [s["style"]["shape"] for s in shapes]
['box', 'dot', 'diamond', 'hexagon']
>>> [(s["key"], s["style"].get("borderDashes")) for s in states if "expir" in s["key"]]
[('expiring', None), ('expired', [3, 2])]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from memscope.graph.states import STATES
from memscope.records.text import clip
from memscope.view.colors import FORGOTTEN_COLOR, OTHER_COLOR, STATE_BORDERS, STATE_FILLS, darker
from memscope.view.payload import Legend, LegendColor, LegendEntry, VisEdge, VisNode
from memscope.view.sizes import SIZES
from memscope.view.style import (
    EDGE_MEANING,
    EDGE_STYLES,
    INFERRED_BADGE,
    INFERRED_STYLE,
    LEGEND_STATES,
    NODE_KINDS,
    SHAPE_KINDS,
    SHAPE_LABELS,
    SHAPES,
    STATE_LABELS,
    STATE_STYLES,
    STATIC_BADGE,
    fresh,
)


def state_style(state: str) -> dict[str, Any]:
    """How a state is drawn, for a legend swatch (vis-network option names)."""
    if state == "static":
        return {"labelPrefix": STATIC_BADGE}
    if state == "inferred":
        return {"borderWidth": INFERRED_STYLE["borderWidth"],
                "borderDashes": list(INFERRED_STYLE["shapeProperties"]["borderDashes"]),
                "labelSuffix": INFERRED_BADGE}
    style = fresh(STATE_STYLES[state])
    dashes = style.pop("shapeProperties", {}).get("borderDashes")
    if dashes:
        style["borderDashes"] = dashes
    if state in STATE_FILLS:
        style["background"] = STATE_FILLS[state]
    if state == "forgotten":
        style["border"] = FORGOTTEN_COLOR["border"]
    elif state in STATE_BORDERS:
        style["border"] = STATE_BORDERS[state]
    return style


def legend_styles() -> tuple[list[LegendEntry], list[LegendEntry], list[LegendEntry]]:
    """The shapes, state styles and edge styles with zero counts (the legend's key)."""
    shapes: list[LegendEntry] = [
        {"key": k, "label": SHAPE_LABELS[k], "count": 0,
         "style": {"shape": SHAPES[k], **({"size": SIZES[k]} if k in SIZES else {})}}
        for k in SHAPE_KINDS]
    states: list[LegendEntry] = [{"key": s, "label": STATE_LABELS[s], "count": 0,
                                  "style": state_style(s)} for s in LEGEND_STATES]
    edges: list[LegendEntry] = [{"key": k, "label": EDGE_MEANING[k], "count": 0,
                                 "style": fresh(dict(EDGE_STYLES[k]))} for k in EDGE_STYLES]
    return shapes, states, edges


def legend_of_nodes(color_by: str, nodes: list[VisNode], edges: list[VisEdge],
                    labels: Mapping[str, str], colors: Mapping[str, str]) -> Legend:
    """The legend of these drawn nodes and edges (their groups named by ``labels`` and
    filled with ``colors``)."""
    kinds = Counter(n["kind"] for n in nodes)
    states = Counter(n["state"] for n in nodes if "state" in n)
    static = sum(1 for n in nodes if n.get("static"))
    inferred = sum(1 for n in nodes if n.get("inferred"))
    groups = Counter(n["color_group"] for n in nodes)
    edge_kinds = Counter(e["kind"] for e in edges)
    return legend_of(color_by, kinds, states, static, groups, edge_kinds, labels, colors,
                     inferred=inferred)


def legend_of(color_by: str, kinds: Mapping[str, int], states: Mapping[str, int],
              static: int, groups: Counter[str], edge_kinds: Mapping[str, int],
              labels: Mapping[str, str], colors: Mapping[str, str], *,
              inferred: int = 0) -> Legend:
    """The legend from its counts (nodes per kind, state and colour group; edges per kind;
    static and inferred memories)."""
    own = [k for k in colors if k and colors[k] != OTHER_COLOR and groups[k]]
    if groups[""]:
        own.append("")
    listed: list[LegendColor] = [
        {"key": k, "label": clip(labels.get(k, k)), "color": colors[k],
         "border": darker(colors[k]), "count": groups[k]} for k in own]
    owned = set(own)
    rest = [k for k in groups if k not in owned and groups[k]]
    other: LegendColor | None = None
    if rest:
        other = {"key": "", "label": f"{len(rest)} other group{'s' if len(rest) != 1 else ''}",
                 "color": OTHER_COLOR, "border": darker(OTHER_COLOR),
                 "count": sum(groups[k] for k in rest)}
    shapes, state_styles, edge_styles = legend_styles()
    for entry in shapes:
        entry["count"] = kinds.get(entry["key"], 0)
    for entry in state_styles:
        entry["count"] = {"static": static, "inferred": inferred}.get(
            entry["key"], states.get(entry["key"], 0))
    for entry in edge_styles:
        entry["count"] = edge_kinds.get(entry["key"], 0)
    return {
        "color_by": color_by,
        "kinds": {k: kinds.get(k, 0) for k in NODE_KINDS},
        "states": {s: states.get(s, 0) for s in STATES},
        "static": static,
        "inferred": inferred,
        "edges": {k: edge_kinds.get(k, 0) for k in EDGE_STYLES},  # a drawn-on kind adds its own
        "colors": listed,
        "other": other,
        "other_colors": len(rest),
        "shapes": shapes,
        "state_styles": state_styles,
        "edge_styles": edge_styles,
    }


__all__ = ["legend_of", "legend_of_nodes", "legend_styles", "state_style"]
