"""Memscope home page: the graph explorer."""

import streamlit as st

from components import explorer, overview
from components.bootstrap import bootstrap

ctx = bootstrap("Memory graph")
analysis = ctx.require()
overview.counts(analysis)
overview.data_issues(analysis)
explorer.explorer(ctx, analysis)
with st.expander("All memories as a table"):
    overview.memory_table(analysis)
