"""The Connection page in a real Chromium: the migration check clicked through on the
sandbox's fixtures (the legacy API reads the unknown relation ``supersedes`` as
``updates``, v5 has no such link: one chain edge differs, its two nodes marked on the
graph), and a wrong key refused in exactly one sentence with no "Connected to" success.
Screenshots (light, dark) go under ``test-screenshots/`` for a person to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import app_server, chromium, wait_graph, wait_idle
from playwright.sync_api import Page
from sandbox_fixture import running_sandbox
from test_v5_browser import SHOTS, connect_v5, go, highlighted, no_exception, sidebar

from components.sections.migration import BUTTON, TITLE
from memscope.demo.seeding import seed_if_missing
from memscope.settings import STORE_FILE

pytestmark = pytest.mark.browser

EDGE_NODES = ["mem_editor", "mem_weird_rel"]
DIFFER = ("The legacy (v3/v4) and current (v5) APIs differ for this space: 1 difference "
          "(1 chain edge only one API implies).")
REFUSAL = "rejected the API key"


def grid_cells(page: Page) -> list[str]:
    """The texts of the migration table's cells (glide's accessible table)."""
    grid = page.locator("[data-testid='stDataFrame']").first
    grid.wait_for(timeout=20_000)
    grid.locator("[role='gridcell']").first.wait_for(state="attached", timeout=20_000)
    return [t.strip() for t in grid.locator("[role='gridcell']").all_inner_texts()]


def test_the_migration_check_names_the_differing_edge_and_marks_its_nodes(tmp_path: Path
                                                                           ) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    seed_if_missing(data / STORE_FILE)
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox, \
            app_server(data) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        connect_v5(page, server.url, sandbox)
        go(page, "Connection")
        page.get_by_role("button", name=BUTTON).click()
        page.get_by_text(DIFFER, exact=True).wait_for(timeout=60_000)
        wait_idle(page, 800)
        no_exception(page)
        assert page.get_by_text(DIFFER, exact=True).count() == 1
        cells = grid_cells(page)
        edge = [c for c in cells if all(n in c for n in EDGE_NODES)]
        assert len(edge) == 1 and edge[0].endswith("(updates)"), cells
        row = cells[cells.index(edge[0]) - 3:cells.index(edge[0]) + 1]
        assert row == ["edge", "present", "missing", edge[0]], cells  # the id last
        assert "supersedes" not in " ".join(cells)
        page.get_by_text("The graph marks the 2 nodes these rows name.").wait_for()
        page.set_viewport_size({"width": 1400, "height": 1700})  # the form, then the table
        page.get_by_role("heading", name=TITLE).scroll_into_view_if_needed()
        page.mouse.move(5, 5)
        page.wait_for_timeout(500)
        page.screenshot(path=str(SHOTS / "migration-light.png"))
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(1000)
        page.screenshot(path=str(SHOTS / "migration-dark.png"))
        page.emulate_media(color_scheme="light")
        page.set_viewport_size({"width": 1400, "height": 1000})

        go(page, "Explorer")
        wait_graph(page)
        for _ in range(60):  # the redraw may land a moment after the script run
            if highlighted(page) == EDGE_NODES:
                break
            page.wait_for_timeout(250)
        assert highlighted(page) == EDGE_NODES
        no_exception(page)


def test_a_wrong_key_is_refused_in_one_sentence_and_never_called_connected(tmp_path: Path
                                                                            ) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    seed_if_missing(data / STORE_FILE)
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox, \
            app_server(data) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server.url)
        wait_idle(page)
        go(page, "Connection")
        page.get_by_role("radiogroup", name="Source").get_by_text(
            "Supermemory API", exact=True).click()
        dialect = page.get_by_role("radiogroup", name="Supermemory API")
        dialect.get_by_text("Current API (v5)", exact=True).click()
        page.get_by_label("Base URL (optional; self-hosted URLs allowed)").fill(
            sandbox.url)
        wrong = "sm_wrong_key_for_this_test"
        assert wrong != sandbox.supermemory_key
        page.get_by_role("textbox", name="API key").fill(wrong)
        page.get_by_role("button", name="Connect").click()
        wait_idle(page, 2500)
        no_exception(page)
        page.get_by_text(REFUSAL).first.wait_for(timeout=20_000)
        page.wait_for_timeout(1500)  # any toast has landed
        refusals = page.get_by_text(REFUSAL)
        assert refusals.count() == 1, refusals.all_inner_texts()
        sentence = refusals.first.inner_text()
        assert sentence.startswith("Supermemory") and sentence.rstrip().endswith("re-enter it."), \
            sentence
        assert page.get_by_text("Connected to").count() == 0
        assert sidebar(page).get_by_text("Connected to").count() == 0
        page.mouse.move(5, 5)
        page.screenshot(path=str(SHOTS / "wrong-key-light.png"))
