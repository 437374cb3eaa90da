"""The offline HTML export carries the graph's own legend panel (``legend.js`` inlined):
the same lines with whole counts, a click shows only that line, and the page still loads
nothing — no CDN, no request but the file itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import CHROMIUM, chromium
from conftest import NOW

from components.sections import legend as legend_rule
from memscope.demo.generator import generate
from memscope.export.html import legend_js, offline_html
from memscope.graph.analysis import analyse
from memscope.records.dataset import from_feed_pages
from memscope.view.build import ViewData, build_view
from memscope.view.layout import layout_positions

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
LEGEND = "#legend"
SHOWN = "() => document.getElementById('graph').__network.body.nodeIndices.slice()"


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
    want = {n["id"] for n in legend_rule.only(view, group)["nodes"]}
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
        tab.wait_for_timeout(300)
        assert set(tab.evaluate(SHOWN)) == want
        assert tab.get_by_text("Showing only the selected legend line").count() == 1
        line.click()
        tab.wait_for_timeout(300)
        assert len(tab.evaluate(SHOWN)) == len(view["nodes"])
        assert requests == [path.as_uri()] and problems == []
