"""Local Ask's quality and speed: recall@5 and MRR on tests/labelled/ask_eval.json for
words alone (BM25), meaning alone (embeddings) and the hybrid; then, on a store of
50,000 memories, the time to embed every text once and the time of one Ask.

The evaluation store is the demo (the set's seed and time) plus the set's Chinese facts,
one document each in their own space. A question's rank is that of the first memory hit
that answers it (memory hits only, as the Ask panel lists them first); recall@5 is the
share of its answers among the first five memory hits. Prints figures; asserts nothing
(tests/test_ask_quality.py asserts the hybrid's margin).

    .venv/bin/python bench/ask.py [--size 50000] [--asks 20] [--no-scale]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memscope.demo.seeding import seed_store  # noqa: E402
from memscope.meaning.embed import embed  # noqa: E402
from memscope.store import search as store_search  # noqa: E402
from memscope.store import vectors  # noqa: E402
from memscope.store.store import Store  # noqa: E402

EVAL = ROOT / "tests" / "labelled" / "ask_eval.json"
OUT = ROOT / "bench" / "out"
MODES = (store_search.WORDS, store_search.MEANING, store_search.HYBRID)
KINDS = ("literal", "paraphrase", "chinese")


@dataclass(frozen=True)
class Scores:
    """Recall@5 and MRR over some questions."""

    recall5: float
    mrr: float
    n: int


def eval_set(path: Path = EVAL) -> dict[str, Any]:
    """The evaluation set (questions, their answers, the Chinese facts)."""
    return json.loads(path.read_text(encoding="utf-8"))


def eval_store(folder: Path, data: dict[str, Any] | None = None) -> Store:
    """The demo store of the evaluation set, with its Chinese facts, in ``folder``."""
    data = data or eval_set()
    store = Store.create(folder / "ask-eval.db")
    seed_store(store, seed=data["demo"]["seed"], now=datetime.fromisoformat(data["demo"]["now"]))
    store.load_records([{"id": f"doc_{m['id']}", "containerTags": [data["chinese_space"]],
                         "memoryEntries": [{"id": m["id"], "memory": m["memory"]}]}
                        for m in data["chinese_memories"]])
    return store


@contextmanager
def reading(store: Store) -> Iterator[sqlite3.Connection]:
    """A read connection on ``store`` as :mod:`memscope.store.store` opens one."""
    conn = sqlite3.connect(store.path, timeout=30, isolation_level=None)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("BEGIN")
        yield conn
    finally:
        conn.close()


def ranked(conn: sqlite3.Connection, question: str, mode: str, *, limit: int = 50,
           backend: str = store_search.FTS5) -> list[str]:
    """The memory ids Ask lists for ``question`` ranked by ``mode``, best first."""
    found = store_search.search(conn, question, limit=limit, backend=backend, mode=mode)
    return [h["id"] for h in found["hits"] if h["kind"] == "memory"]


def score(rankings: list[tuple[list[str], list[str]]]) -> Scores:
    """Recall@5 and MRR of ``(ranked ids, relevant ids)`` pairs.

    >>> score([(["a", "b"], ["b"]), (["c"], ["d", "c"])])
    Scores(recall5=0.75, mrr=0.75, n=2)
    """
    if not rankings:
        return Scores(0.0, 0.0, 0)
    recall = mrr = 0.0
    for ids, relevant in rankings:
        rel = set(relevant)
        recall += len(rel & set(ids[:5])) / len(rel)
        mrr += next((1 / (i + 1) for i, x in enumerate(ids) if x in rel), 0.0)
    n = len(rankings)
    return Scores(round(recall / n, 3), round(mrr / n, 3), n)


def evaluate(store: Store, data: dict[str, Any] | None = None
             ) -> dict[str, dict[str, Scores]]:
    """``{mode: {kind or "all": Scores}}`` over the evaluation set."""
    data = data or eval_set()
    out: dict[str, dict[str, Scores]] = {}
    with reading(store) as conn:
        for mode in MODES:
            pairs = {kind: [(ranked(conn, q["q"], mode), q["relevant"])
                            for q in data["questions"] if q["kind"] == kind]
                     for kind in KINDS}
            out[mode] = {kind: score(p) for kind, p in pairs.items()}
            out[mode]["all"] = score([x for p in pairs.values() for x in p])
    return out


def _quality() -> None:
    data = eval_set()
    with tempfile.TemporaryDirectory() as tmp:
        results = evaluate(eval_store(Path(tmp), data), data)
    counts = {k: sum(q["kind"] == k for q in data["questions"]) for k in KINDS}
    print(f"Ask quality on {EVAL.relative_to(ROOT)} ({len(data['questions'])} questions: "
          + ", ".join(f"{n} {k}" for k, n in counts.items()) + ")")
    print(f"{'':10}" + "".join(f"{k:>22}" for k in (*KINDS, "all")))
    for mode, by_kind in results.items():
        cells = "".join(f"{f'R@5 {s.recall5:.3f} MRR {s.mrr:.3f}':>22}"
                        for s in (by_kind[k] for k in (*KINDS, "all")))
        label = {"words": "BM25", "meaning": "embeddings", "hybrid": "hybrid"}[mode]
        print(f"{label:10}{cells}")
    gain = results["hybrid"]["all"].mrr - results["words"]["all"].mrr
    print(f"hybrid MRR - BM25 MRR: {gain:+.3f}")


def _scale_store(size: int) -> Store:
    """A demo-shaped store of ``size`` memories, generated once into bench/out/."""
    path = OUT / f"ask-{size}" / "memscope.db"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        seed_store(Store.create(path), seed=7, n_documents=size // 5, n_memories=size)
        print(f"generated a store of {size:,} memories in {time.perf_counter() - t0:.1f} s")
    store = Store(path)
    store.init()
    return store


def _scale(size: int, asks: int) -> None:
    store = _scale_store(size)  # opening it started building its vectors: let it end
    for thread in [t for t in threading.enumerate() if t.name == "memscope-vectors"]:
        thread.join()
    embed(["the model, loaded once"])
    for kept in store.path.parent.glob("derived/vectors-*.npz"):
        kept.unlink()  # embed from scratch
    vectors._held.clear()  # a cold process: nothing held, nothing kept
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall times "
          "grow with it; CPU times are this process's own)")
    with reading(store) as conn:
        t0, c0 = time.perf_counter(), time.process_time()
        vecs = vectors.current(conn)
        embed_s, embed_cpu = time.perf_counter() - t0, time.process_time() - c0
    n_mem = sum(k == "memory" for k in vecs.kinds)
    print(f"embedding every text once at {n_mem:,} memories ({len(vecs):,} texts with the "
          f"documents; {vecs.embedded:,} embedded): {embed_s:.2f} s wall, {embed_cpu:.2f} s "
          "CPU (all threads)")
    vectors._held.clear()
    with reading(store) as conn:
        t0 = time.perf_counter()
        vecs = vectors.current(conn)
        print(f"reading them back from derived/ (a fresh server; {vecs.embedded} embedded): "
              f"{time.perf_counter() - t0:.2f} s")
    questions = [q["q"] for q in eval_set()["questions"] if q["kind"] != "chinese"]
    for mode in MODES:
        times, cpu = [], []
        for question in (questions * 2)[:asks]:
            with reading(store) as conn:
                t0, c0 = time.perf_counter(), time.thread_time()
                store_search.search(conn, question, limit=10, mode=mode)
                times.append(time.perf_counter() - t0)
                cpu.append(time.thread_time() - c0)
        print(f"Ask at {n_mem:,} memories, {mode:8}: wall median "
              f"{statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms; "
              f"CPU median {statistics.median(cpu) * 1000:.0f} ms, max "
              f"{max(cpu) * 1000:.0f} ms ({len(times)} questions)")
    before = store.data_version()
    store.add_document(f"Maya is learning to sail in Cascais (note {before}).",
                       "sm_project_personal")
    with reading(store) as conn:
        t0 = time.perf_counter()
        vectors.current(conn)  # the previous version's: a thread builds the new ones
        answer_s = time.perf_counter() - t0
        uid, version = vectors._stamp(conn)
        t0 = time.perf_counter()
        vecs = vectors._ensure(conn, uid, f"{uid}:{version}")
        print(f"after an Add (data version {before} → {version}): the vectors for a question "
              f"in {answer_s * 1000:.0f} ms; the new version's built in "
              f"{time.perf_counter() - t0:.2f} s ({vecs.embedded} texts embedded)")


def main(argv: list[str] | None = None) -> int:
    """Print the figures; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=50_000, help="memories in the big store")
    ap.add_argument("--asks", type=int, default=20, help="questions timed per mode")
    ap.add_argument("--no-scale", action="store_true", help="quality figures only")
    args = ap.parse_args(argv)
    _quality()
    if not args.no_scale:
        _scale(args.size, args.asks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
