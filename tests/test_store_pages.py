"""``Store.document_pages``: every page of the feed in one read (keyset paging, one
snapshot) — the same pages ``list_documents`` answers one at a time, each document once,
in order, ties by id, and a write made while the pages are read shows in none of them.
Real SQLite files in ``tmp_path``; nothing is mocked."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from memscope.demo.generator import DemoDataset, generate
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store, StoreError

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
T0 = "2026-01-01T00:00:00Z"


@pytest.fixture(scope="module")
def data() -> DemoDataset:
    return generate(7, now=NOW)


@pytest.fixture
def store(tmp_path: Path, data: DemoDataset) -> Store:
    st = Store.create(tmp_path / "store.sqlite")
    st.seed(data)
    return st


def listed(store: Store, limit: int, **kw: Any) -> list[dict[str, Any]]:
    """Every page asked for one by one (the v3 page API)."""
    pages, page = [], 1
    while True:
        pages.append(store.list_documents(page=page, limit=limit, **kw))
        if page >= pages[-1]["pagination"]["totalPages"]:
            return pages
        page += 1


def ids(pages: list[dict[str, Any]]) -> list[str]:
    return [d["id"] for p in pages for d in p["documents"]]


@pytest.mark.parametrize("limit", [1, 7, 72, 500])
@pytest.mark.parametrize(("sort", "order", "tags"), [
    ("createdAt", "desc", None), ("updatedAt", "asc", None),
    ("createdAt", "asc", ["acme_work"]), ("updatedAt", "desc", ["acme_work",
                                                                 "sm_project_research"])])
def test_the_same_pages_as_the_page_api(store: Store, data: DemoDataset, limit: int,
                                        sort: str, order: str, tags: list[str] | None
                                        ) -> None:
    pages = list(store.document_pages(limit, tags, sort, order))
    assert pages == listed(store, limit, container_tags=tags, sort=sort, order=order)
    seen = ids(pages)
    assert len(seen) == len(set(seen)) == pages[0]["pagination"]["totalItems"]
    if tags is None:
        assert len(seen) == len(data.documents)
    keys = [(d[sort], d["id"]) for p in pages for d in p["documents"]]
    assert keys == sorted(keys, reverse=order == "desc")
    assert [p["pagination"]["currentPage"] for p in pages] == list(range(1, len(pages) + 1))


def test_the_demo_feed_round_trips(store: Store, data: DemoDataset) -> None:
    assert list(store.document_pages(200)) == data.to_feed_pages(200)


@pytest.mark.parametrize("limit", [1, 2, 3, 4])
@pytest.mark.parametrize("order", ["asc", "desc"])
def test_ties_across_page_ends_are_broken_by_id(tmp_path: Path, limit: int, order: str
                                                ) -> None:
    st = Store(tmp_path / "ties.sqlite")
    stamps = {"a": T0, "b": T0, "c": "2026-01-02T00:00:00Z", "d": T0, "e": T0,
              "f": "2026-01-02T00:00:00Z", "g": T0}
    st.load_records([{"id": f"doc_{k}", "createdAt": v, "memoryEntries": []}
                     for k, v in stamps.items()], [{"id": "ct", "containerTag": "t"}])
    expected = [f"doc_{k}" for k in sorted(stamps, key=lambda k: (stamps[k], k),
                                           reverse=order == "desc")]
    assert ids(list(st.document_pages(limit, order=order))) == expected


def test_entries_tags_relations_and_shared_memories(tmp_path: Path) -> None:
    st = Store(tmp_path / "mixed.sqlite")
    mem = {"createdAt": T0, "updatedAt": T0}
    shared = {"id": "m2", "memory": "in b", "spaceContainerTag": "b", **mem,
              "memoryRelations": {"m9": "updates", "m1": "extends"}}
    st.load_records([
        {"id": "d1", "containerTags": ["a"], "createdAt": T0,
         "memoryEntries": [{"id": "m3", "memory": "third", "spaceContainerTag": "a", **mem},
                           {"id": "m1", "memory": "in a", "spaceContainerTag": "a", **mem},
                           shared]},
        {"id": "d2", "containerTags": ["a"], "createdAt": "2026-01-02T00:00:00Z",
         "memoryEntries": [shared]},
        {"id": "d3", "containerTags": ["c"], "createdAt": T0, "memoryEntries": []}])
    for tags in (None, ["b"], ["a"], ["c"], ["nowhere"]):
        pages = list(st.document_pages(2, tags))
        assert pages == listed(st, 2, container_tags=tags)
    whole = [d for p in st.document_pages(10) for d in p["documents"]]
    assert [d["id"] for d in whole] == ["d2", "d3", "d1"]
    d1 = whole[2]["memoryEntries"]
    assert [m["id"] for m in d1] == ["m3", "m1", "m2"]  # the order the document lists
    assert d1[2]["sourceCount"] == 2 and d1[0]["sourceCount"] == 1
    assert list(d1[2]["memoryRelations"].items()) == [("m9", "updates"), ("m1", "extends")]
    only_b = [d for p in st.document_pages(10, ["b"]) for d in p["documents"]]
    assert [[m["id"] for m in d["memoryEntries"]] for d in only_b] == [["m2"], ["m2"]]


def test_an_empty_store_gives_one_empty_page(tmp_path: Path) -> None:
    st = Store.create(tmp_path / "empty.sqlite")
    assert list(st.document_pages(50)) == [{"documents": [], "pagination": {
        "currentPage": 1, "limit": 50, "totalItems": 0, "totalPages": 0}}]


def test_bad_arguments_raise_before_any_page(store: Store) -> None:
    with pytest.raises(StoreError):
        store.document_pages(sort="title")
    with pytest.raises(StoreError):
        store.document_pages(0)


def test_a_write_while_reading_shows_in_no_page(store: Store, data: DemoDataset) -> None:
    """The pages are one snapshot: a document inserted where a later page would hold it
    (and one at the very start) is in none of them, none repeats or goes missing, and the
    total stays the one counted first; the next read sees the new documents."""
    before = ids(listed(store, 5))
    pages = store.document_pages(5)  # newest first
    first = next(pages)
    other = Store(store.path)  # another connection, as another thread or process would
    oldest = "2000-01-01T00:00:00Z"  # before every demo document: the last page
    assert all(d["createdAt"] > oldest for d in data.documents)
    other.load_records([
        {"id": "doc_inserted_late", "createdAt": oldest, "containerTags": ["acme_work"],
         "memoryEntries": [{"id": "mem_inserted", "memory": "new", "createdAt": oldest}]},
        {"id": "doc_inserted_first", "createdAt": "2099-01-01T00:00:00Z",
         "memoryEntries": []}])
    forgotten = next(m["id"] for d in reversed(data.documents) for m in d["memoryEntries"]
                     if not m["isForgotten"])  # on the last page, not yet read
    other.forget_memory(forgotten)
    rest = list(pages)
    assert ids([first, *rest]) == before
    assert {p["pagination"]["totalItems"] for p in [first, *rest]} == {len(before)}
    seen = [m["isForgotten"] for p in rest for d in p["documents"]
            for m in d["memoryEntries"] if m["id"] == forgotten]
    assert seen and not any(seen)
    assert other.get_memory(forgotten)["isForgotten"]  # type: ignore[index]
    after = ids(list(store.document_pages(5)))
    assert after[0] == "doc_inserted_first" and after[-1] == "doc_inserted_late"
    assert len(after) == len(before) + 2


def test_the_embedded_load_reads_every_page_once(store: Store, data: DemoDataset,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The source's load reads the feed in one pass, never page by page."""
    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("the load asked for a page by number")

    monkeypatch.setattr(Store, "list_documents", refuse)
    result = EmbeddedSource(store, page_limit=13).load()
    assert list(result.dataset.documents) == [d["id"] for d in data.documents]
    assert result.pages_total == -(-len(data.documents) // 13)
    assert sorted(result.pages_fetched) == list(range(1, result.pages_total + 1))
