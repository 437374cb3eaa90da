"""The legend follows the day the history playback shows (issue 32 item 5), in a real
Chromium on the demo store.

"Play the history" on, played to an early day and paused: every legend line's number is
what that day had — per colour group, shape and relation kind the nodes and edges drawn
on the page that day (read from the page), per state the memories in that state then (the
as-of lens's, computed here) — lines with none that day are dimmed at 0, and the panel
says which day its counts are of and what they count (nodes and relations drawn, while
the status line under the graph counts memories: each says its unit in words), and a
click on a line leaves that many nodes unfaded; a day picked on the slider the same; at
"Today" the legend is today's again. Screenshots of the legend during playback, light
and dark, go to ``test-screenshots/``.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from browser_support import GRAPH, chromium, open_app, wait_idle
from playwright.sync_api import Page
from test_legend_minimap_browser import switch_scheme
from test_playback_browser import BAR, STATUS, _expected, _play_until, _turn_on

from memscope.graph.analysis import analyse
from memscope.lenses.asof import as_of
from memscope.records.dataset import Dataset
from memscope.records.time import day_end
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource
from memscope.view.timeline import day_label

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "test-screenshots"
LEGEND = "[data-testid='memscope-legend']"
#: the legend's lines as drawn: id, number, dimmed (the closed sections' lines too)
LINES = """el => [...el.querySelectorAll('.ms-legend-line')].map(b => ({id: b.dataset.line,
  count: Number(b.querySelector('.ms-legend-count').textContent.replace(/,/g, '')),
  none: b.classList.contains('ms-legend-none')}))"""
#: what vis-network draws now (shown nodes, edges with both ends shown) and their fields
DRAWN = """el => { const net = el.__network; const nodes = net.body.data.nodes;
  const edges = net.body.data.edges;
  return {
    nodes: net.body.nodeIndices.map(id => { const n = nodes.get(id);
      return {id: String(id), kind: n.kind, group: n.color_group || '', state: n.state,
              static: Boolean(n.static), inferred: Boolean(n.inferred)}; }),
    edges: net.body.edgeIndices.map(id => edges.get(id).kind),
    listed: (el.__legend.colors || []).map(c => String(c.key)),
    bright: net.body.nodeIndices.filter(id => !net.body.nodes[id].__msFade).length,
  }; }"""


def _lines(page: Page) -> dict[str, dict[str, Any]]:
    return {line["id"]: line for line in page.locator(LEGEND).evaluate(LINES)}


def _drawn_counts(page: Page, states: dict[str, str | None] | None) -> Counter[str]:
    """Per legend line id, the items drawn on the page now; a memory's state from
    ``states`` (the as-of lens's on the day shown) or, without it, as drawn (today)."""
    d = page.locator(GRAPH).evaluate(DRAWN)
    listed = set(d["listed"])
    out: Counter[str] = Counter()
    for n in d["nodes"]:
        out["group:" + (n["group"] if n["group"] in listed else "\x00other")] += 1
        out[f"shape:{n['kind']}"] += 1
        state = n["state"] if states is None else states.get(n["id"], n["state"])
        if state:
            out[f"state:{state}"] += 1
        out["state:static"] += n["static"]
        out["state:inferred"] += n["inferred"]
    for kind in d["edges"]:
        out[f"edge:{kind}"] += 1
    return +out


def _states_on(ds: Dataset, start: date, d: int) -> dict[str, str | None]:
    """Each memory's state at the end of day ``d`` (the as-of lens)."""
    day = day_end(start + timedelta(days=d))
    past = analyse(as_of(ds, day), now=day)
    return {m: past.state(m) for m in past.dataset.memories}


def _assert_legend_on(page: Page, ds: Dataset, start: date, d: int, where: str) -> None:
    bar = page.locator(BAR)
    assert bar.get_attribute("data-day") == str(d), where
    line, _ids = _expected(ds, start, d)
    assert page.locator(STATUS).inner_text() == line, where
    want = _drawn_counts(page, _states_on(ds, start, d))
    got = _lines(page)
    assert page.locator(LEGEND).get_attribute("data-day") == day_label(start, d), where
    # each count says what it counts: the legend nodes and relations drawn, the status
    # line memories
    assert page.locator(f"{LEGEND} .ms-legend-day").inner_text() == (
        f"Nodes and relations drawn on {day_label(start, d)}"), where
    assert " memories \u00b7 " in line or " memory \u00b7 " in line, where
    titles = page.locator(f"{LEGEND} .ms-legend-line").evaluate_all(
        "els => els.map(b => [b.dataset.section, b.title])")
    for section, title in titles:
        unit = r"relations?" if section == "edge" else r"nodes?"
        assert re.search(rf": [\d,]+ {unit} on {re.escape(day_label(start, d))}\. ", title), (
            where, title)
    # every line's number is the day's, lines with none that day are dimmed at 0, and
    # every kind of thing drawn that day has its line
    assert {i: g["count"] for i, g in got.items()} == {i: want.get(i, 0) for i in got}, where
    assert {i for i, g in got.items() if g["none"]} == {i for i, g in got.items()
                                                         if g["count"] == 0}, where
    assert set(want) <= set(got), (where, set(want) - set(got))
    groups = sum(g["count"] for i, g in got.items() if i.startswith("group:"))
    assert groups == len(page.locator(GRAPH).evaluate(DRAWN)["nodes"]), where


def _top(page: Page) -> None:
    """The legend's list scrolled back to its first line (opening a section scrolls it)."""
    page.locator(f"{LEGEND} .ms-legend-body").evaluate(
        "el => { el.scrollTop = 0; const f = el.getRootNode().activeElement; "
        "if (f) f.blur(); }")  # no focus ring left by the last click
    page.mouse.move(5, 5)  # nor a hover
    page.wait_for_timeout(300)


def _slide_to(page: Page, pos: int) -> None:
    """The slider moved to step ``pos`` (as a drag or the arrow keys leave it)."""
    page.locator(BAR).locator("[data-action='playback-slider']").fill(str(pos))
    page.wait_for_timeout(200)


def test_the_legend_counts_the_day_shown(server, data_dir) -> None:
    ds = EmbeddedSource(data_dir / STORE_FILE).load().dataset
    today = analyse(ds)
    assert today.date_range is not None
    start = today.date_range[0]
    SHOTS.mkdir(exist_ok=True)
    with chromium() as browser:
        page = open_app(browser, server.url, width=1400, height=900)
        today_lines = _lines(page)
        # the demo is drawn in full: today's legend counts what is drawn
        assert {i: g["count"] for i, g in today_lines.items()} == {
            i: n for i, n in _drawn_counts(page, None).items() if i in today_lines}
        _turn_on(page)
        bar = page.locator(BAR)
        assert bar.get_attribute("data-day") == "today"
        assert _lines(page) == today_lines
        assert page.locator(f"{LEGEND} .ms-legend-day").is_hidden()
        states = page.locator(f"{LEGEND} button[data-action='legend-section-state']")
        if states.get_attribute("aria-expanded") == "false":
            states.click()  # the states' counts shown too (for the screenshots)

        # played to an early day, paused
        bar.locator("[data-action='playback-speed']").select_option("4")
        early = _play_until(page, 12)
        _assert_legend_on(page, ds, start, early, "played to an early day")
        got = _lines(page)
        assert any(g["none"] for g in got.values()), "some line has none on an early day"
        assert sum(g["count"] for i, g in got.items() if i.startswith("group:")) < sum(
            g["count"] for i, g in today_lines.items() if i.startswith("group:"))
        # a line's number is what a click on it leaves unfaded that day (nothing hidden)
        pick = next(i for i, g in got.items() if i.startswith("group:") and g["count"] > 0)
        shown = len(page.locator(GRAPH).evaluate(DRAWN)["nodes"])
        page.locator(f"{LEGEND} button[data-line='{pick}']").click()
        assert page.locator(GRAPH).get_attribute("data-legend-pick") == pick
        drawn = page.locator(GRAPH).evaluate(DRAWN)
        assert drawn["bright"] == got[pick]["count"] and len(drawn["nodes"]) == shown
        assert _lines(page) == got  # the pick keeps the day's counts
        page.locator(f"{LEGEND} button[data-action='legend-all']").click()
        assert page.locator(GRAPH).get_attribute("data-legend-pick") == ""
        _assert_legend_on(page, ds, start, early, "after a pick and Clear")
        _top(page)
        page.screenshot(path=str(SHOTS / "playback-legend-light.png"))
        page.locator(LEGEND).screenshot(path=str(SHOTS / "playback-legend-panel-light.png"))

        # a step forward and a day picked on the slider: the same
        bar.locator("[data-action='playback-forward']").click()
        _assert_legend_on(page, ds, start, early + 1, "a step forward")
        last = int(bar.locator("[data-action='playback-slider']").get_attribute("max") or 0)
        _slide_to(page, last // 2)
        _assert_legend_on(page, ds, start, last // 2, "the slider's middle")

        switch_scheme(page, "dark")
        assert bar.get_attribute("data-day") == str(last // 2)
        _assert_legend_on(page, ds, start, last // 2, "dark")
        _top(page)
        page.screenshot(path=str(SHOTS / "playback-legend-dark.png"))
        page.locator(LEGEND).screenshot(path=str(SHOTS / "playback-legend-panel-dark.png"))
        switch_scheme(page, "light")

        # Today: today's legend again
        _slide_to(page, last)
        assert bar.get_attribute("data-day") == "today"
        assert _lines(page) == today_lines
        assert page.locator(f"{LEGEND} .ms-legend-day").is_hidden()
        assert page.locator(LEGEND).get_attribute("data-day") == ""

        # played through to the end by itself: today's again
        _slide_to(page, 3)
        assert bar.get_attribute("data-day") == "3"
        bar.locator("[data-action='playback-unit']").select_option("week")
        bar.locator("[data-action='playback-play']").click()
        page.locator(f"{BAR}[data-day='today'][data-playing='false']").wait_for(
            timeout=60_000)
        wait_idle(page, 100)
        assert _lines(page) == today_lines
        page.close()
