"""The one cache boundary of the explorer's view pipeline: one :class:`Pipeline` per
process, shared by every session (it holds the shared loads and memoises every step;
:mod:`memscope.pipeline`)."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from components.state.data import layout_cache
from memscope import kept
from memscope.pipeline.core import Pipeline, View
from memscope.pipeline.keeping import Keeper
from memscope.pipeline.loads import LOAD_TTL_S, LoadGone, Loads
from memscope.pipeline.request import ViewRequest

Position = tuple[float, float]


class _SharedLayouts:
    """The ledger's layout cache, looked up on every use (its database is configured by
    the secrets and the data folder the app runs with)."""

    def get_layout(self, key: str) -> dict[str, Position] | None:
        return layout_cache().get_layout(key)

    def put_layout(self, key: str, positions: Mapping[str, Position]) -> None:
        layout_cache().put_layout(key, positions)


@st.cache_resource(show_spinner=False)
def pipeline() -> Pipeline:
    """The process's pipeline (the shared loads, kept files, shared layouts)."""
    keeper = Keeper(layouts=_SharedLayouts())
    return Pipeline(Loads(ttl_s=LOAD_TTL_S, read=keeper.read_load, keep=keeper.keep_load),
                    keeper)


def view_for(req: ViewRequest) -> View:
    """The view of ``req`` for a page to draw, with a spinner while the graph is laid out
    (a first view of new data); when another session changed the load meanwhile, the page
    reruns on the new data instead."""
    p = pipeline()
    try:
        if p.cached("base", req) and p.cached("derived", req):
            return p.view(req)
        with st.spinner("Laying out the graph…"):
            view = p.view(req)
    except LoadGone:
        st.rerun()
    # a first view of a large load built long-lived structures (analysis, layout,
    # clusters, overview) after the load froze the heap: freeze them too, or a later
    # full collection walks them inside a rerun (0.5 s at 200k memories)
    if len(view.scoped.dataset.memories) >= p.loads.min_memories:
        kept.settle_heap(free_old=False)  # nothing was dropped: no full collection
    return view
