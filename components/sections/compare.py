"""The Compare page's pieces: pick two sides, see what differs as a table, as counts, as a
CSV file and as marks on the graph.

A side is one of: the connected data as it is now ("live now"), as it stood at the end of
a day ("live as of", the pipeline's as-of step), or a saved snapshot file (uploaded here,
parsed by :class:`~memscope.sources.FileSource`). Both become datasets and go through the
one comparison, :func:`memscope.lenses.compare.compare` (the migration check uses it
too). The result is kept in a slot with what both sides were, so a rerun (a filter, a
click) compares nothing again.

The graph is the live view from the process's pipeline (side B's moment when side B is
live, else side A's, else now; the sidebar's filters and presenter mode apply), with each
difference recoloured in the change-mark colours of "changes since" (added, changed,
removed) and everything else faded (the core's painter,
:func:`memscope.view.paint.mark_differences`); a click on a legend line brings that
kind forward in the browser (the rest fades).
Differences the graph does not draw (a removed memory is not in the live data) are listed
under it. Presenter mode masks every text: the table, the list, the CSV, file names.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

import networkx as nx
import pandas as pd
import streamlit as st

from components.graph_view import Annotation, graph_view, group_annotations
from components.state import session
from components.state.context import AppContext
from components.state.pipeline import pipeline, view_for
from components.state.session import Family, slot
from components.widgets.safe import md_escape, short
from components.widgets.tables import TABLE_ROWS, more_in_csv
from memscope.export.compare import cell, comparison_csv
from memscope.lenses.compare import (
    CHANGE_WORDS,
    FIELD_WORDS,
    KIND_MEANINGS,
    KINDS,
    DatasetDiff,
    Value,
    compare,
    kind_words,
    value_words,
)
from memscope.pipeline.loads import LoadGone
from memscope.records.dataset import Dataset
from memscope.records.text import counted
from memscope.sources import FileSource, SourceError
from memscope.view.paint import mark_differences

# -- the session slots this module owns (components.state.session collects them) --
COMPARE_UPLOADS = Family("compare_upload_", __name__,
                         "The Compare page's file pickers, per side (widget keys).")
COMPARE_SHOW = slot("compare_show", __name__,
                    "The kinds of difference the Compare page's table lists (none: all).",
                    list, widget=True)
COMPARE_RESULT = slot("compare_result", __name__,
                      "The last comparison: (what both sides were, the comparison), kept "
                      "until a side or the live data changes.")
COMPARE_GRAPH = slot("compare_graph", __name__,
                     "The Compare page's graph component's own state (its key).")
COMPARE_KIND_A = slot("compare_kind_a", __name__,
                      "What side A of the Compare page is: live now, live as of a day or a "
                      "snapshot file.", lambda: "asof", widget=True)
COMPARE_KIND_B = slot("compare_kind_b", __name__,
                      "What side B of the Compare page is.", lambda: "live", widget=True)
COMPARE_DAY_A = slot("compare_day_a", __name__,
                     "Side A's as-of day on the Compare page.", widget=True)
COMPARE_DAY_B = slot("compare_day_b", __name__,
                     "Side B's as-of day on the Compare page.", widget=True)
COMPARE_FILES = slot("compare_files", __name__,
                     "The snapshot file chosen for each side of the Compare page: side → "
                     "(file name, bytes); this session only.", dict)

LIVE, ASOF, FILE = "live", "asof", "file"
KIND_WORDS = {LIVE: "Live now", ASOF: "Live as of a day", FILE: "A snapshot file"}
SLOTS = {"a": (COMPARE_KIND_A, COMPARE_DAY_A),
         "b": (COMPARE_KIND_B, COMPARE_DAY_B)}
#: the longest text a table cell shows
CELL_MAX = 200
#: at most this many undrawn differences are listed under the graph
UNDRAWN_MAX = 200
GRAPH_HEIGHT = 560


@dataclass(frozen=True)
class Side:
    """What one side is: live now, live as of ``day``, or a snapshot file (its name and
    the SHA-256 of its bytes)."""

    kind: str
    letter: str
    day: date | None = None
    name: str | None = None
    digest: str | None = None

    @property
    def key(self) -> tuple[str | None, ...]:
        """What identifies the side's data (never the bytes)."""
        return (self.kind, self.day.isoformat() if self.day else None, self.digest)

    def label(self, presenter: bool) -> str:
        """The side in a few words (a file's name hidden in presenter mode)."""
        if self.kind == LIVE:
            return "live now"
        if self.kind == ASOF and self.day is not None:
            return f"live as of {self.day.isoformat()}"
        if presenter:
            return "the snapshot file"
        return f"the snapshot {short(self.name or 'file', 40)}"


