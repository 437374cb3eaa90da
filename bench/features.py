"""Timings of the features that read a whole store (first asked for by issue 19, "Why does it
believe that?"): trails, the recall map, playback, compare and the slideshow, on embedded
demo stores of ``--sizes`` memories.

Each size uses the demo store of :func:`scale.cached_store` (the demo generator, seed 7,
documents = memories / 5; generated once into ``bench/out/scale-<n>/``), loaded through
:class:`~memscope.sources.EmbeddedSource` and analysed as the app does. Per size it prints:

- ``trail``: :func:`memscope.reports.why.trail` on ``--trails`` memories spread evenly
  over the sorted ids: median, p95 and max in ms; then ``pack_trails`` of the longest
  chain (its ids as the pack's selection) in ms, with how many trails it wrote.
- ``recall``: the demo question set (``memscope/demo/questions.txt``) through
  :func:`memscope.reports.recall.run_questions`: the embedded store's Ask
  (:meth:`EmbeddedSource.search`, BM25) at 1, 4 and 8 workers, then the sandbox
  (:mod:`memscope.sandbox`, real HTTP on 127.0.0.1 over the same store file) through
  Supermemory v5's search and Spomory's search (a generated passport of memories / 10
  facts, :func:`~memscope.sandbox.data.synthetic_passport`) at 1 and 4
  workers. Wall time of the whole run, questions per second, the memories (facts) recalled
  at least once, the questions that failed. The sandbox is one Python process with the
  bench, so more workers share its GIL, and its search scans every memory and chunk of a
  space in Python (about 1.3 s a question at 20,000 memories on a loaded machine): the
  figures say the client copes, not how fast a real service is. Only at sizes up to
  ``--sandbox-max`` (default 5,000, to keep the default run within about 3 minutes).
- ``timeline``: :func:`memscope.view.timeline.build_timeline` on the drawn view (the
  overview at ``--budget`` nodes, :func:`memscope.view.budget.overview_of`, every memory
  counted), then on the overview at the largest budget (20,000: more memories drawn one
  by one, fewer inside collapsed clusters), then on the full view (every node drawn,
  :func:`memscope.view.build.build_view`; the most a payload can carry): first call and
  second call in ms (the very first call also computes every memory's states, which
  are kept per graph, so later views' first calls are warm), the payload's JSON size in
  kB, the days and the node rows (a row per drawn node with a date; a collapsed cluster
  has none, so a view of clusters only plays the counts and nothing else). The layout
  and clusters are read from the store's folder (``derived/``) or computed and saved
  there first (the ``setup`` time).
- ``compare``: (a) a snapshot vs live: the live load saved as a snapshot
  (:func:`memscope.sources.snapshot_bytes`), ~10 % of its documents dropped and 2 % of its
  memory texts changed, read back through :class:`~memscope.sources.FileSource`; then
  :func:`memscope.lenses.compare.compare` (each side's graph given) and the differences
  counted; (b) as of A vs as of B (:func:`compare_moments` at the first third and the
  last tenth of the data's span); (c) :func:`memscope.export.compare.comparison_csv` of
  (a): ms and kB.
- ``slideshow``: a 50-step show (the maximum) over memories, captions included:
  :func:`slideshow_bytes` + :func:`read_slideshow` and :func:`play_payload` in ms, file kB.

Wall clock (``time.perf_counter``); on a shared machine the neighbours' work is counted
too, so the load average is printed. Prints figures; asserts nothing. Loopback only.

    .venv/bin/python bench/features.py [--sizes 1000,5000,20000] [--trails 200]
                                      [--budget 3000] [--sandbox-max 5000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from pydantic import SecretStr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scale import NOW, cached_store  # noqa: E402

from memscope import kept  # noqa: E402
from memscope.export.compare import comparison_csv  # noqa: E402
from memscope.graph.analysis import Analysis, analyse  # noqa: E402
from memscope.lenses.compare import compare, compare_moments  # noqa: E402
from memscope.records.dataset import Dataset  # noqa: E402
from memscope.reports.recall import read_questions, run_questions, source_search  # noqa: E402
from memscope.reports.why import pack_trails, trail  # noqa: E402
from memscope.sandbox import Sandbox  # noqa: E402
from memscope.sandbox.data import synthetic_passport  # noqa: E402
from memscope.settings import STORE_FILE  # noqa: E402
from memscope.sources import (  # noqa: E402
    EmbeddedSource,
    FileSource,
    SpomoryConfig,
    SpomorySource,
    SupermemoryConfig,
    SupermemoryV5Source,
    snapshot_bytes,
)
from memscope.sources.base import Source  # noqa: E402
from memscope.store.store import Store  # noqa: E402
from memscope.view import derived  # noqa: E402
from memscope.view.budget import MAX_BUDGET, overview_of  # noqa: E402
from memscope.view.build import build_view  # noqa: E402
from memscope.view.slideshow import Slideshow, play_payload, read_slideshow, slideshow_bytes  # noqa: E402
from memscope.view.timeline import build_timeline  # noqa: E402

QUESTIONS = ROOT / "memscope" / "demo" / "questions.txt"
OUT = ROOT / "bench" / "out"


def ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(wall milliseconds, result) of one call."""
    t0 = time.perf_counter()
    out = fn()
    return (time.perf_counter() - t0) * 1000, out


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]


