"""Requests that must reach a service exactly once, whatever Streamlit reruns.

A button only records a *pending* request under a fresh token; the confirming callback
:func:`claim`s the token *before* calling the source, so neither a rerun nor a second
click can send the same request again.
"""

from __future__ import annotations

import uuid
from typing import Any

import streamlit as st

USED = "once_tokens_used"


def pend(slot: str, /, **request: Any) -> None:
    """Record a pending request in ``slot`` with a fresh token (sends nothing)."""
    st.session_state[slot] = {**request, "token": uuid.uuid4().hex}


def pending(slot: str, token: str) -> dict[str, Any] | None:
    """The request pending in ``slot`` if it still carries ``token`` and is unsent."""
    found = st.session_state.get(slot)
    if not found or found.get("token") != token or token in st.session_state.get(USED, ()):
        return None
    return found


def claim(token: str) -> None:
    """Mark ``token`` as sent; call this right before the service call."""
    st.session_state.setdefault(USED, set()).add(token)


def drop(slot: str) -> None:
    """Forget the request pending in ``slot`` (cancel, or done)."""
    st.session_state.pop(slot, None)
