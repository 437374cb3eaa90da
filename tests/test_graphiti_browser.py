"""The Graphiti journey in a real Chromium (issue 34): the Connection page opens a
Kuzu-held Graphiti graph written by the test with graphiti-core's own classes, the graph
draws, the contradicted fact shows its two versions in the panel, its "Why does it believe
this?" trail quotes the episodes it came from, and an episode is forgotten — the dialog
lists the facts it takes along and says it cannot be undone — and is gone from the file,
the graph and into the ledger. Screenshots (light, dark) go to ``test-screenshots/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import app_server, assert_loopback_only, chromium, wait_graph, wait_idle
from graphiti_support import ENGINEER, LEAD, write_graph
from playwright.sync_api import Page
from test_mem0_browser import MAIN, SHOTS, click_node, drawn, go, no_exception, shoot, sidebar

from components.sections.connection_form import GRAPHITI_LOCATION, SPACE_LABELS
from memscope.demo.seeding import seed_if_missing
from memscope.settings import STORE_FILE
from memscope.sources.graphiti import FOREVER, GraphitiConfig, GraphitiSource
from memscope.store.store import Store

WHY = "Why does it believe this?"
MISC = ("Alice likes only cool jazz", "Alice finds bebop too much", "Alice lives in Porto again",
        "Alice drinks green tea")


def both_schemes(page: Page, name: str) -> None:
    """``graphiti-<name>-light.png`` and ``-dark.png``."""
    shoot(page, f"graphiti-{name}-light.png")
    page.emulate_media(color_scheme="dark")
    page.wait_for_timeout(800)
    shoot(page, f"graphiti-{name}-dark.png")
    page.emulate_media(color_scheme="light")
    page.wait_for_timeout(300)

pytestmark = pytest.mark.browser


def test_a_graphiti_kuzu_graph_opens_and_its_contradicted_fact_shows_two_versions(
        tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    seed_if_missing(data / STORE_FILE)
    graph = write_graph(tmp_path / "alice.kuzu")
    urls: list[str] = []
    with app_server(data) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.on("request", lambda r: urls.append(r.url))
        page.goto(server.url)
        wait_idle(page)

        # connects, as a person fills the form in
        go(page, "Connection")
        page.get_by_role("radiogroup", name="Source").get_by_text(
            "Graphiti graph", exact=True).click()
        wait_idle(page, 800)
        backend = page.get_by_role("radiogroup", name="Where the graph lives")
        assert all(w in backend.inner_text() for w in ("Kuzu file", "Neo4j", "FalkorDB"))
        backend.get_by_text("Neo4j", exact=True).click()  # a server asks for more
        wait_idle(page, 800)
        assert page.get_by_role("textbox", name="Password").count() == 1
        backend.get_by_text("Kuzu file", exact=True).click()
        wait_idle(page, 800)
        assert page.get_by_role("textbox", name="Password").count() == 0
        page.get_by_role("textbox", name=GRAPHITI_LOCATION["kuzu"]).fill(str(tmp_path / "no"))
        page.get_by_role("button", name="Connect").click()
        wait_idle(page, 1500)
        page.get_by_text(f"There is no Graphiti database at {tmp_path / 'no'}.").first.wait_for(
            timeout=20_000)  # one sentence, no traceback
        no_exception(page)
        page.get_by_role("textbox", name=GRAPHITI_LOCATION["kuzu"]).fill(str(graph))
        page.get_by_role("textbox", name=SPACE_LABELS["graphiti"]).fill("")
        page.get_by_role("button", name="Connect").click()
        wait_idle(page, 1500)
        no_exception(page)
        assert "Graphiti graph" in sidebar(page).get_by_text("Source:").first.inner_text()
        assert "Loaded 5 documents and 11 memories." in sidebar(page).inner_text()

        # the graph: episodes and facts, drawn once each
        go(page, "Explorer")
        wait_graph(page)
        no_exception(page)
        assert {"ep-intro", "ep-promotion", "ep-review", "fact-engineer", "fact-lead",
                "fact-release"} <= drawn(page)

        # the contradicted fact: two versions in the panel
        click_node(page, "fact-engineer")
        main = page.locator(MAIN)
        main.get_by_text("History", exact=True).first.wait_for(timeout=20_000)
        assert main.get_by_role("button", name="v1 · ").count() == 1
        assert main.get_by_role("button", name="v2 · ").count() == 1
        assert main.get_by_role("button", name="◀ selected").count() == 1
        text = main.inner_text()
        assert ENGINEER in text and LEAD in text
        assert "superseded" in text
        assert ("True from 15 January to 1 June 2026; learnt 1 March 2026, retired 1 June "
                "2026.") in text  # both clocks, in words
        no_exception(page)
        main.get_by_text("History", exact=True).first.scroll_into_view_if_needed()
        shoot(page, "graphiti-versions-light.png")
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(800)
        shoot(page, "graphiti-versions-dark.png")
        page.emulate_media(color_scheme="light")

        # Why? quotes the episode each version came from
        page.locator(".st-key-why-panel-fact-engineer").get_by_role(
            "button", name=WHY, exact=True).click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_text("Where it came from").wait_for(timeout=60_000)
        wait_idle(page, 500)
        said = dialog.inner_text()
        assert "Alice introduces herself" in said and "Alice's promotion" in said
        assert "Alice: I was promoted to team lead at Acme today." in said
        assert "Alice: I live in Porto, I work at Acme as an engineer" in said
        both_schemes(page, "why")
        page.keyboard.press("Escape")
        dialog.wait_for(state="detached", timeout=30_000)
        wait_idle(page, 500)

        # forgets an episode: what it takes along, and that it is for good, first — the
        # facts' texts hidden in presenter mode, the warning not
        click_node(page, "ep-misc")
        sidebar(page).get_by_text("Presenter mode").click()
        wait_idle(page, 1000)
        main.get_by_role("button", name="Forget this episode…").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_text("Reason (optional)").wait_for(timeout=60_000)
        wait_idle(page, 500)
        said = dialog.inner_text()
        assert FOREVER in said and "“[hidden text]”" in said
        assert not any(fact in said for fact in MISC) and "green tea" not in said
        dialog.get_by_role("button", name="Cancel", exact=True).click()
        dialog.wait_for(state="detached", timeout=60_000)
        sidebar(page).get_by_text("Presenter mode").click()
        wait_idle(page, 1000)
        main.get_by_role("button", name="Forget this episode…").click()
        dialog = page.get_by_role("dialog")
        dialog.get_by_text("Reason (optional)").wait_for(timeout=60_000)
        wait_idle(page, 500)
        said = dialog.inner_text()
        assert "Memscope deletes this episode from the Graphiti graph and 4 facts with it" in said
        assert all(f"“{fact}”" in said for fact in MISC)
        assert "only this episode mentions goes too: “green tea”." in said
        assert FOREVER in said
        no_exception(page)
        both_schemes(page, "forget-episode")
        dialog.get_by_label("Reason (optional)").fill("a test episode")
        dialog.get_by_role("button", name="Forget", exact=True).click()
        dialog.wait_for(state="detached", timeout=60_000)
        wait_idle(page, 1500)
        no_exception(page)
        wait_graph(page)
        assert not {"ep-misc", "fact-tea", "fact-jazz-cool"} & drawn(page)
        assert {"ep-intro", "fact-engineer", "fact-lead"} <= drawn(page)
        rows = [r for r in Store(data / STORE_FILE).ledger() if r.action == "forget"]
        assert [(r.target_id, r.outcome, r.reason, r.source) for r in rows] == [
            ("ep-misc", "ok", "a test episode", "graphiti")]
        both_schemes(page, "forgotten")
    with GraphitiSource(GraphitiConfig("kuzu", str(graph))) as again:  # the file changed
        ds = again.load().dataset
        assert "ep-misc" not in ds.documents and "fact-tea" not in ds.memories
        assert len(ds.memories) == 7
    assert_loopback_only(urls)
