"""Compare, in a real Chromium: save a snapshot of the embedded store on the Connection
page, change the live store, compare the snapshot with what is live now, and find each
difference in the table, in the CSV file and marked on the graph (light, dark, presenter)."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pytest
from browser_support import GRAPH, IDLE, assert_loopback_only, chromium, wait_graph, wait_idle
from playwright.sync_api import Page

from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
CHANGE_OF = "(el, id) => { const n = el.__network.body.data.nodes.get(id); return n && n.change; }"
NEW_TEXT = "Maya now drinks her coffee black, no sugar."
#: [scrollWidth, clientWidth] of the table's scroller (glide's grid) and of the page's
#: main area: a sideways scroll when the first is larger
FITS = """el => { const s = el.querySelector('.dvn-scroller');
  const main = document.querySelector("[data-testid='stMain']");
  return {grid: s ? [s.scrollWidth, s.clientWidth] : null,
          main: [main.scrollWidth, main.clientWidth]}; }"""


def _shoot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.wait_for_timeout(600)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def _change_the_store(path: Path) -> dict[str, str]:
    """Forget one memory, rewrite another's text, add a document: their ids by change."""
    ds = EmbeddedSource(path).load().dataset
    plain = sorted(m for m, r in ds.memories.items() if r.is_latest and not r.is_forgotten
                   and r.parent_id is None and not r.relations)
    forgotten, rewritten = plain[0], plain[1]
    store = Store.create(path)
    store.forget_memory(forgotten, reason="compare journey")
    added = store.add_document("Maya booked a pottery class for Saturday.", "sm_personal",
                               title="Pottery")
    with sqlite3.connect(path) as conn:  # an in-place edit, as a service may make one
        conn.execute("UPDATE memories SET memory = ? WHERE id = ?", (NEW_TEXT, rewritten))
        conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 "
                     "WHERE key = 'data_version'")
    return {"forgotten": forgotten, "text": rewritten,
            "memory": added["memoryEntries"][0]["id"], "document": added["id"]}


def _csv_rows(page: Page) -> list[list[str]]:
    with page.expect_download() as info:
        page.get_by_role("button", name="Download the differences (CSV)").click()
    data = Path(info.value.path()).read_text(encoding="utf-8")
    return list(csv.reader(io.StringIO(data)))


def test_a_snapshot_against_the_changed_live_store(server, data_dir: Path,
                                                   tmp_path: Path) -> None:
    with chromium() as browser:
        urls: list[str] = []
        page = browser.new_page(viewport={"width": 1400, "height": 1900},
                                accept_downloads=True)
        page.on("request", lambda r: urls.append(r.url))
        page.goto(f"{server.url}/connection")
        wait_idle(page)
        with page.expect_download() as info:
            page.get_by_role("button", name="Save snapshot").click()
        snapshot = tmp_path / "before.json"
        info.value.save_as(snapshot)

        ids = _change_the_store(data_dir / STORE_FILE)

        page.goto(f"{server.url}/compare")
        wait_idle(page)
        page.locator("[data-testid='stMain'] [data-testid='stRadio']").first.get_by_text(
            "A snapshot file").click()
        wait_idle(page)
        page.locator("[data-testid='stFileUploaderDropzoneInput']").set_input_files(snapshot)
        page.get_by_text("differs from Side A").wait_for(timeout=60_000)
        wait_idle(page)
        wait_graph(page)
        warning = page.get_by_text("differs from Side A").inner_text()
        assert "live now" in warning and "before.json" in warning
        assert "2 added" in warning and "2 changed (1 text, 1 forgotten)" in warning

        rows = _csv_rows(page)
        assert rows[0] == ["change", "record", "id", "field", "A: the snapshot before.json",
                           "B: live now"]
        found = {(r[0], r[1], r[2], r[3]): (r[4], r[5]) for r in rows[1:]}
        assert found[("changed", "memory", ids["forgotten"], "forgotten")] == ("false", "true")
        assert found[("changed", "memory", ids["text"], "text")][1] == NEW_TEXT
        assert found[("added", "memory", ids["memory"], "")][1] == \
            "Maya booked a pottery class for Saturday."
        assert ("added", "document", ids["document"], "") in found
        assert len(found) == 4

        grid = page.locator("[data-testid='stDataFrame']")
        grid.scroll_into_view_if_needed()
        assert grid.is_visible()
        # at 1400×900 the table's columns, side B's among them, fit without a sideways
        # scroll (the grid's own scroller and the page's)
        page.set_viewport_size({"width": 1400, "height": 900})
        wait_idle(page)
        page.wait_for_timeout(800)  # the grid lays its columns out for the new width
        grid.scroll_into_view_if_needed()
        fits = grid.evaluate(FITS)
        assert fits["grid"] is not None and fits["grid"][0] <= fits["grid"][1], fits
        assert fits["main"][0] <= fits["main"][1], fits
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
            page.wait_for_timeout(600)
            grid.screenshot(path=str(SHOTS / f"compare-table-1400-{scheme}.png"))
        page.emulate_media(color_scheme="light")
        page.set_viewport_size({"width": 1400, "height": 1900})
        wait_idle(page)
        graph = page.locator(GRAPH)
        assert graph.evaluate(CHANGE_OF, ids["forgotten"]) == "changed"
        assert graph.evaluate(CHANGE_OF, ids["text"]) == "changed"
        assert graph.evaluate(CHANGE_OF, ids["memory"]) == "added"
        assert graph.evaluate(CHANGE_OF, ids["document"]) == "added"
        unchanged = next(n for n in EmbeddedSource(data_dir / STORE_FILE).load().dataset.memories
                         if n not in ids.values())
        assert graph.evaluate(CHANGE_OF, unchanged) is None

        page.emulate_media(color_scheme="light")
        _shoot(page, "compare-light")
        page.emulate_media(color_scheme="dark")
        _shoot(page, "compare-dark")
        page.emulate_media(color_scheme="light")

        page.locator("[data-testid='stSidebar']").get_by_text("Presenter mode").click()
        page.wait_for_selector(IDLE, timeout=60_000)
        page.get_by_text("differs from Side A (the snapshot file)").wait_for(timeout=60_000)
        wait_idle(page)
        body = page.locator("body").inner_text()
        for text in (NEW_TEXT, "pottery class", "before.json"):
            assert text not in body
        masked = _csv_rows(page)
        assert NEW_TEXT not in repr(masked) and "pottery" not in repr(masked)
        assert graph.evaluate(CHANGE_OF, ids["memory"]) == "added"
        _shoot(page, "compare-presenter")
        assert_loopback_only(urls)
