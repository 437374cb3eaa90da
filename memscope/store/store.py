"""The embedded store: a local SQLite database in the Supermemory data model.

Every operation opens its own short-lived connection (Streamlit calls from several
threads). Every write runs in ONE ``BEGIN IMMEDIATE`` transaction together with its ledger
row and the ``data_version`` bump, so a failure part-way leaves the database exactly as it
was. The ledger table is the one :class:`~memscope.storage.SQLiteStorage` serves from the
same file (its schema is migrated by :mod:`memscope.storage.migrations`). Reads of
several tables run in one read transaction (a consistent WAL snapshot).

>>> store = Store.create("data/memscope.sqlite")        # doctest: +SKIP
>>> store.list_documents(limit=200)["pagination"]        # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import math
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from memscope.records.time import iso_utc, utc_now
from memscope.storage.errors import StorageError
from memscope.storage.ledger import LEDGER_COLUMNS, LOCAL_ACTOR, LedgerEntry
from memscope.storage.sql import SQLiteStorage
from memscope.storage.urls import embedded_identity
from memscope.store import pages as store_pages
from memscope.store import schema as sch
from memscope.store import search as store_search


class SeedData(Protocol):
    """What :meth:`Store.seed` loads (the demo generator's dataset has this shape)."""

    documents: list[dict[str, Any]]
    spaces: list[dict[str, Any]]
    profiles: dict[str, dict[str, list[dict[str, Any]]]]


class StoreError(Exception):
    """The embedded store could not do what was asked; the message is one sentence."""


class StoreNotFound(StoreError):
    """No memory or space with the given id / container tag."""


class ConfirmationMismatch(StoreError):
    """``forget_all`` was called with a confirmation that does not match."""


_SORTS = {"createdAt": "created_at", "updatedAt": "updated_at"}
_ORDERS = {"asc": "ASC", "desc": "DESC"}


def _order(sort: str, order: str, page: int, limit: int) -> tuple[str, str]:
    """The column and direction of a feed order; :class:`StoreError` for bad arguments."""
    if sort not in _SORTS or order not in _ORDERS:
        raise StoreError(f"Cannot sort by {sort!r} {order!r}: use createdAt or updatedAt, "
                         "asc or desc.")
    if page < 1 or limit < 1:
        raise StoreError(f"Page {page} with limit {limit} is not valid: both start at 1.")
    return _SORTS[sort], _ORDERS[order]


class Store:
    """A SQLite-backed memory store speaking the Supermemory shapes.

    ``Store(path)`` does no I/O; the schema is created on first use (or by :meth:`init`).
    ``clock`` returns the current time (tests inject a fixed one).
    """

    def __init__(self, path: str | Path, *, clock: Callable[[], datetime] = utc_now) -> None:
        self.path = Path(path)
        self._clock = clock
        self._ready = False
        self._lock = threading.Lock()
        self._search_backend = store_search.LIKE
        self._storage: SQLiteStorage | None = None

    @property
    def identity(self) -> str:
        """The ledger scope of this store's own actions: ``embedded|<absolute path>``
        (the same string :meth:`EmbeddedSource.identity` returns for it)."""
        return embedded_identity(self.path)

    @classmethod
    def create(cls, path: str | Path, **kwargs: Any) -> Store:
        """Open the store at ``path``, creating the file and schema if missing."""
        store = cls(path, **kwargs)
        store.init()
        return store

    # -- connections -------------------------------------------------------------------

    def init(self) -> None:
        """Create the database file, WAL mode and every table if missing, and migrate the
        ledger (idempotent). A file written by a newer Memscope raises
        :class:`StoreError` with the refusal's sentence."""
        with self._lock:
            if self._ready:
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = self._open()
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript(sch.SCHEMA)
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.execute("INSERT OR IGNORE INTO meta VALUES ('data_version', '0')")
                    conn.execute("INSERT OR IGNORE INTO meta VALUES ('store_uid', ?)",
                                 (uuid.uuid4().hex,))
                    sch.migrate(conn)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                self._search_backend = store_search.install(conn)
            except sqlite3.Error as exc:
                raise StoreError(f"Cannot open the embedded store at {self.path}: {exc}.") \
                    from exc
            finally:
                conn.close()
            try:
                self._storage = SQLiteStorage(self.path, clock=self._clock)
            except StorageError as exc:
                raise StoreError(str(exc)) from None
            self._ready = True

    def storage(self) -> SQLiteStorage:
        """The ledger and layout cache in this store's file (see :mod:`memscope.storage`)."""
        self.init()
        assert self._storage is not None
        return self._storage

    def _open(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=NORMAL")
        return conn

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        self.init()
        conn = self._open()
        try:
            conn.execute("BEGIN")
            yield conn
        except sqlite3.Error as exc:
            raise StoreError(f"The embedded store could not be read: {exc}.") from exc
        finally:
            conn.close()  # a read transaction needs no commit

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One IMMEDIATE transaction that also bumps ``data_version``; rolls back on error."""
        self.init()
        conn = self._open()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 "
                             "WHERE key = 'data_version'")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreError(f"The embedded store did not change anything: {exc}.") from exc
        finally:
            conn.close()

    def _now(self) -> str:
        return iso_utc(self._clock())

    def _entry(self, *, source: str, space: str | None, action: str,
               target_id: str | None, snapshot: str | None, reason: str | None,
               outcome: str, message: str, actor: str | None, now: str | None = None,
               scope: str | None = None) -> LedgerEntry:
        """A completed ledger row; ``scope`` defaults to this store's own identity."""
        now = now or self._now()
        return LedgerEntry(now, source, space, action, target_id, snapshot, reason, outcome,
                           message, scope=scope or self.identity, actor=actor or LOCAL_ACTOR,
                           status="completed", completed_at=now)

    def _ledger(self, conn: sqlite3.Connection, **fields: Any) -> LedgerEntry:
        """Insert one ledger row in ``conn``'s transaction (see :meth:`_entry`)."""
        entry = self._entry(**fields)
        cur = conn.execute(sch.insert_sql("ledger", LEDGER_COLUMNS), entry.row())
        return dataclasses.replace(entry, id=cur.lastrowid)

    # -- loading -----------------------------------------------------------------------

    def seed(self, dataset: SeedData) -> None:
        """Insert a generated demo dataset (documents, spaces, profiles) in one transaction."""
        self.load_records(dataset.documents, dataset.spaces, dataset.profiles, action="seed")

    def load_records(self, documents: Iterable[Mapping[str, Any]],
                     spaces: Iterable[Mapping[str, Any]] = (),
                     profiles: Mapping[str, Mapping[str, Any]] | None = None, *,
                     source: str = "embedded", action: str = "seed",
                     actor: str | None = None) -> None:
        """Insert feed-shape documents with their memory entries, spaces and profiles.

        One transaction with one ledger row. A memory listed under several documents is
        stored once (its first occurrence wins) and linked to each. Spaces seen only in
        the data are created; a memory without ``spaceId`` gets its space's id.
        ``sourceCount`` is derived; keys the schema does not know (``orgId``,
        ``tokenCount`` …) are not kept. Profile lines are strings or ``{"text",
        "memoryIds"}``. An id that already exists raises :class:`StoreError`.
        """
        self._load(documents, spaces, profiles or {},
                   {"source": source, "action": action, "actor": actor})

    def _load(self, documents: Iterable[Mapping[str, Any]],
              spaces: Iterable[Mapping[str, Any]], profiles: Mapping[str, Mapping[str, Any]],
              ledger: dict[str, Any]) -> None:
        doc_rows, mem_rows, links, rels, seen_tags = sch.prepare_records(documents)
        now = self._now()
        space_rows = [(s["id"], s["containerTag"], s.get("name"), s.get("description"),
                       s.get("emoji"), s.get("createdAt") or now, s.get("updatedAt") or now)
                      for s in spaces]
        with self._write() as conn:
            conn.executemany(sch.insert_sql("spaces", sch.SPACE_COLUMNS), space_rows)
            have = {r[0] for r in conn.execute("SELECT container_tag FROM spaces")}
            used = {r[0] for r in conn.execute("SELECT id FROM spaces")}
            for tag, space_id in seen_tags.items():
                if tag not in have:
                    sid = space_id if space_id and space_id not in used else f"ct_{tag}"
                    used.add(sid)
                    conn.execute(sch.insert_sql("spaces", sch.SPACE_COLUMNS),
                                 (sid, tag, tag, None, None, now, now))
            conn.executemany(sch.insert_sql("documents", sch.DOCUMENT_COLUMNS), doc_rows)
            conn.executemany(sch.insert_sql("memories", sch.MEMORY_COLUMNS), mem_rows)
            conn.execute("UPDATE memories SET space_id = (SELECT s.id FROM spaces s WHERE "
                         "s.container_tag = memories.container_tag) WHERE space_id IS NULL")
            conn.executemany("INSERT INTO document_memories VALUES (?, ?, ?)", links)
            conn.executemany("INSERT INTO memory_relations VALUES (?, ?, ?)", rels)
            n_lines = sch.insert_profiles(conn, profiles)
            self._ledger(conn, **{
                "space": None, "target_id": None, "snapshot": None, "reason": None,
                "outcome": "ok", "message": f"Loaded {len(doc_rows)} documents, "
                f"{len(mem_rows)} memories and {n_lines} profile lines.", **ledger})

    def add_document(self, text: str, container_tag: str, *, title: str | None = None,
                     source: str = "embedded", document_id: str | None = None,
                     actor: str | None = None) -> dict[str, Any]:
        """Store one text document with one memory holding the text; returns the document
        in feed shape. Creates the space if missing; ledgered as ``add``. ``document_id``
        chooses the id (an id in use raises :class:`StoreError`)."""
        now, mem_id = self._now(), f"mem_{uuid.uuid4().hex[:16]}"
        doc_id = document_id or f"doc_{uuid.uuid4().hex[:16]}"
        doc = {"id": doc_id, "title": title or text[:60], "summary": text[:200],
               "source": "memscope", "type": "text", "status": "done", "content": text,
               "containerTags": [container_tag], "createdAt": now, "updatedAt": now,
               "memoryEntries": [{"id": mem_id, "memory": text, "createdAt": now,
                                  "updatedAt": now, "spaceContainerTag": container_tag}]}
        self._load([doc], (), {}, {
            "source": source, "action": "add", "space": container_tag, "target_id": doc_id,
            "snapshot": text, "actor": actor,
            "message": f"Added document {doc_id} with memory {mem_id}."})
        return self._documents_by_ids([doc_id])[0]

    # -- reads -------------------------------------------------------------------------

    @property
    def search_backend(self) -> str:
        """``fts5`` when SQLite has FTS5 (BM25 ranking), else ``like``."""
        self.init()
        return self._search_backend

    def search(self, query: str, limit: int = 10,
               container_tag: str | None = None) -> dict[str, Any]:
        """Ranked memories, then documents, matching ``query`` (see
        :mod:`memscope.store.search`): ``{"hits": [{"kind", "id", "text", "title",
        "containerTag", "score"}], "method": "fts5" | "like", "note": plain sentence,
        "detail": the technical sentence (for a help tooltip)}``."""
        backend = self.search_backend
        with self._read() as conn:
            found = store_search.search(conn, query, limit=limit,
                                        container_tag=container_tag, backend=backend)
        note_key = "no_fts5" if backend != store_search.FTS5 else found["method"]
        return {**found, "note": store_search.NOTES[note_key],
                "detail": store_search.DETAILS[note_key]}

    def is_empty(self) -> bool:
        """True when the store holds no document and no memory."""
        with self._read() as conn:
            return conn.execute("SELECT NOT EXISTS (SELECT 1 FROM documents) AND NOT EXISTS "
                                "(SELECT 1 FROM memories)").fetchone()[0] == 1

    def data_version(self) -> int:
        """A counter bumped by every write; cache keys use it to notice changes."""
        with self._read() as conn:
            row = conn.execute("SELECT value FROM meta WHERE key = 'data_version'").fetchone()
            return int(row[0])

    def data_stamp(self) -> str:
        """``<store uid>:<data version>``: names this store's current data uniquely (the
        counter alone repeats in another store, or in this file after it is recreated)."""
        with self._read() as conn:
            rows = dict(conn.execute(
                "SELECT key, value FROM meta WHERE key IN ('store_uid', 'data_version')"
            ).fetchall())
        return f"{rows.get('store_uid', '')}:{rows['data_version']}"

    def list_documents(self, page: int = 1, limit: int = 200,
                       container_tags: Sequence[str] | None = None, sort: str = "createdAt",
                       order: str = "desc") -> dict[str, Any]:
        """One page of the ``POST /v3/documents/documents`` response.

        Ordered by ``sort`` then id (same direction), so paging covers each document once.
        With ``container_tags`` (empty means all): documents tagged with one of them or
        holding a memory in one of them, each listing only the memories of those spaces.
        """
        col, direction = _order(sort, order, page, limit)
        tags = list(dict.fromkeys(container_tags or []))
        where, args = "", []
        if tags:
            where = "WHERE " + sch.DOC_TAG_FILTER.format(ph=sch.placeholders(len(tags)))
            args = tags + tags
        with self._read() as conn:
            total = conn.execute(f"SELECT COUNT(*) FROM documents d {where}", args).fetchone()[0]
            rows = conn.execute(
                f"SELECT d.* FROM documents d {where} ORDER BY d.{col} {direction}, "
                f"d.id {direction} LIMIT ? OFFSET ?", [*args, limit, (page - 1) * limit]
            ).fetchall()
            docs = sch.attach_memories(conn, rows, tags)
        return {"documents": docs,
                "pagination": {"currentPage": page, "limit": limit, "totalItems": total,
                               "totalPages": math.ceil(total / limit)}}

    def document_pages(self, limit: int = 200, container_tags: Sequence[str] | None = None,
                       sort: str = "createdAt", order: str = "desc"
                       ) -> Iterator[dict[str, Any]]:
        """Every page :meth:`list_documents` gives for these arguments, page 1 first (at
        least one, empty when nothing matches), read in ONE read transaction: the pages
        are one snapshot (a write while they are read shows in none of them), the total
        is counted once and each page costs the same however far in it is (see
        :mod:`memscope.store.pages`). What a load reads; bad arguments raise
        :class:`StoreError` here, before the first page."""
        col, direction = _order(sort, order, 1, limit)
        return self._pages(list(dict.fromkeys(container_tags or [])), col, direction, limit)

    def _pages(self, tags: list[str], col: str, direction: str, limit: int
               ) -> Iterator[dict[str, Any]]:
        with self._read() as conn:
            yield from store_pages.feed_pages(conn, tags, col, direction, limit)

    def _documents_by_ids(self, ids: Sequence[str]) -> list[dict[str, Any]]:
        with self._read() as conn:
            rows = conn.execute(f"SELECT * FROM documents WHERE id IN "
                                f"({sch.placeholders(len(ids))})", list(ids)).fetchall()
            return sch.attach_memories(conn, rows, [])

    def list_spaces(self) -> list[dict[str, Any]]:
        """Spaces in the ``GET /v3/container-tags/list`` shape, oldest first.

        ``documentCount`` counts what ``list_documents(container_tags=[tag])`` lists;
        ``memoryCount`` counts every memory of the space, forgotten ones included.
        """
        doc_filter = sch.DOC_TAG_FILTER.replace("IN ({ph})", "= s.container_tag")
        with self._read() as conn:
            rows = conn.execute(
                f"SELECT s.*, (SELECT COUNT(*) FROM documents d WHERE {doc_filter}) AS "
                "document_count, (SELECT COUNT(*) FROM memories m WHERE m.container_tag = "
                "s.container_tag) AS memory_count FROM spaces s ORDER BY s.created_at, s.id"
            ).fetchall()
        return [sch.space_dict(r) for r in rows]

    def get_memory(self, memory_id: str) -> dict[str, Any] | None:
        """One memory entry plus ``documentIds``; ``None`` if unknown."""
        with self._read() as conn:
            row = conn.execute(f"SELECT {sch.MEMORY_SELECT} FROM memories m WHERE m.id = ?",
                               (memory_id,)).fetchone()
            if row is None:
                return None
            entry = sch.entries_for(conn, [row])[0]
            entry["documentIds"] = [r[0] for r in conn.execute(
                "SELECT document_id FROM document_memories WHERE memory_id = ? ORDER BY rowid",
                (memory_id,))]
        return entry

    def history(self, memory_id: str) -> list[dict[str, Any]]:
        """Every memory of the version chain holding ``memory_id`` (all branches), by
        createdAt then id; ``[]`` if unknown. Terminates on parent cycles."""
        with self._read() as conn:
            rows = conn.execute(sch.HISTORY_SQL, (memory_id,)).fetchall()
            return sch.entries_for(conn, rows)

    def profile(self, container_tag: str) -> dict[str, list[dict[str, Any]]]:
        """``{"static": [{"text", "memoryIds"}], "dynamic": [...]}`` for one space."""
        with self._read() as conn:
            return sch.read_profile(conn, container_tag)

    def ledger(self, limit: int | None = None, *, scope: str | None = None
               ) -> list[LedgerEntry]:
        """The ledger rows of one source identity (``scope``, e.g.
        ``source.identity()``), newest first, at most ``limit``.

        A session must always pass its scope: it then sees only its own rows. Without
        ``scope`` every row comes back, unscoped ones included — for tests and
        maintenance only, never for a page.
        """
        try:
            return self.storage().ledger(limit, scope=scope)
        except StorageError as exc:
            raise StoreError(str(exc)) from None

    # -- writes ------------------------------------------------------------------------

    def record_ledger(self, *, action: str, source: str, outcome: str, scope: str,
                      message: str = "", space: str | None = None,
                      target_id: str | None = None, snapshot: str | None = None,
                      reason: str | None = None, actor: str = LOCAL_ACTOR) -> LedgerEntry:
        """Append one ledger row for an action done elsewhere (e.g. a failed HTTP forget)
        under ``scope``, the identity of the source that acted (``source.identity()``:
        kind, location and credential fingerprint — never a credential). Like every
        write of the store, it bumps the data version."""
        if not scope:
            raise StoreError("A ledger row needs the identity of the source that acted.")
        with self._write() as conn:
            return self._ledger(conn, source=source, space=space, action=action,
                                target_id=target_id, snapshot=snapshot, reason=reason,
                                outcome=outcome, message=message, actor=actor, scope=scope)

    def _memory_for_update(self, conn: sqlite3.Connection, memory_id: str) -> sqlite3.Row:
        row = conn.execute("SELECT id, memory, container_tag, is_forgotten FROM memories "
                           "WHERE id = ?", (memory_id,)).fetchone()
        if row is None:
            raise StoreNotFound(f"There is no memory with id {memory_id!r} in the store.")
        return row

    def forget_memory(self, memory_id: str, reason: str | None = None, *,
                      source: str = "embedded", actor: str | None = None) -> dict[str, Any]:
        """Soft-forget one memory (``isForgotten``, ``forgetReason``, time), ledgered in the
        same transaction. Already forgotten: nothing changes, ledgered as ``noop``.
        Unknown id: :class:`StoreNotFound`, nothing written (the caller may ledger it)."""
        with self._write() as conn:
            row = self._memory_for_update(conn, memory_id)
            if row["is_forgotten"]:
                outcome, message = "noop", f"Memory {memory_id} was already forgotten."
            else:
                now = self._now()
                conn.execute("UPDATE memories SET is_forgotten = 1, forget_reason = ?, "
                             "forgotten_at = ?, updated_at = ? WHERE id = ?",
                             (reason, now, now, memory_id))
                outcome, message = "ok", f"Forgot memory {memory_id}."
            self._ledger(conn, source=source, space=row["container_tag"], action="forget",
                         target_id=memory_id, snapshot=row["memory"], reason=reason,
                         outcome=outcome, message=message, actor=actor)
        return {"id": memory_id, "forgotten": True}

    def restore_memory(self, memory_id: str, *, source: str = "embedded",
                       actor: str | None = None) -> dict[str, Any]:
        """Undo a soft forget (clears the flag, reason and time), ledgered as ``restore``;
        ``noop`` if it was not forgotten; :class:`StoreNotFound` if unknown."""
        with self._write() as conn:
            row = self._memory_for_update(conn, memory_id)
            if not row["is_forgotten"]:
                outcome, message = "noop", f"Memory {memory_id} was not forgotten."
            else:
                conn.execute("UPDATE memories SET is_forgotten = 0, forget_reason = NULL, "
                             "forgotten_at = NULL, updated_at = ? WHERE id = ?",
                             (self._now(), memory_id))
                outcome, message = "ok", f"Restored memory {memory_id}."
            self._ledger(conn, source=source, space=row["container_tag"], action="restore",
                         target_id=memory_id, snapshot=row["memory"], reason=None,
                         outcome=outcome, message=message, actor=actor)
        return {"id": memory_id, "forgotten": False}

    def forget_all_preview(self, container_tag: str) -> dict[str, Any]:
        """What :meth:`forget_all` would do, changing nothing: ``memoryCount`` memories
        (``memoryIds``) from ``documentCount`` documents; ``alreadyForgotten`` are skipped."""
        with self._read() as conn:
            plan = sch.space_plan(conn, container_tag)
            if plan is None:
                raise StoreNotFound(f"There is no space {container_tag!r} in the store.")
        plan.pop("_rows")
        return plan

    def forget_all(self, container_tag: str, *, confirm: str, reason: str | None = None,
                   source: str = "embedded", actor: str | None = None) -> dict[str, Any]:
        """Soft-forget every not-yet-forgotten memory of one space, in one transaction.

        ``confirm`` must be the container tag or the number of memories that would be
        forgotten (as :meth:`forget_all_preview` reports it now), else
        :class:`ConfirmationMismatch` and nothing changes. Ledger: one ``forget_all`` row
        per forgotten memory, or a single ``noop`` row when there was nothing to forget.
        Returns ``{"containerTag", "count", "memoryIds"}``.
        """
        with self._write() as conn:
            plan = sch.space_plan(conn, container_tag)
            if plan is None:
                raise StoreNotFound(f"There is no space {container_tag!r} in the store.")
            answer = (confirm or "").strip()
            if answer not in (container_tag, str(plan["memoryCount"])):
                raise ConfirmationMismatch(
                    f"Nothing was forgotten: type the space name {container_tag!r} or the "
                    f"number of memories ({plan['memoryCount']}) to confirm.")
            now = self._now()
            rows = plan["_rows"]
            conn.executemany("UPDATE memories SET is_forgotten = 1, forget_reason = ?, "
                             "forgotten_at = ?, updated_at = ? WHERE id = ?",
                             [(reason, now, now, r["id"]) for r in rows])
            conn.executemany(sch.insert_sql("ledger", LEDGER_COLUMNS), [
                self._entry(source=source, space=container_tag, action="forget_all",
                            target_id=r["id"], snapshot=r["memory"], reason=reason,
                            outcome="ok", message=f"Forgot memory {r['id']} (forget-all of "
                            f"{container_tag}).", actor=actor, now=now).row() for r in rows])
            if not rows:
                self._ledger(conn, source=source, space=container_tag, action="forget_all",
                             target_id=None, snapshot=None, reason=reason, outcome="noop",
                             message=f"Space {container_tag} had no memory left to forget.",
                             actor=actor)
        return {"containerTag": container_tag, "count": len(rows), "memoryIds": plan["memoryIds"]}

    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table (for tests and debugging)."""
        with self._read() as conn:
            return {t: [tuple(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY rowid")]
                    for t in sch.TABLES}
