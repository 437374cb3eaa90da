"""The Insights page's pieces: every chart of :mod:`memscope.reports.insights`, two per row."""

from __future__ import annotations

from collections.abc import Collection

import streamlit as st

from memscope.graph.analysis import Analysis
from memscope.reports.insights import CHARTS

#: plotly's mode bar without the plotly.com link and logo; the charts follow the app's
#: theme (theme="streamlit"), so they are not white boxes in dark mode
PLOT_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["sendDataToCloud"]}


def charts(analysis: Analysis, visible: Collection[str] | None) -> None:
    """Draw every chart, following ``visible`` (the explorer's filters)."""
    for start in range(0, len(CHARTS), 2):
        cols = st.columns(2)
        for col, (key, chart) in zip(cols, CHARTS[start:start + 2], strict=False):
            with col:
                st.plotly_chart(chart(analysis, visible), key=f"chart_{key}",
                                config=PLOT_CONFIG, theme="streamlit")
