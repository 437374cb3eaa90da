"""The application object: one framework-free :class:`Memscope` under both front ends.

It owns what the app, the command line, the server's warm-up and the benches used to
build each by hand: the **settings** (one precedence, :class:`Settings`), the map from a
connection kind to its source class and default URL (:func:`open_source`), the data
folder, the **ledger and layout storage** (:meth:`Memscope.storage`) and the view
**pipeline** (:meth:`Memscope.pipeline`). The Streamlit side holds one per process in a
cached resource (``components/state/app.py``) and adapts it to a session.

**Settings precedence, the same everywhere:** an environment variable wins over
``.streamlit/secrets.toml``; a setting named in neither is unset. The variables are
``MEMSCOPE_<NAME>`` for the ``[memory_api]`` table (``MEMSCOPE_SUPERMEMORY_DIALECT`` for
its ``dialect``), ``MEMSCOPE_JUDGE_<NAME>`` for ``[judge]`` and ``MEMSCOPE_STORAGE_URL``
for ``[storage] url``.

>>> s = Settings.read(environ={"MEMSCOPE_SPACE": "work"},
...                   secrets={"memory_api": {"space": "home", "source": "mem0"}})
>>> s.get("space"), s.get("source"), s.get("url", table="judge")
('work', 'mem0', None)
"""

from __future__ import annotations

import os
import threading
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr, ValidationError

from memscope.settings import data_dir as _data_dir
from memscope.settings import store_path as _store_path

if TYPE_CHECKING:
    from memscope.pipeline.core import Pipeline
    from memscope.pipeline.keeping import Layouts
    from memscope.sources import Source
    from memscope.storage import Storage

#: the kinds of connection, in the Connection page's order
KINDS = ("embedded", "supermemory", "spomory", "mem0", "graphiti", "zep", "file")
KIND_LABELS = {"embedded": "Embedded demo store", "supermemory": "Supermemory API",
               "spomory": "Spomory API", "mem0": "mem0 — platform API",
               "graphiti": "Graphiti graph", "zep": "Zep Cloud — graph API",
               "file": "Files (snapshots or a mem0 history.db)"}
#: the services' own addresses, when a connection names none
DEFAULT_URLS = {"supermemory": "https://api.supermemory.ai",
                "spomory": "https://api.yliuai.com", "mem0": "https://api.mem0.ai",
                "zep": "https://api.getzep.com/api/v4"}
#: the environment variable of each ``(table, name)`` that is not ``MEMSCOPE_<NAME>``
_ENV_NAMES = {("memory_api", "dialect"): "MEMSCOPE_SUPERMEMORY_DIALECT",
              ("storage", "url"): "MEMSCOPE_STORAGE_URL"}


class ConnectionProblem(ValueError):
    """The connection cannot be made (missing key, bad URL…); one sentence."""


def env_name(name: str, table: str = "memory_api") -> str:
    """The environment variable of a setting.

    >>> env_name("api_key"), env_name("key", "judge"), env_name("url", "storage")
    ('MEMSCOPE_API_KEY', 'MEMSCOPE_JUDGE_KEY', 'MEMSCOPE_STORAGE_URL')
    """
    special = _ENV_NAMES.get((table, name))
    if special:
        return special
    prefix = "" if table == "memory_api" else f"{table.upper()}_"
    return f"MEMSCOPE_{prefix}{name.upper()}"


