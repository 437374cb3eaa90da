"""The graph component in a real Chromium: click → Python, text stays text, all offline;
the toolbar and keys move the view, one draw per data change, a tooltip open at a data change
is closed, labels readable at fit zoom, and the dark theme."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from browser_support import GRAPH, IDLE, NODE_CENTRE, assert_loopback_only, chromium
from playwright.sync_api import Browser, Dialog, Locator, Page, WebSocket
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
    errors: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def server(graph_demo: StreamlitServer) -> StreamlitServer:
    """The graph component's demo app (conftest's ``graph_demo``)."""
    return graph_demo


@pytest.fixture(scope="module")
def chromium_browser() -> Iterator[Browser]:
    with chromium() as browser:
        yield browser


@pytest.fixture(params=["light"])
def app_page(request: pytest.FixtureRequest, server: StreamlitServer,
             chromium_browser: Browser) -> Iterator[tuple[Page, Traffic]]:
    context = chromium_browser.new_context(viewport={"width": 1400, "height": 900},
                                           color_scheme=request.param)
    page = context.new_page()
    traffic = Traffic()
    page.on("console", lambda msg: traffic.errors.append(msg.text)
            if msg.type == "error" else None)
    page.on("pageerror", lambda exc: traffic.errors.append(str(exc)))
    page.on("request", lambda request: traffic.urls.append(request.url))
    def on_dialog(dialog: Dialog) -> None:
        traffic.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)

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
    assert (tooltip.text_content() or "").startswith("<img src=x onerror=alert('title')>")
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

    # the first draw came after the fit, and it was the only one
    assert graph.evaluate("el => el.__stats.draws") == 1
    assert graph.evaluate("el => el.__stats.fittedFirst") is True
    assert graph.evaluate("el => el.__stats.firstDrawScale") == pytest.approx(
        graph.evaluate("el => el.__network.getScale()"))

    before = traffic.ws_bytes
    pg.get_by_text("space", exact=True).click()
    pg.wait_for_selector(f"{GRAPH}[data-renders='2']", timeout=10_000)
    _idle(pg)
    pg.wait_for_timeout(500)
    assert graph.evaluate("el => el.__network === window.__firstNetwork")
    # every node changed colour in one batch: one more draw, not one per DataSet event
    assert graph.evaluate("el => el.__stats.draws") == 2
    # new data re-sends the payload and our small module, never the 470 KB library
    assert traffic.ws_bytes - before < 150_000
    assert graph.get_attribute("data-node-count") == "36"
    assert graph.evaluate("el => el.parentElement.parentNode"
                          ".querySelectorAll('.vis-network canvas').length") == 1
    assert graph.evaluate(entity_colour) == "#DDDDDD"  # entities have no space

    assert graph.evaluate("el => el.__network.physics.options.enabled") is False
    pg.get_by_text("Physics").click()
    pg.wait_for_selector(f"{GRAPH}[data-renders='3']", timeout=10_000)
    assert graph.evaluate("el => el.__network.physics.options.enabled") is True
    assert graph.evaluate("el => el.__network === window.__firstNetwork")


def test_new_data_closes_the_open_tooltip(app_page: tuple[Page, Traffic]) -> None:
    """A tooltip open when a new payload arrives is closed and emptied (its text may be
    masked or gone now); the view stays; the next hover shows the new payload's title."""
    pg, _ = app_page
    graph = pg.locator(GRAPH)
    tooltip = pg.locator(".vis-tooltip")
    centre = graph.evaluate(NODE_CENTRE, "doc_hostile")
    pg.mouse.move(centre["x"], centre["y"])
    tooltip.wait_for(state="visible", timeout=10_000)
    assert "onerror" in (tooltip.text_content() or "")
    view = graph.evaluate("el => [el.__network.getViewPosition(), el.__network.getScale()]")

    pg.get_by_text("space", exact=True).click()  # the pointer leaves the graph for the radio
    pg.wait_for_selector(f"{GRAPH}[data-renders='2']", timeout=10_000)
    _idle(pg)
    assert not tooltip.is_visible()
    assert tooltip.text_content() == ""
    assert graph.evaluate("el => el.__network.interactionHandler.popupObj") is None
    assert graph.evaluate("el => Object.keys(el.__network.selectionHandler.hoverObj.nodes)"
                          ) == []
    assert graph.evaluate("el => [el.__network.getViewPosition(), el.__network.getScale()]"
                          ) == view

    pg.mouse.move(centre["x"] + 30, centre["y"] + 30)
    pg.mouse.move(centre["x"], centre["y"], steps=3)
    tooltip.wait_for(state="visible", timeout=10_000)
    title = graph.evaluate("el => el.__network.body.data.nodes.get('doc_hostile').title")
    assert tooltip.inner_text().strip() == title.strip()


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
st.text(f"sel: {graph_view(FULL if which == 'full' else BARE, key='graph', height=400)}")
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
        # the node added by the update is clickable once its layout has settled
        graph.evaluate("""el => new Promise(done => { const poll = () =>
            el.__network.physics.physicsEnabled ? setTimeout(poll, 50) : done(); poll(); })""")
        pg.wait_for_timeout(300)
        centre = graph.evaluate(NODE_CENTRE, "c")
        pg.mouse.click(centre["x"], centre["y"])
        pg.get_by_text("sel: c").wait_for(timeout=10_000)
    finally:
        context.close()
        srv.stop()


