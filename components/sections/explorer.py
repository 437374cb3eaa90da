"""The home page's explorer: filters, text search, the graph, the node panel, the legend.

Layout positions are computed once per data revision and views once per (revision,
state epoch, scope, filters), both shared read-only between sessions; the collapsed
overview once per view and expansion. A click therefore rebuilds
nothing and re-sends no graph.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import cast

import streamlit as st

from components.graph_view import graph_view, group_annotations
from components.sections import ask, forget, legend, panels
from components.sections import audit as audit_ui
from components.sections.overview import overview_card
from components.state import data, session
from components.state.context import AppContext, Settings, flash
from components.widgets.loading import positions_drawn_while_loading
from components.widgets.safe import md_escape, short
from memscope.graph.analysis import Analysis
from memscope.lenses.filters import Filters, Match, search_text, visible_nodes
from memscope.sources import SourceError, merge_history
from memscope.storage import layout_key
from memscope.view import derived
from memscope.view.budget import (
    DEFAULT_BUDGET,
    Overview,
    OverviewBase,
    cluster_of,
    is_cluster,
    overview_base,
    overview_of,
    with_kept,
)
from memscope.view.build import ColorBy, ViewData, cluster_groups, highlight
from memscope.view.changes import mark_changes
from memscope.view.layout import extend_positions

COLOR_LABELS = {"cluster": "Cluster", "space": "Space", "document_type": "Document type"}


@st.cache_resource(show_spinner="Laying out the graph…", max_entries=8)
def _positions(key: tuple, revision: int, identity: str, digest: str, _analysis: Analysis
               ) -> dict[Hashable, tuple[float, float]]:
    # always laid out from today's full graph: an as-of or filtered view is a subset of
    # it, so nodes keep their places whatever is shown; nodes drawn while a live source
    # was loading keep the places they had then (those are not shared: they depend on
    # what this server drew)
    drawn = positions_drawn_while_loading(key)
    if drawn:
        return extend_positions(_analysis.graph.graph, drawn, seed=7)
    return dict(_derived(key, revision, identity, digest, _analysis).positions)


@st.cache_resource(show_spinner="Preparing the graph…", max_entries=4)
def _derived(key: tuple, revision: int, identity: str, digest: str, _analysis: Analysis
             ) -> derived.Derived:
    # positions, clusters and their names for this content (``digest``): read from the
    # file `memscope warm` (or an earlier run) left in the data folder; else the layout
    # another replica shared through the storage, with clusters computed here; else all
    # computed now, saved beside the data and shared through the storage
    cache = data.layout_cache()
    shared = layout_key(identity, digest, f"seed={derived.LAYOUT_SEED}")
    found: list[bool] = []

    def from_storage() -> dict[str, tuple[float, float]] | None:
        layout = cache.get_layout(shared)
        found.append(layout is not None)
        return layout

    d = derived.load_or_compute(analysis=_analysis, digest=digest, positions=from_storage)
    if found == [False]:  # computed here: share it
        cache.put_layout(shared, {str(n): xy for n, xy in d.positions.items()})
    return d


ViewKey = tuple[tuple, int, int, tuple, tuple, ColorBy]


def _view_key(key: tuple, revision: int, epoch: int, scope: tuple, filters: Filters,
              color_by: str) -> ViewKey:
    """What a drawn view depends on: the load and its revision, the state epoch, the
    scope (as of, presenter), the filters and the colouring."""
    # the sidebar offers only COLOR_BY's keys
    return (key, revision, epoch, scope, filters.key(), cast(ColorBy, color_by))


def prepare(key: tuple, entry: data.Entry, identity: str, analysis: Analysis) -> None:
    """Everything the explorer's first view of a load needs, ahead of it (the server's
    warm-up): the layout, clusters and names, and the overview a first visit draws —
    today's data, unmasked, with the sidebar's defaults (:class:`Settings`)."""
    digest = data.digest_of_load(key, entry)
    _derived(key, entry.revision, identity, digest, analysis)
    s = Settings()
    view_key = _view_key(key, entry.revision, data.epoch_of(key, entry), (None, False),
                         s.filters, s.color_by)
    _overview(view_key, None, identity, digest, int(s.budget or DEFAULT_BUDGET),
              frozenset(), False, analysis, analysis, s.filters, analysis)


@st.cache_resource(show_spinner=False, max_entries=8)
def _clusters(key: tuple, revision: int, identity: str, digest: str, presenter: bool,
              _analysis: Analysis) -> tuple[dict[str, str], dict[str, str]]:
    # grouped on today's full graph, so clusters stay put whatever is shown; in presenter
    # mode ``_analysis`` is today's masked graph (the same structure, so the same
    # clusters), whose names carry no word of the data
    if presenter:
        return cluster_groups(_analysis)
    d = _derived(key, revision, identity, digest, _analysis)
    return dict(d.clusters), dict(d.labels)


@st.cache_resource(show_spinner=False, max_entries=32)
def _visible(key: tuple, revision: int, epoch: int, scope: tuple, filters_key: tuple,
             _analysis: Analysis, _filters: Filters) -> frozenset[str]:
    return frozenset(visible_nodes(_analysis, _filters))


def _shown(view_key: ViewKey, extra: str | None, analysis: Analysis, filters: Filters
           ) -> frozenset[str]:
    """The nodes a view shows: what passes its filters, plus ``extra`` (a selected node
    the filters hide)."""
    key, revision, epoch, scope, filters_key, _color_by = view_key
    visible = _visible(key, revision, epoch, scope, filters_key, analysis, filters)
    return visible | {extra} if extra is not None else visible


@st.cache_resource(show_spinner=False, max_entries=4)  # tens of MB each at 50k memories
def _overview_base(view_key: ViewKey, extra: str | None, identity: str, digest: str,
                   presenter: bool, _analysis: Analysis, _current: Analysis,
                   _filters: Filters, _named: Analysis) -> OverviewBase:
    # what every expansion of one view shares (the per-node work): opening a hexagon
    # then only regroups and reconnects
    key, revision, _epoch, _scope, _filters_key, color_by = view_key
    clusters, _labels = _clusters(key, revision, identity, digest, presenter, _named)
    return overview_base(_analysis, _positions(key, revision, identity, digest, _current),
                         clusters, visible=_shown(view_key, extra, _analysis, _filters),
                         color_by=color_by, edge_kinds=_filters.edge_kinds)


@st.cache_resource(show_spinner=False, max_entries=32)
def _overview(view_key: ViewKey, extra: str | None, identity: str, digest: str, budget: int,
              expanded: frozenset[str], presenter: bool, _analysis: Analysis,
              _current: Analysis, _filters: Filters, _named: Analysis) -> Overview:
    """The drawable overview, built straight from the graph, the shared positions and
    the clusters (past the budget only what is drawn is built, from the view's shared
    :class:`OverviewBase`); ``extra`` is a selected node drawn even when the filters
    hide it."""
    key, revision, _epoch, _scope, _filters_key, color_by = view_key
    visible = _shown(view_key, extra, _analysis, _filters)
    clusters, labels = _clusters(key, revision, identity, digest, presenter, _named)
    positions = _positions(key, revision, identity, digest, _current)
    base = _overview_base(view_key, extra, identity, digest, presenter, _analysis, _current,
                          _filters, _named) if len(visible) > budget else None
    return overview_of(_analysis, positions, clusters, labels, visible=visible,
                       color_by=color_by, budget=budget, expanded=expanded,
                       edge_kinds=_filters.edge_kinds, base=base)


@st.cache_resource(show_spinner=False, max_entries=16)
def _search(view_key: tuple, query: str, _analysis: Analysis, _visible: set[str]
            ) -> list[Match]:
    return search_text(_analysis, query, within=_visible)


def search_input() -> str:
    """The local text search box (for the explorer's compact bar); returns the query."""
    query = st.text_input("Search memory and document text", key=session.TEXT_SEARCH.name,
                          placeholder="e.g. Lisbon")
    return query.strip()


def search_matches(matches: list[Match], query: str) -> None:
    """The matches of ``query`` among the drawn nodes, listed; selecting one focuses it."""
    if not query:
        return
    if not matches:
        st.caption(f"No match for “{md_escape(short(query, 60))}”: the graph shows "
                   "everything the filters let through.")
        return
    st.caption(f"{len(matches)} match{'es' if len(matches) != 1 else ''}"
               + (" (first 200)" if len(matches) >= 200 else "")
               + " — highlighted in the graph.")
    with st.container(height=min(200, 40 + 38 * len(matches))):
        for i, m in enumerate(matches[:200]):
            st.button(f"{m.kind}: {md_escape(short(m.excerpt, 90))}",
                      key=f"match-{i}-{m.node_id}", on_click=session.select,
                      args=(m.node_id,), type="tertiary")


def _on_select(node_id: str | None) -> None:
    """A click: a cluster node toggles its expansion, any other node is selected."""
    if node_id is not None and is_cluster(node_id):
        opened: set[str] = session.EXPANDED.setdefault()
        opened ^= {cluster_of(node_id)}
        session.select(None)
        return
    session.select(node_id)


def _keep(analysis: Analysis, selected: str | None, marked: set[str]) -> set[str]:
    """Nodes always drawn as themselves: the selection, its neighbours, the highlights."""
    keep = set(marked)
    g = analysis.graph.graph
    if selected and selected in g:
        keep.add(selected)
        keep.update(g.predecessors(selected))
        keep.update(g.successors(selected))
    return keep


GRAPH_HEIGHT = 700


@st.fragment
def explorer(ctx: AppContext, analysis: Analysis) -> None:
    """The explorer: a compact search-and-ask bar, then the graph with the panel beside it.

    The side panel holds the search matches, the Ask answer and the selected node's panel.
    A fragment: a click, a search or a legend pick reruns this part only, not the page
    (the router, the sidebar, the load). When an action changed the data meanwhile, the
    whole app reruns so everything shows the new data.
    """
    if data.is_stale(ctx.key, ctx.load_revision):
        st.rerun()
    s = ctx.settings
    filters, color_by, physics = s.filters, s.color_by, s.physics
    budget = s.budget or DEFAULT_BUDGET
    current = ctx.current or analysis
    revision = ctx.load_revision
    scope = (ctx.as_of, ctx.presenter)
    view_key = _view_key(ctx.key, revision, ctx.epoch, scope, filters, color_by)
    selected = session.selected()
    identity = ctx.source.identity() if ctx.source is not None else ""
    digest = data.digest_of_load(ctx.key, ctx.entry) if ctx.entry is not None \
        else derived.digest_of(current)
    shown = _visible(*view_key[:5], analysis, filters)
    extra = selected if selected and selected in analysis.graph.graph \
        and selected not in shown else None
    visible = set(shown) | ({extra} if extra else set())
    expanded = frozenset(session.EXPANDED.get())
    named = current
    if ctx.presenter and ctx.entry is not None:
        named = data.derived_analysis(ctx.key, ctx.entry, None, True)
    ov = _overview(view_key, extra, identity, digest, int(budget), expanded, ctx.presenter,
                   analysis, current, filters, named)
    view: ViewData = {"nodes": [], "edges": [], "legend": ov.legend or ov.view["legend"]}
    search_col, ask_col = st.columns(2, vertical_alignment="bottom")
    with search_col:
        query = search_input()
    with ask_col:
        ask.ask_form(ctx)
    matches = _search(view_key, query, analysis, visible) if query else []
    marked = ({m.node_id for m in matches} | ask.answer_ids(ctx, analysis)) & visible
    graph_col, panel_col = st.columns([7, 3], gap="small")
    with graph_col:  # the graph first: it reaches the browser before the panel is built
        drawn, info = with_kept(ov, _keep(analysis, selected, marked))
        drawn = legend.only(drawn, legend.picked(view))
        if marked:
            drawn = highlight(drawn, marked)
        if ctx.comparison is not None:
            drawn = mark_changes(drawn, ctx.comparison)
        filtered = len(visible) < analysis.graph.graph.number_of_nodes()
        fit_ids, fit_label = (marked, "Fit matches") if marked else \
            ({n["id"] for n in drawn["nodes"]} if filtered else set(), "Fit filtered")
        graph_view(drawn, key=session.GRAPH_STATE.name, height=GRAPH_HEIGHT, physics=physics,
                   focus=selected if selected in visible else None,
                   on_select=_on_select, fit_ids=fit_ids, fit_label=fit_label,
                   annotations=group_annotations(drawn))
    with panel_col, st.container(height=GRAPH_HEIGHT + 40, border=False):
        overview_card(ctx, analysis)
        search_matches(matches, query)
        ask.ask_results(ctx, analysis)
        clusters, labels = _clusters(ctx.key, revision, identity, digest, ctx.presenter,
                                     named)
        group = clusters.get(selected) if selected else None
        node_panel(ctx, analysis, selected, labels.get(group) if group else None)
    with graph_col:
        st.caption(f"Showing {len(visible)} of {analysis.graph.graph.number_of_nodes()} "
                   f"nodes and {ov.total_edges} edges. {info.sentence(int(budget))} "
                   "Keys on the graph: + − zoom, 0 fit, f full screen, Esc clear.")
        if expanded:  # below the graph, so showing it never moves (and remounts) the graph
            st.button("Collapse all expanded clusters", key="collapse_all",
                      on_click=session.EXPANDED.clear)
        legend.legend(view)
        if ctx.comparison is not None:
            audit_ui.changes_section(analysis, ctx.comparison)


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


def node_panel(ctx: AppContext, analysis: Analysis, node_id: str | None,
               cluster: str | None = None) -> None:
    """The selected node's panel (with the name of its cluster), its forget button and
    its space's profile."""
    if not node_id:
        st.info("Click a node (or a search match) to see its details, history and profile.")
        return
    if cluster:
        st.caption(f"In the cluster “{md_escape(cluster)}”")

    def fetch(memory_id: str) -> None:
        _fetch_history(ctx, memory_id)

    can_fetch = ctx.source is not None and ctx.source.capabilities.can("history")
    panels.node_panel(analysis, node_id, fetch_history=fetch if can_fetch else None)
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
