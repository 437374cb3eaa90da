"""The ledger is scoped per source identity: a session reads only the rows of its own
source (kind + base URL + credential fingerprint; for the embedded store, that store).

Two Supermemory sessions with different keys on one real sandbox server write into one
ledger file; each reads back only its own rows, memory text included, and a third
identity reads nothing. An old (version 1) ledger file is migrated without leaking.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from pydantic import SecretStr
from sandbox_fixture import FAST, running_sandbox

from memscope.sandbox import Sandbox
from memscope.sources import (
    EmbeddedSource,
    NotFound,
    SpomoryConfig,
    SpomorySource,
    SupermemoryConfig,
    SupermemorySource,
    actions,
)
from memscope.store import schema as sch
from memscope.store.ledger import LedgerEntry
from memscope.store.store import Store

ALICE, BOB, CAROL = "sm_key_alice_0001", "sm_key_bob_0002", "sm_key_carol_0003"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("scoped")
    with running_sandbox(folder, supermemory_keys=(ALICE, BOB, CAROL),
                         spomory_keys=("sp_key_alice",)) as sb:
        yield sb


def _client(sandbox: Sandbox, key: str) -> SupermemorySource:
    return SupermemorySource(SupermemoryConfig(api_key=SecretStr(key), base_url=sandbox.url,
                                               **FAST))


def _text(entries: list[LedgerEntry]) -> str:
    """Every field of every row, as one string (to look for leaked text)."""
    return "\n".join(str(v) for e in entries for v in e.to_dict().values())


def test_two_keys_on_one_server_see_only_their_own_rows(sandbox: Sandbox,
                                                         tmp_path: Path) -> None:
    ledger_file = tmp_path / "ledger.sqlite"
    alice, bob, carol = (_client(sandbox, k) for k in (ALICE, BOB, CAROL))
    ids = {s.identity() for s in (alice, bob, carol)}
    assert len(ids) == 3
    for key, src in ((ALICE, alice), (BOB, bob), (CAROL, carol)):
        assert key not in src.identity() and sandbox.url in src.identity()

    live = [m for m in alice.load().dataset.memories.values()
            if not m.is_forgotten and m.container_tag and m.memory]
    mem_a, mem_b = live[0], live[1]
    assert mem_a.memory != mem_b.memory
    bob.load()

    # two sessions, two Store objects, one file
    with_alice, with_bob = Store(ledger_file), Store(ledger_file)
    actions.forget(alice, with_alice, mem_a.id, reason="alice's reason",
                   container_tag=None, snapshot=mem_a.memory)
    actions.add(alice, with_alice, "Alice adds a private note about Lisbon.",
                container_tag=mem_a.container_tag)
    actions.forget(bob, with_bob, mem_b.id, reason="bob's reason", container_tag=None,
                   snapshot=mem_b.memory)
    with pytest.raises(NotFound):
        actions.forget(bob, with_bob, "mem_bob_never_had", reason=None,
                       container_tag=mem_b.container_tag, snapshot="bob's failed text")

    seen_by_alice = Store(ledger_file).ledger(scope=alice.identity())
    seen_by_bob = Store(ledger_file).ledger(scope=bob.identity())
    assert [(r.action, r.target_id, r.outcome) for r in reversed(seen_by_alice)][:1] == [
        ("forget", mem_a.id, "ok")]
    assert [r.action for r in seen_by_alice] == ["add", "forget"]
    assert [(r.target_id, r.outcome) for r in reversed(seen_by_bob)] == [
        (mem_b.id, "ok"), ("mem_bob_never_had", "error")]

    alice_text, bob_text = _text(seen_by_alice), _text(seen_by_bob)
    assert mem_a.memory in alice_text and "Lisbon" in alice_text
    assert mem_b.memory in bob_text and "bob's failed text" in bob_text
    for leaked in (mem_b.memory, "bob's reason", "bob's failed text", "mem_bob_never_had"):
        assert leaked not in alice_text
    for leaked in (mem_a.memory, "alice's reason", "Lisbon"):
        assert leaked not in bob_text

    # a third key on the same server, the embedded store and a Spomory session: nothing
    assert Store(ledger_file).ledger(scope=carol.identity()) == []
    assert Store(ledger_file).ledger(scope=Store(ledger_file).identity) == []
    spomory = SpomorySource(SpomoryConfig(api_key=SecretStr("sp_key_alice"), base_url=sandbox.url))
    assert Store(ledger_file).ledger(scope=spomory.identity()) == []
    # nothing was lost: the unscoped (maintenance) read holds every row
    assert len(Store(ledger_file).ledger()) == len(seen_by_alice) + len(seen_by_bob)


def test_the_same_key_is_the_same_identity_whatever_the_space_filter(sandbox: Sandbox
                                                                     ) -> None:
    plain = _client(sandbox, ALICE)
    scoped = SupermemorySource(SupermemoryConfig(
        api_key=SecretStr(ALICE), base_url=sandbox.url + "/", container_tags=("sm_project_work",)))
    assert plain.identity() == scoped.identity()
    assert plain.cache_key() != scoped.cache_key()
    other_server = SupermemorySource(SupermemoryConfig(api_key=SecretStr(ALICE),
                                                       base_url="http://127.0.0.2:9"))
    assert other_server.identity() != plain.identity()


def test_the_embedded_store_sees_its_own_rows_only(tmp_path: Path, sandbox: Sandbox
                                                   ) -> None:
    store = Store.create(tmp_path / "memscope.sqlite")
    store.load_records([{"id": "doc_1", "createdAt": "2026-01-01T00:00:00Z",
                         "containerTags": ["sm_project_default"],
                         "memoryEntries": [{"id": "mem_1", "memory": "Own fact.",
                                            "createdAt": "2026-01-01T00:00:00Z"}]}])
    embedded, remote = EmbeddedSource(store), _client(sandbox, CAROL)
    actions.forget(embedded, store, "mem_1", reason="mine", container_tag=None,
                   snapshot=None)
    with pytest.raises(NotFound):
        actions.forget(remote, store, "mem_nowhere", reason=None,
                       container_tag="sm_project_default", snapshot="remote text")
    own = store.ledger(scope=embedded.identity())
    assert [(r.action, r.target_id) for r in own] == [("forget", "mem_1"), ("seed", None)]
    assert "remote text" not in _text(own)
    assert [r.target_id for r in store.ledger(scope=remote.identity())] == ["mem_nowhere"]


# -- the migration of a version-1 file ---------------------------------------------------

V1_LEDGER = """CREATE TABLE ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL, source TEXT NOT NULL, space TEXT, action TEXT NOT NULL,
    target_id TEXT, snapshot TEXT, reason TEXT, outcome TEXT NOT NULL, message TEXT
);"""
V1_ROWS = [
    ("2026-01-01T00:00:00Z", "embedded", None, "seed", None, None, None, "ok", "Loaded."),
    ("2026-01-02T00:00:00Z", "embedded", "sm_a", "forget", "mem_1", "own text", "r", "ok",
     "Forgot memory mem_1."),
    ("2026-01-03T00:00:00Z", "supermemory", "sm_b", "forget", "mem_9",
     "someone else's memory text", None, "ok", "Supermemory forgot memory mem_9."),
    ("2026-01-04T00:00:00Z", "spomory", None, "forget", "r7", "a fact of another user",
     None, "mismatch", "Spomory forgot something else."),
    ("2026-01-05T00:00:00Z", "sandbox", "sm_a", "add", "doc_2", "sandbox text", None, "ok",
     "Added."),
]


def _v1_file(path: Path) -> None:
    """A database as version 1 of the schema wrote it: a ledger without ``scope``."""
    # the memory tables are unchanged since version 1; the ledger (now migrated by
    # memscope.storage) had no ``scope`` column
    assert "ledger" not in sch.SCHEMA
    conn = sqlite3.connect(path)
    conn.executescript(sch.SCHEMA + V1_LEDGER)
    conn.execute("INSERT INTO meta VALUES ('data_version', '5')")
    conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    conn.executemany("INSERT INTO ledger (at, source, space, action, target_id, snapshot, "
                     "reason, outcome, message) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", V1_ROWS)
    conn.commit()
    conn.close()


def test_an_old_ledger_is_migrated_without_leaking(tmp_path: Path, sandbox: Sandbox
                                                   ) -> None:
    path = tmp_path / "old.sqlite"
    _v1_file(path)
    store = Store(path)
    # the store's own old rows (seed, its forget, the sandbox's add) become its identity
    own = store.ledger(scope=store.identity)
    assert [r.target_id for r in own] == ["doc_2", "mem_1", None]
    # the remote rows of an unknown key are shown to no session …
    for key in (ALICE, BOB):
        assert store.ledger(scope=_client(sandbox, key).identity()) == []
    spomory = SpomorySource(SpomoryConfig(api_key=SecretStr("sp_key_alice"), base_url=sandbox.url))
    assert store.ledger(scope=spomory.identity()) == []
    assert "someone else's memory text" not in _text(own)
    # … but nothing was lost
    every = store.ledger()
    assert len(every) == len(V1_ROWS)
    assert {r.target_id: r.scope for r in every}["mem_9"] is None
    assert store.data_version() == 5
    with sqlite3.connect(path) as conn:
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'"
                               ).fetchone()[0]
    assert int(version) == sch.SCHEMA_VERSION

    # reopening is a no-op, and new rows are scoped
    again = Store(path)
    assert again.ledger() == every
    row = again.record_ledger(action="forget", source="supermemory", outcome="ok",
                              scope=_client(sandbox, ALICE).identity(), target_id="mem_new")
    assert again.ledger(scope=_client(sandbox, ALICE).identity()) == [row]
    assert again.ledger(scope=again.identity) == own
