"""A team deployment run as processes: two ``streamlit run`` servers on one PostgreSQL,
sign-in through a mock OIDC provider on loopback, in a real Chromium.

- an unsigned request sees only the sign-in page (no list of pages, not even on a
  server's first run, when a ``pages/`` folder could bring Streamlit's old multipage list);
- an editor's forget through server 1 is in server 2's ledger, under the editor's email;
- the layout server 1 computed is reused by server 2 (their logs say so: no layout work);
- a viewer gets no Forget button;
- killing server 1 loses no ledger row;
- a sub-page's URL (``/ledger``) opened before sign-in shows the sign-in page alone, with
  no "page not found" notice over it, and its button signs the person in.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from apptest_support import app_page_titles
from browser_support import GRAPH, chromium, wait_graph, wait_idle
from playwright.sync_api import Browser, Page
from postgres_support import Cluster, fresh_database, postgres  # noqa: F401 - fixtures
from streamlit_server import StreamlitServer, free_port, start_streamlit

from memscope.demo.seeding import seed_if_missing
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource
from memscope.storage import open_storage

pytestmark = pytest.mark.browser

EDITOR, VIEWER = "editor@example.com", "viewer@example.com"
NAV_LINK = "[data-testid='stSidebarNav'] [data-testid='stSidebarNavLink']"
PAGE_TITLES = app_page_titles()


@contextmanager
def oidc_provider() -> Iterator[str]:
    """The mock OpenID provider on 127.0.0.1; yields its base URL."""
    from oidc_provider_mock import run_server_in_thread

    with run_server_in_thread(port=free_port()) as server:
        yield f"http://127.0.0.1:{server.server_port}"


def write_secrets(home: Path, *, app_port: int, provider: str,
                  storage_url: str | None) -> None:
    """``~/.streamlit/secrets.toml`` of one replica (its own HOME): sign-in, roles, the
    shared database (none: the store's own SQLite ledger). The cookie secret is the same
    on every replica."""
    folder = home / ".streamlit"
    folder.mkdir(parents=True)
    storage = f'\n[storage]\nurl = "{storage_url}"\n' if storage_url else ""
    (folder / "secrets.toml").write_text(f'''
[auth]
redirect_uri = "http://127.0.0.1:{app_port}/oauth2callback"
cookie_secret = "the-same-on-every-replica"
client_id = "memscope"
client_secret = "not-a-real-secret"
server_metadata_url = "{provider}/.well-known/openid-configuration"

[memscope.roles]
viewers = ["{VIEWER}"]
{storage}''', encoding="utf-8")


@contextmanager
def replica(tmp: Path, name: str, data_dir: Path, provider: str, storage_url: str | None
            ) -> Iterator[StreamlitServer]:
    port = free_port()
    home = tmp / name
    write_secrets(home, app_port=port, provider=provider, storage_url=storage_url)
    server = start_streamlit("app.py", port, env={
        "HOME": str(home), "MEMSCOPE_DATA_DIR": str(data_dir),
        "MEMSCOPE_LOG_LEVEL": "INFO"}, timeout=60)
    try:
        yield server
    finally:
        server.stop()


def sign_in(browser: Browser, url: str, email: str) -> Page:
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(url)
    page.get_by_role("button", name="Sign in").wait_for(timeout=30_000)  # the first run
    wait_idle(page)
    assert page.get_by_role("button", name="Sign in").count() == 1
    assert page.locator(GRAPH).count() == 0  # nothing but the sign-in page
    # and no pages list: neither the app's nor the old multipage mode's list of pages/
    assert page.locator(NAV_LINK).count() == 0
    page.get_by_role("button", name="Sign in").click()
    page.locator("input[name='sub']").fill(email)
    page.locator("input[name='sub']").press("Enter")
    page.wait_for_url(f"{url}/**", timeout=30_000)
    wait_idle(page, 800)
    # signed in: the router's pages, and only those (the old mode would list "app" too)
    page.locator(NAV_LINK).first.wait_for(timeout=20_000)
    titles = [t.splitlines()[-1] for t in page.locator(NAV_LINK).all_inner_texts()]
    assert titles == PAGE_TITLES  # (each text starts with its icon's name)
    return page


def test_two_servers_one_database_signed_in(tmp_path, fresh_database) -> None:  # noqa: F811
    data_dir = tmp_path / "data"
    seed_if_missing(data_dir / STORE_FILE)
    ds = EmbeddedSource(data_dir / STORE_FILE).load().dataset
    target = next(m for m, rec in ds.memories.items() if not rec.is_forgotten)
    with oidc_provider() as provider, \
            replica(tmp_path, "one", data_dir, provider, fresh_database) as one, \
            replica(tmp_path, "two", data_dir, provider, fresh_database) as two, \
            chromium() as browser:
        # an editor forgets through server 1
        page = sign_in(browser, one.url, EDITOR)
        page.goto(f"{one.url}/?node={target}")
        wait_idle(page)
        wait_graph(page)
        page.get_by_role("button", name="Forget…").click()
        page.get_by_label("Reason (optional)").fill("shared ledger test")
        page.get_by_role("button", name="Forget", exact=True).click()
        wait_idle(page, 1000)
        # server 2's first run asks for a page by its name, before sign-in: still the
        # sign-in page only (Streamlit's old multipage mode would run pages/forget_all.py
        # alone; its nav.through_router() hands it to the router)
        first = browser.new_page(viewport={"width": 1400, "height": 900})
        first.goto(f"{two.url}/forget_all")
        # the first run may still be on its way when the page looks idle: wait for it
        first.get_by_role("button", name="Sign in").wait_for(timeout=30_000)
        wait_idle(first, 800)
        assert first.get_by_role("button", name="Sign in").count() == 1
        assert first.get_by_role("heading", name="Forget all").count() == 0
        assert first.locator(NAV_LINK).count() == 0
        assert first.locator("[data-testid='stException']").count() == 0
        first.close()
        # server 2 shows it in its ledger, under the editor's email
        page2 = sign_in(browser, two.url, EDITOR)
        wait_graph(page2)
        page2.locator("[data-testid='stSidebar']").get_by_role(
            "link", name="Ledger", exact=True).click()
        wait_idle(page2, 1000)
        page2.get_by_text("1 of 1 entries.").wait_for(timeout=20_000)  # the table is a canvas
        page2.get_by_text("All my actions", exact=True).click()  # across every source
        wait_idle(page2, 800)
        page2.get_by_text("1 of 1 entries.").wait_for(timeout=20_000)
        # the layout was computed once, by server 1 (and shared through the database),
        # and server 2 did no layout work: it read what server 1 kept
        assert "derived data computed" in one.log() and "layout cache stored" in one.log()
        assert "derived data computed" not in two.log()
        assert "layout cache stored" not in two.log()
        # a viewer, on server 2, gets no Forget button
        viewer = sign_in(browser, two.url, VIEWER)
        viewer.goto(f"{two.url}/?node={target}")
        wait_idle(viewer)
        wait_graph(viewer)
        assert viewer.get_by_role("button", name="Forget…").count() == 0
        assert viewer.get_by_role("button", name="Restore").count() == 0
        # server 1 dies mid-session: nothing it wrote is lost
        one.process.kill()
        one.process.wait(timeout=10)
    storage = open_storage(fresh_database, sqlite_path=tmp_path / "unused.db")
    rows = [r for r in storage.ledger() if r.target_id == target]
    assert [(r.action, r.actor, r.reason, r.outcome) for r in rows] == [
        ("forget", EDITOR, "shared ledger test", "ok")]
    assert os.environ.get("MEMSCOPE_STORAGE_URL") is None  # the test set nothing globally


NOT_FOUND = "Page not found"


def test_a_sub_page_url_before_sign_in_shows_only_the_sign_in_page(tmp_path) -> None:
    """Without the real pages' url paths in the sign-in navigation, Streamlit answered
    ``/ledger`` with its "page not found" dialog over the sign-in page (its button inert
    until the dialog was closed)."""
    data_dir = tmp_path / "data"
    seed_if_missing(data_dir / STORE_FILE)
    with oidc_provider() as provider, \
            replica(tmp_path, "solo", data_dir, provider, None) as server, \
            chromium() as browser:
        kept = None
        for path in ("forget_all", "ledger", "connection"):  # the first is the first run
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(f"{server.url}/{path}")
            # a loaded two-core machine may take more than the idle wait to draw the first run
            page.get_by_role("button", name="Sign in").wait_for(timeout=30_000)
            wait_idle(page, 1500)
            assert page.get_by_role("button", name="Sign in").count() == 1
            assert page.get_by_text(NOT_FOUND).count() == 0, path
            assert page.get_by_role("dialog").count() == 0, path
            assert page.url == f"{server.url}/{path}"  # under the URL asked for
            assert page.locator(NAV_LINK).count() == 0
            assert page.locator(GRAPH).count() == 0
            assert page.locator("[data-testid='stException']").count() == 0
            if path == "ledger":
                kept = page
            else:
                page.close()
        assert kept is not None
        page = kept
        # the button works at once (no dialog to close first) and signs the person in
        page.get_by_role("button", name="Sign in").click(timeout=5_000)
        page.locator("input[name='sub']").fill(EDITOR)
        page.locator("input[name='sub']").press("Enter")
        page.wait_for_url(f"{server.url}/**", timeout=30_000)
        wait_idle(page, 800)
        page.locator(NAV_LINK).first.wait_for(timeout=20_000)  # the router's pages
        assert page.get_by_text(NOT_FOUND).count() == 0
        page.get_by_text(f"Signed in as {EDITOR}").wait_for(timeout=20_000)
