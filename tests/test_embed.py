"""The offline embedder (memscope/meaning/embed.py): shape, normalisation, one model per
process, and no socket opened while loading and embedding."""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
from network_guard import run_without_network

from memscope.meaning import embed as embed_module
from memscope.meaning.embed import DIM, embed, similarity

ROOT = Path(__file__).resolve().parent.parent

def test_loading_and_embedding_open_no_socket():
    out = run_without_network(
        "from memscope.meaning.embed import embed\n"
        "rows = embed(['Maya flies to Lisbon on Friday.', '玛雅下周去里斯本'])\n"
        "print('SHAPE', rows.shape)")
    assert "SHAPE (2, 256)" in out
    assert "SOCKETS 0" in out


def test_a_missing_tokenizer_file_is_one_sentence_and_no_download():
    """With the shipped file missing, the loader would download it: it must refuse."""
    out = run_without_network(
        "from memscope.meaning import embed as e\n"
        "e.shutil.copyfile = lambda *a, **k: None\n"  # the cache folder stays empty
        "try:\n"
        "    e.embed(['x'])\n"
        "except e.EmbedderUnavailable as exc:\n"
        "    print('REFUSED', exc)\n")
    assert "REFUSED The offline text model" in out
    assert "SOCKETS 0" in out


def test_rows_are_unit_float32_in_order():
    texts = ["Maya is vegetarian.", "Atlas uses PostgreSQL.", "Maya is vegetarian."]
    rows = embed(texts)
    assert rows.shape == (3, DIM) and rows.dtype == np.float32
    assert np.allclose(np.linalg.norm(rows, axis=1), 1.0, atol=1e-5)
    assert np.allclose(rows[0], rows[2])  # order kept through the length sort
    assert not np.allclose(rows[0], rows[1])
    assert np.allclose(embed(texts[1:2])[0], rows[1], atol=1e-6)  # batch-independent


def test_empty_input_and_empty_text():
    assert embed([]).shape == (0, DIM)
    rows = embed(["", "coffee"])
    assert not np.isnan(rows).any()
    assert float(np.abs(rows[0]).sum()) == 0.0
    assert similarity("", "coffee") == 0.0


def test_a_paraphrase_is_closer_than_another_topic():
    trip = "Maya flies to Lisbon on Friday for the conference."
    assert similarity(trip, "Where is Maya travelling?") > similarity(
        trip, "Which database does the Atlas project use?")


def test_one_model_per_process_under_concurrent_first_use(monkeypatch):
    loads: list[int] = []

    def slow_load():
        loads.append(1)
        time.sleep(0.05)
        return object()

    for thread in [t for t in threading.enumerate() if t.name == "memscope-vectors"]:
        thread.join()  # a store opened by an earlier test may still be embedding
    monkeypatch.setattr(embed_module, "_model", None)
    monkeypatch.setattr(embed_module, "_load", slow_load)
    got: list[object] = []
    threads = [threading.Thread(target=lambda: got.append(embed_module.model()))
               for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(loads) == 1
    assert len({id(m) for m in got}) == 1


def test_importing_the_library_leaves_the_root_logger_alone():
    out = subprocess.run(
        [sys.executable, "-c",
         "import logging\n"
         "from memscope.meaning.embed import _quiet_import\n"
         "_quiet_import()\n"
         "root = logging.getLogger()\n"
         "print(len(root.handlers), root.level)"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True).stdout
    assert out.split() == ["0", str(logging.WARNING)]


def test_what_other_threads_log_during_the_import_is_printed_once():
    """The app's own handler prints a record once, even when it is logged while the
    library's import runs its basicConfig (seen as every log line doubled in a server
    whose warm-up logged during the import)."""
    script = (
        "import logging, sys, threading\n"
        "log = logging.getLogger('memscope')\n"
        "log.setLevel(logging.INFO)\n"
        "h = logging.StreamHandler(sys.stdout); h.setFormatter(logging.Formatter('%(message)s'))\n"
        "log.addHandler(h)\n"
        "import logging as _l\n"
        "real = _l.basicConfig\n"
        "calls = []\n"
        "def slow(*a, **k):\n"
        "    real(*a, **k)\n"
        "    calls.append(1)\n"
        "    if len(calls) == 1:  # the library calls it more than once\n"
        "        t = threading.Thread(target=lambda: log.info('hello from a thread'))\n"
        "        t.start(); t.join()\n"
        "_l.basicConfig = slow\n"
        "from memscope.meaning.embed import _quiet_import\n"
        "_quiet_import()\n"
        "assert calls, 'the library configures logging when imported'\n")
    run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, check=True)
    said = (run.stdout + run.stderr).count("hello from a thread")
    assert said == 1, run.stdout + run.stderr
