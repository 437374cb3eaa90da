"""Supermemory's API as a deployment finds it, in a real Chromium (issue "The services as
they are in 2027"): a connection configured with no dialect (the environment names the
service and the key, nothing else) reaches a v5 sandbox on v5 and a legacy-only sandbox
on the legacy API — said in the sidebar, with the shutdown date and that the account does
not answer v5 yet; a connection that chose the legacy API where v5 answers is offered the
switch, and one click moves it to v5. Screenshots (light, dark) go under
``test-screenshots/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser_support import chromium, wait_graph, wait_idle
from playwright.sync_api import Page
from sandbox_fixture import running_sandbox
from streamlit_server import StreamlitServer, free_port, start_streamlit
from test_v5_browser import SHOTS, go, no_exception, sidebar

from memscope.demo.seeding import seed_if_missing
from memscope.sandbox import Sandbox
from memscope.settings import STORE_FILE

pytestmark = pytest.mark.browser

#: either sentence holds the date: before it "shuts … down on", from 2027 "retired … on"
DATE = "31 December 2026"


@contextmanager
def configured_app(data: Path, sandbox: Sandbox) -> Iterator[StreamlitServer]:
    """The app with a Supermemory connection configured by the environment, no dialect."""
    seed_if_missing(data / STORE_FILE)
    server = start_streamlit("app.py", free_port(), env={
        "MEMSCOPE_DATA_DIR": str(data), "MEMSCOPE_SOURCE": "supermemory",
        "MEMSCOPE_API_KEY": sandbox.supermemory_key, "MEMSCOPE_BASE_URL": sandbox.url,
        "MEMSCOPE_SUPERMEMORY_DIALECT": ""}, timeout=60)
    try:
        yield server
    finally:
        server.stop()


def source_line(page: Page) -> str:
    return sidebar(page).get_by_text("Source:").first.inner_text()


def notice(page: Page) -> str:
    """The sidebar's warnings, as one text ('' when there is none)."""
    boxes = sidebar(page).locator("[data-testid='stAlertContentWarning']")
    return " ".join(boxes.all_inner_texts())


def test_no_dialect_named_reaches_v5_where_it_answers(tmp_path: Path) -> None:
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox, \
            configured_app(tmp_path / "data", sandbox) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url)
        wait_graph(page)
        no_exception(page)
        assert "Supermemory — current API (v5), chosen automatically" in source_line(page)
        assert DATE not in notice(page)  # nothing to retire
        lists = [r for r in sandbox.requests if "/list/" in r.path]
        assert lists and not [r for r in sandbox.requests if r.path.startswith("/v3/")]


def test_no_dialect_named_falls_back_to_legacy_and_says_when_it_ends(tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        sandbox.faults.v5_missing = True  # a service that speaks only the legacy API
        with configured_app(tmp_path / "data", sandbox) as server, chromium() as browser:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(server.url)
            wait_graph(page)
            no_exception(page)
            assert "Supermemory — legacy API (v3/v4), chosen automatically" in \
                source_line(page)
            said = notice(page)
            assert DATE in said and "does not answer the current API (v5) yet" in said
            assert sidebar(page).get_by_role("button", name="Switch to the current API "
                                                            "(v5)").count() == 0
            v5_asked = [r for r in sandbox.requests if r.path == "/ns"]
            assert [r.status for r in v5_asked] == [404]  # asked once, never again
            page.mouse.move(5, 5)
            page.screenshot(path=str(SHOTS / "legacy-retirement-light.png"))
            page.emulate_media(color_scheme="dark")
            page.reload()
            wait_graph(page)
            page.screenshot(path=str(SHOTS / "legacy-retirement-dark.png"))


def test_a_legacy_connection_where_v5_answers_switches_in_one_click(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox, \
            configured_app(data, sandbox) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(server.url)
        wait_graph(page)
        go(page, "Connection")
        page.get_by_role("radiogroup", name="Supermemory API").get_by_text(
            "Legacy API (v3/v4) — shut down on 31 December 2026", exact=True).click()
        page.get_by_role("textbox", name="API key").fill(sandbox.supermemory_key)
        page.get_by_role("button", name="Connect").click()
        wait_idle(page, 1500)
        no_exception(page)
        assert source_line(page).startswith("Source: Supermemory — legacy API (v3/v4)")
        assert "chosen automatically" not in source_line(page)
        said = notice(page)
        assert DATE in said and "already answers the current API (v5)" in said
        sidebar(page).get_by_role("button", name="Switch to the current API (v5)").click()
        wait_idle(page, 1500)
        no_exception(page)
        assert source_line(page).startswith("Source: Supermemory — current API (v5)")
        assert notice(page) == ""
        go(page, "Explorer")
        wait_graph(page)
