"""A mem0 ``history.db`` as a read-only file source: chains, as-of, exports, never written.

The file is written here the way mem0ai 2.2.1's ``SQLiteManager`` writes it (its table
statement and its ``add_history`` rows: an UPDATE keeps the memory's first ``created_at``
and puts the event's time in ``updated_at``; a DELETE has no new text and
``is_deleted = 1``).
"""

from __future__ import annotations

import hashlib
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memscope.export.formats import to_graphml
from memscope.graph.analysis import analyse
from memscope.lenses.asof import as_of
from memscope.sources import FileError, FileSource, Mem0HistorySource, file_source, mem0_history
from memscope.sources.mem0_events import NO_DOCUMENTS

#: mem0/memory/storage.py, SQLiteManager._create_history_table
HISTORY_TABLE = """
CREATE TABLE IF NOT EXISTS history (
    id           TEXT PRIMARY KEY,
    memory_id    TEXT,
    old_memory   TEXT,
    new_memory   TEXT,
    event        TEXT,
    created_at   DATETIME,
    updated_at   DATETIME,
    is_deleted   INTEGER,
    actor_id     TEXT,
    role         TEXT
)"""

ROWS = [  # id, memory_id, old, new, event, created_at, updated_at, is_deleted, actor, role
    ("h1", "m-tea", None, "Likes tea", "ADD", "2025-03-01T09:00:00+00:00",
     "2025-03-01T09:00:00+00:00", 0, None, "user"),
    ("h2", "m-tea", "Likes tea", "Likes green tea", "UPDATE", "2025-03-01T09:00:00+00:00",
     "2025-04-01T09:00:00+00:00", 0, None, "user"),
    ("h3", "m-tea", "Likes green tea", "Likes sencha", "UPDATE", "2025-03-01T09:00:00+00:00",
     "2025-05-01T09:00:00+00:00", 0, "alice", "user"),
    ("h4", "m-city", None, "Lives in Porto", "ADD", "2025-03-02T09:00:00+00:00",
     "2025-03-02T09:00:00+00:00", 0, None, "user"),
    ("h5", "m-city", "Lives in Porto", None, "DELETE", "2025-03-02T09:00:00+00:00",
     "2025-06-01T09:00:00+00:00", 1, None, "user"),
    ("h6", "m-dog", None, "Has a dog <b>Rex</b>", "ADD", "2025-03-03T09:00:00+00:00",
     "2025-03-03T09:00:00+00:00", 0, None, "user"),
]


def write_history(path: Path) -> Path:
    """A history.db as mem0 writes it (also its messages table, which is not read)."""
    with sqlite3.connect(path) as conn:
        conn.execute(HISTORY_TABLE)
        conn.execute("CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, session_scope "
                     "TEXT, role TEXT, content TEXT, name TEXT, created_at DATETIME)")
        conn.executemany("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", ROWS)
    conn.close()
    return path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_every_memory_is_its_chain(tmp_path):
    db = write_history(tmp_path / "history.db")
    ds = Mem0HistorySource(db).load().dataset
    assert {i: m.memory for i, m in ds.memories.items()} == {
        "h1": "Likes tea", "h2": "Likes green tea", "m-tea": "Likes sencha",
        "m-city": "Lives in Porto", "m-dog": "Has a dog <b>Rex</b>"}
    assert [ds.memories[i].parent_id for i in ("h1", "h2", "m-tea")] == [None, "h1", "h2"]
    assert ds.memories["m-tea"].created_at == datetime(2025, 5, 1, 9, tzinfo=UTC)
    assert ds.memories["m-city"].is_forgotten
    assert ds.memories["m-tea"].extra["mem0ActorId"] == "alice"
    assert [i.message for i in ds.report.issues] == [NO_DOCUMENTS] and not ds.report.skipped
    past = as_of(ds, datetime(2025, 4, 15, tzinfo=UTC))
    assert "m-tea" not in past.memories and past.memories["h2"].is_latest
    assert not past.memories["m-city"].is_forgotten  # deleted on June 1
    exported = to_graphml(analyse(ds))
    assert b"Likes sencha" in exported and b"<b>Rex" not in exported


def test_the_file_is_opened_read_only_and_never_written(tmp_path):
    db = write_history(tmp_path / "history.db")
    before, mtime = digest(db), db.stat().st_mtime_ns
    src = Mem0HistorySource(db)
    src.load()
    assert [m.id for m in src.history("h1")] == ["h1", "h2", "m-tea"]
    ro = mem0_history._connect_path(db)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        ro.execute("DELETE FROM history")
    ro.close()
    assert digest(db) == before and db.stat().st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.db"]  # no journal left
    for action in ("forget", "add"):
        assert src.capabilities.reason(action)
    assert src.capabilities.can("search")  # a local Ask (tests/test_file_ask.py)


def test_the_registry_picks_by_content(tmp_path):
    data = write_history(tmp_path / "history.db").read_bytes()
    opened = file_source([("history.db", data)])
    assert isinstance(opened, Mem0HistorySource)
    assert len(opened.load().dataset.memories) == 5
    assert isinstance(file_source([("a.json", b'{"documents": []}')]), FileSource)
    with pytest.raises(FileError, match="on its own"):
        file_source([("history.db", data), ("a.json", b'{"documents": []}')])


def test_an_sqlite_file_that_is_not_mem0s_is_one_sentence(tmp_path):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x)")
    conn.close()
    with pytest.raises(FileError) as raised:
        file_source([("other.db", other.read_bytes())]).load()
    assert str(raised.value) == "other.db is an SQLite file without mem0's history table."
    with pytest.raises(FileError, match=r"history\.db cannot be read"):
        Mem0HistorySource(name="history.db", data=b"SQLite format 3\x00" + b"\x00" * 50).load()


def test_a_history_db_in_wal_mode_opens_from_its_bytes(tmp_path):
    db = tmp_path / "wal.db"
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(HISTORY_TABLE)
        conn.executemany("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", ROWS)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the rows into the file itself
    conn.close()
    data = db.read_bytes()
    assert data[18:20] == b"\x02\x02"  # the header says WAL
    assert len(file_source([("wal.db", data)]).load().dataset.memories) == 5
    assert db.read_bytes() == data
