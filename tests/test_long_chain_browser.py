"""A 20,000-version chain in a real Chromium (issue 20): the bare chain's file is opened on
the Connection page and compared on the Compare page, whose first comparison (live as of
a past day against live now) differs in 19,999 records. The table lists the first
TABLE_ROWS and says the CSV has every one; the download holds them all. Screenshots
(light, dark) go to ``test-screenshots/``."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from browser_support import assert_loopback_only, chromium, wait_idle
from test_long_chain import LONG, bare_chain

from components.widgets.tables import TABLE_ROWS

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
EXCEPTION = "[data-testid='stException']"


def test_a_long_difference_lists_its_first_rows_and_the_csv_holds_all(server, tmp_path):
    path = tmp_path / "bare-chain.json"
    path.write_text(json.dumps(bare_chain(LONG)), encoding="utf-8")
    requests: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        page.on("request", lambda r: requests.append(r.url))
        page.goto(f"{server.url}/connection")
        wait_idle(page)
        page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(
            str(path))
        page.get_by_role("button", name="Open these files").click()
        wait_idle(page, 500)
        page.locator("[data-testid='stSidebarNavLink']").filter(has_text="Compare").click()
        caption = page.get_by_text(f"The first {TABLE_ROWS:,} of ", exact=False)
        caption.wait_for(timeout=60_000)
        wait_idle(page, 800)
        assert page.locator(EXCEPTION).count() == 0
        said = caption.inner_text()
        assert said.endswith("are listed; the CSV has every one.")
        total = int(said.split(" of ")[1].split(" ")[0].replace(",", ""))
        assert total > TABLE_ROWS
        grid = page.locator("[data-testid='stDataFrame']").first
        grid.locator("[role='gridcell']").first.wait_for(state="attached", timeout=20_000)
        rows = grid.locator("[role='row']").count() - 1  # less the header row
        assert 0 < rows <= TABLE_ROWS  # glide lists what it draws, at most the cut
        with page.expect_download() as download:
            page.get_by_role("button", name="Download the differences (CSV)").click()
        body = Path(download.value.path()).read_text(encoding="utf-8-sig")
        assert len(list(csv.reader(io.StringIO(body)))) - 1 == total
        SHOTS.mkdir(exist_ok=True)
        caption.scroll_into_view_if_needed()
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.wait_for_timeout(700)
            page.screenshot(path=str(SHOTS / f"compare-long-difference-{scheme}.png"))
        page.close()
    assert_loopback_only(requests)
