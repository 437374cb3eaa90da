"""Local Ask over snapshot files and a mem0 history.db (memscope/sources/file_ask.py): the
embedded store's words-and-meaning ranking over the loaded records, built once per load,
no socket."""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from test_embed import run_without_network
from test_mem0_history import write_history

from memscope.records.dataset import Dataset
from memscope.records.models import DocumentRecord, MemoryRecord
from memscope.sources import FileSource, Mem0HistorySource, file_ask, file_source, save_snapshot
from memscope.store import vectors

TEXTS = {
    "m-lisbon": ("Maya flies to Lisbon on Friday for the conference.", "personal"),
    "m-atlas": ("The Atlas project uses Postgres as its primary database.", "work"),
    "m-tea": ("Ana drinks green tea every morning.", "personal"),
    "m-cello": ("Maya plays the cello in an orchestra.", "personal"),
    "m-porto": ("Ana lives in Porto near the river.", "personal"),
}


def write_snapshot(path: Path, marker: str = "") -> Path:
    """A snapshot file of :data:`TEXTS` (``marker`` makes its texts unlike any other
    test's, so no vectors are shared with them), plus an older version of the tea
    memory and a document holding the Atlas memory."""
    ds = Dataset()
    ds.documents["d-atlas"] = DocumentRecord("d-atlas", title="Atlas architecture notes",
                                             summary="How the Atlas project keeps its records.")
    for mem_id, (text, tag) in TEXTS.items():
        ds.add_memory(MemoryRecord(mem_id, f"{text} {marker}".strip(), container_tag=tag),
                      "d-atlas" if mem_id == "m-atlas" else None)
    ds.add_memory(MemoryRecord("m-tea-v0", "Ana drinks black tea.", container_tag="personal",
                               is_latest=False), None)
    return save_snapshot(ds, path)


def ids(source, question: str, **kwargs) -> list[str | None]:
    return [hit.id for hit in source.search(question, **kwargs).hits]


@pytest.fixture
def counted(monkeypatch) -> list[int]:
    """How many texts each build of the vectors embedded (the real embedder runs)."""
    for thread in [t for t in threading.enumerate() if t.name == "memscope-vectors"]:
        thread.join()
    calls: list[int] = []
    real = vectors.embed

    def embed(texts: Sequence[str]) -> np.ndarray:
        calls.append(len(texts))
        return real(texts)

    monkeypatch.setattr(vectors, "embed", embed)
    return calls


def test_file_sources_declare_ask():
    for cls in (FileSource, Mem0HistorySource):
        assert cls.capabilities.can("search")
        assert cls.capabilities.reason("search") is None
        assert cls.capabilities.reason("forget")  # still read-only


def test_a_snapshot_answers_in_words_and_by_meaning(tmp_path):
    src = FileSource([write_snapshot(tmp_path / "snap.json")])
    assert ids(src, "Postgres")[0] == "m-atlas"
    assert ids(src, "Ana green tea")[0] == "m-tea"
    # no word of these questions is in the answer: words alone find nothing
    for question, answer in (("SQL server choice", "m-atlas"),
                             ("musical instrument", "m-cello"),
                             ("coastal Portuguese city", "m-porto")):
        index = src._ask.index(src.load())
        assert index.search(question, mode="words").hits == []
        assert ids(src, question)[0] == answer
    found = src.search("Postgres")
    assert found.hits[0].record is src.load().dataset.memories["m-atlas"]
    assert found.note and "what they mean" in found.note
    assert found.detail and "WordLlama" in found.detail


def test_documents_spaces_and_versions_rank_as_in_the_store(tmp_path):
    src = FileSource([write_snapshot(tmp_path / "snap.json")])
    hits = src.search("Atlas architecture").hits
    assert [(h.kind, h.id) for h in hits][:2] == [("memory", "m-atlas"), ("chunk", "d-atlas")]
    assert hits[1].document_ids == ["d-atlas"]
    assert "m-atlas" not in ids(src, "Postgres", container_tag="personal")
    assert "d-atlas" not in ids(src, "Atlas", container_tag="personal")
    assert ids(src, "Atlas", container_tag="work")[0] == "m-atlas"
    tea = ids(src, "Ana drinks tea")
    assert tea.index("m-tea") < tea.index("m-tea-v0")  # an older version ranks below


