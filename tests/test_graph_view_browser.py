"""The graph component in a real Chromium: click → Python, text stays text, all offline."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from browser_support import GRAPH, IDLE, NODE_CENTRE, assert_loopback_only, chromium
from playwright.sync_api import Browser, Page, WebSocket
from streamlit_server import StreamlitServer, free_port, start_streamlit

pytestmark = pytest.mark.browser
ALERT_TRAP = """
window.__alerts = [];
for (const name of ["alert", "confirm", "prompt"]) {
  window[name] = (...args) => { window.__alerts.push([name, ...args]); };
}
"""


@dataclass
class Traffic:
    """Every request URL and the websocket bytes the page received."""

    urls: list[str] = field(default_factory=list)
    ws_bytes: int = 0
    dialogs: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def server() -> Iterator[StreamlitServer]:
    srv = start_streamlit("components/graph_view/demo_app.py", free_port())
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def chromium_browser() -> Iterator[Browser]:
    with chromium() as browser:
        yield browser


@pytest.fixture
def app_page(server: StreamlitServer,
             chromium_browser: Browser) -> Iterator[tuple[Page, Traffic]]:
    context = chromium_browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    traffic = Traffic()
    page.on("request", lambda request: traffic.urls.append(request.url))
    page.on("dialog", lambda dialog: (traffic.dialogs.append(dialog.message), dialog.dismiss()))

    def on_socket(ws: WebSocket) -> None:
        def count(payload: bytes | str) -> None:
            traffic.ws_bytes += len(payload)

        ws.on("framereceived", count)

    page.on("websocket", on_socket)
    page.add_init_script(ALERT_TRAP)
    page.goto(server.url)
    page.wait_for_selector(IDLE, timeout=30_000)
    page.wait_for_selector(f"{GRAPH} canvas", timeout=30_000)
    page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=30_000)
    yield page, traffic
    context.close()


def _idle(page: Page) -> None:
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE, timeout=30_000)


def test_click_selects_and_hostile_text_stays_text(app_page: tuple[Page, Traffic]) -> None:
    pg, traffic = app_page
    graph = pg.locator(GRAPH)
    centre = graph.evaluate(NODE_CENTRE, "doc_hostile")

    pg.mouse.move(centre["x"], centre["y"])
    tooltip = pg.locator(".vis-tooltip")
    tooltip.wait_for(state="visible", timeout=10_000)
    assert tooltip.text_content().startswith("<img src=x onerror=alert('title')>")
    assert tooltip.evaluate("el => el.querySelectorAll('img, script, a, svg').length") == 0

    before_click = traffic.ws_bytes
    pg.mouse.click(centre["x"], centre["y"])
    pg.get_by_text("Selected node: doc_hostile").wait_for(timeout=10_000)
    _idle(pg)
    assert graph.evaluate("el => el.__network.getSelectedNodes()") == ["doc_hostile"]
    # the payload did not change, so the graph was not sent or drawn again
    assert graph.get_attribute("data-renders") == "1"
    assert traffic.ws_bytes - before_click < 20_000

    assert pg.evaluate("() => window.__alerts") == []
    assert traffic.dialogs == []
    assert pg.locator("img[src='x'], svg[onload], script:has-text('alert')").count() == 0
    assert any(url.startswith("blob:") for url in traffic.urls)  # the components' modules
    assert_loopback_only(traffic.urls)


def test_new_data_updates_the_same_network(app_page: tuple[Page, Traffic]) -> None:
    pg, traffic = app_page
    graph = pg.locator(GRAPH)
    graph.evaluate("el => { window.__firstNetwork = el.__network; }")
    entity_colour = "el => el.__network.body.data.nodes.get('e_zs').color.background"
    assert graph.evaluate(entity_colour) != "#DDDDDD"  # coloured by cluster

    before = traffic.ws_bytes
    pg.get_by_text("space", exact=True).click()
    pg.wait_for_selector(f"{GRAPH}[data-renders='2']", timeout=10_000)
    _idle(pg)
    assert graph.evaluate("el => el.__network === window.__firstNetwork")
    # new data re-sends the payload and our small module, never the 470 KB library
    assert traffic.ws_bytes - before < 150_000
    assert graph.get_attribute("data-node-count") == "36"
    assert graph.evaluate("el => el.parentElement.parentNode.querySelectorAll('canvas').length"
                          ) == 1
    assert graph.evaluate(entity_colour) == "#DDDDDD"  # entities have no space

    assert graph.evaluate("el => el.__network.physics.options.enabled") is False
    pg.get_by_text("Physics").click()
    pg.wait_for_selector(f"{GRAPH}[data-renders='3']", timeout=10_000)
    assert graph.evaluate("el => el.__network.physics.options.enabled") is True
    assert graph.evaluate("el => el.__network === window.__firstNetwork")


SWITCH_APP = '''
import streamlit as st
from components.graph_view import graph_view

FULL = {"nodes": [
    {"id": "a", "label": "a", "title": "A", "x": 0, "y": 0, "opacity": 0.4, "borderWidth": 3,
     "shapeProperties": {"borderDashes": [4, 3]}, "font": {"color": "#8C8C8C"},
     "shadow": {"enabled": True, "color": "#0072B2", "size": 9, "x": 0, "y": 0}},
    {"id": "b", "label": "b", "title": "B", "x": 200, "y": 0}],
    "edges": [{"id": "e0", "from": "a", "to": "b", "title": "knows", "label": "knows",
               "arrows": "to"}]}
BARE = {"nodes": [{"id": "a", "label": "a", "title": "A", "x": 0, "y": 0},
                  {"id": "b", "label": "b", "title": "B", "x": 200, "y": 0},
                  {"id": "c", "label": "c", "title": "C"}],
        "edges": [{"id": "e0", "from": "a", "to": "b"}]}
which = st.radio("view", ["full", "bare"], key="which")
graph_view(FULL if which == "full" else BARE, key="graph", height=400)
'''
STYLE_OF_A = """el => {
  const net = el.__network, a = net.body.nodes.a, e = net.body.edges.e0;
  return {opacity: a.options.opacity, dashes: a.options.shapeProperties.borderDashes,
          border: a.options.borderWidth, shadow: a.options.shadow.enabled,
          edgeTitle: e.title === undefined, arrow: e.options.arrows.to.enabled,
          nodes: net.body.data.nodes.length, c: net.getPositions(["c"]).c || null};
}"""


def test_fields_that_disappear_are_reset(tmp_path: Path, chromium_browser: Browser) -> None:
    script = tmp_path / "switch_app.py"
    script.write_text(SWITCH_APP, encoding="utf-8")
    srv = start_streamlit(script, free_port())
    context = chromium_browser.new_context()
    try:
        pg = context.new_page()
        pg.goto(srv.url)
        pg.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=30_000)
        graph = pg.locator(GRAPH)
        full = graph.evaluate(STYLE_OF_A)
        assert (full["opacity"], full["dashes"], full["border"], full["shadow"]) == (
            0.4, [4, 3], 3, True)
        assert full["edgeTitle"] is False and full["arrow"] is True

        pg.get_by_text("bare", exact=True).click()
        pg.wait_for_selector(f"{GRAPH}[data-renders='2']", timeout=10_000)
        pg.wait_for_timeout(500)
        bare = graph.evaluate(STYLE_OF_A)
        assert (bare["opacity"], bare["dashes"], bare["border"], bare["shadow"]) == (
            1, False, 1, False)
        assert bare["edgeTitle"] is True and bare["arrow"] is False
        assert bare["nodes"] == 3 and bare["c"] is not None  # placed without coordinates
    finally:
        context.close()
        srv.stop()
