"""Server-side scale figures on embedded demo stores of 1k, 10k and 50k memories.

For each size, what the first request costs on the server before the graph can be sent
(each path with its own fresh analysis, so nothing is shared between them):

- ``old``: load, analyse, layout, clusters and names, the full view of every node, then
  the overview collapsed from it (what the explorer did);
- ``new cold``: nothing persisted — load, analyse, the content digest, layout and
  clusters computed (and saved by :mod:`memscope.view.derived`), the overview straight
  from the clusters (:func:`memscope.view.budget.overview_of`);
- ``new warm``: the derived data persisted (``python -m memscope warm``) — load, analyse,
  digest and read back, the overview straight from the clusters.

The stores are generated once and kept in ``bench/out/scale-<n>/`` (git-ignored).
``--apptest`` adds the real home page under AppTest (first run, click, filter). Prints
figures; asserts nothing.

``--sizes`` may include 100000 and 200000 (the same demo generator at that size). The
garbage collector runs as in the app (:mod:`memscope.pipeline`): the load and each
analysis with the collector paused (:func:`memscope.kept.no_gc`), then the heap settled
(:func:`memscope.kept.settle_heap`) before layout, clusters and overview; ``--live-gc``
leaves it running throughout (what a plain script does: each full collection then walks
the whole load, ~1.7 s at 200k, and lands on whichever step crosses its threshold).

Each figure is printed as wall-clock seconds and, on a ``cpu`` line, as this process's
CPU seconds (``time.process_time``): on a machine shared with other work the wall clock
measures the neighbours too, so growth is judged on the CPU figures. ``gc`` says how long
full collections took in each path. Each row also prints this process's RSS (``VmRSS``;
the stores of earlier sizes are freed first) and its peak, and when 50000 is among the
sizes, a ``growth`` line per larger size: each step's figure as a ratio to its 50k
figure (linear from 50k to 200k is 4 ×; issue 20's bound is 4.5 ×). The first drawn graph
and the server's own memory are ``bench/browser.py``'s (``--sizes 50000,200000``).

    .venv/bin/python bench/scale.py [--sizes 1000,10000,50000,100000,200000] [--budget 3000]
                                    [--repeat 1] [--live-gc] [--apptest]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memscope import kept  # noqa: E402
from memscope.demo.seeding import seed_store  # noqa: E402
from memscope.graph.analysis import Analysis, analyse  # noqa: E402
from memscope.records.dataset import Dataset  # noqa: E402
from memscope.settings import STORE_FILE  # noqa: E402
from memscope.sources.embedded import EmbeddedSource  # noqa: E402
from memscope.store.store import Store  # noqa: E402
from memscope.view import derived  # noqa: E402
from memscope.view.budget import overview, overview_of  # noqa: E402
from memscope.view.build import build_view, cluster_groups  # noqa: E402
from memscope.view.groups import cluster_keys  # noqa: E402
from memscope.view.layout import layout_positions  # noqa: E402

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
OUT = ROOT / "bench" / "out"


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(wall seconds, result) of one call."""
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


class Took(NamedTuple):
    """One step's wall-clock and CPU seconds."""

    wall: float
    cpu: float


ZERO = Took(0.0, 0.0)


class FullCollections:
    """The time this process spends in full (generation 2) collections, through
    ``gc.callbacks`` (installed while a size runs)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.count = 0
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._start = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._start
            self.count += 1


FULL_GC = FullCollections()


def measured(fn: Callable[[], Any]) -> tuple[Took, Any]:
    """(:class:`Took`, result) of one call."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return Took(time.perf_counter() - t0, time.process_time() - c0), out


