"""As of on both clocks in a real Chromium (issue 34, item 4): a Graphiti graph in a Kuzu
file (written with graphiti-core's classes) opened on 15 February 2026, before the memory
had learnt anything; switching to "What was true then" draws the facts that were already
true, the contradicted one among them. Screenshots (light, dark) go to
``test-screenshots/``."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import GRAPH, assert_loopback_only, chromium, open_app, wait_idle
from graphiti_support import write_graph
from streamlit_server import free_port, start_streamlit
from test_mem0_browser import SHOTS, both_schemes, no_exception, sidebar

from memscope.demo.seeding import seed_if_missing
from memscope.settings import STORE_FILE

pytestmark = pytest.mark.browser

STATE_OF = "(el, id) => { const n = el.__network.body.data.nodes.get(id); return n && n.state; }"
#: true once the graph draws exactly these episodes and facts (entities aside: they are
#: the graph's nouns, there from when they were created)
RECORDS_ARE = """([sel, want]) => {
  const el = document.querySelector(sel) || [...document.querySelectorAll('*')]
    .map(e => e.shadowRoot).filter(Boolean).map(r => r.querySelector(sel)).find(Boolean);
  if (!el || !el.__network) return false;
  const got = el.__network.body.data.nodes.get().filter(n => n.kind !== 'entity')
    .map(n => String(n.id)).sort();
  return JSON.stringify(got) === JSON.stringify(want);
}"""
UNDATED = ("1 fact does not say when it became true; it is counted as true from the day "
           "the memory learnt it.")


def test_as_of_switches_between_what_was_believed_and_what_was_true(tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    data = tmp_path / "data"
    seed_if_missing(data / STORE_FILE)
    graph = write_graph(tmp_path / "alice.kuzu")
    server = start_streamlit("serve.py", free_port(), env={
        "MEMSCOPE_DATA_DIR": str(data), "MEMSCOPE_SOURCE": "graphiti",
        "MEMSCOPE_BASE_URL": str(graph)}, timeout=60)
    urls: list[str] = []
    try:
        with chromium() as browser:
            page = open_app(browser, f"{server.url}/?asof=2026-02-15", height=1000,
                            requests=urls)
            main = page.locator("[data-testid='stMainBlockContainer']")
            main.get_by_text("Time travel: showing the memory as it stood on "
                             "2026-02-15").wait_for(timeout=30_000)
            no_exception(page)
            # the memory had learnt nothing yet: its first episode is of 1 March
            page.wait_for_function(RECORDS_ARE, arg=[GRAPH, []], timeout=30_000)

            clock = sidebar(page).get_by_role("radiogroup", name="Time travel shows")
            assert [t for t in clock.inner_text().split("\n") if t] == [
                "What the memory believed then", "What was true then"]
            clock.get_by_text("What was true then", exact=True).click()
            main.get_by_text("Time travel: showing what was true on 2026-02-15").wait_for(
                timeout=30_000)
            wait_idle(page, 800)
            assert UNDATED in main.inner_text()
            # Alice's intro episode, the engineer fact and the Porto fact
            page.wait_for_function(
                RECORDS_ARE, arg=[GRAPH, ["ep-intro", "fact-engineer", "fact-porto"]],
                timeout=30_000)
            graph_el = page.locator(GRAPH)
            # the contradicted fact was true then (v1, before the promotion), Porto no more
            assert graph_el.evaluate(STATE_OF, "fact-engineer") in ("latest", "recent")
            assert graph_el.evaluate(STATE_OF, "fact-porto") == "superseded"
            no_exception(page)
            both_schemes(page, "asof-clocks-true")
            # the URL carries the clock, so a reload (or the link shared) keeps it
            assert "clock=true" in page.url and "asof=2026-02-15" in page.url
            page.reload()
            main.get_by_text("Time travel: showing what was true on 2026-02-15").wait_for(
                timeout=30_000)
            clock = sidebar(page).get_by_role("radiogroup", name="Time travel shows")
            assert clock.get_by_role("radio", name="What was true then").is_checked()

            # back to what the memory believed: the fact is gone again
            clock.get_by_text("What the memory believed then", exact=True).click()
            main.get_by_text("Time travel: showing the memory as it stood on "
                             "2026-02-15").wait_for(timeout=30_000)
            wait_idle(page, 800)
            page.wait_for_function(RECORDS_ARE, arg=[GRAPH, []], timeout=30_000)
            assert UNDATED not in main.inner_text()
            assert "clock=" not in page.url  # the memory's own clock goes unsaid
            no_exception(page)
            assert_loopback_only(urls)
    finally:
        server.stop()
