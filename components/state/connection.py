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

from dataclasses import asdict, dataclass

from pydantic import SecretStr

from components.state import session
from components.state.app import application, read_settings
from components.state.session import slot
from memscope import app
from memscope.app import DEFAULT_URLS, KIND_LABELS, KINDS, ConnectionProblem
from memscope.sources import Source, credential_fingerprint, dialects

# -- the session slots this module owns (components.state.session collects them) --
CONNECTION = slot("connection", __name__,
                  "The chosen source (kind, URL, space, files), without its credential.")
FILE_BLOBS = slot("file_blobs", __name__,
                  "Bytes of the snapshot files opened in this session, by SHA-256.", dict)
SOURCE = slot("source_object", __name__,
              "(identity, Source) built for the connection; closed when it changes.")
API_KEY = slot("api_key_secret", __name__,
               "The API key typed on the Connection page (a SecretStr; this session only).")

__all__ = ["DEFAULT_URLS", "DIALECTS", "DIALECT_ENV", "KINDS", "KIND_LABELS", "Connection",
           "ConnectionProblem", "add_file", "api_key", "configured_connection",
           "configured_dialect", "current", "source_for", "spoken", "switch"]

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
class Connection(app.Connection):
    """A source choice, without its credential (:class:`memscope.app.Connection`, named
    for the page)."""

    @property
    def label(self) -> str:
        """Human name of the source kind (and, for Supermemory, of its dialect)."""
        if self.kind == "supermemory":
            return DIALECT_LABELS.get(self.dialect, KIND_LABELS["supermemory"])
        if self.kind == "file":  # snapshots, or a mem0 history.db
            return "Opened file" if len(self.files) <= 1 else f"Opened files ({len(self.files)})"
        return KIND_LABELS.get(self.kind, self.kind)


def configured_dialect(cfg: dict[str, str]) -> str:
    """The Supermemory dialect the settings name (``auto`` when they name none).

    Raises :class:`ConnectionProblem` for a value that is none of them."""
    try:
        return dialects.parse_dialect(cfg.get("dialect"))
    except ValueError as exc:
        raise ConnectionProblem(str(exc)) from None


def configured_connection() -> Connection:
    """The connection named by the environment or secrets (the environment wins); the
    embedded store otherwise."""
    return Connection(**asdict(app.configured_connection(read_settings())))


def current() -> Connection:
    """This session's connection (first call: the configured one)."""
    if not CONNECTION.is_set():
        CONNECTION.set(configured_connection())
    return CONNECTION.get()


def api_key() -> SecretStr | None:
    """The key typed in this session, else the configured one."""
    typed = API_KEY.get()
    if isinstance(typed, SecretStr) and typed.get_secret_value():
        return typed
    return read_settings().api_key()


def add_file(digest: str, blob: bytes) -> None:
    """Keep an opened snapshot file's bytes in this session, by SHA-256."""
    FILE_BLOBS.setdefault()[digest] = blob


def switch(conn: Connection, key: SecretStr | None = None) -> None:
    """Use ``conn`` from now on (and ``key`` when given); drops the old source object."""
    old = SOURCE.get()
    SOURCE.clear()
    if old is not None:
        old[1].close()
    if key is not None:
        API_KEY.set(key)
    CONNECTION.set(conn)
    session.select(None)


def _build(conn: Connection) -> Source:
    """The source of ``conn`` (:meth:`memscope.app.Memscope.open`) with this session's key
    and opened files."""
    blobs = FILE_BLOBS.get() if conn.kind == "file" else {}
    files = [(name, blobs[digest]) for name, digest in conn.files if digest in blobs]
    return application().open(conn, api_key(), files=files)


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
    held = SOURCE.get()
    if held is not None and held[0] == ident:
        return held[1]
    if held is not None:
        held[1].close()
    source = _build(conn)
    SOURCE.set((ident, source))
    return source
