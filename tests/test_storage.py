"""The storage of what Memscope owns — ledger and cached layouts — on both backends.

Every test that takes ``url`` runs twice: on a SQLite file (the embedded store's backend)
and on a real PostgreSQL server started for the session (tests/postgres_support.py).
Nothing is mocked: concurrent writers and a crash mid-call are separate OS processes.
"""

from __future__ import annotations

import logging
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from conftest import SM
from postgres_support import Cluster, fresh_database, postgres  # noqa: F401 (fixtures)

from memscope.sources import FileSource, ForgetResult, SourceError, Unsupported, actions
from memscope.sources.embedded import EmbeddedSource
from memscope.storage import (
    LOCAL_ACTOR,
    LedgerEntry,
    Storage,
    StorageConfigError,
    StorageError,
    StorageTooNew,
    describe,
    layout_key,
    open_storage,
)
from memscope.storage.migrations import HEAD, VERSION_TABLE, script_head, upgrade
from memscope.storage.sql import SqlStorage, postgres_engine, sqlite_engine
from memscope.storage.tables import metadata
from memscope.storage.urls import sqlite_url
from memscope.store import schema as sch
from memscope.store.store import Store, StoreError

WRITER = Path(__file__).with_name("storage_writer.py")
ALICE, BOB = "alice@example.org", "bob@example.org"
SCOPE_A = "supermemory|https://api.example|key:aaaa1111"
SCOPE_B = "supermemory|https://api.example|key:bbbb2222"


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each backend, by URL."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path / "memscope.db")
    return request.getfixturevalue("fresh_database")


def _open(url: str) -> SqlStorage:
    return open_storage(url, sqlite_path="never-used.db")


def _engine(url: str) -> sa.Engine:
    if url.startswith("sqlite"):
        return sqlite_engine(Path(sa.make_url(url).database or ""))
    return postgres_engine(url)


def _record(storage: Storage, scope: str, target: str, actor: str = ALICE,
            **kw: Any) -> LedgerEntry:
    fields: dict[str, Any] = {"action": "forget", "source": "supermemory", "outcome": "ok",
                              "message": f"Forgot {target}.", **kw}
    return storage.record_ledger(scope=scope, actor=actor, target_id=target, **fields)


# -- the ledger --------------------------------------------------------------------------

def test_a_row_comes_back_as_written_newest_first(url: str) -> None:
    storage = _open(url)
    first = _record(storage, SCOPE_A, "mem_1", space="sm_a", snapshot="Línea — 東京 ✓",
                    reason="wrong", message="Forgot mem_1.")
    second = _record(storage, SCOPE_A, "mem_2", outcome="error", message="Refused.")
    assert first.id is not None and second.id is not None and second.id > first.id
    again = _open(url)  # another object on the same database: what a replica sees
    assert again.ledger(scope=SCOPE_A) == [second, first]
    assert again.ledger(limit=1, scope=SCOPE_A) == [second]
    got = again.ledger(scope=SCOPE_A)[1]
    assert (got.space, got.snapshot, got.reason, got.status, got.actor) == (
        "sm_a", "Línea — 東京 ✓", "wrong", "completed", ALICE)
    assert got.completed_at == got.time


def test_two_identities_never_see_each_others_rows(url: str) -> None:
    storage = _open(url)
    for i in range(3):
        _record(storage, SCOPE_A, f"a{i}", snapshot=f"alice's secret {i}")
        _record(storage, SCOPE_B, f"b{i}", actor=BOB, snapshot=f"bob's secret {i}")
    seen_a, seen_b = storage.ledger(scope=SCOPE_A), storage.ledger(scope=SCOPE_B)
    assert [r.target_id for r in seen_a] == ["a2", "a1", "a0"]
    assert [r.target_id for r in seen_b] == ["b2", "b1", "b0"]
    assert not any("bob" in (r.snapshot or "") for r in seen_a)
    assert storage.ledger(scope="supermemory|https://api.example|key:cccc3333") == []
    assert len(storage.ledger()) == 6  # unscoped: maintenance only


