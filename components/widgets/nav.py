"""Links between pages (the router registers every page with ``st.navigation``)."""

from __future__ import annotations

import contextlib
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

from components.widgets.safe import md_escape, short

EXPLORER = "app_pages/explorer.py"


def link(path: str, **kwargs: Any) -> None:
    """``st.page_link`` that stays quiet when the page is not registered (a widget demo
    app run on its own); under the router every page is registered."""
    with contextlib.suppress(StreamlitPageNotFoundError):
        st.page_link(path, **kwargs)


def open_node(node_id: str, text: str | None = None) -> None:
    """A link that opens ``node_id`` in the explorer, with its panel (``?node=``)."""
    label = md_escape(node_id) + (f" · {md_escape(short(text, 60))}" if text else "")
    link(EXPLORER, label=label, query_params={"node": node_id}, icon=":material/search:")
