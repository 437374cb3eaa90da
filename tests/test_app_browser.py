"""The whole app under ``streamlit run`` in Debian's Chromium: health, graph, click →
panel, offline."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import (
    GRAPH,
    NODE_CENTRE,
    assert_loopback_only,
    chromium,
    wait_graph,
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
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.goto(server.url)
    wait_idle(page)
    wait_graph(page)
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
