"""Forget all: preview exactly what would be deleted, then confirm by typing."""

import streamlit as st

from components.sections import forget_all
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = nav.require(ctx)
st.title("Forget all")
forget_all.forget_all_section(ctx, analysis, ctx.visible())
