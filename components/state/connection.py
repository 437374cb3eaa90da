"""Which source the app reads, and its credential — per browser session.

Credentials come from the password field (kept in this session only), the
``[memory_api]`` table of ``.streamlit/secrets.toml`` or environment variables. They live
in a ``SecretStr``; only their fingerprint ever reaches a cache key.

Supermemory is spoken in its current API (v5) or its legacy API (v3/v4), which Supermemory
shuts down on 31 December 2026. A connection that names no dialect — the Connection page's
default, or secrets/environment without ``dialect`` — is ``auto``: v5, unless v5's first
route answers 404, then the legacy API (:mod:`memscope.sources.dialects`). An explicit
``dialect = "v5"|"legacy"`` (or ``MEMSCOPE_SUPERMEMORY_DIALECT``) is obeyed; a 404 on its
first route says, in one sentence, what to choose instead.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import streamlit as st
from pydantic import SecretStr, ValidationError

from components.state import session
from memscope.settings import store_path
from memscope.sources import (
    Mem0Config,
    Mem0Source,
    Source,
    SpomoryConfig,
    SpomorySource,
    SupermemoryConfig,
    credential_fingerprint,
    dialects,
    file_source,
    supermemory_source,
)
from memscope.sources.embedded import EmbeddedSource

KINDS = ("embedded", "supermemory", "spomory", "mem0", "file")
KIND_LABELS = {"embedded": "Embedded demo store", "supermemory": "Supermemory API",
               "spomory": "Spomory API", "mem0": "mem0 — platform API",
               "file": "Files (snapshots or a mem0 history.db)"}
DEFAULT_URLS = {"supermemory": "https://api.supermemory.ai", "spomory": "https://api.yliuai.com",
                "mem0": "https://api.mem0.ai"}
#: Supermemory's dialects, the Connection page's first (``auto``) being the default
DIALECTS = dialects.DIALECTS
DIALECT_LABELS = {"auto": "Supermemory API",
                  "v5": "Supermemory — current API (v5)",
                  "legacy": "Supermemory — legacy API (v3/v4)"}
#: the Connection page's choices
DIALECT_CHOICES = {"auto": "Automatic: the current API (v5), or the legacy one where only "
                           "that answers",
                   "v5": "Current API (v5)",
                   "legacy": "Legacy API (v3/v4) — shut down on "
                             f"{dialects.LEGACY_LAST_DAY_TEXT}"}
#: what a connection that names no dialect speaks
CONFIGURED_DIALECT = "auto"
DIALECT_ENV = "MEMSCOPE_SUPERMEMORY_DIALECT"


@dataclass(frozen=True)
class Connection:
    """A source choice, without its credential."""

    kind: str = "embedded"
    base_url: str | None = None
    space: str | None = None
    #: file sources: (name, sha256) pairs; the bytes live in session state
    files: tuple[tuple[str, str], ...] = field(default=())
    #: Supermemory: ``auto``, ``v5`` (current API) or ``legacy`` (v3/v4); other kinds
    #: ignore it
    dialect: str = CONFIGURED_DIALECT

    @property
    def label(self) -> str:
        """Human name of the source kind (and, for Supermemory, of its dialect)."""
        if self.kind == "supermemory":
            return DIALECT_LABELS.get(self.dialect, KIND_LABELS["supermemory"])
        if self.kind == "file":  # snapshots, or a mem0 history.db
            return "Opened file" if len(self.files) <= 1 else f"Opened files ({len(self.files)})"
        return KIND_LABELS.get(self.kind, self.kind)


def _configured() -> dict[str, str]:
    """Settings from secrets.toml's ``[memory_api]`` table, then the environment."""
    out: dict[str, str] = {}
    try:
        table = st.secrets.get("memory_api", {})
        out.update({k: str(v) for k, v in dict(table).items() if v})
    except (FileNotFoundError, KeyError, AttributeError):
        pass
    for key in ("source", "api_key", "base_url", "space"):
        env = os.environ.get(f"MEMSCOPE_{key.upper()}")
        if env and key not in out:
            out[key] = env
    if os.environ.get(DIALECT_ENV) and "dialect" not in out:
        out["dialect"] = os.environ[DIALECT_ENV]
    return out


