"""The recall map in a real Chromium (issue 19, item 2): one journey on the demo store —
run the demo's question set, find a never-recalled memory in the table and grey in the
graph, then presenter mode (no real text in the tables). Screenshots (light, dark,
presenter) go to ``test-screenshots/``."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import GRAPH, assert_loopback_only, chromium, wait_graph, wait_idle

from components.sections.recall import demo_questions
from memscope.graph.analysis import analyse
from memscope.reports.recall import LATEST_STATES
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store
from memscope.view.colors import RECALL_COLORS

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
CELLS = "[data-testid='stDataFrame'] [role='gridcell']"
FILL_OF = """([el, id]) => {
  const node = el.__network && el.__network.body.data.nodes.get(id);
  return node ? node.color.background : null;
}"""


def _never_recalled(db: Path) -> list[str]:
    """The latest memories no demo question finds, newest first — asked of the store
    itself, not through the app."""
    store = Store(db)
    found = {h["id"] for q in demo_questions() for h in store.search(q, 10)["hits"]
             if h["kind"] == "memory"}
    an = analyse(EmbeddedSource(db).load().dataset)
    ids = [m for m in an.dataset.memories if m not in found
           and an.state(m) in LATEST_STATES]
    return sorted(ids, key=lambda m: an.dataset.memories[m].created_at or 0, reverse=True)


def test_the_demo_question_set_finds_memories_never_recalled(server, data_dir) -> None:
    db = data_dir / STORE_FILE
    never = _never_recalled(db)
    assert never, "the demo has latest memories no question finds"
    texts = EmbeddedSource(db).load().dataset.memories
    SHOTS.mkdir(parents=True, exist_ok=True)
    requests: list[str] = []
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1900},
                                color_scheme="light")
        page.on("request", lambda r: requests.append(r.url))
        page.goto(f"{server.url}/recall")
        wait_idle(page, 500)
        assert page.get_by_label("The demo's question set").is_checked()
        page.get_by_role("button", name="Run").click()
        page.get_by_text("Latest memories never recalled").wait_for(timeout=60_000)
        wait_idle(page, 500)
        wait_graph(page)
        assert page.get_by_text(f"{len(demo_questions())} of {len(demo_questions())} "
                                "questions ran").is_visible()
        page.get_by_text(f"Latest memories never recalled ({len(never)})").wait_for()
        newest = texts[never[0]].memory
        for _ in range(40):  # the tables are drawn a moment after the run
            cells = page.locator(CELLS).all_inner_texts()
            if newest in cells:
                break
            page.wait_for_timeout(250)
        assert newest in cells, (newest, cells[:10])  # the table's first rows
        graph = page.locator(GRAPH).element_handle()
        assert page.evaluate(FILL_OF, [graph, never[0]]) == RECALL_COLORS["0"]  # grey: never
        legend = page.locator("[data-testid='memscope-legend']").inner_text()
        assert "never recalled" in legend and "recalled once" in legend
        page.screenshot(path=str(SHOTS / "recall-map-light.png"))
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(800)
        page.screenshot(path=str(SHOTS / "recall-map-dark.png"))

        page.emulate_media(color_scheme="light")
        page.locator("[data-testid='stSidebar']").get_by_text("Presenter mode").click()
        wait_idle(page, 1000)
        page.get_by_text("Latest memories never recalled").wait_for(timeout=60_000)
        for _ in range(40):  # the tables are drawn a moment after the run
            cells = page.locator(CELLS).all_inner_texts()
            if cells and newest not in cells:
                break
            page.wait_for_timeout(250)
        assert newest not in cells and any(c.startswith("Memory ") for c in cells)
        body = page.locator("body").inner_text()
        assert newest not in body
        assert not [q for q in demo_questions() if q in body]
        page.screenshot(path=str(SHOTS / "recall-map-presenter.png"))
        page.close()
    assert_loopback_only(requests)
