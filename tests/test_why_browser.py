"""“Why does it believe this?” in a real Chromium on the embedded demo store, one journey:
the trail opened from an Ask answer (light and dark), then from a node's panel, then in
presenter mode with no real text on screen. Screenshots go under ``test-screenshots/``.
"""

from __future__ import annotations

import pytest
from browser_support import chromium, open_app, wait_idle
from playwright.sync_api import Locator, Page
from test_v5_browser import SHOTS, no_exception

from memscope.settings import STORE_FILE
from memscope.store.store import Store

pytestmark = pytest.mark.browser

QUESTION = "Which frontend framework does Maya prefer?"
REACT_TS = "Maya prefers React with TypeScript for new frontend work."
VUE = "Maya prefers Vue for frontend work."
TITLE = "Why does it believe this?"


def _id_of(db, text: str) -> str:
    hits = Store(db).search(text)["hits"]
    return next(h["id"] for h in hits if h["kind"] == "memory" and h["text"] == text)


def _button(page: Page, where: str, name: str) -> Locator:
    """The button named ``name`` in the element whose key class ``where`` matches."""
    return page.locator(where).get_by_role("button", name=name, exact=True)


def _dialog(page: Page) -> Locator:
    dialog = page.get_by_role("dialog")
    dialog.get_by_text("How it got there").wait_for(timeout=60_000)
    wait_idle(page, 500)
    return dialog


def _shot(page: Page, name: str) -> None:
    page.mouse.move(5, 5)
    page.wait_for_timeout(700)
    page.screenshot(path=str(SHOTS / name))


def _close(page: Page) -> None:
    page.keyboard.press("Escape")
    page.get_by_role("dialog").wait_for(state="detached", timeout=30_000)
    wait_idle(page, 500)


def test_the_trail_from_an_answer_from_a_node_and_in_presenter_mode(server, data_dir):
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = data_dir / STORE_FILE
    react, vue = _id_of(db, REACT_TS), _id_of(db, VUE)
    with chromium() as browser:
        page = open_app(browser, server.url, width=1400, height=1000)
        # from an Ask answer: the hit's own "Why?" button
        page.get_by_placeholder("e.g. where is Maya travelling?").fill(QUESTION)
        page.get_by_role("button", name="Ask", exact=True).click()
        why = _button(page, f"[class*='st-key-why-ask-'][class*='-{react}']", "Why?").first
        why.wait_for(timeout=60_000)
        wait_idle(page, 500)
        _shot(page, "why-answers-light.png")  # each answer with its "Why?"
        why.click()
        dialog = _dialog(page)
        text = dialog.inner_text()
        for part in ("Why does it believe this?", "What it believes", REACT_TS,
                     "How it got there (3 versions, oldest first)", VUE,
                     "“Vue” became “React”.", "Where it came from", "passage (content)",
                     "Relations", "is a basis of", "Profile lines that cite it",
                     "Prefers React with TypeScript for new frontend work",
                     "If it were forgotten", "Download the trail (text)"):
            assert part in text, part
        assert text.index("What it believes") < text.index("How it got there") \
            < text.index("Where it came from") < text.index("Relations") \
            < text.index("Profile lines") < text.index("If it were forgotten")
        _shot(page, "why-answer-light.png")
        dialog.get_by_text("If it were forgotten").scroll_into_view_if_needed()
        _shot(page, "why-answer-light-end.png")
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(1000)
        _shot(page, "why-answer-dark.png")
        page.emulate_media(color_scheme="light")
        _close(page)
        no_exception(page)

        # from a node: its panel's button; asked about v1, the chain's branches are named
        page.goto(f"{server.url}/?node={vue}")
        wait_idle(page, 800)
        panel = _button(page, f".st-key-why-panel-{vue}", TITLE)
        panel.wait_for(timeout=60_000)
        panel.click()
        text = _dialog(page).inner_text()
        assert f"You asked about v1 ({vue}), which is superseded" in text
        assert f"Also holds: “{REACT_TS}”" in text
        _shot(page, "why-node-light.png")
        _close(page)
        no_exception(page)
        page.close()

        # presenter mode: the same trail with no real text on screen
        masked = open_app(browser, f"{server.url}/?node={vue}&presenter=1", width=1400,
                          height=1000)
        wait_idle(masked, 800)
        button = _button(masked, f".st-key-why-panel-{vue}", TITLE)
        button.wait_for(timeout=60_000)
        button.click()
        dialog = _dialog(masked)
        body = dialog.inner_text()
        assert "hidden in presenter mode" in body
        for word in ("Vue", "React", "TypeScript", "Svelte", "Maya", "frontend", "Stack",
                     "sm_project"):
            assert word not in body, word
        _shot(masked, "why-presenter.png")
        no_exception(masked)
