"""The Connection page's parts: choose a source, enter a key, pick a space, save/open
snapshot files."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from typing import Any

import streamlit as st
from pydantic import SecretStr

from components.state import auth, connection, session
from components.state.context import AppContext, flash
from components.state.session import slot
from components.widgets.safe import md_escape
from memscope.lenses.presenter import extend_pseudonyms
from memscope.records.models import SpaceRecord
from memscope.records.text import clip, counted
from memscope.sources import SourceError, snapshot_bytes

# -- the session slots this module owns (components.state.session collects them) --
CONN_KIND = slot("conn_kind", __name__,
                 "The form's source kind (widget key).")
CONN_BASE_URL = slot("conn_base_url", __name__,
                     "The form's base URL (widget key).")
CONN_API_KEY = slot("conn_api_key", __name__,
                    "The form's password field (widget key); emptied on Connect.")
CONN_SPACE = slot("conn_space", __name__,
                  "The form's space (widget key).")
CONN_DIALECT = slot("conn_dialect", __name__,
                    "The form's Supermemory dialect, v5 or legacy (widget key).")
CONN_BACKEND = slot("conn_backend", __name__,
                    "The form's Graphiti backend: kuzu, neo4j or falkordb (widget key).")
CONN_USER = slot("conn_user", __name__,
                 "The form's Graphiti database user name (widget key).")
SPACE_PICK = slot("space_pick", __name__,
                  "The listed-spaces picker (widget key).")
SNAPSHOT_UPLOAD = slot("snapshot_upload", __name__,
                       "The snapshot files being opened (widget key).")


def _connect() -> None:
    """The Connect button's callback: switch the source, then empty the key field so the
    key does not stay in the page as the password field's value."""
    kind = str(CONN_KIND.get() or "embedded")
    base_url = str(CONN_BASE_URL.get() or "").strip()
    key_text = str(CONN_API_KEY.get() or "").strip()
    space = str(CONN_SPACE.get() or "").strip() if kind in SPACE_LABELS else ""
    dialect = str(CONN_DIALECT.get() or connection.DIALECTS[0])
    backend = str(CONN_BACKEND.get() or GRAPHITI_BACKENDS[0])
    user = str(CONN_USER.get() or "").strip() if kind == "graphiti" else ""
    if kind == "graphiti":
        if backend not in graphiti_backends():
            flash("With sign-in on, a Kuzu file opens only from the settings.", "error")
            return
        base_url = base_url or GRAPHITI_DEFAULTS.get(backend, "")
    elif kind != "embedded" and not base_url:
        base_url = connection.DEFAULT_URLS[kind]
    conn = connection.Connection(kind, base_url=base_url if kind != "embedded" else None,
                                 space=space or None, dialect=dialect,
                                 backend=backend if kind == "graphiti" else "kuzu",
                                 user=user or None)
    connection.switch(conn, SecretStr(key_text) if key_text else None)
    CONN_API_KEY.set("")
    flash(f"Connected to {conn.label}.", "connected")  # shown only if the load works


#: the Space field's label, in each service's own words (Spomory has no spaces)
SPACE_LABELS = {"embedded": "Space (optional; empty loads every space)",
                "supermemory": "Space (container tag, optional)",
                "mem0": "Entity (optional: user:alice, agent:support-bot, app:… or run:…)",
                "graphiti": "Group (optional; empty loads every group)",
                "zep": "Graph (optional: user:alice, graph:products or a uuid)"}
SPACE_HELP = {"mem0": "A bare name is a user; no entity loads every entity.",
              "graphiti": "Graphiti's group_id: one user's or one project's graph.",
              "zep": "A user's graph or a standalone graph; empty loads every graph the "
                     "key sees."}
#: Graphiti's backends, in the form's order, and what each is asked for
GRAPHITI_BACKENDS = ("kuzu", "neo4j", "falkordb")
GRAPHITI_BACKEND_LABELS = {"kuzu": "Kuzu file", "neo4j": "Neo4j", "falkordb": "FalkorDB"}
GRAPHITI_LOCATION = {"kuzu": "Database file (a path on the computer running Memscope)",
                     "neo4j": "URI", "falkordb": "Host and port"}
GRAPHITI_DEFAULTS = {"neo4j": "bolt://localhost:7687", "falkordb": "localhost:6379"}
BASE_URL_LABEL = "Base URL (optional; self-hosted URLs allowed)"


