"""The Connection page's migration check ("v4 ↔ v5"): with the current Supermemory key,
load the space through the legacy (v3/v4) and the current (v5) API, show what differs in
a table, and mark the differing nodes on the graph.

The comparison is :func:`memscope.reports.migration.compare` (the command line's
``memscope diff`` uses the same). The report is kept in session state with the source it
was made for (:data:`MIGRATION_REPORT`); the explorer marks its
nodes through :func:`components.sections.marks.graph_marks` while that source is the
connected one. Presenter mode masks the texts in the table.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st
from pydantic import ValidationError

from components.state import connection
from components.state.context import AppContext
from components.state.session import slot
from components.widgets import nav
from components.widgets.safe import md_escape
from memscope.graph.analysis import Analysis
from memscope.records.text import counted
from memscope.reports.migration import (
    ROW_MEANINGS,
    MigrationReport,
    Value,
    compare,
    load_both,
)
from memscope.sources import LoadProgress, SourceError

# -- the session slots this module owns (components.state.session collects them) --
MIGRATION_REPORT = slot("migration_report", __name__,
                        "The last v4 ↔ v5 migration check: (source key, report) — its "
                        "differing ids are marked on the graph.")

TITLE = "Migration check (v4 ↔ v5)"
BUTTON = "Compare the legacy (v3/v4) and current (v5) APIs"
DIALECT_WORDS = {"legacy": "legacy API (v3/v4)", "v5": "current API (v5)"}


def _source_key(ctx: AppContext) -> tuple[str, ...] | None:
    return None if ctx.source is None else ctx.source.cache_key()


def current_report(ctx: AppContext) -> MigrationReport | None:
    """The last report, if it was made for the connected source (a switch leaves it)."""
    held = MIGRATION_REPORT.get()
    key = _source_key(ctx)
    if not isinstance(held, tuple) or len(held) != 2 or key is None or held[0] != key:
        return None
    report = held[1]
    return report if isinstance(report, MigrationReport) else None


def marked_ids(ctx: AppContext, analysis: Analysis) -> set[str]:
    """The graph nodes the last report names (those the loaded graph holds)."""
    report = current_report(ctx)
    if report is None:
        return set()
    g = analysis.graph.graph
    return {n for n in report.node_ids() if n in g}


def applies(ctx: AppContext) -> bool:
    """Whether the check means anything for the chosen source: only Supermemory has two
    APIs (a mem0 history.db, Spomory, a file: the section is not shown)."""
    return ctx.conn.kind.startswith("supermemory")


def why_not(ctx: AppContext) -> str | None:
    """Why the check cannot run now (one sentence), else ``None``."""
    if not applies(ctx):
        return ("The migration check compares Supermemory's two APIs: connect to "
                "Supermemory first.")
    if connection.api_key() is None:
        return "Enter the Supermemory API key above first."
    if ctx.source is None:
        return "The migration check needs the connection above to work first."
    return None


def _cell(value: Value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def table(report: MigrationReport) -> pd.DataFrame:
    """The report's rows as a table of text (what differs, where, each side's value)."""
    return pd.DataFrame({
        "what": [r.kind for r in report.rows],
        "legacy (v3/v4)": [_cell(r.legacy) for r in report.rows],
        "current (v5)": [_cell(r.v5) for r in report.rows],
        "id": [r.id for r in report.rows],  # secondary: last
    })


def _run(ctx: AppContext) -> None:
    """Load the space both ways (with progress) and keep the report."""
    key = connection.api_key()
    source_key = _source_key(ctx)
    if key is None or source_key is None:
        return
    bar = st.progress(0.0, text="Loading through the legacy API (v3/v4)…")
    offsets = {"legacy": 0.0, "v5": 0.5}

    def step(dialect: str, p: LoadProgress) -> None:
        bar.progress(min(1.0, offsets.get(dialect, 0.0) + p.fraction / 2),
                     text=f"{DIALECT_WORDS.get(dialect, dialect)}: {p.words} · "
                          f"{p.memories:,} memories")

    try:
        loads = load_both(key, base_url=ctx.conn.base_url, space=ctx.conn.space,
                          progress=step)
    except SourceError as exc:
        bar.empty()
        st.error(md_escape(str(exc)))
        return
    except ValidationError as exc:
        bar.empty()
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "setting"
        st.error(md_escape(f"The {where} is not valid: {first.get('msg')}."))
        return
    bar.empty()
    MIGRATION_REPORT.set((source_key, compare(loads.legacy, loads.v5, space=ctx.conn.space)))
    st.caption(md_escape(requests_sentence(loads.calls.get("legacy", 0),
                                           loads.calls.get("v5", 0))))


def requests_sentence(legacy: int, v5: int) -> str:
    """How many requests each API took, in words.

    >>> requests_sentence(4, 830)
    'Loading took 4 requests through the legacy API and 830 through the current API.'
    """
    return (f"Loading took {counted(legacy, 'request')} through the legacy API and "
            f"{v5:,} through the current API.")


def section(ctx: AppContext) -> None:
    """The migration check: the button, the outcome sentence, the table of differences.
    Not shown at all for a source it does not apply to (:func:`applies`)."""
    if not applies(ctx):
        return
    st.subheader(TITLE)
    st.caption("Loads the space through both of Supermemory's APIs with the key above and "
               "compares memories, texts, versions, latest and forgotten flags, chain "
               "edges and documents.")
    reason = why_not(ctx)
    if reason is not None:
        st.caption(md_escape(reason))
        return
    if st.button(BUTTON, key="migration_run"):
        _run(ctx)
    report = current_report(ctx)
    if report is None:
        return
    shown = report.masked() if ctx.presenter else report
    if report.identical:
        st.success(md_escape(shown.sentence()))
        return
    st.warning(md_escape(shown.sentence()))
    st.dataframe(table(shown), hide_index=True, width="stretch",
                 column_config={"what": st.column_config.TextColumn(
                     "what", help="; ".join(f"{k}: {v}" for k, v in ROW_MEANINGS.items()))})
    marked = marked_ids(ctx, ctx.current) if ctx.current is not None else set()
    if marked:
        st.caption(md_escape(f"The graph marks the {len(marked)} node"
                             f"{'s' if len(marked) != 1 else ''} these rows name."))
        nav.link(nav.EXPLORER, label="Show them on the graph", icon=":material/hub:")
