"""The embedded source over a real SQLite store seeded with the test fixtures."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import FIXTURES
from sandbox_fixture import running_sandbox, supermemory

from memscope.sandbox.data import seed
from memscope.sources import ConfirmationRequired, EmbeddedSource, NotFound
from memscope.store.store import Store


@pytest.fixture
def store(tmp_path):
    s = Store.create(tmp_path / "store.db")
    seed(s, "fixtures", fixtures=FIXTURES)
    return s


def test_load_reads_every_page_spaces_and_profiles(store):
    seen = []
    result = EmbeddedSource(store, page_limit=5).load(progress=seen.append)
    assert [p.pages_done for p in seen] == [1, 2, 3] and seen[-1].documents == 12
    assert len(result.dataset.documents) == 12 and result.complete
    assert {s.container_tag for s in result.dataset.spaces} >= {"sm_project_personal",
                                                                "acme_work"}
    assert result.dataset.profiles["sm_project_personal"].static


def test_embedded_and_supermemory_over_the_same_store_agree(store, tmp_path):
    local = EmbeddedSource(store).load().dataset
    with running_sandbox(tmp_path / "sb", data="fixtures") as sb:
        remote = supermemory(sb, page_limit=5).load().dataset
    assert local.documents == remote.documents
    assert local.memories == remote.memories
    assert local.memory_documents == remote.memory_documents


def test_load_is_cached_per_data_version(store):
    src = EmbeddedSource(store)
    first = src.load()
    assert src.load() is first
    src.forget("mem_trip", reason="done")
    second = src.load()
    assert second is not first and second.dataset.memories["mem_trip"].is_forgotten


def test_forget_and_restore_are_ledgered(store):
    src = EmbeddedSource(store)
    gone = src.forget("mem_trip", reason="trip is over")
    assert gone.ok and gone.message == "Forgot memory mem_trip." and gone.snapshot
    assert src.forget("mem_trip").message == "Memory mem_trip was already forgotten."
    back = src.restore("mem_trip")
    assert back.message == "Restored memory mem_trip." and back.action == "restore"
    actions = [e.action for e in store.ledger()][:3]
    assert actions == ["restore", "forget", "forget"]
    with pytest.raises(NotFound):
        src.forget("mem_nope")


def test_forget_all_preview_then_confirm(store):
    src = EmbeddedSource(store)
    before = store.dump()["memories"]
    preview = src.forget_all_preview("sm_project_personal")
    assert store.dump()["memories"] == before and preview.count > 0
    with pytest.raises(ConfirmationRequired):
        src.forget_all(preview, confirm="nope")
    done = src.forget_all(preview, confirm="sm_project_personal", reason="reset")
    assert done.count == preview.count
    assert all(store.get_memory(i)["isForgotten"] for i in preview.memory_ids)


def test_history_is_the_whole_chain(store):
    chain = EmbeddedSource(store).history("mem_fe_v2")
    assert [m.id for m in chain] == ["mem_fe_v1", "mem_fe_v2", "mem_fe_v3"]
    with pytest.raises(NotFound):
        EmbeddedSource(store).history("mem_nope")


def test_search_and_capabilities(store):
    src = EmbeddedSource(store)
    hits = src.search("typescript").hits
    assert hits and hits[0].id == "mem_fe_v3"
    assert all(src.capabilities.as_dict().values())
    uid, _, counter = (src.data_version() or "").partition(":")
    assert src.cache_key()[0] == "embedded" and len(uid) == 32 and counter.isdigit()


def test_the_data_version_names_this_store_not_only_its_counter(tmp_path):
    """Two stores (or one file recreated) at the same counter are different data: a cache
    keyed on the version must not serve one for the other."""
    one, two = Store.create(tmp_path / "one.db"), Store.create(tmp_path / "two.db")
    assert one.data_version() == two.data_version()
    assert EmbeddedSource(one).data_version() != EmbeddedSource(two).data_version()
    before = EmbeddedSource(one).data_version()
    one.add_document("Maya flies to Lisbon.", "work")
    assert EmbeddedSource(one).data_version() != before
    assert EmbeddedSource(Store(tmp_path / "one.db")).data_version() \
        == EmbeddedSource(one).data_version()  # the same file, opened again


def _forgotten_in(source, tag: str) -> set[str]:
    ds = source.load(refresh=True).dataset
    return {m.id for m in ds.memories.values() if m.container_tag == tag and m.is_forgotten}


def test_forget_all_by_ids_is_a_capability_the_ui_can_trust(store, tmp_path):
    """``forget_all_by_ids``: a narrowed preview forgets only its ids (Supermemory); without
    it the source clears the whole space whatever the preview lists (embedded)."""
    tag = "sm_project_personal"
    with running_sandbox(tmp_path / "sb", data="fixtures") as sb:
        for source in (supermemory(sb), EmbeddedSource(store)):
            before = _forgotten_in(source, tag)
            preview = source.forget_all_preview(tag)
            assert len(preview.memory_ids) > 1
            keep_one = dataclasses.replace(preview, memory_ids=preview.memory_ids[:1],
                                           count=1)
            source.forget_all(keep_one, confirm=tag)
            gone = _forgotten_in(source, tag) - before
            if source.capabilities.forget_all_by_ids:
                assert gone == set(preview.memory_ids[:1])
            else:
                assert gone == set(preview.memory_ids)
        assert supermemory(sb).capabilities.forget_all_by_ids
    assert not EmbeddedSource(store).capabilities.forget_all_by_ids


def test_calls_note_and_identity(store, tmp_path):
    local = EmbeddedSource(store)
    assert local.calls_note() is None  # no service, nothing to count
    assert local.identity() == store.identity == EmbeddedSource(store.path).identity()
    with running_sandbox(tmp_path / "sb", data="fixtures") as sb:
        remote = supermemory(sb)
        remote.load()
        note = remote.calls_note()
        assert note and f" {remote.calls} " in note
        remote.profile("sm_project_personal")
        assert remote.calls_note() != note
        assert sb.supermemory_key not in remote.identity()
        assert remote.identity() == supermemory(sb, page_limit=7).identity()
