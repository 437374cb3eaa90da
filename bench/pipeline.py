"""The view pipeline's costs at a large size: a first view, a click, an expansion, a
presenter-mode first view and an epoch change in presenter mode, an as-of day.

Prints figures (and the steps each action recomputed); asserts nothing. Run:
``.venv/bin/python bench/pipeline.py [--memories 20000]``. The data is the demo
generator's, loaded as a snapshot file; nothing is kept on disk but a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memscope import kept
from memscope.demo.generator import generate
from memscope.graph.analysis import analyse
from memscope.lenses.presenter import mask
from memscope.pipeline.core import Pipeline
from memscope.pipeline.keeping import Keeper
from memscope.pipeline.loads import Loads
from memscope.pipeline.request import ViewRequest
from memscope.sources.files import FileSource
from memscope.view.build import cluster_groups

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
T = TypeVar("T")


def _step(p: Pipeline, label: str, fn: Callable[[], T]) -> T:
    before = Counter(p.memo.calls)
    t0 = time.perf_counter()
    out = fn()
    took = time.perf_counter() - t0
    grown = sorted(k for k, v in p.memo.calls.items() if v > before[k])
    print(f"{label:<44} {took:7.2f} s   recomputed: {', '.join(grown) or 'nothing'}")
    return out


def demo_pipeline(n: int) -> tuple[Pipeline, FileSource]:
    """A pipeline as the app's (the heap settled after a large load and after the first
    view) and a demo snapshot of ``n`` memories to load, both in a new temp folder."""
    folder = Path(tempfile.mkdtemp(prefix="memscope-bench-"))
    demo = generate(7, now=NOW, n_documents=max(60, n // 5), n_memories=n)
    snapshot = folder / "demo.json"
    snapshot.write_text(json.dumps({"documents": demo.documents}), encoding="utf-8")
    p = Pipeline(Loads(keep=None, settle=kept.settle_heap), Keeper(folder / "data"),
                 clock=lambda: NOW)
    return p, FileSource([snapshot])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=20_000)
    args = parser.parse_args()
    n = args.memories
    p, source = demo_pipeline(n)
    print(f"{n:,} memories")
    ref = _step(p, "load (parse the snapshot)", lambda: p.loads.load(source))
    req: ViewRequest = _step(p, "request (base graph, epoch)",
                             lambda: p.first(ref, source.identity()))
    print(f"  {p.get('base', req).graph.graph.number_of_nodes():,} nodes")
    _step(p, "first view (layout, clusters, overview)", lambda: p.view(req))
    kept.settle_heap(free_old=False)
    some = next(iter(p.get("visible", req)))
    _step(p, "click a node", lambda: p.view(replace(req, selected=some)))
    _step(p, "expand a hexagon", lambda: p.view(replace(req, expanded=frozenset({"c1"}))))
    _step(p, "search", lambda: p.view(replace(req, query="lisbon")))
    masked = replace(req, presenter=True)
    _step(p, "presenter mode, first view", lambda: p.view(masked))
    base = p.get("base", req)
    later = next((t for t in base.transitions if t > NOW), None)
    if later is not None:
        after = later + timedelta(seconds=1)
        _step(p, "presenter mode, the next state epoch",
              lambda: p.view(replace(masked, now=after, epoch=base.epoch(after))))
        _step(p, "today, the next state epoch",
              lambda: p.view(replace(req, now=after, epoch=base.epoch(after))))
    else:
        print("(no state transition after now: epoch change not measured)")
    # what the explorer before the pipeline redid at every state epoch in presenter mode:
    # mask and analyse again, then cluster and name the masked graph (twice: the Painter
    # and the explorer's own clusters; once here)
    t0 = time.perf_counter()
    again = analyse(mask(base.dataset), NOW)
    cluster_groups(again)
    print(f"{'(before: presenter epoch, mask+analyse+cluster)':<44} "
          f"{time.perf_counter() - t0:7.2f} s")
    span = base.date_range
    if span is not None:
        day = span[0] + (span[1] - span[0]) / 2
        _step(p, f"as of {day}", lambda: p.view(replace(req, as_of=day)))


if __name__ == "__main__":
    main()
