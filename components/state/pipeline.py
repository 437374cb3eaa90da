"""The one cache boundary of the explorer's view pipeline: one :class:`Pipeline` per
process, shared by every session (it holds the shared loads and memoises every step;
:mod:`memscope.pipeline`), owned by the application object
(:meth:`memscope.app.Memscope.pipeline`)."""

from __future__ import annotations

import streamlit as st

from components.state.app import application
from memscope import kept
from memscope.pipeline.core import Pipeline, View
from memscope.pipeline.loads import LoadGone
from memscope.pipeline.request import ViewRequest


def pipeline() -> Pipeline:
    """The process's pipeline (the shared loads, kept files, shared layouts)."""
    return application().pipeline()


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
