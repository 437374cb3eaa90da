"""The one cache boundary of the explorer's view pipeline: one :class:`Pipeline` per
process, shared by every session (it holds the shared loads and memoises every step;
:mod:`memscope.pipeline`)."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from components.state.data import layout_cache
from memscope.pipeline.core import Pipeline
from memscope.pipeline.keeping import Keeper
from memscope.pipeline.loads import LOAD_TTL_S, Loads

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
