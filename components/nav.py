"""The sidebar navigation with readable page names (Streamlit's own is turned off)."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitPageNotFoundError

ROOT = Path(__file__).resolve().parent.parent
PAGES = (
    ("app.py", "Explorer", "🕸️"),
    ("pages/1_Audit.py", "Audit", "🩺"),
    ("pages/8_Profile.py", "Profile", "👤"),
    ("pages/2_Insights.py", "Insights", "📊"),
    ("pages/3_Expiry.py", "Expiry queue", "⏳"),
    ("pages/4_Export.py", "Export", "📦"),
    ("pages/6_Ledger.py", "Ledger", "📒"),
    ("pages/7_Forget_all.py", "Forget all", "🧹"),
    ("pages/5_Connection.py", "Connection", "🔌"),
)


def link(path: str, **kwargs: Any) -> None:
    """``st.page_link`` that stays quiet when the page is not registered.

    That happens only when a page script runs as the entry point on its own (AppTest
    of one page); under ``streamlit run app.py`` every file in ``pages/`` is registered.
    """
    with contextlib.suppress(StreamlitPageNotFoundError):
        st.page_link(path, **kwargs)


def navigation() -> None:
    """Links to every page that exists."""
    for path, label, icon in PAGES:
        if (ROOT / path).exists():
            link(path, label=label, icon=icon)
