"""Export: the filtered graph as GraphML, GEXF, node-link JSON, CSV and offline HTML;
evidence packs of a chain or subgraph."""

import streamlit as st

from components.sections import audit, export
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = nav.require(ctx)
st.title("Export")
visible = ctx.visible()
audit.filter_note(visible, analysis)
st.subheader("The current graph")
export.graph_downloads(ctx, analysis, visible)
st.subheader("Evidence pack")
export.evidence_section(analysis, masked=ctx.presenter)
