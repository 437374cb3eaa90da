"""The Ask drawer in a real Chromium: "Results", each result's whole text, why it ranked
and its Why? button; screenshots (light, dark) under ``test-screenshots/``."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import app_server, chromium, wait_graph, wait_idle
from test_v5_browser import SHOTS, no_exception

from memscope.settings import STORE_FILE
from memscope.store.store import Store

pytestmark = pytest.mark.browser
DRAWER = "[class*='st-key-ask-result-']"


def test_results_read_as_answers(tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    with app_server(data) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url)
        wait_idle(page)
        wait_graph(page)
        question = "Lisbon trip"
        page.get_by_placeholder("e.g. where is Maya travelling?").fill(question)
        page.get_by_role("button", name="Ask", exact=True).click()
        page.locator(DRAWER).first.wait_for(timeout=30_000)
        wait_idle(page, 800)
        first = next(h for h in Store(data / STORE_FILE).search(question)["hits"]
                     if h["kind"] == "memory")
        card = page.locator(DRAWER).filter(has_text=first["text"]).first
        said = card.inner_text()
        assert "Shares “lisbon”" in said and "version" in said
        assert card.get_by_role("button", name="Why?").count() == 1
        assert "memory ·" not in page.inner_text("body")
        assert page.get_by_text("Results", exact=True).count() >= 1
        page.mouse.move(5, 5)
        page.wait_for_timeout(600)
        page.screenshot(path=str(SHOTS / "ask-results-light.png"))
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(1000)
        page.screenshot(path=str(SHOTS / "ask-results-dark.png"))
        no_exception(page)