def rss_mb() -> float:
    """This process's resident set size in MB (``VmRSS``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MB (``ru_maxrss``)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def growth(size: int, now: dict[str, float], base: dict[str, float], what: str = "") -> str:
    """Each figure of ``now`` as a ratio to the 50k ``base``; ``!`` marks > 4.5 × from
    50k to 200k (scaled linearly for other sizes)."""
    bound = 4.5 * size / 50_000 / 4
    cells = []
    for key, value in now.items():
        b = base.get(key, 0.0)
        if b <= 0.005:  # too small to divide by
            continue
        r = value / b
        cells.append(f"{key} {r:.2f}×{'!' if r > bound else ''}")
    return (f"{'':>8} growth{what} {size}/50000 (linear {size / 50_000:.0f} ×; ! = over "
            f"{bound:.2f} ×): " + ", ".join(cells))


def cached_store(memories: int) -> Path:
    """The folder of a demo store of ``memories`` memories (documents = memories / 5),
    generated on first use into ``bench/out/scale-<n>/``."""
    folder = OUT / f"scale-{memories}"
    path = folder / STORE_FILE
    if not (folder / "done").exists():
        folder.mkdir(parents=True, exist_ok=True)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        t, _ = timed(lambda: _seed(path, memories))
        (folder / "done").write_text("seeded\n")
        print(f"  (generated {path} in {t:.1f} s)", flush=True)
    return folder


def make_store(folder: Path, memories: int) -> Path:
    """A demo store of ``memories`` memories in ``folder`` (the browser benches' maker)."""
    path = folder / STORE_FILE
    _seed(path, memories)
    return path


def _seed(path: Path, memories: int) -> None:
    store = Store(path)
    store.init()
    seed_store(store, seed=7, now=NOW, n_documents=max(72, memories // 5),
               n_memories=memories)


def _analysed(ds: Dataset, live_gc: bool) -> tuple[dict[str, Took], Analysis]:
    """The analysis as the app makes it: the collector paused, then the heap settled
    (``settle``: the app pays it once per load); ``live_gc``: the collector running."""
    if live_gc:
        t_an, an = measured(lambda: analyse(ds, NOW))
        return {"analyse": t_an, "settle": ZERO}, an
    with kept.no_gc():
        t_an, an = measured(lambda: analyse(ds, NOW))
    t_settle, _ = measured(kept.settle_heap)
    return {"analyse": t_an, "settle": t_settle}, an


def old_path(ds: Dataset, budget: int, *, live_gc: bool = False) -> dict[str, Any]:
    """Today's explorer: layout, clusters, the full view, the overview collapsed from it."""
    gc0 = FULL_GC.seconds
    took, an = _analysed(ds, live_gc)
    took["layout"], pos = measured(lambda: layout_positions(an.graph.graph, seed=7))
    took["clusters"], (clusters, labels) = measured(lambda: cluster_groups(an))
    took["view"], view = measured(lambda: build_view(an, positions=pos))
    took["overview"], ov = measured(lambda: overview(view, clusters, labels, budget=budget))
    took["derived"] = ZERO
    return {"took": took, "ov": ov, "gc": FULL_GC.seconds - gc0,
            "full_mb": len(json.dumps(view["nodes"]) + json.dumps(view["edges"])) / 1e6}


def new_path(ds: Dataset, budget: int, folder: Path, *, warm: bool, live_gc: bool = False
             ) -> dict[str, Any]:
    """The overview straight from the clusters; the derived data computed and saved
    (cold: ``derived`` = digest + save) or read back (warm: ``derived`` = digest + read +
    check, i.e. :func:`derived.load_or_compute`)."""
    gc0 = FULL_GC.seconds
    took, an = _analysed(ds, live_gc)
    took["layout"] = took["clusters"] = took["view"] = ZERO
    if warm:
        took["derived"], d = measured(lambda: derived.load_or_compute(analysis=an,
                                                                      folder=folder))
    else:
        t_digest, digest = measured(lambda: derived.digest_of(an))
        took["layout"], pos = measured(lambda: layout_positions(an.graph.graph, seed=7))
        took["clusters"], (keys, labels, order) = measured(lambda: cluster_keys(an))
        d = derived.Derived(digest, pos, {str(k): v for k, v in keys.items()}, labels, order)
        t_save, _ = measured(lambda: derived.save(d, folder))
        took["derived"] = Took(t_digest.wall + t_save.wall, t_digest.cpu + t_save.cpu)
    took["overview"], ov = measured(lambda: overview_of(an, d.positions, d.clusters,
                                                        d.labels, budget=budget))
    return {"took": took, "ov": ov, "gc": FULL_GC.seconds - gc0, "full_mb": 0.0}


def apptest_figures(folder: Path) -> dict[str, float]:
    """The home page under AppTest: first run, click → panel rerun, filter rerun."""
    from streamlit.testing.v1 import AppTest

    os.environ["MEMSCOPE_DATA_DIR"] = str(folder)
    an = analyse(EmbeddedSource(folder / STORE_FILE).load().dataset, NOW)
    target = next(c.entries[-1].id for c in an.chains.chains if len(c.entries) >= 3)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    t_first, _ = timed(at.run)
    t_second, _ = timed(at.run)
    at.session_state["selected_node"] = target
    t_click, _ = timed(at.run)
    at.checkbox(key="f_superseded").uncheck()
    t_filter, _ = timed(at.run)
    if at.exception:
        raise RuntimeError(str(at.exception))
    return {"first_run": t_first, "plain_rerun": t_second, "click_rerun": t_click,
            "filter_rerun": t_filter}


COLUMNS = ("load", "analyse", "settle", "layout", "clusters", "view", "overview", "derived")


def _least(took: list[Took]) -> Took:
    """The smallest wall and the smallest CPU figure of several runs of one step."""
    return Took(min(t.wall for t in took), min(t.cpu for t in took))


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each timed figure's smallest value over ``runs`` (wall and CPU each on its own;
    the rest from the first)."""
    out = dict(runs[0])
    out["took"] = {c: _least([r["took"][c] for r in runs]) for c in runs[0]["took"]}
    out["gc"] = min(r["gc"] for r in runs)
    return out


def _total(load: Took, f: dict[str, Any], attr: str) -> float:
    return getattr(load, attr) + sum(getattr(t, attr) for t in f["took"].values())


def _row(size: int, nodes: int, name: str, load: Took, f: dict[str, Any], budget: int,
         attr: str = "wall") -> str:
    """One path's figures (``attr``: ``wall`` or ``cpu`` seconds)."""
    took = {"load": load, **f["took"]}
    cells = " ".join(f"{getattr(took[c], attr):>7.2f}" for c in COLUMNS)
    total = _total(load, f, attr)
    if attr == "cpu":
        return f"{'':>8} {'':>7} {'  cpu':<9} {cells} {total:>7.2f}   full gc {f['gc']:.2f} s"
    info = f["ov"].info
    drawn = json.dumps(f["ov"].view["nodes"]) + json.dumps(f["ov"].view["edges"])
    fits = "yes" if info.drawn_nodes <= budget else "NO"
    return (f"{size:>8} {nodes:>7} {name:<9} {cells} {total:>7.2f} {info.drawn_nodes:>6} "
            f"{fits:>4} {len(drawn) / 1e6:>7.2f}")


def _load(folder: Path, live_gc: bool) -> tuple[Took, Dataset]:
    """The embedded source's load (the collector paused, as the app's ``plain_fetch``)."""
    source = EmbeddedSource(folder / STORE_FILE)
    if live_gc:
        took, result = measured(source.load)
    else:
        with kept.no_gc():
            took, result = measured(source.load)
    return took, result.dataset


def _figures(load: Took, cold: dict[str, Any], warm: dict[str, Any], attr: str
             ) -> dict[str, float]:
    """The figures whose growth is printed (of ``attr`` seconds)."""
    t = cold["took"]
    return {"load": getattr(load, attr), **{k: getattr(t[k], attr) for k in
                                            ("analyse", "layout", "clusters", "overview")},
            "derived warm": getattr(warm["took"]["derived"], attr),
            "warm total": _total(load, warm, attr), "cold total": _total(load, cold, attr)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--budget", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=1,
                        help="run the load and each path this many times; print each "
                             "figure's best (on a shared machine 2 or 3 steadies them)")
    parser.add_argument("--live-gc", action="store_true",
                        help="leave the garbage collector running throughout (not as the app)")
    parser.add_argument("--apptest", action="store_true",
                        help="also time the home page under AppTest")
    args = parser.parse_args()
    live = args.live_gc
    print(f"seconds (best of {max(1, args.repeat)}); server side of the first request; "
          f"budget {args.budget}; collector {'live' if live else 'as in the app'}; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    print(f"{'memories':>8} {'nodes':>7} {'path':<9} "
          + " ".join(f"{c:>7}" for c in COLUMNS)
          + f" {'total':>7} {'drawn':>6} {'fits':>4} {'sent MB':>7}")
    base: dict[str, dict[str, float]] = {}
    grown: list[str] = []
    gc.callbacks.append(FULL_GC)
    for size in (int(s) for s in args.sizes.split(",")):
        gc.collect()
        folder = cached_store(size)
        took: list[Took] = []
        for _ in range(max(1, args.repeat)):  # one dataset held at a time
            ds = None
            t, ds = _load(folder, live)
            took.append(t)
        t_load = _least(took)
        runs: list[tuple[dict[str, Any], ...]] = []
        for _ in range(max(1, args.repeat)):
            with tempfile.TemporaryDirectory() as tmp:  # cold: nothing persisted
                gc.collect()  # each path starts from the same heap
                old = old_path(ds, args.budget, live_gc=live)
                gc.collect()
                cold = new_path(ds, args.budget, Path(tmp), warm=False, live_gc=live)
                gc.collect()
                warm = new_path(ds, args.budget, Path(tmp), warm=True, live_gc=live)
            runs.append((old, cold, warm))
        old, cold, warm = (_best([r[i] for r in runs]) for i in range(3))
        nodes = old["ov"].info.total_nodes
        for name, figures in (("old", old), ("new cold", cold), ("new warm", warm)):
            print(_row(size, nodes, name, t_load, figures, args.budget), flush=True)
            print(_row(size, nodes, name, t_load, figures, args.budget, "cpu"), flush=True)
        rss = rss_mb()
        print(f"{'':>8} {'':>7} RSS of this process {rss:.0f} MB, peak {peak_rss_mb():.0f} "
              f"MB (store, analysis and the three paths' results held); load average "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        now = {attr: _figures(t_load, cold, warm, attr) for attr in ("wall", "cpu")}
        now["wall"]["rss"] = rss
        if size == 50_000:
            base = now
        elif base and size > 50_000:
            for attr, what in (("cpu", " (cpu)"), ("wall", " (wall)")):
                line = growth(size, now[attr], base[attr], what)
                grown.append(line)
                print(line, flush=True)
        print(f"{'':>8} {'':>7} the old path builds a full view of {old['full_mb']:.1f} MB; "
              f"server total old → new cold → new warm: "
              f"{_total(t_load, old, 'wall'):.2f} → {_total(t_load, cold, 'wall'):.2f} → "
              f"{_total(t_load, warm, 'wall'):.2f} s", flush=True)
        if args.apptest:
            a = apptest_figures(folder)
            print(f"{'':>8} AppTest: first run {a['first_run']:.2f} s, rerun "
                  f"{a['plain_rerun']:.2f} s, click {a['click_rerun']:.2f} s, filter "
                  f"{a['filter_rerun']:.2f} s", flush=True)
        del ds, runs, old, cold, warm
    gc.callbacks.remove(FULL_GC)
    if grown:
        print("\ngrowth to 50k (judge on cpu: the wall clock also counts other work):")
        print("\n".join(grown))


if __name__ == "__main__":
    main()
