"""The graph's files loaded by the page itself (components/graph_view/preload.py) in a
real Chromium on ``python serve.py``: they are on their way before the element's loader
runs, the element takes that load instead of fetching them again, and when the page's
early load lost a file the element loads again, the graph drawn all the same."""

from __future__ import annotations

import urllib.request

import pytest
from browser_support import GRAPH, app_server, chromium

from memscope.demo.seeding import seed_if_missing
from memscope.settings import STORE_FILE

pytestmark = pytest.mark.browser

#: the graph's files as the page fetched them: name → start times (page clock), and when
#: the element's loader was called
FETCHES = """(el) => {
  const out = {};
  for (const e of performance.getEntriesByType("resource")) {
    const m = e.name.match(/bidi-components\\/[^/]+\\/([\\w.-]+)\\?v=/);
    if (m) (out[m[1]] = out[m[1]] || []).push(e.startTime);
  }
  const loads = Object.keys(window.__memscopeGraphLoads || {});
  return { fetches: out, called: el.__stats.calledAt, loads,
           started: el.__stats.loadStartAt,
           versions: loads.length ? JSON.parse(loads[0])[1] : null };
}"""


def _html(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return resp.read().decode("utf-8")


def test_the_page_asks_for_the_graphs_files_before_the_app_runs(tmp_path) -> None:
    seed_if_missing(tmp_path / STORE_FILE)
    with app_server(tmp_path) as server, chromium() as browser:
        for path in ("/", "/audit", "/?presenter=1"):
            assert _html(server.url + path).count('id="ms-graph-files"') == 1, path
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        page.goto(server.url + "/")
        page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=60_000)
        seen = page.locator(GRAPH).evaluate(FETCHES)
        assert len(seen["loads"]) == 1 and seen["versions"], seen  # one load, the page's
        assert seen["started"] < seen["called"], seen  # started before the element ran
        names = set(seen["versions"])
        assert set(seen["fetches"]) == names, seen  # every file, the library included
        for name, starts in seen["fetches"].items():
            assert len(starts) == 1, (name, starts)  # the loader fetched none again
            assert starts[0] < seen["called"], (name, seen)  # asked for before it ran


def test_a_file_the_page_lost_is_fetched_again_by_the_loader(tmp_path) -> None:
    seed_if_missing(tmp_path / STORE_FILE)
    with app_server(tmp_path) as server, chromium() as browser:
        page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
        failed: list[str] = []

        def first_fails(route) -> None:
            if not failed:
                failed.append(route.request.url)
                route.abort()
            else:
                route.continue_()

        page.route("**/bidi-components/*/legend.js?v=*", first_fails)
        page.goto(server.url + "/")
        page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=60_000)
        assert failed, "the page's early fetch never asked for legend.js"
        seen = page.locator(GRAPH).evaluate(FETCHES)
        assert len(seen["fetches"]["legend.js"]) == 2, seen  # lost once, fetched again
        assert len(seen["loads"]) == 1  # the failed load gave way to the element's
        assert page.locator(GRAPH).locator("[data-memscope-graph-error]").count() == 0
