"""The review queue in a real Chromium, one journey on a small store of known
contradictions (tests/test_semantic_review.py's): the queue flags them side by side;
"Open both in the graph" selects the older and the explorer draws the suspected-
contradiction edge; "Not a conflict" hides an item, survives a reload and is in the
ledger; "Forget the older" goes through the normal confirmation and the memory is gone,
ledgered. Screenshots (light, dark, presenter) go under ``test-screenshots/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import GRAPH, app_server, chromium, wait_graph, wait_idle
from playwright.sync_api import Locator, Page
from test_semantic_review import seed
from test_v5_browser import SHOTS, go, no_exception

from components.sections.semantic_review import REVIEWED
from memscope.settings import STORE_FILE

pytestmark = pytest.mark.browser

ITEMS = "[class*='st-key-review-item-']"
CONTRADICTS = """el => el.__network.body.data.edges.get()
  .filter(e => e.kind === 'contradicts').map(e => e.from + '>' + e.to).sort()"""


def item(page: Page, text: str) -> Locator:
    """The queue's item that shows ``text``."""
    return page.locator(ITEMS).filter(has_text=text)


def audit(page: Page) -> None:
    go(page, "Audit")
    page.get_by_role("heading", name="Review queue").wait_for(timeout=60_000)
    page.locator(ITEMS).first.wait_for(timeout=60_000)
    no_exception(page)


def shot(page: Page, name: str) -> None:
    wait_idle(page, 800)  # a presenter link reruns once more after the first draw
    page.get_by_role("heading", name="Review queue").scroll_into_view_if_needed()
    page.mouse.move(5, 5)
    page.wait_for_timeout(600)
    page.screenshot(path=str(SHOTS / name))


def test_flag_review_forget_and_the_edge_on_the_graph(tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    store = seed(data / STORE_FILE)
    with app_server(data) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1300})
        page.goto(server.url)
        wait_idle(page)
        wait_graph(page)
        graph = page.locator(GRAPH)
        # the warm-up audited the load: the first view already draws both edges
        assert graph.evaluate(CONTRADICTS) == ["m_coffee>m_nocoffee", "m_lisbon>m_berlin"]

        audit(page)
        assert page.locator(ITEMS).count() == 3
        lisbon = item(page, "Notes from October").filter(has_text="m_lisbon")
        assert lisbon.count() == 1
        for text in ("Maya lives in", "Berlin.", "m_berlin", "maya_home",
                     "Notes from November", "created 2026-11-10 09:00 UTC", "score 0."):
            assert text in lisbon.inner_text(), text
        shot(page, "semantic-review-light.png")
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(1000)
        shot(page, "semantic-review-dark.png")
        page.emulate_media(color_scheme="light")

        # presenter mode: texts, titles and spaces masked, on a session of its own
        masked = browser.new_page(viewport={"width": 1400, "height": 1300})
        masked.goto(f"{server.url}/audit?presenter=1")
        wait_idle(masked)
        masked.locator(ITEMS).first.wait_for(timeout=60_000)
        wait_idle(masked, 800)
        masked.get_by_role("button", name="Not a conflict").first.wait_for(timeout=30_000)
        assert masked.locator(ITEMS).count() == 3
        body = masked.inner_text("body")
        for mem_id in ("m_lisbon", "m_berlin", "m_coffee", "m_nocoffee", "m_standup",
                       "m_dentist"):  # ids are shown (they are no text)
            body = body.replace(mem_id, "")
        for word in ("Lisbon", "Berlin", "coffee", "Atlas", "dentist", "October",
                     "Work chat", "maya_home", "maya_work"):
            assert word not in body, word
        assert "Space 1" in body and "Space 2" in body
        shot(masked, "semantic-review-presenter.png")
        no_exception(masked)
        masked.close()

        # open both in the graph: the older is selected, the edge joins it to the other
        lisbon.get_by_role("button", name="Open both in the graph").click()
        wait_idle(page, 800)
        wait_graph(page)
        assert "node=m_lisbon" in page.url
        page.wait_for_function(f"el => ({CONTRADICTS})(el).includes('m_lisbon>m_berlin')",
                               arg=graph.element_handle(), timeout=30_000)
        assert page.get_by_text("suspected contradiction", exact=True).count()  # legend
        page.mouse.move(5, 5)
        page.wait_for_timeout(800)
        page.screenshot(path=str(SHOTS / "semantic-review-graph-light.png"))
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(1200)
        page.screenshot(path=str(SHOTS / "semantic-review-graph-dark.png"))
        page.emulate_media(color_scheme="light")

        # not a conflict: hidden, after a reload too, and in the ledger
        audit(page)
        item(page, "m_lisbon").get_by_role("button", name="Not a conflict").click()
        page.get_by_text("Marked as not a conflict: “Maya lives in Lisbon.” and "
                         "“Maya lives in Berlin.”").first.wait_for(timeout=30_000)
        wait_idle(page, 800)
        assert item(page, "m_lisbon").count() == 0 and page.locator(ITEMS).count() == 2
        page.reload()
        wait_idle(page)
        page.locator(ITEMS).first.wait_for(timeout=60_000)
        assert item(page, "m_lisbon").count() == 0 and page.locator(ITEMS).count() == 2
        assert "1 finding reviewed as not a conflict" in page.inner_text("body")
        rows = [e for e in store.ledger() if e.action == REVIEWED]
        assert [(e.outcome, e.space) for e in rows] == [("ok", "maya_home")]
        assert rows[0].target_id and rows[0].target_id.startswith("suspected_contradiction:")

        # forget the older: the normal confirmation, then gone and ledgered
        item(page, "m_coffee").get_by_role("button", name="Forget the older").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_text("Maya drinks coffee every morning.").wait_for(timeout=30_000)
        dialog.get_by_role("button", name="Forget", exact=True).click()
        wait_idle(page, 1500)
        page.locator(ITEMS).first.wait_for(timeout=60_000)
        assert item(page, "m_coffee").count() == 0 and page.locator(ITEMS).count() == 1
        assert "suspicious update" in page.inner_text("body").casefold()
        forgets = [e for e in store.ledger() if e.action == "forget"]
        assert [(e.target_id, e.outcome) for e in forgets] == [("m_coffee", "ok")]
        assert (store.get_memory("m_coffee") or {}).get("isForgotten") is True
        no_exception(page)
        page.close()
