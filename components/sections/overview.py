"""Headline counts, the memory table and the data-issues panel."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from components.state import session
from components.state.context import AppContext
from components.widgets.safe import md_escape
from memscope.graph.analysis import Analysis
from memscope.records.text import CELL_MAX, LINE_MAX, clip
from memscope.records.time import format_time
from memscope.reports.summary import summarise


def count_line(analysis: Analysis) -> str:
    """The headline counts in one line, in the source's own terms (a Spomory graph has
    entities and relations, not documents and memories)."""
    c = analysis.counts()
    parts: list[str] = []
    if c["documents"] or c["memories"]:
        parts += [f"{c['documents']:,} documents", f"{c['memories']:,} memories",
                  f"{c['chains']:,} version chains"]
    if c["entities"] or c["relations"]:
        parts += [f"{c['entities']:,} entities", f"{c['relations']:,} relations"]
    if not parts:
        parts.append("nothing loaded yet")
    parts.append(f"{c['findings']:,} integrity finding{'s' if c['findings'] != 1 else ''}")
    return " · ".join(parts)


@st.cache_resource(show_spinner=False, max_entries=8)
def _sentences(key: tuple, revision: int, epoch: int, scope: tuple, _analysis: Analysis
               ) -> list[str]:
    return summarise(_analysis).sentences()  # reads every memory: once per data version


def prepare(key: tuple, revision: int, epoch: int, analysis: Analysis) -> None:
    """Compute the summary card's sentences of a load ahead of its first view (the
    server's warm-up: today, unmasked)."""
    _sentences(key, revision, epoch, (None, False), analysis)


def overview_card(ctx: AppContext, analysis: Analysis) -> None:
    """The summary card: two or three plain sentences computed from the analysis (in
    presenter mode a masked one) and the counts in one line."""
    sentences = _sentences(ctx.key, ctx.load_revision, ctx.epoch, (ctx.as_of, ctx.presenter),
                           analysis)
    with st.container(border=True, key="summary_card"):
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


def memory_frame(analysis: Analysis) -> pd.DataFrame:
    """One row per memory (text is data: ``st.dataframe`` shows it as text)."""
    ds = analysis.dataset
    rows = []
    for mem_id, mem in ds.memories.items():
        chain = analysis.chains.of(mem_id)
        entry = chain.entry(mem_id) if chain else None
        rows.append({
            "id": mem_id,
            "memory": clip(mem.memory, CELL_MAX),
            "state": analysis.state(mem_id),
            "static": mem.is_static,
            "inferred": mem.is_inference,
            "version": entry.version if entry else mem.version,
            "space": clip(mem.space, LINE_MAX) if mem.space else None,
            "documents": clip(", ".join(ds.memory_documents.get(mem_id, [])), CELL_MAX),
            "created": format_time(mem.created_at),
            "forget after": format_time(mem.forget_after),
            "forget reason": clip(mem.forget_reason, CELL_MAX) if mem.forget_reason else None,
        })
    frame = pd.DataFrame(rows, columns=[
        "id", "memory", "state", "static", "inferred", "version", "space", "documents", "created",
        "forget after", "forget reason"])
    frame["version"] = frame["version"].astype(str)
    return frame


@st.cache_resource(show_spinner=False, max_entries=4)
def _frame(key: tuple, revision: int, epoch: int, scope: tuple, _analysis: Analysis
           ) -> pd.DataFrame:
    return memory_frame(_analysis)


def memory_table(ctx: AppContext, analysis: Analysis) -> None:
    """The memories as a sortable table, built only when asked for (and then cached)."""
    if not st.toggle(f"Show all {len(analysis.dataset.memories)} memories as a table",
                     key=session.SHOW_MEMORY_TABLE.name):
        return
    frame = _frame(ctx.key, ctx.load_revision, ctx.epoch, (ctx.as_of, ctx.presenter),
                   analysis)
    st.dataframe(frame, hide_index=True, width="stretch", key="memory_table")


def data_issues(analysis: Analysis) -> None:
    """Skipped records and noted issues, each with its reason."""
    report = analysis.dataset.report
    if not report.skipped and not report.issues:
        return
    label = f"Data issues: {len(report.skipped)} skipped, {len(report.issues)} noted"
    with st.expander(label):
        if report.skipped:
            st.dataframe(pd.DataFrame([{"record": s.record, "reason": s.reason}
                                       for s in report.skipped]), hide_index=True)
        if report.issues:
            st.dataframe(pd.DataFrame([{"record": i.record, "issue": i.message}
                                       for i in report.issues]), hide_index=True)
