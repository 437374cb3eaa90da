"""Compare: two moments or two sources (a snapshot against what is live, as of one day
against another, two snapshots) — what was added, removed and changed, as a table, a
CSV file and marks on the graph."""

import streamlit as st

from components.sections import compare
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
st.title("Compare")
compare.section(ctx)