def test_the_actor_is_recorded_and_all_my_actions_span_sources(url: str) -> None:
    storage = _open(url)
    _record(storage, SCOPE_A, "a1")
    _record(storage, SCOPE_B, "b1", actor=BOB)
    _record(storage, SCOPE_B, "b2")
    _record(storage, SCOPE_A, "l1", actor=LOCAL_ACTOR)
    mine = storage.actions_by(ALICE)
    assert [(r.target_id, r.scope) for r in mine] == [("b2", SCOPE_B), ("a1", SCOPE_A)]
    assert [r.target_id for r in storage.actions_by(ALICE, scope=SCOPE_A)] == ["a1"]
    assert [r.target_id for r in storage.actions_by(BOB)] == ["b1"]
    # "local" is whoever uses an unsigned app: never a list across every source
    with pytest.raises(StorageError, match="sign-in"):
        storage.actions_by(LOCAL_ACTOR)
    assert [r.target_id for r in storage.actions_by(LOCAL_ACTOR, scope=SCOPE_A)] == ["l1"]


def test_an_attempt_is_committed_before_it_is_completed(url: str) -> None:
    storage, replica = _open(url), _open(url)
    entry = storage.begin_ledger(action="forget", source="supermemory", scope=SCOPE_A,
                                 actor=ALICE, target_id="mem_9", snapshot="old text",
                                 reason="typo")
    [seen] = replica.ledger(scope=SCOPE_A)
    assert (seen.id, seen.status, seen.outcome, seen.actor) == (
        entry.id, "attempted", "pending", ALICE)
    assert seen.completed_at is None
    done = storage.complete_ledger(entry, outcome="ok", message="Forgot mem_9.",
                                   space="sm_x")
    assert replica.ledger(scope=SCOPE_A) == [done]
    assert (done.status, done.outcome, done.space, done.snapshot, done.reason) == (
        "completed", "ok", "sm_x", "old text", "typo")
    with pytest.raises(StorageError, match="not an attempted action"):
        storage.complete_ledger(entry, outcome="error", message="twice")
    assert replica.ledger(scope=SCOPE_A) == [done]


def test_a_row_without_scope_is_refused(url: str) -> None:
    storage = _open(url)
    with pytest.raises(StorageError, match="identity"):
        storage.record_ledger(action="forget", source="supermemory", outcome="ok", scope="")
    assert storage.ledger() == []


def _writer(url: str, name: str, n: int, go: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(WRITER), "write", url, name, str(n),
                             str(go)], stderr=subprocess.PIPE)


def test_two_processes_writing_500_rows_each_lose_and_duplicate_nothing(
        url: str, tmp_path: Path) -> None:
    go = tmp_path / "go"
    procs = [_writer(url, name, 500, go) for name in ("w1", "w2")]
    time.sleep(0.5)  # both started: they open (and migrate) the new database together
    go.touch()
    for proc in procs:
        _, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err.decode(errors="replace")[-2000:]
    rows = _open(url).ledger(scope="writer|shared")
    tags = [r.target_id for r in rows]
    assert len(tags) == 1000 and len(set(tags)) == 1000
    assert set(tags) == {f"{w}:{i}" for w in ("w1", "w2") for i in range(500)}
    assert {r.status for r in rows} == {"completed"}
    assert all(r.message == f"done {r.target_id}" and r.actor == r.target_id.split(":")[0]
               for r in rows if r.target_id)
    assert len({r.id for r in rows}) == 1000


# -- actions write through the storage ----------------------------------------------------

class Probe(FileSource):
    """A read-only file source whose forget looks at the ledger from another storage
    object (a second replica) while the call is in progress, then succeeds."""

    def __init__(self, paths: list[Path], watcher: Storage) -> None:
        super().__init__(paths)
        self.watcher = watcher
        self.seen: list[LedgerEntry] = []

    def forget(self, target_id: str, *, reason: str | None = None,
               container_tag: str | None = None) -> ForgetResult:
        self.seen = self.watcher.ledger(scope=self.identity())
        return ForgetResult(target_id, True, f"Forgot {target_id}.", container_tag="sm_p",
                            snapshot="as the service had it")


def test_an_action_is_ledgered_as_attempted_during_the_call(url: str) -> None:
    storage = _open(url)
    probe = Probe([SM / "documents_page1.json"], _open(url))
    actions.forget(probe, storage, "mem_trip", reason="r", container_tag=None,
                   snapshot="what the page showed", actor=ALICE)
    [during] = probe.seen
    assert (during.status, during.outcome, during.actor, during.target_id) == (
        "attempted", "pending", ALICE, "mem_trip")
    [after] = storage.ledger(scope=probe.identity())
    assert after.id == during.id
    assert (after.status, after.outcome, after.space, after.snapshot) == (
        "completed", "ok", "sm_p", "as the service had it")


