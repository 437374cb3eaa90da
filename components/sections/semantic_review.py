"""The Audit page's review queue: what the semantic audit suspects, one item at a time.

Suspected contradictions, suspicious updates and near-duplicate groups
(:func:`memscope.meaning.audit.semantic_findings`, computed once per load revision by the
process's pipeline, never on a click) are shown side by side — texts, dates, documents,
spaces, a word diff, why each was flagged and a score — with these actions:

- **Not a conflict**: ledgered as ``reviewed`` under the finding's key (kind, ids and a
  digest of both texts), so the item stays hidden until either memory changes, for
  everyone using the same source;
- **Forget the older** / **Forget this one**: the normal forget
  (:mod:`components.sections.forget`: its impact preview, its confirmation, its ledger
  row);
- **Open both in the graph**: selects the first memory, marks every member and opens the
  explorer, which draws the suspected-contradiction edge between them.

Presenter mode masks it all: the texts and document titles come from the masked data,
spaces are named by their pseudonyms and the reason is a sentence of the finding's kind
(the audit's own reason quotes the words that differ).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable

import streamlit as st

from components.sections import forget
from components.sections.audit import _side
from components.state import session
from components.state.context import AppContext, flash
from components.state.pipeline import pipeline
from components.widgets import nav
from components.widgets.safe import md_escape
from memscope.graph.analysis import Analysis
from memscope.lenses.diff import word_diff
from memscope.meaning.findings import SemanticFinding
from memscope.records.text import CELL_MAX, FULL_MAX, LINE_MAX, clip, counted
from memscope.sources import Source
from memscope.storage import LOCAL_ACTOR, Storage, StorageError

#: the ledger action of a "Not a conflict" review; its ``target_id`` is the finding's key
REVIEWED = "reviewed"
#: items drawn at once (the rest are counted)
MAX_ITEMS = 30
KIND_TITLES = {"suspected_contradiction": "Suspected contradiction",
               "suspicious_update": "Suspicious update",
               "near_duplicate": "Near-duplicates"}
#: the reason presenter mode shows (the audit's quotes the data)
MASKED_REASONS = {
    "suspected_contradiction": "Both are about the same subject and attribute but cannot "
                               "both hold, and no update links them.",
    "suspicious_update": "The newer version shares no subject or attribute with the one it "
                         "replaced, so the service may have retired a fact by mistake.",
    "near_duplicate": "These memories state the same fact in several documents.",
}
MARKS = session.SEMANTIC_REVIEW_MARKS
HELD = session.SEMANTIC_REVIEW_HELD
KEYS = session.SEMANTIC_REVIEW_KEYS
#: what the page says when the audit itself fails (the rest of the page still works)
FAILED = ("The review queue is unavailable: the semantic audit failed on this data (the "
          "details are in the server's log).")
log = logging.getLogger("memscope.app")


# -- the ledger ----------------------------------------------------------------------------


def reviewed_keys(storage: Storage, scope: str) -> set[str]:
    """The finding keys marked "not a conflict" under ``scope`` (a source identity)."""
    return {str(e.target_id) for e in storage.ledger(scope=scope)
            if e.action == REVIEWED and e.outcome == "ok" and e.target_id}


def dismissed(ctx: AppContext) -> frozenset[str]:
    """The keys this source's findings were reviewed under as "not a conflict" (so the
    graph draws no ``contradicts`` edge for them): read from the ledger once per session
    and source, then kept in step by the review itself and by the Audit page."""
    if ctx.source is None:
        return frozenset()
    identity = ctx.source.identity()
    held = HELD.get()
    if not held or held[0] != identity:
        try:
            held = (identity, frozenset(reviewed_keys(ctx.ledger, identity)))
        except StorageError:  # the Audit page says so; the graph draws every edge
            return frozenset()
        HELD.set(held)
    return held[1]


def not_a_conflict(storage: Storage, source: Source, finding: SemanticFinding, *,
                   actor: str = LOCAL_ACTOR, viewer: bool = False) -> str:
    """Ledger ``finding`` as reviewed ("not a conflict") under the source's identity;
    returns the sentence to show. A viewer is refused (nothing is written); a ledger that
    cannot be written says so in one sentence."""
    if viewer:
        return f"Nothing was recorded: {actor} may view these memories but not review them."
    ids = " and ".join(finding.nodes)
    try:
        storage.record_ledger(action=REVIEWED, source=source.kind, outcome="ok",
                              scope=source.identity(), actor=actor, space=finding.space,
                              target_id=finding.key, snapshot=" ⟷ ".join(finding.texts),
                              message=f"Reviewed: not a conflict ({ids}).")
    except StorageError as exc:
        return f"Nothing was recorded: {exc}"
    return f"Marked as not a conflict: {ids}. It stays hidden until either memory changes."


# -- what the queue holds ------------------------------------------------------------------


def queue(findings: Iterable[SemanticFinding], reviewed: Collection[str],
          visible: Collection[str] | None, present: Collection[str]) -> list[SemanticFinding]:
    """The findings to review: not reviewed (by key), every memory still loaded
    (``present``) and passing the sidebar's filters (``visible``; ``None``: no filter).
    Contradictions first, then suspicious updates, then near-duplicates; surest first."""
    order = {k: i for i, k in enumerate(KIND_TITLES)}
    kept = [f for f in findings if f.key not in reviewed
            and all(n in present for n in f.nodes)
            and (visible is None or all(n in visible for n in f.nodes))]
    return sorted(kept, key=lambda f: (order.get(f.kind, len(order)), -f.score, f.nodes))


def marked_ids(ctx: AppContext, analysis: Analysis) -> set[str]:
    """The memories "Open both in the graph" asked the explorer to highlight."""
    marks = MARKS.get()
    if not marks or marks[0] != ctx.key:
        return set()
    return {i for i in marks[1] if i in analysis.dataset.memories}


# -- the callbacks -------------------------------------------------------------------------


def _review(ctx: AppContext, finding: SemanticFinding) -> None:
    if ctx.source is None:
        return
    message = not_a_conflict(ctx.ledger, ctx.source, finding, **ctx.acting())
    flash(message, "success" if message.startswith("Marked") else "error")
    HELD.clear()  # read again from the ledger, which now holds this review


def _open(ctx: AppContext, finding: SemanticFinding) -> None:
    session.select(finding.nodes[0])
    MARKS.set((ctx.key, tuple(finding.nodes)))


# -- drawing -------------------------------------------------------------------------------


def _space(ctx: AppContext, space: str | None) -> str:
    if space is None:
        return "no space"
    return ctx.space_names.get(space, "another space") if ctx.presenter else clip(space, 60)


def _text(ctx: AppContext, analysis: Analysis, finding: SemanticFinding, i: int) -> str:
    """The text shown for member ``i``: masked in presenter mode (from the masked data)."""
    if ctx.presenter:
        mem = analysis.dataset.memories.get(finding.nodes[i])
        return mem.memory if mem is not None else "(masked)"
    return finding.texts[i] if i < len(finding.texts) else ""


def _member(ctx: AppContext, analysis: Analysis, finding: SemanticFinding, i: int,
            body: str, *, markdown: bool) -> None:
    """One side of an item: its text, date, documents, space, id, its forget button."""
    mem_id = finding.nodes[i]
    ds = analysis.dataset
    mem = ds.memories.get(mem_id)
    with st.container(border=True):
        if markdown:
            st.markdown(body)
        else:
            st.text(body)
        when = f"{mem.created_at:%Y-%m-%d %H:%M} UTC" if mem and mem.created_at else "no date"
        titles = [ds.documents[d].title or d for d in ds.memory_documents.get(mem_id, ())
                  if d in ds.documents]
        docs = "; ".join(clip(t, 60) for t in titles[:3]) or "no document"
        if len(titles) > 3:
            docs += f" and {len(titles) - 3} more"
        st.caption(md_escape(f"{clip(mem_id, 80)} · created {when} · "
                             f"{_space(ctx, finding.space)} · {docs}"))
        _forget_button(ctx, finding, mem_id, "Forget this one", f"this{i}")


def _forget_button(ctx: AppContext, finding: SemanticFinding, mem_id: str, label: str,
                   tag: str) -> None:
    """The normal forget (preview and confirmation) for ``mem_id``, where allowed."""
    if ctx.source is None or not ctx.user.may_change:
        return
    if ctx.source.capabilities.reason("forget"):
        return  # said once, above the queue
    st.button(label, key=KEYS.key(f"forget-{tag}-{finding.key}"),
              on_click=forget.request, args=(mem_id,),
              help="Opens the usual confirmation, which shows what else this touches.")


def _item(ctx: AppContext, analysis: Analysis, finding: SemanticFinding) -> None:
    title = KIND_TITLES.get(finding.kind, finding.kind)
    st.markdown(f"**{md_escape(title)}** · score {finding.score:.2f} · "
                f"{md_escape(_space(ctx, finding.space))}")
    st.caption(md_escape(MASKED_REASONS.get(finding.kind, "")
                         if ctx.presenter else clip(finding.reason, 2 * LINE_MAX)))
    texts = [_text(ctx, analysis, finding, i) for i in range(len(finding.nodes))]
    pair = len(texts) == 2
    diffable = pair and not ctx.presenter and max(map(len, texts)) <= FULL_MAX
    if diffable:
        segments = word_diff(texts[0], texts[1])
        bodies = [_side(segments, "delete"), _side(segments, "insert")]
    else:
        bodies = [clip(t, CELL_MAX) for t in texts]
    columns = st.columns(min(len(texts), 3))
    for i in range(len(texts)):
        with columns[i % len(columns)]:
            _member(ctx, analysis, finding, i, bodies[i], markdown=diffable)
    actions = st.columns(3)
    if ctx.source is not None and ctx.user.may_change and finding.kind != "near_duplicate":
        actions[0].button("Not a conflict", key=KEYS.key(f"ok-{finding.key}"),
                          on_click=_review, args=(ctx, finding),
                          help="Written to the ledger; hidden until either memory changes.")
    if pair and finding.kind == "suspected_contradiction":
        with actions[1]:
            _forget_button(ctx, finding, finding.nodes[0], "Forget the older", "older")
    label = "Open both in the graph" if pair else "Open them in the graph"
    if actions[2].button(label, key=KEYS.key(f"open-{finding.key}"),
                         on_click=_open, args=(ctx, finding)):
        st.switch_page(nav.EXPLORER, query_params={"node": finding.nodes[0]})


def review_section(ctx: AppContext, visible: Collection[str] | None) -> None:
    """The review queue: the semantic audit of today's data, less what was reviewed."""
    if ctx.request is None or ctx.current is None:
        st.info("No data is loaded.")
        return
    p = pipeline()
    try:
        if p.semantic(ctx.request, wait=False) is None:
            with st.spinner("Reading what the memories claim…"):
                p.semantic(ctx.request)
        findings = p.semantic(ctx.request) or []
    except Exception:  # one sentence here; the integrity findings and chains still show
        log.exception("the semantic audit failed")
        st.warning(FAILED)
        return
    analysis = ctx.analysis or ctx.current
    reviewed: set[str] = set()
    if ctx.source is not None:
        try:
            reviewed = reviewed_keys(ctx.ledger, ctx.source.identity())
            HELD.set((ctx.source.identity(), frozenset(reviewed)))
        except StorageError as exc:
            st.warning(md_escape(f"Reviews could not be read from the ledger: {exc}"))
    items = queue(findings, reviewed, visible, ctx.current.dataset.memories)
    hidden = sum(1 for f in findings if f.key in reviewed)
    counts = {k: sum(1 for f in items if f.kind == k) for k in KIND_TITLES}
    st.caption(md_escape(
        f"{counted(counts['suspected_contradiction'], 'suspected contradiction')}, "
        f"{counted(counts['suspicious_update'], 'suspicious update')}, "
        f"{counted(counts['near_duplicate'], 'group')} of near-duplicates to review"
        + (f"; {counted(hidden, 'finding')} reviewed as not a conflict" if hidden else "")
        + (". The audit reads today's data." if ctx.as_of is not None else ".")))
    reason = ctx.source.capabilities.reason("forget") if ctx.source is not None else None
    if reason and items:
        st.caption(f"Forget is unavailable: {md_escape(reason)}")
    if not items:
        st.info("Nothing to review: no memory contradicts another, and every update "
                "keeps to its subject.")
    for i, finding in enumerate(items[:MAX_ITEMS]):
        if i:
            st.divider()
        with st.container(key=f"review-item-{i}"):
            _item(ctx, analysis, finding)
    if len(items) > MAX_ITEMS:
        st.caption(f"… and {len(items) - MAX_ITEMS} more: the surest are shown first.")
    forget.dialog(ctx)
