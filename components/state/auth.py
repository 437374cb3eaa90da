"""Who is using the app: sign-in with Streamlit's own OIDC support, when it is configured.

With an ``[auth]`` table in the secrets every page requires sign-in; the signed-in user's
email is the ledger's actor, and a viewer (listed by email, or carrying a claim, in the
``[memscope.roles]`` table) sees everything but changes nothing. Without ``[auth]`` (one
person on one machine) there is no sign-in and the actor is ``"local"``::

    [memscope.roles]
    viewers = ["auditor@example.com"]       # these emails only view
    viewer_claim = "groups"                 # or: a claim…
    viewer_value = "memscope-viewers"       # …that holds (or lists) this value
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.navigation.page import StreamlitPage

from components.widgets.safe import md_escape

LOCAL = "local"


@dataclass(frozen=True)
class User:
    """The person behind this session."""

    #: their email (the ledger's actor), or ``"local"`` without sign-in
    email: str
    #: a viewer sees the graph but gets no destructive (or adding) action
    viewer: bool = False
    signed_in: bool = False

    @property
    def may_change(self) -> bool:
        """True when this person may forget, restore, add or forget all."""
        return not self.viewer


def _secrets_table(name: str) -> Mapping[str, Any]:
    try:
        found = st.secrets.get(name)
    except (FileNotFoundError, KeyError, AttributeError):
        return {}
    return found if isinstance(found, Mapping) else {}


def configured() -> bool:
    """True when the secrets hold an ``[auth]`` table: sign-in is required."""
    return bool(_secrets_table("auth"))


def is_viewer(email: str, claims: Mapping[str, Any], roles: Mapping[str, Any]) -> bool:
    """The viewer rule: the email is listed, or the configured claim holds the value.

    >>> is_viewer("a@x.org", {}, {"viewers": ["A@x.org"]})
    True
    >>> is_viewer("b@x.org", {"groups": ["staff", "memscope-viewers"]},
    ...           {"viewer_claim": "groups", "viewer_value": "memscope-viewers"})
    True
    >>> is_viewer("c@x.org", {"groups": "staff"}, {"viewer_claim": "groups",
    ...           "viewer_value": "memscope-viewers"})
    False
    """
    listed = {str(v).casefold() for v in roles.get("viewers", []) or []}
    if email.casefold() in listed:
        return True
    claim, value = roles.get("viewer_claim"), roles.get("viewer_value")
    if not claim or value is None:
        return False
    held = claims.get(str(claim))
    return held == value or (isinstance(held, list | tuple) and value in held)


def current() -> User:
    """This session's user (``"local"`` when sign-in is not configured)."""
    if not configured():
        return User(LOCAL)
    if not st.user.is_logged_in:
        return User("", viewer=True)
    claims = {k: st.user.get(k) for k in st.user}
    email = str(claims.get("email") or claims.get("sub") or "")
    roles = _secrets_table("memscope").get("roles", {}) or {}
    return User(email, viewer=is_viewer(email, claims, roles), signed_in=True)


def sign_in_page() -> None:
    """The sign-in page: the one page there is until someone is signed in."""
    st.title("Memscope")
    st.write("Sign in to look inside this memory.")
    st.button("Sign in", type="primary", on_click=st.login, key="sign_in")


def gate(pages: Sequence[StreamlitPage] = ()) -> User:
    """The signed-in user; or, when sign-in is required and nobody is signed in, the
    sign-in page and nothing else, and the run stops.

    The sign-in page comes through ``st.navigation`` (a run without it would let the
    ``pages/`` folder show as the old multipage list), at the app's root and at each url
    path of the router's ``pages``: a link to a sub-page (``/ledger``) then shows the
    sign-in page under its own URL, without Streamlit's "page not found" notice (which
    would cover the page and leave its button inert until closed)."""
    user = current()
    if configured() and not user.signed_in:
        entries = [st.Page(sign_in_page, title="Sign in", default=True)]
        entries += [st.Page(sign_in_page, title="Sign in", url_path=path)
                    for path in dict.fromkeys(p.url_path for p in pages) if path]
        st.navigation(entries, position="hidden").run()
        st.stop()
    return user


def sign_out_button(user: User) -> None:
    """Who is signed in, and a sign-out button (in the sidebar)."""
    if not user.signed_in:
        return
    role = " (viewer)" if user.viewer else ""
    st.caption(f"Signed in as {md_escape(user.email)}{role}")
    st.button("Sign out", on_click=st.logout, key="sign_out")
