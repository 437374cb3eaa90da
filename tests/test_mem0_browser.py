"""The mem0 journey in a real Chromium (issue 22's "Done when"): the Connection page
connects to the sandbox's mem0 API, the graph loads, a memory's history opens with its
word diffs, the memory is forgotten (confirmed, sent once, ledgered), and a mem0
``history.db`` written by the test opens as a file. Screenshots of the history panel
(light, dark, presenter) go to ``test-screenshots/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import (
    GRAPH,
    NODE_CENTRE,
    app_server,
    assert_loopback_only,
    chromium,
    wait_graph,
    wait_idle,
)
from playwright.sync_api import Page
from pydantic import SecretStr
from sandbox_fixture import deleted, running_sandbox
from test_mem0_history import write_history

from components.sections.connection_form import SPACE_LABELS
from memscope.demo.seeding import seed_if_missing
from memscope.sandbox import Sandbox
from memscope.settings import STORE_FILE
from memscope.sources import Mem0Config, Mem0Source
from memscope.store.store import Store

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "test-screenshots"
TAG = "user:sm_project_personal"
EXCEPTION = "[data-testid='stException']"
NODE_IDS = "el => el.__network.body.data.nodes.getIds()"
MAIN = "[data-testid='stMainBlockContainer']"


def sidebar(page: Page):
    return page.locator("[data-testid='stSidebar']")


def go(page: Page, title: str) -> None:
    sidebar(page).get_by_role("link", name=title, exact=True).click()
    wait_idle(page, 800)


def no_exception(page: Page) -> None:
    assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()


def drawn(page: Page) -> set[str]:
    return set(page.locator(GRAPH).evaluate(NODE_IDS))


def click_node(page: Page, node_id: str) -> None:
    page.wait_for_timeout(800)  # any focus move has finished
    centre = page.locator(GRAPH).evaluate(NODE_CENTRE, node_id)
    page.mouse.click(centre["x"], centre["y"])
    wait_idle(page, 1000)
    assert f"node={node_id}" in page.url


def shoot(page: Page, name: str) -> None:
    page.mouse.move(5, 5)
    page.set_viewport_size({"width": 1400, "height": 2000})
    page.wait_for_timeout(1000)
    page.screenshot(path=str(SHOTS / name))
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.wait_for_timeout(300)


def both_schemes(page: Page, stem: str) -> None:
    """``<stem>-light.png`` and ``<stem>-dark.png`` (:func:`shoot`), back in light after."""
    shoot(page, f"{stem}-light.png")
    page.emulate_media(color_scheme="dark")
    page.wait_for_timeout(800)
    shoot(page, f"{stem}-dark.png")
    page.emulate_media(color_scheme="light")
    page.wait_for_timeout(300)


def a_changed_memory(sandbox: Sandbox) -> tuple[str, str, str]:
    """``(mem0 id, its text, the text before it)`` of a memory with an update."""
    src = Mem0Source(Mem0Config(api_key=SecretStr(sandbox.mem0_key), base_url=sandbox.mem0_url,
                                entities=(TAG,)))
    ds = src.load().dataset
    src.close()
    mem = next(m for m in ds.memories.values() if m.is_latest and m.parent_id
               and ds.memories[m.parent_id].memory != m.memory)
    assert mem.parent_id is not None
    return mem.id, mem.memory, ds.memories[mem.parent_id].memory


def test_a_mem0_connection_loads_shows_history_forgets_and_a_history_db_opens(
        tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    seed_if_missing(data / STORE_FILE)
    db = write_history(tmp_path / "history.db")
    urls: list[str] = []
    with running_sandbox(tmp_path / "sandbox") as sandbox, app_server(data) as server, \
            chromium() as browser:
        target, text, before = a_changed_memory(sandbox)
        sandbox.clear_requests()
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("request", lambda r: urls.append(r.url))
        page.goto(server.url)
        wait_idle(page)

        # connects, as a person fills the form in
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
        assert TAG in sidebar(page).get_by_text("Source:").first.inner_text()
        assert sandbox.mem0_key not in page.content()

        # loads: one list page, every history, drawn as chains
        go(page, "Explorer")
        wait_graph(page)
        paths = [r.path for r in sandbox.requests]
        assert "/mem0/v3/memories/" in paths
        assert sum(p.endswith("/history/") for p in paths) >= 10
        assert not [p for p in paths if not p.startswith("/mem0/")]
        assert target in drawn(page)

        # the memory's history, with its word diff
        click_node(page, target)
        main = page.locator(MAIN)
        main.get_by_text("History", exact=True).first.wait_for(timeout=20_000)
        versions = main.get_by_role("button", name="v1 · ").count()
        assert versions >= 1 and main.get_by_role("button", name="◀ selected").count() == 1
        assert main.locator("del").count() >= 1 or before in main.inner_text()
        no_exception(page)
        main.get_by_text("History", exact=True).first.scroll_into_view_if_needed()
        shoot(page, "mem0-history-light.png")
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(800)
        shoot(page, "mem0-history-dark.png")
        page.emulate_media(color_scheme="light")
        sidebar(page).get_by_text("Presenter mode").click()
        wait_idle(page, 1000)
        wait_graph(page)
        shoot(page, "mem0-history-presenter.png")
        assert text not in page.locator(MAIN).inner_text()
        sidebar(page).get_by_text("Presenter mode").click()
        wait_idle(page, 1000)
        wait_graph(page)

        # forgets it: confirmed, sent once, ledgered
        page.get_by_role("button", name="Forget…").click()
        page.get_by_label("Reason (optional)").fill("no longer true")
        page.get_by_role("button", name="Forget", exact=True).click()
        wait_idle(page, 1500)
        no_exception(page)
        sent = deleted(sandbox, f"/mem0/v1/memories/{target}/")
        assert len(sent) == 1 and sent[0].status == 200
        rows = [r for r in Store(data / STORE_FILE).ledger() if r.action == "forget"]
        assert [(r.target_id, r.outcome, r.reason, r.source) for r in rows] == [
            (target, "ok", "no longer true", "mem0")]

        # opens a mem0 history.db written by this test
        go(page, "Connection")
        page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(
            str(db))
        page.get_by_role("button", name="Open these files").click()
        wait_idle(page, 800)
        go(page, "Explorer")
        wait_graph(page)
        no_exception(page)
        assert {"h1", "h2", "m-tea", "m-city", "m-dog"} <= drawn(page)
        assert "Loaded 0 documents and 5 memories." in sidebar(page).inner_text()
    assert_loopback_only(urls)
