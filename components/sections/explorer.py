"""The home page's explorer: filters, text search, the graph, the node panel, the legend.

The explorer only draws: it builds the view request of this run (the sidebar's settings
from the app context, plus the search, the selection, the expanded clusters and the
marks other sections ask for) and asks the process's pipeline for the view
(:meth:`memscope.pipeline.core.Pipeline.view`), which memoises every step by exactly what
it depends on. A click therefore rebuilds nothing and re-sends no graph.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from components.graph_view import graph_view, group_annotations
from components.sections import ask, forget, panels, semantic_review, why
from components.sections import audit as audit_ui
from components.sections.marks import graph_marks
from components.sections.overview import summary_strip
from components.state import data, session
from components.state.context import AppContext, flash
from components.state.pipeline import pipeline, view_for
from components.state.session import slot
from components.widgets import stage
from components.widgets.safe import md_escape, short
from memscope.graph.analysis import Analysis
from memscope.lenses.filters import Match
from memscope.pipeline.request import ViewRequest
from memscope.records.text import counted
from memscope.sources import SourceError, merge_history
from memscope.view.budget import cluster_of, is_cluster
from memscope.view.timeline import build_timeline

# -- the session slots this module owns (components.state.session collects them) --
# the drawer over the graph (issue 23, item 1)
DRAWER_DISMISSED = slot("drawer_dismissed", __name__,
                        "The search and answer the drawer was closed on: (query, answer key).")
EXPANDED = slot("expanded_clusters", __name__,
                "Clusters of the overview the user expanded.", set)
TEXT_SEARCH = slot("text_search", __name__,
                   "The explorer's text search (its widget's key).", str)
# the history played back under the graph (issue 19, item 3: playback.js)
PLAY_HISTORY = slot("play_history", __name__,
                    "The explorer's 'Play the history' toggle: send the graph its timeline.",
                    bool, widget=True)
GRAPH_STATE = slot("graph", __name__,
                   "The graph component's own state (what the browser selected).")

COLOR_LABELS = {"cluster": "Cluster", "space": "Space", "document_type": "Document type"}


def search_input() -> str:
    """The local text search box (for the explorer's compact bar); returns the query."""
    query = st.text_input("Search memory and document text", key=TEXT_SEARCH.name,
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
        opened: set[str] = EXPANDED.setdefault()
        opened ^= {cluster_of(node_id)}
        session.select(None)
        return
    session.select(node_id)


def _request(ctx: AppContext, query: str, marked: set[str]) -> ViewRequest | None:
    """This run's view request: the context's (the sidebar's settings) plus what the
    explorer itself holds in the session."""
    if ctx.request is None:
        return None
    return replace(ctx.request, query=query, selected=session.selected(),
                   expanded=frozenset(EXPANDED.get()), marked=frozenset(marked),
                   dismissed=semantic_review.dismissed(ctx))


@st.fragment
def explorer(ctx: AppContext, analysis: Analysis) -> None:
    """The explorer: a compact search-and-ask bar, a one-line summary, then the graph
    with the drawer over its right edge.

    The graph takes the page's width and the window's height below it, sized in the
    browser (:data:`components.widgets.stage.GRAPH_HEIGHT`), so a first visit is one run
    and one graph message whatever the window. The drawer (:func:`drawer`) holds the
    search matches, the Ask answer and the selected node's panel; it is drawn after the
    graph, inside the graph's stage, and placed over it by the page stylesheet, so
    opening or closing it neither moves nor remounts the graph.
    A fragment: a click, a search or a legend pick reruns this part only, not the page
    (the router, the sidebar, the load). When an action changed the data meanwhile, the
    whole app reruns so everything shows the new data.
    """
    if data.is_stale(ctx.key, ctx.load_revision):
        st.rerun()
    stage.mount()  # Esc and the drawer's background; no state, never a run
    search_col, ask_col = st.columns(2, vertical_alignment="bottom")
    with search_col:
        query = search_input()
    with ask_col:
        ask.ask_form(ctx)
    req = _request(ctx, query, graph_marks(ctx, analysis))
    if req is None:
        st.info("No data is loaded.")
        return
    with st.container(horizontal=True, vertical_alignment="center", gap="medium"):
        summary_strip(ctx, analysis)
        playing = st.toggle("Play the history", help="A timeline under the graph: the memory "
                            "as it stood on each day or week, played in the browser (for "
                            "facts with two clocks, on the clock “Time travel shows” "
                            "picks in the sidebar).", **session.bind(PLAY_HISTORY))
    view = view_for(req)
    drawn = view.drawn
    timeline = (build_timeline(view.scoped, drawn, basis=pipeline().playback(req))
                if playing else None)
    # the stage's place first, then what is under it, then the graph and the drawer into
    # the stage: the graph's element is the last of the run (pages/explorer.py)
    graph_stage = st.container(key=stage.STAGE_KEY)
    st.caption(f"{view.caption(req.budget)} Click a node to see its details, history and "
               "profile. Keys on the graph: + − zoom, 0 fit, f full screen, Esc clear.")
    if playing and timeline is None:
        st.caption("Nothing in this data has a date, so there is no history to play.")
    elif timeline is not None and timeline.get("note"):  # data with two clocks: which one
        st.caption(timeline.get("note", ""))
    if req.expanded:  # below the graph, so showing it never moves (and remounts) it
        st.button("Collapse all expanded clusters", key="collapse_all",
                  on_click=EXPANDED.clear)
    if view.comparison is not None:
        audit_ui.changes_section(analysis, view.comparison)
    with graph_stage:  # the graph, then the drawer over it
        fit_ids, fit_label = view.fit(drawn)
        graph_view(drawn, key=GRAPH_STATE.name, height=stage.GRAPH_HEIGHT,
                   physics=ctx.settings.physics and not playing,  # playback: nothing moves
                   focus=view.focus(req.selected),
                   on_select=_on_select, fit_ids=fit_ids, fit_label=fit_label,
                   annotations=group_annotations(drawn), timeline=timeline)
        drawer(ctx, analysis, req.selected, query, view.matches, view.cluster_name)


def _answer_key(ctx: AppContext) -> tuple | None:
    """The key of the Ask answer the drawer would show (the last question asked of this
    source), or ``None``."""
    source, current = ctx.source, ask.ASK_CURRENT.get()
    if source is None or not current or source.capabilities.reason("search"):
        return None
    if current[0] != source.cache_key() or current not in ask.ASKED.get():
        return None
    return current


def _close(topic: tuple) -> None:
    """The drawer's close button (and Esc, which clicks it): the selection is cleared
    and the search and answer shown are not shown again until they change."""
    DRAWER_DISMISSED.set(topic)
    session.select(None)


def drawer(ctx: AppContext, analysis: Analysis, selected: str | None, query: str,
           matches: list[Match], cluster: str | None) -> None:
    """The drawer over the graph's right edge: open while a node is selected or a search
    or an answer is shown (until closed), with a close button (Esc outside the graph
    clicks it; the graph's own Esc clears the selection)."""
    answer = _answer_key(ctx)
    topic = (query, answer)
    found = bool(query or answer) and topic != DRAWER_DISMISSED.get()
    if not selected and not found:
        return
    parts = (["Matches"] if found and query else []) + (["Results"] if found and answer else [])
    title = " · ".join([*parts, *(["Selected node"] if selected else [])])
    with st.container(key=stage.DRAWER_KEY):
        with st.container(key="drawer_head", horizontal=True, vertical_alignment="center"):
            st.markdown(f"**{title}**", width="stretch")
            st.button("Close", key=stage.CLOSE_KEY, icon=":material/close:", type="tertiary",
                      on_click=_close, args=(topic,), help="Close the panel (Esc)")
        if found:
            search_matches(matches, query)
            ask.ask_results(ctx, analysis)
        if selected:
            node_panel(ctx, analysis, selected, cluster)


def _fetch_history(ctx: AppContext, memory_id: str) -> None:
    """Complete a chain whose older versions were not loaded (a button callback)."""
    if ctx.source is None or ctx.load is None:
        return
    try:
        records = ctx.source.history(memory_id)
    except SourceError as exc:
        flash(str(exc), "error")
        return
    ds = ctx.load.dataset  # shared and read-only: the history goes into a copy
    fuller = replace(ds, memories=dict(ds.memories),
                     memory_documents=dict(ds.memory_documents))
    added = merge_history(fuller, records)
    if added:
        data.touch(ctx.key, replace(ctx.load, dataset=fuller))
    flash(f"Fetched {counted(len(added), 'older version')}." if added else
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
    opened = semantic_review.opened_from(ctx, node_id)  # the finding that brought you here
    if opened:
        st.info(md_escape(opened), icon=":material/rule:")

    def fetch(memory_id: str) -> None:
        _fetch_history(ctx, memory_id)

    can_fetch = ctx.source is not None and ctx.source.capabilities.can("history")
    if node_id in analysis.dataset.memories:
        why.button(node_id, where="panel")
    note = ctx.source.capabilities.note("review_inferred") if ctx.source else None
    panels.node_panel(analysis, node_id, fetch_history=fetch if can_fetch else None,
                      inferred_note=note)
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
    elif node_id in ds.documents and ctx.source is not None \
            and ctx.source.forgets_documents:  # Zep: an episode, with its own facts
        st.divider()
        forget.button(ctx, node_id, label="Forget this episode…")
    elif node_id in ds.entities:
        facts = [r for r in ds.relations.values() if node_id in (r.subject_id, r.object_id)]
        if facts:
            st.caption("Forget a fact (the service deletes the nearest match; Memscope checks "
                       "afterwards which fact really went)")
            names = {e_id: e.name for e_id, e in ds.entities.items()}
            for rel in facts:
                sentence = short(rel.sentence(names), 60)
                forget.button(ctx, rel.id, label=f"Forget: {md_escape(sentence)}")
        why.fact_buttons(analysis, node_id)
    forget.dialog(ctx)
    why.dialog(ctx, analysis)  # the one call of a run with a node selected (else ask's)
