"""The graph component on a big view in a real Chromium, without a Streamlit server (the
page's routes serve its files from their folder, as Streamlit would): the
compact payload merged back, one index rebuild per data change, new nodes clickable at
once, and a drag over thousands of nodes drawn plainly (then fully again on release)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import chromium
from playwright.sync_api import Browser, Page, Route

from components.graph_view import compact_view

pytestmark = pytest.mark.browser
#: the component's browser files (its ES modules import each other by relative URL)
ASSETS = Path(__file__).resolve().parent.parent / "components" / "graph_view" / "frontend" \
    / "assets"
#: an origin on loopback that the page's routes answer (nothing listens there)
ORIGIN = "http://127.0.0.1:9"
PAGE = ("<div id='root' style='width: 1000px; height: 700px'></div>"
        "<script src='/vis-network.min.js'></script>"
        "<script type='module'>import graphView from '/graph_view.js';"
        " window.__graphView = graphView;</script>")
GRAPH = "[data-testid='memscope-graph']"
OPTIONS = {"height": 700, "physics": False, "focus": None, "focus_rev": 0, "fit_ids": [],
           "fit_label": "Fit matches"}
#: renders a payload (the component's default export, called as Streamlit calls it)
RENDER = """payload => window.__graphView({ data: payload,
  parentElement: document.getElementById('root'), setStateValue: () => {} })"""


def grid_view(n: int, offset: int = 0) -> dict[str, Any]:
    """``n`` memories on a grid (ids ``m<i>``), chained by ``updates`` edges."""
    nodes = [{"id": f"m{i}", "label": f"memory {i}", "title": f"<b>memory</b> {i}\nline 2",
              "kind": "memory", "color_group": f"c{i % 7}", "shape": "dot", "size": 11,
              "color": {"background": ["#2CA02C", "#EE3377"][i % 2], "border": "#333333"},
              "state": "latest", "x": float(60 * (i % 80)), "y": float(60 * (i // 80))}
             for i in range(offset, offset + n)]
    edges = [{"id": f"e{i}", "from": f"m{i}", "to": f"m{i + 1}", "kind": "updates",
              "color": {"color": "#0072B2"}, "width": 2, "arrows": "to"}
             for i in range(offset, offset + n - 1)]
    return {"nodes": nodes, "edges": edges}


def payload(view: dict[str, Any]) -> dict[str, Any]:
    """What graph_view sends for ``view``."""
    small = compact_view(view)  # type: ignore[arg-type]
    return {**small, "options": OPTIONS, "annotations": []}


def serve_assets(route: Route) -> None:
    """The test page at ``/``, the component's files by name, nothing else."""
    name = route.request.url.removeprefix(f"{ORIGIN}/").split("?")[0]
    if name == "":
        route.fulfill(body=PAGE, content_type="text/html")
    elif (ASSETS / name).is_file() and "/" not in name:
        route.fulfill(path=ASSETS / name, content_type="text/javascript")
    else:
        route.fulfill(status=404)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.route(f"{ORIGIN}/**", serve_assets)
    pg.goto(f"{ORIGIN}/")
    pg.wait_for_function("() => typeof window.__graphView === 'function'")
    yield pg
    assert errors == []
    context.close()


def drawn(pg: Page, renders: int) -> None:
    pg.wait_for_function(f"""() => {{ const el = document.querySelector("{GRAPH}");
      return el && el.getAttribute('data-renders') === '{renders}'
        && el.__stats.lastDrawAt !== null; }}""")
    pg.wait_for_timeout(200)


NODE_AT = """(el, id) => { const net = el.__network;
  const dom = net.canvasToDOM(net.getPositions([id])[id]);
  return net.getNodeAt(dom) === id; }"""


def test_compact_payload_merged_and_one_index_rebuild(page: Page) -> None:
    first = payload(grid_view(300))
    assert len(first["styles"]["nodes"]) == 2  # two fills, one style each
    page.evaluate(RENDER, first)
    drawn(page, 1)
    graph = page.locator(GRAPH)
    item = graph.evaluate("el => el.__network.body.data.nodes.get('m1')")
    assert item["shape"] == "dot" and item["color"]["background"] == "#EE3377"
    assert item["kind"] == "memory" and item["state"] == "latest" and "s" not in item
    assert item["title"] == "<b>memory</b> 1\nline 2"  # a string: vis sets it as text
    # the next payload adds 3,000 nodes and edges: one index rebuild, one draw
    graph.evaluate("""el => { el.__changed = 0; el.__draws0 = el.__stats.draws;
      el.__network.body.emitter.on('_dataChanged', () => { el.__changed += 1; }); }""")
    page.evaluate(RENDER, payload(grid_view(3300)))
    drawn(page, 2)
    assert graph.evaluate("el => el.__changed") == 1
    assert graph.evaluate("el => el.__stats.draws - el.__draws0") == 1
    assert graph.get_attribute("data-node-count") == "3300"
    graph.evaluate("el => el.__network.moveTo({ position: el.__network.getPositions(['m3200'])"
                   ".m3200, scale: 1, animation: false })")
    page.wait_for_timeout(100)
    assert graph.evaluate(NODE_AT, "m3200")  # a new node is clickable
    # the same payload again changes nothing; a changed style updates that node only
    again = payload(grid_view(3300))
    page.evaluate(RENDER, again)
    drawn(page, 3)
    assert graph.evaluate("el => el.__changed") == 1
    view = grid_view(3300)
    view["nodes"][5]["color"] = {"background": "#123456", "border": "#333333"}
    page.evaluate(RENDER, payload(view))
    drawn(page, 4)
    assert graph.evaluate("el => el.__network.body.data.nodes.get('m5').color.background") \
        == "#123456"
    assert graph.evaluate("el => el.__network.body.data.nodes.get('m7').color.background") \
        == "#EE3377"
    assert json.loads(json.dumps(again)) == again


def test_a_drag_over_thousands_of_nodes_draws_them_plainly(page: Page) -> None:
    page.evaluate(RENDER, payload(grid_view(4000)))
    drawn(page, 1)
    graph = page.locator(GRAPH)
    graph.evaluate("el => el.__network.fit({ animation: false })")
    page.wait_for_timeout(200)
    box = graph.bounding_box()
    assert box is not None
    x, y = box["x"] + 5, box["y"] + box["height"] - 5  # below the grid: empty
    assert graph.evaluate("(el, p) => el.__network.getNodeAt(p) === undefined",
                          {"x": 5, "y": box["height"] - 5})
    page.mouse.move(x, y)
    page.mouse.down()
    for i in range(1, 8):
        page.mouse.move(x + 10 * i, y - 5 * i)
        page.wait_for_timeout(30)
    assert graph.evaluate("el => el.__network.renderer.options.hideNodesOnDrag") is True
    page.mouse.up()
    page.wait_for_timeout(200)
    assert graph.evaluate("el => el.__network.renderer.options.hideNodesOnDrag") is False
    assert graph.evaluate(NODE_AT, "m10")  # hit boxes still right after the pan
