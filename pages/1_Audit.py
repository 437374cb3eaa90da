"""Audit: integrity findings by kind, the version chains, and a diff of any two versions."""

import streamlit as st

from components import audit_ui
from components.bootstrap import bootstrap

ctx = bootstrap("Audit")
analysis = ctx.require()
st.title("Audit")
visible = audit_ui.current_visible(analysis)
audit_ui.filter_note(visible, analysis)
st.subheader("Integrity findings")
audit_ui.findings_section(analysis, visible)
st.subheader("Version chains")
table = audit_ui.chains_section(analysis, visible)
st.subheader("Compare two versions")
audit_ui.diff_section(analysis, table)
