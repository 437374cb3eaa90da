"""vis-network once per browser behind ``python serve.py`` (what ``make run`` starts): the
server tells browsers to keep the graph's versioned files (``caching.py``), and in a real
Chromium profile the second session neither downloads nor compiles the library again — it
runs from V8's code cache, which the first session primed (``loader.js``)."""

from __future__ import annotations

import hashlib
import json
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    app_server,
    assert_loopback_only,
    chromium,
    wait_graph,
    wait_idle,
)
from playwright.sync_api import BrowserContext, Page
from streamlit_server import StreamlitServer

from components.graph_view.caching import IMMUTABLE
from components.graph_view.frontend import ASSET_COMPONENT, ASSETS
from memscope.demo.seeding import seed_if_missing
from memscope.settings import STORE_FILE

LIBRARY = "vis-network.min.js"
FOLDER = f"/_stcore/bidi-components/{ASSET_COMPONENT}/"
#: the library's resource entries in the page: [initiator, bytes over the network]
LIBRARY_JS = """() => performance.getEntriesByType("resource")
  .filter((r) => r.name.includes("/vis-network.min.js"))
  .map((r) => [r.initiatorType, r.transferSize])"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[StreamlitServer]:
    data = tmp_path_factory.mktemp("store")
    seed_if_missing(data / STORE_FILE)
    with app_server(data) as srv:
        yield srv


def version(name: str) -> str:
    """The hash the loader puts in ``name``'s URL (``files.py``)."""
    return hashlib.sha256((ASSETS / name).read_bytes()).hexdigest()[:16]


def cache_control(url: str) -> tuple[int, str]:
    """The status and ``Cache-Control`` of a GET of ``url``."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers.get("Cache-Control", "")
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Cache-Control", "")


@pytest.mark.browser
def test_only_the_versioned_files_are_kept_a_year(server: StreamlitServer) -> None:
    base = server.url + FOLDER
    kept = IMMUTABLE.decode()
    assert cache_control(f"{base}{LIBRARY}?v={version(LIBRARY)}") == (200, kept)
    assert cache_control(f"{base}graph_view.js?v={version('graph_view.js')}") == (200, kept)
    # without a content hash, Streamlit's own answer: the file may have changed
    assert cache_control(f"{base}{LIBRARY}") == (200, "public")
    assert cache_control(f"{base}{LIBRARY}?v=latest") == (200, "public")
    # a file that is not there is not kept either
    assert cache_control(f"{base}missing.js?v={version(LIBRARY)}")[0] == 404
    assert cache_control(f"{base}missing.js?v={version(LIBRARY)}")[1] != kept


def traced_load(context: BrowserContext, url: str, urls: list[str]) -> tuple[Page, list[Any]]:
    """A new tab on ``url`` until its graph is drawn, with V8's compile events of the
    library meanwhile (Chrome's trace, over CDP)."""
    page = context.new_page()
    page.on("request", lambda r: urls.append(r.url))
    cdp = context.new_cdp_session(page)
    events: list[Any] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda e: events.extend(e["value"]))
    cdp.on("Tracing.tracingComplete", lambda _: done.append(True))
    cdp.send("Tracing.start", {"traceConfig": {"includedCategories": ["v8",
             "devtools.timeline"]}, "transferMode": "ReportEvents"})
    page.goto(url)
    wait_idle(page)
    wait_graph(page)
    cdp.send("Tracing.end")
    deadline = time.monotonic() + 30
    while not done and time.monotonic() < deadline:
        page.wait_for_timeout(100)
    compiles = [e["args"]["data"] for e in events if e.get("name") == "v8.compile"
                and LIBRARY in json.dumps(e.get("args", {}))]
    return page, compiles


@pytest.mark.browser
def test_a_second_session_neither_downloads_nor_compiles_the_library(
        server: StreamlitServer) -> None:
    urls: list[str] = []
    with chromium() as shared, tempfile.TemporaryDirectory() as profile:
        # a real profile (on disk), as a person's browser has: Chromium keeps no code
        # cache in an incognito context, which is what browser.new_context() makes
        context = shared.browser_type.launch_persistent_context(
            Path(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS,
            viewport={"width": 1400, "height": 900})
        try:
            first, cold = traced_load(context, server.url, urls)
            assert first.evaluate(LIBRARY_JS)[0][0] == "script"  # run from its URL
            assert first.evaluate(LIBRARY_JS)[0][1] > 0  # downloaded
            assert cold and not any(c.get("consumedCacheSize") for c in cold)  # compiled
            # the first session runs the library once more when idle, then marks it
            first.wait_for_function(
                "v => localStorage.getItem('memscope-graph-code-cache') === v",
                arg=version(LIBRARY), timeout=30_000)
            first.close()

            second, warm = traced_load(context, server.url, urls)
            assert second.evaluate(LIBRARY_JS) == [["script", 0]]  # from the HTTP cache
            assert warm and all(c.get("consumedCacheSize", 0) > 100_000 for c in warm), warm
            assert not any(c.get("cacheRejected") for c in warm)
            assert second.locator("[data-testid='stException']").count() == 0
        finally:
            context.close()
    assert_loopback_only(urls)
