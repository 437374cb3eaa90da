"""Presenter mode masks space tags everywhere: a real Chromium on the demo app.

Turn presenter mode on, hover a memory node (its tooltip), open the Profile and the
Insights pages: no text or attribute of the page (shadow roots, frames, hidden tooltips,
plotly's SVG text included) holds any of the demo's real space tags, while the pages do
show the pseudonyms ("Space 1"…). Screenshots (light, dark) go to ``test-screenshots/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import (
    GRAPH,
    NODE_CENTRE,
    chromium,
    menu_choices,
    open_app,
    open_filters,
    wait_graph,
    wait_idle,
)
from playwright.sync_api import Page
from test_presenter_tooltip_browser import PAGE_TEXT, sidebar

from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "test-screenshots"
MEMORY_NODES = """el => {
  const net = el.__network, box = el.getBoundingClientRect(), out = [];
  for (const n of net.body.data.nodes.get()) {
    if (n.group !== "memory") continue;
    const p = net.getPositions([n.id])[n.id];
    if (!p) continue;
    const dom = net.canvasToDOM(p);
    if (dom.x < 80 || dom.y < 80 || dom.x > box.width - 80 || dom.y > box.height - 80) continue;
    if (net.getNodeAt(dom) === n.id) out.push(n.id);
  }
  return out;
}"""

COUNT = "el => el.__network.body.data.nodes.get().filter(n => n.group === 'memory').length"


def leaked(page: Page, tags: set[str]) -> list[str]:
    """The real tags found anywhere in the page."""
    text = page.evaluate(PAGE_TEXT)
    return sorted(t for t in tags if t in text)


def go(page: Page, title: str) -> None:
    sidebar(page).get_by_role("link", name=title).click()
    wait_idle(page, 1200)


def test_presenter_mode_masks_space_tags_everywhere(server, data_dir) -> None:
    ds = EmbeddedSource(data_dir / STORE_FILE).load().dataset
    tags = {m.space for m in ds.memories.values() if m.space} | {
        t for s in ds.spaces for t in (s.container_tag, s.id, s.name)
        if t and t not in ("Personal", "Research")}  # words the app itself may use
    assert len(tags) >= 2, "the demo has several spaces"
    SHOTS.mkdir(parents=True, exist_ok=True)
    with chromium() as browser:
        page = open_app(browser, server.url, color_scheme="light")
        sidebar(page).get_by_text("Presenter mode").click()
        wait_idle(page, 1500)
        wait_graph(page)
        page.wait_for_timeout(800)

        nodes = page.locator(GRAPH).evaluate(MEMORY_NODES)
        assert nodes, "no memory node of the demo graph can be hovered"
        centre = page.locator(GRAPH).evaluate(NODE_CENTRE, nodes[0])
        page.mouse.move(centre["x"] + 40, centre["y"] + 40)
        page.mouse.move(centre["x"], centre["y"], steps=4)
        page.locator(".vis-tooltip").wait_for(state="visible", timeout=10_000)
        assert leaked(page, tags) == [], "explorer (tooltip, panels, sidebar)"
        # the sidebar's Space filter: its open list of options, then one chosen
        drawn = page.locator(GRAPH).evaluate(COUNT)
        open_filters(page)
        box = sidebar(page).locator("[data-testid='stMultiSelect']").filter(has_text="Space")
        options = [o for o in menu_choices(page, box, "Space 3") if o != "Select all"]
        assert sorted(options) == ["Space 1", "Space 2", "Space 3"], options
        assert leaked(page, tags) == [], "the Space filter's options"
        page.locator("[role='option']", has_text="Space 2").click()
        page.keyboard.press("Escape")
        wait_idle(page, 1500)
        wait_graph(page)
        assert leaked(page, tags) == [], "a space chosen in the filter"
        for _ in range(40):  # the filter acts on the masked data (it carries pseudonyms)
            if page.locator(GRAPH).evaluate(COUNT) < drawn:
                break
            page.wait_for_timeout(250)
        assert 0 < page.locator(GRAPH).evaluate(COUNT) < drawn, "the Space filter filters"
        page.screenshot(path=str(SHOTS / "presenter-spaces-explorer-light.png"))

        go(page, "Profile")
        text = page.evaluate(PAGE_TEXT)
        assert "Space 1" in text, "the Profile page names spaces by their pseudonyms"
        assert leaked(page, tags) == [], "profile page"
        page.screenshot(path=str(SHOTS / "presenter-spaces-profile-light.png"), full_page=True)

        go(page, "Insights")
        page.wait_for_selector(".js-plotly-plot", timeout=30_000)
        page.wait_for_timeout(1500)
        assert leaked(page, tags) == [], "insights page (plotly SVG included)"
        page.screenshot(path=str(SHOTS / "presenter-spaces-insights-light.png"),
                        full_page=True)

        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(800)
        page.screenshot(path=str(SHOTS / "presenter-spaces-insights-dark.png"), full_page=True)
        go(page, "Profile")
        assert leaked(page, tags) == [], "profile page (dark)"
        page.screenshot(path=str(SHOTS / "presenter-spaces-profile-dark.png"), full_page=True)
        page.close()
