"""The one edge-kind filter of a drawn view (the explorer and the exports share it)."""

from __future__ import annotations

from collections.abc import Collection

from memscope.graph.build import EDGE_KINDS
from memscope.view.build import ViewData


def keep_edge_kinds(view: ViewData, kinds: Collection[str] | None) -> ViewData:
    """``view`` with only the edges of ``kinds`` (``None`` or every kind: unchanged).

    The legend's edge counts follow what is kept; ``view`` itself is not modified.

    >>> view = {"nodes": [], "edges": [{"id": "e1", "kind": "updates"},
    ...         {"id": "e2", "kind": "extends"}], "legend": {"edges": {"updates": 1,
    ...         "extends": 1}}}
    >>> [e["id"] for e in keep_edge_kinds(view, {"updates"})["edges"]]
    ['e1']
    >>> keep_edge_kinds(view, {"updates"})["legend"]["edges"]
    {'updates': 1, 'extends': 0}
    """
    if kinds is None or set(kinds) >= set(EDGE_KINDS):
        return view
    edges = [e for e in view["edges"] if e["kind"] in kinds]
    legend = view["legend"].copy()
    legend["edges"] = {k: sum(1 for e in edges if e["kind"] == k) for k in legend["edges"]}
    return {"nodes": view["nodes"], "edges": edges, "legend": legend}
