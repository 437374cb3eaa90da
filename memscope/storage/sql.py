"""The two storage backends, on SQLAlchemy Core: the embedded store's SQLite file and
PostgreSQL (through psycopg 3).

Each write is one short transaction; an ``attempted`` ledger row is committed before the
service is called. Opening a storage migrates its database to the newest schema (under a
lock, so replicas starting together migrate once) or refuses a database newer than this
Memscope with :class:`~memscope.storage.errors.StorageTooNew`.

>>> storage = open_storage(None, sqlite_path="data/memscope.db")   # doctest: +SKIP
>>> storage.ledger(scope=source.identity())                       # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from memscope.records.time import iso_utc, utc_now
from memscope.storage.base import Storage
from memscope.storage.errors import StorageConfigError, StorageError
from memscope.storage.layouts import K, Position, decode_positions, encode_positions
from memscope.storage.ledger import LOCAL_ACTOR, LedgerEntry
from memscope.storage.migrations import HEAD, upgrade
from memscope.storage.tables import layouts, ledger
from memscope.storage.urls import describe, embedded_identity, normalise, parse, sqlite_url

log = logging.getLogger("memscope.storage")
#: a fixed key for PostgreSQL's advisory lock around migrations
_MIGRATION_LOCK = 0x6D656D73  # "mems"


def _reason(exc: BaseException) -> str:
    """The driver's first line (never the SQL or its parameters, which hold data)."""
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__).rstrip(".")


