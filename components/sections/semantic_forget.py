"""Semantic forget, previewed on the graph: "Forget memories about…".

Step one asks the source for a dry run (:meth:`~memscope.sources.Source.
forget_semantic_preview`; nothing is deleted) and keeps it in session state with a fresh
once-token. While it is under review the explorer highlights exactly the memories still
ticked (:func:`marked_ids`, gathered by :func:`components.sections.marks.graph_marks`) and
the list below shows them; the person may untick some. Step two forgets **by the reviewed
ids** (:func:`memscope.sources.actions.forget_many`) — never a second semantic call,
whose matches could differ from what the person saw. The token is claimed before the
call, so no rerun or second click sends it twice; the per-id report is shown and each id
has its ledger row. The loaded data is then patched from the report (what the service
forgot is marked forgotten, what it refused is read again; an error re-reads the reviewed
ids) — the account is not read again (:func:`components.sections.forget.show_change`).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from components.sections.forget import show_change
from components.sections.forget_all import pseudonyms, real_spaces
from components.state.context import AppContext, flash
from components.state.session import Family, slot
from components.widgets import once
from components.widgets.folds import fold
from components.widgets.safe import md_escape, short
from memscope.graph.analysis import Analysis
from memscope.lenses.presenter import mask_spaces
from memscope.sources import ForgetReport, SemanticPreview, Source, SourceError, actions, patch

# -- the session slots this module owns (components.state.session collects them) --
SEMANTIC_FORGET = slot("semantic_forget_pending", __name__,
                       "A semantic-forget dry run under review (its preview, the unticked "
                       "ids, its once-token).")
SEMANTIC_FORGET_QUERY = slot("semantic_forget_query", __name__,
                             "The 'Forget memories about…' field (its widget key).", str)
SEMANTIC_FORGET_SPACE = slot("semantic_forget_space", __name__,
                             "The space a semantic forget looks in, when the connection "
                             "names none (its widget key).")
SEMANTIC_FORGET_FIELDS = Family("sf-", __name__,
                                "The tick boxes and the reason field of one semantic-forget "
                                "preview, by token.")
SEMANTIC_FORGET_LAST = slot("semantic_forget_last", __name__,
                            "The per-id report of the last confirmed semantic forget.")
SEMANTIC_FORGET_OPEN = slot("semantic_forget_open", __name__,
                            "Whether the 'Forget memories about…' expander is open.", bool,
                            widget=True)

MAX_QUERY = 500
LABEL_CHARS = 160
TITLE = "Forget memories about…"


def why_not(source: Source) -> str | None:
    """The one sentence saying why the source cannot forget by meaning, else ``None``."""
    caps = source.capabilities
    return caps.reason("semantic_forget") or caps.reason("forget_many")


def _mine(ctx: AppContext, found: dict[str, Any] | None) -> dict[str, Any] | None:
    """``found`` if it belongs to the connected source (a switch leaves it behind)."""
    if not found or ctx.source is None or found.get("source") != ctx.source.cache_key():
        return None
    return found


def _box(token: str, memory_id: str) -> str:
    return SEMANTIC_FORGET_FIELDS.key(f"{token}-tick-{memory_id}")


def ticked(pending: dict[str, Any]) -> list[str]:
    """The reviewed ids: the preview's ids the person did not untick, in its order."""
    preview: SemanticPreview = pending["preview"]
    return [i for i in preview.ids if i not in pending["unticked"]]


def marked_ids(ctx: AppContext, analysis: Analysis) -> set[str]:
    """The memories the graph highlights: the ticked ids of the preview under review."""
    pending = _mine(ctx, SEMANTIC_FORGET.get())
    if pending is None:
        return set()
    return {i for i in ticked(pending) if i in analysis.dataset.memories}


# -- the callbacks ------------------------------------------------------------------------


def _spaces(ctx: AppContext, analysis: Analysis) -> list[str]:
    """The spaces to choose from: the connection's, else those of the loaded memories."""
    if ctx.conn.space:
        return [ctx.conn.space]
    return real_spaces(ctx, analysis)  # real tags (presenter mode shows pseudonyms)


def _preview(ctx: AppContext, spaces: list[str]) -> None:
    """Step one (the form's submit): the dry run; nothing is deleted."""
    SEMANTIC_FORGET.clear()
    source = ctx.source
    query = str(SEMANTIC_FORGET_QUERY.get() or "").strip()
    picked = SEMANTIC_FORGET_SPACE.get()
    space = ctx.conn.space or (picked if picked in spaces else None) \
        or (spaces[0] if spaces else None)
    if source is None:
        return
    if not query:
        flash("Type what the memories to forget are about first.", "info")
        return
    try:
        preview = source.forget_semantic_preview(query, container_tag=space)
    except SourceError as exc:
        flash(str(exc), "error")
        return
    SEMANTIC_FORGET_LAST.clear()
    once.pend(SEMANTIC_FORGET, preview=preview, unticked=set(), source=source.cache_key(),
              space=space)


