"""One node or one edge of the graph as the browser draws it: a vis-network dict.

A node gets its colour group's fill (the caller picks it: :class:`memscope.view.build.
Painter`) with a darker border, its kind's shape and size, and — a memory — its state's
style, its badges (static ★, inferred ≈) and a size for what depends on it. The same
arguments always give the same dict (the timeline draws a memory in each of its states
with :func:`vis_node`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from datetime import datetime
from typing import Any

import networkx as nx

from memscope.records.text import clip, relation_label, shorten
from memscope.view.colors import FORGOTTEN_COLOR, STATE_BORDERS, STATE_FILLS, darker
from memscope.view.payload import VisEdge, VisNode
from memscope.view.sizes import CARD_MARGIN, CARD_WIDTH, SIZES, memory_size
from memscope.view.style import (
    EDGE_STYLES,
    INFERRED_BADGE,
    INFERRED_STYLE,
    SHAPES,
    STATE_STYLES,
    STATIC_BADGE,
    fresh,
)
from memscope.view.titles import CARD_LABEL_MAX, LABEL_MAX, TITLE_MAX, short_text, text_of, title


def vis_node(node_id: Hashable, attrs: Mapping[str, Any], state: str | None, group: str,
             fill: str, now: datetime | None = None, depending: int = 0) -> VisNode:
    """The node ``node_id`` (its graph attributes ``attrs``) in ``state``, in colour
    ``group`` filled with ``fill``, its tooltip's times seen from ``now``, ``depending``
    memories depending on it."""
    kind, record = attrs["kind"], attrs["record"]
    label = clip(text_of(kind, record, node_id),
                 CARD_LABEL_MAX if kind == "document" else LABEL_MAX)
    node: VisNode = {
        "id": str(node_id), "label": label,
        "title": title(kind, record, node_id, state, now),
        "kind": kind, "color_group": group, "shape": SHAPES[kind],
        "size": memory_size(depending) if kind == "memory" else SIZES[kind],
        "color": {"background": fill, "border": darker(fill)},
    }
    if kind == "document":  # every card as wide, its title wrapped inside
        node["widthConstraint"] = {"minimum": CARD_WIDTH, "maximum": CARD_WIDTH}
        node["margin"] = CARD_MARGIN
    if kind == "memory" and state is not None:
        node["state"] = state
        node.update(fresh(STATE_STYLES[state]))
        if state == "forgotten":
            node["color"] = FORGOTTEN_COLOR.copy()
        elif state in STATE_BORDERS:
            node["color"] = {"background": STATE_FILLS.get(state, fill),
                             "border": STATE_BORDERS[state]}
        if record.is_static:
            node["static"] = True
            node["label"] = STATIC_BADGE + label
        if record.is_inference:
            _mark_inferred(node)
    return node


def state_fill(kind: str, state: str | None, fill: str) -> str:
    """The background :func:`vis_node` gives a node of ``kind`` in ``state`` whose group's
    fill is ``fill`` (without building it)."""
    if kind == "memory" and state is not None:
        if state == "forgotten":
            return FORGOTTEN_COLOR["background"]
        if state in STATE_BORDERS:
            return STATE_FILLS.get(state, fill)
    return fill


def _mark_inferred(node: VisNode) -> None:
    """Draw ``node`` as inferred: the label suffix, and the dotted border unless its state
    already draws a dashed one (superseded, expired keep theirs; expiring its wide ring)."""
    node["inferred"] = True
    node["label"] = node["label"] + INFERRED_BADGE
    if "shapeProperties" not in node:
        node["shapeProperties"] = fresh(INFERRED_STYLE["shapeProperties"])
        node["borderWidth"] = max(node.get("borderWidth", 1), INFERRED_STYLE["borderWidth"])


def vis_edge(g: nx.MultiDiGraph, index: int, u: Hashable, v: Hashable,
             data: Mapping[str, Any]) -> VisEdge:
    """Edge number ``index`` of ``g`` (in ``g.edges()`` order), from ``u`` to ``v`` with
    its attributes ``data``."""
    kind = data["kind"]
    style = EDGE_STYLES[kind]
    edge: VisEdge = {"id": f"e{index}", "from": str(u), "to": str(v), "kind": kind,
                     "color": dict(style["color"]), "width": style["width"]}
    if "arrows" in style:
        edge["arrows"] = style["arrows"]
    if "dashes" in style:
        edge["dashes"] = list(style["dashes"])
    if kind == "relation":
        predicate = data.get("predicate") or ""
        edge["predicate"] = predicate
        edge["label"] = clip(predicate, 20)
        conf = data.get("confidence")
        head, tail = short_text(g, u, 40), short_text(g, v, 40)
        edge["title"] = shorten(relation_label(head, clip(predicate, TITLE_MAX), tail)
                                + (f"\nconfidence {conf:g}" if conf is not None else ""),
                                TITLE_MAX)
    return edge


__all__ = ["state_fill", "vis_edge", "vis_node"]