class SqlStorage(Storage):
    """The ledger and layout tables in a SQLAlchemy database; subclasses set up the
    engine and the dialect's few differences."""

    def __init__(self, engine: Engine, where: str, *, own_scope: str | None = None,
                 clock: Callable[[], datetime] = utc_now) -> None:
        self._engine = engine
        self._where = where
        self._clock = clock
        self._lock = threading.Lock()
        #: layout cache reads that found / did not find an entry, and writes (this object)
        self.layout_hits = self.layout_misses = self.layout_writes = 0
        self.found_revision = self._migrate(own_scope)

    @property
    def location(self) -> str:
        return self._where

    # -- transactions ------------------------------------------------------------------

    def _migration_lock(self, conn: Connection) -> None:
        """Serialise migrations between processes (inside the migration transaction)."""

    def _migrate(self, own_scope: str | None) -> str | None:
        try:
            with self._engine.begin() as conn:
                self._migration_lock(conn)
                found = upgrade(conn, where=self._where, own_scope=own_scope)
        except SQLAlchemyError as exc:
            raise StorageError(f"The ledger database {self._where} could not be opened: "
                               f"{_reason(exc)}.") from None
        if found != HEAD:
            log.info("storage %s: schema %s -> %s", self._where, found or "(empty)",
                     HEAD)
        return found

    @contextmanager
    def _write(self, what: str) -> Iterator[Connection]:
        try:
            with self._engine.begin() as conn:
                yield conn
        except SQLAlchemyError as exc:
            raise StorageError(f"Nothing was written to the ledger database {self._where} "
                               f"({what}): {_reason(exc)}.") from None

    @contextmanager
    def _read(self, what: str) -> Iterator[Connection]:
        try:
            with self._engine.connect() as conn:
                conn.execution_options(memscope_read=True)
                yield conn
        except SQLAlchemyError as exc:
            raise StorageError(f"The ledger database {self._where} could not be read "
                               f"({what}): {_reason(exc)}.") from None

    def _now(self) -> str:
        return iso_utc(self._clock())

    # -- the ledger --------------------------------------------------------------------

    def _insert(self, entry: LedgerEntry) -> LedgerEntry:
        if not entry.scope:
            raise StorageError("A ledger row needs the identity of the source that acted.")
        with self._write("a ledger row") as conn:
            new_id = conn.execute(ledger.insert().values(**entry.values())
                                  .returning(ledger.c.id)).scalar_one()
        return dataclasses.replace(entry, id=int(new_id))

    def record_ledger(self, *, action: str, source: str, outcome: str, scope: str,
                      actor: str = LOCAL_ACTOR, message: str = "", space: str | None = None,
                      target_id: str | None = None, snapshot: str | None = None,
                      reason: str | None = None) -> LedgerEntry:
        now = self._now()
        return self._insert(LedgerEntry(now, source, space, action, target_id, snapshot,
                                        reason, outcome, message, scope=scope, actor=actor,
                                        status="completed", completed_at=now))

    def begin_ledger(self, *, action: str, source: str, scope: str,
                     actor: str = LOCAL_ACTOR, space: str | None = None,
                     target_id: str | None = None, snapshot: str | None = None,
                     reason: str | None = None) -> LedgerEntry:
        return self._insert(LedgerEntry(
            self._now(), source, space, action, target_id, snapshot, reason, "pending",
            f"Sent {action} to {source}; no answer recorded yet.", scope=scope, actor=actor,
            status="attempted"))

    def complete_ledger(self, entry: LedgerEntry, *, outcome: str, message: str,
                        space: str | None = None, target_id: str | None = None,
                        snapshot: str | None = None) -> LedgerEntry:
        done = dataclasses.replace(
            entry, outcome=outcome, message=message, status="completed",
            completed_at=self._now(), space=space if space is not None else entry.space,
            target_id=target_id if target_id is not None else entry.target_id,
            snapshot=snapshot if snapshot is not None else entry.snapshot)
        changes = {k: v for k, v in done.values().items()
                   if k in ("outcome", "message", "status", "completed_at", "space",
                            "target_id", "snapshot")}
        with self._write("the outcome of an action") as conn:
            updated = conn.execute(ledger.update()
                                   .where(ledger.c.id == entry.id,
                                          ledger.c.status == "attempted")
                                   .values(**changes)).rowcount
        if updated != 1:
            raise StorageError(f"Ledger row {entry.id} is not an attempted action, so its "
                               "outcome was not written.")
        return done

    def _select(self, where: list[Any], limit: int | None, what: str) -> list[LedgerEntry]:
        query = ledger.select().where(*where).order_by(ledger.c.id.desc())
        if limit is not None:
            query = query.limit(max(0, limit))
        with self._read(what) as conn:
            return [LedgerEntry.from_row(r._mapping) for r in conn.execute(query)]

    def ledger(self, limit: int | None = None, *, scope: str | None = None
               ) -> list[LedgerEntry]:
        where = [ledger.c.scope == scope] if scope is not None else []
        return self._select(where, limit, "the ledger")

    def actions_by(self, actor: str, limit: int | None = None, *,
                   scope: str | None = None) -> list[LedgerEntry]:
        if actor == LOCAL_ACTOR and scope is None:
            raise StorageError("Without sign-in every action is the local user's: choose a "
                               "source to see its ledger instead.")
        where = [ledger.c.actor == actor]
        if scope is not None:
            where.append(ledger.c.scope == scope)
        return self._select(where, limit, "your actions")

    # -- the layout cache --------------------------------------------------------------

    def get_layout(self, key: str) -> dict[str, Position] | None:
        with self._read("a cached layout") as conn:
            blob = conn.execute(sa.select(layouts.c.positions)
                                .where(layouts.c.key == key)).scalar_one_or_none()
        with self._lock:
            if blob is None:
                self.layout_misses += 1
            else:
                self.layout_hits += 1
        if blob is None:
            return None
        log.info("layout cache hit %s (%s)", key[:12], self._where)
        return decode_positions(bytes(blob))

    def _upsert(self, values: dict[str, Any]) -> Any:
        raise NotImplementedError

    def put_layout(self, key: str, positions: Mapping[K, Position]) -> None:
        values = {"key": key, "positions": encode_positions(positions),
                  "nodes": len(positions), "created_at": self._now()}
        with self._write("a layout") as conn:
            conn.execute(self._upsert(values))
        with self._lock:
            self.layout_writes += 1
        log.info("layout cache stored %s (%d nodes, %s)", key[:12], len(positions),
                 self._where)

    def close(self) -> None:
        self._engine.dispose()


