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
from memscope.lenses.presenter import mask
from memscope.reports.why import trail
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


#: mem0/memory/storage.py, SQLiteManager._create_messages_table
MESSAGES_TABLE = """
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_scope TEXT,
    role TEXT,
    content TEXT,
    name TEXT,
    created_at DATETIME
)"""

#: as mem0ai 2.2.1's ``Memory.add`` saves them (``save_messages``): the turns of one add at
#: one time, right after the memories drawn from them; id, session_scope, role, content,
#: name, created_at
MESSAGES = [
    ("t1", "user_id=alice", "user", "I drink <b>green</b> tea every morning now.", None,
     "2025-03-01T09:00:02.512000+00:00"),
    ("t2", "user_id=alice", "assistant", "Noted: green tea in the mornings.", None,
     "2025-03-01T09:00:02.512000+00:00"),
    ("t3", "user_id=bob", "user", "Book a table for two.", "Bob",
     "2025-03-01T09:04:00+00:00"),
    ("t4", "run_id=s1&user_id=alice", "user", "I live in Porto.", None,
     "2025-03-02T08:59:00+00:00"),
    ("t5", "user_id=alice", "user", "Rex is three.", None, "2025-03-03T12:00:00+00:00"),
]


def write_history(path: Path, messages: list[tuple] | None = None) -> Path:
    """A history.db as mem0 writes it, its messages table holding ``messages``."""
    with sqlite3.connect(path) as conn:
        conn.execute(HISTORY_TABLE)
        conn.execute(MESSAGES_TABLE)
        conn.executemany("INSERT INTO history VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", ROWS)
        conn.executemany("INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?)", messages or [])
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


def test_the_conversation_a_memory_most_likely_came_from_is_in_its_trail(tmp_path):
    db = write_history(tmp_path / "history.db", MESSAGES)
    ds = Mem0HistorySource(db).load().dataset
    tea = ds.memories["h1"].extra["mem0Conversation"]  # its ADD; the turns 2.5 s later
    assert (tea["session"], tea["savedAt"]) == ("user alice", "2025-03-01T09:00:02.512000Z")
    assert [t["content"] for t in tea["turns"]] == [
        "I drink <b>green</b> tea every morning now.", "Noted: green tea in the mornings."]
    assert tea["how"].startswith("Matched by time: these turns were saved 3 seconds after")
    assert "most likely" in tea["how"]
    assert tea["how"].endswith("1 other session saved turns within 10 minutes of it too.")
    city = ds.memories["m-city"].extra["mem0Conversation"]  # none after: the nearest before
    assert city["session"] == "run s1, user alice"
    assert "60 seconds before it, the nearest before" in city["how"]
    assert "mem0Conversation" not in ds.memories["m-dog"].extra  # turns 3 hours later
    assert not [m for m in ds.memories.values()  # only ADD versions get one
                if m.extra.get("mem0Event") != "ADD" and "mem0Conversation" in m.extra]

    an = analyse(ds)
    found = trail(an, "m-tea")
    (said,) = found.conversations
    assert (said.version_id, said.session, [t.role for t in said.turns]) == (
        "h1", "user alice", ["user", "assistant"])
    text = found.as_text()
    assert "THE CONVERSATION IT MOST LIKELY CAME FROM (v1)" in text
    assert "  user: “I drink <b>green</b> tea every morning now.”" in text
    assert found.as_json()["conversations"][0]["turns"][1]["text"] == (
        "Noted: green tea in the mornings.")
    masked = trail(analyse(mask(ds)), "m-tea", masked=True)
    assert masked.conversations == () and "green" not in masked.as_text()


def test_a_history_db_without_saved_turns_has_no_conversation(tmp_path):
    db = write_history(tmp_path / "history.db")
    ds = Mem0HistorySource(db).load().dataset
    assert not [m for m in ds.memories.values() if "mem0Conversation" in m.extra]
    assert trail(analyse(ds), "m-tea").conversations == ()