def test_the_index_is_built_once_per_load(tmp_path, monkeypatch, counted):
    builds: list[int] = []
    real = file_ask._connect

    def connect(ds: Dataset):
        builds.append(len(ds.memories))
        return real(ds)

    monkeypatch.setattr(file_ask, "_connect", connect)
    src = FileSource([write_snapshot(tmp_path / "snap.json", marker=tmp_path.name)])
    src.load()
    assert builds == [] and counted == []  # nothing before the first question
    ids(src, "Postgres")
    assert builds == [6] and counted == [7]  # six memories and one document, embedded once
    for question in ("SQL server choice", "musical instrument", "Ana"):
        ids(src, question)
    assert builds == [6] and counted == [7]  # later questions embed only themselves
    src.load(refresh=True)  # a new load of the same content: a new index, the same vectors
    assert ids(src, "SQL server choice")[0] == "m-atlas"
    assert builds == [6, 6] and counted == [7]
    src.close()
    assert src._ask._index is None


def test_a_mem0_history_file_answers(tmp_path):
    src = file_source([("history.db", write_history(tmp_path / "history.db").read_bytes())])
    assert isinstance(src, Mem0HistorySource)
    dog = src.search("dog Rex").hits
    assert dog[0].text == "Has a dog <b>Rex</b>" and dog[0].record is not None
    assert [h.id for h in src.search("green tea").hits] == ["h2", "h1"]  # every version
    index = src._ask.index(src.load())
    assert index.search("pet", mode="words").hits == []
    assert [h.id for h in src.search("pet").hits] == ["m-dog"]  # by meaning alone


def test_asking_a_snapshot_opens_no_socket(tmp_path):
    path = write_snapshot(tmp_path / "snap.json")
    out = run_without_network(
        "from memscope.sources import FileSource\n"
        f"src = FileSource([{str(path)!r}])\n"
        "print('FIRST', src.search('SQL server choice').hits[0].id)\n")
    assert "FIRST m-atlas" in out
    assert "SOCKETS 0" in out


def test_the_explorer_asks_a_snapshot_file(fresh_data_dir, tmp_path):
    """The real home page on a snapshot file: the Ask box is there and answers by
    meaning; the answer is highlighted in the graph."""
    from apptest_support import run_page
    from test_ask_add_apptest import ask, highlighted

    from components.state.connection import Connection

    blob = write_snapshot(tmp_path / "snap.json").read_bytes()
    digest = hashlib.sha256(blob).hexdigest()
    at = run_page(connection=Connection("file", files=(("snap.json", digest),)),
                  file_blobs={digest: blob})
    assert not [c for c in at.caption if c.value.startswith("Ask is unavailable")]
    ask(at, "SQL server choice")
    hits = [str(b.key) for b in at.button if b.key and b.key.startswith("ask-hit-")]
    assert hits and hits[0].endswith("m-atlas")
    assert "m-atlas" in highlighted(at)


def test_closing_while_another_thread_asks_loses_no_question(tmp_path, monkeypatch):
    """A recall run's worker asks while the page closes the source (or loads other data
    into it): the close waits for the question in flight, and a later question builds
    the index again; no question fails on a closed database. (Each question is slowed a
    little before it reaches its index, so a close lands in between if it can.)"""
    src = FileSource([write_snapshot(tmp_path / "snap.json", "closing race")])
    src.search("Postgres")  # the index and its vectors, built once
    plain = file_ask.AskIndex.search

    def slowed(self, query, **kwargs):
        time.sleep(0.002)
        return plain(self, query, **kwargs)

    monkeypatch.setattr(file_ask.AskIndex, "search", slowed)
    failures: list[BaseException] = []
    stop = threading.Event()

    def ask() -> None:
        while not stop.is_set():
            try:
                assert src.search("Postgres").hits
            except BaseException as exc:  # recorded for the assertion
                failures.append(exc)
                return

    worker = threading.Thread(target=ask)
    worker.start()
    try:
        for _ in range(200):
            src.close()
            time.sleep(0.001)
    finally:
        stop.set()
        worker.join(timeout=60)
    assert failures == []
    assert src.search("Postgres").hits[0].id == "m-atlas"
