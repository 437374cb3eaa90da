"""The home page's explorer: filters, text search, the graph, the node panel, the legend.

Layout positions are computed once per data revision and views once per (revision,
state epoch, scope, filters), both shared read-only between sessions; the collapsed
overview once per view and expansion. A click therefore rebuilds
nothing and re-sends no graph.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable
from datetime import date

import pandas as pd
import streamlit as st

from components import audit_ui, data, forget, panels
from components.bootstrap import AppContext, flash
from components.graph_view import graph_view
from components.loading import positions_drawn_while_loading
from components.safe import md_escape, short
from memscope.graph.analysis import Analysis
from memscope.graph.build import EDGE_KINDS
from memscope.lenses.filters import Filters, Match, search_text, visible_nodes
from memscope.sources import SourceError, merge_history
from memscope.view.budget import (
    DEFAULT_BUDGET,
    MAX_BUDGET,
    MIN_BUDGET,
    Overview,
    cluster_of,
    is_cluster,
    overview,
    with_kept,
)
from memscope.view.build import COLOR_BY, ViewData, build_view, cluster_groups, highlight
from memscope.view.changes import mark_changes
from memscope.view.layout import extend_positions, layout_positions

COLOR_LABELS = {"cluster": "Cluster", "space": "Space", "document_type": "Document type"}


@st.cache_resource(show_spinner="Laying out the graph…", max_entries=8)
def _positions(key: tuple, revision: int, _analysis: Analysis
               ) -> dict[Hashable, tuple[float, float]]:
    # always laid out from today's full graph: an as-of or filtered view is a subset of
    # it, so nodes keep their places whatever is shown; nodes drawn while a live source
    # was loading keep the places they had then
    drawn = positions_drawn_while_loading(key)
    if drawn:
        return extend_positions(_analysis.graph.graph, drawn, seed=7)
    return layout_positions(_analysis.graph.graph, seed=7)


@st.cache_resource(show_spinner=False, max_entries=8)
def _clusters(key: tuple, revision: int, _analysis: Analysis
              ) -> tuple[dict[str, str], dict[str, str]]:
    return cluster_groups(_analysis)


@st.cache_resource(show_spinner=False, max_entries=32)
def _view(key: tuple, revision: int, epoch: int, scope: tuple, filters_key: tuple,
          color_by: str, _analysis: Analysis, _current: Analysis, _filters: Filters
          ) -> ViewData:
    """The full (filtered) view; ``scope`` = (as-of day, presenter) of ``_analysis``."""
    visible = visible_nodes(_analysis, _filters)
    view = build_view(_analysis, color_by=color_by, visible=visible,  # type: ignore[arg-type]
                      positions=_positions(key, revision, _current))
    kinds = _filters.edge_kinds
    if set(kinds) != set(EDGE_KINDS):
        view["edges"] = [e for e in view["edges"] if e["kind"] in kinds]
        view["legend"]["edges"] = {k: sum(1 for e in view["edges"] if e["kind"] == k)
                                   for k in view["legend"]["edges"]}
    return view


@st.cache_resource(show_spinner=False, max_entries=32)
def _overview(view_key: tuple, budget: int, expanded: frozenset[str], _view: ViewData,
              _clusters: tuple[dict[str, str], dict[str, str]]) -> Overview:
    clusters, labels = _clusters
    return overview(_view, clusters, labels, budget=budget, expanded=expanded)


def _follow_bounds(bounds: tuple[date, date]) -> None:
    """When the data's date range changes (an add, a reload), a date filter still at the
    old full range follows it, so new nodes are not hidden; a narrowed range is kept."""
    old = st.session_state.get("f_dates_bounds")
    st.session_state["f_dates_bounds"] = bounds
    if old is not None and old != bounds and tuple(st.session_state.get("f_dates") or ()) \
            == tuple(old):
        del st.session_state["f_dates"]


def filters_sidebar(analysis: Analysis) -> tuple[Filters, str, bool]:
    """The filter controls; returns the filters, the colour-by choice and physics."""
    spaces, types = analysis.spaces, analysis.document_types
    with st.sidebar:
        st.markdown("**Filters**")
        chosen_spaces = st.multiselect("Space", spaces, key="f_spaces",
                                       placeholder="All spaces") if spaces else []
        chosen_types = st.multiselect("Document type", types, key="f_types",
                                      placeholder="All types") if types else []
        bounds = analysis.date_range
        date_from = date_to = None
        if bounds:
            _follow_bounds(bounds)
            picked = st.date_input("Created between", value=bounds, min_value=bounds[0],
                                   max_value=bounds[1], key="f_dates")
            if isinstance(picked, tuple | list) and len(picked) == 2 \
                    and tuple(picked) != bounds:  # the full range filters nothing
                date_from, date_to = picked
        kinds = st.multiselect("Relation kinds", list(EDGE_KINDS), default=list(EDGE_KINDS),
                               key="f_edge_kinds")
        show_superseded = st.checkbox("Show superseded versions", value=True,
                                      key="f_superseded")
        show_forgotten = st.checkbox("Show forgotten memories", value=True, key="f_forgotten")
        color_by = st.selectbox("Colour by", list(COLOR_BY), key="f_color_by",
                                format_func=COLOR_LABELS.get)
        physics = st.toggle("Physics", value=False, key="f_physics",
                            help="A bounded force simulation; off draws the server layout.")
    filters = Filters(
        spaces=frozenset(chosen_spaces), document_types=frozenset(chosen_types),
        date_from=date_from, date_to=date_to,
        edge_kinds=frozenset(kinds), show_superseded=show_superseded,
        show_forgotten=show_forgotten)
    return filters, color_by, physics


@st.cache_resource(show_spinner=False, max_entries=16)
def _search(view_key: tuple, query: str, _analysis: Analysis, _visible: set[str]
            ) -> list[Match]:
    return search_text(_analysis, query, within=_visible)


def search_box(analysis: Analysis, visible: set[str], view_key: tuple) -> list[Match]:
    """The local text search (once per view and query); lists matches, selecting one
    focuses it."""
    query = st.text_input("Search memory and document text", key="text_search",
                          placeholder="e.g. Lisbon")
    if not query.strip():
        return []
    matches = _search(view_key, query.strip(), analysis, visible)
    st.caption(f"{len(matches)} match{'es' if len(matches) != 1 else ''}"
               + (" (first 200)" if len(matches) >= 200 else ""))
    with st.container(height=min(240, 40 + 38 * len(matches)) if matches else None):
        for i, m in enumerate(matches[:200]):
            st.button(f"{m.kind}: {md_escape(short(m.excerpt, 90))}", key=f"match-{i}-{m.node_id}",
                      on_click=panels.select, args=(m.node_id,), type="tertiary")
    return matches


def legend(view: ViewData) -> None:
    """Counts per kind, state, edge kind and colour group."""
    lg = view["legend"]
    with st.expander("Legend", expanded=False):
        cols = st.columns(3)
        cols[0].dataframe(pd.DataFrame({"kind": list(lg["kinds"]),
                                        "shown": list(lg["kinds"].values())}),
                          hide_index=True)
        cols[1].dataframe(pd.DataFrame({"state": list(lg["states"]),
                                        "shown": list(lg["states"].values())}),
                          hide_index=True)
        cols[2].dataframe(pd.DataFrame({"edge": list(lg["edges"]),
                                        "shown": list(lg["edges"].values())}),
                          hide_index=True)
        st.caption(f"★ static memories: {lg['static']}. Colour by "
                   f"{COLOR_LABELS.get(lg['color_by'], lg['color_by'])}:")
        st.dataframe(pd.DataFrame([{"group": c["label"], "colour": c["color"],
                                    "nodes": c["count"]} for c in lg["colors"]]),
                     hide_index=True)


EXPANDED = "expanded_clusters"


def _on_select(node_id: str | None) -> None:
    """A click: a cluster node toggles its expansion, any other node is selected."""
    if node_id is not None and is_cluster(node_id):
        opened: set[str] = st.session_state.setdefault(EXPANDED, set())
        opened ^= {cluster_of(node_id)}
        st.session_state[panels.SELECTED] = None
        return
    panels.select(node_id)


def _keep(analysis: Analysis, selected: str | None, marked: set[str]) -> set[str]:
    """Nodes always drawn as themselves: the selection, its neighbours, the highlights."""
    keep = set(marked)
    g = analysis.graph.graph
    if selected and selected in g:
        keep.add(selected)
        keep.update(g.predecessors(selected))
        keep.update(g.successors(selected))
    return keep


def explorer(ctx: AppContext, analysis: Analysis, *,
             extra_highlight: Collection[str] = ()) -> None:
    """The whole explorer: filters in the sidebar, graph and panel side by side.
    ``extra_highlight`` (e.g. the Ask results) is highlighted with the text-search matches."""
    filters, color_by, physics = filters_sidebar(analysis)
    st.session_state[audit_ui.FILTERS_KEY] = filters  # the other pages follow the filters
    with st.sidebar:
        budget = st.number_input(
            "Drawing budget (nodes)", min_value=MIN_BUDGET, max_value=MAX_BUDGET,
            value=DEFAULT_BUDGET, step=500, key="f_budget",
            help="Past this many nodes the graph shows an overview: clusters collapse "
                 "into hexagons that expand on click.")
    current = ctx.current or analysis
    revision = ctx.load_revision
    scope = (ctx.as_of, ctx.presenter)
    view_key = (ctx.key, revision, ctx.epoch, scope, filters.key(), color_by)
    view = _view(*view_key, analysis, current, filters)
    visible = {n["id"] for n in view["nodes"]}
    selected = st.session_state.get(panels.SELECTED)
    graph_col, panel_col = st.columns([3, 2], gap="medium")
    with graph_col:
        matches = search_box(analysis, visible, view_key)
        marked = ({m.node_id for m in matches} | set(extra_highlight)) & visible
        expanded = frozenset(st.session_state.get(EXPANDED, set()))
        ov = _overview(view_key, int(budget), expanded, view,
                       _clusters(ctx.key, revision, current))
        drawn, info = with_kept(ov, _keep(analysis, selected, marked))
        if marked:
            drawn = highlight(drawn, marked)
        if ctx.comparison is not None:
            drawn = mark_changes(drawn, ctx.comparison)
        st.caption(f"Showing {len(view['nodes'])} of {analysis.graph.graph.number_of_nodes()} "
                   f"nodes and {len(view['edges'])} edges. {info.sentence(int(budget))}")
        graph_view(drawn, key="graph", height=620, physics=physics,
                   focus=selected if selected in visible else None,
                   on_select=_on_select)
        if expanded:  # below the graph, so showing it never moves (and remounts) the graph
            st.button("Collapse all expanded clusters", key="collapse_all",
                      on_click=lambda: st.session_state.pop(EXPANDED, None))
        legend(view)
        if ctx.comparison is not None:
            audit_ui.changes_section(analysis, ctx.comparison)
    with panel_col:
        node_panel(ctx, analysis, selected)


def _fetch_history(ctx: AppContext, memory_id: str) -> None:
    """Complete a chain whose older versions were not loaded (a button callback)."""
    if ctx.source is None or ctx.load is None:
        return
    try:
        records = ctx.source.history(memory_id)
    except SourceError as exc:
        flash(str(exc), "error")
        return
    added = merge_history(ctx.load.dataset, records)
    data.touch(ctx.key)
    flash(f"Fetched {len(added)} older version(s)." if added else
          "The service has no older versions of this memory.", "info")


def node_panel(ctx: AppContext, analysis: Analysis, node_id: str | None) -> None:
    """The selected node's panel, its forget button and its space's profile."""
    if not node_id:
        st.info("Click a node (or a search match) to see its details, history and profile.")
        return
    fetch = None
    if ctx.source is not None and ctx.source.capabilities.can("history"):
        def fetch(memory_id: str) -> None:
            _fetch_history(ctx, memory_id)
    panels.node_panel(analysis, node_id, fetch_history=fetch)
    ds = analysis.dataset
    mem = ds.memories.get(node_id)
    if mem is not None:
        st.divider()
        current = (ctx.current or analysis).dataset.memories.get(node_id)
        if current is not None and current.is_forgotten:
            forget.restore_button(ctx, node_id)
        else:
            forget.button(ctx, node_id)
        st.divider()
        panels.profile_panel(analysis, mem.container_tag)
    elif node_id in ds.entities:
        facts = [r for r in ds.relations.values() if node_id in (r.subject_id, r.object_id)]
        if facts:
            st.caption("Forget a fact (the service deletes the nearest match; Memscope checks "
                       "afterwards which fact really went)")
            names = {e_id: e.name for e_id, e in ds.entities.items()}
            for rel in facts:
                sentence = short(rel.sentence(names), 60)
                forget.button(ctx, rel.id, label=f"Forget: {md_escape(sentence)}")
    forget.dialog(ctx)
