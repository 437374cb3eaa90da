"""Headline counts, the summary card, the memory table and the data-issues panel.

The summary sentences and the memory table are steps of the process's view pipeline
(``summary`` and ``memory_table``, :mod:`memscope.pipeline.steps`), memoised per scope
(the load, the state epoch, as of, presenter mode) like the view itself.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components.state.context import AppContext
from components.state.pipeline import pipeline
from components.state.session import slot
from components.widgets.folds import fold
from components.widgets.safe import md_escape
from memscope.graph.analysis import Analysis
from memscope.pipeline.loads import LoadGone
from memscope.records.text import counted

# -- the session slots this module owns (components.state.session collects them) --
SHOW_MEMORY_TABLE = slot("show_memory_table", __name__,
                         "Whether the explorer's memory table is built (widget key).")
DATA_ISSUES_OPEN = slot("data_issues_open", __name__,
                        "Whether the explorer's data issues expander is open.", bool,
                        widget=True)


def count_line(analysis: Analysis) -> str:
    """The headline counts in one line, in the source's own terms (a Spomory graph has
    entities and relations, not documents and memories)."""
    c = analysis.counts()
    parts: list[str] = []
    if c["documents"] or c["memories"]:
        parts += [_count(c["documents"], "document"), _count(c["memories"], "memory"),
                  _count(c["chains"], "version chain")]
    if c["entities"] or c["relations"]:  # a Graphiti graph has entities, its facts no relations
        parts += [_count(c["entities"], "entity")] + (
            [_count(c["relations"], "relation")] if c["relations"] or not c["memories"] else [])
    if not parts:
        parts.append("nothing loaded yet")
    parts.append(_count(c["findings"], "integrity finding"))
    return " · ".join(parts)


def _count(n: int, word: str) -> str:
    """``n`` with thousands separators and ``word`` in the plural unless it is 1."""
    return f"{n:,}{counted(n, word)[len(str(n)):]}"


def _step(ctx: AppContext, name: str) -> Any:
    """Pipeline step ``name`` of this run's request, ``None`` without one (the page reruns
    on the new data when another session changed the load meanwhile)."""
    if ctx.request is None:
        return None
    try:
        return pipeline().get(name, ctx.request)
    except LoadGone:
        st.rerun()


def overview_card(ctx: AppContext, analysis: Analysis) -> None:
    """The summary card: two or three plain sentences computed from the analysis (in
    presenter mode a masked one) and the counts in one line."""
    sentences: list[str] | None = _step(ctx, "summary")
    with st.container(border=True, key="summary_card"):
        if sentences:
            st.markdown(md_escape(" ".join(sentences)))
        st.caption(count_line(analysis))


def summary_strip(ctx: AppContext, analysis: Analysis) -> None:
    """One line above the explorer's graph that says what is loaded: the counts, and a
    "Summary" button that opens the summary card (:func:`overview_card`) over the page.

    A strip rather than the drawer's default content: the first view then shows the
    whole graph with nothing over it, and still says what it is a graph of.
    """
    with st.container(key="summary_strip", horizontal=True, vertical_alignment="center",
                      gap="small"):
        st.caption(count_line(analysis), width="content")
        with st.popover("Summary", icon=":material/info:", type="tertiary"):
            overview_card(ctx, analysis)


def memory_table(ctx: AppContext, analysis: Analysis) -> None:
    """The memories as a sortable table, built only when asked for (and then memoised)."""
    if not st.toggle(f"Show all {len(analysis.dataset.memories)} memories as a table",
                     key=SHOW_MEMORY_TABLE.name):
        return
    frame: pd.DataFrame | None = _step(ctx, "memory_table")
    if frame is None:
        return
    st.dataframe(frame, hide_index=True, width="stretch", key="memory_table")


def data_issues(analysis: Analysis) -> None:
    """Skipped records and noted issues, each with its reason."""
    report = analysis.dataset.report
    if not report.skipped and not report.issues:
        return
    label = f"Data issues: {len(report.skipped)} skipped, {len(report.issues)} noted"
    box, is_open = fold(label, DATA_ISSUES_OPEN)
    if not is_open:  # nothing inside is drawn until it is opened (folds.py)
        return
    with box:
        if report.skipped:
            st.dataframe(pd.DataFrame([{"record": s.record, "reason": s.reason}
                                       for s in report.skipped]), hide_index=True)
        if report.issues:
            st.dataframe(pd.DataFrame([{"record": i.record, "issue": i.message}
                                       for i in report.issues]), hide_index=True)
