"""The Audit page's pieces: findings by kind, the chains table, a side-by-side version diff.

Also the helpers the other analysis pages share: :func:`current_visible` (the explorer's
filters) and :func:`node_link` (a link that opens a node in the explorer).
"""

from __future__ import annotations

from collections.abc import Collection

import pandas as pd
import streamlit as st

from components.state import session
from components.state.session import Family, slot
from components.widgets import nav
from components.widgets.safe import md_escape, short
from memscope.graph.analysis import Analysis
from memscope.lenses.asof import CHANGE_KINDS, Comparison
from memscope.lenses.diff import diff_stats, word_diff
from memscope.records.text import CELL_MAX, FULL_MAX, clip, counted
from memscope.reports.audit import (
    FINDING_EXPLAINED,
    FINDING_TITLES,
    VERSION_PAGE,
    chain_versions,
    chain_versions_page,
    chains_table,
    expiry_queue,
    finding_ids,
    finding_sentence,
    findings_by_kind,
    findings_present,
    version_pages,
)

# -- the session slots this module owns (components.state.session collects them) --
DIFF_CHAIN = slot("diff_chain", __name__,
                  "The Audit page's chain to compare (widget key).")
DIFF_VERSIONS = Family("diff_version_", __name__,
                       "The Audit page's older/newer version pickers, per chain.")
CHANGE_LINKS = Family("change_link_", __name__,
                      "The explorer's “changes since” buttons that select a memory, per "
                      "list and memory.")

MAX_FINDINGS_SHOWN = 100
MAX_LINKS = 100
#: links to a finding's nodes (a chain's "several latest" finding can name 20,000)
MAX_NODE_LINKS = 20
#: longer chains pick their diff's versions by position, not from a list of every version
MAX_PICKER_OPTIONS = 200


def filter_note(visible: Collection[str] | None, analysis: Analysis) -> None:
    """One caption saying what the page covers."""
    total = analysis.graph.graph.number_of_nodes()
    if visible is None:
        st.caption(f"Covers all {total} nodes (no filters are set in the sidebar).")
    else:
        st.caption(f"Follows the sidebar's filters: {len(visible)} of {total} nodes.")


def node_link(analysis: Analysis, node_id: str, *, key_text: str | None = None) -> None:
    """A link that opens ``node_id`` in the explorer (``?node=``)."""
    ds = analysis.dataset
    text = key_text
    if text is None:
        rec = ds.memories.get(node_id)
        doc = ds.documents.get(node_id)
        ent = ds.entities.get(node_id)
        text = rec.memory if rec else doc.title if doc else ent.name if ent else ""
    nav.open_node(node_id, text)


def findings_section(analysis: Analysis, visible: Collection[str] | None) -> None:
    """The findings present, grouped and explained in words (a kind with none is not
    listed); each finding a sentence naming memories by their text, its ids in small
    print, and links to its nodes."""
    groups = findings_by_kind(analysis, visible)
    present = findings_present(groups)
    if not present:
        st.success("No integrity findings: every version history is a straight line and "
                   "everything referred to was loaded.")
        return
    total = sum(len(items) for items in groups.values())
    kinds_n = sum(1 for items in groups.values() if items)
    st.caption(f"{counted(total, 'finding')} of {counted(kinds_n, 'kind')}; "
               "a kind with none is not listed.")
    for heading, kinds in present:
        st.markdown(f"**{heading}**")  # our words, not data
        for kind, items in kinds:
            title = f"{FINDING_TITLES.get(kind, kind)} — {len(items):,}"
            with st.expander(title):  # our words and a count, not data
                st.caption(FINDING_EXPLAINED.get(kind, ""))
                for i, finding in enumerate(items[:MAX_FINDINGS_SHOWN]):
                    st.text(finding_sentence(analysis, finding))  # words, no ids
                    st.caption(md_escape(finding_ids(finding)))  # the ids, small
                    nodes = [n for n in dict.fromkeys(finding.nodes)
                             if n in analysis.graph.graph]
                    for node_id in nodes[:MAX_NODE_LINKS]:
                        node_link(analysis, node_id)
                    if len(nodes) > MAX_NODE_LINKS:
                        st.caption(f"… and {len(nodes) - MAX_NODE_LINKS:,} more nodes.")
                    if i < len(items) - 1:
                        st.divider()
                if len(items) > MAX_FINDINGS_SHOWN:
                    st.caption(f"… and {len(items) - MAX_FINDINGS_SHOWN} more.")


def chains_section(analysis: Analysis, visible: Collection[str] | None) -> pd.DataFrame:
    """The chains table (sortable by any column); returns it."""
    table = chains_table(analysis, visible)
    st.dataframe(
        _cells(table, "text"), hide_index=True, key="chains_table",
        column_order=["text", *(c for c in table.columns if c not in ("text", "root",
                                                                      "latest")),
                      "root", "latest"],  # the text leads, the ids last
        column_config={
            "first": st.column_config.DatetimeColumn("first", format="YYYY-MM-DD HH:mm"),
            "last": st.column_config.DatetimeColumn("last", format="YYYY-MM-DD HH:mm"),
            "text": st.column_config.TextColumn("latest text", width="large"),
        })
    return table


