"""Slideshow: pick a few nodes of the graph with a caption each, save the show as a small
file, open one, and play it full screen (the graph flying from one node to the next)."""

import streamlit as st

from components.sections import slideshow
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = nav.require(ctx)
st.title("Slideshow")
st.caption("A demo in a few steps: click a node, type what to say about it, Add step; "
           "then Play. Presenter mode masks the data's own text; your captions and title "
           "are shown as you wrote them.")
slideshow.section(ctx, analysis)
