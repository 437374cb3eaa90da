"""The one call every page starts with: page config, connection, data, sidebar.

Pages must be self-sufficient (a fresh server can run ``pages/X.py`` without
``app.py``), so each calls :func:`bootstrap` first.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import date

import streamlit as st

from components import connection, data, nav
from components.safe import md_escape
from memscope.graph.analysis import Analysis
from memscope.lenses.asof import Comparison
from memscope.settings import store_path
from memscope.sources import LoadResult, Source, SourceError

for _name in ("httpx", "httpcore"):  # httpx logs request URLs at INFO
    logging.getLogger(_name).setLevel(logging.WARNING)

FLASH = "flash_messages"
PRESENTER = "presenter_mode"
AS_OF = "as_of_date"
COMPARE_FROM = "compare_from_date"
LAST_LINK = "last_linked_node"
LAST_SPACE = "last_linked_space"


@dataclass
class AppContext:
    """What a page needs: the connection, its source and the analysis of its data."""

    conn: connection.Connection
    source: Source | None = None
    key: tuple = ()
    load: LoadResult | None = None
    #: what the pages show: as of the chosen date, masked in presenter mode
    analysis: Analysis | None = None
    #: the data as it is now, unmasked: what actions (forget, ledger snapshots) act on
    current: Analysis | None = None
    error: str | None = None
    presenter: bool = False
    as_of: date | None = None
    comparison: Comparison | None = None
    #: bumps whenever the shared load changes in place (forget, history fetch, resume)
    load_revision: int = 0
    #: changes only when some memory's state changes with the clock
    epoch: int = 0

    def require(self) -> Analysis:
        """The analysis, or stop the page with the loading error."""
        if self.analysis is None:
            st.error(md_escape(self.error or "No data is loaded."))
            nav.link("pages/5_Connection.py", label="Open the Connection page")
            st.stop()
        return self.analysis


def flash(message: str, kind: str = "success") -> None:
    """Show ``message`` as a toast after the next rerun."""
    st.session_state.setdefault(FLASH, []).append((kind, message))


def _show_flash() -> None:
    for kind, message in st.session_state.pop(FLASH, []):
        icon = {"success": "✅", "error": "⚠️", "info": "ℹ️"}.get(kind, "ℹ️")
        st.toast(md_escape(message), icon=icon)
        if kind == "error":
            st.error(md_escape(message))


def _follow_space_link() -> None:
    """Adopt ``?space=`` when it changed, and keep the URL naming the current space."""
    space = st.query_params.get("space")
    conn = connection.current()
    if space and space != st.session_state.get(LAST_SPACE) and space != conn.space:
        connection.switch(replace(conn, space=space))
        conn = connection.current()
    st.session_state[LAST_SPACE] = conn.space
    if conn.space:
        st.query_params["space"] = conn.space
    elif "space" in st.query_params:
        del st.query_params["space"]


def _seed_selection() -> None:
    """Adopt ``?node=`` when it changed (deep links and links between pages)."""
    node = st.query_params.get("node")
    if node and node != st.session_state.get(LAST_LINK):
        st.session_state[LAST_LINK] = node
        st.session_state["selected_node"] = node


def bootstrap(title: str) -> AppContext:
    """Set up the page and load the current source; never raises for a load failure."""
    st.set_page_config(page_title=f"{title} · Memscope", page_icon="🔭", layout="wide")
    data.ensure_demo_store(str(store_path()))
    _follow_space_link()
    _seed_selection()
    _show_flash()
    ctx = AppContext(conn=connection.current())
    try:
        ctx.source = connection.source_for(ctx.conn)
        ctx.key, entry = data.load(ctx.source)
        ctx.load, ctx.load_revision = entry.load, entry.revision
        ctx.current = data.analysis_of(ctx.key, entry)
        ctx.epoch = data.epoch_of(ctx.key, entry)
    except (connection.ConnectionProblem, SourceError) as exc:
        ctx.error = str(exc)
    _sidebar(ctx)
    if ctx.current is not None:
        _time_and_presenter(ctx, entry)
    return ctx


def _time_and_presenter(ctx: AppContext, entry: data.Entry) -> None:
    """The as-of date, the two-date comparison and presenter mode (sidebar + analysis)."""
    assert ctx.current is not None
    bounds = ctx.current.date_range
    with st.sidebar:
        st.divider()
        ctx.presenter = st.toggle(
            "Presenter mode", key=PRESENTER,
            help="Masks memory, document and profile text everywhere (graph, panels, "
                 "charts, exports); the structure stays.")
        if bounds is not None:
            ctx.as_of = st.date_input(
                "As of", value=None, min_value=bounds[0], key=AS_OF, format="YYYY-MM-DD",
                help="Show the memory as it stood at the end of that day (empty: now).")
            since = st.date_input(
                "Changes since", value=None, min_value=bounds[0], key=COMPARE_FROM,
                format="YYYY-MM-DD",
                help="Colour what was added, updated or forgotten between this day and "
                     "the as-of day (or today).")
            if since is not None:
                ctx.comparison = data.comparison_of(ctx.key, entry, since, ctx.as_of)
                if ctx.comparison is None:
                    st.caption("“Changes since” must be before the as-of day.")
    if ctx.as_of is None and not ctx.presenter:
        ctx.analysis = ctx.current
    else:
        ctx.analysis = data.derived_analysis(ctx.key, entry, ctx.as_of, ctx.presenter)
    if ctx.as_of is not None:
        st.info(f"Time travel: showing the memory as it stood on {ctx.as_of.isoformat()} "
                "(clear “As of” in the sidebar to return to now).")


def _refresh(ctx: AppContext) -> None:
    data.forget_cached(ctx.key)


def _resume(ctx: AppContext) -> None:
    if ctx.source is None or ctx.load is None:
        return
    try:
        result = ctx.source.resume(ctx.load)
    except SourceError as exc:
        flash(str(exc), "error")
        return
    data.touch(ctx.key, result)
    flash(result.summary(), "success" if result.complete else "info")


def _sidebar(ctx: AppContext) -> None:
    with st.sidebar:
        st.markdown("### Memscope")
        nav.navigation()
        st.divider()
        st.caption(f"Source: {md_escape(ctx.conn.label)}"
                   + (f" · space {md_escape(ctx.conn.space)}" if ctx.conn.space else ""))
        if ctx.error:
            st.error(md_escape(ctx.error))
        elif ctx.load is not None:
            st.caption(md_escape(ctx.load.summary()))
            if ctx.load.missing_pages:
                st.button("Resume: fetch missing pages", on_click=_resume, args=(ctx,),
                          key="resume_pages")
            for note in ctx.load.notes:
                st.caption(md_escape(note))
        if ctx.source is not None:
            st.button("Refresh data", on_click=_refresh, args=(ctx,), key="refresh_data",
                      help="Load again from the source (the cache keeps data for 15 min).")
