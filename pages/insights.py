"""Insights: charts of the memory, following the sidebar's filters."""

import streamlit as st

from components.sections import audit, insights
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = nav.require(ctx)
st.title("Insights")
visible = ctx.visible()
audit.filter_note(visible, analysis)
insights.charts(analysis, visible)
