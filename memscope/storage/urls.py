"""Which database holds the ledger and the layout cache, named by a URL.

``$MEMSCOPE_STORAGE_URL``, else ``[storage] url`` in the secrets (read by the
application object, :meth:`memscope.app.Settings.storage_url`), else nothing:
the embedded SQLite store's file. A URL may hold a password: it is never logged, shown
or used as a cache key — messages name the database by :func:`describe`.

>>> describe("postgresql+psycopg://memscope:s3cret@db:5432/memscope")
'postgresql://db:5432/memscope'
>>> normalise("postgres://u:p@db/m")
'postgresql+psycopg://u:p@db/m'
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from memscope.storage.errors import StorageConfigError

URL_ENV = "MEMSCOPE_STORAGE_URL"
_POSTGRES = ("postgresql", "postgres")


def parse(url: str) -> URL:
    """The URL parsed; :class:`StorageConfigError` (without the URL) when it is not one."""
    try:
        return make_url(url)
    except (ArgumentError, ValueError):
        raise StorageConfigError(
            f"The storage URL in [storage] url or {URL_ENV} is not a database URL: use "
            "postgresql+psycopg://user:password@host:5432/database.") from None


def normalise(url: str) -> str:
    """PostgreSQL URLs through psycopg 3 (``postgres://`` and ``postgresql://`` included);
    :class:`StorageConfigError` for a database Memscope cannot use."""
    parsed = parse(url)
    backend = parsed.get_backend_name()
    if backend in _POSTGRES:
        return parsed.set(drivername="postgresql+psycopg").render_as_string(
            hide_password=False)
    if backend == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return parsed.render_as_string(hide_password=False)
    raise StorageConfigError(
        f"Memscope keeps its ledger in PostgreSQL or in a SQLite file, not in "
        f"{describe(url)}: use postgresql+psycopg://user:password@host:5432/database.")


def describe(url: str) -> str:
    """The database a URL names, for messages: backend, host, port and database — never
    the user or the password."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return "(an unreadable URL)"
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return f"sqlite file {parsed.database}"
    if backend == "postgres":
        backend = "postgresql"
    port = f":{parsed.port}" if parsed.port else ""
    return f"{backend}://{parsed.host or 'localhost'}{port}/{parsed.database or ''}"


def sqlite_url(path: str | Path) -> str:
    """The SQLAlchemy URL of a SQLite file."""
    return f"sqlite:///{Path(path).resolve()}"


def embedded_identity(path: str | Path) -> str:
    """The ledger scope of the embedded store at ``path``: ``embedded|<absolute path>``."""
    return f"embedded|{Path(path).resolve()}"
