"""Long tables: a page lists the first :data:`TABLE_ROWS` rows and says how many more its
CSV download holds (a table of 20,000 rows is no reading, and costs the browser)."""

from __future__ import annotations

import streamlit as st

#: the most rows a page's table lists
TABLE_ROWS = 500


def more_in_csv(total: int) -> None:
    """Under a table cut to :data:`TABLE_ROWS` of ``total`` rows: one caption saying so
    (nothing when every row is listed)."""
    if total > TABLE_ROWS:
        st.caption(f"The first {TABLE_ROWS:,} of {total:,} are listed; the CSV has every one.")