def source_form(ctx: AppContext) -> None:
    """Source kind (outside the form: choosing one redraws the fields for it), then that
    source's fields in its own words; applying reloads the app's data."""
    kinds = [k for k in connection.KINDS if k != "file"]  # files open below the form
    current = ctx.conn.kind if ctx.conn.kind in kinds else "embedded"
    if CONN_KIND.get() not in kinds:
        CONN_KIND.set(current)
    kind = st.radio("Source", kinds, horizontal=True,
                    format_func=lambda k: connection.KIND_LABELS[k],
                    key=CONN_KIND.name)
    if kind == "graphiti":
        _graphiti_form(ctx)
        return
    with st.form("connection_form"):
        if kind == "supermemory":
            dialects = list(connection.DIALECTS)  # a new connection starts on "auto"
            dialect = ctx.conn.dialect if ctx.conn.kind == "supermemory" else dialects[0]
            st.radio("Supermemory API", dialects,
                     index=dialects.index(dialect) if dialect in dialects else 0,
                     format_func=lambda d: connection.DIALECT_CHOICES[d],
                     key=CONN_DIALECT.name,
                     help="Automatic asks the current API (v5) first and uses the legacy "
                          "API (v3/v4) only where v5 does not answer. Supermemory shuts the "
                          "legacy API down on 31 December 2026.")
        if kind != "embedded":
            default = connection.DEFAULT_URLS.get(kind, "")
            st.text_input(BASE_URL_LABEL, value=ctx.conn.base_url or "",
                          key=CONN_BASE_URL.name,
                          placeholder=default)  # what an empty field connects to
            st.text_input("API key", type="password", key=CONN_API_KEY.name,
                          help="Kept in this browser session's memory only; never logged, "
                               "cached under its value or written to disk. Leave empty to "
                               "use .streamlit/secrets.toml or MEMSCOPE_API_KEY.")
        _follow(CONN_SPACE, ctx.conn.space or "")
        if kind in SPACE_LABELS:
            st.text_input(SPACE_LABELS[kind], key=CONN_SPACE.name,
                          help=SPACE_HELP.get(kind))
        else:
            st.caption("Spomory has no spaces: the key decides whose graph it is.")
        st.form_submit_button("Connect", type="primary", on_click=_connect)


def graphiti_backends() -> tuple[str, ...]:
    """The Graphiti backends the form offers: a Kuzu file is a path on the server, so with
    sign-in configured no one types one (another user's file could be named)."""
    return tuple(b for b in GRAPHITI_BACKENDS if b != "kuzu") if auth.configured() \
        else GRAPHITI_BACKENDS


def _graphiti_form(ctx: AppContext) -> None:
    """Graphiti's backend (outside the form: it changes the fields), then what that
    backend needs — a Kuzu file's path; Neo4j's URI, user and password; FalkorDB's host
    and port — and the group."""
    mine = ctx.conn.kind == "graphiti"
    offered = graphiti_backends()
    if CONN_BACKEND.get() not in offered:
        CONN_BACKEND.set(ctx.conn.backend if mine and ctx.conn.backend in offered
                         else offered[0])
    if len(offered) < len(GRAPHITI_BACKENDS):
        st.caption("With sign-in on, a Kuzu file on the server opens only from the "
                   "settings (secrets.toml or MEMSCOPE_BASE_URL), never from a typed path.")
    backend = st.radio("Where the graph lives", offered, horizontal=True,
                       format_func=lambda b: GRAPHITI_BACKEND_LABELS[b],
                       key=CONN_BACKEND.name)
    with st.form("connection_form"):
        st.text_input(GRAPHITI_LOCATION[backend], value=ctx.conn.base_url or "" if mine else "",
                      key=CONN_BASE_URL.name,
                      placeholder=GRAPHITI_DEFAULTS.get(backend, "/path/to/graphiti.kuzu"),
                      help="Read without being changed; only a confirmed Forget deletes a "
                           "fact or an episode from it, opening it for writing for that "
                           "delete alone." if backend == "kuzu" else None)
        if backend != "kuzu":
            _follow(CONN_USER, ctx.conn.user or "" if mine else "")
            st.text_input("User" if backend == "neo4j" else "User (optional)",
                          key=CONN_USER.name)
            st.text_input("Password" if backend == "neo4j" else "Password (optional)",
                          type="password", key=CONN_API_KEY.name,
                          help="Kept in this browser session's memory only; never logged, "
                               "cached under its value or written to disk. Leave empty to "
                               "use .streamlit/secrets.toml or MEMSCOPE_API_KEY.")
        _follow(CONN_SPACE, ctx.conn.space or "")
        st.text_input(SPACE_LABELS["graphiti"], key=CONN_SPACE.name,
                      help=SPACE_HELP["graphiti"])
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
    choice = str(SPACE_PICK.get() or "") or None
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
    # by name and tag ("Acme Work · acme_work"); in presenter mode by pseudonym alone,
    # a space the load does not name too (numbered on)
    named = (extend_pseudonyms(ctx.space_names, tags) if ctx.presenter else
             {s.container_tag: f"{s.title} · {s.container_tag}" for s in spaces
              if s.title != s.container_tag})
    _follow(SPACE_PICK, current)
    word = "entity" if ctx.conn.kind == "mem0" else "space"  # in the service's words
    every = "All entities" if word == "entity" else "All spaces"
    st.selectbox(word.capitalize(), tags, help=f"Narrows what {ctx.conn.label} loads.",
                 format_func=lambda t: (clip(named.get(t, t)) + counts.get(t, "")) if t
                 else every,
                 key=SPACE_PICK.name, on_change=_pick_space)


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
                               key=SNAPSHOT_UPLOAD.name)
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
