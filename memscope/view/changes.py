"""Change marks on a view: what a "changes since" comparison colours in the graph."""

from __future__ import annotations

from memscope.lenses.asof import Comparison
from memscope.view.build import ViewData, VisNode

#: colour per change kind (Okabe–Ito, distinguishable with colour-blindness)
CHANGE_COLORS = {"added": "#009E73", "updated": "#0072B2", "forgotten": "#D55E00"}
#: opacity of the nodes a comparison did not change
UNCHANGED_OPACITY = 0.25


def mark_changes(view: ViewData, comparison: Comparison) -> ViewData:
    """A copy of ``view`` with changed memories coloured and everything else faded.

    Each changed node gets ``change`` (its kind), a fill and border in
    :data:`CHANGE_COLORS` and full opacity; other nodes get :data:`UNCHANGED_OPACITY`.
    The legend is unchanged (use :meth:`Comparison.counts` for the change counts).
    """
    nodes: list[VisNode] = []
    for node in view["nodes"]:
        copy = node.copy()
        kind = comparison.change_of(node["id"])
        if kind is None:
            copy["opacity"] = UNCHANGED_OPACITY
        else:
            color = CHANGE_COLORS[kind]
            copy["change"] = kind
            copy["opacity"] = 1.0
            copy["borderWidth"] = 3
            copy["color"] = {"background": color, "border": color}
        nodes.append(copy)
    return {"nodes": nodes, "edges": [e.copy() for e in view["edges"]],
            "legend": view["legend"]}

