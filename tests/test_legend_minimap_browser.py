"""The legend on the canvas, the minimap, the selection ring and the cluster names, in a
real Chromium on the demo store (issue 23, items 4 and 6 and the canvas's small trips).

One journey on one server: the legend panel sits over the canvas's top-left corner with
whole counts, a click on a line leaves exactly what :func:`components.sections.legend.only`
keeps unfaded (a colour group, a state, an edge kind) and fades the rest, hiding none;
a second click or "Clear" brings every node back, the panel collapses; zoomed past 2× the
minimap shows and a click on it moves the view; a selected superseded memory keeps its
dashes, fill and opacity; every cluster name is drawn inside the canvas and off the legend.
Screenshots (light, dark, presenter; 1400×900 and 1920×1080) go to ``test-screenshots/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pytest
from browser_support import GRAPH, chromium, open_app
from playwright.sync_api import FloatRect, Locator, Page

from components.sections import legend as legend_rule
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource
from memscope.view.build import ViewData

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "test-screenshots"
LEGEND = "[data-testid='memscope-legend']"
MINIMAP = "[data-testid='memscope-minimap']"
#: what the test needs of the drawn items (the rule reads these fields only)
DUMP = """el => ({
  nodes: el.__network.body.data.nodes.get().map(n => ({id: n.id, kind: n.kind,
    color_group: n.color_group || "", state: n.state, static: n.static,
    inferred: n.inferred, hidden: Boolean(n.hidden)})),
  edges: el.__network.body.data.edges.get().map(e => ({id: e.id, from: e.from, to: e.to,
    kind: e.kind, hidden: Boolean(e.hidden)})),
  legend: el.__legend,
})"""
#: the nodes and edges vis-network draws unfaded (a legend pick fades the rest: nothing
#: is hidden, so every drawn one is counted in `drawn`)
SHOWN = """el => { const body = el.__network.body;
  return {nodes: body.nodeIndices.filter(id => !body.nodes[id].__msFade),
          edges: body.edgeIndices.filter(id => !body.edges[id].__msFade),
          drawn: body.nodeIndices.length, total: Object.keys(body.nodes).length}; }"""
VIEW = """el => { const n = el.__network; const p = n.getViewPosition();
  return {x: p.x, y: p.y, scale: n.getScale(), zoom: el.__stats.minimapZoom,
          rect: el.__stats.minimapRect, boxes: el.__stats.annotationBoxes,
          w: el.clientWidth, h: el.clientHeight}; }"""


#: the panel's visible counts and those clipped by their box or the panel's right edge
COUNTS = """el => { const right = el.getBoundingClientRect().right;
  const counts = [...el.querySelectorAll('.ms-legend-count')].filter(e => e.checkVisibility());
  return {texts: counts.map(e => e.innerText),
          clipped: counts.filter(e => e.scrollWidth > e.clientWidth
                                 || e.getBoundingClientRect().right > right + 0.5)
                         .map(e => e.textContent)}; }"""


def frame(page: Page) -> None:
    """Let the graph draw a frame or two."""
    page.wait_for_timeout(400)


def settle(page: Page) -> None:
    """Wait until an animated move has ended (vis-network animates frame by frame, so a
    slow machine takes longer)."""
    graph = page.locator(GRAPH)
    last = None
    for _ in range(60):
        page.wait_for_timeout(150)
        now = graph.evaluate("el => { const p = el.__network.getViewPosition(); "
                             "return [p.x, p.y, el.__network.getScale()]; }")
        if now == last:
            return
        last = now
    raise AssertionError("the view kept moving")


def dump(page: Page) -> dict[str, Any]:
    return page.locator(GRAPH).evaluate(DUMP)


def as_view(d: dict[str, Any]) -> ViewData:
    return {"nodes": d["nodes"], "edges": d["edges"], "legend": d["legend"]}  # type: ignore


def expected(d: dict[str, Any], line_id: str) -> tuple[set[str], set[str]]:
    """The node and edge ids :func:`legend.only` keeps for the line ``line_id``."""
    entry = next(e for e in legend_rule.entries(as_view(d)) if e.line_id == line_id)
    kept = legend_rule.only(as_view(d), entry)
    return {n["id"] for n in kept["nodes"]}, {e["id"] for e in kept["edges"]}


def shown(page: Page) -> tuple[set[str], set[str]]:
    """The nodes and edges drawn unfaded (every node is drawn: a pick hides none)."""
    s = page.locator(GRAPH).evaluate(SHOWN)
    assert s["drawn"] == s["total"]
    return set(s["nodes"]), set(s["edges"])


def line(page: Page, line_id: str) -> Locator:
    """The legend's line ``line_id``, its section opened first (only the colours show at
    first)."""
    found = page.locator(f"{LEGEND} button[data-line='{line_id}']")
    if not found.is_visible():
        section = line_id.split(":", 1)[0]
        title = page.locator(f"{LEGEND} button[data-action='legend-section-{section}']")
        assert title.get_attribute("aria-expanded") == "false"
        title.click()
        assert title.get_attribute("aria-expanded") == "true"
    return found


def click_line_and_check(page: Page, line_id: str, everything: tuple[set[str], set[str]]
                         ) -> None:
    """A click on a line leaves exactly what the rule keeps unfaded; a second click brings
    everything back."""
    d = dump(page)
    want_nodes, want_edges = expected(d, line_id)
    line(page, line_id).click()
    frame(page)
    nodes, edges = shown(page)
    assert nodes == want_nodes and 0 < len(nodes) <= len(everything[0])
    assert edges == want_edges
    assert line(page, line_id).get_attribute("aria-pressed") == "true"
    assert page.locator(GRAPH).get_attribute("data-legend-pick") == line_id
    line(page, line_id).click()
    frame(page)
    assert shown(page) == everything
    assert page.locator(GRAPH).get_attribute("data-legend-pick") == ""


def inside(box: FloatRect, outer: FloatRect) -> bool:
    return (box["x"] >= outer["x"] - 0.5 and box["y"] >= outer["y"] - 0.5
            and box["x"] + box["width"] <= outer["x"] + outer["width"] + 0.5
            and box["y"] + box["height"] <= outer["y"] + outer["height"] + 0.5)


def check_legend_on_canvas(page: Page) -> None:
    """The panel is over the canvas's left corner; no count is clipped."""
    graph = page.locator(GRAPH).bounding_box()
    panel = page.locator(LEGEND).bounding_box()
    assert graph is not None and panel is not None
    assert inside(panel, graph)
    assert panel["x"] - graph["x"] < 20 and panel["y"] - graph["y"] < 20  # top-left
    assert panel["width"] < graph["width"] / 3
    # one read of the panel as it is: a render rebuilds the panel's lines, so counts
    # found in one call may be detached by the next
    got = page.locator(LEGEND).evaluate(COUNTS)
    assert len(got["texts"]) >= 8
    assert got["clipped"] == []
    texts = got["texts"]
    assert all(t.replace(",", "").isdigit() for t in texts)