def test_a_refusal_is_one_completed_row_with_the_actor(url: str) -> None:
    storage = _open(url)
    source = FileSource([SM / "documents_page1.json"])
    with pytest.raises(Unsupported):
        actions.forget(source, storage, "mem_trip", reason=None, container_tag=None,
                       snapshot="text", actor=BOB)
    [row] = storage.ledger(scope=source.identity())
    assert (row.status, row.outcome, row.actor) == ("completed", "error", BOB)
    assert "read-only" in row.message


def test_a_crash_during_the_call_leaves_the_attempted_row(url: str) -> None:
    done = subprocess.run([sys.executable, str(WRITER), "crash", url, ALICE],
                          capture_output=True, timeout=120)
    assert done.returncode == 17, done.stderr.decode(errors="replace")[-2000:]
    rows = [r for r in _open(url).ledger() if r.target_id == "mem_trip"]
    assert [(r.status, r.outcome, r.actor, r.reason) for r in rows] == [
        ("attempted", "pending", ALICE, "crash test")]


def test_the_embedded_store_commits_its_row_with_the_change(tmp_path: Path) -> None:
    store = Store.create(tmp_path / "memscope.db")
    doc = store.add_document("Maya adopted a cat.", "s1")
    mem_id = doc["memoryEntries"][0]["id"]
    source, storage = EmbeddedSource(store), open_storage(None, sqlite_path=store.path)
    actions.forget(source, storage, mem_id, reason="r", container_tag=None, snapshot=None,
                   actor=ALICE)
    rows = storage.ledger(scope=source.identity())
    assert [(r.action, r.actor, r.status) for r in rows] == [
        ("forget", ALICE, "completed"), ("add", LOCAL_ACTOR, "completed")]
    assert store.get_memory(mem_id)["isForgotten"] is True  # type: ignore[index]


def test_the_embedded_store_with_the_ledger_elsewhere_writes_both(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    shared = _open(request.getfixturevalue("fresh_database"))
    store = Store.create(tmp_path / "memscope.db")
    mem_id = store.add_document("Maya adopted a cat.", "s1")["memoryEntries"][0]["id"]
    source = EmbeddedSource(store)
    actions.forget(source, shared, mem_id, reason="r", container_tag=None, snapshot=None,
                   actor=ALICE)
    [row] = shared.ledger(scope=source.identity())
    assert (row.action, row.actor, row.status, row.outcome) == (
        "forget", ALICE, "completed", "ok")
    assert [r.actor for r in store.ledger(scope=source.identity())][:1] == [ALICE]


def test_no_action_is_sent_when_the_ledger_cannot_be_written(tmp_path: Path) -> None:
    storage = open_storage(None, sqlite_path=tmp_path / "memscope.db")
    conn = sqlite3.connect(tmp_path / "memscope.db")
    conn.execute("CREATE TRIGGER no_ledger BEFORE INSERT ON ledger "
                 "BEGIN SELECT RAISE(ABORT, 'disk says no'); END")
    conn.commit()
    conn.close()
    probe = Probe([SM / "documents_page1.json"], storage)
    with pytest.raises(SourceError, match="Nothing was done"):
        actions.forget(probe, storage, "mem_trip", reason=None, container_tag=None,
                       snapshot=None, actor=ALICE)
    assert probe.seen == []  # never called


# -- migrations ---------------------------------------------------------------------------

def _shape(url: str) -> dict[str, Any]:
    engine = _engine(url)
    try:
        insp = sa.inspect(engine)
        return {t: ({c["name"]: bool(c["nullable"]) for c in insp.get_columns(t)},
                    sorted(tuple(i["column_names"]) for i in insp.get_indexes(t)))
                for t in ("ledger", "layouts")}
    finally:
        engine.dispose()


def _revision(url: str) -> str:
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")
                                ).scalar_one()
    finally:
        engine.dispose()


