"""Expiry queue: memories scheduled to be forgotten, soonest first."""

import streamlit as st

from components import audit_ui
from components.bootstrap import bootstrap

ctx = bootstrap("Expiry queue")
analysis = ctx.require()
st.title("Expiry queue")
visible = audit_ui.current_visible(analysis)
audit_ui.filter_note(visible, analysis)
audit_ui.expiry_section(analysis, visible)
