"""Presenter mode turned on while a node's tooltip is open: nothing of the real text stays.

In a real Chromium on the demo app: hover a memory node until its vis-network tooltip shows
the memory's real text, turn presenter mode on in the sidebar, then no text or attribute of
the page (shadow roots included, the hidden ``.vis-tooltip`` too) and nothing the canvas
draws from (the network's DataSet) holds that text; the view did not move; a tooltip
opened afterwards shows the masked text. Screenshots (light and dark, presenter on, masked
tooltip open) go to ``test-screenshots/`` (git ignores it) for a person to look at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import GRAPH, NODE_CENTRE, chromium, open_app, wait_graph, wait_idle
from playwright.sync_api import Locator, Page

from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "test-screenshots"
TOOLTIP = ".vis-tooltip"
PIECE = 24  # characters of the memory's text looked for (long enough to be its own)

# Memory nodes whose centre is well inside the canvas and on top there (a hover there is
# a hover on that node), with their title: [[id, title], ...].
HOVERABLE = """el => {
  const net = el.__network, box = el.getBoundingClientRect(), out = [];
  for (const n of net.body.data.nodes.get()) {
    if (n.group !== "memory" || typeof n.title !== "string") continue;
    const p = net.getPositions([n.id])[n.id];
    if (!p) continue;
    const dom = net.canvasToDOM(p);
    if (dom.x < 80 || dom.y < 80 || dom.x > box.width - 80 || dom.y > box.height - 80) continue;
    if (net.getNodeAt(dom) !== n.id) continue;
    out.push([n.id, n.title]);
  }
  return out;
}"""
# Every text and attribute value of the page: the document, each open shadow root (the
# graph component lives in one) and each same-origin frame, hidden elements included.
PAGE_TEXT = """() => {
  const out = [];
  const walk = (root) => {
    out.push(root.textContent || "");
    for (const el of root.querySelectorAll("*")) {
      for (const a of el.attributes) out.push(a.value);
      if (el.shadowRoot) walk(el.shadowRoot);
      if (el.tagName === "IFRAME") {
        try { if (el.contentDocument) walk(el.contentDocument.documentElement); }
        catch (e) { /* another origin: nothing of ours */ }
      }
      if ("value" in el && typeof el.value === "string") out.push(el.value);
    }
  };
  walk(document.documentElement);
  return out.join("\\n");
}"""
# What the canvas draws from: the DataSet's labels and titles, and the landmark layer's.
DRAWN_TEXT = """el => {
  const net = el.__network;
  return net.body.data.nodes.get().map(n => `${n.label || ""}\\n${n.title || ""}`)
    .concat(net.body.data.edges.get().map(e => `${e.label || ""}\\n${e.title || ""}`))
    .join("\\n");
}"""
VIEW = "el => [el.__network.getViewPosition(), el.__network.getScale()]"


def sidebar(page: Page) -> Locator:
    return page.locator("[data-testid='stSidebar']")


def hover(page: Page, node: str) -> Locator:
    """Move onto ``node`` (from just beside it, so vis-network sees a move) and return
    its tooltip once shown."""
    centre = page.locator(GRAPH).evaluate(NODE_CENTRE, node)
    page.mouse.move(centre["x"] + 40, centre["y"] + 40)
    page.mouse.move(centre["x"], centre["y"], steps=4)
    tooltip = page.locator(TOOLTIP)
    tooltip.wait_for(state="visible", timeout=10_000)
    return tooltip


def renders(page: Page) -> int:
    return int(page.locator(GRAPH).get_attribute("data-renders") or "0")


def pick_memory(page: Page, memories: dict[str, Any]) -> tuple[str, str]:
    """A hoverable memory node whose tooltip starts with its real text: (id, a piece of it)."""
    for node, title in page.locator(GRAPH).evaluate(HOVERABLE):
        record = memories.get(node)
        text = record.memory if record is not None else None
        if text and len(text) >= PIECE and title.startswith(text[:PIECE]):
            return node, text[:PIECE]
    raise AssertionError("no memory node of the demo graph can be hovered")


def test_presenter_mode_closes_the_open_tooltip(server, data_dir) -> None:
    memories = EmbeddedSource(data_dir / STORE_FILE).load().dataset.memories
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        page = open_app(browser, server.url, color_scheme="light")
        graph = page.locator(GRAPH)
        page.wait_for_timeout(500)
        node, real = pick_memory(page, memories)

        tooltip = hover(page, node)
        assert real in (tooltip.text_content() or "")
        view = graph.evaluate(VIEW)
        before = renders(page)

        toggle = sidebar(page).get_by_text("Presenter mode")
        toggle.click()  # the mouse leaves the graph: vis-network keeps its tooltip open
        wait_idle(page, 1000)
        wait_graph(page)
        for _ in range(80):  # the new payload lands a moment after the script run
            if renders(page) > before:
                break
            page.wait_for_timeout(250)
        assert renders(page) > before, "the graph got no new payload"
        page.wait_for_timeout(500)  # the frame drawn after the new payload

        assert real not in (tooltip.text_content() or ""), "the open tooltip kept the text"
        assert not tooltip.is_visible()
        leaked = page.evaluate(PAGE_TEXT)
        assert real not in leaked, "the page still holds the memory's real text"
        assert real not in graph.evaluate(DRAWN_TEXT)
        assert graph.evaluate(VIEW) == view  # no refit, the view stayed where it was

        # a tooltip opened afterwards shows the masked text of the same node
        tooltip = hover(page, node)
        masked = graph.evaluate("(el, id) => el.__network.body.data.nodes.get(id).title", node)
        assert tooltip.inner_text().strip() == masked.strip()
        assert masked.startswith("Memory ") and real not in masked
        page.screenshot(path=str(SHOTS / "presenter-tooltip-light.png"))

        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(800)
        tooltip = hover(page, node)
        assert tooltip.inner_text().strip() == masked.strip()
        page.screenshot(path=str(SHOTS / "presenter-tooltip-dark.png"))
        assert real not in page.evaluate(PAGE_TEXT)
        page.close()
