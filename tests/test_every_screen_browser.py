"""Issue 32 items 4 and 6 in a real Chromium on the demo store, light, dark and presenter:
the Audit page's findings in words (no snake_case kind, no table of zeros), the ledger's
"what was done" sentence, the connection form for mem0 in mem0's words, and a memory's
history as one line of versions with a rewrite shown as two sentences. Screenshots go to
``test-screenshots/every-screen-*.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import chromium, open_app, wait_idle
from playwright.sync_api import Page

from components.sections.connection_form import SPACE_LABELS
from components.sections.panels import rewritten
from memscope.graph.analysis import analyse
from memscope.graph.findings import FINDING_KINDS
from memscope.lenses.diff import word_diff
from memscope.settings import STORE_FILE
from memscope.sources import actions
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "test-screenshots"
EXCEPTION = "[data-testid='stException']"
MODES = {"light": ("", "light"), "dark": ("", "dark"), "presenter": ("presenter=1", "light")}


def _go(page: Page, title: str) -> None:
    page.locator("[data-testid='stSidebar']").get_by_role("link", name=title,
                                                           exact=True).click()
    wait_idle(page, 1000)
    assert page.locator(EXCEPTION).count() == 0


def _rewritten_chain(ds) -> str:
    """A memory whose version rewrote most of its parent's words (the demo has some)."""
    an = analyse(ds)
    for chain in an.chains.chains:
        texts = {e.id: e.text for e in chain.entries}
        for e in chain.entries:
            if e.parent_id in texts and not chain.branches \
                    and rewritten(word_diff(texts[e.parent_id], e.text)):
                return e.id
    raise AssertionError("no rewritten version in the demo")


def test_every_screen_reads_in_words(server, data_dir) -> None:
    SHOTS.mkdir(exist_ok=True)
    source = EmbeddedSource(data_dir / STORE_FILE)
    ds = source.load().dataset
    mem = next(m for m in ds.memories.values() if not m.is_forgotten and m.is_latest)
    actions.forget(source, Store(data_dir / STORE_FILE), mem.id, reason="wrong",
                   container_tag=None, snapshot=mem.memory)
    rewrite = _rewritten_chain(ds)
    with chromium() as browser:
        for mode, (query, scheme) in MODES.items():
            page = open_app(browser, f"{server.url}/?{query}", width=1400, height=900,
                            color_scheme=scheme)
            _go(page, "Audit")
            body = page.locator("section.main, [data-testid='stMain']").first.inner_text()
            assert not [k for k in FINDING_KINDS if k in body], mode
            page.get_by_text("Integrity findings").scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"every-screen-audit-{mode}.png"))

            _go(page, "Ledger")
            page.wait_for_timeout(4_000)  # let any toast go before the shot
            page.screenshot(path=str(SHOTS / f"every-screen-ledger-{mode}.png"))

            _go(page, "Connection")
            page.get_by_role("radiogroup", name="Source").get_by_text(
                "mem0 — platform API", exact=True).click()
            wait_idle(page, 800)
            assert page.get_by_role("textbox", name=SPACE_LABELS["mem0"]).count() == 1
            assert page.get_by_role("radiogroup", name="Supermemory API").count() == 0
            assert page.get_by_text("Migration check").count() == 0  # embedded: n/a
            page.screenshot(path=str(SHOTS / f"every-screen-connection-mem0-{mode}.png"))
            page.close()

            page = open_app(browser, f"{server.url}/?node={rewrite}&{query}", width=1400,
                            height=900, color_scheme=scheme)
            wait_idle(page, 1000)
            line = page.get_by_text("versions, oldest first:").first
            line.wait_for(timeout=30_000)
            line.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"every-screen-history-{mode}.png"))
            versions = page.locator(f"[class*='st-key-hist-{rewrite}-']")
            assert versions.count() >= 2
            assert versions.filter(has_text="↳").count() == 0  # straight: no nesting
            assert (page.get_by_text("now:").count() >= 1) == (mode != "presenter")
            if mode != "presenter":
                page.get_by_text("now:").first.scroll_into_view_if_needed()
                page.wait_for_timeout(300)
                page.screenshot(path=str(SHOTS / f"every-screen-rewrite-{mode}.png"))
            page.close()
