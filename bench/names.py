"""Benchmark: naming every cluster of a 50k-memory demo (phrases, memscope.view.names).

Prints figures, asserts nothing::

    .venv/bin/python bench/names.py                  # 10,000 documents, 50,000 memories
    .venv/bin/python bench/names.py 2000 10000       # other sizes (documents memories)

The demo generator's data goes through the real core (feed pages → analysis → the
explorer's cluster grouping); the figure is :func:`cluster_names` alone, best of three,
then how many names are distinct, how many needed a number, and the longest.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memscope.demo.generator import generate  # noqa: E402
from memscope.graph.analysis import analyse  # noqa: E402
from memscope.records.dataset import from_feed_pages  # noqa: E402
from memscope.view.build import cluster_groups  # noqa: E402
from memscope.view.names import cluster_names  # noqa: E402

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
T = TypeVar("T")


def _timed(label: str, call: Callable[[], T]) -> T:
    start = time.perf_counter()
    out = call()
    print(f"{label:<34} {time.perf_counter() - start:8.3f} s")
    return out


def main(n_documents: int = 10_000, n_memories: int = 50_000) -> None:
    """Generate, analyse, group and name; print each step's time and a few names."""
    demo = _timed("generate", lambda: generate(7, now=NOW, n_documents=n_documents,
                                               n_memories=n_memories))
    an = _timed("parse + analyse", lambda: analyse(from_feed_pages(demo.to_feed_pages()),
                                                   NOW))
    clusters, _ = _timed("cluster_groups (grouping + names)", lambda: cluster_groups(an))
    best = float("inf")
    names: dict[str, str] = {}
    for _ in range(3):
        start = time.perf_counter()
        names = cluster_names(an, clusters)
        best = min(best, time.perf_counter() - start)
    sizes = Counter(v for v in clusters.values() if v)
    print(f"{'cluster_names (best of 3)':<34} {best:8.3f} s")
    print(f"{len(an.dataset.memories)} memories, {len(an.dataset.documents)} documents, "
          f"{len(sizes)} clusters, {sum(1 for v in clusters.values() if not v)} unlinked")
    named = [names[k] for k in sizes]
    print(f"{len({n.casefold() for n in named})} distinct names, "
          f"{sum(1 for n in named if n.endswith(')'))} with a number, "
          f"{sum(1 for n in named if ': ' in n)} with a colon, "
          f"longest {max(map(len, named), default=0)} characters")
    for key, size in sizes.most_common(8):
        print(f"  {key:>6} ({size:>4} nodes): {names[key]}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
