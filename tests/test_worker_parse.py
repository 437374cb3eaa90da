"""Heavy parsing off the shared interpreter (issue 14, item 6): a snapshot of 2 MB or more
is parsed in a worker process, with the same records and the same one-sentence errors as
in-process; a worker that dies is one sentence too, and the next parse works again."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT
from test_hostile_input import CASES, Case

from memscope.sources import FileError, FileSource, worker
from memscope.sources.results import LoadResult

SM = FIXTURES / "supermemory"
SP = FIXTURES / "spomory"
IN_PROCESS = 1 << 40
FIXTURE_SETS = {
    "supermemory pages": [SM / f"documents_page{i}.json" for i in (1, 2, 3)],
    "passport": [SP / "passport.json"],
    "export response": [SP / "export_response.json"],
    "graph response": [SP / "graph_response.json"],
    "mixed": [SM / "documents_page1.json", SP / "passport.json"],
}


@pytest.fixture(autouse=True)
def fresh_pool():
    worker.shutdown()
    yield
    worker.shutdown()


def _both(paths: list[Path]) -> tuple[LoadResult, LoadResult]:
    inside = FileSource(paths, offload_bytes=IN_PROCESS).load()
    assert worker.pool_pids() == []  # in-process: no worker started
    outside = FileSource(paths, offload_bytes=0).load()
    pids = worker.pool_pids()
    assert pids and os.getpid() not in pids
    return inside, outside


def _same(a: LoadResult, b: LoadResult) -> None:
    assert a.dataset == b.dataset  # records, spaces, profiles, duplicates and the report
    assert (a.raw_passport, a.label, a.source) == (b.raw_passport, b.label, b.source)


def _error(src: FileSource) -> str:
    with pytest.raises(FileError) as err:
        src.load()
    return str(err.value)


def _one_sentence(text: str) -> None:
    assert text.endswith(".") and "\n" not in text and "Traceback" not in text


@pytest.mark.parametrize("name", sorted(FIXTURE_SETS))
def test_fixtures_parse_the_same_in_a_worker(name: str):
    paths = [p for p in FIXTURE_SETS[name] if p.exists()]
    assert paths
    inside, outside = _both(paths)
    assert inside.dataset.documents or inside.dataset.memories or inside.dataset.entities
    _same(inside, outside)


@pytest.mark.parametrize("case", [c for c in CASES if c.name.startswith(
    ("surrogates", "deep-document", "deep-whole", "version-5000", "dates-memory-0",
     "dates-passport-5", "confidence-400"))], ids=lambda c: c.name)
def test_hostile_files_parse_the_same_in_a_worker(case: Case, tmp_path):
    inside, outside = _both([case.write(tmp_path)])
    _same(inside, outside)
    said = " | ".join([s.reason for s in outside.dataset.report.skipped]
                      + [i.message for i in outside.dataset.report.issues])
    assert case.says in said


@pytest.mark.parametrize("content", [
    b"{not json", b'{"hello": 1}', b"\xff\xfe\x00", b"[" * 5000, b"1" * 5000,
])
def test_bad_files_give_the_same_sentence_in_a_worker(content: bytes):
    files = [("bad.json", content)]
    inside = _error(FileSource.from_bytes(files, offload_bytes=IN_PROCESS))
    outside = _error(FileSource.from_bytes(files, offload_bytes=0))
    assert outside == inside
    assert outside.startswith("bad.json is ")
    _one_sentence(outside)


def _big_feed(min_bytes: int) -> bytes:
    """A real documents page of at least ``min_bytes``."""
    docs, size, i = [], 0, 0
    while size < min_bytes:
        mems = [{"id": f"m{i}_{j}", "memory": f"memory {i}/{j} " + "x" * 200,
                 "createdAt": "2026-01-02T03:04:05Z"} for j in range(5)]
        doc = {"id": f"d{i}", "title": f"doc {i}", "memoryEntries": mems}
        size += len(json.dumps(doc))
        docs.append(doc)
        i += 1
    return json.dumps({"documents": docs}).encode()


def test_only_large_inputs_go_to_a_worker():
    small = (SM / "documents_page1.json").read_bytes()
    assert len(small) < worker.OFFLOAD_BYTES
    FileSource.from_bytes([("small.json", small)]).load()
    assert worker.pool_pids() == []
    big = _big_feed(worker.OFFLOAD_BYTES)
    assert len(big) >= worker.OFFLOAD_BYTES
    result = FileSource.from_bytes([("big.json", big)]).load()
    assert worker.pool_pids(), "a file over the threshold is parsed in a worker"
    assert len(result.dataset.memories) == 5 * len(result.dataset.documents) > 0
    same = FileSource.from_bytes([("big.json", big)], offload_bytes=IN_PROCESS).load()
    _same(same, result)


def test_a_job_that_fails_is_one_sentence():
    with pytest.raises(FileError) as err:
        worker.run_in_worker(int, "not a number", what="odd.json")
    assert str(err.value) == "Could not read odd.json: parsing failed (ValueError)."


def test_a_worker_that_exits_is_one_sentence_and_the_next_parse_works():
    with pytest.raises(FileError) as err:
        worker.run_in_worker(os._exit, 3, what="crash.json")
    _one_sentence(str(err.value))
    assert str(err.value).startswith("Could not read crash.json: the parsing process stopped")
    page = SM / "documents_page1.json"
    assert FileSource([page], offload_bytes=0).load().dataset.documents


def test_a_worker_killed_mid_parse_is_one_sentence():
    failure: list[BaseException] = []

    def slow_job() -> None:
        try:
            worker.run_in_worker(time.sleep, 60, what="slow.json")
        except BaseException as exc:  # recorded for the assertion
            failure.append(exc)

    thread = threading.Thread(target=slow_job)
    thread.start()
    deadline = time.monotonic() + 60
    while not worker.pool_pids() and time.monotonic() < deadline:
        time.sleep(0.05)
    pids = worker.pool_pids()
    assert pids
    time.sleep(0.5)  # let the worker pick the job up
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    thread.join(30)
    assert not thread.is_alive()
    assert len(failure) == 1 and isinstance(failure[0], FileError)
    _one_sentence(str(failure[0]))
    assert "slow.json" in str(failure[0])


UNGUARDED_APP = '''
import sys
from pathlib import Path
if __name__ != "__main__":  # a worker ran the app script
    Path(sys.argv[1]).write_text("ran")
from memscope.sources import FileSource
page = Path(sys.argv[2])
result = FileSource([page], offload_bytes=0).load()
print(len(result.dataset.documents))
'''


def test_workers_do_not_rerun_an_unguarded_main_script(tmp_path):
    """Streamlit runs the app as an unguarded ``__main__`` with a ``__file__``; a spawned
    worker must not execute it again."""
    app = tmp_path / "app.py"
    app.write_text(UNGUARDED_APP, encoding="utf-8")
    marker = tmp_path / "ran"
    proc = subprocess.run([sys.executable, str(app), str(marker), str(SM / "documents_page1.json")],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout.strip()) > 0
    assert not marker.exists()
