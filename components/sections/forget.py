"""The safe forget: a confirmation dialog with an impact preview, sent exactly once.

The "Forget…" button only records a pending request (with a fresh token) in session
state; the dialog is drawn while that request exists. Confirming marks the token as used
*before* calling the source, so no rerun can send the same request twice.

What a forget or a restore changed is handed to the shared load as a patched copy
(:func:`show_change`, :mod:`memscope.sources.patch`): the service's answer applied, and
after an error only what the action touched read again — never the whole account, unless
the source cannot patch.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from components.state import data
from components.state.context import AppContext, flash
from components.state.session import slot
from components.widgets import nav, once
from components.widgets.safe import md_escape
from memscope.graph.analysis import Analysis
from memscope.lenses.impact import forget_impact
from memscope.lenses.redact import hide_quoted
from memscope.sources import ForgetMismatch, LoadResult, SourceError, actions, patch

# -- the session slots this module owns (components.state.session collects them) --
FORGET_PENDING = slot("forget_pending", __name__,
                      "A forget waiting for its confirmation (with its once-token).")


def loaded(ctx: AppContext) -> LoadResult | None:
    """Today's shared load (another session may have changed it since this run drew)."""
    entry = data.loads().entry(ctx.key)
    return entry.load if entry is not None else None


def show_change(ctx: AppContext, change: Callable[[LoadResult | None], LoadResult | None],
                *, otherwise: Callable[[], None] | None = None) -> None:
    """Hand the shared load what an action changed: ``change`` patches today's load
    (:mod:`memscope.sources.patch`) and the new result is touched in (the same one: nothing
    changed). When the source cannot patch (``None``), ``otherwise`` runs — by default the
    load is dropped, so the next run reads it again."""
    old = loaded(ctx)
    new = change(old)
    if new is None:
        if otherwise is not None:
            otherwise()
        else:
            data.forget_cached(ctx.key)
    elif new is not old:
        data.touch(ctx.key, new)


def request(node_id: str) -> None:
    """Open the dialog for ``node_id`` (a button callback)."""
    once.pend(FORGET_PENDING, id=node_id)


def _cancel() -> None:
    once.drop(FORGET_PENDING)


def button(ctx: AppContext, node_id: str, label: str = "Forget…") -> None:
    """The "Forget…" button for a memory or a Spomory fact (relation id), or the reason
    it is unavailable."""
    if ctx.source is None or not ctx.user.may_change:
        return
    reason = ctx.source.capabilities.reason("forget")
    if reason:
        st.caption(f"Forget is unavailable: {md_escape(reason)}")
        return
    st.button(label, key=f"forget-{node_id}", on_click=request, args=(node_id,),
              help="Opens a confirmation that shows what else this touches.")


def _restore(ctx: AppContext, memory_id: str) -> None:
    source = ctx.source
    if source is None:
        return
    try:
        result = actions.restore(source, ctx.ledger, memory_id, **ctx.acting())
    except SourceError as exc:
        flash(str(exc), "error")
        show_change(ctx, lambda load: patch.after_error(source, load, [memory_id]))
        return
    flash(result.message, "success" if result.ok else "error")
    restored = [memory_id] if result.ok else []
    show_change(ctx, lambda load: patch.after_restore(source, load, restored),
                otherwise=lambda: data.touch(ctx.key))


def restore_button(ctx: AppContext, memory_id: str) -> None:
    """"Restore" for a soft-forgotten memory, where the source can (it is idempotent, so
    no confirmation); ledgered like a forget."""
    if ctx.source is None or not ctx.user.may_change \
            or not ctx.source.capabilities.can("restore"):
        return
    st.button("Restore", key=f"restore-{memory_id}", on_click=_restore,
              args=(ctx, memory_id), help="Undo the soft forget of this memory.")


