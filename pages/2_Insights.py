"""Insights: charts of the memory, following the explorer's filters."""

import streamlit as st

from components import audit_ui, insights_ui
from components.bootstrap import bootstrap

ctx = bootstrap("Insights")
analysis = ctx.require()
st.title("Insights")
visible = audit_ui.current_visible(analysis)
audit_ui.filter_note(visible, analysis)
insights_ui.charts(analysis, visible)