def _cells(table: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """``table`` as shown: each text of ``columns`` bounded (:data:`CELL_MAX`); the table
    a section returns (for downloads) keeps the whole texts."""
    shown = table.copy()
    for column in columns:
        shown[column] = [clip(v, CELL_MAX) if isinstance(v, str) else v
                         for v in shown[column]]
    return shown


def _side(segments: list[tuple[str, str]], keep: str) -> str:
    """Markdown for one side of a diff: equal text plus the ``keep`` segments marked."""
    parts = []
    for op, text in segments:
        if op not in ("equal", keep):
            continue
        esc = md_escape(text)
        if op == "equal" or not esc.strip():
            parts.append(esc)
        elif op == "delete":
            parts.append(f":red-background[~~{esc}~~]")
        else:
            parts.append(f":green-background[{esc}]")
    return "".join(parts) or "_(empty)_"


def diff_section(analysis: Analysis, table: pd.DataFrame) -> None:
    """Pick a chain and two of its versions; show them side by side with a word diff."""
    if table.empty:
        st.info("No version chains to compare.")
        return
    roots = [str(r) for r in table["root"]]
    if len(roots) > MAX_PICKER_OPTIONS:
        longest = table.sort_values("length", ascending=False, kind="stable")
        roots = [str(r) for r in longest["root"].head(MAX_PICKER_OPTIONS)]
        st.caption(f"Lists the {MAX_PICKER_OPTIONS} longest of {len(table):,} chains.")
    texts = {str(r): str(t) for r, t in zip(table["root"], table["text"], strict=True)}
    root = st.selectbox("Chain", roots, key=DIFF_CHAIN.name,
                        format_func=lambda r: short(texts.get(r), 80) or "(no text)")
    if root is None:
        return
    st.caption(md_escape(f"first version's id: {root}"))  # the id, small and secondary
    versions = chain_versions(analysis, root)
    if len(versions) < 2:
        st.caption("This chain has a single loaded version.")
        return
    versions_table(analysis, root, len(versions))
    ids = [v for v, _ in versions]
    if len(ids) > MAX_PICKER_OPTIONS:
        old, new = _positions(ids, dict(versions), root)
    else:
        old, new = _pickers(ids, dict(versions), root)
    if old is None or new is None:
        return
    mems = analysis.dataset.memories
    if max(len(mems[old].memory), len(mems[new].memory)) > FULL_MAX:
        st.caption(f"These versions are too long to compare word by word (over "
                   f"{FULL_MAX:,} characters); their starts:")
        left, right = st.columns(2)
        for col, mem_id in ((left, old), (right, new)):
            with col, st.container(border=True):
                st.text(clip(mems[mem_id].memory, CELL_MAX))
                node_link(analysis, mem_id, key_text="")
        return
    segments = word_diff(mems[old].memory, mems[new].memory)
    stats = diff_stats(segments)
    st.caption(f"{counted(stats['delete'], 'word')} removed, {stats['insert']} added.")
    left, right = st.columns(2)
    for col, mem_id, keep in ((left, old, "delete"), (right, new, "insert")):
        with col, st.container(border=True):
            st.markdown(_side(segments, keep))
            node_link(analysis, mem_id, key_text="")


def versions_table(analysis: Analysis, root: str, count: int) -> None:
    """The chain's versions, :data:`VERSION_PAGE` rows a page, with a page picker when
    there are more."""
    pages = version_pages(analysis, root)
    page = 1
    if pages > 1:
        page = int(st.number_input(f"Page of versions (1–{pages})", min_value=1,
                                   max_value=pages, value=1, step=1,
                                   key=DIFF_VERSIONS.key(f"page_{root}")))
    first = (page - 1) * VERSION_PAGE
    st.caption(f"Versions {first + 1:,}–{min(first + VERSION_PAGE, count):,} of {count:,}.")
    st.dataframe(_cells(chain_versions_page(analysis, root, page - 1), "text"),
                 hide_index=True, key=f"chain_versions_{page}",
                 column_order=["version", "text", "latest", "forgotten", "created", "id"],
                 column_config={  # the words lead, the id last
                     "created": st.column_config.DatetimeColumn("created",
                                                                format="YYYY-MM-DD HH:mm"),
                     "text": st.column_config.TextColumn("text", width="large")})


def _pickers(ids: list[str], labels: dict[str, str], root: str) -> tuple[str | None, ...]:
    """Older/newer version as two pickers listing every version (short chains)."""

    def label(mem_id: str) -> str:
        return labels.get(mem_id, mem_id)

    left, right = st.columns(2)
    key = DIFF_VERSIONS.key
    old = left.selectbox("Older version", ids, index=0, key=key(f"old_{root}"),
                         format_func=label)
    new = right.selectbox("Newer version", ids, index=len(ids) - 1, key=key(f"new_{root}"),
                          format_func=label)
    return old, new


def _positions(ids: list[str], labels: dict[str, str], root: str) -> tuple[str, str]:
    """Older/newer version by position in the chain (a long chain: a list of thousands
    of versions would be sent and drawn whole)."""
    left, right = st.columns(2)
    key = DIFF_VERSIONS.key
    n = len(ids)
    old = int(left.number_input(f"Older version (position 1–{n:,})", min_value=1,
                                max_value=n, value=1, step=1, key=key(f"old_pos_{root}")))
    new = int(right.number_input(f"Newer version (position 1–{n:,})", min_value=1,
                                 max_value=n, value=n, step=1, key=key(f"new_pos_{root}")))
    left.caption(short(labels[ids[old - 1]], 80))
    right.caption(short(labels[ids[new - 1]], 80))
    return ids[old - 1], ids[new - 1]


def expiry_section(analysis: Analysis, visible: Collection[str] | None) -> pd.DataFrame:
    """Memories with a ``forgetAfter``, soonest first, expired ones flagged, each linked."""
    queue = expiry_queue(analysis, visible)
    if queue.empty:
        st.info("No memory has a forget-after date.")
        return queue
    overdue = sum(1 for s in queue["state"] if s == "expired")
    past = sum(1 for e in queue["expired"] if e)
    st.caption(f"{len(queue)} memories have a forget-after date; {past} "
               f"are past it, {overdue} of them not forgotten (judged at "
               f"{analysis.now:%Y-%m-%d %H:%M} UTC).")
    shown = _cells(queue, "memory", "space")
    shown.insert(0, "flag", ["⚠️ expired" if e else "" for e in shown["expired"]])
    st.dataframe(shown, hide_index=True, key="expiry_table",
                 column_order=[c for c in ("flag", "memory", "forget after", "days left",
                                           "state", "space", "id")
                               if c in shown.columns],  # the text leads, the id last
                 # (no "expired" tick box: the flag and the state say it, and at 1400 px
                 # it pushed the ids out of view)
                 column_config={
        "flag": st.column_config.TextColumn("flag", width=90),  # "⚠️ expired", whole
        "forget after": st.column_config.DatetimeColumn("forget after",
                                                        format="YYYY-MM-DD HH:mm"),
        "memory": st.column_config.TextColumn("memory", width="large"),
    })
    st.markdown("**Open in the explorer**")
    for record in queue.head(MAX_LINKS).to_dict("records"):
        flag = "⚠️ " if record["expired"] else ""
        due = record["forget after"]
        node_link(analysis, str(record["id"]),
                  key_text=f"{flag}due {due:%Y-%m-%d} · {record['memory']}")
    if len(queue) > MAX_LINKS:
        st.caption(f"… and {len(queue) - MAX_LINKS} more in the table above.")
    return queue


#: a change's link text: the memory's whole sentence, bounded (a long one ends in "…")
CHANGE_TEXT_LIMIT = 240


def _change_link(analysis: Analysis, kind: str, mem_id: str) -> None:
    """A link-like button that selects ``mem_id`` in the explorer (this list is drawn
    there), its text the memory itself — masked in presenter mode, as ``analysis`` is —
    wrapped over lines rather than cut to one (a page link is one line); the id only in
    its tooltip."""
    text = short(analysis.dataset.memories[mem_id].memory, CHANGE_TEXT_LIMIT) or mem_id
    st.button(md_escape(text), key=CHANGE_LINKS.key(f"{kind}_{mem_id}"),
              type="tertiary", icon=":material/search:", on_click=session.select,
              args=(mem_id,), help=f"Select {md_escape(mem_id)} on the graph.")


def changes_section(analysis: Analysis, comparison: Comparison) -> None:
    """The two-date comparison as three lists (added, updated, forgotten), one under the
    other so each link reads as a whole sentence, each memory linked to the explorer.
    ``analysis`` is the data as of ``comparison.t2``."""
    when = f"{comparison.t1:%Y-%m-%d %H:%M} → {comparison.t2:%Y-%m-%d %H:%M} UTC"
    st.caption(f"Changes between {when}.")
    titles = {"added": "Added", "updated": "Updated (new versions)", "forgotten": "Forgotten"}
    for kind in CHANGE_KINDS:
        ids = getattr(comparison, kind)
        st.markdown(f"**{titles[kind]}: {len(ids)}**")
        for mem_id in ids[:MAX_LINKS]:
            if mem_id in analysis.dataset.memories:
                _change_link(analysis, kind, mem_id)
        if len(ids) > MAX_LINKS:
            st.caption(f"… and {len(ids) - MAX_LINKS} more.")
