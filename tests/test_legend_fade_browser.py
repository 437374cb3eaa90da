"""A legend pick is a highlight like the others (issue 32 item 3), in a real Chromium on
the component alone (the harness of test_map_detail_browser.py) with the explorer's first
view of the demo: a click on a line leaves what it names as drawn and fades everything
else to a quarter of its opacity — nothing hidden — and brings the view to the picked
items; a second click (or Enter on the focused line, or "Clear") brings everything back
and the view to the whole map. What is read is what vis-network draws with: each item's
formatting values (the fill's, border's and edge's opacity) and its label's fade.
Screenshots, light and dark, go to ``test-screenshots/legend-fade-*.png``.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from browser_support import chromium
from playwright.sync_api import Page
from test_map_detail_browser import NOW, draw, first_view, payload

from components.sections import legend as legend_rule
from memscope.demo.generator import generate
from memscope.view.build import ViewData
from memscope.view.paint import FADE

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "test-screenshots"
LEGEND_JS = ROOT / "components" / "graph_view" / "frontend" / "assets" / "legend.js"
GRAPH = "[data-testid='memscope-graph']"
LEGEND = "[data-testid='memscope-legend']"

#: per drawn node and edge, the opacity vis-network draws it with now (its formatting
#: values; 1 when it has none of its own) and the one it has of its own (unfaded), whether
#: its label is faded, and the view
DRAWN = """el => {
  const net = el.__network, body = net.body;
  const own = (item) => { const f = item.__msFade; item.__msFade = false;
    const v = item.getFormattingValues(); item.__msFade = f; return v; };
  const op = (v) => (typeof v.opacity === "number" ? v.opacity : 1);
  const nodes = {}, edges = {};
  for (const id of body.nodeIndices) {
    const n = body.nodes[id];
    nodes[id] = {drawn: op(n.getFormattingValues()), own: op(own(n)),
                 label: Boolean(n.labelModule && n.labelModule.__msFade),
                 hidden: Boolean(n.options.hidden)};
  }
  for (const id of body.edgeIndices) {
    const e = body.edges[id];
    edges[id] = {drawn: op(e.getFormattingValues()), own: op(own(e))};
  }
  return {nodes, edges, shown: body.nodeIndices.length, total: Object.keys(body.nodes).length,
          scale: net.getScale(), pick: el.getAttribute("data-legend-pick")};
}"""
#: the page in Streamlit's dark theme (the variables the app sets for the component)
DARK = """() => { const root = document.getElementById('root');
  document.body.style.background = '#0e1117';
  for (const [k, v] of [['--st-background-color', '#0e1117'], ['--st-text-color', '#fafafa'],
                        ['--st-secondary-background-color', '#262730']]) {
    root.style.setProperty(k, v);
  } }"""
#: where the given nodes are on the canvas (DOM px) and the canvas's size
WHERE = """(el, ids) => { const net = el.__network; const p = net.getPositions(ids);
  return {dom: ids.map((id) => net.canvasToDOM(p[id])), w: el.clientWidth,
          h: el.clientHeight}; }"""


@pytest.fixture(scope="module")
def view() -> ViewData:
    folder = Path(tempfile.mkdtemp(prefix="memscope-legend-fade-"))
    return first_view(generate(7, now=NOW).documents, folder)[""]


def test_the_legend_fades_with_the_painters_share() -> None:
    found = re.search(r"^export const FADE = ([\d.]+);", LEGEND_JS.read_text(encoding="utf-8"),
                      re.MULTILINE)
    assert found is not None and float(found.group(1)) == FADE
    # and a big view dragged draws what a pick left out at the same share (drawing.js)
    dragged = re.search(r"^const PICK_FADE = ([\d.]+);",
                        (LEGEND_JS.parent / "drawing.js").read_text(encoding="utf-8"), re.MULTILINE)
    assert dragged is not None and float(dragged.group(1)) == FADE


def drawn(page: Page) -> dict[str, Any]:
    return page.locator(GRAPH).evaluate(DRAWN)


def settle(page: Page) -> None:
    """Until an animated move has ended (vis-network animates frame by frame)."""
    last = None
    for _ in range(60):
        page.wait_for_timeout(150)
        now = page.locator(GRAPH).evaluate(
            "el => { const p = el.__network.getViewPosition(); "
            "return [p.x, p.y, el.__network.getScale()]; }")
        if now == last:
            return
        last = now
    raise AssertionError("the view kept moving")


def expected(view: ViewData, line_id: str) -> tuple[set[str], set[str]]:
    entry = next(e for e in legend_rule.entries(view) if e.line_id == line_id)
    kept = legend_rule.only(view, entry)
    return {n["id"] for n in kept["nodes"]}, {e["id"] for e in kept["edges"]}


def check_faded(d: dict[str, Any], nodes: set[str], edges: set[str]) -> None:
    """``nodes`` and ``edges`` as drawn; every other one at most FADE of its own opacity,
    its label faded too; nothing hidden."""
    assert d["shown"] == d["total"] and not any(n["hidden"] for n in d["nodes"].values())
    assert nodes and nodes <= set(d["nodes"])
    for node_id, n in d["nodes"].items():
        if node_id in nodes:
            assert n["drawn"] == n["own"] and not n["label"], node_id
        else:
            assert n["drawn"] <= FADE * n["own"] + 1e-9 and n["label"], node_id
    for edge_id, e in d["edges"].items():
        if edge_id in edges:
            assert e["drawn"] == e["own"], edge_id
        else:
            assert e["drawn"] <= FADE * e["own"] + 1e-9, edge_id
    rest = [n["drawn"] for i, n in d["nodes"].items() if i not in nodes]
    assert rest and max(rest) <= 0.25


def check_whole(d: dict[str, Any]) -> None:
    assert d["shown"] == d["total"] and d["pick"] == ""
    assert all(n["drawn"] == n["own"] and not n["label"] for n in d["nodes"].values())
    assert all(e["drawn"] == e["own"] for e in d["edges"].values())


def open_section(page: Page, line_id: str) -> None:
    section = line_id.split(":", 1)[0]
    if page.locator(f"{LEGEND} button[data-line='{line_id}']").is_visible():
        return
    page.locator(f"{LEGEND} button[data-action='legend-section-{section}']").click()


def test_a_legend_pick_fades_the_rest_and_comes_back(view: ViewData) -> None:
    with chromium() as browser:
        page = draw(browser, payload(view))
        graph = page.locator(GRAPH)
        start = drawn(page)
        check_whole(start)
        # a colour group: its nodes and the edges between them as drawn, the rest faded
        group = next(e for e in legend_rule.entries(view) if e.section == "group")
        nodes, edges = expected(view, group.line_id)
        assert len(nodes) < len(start["nodes"])
        line = page.locator(f"{LEGEND} button[data-line='{group.line_id}']")
        line.click()
        settle(page)
        picked = drawn(page)
        assert picked["pick"] == group.line_id
        assert line.get_attribute("aria-pressed") == "true"
        check_faded(picked, nodes, edges)
        assert page.get_by_text(f"Highlighting {group.label}; the rest is faded").count() == 1
        # the view came to the picked nodes: each in the canvas, zoomed in (or as before)
        at = graph.evaluate(WHERE, sorted(nodes))
        assert picked["scale"] >= start["scale"] * 0.999
        assert all(0 <= p["x"] <= at["w"] and 0 <= p["y"] <= at["h"] for p in at["dom"])
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "legend-fade-group-light.png"))
        page.emulate_media(color_scheme="dark")
        page.evaluate(DARK)
        page.wait_for_timeout(700)  # the theme's colours again: the fade stays
        check_faded(drawn(page), nodes, edges)
        page.screenshot(path=str(SHOTS / "legend-fade-group-dark.png"))
        # the second click: everything as drawn, the whole map in view again
        line = page.locator(f"{LEGEND} button[data-line='{group.line_id}']")
        line.click()
        settle(page)
        back = drawn(page)
        check_whole(back)
        assert back["scale"] < picked["scale"]
        page.locator("button[data-action='fit-all']").click()  # the whole map's fit
        settle(page)
        assert abs(drawn(page)["scale"] - back["scale"]) <= back["scale"] * 0.01
        page.close()


def test_an_edge_kind_keeps_its_ends_and_the_keyboard_picks_too(view: ViewData) -> None:
    with chromium() as browser:
        page = draw(browser, payload(view))
        line_id = "edge:updates"
        nodes, edges = expected(view, line_id)
        assert edges
        open_section(page, line_id)
        line = page.locator(f"{LEGEND} button[data-line='{line_id}']")
        line.focus()
        page.keyboard.press("Enter")
        settle(page)
        check_faded(drawn(page), nodes, edges)
        page.screenshot(path=str(SHOTS / "legend-fade-edges-light.png"))
        # the line drawn again keeps the keyboard's focus: Enter again clears the pick
        assert page.evaluate("() => document.activeElement.dataset.line") == line_id
        page.keyboard.press("Enter")
        settle(page)
        check_whole(drawn(page))
        # a state, then "Clear"
        state_id = "state:superseded"
        nodes, edges = expected(view, state_id)
        open_section(page, state_id)
        page.locator(f"{LEGEND} button[data-line='{state_id}']").click()
        settle(page)
        check_faded(drawn(page), nodes, edges)
        page.screenshot(path=str(SHOTS / "legend-fade-state-light.png"))
        page.locator(f"{LEGEND} button[data-action='legend-all']").focus()
        page.keyboard.press("Enter")
        settle(page)
        check_whole(drawn(page))
        # "Clear" is gone with the pick: the keyboard lands on the line it cleared
        assert page.evaluate("() => document.activeElement.dataset.line") == state_id
        page.close()