def _default_day(side: str) -> date:
    today = datetime.now(UTC).date()
    return today - timedelta(days=7) if side == "a" else today


def _keep_upload(side: str) -> None:
    """The file picker changed: keep the chosen file's bytes (or forget them)."""
    up = COMPARE_UPLOADS.get(side)
    files: dict[str, tuple[str, bytes]] = dict(COMPARE_FILES.get())
    if up is None:
        files.pop(side, None)
    else:
        files[side] = (str(up.name), bytes(up.getvalue()))
    COMPARE_FILES.set(files)


def _forget_file(side: str) -> None:
    files = dict(COMPARE_FILES.get())
    files.pop(side, None)
    COMPARE_FILES.set(files)


def side_picker(side: str, presenter: bool) -> Side | None:
    """One side's choice (kind, then its day or its file); ``None`` until it is complete."""
    kind_slot, day_slot = SLOTS[side]
    letter = side.upper()
    kind = st.radio(f"Side {letter}", list(KIND_WORDS), format_func=KIND_WORDS.__getitem__,
                    horizontal=True, **session.bind(kind_slot))
    if kind == ASOF:
        if not isinstance(day_slot.get(), date):
            day_slot.set(_default_day(side))
        day = st.date_input(f"Side {letter} as of the end of", format="YYYY-MM-DD",
                            **session.bind(day_slot))
        return Side(ASOF, side, day) if isinstance(day, date) else None
    if kind == FILE:
        held = COMPARE_FILES.get().get(side)
        if held is None:  # once one is held the picker goes: it would show the file's name
            st.file_uploader(f"Side {letter}: a snapshot file (saved on the Connection page)",
                             type=["json"], key=COMPARE_UPLOADS.key(side),
                             on_change=_keep_upload, args=(side,))
            st.caption(md_escape(f"Choose a snapshot file for side {letter}."))
            return None
        name, blob = held
        shown = "a snapshot file" if presenter else short(name, 60)
        st.caption(md_escape(f"Side {letter} is {shown} ({len(blob):,} bytes)."))
        st.button("Use another file", key=f"compare_forget_{side}", on_click=_forget_file,
                  args=(side,), type="secondary", icon=":material/swap_horiz:")
        return Side(FILE, side, name=name, digest=hashlib.sha256(blob).hexdigest())
    return Side(LIVE, side)


def side_data(ctx: AppContext, side: Side) -> tuple[Dataset, nx.MultiDiGraph | None]:
    """The side's data, unmasked, and its graph when one is already built (the live
    analyses'). Raises :class:`SourceError` (one sentence) when a file cannot be read, or
    ``ValueError`` when the live data is not loaded."""
    if side.kind == FILE:
        held = COMPARE_FILES.get().get(side.letter)
        if held is None or hashlib.sha256(held[1]).hexdigest() != side.digest:
            raise ValueError("The snapshot file is no longer held; choose it again.")
        return FileSource.from_bytes([held]).load().dataset, None
    if ctx.current is None or ctx.request is None:
        raise ValueError(f"The live data did not load ({ctx.error or 'no data'}), so only "
                         "snapshot files can be compared.")
    analysis = ctx.current
    if side.kind == ASOF and side.day is not None:
        analysis = pipeline().get("past", replace(ctx.request, as_of=side.day,
                                                  presenter=False))
    return analysis.dataset, analysis.graph.graph


def comparison(ctx: AppContext, a: Side, b: Side) -> DatasetDiff | None:
    """The comparison of side A with side B (kept until a side or the live data
    changes), or ``None`` after saying in one sentence why it cannot be made."""
    live = ctx.request.load if ctx.request is not None else None
    key = (a.key, b.key, live if LIVE in (a.kind, b.kind) or ASOF in (a.kind, b.kind)
           else None)
    held = COMPARE_RESULT.get()
    if isinstance(held, tuple) and len(held) == 2 and held[0] == key:
        return held[1]
    try:
        with st.spinner("Comparing…"):
            (left, graph_a), (right, graph_b) = side_data(ctx, a), side_data(ctx, b)
            diff = compare(left, right, graph_a=graph_a, graph_b=graph_b)
    except (SourceError, ValueError, LoadGone) as exc:
        st.error(md_escape(str(exc) or "The comparison could not be made."))
        return None
    COMPARE_RESULT.set((key, diff))
    return diff


