"""Local Ask on the demo store answers the demo's own questions (issue 12, item 13), and
the hybrid ranking (words and meaning) beats words alone on the evaluation set
(issue 24, item 1: tests/labelled/ask_eval.json, measured by bench/ask.py).

Each demo question comes from the demo texts (memscope/demo/texts.py); what a good answer
is is written as a property of the hits' text (it mentions Lisbon and a trip, …), never as
an id, and checked on two demo seeds. The travel questions were first met through a
hand-written thesaurus (travel → trip, flight, flies; fly → flies, flight) that is gone:
their answers are now found by meaning, and asserted at the ranks meaning reaches (a
trip in most of the first five, Maya's own Lisbon trip among them) rather than first.
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from ask_support import KINDS, eval_set, eval_store, evaluate

from memscope.demo.seeding import seed_store
from memscope.records.words import STOP_WORDS, tokens
from memscope.sources import EmbeddedSource
from memscope.store import search as store_search
from memscope.store.store import Store

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
TRAVEL = ("trip", "flies", "flight", "travel")


@pytest.fixture(scope="module", params=[7, 11])
def demo(request, tmp_path_factory) -> Store:
    store = Store.create(tmp_path_factory.mktemp(f"ask{request.param}") / "demo.db")
    seed_store(store, seed=request.param, now=NOW)
    return store


def memory_hits(store: Store, query: str, limit: int = 5) -> list[dict]:
    return [h for h in store.search(query, limit)["hits"] if h["kind"] == "memory"]


def own(text: str) -> bool:
    """About Maya herself (not "Maya's sister …")."""
    return text.startswith("Maya ")


def travel(text: str) -> bool:
    return any(w in text.casefold() for w in TRAVEL)


QUESTIONS: list[tuple[str, Callable[[str], bool], int]] = [
    # (question, what each of the first n hits must satisfy, n)
    ("when does Maya fly to Lisbon?", lambda t: "Lisbon" in t and own(t), 2),
    ("when does Maya fly to Lisbon?", lambda t: "Lisbon" in t, 3),
    ("what database does Atlas use?", lambda t: "Atlas" in t and "database" in t, 1),
    ("when is the Atlas launch?", lambda t: "Atlas" in t and "launch" in t, 3),
    ("what is Maya allergic to?", lambda t: own(t) and "allergic" in t, 1),
    ("who does Maya report to?", lambda t: own(t) and "reports to" in t, 1),
    ("which frontend framework does Maya prefer?", lambda t: "frontend" in t, 3),
    ("Lisb", lambda t: "Lisbon" in t, 5),  # a word being typed: prefix match
]


@pytest.mark.parametrize(("question", "good", "n"), QUESTIONS,
                         ids=[f"{q} ({n})" for q, _, n in QUESTIONS])
def test_demo_questions_rank_the_answers_first(demo, question, good, n):
    hits = memory_hits(demo, question)
    assert len(hits) >= n
    texts = [h["text"] for h in hits[:n]]
    assert all(good(t) for t in texts), texts


def test_the_travel_question_finds_trips_that_share_no_word_with_it(demo):
    """No memory says "travel": the trips are found by meaning, Maya's own among them,
    and her diet (which shares only her name) stays out of the first five."""
    texts = [h["text"] for h in memory_hits(demo, "where is Maya travelling?", 10)]
    assert not any("travel" in t.casefold() for t in texts)
    assert sum(travel(t) and "Maya" in t for t in texts[:5]) >= 3, texts[:5]
    assert any(own(t) and travel(t) and "Lisbon" in t for t in texts[:5]), texts[:5]
    assert not any("vegetarian" in t for t in texts[:5])  # "is"/"where" do not count


def test_the_latest_version_ranks_above_what_it_superseded(demo):
    hits = memory_hits(demo, "when is the Atlas launch?", 10)
    chain = [h for h in hits if "Atlas launch" in h["text"] or "Atlas will launch" in h["text"]]
    latest = [demo.get_memory(h["id"])["isLatest"] for h in chain]  # type: ignore[index]
    assert latest[0] is True and False in latest  # older versions still listed, lower


def test_state_weights_on_identical_texts(tmp_path):
    """Same words, three states: current first, then superseded, then forgotten."""
    store = Store.create(tmp_path / "w.db")
    entries = [
        {"id": "old", "memory": "Ana lives in Porto.", "isLatest": False},
        {"id": "now", "memory": "Ana lives in Porto.", "parentMemoryId": "old"},
        {"id": "gone", "memory": "Ana lives in Porto.", "isForgotten": True},
    ]
    store.load_records([{"id": "d", "containerTags": ["s"], "memoryEntries": entries}])
    hits = memory_hits(store, "where does Ana live?")
    assert [h["id"] for h in hits] == ["now", "old", "gone"]
    assert hits[0]["score"] > hits[1]["score"] > hits[2]["score"]


def test_a_question_of_only_common_words_still_searches(tmp_path):
    store = Store.create(tmp_path / "c.db")
    store.add_document("Who is it? It is me.", "s")
    assert memory_hits(store, "who is it")[0]["text"] == "Who is it? It is me."


def test_the_note_is_plain_words_and_the_detail_names_the_technique(demo):
    result = EmbeddedSource(demo).search("Lisbon")
    note, detail = result.note or "", result.detail or ""
    assert note and not any(w in note for w in ("FTS5", "BM25", "SQLite", "LIKE"))
    assert "FTS5" in detail and "BM25" in detail


def test_an_index_with_the_old_tokenizer_is_rebuilt_on_open(tmp_path):
    store = Store.create(tmp_path / "old.db")
    store.add_document("Maya needs a travel adapter.", "s")
    conn = sqlite3.connect(store.path)  # what a store from before porter stemming held
    conn.executescript(
        "DROP TABLE search_index;"
        "CREATE VIRTUAL TABLE search_index USING fts5(kind UNINDEXED, ref UNINDEXED, "
        "title, body, tokenize='unicode61 remove_diacritics 2');"
        "INSERT INTO search_index SELECT 'memory', id, '', memory FROM memories;"
        "UPDATE meta SET value = 'fts5' WHERE key = 'search_index';")
    old = conn.execute("SELECT rowid FROM search_index WHERE search_index MATCH "
                       "'travelling'").fetchall()
    conn.close()
    assert old == []  # the old index cannot stem
    reopened = Store(store.path)
    hits = memory_hits(reopened, "travelling")
    assert [h["text"] for h in hits] == ["Maya needs a travel adapter."]
    conn = sqlite3.connect(store.path)
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'search_index'").fetchone()
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    ledger = conn.execute("SELECT COUNT(*) FROM ledger").fetchone()[0]
    conn.close()
    assert store_search.TOKENIZE in sql[0]
    assert meta["search_index"] == store_search.INDEX_VERSION
    assert ledger == 1  # the add's ledger row is untouched by the rebuild
    reopened.add_document("Ana is travelling to Porto.", "s")  # the triggers work again
    assert len(memory_hits(Store(store.path), "travel")) == 2


# -- the evaluation set (issue 24, item 1) ---------------------------------------------

EVAL = eval_set()


@pytest.fixture(scope="module")
def eval_results(tmp_path_factory):
    return evaluate(eval_store(tmp_path_factory.mktemp("ask-eval"), EVAL), EVAL)


def test_the_hybrid_beats_words_alone_by_a_margin(eval_results):
    hybrid, words = eval_results["hybrid"], eval_results["words"]
    assert hybrid["all"].mrr >= words["all"].mrr + 0.15, eval_results
    assert hybrid["all"].recall5 >= words["all"].recall5 + 0.15, eval_results
    assert hybrid["paraphrase"].mrr >= words["paraphrase"].mrr + 0.2  # other words
    assert hybrid["chinese"].mrr >= words["chinese"].mrr + 0.05  # meaning still adds
    assert words["chinese"].mrr >= 0.5  # Chinese words count in BM25 (issue 35, item 6)
    assert hybrid["literal"].mrr >= words["literal"].mrr - 0.05  # words still count


def test_the_hybrid_is_at_least_as_good_as_meaning_alone(eval_results):
    assert eval_results["hybrid"]["all"].mrr >= eval_results["meaning"]["all"].mrr


def test_the_evaluation_set_is_what_it_says():
    """At least 40 English questions, half in words their answers do not use (names
    aside, compared on their first four letters), and 10 in Chinese; every answer is a
    current memory of the evaluation store."""
    questions = EVAL["questions"]
    english = [q for q in questions if q["kind"] != "chinese"]
    paraphrased = [q for q in english if q["kind"] == "paraphrase"]
    assert len(english) >= 40 and 2 * len(paraphrased) >= len(english)
    assert sum(q["kind"] == "chinese" for q in questions) >= 10
    assert {q["kind"] for q in questions} == set(KINDS)
    store = eval_store(Path(tempfile.mkdtemp()), EVAL)
    texts = {}
    for q in questions:
        for mem_id in q["relevant"]:
            mem = store.get_memory(mem_id)
            assert mem is not None and mem["isLatest"] and not mem["isForgotten"], mem_id
            texts[mem_id] = mem["memory"]
    names = set(EVAL["names"])
    for q in paraphrased:
        asked = [w for w in tokens(q["q"]) if w not in STOP_WORDS and w not in names]
        held = {t[:4] for mem_id in q["relevant"] for t in tokens(texts[mem_id])}
        assert asked and not [w for w in asked if w[:4] in held], q["q"]
