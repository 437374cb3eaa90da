"""Forget all: preview exactly what would be deleted, then confirm by typing."""

import streamlit as st

from components import audit_ui, forget_all_ui
from components.bootstrap import bootstrap

ctx = bootstrap("Forget all")
analysis = ctx.require()
st.title("Forget all")
forget_all_ui.forget_all_section(ctx, analysis, audit_ui.current_visible(analysis))
