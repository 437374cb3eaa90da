"""Links between pages, and the guard that keeps every page behind the router.

``app.py`` registers every page with ``st.navigation`` and runs the chosen one inside
:func:`routed`. Each page starts with :func:`through_router`: with a ``pages/`` folder
beside ``app.py``, Streamlit's old multipage mode can run a page's script on its own (the
first run of a server process, before anything called ``st.navigation``; every AppTest run
after the first, because AppTest resets that mode). The guard then runs ``app.py`` itself,
so the page is drawn by the router (sign-in, context, sidebar) and never alone.
"""

from __future__ import annotations

import contextlib
import runpy
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from components.state.context import AppContext
from components.widgets.safe import md_escape, short
from memscope.graph.analysis import Analysis

EXPLORER = "pages/explorer.py"
#: the router: Memscope's one entry point
APP = Path(__file__).resolve().parents[2] / "app.py"

_ROUTED: ContextVar[bool] = ContextVar("memscope_routed", default=False)


@contextlib.contextmanager
def routed() -> Iterator[None]:
    """The router runs the chosen page inside this (:func:`through_router` lets it pass)."""
    token = _ROUTED.set(True)
    try:
        yield
    finally:
        _ROUTED.reset(token)


def through_router() -> None:
    """A page's first call: return at once under the router; run alone (Streamlit's old
    multipage mode), run the router instead, which draws this page, and stop."""
    if _ROUTED.get():
        return
    runpy.run_path(str(APP), run_name="__main__")
    st.stop()


def link(path: str, **kwargs: Any) -> None:
    """``st.page_link`` that stays quiet when the page is not registered (a widget demo
    app run on its own); under the router every page is registered."""
    with contextlib.suppress(StreamlitPageNotFoundError):
        st.page_link(path, **kwargs)


def open_node(node_id: str, text: str | None = None) -> None:
    """A link that opens ``node_id`` in the explorer, with its panel (``?node=``): its
    text as the label (the id alone when there is none), the id in the tooltip."""
    label = md_escape(short(text, 80)) if text else md_escape(node_id)
    link(EXPLORER, label=label, query_params={"node": node_id}, icon=":material/search:",
         help=f"Open {md_escape(node_id)} in the Explorer")


def require(ctx: AppContext) -> Analysis:
    """The analysis of ``ctx``, or stop the page with the loading error and a link to the
    Connection page."""
    if ctx.analysis is None:
        st.error(md_escape(ctx.error or "No data is loaded."))
        link("pages/connection.py", label="Open the Connection page")
        st.stop()
    return ctx.analysis
