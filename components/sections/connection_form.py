"""The Connection page's parts: choose a source, enter a key, pick a space, save/open
snapshot files."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import streamlit as st
from pydantic import SecretStr

from components.state import connection, session
from components.state.context import AppContext, flash
from components.widgets.safe import md_escape
from memscope.records.models import SpaceRecord
from memscope.records.text import clip, counted
from memscope.sources import SourceError, snapshot_bytes


def _connect() -> None:
    """The Connect button's callback: switch the source, then empty the key field so the
    key does not stay in the page as the password field's value."""
    kind = str(session.CONN_KIND.get() or "embedded")
    base_url = str(session.CONN_BASE_URL.get() or "").strip()
    key_text = str(session.CONN_API_KEY.get() or "").strip()
    space = str(session.CONN_SPACE.get() or "").strip() if kind in SPACE_LABELS else ""
    dialect = str(session.CONN_DIALECT.get() or connection.DIALECTS[0])
    if kind != "embedded" and not base_url:
        base_url = connection.DEFAULT_URLS[kind]
    conn = connection.Connection(kind, base_url=base_url if kind != "embedded" else None,
                                 space=space or None, dialect=dialect)
    connection.switch(conn, SecretStr(key_text) if key_text else None)
    session.CONN_API_KEY.set("")
    flash(f"Connected to {conn.label}.", "connected")  # shown only if the load works


#: the Space field's label, in each service's own words (Spomory has no spaces)
SPACE_LABELS = {"embedded": "Space (optional; empty loads every space)",
                "supermemory": "Space (container tag, optional)",
                "mem0": "Entity (optional: user:alice, agent:support-bot, app:… or run:…)"}
SPACE_HELP = {"mem0": "A bare name is a user; no entity loads every entity."}
BASE_URL_LABEL = "Base URL (optional; self-hosted URLs allowed)"


def source_form(ctx: AppContext) -> None:
    """Source kind (outside the form: choosing one redraws the fields for it), then that
    source's fields in its own words; applying reloads the app's data."""
    kinds = list(connection.KINDS[:4])
    current = ctx.conn.kind if ctx.conn.kind in kinds else "embedded"
    if session.CONN_KIND.get() not in kinds:
        session.CONN_KIND.set(current)
    kind = st.radio("Source", kinds, horizontal=True,
                    format_func=lambda k: connection.KIND_LABELS[k],
                    key=session.CONN_KIND.name)
    with st.form("connection_form"):
        if kind == "supermemory":
            dialects = list(connection.DIALECTS)  # a new connection starts on "auto"
            dialect = ctx.conn.dialect if ctx.conn.kind == "supermemory" else dialects[0]
            st.radio("Supermemory API", dialects,
                     index=dialects.index(dialect) if dialect in dialects else 0,
                     format_func=lambda d: connection.DIALECT_CHOICES[d],
                     key=session.CONN_DIALECT.name,
                     help="Automatic asks the current API (v5) first and uses the legacy "
                          "API (v3/v4) only where v5 does not answer. Supermemory shuts the "
                          "legacy API down on 31 December 2026.")
        if kind != "embedded":
            default = connection.DEFAULT_URLS.get(kind, "")
            st.text_input(BASE_URL_LABEL, value=ctx.conn.base_url or "",
                          key=session.CONN_BASE_URL.name,
                          placeholder=default)  # what an empty field connects to
            st.text_input("API key", type="password", key=session.CONN_API_KEY.name,
                          help="Kept in this browser session's memory only; never logged, "
                               "cached under its value or written to disk. Leave empty to "
                               "use .streamlit/secrets.toml or MEMSCOPE_API_KEY.")
        _follow(session.CONN_SPACE, ctx.conn.space or "")
        if kind in SPACE_LABELS:
            st.text_input(SPACE_LABELS[kind], key=session.CONN_SPACE.name,
                          help=SPACE_HELP.get(kind))
        else:
            st.caption("Spomory has no spaces: the key decides whose graph it is.")
        st.form_submit_button("Connect", type="primary", on_click=_connect)


