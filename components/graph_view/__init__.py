"""The graph explorer's canvas: vis-network in a Streamlit Custom Component v2.

A click on a node comes back to Python: the component's JS calls
``setStateValue("selected", id)``; :func:`graph_view` returns that id (``None`` after a
click on empty space) and, inside the click's callback, calls ``on_select(id)``. The
component writes no key of its caller: the caller owns its selection.

The payload sent to the browser is the view's nodes and edges plus a few options, made
compact (:func:`compact_view`): how a node or an edge is drawn (shape, size, colours,
borders, dashes…) goes once into a table of styles that each item points at, so a view of
20,000 nodes is about half the bytes to serialise, send and parse. It is sent as UTF-8
JSON bytes (``message.py``), which Streamlit forwards without encoding them again; the
heavy part is encoded once per drawn view and shared by every session and rerun drawing
the same lists. It does not echo the selection, so a rerun after a click sends the same
bytes again and nothing is drawn again (the browser ignores bytes equal to those it drew).

The browser side is files: vis-network's build, the component's ES modules and its
stylesheet are in ``frontend/assets/``, a package of its own (``memscope-graph-frontend``,
installed by ``make install``) whose folder Streamlit serves. The element carries only
``loader.js`` (a few kB; see ``files.py``), which fetches those files — from the browser's
HTTP cache once it has them: their URLs carry a hash of their content (see
``loader.js``) — so a new session downloads and sends none of them again. Nothing is
loaded from a CDN.

Over the canvas: a toolbar (zoom, fit all, fit to the selection, fit to the caller's
``fit_ids``, full screen) and keys (+/−, 0, f, Esc). Labels stay readable without
zooming: the caller's ``annotations`` (e.g. cluster names, see :func:`group_annotations`)
are drawn large over the graph, document, entity and cluster labels that vis-network
would hide at this zoom are drawn at a fixed size where they fit, and memory labels
appear as the user zooms in. Colours follow Streamlit's light or dark theme.

Over the canvas's top-left corner, the view's legend as a panel (``legend.js``: swatch,
name and count per colour group, shape, state and edge kind; a click brings that line
forward and fades the rest to a quarter, in the browser); zoomed past 2× the fitted
view, a minimap in the bottom-left corner (``minimap.js``; a click centres the view
there). A selected node keeps its state's style under a ring.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Mapping, Sequence, Set
from typing import Any, Literal, NotRequired, TypedDict, TypeGuard

import streamlit as st

from components.graph_view.compact import CompactView, compact_view
from components.graph_view.files import COMPONENT_NAME, mount
from components.graph_view.message import DRAWN, payload_bytes
from memscope.records.text import clip
from memscope.view.build import Legend, ViewData
from memscope.view.slideshow import PlayPayload, checked_payload
from memscope.view.timeline import Timeline, for_view

#: the session key, next to the component's own (``key``), under which it keeps what it
#: last asked the browser to focus: the widget keeps its state by its own key, as a
#: library component does, and needs nothing of the app's session model
FOCUS_PREFIX = "_graph_focus::"

__all__ = ["COMPONENT_NAME", "WINDOW", "Annotation", "CompactView",
           "GraphOptions", "WindowFit", "compact_view", "graph_view", "group_annotations"]

#: at most this many annotations are sent (the largest first)
ANNOTATIONS_MAX = 500
ANNOTATION_TEXT_MAX = 60
_HEX_COLOR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


#: ``height=WINDOW``: the graph reaches the window's bottom edge, sized in the browser
WINDOW = "window"
#: the smallest height of a graph that follows the window (never a sliver)
WINDOW_MIN_HEIGHT = 420
WINDOW_MAX_HEIGHT = 5000
#: the margin kept between such a graph's bottom edge and the window's
WINDOW_MARGIN = 14


class WindowFit(TypedDict):
    """How a graph drawn with ``height=WINDOW`` sizes itself in the browser: the window's
    inner height less its top on the page and ``margin``, from ``min`` to ``max`` px."""

    min: int
    max: int
    margin: int


class GraphOptions(TypedDict):
    """The ``options`` part of the payload (``window`` only with ``height=WINDOW``)."""

    height: int | Literal["window"]
    physics: bool
    focus: str | None
    focus_rev: int
    fit_ids: list[str]
    fit_label: str
    window: NotRequired[WindowFit]


class Annotation(TypedDict):
    """A text drawn on the canvas over the graph (e.g. a cluster's name).

    ``x``/``y`` are graph coordinates (the nodes' ``x``/``y``); ``size`` is the font
    size in graph units, so the text grows with the zoom, kept between 13 and 28 screen
    pixels (readable at the first, fitted view); ``color`` (``#rgb``/``#rrggbb``) draws a
    swatch before the text. Larger annotations win where two would overlap. ``group`` (a
    nodes' ``color_group``) hides the text while the legend brings other groups forward.
    """

    text: str
    x: float
    y: float
    size: float
    color: NotRequired[str]
    group: NotRequired[str]


def _node_ids(nodes: list[Any]) -> set[str]:
    """The nodes' ids; raises when one is missing or repeated."""
    ids: set[str] = set()
    for node in nodes:
        node_id = node.get("id") if isinstance(node, Mapping) else None
        if not isinstance(node_id, str) or not node_id:
            raise ValueError(f"graph_view: every node needs a string 'id'; got {node!r:.80}.")
        if node_id in ids:
            raise ValueError(f"graph_view: node id {node_id!r} appears twice; node ids must be "
                             "unique.")
        ids.add(node_id)
    return ids


def _check_edges(edges: list[Any], ids: set[str]) -> None:
    """Raise when an edge has no id, a repeated id, or an end that is not a node."""
    edge_ids: set[str] = set()
    for edge in edges:
        if not isinstance(edge, Mapping) or not isinstance(edge.get("id"), str):
            raise ValueError(f"graph_view: every edge needs a string 'id'; got {edge!r:.80}.")
        if edge["id"] in edge_ids:
            raise ValueError(f"graph_view: edge id {edge['id']!r} appears twice; edge ids must "
                             "be unique.")
        edge_ids.add(edge["id"])
        for end in ("from", "to"):
            if edge.get(end) not in ids:
                raise ValueError(f"graph_view: edge {edge['id']!r} has '{end}' "
                                 f"{edge.get(end)!r}, which is not a node of the view.")


def _check(view: Any, key: Any, height: Any, physics: Any, focus: Any) -> None:
    """Validate the arguments (the view's shape; its items: :func:`_check_items`)."""
    if not isinstance(key, str) or not key or "__" in key:
        raise TypeError("graph_view: key must be a non-empty string without '__' "
                        "(Streamlit reserves it in component keys).")
    if height != WINDOW and (isinstance(height, bool) or not isinstance(height, int)
                             or not 150 <= height <= 5000):
        raise ValueError(f"graph_view: height must be a whole number of pixels from 150 to "
                         f"5000 or {WINDOW!r}, not {height!r}.")
    if not isinstance(physics, bool):
        raise TypeError(f"graph_view: physics must be True or False, not {physics!r}.")
    if focus is not None and not isinstance(focus, str):
        raise TypeError(f"graph_view: focus must be a node id (a string) or None, not "
                        f"{type(focus).__name__}.")
    if not (isinstance(view, Mapping) and isinstance(view.get("nodes"), list)
            and isinstance(view.get("edges"), list)):
        raise TypeError("graph_view: view must be a ViewData mapping with 'nodes' and 'edges' "
                        "lists, as memscope.view.build.build_view returns.")


def _check_items(view: ViewData) -> set[str]:
    """Validate the view's nodes and edges; return the node ids."""
    ids = _node_ids(view["nodes"])
    _check_edges(view["edges"], ids)
    return ids


def _number(value: Any) -> TypeGuard[float]:
    return (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value))


def _annotation(item: Any) -> Annotation:
    """One checked annotation (text shortened to ANNOTATION_TEXT_MAX characters)."""
    if not isinstance(item, Mapping):
        raise TypeError(f"graph_view: each annotation must be a mapping with text, x, y and "
                        f"size; got {type(item).__name__}.")
    text, size, x, y = item.get("text"), item.get("size"), item.get("x"), item.get("y")
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"graph_view: an annotation needs a non-empty 'text'; got {text!r:.60}.")
    if not (_number(x) and _number(y)):
        raise ValueError(f"graph_view: annotation {text!r:.40} needs finite numbers 'x' and 'y'.")
    if not _number(size) or size <= 0:
        raise ValueError(f"graph_view: annotation {text!r:.40} needs a positive 'size'; "
                         f"got {size!r}.")
    text = clip(text, ANNOTATION_TEXT_MAX)
    out: Annotation = {"text": text, "x": float(x), "y": float(y), "size": float(size)}
    color = item.get("color")
    if color is not None:
        if not isinstance(color, str) or not _HEX_COLOR.fullmatch(color):
            raise ValueError(f"graph_view: annotation {text!r:.40} has color {color!r:.20}; "
                             "use '#rgb' or '#rrggbb'.")
        out["color"] = color
    group = item.get("group")
    if group is not None:
        if not isinstance(group, str):
            raise TypeError(f"graph_view: annotation {text!r:.40} has a group that is not a "
                            "string.")
        out["group"] = group
    return out


def _annotations(items: Any) -> list[Annotation]:
    """The checked annotations, the ANNOTATIONS_MAX largest, in the caller's order."""
    if isinstance(items, str | bytes | Mapping) or not isinstance(items, Sequence):
        raise TypeError("graph_view: annotations must be a list of {text, x, y, size} "
                        "mappings.")
    checked = [_annotation(item) for item in items]
    if len(checked) > ANNOTATIONS_MAX:
        keep = set(sorted(range(len(checked)), key=lambda i: -checked[i]["size"])
                   [:ANNOTATIONS_MAX])
        checked = [a for i, a in enumerate(checked) if i in keep]
    return checked


def _fit_ids(fit_ids: Any, ids: Set[str]) -> list[str]:
    """The fit ids that are nodes of the view, sorted (so the payload is stable)."""
    if isinstance(fit_ids, str | bytes) or not isinstance(fit_ids, Collection):
        raise TypeError("graph_view: fit_ids must be a collection of node ids (strings).")
    if not all(isinstance(i, str) for i in fit_ids):
        raise TypeError("graph_view: fit_ids must contain node ids (strings) only.")
    return sorted(set(fit_ids) & ids)


def group_annotations(view: ViewData, names: Mapping[str, str] | None = None, *,
                      min_nodes: int = 3, scale: float = 0.45) -> list[Annotation]:
    """One annotation per colour group of ``view``: its name at its nodes' centre.

    ``names`` maps a group key (the nodes' ``color_group``, e.g. a cluster key) to the
    text; without it the legend's labels are used. Groups without a name, the unlinked
    group ``""``, collapsed cluster nodes (which carry their own label) and groups with
    fewer than ``min_nodes`` placed nodes get none. ``size`` is ``scale`` times the
    group's spread (the root-mean-square distance of its nodes from their centre), so a
    big cluster gets a big name.

    >>> nodes = [{"id": f"n{i}", "color_group": "c1", "kind": "memory", "x": x, "y": 0.0}
    ...          for i, x in enumerate((-100.0, 0.0, 100.0))]
    >>> group_annotations({"nodes": nodes, "edges": []}, {"c1": "travel"})  # type: ignore
    [{'text': 'travel', 'x': 0.0, 'y': 0.0, 'size': 36.7, 'group': 'c1'}]
    """
    if names is None:
        legend = view.get("legend") or {}
        names = {c["key"]: c["label"] for c in legend.get("colors", [])}
    groups: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for node in view["nodes"]:
        key = node.get("color_group", "")
        if key and node.get("kind") != "cluster" and "x" in node and "y" in node:
            groups[key].append((float(node["x"]), float(node["y"])))
    out: list[Annotation] = []
    for key, points in groups.items():
        text = names.get(key)
        if not text or len(points) < min_nodes:
            continue
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        spread = math.sqrt(sum((p[0] - cx) ** 2 + (p[1] - cy) ** 2 for p in points)
                           / len(points))
        out.append({"text": text, "x": round(cx, 1), "y": round(cy, 1),
                    "size": round(max(spread * scale, 1.0), 1), "group": key})
    out.sort(key=lambda a: -a["size"])
    return out


def _clicked(key: str) -> str | None:
    """The node the browser reports as selected in the component's own state."""
    state = st.session_state.get(key)
    value = state.get("selected") if isinstance(state, Mapping) else None
    return value if isinstance(value, str) and value else None


def _selection_callback(key: str, on_select: Callable[[str | None], None] | None
                        ) -> Callable[[], None]:
    def on_selected_change() -> None:
        if on_select is not None:
            on_select(_clicked(key))

    return on_selected_change


def _focus_request(key: str, focus: str | None, ids: Set[str]) -> tuple[str | None, int]:
    """The focus to put in the payload: changes only when the browser must move.

    The browser reports the node it shows as selected (clicked or focused) in the
    component state. A focus equal to that needs nothing; a new focus is sent as is; the
    same focus again after the user clicked elsewhere is re-sent with a higher revision.
    """
    shown = _clicked(key)
    kept = st.session_state.get(FOCUS_PREFIX + key)
    sent, rev, shown_then = kept if isinstance(kept, tuple) else (None, 0, None)
    if focus is not None and focus in ids and focus != shown:
        if focus != sent:
            sent, shown_then = focus, shown
        elif shown != shown_then:
            rev, shown_then = rev + 1, shown
        st.session_state[FOCUS_PREFIX + key] = (sent, rev, shown_then)
    return sent, rev


def graph_view(view: ViewData, *, key: str = "graph", height: int | Literal["window"] = 640,
               physics: bool = False, focus: str | None = None,
               on_select: Callable[[str | None], None] | None = None,
               fit_ids: Collection[str] = (), fit_label: str = "Fit matches",
               annotations: Sequence[Annotation] = (),
               legend: Legend | None = None,
               slideshow: PlayPayload | None = None,
               timeline: Timeline | None = None) -> str | None:
    """Draw ``view`` with vis-network; return the selected node id (or ``None``).

    A click on a node calls ``on_select(id)`` (``None`` for empty space) inside the
    Streamlit callback, before the rerun; the caller keeps the selection where it likes.
    ``height`` is in pixels, or :data:`WINDOW`: the graph then takes the window's height
    below its top on the page (less :data:`WINDOW_MARGIN`, at least
    :data:`WINDOW_MIN_HEIGHT`), measured in the browser before it draws and again when the
    window or what is above the graph changes — the server never needs the window's size.
    ``physics=False`` (the default) draws the precomputed ``x``/``y`` of the nodes;
    ``True`` runs a bounded force simulation. ``focus`` selects and centres a
    node (ignored when it is not in the view); the payload changes only when the browser
    must move, so passing the current selection as ``focus`` costs nothing after a click.

    ``fit_ids`` (e.g. the search matches or the filtered set) enable the toolbar's
    ``fit_label`` button, which zooms to those nodes (ids not in the view are ignored);
    a new set brings the view to it by itself, and its end back to the whole map, unless
    the person has moved the view since the last fit.
    ``annotations`` are texts drawn large over the graph (see :class:`Annotation` and
    :func:`group_annotations`); at most ``ANNOTATIONS_MAX``, the largest, are sent.
    ``legend`` (default: the view's own) is drawn as a panel over the canvas's top-left
    corner: a click on a line fades what it does not name, in the browser (``legend.js``).
    ``slideshow`` (:func:`memscope.view.slideshow.play_payload`) is a show the browser
    plays full screen when its play token is new (``slideshow.js``).
    ``timeline`` (:func:`memscope.view.timeline.build_timeline` of this view) adds the
    history's playback bar under the graph (``playback.js``): it steps in the browser,
    with no rerun, and rests on the view as drawn.

    Example::

        from components.graph_view import graph_view
        from memscope.view.layout import layout_positions
        from memscope.view.build import build_view

        view = build_view(analysis, positions=layout_positions(analysis.graph.graph))
        clicked = graph_view(view, key="graph")
        st.text(f"Selected: {clicked}")

    Raises ``TypeError``/``ValueError`` with one sentence when an argument is unusable.
    """
    _check(view, key, height, physics, focus)
    if not isinstance(fit_label, str) or not fit_label.strip() or len(fit_label) > 30:
        raise ValueError("graph_view: fit_label must be a short non-empty text (at most 30 "
                         "characters).")
    # the view's nodes and edges are checked, made compact and encoded once for every
    # session and rerun that draws these very lists (message.py)
    drawn = DRAWN.get(view["nodes"], view["edges"])
    ids = drawn.ids if drawn is not None else _check_items(view)
    fit = _fit_ids(fit_ids, ids)
    notes = _annotations(annotations)
    sent, rev = _focus_request(key, focus, ids)
    options: GraphOptions = {"height": height, "physics": physics, "focus": sent,
                             "focus_rev": rev, "fit_ids": fit, "fit_label": fit_label}
    if height == WINDOW:
        options["window"] = {"min": WINDOW_MIN_HEIGHT, "max": WINDOW_MAX_HEIGHT,
                             "margin": WINDOW_MARGIN}
    graph = mount()
    if drawn is None:
        drawn = DRAWN.make(view, ids)
    # the payload: the compact view (nodes, edges, styles), then these, as one JSON object
    # in bytes, which Streamlit forwards as they are (see message.py)
    rest: dict[str, Any] = {"options": options, "annotations": notes,
                            "legend": legend if legend is not None else view.get("legend")}
    if slideshow is not None:
        rest["slideshow"] = checked_payload(slideshow, ids)
    if timeline is not None:
        rest["timeline"] = for_view(timeline, ids)
    graph(key=key, data=payload_bytes(drawn, rest),
          height="content" if height == WINDOW else height,
          on_selected_change=_selection_callback(key, on_select))
    return _clicked(key)