def _toggle(token: str, memory_id: str) -> None:
    """A tick box changed: keep the choice in the pending request (it outlives pages)."""
    pending = SEMANTIC_FORGET.get()
    if not pending or pending["token"] != token:
        return
    if SEMANTIC_FORGET_FIELDS.get(f"{token}-tick-{memory_id}"):
        pending["unticked"].discard(memory_id)
    else:
        pending["unticked"].add(memory_id)


def _cancel() -> None:
    once.drop(SEMANTIC_FORGET)


def _snapshots(ctx: AppContext, preview: SemanticPreview, ids: list[str]) -> dict[str, str]:
    """The reviewed texts for the ledger: the service's, else the loaded memory's."""
    mems = ctx.current.dataset.memories if ctx.current is not None else {}
    out: dict[str, str] = {}
    for i in ids:
        text = preview.texts.get(i) or (mems[i].memory if i in mems else None)
        if text:
            out[i] = text
    return out


def _perform(ctx: AppContext, token: str) -> None:
    """Step two (a button callback): forget the reviewed ids, exactly once."""
    pending = once.pending(SEMANTIC_FORGET, token)
    source = ctx.source
    if pending is None or source is None:
        return
    ids = ticked(pending)
    if not ids:
        flash("Nothing was forgotten: every memory is unticked.", "info")
        return
    once.claim(token)
    preview: SemanticPreview = pending["preview"]
    reason = str(SEMANTIC_FORGET_FIELDS.get(f"{token}-reason") or "").strip() or None
    try:
        report = actions.forget_many(
            source, ctx.ledger, ids, reason=reason,
            container_tag=preview.container_tag or pending["space"],
            snapshots=_snapshots(ctx, preview, ids), **ctx.acting())
    except SourceError as exc:
        flash(str(exc), "error")
        once.drop(SEMANTIC_FORGET)  # what it did is unknown: the reviewed ids are read again
        show_change(ctx, lambda load: patch.after_error(source, load, ids))
        return
    SEMANTIC_FORGET_LAST.set({"report": report, "query": preview.query,
                              "texts": dict(preview.texts), "source": pending["source"]})
    flash(summary(report), "success" if report.ok else "error")
    once.drop(SEMANTIC_FORGET)
    show_change(ctx, lambda load: patch.after_report(source, load, report, reason=reason))


# -- what is drawn ------------------------------------------------------------------------


def summary(report: ForgetReport) -> str:
    """One sentence: how many of the reviewed memories were forgotten, and what went wrong."""
    asked = len(dict.fromkeys(report.requested))
    parts = [f"Forgotten {len(report.forgotten)} of {asked} reviewed "
             f"{'memory' if asked == 1 else 'memories'}."]
    if report.errors:
        parts.append(f"{len(report.errors)} refused by the service.")
    if report.not_matched:
        parts.append(f"{len(report.not_matched)} not matched by the service.")
    return " ".join(parts)


def report_rows(report: ForgetReport, texts: dict[str, str], *, hide: bool
                ) -> list[dict[str, str]]:
    """The per-id report as table rows (texts masked when ``hide``)."""
    rows = []
    for i in dict.fromkeys(report.requested):
        if i in report.errors:
            outcome = f"error: {report.errors[i]}"
        elif i in report.forgotten:
            outcome = "forgotten"
        else:
            outcome = "not matched"
        text = texts.get(i, "")
        rows.append({"id": i, "memory": _masked(text) if hide else text, "outcome": outcome})
    return rows


def _masked(text: str) -> str:
    return f"({len(text)} characters, hidden in presenter mode)"


def _report(ctx: AppContext, last: dict[str, Any]) -> None:
    report: ForgetReport = last["report"]
    show = st.success if report.ok else st.warning
    show(md_escape(f"Last semantic forget (“{last['query']}”): {summary(report)}"))
    if report.note:
        st.caption(md_escape(report.note))
    st.dataframe(pd.DataFrame(report_rows(report, last["texts"], hide=ctx.presenter)),
                 hide_index=True, key="semantic_forget_report")
    st.button("Close the report", key="semantic_forget_close", on_click=SEMANTIC_FORGET_LAST.clear)