def check_names_inside(page: Page) -> None:
    """Every cluster name drawn is whole inside the canvas and off the legend panel."""
    v = page.locator(GRAPH).evaluate(VIEW)
    graph = page.locator(GRAPH).bounding_box()
    panel = page.locator(LEGEND).bounding_box()
    assert graph is not None and panel is not None and v["boxes"]
    px, py = panel["x"] - graph["x"], panel["y"] - graph["y"]
    for x0, y0, x1, y1 in v["boxes"]:
        assert min(x0, y0) >= 0 and x1 <= v["w"] and y1 <= v["h"], (x0, y0, x1, y1)
        assert (x0 >= px + panel["width"] or x1 <= px or y0 >= py + panel["height"]
                or y1 <= py), "a cluster name under the legend"


def journey(page: Page, superseded: str) -> None:
    graph = page.locator(GRAPH)
    everything = shown(page)
    check_legend_on_canvas(page)
    check_names_inside(page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "legend-light-1400.png"))
    page.locator(LEGEND).screenshot(path=str(SHOTS / "legend-panel-light.png"))
    # a colour group, a state (the inferred mark) and an edge kind, each alone and back
    d = dump(page)
    ids = [e.line_id for e in legend_rule.entries(as_view(d))]
    group = ids[0]
    assert group.startswith("group:")
    for line_id in (group, "state:inferred", "edge:updates"):
        assert line_id in ids
        click_line_and_check(page, line_id, everything)
    # "Clear" undoes a pick too; the status says what is highlighted
    line(page, "state:superseded").click()
    frame(page)
    assert page.get_by_text("the rest is faded", exact=False).count() == 1
    assert len(shown(page)[0]) < len(everything[0])
    page.screenshot(path=str(SHOTS / "legend-picked-light-1400.png"))
    page.locator(f"{LEGEND} button[data-action='legend-all']").click()
    frame(page)
    assert shown(page) == everything
    assert page.get_by_text("the rest is faded", exact=False).count() == 0
    # collapse and expand
    toggle = page.locator(f"{LEGEND} button[data-action='legend-toggle']")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "false"
    first = page.locator(f"{LEGEND} button[data-line='{group}']")
    assert not first.is_visible()
    page.locator(LEGEND).screenshot(path=str(SHOTS / "legend-collapsed-light.png"))
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert first.is_visible()
    # the minimap: hidden at the fitted view, shown past 2x, a click moves the view
    minimap = page.locator(MINIMAP)
    page.locator("button[data-action='fit-all']").click()
    settle(page)
    assert not minimap.is_visible()
    at = graph.evaluate(VIEW)
    assert at["zoom"] < 2
    graph.evaluate("(el, s) => el.__network.moveTo({scale: s})", at["scale"] * 3)
    frame(page)
    minimap.wait_for(state="visible", timeout=5_000)
    before = graph.evaluate(VIEW)
    assert before["zoom"] > 2 and before["rect"] is not None
    box = minimap.bounding_box()
    assert box is not None and inside(box, graph.bounding_box() or box)
    # click a corner of the overview, away from the "you are here" rectangle
    rect = before["rect"]
    tx = 20 if rect["x"] + rect["w"] / 2 > 90 else 160
    ty = 20 if rect["y"] + rect["h"] / 2 > 60 else 100
    minimap.click(position={"x": tx, "y": ty})
    settle(page)
    after = graph.evaluate(VIEW)
    assert abs(after["scale"] - before["scale"]) < before["scale"] * 0.01  # same zoom
    moved = abs(after["x"] - before["x"]) + abs(after["y"] - before["y"])
    assert moved > 50 / before["scale"]
    centre = (after["rect"]["x"] + after["rect"]["w"] / 2,
              after["rect"]["y"] + after["rect"]["h"] / 2)
    assert abs(centre[0] - tx) < 4 and abs(centre[1] - ty) < 4  # "you are here" follows
    page.screenshot(path=str(SHOTS / "minimap-light-1400.png"))
    # back to the whole graph: the minimap goes away
    page.locator("button[data-action='fit-all']").click()
    settle(page)
    assert not minimap.is_visible()
    check_selected_keeps_its_style(page, superseded)


