"""Shared pieces of the Playwright tests: Debian's Chromium, offline flags, page waits."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import Page

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


def wait_graph(page: Page) -> None:
    """Wait until the graph component has drawn."""
    page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=60_000)


def assert_loopback_only(urls: list[str]) -> None:
    """Every request the page made stayed on 127.0.0.1 (or in the page: blob/data)."""
    for url in urls:
        parts = urlsplit(url)
        assert parts.scheme in ("http", "https", "ws", "blob", "data"), url
        if parts.scheme in ("http", "https", "ws"):
            assert parts.hostname == "127.0.0.1", url
        if parts.scheme == "blob":
            assert urlsplit(url[len("blob:"):]).hostname == "127.0.0.1", url
