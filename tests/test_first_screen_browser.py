"""Trips a new user hit on the first screen, in a real Chromium: the sidebar's "Created
between" is a range picker — two clicks in its calendar pick a range (the calendar stays
open after the first), the graph then shows fewer nodes, it stays a range picker, and
"Fit filtered" frames what is left."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from browser_support import (
    GRAPH,
    assert_loopback_only,
    chromium,
    open_app,
    open_filters,
    wait_idle,
)
from playwright.sync_api import Locator, Page

from components.sections.audit import CHANGE_TEXT_LIMIT
from components.widgets.safe import short
from memscope.graph.analysis import analyse
from memscope.lenses.asof import compare
from memscope.lenses.filters import Filters, visible_nodes
from memscope.records.time import day_end
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource

pytestmark = pytest.mark.browser

SHOWING = re.compile(r"Showing (\d+) of (\d+) nodes")
SCALE = "el => el.__network.getScale()"
#: how many drawn nodes lie outside the canvas (DOM coordinates against its box)
OUTSIDE = """el => {
  const net = el.__network, box = el.getBoundingClientRect();
  const ids = net.body.data.nodes.getIds();
  const pos = net.getPositions(ids);
  return ids.filter(id => { const p = net.canvasToDOM(pos[id]);
    return p.x < 0 || p.y < 0 || p.x > box.width || p.y > box.height; }).length;
}"""


def showing(page: Page) -> tuple[int, int]:
    text = page.get_by_text(SHOWING).first.inner_text()
    found = SHOWING.search(text)
    assert found, text
    return int(found[1]), int(found[2])


def created_between(page: Page) -> Locator:
    return page.locator("[data-testid='stSidebar'] [data-testid='stDateInput']").filter(
        has_text="Created between")


def calendar(page: Page) -> Locator:
    return page.locator("[role='dialog']")


def click_day(page: Page, day: date) -> None:
    """Page the open calendar to ``day``'s month and click ``day``."""
    cal = calendar(page)
    for _ in range(36):
        shown = datetime.strptime(
            cal.get_by_role("button", name="month", exact=True).inner_text().strip() + " "
            + cal.get_by_role("button", name="year", exact=True).inner_text().strip(),
            "%B %Y").date()
        if (shown.year, shown.month) == (day.year, day.month):
            break
        step = "Previous month" if (shown.year, shown.month) > (day.year, day.month) \
            else "Next month"
        cal.get_by_role("button", name=step).click()
    cell = cal.locator(f"[role='button'][aria-label*='{day:%B} {day.day}, {day.year}']"
                       ":not([aria-disabled='true'])")
    cell.first.click()


def test_created_between_takes_a_range_in_two_clicks_and_filters(server, data_dir) -> None:
    an = analyse(EmbeddedSource(data_dir / STORE_FILE).load().dataset)
    assert an.date_range is not None
    low, high = an.date_range
    first, last = low + (high - low) / 3, low + (high - low) * 2 / 3
    expected = len(visible_nodes(an, Filters(date_from=first, date_to=last)))
    with chromium() as browser:
        urls: list[str] = []
        page = open_app(browser, server.url, requests=urls)
        shown, total = showing(page)
        assert shown == total and 0 < expected < total
        open_filters(page)
        field = created_between(page)
        picker = field.get_by_role("button", name="Choose date range")
        assert picker.count() == 1, "a single-day picker, not a range picker"
        picker.click()
        calendar(page).wait_for()
        click_day(page, first)
        page.wait_for_timeout(500)
        assert calendar(page).is_visible(), "the calendar closed after the first click"
        click_day(page, last)
        wait_idle(page, 800)
        page.wait_for_function(
            "n => [...document.querySelectorAll('[data-testid=\"stCaptionContainer\"]')]"
            ".some(c => c.innerText.startsWith(`Showing ${n} of`))", arg=expected,
            timeout=30_000)
        assert showing(page) == (expected, total)
        # still a range picker, showing both days
        field = created_between(page)
        assert field.get_by_role("button", name="Choose date range").count() == 1
        for part, day in (("start", first), ("end", last)):
            group = field.get_by_role("group", name=f"Created between {part} date")
            assert group.inner_text().replace("\n", "").replace(" ", "") == day.isoformat()
        # "Fit filtered" frames what is left, from a view zoomed far in
        graph = page.locator(GRAPH)
        fit = page.locator("button[data-action='fit-filtered']")
        fit.wait_for(timeout=20_000)
        assert fit.inner_text() == "Fit filtered"
        graph.evaluate("el => el.__network.moveTo({scale: el.__network.getScale() * 8})")
        page.wait_for_timeout(300)
        assert graph.evaluate(OUTSIDE) > 0
        fit.click()
        page.wait_for_timeout(1500)  # the move is animated
        assert graph.evaluate(OUTSIDE) == 0
        shoot(page, "created-between-range")
    assert_loopback_only(urls)


SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"


def shoot(page: Page, name: str) -> None:
    """``test-screenshots/<name>-light.png`` and ``-dark.png`` of the page as it is."""
    SHOTS.mkdir(exist_ok=True)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(600)
        page.screenshot(path=str(SHOTS / f"{name}-{scheme}.png"))
    page.emulate_media(color_scheme="light")


#: per "Changes since" link: its text, and whether an element of it hides overflowing text
CHANGE_LINKS = """() => [...document.querySelectorAll("[class*='st-key-change_link_'] button")]
  .map(b => [b.innerText.trim().split('\\n').pop().trim(), [b, ...b.querySelectorAll('*')]
    .some(e => e.scrollWidth > e.clientWidth + 1
               && getComputedStyle(e).overflow !== 'visible')])"""


def test_changes_since_links_are_whole_sentences(server, data_dir) -> None:
    ds = EmbeddedSource(data_dir / STORE_FILE).load().dataset
    an = analyse(ds)
    assert an.date_range is not None
    since = an.date_range[1] - timedelta(days=8)
    added = compare(ds, day_end(since), datetime.now(UTC)).added
    expected = {short(ds.memories[m].memory, CHANGE_TEXT_LIMIT) for m in added}
    assert len(expected) >= 3 and any(len(t) > 60 for t in expected)
    with chromium() as browser:
        page = open_app(browser, f"{server.url}/?since={since.isoformat()}")
        page.get_by_text(f"Added: {len(added)}").wait_for(timeout=30_000)
        links = dict(page.evaluate(CHANGE_LINKS))
        assert expected <= set(links), sorted(expected - set(links))[:3]
        assert [t for t in expected if links[t]] == [], "clipped in the page"
        assert not any(t.startswith(added[0]) for t in links)  # not an id first
        page.locator("[class*='st-key-change_link_added_']").first.scroll_into_view_if_needed()
        shoot(page, "changes-since-links")
        # a link selects its memory on the graph (and in the URL)
        first = short(ds.memories[added[0]].memory, CHANGE_TEXT_LIMIT)
        page.locator("[class*='st-key-change_link_added_'] button").filter(
            has_text=first).first.click()
        page.wait_for_url(f"**node={added[0]}**", timeout=30_000)
