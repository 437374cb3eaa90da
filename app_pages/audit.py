"""Audit: integrity findings by kind, the version chains, and a diff of any two versions."""

import streamlit as st

from components.sections import audit
from components.state import context

ctx = context.current()
analysis = ctx.require()
st.title("Audit")
visible = ctx.visible()
audit.filter_note(visible, analysis)
st.subheader("Integrity findings")
audit.findings_section(analysis, visible)
st.subheader("Version chains")
table = audit.chains_section(analysis, visible)
st.subheader("Compare two versions")
audit.diff_section(analysis, table)
