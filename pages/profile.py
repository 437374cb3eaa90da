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
tags = sorted(analysis.dataset.profiles)
if ctx.source is not None and not ctx.source.capabilities.can("profile"):
    st.info(md_escape(ctx.source.capabilities.reason("profile")))
elif not tags:
    st.info("No profile is loaded for this source.")
else:
    if session.PROFILE_SPACE.get() not in tags:
        session.PROFILE_SPACE.set(ctx.conn.space if ctx.conn.space in tags else tags[0])
    tag = st.selectbox("Space", tags, **session.bind(session.PROFILE_SPACE))
    panels.profile_panel(analysis, tag, open_in_explorer=True)
