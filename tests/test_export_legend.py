"""The offline HTML export carries the graph's own legend panel (``legend.js`` inlined):
the same lines with whole counts, a click fades everything but that line to a quarter of
its opacity (nothing hidden), and the page still loads nothing — no CDN, no request but
the file itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import CHROMIUM, chromium
from conftest import NOW
from test_legend_fade_browser import DRAWN as DRAWN_IN

from components.sections import legend as legend_rule
from memscope.demo.generator import generate
from memscope.export.html import legend_js, offline_html
from memscope.graph.analysis import analyse
from memscope.records.dataset import from_feed_pages
from memscope.view.build import ViewData, build_view
from memscope.view.layout import layout_positions
from memscope.view.paint import FADE

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
LEGEND = "#legend"
#: per drawn node and edge, the opacity vis-network draws it with and its own (as
#: test_legend_fade_browser.py reads), and how many nodes are drawn
DRAWN = DRAWN_IN.replace("el => {", "() => { const el = document.getElementById('graph');", 1)


@pytest.fixture(scope="module")
def view() -> ViewData:
    an = analyse(from_feed_pages(generate(7, now=NOW).to_feed_pages()), NOW)
    return build_view(an, positions=layout_positions(an.graph.graph))


def test_the_page_inlines_the_components_legend_module(view: ViewData) -> None:
    page = offline_html(view, "Demo")
    assert legend_js() in page  # the very file the app's graph imports, inlined
    assert "http://" not in page and "https://" not in page
    assert 'id="legend"' not in page  # the panel is built by the script, from the data


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}")
def test_the_exported_legend_filters_offline(view: ViewData, tmp_path: Path) -> None:
    path = tmp_path / "graph.html"
    path.write_text(offline_html(view, "Demo"), encoding="utf-8")
    entries = legend_rule.entries(view)
    group = entries[0]
    picked = legend_rule.only(view, group)
    want = {n["id"] for n in picked["nodes"]}
    want_edges = {e["id"] for e in picked["edges"]}
    with chromium() as browser:
        tab = browser.new_page(viewport={"width": 1400, "height": 900})
        requests: list[str] = []
        problems: list[str] = []
        tab.on("request", lambda r: requests.append(r.url))
        tab.on("pageerror", lambda e: problems.append(str(e)))
        tab.goto(path.as_uri())
        tab.wait_for_selector("#graph[data-drawn='true']", timeout=30_000)
        panel = tab.locator(LEGEND)
        # the lines the app shows, in its order, with the same counts
        first = tab.locator(f"{LEGEND} .ms-legend-lines").first
        names = first.locator(".ms-legend-name").all_inner_texts()
        counts = first.locator(".ms-legend-count").all_inner_texts()
        groups = [e for e in entries if e.section == "group"]
        assert names == [e.label for e in groups]
        assert [int(c.replace(",", "")) for c in counts] == [e.count for e in groups]
        clipped = panel.locator(".ms-legend-count").evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth).length")
        assert clipped == 0
        tab.screenshot(path=str(SHOTS / "export-legend.png"))
        line = tab.locator(f"{LEGEND} button[data-line='{group.line_id}']")
        line.click()
        tab.wait_for_timeout(600)  # the fit's animation
        d = tab.evaluate(DRAWN)
        assert d["shown"] == len(view["nodes"])  # nothing hidden
        assert {i for i, n in d["nodes"].items() if n["drawn"] == n["own"]} == want
        rest = [n for i, n in d["nodes"].items() if i not in want]
        assert rest and all(n["drawn"] <= FADE * n["own"] + 1e-9 for n in rest)
        assert max(n["drawn"] for n in rest) <= 0.25
        assert all(e["drawn"] <= FADE * e["own"] + 1e-9 for i, e in d["edges"].items()
                   if i not in want_edges)
        assert all(e["drawn"] == e["own"] for i, e in d["edges"].items() if i in want_edges)
        assert tab.get_by_text("the rest is faded", exact=False).count() == 1
        tab.screenshot(path=str(SHOTS / "export-legend-picked.png"))
        line = tab.locator(f"{LEGEND} button[data-line='{group.line_id}']")
        line.click()
        tab.wait_for_timeout(600)
        d = tab.evaluate(DRAWN)
        assert d["shown"] == len(view["nodes"])
        assert all(n["drawn"] == n["own"] for n in d["nodes"].values())
        assert all(e["drawn"] == e["own"] for e in d["edges"].values())
        assert requests == [path.as_uri()] and problems == []
