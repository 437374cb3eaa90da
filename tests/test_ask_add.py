"""Ask and add against the sandbox over loopback, and the embedded store's local ranking."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TypeVar

import pytest
from sandbox_fixture import running_sandbox, spomory, supermemory

from memscope.demo.seeding import seed_store
from memscope.graph.analysis import analyse
from memscope.reports.ask import context_relations, describe, highlight_ids
from memscope.sources import (
    AddResult,
    EmbeddedSource,
    SearchHit,
    SearchResult,
    ServerError,
    Unsupported,
    actions,
    wait_until_processed,
)
from memscope.store.store import Store

PERSONAL = "sm_project_personal"
T = TypeVar("T")


def given(value: T | None) -> T:
    """``value``, failing the test when it is ``None``."""
    assert value is not None
    return value


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    with running_sandbox(tmp_path_factory.mktemp("ask_sandbox"), data="demo") as sb:
        yield sb


@pytest.fixture(autouse=True)
def _clean(sandbox):
    sandbox.faults.reset()
    sandbox.clear_requests()
    yield
    sandbox.faults.reset()


def no_sleep(_: float) -> None:
    """Polling without waiting (the sandbox advances per status read, not per second)."""


# -- ask -------------------------------------------------------------------------------


def test_supermemory_search_returns_memory_and_chunk_hits_that_highlight(sandbox):
    src = supermemory(sandbox)
    an = analyse(src.load().dataset)
    result = src.search("Lisbon trip", limit=10)
    memories = [h for h in result.hits if h.kind == "memory"]
    chunks = [h for h in result.hits if h.kind == "chunk"]
    assert memories and chunks
    assert all(h.document_ids for h in result.hits)  # documents[].id were read
    ids = highlight_ids(an, result)
    assert {h.id for h in memories} <= ids
    assert {d for h in chunks for d in h.document_ids} <= ids
    assert ids <= set(an.dataset.memories) | set(an.dataset.documents)
    view = describe(chunks[0], an)
    assert view.node_id == chunks[0].document_ids[0] and view.note is None
    assert view.label.startswith("excerpt · 1.00 from “")
    body = sandbox.requests_to("/v4/search")[0].body
    assert body["searchMode"] == "hybrid" and body["q"] == "Lisbon trip"


def test_a_hit_whose_memory_is_not_loaded_says_so(sandbox):
    src = supermemory(sandbox, container_tags=("acme_work",), load_profiles=False)
    an = analyse(src.load().dataset)  # only the work space is loaded
    result = src.search("Lisbon trip", container_tag=PERSONAL)
    assert sandbox.requests_to("/v4/search")[0].body["containerTag"] == PERSONAL
    assert result.hits and highlight_ids(an, result) == set()
    views = [describe(h, an) for h in result.hits]
    assert all(v.node_id is None for v in views)
    memory_view = next(v for v in views if v.kind == "memory")
    assert "is not in the loaded graph" in given(memory_view.note)


def test_spomory_context_highlights_both_ends_of_quoted_facts(sandbox):
    src = spomory(sandbox)
    an = analyse(src.load().dataset)
    result = src.search("张三")
    [hit] = result.hits
    assert hit.kind == "context" and result.message == hit.text
    quoted = [rid for _, rid in sandbox.spomory.ranked("张三")[:10]
              if sandbox.spomory.sentence(sandbox.spomory.relations[rid]) in hit.text]
    assert set(context_relations(an, hit.text)) == set(quoted)
    ds = an.dataset
    expected = {e for rid in quoted for e in (ds.relations[rid].subject_id,
                                              ds.relations[rid].object_id)
                if e in ds.entities}
    assert expected and highlight_ids(an, result) == expected
    # the side effect the Ask box warns about: the facts shown were marked retrieved
    assert all(sandbox.spomory.relations[r].get("last_retrieved_at") for r in quoted)
    assert src.calls == 2 and "2 Spomory calls" in src.calls_note()


def test_spomory_context_matches_a_provenance_span():
    from memscope.records.dataset import Dataset

    ds = Dataset()
    ds.add_passport({"entities": [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Kyiv"},
                                  {"id": "c", "name": "Bo"}],
                     "relations": [
                         {"id": "r1", "subject_id": "a", "predicate": "lives in",
                          "object_id": "b",
                          "provenance": [{"source_id": "x", "source_span": "Ann moved to Kyiv"}]},
                         {"id": "r2", "subject_id": "c", "predicate": "likes",
                          "object_id": "a"}]})
    an = analyse(ds)
    text = "Relevant memories:\n- ann MOVED to   Kyiv last year"
    assert context_relations(an, text) == ["r1"]
    assert highlight_ids(an, SearchResult([SearchHit("context", text)])) == {"a", "b"}
    assert context_relations(an, "- Bo likes Ann") == ["r2"]  # the spaced sentence


# -- add -------------------------------------------------------------------------------


def test_supermemory_add_goes_queued_to_done_and_appears_after_reload(sandbox):
    sandbox.faults.update(processing_polls=2)
    src = supermemory(sandbox, load_profiles=False)
    text = "Maya adopted a second cat named Tofu."
    added = src.add(text, container_tag=PERSONAL, title="Tofu")
    assert (added.status, added.final, added.container_tag) == ("queued", False, PERSONAL)
    doc_id = given(added.id)
    seen: list[str] = []
    done = wait_until_processed(src, doc_id, timeout_s=30, sleep=no_sleep,
                                on_status=lambda r: seen.append(r.status))
    assert seen == ["extracting", "chunking", "done"]
    assert done.ok and done.polls == 3 and done.memory_ids
    [post] = sandbox.requests_to("/v3/documents", "POST")
    assert post.body == {"content": text, "containerTag": PERSONAL,
                         "metadata": {"title": "Tofu"}}
    ds = src.load(refresh=True).dataset
    assert ds.documents[doc_id].title == "Tofu"
    assert [ds.memories[m].memory for m in ds.documents[doc_id].memory_ids] == [text]


def test_a_document_that_fails_processing_is_reported_and_ledgered(sandbox, tmp_path):
    sandbox.faults.update(processing_polls=1, fail_processing=1)
    src = supermemory(sandbox)
    ledger = Store.create(tmp_path / "ledger.db")
    added = actions.add(src, ledger, "This one will fail.", container_tag=PERSONAL)
    result = wait_until_processed(src, given(added.id), timeout_s=30, sleep=no_sleep)
    assert result.status == "failed" and not result.ok and result.final
    assert "could not process document" in result.message
    actions.add_processed(src, ledger, result, "This one will fail.")
    rows = [(r.action, r.outcome, r.target_id) for r in reversed(ledger.ledger())
            if r.action == "add"]
    assert rows == [("add", "ok", added.id), ("add", "error", added.id)]
    assert sandbox.store.get_memory(added.id) is None
    assert added.id not in {d["id"] for d in sandbox.store.list_documents(limit=500)
                            ["documents"]}


def test_polling_stops_at_the_time_limit_with_backoff(sandbox):
    sandbox.faults.update(processing_polls=50)
    src = supermemory(sandbox)
    added = src.add("Slow to process.", container_tag=PERSONAL)
    now = [0.0]
    delays: list[float] = []

    def fake_sleep(seconds: float) -> None:
        delays.append(seconds)
        now[0] += seconds

    result = wait_until_processed(src, given(added.id), timeout_s=10, sleep=fake_sleep,
                                  clock=lambda: now[0])
    assert result.timed_out and not result.final
    assert "still being processed after 10 s" in result.message
    assert delays[:3] == pytest.approx([0.5, 0.8, 1.28]) and sum(delays) <= 10
    assert len(sandbox.requests_to(f"/v3/documents/{added.id}")) == result.polls


def test_an_add_is_never_retried_once_it_may_have_arrived(sandbox):
    src = supermemory(sandbox)
    sandbox.faults.update(status_sequence=[503], only_path="/v3/documents")
    with pytest.raises(ServerError, match="may already have created the document"):
        src.add("Sent once.", container_tag=PERSONAL)
    assert len(sandbox.requests_to("/v3/documents", "POST")) == 1
    sandbox.faults.update(drops=1)
    with pytest.raises(Exception, match="may already have created the document"):
        src.add("Dropped once.", container_tag=PERSONAL)
    assert len(sandbox.requests_to("/v3/documents", "POST")) == 2


def test_spomory_add_shows_the_sentence_and_reloads_with_one_export(sandbox):
    src = spomory(sandbox)
    src.load()
    calls = src.calls
    result = src.add("Alice works at Acme.")
    assert result.ok and result.message.startswith("新增实体")
    assert src.calls - calls == 2  # the add and one export
    assert len(sandbox.requests_to("/v1/export")) == 2  # the first load and the reload
    ds = given(result.load).dataset
    names = {e.id: e.name for e in ds.entities.values()}
    assert "Aliceworks atAcme" in {r.sentence(names) for r in ds.relations.values()}
    assert src.load() is result.load  # cached: no further call


def test_file_sources_cannot_add():
    from conftest import SM

    from memscope.sources import FileSource

    src = FileSource([SM / "documents_page1.json"])
    assert given(src.capabilities.reason("add")).startswith("A snapshot file is read-only")
    with pytest.raises(Unsupported):
        src.add("x")
    with pytest.raises(Unsupported):
        src.document_status("doc")


# -- the embedded store -----------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory) -> Store:
    store = Store.create(tmp_path_factory.mktemp("fts") / "demo.db")
    seed_store(store, seed=7)
    return store


def test_embedded_ranking_puts_the_more_relevant_memory_first(demo_store):
    assert demo_store.search_backend == "fts5"
    tag = "sm_project_research"
    weak = demo_store.add_document(
        "A long note that mentions the axolotl once among many other words about lab "
        "schedules, reading lists, GPU budgets, reviews and travel plans.", tag)
    strong = demo_store.add_document("Axolotl care: the axolotl tank needs cold water.", tag)
    src = EmbeddedSource(demo_store)
    result = src.search("axolotl", limit=5)
    ids = [h.id for h in result.hits if h.kind == "memory"]
    strong_mem, weak_mem = (d["memoryEntries"][0]["id"] for d in (strong, weak))
    assert ids[:2] == [strong_mem, weak_mem]  # more occurrences in a shorter text
    assert given(result.hits[0].similarity) > given(result.hits[1].similarity)
    assert "BM25" in given(result.detail)  # the technique: for a help tooltip
    assert "BM25" not in given(result.note) and "FTS5" not in given(result.note)
    both = src.search("axolotl water", limit=5).hits
    assert both[0].id == strong_mem  # it holds both words


def test_embedded_search_covers_documents_spaces_and_cjk(demo_store):
    src = EmbeddedSource(demo_store)
    doc = demo_store.add_document("Notes.", "acme_work", title="Quarterly okapi review")
    hits = src.search("okapi").hits
    assert [(h.kind, h.document_ids) for h in hits] == [("chunk", [doc["id"]])]
    an = analyse(src.load().dataset)
    assert highlight_ids(an, src.search("okapi")) == {doc["id"]}
    assert src.search("okapi", container_tag="sm_project_personal").hits == []
    cjk = demo_store.add_document("她喜欢喝乌龙茶。", "acme_work")
    found = demo_store.search("乌龙茶", limit=50)  # a word of its own once jieba segments it
    assert found["method"] == "fts5"
    ids = [h["id"] for h in found["hits"]]
    # the memory first; the English memories about tea follow it (乌龙茶: oolong tea)
    assert ids[0] == cjk["memoryEntries"][0]["id"] and cjk["id"] in ids, ids


def test_embedded_index_is_rebuilt_for_an_older_store(tmp_path):
    store = Store.create(tmp_path / "old.db")
    store.add_document("Penguins waddle.", "s1")
    conn = sqlite3.connect(store.path)  # make it look like a store from before the index
    conn.executescript("DROP TABLE search_index; DELETE FROM meta WHERE key = "
                       "'search_index';")
    conn.close()
    reopened = Store(store.path)
    hits = reopened.search("penguins")["hits"]
    assert [(h["kind"], h["text"]) for h in hits] == [("memory", "Penguins waddle."),
                                                      ("document", "Penguins waddle.")]


def test_without_fts5_search_ranks_by_like_and_the_index_recovers(tmp_path, monkeypatch):
    from memscope.store import search as store_search
    store = Store.create(tmp_path / "s.db")
    store.add_document("Penguins waddle.", "s1")
    monkeypatch.setattr(store_search, "fts5_available", lambda conn: False)
    plain = Store(store.path)
    found = plain.search("penguins")
    assert found["method"] == "like" and "has no FTS5" in found["detail"]
    assert "FTS5" not in found["note"]
    assert found["hits"][0]["text"] == "Penguins waddle."
    plain.add_document("Penguins swim.", "s1")  # writes work without the triggers
    monkeypatch.undo()
    again = Store(store.path)
    assert again.search_backend == "fts5"  # and the stale index was rebuilt
    memories = {h["text"] for h in again.search("penguins")["hits"] if h["kind"] == "memory"}
    assert memories == {"Penguins waddle.", "Penguins swim."}
    assert again.search("penguins")["method"] == "fts5"


def test_embedded_add_stores_one_memory_and_says_nothing_was_extracted(tmp_path):
    store = Store.create(tmp_path / "add.db")
    src = EmbeddedSource(store)
    result = src.add("Maya adopted a cat named Miso.", container_tag="s1", title="Cat")
    assert result.ok and result.final and len(result.memory_ids) == 1
    assert "nothing was extracted" in result.message
    assert "extracts nothing" in given(src.add_note)
    ds = src.load().dataset
    assert ds.memories[result.memory_ids[0]].memory == "Maya adopted a cat named Miso."
    assert [r.action for r in store.ledger()] == ["add"]  # ledgered by the store itself
    # a ledger kept elsewhere (as PostgreSQL would be) gets the action too, once
    ledger = Store.create(tmp_path / "ledger.db")
    actions.add(src, ledger, "Second.", container_tag="s1")
    assert [(r.action, r.outcome, r.status) for r in ledger.ledger()] == [
        ("add", "ok", "completed")]
    assert [r.action for r in store.ledger()] == ["add", "add"]  # and the store's own


def test_wait_tolerates_a_flaky_status_read():
    class Flaky(EmbeddedSource):
        def __init__(self) -> None:
            self.answers = [ServerError("boom"), AddResult("d", "extracting", ""),
                            AddResult("d", "done", "ok")]

        def document_status(self, document_id: str) -> AddResult:
            answer = self.answers.pop(0)
            if isinstance(answer, Exception):
                raise answer
            return answer

    result = wait_until_processed(Flaky(), "d", sleep=no_sleep)
    assert result.ok and result.polls == 3


def test_describe_lists_unknown_chunks_plainly(tmp_path: Path):
    an = analyse(EmbeddedSource(Store.create(tmp_path / "e.db")).load().dataset)
    view = describe(SearchHit("chunk", "some excerpt", "c1"), an)
    assert view.node_id is None and "did not say which document" in given(view.note)
