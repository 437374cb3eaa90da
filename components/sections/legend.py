"""The legend under the graph: swatches for the colour groups, node shapes, states and edge
kinds, each with its count; a click on an entry shows only what it names.

Swatches are drawn from the view's own style tables (:mod:`components.widgets.swatch`);
labels from the data are shown as text in a table, never as markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from components.state import session
from components.widgets.swatch import edge_swatch, node_swatch
from memscope.view.build import ViewData

SECTIONS = {"group": "colour", "shape": "shape", "state": "state", "edge": "relation"}


@dataclass(frozen=True)
class Entry:
    """One legend line: what it names (section and key), its picture, label and count."""

    section: str
    key: str
    picture: str
    label: str
    count: int


def entries(view: ViewData) -> list[Entry]:
    """Every legend line of ``view``, in the order drawn."""
    lg = view["legend"]
    out = [Entry("group", c["key"], node_swatch({}, c["color"], c["border"]), c["label"],
                 c["count"]) for c in lg["colors"]]
    other = lg["other"]
    if other is not None:
        out.append(Entry("group", "\0other", node_swatch({}, other["color"], other["border"]),
                         other["label"], other["count"]))
    out += [Entry("shape", e["key"], node_swatch(e["style"]), e["label"], e["count"])
            for e in lg["shapes"] if e["count"]]
    out += [Entry("state", e["key"], node_swatch({"shape": "dot", **e["style"]}), e["label"],
                  e["count"]) for e in lg["state_styles"] if e["count"]]
    out += [Entry("edge", e["key"], edge_swatch(e["style"]), e["label"], e["count"])
            for e in lg["edge_styles"] if e["count"]]
    return out


def picked(view: ViewData) -> Entry | None:
    """The entry the user clicked in the legend (its table's selection), if any."""
    state = session.LEGEND_PICK.get()
    rows: list[Any] = []
    if isinstance(state, dict):
        rows = state.get("selection", {}).get("rows", [])
    lines = entries(view)
    if rows and isinstance(rows[0], int) and 0 <= rows[0] < len(lines):
        return lines[rows[0]]
    return None


def _node_matches(node: dict[str, Any], entry: Entry, grouped: set[str]) -> bool:
    if entry.section == "group":
        group = node.get("color_group", "")
        return group not in grouped if entry.key == "\0other" else group == entry.key
    if entry.section == "shape":
        return node.get("kind") == entry.key
    if entry.key in ("static", "inferred"):  # marks drawn whatever the state
        return bool(node.get(entry.key))
    return node.get("state") == entry.key


def only(view: ViewData, entry: Entry | None) -> ViewData:
    """``view`` narrowed to what ``entry`` names (an edge kind keeps every node)."""
    if entry is None:
        return view
    if entry.section == "edge":
        return {**view, "edges": [e for e in view["edges"] if e["kind"] == entry.key]}
    grouped = {c["key"] for c in view["legend"]["colors"]}
    nodes = [n for n in view["nodes"] if _node_matches(dict(n), entry, grouped)]
    ids = {n["id"] for n in nodes}
    edges = [e for e in view["edges"] if e["from"] in ids and e["to"] in ids]
    return {**view, "nodes": nodes, "edges": edges}


def legend(view: ViewData) -> None:
    """The legend table; selecting a line filters the graph above to it."""
    lines = entries(view)
    frame = pd.DataFrame({
        "": [e.picture for e in lines],
        "what": [SECTIONS[e.section] for e in lines],
        "name": [e.label for e in lines],
        "drawn": [e.count for e in lines],
    })
    with st.expander("Legend — click a line to show only that", expanded=True):
        st.dataframe(frame, hide_index=True, width="stretch", key=session.LEGEND_PICK.name,
                     on_select="rerun", selection_mode="single-row",
                     height=min(36 + 35 * len(lines), 300),
                     column_config={
                         "": st.column_config.ImageColumn("", width="small"),
                         "what": st.column_config.TextColumn("what", width="small"),
                         "name": st.column_config.TextColumn("name", width="large"),
                         "drawn": st.column_config.NumberColumn("drawn", width="small"),
                     })
        if picked(view) is not None:
            st.caption("Showing only the selected legend line: click it again to show "
                       "everything.")
