"""Server-side scale figures on embedded demo stores of 1k, 10k and 50k memories.

For each size: load from SQLite, analyse (graph + chains + findings), layout, full view,
budgeted overview and payload sizes; then the real home page under AppTest: first run,
a rerun after a click (selection → panel) and a rerun after a filter change.
Prints figures; asserts nothing.

    .venv/bin/python bench/scale.py [--sizes 1000,10000,50000] [--budget 3000]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memscope.demo.seeding import seed_store  # noqa: E402
from memscope.graph.analysis import analyse  # noqa: E402
from memscope.settings import STORE_FILE  # noqa: E402
from memscope.sources.embedded import EmbeddedSource  # noqa: E402
from memscope.store.store import Store  # noqa: E402
from memscope.view.budget import apply_budget  # noqa: E402
from memscope.view.build import build_view, cluster_groups  # noqa: E402
from memscope.view.layout import layout_positions  # noqa: E402

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


def timed(fn):
    """(seconds, result) of one call."""
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def make_store(folder: Path, memories: int) -> Path:
    """A demo store of ``memories`` memories (documents = memories / 5)."""
    path = folder / STORE_FILE
    store = Store(path)
    store.init()
    seed_store(store, seed=7, now=NOW, n_documents=max(72, memories // 5),
               n_memories=memories)
    return path


def core_figures(path: Path, budget: int) -> dict[str, float]:
    """Load, analyse, layout, view and budget times for one store."""
    t_load, load = timed(lambda: EmbeddedSource(path).load())
    t_an, an = timed(lambda: analyse(load.dataset, NOW))
    t_layout, pos = timed(lambda: layout_positions(an.graph.graph, seed=7))
    t_view, view = timed(lambda: build_view(an, positions=pos))
    t_groups, (clusters, labels) = timed(lambda: cluster_groups(an))
    t_budget, (small, info) = timed(lambda: apply_budget(view, clusters, labels,
                                                         budget=budget))
    return {
        "nodes": an.graph.graph.number_of_nodes(), "load": t_load, "analyse": t_an,
        "layout": t_layout, "view": t_view, "clusters": t_groups, "budget": t_budget,
        "payload_full_mb": len(json.dumps(view["nodes"]) + json.dumps(view["edges"])) / 1e6,
        "payload_drawn_mb": len(json.dumps(small["nodes"]) + json.dumps(small["edges"])) / 1e6,
        "drawn": info.drawn_nodes,
    }


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--budget", type=int, default=3000)
    args = parser.parse_args()
    print(f"{'memories':>9} {'nodes':>7} {'load':>6} {'analyse':>7} {'layout':>6} "
          f"{'view':>6} {'clust':>6} {'budget':>6} {'full MB':>7} {'drawn':>6} "
          f"{'drawn MB':>8} | {'1st run':>7} {'rerun':>6} {'click':>6} {'filter':>6}")
    for size in (int(s) for s in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            make_store(folder, size)
            c = core_figures(folder / STORE_FILE, args.budget)
            a = apptest_figures(folder)
            print(f"{size:>9} {c['nodes']:>7} {c['load']:>5.2f}s {c['analyse']:>6.2f}s "
                  f"{c['layout']:>5.2f}s {c['view']:>5.2f}s {c['clusters']:>5.2f}s "
                  f"{c['budget']:>5.2f}s {c['payload_full_mb']:>7.1f} {c['drawn']:>6} "
                  f"{c['payload_drawn_mb']:>8.2f} | {a['first_run']:>6.2f}s "
                  f"{a['plain_rerun']:>5.2f}s {a['click_rerun']:>5.2f}s "
                  f"{a['filter_rerun']:>5.2f}s", flush=True)


if __name__ == "__main__":
    main()
