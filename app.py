"""Memscope home page."""

import streamlit as st

from components import overview
from components.bootstrap import bootstrap

ctx = bootstrap("Memory graph")
analysis = ctx.require()
st.title("Memscope")
overview.counts(analysis)
overview.data_issues(analysis)
st.subheader("Memories")
overview.memory_table(analysis)
