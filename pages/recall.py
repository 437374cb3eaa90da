"""Recall map: a list of questions run through the source's own search; the graph coloured
by how often each memory came back, the latest memories never recalled, a CSV."""

import streamlit as st

from components.sections import recall
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = nav.require(ctx)
st.title("Recall map")
if recall.searchable(ctx):
    recall.questions_form(ctx)
    recall.progress(ctx)
    recall.results(ctx, analysis)
