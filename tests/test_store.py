"""The embedded SQLite store: shapes, paging, filters, forget/restore/forget-all, ledger,
history, profiles and atomicity. Real SQLite files in ``tmp_path``; nothing is mocked."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memscope.demo.generator import DemoDataset, generate
from memscope.store.ledger import LedgerEntry
from memscope.store.store import ConfirmationMismatch, Store, StoreError, StoreNotFound

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
LATER = NOW + timedelta(hours=2)
LATER_ISO = "2026-11-30T14:00:00Z"


@pytest.fixture(scope="module")
def data() -> DemoDataset:
    return generate(7, now=NOW)


@pytest.fixture
def store(tmp_path: Path, data: DemoDataset) -> Store:
    st = Store.create(tmp_path / "store.sqlite", clock=lambda: LATER)
    st.seed(data)
    return st


def memories(data: DemoDataset) -> dict[str, dict[str, Any]]:
    return {m["id"]: m for m in data.memories()}


def all_pages(store: Store, limit: int, **kw: Any) -> list[dict[str, Any]]:
    pages, page = [], 1
    while True:
        res = store.list_documents(page=page, limit=limit, **kw)
        pages.append(res)
        if page >= res["pagination"]["totalPages"]:
            return pages
        page += 1


def add_trigger(store: Store, table: str = "ledger") -> None:
    conn = sqlite3.connect(store.path)
    conn.execute(f"CREATE TRIGGER fail_{table} BEFORE INSERT ON {table} "
                 "BEGIN SELECT RAISE(ABORT, 'injected failure'); END")
    conn.commit()
    conn.close()


def space_of(data: DemoDataset, tag: str) -> list[dict[str, Any]]:
    return [m for m in memories(data).values() if m["spaceContainerTag"] == tag]


# -- shapes and paging ---------------------------------------------------------------

@pytest.mark.parametrize("limit", [200, 7])
def test_round_trip_reproduces_every_field(store: Store, data: DemoDataset, limit: int) -> None:
    pages = all_pages(store, limit)
    assert pages == data.to_feed_pages(limit)
    docs = [d for p in pages for d in p["documents"]]
    assert docs == data.documents  # every document and memory field, in feed order


def test_memory_entry_has_the_feed_keys(store: Store) -> None:
    entry = store.list_documents(limit=1)["documents"][0]["memoryEntries"][0]
    assert {"id", "memory", "spaceId", "version", "isLatest", "parentMemoryId", "rootMemoryId",
            "memoryRelations", "isStatic", "isForgotten", "forgetAfter", "forgetReason",
            "createdAt", "updatedAt", "spaceContainerTag"} <= entry.keys()
    no_rel = next(m for p in all_pages(store, 200) for d in p["documents"]
                  for m in d["memoryEntries"] if m["parentMemoryId"] is None)
    assert isinstance(no_rel["memoryRelations"], dict)


@pytest.mark.parametrize("limit", [1, 5, 13, 71, 72, 500])
@pytest.mark.parametrize(("sort", "order"), [("createdAt", "desc"), ("updatedAt", "asc")])
def test_paging_covers_every_document_once(store: Store, data: DemoDataset, limit: int,
                                           sort: str, order: str) -> None:
    pages = all_pages(store, limit, sort=sort, order=order)
    ids = [d["id"] for p in pages for d in p["documents"]]
    assert len(ids) == len(set(ids)) == len(data.documents)
    assert len(pages) == -(-len(data.documents) // limit)
    keys = [(d[sort], d["id"]) for p in pages for d in p["documents"]]
    assert keys == sorted(keys, reverse=order == "desc")


def test_ties_are_broken_by_id(tmp_path: Path) -> None:
    st = Store(tmp_path / "ties.sqlite")
    docs = [{"id": f"doc_{i}", "createdAt": "2026-01-01T00:00:00Z", "memoryEntries": []}
            for i in "cadbe"]
    st.load_records(docs, [{"id": "ct", "containerTag": "t"}])
    seen = [d["id"] for p in all_pages(st, 2, order="asc") for d in p["documents"]]
    assert seen == ["doc_a", "doc_b", "doc_c", "doc_d", "doc_e"]


def test_bad_paging_arguments_raise(store: Store) -> None:
    with pytest.raises(StoreError):
        store.list_documents(sort="title")
    with pytest.raises(StoreError):
        store.list_documents(page=0)


@pytest.mark.parametrize("tags", [["sm_project_personal"], ["acme_work"],
                                  ["acme_work", "sm_project_research"]])
def test_container_tags_filter(store: Store, data: DemoDataset, tags: list[str]) -> None:
    expected = {d["id"] for d in data.documents if set(d["containerTags"]) & set(tags)
                or any(m["spaceContainerTag"] in tags for m in d["memoryEntries"])}
    pages = all_pages(store, 10, container_tags=tags)
    got = [d for p in pages for d in p["documents"]]
    assert {d["id"] for d in got} == expected
    assert pages[0]["pagination"]["totalItems"] == len(expected)
    assert all(m["spaceContainerTag"] in tags for d in got for m in d["memoryEntries"])
    counts = {s["containerTag"]: s["documentCount"] for s in store.list_spaces()}
    if len(tags) == 1:
        assert counts[tags[0]] == len(expected)


def test_filter_matches_documents_by_memory_space(tmp_path: Path) -> None:
    st = Store(tmp_path / "mixed.sqlite")
    mem = {"createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}
    st.load_records([
        {"id": "d1", "containerTags": ["a"], "createdAt": "2026-01-01T00:00:00Z",
         "memoryEntries": [{"id": "m1", "memory": "in a", "spaceContainerTag": "a", **mem},
                           {"id": "m2", "memory": "in b", "spaceContainerTag": "b", **mem}]},
        {"id": "d2", "containerTags": ["a"], "createdAt": "2026-01-02T00:00:00Z",
         "memoryEntries": [{"id": "m3", "memory": "in a", "spaceContainerTag": "a", **mem}]}])
    res = st.list_documents(container_tags=["b"])
    assert [d["id"] for d in res["documents"]] == ["d1"]
    assert [m["id"] for m in res["documents"][0]["memoryEntries"]] == ["m2"]
    assert {s["containerTag"] for s in st.list_spaces()} == {"a", "b"}  # created from data


def test_list_spaces(store: Store, data: DemoDataset) -> None:
    spaces = store.list_spaces()
    assert spaces == data.spaces
    assert sum(s["memoryCount"] for s in spaces) == len(memories(data))


def test_get_memory_lists_every_document(store: Store, data: DemoDataset) -> None:
    holders: dict[str, list[str]] = {}
    for doc in data.documents:
        for m in doc["memoryEntries"]:
            holders.setdefault(m["id"], []).append(doc["id"])
    shared = next(mid for mid, docs in holders.items() if len(docs) > 1)
    got = store.get_memory(shared)
    assert got is not None
    assert sorted(got["documentIds"]) == sorted(holders[shared])
    assert got["sourceCount"] == len(holders[shared])
    assert {k: v for k, v in got.items() if k != "documentIds"} == memories(data)[shared]
    assert store.get_memory("mem_nope") is None


# -- forget / restore / ledger -------------------------------------------------------

def test_forget_and_restore_are_ledgered(store: Store, data: DemoDataset) -> None:
    target = next(m for m in memories(data).values() if not m["isForgotten"])
    v0 = store.data_version()
    assert store.forget_memory(target["id"], "wrong fact") == {"id": target["id"],
                                                               "forgotten": True}
    got = store.get_memory(target["id"])
    assert got is not None
    assert (got["isForgotten"], got["forgetReason"], got["updatedAt"]) == (
        True, "wrong fact", LATER_ISO)
    assert got["isLatest"] == target["isLatest"] and got["memory"] == target["memory"]
    entry = store.ledger(limit=1)[0]
    assert isinstance(entry, LedgerEntry)
    assert (entry.action, entry.target_id, entry.snapshot, entry.reason, entry.outcome,
            entry.space, entry.source, entry.time) == (
        "forget", target["id"], target["memory"], "wrong fact", "ok",
        target["spaceContainerTag"], "embedded", LATER_ISO)

    before = store.get_memory(target["id"])
    store.forget_memory(target["id"], "again")
    assert store.get_memory(target["id"]) == before
    assert store.ledger(limit=1)[0].outcome == "noop"

    assert store.restore_memory(target["id"])["forgotten"] is False
    restored = store.get_memory(target["id"])
    assert restored is not None
    assert (restored["isForgotten"], restored["forgetReason"]) == (False, None)
    store.restore_memory(target["id"])
    actions = [(e.action, e.outcome) for e in store.ledger()]
    assert actions[:4] == [("restore", "noop"), ("restore", "ok"), ("forget", "noop"),
                           ("forget", "ok")]
    assert store.data_version() == v0 + 4


def test_forget_unknown_id_raises_and_changes_nothing(store: Store) -> None:
    before = store.dump()
    with pytest.raises(StoreNotFound) as err:
        store.forget_memory("mem_does_not_exist", "x")
    assert isinstance(err.value, StoreError) and "mem_does_not_exist" in str(err.value)
    with pytest.raises(StoreNotFound):
        store.restore_memory("mem_does_not_exist")
    assert store.dump() == before


def test_record_ledger_for_other_sources(store: Store) -> None:
    scope = "supermemory|https://api.example|key:0123456789abcdef"
    entry = store.record_ledger(action="forget", source="supermemory", outcome="error",
                                scope=scope, space="acme_work", target_id="mem_x",
                                snapshot="text", reason="r",
                                message="The service answered 404.")
    assert store.ledger(limit=1, scope=scope) == [entry]
    assert entry.id is not None and entry.time == LATER_ISO and entry.scope == scope
    assert len(store.ledger()) == 2  # unscoped read: the seed row and this one
    assert [e.action for e in store.ledger(scope=store.identity)] == ["seed"]
    with pytest.raises(StoreError):
        store.record_ledger(action="forget", source="supermemory", outcome="error", scope="")


def test_the_store_scopes_its_own_rows_to_its_file(store: Store, data: DemoDataset,
                                                   tmp_path: Path) -> None:
    target = next(m for m in memories(data).values() if not m["isForgotten"])
    store.forget_memory(target["id"], "wrong")
    store.forget_all("acme_work", confirm="acme_work")
    # every row the store wrote itself carries its identity, forget-all's batch included
    assert {e.scope for e in store.ledger()} == {store.identity}
    assert len(store.ledger(scope=store.identity)) == len(store.ledger())
    # the same file however it is spelled is the same identity; another file is not
    (tmp_path / "sub").mkdir()
    same = Store(tmp_path / "sub" / ".." / "store.sqlite")
    assert same.identity == store.identity
    assert same.ledger(scope=same.identity) == store.ledger(scope=store.identity)
    other = Store.create(tmp_path / "elsewhere.sqlite")
    assert other.identity != store.identity
    assert other.ledger(scope=store.identity) == []


def test_concurrent_forgets_from_threads(store: Store, data: DemoDataset) -> None:
    targets = [m["id"] for m in memories(data).values() if not m["isForgotten"]][:8]
    errors: list[BaseException] = []

    def run(mid: str) -> None:
        try:
            store.forget_memory(mid, "thread")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(mid,)) for mid in targets]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert {e.target_id for e in store.ledger(limit=8)} == set(targets)
    assert all(store.get_memory(mid)["isForgotten"] for mid in targets)  # type: ignore[index]


# -- forget-all ----------------------------------------------------------------------

def test_forget_all_preview_deletes_nothing(store: Store, data: DemoDataset) -> None:
    tag = "sm_project_research"
    mems = space_of(data, tag)
    todo = {m["id"] for m in mems if not m["isForgotten"]}
    docs = {d["id"] for d in data.documents if any(m["id"] in todo for m in d["memoryEntries"])}
    before = store.dump()
    preview = store.forget_all_preview(tag)
    assert store.dump() == before
    assert preview["containerTag"] == tag
    assert preview["memoryCount"] == len(todo) == len(preview["memoryIds"])
    assert set(preview["memoryIds"]) == todo
    assert preview["alreadyForgotten"] == len(mems) - len(todo)
    assert preview["documentCount"] == len(docs)
    with pytest.raises(StoreNotFound):
        store.forget_all_preview("no_such_space")


@pytest.mark.parametrize("confirm", ["", "acme_work ", "sm_project_personal", "Acme Work",
                                     "COUNT+1"])
def test_forget_all_wrong_confirmation_changes_nothing(store: Store, confirm: str) -> None:
    tag = "acme_work"
    if confirm == "COUNT+1":
        confirm = str(store.forget_all_preview(tag)["memoryCount"] + 1)
    if confirm == "acme_work ":  # surrounding blanks are forgiven: this one must work
        assert store.forget_all(tag, confirm=confirm)["count"] > 0
        return
    before = store.dump()
    with pytest.raises(ConfirmationMismatch) as err:
        store.forget_all(tag, confirm=confirm)
    assert isinstance(err.value, StoreError) and tag in str(err.value)
    assert store.dump() == before


def test_forget_all_by_count(store: Store, data: DemoDataset) -> None:
    tag = "sm_project_personal"
    preview = store.forget_all_preview(tag)
    others = {m["id"]: m for m in memories(data).values() if m["spaceContainerTag"] != tag}
    res = store.forget_all(tag, confirm=str(preview["memoryCount"]), reason="cleanup")
    assert res["count"] == preview["memoryCount"]
    assert sorted(res["memoryIds"]) == sorted(preview["memoryIds"])
    for mid in preview["memoryIds"]:
        got = store.get_memory(mid)
        assert got is not None and got["isForgotten"] and got["forgetReason"] == "cleanup"
    for mid, mem in others.items():
        got = store.get_memory(mid)
        assert got is not None and got.pop("documentIds") and got == mem
    rows = store.ledger(limit=res["count"])
    assert {(e.action, e.outcome, e.space) for e in rows} == {("forget_all", "ok", tag)}
    assert {e.target_id for e in rows} == set(preview["memoryIds"])
    after = store.forget_all_preview(tag)
    assert after["memoryCount"] == 0
    assert after["alreadyForgotten"] == len(space_of(data, tag))
    assert store.forget_all(tag, confirm="0")["count"] == 0
    assert store.ledger(limit=1)[0].outcome == "noop"


# -- atomicity -----------------------------------------------------------------------

def _op_forget(st: Store, data: DemoDataset) -> None:
    st.forget_memory(next(m["id"] for m in data.memories() if not m["isForgotten"]), "r")


def _op_restore(st: Store, data: DemoDataset) -> None:
    st.restore_memory(next(m["id"] for m in data.memories() if m["isForgotten"]))


def _op_forget_all(st: Store, data: DemoDataset) -> None:
    st.forget_all("acme_work", confirm="acme_work")


def _op_add(st: Store, data: DemoDataset) -> None:
    st.add_document("Maya likes kites.", "new_space", title="Kites")


@pytest.mark.parametrize("op", [_op_forget, _op_restore, _op_forget_all, _op_add])
def test_write_is_atomic(store: Store, data: DemoDataset, op: Any) -> None:
    add_trigger(store)
    before = store.dump()
    version = store.data_version()
    with pytest.raises(StoreError, match="injected failure"):
        op(store, data)
    assert store.dump() == before
    assert store.data_version() == version


@pytest.mark.parametrize("table", ["ledger", "profile_line_memories", "memory_relations"])
def test_seed_is_atomic(tmp_path: Path, data: DemoDataset, table: str) -> None:
    st = Store.create(tmp_path / "s.sqlite")
    add_trigger(st, table)
    before = st.dump()
    with pytest.raises(StoreError):
        st.seed(data)
    assert st.dump() == before
    assert st.is_empty() and st.data_version() == 0


def test_seed_twice_raises_and_keeps_data(store: Store, data: DemoDataset) -> None:
    before = store.dump()
    with pytest.raises(StoreError):
        store.seed(data)
    assert store.dump() == before


# -- history, profile, add, version ---------------------------------------------------

def _chain(mems: dict[str, dict[str, Any]], mid: str) -> set[str]:
    root = mid
    while mems[root]["parentMemoryId"] in mems:
        root = mems[root]["parentMemoryId"]
    kids: dict[str, list[str]] = {}
    for m in mems.values():
        kids.setdefault(m["parentMemoryId"], []).append(m["id"])
    out, stack = set(), [root]
    while stack:
        cur = stack.pop()
        out.add(cur)
        stack.extend(kids.get(cur, []))
    return out


def test_history_walks_whole_chains_with_branches(store: Store, data: DemoDataset) -> None:
    mems = memories(data)
    kids: dict[str, int] = {}
    for m in mems.values():
        if m["parentMemoryId"]:
            kids[m["parentMemoryId"]] = kids.get(m["parentMemoryId"], 0) + 1
    branched = [pid for pid, n in kids.items() if n > 1]
    assert len(branched) >= 2
    for mid in [*branched, *list(mems)[::7]]:
        chain = _chain(mems, mid)
        for member in chain:  # from any member, the same set
            hist = store.history(member)
            assert {h["id"] for h in hist} == chain
            assert hist == sorted(hist, key=lambda h: (h["createdAt"], h["id"]))
    entry = store.history(branched[0])[0]
    assert entry == mems[entry["id"]]
    assert store.history("mem_unknown") == []


def test_history_terminates_on_a_cycle(tmp_path: Path) -> None:
    st = Store(tmp_path / "cycle.sqlite")
    t = "2026-01-01T00:00:00Z"
    entries = [{"id": "m1", "memory": "a", "parentMemoryId": "m2", "createdAt": t},
               {"id": "m2", "memory": "b", "parentMemoryId": "m1", "createdAt": t},
               {"id": "m3", "memory": "c", "parentMemoryId": "m2", "createdAt": t},
               {"id": "m4", "memory": "d", "parentMemoryId": "gone", "createdAt": t},
               {"id": "m5", "memory": "e", "parentMemoryId": "m5", "createdAt": t}]
    st.load_records([{"id": "d", "createdAt": t, "memoryEntries": entries}],
                    [{"id": "ct", "containerTag": "t"}])
    assert [h["id"] for h in st.history("m3")] == ["m1", "m2", "m3"]
    assert [h["id"] for h in st.history("m1")] == ["m1", "m2", "m3"]
    assert [h["id"] for h in st.history("m4")] == ["m4"]
    assert [h["id"] for h in st.history("m5")] == ["m5"]


def test_profile_cites_memories(store: Store, data: DemoDataset) -> None:
    for tag, prof in data.profiles.items():
        got = store.profile(tag)
        assert got == prof
        assert got["static"] and got["dynamic"]
        for line in got["static"] + got["dynamic"]:
            assert line["memoryIds"]
            assert all(store.get_memory(mid) is not None for mid in line["memoryIds"])
    assert store.profile("nobody") == {"static": [], "dynamic": []}


def test_add_document(store: Store, data: DemoDataset) -> None:
    total = len(data.documents)
    doc = store.add_document("Maya adopted a cat named Miso.", "sm_project_personal",
                             title="Cat")
    assert doc["title"] == "Cat" and doc["createdAt"] == LATER_ISO
    [mem] = doc["memoryEntries"]
    assert mem["memory"] == "Maya adopted a cat named Miso."
    assert mem["spaceContainerTag"] == "sm_project_personal" and mem["spaceId"] == "ct_personal"
    first = store.list_documents(limit=1)
    assert first["pagination"]["totalItems"] == total + 1
    assert first["documents"][0] == doc
    assert store.ledger(limit=1)[0].action == "add"
    store.add_document("Fresh space.", "brand_new")
    assert "brand_new" in {s["containerTag"] for s in store.list_spaces()}


def test_data_version_bumps_on_every_write_only(tmp_path: Path, data: DemoDataset) -> None:
    st = Store(tmp_path / "v.sqlite")
    assert st.is_empty() and st.data_version() == 0
    st.seed(data)
    assert not st.is_empty() and st.data_version() == 1
    st.list_documents()
    st.list_spaces()
    st.profile("acme_work")
    assert st.data_version() == 1
    st.record_ledger(action="forget", source="spomory", outcome="error", scope="spomory|x")
    st.forget_all_preview("acme_work")
    assert st.data_version() == 2
    with pytest.raises(StoreNotFound):
        st.forget_memory("nope")
    assert st.data_version() == 2


def test_wal_and_foreign_keys(store: Store) -> None:
    conn = sqlite3.connect(store.path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    with pytest.raises(StoreError):  # a link to a missing memory is refused
        store.load_records([{"id": "dx", "createdAt": "2026-01-01T00:00:00Z",
                             "memoryEntries": []}], profiles={
            "acme_work": {"static": [{"text": "x", "memoryIds": ["mem_missing"]}]}})
