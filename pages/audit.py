"""Audit: integrity findings by kind, the review queue of what the semantic audit suspects,
the version chains, and a diff of any two versions."""

import streamlit as st

from components.sections import audit, semantic_review
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = nav.require(ctx)
st.title("Audit")
visible = ctx.visible()
audit.filter_note(visible, analysis)
st.subheader("Integrity findings")
audit.findings_section(analysis, visible)
st.subheader("Review queue")
semantic_review.review_section(ctx, visible)
st.subheader("Version chains")
table = audit.chains_section(analysis, visible)
st.subheader("Compare two versions")
audit.diff_section(analysis, table)
