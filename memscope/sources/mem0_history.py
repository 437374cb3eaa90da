"""A mem0 ``history.db`` as a read-only file source, and the registry that picks a file
source by what the files hold.

mem0's open-source library keeps the history of every memory in SQLite (``history.db``
under ``~/.mem0/`` or ``$MEM0_DIR``), table ``history(id, memory_id, old_memory,
new_memory, event, created_at, updated_at, is_deleted, actor_id, role)``. Memscope opens it
read-only — a file on disk by a ``file:…?mode=ro`` URI, uploaded bytes as an in-memory
copy — and never writes it; each memory's events become its version chain
(:mod:`memscope.sources.mem0_events`). The file names no user or agent (mem0 keeps those
in its vector store), so there are no spaces.

mem0 2.x also keeps the last turns of each conversation there, table ``messages(id,
session_scope, role, content, name, created_at)``: ``add`` saves the turns it was given
(all with one time) right after the memories it drew from them, and keeps only the 10
newest of a session. No row links a memory to its turns, so :func:`most_likely` matches
them by time (see its rule); the match is kept on the memory's ``ADD`` version
(``mem0Conversation``) for its provenance trail (:mod:`memscope.reports.why`).
"""

from __future__ import annotations

import hashlib
import sqlite3
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord
from memscope.records.text import clip, counted, shorten
from memscope.records.time import format_time, parse_time
from memscope.sources.base import Capabilities, Source
from memscope.sources.errors import FileError, NotFound
from memscope.sources.file_ask import KeptAsk
from memscope.sources.files import FileSource
from memscope.sources.mem0_events import CONVERSATION, NO_DOCUMENTS, chain
from memscope.sources.results import LoadProgress, LoadResult, ProgressCallback, SearchResult

SQLITE_MAGIC = b"SQLite format 3\x00"
COLUMNS = ("id", "memory_id", "old_memory", "new_memory", "event", "created_at",
           "updated_at", "is_deleted", "actor_id", "role")
READ_ONLY = "A mem0 history file is opened read-only; Memscope never changes it."
MESSAGE_COLUMNS = ("session_scope", "role", "content", "name", "created_at")
#: how long after a memory was added the turns it came from may still be saved (mem0
#: embeds and links the memories first), and how far before turns are matched instead
AFTER, BEFORE = timedelta(minutes=10), timedelta(minutes=10)
#: the most turns kept with one memory, and the characters of each
TURNS_MAX, TURN_MAX = 20, 2_000


def is_sqlite(data: bytes) -> bool:
    """True when ``data`` starts like an SQLite database file."""
    return data.startswith(SQLITE_MAGIC)


def _connect_bytes(data: bytes) -> sqlite3.Connection:
    """An in-memory copy of a database file's bytes (a WAL file's header is read as a
    rollback-journal one: the copy has no WAL beside it)."""
    blob = bytearray(data)
    if blob[18:20] == b"\x02\x02":
        blob[18:20] = b"\x01\x01"
    conn = sqlite3.connect(":memory:")
    conn.deserialize(bytes(blob))
    return conn


def _connect_path(path: Path) -> sqlite3.Connection:
    """The file opened read-only: SQLite refuses every write through this connection."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    return sqlite3.connect(uri, uri=True)


def read_rows(conn: sqlite3.Connection, name: str) -> list[dict[str, Any]]:
    """Every row of the ``history`` table, in mem0's order (``created_at``, then
    ``updated_at``, then insertion). Raises :class:`FileError` naming ``name`` when the
    file is not a database or has no such table."""
    try:
        cols = {row[1] for row in conn.execute("PRAGMA table_info(history)")}
        if not {"memory_id", "event", "new_memory"} <= cols:
            raise FileError(f"{name} is an SQLite file without mem0's history table.")
        wanted = ", ".join(c if c in cols else f"NULL AS {c}" for c in COLUMNS)
        order = ", ".join(c for c in ("created_at", "updated_at") if c in cols)
        rows = conn.execute(f"SELECT {wanted} FROM history ORDER BY "
                            f"{order + ', ' if order else ''}rowid").fetchall()
    except sqlite3.DatabaseError as exc:
        raise FileError(f"{name} cannot be read as a mem0 history file ({exc}).") from None
    return [dict(zip(COLUMNS, row, strict=True)) for row in rows]


def read_messages(conn: sqlite3.Connection) -> list[dict[str, Any]]:
    """Every row of the ``messages`` table, oldest first (by ``created_at``, then as
    saved); none when the file has no such table or it cannot be read (an older mem0)."""
    try:
        cols = {row[1] for row in conn.execute("PRAGMA table_info(messages)")}
        if not {"session_scope", "content", "created_at"} <= cols:
            return []
        wanted = ", ".join(c if c in cols else f"NULL AS {c}" for c in MESSAGE_COLUMNS)
        rows = conn.execute(f"SELECT {wanted} FROM messages ORDER BY created_at, rowid"
                            ).fetchall()
    except sqlite3.DatabaseError:
        return []
    return [dict(zip(MESSAGE_COLUMNS, row, strict=True)) for row in rows]


def _text(value: Any) -> Any:
    """SQLite hands back what was stored: bytes become text, times stay text."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


