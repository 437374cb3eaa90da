"""The first picture (issue 33, item 3) in a real Chromium, on ``python serve.py``: the
page ``/`` paints the warm first view before Streamlit's app has rendered anything, the
live graph replaces it where it stands, and it is left out where it would be unsafe."""

from __future__ import annotations

import re
import time
import urllib.request
from pathlib import Path

import pytest
from browser_support import GRAPH, app_server, chromium
from playwright.sync_api import Browser, Page
from streamlit_server import free_port, start_streamlit

from memscope.demo.seeding import seed_if_missing
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
PICTURE = "#ms-first-picture"
_VERSION = re.compile(r'id="ms-first-picture" data-version="([0-9a-f]{16})"')

#: the largest distance (CSS px) between a node in the picture and the same node in the
#: live graph's first frame: a new visitor's picture is fitted to a guessed rectangle, a
#: returning visitor's (same window, same data) takes the view the live graph drew last
NEW_VISITOR_PX = 8.0
RETURNING_PX = 0.5

#: each sampled picture node's screen position, as the picture was painted before the
#: live graph had come (``guess``: its own fit, or the view kept from a visit before),
#: against the live graph's position of the node at the
#: same graph coordinates in its first frame (canvasToDOM, as the tests do)
JUMP = """(el) => {
  const P = JSON.parse(window.__msPictureData);
  const pic = window.__msFirstPicture;
  const net = el.__network;
  const box = el.getBoundingClientRect();
  const pos = net.getPositions();
  const at = new Map();
  for (const [id, p] of Object.entries(pos)) at.set(`${Math.round(p.x)},${Math.round(p.y)}`, id);
  const far = (f) => {
    let worst = 0;
    let matched = 0;
    const step = 5 * Math.max(1, Math.floor(P.n.length / 5 / 60));
    for (let i = 0; i < P.n.length; i += step) {
      const id = at.get(`${P.n[i]},${P.n[i + 1]}`);
      if (id === undefined) continue;
      const d = net.canvasToDOM(pos[id]);
      const px = f.left + f.ox + P.n[i] * f.scale;
      const py = f.top + f.oy + P.n[i + 1] * f.scale;
      worst = Math.max(worst, Math.hypot(box.left + d.x - px, box.top + d.y - py));
      matched += 1;
    }
    return [worst, matched];
  };
  const [worst, matched] = far(pic.guess);
  return { worst, matched, exact: pic.exact, reason: pic.reason, guess: pic.guess,
    live: { left: box.left, top: box.top, w: box.width, h: box.height, scale: net.getScale(),
      area: el.__stats.fitArea } };
}"""
#: the picture's JSON kept when the page's HTML is parsed (the canvas goes away later)
KEEP_DATA = """document.addEventListener("DOMContentLoaded", () => {
  const d = document.getElementById("ms-first-picture-data");
  if (d) window.__msPictureData = d.textContent;
});"""
PAINTED = """() => {
  const c = document.getElementById("ms-first-picture");
  const px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let inked = 0;
  for (let i = 3; i < px.length; i += 4) if (px[i] > 0) inked += 1;
  return { inked, root: document.getElementById("root").childElementCount,
    box: c.getBoundingClientRect().toJSON() };
}"""


def _page_html(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.read().decode("utf-8")


def _version(url: str) -> str | None:
    found = _VERSION.search(_page_html(url))
    return found.group(1) if found else None


def _wait_warm(server, needle: str = "server warm in") -> None:
    deadline = time.monotonic() + 60
    while needle not in server.log() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert needle in server.log(), server.log()


def _before_the_app(browser: Browser, url: str, scheme: str) -> None:
    """The page with Streamlit's scripts held back: the picture alone, painted."""
    context = browser.new_context(viewport={"width": 1400, "height": 900},
                                  color_scheme=scheme)  # type: ignore[arg-type]
    page = context.new_page()
    page.route("**/static/js/**", lambda route: route.abort())
    page.goto(url)
    page.wait_for_selector(f"{PICTURE}[data-painted='true']")
    painted = page.evaluate(PAINTED)
    assert painted["root"] == 0  # Streamlit has rendered nothing
    assert painted["inked"] > 2000, painted  # nodes, edges, names: not blank
    assert painted["box"]["width"] > 500 and painted["box"]["height"] > 400, painted
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"first-picture-{scheme}.png"))
    page.mouse.click(700, 450)  # a click (on a picture that takes none) ends it at once
    page.wait_for_selector(PICTURE, state="detached", timeout=5_000)
    assert page.evaluate("() => window.__msFirstPicture.reason") == "interaction"
    context.close()


