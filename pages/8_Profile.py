"""Profile: each space's static and dynamic lines, with the memories they came from."""

import streamlit as st

from components import panels
from components.bootstrap import bootstrap
from components.safe import md_escape

ctx = bootstrap("Profile")
analysis = ctx.require()
st.title("Profile")
tags = sorted(analysis.dataset.profiles)
if ctx.source is not None and not ctx.source.capabilities.can("profile"):
    st.info(md_escape(ctx.source.capabilities.reason("profile")))
elif not tags:
    st.info("No profile is loaded for this source.")
else:
    tag = st.selectbox("Space", tags, key="profile_space")
    panels.profile_panel(analysis, tag)