def _follow(widget: session.Slot[Any], value: str) -> None:
    """Make ``widget`` (a widget key) show ``value``, the connection's, when they differ.

    A keyed widget keeps its own last value across runs and ignores its ``value``/``index``
    argument once it has one: the connection is the truth (changed by Connect, the
    picker or a ``?space=`` link), so its widgets are set from it through the session
    state (which the browser adopts) instead of being passed a default."""
    if widget.get() != value:
        widget.set(value)


def _pick_space() -> None:
    """The picker's callback: the person's explicit choice becomes the connection's space
    (and, through :func:`_follow`, the form's Space field's), before the page is drawn."""
    conn = connection.current()
    choice = str(session.SPACE_PICK.get() or "") or None
    if choice != conn.space:
        connection.switch(replace(conn, space=choice))


def spaces_picker(ctx: AppContext) -> None:
    """The spaces the source can list, to narrow the load to one; it shows the
    connection's space (listed or not) and a choice in it replaces that space."""
    if ctx.source is None or ctx.error:  # the page already says why nothing loaded
        return
    reason = ctx.source.capabilities.reason("spaces")
    if reason:
        st.caption(md_escape(reason))
        return
    try:
        spaces = ctx.source.spaces()
    except SourceError as exc:
        st.warning(md_escape(str(exc)))
        return
    tags = [""] + [s.container_tag for s in spaces]
    counts = {s.container_tag: _counts(s) for s in spaces}
    current = ctx.conn.space or ""
    if current not in tags:  # typed on the form, not (yet) listed by the service
        tags.append(current)
    _follow(session.SPACE_PICK, current)
    word = "entity" if ctx.conn.kind == "mem0" else "space"  # in the service's words
    every = "All entities" if word == "entity" else "All spaces"
    st.selectbox(word.capitalize(), tags, help=f"Narrows what {ctx.conn.label} loads.",
                 format_func=lambda t: (clip(t) + counts.get(t, "")) if t else every,
                 key=session.SPACE_PICK.name, on_change=_pick_space)


def _counts(space: SpaceRecord) -> str:
    """`` (24 documents, 68 memories)`` when the service counts them, else empty."""
    parts = []
    if space.document_count is not None:
        parts.append(counted(space.document_count, "document"))
    if space.memory_count is not None:
        parts.append(counted(space.memory_count, "memory"))
    return f" ({', '.join(parts)})" if parts else ""


def files_form() -> None:
    """Open one or more snapshot files (read-only source)."""
    uploads = st.file_uploader("Open snapshot files (Supermemory feed pages or a Spomory "
                               "passport), or a mem0 history.db",
                               type=["json", "db", "sqlite", "sqlite3"],
                               accept_multiple_files=True,
                               key=session.SNAPSHOT_UPLOAD.name)
    if uploads and st.button("Open these files", key="open_files"):
        files = []
        for up in uploads:
            content = up.getvalue()
            digest = hashlib.sha256(content).hexdigest()
            connection.add_file(digest, content)
            files.append((up.name, digest))
        connection.switch(connection.Connection("file", files=tuple(files)))
        flash(f"Opened {counted(len(files), 'file')}.")
        st.rerun()


def save_snapshot(ctx: AppContext) -> None:
    """Download what is loaded as a snapshot file that opens later without credentials."""
    if ctx.load is None:
        return
    if ctx.presenter:  # a snapshot is the real data: never a download in a demo
        st.caption("Presenter mode is on: a snapshot holds the real text, so saving one "
                   "waits until presenter mode is off.")
        return
    name = "memscope-passport.json" if ctx.load.raw_passport is not None else \
        "memscope-snapshot.json"
    st.download_button("Save snapshot", data=snapshot_bytes(ctx.load), file_name=name,
                       mime="application/json", key="save_snapshot",
                       help="The loaded data as a file (no credential inside).")
