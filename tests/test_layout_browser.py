"""The explorer's layout in a real Chromium (issue 23, item 1): the graph is the hero.

One journey on one server and one browser: at 1400×900 the graph spans the page under the
search/Ask bar and reaches the window's bottom edge (at least 70% of the page's area
below the header); the side panel is a drawer over the graph's right edge that opens on a
click, a search or an answer and closes with Esc and its close button, and the graph is
neither resized nor remounted meanwhile (same box, same ``__network``); full screen keeps
the drawer; the height follows the window when it is resized and at 1920×1080. The page
shows no emoji in its labels and gives its text a font stack with CJK faces. Screenshots
(light, dark, presenter; 1400×900 and 1920×1080) go to ``test-screenshots/``.

A second journey (issue 33, item 1): the graph sizes itself to the window in the browser,
so every first session — a new visitor's (a fresh browser context, no cookies) at two
window sizes, and a returning one's (a second tab of that browser, its HTTP cache warm,
holding the window-size cookie earlier versions kept) — is one script run and one graph
message, counted in the websocket's frames as Streamlit sends them (``ForwardMsg``s:
``new_session`` opens each run; the graph's element carries its payload), and the new
and the returning visitor of one window get the same fitted zoom.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pytest
from browser_support import (
    GRAPH,
    NODE_CENTRE,
    assert_loopback_only,
    chromium,
    open_app,
    wait_graph,
    wait_idle,
)
from google.protobuf.message import DecodeError
from playwright.sync_api import BrowserContext, Locator, Page
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from components.graph_view import COMPONENT_NAME as GRAPH_COMPONENT
from components.widgets import stage
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
DRAWER = ".st-key-explorer_drawer"
STAGE = ".st-key-graph_stage"
#: the graph's `__network` is the one remembered by REMEMBER (no remount since)
REMEMBER = "el => { window.__layoutNetwork = el.__network; }"
SAME_NETWORK = "el => el.__network === window.__layoutNetwork"
#: the page's regions: the main area, the header, the search/Ask bar
REGIONS = """() => {
  const box = s => { const e = document.querySelector(s); if (!e) return null;
    const r = e.getBoundingClientRect();
    return {x: r.x, y: r.y, width: r.width, height: r.height}; };
  const bar = document.querySelector("[data-testid='stHorizontalBlock']:has(.st-key-text_search)");
  const r = bar.getBoundingClientRect();
  return {main: box("[data-testid='stMain']"), header: box("[data-testid='stHeader']"),
          bar: {x: r.x, y: r.y, width: r.width, height: r.height},
          window: {width: window.innerWidth, height: window.innerHeight}};
}"""


Scheme = Literal["light", "dark"]
#: the network's zoom now, and when it drew its first frame
SCALE = "el => el.__network.getScale()"
FIRST_SCALE = "el => el.__stats.firstDrawScale"


def shoot(page: Page, name: str, schemes: tuple[Scheme, ...] = ("light", "dark")) -> None:
    """``test-screenshots/<name>-<scheme>.png`` of the page as it is."""
    SHOTS.mkdir(exist_ok=True)
    for scheme in schemes:
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(700)
        page.screenshot(path=str(SHOTS / f"{name}-{scheme}.png"))
    page.emulate_media(color_scheme="light")
    page.wait_for_timeout(300)


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None
    return {"x": found["x"], "y": found["y"], "width": found["width"],
            "height": found["height"]}


def settle_height(page: Page, graph: Locator, window_height: int) -> dict[str, float]:
    """The graph's box once its bottom edge has reached the window's (it measures itself
    in the browser: at once, and again after a resize)."""
    last = None
    for _ in range(60):
        b = box(graph)
        if abs(b["y"] + b["height"] - window_height) <= 30 and b == last:
            return b  # reached, and held for 250 ms (a rerun in flight moves it a moment)
        last = b
        page.wait_for_timeout(250)
    return box(graph)


def click_node(page: Page, graph: Locator, node: str) -> None:
    centre = graph.evaluate(NODE_CENTRE, node)
    page.mouse.click(centre["x"], centre["y"])
    wait_idle(page, 800)


def drawer_open(page: Page) -> bool:
    return page.locator(DRAWER).count() == 1 and page.locator(DRAWER).is_visible()


def wait_drawer(page: Page, shown: bool) -> None:
    for _ in range(80):
        if drawer_open(page) == shown:
            return
        page.wait_for_timeout(250)
    raise AssertionError(f"the drawer is {'closed' if shown else 'still open'}")


def assert_unmoved(graph: Locator, before: dict[str, float]) -> None:
    """The graph has the box it had and the same vis.Network (never remounted)."""
    assert box(graph) == pytest.approx(before, abs=0.6)
    assert graph.evaluate(SAME_NETWORK), "the graph was remounted"


def check_first_screen(page: Page, graph: Locator, window_height: int) -> dict[str, Any]:
    """The graph spans the bar's width, reaches the window's bottom and takes at least
    70% of the page's area below the header; returns the figures."""
    b = settle_height(page, graph, window_height)
    r = page.evaluate(REGIONS)
    bottom_gap = window_height - (b["y"] + b["height"])
    assert 0 <= bottom_gap <= 30, f"a dead band of {bottom_gap:.0f} px under the graph"
    assert b["width"] >= r["bar"]["width"] - 4, (b, r["bar"])  # the whole width
    assert b["y"] > r["bar"]["y"] + r["bar"]["height"]  # under the search/Ask bar
    below_header = r["main"]["width"] * (window_height - r["header"]["height"])
    share = b["width"] * b["height"] / below_header
    assert share >= 0.70, f"the graph takes {share:.0%} of the page below the header"
    window_share = b["width"] * b["height"] / (
        r["window"]["width"] * (window_height - r["header"]["height"]))
    return {"graph": b, "share": share, "window_share": window_share}