VIEW = "el => ({scale: el.__network.getScale(), ...el.__network.getViewPosition()})"
IN_VIEW = """(el, ids) => {
  const net = el.__network, box = el.getBoundingClientRect(), pos = net.getPositions(ids);
  return ids.every(id => { const d = net.canvasToDOM(pos[id]);
    return d.x >= 0 && d.y >= 0 && d.x <= box.width && d.y <= box.height; });
}"""


SPAN = """(el, ids) => {
  const net = el.__network, box = el.getBoundingClientRect();
  const pos = Object.values(net.getPositions(ids)).map(p => net.canvasToDOM(p));
  const xs = pos.map(p => p.x), ys = pos.map(p => p.y);
  return Math.max((Math.max(...xs) - Math.min(...xs)) / box.width,
                  (Math.max(...ys) - Math.min(...ys)) / box.height);
}"""


def _span(graph: Locator, ids: list[str]) -> float:
    """The larger share of the canvas's width or height that ``ids`` span on screen."""
    return graph.evaluate(SPAN, ids)


def _find(page: Page, text: str) -> None:
    """Type into the demo's Find box and wait for the rerun."""
    page.get_by_label("Find").fill(text)
    page.get_by_label("Find").press("Enter")
    _idle(page)


def _height(locator: Locator) -> float:
    box = locator.bounding_box()
    assert box is not None
    return box["height"]


def _settle(page: Page) -> None:
    """Wait until the view's animation (200–350 ms, counted in frames) has ended."""
    graph = page.locator(GRAPH)
    last = None
    for _ in range(50):
        page.wait_for_timeout(150)
        now = graph.evaluate(VIEW)
        if now == last:
            return
        last = now
    raise AssertionError("the graph view kept moving for 7.5 s")


def test_toolbar_keys_and_fits_move_the_view(app_page: tuple[Page, Traffic]) -> None:
    pg, traffic = app_page
    graph = pg.locator(GRAPH)
    toolbar = pg.locator(".ms-graph-toolbar")
    labels = toolbar.locator("button").evaluate_all("bs => bs.map(b => b.ariaLabel)")
    assert len(labels) == 6 and all(labels)
    assert toolbar.locator("[data-action='fit-selection']").is_disabled()
    assert toolbar.locator("[data-action='fit-filtered']").is_hidden()
    fitted = graph.evaluate(VIEW)

    toolbar.locator("[data-action='zoom-in']").click()
    _settle(pg)
    assert graph.evaluate(VIEW)["scale"] > fitted["scale"] * 1.2
    # a click on a node still selects it after zooming
    centre = graph.evaluate(NODE_CENTRE, "doc_trip")
    pg.mouse.click(centre["x"], centre["y"])
    pg.get_by_text("Selected node: doc_trip").wait_for(timeout=10_000)
    _idle(pg)

    toolbar.locator("[data-action='fit-selection']").click()
    _settle(pg)
    view = graph.evaluate(VIEW)
    node = graph.evaluate("el => el.__network.getPositions(['doc_trip']).doc_trip")
    assert view["x"] == pytest.approx(node["x"], abs=1) and view["y"] == pytest.approx(
        node["y"], abs=1)
    neighbours = graph.evaluate("el => el.__network.getConnectedNodes('doc_trip')")
    assert neighbours and graph.evaluate(IN_VIEW, neighbours)

    graph.focus()
    pg.keyboard.press("Escape")  # as a click on empty space: the selection is cleared
    pg.get_by_text("Selected node: —").wait_for(timeout=10_000)
    assert graph.evaluate("el => el.__network.getSelectedNodes()") == []
    _idle(pg)

    graph.focus()
    pg.keyboard.press("+")
    pg.keyboard.press("=")
    _settle(pg)
    assert graph.evaluate(VIEW)["scale"] > view["scale"]
    pg.keyboard.press("0")
    _settle(pg)
    again = graph.evaluate(VIEW)
    assert again["scale"] == pytest.approx(fitted["scale"], rel=1e-3)
    near = 10 / fitted["scale"]  # 10 px (label boxes change a little with the selection)
    assert (again["x"], again["y"]) == (pytest.approx(fitted["x"], abs=near),
                                        pytest.approx(fitted["y"], abs=near))

    trips = graph.evaluate("el => el.__network.body.data.nodes.get().filter("
                           "n => n.label.toLowerCase().includes('trip')).map(n => n.id)")
    assert len(trips) >= 2
    _find(pg, "trip")
    pg.get_by_text(f"Matches: {len(trips)}").wait_for(timeout=10_000)
    fit_button = toolbar.locator("[data-action='fit-filtered']")
    assert fit_button.is_visible()
    assert f"{len(trips)} nodes" in (fit_button.get_attribute("title") or "")
    # a new highlight brings the view to it by itself (the view was not moved since "0")
    _settle(pg)
    matched = graph.evaluate(VIEW)
    assert matched["scale"] > fitted["scale"] * 1.2  # zoomed in on the matches
    assert graph.evaluate(IN_VIEW, trips)
    graph.focus()
    pg.keyboard.press("0")
    _settle(pg)
    spread = _span(graph, trips)
    assert spread < 0.6  # at the fit of everything, the trips sit close together
    fit_button.click()
    _settle(pg)
    again = graph.evaluate(VIEW)
    assert again["scale"] == pytest.approx(matched["scale"], rel=1e-2)  # the same fit
    assert graph.evaluate(IN_VIEW, trips) and _span(graph, trips) > spread * 1.2  # closer

    graph.focus()
    pg.keyboard.press("f")
    pg.wait_for_timeout(400)
    frame = pg.locator(".ms-graph")
    full = "el => el.matches(':fullscreen') || el.classList.contains('ms-max')"
    assert frame.evaluate(full)
    assert _height(frame) == pytest.approx(900, abs=2)
    assert toolbar.locator("[data-action='fullscreen']").get_attribute("aria-pressed") == "true"
    graph.focus()
    pg.keyboard.press("f")
    pg.wait_for_timeout(400)
    assert not frame.evaluate(full)
    assert _height(frame) == pytest.approx(560, abs=2)
    assert traffic.errors == []