def secrets_file(folders: Sequence[Path] | None = None) -> dict[str, Any]:
    """The tables of ``.streamlit/secrets.toml`` as Streamlit reads them outside the app:
    the home folder's, then this folder's on top (a table of the project's wins). A file
    that cannot be read counts as absent."""
    merged: dict[str, Any] = {}
    for folder in folders if folders is not None else (Path.home(), Path.cwd()):
        try:
            found = tomllib.loads((folder / ".streamlit" / "secrets.toml")
                                  .read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        for key, value in found.items():
            if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
                merged[key] = {**merged[key], **value}
            else:
                merged[key] = value
    return merged


@dataclass(frozen=True)
class Settings:
    """Memscope's settings, read once with one precedence (environment over secrets)."""

    environ: Mapping[str, str] = field(default_factory=dict, repr=False)
    secrets: Mapping[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def read(cls, environ: Mapping[str, str] | None = None,
             secrets: Mapping[str, Any] | None = None) -> Settings:
        """Settings from ``environ`` (default: the process's) and ``secrets`` (default:
        the secrets file, :func:`secrets_file`)."""
        env = dict(os.environ if environ is None else environ)
        tables = secrets_file() if secrets is None else secrets
        return cls({k: v for k, v in env.items() if k.startswith("MEMSCOPE_")},
                   {k: dict(v) for k, v in tables.items() if isinstance(v, Mapping)})

    def get(self, name: str, table: str = "memory_api") -> str | None:
        """A setting: its environment variable when set (not blank), else the secrets'
        ``[table] name``, else ``None``; surrounding spaces dropped."""
        value: Any = self.environ.get(env_name(name, table))
        if not (isinstance(value, str) and value.strip()):
            found = self.secrets.get(table)
            value = found.get(name) if isinstance(found, Mapping) else None
        if isinstance(value, bool) or value is None:
            return None
        text = str(value).strip()
        return text or None

    def table(self, table: str, names: Sequence[str]) -> dict[str, str]:
        """The ``names`` of ``table`` that are set, by :meth:`get`."""
        return {n: v for n in names if (v := self.get(n, table)) is not None}

    def api_key(self) -> SecretStr | None:
        """The configured source key (never logged: a ``SecretStr``)."""
        raw = self.get("api_key")
        return SecretStr(raw) if raw else None

    def storage_url(self) -> str | None:
        """The ledger's database URL (``[storage] url``), ``None`` for the embedded file."""
        return self.get("url", "storage")


@dataclass(frozen=True)
class Connection:
    """A source choice, without its credential (the app keeps one per session)."""

    kind: str = "embedded"
    base_url: str | None = None
    space: str | None = None
    #: file sources: (name, sha256) pairs; the bytes live with the caller
    files: tuple[tuple[str, str], ...] = ()
    #: Supermemory: ``auto``, ``v5`` (current API) or ``legacy`` (v3/v4); others ignore it
    dialect: str = "auto"
    #: Graphiti: where its graph lives (``kuzu``, ``neo4j``, ``falkordb``; ``base_url``
    #: holds the Kuzu file's path, Neo4j's URI or FalkorDB's host:port) and the user name
    backend: str = "kuzu"
    user: str | None = None


def configured_connection(settings: Settings) -> Connection:
    """The connection the settings name; the embedded store when they name no service
    with a key. A dialect that is none of Supermemory's is kept as ``unknown``: opening
    it says why, in one sentence."""
    from memscope.sources.dialects import parse_dialect

    kind = (settings.get("source") or "embedded").lower()
    if kind == "graphiti" and settings.get("base_url"):  # a Kuzu file needs no key
        return Connection("graphiti", base_url=settings.get("base_url"),
                          space=settings.get("space"),
                          backend=(settings.get("graphiti_backend") or "kuzu").lower(),
                          user=settings.get("graphiti_user"))
    if kind not in ("supermemory", "spomory", "mem0", "zep") or settings.api_key() is None:
        return Connection("embedded", space=settings.get("space"))
    try:
        dialect: str = parse_dialect(settings.get("dialect"))
    except ValueError:
        dialect = "unknown"
    return Connection(kind, base_url=settings.get("base_url") or DEFAULT_URLS[kind],
                      space=settings.get("space"), dialect=dialect)


def open_source(conn: Connection, key: SecretStr | None, *,
                files: Sequence[tuple[str, bytes]] = (),
                store: Path | None = None) -> Source:
    """The source object of ``conn``: the embedded store at ``store``, the snapshot
    ``files`` (name, bytes), or a service with ``key``. Raises
    :class:`ConnectionProblem` (one sentence) when it cannot be made; a Supermemory
    ``auto`` connection asks the service once (:mod:`memscope.sources.dialects`) and
    may raise its :class:`~memscope.sources.SourceError`."""
    from memscope.sources import (
        Mem0Config,
        Mem0Source,
        SpomoryConfig,
        SpomorySource,
        SupermemoryConfig,
        file_source,
        supermemory_source,
    )
    from memscope.sources.dialects import parse_dialect
    from memscope.sources.embedded import EmbeddedSource

    tags = (conn.space,) if conn.space else ()
    if conn.kind == "embedded":
        return EmbeddedSource(store or _store_path(), container_tags=tags)
    if conn.kind == "file":
        if not files:
            raise ConnectionProblem("Open a snapshot file on the Connection page first.")
        return file_source(list(files))  # snapshot files, or a mem0 history.db
    if conn.kind == "graphiti":
        return _graphiti_source(conn, key)
    if conn.kind not in DEFAULT_URLS:
        raise ConnectionProblem(f"Memscope does not know the source {conn.kind!r}.")
    if key is None:
        label = KIND_LABELS.get(conn.kind, conn.kind)
        raise ConnectionProblem(f"Enter an API key for {label} on the Connection page.")
    url = conn.base_url or DEFAULT_URLS[conn.kind]
    try:
        if conn.kind == "supermemory":
            try:
                dialect = parse_dialect(conn.dialect)
            except ValueError as exc:
                raise ConnectionProblem(str(exc)) from None
            return supermemory_source(SupermemoryConfig(
                api_key=key, base_url=url, container_tags=tags, dialect=dialect))
        if conn.kind == "mem0":  # a space is a mem0 entity: user:alice, agent:bot…
            return Mem0Source(Mem0Config(api_key=key, base_url=url, entities=tags))
        if conn.kind == "zep":  # a space is a graph: user:alice, graph:products, a uuid
            from memscope.sources.zep import ZepConfig, ZepSource

            return ZepSource(ZepConfig(api_key=key, base_url=url, graphs=tags))
        return SpomorySource(SpomoryConfig(api_key=key, base_url=url))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "setting"
        raise ConnectionProblem(f"The {where} is not valid: {first.get('msg')}.") from None


def _graphiti_source(conn: Connection, key: SecretStr | None) -> Source:
    """A Graphiti graph's source: a Kuzu file's path (no key), or a Neo4j / FalkorDB
    server with ``key`` as its password."""
    from memscope.sources.graphiti import BACKENDS, GraphitiConfig, GraphitiSource

    if conn.backend not in BACKENDS:
        raise ConnectionProblem(f"Memscope does not know the Graphiti backend "
                                f"{conn.backend!r}.")
    where = (conn.base_url or "").strip()
    if not where:
        what = {"kuzu": "the path of its Kuzu database file", "neo4j": "its Neo4j URI",
                "falkordb": "its FalkorDB host and port"}[conn.backend]
        raise ConnectionProblem(f"Enter {what} on the Connection page.")
    return GraphitiSource(GraphitiConfig(conn.backend, where, conn.user,
                                         key if conn.backend != "kuzu" else None, conn.space))


class Memscope:
    """One Memscope: its settings, data folder, storage and view pipeline.

    ``settings`` is a :class:`Settings`, or a function that reads them when asked (the
    app reads Streamlit's secrets on every run); ``data_dir`` ``None`` follows
    ``$MEMSCOPE_DATA_DIR`` (else ``./data``) at each use. ``storage()`` is opened once per
    store file and ``pipeline()`` made once (thread-safe); the pipeline's shared layouts
    live in the storage."""

    def __init__(self, settings: Settings | Callable[[], Settings] | None = None, *,
                 data_dir: str | Path | None = None) -> None:
        self._settings = settings
        self._data_dir = data_dir
        self._lock = threading.Lock()
        self._storages: dict[tuple[str, str | None], Storage] = {}
        self._pipeline: Pipeline | None = None

    @property
    def settings(self) -> Settings:
        """The settings now (read afresh when given as a function, or not given)."""
        if isinstance(self._settings, Settings):
            return self._settings
        return self._settings() if self._settings is not None else Settings.read()

    @property
    def data_dir(self) -> Path:
        """The data folder."""
        return _data_dir(self._data_dir)

    @property
    def store_path(self) -> Path:
        """The embedded store's SQLite file in the data folder."""
        return _store_path(self._data_dir)

    def configured(self) -> Connection:
        """The connection the settings name (:func:`configured_connection`)."""
        return configured_connection(self.settings)

    def open(self, conn: Connection, key: SecretStr | None = None, *,
             files: Sequence[tuple[str, bytes]] = ()) -> Source:
        """The source of ``conn`` (the configured key when none is given)."""
        return open_source(conn, key if key is not None else self.settings.api_key(),
                           files=files, store=self.store_path)

    def storage(self) -> Storage:
        """The ledger and layout cache: the configured database, else the embedded
        store's file; opened and migrated once per store file and URL (raises
        :class:`~memscope.storage.StorageTooNew` or :class:`~memscope.storage.StorageError`,
        one sentence without the URL's password). The URL is never a key by itself: it is
        held only in this process's memory."""
        from memscope.storage import open_storage

        url = self.settings.storage_url()
        where = (str(self.store_path), url)
        with self._lock:
            held = self._storages.get(where)
            if held is None:
                held = self._storages[where] = open_storage(url, sqlite_path=self.store_path)
            return held

    def pipeline(self, *, background: bool = True, shared_layouts: bool = True
                 ) -> Pipeline:
        """The process's view pipeline (made on first call; later calls return it): shared
        loads, kept files in the data folder and (``shared_layouts``) the layouts in
        :meth:`storage`. ``background=False`` (the ``warm`` command) keeps files before
        returning and never settles the heap."""
        from memscope.pipeline.core import Pipeline
        from memscope.pipeline.keeping import Keeper
        from memscope.pipeline.loads import LOAD_TTL_S, Loads

        with self._lock:
            if self._pipeline is None:
                layouts: Layouts | None = _StorageLayouts(self) if shared_layouts else None
                keeper = Keeper(self._data_dir, layouts=layouts, background=background)
                if background:
                    loads = Loads(ttl_s=LOAD_TTL_S, read=keeper.read_load,
                                  keep=keeper.keep_load)
                else:
                    loads = Loads(read=keeper.read_load, keep=keeper.keep_load, settle=None)
                self._pipeline = Pipeline(loads, keeper)
            return self._pipeline


class _StorageLayouts:
    """The storage's layout cache, looked up on every use."""

    def __init__(self, app: Memscope) -> None:
        self.app = app

    def get_layout(self, key: str) -> dict[str, tuple[float, float]] | None:
        return self.app.storage().get_layout(key)

    def put_layout(self, key: str, positions: Mapping[str, tuple[float, float]]) -> None:
        self.app.storage().put_layout(key, positions)


__all__ = ["DEFAULT_URLS", "KINDS", "KIND_LABELS", "Connection", "ConnectionProblem",
           "Memscope", "Settings", "configured_connection", "env_name", "open_source",
           "secrets_file"]
