"""Destructive actions land in the ledger exactly once, whatever the outcome."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conftest import SM

from memscope.demo.seeding import seed_store
from memscope.sources import FileSource, NotFound, Unsupported, actions
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "s.db")
    s.init()
    seed_store(s, seed=3, now=NOW)
    return s


def test_embedded_forget_is_ledgered_once_by_the_store(store):
    source = EmbeddedSource(store)
    mem = next(m for m in source.load().dataset.memories.values() if not m.is_forgotten)
    before = len(store.ledger())
    result = actions.forget(source, store, mem.id, reason="wrong", container_tag=None,
                            snapshot=mem.memory)
    assert result.ok
    rows = store.ledger()
    assert len(rows) == before + 1
    assert (rows[0].action, rows[0].target_id, rows[0].reason, rows[0].outcome) == (
        "forget", mem.id, "wrong", "ok")
    assert rows[0].snapshot == mem.memory
    assert store.get_memory(mem.id)["isForgotten"] is True


def test_a_failed_forget_is_ledgered_as_an_error(store):
    source = EmbeddedSource(store)
    with pytest.raises(NotFound):
        actions.forget(source, store, "no_such_memory", reason=None, container_tag=None,
                       snapshot=None)
    row = store.ledger()[0]
    assert (row.action, row.target_id, row.outcome) == ("forget", "no_such_memory", "error")
    assert "no_such_memory" in row.message


def test_a_read_only_source_refuses_and_the_refusal_is_ledgered(store):
    source = FileSource([SM / "documents_page1.json"])
    with pytest.raises(Unsupported):
        actions.forget(source, store, "mem_trip", reason=None, container_tag=None,
                       snapshot="Plans a trip to Lisbon in March 2027.")
    row = store.ledger()[0]
    assert (row.source, row.target_id, row.outcome) == ("file", "mem_trip", "error")
    assert "read-only" in row.message


def test_every_row_is_scoped_to_the_acting_source(store):
    embedded = EmbeddedSource(store)
    mem = next(m for m in embedded.load().dataset.memories.values() if not m.is_forgotten)
    actions.forget(embedded, store, mem.id, reason=None, container_tag=None,
                   snapshot=mem.memory)
    with pytest.raises(NotFound):
        actions.restore(embedded, store, "no_such_memory")
    file_source = FileSource([SM / "documents_page1.json"])
    with pytest.raises(Unsupported):
        actions.forget(file_source, store, "mem_trip", reason=None, container_tag=None,
                       snapshot="Plans a trip to Lisbon in March 2027.")
    # the store's own row and the failure ledgered by actions share the embedded identity
    mine = store.ledger(scope=embedded.identity())
    assert [(r.action, r.target_id) for r in mine[:2]] == [
        ("restore", "no_such_memory"), ("forget", mem.id)]
    theirs = store.ledger(scope=file_source.identity())
    assert [(r.source, r.target_id) for r in theirs] == [("file", "mem_trip")]
    assert "mem_trip" not in {r.target_id for r in mine}
