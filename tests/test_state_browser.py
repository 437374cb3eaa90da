"""State survives every page, in a real Chromium: presenter mode, the space, the as-of date
and a filter are set once, every page is visited through the sidebar and the explorer is
opened again — all four still hold and no real text is visible anywhere (the sidebar names
the space by its presenter pseudonym, never its tag); a reload keeps what the URL
carries."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from browser_support import (
    GRAPH,
    assert_loopback_only,
    chromium,
    open_app,
    open_filters,
    wait_graph,
    wait_idle,
)
from playwright.sync_api import Page

from memscope.lenses.presenter import space_pseudonyms
from memscope.lenses.redact import dataset_texts
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource

pytestmark = pytest.mark.browser

PAGES = ["Audit", "Profile", "Insights", "Expiry queue", "Export", "Ledger", "Forget all",
         "Connection", "Explorer"]
SPACE = "acme_work"
LABELS = "el => el.__network.body.data.nodes.get().map(n => [n.label || '', n.title ? " \
         "(n.title.textContent || String(n.title)) : ''].join(' '))"


def sidebar(page: Page):
    return page.locator("[data-testid='stSidebar']")


def presenter_on(page: Page) -> bool:
    toggle = sidebar(page).get_by_role("switch", name="Presenter mode")
    return toggle.is_checked()


def as_of_input(page: Page):
    return sidebar(page).locator("[data-testid='stDateInput']").filter(
        has_text="As of").locator("input")


def as_of_value(page: Page) -> str:
    return as_of_input(page).input_value().replace(" ", "")


def superseded_shown(page: Page) -> bool:
    return sidebar(page).get_by_role("checkbox", name="Show superseded versions").is_checked()


def source_caption(page: Page) -> str:
    return sidebar(page).get_by_text("Source:").first.inner_text()


def names_space(page: Page, alias: str) -> bool:
    """The sidebar's Source line names the space by ``alias`` (presenter mode), not by
    its tag."""
    caption = source_caption(page)
    return f"space {alias}" in caption and SPACE not in caption


def visible_leaks(page: Page, texts: list[str]) -> list[str]:
    body = page.locator("body").inner_text()
    shown = body
    if page.locator(GRAPH).count():
        shown += "\n".join(page.locator(GRAPH).first.evaluate(LABELS))
    return [t for t in texts if t in shown]


def go(page: Page, title: str) -> None:
    sidebar(page).get_by_role("link", name=title, exact=True).click()
    wait_idle(page, 600)


def test_presenter_space_as_of_and_filters_hold_on_every_page(server, data_dir) -> None:
    ds = EmbeddedSource(data_dir / STORE_FILE).load().dataset
    texts = [t for t in dataset_texts(ds) if len(t) >= 8]
    alias = space_pseudonyms(ds)[SPACE]
    day = (date.today() - timedelta(days=10)).isoformat()
    with chromium() as browser:
        urls: list[str] = []
        page = open_app(browser, server.url, requests=urls)
        assert visible_leaks(page, texts), "without presenter mode real text is shown"
        # presenter mode
        sidebar(page).get_by_text("Presenter mode").click()
        wait_idle(page)
        assert presenter_on(page)
        # a space, picked on the Connection page
        go(page, "Connection")
        page.get_by_label("Space", exact=True).last.click()
        page.get_by_role("option").filter(has_text=re.compile(
            rf"^({re.escape(SPACE)}|{re.escape(alias)})\b")).first.click()
        wait_idle(page, 800)
        assert names_space(page, alias), source_caption(page)
        # an as-of date and a filter, in the sidebar
        as_of = as_of_input(page)
        as_of.fill(day)
        as_of.press("Enter")
        page.keyboard.press("Escape")
        wait_idle(page, 800)
        open_filters(page)
        sidebar(page).get_by_text("Show superseded versions").click()
        wait_idle(page, 800)
        # the folded filters' heading says one narrows the view, and they stay open (waited
        # for: the rerun the click starts may not have begun when the page first looks idle)
        heading = sidebar(page).locator("summary").filter(has_text="Filters · 1 on")
        heading.first.wait_for(timeout=15_000)
        assert heading.count() == 1
        assert sidebar(page).get_by_text("Show superseded versions").is_visible()
        assert as_of_value(page) == day and not superseded_shown(page)
        for title in PAGES:
            go(page, title)
            assert page.locator("[data-testid='stException']").count() == 0, title
            assert presenter_on(page), title
            assert as_of_value(page) == day, title
            assert not superseded_shown(page), title
            assert names_space(page, alias), title
            assert visible_leaks(page, texts) == [], title
        wait_graph(page)
        assert "presenter=1" in page.url and f"asof={day}" in page.url \
            and f"space={SPACE}" in page.url
        # a reload is a new session: what the URL carries holds
        page.reload()
        wait_idle(page)
        wait_graph(page)
        assert presenter_on(page)
        assert as_of_value(page) == day
        assert names_space(page, alias)
        assert visible_leaks(page, texts) == []
    assert_loopback_only(urls)  # every page, offline: no CDN, no font or icon fetched
