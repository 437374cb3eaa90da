"""What one view of the explorer asks for: a frozen, hashable request.

A page builds one :class:`ViewRequest` per run from ONE clock read (``now``, which
judges states and is never part of a key; ``epoch`` is what a key sees of it). The
defaults a first visit gets live here only (:meth:`ViewRequest.first`): the sidebar's
session defaults and the server's warm-up both come from them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import Any

from memscope.graph.build import EDGE_KINDS
from memscope.lenses.asof import BELIEVED, Clock
from memscope.lenses.filters import Filters
from memscope.pipeline.loads import LoadRef
from memscope.view.budget import DEFAULT_BUDGET

ALL_EDGE_KINDS = frozenset(EDGE_KINDS)
#: the colouring a first view gets
DEFAULT_COLOR_BY = "cluster"


def node_filters(filters: Filters) -> Filters:
    """``filters`` without its edge kinds (which nodes pass does not depend on them)."""
    return replace(filters, edge_kinds=ALL_EDGE_KINDS)


@dataclass(frozen=True)
class ViewRequest:
    """Everything a view depends on. Each step of :mod:`memscope.pipeline.steps` names
    the fields it reads; its memo key holds those and nothing else."""

    #: the load (its key holds the credential *fingerprint*, never the credential)
    load: LoadRef
    #: the namespace of the shared layout (:meth:`~memscope.sources.Source.identity`)
    identity: str
    #: the state epoch of today's data at ``now`` (states are equal within one epoch)
    epoch: int
    #: the one clock reading of this run: judges states, never keyed
    now: datetime = field(compare=False, hash=False)
    as_of: date | None = None
    presenter: bool = False
    since: date | None = None
    #: the clock ``as_of``, ``since`` and the playback's days read
    #: (:data:`~memscope.lenses.asof.CLOCKS`)
    clock: Clock = BELIEVED
    #: which nodes pass (edge kinds normalised to all: they never hide a node)
    node_filters: Filters = field(default_factory=Filters)
    edge_kinds: frozenset[str] = ALL_EDGE_KINDS
    color_by: str = DEFAULT_COLOR_BY
    budget: int = DEFAULT_BUDGET
    expanded: frozenset[str] = frozenset()
    query: str = ""
    selected: str | None = None
    #: what other sections ask to highlight (the Ask answer …); only the drawn step
    marked: frozenset[str] = frozenset()
    #: semantic findings reviewed as "not a conflict" (their keys): no edge drawn for them
    dismissed: frozenset[str] = frozenset()

    @classmethod
    def first(cls, load: LoadRef, identity: str, now: datetime, epoch: int) -> ViewRequest:
        """The request of a first visit: today, unmasked, no filter, the defaults."""
        return cls(load=load, identity=identity, epoch=epoch, now=now)

    @property
    def filters(self) -> Filters:
        """The filters as the sidebar holds them (node filters plus edge kinds)."""
        return replace(self.node_filters, edge_kinds=self.edge_kinds)

    def with_settings(self, *, filters: Filters | None = None, **changes: Any) -> ViewRequest:
        """This request with the sidebar's settings (``filters`` split into node filters
        and edge kinds; the query stripped)."""
        if filters is not None:
            changes["node_filters"] = node_filters(filters)
            changes["edge_kinds"] = frozenset(filters.edge_kinds)
        if "query" in changes:
            changes["query"] = str(changes["query"] or "").strip()
        return replace(self, **changes)


__all__ = ["ALL_EDGE_KINDS", "DEFAULT_COLOR_BY", "ViewRequest", "node_filters"]