def test_the_graph_is_the_hero_and_the_panel_a_drawer(server, data_dir) -> None:
    ds = EmbeddedSource(data_dir / STORE_FILE).load().dataset
    node = next(m for m, rec in ds.memories.items() if rec.is_latest and not rec.is_forgotten)
    other = next(m for m, rec in ds.memories.items()
                 if m != node and rec.is_latest and not rec.is_forgotten)
    with chromium() as browser:
        urls: list[str] = []
        page = open_app(browser, server.url, width=1400, height=900, requests=urls)
        graph = page.locator(GRAPH)
        first = check_first_screen(page, graph, 900)
        print(f"1400x900: graph {first['graph']['width']:.0f}x{first['graph']['height']:.0f} px, "
              f"{first['share']:.0%} of the page below the header, "
              f"{first['window_share']:.0%} of the whole window below it (sidebar open)")
        assert page.locator(DRAWER).count() == 0  # the first view: nothing over the graph
        strip = page.locator(".st-key-summary_strip")
        assert "memories" in strip.inner_text()  # says what is loaded
        shoot(page, "first-screen-1400")

        # a click opens the drawer over the graph's right edge; nothing moves
        graph.evaluate(REMEMBER)
        before = box(graph)
        click_node(page, graph, node)
        wait_drawer(page, True)
        page.get_by_text(ds.memories[node].memory, exact=True).first.wait_for(timeout=20_000)
        d = box(page.locator(DRAWER))
        assert d["x"] > before["x"] + before["width"] / 2  # over the right edge
        assert before["x"] + before["width"] - 30 <= d["x"] + d["width"] \
            <= before["x"] + before["width"]
        assert before["y"] <= d["y"] and d["y"] + d["height"] <= before["y"] + before["height"]
        assert_unmoved(graph, before)
        shoot(page, "drawer-1400")

        # Esc outside the graph closes it and clears the graph's selection too
        page.locator(DRAWER).get_by_text("Selected node").click()
        page.keyboard.press("Escape")
        wait_idle(page, 800)
        wait_drawer(page, False)
        assert_unmoved(graph, before)
        graph.evaluate(  # the graph's own selection, in the browser
            "el => new Promise(done => { const t0 = Date.now(); const poll = () =>"
            " (el.__network.getSelectedNodes().length === 0 || Date.now() - t0 > 10000)"
            " ? done() : setTimeout(poll, 100); poll(); })")
        assert graph.evaluate("el => el.__network.getSelectedNodes().length") == 0
        assert "node=" not in page.url

        # the same node again opens it again; the graph's own Esc closes it
        click_node(page, graph, node)
        wait_drawer(page, True)
        graph.focus()
        page.keyboard.press("Escape")
        wait_idle(page, 800)
        wait_drawer(page, False)
        assert_unmoved(graph, before)

        # a search opens it with the matches; its close button closes it
        search = page.get_by_label("Search memory and document text")
        search.fill("Lisbon")
        search.press("Enter")
        wait_idle(page, 800)
        wait_drawer(page, True)
        assert page.locator(DRAWER).get_by_text("highlighted in the graph").count() == 1
        assert_unmoved(graph, before)
        page.locator(DRAWER).get_by_role("button", name="Close").click()
        wait_idle(page, 800)
        wait_drawer(page, False)
        assert_unmoved(graph, before)
        assert page.get_by_text("highlighted in the graph").count() == 0

        # full screen takes the stage: the graph fills the screen, the drawer stays over it
        click_node(page, graph, other)
        wait_drawer(page, True)
        page.locator("button[data-action='fullscreen']").click()
        page.wait_for_timeout(1200)
        full = page.evaluate(
            "s => { const e = document.fullscreenElement; return !!e && e.matches(s); }", STAGE)
        assert full, "full screen took the graph alone"
        g = box(graph)
        assert g["width"] >= 1400 - 4 and g["height"] >= 900 - 4, g
        assert drawer_open(page)
        d = box(page.locator(DRAWER))
        assert d["x"] + d["width"] <= 1400 and d["x"] > 700
        shoot(page, "fullscreen-drawer-1400", ("light",))
        page.locator("button[data-action='fullscreen']").click()
        page.wait_for_timeout(1200)
        assert page.evaluate("() => document.fullscreenElement === null")
        assert graph.evaluate(SAME_NETWORK)
        assert box(graph)["height"] == pytest.approx(before["height"], abs=1)

        # the height follows the window (same network: resized, not remounted)
        page.set_viewport_size({"width": 1400, "height": 1000})
        grown = settle_height(page, graph, 1000)
        assert grown["height"] == pytest.approx(before["height"] + 100, abs=6)
        assert graph.evaluate(SAME_NETWORK)

        # no emoji in the page's labels; the page's text has CJK faces in its font stack
        text = page.locator("[data-testid='stMain']").inner_text()
        assert "➕" not in text
        icon = page.locator("[data-testid='stExpander'] [data-testid='stExpanderIcon']").filter(
            has_text="add")  # the Add expander's icon: a Material symbol in its own face
        assert "Material Symbols" in icon.first.evaluate("e => getComputedStyle(e).fontFamily")
        font = page.evaluate("() => getComputedStyle(document.querySelector("
                             "\"[data-testid='stMarkdownContainer']\")).fontFamily")
        assert "Noto Sans CJK SC" in font and "Microsoft YaHei" in font
        page.close()

        # presenter mode and 1920×1080
        page = open_app(browser, f"{server.url}/?presenter=1", width=1400, height=900,
                        requests=urls)
        graph = page.locator(GRAPH)
        check_first_screen(page, graph, 900)
        click_node(page, graph, node)
        wait_drawer(page, True)
        shoot(page, "drawer-presenter-1400", ("light", "dark"))
        page.close()
        page = open_app(browser, server.url, width=1920, height=1080, requests=urls)
        graph = page.locator(GRAPH)
        wide = check_first_screen(page, graph, 1080)
        print(f"1920x1080: graph {wide['graph']['width']:.0f}x{wide['graph']['height']:.0f} px, "
              f"{wide['share']:.0%} of the page below the header, "
              f"{wide['window_share']:.0%} of the whole window below it (sidebar open)")
        shoot(page, "first-screen-1920")
        wait_graph(page)
        page.close()
    assert_loopback_only(urls)


