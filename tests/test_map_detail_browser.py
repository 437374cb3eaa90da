"""The map's level of detail, its overlays and its highlights, measured in a real Chromium
(issue 32, items 1–3), on the component alone (the page's routes serve its files, as in
test_graph_view_big_browser.py) with the explorer's own first views: the demo, a
2,000-node account and a 20,000-version chain, each built by the view pipeline.

At the fitted view of each: how many drawn label boxes overlap (cluster names, landmark
labels and the labels vis-network draws itself), how many cluster names lie over a node,
and the map's share of the free canvas (the part the legend and the minimap leave; the
larger of its width and height shares). A highlight: every node and edge outside the
set at most a quarter of its opacity, labels too, and the view brought to the set. The
legend starts collapsed to its header where, open, it would cover more than a sixth of
the graph, and every fit leaves it free. The figures are printed (run with ``-s``);
screenshots go to ``test-screenshots/detail-*.png``.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from browser_support import chromium
from playwright.sync_api import Browser, Page, Route
from test_long_chain import LONG, bare_chain

from components.graph_view import compact_view, group_annotations
from memscope.demo.generator import generate
from memscope.pipeline.core import Pipeline
from memscope.pipeline.keeping import Keeper
from memscope.pipeline.loads import Loads
from memscope.sources.files import FileSource
from memscope.view.build import ViewData
from memscope.view.paint import FADE, highlight

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "test-screenshots"
ASSETS = ROOT / "components" / "graph_view" / "frontend" / "assets"
ORIGIN = "http://127.0.0.1:9"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
GRAPH = "[data-testid='memscope-graph']"
#: where vis-network placed each node, in graph units: id → [x, y]
PLACES = """el => Object.fromEntries(Object.entries(el.__network.getPositions())
  .map(([id, p]) => [id, [p.x, p.y]]))"""
LEGEND = "[data-testid='memscope-legend']"
#: the graph's canvas as the explorer gives it at 1400×900 (the sidebar and the search
#: row beside and above it)
CANVAS = (1050, 700)
PAGE = (f"<div id='root' style='width: {CANVAS[0]}px; height: {CANVAS[1]}px'></div>"
        "<link rel='stylesheet' href='/graph_view.css'>"
        "<script src='/vis-network.min.js'></script>"
        "<script type='module'>import graphView from '/graph_view.js';"
        " window.__graphView = graphView;</script>")
RENDER = """payload => window.__graphView({ data: payload,
  parentElement: document.getElementById('root'), setStateValue: () => {} })"""

#: at the view as it is: every drawn label's box (DOM px of the canvas), the overlapping
#: pairs, the cluster names over a node, and the map's share of the free area
MEASURE = """el => {
  const net = el.__network, body = net.body, stats = el.__stats;
  const w = el.clientWidth, h = el.clientHeight, scale = net.getScale();
  const boxes = [];
  for (const b of stats.annotationBoxes || []) boxes.push({kind: "name", b});
  for (const b of stats.landmarkBoxes || []) boxes.push({kind: "landmark", b});
  const dots = [];
  for (const id of body.nodeIndices) {
    const n = body.nodes[id];
    if (!n || n.options.hidden) continue;
    const c = net.canvasToDOM({x: n.x, y: n.y});
    const r = (n.options.size || 10) * scale;
    const sb = n.shape && n.shape.boundingBox;
    let nb = [c.x - r, c.y - r, c.x + r, c.y + r];
    if (n.options.shape === "box" && sb && sb.right > sb.left) {
      const a = net.canvasToDOM({x: sb.left, y: sb.top});
      const z = net.canvasToDOM({x: sb.right, y: sb.bottom});
      nb = [a.x, a.y, z.x, z.y];
    }
    if (nb[2] < 0 || nb[3] < 0 || nb[0] > w || nb[1] > h) continue;
    dots.push(nb);
    const label = n.options.label;
    const font = n.options.font && n.options.font.size || 14;
    const threshold = n.options.scaling && n.options.scaling.label
      && n.options.scaling.label.drawThreshold || 5;
    if (typeof label !== "string" || !label || font * scale < threshold - 1) continue;
    if (n.labelModule && n.labelModule.__culled) continue;  // culled: not drawn
    const s = n.labelModule && n.labelModule.size;
    if (!s || !s.width) continue;
    const a = net.canvasToDOM({x: s.left, y: s.top});
    const z = net.canvasToDOM({x: s.left + s.width, y: s.top + s.height});
    boxes.push({kind: "vis", b: [a.x, a.y, z.x, z.y]});
  }
  const cross = (p, q, m) => p[0] + m < q[2] && q[0] + m < p[2] && p[1] + m < q[3]
    && q[1] + m < p[3];
  let overlaps = 0;
  const pairs = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      if (cross(boxes[i].b, boxes[j].b, 1)) {
        overlaps += 1;
        if (pairs.length < 5) {
          pairs.push([boxes[i].kind, boxes[j].kind, boxes[i].b.map(Math.round),
            boxes[j].b.map(Math.round)]);
        }
      }
    }
  }
  let namesOverNodes = 0;
  for (const b of stats.annotationBoxes || []) {
    if (dots.some((d) => cross(b, d, 1))) namesOverNodes += 1;
  }
  const xs = [], ys = [];
  for (const d of dots) { xs.push(d[0], d[2]); ys.push(d[1], d[3]); }
  const area = stats.fitArea || {left: 0, top: 0, w, h};
  const spanW = Math.max(...xs) - Math.min(...xs), spanH = Math.max(...ys) - Math.min(...ys);
  const legend = document.querySelector("[data-testid='memscope-legend']");
  const lr = legend.getBoundingClientRect(), cr = el.getBoundingClientRect();
  const legendBox = [lr.left - cr.left, lr.top - cr.top, lr.right - cr.left,
    lr.bottom - cr.top];
  const underLegend = legend.hidden ? 0 : dots.filter((d) => cross(legendBox, d, 0)).length;
  return {labels: boxes.length, overlaps, pairs, namesOverNodes, scale,
          nodes: dots.length, underLegend,
          legendOpen: legend.querySelector(".ms-legend-body").hidden === false,
          legendShare: (lr.width * lr.height) / (w * h),
          share: Math.max(spanW / area.w, spanH / area.h),
          shareW: spanW / area.w, shareH: spanH / area.h};
}"""

#: opacities as vis-network draws them: highlighted nodes, the others, their labels'
#: colours, the edges inside the set and the others
OPACITY = """el => {
  const net = el.__network, body = net.body;
  const on = [], off = [], offLabels = [], edgesIn = [], edgesOut = [];
  for (const id of body.nodeIndices) {
    const n = body.nodes[id];
    const o = typeof n.options.opacity === "number" ? n.options.opacity : 1;
    (n.options.highlighted ? on : off).push(o);
    if (!n.options.highlighted) offLabels.push(String(n.options.font.color));
  }
  const marked = new Set(body.nodeIndices.filter((id) => body.nodes[id].options.highlighted));
  for (const id of body.edgeIndices) {
    const e = body.edges[id];
    const o = typeof e.options.color.opacity === "number" ? e.options.color.opacity : 1;
    (marked.has(e.fromId) && marked.has(e.toId) ? edgesIn : edgesOut).push(o);
  }
  return {on, offMax: Math.max(...off), offLabels: [...new Set(offLabels)],
          edgesOutMax: edgesOut.length ? Math.max(...edgesOut) : 0, edgesIn};
}"""


def serve_assets(route: Route) -> None:
    name = route.request.url.removeprefix(f"{ORIGIN}/").split("?")[0]
    if name == "":
        route.fulfill(body=PAGE, content_type="text/html")
    elif (ASSETS / name).is_file() and "/" not in name:
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        route.fulfill(path=ASSETS / name, content_type=kind)
    else:
        route.fulfill(status=404)


def first_view(documents: list[dict[str, Any]], folder: Path,
               then: dict[str, dict[str, Any]] | None = None) -> dict[str, ViewData]:
    """The explorer's first view of a snapshot of ``documents`` (the view pipeline's),
    under ``""``, and the views after each of ``then``'s changes to its request (a name
    each: e.g. a hexagon expanded, a node selected)."""
    snapshot = folder / "data.json"
    snapshot.write_text(json.dumps({"documents": documents}), encoding="utf-8")
    p = Pipeline(Loads(keep=None), Keeper(folder / "kept"), clock=lambda: NOW)
    source = FileSource([snapshot])
    ref = p.loads.load(source)
    req = p.first(ref, source.identity())
    out = {"": p.view(req).drawn}
    for name, change in (then or {}).items():
        out[name] = p.view(replace(req, **change)).drawn
    return out


def payload(view: ViewData, fit_ids: list[str] | None = None,
            slideshow: bool = False) -> dict[str, Any]:
    small = compact_view(view)
    out: dict[str, Any] = {
        **small, "annotations": group_annotations(view), "legend": view.get("legend"),
        "options": {"height": CANVAS[1], "physics": False, "focus": None, "focus_rev": 0,
                    "fit_ids": fit_ids or [], "fit_label": "Fit matches"}}
    if slideshow:
        out["slideshow"] = {"steps": [], "token": ""}
    return out


@pytest.fixture(scope="module")
def views() -> dict[str, ViewData]:
    folder = Path(tempfile.mkdtemp(prefix="memscope-detail-"))
    out: dict[str, ViewData] = {}
    for name, docs in (
            ("demo", generate(7, now=NOW).documents),
            ("2000", generate(7, now=NOW, n_documents=400, n_memories=1600).documents),
            ("chain", bare_chain(LONG)["documents"])):
        (folder / name).mkdir()
        then = ({"expanded": {"expanded": frozenset({"c6"})},
                 "selected": {"selected": "b_v5000"}} if name == "chain" else None)
        for variant, view in first_view(docs, folder / name, then).items():
            out[f"{name}-{variant}" if variant else name] = view
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def draw(browser: Browser, data: dict[str, Any], width: int = 1400,
         height: int = 900, scheme: str = "light") -> Page:
    page = browser.new_page(viewport={"width": width, "height": height},
                            color_scheme=scheme)  # type: ignore[arg-type]
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.route(f"{ORIGIN}/**", serve_assets)
    page.goto(f"{ORIGIN}/")
    page.wait_for_function("() => typeof window.__graphView === 'function'")
    page.evaluate(RENDER, data)
    page.wait_for_function("() => document.querySelector(\"[data-drawn='true']\")")
    page.wait_for_timeout(600)
    assert errors == []
    return page


@pytest.mark.parametrize("name", ["demo", "2000", "chain"])
def test_the_fitted_map_reads(browser: Browser, views: dict[str, ViewData], name: str) -> None:
    view = views[name]
    page = draw(browser, payload(view))
    m = page.locator(GRAPH).evaluate(MEASURE)
    print(f"\n{name}: {len(view['nodes'])} nodes drawn, {m}")
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"detail-{name}-fitted.png"))
    # overlays never hide the map: a legend that would cover a sixth starts closed, and
    # the fit keeps its box free
    assert m["legendShare"] <= 1 / 6 + 0.01 or not m["legendOpen"], m
    assert m["underLegend"] == 0, m
    # the level of detail: no two drawn labels over each other, no cluster name over a
    # node, the map filling the free canvas
    assert m["overlaps"] == 0 and m["namesOverNodes"] == 0, m
    assert m["share"] >= 0.85, m
    # zoomed in: the labels vis-network draws itself are culled too
    graph = page.locator(GRAPH)
    graph.evaluate("el => el.__network.moveTo({scale: el.__network.getScale() * 4})")
    page.wait_for_timeout(400)
    z = graph.evaluate(MEASURE)
    print(f"{name} zoomed 4x: {z['labels']} labels, {z['overlaps']} overlapping pairs, "
          f"{z['namesOverNodes']} names over a node")
    assert z["overlaps"] == 0, z
    page.close()


@pytest.mark.parametrize("name", ["chain-expanded", "chain-selected"])
def test_a_long_chain_opened_or_selected_is_drawn_at_its_place_on_the_line(
        browser: Browser, views: dict[str, ViewData], name: str) -> None:
    """The 20,000-version chain lies along a line from its document (issue 32): an
    expanded hexagon's versions are drawn where the hexagon was, between its neighbours
    on the line, and a selected version by its own cluster's hexagon; the document drawn
    beside it sends no spokes through the line. Screenshots: ``detail-chain-*.png``."""
    view = views[name]
    page = draw(browser, payload(view))
    m = page.locator(GRAPH).evaluate(MEASURE)
    print(f"\n{name}: {len(view['nodes'])} nodes drawn, {m}")
    page.screenshot(path=str(SHOTS / f"detail-{name}.png"))
    assert m["overlaps"] == 0 and m["underLegend"] == 0, m
    at = page.locator(GRAPH).evaluate(PLACES)
    hexagons = {k: v for k, v in at.items() if k.startswith("cluster:")}
    line = sorted(hexagons.values(), key=lambda p: (round(p[1]), p[0]))
    row = [p for p in line if round(p[1]) == round(line[0][1])]
    step = min(abs(a[0] - b[0]) for a, b in pairwise(row))
    if name == "chain-expanded":
        members = [v for k, v in at.items() if not k.startswith("cluster:") and k != "doc"]
        assert len(members) > 100  # the opened cluster, drawn as itself
        centre = (sum(p[0] for p in members) / len(members),
                  sum(p[1] for p in members) / len(members))
        # where its hexagon was: on the line's first row, between its neighbours
        assert abs(centre[1] - line[0][1]) < step / 2
        assert min(p[0] for p in row) < centre[0] < max(p[0] for p in row)
    else:
        version = at["b_v5000"]
        assert min(math.dist(version, p) for p in hexagons.values()) < step
        spokes = [e for e in view["edges"] if e["from"] == "doc"
                  and e["to"].startswith("cluster:") and e["to"] != "cluster:c1"]
        assert spokes == []
    page.close()


def test_a_highlight_fades_the_rest_and_brings_the_view_to_it(
        browser: Browser, views: dict[str, ViewData]) -> None:
    view = views["demo"]
    memories = sorted(n["id"] for n in view["nodes"] if n["kind"] == "memory")
    marked = memories[:: max(1, len(memories) // 6)][:6]
    page = draw(browser, payload(view))
    graph = page.locator(GRAPH)
    before = graph.evaluate("el => el.__network.getScale()")
    page.evaluate(RENDER, payload(highlight(view, marked), fit_ids=marked))
    page.wait_for_timeout(900)  # the animated fit
    o = graph.evaluate(OPACITY)
    print(f"\nhighlight: set {o['on']}, rest at most {o['offMax']}, edges outside at most "
          f"{o['edgesOutMax']}, labels {o['offLabels']}")
    assert len(o["on"]) == len(marked) and max(o["on"]) == 1  # each at its own opacity
    assert o["offMax"] <= FADE + 1e-9 and o["edgesOutMax"] <= FADE + 1e-9
    assert all(c.startswith("rgba(") and c.endswith(f", {FADE})") for c in o["offLabels"])
    # the view came to the set: every highlighted node in the free area, zoomed in
    at = graph.evaluate("""(el, ids) => { const net = el.__network;
      const p = net.getPositions(ids);
      return {scale: net.getScale(), dom: ids.map((id) => net.canvasToDOM(p[id])),
              w: el.clientWidth, h: el.clientHeight}; }""", marked)
    assert at["scale"] >= before
    assert all(0 <= p["x"] <= at["w"] and 0 <= p["y"] <= at["h"] for p in at["dom"])
    page.screenshot(path=str(SHOTS / "detail-highlight-light.png"))
    page.emulate_media(color_scheme="dark")
    page.evaluate("document.body.style.background = '#0e1117'; document.getElementById("
                  "'root').style.setProperty('--st-background-color', '#0e1117'); "
                  "document.getElementById('root').style.setProperty('--st-text-color', "
                  "'#fafafa')")
    page.wait_for_timeout(700)  # the theme's colours again
    page.screenshot(path=str(SHOTS / "detail-highlight-dark.png"))
    # the highlight undone: everything at its own opacity again
    page.evaluate(RENDER, payload(view))
    page.wait_for_timeout(900)
    back = graph.evaluate(OPACITY)
    assert back["edgesOutMax"] == 1
    assert not any(c.startswith("rgba(") and c.endswith(f", {FADE})")
                   for c in back["offLabels"])
    page.close()


def test_the_legend_starts_closed_on_the_slideshow_and_in_a_narrow_window(
        browser: Browser, views: dict[str, ViewData]) -> None:
    view = views["demo"]
    for data, width in ((payload(view, slideshow=True), 1400), (payload(view), 1100)):
        page = draw(browser, data, width=width)
        toggle = page.locator(f"{LEGEND} button[data-action='legend-toggle']")
        assert toggle.get_attribute("aria-expanded") == "false"
        m = page.locator(GRAPH).evaluate(MEASURE)
        assert m["underLegend"] == 0, m
        page.close()
