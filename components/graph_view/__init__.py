"""The graph explorer's canvas: vis-network in a Streamlit Custom Component v2.

A click on a node comes back to Python: the component's JS calls
``setStateValue("selected", id)``; :func:`graph_view` returns that id (``None`` after a
click on empty space) and, inside the click's callback, calls ``on_select(id)``. The
component writes no key of its caller: the caller owns its selection.

The payload sent to the browser is the view's nodes and edges plus a few options. It does
not echo the selection, so a rerun after a click sends the same bytes again and Streamlit
does not re-send the graph. All JavaScript (the vendored vis-network build and
``graph_view.js``) and CSS come from this folder; nothing is loaded from a CDN. The
library rides in a second, empty element (``LIBRARY_NAME``) that never changes, so it
crosses the websocket once per session.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypedDict

import streamlit as st
from streamlit.components.v2 import component as _register_component

from components.state.session import GRAPH_FOCUS
from memscope.view.build import ViewData
from memscope.view.library import vis_network_js

__all__ = ["COMPONENT_NAME", "LIBRARY_NAME", "GraphOptions", "graph_view"]

COMPONENT_NAME = "memscope_graph_view"
LIBRARY_NAME = "memscope_vis_network"
_HERE = Path(__file__).resolve().parent


class GraphOptions(TypedDict):
    """The ``options`` part of the payload."""

    height: int
    physics: bool
    focus: str | None
    focus_rev: int


@functools.cache
def _mount() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """Register the two components once: the vis-network library and the graph.

    The library is an element of its own whose message never changes, so Streamlit sends
    it once and afterwards only a reference to it; a new graph payload then costs the
    data and ~10 KB of JS, not the 470 KB library again.
    """
    vendor = vis_network_js()
    library = _register_component(
        LIBRARY_NAME, js=vendor + "\nexport default function visNetworkLibrary() {}\n")
    graph = _register_component(
        COMPONENT_NAME,
        js=(_HERE / "graph_view.js").read_text(encoding="utf-8"),
        css=(_HERE / "graph_view.css").read_text(encoding="utf-8"),
    )
    return library, graph


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


def _check(view: Any, key: Any, height: Any, physics: Any, focus: Any) -> set[str]:
    """Validate the arguments; return the node ids."""
    if not isinstance(key, str) or not key or "__" in key:
        raise TypeError("graph_view: key must be a non-empty string without '__' "
                        "(Streamlit reserves it in component keys).")
    if isinstance(height, bool) or not isinstance(height, int) or not 150 <= height <= 5000:
        raise ValueError(f"graph_view: height must be a whole number of pixels from 150 to "
                         f"5000, not {height!r}.")
    if not isinstance(physics, bool):
        raise TypeError(f"graph_view: physics must be True or False, not {physics!r}.")
    if focus is not None and not isinstance(focus, str):
        raise TypeError(f"graph_view: focus must be a node id (a string) or None, not "
                        f"{type(focus).__name__}.")
    if not (isinstance(view, Mapping) and isinstance(view.get("nodes"), list)
            and isinstance(view.get("edges"), list)):
        raise TypeError("graph_view: view must be a ViewData mapping with 'nodes' and 'edges' "
                        "lists, as memscope.view.build.build_view returns.")
    ids = _node_ids(view["nodes"])
    _check_edges(view["edges"], ids)
    return ids


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


def _focus_request(key: str, focus: str | None, ids: set[str]) -> tuple[str | None, int]:
    """The focus to put in the payload: changes only when the browser must move.

    The browser reports the node it shows as selected (clicked or focused) in the
    component state. A focus equal to that needs nothing; a new focus is sent as is; the
    same focus again after the user clicked elsewhere is re-sent with a higher revision.
    """
    shown = _clicked(key)
    sent, rev, shown_then = GRAPH_FOCUS.get(key) or (None, 0, None)
    if focus is not None and focus in ids and focus != shown:
        if focus != sent:
            sent, shown_then = focus, shown
        elif shown != shown_then:
            rev, shown_then = rev + 1, shown
        GRAPH_FOCUS.set(key, (sent, rev, shown_then))
    return sent, rev


def graph_view(view: ViewData, *, key: str = "graph", height: int = 640,
               physics: bool = False, focus: str | None = None,
               on_select: Callable[[str | None], None] | None = None) -> str | None:
    """Draw ``view`` with vis-network; return the selected node id (or ``None``).

    A click on a node calls ``on_select(id)`` (``None`` for empty space) inside the
    Streamlit callback, before the rerun; the caller keeps the selection where it likes.
    ``physics=False`` (the default) draws the precomputed ``x``/``y`` of the nodes;
    ``True`` runs a bounded force simulation. ``focus`` selects and centres a
    node (ignored when it is not in the view); the payload changes only when the browser
    must move, so passing the current selection as ``focus`` costs nothing after a click.

    Example::

        from components.graph_view import graph_view
        from memscope.view.layout import layout_positions
        from memscope.view.build import build_view

        view = build_view(analysis, positions=layout_positions(analysis.graph.graph))
        clicked = graph_view(view, key="graph")
        st.text(f"Selected: {clicked}")

    Raises ``TypeError``/``ValueError`` with one sentence when an argument is unusable.
    """
    ids = _check(view, key, height, physics, focus)
    sent, rev = _focus_request(key, focus, ids)
    options: GraphOptions = {"height": height, "physics": physics, "focus": sent,
                             "focus_rev": rev}
    payload = {"nodes": view["nodes"], "edges": view["edges"], "options": options}
    library, graph = _mount()
    with st.container(gap=None):
        library(key=f"{key}-vis-network", height="content")
        graph(key=key, data=payload, height=height,
              on_selected_change=_selection_callback(key, on_select))
    return _clicked(key)
