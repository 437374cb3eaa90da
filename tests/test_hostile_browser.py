"""5 MB words in a real Chromium (issue 20): snapshot files whose every text field holds one
5 MB word are opened on the Connection page; the Explorer draws its graph, the page holds
no huge text, and a click on the huge memory opens its panel with the start of the text
and the note saying how much is shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import GRAPH, IDLE, NODE_CENTRE, assert_loopback_only, chromium, wait_idle
from test_hostile_input import huge_word_files

from memscope.records.models import TEXT_CAP
from memscope.records.text import FULL_MAX

pytestmark = pytest.mark.browser

#: the most text the Explorer may hold besides the start of each huge text a panel shows
#: (FULL_MAX each: the memory and each version of its history)
PAGE_MAX = 30_000
LABELS = "el => el.__network.body.data.nodes.get().map(n => [n.id, (n.label || '').length, " \
         "(n.title || '').length])"


def test_the_explorer_draws_5_mb_words_bounded(server, tmp_path: Path) -> None:
    paths = []
    for name, blob in huge_word_files():
        (tmp_path / name).write_bytes(blob)
        paths.append(str(tmp_path / name))
    requests: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        page.on("request", lambda r: requests.append(r.url))
        page.goto(f"{server.url}/connection")
        wait_idle(page)
        page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(paths)
        page.get_by_role("button", name="Open these files").click()
        wait_idle(page, 500)
        page.locator("[data-testid='stSidebarNavLink']").filter(has_text="Explorer").click()
        page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=60_000)
        wait_idle(page)
        nodes = {i: (label, title) for i, label, title in page.eval_on_selector(GRAPH, LABELS)}
        assert {"m_good", "m_huge", "m_huge2", "d_huge"} <= set(nodes)
        assert max(label for label, _ in nodes.values()) <= 40  # a card's title at most
        assert max(title for _, title in nodes.values()) <= 2000
        assert page.evaluate("() => document.body.innerText.length") < PAGE_MAX
        at = page.eval_on_selector(GRAPH, NODE_CENTRE, "m_huge2")
        page.mouse.click(at["x"], at["y"])
        note = page.get_by_text(f"({TEXT_CAP:,} characters; the first {FULL_MAX:,} shown)")
        note.first.wait_for(timeout=60_000)
        page.wait_for_selector(IDLE, timeout=60_000)
        cut = note.count()  # the memory, and its two versions in the history
        assert cut == 3
        assert page.get_by_role("button", name="Download the full text").count() == cut
        note.first.scroll_into_view_if_needed()
        shots = Path(__file__).resolve().parents[1] / "test-screenshots"
        shots.mkdir(exist_ok=True)
        page.screenshot(path=str(shots / "huge-word-panel-light.png"))
        assert page.evaluate("() => document.body.innerText.length") < PAGE_MAX + cut * FULL_MAX
    assert_loopback_only(requests)