@dataclass
class Traffic:
    """What the server sent one page: its script runs (``new_session`` messages) and the
    graph's messages (its element, payload and all; a ``ref_hash`` re-send counts too)."""

    runs: int = 0
    graph_messages: int = 0
    graph_bytes: list[int] = field(default_factory=list)
    unreadable: int = 0


def count_traffic(page: Page) -> Traffic:
    """Count, from now on, the ForwardMsgs the server sends ``page`` over its websocket."""
    seen = Traffic()
    graph_hashes: set[str] = set()

    def on_frame(payload: bytes | str) -> None:
        if isinstance(payload, str):
            return
        msg = ForwardMsg()
        try:
            msg.ParseFromString(payload)
        except DecodeError:
            seen.unreadable += 1
            return
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            seen.runs += 1
        elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
            element = msg.delta.new_element
            if (element.WhichOneof("type") == "bidi_component"
                    and element.bidi_component.component_name.endswith(GRAPH_COMPONENT)):
                seen.graph_messages += 1
                seen.graph_bytes.append(len(payload))
                graph_hashes.add(msg.hash)
        elif kind == "ref_hash" and msg.ref_hash in graph_hashes:
            seen.graph_messages += 1

    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))
    return seen


def _first_session(context: BrowserContext, url: str, height: int) -> tuple[Page, Traffic]:
    """A new tab of ``context`` on ``url`` (a new Streamlit session) and what the server
    sent it, once its graph is drawn and the app has been idle for 2 s."""
    page = context.new_page()
    traffic = count_traffic(page)
    page.goto(url)
    wait_graph(page)
    settle_height(page, page.locator(GRAPH), height)
    wait_idle(page, 2000)
    page.wait_for_timeout(500)  # a run the last one asked for would have begun by now
    return page, traffic


