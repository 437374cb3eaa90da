"""Expiry queue: memories scheduled to be forgotten, soonest first."""

import streamlit as st

from components.sections import audit
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = nav.require(ctx)
st.title("Expiry queue")
visible = ctx.visible()
audit.filter_note(visible, analysis)
audit.expiry_section(analysis, visible)