class SQLiteStorage(SqlStorage):
    """The ledger in the embedded store's SQLite file (WAL; every write transaction
    takes the write lock at once — ``BEGIN IMMEDIATE`` — so writers queue, never
    deadlock). The embedded store's own actions write their row in the same file, in
    the same transaction as the change."""

    backend = "sqlite"

    def __init__(self, path: str | Path, *, clock: Callable[[], datetime] = utc_now) -> None:
        self.path = Path(path).resolve()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        super().__init__(sqlite_engine(self.path), describe(sqlite_url(self.path)),
                         own_scope=embedded_identity(self.path), clock=clock)

    @property
    def sqlite_path(self) -> Path | None:
        return self.path

    def _upsert(self, values: dict[str, Any]) -> Any:
        stmt = sqlite_dialect.insert(layouts).values(**values)
        return stmt.on_conflict_do_update(index_elements=[layouts.c.key], set_={
            "positions": stmt.excluded.positions, "nodes": stmt.excluded.nodes,
            "created_at": stmt.excluded.created_at})


class PostgresStorage(SqlStorage):
    """The ledger and layouts in PostgreSQL, shared by every replica."""

    backend = "postgresql"

    def __init__(self, url: str, *, clock: Callable[[], datetime] = utc_now) -> None:
        super().__init__(postgres_engine(url), describe(url), clock=clock)

    def _migration_lock(self, conn: Connection) -> None:
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATION_LOCK)))

    def _upsert(self, values: dict[str, Any]) -> Any:
        stmt = pg_dialect.insert(layouts).values(**values)
        return stmt.on_conflict_do_update(index_elements=[layouts.c.key], set_={
            "positions": stmt.excluded.positions, "nodes": stmt.excluded.nodes,
            "created_at": stmt.excluded.created_at})


def sqlite_engine(path: Path) -> Engine:
    """An engine on a SQLite file: WAL, a 30 s busy timeout, ``BEGIN IMMEDIATE`` for
    writes and a plain ``BEGIN`` for reads (marked ``memscope_read``); a connection per
    operation, as the embedded store does (nothing stays open between calls)."""
    engine = sa.create_engine(sqlite_url(path), poolclass=NullPool, connect_args={
        "timeout": 30, "check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn: sqlite3.Connection, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # the "begin" hook below starts transactions
        dbapi_conn.execute("PRAGMA journal_mode=WAL")
        dbapi_conn.execute("PRAGMA synchronous=NORMAL")

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        read = conn.get_execution_options().get("memscope_read")
        conn.exec_driver_sql("BEGIN" if read else "BEGIN IMMEDIATE")

    return engine


def postgres_engine(url: str) -> Engine:
    """An engine on PostgreSQL through psycopg 3 (checked connections, 10 s to connect)."""
    return sa.create_engine(normalise(url), pool_pre_ping=True, pool_size=4,
                            max_overflow=4, connect_args={
                                "connect_timeout": 10, "application_name": "memscope"})


def open_storage(url: str | None, *, sqlite_path: str | Path,
                 clock: Callable[[], datetime] = utc_now) -> SqlStorage:
    """The storage a URL names (see :mod:`memscope.storage.urls`): PostgreSQL for
    ``postgresql+psycopg://…``, a SQLite file for ``sqlite:///…``, and the embedded
    store's file ``sqlite_path`` when ``url`` is empty. Migrates the database; raises
    :class:`~memscope.storage.errors.StorageTooNew` on one newer than this Memscope and
    :class:`~memscope.storage.errors.StorageError` when it cannot be reached."""
    if not url:
        return SQLiteStorage(sqlite_path, clock=clock)
    parsed = parse(normalise(url))
    if parsed.get_backend_name() == "sqlite":
        if not parsed.database:
            raise StorageConfigError("A sqlite:/// storage URL needs a file path.")
        return SQLiteStorage(parsed.database, clock=clock)
    return PostgresStorage(url, clock=clock)
