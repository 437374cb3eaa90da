"""Ask by meaning in a real Chromium (issue 24, item 1): on the embedded demo store, a
question in words no memory uses lists an answer found by meaning, says in plain words
how it ranked, and highlights it in the graph. Screenshots (light, dark) of the answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import GRAPH, app_server, chromium, open_app

from memscope.records.words import STOP_WORDS, tokens
from memscope.settings import STORE_FILE
from memscope.store.store import Store

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
QUESTION = "Which foods must Maya avoid?"
HIGHLIGHT_OF = """([el, id]) => {
  const node = el.__network && el.__network.body.data.nodes.get(id);
  return node ? node.borderWidth : null;
}"""

pytestmark = pytest.mark.browser


def own(text: str) -> bool:
    """About Maya herself (not "Maya's friend …")."""
    return text.startswith("Maya ")


def test_a_question_in_other_words_is_answered_by_meaning(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with app_server(data) as server, chromium() as browser:
        page = open_app(browser, server.url, width=1400, height=1000)
        hits = [h for h in Store(data / STORE_FILE).search(QUESTION)["hits"]
                if h["kind"] == "memory"]
        asked = {w[:4] for w in tokens(QUESTION) if w not in STOP_WORDS} - {"maya"}
        # the first of the top three that shares no word with the question but the name
        answer = next(h for h in hits[:3] if own(h["text"])
                      and not asked & {t[:4] for t in tokens(h["text"])})

        page.get_by_placeholder("e.g. where is Maya travelling?").fill(QUESTION)
        page.get_by_role("button", name="Ask", exact=True).click()
        page.get_by_text(answer["text"]).first.wait_for(timeout=30_000)
        page.get_by_text("by what they mean").first.wait_for(timeout=10_000)
        assert "BM25" not in page.inner_text("body")  # the technique stays in the tooltip
        graph = page.locator(GRAPH).element_handle()
        page.wait_for_function(f"args => ({HIGHLIGHT_OF})(args) === 5",
                               arg=[graph, answer["id"]], timeout=30_000)
        SHOTS.mkdir(exist_ok=True)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(600)
            page.screenshot(path=str(SHOTS / f"ask-by-meaning-{scheme}.png"))