STYLE = """(el, id) => {
  const node = el.__network.body.nodes[id];
  const values = node.getFormattingValues();
  const plain = (() => { const s = node.selected; node.selected = false;
    const v = node.getFormattingValues(); node.selected = s; return v; })();
  return {selected: node.selected, values, plain,
          dashes: node.options.shapeProperties.borderDashes,
          font: node.options.font.face};
}"""


def check_selected_keeps_its_style(page: Page, node_id: str) -> None:
    """A selected superseded memory is drawn with its own dashes, fill, border and
    opacity (the selection is a ring around it)."""
    graph = page.locator(GRAPH)
    graph.evaluate("(el, id) => { el.__network.selectNodes([id]); "
                   "el.__network.focus(id, {scale: 2.5}); }", node_id)
    settle(page)
    s = graph.evaluate(STYLE, node_id)
    assert s["selected"] is True
    assert s["dashes"] and s["values"]["borderDashes"] == s["dashes"]
    for key in ("color", "borderColor", "opacity", "borderDashes"):
        assert s["values"][key] == s["plain"][key], key
    assert "Noto Sans CJK SC" in s["font"]  # labels fall back to a CJK face where one is
    page.screenshot(path=str(SHOTS / "selected-superseded-light-1400.png"))


def superseded_memory(data_dir: Path) -> str:
    ds = EmbeddedSource(data_dir / STORE_FILE).load().dataset
    return sorted(m.id for m in ds.memories.values()
                  if not m.is_latest and not m.is_forgotten)[0]


