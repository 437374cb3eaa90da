"""The safe forget: a confirmation dialog with an impact preview, sent exactly once.

The "Forget…" button only records a pending request (with a fresh token) in session
state; the dialog is drawn while that request exists. Confirming marks the token as used
*before* calling the source, so no rerun can send the same request twice.
"""

from __future__ import annotations

import uuid

import streamlit as st

from components import data
from components.bootstrap import AppContext, flash
from components.safe import md_escape
from memscope import actions
from memscope.impact import forget_impact
from memscope.settings import store_path
from memscope.sources import SourceError
from memscope.store import Store

PENDING = "forget_pending"
USED = "forget_tokens_used"


def request(node_id: str) -> None:
    """Open the dialog for ``node_id`` (a button callback)."""
    st.session_state[PENDING] = {"id": node_id, "token": uuid.uuid4().hex}


def _cancel() -> None:
    st.session_state.pop(PENDING, None)


def button(ctx: AppContext, node_id: str) -> None:
    """The "Forget…" button, or the reason it is unavailable."""
    if ctx.source is None:
        return
    reason = ctx.source.capabilities.reason("forget")
    if reason:
        st.caption(f"Forget is unavailable: {md_escape(reason)}")
        return
    st.button("Forget…", key=f"forget-{node_id}", on_click=request, args=(node_id,),
              help="Opens a confirmation that shows what else this touches.")


def _perform(ctx: AppContext, node_id: str, token: str, reason: str) -> None:
    used: set[str] = st.session_state.setdefault(USED, set())
    if token in used:
        return
    used.add(token)  # before the call: a rerun mid-call cannot send it again
    analysis = ctx.current or ctx.require()  # act on today's unmasked data
    mem = analysis.dataset.memories.get(node_id)
    rel = analysis.dataset.relations.get(node_id)
    snapshot = mem.memory if mem else (rel.predicate if rel else None)
    try:
        result = actions.forget(ctx.source, Store(store_path()), node_id,
                                reason=reason.strip() or None,
                                container_tag=mem.container_tag if mem else ctx.conn.space,
                                snapshot=snapshot)
    except SourceError as exc:
        flash(str(exc), "error")
    else:
        flash(result.message, "success" if result.ok else "error")
    data.touch(ctx.key)
    st.session_state.pop(PENDING, None)


def dialog(ctx: AppContext) -> None:
    """Draw the confirmation dialog when a forget is pending."""
    pending = st.session_state.get(PENDING)
    if not pending or ctx.analysis is None:
        return
    _dialog(ctx, pending["id"], pending["token"])


@st.dialog("Confirm forget", on_dismiss=_cancel)
def _dialog(ctx: AppContext, node_id: str, token: str) -> None:
    analysis = ctx.require()
    mem = analysis.dataset.memories.get(node_id)
    st.text(mem.memory if mem else node_id)
    impact = forget_impact(analysis, node_id)
    sentences = impact.sentences()
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
