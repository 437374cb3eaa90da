"""Requests that must reach a service exactly once, whatever Streamlit reruns.

A button only records a *pending* request under a fresh token; the confirming callback
:func:`claim`s the token *before* calling the source, so neither a rerun nor a second
click can send the same request again.
"""

from __future__ import annotations

import uuid
from typing import Any

from components.state.session import Slot, slot

# -- the session slots this module owns (components.state.session collects them) --
ONCE_USED = slot("once_tokens_used", __name__,
                 "Tokens of requests already sent (never send twice).", set)


def pend(slot: Slot[Any], /, **request: Any) -> None:
    """Record a pending request in ``slot`` with a fresh token (sends nothing)."""
    slot.set({**request, "token": uuid.uuid4().hex})


def pending(slot: Slot[Any], token: str) -> dict[str, Any] | None:
    """The request pending in ``slot`` if it still carries ``token`` and is unsent."""
    found = slot.get()
    if not found or found.get("token") != token or token in ONCE_USED.get():
        return None
    return found


def claim(token: str) -> None:
    """Mark ``token`` as sent; call this right before the service call."""
    ONCE_USED.setdefault().add(token)


def drop(slot: Slot[Any]) -> None:
    """Forget the request pending in ``slot`` (cancel, or done)."""
    slot.clear()
