"""The one edge-kind filter of a drawn view (the explorer and the exports share it), and
the suspected-contradiction edges the semantic audit adds to a drawn view."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from memscope.graph.build import CONTRADICTS, EDGE_KINDS
from memscope.view.colors import AMBER
from memscope.view.payload import EdgeStyle, Legend, LegendEntry, ViewData, VisEdge

#: a suspected contradiction: (older memory id, newer memory id, score in [0, 1])
Pair = tuple[str, str, float]
#: how a suspected contradiction is drawn: thick, dashed, no arrow (neither side is the
#: newer truth); orange, apart from every kind the graph itself holds, and still orange
#: when one of its memories is selected (vis-network would turn it grey)
CONTRADICTS_STYLE: EdgeStyle = {"color": {"color": AMBER, "highlight": AMBER,
                                          "hover": AMBER}, "width": 3, "dashes": [10, 4]}
CONTRADICTS_MEANING = "suspected contradiction"


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


def contradiction_edge(index: int, pair: Pair) -> VisEdge:
    """One drawn suspected-contradiction edge (no arrow: neither side is the newer
    truth). Its tooltip holds the score only — no word of the data, so presenter mode
    has nothing to mask in it."""
    older, newer, score = pair
    style = CONTRADICTS_STYLE
    edge: VisEdge = {"id": f"c{index}", "from": older, "to": newer, "kind": CONTRADICTS,
                     "color": dict(style["color"]), "width": style["width"],
                     "title": f"suspected contradiction (score {score:.2f})"}
    if "dashes" in style:
        edge["dashes"] = list(style["dashes"])
    return edge


def pairs_within(pairs: Iterable[Pair], ids: Collection[str],
                 kinds: Collection[str] | None) -> list[Pair]:
    """The pairs whose two memories are both in ``ids``, when ``kinds`` (the relation
    kinds filter; ``None``: all) lets the kind through."""
    if kinds is not None and CONTRADICTS not in kinds:
        return []
    return [p for p in pairs if p[0] in ids and p[1] in ids and p[0] != p[1]]


def with_contradictions(view: ViewData, pairs: Iterable[Pair],
                        kinds: Collection[str] | None = None) -> ViewData:
    """``view`` plus one :data:`~memscope.graph.build.CONTRADICTS` edge per pair whose two
    memories are drawn in it as themselves (a memory inside a collapsed cluster draws
    none); the legend counts them. ``view`` itself is not modified.

    >>> view = {"nodes": [{"id": "a"}, {"id": "b"}], "edges": [],
    ...         "legend": {"edges": {"contradicts": 0}, "edge_styles": []}}
    >>> out = with_contradictions(view, [("a", "b", 0.9), ("a", "z", 0.8)])
    >>> [(e["from"], e["to"], e["kind"]) for e in out["edges"]], out["legend"]["edges"]
    ([('a', 'b', 'contradicts')], {'contradicts': 1})
    >>> with_contradictions(view, [("a", "b", 0.9)], {"updates"}) is view
    True
    """
    drawn = {n["id"] for n in view["nodes"]}
    kept = pairs_within(pairs, drawn, kinds)
    if not kept:
        return view
    added = [contradiction_edge(i, p) for i, p in enumerate(kept)]
    return {"nodes": view["nodes"], "edges": [*view["edges"], *added],
            "legend": count_contradictions(view["legend"], len(added))}


def count_contradictions(legend: Legend, count: int) -> Legend:
    """``legend`` with ``count`` suspected-contradiction edges: its edge count and its
    legend line (with the style they are drawn with). A view built from the graph lists
    no such line; ``legend`` itself is not modified."""
    out = legend.copy()
    out["edges"] = {**legend.get("edges", {}), CONTRADICTS: count}
    line: LegendEntry = {"key": CONTRADICTS, "label": CONTRADICTS_MEANING, "count": count,
                         "style": {"color": dict(CONTRADICTS_STYLE["color"]),
                                   "width": CONTRADICTS_STYLE["width"],
                                   "dashes": list(CONTRADICTS_STYLE.get("dashes", []))}}
    out["edge_styles"] = [*(e for e in legend.get("edge_styles", [])
                            if e["key"] != CONTRADICTS), line]
    return out
