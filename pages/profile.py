"""Profile: each space's static and dynamic lines, with the memories they came from."""

import streamlit as st

from components.sections import panels
from components.state import context, session
from components.widgets import nav
from components.widgets.safe import md_escape

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = ctx.require()
st.title("Profile")
# Presenter mode: the shown analysis names spaces by pseudonym; the choice keeps the real
# tag (it holds when presenter mode is turned off) and only shows its pseudonym.
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
    if session.PROFILE_SPACE.get() not in tags:
        session.PROFILE_SPACE.set(ctx.conn.space if ctx.conn.space in tags else tags[0])
    tag = st.selectbox("Space", tags, format_func=lambda t: alias.get(str(t), str(t)),
                       **session.bind(session.PROFILE_SPACE))
    panels.profile_panel(analysis, alias.get(tag, tag) if tag else tag, open_in_explorer=True)
