"""``python serve.py`` (what ``make run`` starts), in a real Chromium: the server warms
itself before it listens, and the first person's page is drawn from that work instead of
doing it again."""

from __future__ import annotations

import time

import pytest
from browser_support import app_server, assert_loopback_only, chromium, open_app

from memscope.demo.seeding import seed_if_missing
from memscope.settings import STORE_FILE

pytestmark = pytest.mark.browser


def test_a_fresh_server_warms_itself_and_the_first_page_reuses_it(tmp_path) -> None:
    seed_if_missing(tmp_path / STORE_FILE)
    with app_server(tmp_path) as server, chromium() as browser:
        deadline = time.monotonic() + 60
        while "server warm in" not in server.log() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "server warm in" in server.log(), server.log()
        # the warm-up laid the store out (nothing was kept on disk: no `memscope warm`)
        assert server.log().count("derived data computed") == 1
        urls: list[str] = []
        page = open_app(browser, server.url, requests=urls)
        assert page.locator("[data-testid='stException']").count() == 0
        drawn = page.locator("[data-testid='memscope-graph']").evaluate(
            "el => el.__network.body.data.nodes.getIds().length")
        assert drawn > 100
        log = server.log()
        # the page neither loaded the store nor laid it out again
        assert log.count("loaded embedded") == 1 and "read back" not in log
        assert log.count("derived data computed") == 1
        # nor computed any step of its view: the warm-up made the very same request
        assert log.count("view computed") == 1, log
        assert "Could not warm" not in log and "Traceback" not in log
        assert "please restart streamlit" not in log  # the flags were read before warming
        assert_loopback_only(urls)
