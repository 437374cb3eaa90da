"""A live source's load on screen: progress, and the graph growing as pages arrive.

While pages load, the graph of what has arrived is redrawn every few seconds; nodes
already drawn keep their positions (new ones are placed around them), and the explorer
starts from those positions when the load is done (:attr:`LoadScreen.positions` goes
with the load).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Hashable

import streamlit as st

from components.graph_view import graph_view
from memscope.graph.analysis import analyse
from memscope.records.dataset import Dataset
from memscope.records.text import counted
from memscope.sources import LoadProgress
from memscope.view.budget import DEFAULT_BUDGET, apply_budget
from memscope.view.build import build_view
from memscope.view.groups import cluster_keys
from memscope.view.layout import extend_positions

PREVIEW_EVERY_S = 3.0
Positions = dict[Hashable, tuple[float, float]]
_lock = threading.Lock()
#: positions drawn while loading, per load key (the last few loads); the load itself
#: carries them to the explorer (:attr:`memscope.pipeline.loads.Entry.drawn`)
_drawn: dict[tuple, Positions] = {}
KEEP_DRAWN = 4


def positions_drawn_while_loading(key: tuple) -> Positions | None:
    """The positions the preview gave the nodes of ``key``'s load, if it drew any."""
    with _lock:
        return _drawn.get(key)


class LoadScreen:
    """Progress bar, running counts and a throttled graph preview for one load."""

    def __init__(self, label: str, key: tuple) -> None:
        self.key = key
        self.status = st.status(f"Loading {label}…", expanded=True)
        self.bar = self.status.progress(0.0)
        self.line = self.status.empty()
        self.preview = self.status.empty()
        self.positions: Positions = {}
        self.last = 0.0
        self.drawn = 0

    def report(self, p: LoadProgress) -> None:
        """The progress callback: counts every page, a preview every few seconds."""
        words = p.words
        self.bar.progress(p.fraction, text=words[:1].upper() + words[1:])
        self.line.text(f"{counted(p.documents, 'document')}, "
                       f"{counted(p.memories, 'memory')} so far"
                       + (f"; {counted(p.pages_failed, 'page')} failed" if p.pages_failed
                          else ""))
        unfinished = p.pages_total is None or p.pages_done + p.pages_failed < p.pages_total
        if p.dataset is not None and unfinished \
                and time.monotonic() - self.last >= PREVIEW_EVERY_S:
            self._draw(p.dataset)
            self.last = time.monotonic()

    def _draw(self, dataset: Dataset) -> None:
        analysis = analyse(dataset)
        self.positions = extend_positions(analysis.graph.graph, self.positions, seed=7)
        groups = cluster_keys(analysis)  # once, for the colours and the budget
        view = build_view(analysis, positions=self.positions, groups=groups)
        keys, labels, _ = groups
        clusters = {str(k): v for k, v in keys.items()}
        view, _ = apply_budget(view, clusters, labels, budget=DEFAULT_BUDGET)
        self.drawn += 1
        with self.preview.container():
            st.caption(f"The graph so far ({len(dataset.memories)} memories); it keeps "
                       "growing while the rest loads.")
            graph_view(view, key=f"loading-preview-{self.drawn}", height=420)
        with _lock:
            _drawn.pop(self.key, None)
            _drawn[self.key] = dict(self.positions)
            while len(_drawn) > KEEP_DRAWN:  # the oldest loads' drawings go
                del _drawn[next(iter(_drawn))]

    def done(self, summary: str) -> None:
        """Close the status with the load's summary."""
        self.preview.empty()
        self.status.update(label=summary, state="complete", expanded=False)

    def failed(self) -> None:
        """Mark the load as failed (the error is shown by the caller)."""
        self.preview.empty()
        self.status.update(label="Loading failed", state="error")