#: what a side holds for a record only one side has, in the table's A and B columns
PRESENT, ABSENT = "present", "—"
#: a record kind as the table's "record" column says it
RECORD_WORDS = {"memory": "memory", "document": "document", "entity": "entity",
                "fact": "fact", "edge": "link between versions"}


def _side_cell(change: str, field: str, value: Value, here: bool) -> str:
    """One side's cell: for a record only one side has, whether it is there (its text is
    in the "memory or document" column); for a changed field, its value in words."""
    if change != "changed":
        return PRESENT if here else ABSENT
    return short(cell(value_words(field, value)), CELL_MAX)


def table(diff: DatasetDiff, names: tuple[str, str], kinds: Collection[str] | None
          ) -> pd.DataFrame:
    """The differences (of ``kinds``) as a table of words: one row per changed field, led
    by the record's text; a change as "only in A", "only in B" or "changed", flags as what
    they mean ("forgotten", "kept"), never True/False; the id secondary, last."""
    rows = diff.rows(kinds)
    return pd.DataFrame({
        "change": [CHANGE_WORDS.get(r.change, r.change) for r in rows],
        "memory or document": [short(cell(r.text), CELL_MAX) for r in rows],
        "what changed": [FIELD_WORDS.get(r.field, r.field) for r in rows],
        names[0]: [_side_cell(r.change, r.field, r.a, r.change == "removed") for r in rows],
        names[1]: [_side_cell(r.change, r.field, r.b, r.change == "added") for r in rows],
        "record": [RECORD_WORDS.get(r.record, r.record) for r in rows],
        "id": [short(r.id, CELL_MAX) for r in rows],
    })


#: each table column's width in px: together (920) they fit the page's main column at a
#: 1400 px window beside the sidebar (938 px), so side B's column is on screen without a
#: sideways scroll; a wider page stretches them in proportion. The two sides' values get
#: the most room, the id (secondary) the least; a longer text is cut at the column's edge
#: (whole when the cell is opened, and in the CSV file).
TABLE_WIDTHS = {"change": 75, "memory or document": 210, "what changed": 90, "A": 210,
                "B": 210, "record": 75, "id": 50}


def table_columns(names: tuple[str, str]) -> dict[str, Any]:
    """The table's column widths (:data:`TABLE_WIDTHS`; ``names``: the two sides' column
    names), as ``st.dataframe``'s ``column_config``."""
    out: dict[str, Any] = {}
    for column, width in TABLE_WIDTHS.items():
        name = names[0] if column == "A" else names[1] if column == "B" else column
        out[name] = st.column_config.TextColumn(name, width=width)
    return out


def _graph_day(a: Side, b: Side) -> tuple[date | None, str]:
    """The moment the graph shows and the words for it."""
    for letter, side in (("B", b), ("A", a)):
        if side.kind == ASOF and side.day is not None:
            return side.day, f"side {letter} (live as of {side.day.isoformat()})"
        if side.kind == LIVE:
            return None, f"side {letter} (live now)"
    return None, "the live data now (neither side is live)"


def graph(ctx: AppContext, diff: DatasetDiff, a: Side, b: Side) -> None:
    """The live graph with each difference marked; what it does not draw, listed."""
    if ctx.request is None:
        st.caption("The graph needs the live data, which did not load.")
        return
    day, words = _graph_day(a, b)
    changes = diff.node_changes()
    p = pipeline()
    base = replace(ctx.request, as_of=day, since=None, query="", selected=None,
                   expanded=frozenset())
    present = set(p.scoped(base).graph.graph) & set(changes)
    marked = frozenset(present) if len(present) <= base.budget else frozenset()
    view = view_for(replace(base, marked=marked))
    drawn = mark_differences(view.drawn, changes)
    notes: list[Annotation] = []
    for note in group_annotations(view.drawn):  # cluster names, kept whatever is shown
        note.pop("group", None)
        notes.append(note)
    ids = {n["id"] for n in drawn["nodes"]}
    graph_view(drawn, key=COMPARE_GRAPH.name, height=GRAPH_HEIGHT,
               fit_ids=sorted(ids & set(changes)), fit_label="Fit differences",
               annotations=notes)
    shown = len(ids & set(changes))
    st.caption(md_escape(f"The graph shows {words}: {counted(shown, 'node')} marked (green "
                         "added, blue changed, vermillion removed; the rest faded). A "
                         "click on a legend line brings that kind forward."))
    undrawn(diff, ids, ctx.presenter)


