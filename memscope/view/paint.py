"""The one painter: a drawn view recoloured for what a page shows on top of it — the
highlighted nodes (search hits, marks), the changes since a day, the differences between
two datasets, how often each memory was recalled.

Each function returns a copy and never changes its input (views are shared between
sessions); shapes, sizes and positions are kept. The colours are
:mod:`memscope.view.colors`'.

>>> view = {"nodes": [{"id": "a", "kind": "memory", "title": "", "color_group": "c1",
...                    "size": 11, "color": {"background": "#3C6900", "border": "#253F00"}},
...                   {"id": "b", "kind": "memory", "title": "", "color_group": "c1",
...                    "size": 11, "color": {"background": "#3C6900", "border": "#253F00"}}],
...         "edges": [], "legend": {"color_by": "cluster"}}
>>> marked = mark_differences(view, {"a": "added"})
>>> [(n["id"], n["color_group"], n["opacity"]) for n in marked["nodes"]]
[('a', 'difference:added', 1.0), ('b', '', 0.25)]
>>> [(c["label"], c["count"]) for c in marked["legend"]["colors"]]
[('Added (only in B)', 1), ('The same on both sides', 1)]
>>> highlight(view, ["b"])["nodes"][1]["color"]["border"], "highlighted" in view["nodes"][1]
('#000000', False)
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from typing import Any

from memscope.lenses.asof import Comparison
from memscope.lenses.compare import ChangeKind
from memscope.records.text import counted
from memscope.view.colors import (
    CHANGE_COLORS,
    DIFFERENCE_COLORS,
    HIGHLIGHT_BORDER,
    NEUTRAL,
    RECALL_COLORS,
    STATE_BORDERS,
    UNCHANGED_FILL,
    darker,
)
from memscope.view.payload import Legend, LegendColor, ViewData, VisEdge, VisNode

#: how :func:`highlight` marks a node: its border width (the colour:
#: :data:`~memscope.view.colors.HIGHLIGHT_BORDER`)
HIGHLIGHT_WIDTH = 5
#: what a highlight leaves out is drawn at this share of its opacity
FADE = 0.25
#: opacity of the nodes a comparison did not change
UNCHANGED_OPACITY = FADE
#: the border width of a node a change or a difference marks
MARK_WIDTH = 3
#: a memory dot a difference marks is drawn this much larger (and at least this size)
MARK_GROWTH, MARK_MIN_SIZE = 1.8, 14.0
#: the legend's line for each kind of difference, and for the rest
DIFFERENCE_LABELS: dict[ChangeKind, str] = {"added": "Added (only in B)", "changed": "Changed",
                                            "removed": "Removed (only in A)"}
SAME_LABEL = "The same on both sides"
#: what a recall map does not count (documents, collapsed clusters): the neutral group
NOT_COUNTED = ""
NOT_COUNTED_LABEL = "not counted (documents, clusters)"


def faded(node: VisNode) -> VisNode:
    """A copy of ``node`` at :data:`FADE` of its opacity, marked ``faded`` (the browser
    fades its label too and draws no landmark label for it); its glow (a state's shadow,
    which vis-network draws in its own colour, whatever the node's opacity) fades with it.
    """
    copy = node.copy()
    copy["opacity"] = round(float(node.get("opacity", 1.0)) * FADE, 4)
    copy["faded"] = True
    shadow = node.get("shadow")
    if isinstance(shadow, dict) and shadow.get("enabled"):
        copy["shadow"] = {**shadow, "color": _faded_colour(str(shadow.get("color", "")))}
    return copy


_RGBA = re.compile(r"rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)")


def _faded_colour(colour: str) -> str:
    """``colour`` (``#rrggbb``, ``rgb()`` or ``rgba()``) at :data:`FADE` of its alpha.

    >>> _faded_colour("rgba(0,114,178,0.8)"), _faded_colour("#102030")
    ('rgba(0,114,178,0.2)', 'rgba(16,32,48,0.25)')
    """
    if (m := _RGBA.fullmatch(colour.strip())) is not None:
        r, g, b, a = m.groups()
        alpha = float(a) if a is not None else 1.0
        return f"rgba({r},{g},{b},{round(alpha * FADE, 4)})"
    if re.fullmatch(r"#[0-9a-fA-F]{6}", colour.strip()):
        h = colour.strip()[1:]
        r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
        return f"rgba({r},{g},{b},{FADE})"
    return f"rgba(0,0,0,{FADE / 4})"  # an unknown colour: a faint shadow


def faded_edge(edge: VisEdge) -> VisEdge:
    """A copy of ``edge`` at :data:`FADE` of its opacity."""
    copy = edge.copy()
    color = dict(edge.get("color") or {})
    color["opacity"] = round(float(color.get("opacity", 1.0)) * FADE, 4)
    copy["color"] = color
    return copy


def highlight(view: ViewData, node_ids: Collection[str]) -> ViewData:
    """A copy of ``view`` with ``node_ids`` drawn with a heavy black border (a memory dot
    larger, as a difference's mark) and everything
    else (the other nodes, every edge not between two of them) at :data:`FADE` of its
    opacity; nothing faded when none of ``node_ids`` is drawn."""
    marked = set(node_ids) & {n["id"] for n in view["nodes"]}
    if not marked:
        return {"nodes": list(view["nodes"]), "edges": view["edges"], "legend": view["legend"]}
    nodes: list[VisNode] = []
    for node in view["nodes"]:
        if node["id"] in marked:
            node = node.copy()
            node["borderWidth"] = HIGHLIGHT_WIDTH
            node["color"] = {"background": node["color"]["background"],
                             "border": HIGHLIGHT_BORDER}
            node["highlighted"] = True
            size = node.get("size")
            if isinstance(size, int | float) and node.get("kind") == "memory":
                node["size"] = max(float(size) * MARK_GROWTH, MARK_MIN_SIZE)
        else:
            node = faded(node)
        nodes.append(node)
    edges = [e if e["from"] in marked and e["to"] in marked else faded_edge(e)
             for e in view["edges"]]
    return {"nodes": nodes, "edges": edges, "legend": view["legend"]}


def fade_other_groups(view: ViewData, keep: Collection[str]) -> ViewData:
    """A copy of ``view`` in which the nodes whose colour group is not in ``keep`` (and
    every edge not between two kept nodes) are drawn at :data:`FADE` of their opacity —
    faded, never hidden, so the chosen groups stand out where they sit in the map.
    Nothing changes when ``keep`` is empty."""
    chosen = set(keep)
    if not chosen:
        return {"nodes": list(view["nodes"]), "edges": view["edges"], "legend": view["legend"]}
    kept = {n["id"] for n in view["nodes"] if n.get("color_group") in chosen}
    nodes = [n if n["id"] in kept else faded(n) for n in view["nodes"]]
    edges = [e if e["from"] in kept and e["to"] in kept else faded_edge(e)
             for e in view["edges"]]
    return {"nodes": nodes, "edges": edges, "legend": view["legend"]}


def _marked(node: VisNode, kind: str, color: str) -> VisNode:
    """A copy of ``node`` marked as changed (``kind``) in ``color``, fully opaque."""
    copy = node.copy()
    copy["change"] = kind
    copy["opacity"] = 1.0
    copy["borderWidth"] = MARK_WIDTH
    copy["color"] = {"background": color, "border": color}
    return copy


def mark_changes(view: ViewData, comparison: Comparison) -> ViewData:
    """A copy of ``view`` with changed memories coloured and everything else faded.

    Each changed node gets ``change`` (its kind), a fill and border in
    :data:`~memscope.view.colors.CHANGE_COLORS` and full opacity; other nodes get
    :data:`UNCHANGED_OPACITY`. The legend is unchanged (use :meth:`Comparison.counts`
    for the change counts).
    """
    nodes: list[VisNode] = []
    for node in view["nodes"]:
        kind = comparison.change_of(node["id"])
        if kind is None:
            copy = node.copy()
            copy["opacity"] = UNCHANGED_OPACITY
            copy["faded"] = True
        else:
            copy = _marked(node, kind, CHANGE_COLORS[kind])
        nodes.append(copy)
    return {"nodes": nodes, "edges": [e.copy() for e in view["edges"]],
            "legend": view["legend"]}


def mark_differences(view: ViewData, changes: Mapping[str, ChangeKind]) -> ViewData:
    """A copy of ``view`` with each node of ``changes`` in its kind's colour
    (:data:`~memscope.view.colors.DIFFERENCE_COLORS`: the change marks' of the same
    meaning; a memory dot larger; each kind a colour group of its own, so a legend line
    shows only those) and the rest grey and faded (the edges not between two marked
    nodes too), with a legend of the marks."""
    nodes: list[VisNode] = []
    counts: dict[ChangeKind, int] = dict.fromkeys(DIFFERENCE_LABELS, 0)
    unchanged = 0
    for node in view["nodes"]:
        kind = changes.get(node["id"])
        if kind is None:
            copy = node.copy()
            copy["opacity"] = UNCHANGED_OPACITY
            copy["color"] = {"background": UNCHANGED_FILL, "border": UNCHANGED_FILL}
            copy["color_group"] = ""
            copy["faded"] = True
            unchanged += 1
        else:
            copy = _marked(node, kind, DIFFERENCE_COLORS[kind])
            copy["color_group"] = f"difference:{kind}"
            size = node.get("size")
            if isinstance(size, int | float) and node.get("kind") == "memory":
                copy["size"] = max(float(size) * MARK_GROWTH, MARK_MIN_SIZE)
            counts[kind] += 1
        nodes.append(copy)
    colors: list[LegendColor] = [
        {"key": f"difference:{k}", "label": DIFFERENCE_LABELS[k],
         "color": DIFFERENCE_COLORS[k], "border": DIFFERENCE_COLORS[k], "count": n}
        for k, n in counts.items() if n]
    colors.append({"key": "", "label": SAME_LABEL, "color": UNCHANGED_FILL,
                   "border": UNCHANGED_FILL, "count": unchanged})
    legend: Legend = {**view["legend"], "color_by": "difference", "colors": colors,
                      "other": None, "other_colors": 0}
    edges = [e.copy() if e["from"] in changes and e["to"] in changes else faded_edge(e)
             for e in view["edges"]]
    return {"nodes": nodes, "edges": edges, "legend": legend}


def paint_recall(view: ViewData, counts: Mapping[str, int], labels: Mapping[str, str],
                 bucket_of: Callable[[int], str], answered: int) -> ViewData:
    """A copy of ``view`` with every counted node (``counts``: node id → how many of the
    ``answered`` questions recalled it) filled by its count's bucket (``bucket_of``;
    :data:`~memscope.view.colors.RECALL_COLORS`) and its tooltip saying so, the rest
    neutral; states' borders and styles kept; the legend's colours replaced by the
    buckets (``labels``: bucket key → its line, in the legend's order) with their counts.
    """
    nodes: list[Any] = []
    tally: Counter[str] = Counter()
    for node in view["nodes"]:
        new: dict[str, Any] = dict(node)
        count = counts.get(node["id"]) if node["kind"] != "cluster" else None
        if count is None:
            group, fill = NOT_COUNTED, NEUTRAL
        else:
            group = bucket_of(count)
            fill = RECALL_COLORS[group]
            new["title"] = (f"{node['title']}\nRecalled by {count} of "
                            f"{counted(answered, 'question')}")
        border = (node["color"]["border"] if node.get("state") in STATE_BORDERS
                  else darker(fill))
        new["color"] = {"background": fill, "border": border}
        new["color_group"] = group
        tally[group] += 1
        nodes.append(new)
    colors: list[LegendColor] = [
        {"key": key, "label": label, "color": RECALL_COLORS[key],
         "border": darker(RECALL_COLORS[key]), "count": tally[key]}
        for key, label in labels.items()]
    if tally[NOT_COUNTED]:
        colors.append({"key": NOT_COUNTED, "label": NOT_COUNTED_LABEL, "color": NEUTRAL,
                       "border": darker(NEUTRAL), "count": tally[NOT_COUNTED]})
    legend: Legend = {**view["legend"], "color_by": "times recalled", "colors": colors,
                      "other": None, "other_colors": 0}
    return {"nodes": nodes, "edges": view["edges"], "legend": legend}


__all__ = ["DIFFERENCE_LABELS", "FADE", "HIGHLIGHT_WIDTH", "MARK_GROWTH", "MARK_MIN_SIZE",
           "NOT_COUNTED", "UNCHANGED_OPACITY", "fade_other_groups", "faded", "faded_edge",
           "highlight", "mark_changes", "mark_differences", "paint_recall"]
