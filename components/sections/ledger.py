"""The Ledger page's pieces: every destructive action, filterable, as a table and CSV.

The ledger is the local store's (:meth:`memscope.store.store.Store.ledger`): the embedded
store writes its own rows, and :mod:`memscope.sources.actions` records every other source's
outcomes there too. A session sees only the rows of its own source identity (kind, URL
and key fingerprint; for the embedded store, that store). In presenter mode snapshots,
reasons and messages are masked, and each space tag is shown as its pseudonym ("Space 1",
the same as on every other page; a tag only the ledger knows gets the next number).
"""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

from components.state.context import AppContext
from components.state.session import Family, slot
from memscope.export.formats import csv_safe
from memscope.lenses.presenter import extend_pseudonyms, mask_text
from memscope.records.text import clip
from memscope.store.ledger import LedgerEntry

# -- the session slots this module owns (components.state.session collects them) --
LEDGER_VIEW = slot("ledger_view", __name__,
                   "The Ledger page's choice: this source's rows or all my actions (widget key).")
LEDGER_FILTERS = Family("ledger_filter_", __name__,
                        "The Ledger page's filter widgets (actions, outcomes, sources, "
                        "spaces, text) by name.")

COLUMNS = ["time", "actor", "source", "space", "action", "target_id", "snapshot", "reason",
           "outcome", "status", "message"]
#: the table as shown: what was done, in words, first; the target's id last (secondary)
SHOWN = ["time", "what", "outcome", "actor", "source", "space", "action", "reason",
         "message", "snapshot", "status", "target_id"]

#: an action, as the verb of the "what" sentence
_VERBS = {"forget": "Forgot", "forget_many": "Forgot", "restore": "Restored",
          "forget_all": "Forgot",
          "add": "Added", "reviewed": "Marked as not a conflict:",
          "judged": "Checked with a model:", "seed": "Seeded"}
#: an action kind as the "action" column (and its filter) says it
ACTION_WORDS = {"forget": "Forgot a memory",
                "forget_many": "Forgot a memory (one of a reviewed batch)",
                "restore": "Restored a memory",
                "forget_all": "Forgot everything in a space", "add": "Added a memory",
                "reviewed": "Marked as not a conflict", "judged": "Checked with a model",
                "seed": "Filled with the demo data"}
#: a source kind as the "source" column says it (the service's own name)
SOURCE_WORDS = {"embedded": "Embedded demo store", "supermemory": "Supermemory",
                "supermemory_v5": "Supermemory", "spomory": "Spomory", "mem0": "mem0",
                "mem0-history": "mem0 history file", "mem0_history": "mem0 history file",
                "file": "Snapshot files", "graphiti": "Graphiti", "zep": "Zep"}
#: an outcome as the "outcome" column says it
OUTCOME_WORDS = {"ok": "done", "noop": "nothing to do", "error": "failed",
                 "mismatch": "refused: something else would have been forgotten",
                 "pending": "waiting for the service's answer"}
#: a row's status as the "status" column says it
STATUS_WORDS = {"completed": "finished", "attempted": "sent, no answer recorded"}
#: a semantic finding's kind (the prefix of a reviewed target), in words
_FINDING_WORDS = {"suspected_contradiction": "possible contradiction",
                  "suspicious_update": "suspicious update",
                  "near_duplicate": "near-duplicate"}
_WHAT_MAX = 90


def _quoted(text: str) -> str:
    return f"“{clip(' '.join(text.split()), _WHAT_MAX)}”"


def describe(action: str, target_id: str | None, snapshot: str | None, *,
             hidden: bool = False) -> str:
    """What an entry did, as a sentence that leads with the memory's text (its id is the
    table's last column): "Forgot “Priya prefers…”", "Marked as not a conflict: possible
    contradiction “A” ⟷ “B”".

    >>> describe("reviewed", "suspected_contradiction:ee54", "A ⟷ B")
    'Marked as not a conflict: possible contradiction “A” ⟷ “B”'
    >>> describe("forget", "m1", None)
    'Forgot a memory (its text was not kept)'
    """
    verb = _VERBS.get(action, action.replace("_", " ").capitalize())
    kind = (target_id or "").split(":", 1)[0].split("|", 1)[0]
    what = _FINDING_WORDS.get(kind)
    text = (snapshot or "").strip()
    if hidden and text:  # presenter mode: the kind of action, never a mask in quotes
        return (f"{verb} {what or 'a memory'} (text hidden: presenter mode)")
    if what is not None:
        sides = " ⟷ ".join(_quoted(t) for t in text.split(" ⟷ ") if t.strip())
        return f"{verb} {what} {sides}".rstrip()
    if text:
        return f"{verb} {_quoted(text)}"
    if action == "seed":
        return "Filled the store with the demo data"
    if not target_id:
        return f"{verb} every memory in the space" if action == "forget_all" else verb
    return f"{verb} a memory (its text was not kept)"


def plain(value: str | None, words: dict[str, str]) -> str | None:
    """``value`` (an internal kind) in ``words``; an unknown kind with its underscores and
    version suffix dropped ("supermemory_v9" → "Supermemory"), never snake_case.

    >>> plain("forget_all", ACTION_WORDS), plain("supermemory_v5", SOURCE_WORDS)
    ('Forgot everything in a space', 'Supermemory')
    >>> plain("new_kind_v2", {}), plain(None, {})
    ('New kind', None)
    """
    if not value:
        return value
    if value in words:
        return words[value]
    bare = re.sub(r"[_-]v\d+$", "", value)
    if bare in words:
        return words[bare]
    return bare.replace("_", " ").replace("-", " ").capitalize()


