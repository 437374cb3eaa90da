"""Shared pieces of the Playwright tests: Debian's Chromium, offline flags, page waits."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, Locator, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from streamlit_server import StreamlitServer, free_port, start_streamlit

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
GRAPH = "[data-testid='memscope-graph']"
NODE_CENTRE = """(el, id) => {
  const net = el.__network;
  const dom = net.canvasToDOM(net.getPositions([id])[id]);
  const box = el.getBoundingClientRect();
  return {x: box.left + dom.x, y: box.top + dom.y};
}"""


def wait_idle(page: Page, settle_ms: int = 300) -> None:
    """Wait until the script run triggered by the last action has finished."""
    page.wait_for_timeout(settle_ms)
    page.wait_for_selector(IDLE, timeout=60_000)


def menu_choices(page: Page, box: Locator, wanted: str) -> list[str]:
    """Open the multiselect ``box``'s menu and return its choices once ``wanted`` is among
    them (the menu may draw "Select all" before its choices; closed and opened again, up to
    three times, if it does not come). The menu is left open."""
    choice = page.locator("[role='option']").filter(has_text=wanted)
    for _ in range(3):
        box.locator("input").first.click()
        page.keyboard.press("ArrowDown")
        try:
            choice.first.wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
            wait_idle(page, 500)
    return page.locator("[role='option']").all_inner_texts()


def open_filters(page: Page) -> None:
    """Unfold the sidebar's filters (folded in a new session) unless they are open."""
    box = page.locator("[data-testid='stSidebar'] details").filter(
        has=page.locator("summary", has_text="Filters"))
    box.wait_for(timeout=30_000)
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    page.locator("[data-testid='stSidebar'] [data-testid='stCheckbox']").filter(
        has_text="Show superseded versions").wait_for(state="visible", timeout=10_000)


def wait_graph(page: Page) -> None:
    """Wait until the graph component has drawn."""
    page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=60_000)


def open_app(browser: Browser, url: str, *, width: int = 1400, height: int = 900,
             requests: list[str] | None = None, **context: Any) -> Page:
    """A new page on ``url``, returned once the app is idle and its graph drawn; the URL
    of every request it makes is appended to ``requests`` (for
    :func:`assert_loopback_only`). ``context`` goes to ``new_page`` (e.g. a colour
    scheme)."""
    page = browser.new_page(viewport={"width": width, "height": height}, **context)
    if requests is not None:
        page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    wait_idle(page)
    wait_graph(page)
    return page


def assert_loopback_only(urls: list[str]) -> None:
    """Every request the page made stayed on 127.0.0.1 (or in the page: blob/data)."""
    for url in urls:
        parts = urlsplit(url)
        assert parts.scheme in ("http", "https", "ws", "blob", "data"), url
        if parts.scheme in ("http", "https", "ws"):
            assert parts.hostname == "127.0.0.1", url
        if parts.scheme == "blob":
            assert urlsplit(url[len("blob:"):]).hostname == "127.0.0.1", url


#: under pytest, the one Playwright and Chromium of this test process (see :func:`chromium`)
_shared: dict[str, Any] = {}


def _shared_browser() -> Browser:
    browser = _shared.get("browser")
    if browser is not None and browser.is_connected():
        return browser
    close_shared()
    pw = sync_playwright().start()
    _shared["playwright"] = pw
    _shared["browser"] = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    return _shared["browser"]


def close_shared() -> None:
    """Close the shared Chromium and its Playwright (the test session's end does)."""
    browser, pw = _shared.pop("browser", None), _shared.pop("playwright", None)
    with suppress(Exception):  # already gone with the driver, or the loop it shared
        if browser is not None:
            browser.close()
    with suppress(Exception):
        if pw is not None:
            pw.stop()


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian's Chromium under Playwright (``make test`` installs it).

    Under pytest one Chromium serves every ``with chromium()`` of the test process
    (starting Playwright's driver and the browser took 2–3 s each time): what the block
    opened — its contexts, hence its pages — is closed when it ends, so each block starts
    from a browser with nothing open, as a new one would; a browser that went away
    (a crash) is started again by the next block. Outside pytest (``bench/``) each block
    has a browser of its own."""
    assert Path(CHROMIUM).exists(), f"Chromium is missing at {CHROMIUM}: apt-get install chromium"
    if "PYTEST_CURRENT_TEST" not in os.environ:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                yield browser
            finally:
                browser.close()
        return
    browser = _shared_browser()
    before = list(browser.contexts)
    try:
        yield browser
    finally:
        if browser.is_connected():
            for context in browser.contexts:
                if context not in before:
                    with suppress(Exception):  # the block's own error goes on, not this
                        context.close()


@contextmanager
def app_server(data_dir: Path) -> Iterator[StreamlitServer]:
    """``python serve.py`` (what ``make run`` starts: the server's warm-up, then
    ``streamlit run app.py``) on a free port with its store in ``data_dir``."""
    server = start_streamlit("serve.py", free_port(), env={
        "MEMSCOPE_DATA_DIR": str(data_dir), "MEMSCOPE_LOG_LEVEL": "INFO"}, timeout=60)
    try:
        yield server
    finally:
        server.stop()
