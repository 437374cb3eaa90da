"""Memscope's one entry point: the router.

Sets the page up once, builds the app context (URL, connection, data, the shared sidebar)
and runs the chosen page, which only arranges its own sections. Every run calls
``st.navigation`` — the sign-in gate too, with the sign-in page as its only page (served
at every page's URL) — so the ``pages/`` folder beside this file never switches Streamlit
to its old multipage mode (docs/architecture.md).
"""

from pathlib import Path

import streamlit as st

from components.sections import sidebar
from components.state import auth, context
from components.widgets import nav
from components.widgets.loading import LoadScreen

# the favicon is a file of ours: a ``:material/…:`` page icon would be fetched from a CDN
ICON = Path(__file__).resolve().parent / "components" / "assets" / "memscope.png"
st.set_page_config(page_title="Memscope", page_icon=str(ICON), layout="wide")

PAGES = [
    st.Page("pages/explorer.py", title="Explorer", icon=":material/hub:", default=True),
    st.Page("pages/audit.py", title="Audit", icon=":material/fact_check:"),
    st.Page("pages/profile.py", title="Profile", icon=":material/person:"),
    st.Page("pages/insights.py", title="Insights", icon=":material/insights:"),
    st.Page("pages/recall.py", title="Recall map", icon=":material/manage_search:"),
    st.Page("pages/slideshow.py", title="Slideshow", icon=":material/slideshow:"),
    st.Page("pages/expiry.py", title="Expiry queue", icon=":material/hourglass_bottom:"),
    st.Page("pages/compare.py", title="Compare", icon=":material/compare_arrows:"),
    st.Page("pages/export.py", title="Export", icon=":material/download:"),
    st.Page("pages/ledger.py", title="Ledger", icon=":material/receipt_long:"),
    st.Page("pages/forget_all.py", title="Forget all", icon=":material/delete_sweep:"),
    st.Page("pages/connection.py", title="Connection", icon=":material/cable:"),
]

user = auth.gate(PAGES)  # signed out: only the sign-in page, at each page's URL
page = st.navigation(PAGES, position="sidebar")  # drawn next: always there to navigate
with context.guarded():
    ctx = context.build(sidebar.draw, user, screen=LoadScreen)
    banner = sidebar.time_travel_banner(ctx)
    if banner is not None:
        st.info(banner, icon=":material/history:")
    with nav.routed():  # the page's nav.through_router() lets it pass
        page.run()
