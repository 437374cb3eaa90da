"""The meaning half of local Ask (memscope/store/vectors.py and the hybrid in
memscope/store/search.py): each text embedded once per data version, kept on disk, built
when the store opens rather than on a question, and a question found by meaning alone."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from memscope.meaning.embed import EmbedderUnavailable
from memscope.store import search as store_search
from memscope.store import vectors
from memscope.store.store import Store

TEXTS = ["Maya flies to Lisbon on Friday for the conference.",
         "The Atlas project uses Postgres as its primary database.",
         "Ana drinks green tea every morning."]


@pytest.fixture
def counted(monkeypatch) -> list[int]:
    """How many texts each call of the embedder got (the real embedder still runs)."""
    for thread in [t for t in threading.enumerate() if t.name == "memscope-vectors"]:
        thread.join()  # a store opened by an earlier test may still be embedding
    calls: list[int] = []
    real = vectors.embed

    def embed(texts: Sequence[str]) -> np.ndarray:
        calls.append(len(texts))
        return real(texts)

    monkeypatch.setattr(vectors, "embed", embed)
    return calls


def make_store(tmp_path: Path, texts: list[str] = TEXTS, tag: str = "s") -> Store:
    store = Store.create(tmp_path / "memscope.db")
    for text in texts:
        store.add_document(text, tag)
    return store


def read(store: Store) -> sqlite3.Connection:
    conn = sqlite3.connect(store.path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("BEGIN")
    return conn


def test_each_text_is_embedded_once_per_data_version(tmp_path, counted):
    store = make_store(tmp_path)
    first = vectors.current(read(store))
    assert len(first) == 6 and first.embedded == 6  # three memories, three documents
    assert vectors.current(read(store)) is first  # the same data version: no work
    store.add_document("Leo plays padel on weekends.", "s")
    second = vectors.current(read(store))
    assert second.embedded == 2  # the new memory and its document; the rest reused
    assert counted == [6, 2]
    row = {ref: i for i, ref in enumerate(second.refs)}
    for i, ref in enumerate(first.refs):
        assert np.array_equal(first.matrix[i], second.matrix[row[ref]])


def test_a_large_build_is_kept_and_read_back_by_a_fresh_process(tmp_path, monkeypatch,
                                                                 counted):
    monkeypatch.setattr(vectors, "KEEP_MIN", 1)
    store = make_store(tmp_path)
    built = vectors.current(read(store))
    kept = list((tmp_path / "derived").glob("vectors-*.npz"))
    assert len(kept) == 1
    monkeypatch.setattr(vectors, "_held", type(vectors._held)())  # a fresh process
    again = vectors.current(read(store))
    assert again.embedded == 0 and counted == [6]
    assert np.array_equal(again.matrix, built.matrix)
    kept[0].write_bytes(b"not an npz file")  # damaged: a cache miss, never an error
    monkeypatch.setattr(vectors, "_held", type(vectors._held)())
    assert vectors.current(read(store)).embedded == 6


def test_a_kept_file_of_another_model_is_ignored(tmp_path, monkeypatch, counted):
    monkeypatch.setattr(vectors, "KEEP_MIN", 1)
    store = make_store(tmp_path)
    vectors.current(read(store))
    monkeypatch.setattr(vectors, "MODEL", "another model")
    monkeypatch.setattr(vectors, "_held", type(vectors._held)())
    assert vectors.current(read(store)).embedded == 6


def test_opening_a_store_builds_its_vectors_before_any_question(tmp_path, monkeypatch,
                                                               counted):
    make_store(tmp_path)
    monkeypatch.setattr(vectors, "_held", type(vectors._held)())
    threads = []
    real_install = vectors.install
    monkeypatch.setattr(vectors, "install",
                        lambda conn: threads.append(real_install(conn)) or threads[-1])
    reopened = Store(tmp_path / "memscope.db")
    reopened.init()  # what the app's warm-up does
    assert threads and threads[0] is not None
    threads[0].join(timeout=60)
    assert counted == [6]
    assert reopened.search("where is Maya travelling?")["hits"]
    assert counted == [6]  # the click embedded no memory text (only its question)


def test_an_empty_store_starts_no_thread(tmp_path):
    store = Store.create(tmp_path / "empty.db")
    conn = read(store)
    assert vectors.install(conn) is None


def test_a_large_store_answers_from_the_previous_vectors_while_new_ones_build(
        tmp_path, monkeypatch):
    monkeypatch.setattr(vectors, "SYNC_MAX", 2)
    store = make_store(tmp_path)
    old = vectors.current(read(store))
    store.add_document("Leo plays padel on weekends.", "s")
    threads: list = []
    real = vectors._in_thread
    monkeypatch.setattr(vectors, "_in_thread",
                        lambda db, done=None: threads.append(real(db, done)) or threads[-1])
    assert vectors.current(read(store)) is old  # at once, no embedding on the question
    threads[0].join(timeout=60)
    new = vectors.current(read(store))
    assert new is not old and len(new) == len(old) + 2 and new.embedded == 2


def test_nearest_keeps_to_a_space_and_a_floor(tmp_path):
    store = make_store(tmp_path, TEXTS[:2], tag="work")
    store.add_document(TEXTS[2], "home")
    vecs = vectors.current(read(store))
    query = vectors.embed(["green tea"])[0]
    home = vecs.nearest(query, pool=10, container_tag="home")
    assert {kind for kind, _, _ in home} == {"memory", "document"} and len(home) == 2
    assert vecs.nearest(query, pool=10, container_tag="nowhere") == []
    best = vecs.nearest(query, pool=10)[0][2]
    assert vecs.nearest(query, pool=10, floor=best + 1e-6) == []


def test_a_question_in_other_words_is_found_by_meaning_alone(tmp_path):
    store = make_store(tmp_path)
    conn = read(store)
    question = "SQL server choice"  # not one word of the answer
    assert store_search.search(conn, question, mode=store_search.WORDS)["hits"] == []
    hybrid = store_search.search(conn, question)["hits"]
    assert (hybrid[0]["kind"], hybrid[0]["text"]) == ("memory", TEXTS[1])
    assert len(hybrid) == 2  # the memory and its document; nothing unrelated (the floor)
    meaning = store_search.search(conn, "green tea in the morning?",
                                  mode=store_search.MEANING)["hits"]
    assert meaning[0]["text"] == TEXTS[2]


def test_without_the_model_ask_ranks_by_words_alone(tmp_path, monkeypatch, caplog):
    store = make_store(tmp_path)

    def unavailable(conn):
        raise EmbedderUnavailable("The offline text model (WordLlama) is not installed.")

    monkeypatch.setattr(vectors, "current", unavailable)
    found = store.search("Lisbon conference")
    assert found["hits"][0]["text"] == TEXTS[0]
    assert "ranks by words alone" in caplog.text
