"""'Check these with a model' in a real Chromium, end to end against the fake chat
endpoint on 127.0.0.1 (tests/judge_fake.py): the model set on the Connection page, the
warning before sending, progress, the verdicts on the review queue, the ledger rows, and
presenter mode's refusal until confirmed. Screenshots (light, dark, presenter) go under
``test-screenshots/``; the page itself never requests anything beyond 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import assert_loopback_only, chromium, wait_graph, wait_idle
from judge_fake import FakeChat, serving
from playwright.sync_api import Page
from streamlit_server import free_port, start_streamlit
from test_semantic_review import seed
from test_semantic_review_browser import ITEMS, audit, item
from test_v5_browser import SHOTS, go, no_exception

from memscope.settings import STORE_FILE

pytestmark = pytest.mark.browser


def _shot(page: Page, name: str) -> None:
    wait_idle(page, 800)
    page.get_by_role("heading", name="Review queue").scroll_into_view_if_needed()
    page.mouse.move(5, 5)
    page.wait_for_timeout(600)
    page.screenshot(path=str(SHOTS / name))


def test_a_model_checks_the_queue_end_to_end(tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    store = seed(data / STORE_FILE)
    with serving() as url:
        FakeChat.delay = 0.8  # slow enough to watch the progress
        server = start_streamlit("serve.py", free_port(), env={
            "MEMSCOPE_DATA_DIR": str(data), "MEMSCOPE_JUDGE_URL": url,
            "MEMSCOPE_JUDGE_MODEL": "env-model"}, timeout=60)
        try:
            with chromium() as browser:
                requests: list[str] = []
                page = browser.new_page(viewport={"width": 1400, "height": 1300})
                page.on("request", lambda r: requests.append(r.url))
                page.goto(server.url)
                wait_idle(page)
                wait_graph(page)
                # the model set on the Connection page (overrides the environment's)
                go(page, "Connection")
                page.get_by_text("In use: env-model at 127.0.0.1").wait_for(timeout=30_000)
                page.get_by_role("textbox", name="Endpoint URL").fill(url)
                page.get_by_role("textbox", name="Model", exact=True).fill("tiny")
                page.get_by_role("textbox", name="Key (optional)").fill("sk-browser-key")
                page.get_by_role("button", name="Use this model").click()
                page.get_by_text("In use: tiny at 127.0.0.1").wait_for(timeout=30_000)
                assert "sk-browser-key" not in page.content()
                wait_idle(page, 800)
                page.get_by_role("heading", name="Check findings with a model"
                                 ).scroll_into_view_if_needed()
                page.mouse.move(5, 5)
                page.wait_for_timeout(600)
                page.screenshot(path=str(SHOTS / "judge-form-light.png"))
                no_exception(page)

                audit(page)
                assert "what the world knows" in page.inner_text("body")
                page.get_by_role("button", name="Check these with a model").click()
                confirm = page.locator("[class*='st-key-judge-confirm']")
                confirm.wait_for(timeout=30_000)
                said = confirm.inner_text()
                assert "2 the rules flagged" in said and "to tiny at 127.0.0.1" in said
                assert not FakeChat.seen  # nothing sent before Send
                _shot(page, "judge-confirm-light.png")
                confirm.get_by_role("button", name="Send").click()
                page.get_by_text("pairs checked").first.wait_for(timeout=30_000)  # progress
                page.locator(ITEMS).filter(has_text="Confirmed by tiny").first.wait_for(
                    timeout=60_000)
                wait_idle(page, 800)
                lisbon = item(page, "m_lisbon")
                assert "Confirmed by tiny — One home at a time." in lisbon.inner_text()
                assert "Rejected by tiny" in item(page, "m_coffee").inner_text()
                assert {auth for _p, auth, _b in FakeChat.seen} == {"Bearer sk-browser-key"}
                rows = [e for e in store.ledger() if e.action == "judged"]
                assert len(rows) == len(FakeChat.seen) >= 2
                assert "Confirmed by tiny: One home at a time." in [e.message for e in rows]
                _shot(page, "judge-verdicts-light.png")
                page.emulate_media(color_scheme="dark")
                page.wait_for_timeout(1000)
                _shot(page, "judge-verdicts-dark.png")
                page.emulate_media(color_scheme="light")
                no_exception(page)
                assert_loopback_only(requests)

                # presenter mode: refused until the box is ticked
                sent = len(FakeChat.seen)
                masked = browser.new_page(viewport={"width": 1400, "height": 1300})
                masked.goto(f"{server.url}/audit?presenter=1")
                wait_idle(masked)
                masked.locator(ITEMS).first.wait_for(timeout=60_000)
                wait_idle(masked, 800)
                masked.get_by_role("button", name="Check these with a model").click()
                box = masked.locator("[class*='st-key-judge-confirm']")
                box.wait_for(timeout=30_000)
                send = box.get_by_role("button", name="Send")
                assert send.is_disabled()
                assert "Refused while presenting" in box.inner_text()
                _shot(masked, "judge-presenter.png")
                box.get_by_text("Send memory text while presenting").click()
                wait_idle(masked, 800)
                assert not send.is_disabled()
                send.click()
                masked.locator(ITEMS).filter(has_text="Confirmed by env-model").first.wait_for(
                    timeout=60_000)
                assert len(FakeChat.seen) > sent
                assert "One home at a time" not in masked.inner_text("body")
                no_exception(masked)
                masked.close()
                page.close()
        finally:
            server.stop()