def _label(memory_id: str, text: str | None, loaded: bool, hide: bool) -> str:
    where = "" if loaded else " — not in the loaded graph"
    if hide:
        shown = _masked(text or "")
    else:
        shown = short(text, LABEL_CHARS) if text else "(the service sent no text)"
    return md_escape(f"{shown} · {memory_id}{where}")


def _review(ctx: AppContext, analysis: Analysis, pending: dict[str, Any]) -> None:
    preview: SemanticPreview = pending["preview"]
    token = pending["token"]
    mems = analysis.dataset.memories
    with st.container(border=True):
        count = len(preview.ids)
        where = preview.container_tag or pending.get("space")
        where = pseudonyms(ctx).get(where, "a space") if where and ctx.presenter else where
        found = (f"{count} {'memory matches' if count == 1 else 'memories match'} "
                 f"“{preview.query}”" + (f" in {where}" if where else "") + ".")
        st.markdown(f"**Preview** — {md_escape(found)} Nothing has been deleted." if count
                    else "**Preview** — nothing has been deleted.")
        if preview.note:
            st.caption(md_escape(mask_spaces(preview.note, pseudonyms(ctx))))
        if not preview.ids:
            st.info(md_escape(f"No memory matches “{preview.query}”: nothing would be "
                              "forgotten."))
            st.button("Close the preview", key=SEMANTIC_FORGET_FIELDS.key(f"{token}-close"),
                      on_click=_cancel)
            return
        st.caption("The ticked ones are highlighted in the graph; untick any to keep it. "
                   "Only the ticked ids are forgotten, by id — the search is not run again.")
        for i in preview.ids:
            text = preview.texts.get(i) or (mems[i].memory if i in mems else None)
            st.checkbox(_label(i, text, i in mems, ctx.presenter),
                        value=i not in pending["unticked"], key=_box(token, i),
                        on_change=_toggle, args=(token, i))
        chosen = len(ticked(pending))
        st.text_input("Reason (optional, written to the ledger)",
                      key=SEMANTIC_FORGET_FIELDS.key(f"{token}-reason"), max_chars=500)
        left, right = st.columns(2)
        left.button(f"Forget {chosen} {'memory' if chosen == 1 else 'memories'}",
                    type="primary", key=SEMANTIC_FORGET_FIELDS.key(f"{token}-go"),
                    disabled=chosen == 0,
                    on_click=_perform, args=(ctx, token),
                    help="Forgets exactly the ticked ids, once; written to the ledger.")
        right.button("Cancel", key=SEMANTIC_FORGET_FIELDS.key(f"{token}-cancel"), on_click=_cancel)


def section(ctx: AppContext, analysis: Analysis) -> None:
    """The "Forget memories about…" expander: the dry run, its review and the last report.

    Drawn only for someone who may change the data. A source that can forget but not by
    meaning shows its own one-sentence reason (legacy Supermemory: connect with v5); a
    source with no sentence of its own, or a read-only one, shows nothing."""
    source = ctx.source
    if source is None or not ctx.user.may_change:
        return
    if why_not(source):
        said = dict(source.capabilities.why_not)  # only a sentence of the source's own
        reason = said.get("semantic_forget") or said.get("forget_many")
        if reason and source.capabilities.can("forget"):
            st.caption(f"Forgetting memories by meaning is unavailable: {md_escape(reason)}")
        return
    pending = _mine(ctx, SEMANTIC_FORGET.get())
    last = _mine(ctx, SEMANTIC_FORGET_LAST.get())
    box, is_open = fold(TITLE, SEMANTIC_FORGET_OPEN, open_now=pending is not None)
    if not is_open:  # nothing inside is drawn until it is opened (folds.py)
        return
    with box:
        spaces = _spaces(ctx, analysis)
        with st.form("semantic_forget_form", border=False):
            left, right = st.columns([5, 2], vertical_alignment="bottom")
            left.text_input("Forget memories about…", key=SEMANTIC_FORGET_QUERY.name,
                            max_chars=MAX_QUERY,
                            placeholder="e.g. my old address")
            if len(spaces) > 1:
                left.selectbox("Space", spaces, key=SEMANTIC_FORGET_SPACE.name,
                               format_func=lambda t: ctx.space_label(str(t)))
            right.form_submit_button(
                "Preview", on_click=_preview, args=(ctx, spaces), width="stretch",
                help="A dry run: the service says which memories it would forget; "
                     "nothing is deleted.")
        if last is not None and pending is None:
            _report(ctx, last)
        if pending is not None:
            _review(ctx, analysis, pending)