def test_names_and_labels_readable_at_fit_zoom(app_page: tuple[Page, Traffic]) -> None:
    pg, traffic = app_page
    graph = pg.locator(GRAPH)
    stats = graph.evaluate("el => ({...el.__stats})")
    scale = graph.evaluate("el => el.__network.getScale()")
    # at fit zoom vis-network hides document labels (14 px × scale < 11 px) …
    assert 14 * scale < 11
    # … so the landmark layer draws them, and the cluster names are drawn over the graph
    assert stats["annotations"] >= 3
    assert stats["landmarks"] >= 5
    # zoomed in, vis-network draws the labels itself and the landmark layer steps back
    graph.evaluate("el => el.__network.moveTo({scale: 2})")
    pg.wait_for_timeout(300)
    assert graph.evaluate("el => el.__stats.landmarks") == 0
    assert traffic.errors == []


@pytest.mark.parametrize("app_page", ["dark"], indirect=True)
def test_dark_theme(app_page: tuple[Page, Traffic]) -> None:
    pg, traffic = app_page
    graph = pg.locator(GRAPH)
    colours = graph.evaluate("""el => {
      const css = getComputedStyle(el), net = el.__network;
      return {background: css.getPropertyValue('--st-background-color').trim(),
              text: net.body.nodes.doc_trip.labelModule.fontOptions.color,
              frame: getComputedStyle(el.parentElement).backgroundColor,
              annotations: el.__stats.annotations};
    }""")
    def lum(rgb: tuple[int, ...]) -> float:
        return sum(c * w for c, w in zip(rgb, (0.2126, 0.7152, 0.0722), strict=True)) / 255

    def parse(colour: str) -> tuple[int, ...]:
        if colour.startswith("#"):
            return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        return tuple(int(float(v)) for v in colour[colour.index("(") + 1:-1].split(",")[:3])

    assert lum(parse(colours["background"])) < 0.2  # Streamlit's dark theme …
    assert lum(parse(colours["frame"])) < 0.2  # … behind the canvas
    assert lum(parse(colours["text"])) > 0.7  # labels light on dark
    assert colours["annotations"] >= 3
    # a colour too close to the background (a match's black border) is lightened
    _find(pg, "trip")
    pg.wait_for_selector(f"{GRAPH}[data-renders='2']", timeout=10_000)
    border = graph.evaluate("el => el.__network.body.data.nodes.get('doc_trip').color.border")
    assert lum(parse(border)) > 0.3
    _settle(pg)  # the matches brought the view to them: that move has ended
    draws = graph.evaluate("el => el.__stats.draws")
    # the system switches to light: Streamlit's theme follows, and so does the graph
    pg.emulate_media(color_scheme="light")
    pg.wait_for_timeout(800)
    text = "el => el.__network.body.nodes.doc_trip.labelModule.fontOptions.color"
    assert lum(parse(graph.evaluate(text))) < 0.3
    border = graph.evaluate("el => el.__network.body.data.nodes.get('doc_trip').color.border")
    assert border == "#000000"  # the data's own colour on a light background
    assert graph.evaluate("el => el.__stats.draws") == draws + 1  # one batch, one draw
    assert traffic.errors == []