def test_migrations_build_the_tables_from_an_empty_database(url: str) -> None:
    assert script_head() == HEAD
    storage = _open(url)
    assert storage.found_revision is None
    assert _revision(url) == HEAD
    expected = {t.name: ({c.name: bool(c.nullable) for c in t.columns},
                         sorted(tuple(c.name for c in i.columns) for i in t.indexes))
                for t in metadata.sorted_tables}
    assert _shape(url) == expected
    assert _open(url).found_revision == HEAD


OLD_ROWS = [  # as the previous schema (ledger with scope, no actor) held them
    ("2026-01-01T00:00:00Z", "embedded", None, "seed", None, None, None, "ok", "Loaded.",
     "embedded|/somewhere/memscope.db"),
    ("2026-01-02T00:00:00Z", "supermemory", "sm_b", "forget", "mem_9", "their text", "r",
     "ok", "Supermemory forgot memory mem_9.", SCOPE_A),
]
INSERT_OLD = ("INSERT INTO ledger (at, source, space, action, target_id, snapshot, reason, "
              "outcome, message, scope) VALUES ({})")


def _check_old_rows_survive(storage: Storage) -> None:
    rows = storage.ledger()
    assert [(r.time, r.source, r.target_id, r.scope, r.message) for r in rows] == [
        (t, s, target, scope, m) for (t, s, _, _, target, _, _, _, m, scope)
        in reversed(OLD_ROWS)]
    assert {(r.actor, r.status, r.completed_at) for r in rows} == {
        (LOCAL_ACTOR, "completed", None)}
    assert storage.ledger(scope=SCOPE_A)[0].snapshot == "their text"


def test_an_embedded_store_of_the_previous_schema_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / "memscope.db"
    conn = sqlite3.connect(path)  # what schema version 2 wrote, before Alembic
    conn.executescript(sch.SCHEMA + """
        CREATE TABLE ledger (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            at TEXT NOT NULL, source TEXT NOT NULL, space TEXT, action TEXT NOT NULL,
            target_id TEXT, snapshot TEXT, reason TEXT, outcome TEXT NOT NULL,
            message TEXT, scope TEXT);
        CREATE INDEX ledger_scope ON ledger (scope, id);
        INSERT INTO meta VALUES ('schema_version', '2'), ('data_version', '4');""")
    conn.executemany(INSERT_OLD.format(", ".join("?" * 10)), OLD_ROWS)
    conn.commit()
    conn.close()
    store = Store(path)
    assert store.data_version() == 4
    _check_old_rows_survive(store.storage())
    assert _revision(sqlite_url(path)) == HEAD
    assert _shape(sqlite_url(path))["ledger"][0]["actor"] is True
    row = _record(open_storage(None, sqlite_path=path), SCOPE_A, "mem_new")
    assert store.ledger(scope=SCOPE_A)[0] == row


def test_a_postgresql_ledger_of_the_previous_revision_is_migrated(
        request: pytest.FixtureRequest) -> None:
    url = request.getfixturevalue("fresh_database")
    engine = _engine(url)
    with engine.begin() as conn:
        upgrade(conn, where="test", target="0001")
        conn.execute(sa.text(INSERT_OLD.format(", ".join(f":p{i}" for i in range(10)))),
                     [{f"p{i}": v for i, v in enumerate(row)} for row in OLD_ROWS])
    engine.dispose()
    assert _revision(url) == "0001"
    storage = _open(url)
    assert storage.found_revision == "0001"
    _check_old_rows_survive(storage)
    assert _revision(url) == HEAD


def test_a_database_newer_than_this_memscope_is_refused(url: str) -> None:
    _record(_open(url), SCOPE_A, "mem_1")
    engine = _engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(f"UPDATE {VERSION_TABLE} SET version_num = '0099'"))
    engine.dispose()
    with pytest.raises(StorageTooNew) as refused:
        _open(url)
    message = str(refused.value)
    assert "newer version of Memscope" in message and "0099" in message
    assert message.count(".") >= 1 and "\n" not in message
    assert _revision(url) == "0099"  # nothing was touched
    if url.startswith("sqlite"):  # the embedded store refuses the same way
        with pytest.raises(StoreError, match="newer version of Memscope"):
            Store(sa.make_url(url).database or "").init()
    else:
        password = sa.make_url(url).password
        assert password and password not in message


# -- the layout cache ---------------------------------------------------------------------

