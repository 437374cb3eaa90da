"""mem0 as it is now, in a real Chromium (issue 30): a ``history.db`` holding mem0's saved
conversation turns opens on the Connection page and a memory's "Why does it believe
this?" dialog shows the conversation it most likely came from; a Dream-shaped mem0
platform (the sandbox with ``mem0_dream``) draws its superseded memories as older
versions and its merged ones as forgotten, linked to their canonical memory. Screenshots
(light and dark) go to ``test-screenshots/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import app_server, assert_loopback_only, chromium, wait_graph, wait_idle
from playwright.sync_api import Locator, Page
from sandbox_fixture import running_sandbox
from test_mem0_browser import SHOTS, TAG, click_node, drawn, go, no_exception, sidebar
from test_mem0_history import MESSAGES, write_history

from components.sections.connection_form import SPACE_LABELS
from memscope.demo.seeding import seed_if_missing
from memscope.settings import STORE_FILE

pytestmark = pytest.mark.browser

MAIN = "[data-testid='stMainBlockContainer']"
TITLE = "Why does it believe this?"


def shot(page: Page, name: str, *, dark: bool = False) -> None:
    page.emulate_media(color_scheme="dark" if dark else "light")
    page.mouse.move(400, 950)  # over the graph's empty corner: a node's tooltip closes
    page.wait_for_timeout(300)
    page.mouse.move(5, 5)
    page.wait_for_timeout(900)
    page.screenshot(path=str(SHOTS / name))


def open_why(page: Page, node_id: str) -> Locator:
    page.locator(f".st-key-why-panel-{node_id}").get_by_role(
        "button", name=TITLE, exact=True).click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_text("How it got there").wait_for(timeout=60_000)
    wait_idle(page, 500)
    return dialog


def test_a_history_db_shows_the_conversation_a_memory_came_from(tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    seed_if_missing(data / STORE_FILE)
    db = write_history(tmp_path / "history.db", MESSAGES)
    urls: list[str] = []
    with app_server(data) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("request", lambda r: urls.append(r.url))
        page.goto(server.url)
        wait_idle(page)
        go(page, "Connection")
        page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(
            str(db))
        page.get_by_role("button", name="Open these files").click()
        wait_idle(page, 800)
        go(page, "Explorer")
        wait_graph(page)
        no_exception(page)
        assert {"h1", "m-tea"} <= drawn(page)

        click_node(page, "m-tea")
        dialog = open_why(page, "m-tea")
        text = dialog.inner_text()
        for part in ("The conversation it most likely came from (v1)",
                     "Session: user alice · saved 2025-03-01 09:00 UTC",
                     "Matched by time: these turns were saved 3 seconds after the memory "
                     "was added",
                     "so this is the most likely one, not a record",
                     "user: I drink <b>green</b> tea every morning now.",
                     "assistant: Noted: green tea in the mornings."):
            assert part in text, part
        assert text.index("Where it came from") < text.index("most likely came from") \
            < text.index("Relations")
        assert dialog.locator("b").count() == 0  # the turn's markup is text
        no_exception(page)
        dialog.get_by_text("assistant: Noted").scroll_into_view_if_needed()
        shot(page, "mem0-conversation-light.png")
        shot(page, "mem0-conversation-dark.png", dark=True)
        page.emulate_media(color_scheme="light")
    assert_loopback_only(urls)


def test_a_dream_shaped_mem0_shows_superseded_and_merged_memories(tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    seed_if_missing(data / STORE_FILE)
    urls: list[str] = []
    with running_sandbox(tmp_path / "sandbox", mem0_dream=True) as sandbox, \
            app_server(data) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("request", lambda r: urls.append(r.url))
        page.goto(server.url)
        wait_idle(page)
        go(page, "Connection")
        page.get_by_role("radiogroup", name="Source").get_by_text(
            "mem0 — platform API", exact=True).click()
        page.get_by_label("Base URL (optional; self-hosted URLs allowed)").fill(
            sandbox.mem0_url)
        page.get_by_role("textbox", name="API key").fill(sandbox.mem0_key)
        page.get_by_role("textbox", name=SPACE_LABELS["mem0"]).fill(TAG)
        page.get_by_role("button", name="Connect").click()
        wait_idle(page, 1500)
        no_exception(page)
        go(page, "Explorer")
        wait_graph(page)
        no_exception(page)
        assert {"mem_trip", "mem_trip_hotel", "mem_coffee_v1", "mem_coffee_v2"} <= drawn(page)
        bodies = [r.body for r in sandbox.requests if r.path == "/mem0/v3/memories/"]
        assert bodies and all(b.get("include_merged") is True for b in bodies)

        # a merged memory: forgotten, its reason naming the canonical memory it extends
        click_node(page, "mem_trip")
        main = page.locator(MAIN)
        main.get_by_text("Forget reason", exact=True).wait_for(timeout=20_000)
        text = main.inner_text()
        assert ("Merged by mem0’s Dream into “Booked a hotel near Alfama for the Lisbon "
                "trip.” (mem_trip_hotel).") in text
        assert "extends: Booked a hotel near Alfama" in text
        no_exception(page)
        shot(page, "mem0-dream-merged-light.png")
        shot(page, "mem0-dream-merged-dark.png", dark=True)
        page.emulate_media(color_scheme="light")

        # a superseded memory: the older version of the memory that replaced it
        click_node(page, "mem_coffee_v1")
        main.get_by_text("History", exact=True).first.wait_for(timeout=20_000)
        text = main.inner_text()
        assert "superseded" in text.lower()
        assert main.get_by_role("button", name="v2 · ").count() >= 1
        no_exception(page)
        main.get_by_role("button", name="v2 · ").first.scroll_into_view_if_needed()
        shot(page, "mem0-dream-superseded-light.png")
        shot(page, "mem0-dream-superseded-dark.png", dark=True)
        page.emulate_media(color_scheme="light")
        assert sandbox.mem0_key not in page.content()
        assert "mem0" in sidebar(page).get_by_text("Source:").first.inner_text()
    assert_loopback_only(urls)