def _live(page: Page, url: str) -> dict:
    """Open ``url``: the picture is there at once, gone once the graph has drawn; how far
    its nodes were from the live graph's."""
    page.add_init_script(KEEP_DATA)
    page.goto(url, wait_until="domcontentloaded")
    assert page.locator(PICTURE).count() == 1
    page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=60_000)
    page.wait_for_selector(PICTURE, state="detached", timeout=5_000)
    return page.locator(GRAPH).evaluate(JUMP)


def test_the_first_picture_comes_before_the_app_and_the_graph_takes_its_place(
        tmp_path) -> None:
    seed_if_missing(tmp_path / STORE_FILE)
    with app_server(tmp_path) as server, chromium() as browser:
        _wait_warm(server)
        first = _version(server.url + "/")
        assert first is not None, "the warm server's page has no picture"
        for scheme in ("light", "dark"):
            _before_the_app(browser, server.url + "/", scheme)
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        new = _live(context.new_page(), server.url + "/")
        assert new["reason"] == "drawn" and new["matched"] >= 10, new
        # more: Streamlit's layout above the graph changed; measure first_picture.LAYOUT
        # and LEGEND again (``new`` has the guessed view and the live graph's rectangle)
        assert not new["exact"] and new["worst"] <= NEW_VISITOR_PX, new
        again = _live(context.new_page(), server.url + "/")
        assert again["exact"] and again["worst"] <= RETURNING_PX, again
        # presenter mode (a link's setting): no picture at all, so no text of the data
        assert page_has_no_picture(browser, server.url + "/?presenter=1")

        # a data change: a new memory. The page then has no picture until a first visit
        # has computed the new first view, and after that a picture of a new version
        EmbeddedSource(tmp_path / STORE_FILE).add("Maya keeps a first-picture test note.")
        assert _version(server.url + "/") != first  # the old picture is gone at once
        page = context.new_page()
        page.goto(server.url + "/")
        page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=60_000)
        deadline = time.monotonic() + 30
        second = _version(server.url + "/")
        while second in (None, first) and time.monotonic() < deadline:
            time.sleep(0.5)
            second = _version(server.url + "/")
        assert second is not None and second != first
        context.close()


def page_has_no_picture(browser: Browser, url: str) -> bool:
    """Whether the page at ``url`` carries no picture (its HTML and its DOM)."""
    if "ms-first-picture" in _page_html(url):
        return False
    page = browser.new_page()
    page.goto(url, wait_until="domcontentloaded")
    found = page.locator(PICTURE).count()
    page.close()
    return found == 0


def test_with_sign_in_configured_there_is_no_picture(tmp_path) -> None:
    seed_if_missing(tmp_path / STORE_FILE)
    home = tmp_path / "home"  # Streamlit reads ~/.streamlit/secrets.toml
    (home / ".streamlit").mkdir(parents=True)
    (home / ".streamlit" / "secrets.toml").write_text(
        '[auth]\nredirect_uri = "http://127.0.0.1:9/oauth2callback"\n'
        'cookie_secret = "not-a-secret"\nclient_id = "x"\nclient_secret = "y"\n'
        'server_metadata_url = "http://127.0.0.1:9/.well-known/openid-configuration"\n')
    server = start_streamlit("serve.py", free_port(), env={
        "MEMSCOPE_DATA_DIR": str(tmp_path), "MEMSCOPE_LOG_LEVEL": "INFO",
        "HOME": str(home)}, timeout=60)
    try:
        _wait_warm(server)  # the view is warm, as in the test above, but…
        html = _page_html(server.url + "/")
        assert '<div id="root"></div>' in html and "ms-first-picture" not in html
        with chromium() as browser:  # …sign-in is on: the page asks for it
            page = browser.new_page()
            page.goto(server.url + "/")
            page.get_by_role("button", name="Sign in").wait_for(timeout=60_000)
            assert page.locator(PICTURE).count() == 0
    finally:
        server.stop()
