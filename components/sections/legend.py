"""What a legend line names, read on the server.

The legend itself is drawn by the graph component over the canvas and highlights there,
in the browser (``components/graph_view/frontend/assets/legend.js``; the offline HTML
export inlines the same file): a click on a line fades everything it does not name.
This module is the same rule in Python, line for line: the lines of a view's legend in
the order the panel draws them, and what a pick of one line brings forward. The browser
tests hold the panel to it (after a click exactly :func:`only`'s items are unfaded).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from memscope.view.build import ViewData

SECTIONS = {"group": "colour", "shape": "shape", "state": "state", "edge": "relation"}
#: the key of the line that gathers the groups past the palette (legend.js uses the same)
OTHER = "\0other"


@dataclass(frozen=True)
class Entry:
    """One legend line: what it names (section and key), its label and count."""

    section: str
    key: str
    label: str
    count: int

    @property
    def line_id(self) -> str:
        """The line's id in the panel (its ``data-line``)."""
        return f"{self.section}:{self.key}"


def entries(view: ViewData) -> list[Entry]:
    """Every legend line of ``view``, in the order drawn (lines with a count of 0 left out)."""
    lg = view["legend"]
    out = [Entry("group", c["key"], c["label"], c["count"]) for c in lg["colors"]
           if c["count"]]
    other = lg["other"]
    if other is not None and other["count"]:
        out.append(Entry("group", OTHER, other["label"], other["count"]))
    out += [Entry("shape", e["key"], e["label"], e["count"]) for e in lg["shapes"] if e["count"]]
    out += [Entry("state", e["key"], e["label"], e["count"]) for e in lg["state_styles"]
            if e["count"]]
    out += [Entry("edge", e["key"], e["label"], e["count"]) for e in lg["edge_styles"]
            if e["count"]]
    return out


def _node_matches(node: dict[str, Any], entry: Entry, grouped: set[str]) -> bool:
    if entry.section == "group":
        group = node.get("color_group", "")
        return group not in grouped if entry.key == OTHER else group == entry.key
    if entry.section == "shape":
        return node.get("kind") == entry.key
    if entry.key in ("static", "inferred"):  # marks drawn whatever the state
        return bool(node.get(entry.key))
    return node.get("state") == entry.key


def only(view: ViewData, entry: Entry | None) -> ViewData:
    """``view`` narrowed to what a pick of ``entry`` brings forward (the rest is faded):
    a node line's nodes and the edges between two of them, an edge kind's edges and the
    nodes at their ends (legend.js's ``pickedItems``)."""
    if entry is None:
        return view
    if entry.section == "edge":
        edges = [e for e in view["edges"] if e["kind"] == entry.key]
        ends = {e["from"] for e in edges} | {e["to"] for e in edges}
        return {**view, "nodes": [n for n in view["nodes"] if n["id"] in ends], "edges": edges}
    grouped = {c["key"] for c in view["legend"]["colors"]}
    nodes = [n for n in view["nodes"] if _node_matches(dict(n), entry, grouped)]
    ids = {n["id"] for n in nodes}
    edges = [e for e in view["edges"] if e["from"] in ids and e["to"] in ids]
    return {**view, "nodes": nodes, "edges": edges}
