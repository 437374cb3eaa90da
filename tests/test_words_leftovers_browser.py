"""Issue 32's leftovers in a real Chromium on the demo store: a primary button readable in
dark mode, findings, ledger and Compare in words, recall buckets that fade, and a playback
legend that counts the day shown. Screenshots go to ``test-screenshots/leftovers-*.png``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import GRAPH, chromium, menu_choices, open_app, wait_graph, wait_idle
from playwright.sync_api import Page
from test_theme_contrast import contrast

from memscope.settings import STORE_FILE
from memscope.sources import actions
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parent.parent / "test-screenshots"
EXCEPTION = "[data-testid='stException']"
RGB = """el => getComputedStyle(el).%s"""
#: the drawn nodes: how many hidden, faded (and the most opaque of those) and bright
OPACITIES = r"""el => {
  const nodes = el.__network.body.data.nodes.get();
  const faded = nodes.filter((n) => n.faded);
  return {hidden: nodes.filter((n) => n.hidden).length, faded: faded.length,
          bright: nodes.length - faded.length,
          max_faded: Math.max(0, ...faded.map((n) => n.opacity ?? 1)),
          glowing: faded.filter((n) => n.shadow && n.shadow.enabled
                                && !/,\s*0?\.\d+\)$/.test(n.shadow.color || "")).length};
}"""


def _go(page: Page, title: str) -> None:
    page.locator("[data-testid='stSidebar']").get_by_role("link", name=title,
                                                           exact=True).click()
    wait_idle(page, 1000)
    assert page.locator(EXCEPTION).count() == 0


def _hex(css: str) -> str:
    """``rgb(r, g, b)`` (what the browser computes) as ``#rrggbb``."""
    parts = css[css.index("(") + 1:css.index(")")].split(",")
    return "#" + "".join(f"{int(float(p)):02x}" for p in parts[:3])


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_primary_button_label_reads_in_both_themes(server, scheme: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    with chromium() as browser:
        page = open_app(browser, server.url, color_scheme=scheme)
        _go(page, "Connection")
        button = page.locator("[data-testid='stBaseButton-primaryFormSubmit'], "
                              "[data-testid='stBaseButton-primary']").first
        button.wait_for()
        button.scroll_into_view_if_needed()
        text = _hex(button.evaluate(RGB % "color"))
        back = _hex(button.evaluate(RGB % "backgroundColor"))
        assert contrast(text, back) >= 4.5, (scheme, text, back)
        page.screenshot(path=str(SHOTS / f"leftovers-primary-button-{scheme}.png"))
        page.close()


#: what an id of the demo looks like (``mem_…``, ``doc_…``)
ID = re.compile(r"\b(?:mem|doc)_[A-Za-z0-9]{6,}")


def test_audit_findings_read_in_words(server) -> None:
    with chromium() as browser:
        page = open_app(browser, server.url)
        _go(page, "Audit")
        main = page.locator("[data-testid='stMain']")
        opened = 0
        for title in ("Branches", "Forgotten but still marked latest",
                      "Past its forget-after date"):
            head = main.locator("[data-testid='stExpander'] summary").filter(has_text=title)
            if head.count():
                head.first.click()
                opened += 1
        assert opened >= 2
        page.wait_for_timeout(500)
        sentences = main.locator("[data-testid='stExpander'] [data-testid='stText']")
        assert sentences.count() >= 2
        for text in sentences.all_inner_texts():
            assert not ID.search(text), text
        captions = main.locator("[data-testid='stExpander'] [data-testid='stCaptionContainer']")
        assert any(ID.search(c) for c in captions.all_inner_texts())  # ids: small print
        main.locator("[data-testid='stExpander']").filter(has_text="Branches").first \
            .scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "leftovers-audit-findings-light.png"))
        chain = main.locator("[data-testid='stSelectbox']").filter(has_text="Chain").first
        chain.scroll_into_view_if_needed()
        assert not ID.search(chain.inner_text())  # the chain picked by its words
        page.wait_for_timeout(300)
        page.screenshot(path=str(SHOTS / "leftovers-audit-chain-light.png"))
        page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_ledger_in_words(server, data_dir, scheme: str) -> None:
    source = EmbeddedSource(data_dir / STORE_FILE)
    mem = next(m for m in source.load().dataset.memories.values()
               if not m.is_forgotten and m.is_latest)
    actions.forget(source, Store(data_dir / STORE_FILE), mem.id, reason="wrong",
                   container_tag=None, snapshot=mem.memory)
    with chromium() as browser:
        page = open_app(browser, server.url, color_scheme=scheme)
        _go(page, "Ledger")
        page.wait_for_timeout(4_000)  # let any toast go before the shot
        page.screenshot(path=str(SHOTS / f"leftovers-ledger-{scheme}.png"))
        box = page.locator("[data-testid='stMain'] [data-testid='stMultiSelect']").filter(
            has_text="Action")
        choices = menu_choices(page, box, "Forgot a memory")
        assert "Forgot a memory" in choices and "forget" not in choices, choices
        page.screenshot(path=str(SHOTS / f"leftovers-ledger-actions-{scheme}.png"))
        page.keyboard.press("Escape")
        page.close()


def test_recall_buckets_fade_rather_than_hide(server) -> None:
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1400}, color_scheme="light")
        page.goto(f"{server.url}/recall")
        wait_idle(page, 500)
        page.get_by_role("button", name="Run").click()
        page.get_by_text("Latest memories never recalled").wait_for(timeout=60_000)
        wait_idle(page, 500)
        wait_graph(page)
        page.locator("[data-testid='stButtonGroup']").get_by_role(
            "button", name=re.compile(r"^never recalled")).click()
        wait_idle(page, 800)
        wait_graph(page)
        page.wait_for_timeout(800)
        graph = page.locator(GRAPH).element_handle()
        seen = page.evaluate(OPACITIES, graph)
        assert seen["hidden"] == 0 and seen["faded"] > 0 and seen["bright"] > 0, seen
        assert seen["max_faded"] <= 0.25 and seen["glowing"] == 0, seen
        page.locator(GRAPH).scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / "leftovers-recall-highlight-light.png"))
        page.close()