def switch_scheme(page: Page, scheme: Literal["light", "dark"]) -> None:
    """Switch the open page to ``scheme`` (the app and the graph follow the system's
    colours) and wait until the page is drawn in it."""
    page.emulate_media(color_scheme=scheme)
    page.wait_for_function(
        """want => { const c = getComputedStyle(document.querySelector(
              "[data-testid='stApp']")).backgroundColor.match(/\\d+/g).map(Number);
            const lum = (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255;
            return want === "dark" ? lum < 0.3 : lum > 0.8; }""", arg=scheme, timeout=20_000)
    page.wait_for_timeout(700)  # the canvas redraws in the new colours


def check_variant(page: Page, name: str, w: int, tags: set[str]) -> None:
    """The legend and the cluster names on the page as it is now, and its screenshots."""
    check_legend_on_canvas(page)
    check_names_inside(page)
    text = page.locator(LEGEND).inner_text()
    if name == "presenter":
        assert [t for t in tags if t in text] == []
    page.screenshot(path=str(SHOTS / f"legend-{name}-{w}.png"))
    if w == 1400:
        page.locator(LEGEND).screenshot(path=str(SHOTS / f"legend-panel-{name}.png"))
    # a colour group picked: it stays, the rest fades (a room sees the group stand out)
    everything = shown(page)
    group = page.locator(f"{LEGEND} .ms-legend-line[data-section='group']").first
    group_id = group.get_attribute("data-line")
    group.click()
    settle(page)
    assert 0 < len(shown(page)[0]) < len(everything[0])
    page.screenshot(path=str(SHOTS / f"legend-picked-{name}-{w}.png"))
    page.locator(f"{LEGEND} button[data-line='{group_id}']").click()
    settle(page)
    assert shown(page) == everything


def test_legend_minimap_and_selection_on_the_canvas(server, data_dir) -> None:
    superseded = superseded_memory(data_dir)
    ds = EmbeddedSource(data_dir / STORE_FILE).load().dataset
    tags = {m.container_tag for m in ds.memories.values() if m.container_tag}
    SHOTS.mkdir(parents=True, exist_ok=True)
    # four page loads, one per size and mode; light and dark are the same page switched
    # (as the system's colours switch), checked before the journey moves the view
    with chromium() as browser:
        page = open_app(browser, server.url)
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        switch_scheme(page, "dark")
        check_variant(page, "dark", 1400, tags)
        switch_scheme(page, "light")
        journey(page, superseded)
        assert problems == []
        page.close()
        page = open_app(browser, server.url, width=1920, height=1080, color_scheme="light")
        check_variant(page, "light", 1920, tags)
        switch_scheme(page, "dark")
        check_variant(page, "dark", 1920, tags)
        page.close()
        for scheme, (w, h) in (("dark", (1400, 900)), ("light", (1920, 1080))):
            page = open_app(browser, f"{server.url}/?presenter=1", width=w, height=h,
                            color_scheme=scheme)
            check_variant(page, "presenter", w, tags)
            page.close()
