"""Per-node panels: document, memory (with history), entity and the space's profile.

Every text from the data is shown with ``st.text``/``st.dataframe`` or escaped markdown,
bounded (:func:`memscope.records.text.clip`): a panel shows a text in full up to
:data:`~memscope.records.text.FULL_MAX` characters; past that, its start, a note saying how
much is shown, and a download of the whole text (a 5 MB word must not freeze the page).
Selecting something elsewhere in a panel goes through :func:`components.state.session.select`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

import pandas as pd
import streamlit as st

from components.state import session
from components.widgets import nav
from components.widgets.safe import marked_side, md_escape, short
from memscope.graph.analysis import Analysis
from memscope.graph.chains import Chain
from memscope.lenses.diff import diff_stats, word_diff
from memscope.records.models import DocumentRecord, MemoryRecord
from memscope.records.passport import EntityRecord
from memscope.records.text import FULL_MAX, LINE_MAX, clip
from memscope.records.time import format_time
from memscope.reports.clocks import clocks_in_words
from memscope.view.wording import relative_time

STATE_COLORS = {"latest": "green", "recent": "blue", "superseded": "gray",
                "forgotten": "gray", "expiring": "orange", "expired": "red"}


def _select_button(node_id: str, label: str, key: str) -> None:
    st.button(md_escape(short(label, 70)) or node_id, key=key, on_click=session.select,
              args=(node_id,), help=f"Select {node_id}", width="stretch")


def full_text(text: str, key: str, *, prefix: str = "") -> None:
    """``text`` (after ``prefix``) as text: in full up to :data:`FULL_MAX` characters, else
    its first :data:`FULL_MAX` with a note "(N characters; the first K shown)" and a
    button that downloads the whole text (made only when clicked)."""
    if len(text) <= FULL_MAX:
        st.text(prefix + text)
        return
    st.text(prefix + text[:FULL_MAX] + "…")
    st.caption(f"({len(text):,} characters; the first {FULL_MAX:,} shown)")
    st.download_button("Download the full text", data=lambda: text, file_name=f"{key}.txt",
                       mime="text/plain", key=f"full-{key}", on_click="ignore")


def _clipped(value: object, limit: int = LINE_MAX) -> object:
    """``value`` with every string in it (keys too) cut to ``limit`` characters."""
    if isinstance(value, str):
        return clip(value, limit)
    if isinstance(value, dict):
        return {clip(str(k), limit): _clipped(v, limit) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clipped(v, limit) for v in value]
    return value


def _dates(analysis: Analysis, *pairs: tuple[str, datetime | None]) -> None:
    """Dates as people say them ("3 days ago"), the exact time in the tooltip."""
    for label, value in pairs:
        if value is None:
            st.caption(f"{label}: —")
        else:
            st.caption(f"{label}: {relative_time(value, analysis.now)}",
                       help=format_time(value))


#: the badge of a memory the service inferred (Supermemory's ``isInference``)
INFERRED_BADGE = "inferred — not stated by you"


def state_badges(analysis: Analysis, mem: MemoryRecord, *,
                 inferred_note: str | None = None) -> None:
    """The state badge and, for static memories, the static badge, for inferred ones the
    inferred badge — on one line, never cut short (badges in narrow columns were
    truncated to "sup…")."""
    state = analysis.state(mem.id) or "latest"
    badges = [f":{STATE_COLORS.get(state, 'gray')}-badge[{md_escape(state)}]"]
    if mem.is_static:
        badges.append(":violet-badge[static]")
    if mem.is_inference:
        badges.append(f":yellow-badge[≈ {md_escape(INFERRED_BADGE)}]")
    st.markdown(" ".join(badges))
    if mem.is_inference and inferred_note:
        st.caption(md_escape(inferred_note))


def document_panel(analysis: Analysis, doc: DocumentRecord) -> None:
    """Title, type, url, status, summary, dates, space and its memories."""
    st.caption(f"Document · {md_escape(short(doc.type))} · {md_escape(doc.id)}")
    full_text(doc.title or "(untitled)", f"title-{doc.id}")
    if doc.url:
        st.caption("URL (shown as text)")
        st.code(clip(doc.url, FULL_MAX), language=None, wrap_lines=True)
    if doc.summary:
        st.caption("Summary")
        full_text(doc.summary, f"summary-{doc.id}")
    name = analysis.dataset.space_label
    spaces = sorted({clip(name(analysis.dataset.memories[m].container_tag)) or "—"
                     for m in doc.memory_ids})
    st.text(f"Status: {clip(doc.status) or '—'}\nSpace: {clip(', '.join(spaces), FULL_MAX) or '—'}")
    _dates(analysis, ("Created", doc.created_at), ("Updated", doc.updated_at))
    st.caption(f"{len(doc.memory_ids)} memories")
    for i, mem_id in enumerate(doc.memory_ids):  # keys carry the index: ids may repeat
        mem = analysis.dataset.memories[mem_id]
        _select_button(mem_id, mem.memory, key=f"docmem-{doc.id}-{i}-{mem_id}")


def memory_panel(analysis: Analysis, mem: MemoryRecord, *,
                 fetch_history: Callable[[str], None] | None = None,
                 inferred_note: str | None = None) -> None:
    """Text, badges, version, space, dates, expiry, sources, relations and history;
    ``inferred_note`` is what the source cannot do with an inferred memory."""
    st.caption(f"Memory · {md_escape(mem.id)}")
    state_badges(analysis, mem, inferred_note=inferred_note)
    full_text(mem.memory, f"memory-{mem.id}")
    chain = analysis.chains.of(mem.id)
    entry = chain.entry(mem.id) if chain else None
    version = entry.version if entry else mem.version
    lines = [f"Version: {version}" + (f" (stored {entry.stored_version!r})"
                                      if entry and entry.repaired else ""),
             f"Space: {clip(analysis.dataset.space_label(mem.space)) or '—'}"]
    st.text("\n".join(lines))
    _dates(analysis, ("Created", mem.created_at), ("Updated", mem.updated_at),
           ("Forget after", mem.forget_after))
    clocks = clocks_in_words(mem)  # a temporal fact's two clocks (Graphiti), in words
    if clocks:
        st.caption(md_escape(clocks))
    if mem.forget_reason:
        st.caption("Forget reason")
        full_text(mem.forget_reason, f"reason-{mem.id}")
    docs = analysis.dataset.memory_documents.get(mem.id, [])
    st.caption(f"Source documents ({len(docs)})")
    for i, doc_id in enumerate(docs):
        _select_button(doc_id, analysis.dataset.documents[doc_id].title or doc_id,
                       key=f"memdoc-{mem.id}-{i}-{doc_id}")
    relations(analysis, mem.id)
    st.divider()
    history(analysis, mem.id, fetch_history=fetch_history)


def relations(analysis: Analysis, node_id: str) -> None:
    """Incoming and outgoing memory relations, each selectable."""
    g = analysis.graph.graph
    rows = [(u, k, "in") for u, _, k in g.in_edges(node_id, keys=True) if k != "source"]
    rows += [(v, k, "out") for _, v, k in g.out_edges(node_id, keys=True) if k != "source"]
    if not rows:
        return
    st.caption("Relations")
    # a cycle (a → b → a), a self-relation or a repeated relation lists one pair twice:
    # the index keeps every element key unique
    for i, (other, kind, direction) in enumerate(rows):
        text = analysis.dataset.memories[other].memory if other in analysis.dataset.memories \
            else other
        arrow = "←" if direction == "in" else "→"
        _select_button(other, f"{arrow} {kind}: {text}",
                       key=f"rel-{node_id}-{i}-{direction}-{other}-{kind}")
    for ref in analysis.graph.dangling_of(node_id):
        st.caption(f"{md_escape(ref.relation)} → {md_escape(ref.missing_id)} (not loaded)")


#: above this share of changed words a version is shown as two sentences, one above the
#: other, rather than as one interleaving of removed and added words (issue 32)
REWRITTEN_SHARE = 0.5


def rewritten(segments: list[tuple[str, str]]) -> bool:
    """Whether most words changed (removed plus added over both sides' words).

    >>> rewritten(word_diff("Priya prefers short calls over long threads",
    ...                     "Priya prefers async updates in Slack"))
    True
    >>> rewritten(word_diff("Lives in Lisbon", "Lives in Porto"))
    False
    """
    stats = diff_stats(segments)
    total = sum(len(t.split()) for op, t in segments if op != "insert") \
        + sum(len(t.split()) for op, t in segments if op != "delete")
    return total > 0 and (stats["insert"] + stats["delete"]) / total > REWRITTEN_SHARE


#: presenter mode's stand-in for a memory's text (memscope/lenses/presenter.py): a word
#: diff of two of them ("Memory ~~189~~ 69") means nothing
_PLACEHOLDER = re.compile(r"Memory \d+ \(\d+ chars\)")


def _diff_markdown(old: str, new: str) -> str:
    """A version against its parent: a light edit as one line (removed words struck, added
    words marked); a rewrite as the two sentences one above the other, the changed words
    marked on each."""
    if _PLACEHOLDER.fullmatch(old) and _PLACEHOLDER.fullmatch(new):  # presenter mode
        return f"{md_escape(new)}  \n*The text changed (what changed is hidden in presenter mode).*"
    segments = word_diff(old, new)
    if rewritten(segments):
        return (f"was: {marked_side(segments, 'delete', 'red')}  \n"
                f"now: {marked_side(segments, 'insert', 'green')}")
    parts = []
    for op, text in segments:
        esc = md_escape(text)
        if not esc.strip():
            parts.append(esc)
        elif op == "insert":
            parts.append(f":green-background[{esc}]")
        elif op == "delete":
            parts.append(f":red-background[~~{esc}~~]")
        else:
            parts.append(esc)
    return "".join(parts)


def branch_levels(chain: Chain) -> dict[str, int]:
    """How far each version is indented: one step per fork above it (a straight chain is
    one line of versions, all at 0; ``e.depth`` would indent v4 three times)."""
    out: dict[str, int] = {}
    for e in chain.entries:  # ordered from the root: a parent comes before its versions
        parent = e.parent_id
        out[e.id] = out[parent] + (parent in chain.branches) if parent in out else 0
    return out


def version_line(chain: Chain, selected: str, limit: int = 12) -> str:
    """The chain in one line of versions, the selected one marked: "v1 → v2 → **v3**".

    A long chain shows its first and last few, with how many between."""
    labels = [f"**v{e.version}**" if e.id == selected else f"v{e.version}"
              for e in chain.entries]
    if len(labels) > limit:
        labels = [*labels[:limit // 2], f"… {len(labels) - limit:,} more …",
                  *labels[-(limit // 2):]]
    return " → ".join(labels)


#: the versions of a chain the panel shows at once (around the selected one)
HISTORY_SHOWN = 50


def history(analysis: Analysis, memory_id: str, *,
            fetch_history: Callable[[str], None] | None = None) -> None:
    """The whole chain, oldest → newest with every branch, each with a word diff."""
    chain = analysis.chains.of(memory_id)
    st.markdown("**History**")
    if chain is None:
        st.caption("No earlier or later versions.")
        return
    if chain.incomplete:
        st.warning(f"Older versions are not loaded: the chain starts at "
                   f"{md_escape(chain.root)}, whose parent {md_escape(chain.missing_parent)} "
                   "is missing.")
        if fetch_history is not None:
            st.button("Fetch older versions", key=f"fetch-{memory_id}",
                      on_click=fetch_history, args=(memory_id,))
    if chain.cycle:
        st.error(f"Parent pointers form a cycle ({len(chain.cycle)} members).")
    texts = {e.id: e.text for e in chain.entries}
    start, shown = chain.window(memory_id, HISTORY_SHOWN)
    if len(shown) < len(chain.entries):  # a long chain: the versions around this one
        st.caption(f"Versions {start + 1:,}–{start + len(shown):,} of "
                   f"{len(chain.entries):,}, around the selected one (the Audit page pages "
                   "through all of them).")
    levels = branch_levels(chain)
    if not chain.branches and not chain.cycle and len(chain.entries) > 1:
        st.caption(f"{len(chain.entries):,} versions, oldest first: "
                   f"{version_line(chain, memory_id)}")
    for i, e in enumerate(shown, start):
        indent = "↳ " * levels.get(e.id, 0)
        state = analysis.state(e.id) or ""
        here = " ◀ selected" if e.id == memory_id else ""
        with st.container(border=True):
            st.button(f"{indent}v{e.version} · {state}{here}", key=f"hist-{memory_id}-{i}-{e.id}",
                      on_click=session.select, args=(e.id,), type="tertiary")
            created = relative_time(e.created_at, analysis.now) if e.created_at else "—"
            updated = relative_time(e.updated_at, analysis.now) if e.updated_at else "—"
            st.caption(f"{md_escape(e.id)} · created {created} · updated {updated}",
                       help=f"created {format_time(e.created_at) or '—'}, "
                            f"updated {format_time(e.updated_at) or '—'}")
            parent_text = texts.get(e.parent_id) if e.parent_id else None
            if parent_text is None or max(len(parent_text), len(e.text)) > FULL_MAX:
                full_text(e.text, f"hist-{memory_id}-{i}")
            else:
                st.markdown(_diff_markdown(parent_text, e.text))


def entity_panel(analysis: Analysis, ent: EntityRecord) -> None:
    """Name, type, aliases, attributes and every relation with provenance."""
    st.caption(f"Entity · {md_escape(short(ent.type))} · {md_escape(ent.id)}")
    full_text(ent.name, f"name-{ent.id}")
    if ent.aliases:
        st.text(clip("Aliases: " + ", ".join(clip(a) for a in ent.aliases), FULL_MAX))
    if ent.attributes:
        st.json(_clipped(ent.attributes), expanded=False)
    names = {e_id: e.name for e_id, e in analysis.dataset.entities.items()}
    rows = []
    for rel in analysis.dataset.relations.values():
        if ent.id not in (rel.subject_id, rel.object_id):
            continue
        prov = rel.provenance[0] if rel.provenance else None
        rows.append({
            "subject": clip(names.get(rel.subject_id, rel.subject_id)),
            "predicate": clip(rel.predicate),
            "object": clip(names.get(rel.object_id, f"{rel.object_id} (missing)")),
            "confidence": rel.confidence, "source": prov.source_id if prov else None,
            "span": clip(prov.source_span, 5 * LINE_MAX) if prov else None,
            "created": format_time(rel.created_at), "updated": format_time(rel.updated_at),
            "id": rel.id,
        })
    st.caption(f"{len(rows)} relations")
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def profile_panel(analysis: Analysis, container_tag: str | None, *,
                  open_in_explorer: bool = False) -> None:
    """The static and dynamic profile lines of a space, each linking to its memories
    (``open_in_explorer``: links that open the memory in the explorer with its panel;
    else buttons that select it where the panel is drawn)."""
    profile = analysis.dataset.profiles.get(container_tag or "")
    named = analysis.dataset.space_label(container_tag)
    st.markdown(f"**Profile of {md_escape(short(named or 'this space'))}**")
    if profile is None or not (profile.static or profile.dynamic):
        st.caption("No profile loaded for this space.")
        return
    for title, lines in (("Static", profile.static), ("Dynamic", profile.dynamic)):
        st.caption(title)
        for i, line in enumerate(lines):
            full_text(line.text, f"profile-{title}-{i}", prefix="• ")
            for j, mem_id in enumerate(line.memory_ids):
                mem = analysis.dataset.memories.get(mem_id)
                if mem is None:
                    continue
                if open_in_explorer:
                    nav.open_node(mem_id, mem.memory)
                else:
                    _select_button(mem_id, "↳ " + mem.memory, key=f"prof-{title}-{i}-{j}-{mem_id}")


def node_panel(analysis: Analysis, node_id: str, *,
               fetch_history: Callable[[str], None] | None = None,
               inferred_note: str | None = None) -> None:
    """The panel for any node kind; a friendly line for an unknown id."""
    ds = analysis.dataset
    if node_id in ds.memories:
        memory_panel(analysis, ds.memories[node_id], fetch_history=fetch_history,
                     inferred_note=inferred_note)
    elif node_id in ds.documents:
        document_panel(analysis, ds.documents[node_id])
    elif node_id in ds.entities:
        entity_panel(analysis, ds.entities[node_id])
    else:
        st.info(f"Nothing with id {md_escape(node_id)} is loaded.")
