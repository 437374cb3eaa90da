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

``--sizes`` may include 100000 and 200000 (the same demo generator at that size); each row
also prints this process's RSS after the size (``VmRSS``; the stores of earlier sizes are
freed first) and, when 50000 is among the sizes, a ``growth`` line: each step's figure as a
ratio to its 50k figure (linear from 50k to 200k is 4 ×; issue 20's bound is 4.5 ×).

    .venv/bin/python bench/scale.py [--sizes 1000,10000,50000,100000,200000] [--budget 3000]
                                    [--apptest]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memscope.demo.seeding import seed_store  # noqa: E402
from memscope.graph.analysis import analyse  # noqa: E402
from memscope.records.dataset import Dataset  # noqa: E402
from memscope.settings import STORE_FILE  # noqa: E402
from memscope.sources.embedded import EmbeddedSource  # noqa: E402
from memscope.store.store import Store  # noqa: E402
from memscope.view import derived  # noqa: E402
from memscope.view.budget import overview, overview_of  # noqa: E402
from memscope.view.build import build_view, cluster_groups, cluster_order  # noqa: E402
from memscope.view.layout import layout_positions  # noqa: E402

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
OUT = ROOT / "bench" / "out"


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(seconds, result) of one call."""
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def rss_mb() -> float:
    """This process's resident set size in MB (``VmRSS``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def growth(size: int, now: dict[str, float], base: dict[str, float]) -> str:
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
    return (f"{'':>8} growth {size}/50000 (linear {size / 50_000:.0f} ×; ! = over "
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


def old_path(ds: Dataset, budget: int) -> dict[str, Any]:
    """Today's explorer: layout, clusters, the full view, the overview collapsed from it."""
    t_an, an = timed(lambda: analyse(ds, NOW))
    t_layout, pos = timed(lambda: layout_positions(an.graph.graph, seed=7))
    t_clusters, (clusters, labels) = timed(lambda: cluster_groups(an))
    t_view, view = timed(lambda: build_view(an, positions=pos))
    t_ov, ov = timed(lambda: overview(view, clusters, labels, budget=budget))
    return {"analyse": t_an, "layout": t_layout, "clusters": t_clusters, "view": t_view,
            "overview": t_ov, "derived": 0.0, "ov": ov,
            "full_mb": len(json.dumps(view["nodes"]) + json.dumps(view["edges"])) / 1e6}


def new_path(ds: Dataset, budget: int, folder: Path, *, warm: bool) -> dict[str, Any]:
    """The overview straight from the clusters; the derived data computed and saved
    (cold: ``derived`` = digest + save) or read back (warm: ``derived`` = digest + read +
    check + priming the cluster cache, i.e. :func:`derived.load_or_compute`)."""
    t_an, an = timed(lambda: analyse(ds, NOW))
    t_layout = t_clusters = 0.0
    if warm:
        t_derived, d = timed(lambda: derived.load_or_compute(analysis=an, folder=folder))
    else:
        t_digest, digest = timed(lambda: derived.digest_of(an))
        t_layout, pos = timed(lambda: layout_positions(an.graph.graph, seed=7))
        t_clusters, (clusters, labels) = timed(lambda: cluster_groups(an))
        d = derived.Derived(digest, pos, clusters, labels, cluster_order(an))
        t_save, _ = timed(lambda: derived.save(d, folder))
        t_derived = t_digest + t_save
    t_ov, ov = timed(lambda: overview_of(an, d.positions, d.clusters, d.labels,
                                         budget=budget))
    return {"analyse": t_an, "layout": t_layout, "clusters": t_clusters, "view": 0.0,
            "overview": t_ov, "derived": t_derived, "ov": ov, "full_mb": 0.0}


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


COLUMNS = ("load", "analyse", "layout", "clusters", "view", "overview", "derived")


def _best(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each timed figure's smallest value over ``runs`` (the rest from the first)."""
    out = dict(runs[0])
    for c in COLUMNS[1:]:
        out[c] = min(r[c] for r in runs)
    return out


def _row(size: int, nodes: int, name: str, load: float, f: dict[str, Any], budget: int
         ) -> str:
    info = f["ov"].info
    total = load + sum(f[c] for c in COLUMNS[1:])
    cells = " ".join(f"{(load if c == 'load' else f[c]):>7.2f}" for c in COLUMNS)
    drawn = json.dumps(f["ov"].view["nodes"]) + json.dumps(f["ov"].view["edges"])
    fits = "yes" if info.drawn_nodes <= budget else "NO"
    return (f"{size:>8} {nodes:>7} {name:<9} {cells} {total:>7.2f} {info.drawn_nodes:>6} "
            f"{fits:>4} {len(drawn) / 1e6:>7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--budget", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=1,
                        help="run each path this many times; print each figure's best")
    parser.add_argument("--apptest", action="store_true",
                        help="also time the home page under AppTest")
    args = parser.parse_args()
    print(f"seconds (best of {max(1, args.repeat)}); server side of the first request; "
          f"budget {args.budget}; "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the start")
    print(f"{'memories':>8} {'nodes':>7} {'path':<9} "
          + " ".join(f"{c:>7}" for c in COLUMNS)
          + f" {'total':>7} {'drawn':>6} {'fits':>4} {'sent MB':>7}")
    base: dict[str, float] = {}
    for size in (int(s) for s in args.sizes.split(",")):
        gc.collect()
        folder = cached_store(size)
        t_load, load = timed(EmbeddedSource(folder / STORE_FILE).load)
        ds = load.dataset
        runs: list[tuple[dict[str, Any], ...]] = []
        for _ in range(max(1, args.repeat)):
            with tempfile.TemporaryDirectory() as tmp:  # cold: nothing persisted
                gc.collect()  # each path starts from the same heap
                old = old_path(ds, args.budget)
                gc.collect()
                cold = new_path(ds, args.budget, Path(tmp), warm=False)
                gc.collect()
                warm = new_path(ds, args.budget, Path(tmp), warm=True)
            runs.append((old, cold, warm))
        old, cold, warm = (_best([r[i] for r in runs]) for i in range(3))
        nodes = old["ov"].info.total_nodes
        for name, figures in (("old", old), ("new cold", cold), ("new warm", warm)):
            print(_row(size, nodes, name, t_load, figures, args.budget), flush=True)
        now = {"load": t_load, "analyse": cold["analyse"], "layout": cold["layout"],
               "clusters": cold["clusters"], "overview": cold["overview"],
               "derived warm": warm["derived"],
               "warm total": t_load + sum(warm[c] for c in COLUMNS[1:]),
               "cold total": t_load + sum(cold[c] for c in COLUMNS[1:]), "rss": rss_mb()}
        print(f"{'':>8} {'':>7} RSS of this process {now['rss']:.0f} MB (store, analysis "
              f"and the three paths' results held)", flush=True)
        if size == 50_000:
            base = now
        elif base and size > 50_000:
            print(growth(size, now, base), flush=True)
        print(f"{'':>8} {'':>7} the old path builds a full view of {old['full_mb']:.1f} MB; "
              f"server total old → new cold → new warm: "
              f"{t_load + sum(old[c] for c in COLUMNS[1:]):.2f} → "
              f"{t_load + sum(cold[c] for c in COLUMNS[1:]):.2f} → "
              f"{t_load + sum(warm[c] for c in COLUMNS[1:]):.2f} s", flush=True)
        if args.apptest:
            a = apptest_figures(folder)
            print(f"{'':>8} AppTest: first run {a['first_run']:.2f} s, rerun "
                  f"{a['plain_rerun']:.2f} s, click {a['click_rerun']:.2f} s, filter "
                  f"{a['filter_rerun']:.2f} s", flush=True)


if __name__ == "__main__":
    main()
