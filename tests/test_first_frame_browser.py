"""The graph's first frame painted from the payload's positions (issue 33) in a real
Chromium: before vis-network is built the frame already shows the map, every node where
and in the colour the live graph then draws it; the live graph's first frame takes its
place at the same view; a payload that comes meanwhile is the one drawn; presenter mode
paints no text. The build is held with ``window.__msHoldFirstBuild`` (graph_view.js) to
look at the painted frame."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import GRAPH, IDLE, app_server, chromium
from playwright.sync_api import Browser, Page
from streamlit_server import StreamlitServer

from memscope.demo.seeding import seed_if_missing
from memscope.settings import STORE_FILE

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[1] / "test-screenshots"
HOLD = "window.__msHoldFirstBuild = new Promise((r) => { window.__msReleaseBuild = r; });"
PAINTED = f"{GRAPH}[data-painted='true']"
DRAWN = f"{GRAPH}[data-drawn='true']"

#: the painted frame while the build is held: kept as pixels for a later comparison
KEEP_PAINTED = """el => {
  const c = el.parentElement.querySelector('.ms-first-frame');
  const ctx = c.getContext('2d');
  window.__painted = { image: ctx.getImageData(0, 0, c.width, c.height),
                       ratio: c.width / c.clientWidth };
  let inked = 0;
  const px = window.__painted.image.data;
  for (let i = 3; i < px.length; i += 4) if (px[i] > 0) inked += 1;
  return { inked, built: el.__network !== undefined, vis: el.querySelectorAll('canvas').length,
           scale: el.__firstView.scale, box: c.getBoundingClientRect().toJSON(),
           frame: el.getBoundingClientRect().toJSON() };
}"""

#: after the live graph's first frame: at each drawn node's centre, the painted pixel
#: against the live canvas's pixel (the same point on screen)
COMPARE = """el => {
  const net = el.__network;
  const live = el.querySelector('canvas');
  const ratio = live.width / live.clientWidth;
  const livePx = live.getContext('2d').getImageData(0, 0, live.width, live.height);
  const { image, ratio: pr } = window.__painted;
  const body = net.body;
  let compared = 0;
  let same = 0;
  let inked = 0;
  const worst = [];
  for (const id of body.nodeIndices) {
    const n = body.nodes[id];
    if (!n || n.options.hidden) continue;
    const d = net.canvasToDOM({ x: n.x, y: n.y });
    const at = (img, r) => {
      const x = Math.round(d.x * r);
      const y = Math.round(d.y * r);
      if (x < 0 || y < 0 || x >= img.width || y >= img.height) return null;
      const i = (y * img.width + x) * 4;
      return [img.data[i], img.data[i + 1], img.data[i + 2], img.data[i + 3]];
    };
    const a = at(image, pr);
    const b = at(livePx, ratio);
    if (a === null || b === null) continue;
    compared += 1;
    if (a[3] > 0) inked += 1;
    const diff = Math.max(...[0, 1, 2, 3].map((k) => Math.abs(a[k] - b[k])));
    if (diff <= 24) same += 1;
    else worst.push([id, a, b]);
  }
  return { compared, same, inked, worst: worst.slice(0, 5), scale: net.getScale(),
           paintedLeft: el.parentElement.querySelectorAll('.ms-first-frame').length,
           stats: { firstPaintAt: el.__stats.firstPaintAt, firstDrawAt: el.__stats.firstDrawAt,
                    shownAt: el.__stats.firstPaintShownAt } };
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def _held(browser: Browser, url: str, scheme: str = "light") -> Page:
    context = browser.new_context(viewport={"width": 1400, "height": 900},
                                  color_scheme=scheme)  # type: ignore[arg-type]
    page = context.new_page()
    page.add_init_script(HOLD)
    page.goto(url)
    page.wait_for_selector(PAINTED, timeout=60_000)
    return page


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_map_is_painted_before_the_network_and_the_live_graph_takes_its_place(
        graph_demo: StreamlitServer, browser: Browser, scheme: str) -> None:
    page = _held(browser, graph_demo.url, scheme)
    graph = page.locator(GRAPH)
    held = graph.evaluate(KEEP_PAINTED)
    assert not held["built"] and held["vis"] == 0, held  # no Network yet, the map is there
    assert held["inked"] > 2000, held  # nodes and edges, not a blank canvas
    assert held["box"]["left"] == pytest.approx(held["frame"]["left"], abs=0.5), held
    assert held["box"]["top"] == pytest.approx(held["frame"]["top"], abs=0.5), held
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"first-frame-painted-{scheme}.png"))

    page.evaluate("() => window.__msReleaseBuild()")
    page.wait_for_selector(DRAWN, timeout=30_000)
    page.wait_for_selector(IDLE, timeout=30_000)
    result = graph.evaluate(COMPARE)
    assert result["paintedLeft"] == 0, result  # replaced by the live graph's frame
    assert result["scale"] == pytest.approx(held["scale"], rel=1e-9), result  # no move
    stats = result["stats"]
    assert stats["firstPaintAt"] < stats["shownAt"] < stats["firstDrawAt"], stats
    # every node painted where, and in the colour, the live graph draws it
    assert result["compared"] >= 20 and result["inked"] == result["compared"], result
    assert result["same"] >= 0.9 * result["compared"], result
    page.screenshot(path=str(SHOTS / f"first-frame-live-{scheme}.png"))
    page.context.close()


def test_a_payload_that_comes_before_the_build_is_the_one_drawn(
        graph_demo: StreamlitServer, browser: Browser) -> None:
    page = _held(browser, graph_demo.url)
    page.wait_for_selector(IDLE, timeout=30_000)
    page.get_by_label("Find").fill("lisbon")
    page.get_by_label("Find").press("Enter")
    page.get_by_text("Matches: 0").wait_for(state="detached", timeout=15_000)
    page.wait_for_selector(IDLE, timeout=30_000)
    graph = page.locator(GRAPH)
    assert graph.evaluate("el => el.__network === undefined")  # still held
    page.evaluate("() => window.__msReleaseBuild()")
    page.wait_for_selector(DRAWN, timeout=30_000)
    drawn = graph.evaluate("""el => {
      const items = el.__network.body.data.nodes.get();
      return { renders: el.getAttribute('data-renders'),
               faded: items.filter((n) => n.faded).length, all: items.length };
    }""")
    # one render, of the highlighted payload: the matches stand out, the rest faded
    assert drawn["renders"] == "1" and 0 < drawn["faded"] < drawn["all"], drawn
    page.context.close()


def test_presenter_mode_paints_the_map_without_text(tmp_path: Path, browser: Browser) -> None:
    seed_if_missing(tmp_path / STORE_FILE)
    with app_server(tmp_path) as server:
        page = _held(browser, f"{server.url}/?presenter=1")
        assert page.locator("#ms-first-picture").count() == 0  # no picture of the data here
        held = page.locator(GRAPH).evaluate(KEEP_PAINTED)
        assert held["inked"] > 2000 and not held["built"], held
        page.screenshot(path=str(SHOTS / "first-frame-painted-presenter.png"))
        page.evaluate("() => window.__msReleaseBuild()")
        page.wait_for_selector(DRAWN, timeout=60_000)
        left = page.locator(GRAPH).evaluate(
            "el => el.parentElement.querySelectorAll('.ms-first-frame').length")
        assert left == 0
        page.context.close()