def _describe(analysis: Analysis, target_id: str) -> str:
    """The text of what is about to be forgotten: a memory, or a fact as one sentence."""
    mem = analysis.dataset.memories.get(target_id)
    if mem is not None:
        return mem.memory
    rel = analysis.dataset.relations.get(target_id)
    if rel is not None:
        names = {e_id: e.name for e_id, e in analysis.dataset.entities.items()}
        return rel.sentence(names)
    doc = analysis.dataset.documents.get(target_id)
    if doc is not None:  # a source that forgets documents (Zep's episodes)
        return doc.content or doc.title or target_id
    return target_id


def _perform(ctx: AppContext, node_id: str, token: str, reason: str) -> None:
    source = ctx.source
    if once.pending(FORGET_PENDING, token) is None or source is None:
        return
    once.claim(token)
    analysis = ctx.current or nav.require(ctx)  # act on today's unmasked data
    mem = analysis.dataset.memories.get(node_id)
    snapshot = _describe(analysis, node_id)
    why = reason.strip() or None
    try:
        result = actions.forget(source, ctx.ledger, node_id, reason=why,
                                container_tag=mem.container_tag if mem else ctx.conn.space,
                                snapshot=snapshot, **ctx.acting())
    except SourceError as exc:  # a Spomory mismatch arrives here too, loudly
        flash(str(exc), "error")
        reread = exc.result if isinstance(exc, ForgetMismatch) else None
        if reread is not None and reread.load is not None:  # Spomory re-read its graph
            data.touch(ctx.key, reread.load)
        else:  # what the service holds now is unknown: read what was touched again
            show_change(ctx, lambda load: patch.after_error(source, load, [node_id]))
    else:
        flash(result.message, "success" if result.ok else "error")
        if result.report is not None and result.report.note:  # v5's per-id report
            flash(result.report.note, "info")
        if result.load is not None:  # Spomory re-read the graph: use it
            data.touch(ctx.key, result.load)
        elif result.ok:
            show_change(ctx, lambda load: patch.after_forget(source, load, [node_id],
                                                             reason=why),
                        otherwise=lambda: data.touch(ctx.key))
        else:  # refused: its state is not what the load says, read it again
            show_change(ctx, lambda load: patch.after_error(source, load, [node_id]),
                        otherwise=lambda: data.touch(ctx.key))
    once.drop(FORGET_PENDING)


def dialog(ctx: AppContext) -> None:
    """Draw the confirmation dialog when a forget is pending."""
    pending = FORGET_PENDING.get()
    if not pending or ctx.analysis is None:
        return
    _dialog(ctx, pending["id"], pending["token"])


def _service_preview(ctx: AppContext, node_id: str) -> str | None:
    """What the service says it deletes with ``node_id`` (sends nothing), or ``None``; in
    presenter mode the data it quotes is hidden."""
    if ctx.source is None:
        return None
    try:
        said = ctx.source.forget_preview(node_id)
    except SourceError as exc:
        said = str(exc)
    if said and ctx.presenter:
        texts = data.texts_of(ctx.key, ctx.entry) if ctx.entry is not None else ()
        said = hide_quoted(said, texts)
    return said


@st.dialog("Confirm forget", on_dismiss=_cancel)
def _dialog(ctx: AppContext, node_id: str, token: str) -> None:
    analysis = nav.require(ctx)
    st.text(_describe(analysis, node_id))
    said = _service_preview(ctx, node_id)
    if said:
        st.warning(md_escape(said))
    impact = forget_impact(analysis, node_id)
    sentences = impact.sentences({m: r.memory for m, r in analysis.dataset.memories.items()})
    if sentences:
        st.warning("This also touches:\n\n" + "\n\n".join(md_escape(s) for s in sentences))
    elif not said:  # the service's own sentence already says what goes with it
        st.caption("Nothing else depends on it.")
    st.caption(f"Source: {md_escape(ctx.conn.label)}. The action is written to the ledger.")
    reason = st.text_input("Reason (optional)", key=f"forget-reason-{token}")
    left, right = st.columns(2)
    if left.button("Forget", type="primary", key=f"forget-confirm-{token}"):
        _perform(ctx, node_id, token, reason)
        st.rerun()
    if right.button("Cancel", key=f"forget-cancel-{token}"):
        _cancel()
        st.rerun()
