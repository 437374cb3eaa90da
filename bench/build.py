"""Graph build time vs JSON parse time, on demo stores of 1k, 10k and 50k memories.

Prints figures; asserts nothing. Run: ``.venv/bin/python bench/build.py [--sizes 1000,10000]``.
Target (issue "Core and skeleton"): graph build ≤ 5 × the JSON parse of the same input.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memscope.demo.generator import generate
from memscope.graph.build import build_graph
from memscope.graph.chains import build_chains
from memscope.graph.findings import find_all
from memscope.records.dataset import from_feed_pages

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
T = TypeVar("T")


def _timed(fn: Callable[[], T]) -> tuple[float, T]:
    """Wall time of one run of ``fn`` with the GC off, and its result."""
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter()
        result = fn()
        return time.perf_counter() - t0, result
    finally:
        gc.enable()


def best_of(fn: Callable[[], T], repeat: int) -> tuple[float, T]:
    """Best wall time of ``repeat`` runs (at least one; GC off while timing), and the last
    result."""
    best, result = _timed(fn)
    for _ in range(repeat - 1):
        elapsed, result = _timed(fn)
        best = min(best, elapsed)
    return best, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    header = (f"{'memories':>9} {'docs':>6} {'json MB':>8} {'json.loads':>10} {'records':>8} "
              f"{'graph':>7} {'chains':>7} {'findings':>8} {'graph/json':>10} "
              f"{'(rec+graph)/json':>16}")
    print(header)
    for size in (int(s) for s in args.sizes.split(",")):
        demo = generate(7, now=NOW, n_documents=max(60, size // 5), n_memories=size)
        text = json.dumps(demo.to_feed_pages(limit=200))
        t_json, pages = best_of(lambda text=text: json.loads(text), args.repeat)
        t_rec, ds = best_of(lambda pages=pages: from_feed_pages(pages), args.repeat)
        t_graph, mg = best_of(lambda ds=ds: build_graph(ds), args.repeat)
        t_chain, chains = best_of(lambda ds=ds: build_chains(ds.memories), args.repeat)
        t_find, _ = best_of(lambda mg=mg, chains=chains: find_all(mg, chains, NOW), args.repeat)
        print(f"{len(ds.memories):>9} {len(ds.documents):>6} {len(text) / 1e6:>8.1f} "
              f"{t_json:>9.3f}s {t_rec:>7.3f}s {t_graph:>6.3f}s {t_chain:>6.3f}s "
              f"{t_find:>7.3f}s {t_graph / t_json:>9.1f}x {(t_rec + t_graph) / t_json:>15.1f}x")


if __name__ == "__main__":
    main()
