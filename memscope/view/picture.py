"""The first picture: the server's first view as a compact still (issue 33, item 3).

:func:`picture_of` reduces a drawn view (:class:`memscope.view.build.ViewData`) to what a
tiny script needs to paint it on a canvas before the app has booted: each node's
position, radius, shape and colour, the edges as pairs of node indices, and the cluster
names where the live graph writes them (none in presenter mode). Positions are rounded to
whole graph units, colours go once into a table. :func:`version_of` names a picture by
the data it was drawn from, so any change of the data gives a new version.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict

from memscope.view.colors import GREY

#: the shapes a picture knows, by their index in a node's row
SHAPES = ("dot", "box", "hexagon")
#: a box node's drawn size in graph units (its ``widthConstraint``; the height of one line)
BOX_W, BOX_H = 120, 34
#: at most this many nodes and edges are painted (the largest nodes, their edges)
MAX_NODES = 6000
MAX_EDGES = 8000


class Picture(TypedDict):
    """A first picture as the page carries it (JSON)."""

    #: the version: the data's digest and how it is painted (see :func:`version_of`)
    v: str
    #: the nodes' box in graph units: min x, min y, max x, max y (node sizes included)
    b: list[int]
    #: the colour table: ``[fill, border]`` pairs
    c: list[list[str]]
    #: five numbers per node: x, y, radius, shape (index in :data:`SHAPES`), colour index
    n: list[int]
    #: two node indices per edge
    e: list[int]
    #: the cluster names: ``[x, y, size, text]`` each (empty in presenter mode)
    t: list[list[Any]]
    #: the legend's colour rows, ``[label, count]`` each (its width is theirs; empty in
    #: presenter mode)
    g: list[list[Any]]


def version_of(*parts: object) -> str:
    """16 hex digits naming ``parts`` (the data's identity and digest, the painting's
    settings).

    >>> version_of("a", 1) == version_of("a", 1) != version_of("a", 2)
    True
    >>> len(version_of("x"))
    16
    """
    text = json.dumps([repr(p) for p in parts])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _radius(node: Mapping[str, Any]) -> int:
    size = node.get("size")
    return max(1, round(float(size))) if isinstance(size, int | float) else 10


def _colors(node: Mapping[str, Any]) -> tuple[str, str]:
    color = node.get("color")
    if isinstance(color, Mapping):
        fill = str(color.get("background") or GREY)
        return fill, str(color.get("border") or fill)
    if isinstance(color, str) and color:
        return color, color
    return GREY, GREY


def legend_rows(legend: Mapping[str, Any] | None) -> list[list[Any]]:
    """The colour rows of a drawn view's legend: ``[label, count]`` each, the "other
    groups" row last.

    >>> legend_rows({"colors": [{"label": "Maya", "count": 3}],
    ...              "other": {"label": "2 other groups", "count": 1200}})
    [['Maya', 3], ['2 other groups', 1200]]
    >>> legend_rows(None)
    []
    """
    if not legend:
        return []
    rows = list(legend.get("colors") or [])
    other = legend.get("other")
    if isinstance(other, Mapping) and other.get("label"):
        rows.append(other)
    return [[str(r.get("label", "")), int(r.get("count") or 0)] for r in rows
            if isinstance(r, Mapping)]


def picture_of(nodes: Sequence[Mapping[str, Any]], edges: Iterable[Mapping[str, Any]],
               names: Iterable[Mapping[str, Any]], version: str, *,
               legend: Mapping[str, Any] | None = None,
               presenter: bool = False) -> Picture | None:
    """The picture of a drawn view's placed ``nodes`` and their ``edges``, with the
    cluster ``names`` (annotations: ``text``, ``x``, ``y``, ``size``) and the ``legend``'s
    colour rows unless ``presenter``; ``None`` when no node is placed.

    >>> p = picture_of([{"id": "a", "x": 1.4, "y": -2, "size": 5, "shape": "dot",
    ...                  "color": {"background": "#111", "border": "#222"}},
    ...                 {"id": "b", "x": 100, "y": 50, "shape": "box"}],
    ...                [{"from": "a", "to": "b"}],
    ...                [{"text": "Team", "x": 50, "y": 20, "size": 30}], "v1")
    >>> p["n"], p["e"], p["b"], p["t"]
    ([1, -2, 5, 0, 0, 100, 50, 10, 1, 1], [0, 1], [-4, -7, 160, 67], [[50, 20, 30, 'Team']])
    >>> picture_of([], [], [], "v1") is None
    True
    >>> hidden = picture_of([{"id": "a", "x": 0, "y": 0}], [], [{"text": "Real", "x": 0,
    ...                      "y": 0, "size": 9}], "v1", presenter=True,
    ...                      legend={"colors": [{"label": "Real", "count": 1}]})
    >>> hidden["t"], hidden["g"]
    ([], [])
    """
    placed = [n for n in nodes if isinstance(n.get("x"), int | float)
              and isinstance(n.get("y"), int | float)]
    if not placed:
        return None
    if len(placed) > MAX_NODES:  # the largest nodes: what a fitted overview shows most
        placed = sorted(placed, key=_radius, reverse=True)[:MAX_NODES]
    table: dict[tuple[str, str], int] = {}
    index: dict[str, int] = {}
    rows: list[int] = []
    min_x = min_y = float("inf")
    max_x = max_y = float("-inf")
    for i, node in enumerate(placed):
        x, y = round(float(node["x"])), round(float(node["y"]))
        shape = str(node.get("shape") or "dot")
        kind = SHAPES.index(shape) if shape in SHAPES else 0
        r = _radius(node)
        half_w, half_h = (BOX_W // 2, BOX_H // 2) if kind == 1 else (r, r)
        min_x, max_x = min(min_x, x - half_w), max(max_x, x + half_w)
        min_y, max_y = min(min_y, y - half_h), max(max_y, y + half_h)
        colors = _colors(node)
        at = table.setdefault(colors, len(table))
        rows += [x, y, r, kind, at]
        index[str(node.get("id"))] = i
    pairs: list[int] = []
    for edge in edges:
        a, b = index.get(str(edge.get("from"))), index.get(str(edge.get("to")))
        if a is not None and b is not None and a != b:
            pairs += [a, b]
            if len(pairs) >= 2 * MAX_EDGES:
                break
    texts = [] if presenter else [
        [round(float(a["x"])), round(float(a["y"])), round(float(a.get("size") or 20)),
         str(a["text"])] for a in names if a.get("text")]
    return Picture(v=version, b=[int(min_x), int(min_y), int(max_x), int(max_y)],
                   c=[list(c) for c in table], n=rows, e=pairs, t=texts,
                   g=[] if presenter else legend_rows(legend))


__all__ = ["BOX_H", "BOX_W", "MAX_EDGES", "MAX_NODES", "SHAPES", "Picture", "legend_rows",
           "picture_of", "version_of"]