def ledger_frame(entries: list[LedgerEntry], *, presenter: bool = False,
                 spaces: dict[str, str] | None = None,
                 names: dict[str, str] | None = None) -> pd.DataFrame:
    """One row per entry (newest first, as the store returns them), its action, source,
    outcome and status in words (:func:`plain`); in presenter mode texts are masked and
    spaces named by ``spaces`` (tag → pseudonym, extended here), else by the name the
    service gives them (``names``: tag → name; a tag it does not name stays as it is)."""
    rows = []
    alias = extend_pseudonyms(spaces or {}, (e.space for e in entries if e.space)) \
        if presenter else {}
    for e in entries:
        row = {c: getattr(e, c) for c in COLUMNS}
        if not presenter and e.space:
            row["space"] = (names or {}).get(e.space) or e.space
        if presenter:
            row["space"] = alias.get(e.space, e.space) if e.space else e.space
            row["snapshot"] = mask_text(e.snapshot, "Snapshot")
            row["reason"] = mask_text(e.reason, "Reason")
            row["message"] = mask_text(e.message, "Message")
        rows.append(row)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    for column, words in (("action", ACTION_WORDS), ("source", SOURCE_WORDS),
                          ("outcome", OUTCOME_WORDS), ("status", STATUS_WORDS)):
        frame[column] = [plain(v, words) for v in frame[column]]
    frame.insert(1, "what", [describe(e.action, e.target_id, e.snapshot, hidden=presenter)
                             for e in entries])
    frame["time"] = pd.to_datetime(frame["time"], utc=True, errors="coerce")
    return frame


def _choices(frame: pd.DataFrame, column: str) -> list[str]:
    return sorted({str(v) for v in frame[column].dropna()})


def filter_frame(frame: pd.DataFrame, *, actions: list[str], outcomes: list[str],
                 sources: list[str], spaces: list[str], text: str) -> pd.DataFrame:
    """Rows matching every chosen value (an empty choice means "any") and ``text``
    (case-insensitive, in what was done, target id, snapshot, reason or message)."""
    keep = pd.Series(True, index=frame.index)
    for column, chosen in (("action", actions), ("outcome", outcomes), ("source", sources),
                           ("space", spaces)):
        if chosen:
            keep &= frame[column].astype(str).isin(chosen)
    needle = text.strip().casefold()
    if needle:
        hay = frame[["what", "target_id", "snapshot", "reason", "message"]].fillna("").astype(str)
        keep &= hay.apply(lambda col: col.str.casefold().str.contains(needle, regex=False)
                          ).any(axis=1)
    return frame.loc[keep]


def ledger_csv(frame: pd.DataFrame) -> bytes:
    """The rows as UTF-8 CSV (text that a spreadsheet would run as a formula is quoted)."""
    out = frame.copy()
    out["time"] = out["time"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    for column in [c for c in out.columns if c != "time"]:
        out[column] = out[column].map(csv_safe)
    return out.to_csv(index=False).encode("utf-8")


def ledger_section(ctx: AppContext) -> pd.DataFrame:
    """Filters, the table and a CSV download of what the filters keep."""
    if ctx.source is None:
        st.info("Connect to a source to see its ledger: each source (and each API key) "
                "sees only its own rows.")
        return ledger_frame([])
    entries = ctx.ledger.ledger(scope=ctx.source.identity())
    if ctx.user.signed_in:
        mine = st.radio("Show", ["This source's actions", "All my actions"], horizontal=True,
                        key=LEDGER_VIEW.name,
                        help="All my actions: what you did, on every source you used.")
        if mine == "All my actions":
            entries = ctx.ledger.actions_by(ctx.user.email)
    known = ctx.space_names
    named = {s.container_tag: s.title for s in ctx.current.dataset.spaces
             if s.container_tag} if ctx.current is not None else {}
    frame = ledger_frame(entries, presenter=ctx.presenter, spaces=known, names=named)
    if frame.empty:
        st.info("No destructive action has been recorded for this source yet.")
        return frame
    cols = st.columns(4)
    key = LEDGER_FILTERS.key
    actions = cols[0].multiselect("Action", _choices(frame, "action"), key=key("actions"),
                                  placeholder="Any action")
    outcomes = cols[1].multiselect("Outcome", _choices(frame, "outcome"),
                                   key=key("outcomes"), placeholder="Any outcome")
    sources = cols[2].multiselect("Source", _choices(frame, "source"), key=key("sources"),
                                  placeholder="Any source")
    spaces = cols[3].multiselect("Space", _choices(frame, "space"), key=key("spaces"),
                                 placeholder="Any space")
    text = st.text_input("Text in what was done, the id, the reason or the message",
                         key=key("text"))
    shown = filter_frame(frame, actions=actions, outcomes=outcomes, sources=sources,
                         spaces=spaces, text=text)
    st.caption(f"{len(shown)} of {len(frame)} entries.")
    blank = {c: "" for c in ("space", "reason", "snapshot", "target_id", "message")
             if c in shown.columns}  # an empty cell, not a grey "None"
    st.dataframe(shown.fillna(blank), hide_index=True, key="ledger_table",
                 column_order=[c for c in SHOWN if c in shown.columns], column_config={
        "time": st.column_config.DatetimeColumn("time", format="YYYY-MM-DD HH:mm:ss"),
        "what": st.column_config.TextColumn("what was done", width="large"),
        "snapshot": st.column_config.TextColumn("snapshot", width="medium"),
        "target_id": st.column_config.TextColumn("id", width="small"),
    })
    st.download_button("Download as CSV", data=ledger_csv(shown),
                       file_name="memscope-ledger.csv", mime="text/csv",
                       key="ledger_csv", on_click="ignore")
    return shown
