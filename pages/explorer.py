"""Explorer (home): the compact search-and-ask bar, a one-line summary, the graph across
the page with its drawer (matches, answers, the selected node), Add, "Forget memories
about…", the memory table and data issues.

The sections under the graph are drawn first, into their places below it, and the
explorer last: the graph's element is then the last the browser receives in a run, and
its first frame waits for no other element's render (issue 33, item 2)."""

import streamlit as st

from components.sections import ask, explorer, overview, semantic_forget
from components.state import context
from components.widgets import nav, stage

nav.through_router()  # never drawn without the router (app.py)
stage.stylesheet()  # the page's layout and fonts (a style-only element: no room taken)
ctx = context.current()
analysis = nav.require(ctx)
top = st.container()  # the explorer, drawn last: the graph is the run's last element
ask.add_box(ctx)
semantic_forget.section(ctx, analysis)
overview.memory_table(ctx, analysis)
overview.data_issues(analysis)
with top:
    explorer.explorer(ctx, analysis)
