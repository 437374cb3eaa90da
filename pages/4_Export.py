"""Export: the filtered graph as GraphML, GEXF, node-link JSON, CSV and offline HTML;
evidence packs of a chain or subgraph."""

import streamlit as st

from components import audit_ui, export_ui
from components.bootstrap import bootstrap

ctx = bootstrap("Export")
analysis = ctx.require()
st.title("Export")
visible = audit_ui.current_visible(analysis)
audit_ui.filter_note(visible, analysis)
st.subheader("The current graph")
export_ui.graph_downloads(analysis, visible)
st.subheader("Evidence pack")
export_ui.evidence_section(analysis)
