"""A question asked in Chinese about English memories, in a real Chromium (issue 35,
items 6 and 7): on the embedded demo store, "玛雅对什么过敏？" lists Maya's allergy first,
found by its words (玛雅 read as "Maya", 过敏 as "allergic"), and the result says which of
the question's words it holds, with their English. Screenshots (light, dark)."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import app_server, chromium, open_app

from memscope.settings import STORE_FILE
from memscope.store.store import Store

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
QUESTION = "玛雅对什么过敏？"
ANSWER = "Maya is allergic to peanuts."

pytestmark = pytest.mark.browser


def test_a_chinese_question_lists_the_english_answer_first(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with app_server(data) as server, chromium() as browser:
        page = open_app(browser, server.url, width=1400, height=1000)
        hits = [h["text"] for h in Store(data / STORE_FILE).search(QUESTION)["hits"]
                if h["kind"] == "memory"]
        assert hits[0] == ANSWER, hits[:3]

        page.get_by_placeholder("e.g. where is Maya travelling?").fill(QUESTION)
        page.get_by_role("button", name="Ask", exact=True).click()
        page.get_by_text(ANSWER).first.wait_for(timeout=30_000)
        page.get_by_text("过敏 (allergic)").first.wait_for(timeout=10_000)
        body = page.inner_text("body")
        assert body.index(ANSWER) < min(body.index(t) for t in hits[1:3] if t in body)
        SHOTS.mkdir(exist_ok=True)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(600)
            page.screenshot(path=str(SHOTS / f"ask-in-chinese-{scheme}.png"))
