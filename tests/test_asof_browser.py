"""Moving the as-of date on the home page changes the graph, in a real Chromium."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from browser_support import (
    GRAPH,
    assert_loopback_only,
    chromium,
    open_app,
    wait_idle,
)

from memscope.graph.analysis import analyse
from memscope.lenses.asof import as_of
from memscope.records.time import day_end
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource

pytestmark = pytest.mark.browser

STATE_OF = "(el, id) => { const n = el.__network.body.data.nodes.get(id); return n && n.state; }"


def test_moving_the_as_of_date_changes_the_graph(server, data_dir) -> None:
    ds = EmbeddedSource(data_dir / STORE_FILE).load().dataset
    now_an = analyse(ds)
    day = (datetime.now(UTC) - timedelta(days=12)).date()
    past = analyse(as_of(ds, day_end(day)), now=day_end(day))
    # a version that is superseded today but was the latest version on that day
    changed = next(m for m in past.dataset.memories
                   if past.state(m) == "latest" and now_an.state(m) == "superseded")
    newer = next(m for m in ds.memories if m not in past.dataset.memories)
    with chromium() as browser:
        urls: list[str] = []
        page = open_app(browser, server.url, height=1000, requests=urls)
        graph = page.locator(GRAPH)
        total = len(ds.documents) + len(ds.memories)
        assert graph.get_attribute("data-node-count") == str(total)
        assert graph.evaluate(STATE_OF, changed) == "superseded"

        field = page.get_by_role("group", name="As of")
        field.locator("[data-type='year']").click()
        page.keyboard.type(f"{day.year:04d}{day.month:02d}{day.day:02d}")
        page.get_by_text("Search memory and document text").click()  # commit on blur
        page.get_by_text("Time travel: showing the memory as it stood on "
                         f"{day.isoformat()}").wait_for(timeout=30_000)
        wait_idle(page)
        expected = len(past.dataset.documents) + len(past.dataset.memories)
        assert expected < total
        page.wait_for_selector(f"{GRAPH}[data-node-count='{expected}']", timeout=30_000)
        assert graph.evaluate(STATE_OF, changed) == "latest"
        assert graph.evaluate(STATE_OF, newer) is None  # created after that day
        assert_loopback_only(urls)
