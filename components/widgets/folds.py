"""Folded sections whose content runs only while they are open.

Streamlit computes and sends everything inside a plain ``st.expander`` even while it is
closed. The folded sections of the explorer's page (the sidebar's filters, Add, "Forget
memories about…", the data issues) are closed on a first visit, so drawing their widgets
then only delays the graph's first frame: the browser renders every element of a run
before it calls the graph (issue 33, item 2). :func:`fold` is Streamlit's stateful
expander instead: while closed it sends its label and nothing else; opening it reruns the
script, which then draws its content. Whether it is open lives in a slot of its owner's,
so a page where it is not drawn keeps it.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from components.state import session
from components.state.session import Slot


def fold(label: str, state: Slot[bool], *, icon: str | None = None,
         open_now: bool = False) -> tuple[DeltaGenerator, bool]:
    """An expander kept open or closed in ``state`` (a widget slot, its owner's), and
    whether it is open: draw the content only when it is. ``open_now`` opens it (a
    pending request shown inside must be seen)."""
    if open_now and not state.get():
        state.set(True)
    box = st.expander(label, icon=icon, **session.bind(state))
    return box, bool(box.open)