def test_a_layout_stored_by_one_replica_is_read_by_another(url: str) -> None:
    one, two = _open(url), _open(url)
    nodes = ["doc_1", "mem_a", "mem_b", "ent:東京"]
    key = layout_key("embedded|/data/memscope.db", "content-digest-1", "seed=7")
    assert two.get_layout(key) is None
    positions = {n: (i * 140.5, -i * 0.25) for i, n in enumerate(nodes)}
    one.put_layout(key, positions)
    assert two.get_layout(key) == positions
    assert (two.layout_misses, two.layout_hits, one.layout_writes) == (1, 1, 1)
    one.put_layout(key, {"doc_1": (0.0, 0.0)})  # a recomputation replaces it
    assert _open(url).get_layout(key) == {"doc_1": (0.0, 0.0)}
    other = layout_key("embedded|/other.db", "content-digest-1", "seed=7")
    assert two.get_layout(other) is None


def test_a_layout_key_holds_no_identity_in_clear() -> None:
    identity = "supermemory|https://api.example|key:aaaa1111"
    key = layout_key(identity, "content-digest-1")
    assert len(key) == 64 and "aaaa1111" not in key and "example" not in key
    assert key != layout_key(identity, "content-digest-2")
    assert key != layout_key(identity, "content-digest-1", "seed=8")


# -- configuration and secrecy -------------------------------------------------------------

def test_one_precedence_for_every_setting_the_environment_over_the_secrets() -> None:
    from memscope.app import Settings

    secrets = {"storage": {"url": "postgresql://u:p@secret/db"},
               "memory_api": {"source": "mem0", "space": "home", "dialect": "legacy"},
               "judge": {"model": "small"}}
    env = {"MEMSCOPE_STORAGE_URL": "postgresql+psycopg://u:p@env/db",
           "MEMSCOPE_SPACE": "work", "MEMSCOPE_SUPERMEMORY_DIALECT": "v5",
           "MEMSCOPE_JUDGE_MODEL": "large"}
    both = Settings.read(env, secrets)
    assert both.storage_url() == env["MEMSCOPE_STORAGE_URL"]
    assert (both.get("space"), both.get("dialect"), both.get("model", "judge")) == (
        "work", "v5", "large")
    assert both.get("source") == "mem0"  # named only in the secrets
    only_file = Settings.read({"MEMSCOPE_STORAGE_URL": " "}, secrets)  # blank: not set
    assert only_file.storage_url() == "postgresql://u:p@secret/db"
    assert Settings.read({}, {}).storage_url() is None


def test_a_bad_or_unreachable_url_is_one_sentence_without_the_password(
        tmp_path: Path) -> None:
    with pytest.raises(StorageConfigError) as bad:
        open_storage("mysql://root:hunter2@db/memscope", sqlite_path=tmp_path / "x.db")
    assert "hunter2" not in str(bad.value) and "PostgreSQL" in str(bad.value)
    port = _closed_port()
    with pytest.raises(StorageError) as down:
        open_storage(f"postgresql+psycopg://memscope:hunter2@127.0.0.1:{port}/memscope",
                     sqlite_path=tmp_path / "x.db")
    message = str(down.value)
    assert "hunter2" not in message and "\n" not in message
    assert f"postgresql://127.0.0.1:{port}/memscope" in message
    assert describe("postgresql+psycopg://memscope:hunter2@db:5432/m") == (
        "postgresql://db:5432/m")


def _closed_port() -> int:
    """A local port with nothing listening on it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_opening_and_using_postgresql_logs_no_password(
        request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture) -> None:
    url = request.getfixturevalue("fresh_database")
    password = sa.make_url(url).password
    assert password
    with caplog.at_level(logging.DEBUG):
        logging.getLogger("sqlalchemy.engine").setLevel(logging.INFO)
        try:
            storage = _open(url)
            _record(storage, SCOPE_A, "mem_1")
            storage.put_layout("k" * 64, {"a": (1.0, 2.0)})
            storage.get_layout("k" * 64)
        finally:
            logging.getLogger("sqlalchemy.engine").setLevel(logging.WARNING)
    assert caplog.records  # the engine and the migration did log
    assert password not in caplog.text
    assert "postgresql://127.0.0.1" in caplog.text or "layout cache" in caplog.text
