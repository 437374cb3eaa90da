"""The whole app under ``streamlit run`` in Debian's Chromium: health, graph, click →
panel, offline."""

from __future__ import annotations

import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import (
    GRAPH,
    NODE_CENTRE,
    assert_loopback_only,
    chromium,
    open_app,
    open_filters,
    wait_idle,
)
from playwright.sync_api import Browser
from streamlit_server import StreamlitServer

from memscope.graph.analysis import analyse
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("app-data")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def test_health_endpoint_answers_ok(server: StreamlitServer) -> None:
    with urllib.request.urlopen(f"{server.url}/_stcore/health", timeout=5) as resp:
        assert resp.status == 200 and resp.read().strip() == b"ok"


def test_click_a_memory_opens_its_panel_offline(server, browser, data_dir) -> None:
    urls: list[str] = []
    page = open_app(browser, server.url, width=1500, height=1000, requests=urls)
    an = analyse(EmbeddedSource(data_dir / STORE_FILE).load().dataset)
    assert page.get_by_text(f"{len(an.dataset.memories)} memories", exact=False).count() >= 1
    target = next(c.entries[-1].id for c in an.chains.chains if len(c.entries) >= 3)
    graph = page.locator(GRAPH)
    graph.evaluate("(el, id) => el.__network.focus(id, {scale: 1.5})", target)
    page.wait_for_timeout(500)
    centre = graph.evaluate(NODE_CENTRE, target)
    page.mouse.click(centre["x"], centre["y"])
    wait_idle(page, 800)
    text = an.dataset.memories[target].memory
    page.get_by_text(text, exact=True).first.wait_for(timeout=20_000)
    assert page.get_by_text("History", exact=True).count() == 1
    assert f"node={target}" in page.url  # deep link written back
    assert_loopback_only(urls)
    page.close()


def _until(check, timeout_s: float = 20.0):
    """``check()``'s first truthy value within ``timeout_s`` (else its last value)."""
    deadline = time.monotonic() + timeout_s
    value = check()
    while not value and time.monotonic() < deadline:
        time.sleep(0.2)
        value = check()
    return value


CLUSTER_IDS = "el => el.__network.body.data.nodes.getIds().filter(i => i.startsWith('cluster:'))"
DRAWN_COUNT = "el => el.__network.body.data.nodes.getIds().length"


def test_a_hexagon_opens_on_click_and_collapse_all_closes_it(server, browser) -> None:
    """Past the drawing budget the graph shows clusters as hexagons: a click opens one
    into its nodes, and "Collapse all expanded clusters" closes it again."""
    page = open_app(browser, server.url, width=1500, height=1000)
    open_filters(page)
    budget = page.get_by_label("Drawing budget (nodes)", exact=True)
    budget.fill("100")
    budget.press("Enter")
    wait_idle(page, 800)
    graph = page.locator(GRAPH)
    hexagons = _until(lambda: graph.evaluate(CLUSTER_IDS))
    assert hexagons, "a budget of 100 shows the demo store as hexagons"
    before = graph.evaluate(DRAWN_COUNT)
    target = hexagons[0]
    centre = graph.evaluate(NODE_CENTRE, target)
    page.mouse.click(centre["x"], centre["y"])
    wait_idle(page, 800)
    collapse = page.get_by_role("button", name="Collapse all expanded clusters")
    collapse.wait_for(timeout=20_000)
    # the component draws the new data just after the rerun
    assert _until(lambda: target not in graph.evaluate(CLUSTER_IDS))
    assert graph.evaluate(DRAWN_COUNT) > before
    collapse.click()
    wait_idle(page, 800)
    assert _until(lambda: target in graph.evaluate(CLUSTER_IDS))
    assert graph.evaluate(DRAWN_COUNT) == before
    assert page.locator("[data-testid='stException']").count() == 0
