"""The safe forget: a confirmation dialog with an impact preview, sent exactly once.

The "Forget…" button only records a pending request (with a fresh token) in session
state; the dialog is drawn while that request exists. Confirming marks the token as used
*before* calling the source, so no rerun can send the same request twice.
"""

from __future__ import annotations

import streamlit as st

from components.state import data, session
from components.state.context import AppContext, flash
from components.widgets import once
from components.widgets.safe import md_escape
from memscope.graph.analysis import Analysis
from memscope.lenses.impact import forget_impact
from memscope.sources import SourceError, actions

PENDING = session.FORGET_PENDING


def request(node_id: str) -> None:
    """Open the dialog for ``node_id`` (a button callback)."""
    once.pend(PENDING, id=node_id)


def _cancel() -> None:
    once.drop(PENDING)


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
    if ctx.source is None:
        return
    try:
        result = actions.restore(ctx.source, ctx.ledger, memory_id, **ctx.acting())
    except SourceError as exc:
        flash(str(exc), "error")
        data.forget_cached(ctx.key)
        return
    flash(result.message, "success" if result.ok else "error")
    data.touch(ctx.key)


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
    return target_id


def _perform(ctx: AppContext, node_id: str, token: str, reason: str) -> None:
    if once.pending(PENDING, token) is None or ctx.source is None:
        return
    once.claim(token)
    analysis = ctx.current or ctx.require()  # act on today's unmasked data
    mem = analysis.dataset.memories.get(node_id)
    snapshot = _describe(analysis, node_id)
    try:
        result = actions.forget(ctx.source, ctx.ledger, node_id,
                                reason=reason.strip() or None,
                                container_tag=mem.container_tag if mem else ctx.conn.space,
                                snapshot=snapshot, **ctx.acting())
    except SourceError as exc:  # a Spomory mismatch arrives here too, loudly
        flash(str(exc), "error")
        data.forget_cached(ctx.key)  # what the service holds now is unknown: read it again
    else:
        flash(result.message, "success" if result.ok else "error")
        if result.report is not None and result.report.note:  # v5's per-id report
            flash(result.report.note, "info")
        data.touch(ctx.key, result.load)  # Spomory re-read the graph: use it
    once.drop(PENDING)


def dialog(ctx: AppContext) -> None:
    """Draw the confirmation dialog when a forget is pending."""
    pending = PENDING.get()
    if not pending or ctx.analysis is None:
        return
    _dialog(ctx, pending["id"], pending["token"])


@st.dialog("Confirm forget", on_dismiss=_cancel)
def _dialog(ctx: AppContext, node_id: str, token: str) -> None:
    analysis = ctx.require()
    st.text(_describe(analysis, node_id))
    impact = forget_impact(analysis, node_id)
    sentences = impact.sentences({m: r.memory for m, r in analysis.dataset.memories.items()})
    if sentences:
        st.warning("This also touches:\n\n" + "\n\n".join(md_escape(s) for s in sentences))
    else:
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
