"""The Profile page's section: a space to pick, and its static and dynamic lines with the
memories they came from (:func:`components.sections.panels.profile_panel`)."""

from __future__ import annotations

import streamlit as st

from components.sections import panels
from components.state import session
from components.state.context import AppContext
from components.state.session import slot
from components.widgets.safe import md_escape
from memscope.graph.analysis import Analysis

# -- the session slots this module owns (components.state.session collects them) --
PROFILE_SPACE = slot("profile_space", __name__, "The Profile page's space.", widget=True)


def profile_section(ctx: AppContext, analysis: Analysis) -> None:
    """Pick a space (held in :data:`PROFILE_SPACE`) and show its profile."""
    # Presenter mode: the shown analysis names spaces by pseudonym; the choice keeps the
    # real tag (it holds when presenter mode is turned off) and only shows its pseudonym.
    alias = ctx.space_names if ctx.presenter and ctx.as_of is None else {}
    shown = set(analysis.dataset.profiles)
    real = ctx.current.dataset.profiles if alias and ctx.current is not None else {}
    tags = ([t for t in alias if t in real and alias[t] in shown]  # "Space 1, 2…" order
            + sorted(t for t in real if t not in alias and t in shown)) if real \
        else sorted(shown)
    if ctx.source is not None and not ctx.source.capabilities.can("profile"):
        st.info(md_escape(ctx.source.capabilities.reason("profile")))
    elif not tags:
        st.info("No profile is loaded for this source.")
    else:
        if PROFILE_SPACE.get() not in tags:
            PROFILE_SPACE.set(ctx.conn.space if ctx.conn.space in tags else tags[0])
        tag = st.selectbox("Space", tags, format_func=lambda t: ctx.space_label(str(t)),
                           **session.bind(PROFILE_SPACE))
        panels.profile_panel(analysis, alias.get(tag, tag) if tag else tag,
                             open_in_explorer=True)