def configured_dialect(cfg: dict[str, str]) -> str:
    """The Supermemory dialect the settings name (``auto`` when they name none).

    Raises :class:`ConnectionProblem` for a value that is none of them."""
    try:
        return dialects.parse_dialect(cfg.get("dialect"))
    except ValueError as exc:
        raise ConnectionProblem(str(exc)) from None


def configured_connection() -> Connection:
    """The connection named by secrets/environment; the embedded store otherwise."""
    cfg = _configured()
    kind = cfg.get("source", "embedded").lower()
    if kind not in ("supermemory", "spomory", "mem0") or not cfg.get("api_key"):
        return Connection("embedded", space=cfg.get("space"))
    try:
        dialect = configured_dialect(cfg)
    except ConnectionProblem:
        dialect = "unknown"  # _build says why, in one sentence, when the source is made
    return Connection(kind, base_url=cfg.get("base_url") or DEFAULT_URLS[kind],
                      space=cfg.get("space"), dialect=dialect)


def current() -> Connection:
    """This session's connection (first call: the configured one)."""
    if not session.CONNECTION.is_set():
        session.CONNECTION.set(configured_connection())
    return session.CONNECTION.get()


def api_key() -> SecretStr | None:
    """The key typed in this session, else the configured one."""
    typed = session.API_KEY.get()
    if isinstance(typed, SecretStr) and typed.get_secret_value():
        return typed
    raw = _configured().get("api_key")
    return SecretStr(raw) if raw else None


def add_file(digest: str, blob: bytes) -> None:
    """Keep an opened snapshot file's bytes in this session, by SHA-256."""
    session.FILE_BLOBS.setdefault()[digest] = blob


def switch(conn: Connection, key: SecretStr | None = None) -> None:
    """Use ``conn`` from now on (and ``key`` when given); drops the old source object."""
    old = session.SOURCE.get()
    session.SOURCE.clear()
    if old is not None:
        old[1].close()
    if key is not None:
        session.API_KEY.set(key)
    session.CONNECTION.set(conn)
    session.select(None)


class ConnectionProblem(ValueError):
    """The connection cannot be made (missing key, bad URL…); one sentence."""


def _build(conn: Connection) -> Source:
    if conn.kind == "embedded":
        return EmbeddedSource(store_path(),
                              container_tags=(conn.space,) if conn.space else ())
    if conn.kind == "file":
        blobs = session.FILE_BLOBS.get()
        files = [(name, blobs[digest]) for name, digest in conn.files if digest in blobs]
        if not files:
            raise ConnectionProblem("Open a snapshot file on the Connection page first.")
        return file_source(files)  # snapshot files, or a mem0 history.db
    key = api_key()
    if key is None:
        raise ConnectionProblem(f"Enter an API key for {conn.label} on the Connection page.")
    tags = (conn.space,) if conn.space else ()
    try:
        if conn.kind == "supermemory":
            try:
                dialect = dialects.parse_dialect(conn.dialect)
            except ValueError as exc:
                raise ConnectionProblem(str(exc)) from None
            return supermemory_source(SupermemoryConfig(
                api_key=key, base_url=conn.base_url or DEFAULT_URLS["supermemory"],
                container_tags=tags, dialect=dialect))
        if conn.kind == "mem0":  # a space is a mem0 entity: user:alice, agent:bot…
            return Mem0Source(Mem0Config(api_key=key,
                                         base_url=conn.base_url or DEFAULT_URLS["mem0"],
                                         entities=tags))
        return SpomorySource(SpomoryConfig(api_key=key,
                                           base_url=conn.base_url or DEFAULT_URLS["spomory"]))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "setting"
        raise ConnectionProblem(f"The {where} is not valid: {first.get('msg')}.") from None


def spoken(conn: Connection, source: Source | None) -> str:
    """The connection's name with the API it really speaks: an ``auto`` Supermemory
    connection says which one it found."""
    if conn.kind != "supermemory" or source is None:
        return conn.label
    dialect = getattr(source, "dialect", None)
    label = DIALECT_LABELS.get(str(dialect), conn.label)
    return label + (", chosen automatically" if getattr(source, "auto", False) else "")


def source_for(conn: Connection) -> Source:
    """This session's source object for ``conn`` (built once per connection and key)."""
    key = api_key()
    ident = (conn, credential_fingerprint(key) if key else None)
    held = session.SOURCE.get()
    if held is not None and held[0] == ident:
        return held[1]
    if held is not None:
        held[1].close()
    source = _build(conn)
    session.SOURCE.set((ident, source))
    return source
