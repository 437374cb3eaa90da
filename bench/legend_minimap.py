"""The legend's pick and the minimap at 50,000 nodes, in Debian's Chromium, without a
Streamlit server: the graph component's own files served to a blank page (as
``tests/test_graph_view_big_browser.py`` does), one payload of N memories on a grid in
7 colour groups, with its legend.

Prints, per size: the first render (payload → first frame), a click on a legend line →
the next frame with that group brought forward (the rest faded), "Clear" → everything
again, the minimap's overview drawn once (ms), its per-frame cost (ms) while zoomed in,
and the median and p95 frame interval during a 2 s pan at 3× zoom with the minimap
shown. Asserts nothing.

    .venv/bin/python bench/legend_minimap.py [--sizes 5000,50000]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from browser_support import chromium  # noqa: E402
from test_graph_view_big_browser import (  # noqa: E402
    GRAPH,
    ORIGIN,
    RENDER,
    grid_view,
    payload,
    serve_assets,
)

from memscope.view.build import legend_styles  # noqa: E402

CLICK_TO_FRAME = """async (id) => {
  const el = document.querySelector("[data-testid='memscope-graph']");
  const button = id === null
    ? document.querySelector("button[data-action='legend-all']")
    : document.querySelector(`button[data-line='${id}']`);
  const t0 = performance.now();
  button.click();
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return [performance.now() - t0, el.__network.body.nodeIndices.length];
}"""
PAN = """async () => {
  const net = document.querySelector("[data-testid='memscope-graph']").__network;
  const gaps = [];
  let last = performance.now();
  const end = last + 2000;
  let i = 0;
  while (performance.now() < end) {
    const p = net.getViewPosition();
    net.moveTo({ position: { x: p.x + 20 / net.getScale(), y: p.y } });
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    i += 1;
  }
  return gaps;
}"""


def legend_of(view: dict) -> dict:
    groups = [f"c{i}" for i in range(7)]
    counts = {g: sum(1 for n in view["nodes"] if n["color_group"] == g) for g in groups}
    shapes, states, edges = legend_styles()
    for e in shapes:
        e["count"] = len(view["nodes"]) if e["key"] == "memory" else 0
    for e in edges:
        e["count"] = len(view["edges"]) if e["key"] == "updates" else 0
    return {"color_by": "cluster", "colors": [
        {"key": g, "label": f"group {g}", "color": "#2CA02C", "border": "#1B631B",
         "count": counts[g]} for g in groups], "other": None, "shapes": shapes,
        "state_styles": states, "edge_styles": edges}


def run(size: int) -> None:
    view = grid_view(size)
    data = {**payload(view), "legend": legend_of(view)}
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.route(f"{ORIGIN}/**", serve_assets)
        page.goto(f"{ORIGIN}/")
        page.wait_for_function("() => window.__graphView !== undefined")
        page.evaluate(RENDER, data)
        page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=120_000)
        graph = page.locator(GRAPH)
        first = graph.evaluate("el => el.__stats.firstDrawAt - el.__stats.firstReceivedAt")
        pick, shown = page.evaluate(CLICK_TO_FRAME, "group:c3")
        back, everything = page.evaluate(CLICK_TO_FRAME, None)
        graph.evaluate("el => el.__network.moveTo({scale: el.__network.getScale() * 3})")
        page.wait_for_timeout(500)
        build = graph.evaluate("el => el.__stats.minimapBuildMs")
        gaps = sorted(page.evaluate(PAN))
        draw = graph.evaluate("el => el.__stats.minimapDrawMs")
        builds = graph.evaluate("el => el.__stats.minimapBuilds")
        p95 = gaps[min(len(gaps) - 1, math.ceil(0.95 * len(gaps)) - 1)]
        print(f"{size:>7,} nodes | first frame {first:7.0f} ms | legend pick {pick:6.0f} ms "
              f"({shown:,} drawn) | show all {back:6.0f} ms ({everything:,}) | minimap "
              f"overview {build:6.1f} ms (drawn {builds}x) | minimap per frame {draw:5.2f} ms"
              f" | pan frames median {statistics.median(gaps):5.1f} ms, p95 {p95:5.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description="The legend and the minimap at scale.")
    parser.add_argument("--sizes", default="5000,50000")
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        run(size)


if __name__ == "__main__":
    main()
