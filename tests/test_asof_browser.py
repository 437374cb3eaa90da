"""Moving the as-of date changes the graph in a real Chromium.

The home page has no as-of control yet, so this drives a small app of its own
(:data:`ASOF_APP`, written to a temporary file): the fixtures through
``memscope.asof.as_of`` and ``graph_view``, with a ``st.date_input``. When the home page
gets its as-of control, point this test at ``app.py`` instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS, GRAPH, assert_loopback_only, wait_idle
from playwright.sync_api import sync_playwright
from streamlit_server import StreamlitServer, free_port, start_streamlit

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}"),
]

ASOF_APP = '''
from datetime import date
from pathlib import Path

import streamlit as st

from components.graph_view import graph_view
from memscope.analysis import analyse
from memscope.asof import as_of, day_end
from memscope.dataset import read_files
from memscope.layout import layout_positions
from memscope.view import build_view

FIXTURES = Path(__file__).resolve().parent / "supermemory"


@st.cache_resource
def load():
    files = [FIXTURES / f"documents_page{i}.json" for i in (1, 2, 3)]
    ds = read_files(files)
    return ds, layout_positions(analyse(ds).graph.graph, seed=7)


ds, positions = load()
day = st.date_input("As of", value=date(2026, 11, 30), min_value=date(2026, 11, 1),
                    max_value=date(2026, 11, 30), key="as_of")
when = day_end(day)
analysis = analyse(as_of(ds, when), now=when)
st.caption(f"{len(analysis.dataset.memories)} memories as of {day.isoformat()}")
graph_view(build_view(analysis, positions=positions), key="graph", height=500)
'''

STATE_OF = "(el, id) => { const n = el.__network.body.data.nodes.get(id); return n && n.state; }"


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[StreamlitServer]:
    from conftest import FIXTURES

    folder = tmp_path_factory.mktemp("asof_app")
    script = folder / "asof_app.py"
    script.write_text(ASOF_APP, encoding="utf-8")
    (folder / "supermemory").symlink_to(FIXTURES / "supermemory")
    srv = start_streamlit(script, free_port())
    yield srv
    srv.stop()


def test_moving_the_as_of_date_changes_the_graph(server: StreamlitServer) -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            urls: list[str] = []
            page.on("request", lambda r: urls.append(r.url))
            page.goto(server.url)
            page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=60_000)
            graph = page.locator(GRAPH)
            # 2026-11-30: all 12 documents and 19 memories
            assert graph.get_attribute("data-node-count") == "31"
            assert graph.evaluate(STATE_OF, "mem_fe_v2") == "superseded"
            assert graph.evaluate(STATE_OF, "mem_fe_v3") == "latest"

            # the date field commits its value when it loses focus
            page.locator("[data-testid='stDateInput'] [data-type='day']").click()
            page.keyboard.type("12")
            page.get_by_text("19 memories as of 2026-11-30").click()
            page.get_by_text("9 memories as of 2026-11-12").wait_for(timeout=30_000)
            wait_idle(page)
            page.wait_for_selector(f"{GRAPH}[data-node-count='17']", timeout=30_000)
            # 8 documents and 9 memories existed; fe_v3 did not, so fe_v2 was latest
            assert graph.evaluate(STATE_OF, "mem_fe_v3") is None
            assert graph.evaluate(STATE_OF, "mem_fe_v2") == "latest"
            assert graph.evaluate(STATE_OF, "mem_run") == "latest"  # not yet expired
            assert_loopback_only(urls)
        finally:
            browser.close()