def undrawn(diff: DatasetDiff, drawn: set[str], presenter: bool) -> None:
    """The differences whose nodes the graph does not draw (e.g. removed ones)."""
    shown = diff.masked() if presenter else diff
    missing = [d for d in shown.differences if d.record != "edge"
               and not set(d.nodes) & drawn]
    if not missing:
        return
    st.markdown(md_escape(f"Not on this graph: {counted(len(missing), 'difference')} "
                          "(not in the data it shows, or hidden by the filters)"))
    for d in missing[:UNDRAWN_MAX]:
        text = d.b_text if d.b_text is not None else d.a_text
        what = RECORD_WORDS.get(d.record, d.record)
        st.text(f"{CHANGE_WORDS.get(d.change, d.change)} · {what}: {short(cell(text), 120)}")
    if len(missing) > UNDRAWN_MAX:
        st.caption(f"… and {len(missing) - UNDRAWN_MAX} more (all are in the CSV file).")


def counts_line(diff: DatasetDiff) -> None:
    """The counts per kind of change, as three figures and a sentence."""
    by = diff.counts()
    changed = sum(1 for d in diff.differences if d.change == "changed")
    cols = st.columns(3)
    for col, (label, n) in zip(cols, (("Added", by["added"]), ("Removed", by["removed"]),
                                      ("Changed", changed)), strict=True):
        col.metric(label, n)
    fields = ", ".join(f"{n} {k.removeprefix('changed: ')}" for k, n in by.items()
                       if k.startswith("changed: ") and n)
    if fields:
        st.caption(md_escape(f"Changed fields: {fields}."))


def section(ctx: AppContext) -> None:
    """The whole page: both sides, the outcome, counts, the table, the CSV and the graph."""
    st.caption("Compare two moments or two sources: a snapshot against what is live now, "
               "the live data as of one day against another, or two snapshots. Memories "
               "and documents are matched by id; chain edges by their two ends.")
    presenter = ctx.presenter
    col_a, col_b = st.columns(2)
    with col_a:
        a = side_picker("a", presenter)
    with col_b:
        b = side_picker("b", presenter)
    if a is None or b is None:
        return
    if a.key == b.key:
        st.info("Both sides are the same; choose something else for one of them.")
        return
    diff = comparison(ctx, a, b)
    if diff is None:
        return
    names = (f"A: {a.label(presenter)}", f"B: {b.label(presenter)}")
    shown = diff.masked() if presenter else diff
    sentence = shown.sentence((f"Side A ({a.label(presenter)})",
                               f"side B ({b.label(presenter)})"))
    if diff.identical:
        st.success(md_escape(sentence[0].upper() + sentence[1:]))
        return
    st.warning(md_escape(sentence[0].upper() + sentence[1:]))
    counts_line(diff)
    by = diff.counts()
    offered = [k for k in KINDS if by[k]]
    held = COMPARE_SHOW.get()
    if any(k not in offered for k in held):  # kinds this comparison has none of
        COMPARE_SHOW.set([k for k in held if k in offered])
    picked = st.pills("Show only", offered, selection_mode="multi",
                      format_func=lambda k: f"{kind_words(k)} ({by[k]})", help="; ".join(
                          f"{kind_words(k)}: {KIND_MEANINGS[k]}" for k in offered),
                      **session.bind(COMPARE_SHOW))
    kinds = [k for k in picked or () if k in offered] or None
    rows = table(shown, names, kinds)
    st.dataframe(rows.head(TABLE_ROWS), hide_index=True, width="stretch",
                 column_config=table_columns(names))
    more_in_csv(len(rows))
    st.download_button("Download the differences (CSV)",
                       data=lambda: comparison_csv(shown, names, kinds),
                       file_name="memscope-comparison.csv", mime="text/csv",
                       key="compare_csv", on_click="ignore")
    graph(ctx, diff, a, b)
