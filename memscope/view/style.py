"""The style vocabulary: what each kind of node, each memory state and each edge kind
looks like, and the words the legend uses for them (colours: :mod:`memscope.view.colors`;
sizes: :mod:`memscope.view.sizes`).

>>> SHAPES["memory"], EDGE_STYLES["updates"]["arrows"], STATE_LABELS["latest"]
('dot', 'to', 'current')
"""

from __future__ import annotations

from typing import Any, Literal

from memscope.view.colors import BLUE, FORGOTTEN_TEXT, GREEN, GREY, PINK, rgba
from memscope.view.palette import PALETTE as _PALETTE
from memscope.view.payload import EdgeStyle

ColorBy = Literal["cluster", "space", "document_type"]
COLOR_BY: tuple[str, ...] = ("cluster", "space", "document_type")
NODE_KINDS = ("document", "memory", "entity")
#: every shape the graph draws (``cluster``: the drawing budget's collapsed clusters)
SHAPE_KINDS = ("document", "memory", "entity", "cluster")

STATIC_BADGE = "★ "
#: an inferred memory (the service inferred it; the user never stated it): a dotted
#: border, drawn at every zoom and in either theme whatever the text, and this label suffix
INFERRED_BADGE = " ≈"
INFERRED_STYLE: dict[str, Any] = {"borderWidth": 3, "shapeProperties": {"borderDashes": [1, 3]}}

#: 20 fills at least 19 CIEDE2000 apart from each other, from both themes' backgrounds
#: and from the colours with a meaning of their own (:mod:`memscope.view.palette`).
#: Colour groups past the 20th share :data:`~memscope.view.colors.OTHER_COLOR`: no two
#: groups drawn in a colour of their own ever share it.
PALETTE = _PALETTE
#: every colour group of its own is listed in the legend
LEGEND_MAX = len(PALETTE)
#: a document is a card: its title inside a box (vis-network's ``box`` sizes itself to
#: the label, wrapped at :data:`~memscope.view.sizes.CARD_WIDTH` px)
SHAPES = {"document": "box", "memory": "dot", "entity": "diamond", "cluster": "hexagon"}
SHAPE_LABELS = {"document": "document", "memory": "memory", "entity": "entity",
                "cluster": "collapsed cluster"}

#: state → style fragment merged into the node (its colours:
#: :data:`~memscope.view.colors.STATE_BORDERS` and ``STATE_FILLS``). Expiring and expired
#: differ at any zoom: an expiring memory keeps its fill inside a thick amber ring; an
#: expired one is filled red with a dashed dark-red border.
STATE_STYLES: dict[str, dict[str, Any]] = {
    "latest": {},
    "recent": {"borderWidth": 3,
               "shadow": {"enabled": True, "color": rgba(BLUE, 0.85), "size": 14,
                          "x": 0, "y": 0}},
    "superseded": {"opacity": 0.45, "borderWidth": 2,
                   "shapeProperties": {"borderDashes": [4, 3]}},
    "forgotten": {"opacity": 0.55, "font": {"color": FORGOTTEN_TEXT}},
    "expiring": {"borderWidth": 6},
    "expired": {"borderWidth": 3, "shapeProperties": {"borderDashes": [3, 2]}},
}
STATE_LABELS = {"latest": "current", "recent": "added in the last day",
                "superseded": "superseded by a newer version", "forgotten": "forgotten",
                "expiring": "expires within a week", "expired": "expired (kept past its "
                "forget date)", "static": "static fact (★)",
                "inferred": "inferred — not stated by you (dotted, ≈)"}
#: the order the legend lists states in
LEGEND_STATES = ("latest", "recent", "superseded", "forgotten", "expiring", "expired",
                 "static", "inferred")

#: edge kind → style (an arrow on every chain edge, ``updates``/``extends``/``derives``,
#: pointing at the newer version / the memory that extends or is derived, so a chain reads
#: as a directed path; and on ``relation``, at the object). Chain edges are drawn wide, so
#: their arrows (which grow with the width) read at the fitted zoom. Only relation edges
#: get a tooltip (predicate and confidence): the others say what the legend says, and
#: would double the edge payload.
EDGE_STYLES: dict[str, EdgeStyle] = {
    "source": {"color": {"color": "#BBBBBB"}, "width": 1},
    "updates": {"color": {"color": BLUE}, "width": 4, "arrows": "to"},
    "extends": {"color": {"color": GREEN}, "width": 4, "dashes": [8, 5], "arrows": "to"},
    "derives": {"color": {"color": PINK}, "width": 4, "dashes": [2, 4], "arrows": "to"},
    "relation": {"color": {"color": "#777777"}, "width": 1.5, "arrows": "to"},
    "about": {"color": {"color": GREY}, "width": 1, "dashes": [3, 3]},
}
EDGE_MEANING = {"source": "source document", "updates": "newer version",
                "extends": "adds detail", "derives": "inferred from", "relation": "relation",
                "about": "names an entity"}


def fresh(value: Any) -> Any:
    """A copy of a small style value, so nodes never share mutable parts.

    >>> style = {"shapeProperties": {"borderDashes": [3, 2]}}
    >>> fresh(style)["shapeProperties"]["borderDashes"] is style["shapeProperties"]["borderDashes"]
    False
    """
    if isinstance(value, dict):
        return {k: fresh(v) for k, v in value.items()}
    if isinstance(value, list):
        return [fresh(v) for v in value]
    return value


__all__ = ["COLOR_BY", "EDGE_MEANING", "EDGE_STYLES", "INFERRED_BADGE", "INFERRED_STYLE",
           "LEGEND_MAX", "LEGEND_STATES", "NODE_KINDS", "PALETTE", "SHAPES", "SHAPE_KINDS",
           "SHAPE_LABELS", "STATE_LABELS", "STATE_STYLES", "STATIC_BADGE", "ColorBy", "fresh"]