@dataclass(frozen=True, slots=True)
class Batch:
    """The turns one ``add`` saved: one session, one time."""

    session: str
    at: datetime
    turns: tuple[dict[str, str | None], ...]


def session_label(scope: str) -> str:
    """mem0's session scope (``agent_id=…&run_id=…&user_id=…``, escaped) in words.

    >>> session_label("run_id=s%261&user_id=alice")
    'run s&1, user alice'
    """
    parts = []
    for part in scope.split("&"):
        key, _, value = part.partition("=")
        parts.append(f"{key.removesuffix('_id')} {unquote(value)}".strip())
    return clip(", ".join(p for p in parts if p) or "no entity", 120)


def batches(messages: Iterable[dict[str, Any]]) -> list[Batch]:
    """The saved turns grouped by the ``add`` that saved them (session and time), oldest
    first; a turn without text or a readable time is left out."""
    groups: dict[tuple[str, str], list[dict[str, str | None]]] = {}
    for raw in messages:
        row = {k: _text(v) for k, v in raw.items()}
        content, at, scope = row.get("content"), row.get("created_at"), row.get("session_scope")
        if not isinstance(content, str) or not content.strip() or not isinstance(at, str):
            continue
        role, name = row.get("role"), row.get("name")
        groups.setdefault((scope if isinstance(scope, str) else "", at), []).append({
            "role": clip(role, 40) if isinstance(role, str) and role else "unknown",
            "name": clip(name, 80) if isinstance(name, str) and name else None,
            "content": shorten(content, TURN_MAX)})
    out = []
    for (scope, at), turns in groups.items():
        when = parse_time(at)
        if when is not None:
            out.append(Batch(scope, when, tuple(turns[-TURNS_MAX:])))
    out.sort(key=lambda b: (b.at, b.session))
    return out


def _span(delta: timedelta) -> str:
    seconds = round(abs(delta.total_seconds()))
    if seconds < 90:
        return counted(seconds, "second")
    return counted(round(seconds / 60), "minute")


def most_likely(added: datetime, found: Sequence[Batch]) -> tuple[Batch, str] | None:
    """The turns a memory added at ``added`` most likely came from, and how they were
    matched (one sentence), or ``None``; ``found`` is oldest first (:func:`batches`).

    mem0's ``add`` saves the turns it was given right after the memories it drew from them,
    so the nearest turns saved at or after ``added`` (within :data:`AFTER`) win; with
    none, the nearest saved before it (within :data:`BEFORE`). ``history.db`` records no
    session for a memory, so every session counts; other sessions that saved turns as
    near are said.

    >>> from datetime import UTC
    >>> t = datetime(2025, 3, 1, 9, tzinfo=UTC)
    >>> b = [Batch("user_id=alice", t + timedelta(seconds=2), ({"role": "user",
    ...       "name": None, "content": "I moved to Berlin"},))]
    >>> got, how = most_likely(t, b)
    >>> got.session, how.split(":")[0]
    ('user_id=alice', 'Matched by time')
    >>> most_likely(t + timedelta(hours=1), b) is None
    True
    """
    def at(b: Batch) -> datetime:
        return b.at

    here = bisect_left(found, added, key=at)
    after = found[here:bisect_right(found, added + AFTER, key=at)]
    before = found[bisect_left(found, added - BEFORE, key=at):here]
    if after:
        pick = min(after, key=lambda b: b.at)
        said = (f"these turns were saved {_span(pick.at - added)} after the memory was "
                "added, the nearest after it (mem0 saves a conversation's turns once it has "
                "drawn memories from them)")
    elif before:
        pick = max(before, key=lambda b: b.at)
        said = (f"no turns were saved after the memory was added; these were saved "
                f"{_span(added - pick.at)} before it, the nearest before")
    else:
        return None
    others = {b.session for b in (*after, *before) if b.session != pick.session}
    near = (f" {counted(len(others), 'other session')} saved turns within "
            f"{_span(AFTER)} of it too." if others else "")
    return pick, (f"Matched by time: {said}. mem0's history.db does not record which "
                  f"conversation a memory came from, so this is the most likely one, not a "
                  f"record.{near}")


def _conversation(added: datetime | None, found: Sequence[Batch]) -> dict[str, Any] | None:
    match = most_likely(added, found) if added is not None and found else None
    if match is None:
        return None
    pick, how = match
    return {"session": session_label(pick.session), "savedAt": format_time(pick.at),
            "how": how, "turns": [dict(t) for t in pick.turns]}


