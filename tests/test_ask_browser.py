"""The Ask box in a real Chromium: a question on the embedded demo store highlights its
answer in the graph."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import GRAPH, app_server, chromium, wait_graph, wait_idle
from playwright.sync_api import Page

from memscope.settings import STORE_FILE
from memscope.store.store import Store

HIGHLIGHT_OF = """([el, id]) => {
  const node = el.__network && el.__network.body.data.nodes.get(id);
  return node ? {border: node.borderWidth, colour: node.color.border} : null;
}"""

pytestmark = pytest.mark.browser


@pytest.fixture
def home_page(tmp_path: Path) -> Iterator[tuple[Page, Path]]:
    data = tmp_path / "data"
    with app_server(data) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server.url)
        wait_graph(page)
        wait_idle(page, 0)
        yield page, data / STORE_FILE


def test_asking_highlights_the_answer_in_the_graph(home_page: tuple[Page, Path]) -> None:
    page, db = home_page
    question = "Lisbon trip"
    answer = next(h for h in Store(db).search(question)["hits"] if h["kind"] == "memory")
    graph = page.locator(GRAPH).element_handle()
    assert page.evaluate(HIGHLIGHT_OF, [graph, answer["id"]])["border"] != 5
    graph.evaluate("el => { el.__network.__probe = 'before the question'; }")

    page.get_by_placeholder("e.g. where is Maya travelling?").fill(question)
    page.get_by_role("button", name="Ask", exact=True).click()
    page.get_by_text(answer["text"]).first.wait_for(timeout=30_000)  # the result list
    page.wait_for_function(f"args => ({HIGHLIGHT_OF})(args)?.border === 5",
                           arg=[graph, answer["id"]], timeout=30_000)
    assert page.evaluate(HIGHLIGHT_OF, [graph, answer["id"]]) == {"border": 5,
                                                                   "colour": "#000000"}
    # the same network was updated in place: the results above did not remount the graph
    assert graph.evaluate("el => el.isConnected && el.__network.__probe") == \
        "before the question"
