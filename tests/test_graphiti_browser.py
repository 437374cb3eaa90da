"""The Graphiti journey in a real Chromium (issue 34): the Connection page opens a
Kuzu-held Graphiti graph written by the test with graphiti-core's own classes, the graph
draws, the history plays the contradicted fact's chain on both clocks (on what the memory
believed the first version is there from 1 March, when it learnt it; on what was true it
is there on 15 February and the newer one is not, and the caption says where the fact
with no start was placed), the fact shows its two versions in the panel,
its "Why does it believe this?" trail quotes the episodes it came from, and an episode is
forgotten — the dialog lists the facts it takes along and says it cannot be undone — and
is gone from the file, the graph and into the ledger. Screenshots (light, dark) go to
``test-screenshots/``.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from browser_support import app_server, assert_loopback_only, chromium, wait_graph, wait_idle
from graphiti_support import ENGINEER, LEAD, write_graph
from playback_clocks_support import (
    SAYS,
    UNDATED,
    dashed,
    expected_status,
    legend_nodes,
    pick_clock,
    played_start,
    show_day,
    shown,
    status,
    turn_playback,
)
from test_mem0_browser import (
    MAIN,
    SHOTS,
    both_schemes,
    click_node,
    drawn,
    go,
    no_exception,
    sidebar,
)

from components.sections.connection_form import GRAPHITI_LOCATION, SPACE_LABELS
from memscope.demo.seeding import seed_if_missing
from memscope.lenses.asof import BELIEVED, TRUE
from memscope.settings import STORE_FILE
from memscope.sources.graphiti import FOREVER, GraphitiConfig, GraphitiSource
from memscope.store.store import Store

WHY = "Why does it believe this?"
MISC = ("Alice likes only cool jazz", "Alice finds bebop too much", "Alice lives in Porto again",
        "Alice drinks green tea")



pytestmark = pytest.mark.browser


def test_a_graphiti_kuzu_graph_opens_and_its_contradicted_fact_shows_two_versions(
        tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    seed_if_missing(data / STORE_FILE)
    graph = write_graph(tmp_path / "alice.kuzu")
    with GraphitiSource(GraphitiConfig("kuzu", str(graph))) as reader:  # for the lens
        ds = reader.load().dataset
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
        loaded = sidebar(page).inner_text()
        assert "Loaded 5 documents, 11 memories and 9 entities." in loaded  # no "0 relations"

        # the graph: episodes and facts, drawn once each
        go(page, "Explorer")
        wait_graph(page)
        no_exception(page)
        assert {"ep-intro", "ep-promotion", "ep-review", "fact-engineer", "fact-lead",
                "fact-release"} <= drawn(page)

        # the history plays the contradicted fact's chain on what the memory believed: it
        # learnt v1 on 1 March, v2 on 1 June
        main = page.locator(MAIN)
        turn_playback(page, True)
        main.get_by_text(SAYS[BELIEVED]).wait_for(timeout=30_000)
        start = played_start(ds, BELIEVED)
        mar15 = date(2026, 3, 15)
        show_day(page, start, mar15)
        believed_mar15 = status(page)
        assert believed_mar15 == expected_status(ds, start, mar15, BELIEVED)
        assert {"fact-engineer", "ep-intro"} <= shown(page)
        assert "fact-lead" not in shown(page)
        assert legend_nodes(page) == len(shown(page))  # the legend counts that day
        assert UNDATED not in main.inner_text()
        no_exception(page)
        both_schemes(page, "graphiti-playback-believed")
        # … and on what was true: v1 from 15 January, before the memory learnt it; the
        # fact that does not say when it became true is placed on its learnt day, in words
        pick_clock(page, TRUE)
        start = played_start(ds, TRUE)
        assert start == date(2026, 1, 1)
        assert UNDATED in main.inner_text()
        feb15 = date(2026, 2, 15)
        show_day(page, start, feb15)
        assert status(page) == expected_status(ds, start, feb15, TRUE)
        assert status(page).startswith("15 Feb 2026, what was true · ")
        assert {"fact-engineer", "ep-intro"} <= shown(page)
        assert not {"fact-lead", "fact-sister"} & shown(page)
        assert legend_nodes(page) == len(shown(page))  # that day on this clock
        assert shown(page) & set(ds.memories) == {"fact-engineer", "fact-porto"}
        # Porto drawn as no longer true (dashed); nothing else takes its look
        assert dashed(page, "fact-porto")
        assert not dashed(page, "fact-engineer") and not dashed(page, "ep-intro")
        no_exception(page)
        both_schemes(page, "graphiti-playback-true")
        show_day(page, start, mar15)  # the same day reads otherwise: Porto no longer true
        assert status(page) == expected_status(ds, start, mar15, TRUE) != believed_mar15
        assert "1 no longer true" in status(page) and "0 superseded" in believed_mar15
        show_day(page, start, date(2026, 6, 1))  # promoted: v2 true, v1 no longer
        assert {"fact-engineer", "fact-lead"} <= shown(page)
        pick_clock(page, BELIEVED)
        turn_playback(page, False)
        no_exception(page)

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
        both_schemes(page, "graphiti-versions")

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
        both_schemes(page, "graphiti-why")
        page.keyboard.press("Escape")
        dialog.wait_for(state="detached", timeout=30_000)
        wait_idle(page, 500)

        # the audit: what only two clocks show, grouped and said in words with dates
        go(page, "Audit")
        main.get_by_text("The two clocks of a fact (when it was true, when it was "
                         "believed)").wait_for(timeout=60_000)
        main.get_by_text("No longer true or believed, with nothing newer", exact=False
                         ).first.click()
        main.get_by_text("The memory stopped believing “Alice owns a bike” on 2 July 2026, "
                         "and no newer version of it is linked.").wait_for(timeout=30_000)
        assert "retired_alone" not in main.inner_text()  # words, not internals
        no_exception(page)
        both_schemes(page, "graphiti-audit-clocks")
        go(page, "Explorer")
        wait_graph(page)

        # forgets an episode: what it takes along, and that it is for good, first — the
        # facts' texts hidden in presenter mode, the warning not (the drawer closed first:
        # it lies over the graph's right edge, where the episode may be drawn)
        page.locator(".st-key-explorer_drawer").get_by_role("button", name="Close").click()
        wait_idle(page, 800)
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
        both_schemes(page, "graphiti-forget-episode")
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
        both_schemes(page, "graphiti-forgotten")
    with GraphitiSource(GraphitiConfig("kuzu", str(graph))) as again:  # the file changed
        ds = again.load().dataset
        assert "ep-misc" not in ds.documents and "fact-tea" not in ds.memories
        assert len(ds.memories) == 7
    assert_loopback_only(urls)