def dataset_of(rows: Sequence[dict[str, Any]], name: str,
               messages: Sequence[dict[str, Any]] = ()) -> Dataset:
    """The version chains of every memory in ``rows``; each memory's ``ADD`` version
    keeps the conversation it most likely came from (:func:`most_likely`) when
    ``messages`` (the ``messages`` table's rows) hold one."""
    ds = Dataset(keeps_documents=False)
    found = batches(messages)
    by_memory: dict[str, list[dict[str, Any]]] = {}
    for i, raw in enumerate(rows):
        row = {k: _text(v) for k, v in raw.items()}
        mem_id = row.get("memory_id")
        if not isinstance(mem_id, str) or not mem_id:
            ds.report.skip(f"{name} row {i + 1}", "history row names no memory")
            continue
        by_memory.setdefault(mem_id, []).append(row)
    for mem_id, events in by_memory.items():
        for rec in chain(mem_id, events, ds.report):
            said = _conversation(rec.created_at, found) if rec.extra.get(
                "mem0Event") == "ADD" else None
            if said is not None:
                rec.extra[CONVERSATION] = said
            ds.add_memory(rec, None)
    if ds.memories:
        ds.report.note(name, NO_DOCUMENTS)
    return ds


class Mem0HistorySource(Source):
    """One mem0 ``history.db`` (a path or uploaded bytes), read-only."""

    kind = "mem0-history"
    capabilities = Capabilities(
        history=True,
        why_not=(
            ("forget", READ_ONLY), ("forget_all", READ_ONLY), ("restore", READ_ONLY),
            ("add", READ_ONLY),
            ("spaces", "A mem0 history file does not say whose memory (user, agent) each one "
                       "is: mem0 keeps that in its vector store."),
            ("profile", "A mem0 history file holds no profile."),
        ),
        search=True,  # local: words and meaning over the loaded chains (file_ask)
    )

    def __init__(self, path: str | Path | None = None, *, name: str | None = None,
                 data: bytes | None = None) -> None:
        if (path is None) == (data is None):
            raise FileError("Open one mem0 history file (a path or its bytes).")
        self._path = Path(path) if path is not None else None
        self._data = data
        self._name = name or (self._path.name if self._path else "history.db")
        self._last: LoadResult | None = None
        self._ask = KeptAsk()

    @property
    def label(self) -> str:
        return f"mem0 history file {self._name}"

    def _rows(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The ``history`` rows and the ``messages`` rows."""
        try:
            conn = (_connect_path(self._path) if self._path is not None
                    else _connect_bytes(self._data or b""))
        except (sqlite3.Error, OSError) as exc:
            raise FileError(f"Cannot open {self._name} read-only: {exc}.") from None
        with closing(conn):
            return read_rows(conn, self._name), read_messages(conn)

    def cache_key(self) -> tuple[str, ...]:
        """``("mem0-history", content hash)``."""
        data = self._data
        if data is None and self._path is not None:
            try:
                data = self._path.read_bytes()
            except OSError as exc:
                raise FileError(f"Cannot read {self._name}: {exc.strerror or exc}.") from None
        return (self.kind, hashlib.sha256(data or b"").hexdigest()[:16])

    def data_version(self) -> str | None:
        return self.cache_key()[1]

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        """Every memory's chain from the file; raises :class:`FileError` naming it."""
        if self._last is not None and not refresh:
            return self._last
        rows, messages = self._rows()
        ds = dataset_of(rows, self._name, messages)
        result = LoadResult(dataset=ds, source=self.kind, label=self.label)
        self._last = result
        if progress is not None:
            progress(LoadProgress(1, 1, 0, len(ds.memories)))
        return result

    def history(self, memory_id: str, *, container_tag: str | None = None
                ) -> list[MemoryRecord]:
        """The chain holding ``memory_id`` (a version id or a mem0 memory id)."""
        ds = self.load().dataset
        mem = ds.memories.get(memory_id)
        owner = mem.extra.get("mem0MemoryId") if mem is not None else memory_id
        found = [m for m in ds.memories.values() if m.extra.get("mem0MemoryId") == owner]
        if not found:
            raise NotFound(f"{self._name} holds no memory {memory_id}.")
        return sorted(found, key=lambda m: m.version if isinstance(m.version, int) else 0)

    def search(self, query: str, *, container_tag: str | None = None,
               limit: int = 10) -> SearchResult:
        """Ask over every version in the file, ranked on this computer (words and
        meaning; :mod:`memscope.sources.file_ask`), the latest versions first."""
        return self._ask.search(self.load(), query, container_tag=container_tag,
                                limit=limit)

    def close(self) -> None:
        """Drop the kept Ask index."""
        self._ask.close()


def file_source(files: Sequence[tuple[str, bytes]]) -> Source:
    """The file-source registry: one mem0 ``history.db`` (told by its SQLite header)
    opens as :class:`Mem0HistorySource`, JSON snapshots as a
    :class:`~memscope.sources.files.FileSource`; a mix is refused in one sentence."""
    dbs = [(name, data) for name, data in files if is_sqlite(data)]
    if not dbs:
        return FileSource.from_bytes(files)
    if len(files) > 1:
        raise FileError("Open a mem0 history file on its own, not together with other "
                        "files.")
    name, data = dbs[0]
    return Mem0HistorySource(name=name, data=data)


__all__ = ["CONVERSATION", "Batch", "Mem0HistorySource", "batches", "dataset_of", "file_source",
           "is_sqlite", "most_likely", "read_messages", "read_rows", "session_label"]