def _bottom_gap(page: Page, height: int) -> float:
    b = box(page.locator(GRAPH))
    return height - (b["y"] + b["height"])


def _check_one_run(page: Page, traffic: Traffic, height: int, who: str) -> float:
    """One run, one graph message, one render, the graph at the window's bottom; returns
    the fitted zoom."""
    assert traffic.unreadable == 0, f"{who}: frames that are not ForwardMsgs"
    assert traffic.runs == 1, f"{who}: {traffic.runs} script runs in the first session"
    assert traffic.graph_messages == 1, f"{who}: {traffic.graph_messages} graph messages"
    graph = page.locator(GRAPH)
    assert graph.get_attribute("data-renders") == "1", who
    assert 0 <= _bottom_gap(page, height) <= 30, who
    print(f"{who}: 1 run, 1 graph message ({traffic.graph_bytes[0]:,} bytes), zoom "
          f"{graph.evaluate(SCALE):.4f} (first frame {graph.evaluate(FIRST_SCALE):.4f})")
    return float(graph.evaluate(SCALE))


def test_every_first_visit_is_one_run_and_one_graph_message(server) -> None:
    """The server never needs the window's size: a new visitor (no cookies, an empty
    cache) at 1400×900 and at 1100×680, and a returning one (a second tab, the cache warm,
    the old window-size cookie sent), each get one script run and one graph message; the
    new and the returning visitor of 1400×900 see the same fitted zoom, and the old
    cookie is deleted."""
    with chromium() as browser:
        small = browser.new_context(viewport={"width": 1100, "height": 680})
        page, traffic = _first_session(small, server.url, 680)
        _check_one_run(page, traffic, 680, "new visitor 1100x680")
        shoot(page, "first-visit-new-1100", ("light",))
        small.close()

        context = browser.new_context(viewport={"width": 1400, "height": 900})
        assert context.cookies() == []
        page, traffic = _first_session(context, server.url, 900)
        new_zoom = _check_one_run(page, traffic, 900, "new visitor 1400x900")
        page.close()
        context.add_cookies([{"name": stage.OLD_COOKIE, "value": "700:40",
                              "url": server.url}])
        page, traffic = _first_session(context, server.url, 900)
        returning_zoom = _check_one_run(page, traffic, 900, "returning visitor 1400x900")
        shoot(page, "first-visit-returning-1400", ("light",))
        assert returning_zoom == pytest.approx(new_zoom, rel=0.01)
        # a fit after the first frame (labels placed) is the first frame's fit: a resize
        # that refits before the person moves the view changes nothing either
        page.locator("button", has_text="Fit all").first.click()
        page.wait_for_timeout(1200)  # the fit's animation
        assert float(page.locator(GRAPH).evaluate(SCALE)) == pytest.approx(new_zoom, rel=0.001)
        assert stage.OLD_COOKIE not in {c.get("name") for c in context.cookies()}
        context.close()