def trail_figures(an: Analysis, count: int) -> None:
    """Trails of ``count`` memories spread over the ids, and the longest chain's pack."""
    ids = sorted(an.dataset.memories)
    chosen = ids[::max(1, len(ids) // count)][:count]
    took = [ms(lambda m=m: trail(an, m))[0] for m in chosen]
    print(f"  trail       {len(took)} memories: median {statistics.median(took):.1f} ms, "
          f"p95 {p95(took):.1f} ms, max {max(took):.1f} ms")
    chain = max(an.chains.chains, key=lambda c: len(c.ids))
    t_pack, pack = ms(lambda: pack_trails(an, chain.ids))
    size = sum(len(t) for t in pack.values()) / 1000
    print(f"  pack_trails longest chain ({len(chain.ids)} versions): {t_pack:.1f} ms, "
          f"{len(pack)} trail(s), {size:.1f} kB of text")


def recall_row(name: str, questions: list[str], source: Source, an: Analysis,
               workers: tuple[int, ...]) -> None:
    """The question set through ``source``'s search at each worker count (after one
    warm-up question, so a first connection or cache fill is not in the figure)."""
    search = source_search(source, an)
    search(questions[0])
    for n in workers:
        wall, run = ms(lambda n=n: run_questions(questions, search, workers=n))
        hit = {i for o in run.outcomes for i in o.ids}
        print(f"  recall      {name:<22} {n} worker(s): {wall / 1000:6.2f} s, "
              f"{len(questions) / (wall / 1000):6.1f} q/s, {len(hit)} recalled, "
              f"{run.failed} failed")


def sandbox_recall(path: Path, questions: list[str], an: Analysis, facts: int) -> None:
    """Supermemory v5 and Spomory search through the sandbox over the store at ``path``
    and a generated passport of ``facts`` facts."""
    sandbox = Sandbox(Store(path), passport=synthetic_passport(facts)).start()
    try:
        cfg = {"base_url": sandbox.url, "timeout_s": 30.0}
        with SupermemoryV5Source(SupermemoryConfig(
                api_key=SecretStr(sandbox.supermemory_key), **cfg)) as v5:
            recall_row("sandbox Supermemory v5", questions, v5, an, (1, 4))
        with SpomorySource(SpomoryConfig(api_key=SecretStr(sandbox.spomory_key), **cfg)) as sp:
            t_load, load = ms(sp.load)
            sp_an = analyse(load.dataset, NOW)
            print(f"  (Spomory passport: {len(load.dataset.relations)} facts, loaded in "
                  f"{t_load:.0f} ms)")
            recall_row("sandbox Spomory", questions, sp, sp_an, (1, 4))
    finally:
        sandbox.stop()


def timeline_figures(an: Analysis, budget: int, folder: Path) -> None:
    """build_timeline on the drawn overview at ``budget`` and at the largest budget:
    first and second call, payload size (derived data read from, or saved to, ``folder``)."""
    t_d, d = ms(lambda: derived.load_or_compute(analysis=an, folder=folder))
    print(f"  timeline    (setup: layout and clusters {t_d:.0f} ms)")
    for cap in (budget, MAX_BUDGET, None):
        if cap is None:  # every node drawn: the most a timeline can carry
            t_ov, view = ms(lambda: build_view(an, positions=d.positions))
        else:
            t_ov, ov = ms(lambda cap=cap: overview_of(an, d.positions, d.clusters, d.labels,
                                                      budget=cap))
            view = ov.view
        t1, tl = ms(lambda view=view: build_timeline(an, view))
        t2, _ = ms(lambda view=view: build_timeline(an, view))
        if tl is None:
            print("  timeline    nothing has a date")
            return
        kb = len(json.dumps(tl, separators=(",", ":"))) / 1000
        name = "every node" if cap is None else f"budget {cap}"
        print(f"  timeline    {name}: drawn {len(view['nodes'])} nodes (view "
              f"{t_ov:.0f} ms): first {t1:.1f} ms, second {t2:.1f} ms, payload {kb:.1f} kB, "
              f"{tl['days']} days, {len(tl['nodes'])} node rows")


def changed_snapshot(live: Dataset) -> bytes:
    """``live`` as a snapshot file with every tenth document dropped and every 50th
    memory text changed (a stand-in for a snapshot taken before those changes)."""
    obj = json.loads(snapshot_bytes(live))
    docs = [d for i, d in enumerate(obj["documents"]) if i % 10 != 3]
    n = 0
    for doc in docs:
        for entry in doc.get("memoryEntries") or []:
            n += 1
            if n % 50 == 0:
                entry["memory"] = f"{entry.get('memory', '')} (as it was before)"
    obj["documents"] = docs
    return json.dumps(obj, ensure_ascii=False).encode("utf-8")


def compare_figures(an: Analysis) -> None:
    """A changed snapshot against live, as of A against as of B, and the CSV."""
    live = an.dataset
    t_save, data = ms(lambda: changed_snapshot(live))
    t_read, snap = ms(lambda: FileSource.from_bytes([("snapshot.json", data)]).load().dataset)
    snap_an = analyse(snap, NOW)
    t_cmp, diff = ms(lambda: compare(snap, live, graph_a=snap_an.graph.graph,
                                     graph_b=an.graph.graph))
    counts = ", ".join(f"{k} {v}" for k, v in diff.counts().items() if v)
    print(f"  compare     snapshot vs live ({len(data) / 1e6:.1f} MB snapshot; made in "
          f"{t_save:.0f} ms, read in {t_read:.0f} ms): compare {t_cmp:.0f} ms; {counts}")
    t_csv, csv = ms(lambda: comparison_csv(diff, ("snapshot", "live")))
    print(f"  compare     CSV of it: {t_csv:.0f} ms, {len(csv) / 1000:.0f} kB")
    dates = sorted(m.created_at for m in live.memories.values() if m.created_at is not None)
    span = dates[-1] - dates[0]
    t_a, t_b = dates[0] + span / 3, dates[-1] - span / 10
    t_m, moments = ms(lambda: compare_moments(live, t_a, t_b))
    counts = ", ".join(f"{k} {v}" for k, v in moments.counts().items() if v)
    print(f"  compare     as of {t_a:%Y-%m-%d} vs as of {t_b:%Y-%m-%d} "
          f"({(t_b - t_a) / timedelta(days=1):.0f} days apart): {t_m:.0f} ms; {counts}")


def slideshow_figures(an: Analysis) -> None:
    """A 50-step show over memories: save + read back, and the play payload."""
    ids = sorted(an.dataset.memories)
    show = Slideshow(title="Bench show")
    for i, m in enumerate(ids[::max(1, len(ids) // 50)]):
        show = show.added(m, f"Step {i + 1}: what this memory says about the project.")
    t_rt, (back, notes) = ms(lambda: read_slideshow(slideshow_bytes(show)))
    t_play, payload = ms(lambda: play_payload(back, set(ids)))
    print(f"  slideshow   {len(show.steps)} steps, {len(slideshow_bytes(show)) / 1000:.1f} kB: "
          f"save + read back {t_rt:.2f} ms ({len(notes)} notes), play payload "
          f"{t_play:.2f} ms ({len(payload['steps'])} steps)")


def run_size(size: int, args: argparse.Namespace, questions: list[str]) -> None:
    """Every figure for one store size."""
    folder = cached_store(size)
    path = folder / STORE_FILE
    source = EmbeddedSource(path)
    with kept.no_gc():
        t_load, load = ms(source.load)
        t_an, an = ms(lambda: analyse(load.dataset, NOW))
    kept.settle_heap()
    print(f"{len(an.dataset.memories):,} memories, {len(an.dataset.documents):,} documents "
          f"(load {t_load / 1000:.1f} s, analyse {t_an / 1000:.1f} s; load average "
          f"{os.getloadavg()[0]:.1f})", flush=True)
    trail_figures(an, args.trails)
    recall_row("embedded Ask", questions, source, an, (1, 4, 8))
    if size > args.sandbox_max:
        print(f"  recall      sandbox left out above {args.sandbox_max:,} memories "
              "(--sandbox-max; its search scans every memory in Python)")
    else:
        sandbox_recall(path, questions, an, max(12, size // 10))
    timeline_figures(an, args.budget, folder)
    compare_figures(an)
    slideshow_figures(an)
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,5000,20000",
                        help="memory counts, comma-separated (e.g. 1000,5000,20000,50000)")
    parser.add_argument("--trails", type=int, default=200)
    parser.add_argument("--budget", type=int, default=3000)
    parser.add_argument("--sandbox-max", type=int, default=5000,
                        help="time the sandbox's search only at sizes up to this (0: never)")
    args = parser.parse_args()
    questions = read_questions(QUESTIONS.read_text(encoding="utf-8"))
    print(f"whole-store feature timings; {len(questions)} demo questions; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    for size in (int(s) for s in args.sizes.split(",") if s):
        run_size(size, args, questions)


if __name__ == "__main__":
    main()
