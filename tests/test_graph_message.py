"""The graph's message (components/graph_view/message.py): bytes that decode to the dict
payload graph_view sent before, the heavy part encoded once per drawn view and shared by
sessions and reruns."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from apptest_support import browser_click, graph_message, graph_payload
from streamlit.testing.v1 import AppTest

import components.graph_view as graph_module
from components.graph_view import compact_view, graph_view, group_annotations
from components.graph_view.message import (
    CACHE_SIZE,
    DRAWN,
    Drawn,
    DrawnCache,
    decode,
    encode,
    payload_bytes,
)
from memscope.view.build import ViewData

FIXTURES = Path(__file__).resolve().parent / "fixtures"


@cache
def fixture_view() -> ViewData:
    """The fixtures' view, highlighted (built once: the same lists every call)."""
    from memscope.graph.analysis import analyse
    from memscope.records.dataset import read_files
    from memscope.view.build import build_view, highlight

    files = [FIXTURES / "supermemory" / f"documents_page{i}.json" for i in (1, 2, 3)]
    files.append(FIXTURES / "spomory" / "passport.json")
    analysis = analyse(read_files(files), datetime(2026, 11, 20, 12, tzinfo=UTC))
    return highlight(build_view(analysis), ["doc_trip"])


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    DRAWN.clear()
    yield
    DRAWN.clear()


class Spy:
    """Records the :class:`Drawn` that each graph_view call splices into its message."""

    def __init__(self) -> None:
        self.drawn: list[Drawn] = []

    def __call__(self, drawn: Drawn, rest: Any) -> bytes:
        self.drawn.append(drawn)
        return payload_bytes(drawn, rest)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Spy:
    recorder = Spy()
    monkeypatch.setattr(graph_module, "payload_bytes", recorder)
    return recorder


def _shared_app() -> None:
    """A page drawing a view every session shares (as the pipeline's views are)."""
    from datetime import UTC, datetime
    from pathlib import Path
    from typing import Any  # noqa: F401  (the app runs as a script of its own)

    import streamlit as st

    import memscope
    from components.graph_view import graph_view, group_annotations
    from memscope.graph.analysis import analyse
    from memscope.records.dataset import read_files
    from memscope.view.build import build_view
    from memscope.view.layout import layout_positions

    @st.cache_resource
    def shared() -> Any:
        sm = Path(memscope.__file__).parents[1] / "tests" / "fixtures" / "supermemory"
        files = [sm / f"documents_page{i}.json" for i in (1, 2, 3)]
        analysis = analyse(read_files(files), datetime(2026, 11, 20, 12, tzinfo=UTC))
        return build_view(analysis, positions=layout_positions(analysis.graph.graph))

    view = shared()
    graph_view(view, key="graph", height=500, annotations=group_annotations(view),
               on_select=lambda node: st.session_state.update(picked=node))


def _session() -> AppTest:
    at = AppTest.from_function(_shared_app, default_timeout=60)
    at.run()
    assert not at.exception
    return at


def test_two_sessions_and_a_rerun_share_one_encoding(spy: Spy) -> None:
    one = _session()
    two = _session()
    assert DRAWN.misses == 1  # encoded once, for both sessions
    assert len(spy.drawn) == 2 and spy.drawn[0] is spy.drawn[1]
    body = spy.drawn[0].body
    assert graph_message(one) == graph_message(two)
    assert graph_message(one).startswith(b"{" + body + b',"options":')
    node = graph_payload(one)["nodes"][0]["id"]
    browser_click(one, node)  # a rerun after a click: the same bytes, nothing encoded
    assert one.session_state["picked"] == node
    assert DRAWN.misses == 1 and spy.drawn[-1] is spy.drawn[0]
    assert graph_message(one) == graph_message(two)


def test_a_new_view_is_encoded_again(spy: Spy) -> None:
    view = fixture_view()
    graph_view(view, key="g")
    graph_view(view, key="g")
    assert DRAWN.misses == 1 and spy.drawn[0] is spy.drawn[1]
    copy: Any = {**view, "nodes": list(view["nodes"])}  # equal, but another list
    graph_view(copy, key="g")
    assert DRAWN.misses == 2 and spy.drawn[2] is not spy.drawn[0]
    assert spy.drawn[2].body == spy.drawn[0].body


def test_the_message_decodes_to_the_dict_payload_of_before() -> None:
    view = fixture_view()
    notes = group_annotations(view)
    drawn = DRAWN.make(view, {n["id"] for n in view["nodes"]})
    options = {"height": 640, "physics": False, "focus": "doc_trip", "focus_rev": 2,
               "fit_ids": ["doc_trip"], "fit_label": "Fit matches"}
    rest = {"options": options, "annotations": notes, "legend": view["legend"]}
    small = compact_view(view)
    before = {"nodes": small["nodes"], "edges": small["edges"], "styles": small["styles"],
              **rest}
    got = decode(payload_bytes(drawn, rest))
    # what the browser parsed of Streamlit's json.dumps before, key order included
    expected = json.loads(json.dumps(before))
    assert got == expected
    assert list(got) == ["nodes", "edges", "styles", "options", "annotations", "legend"]
    assert [list(n) for n in got["nodes"]] == [list(n) for n in expected["nodes"]]
    assert len(got["nodes"]) == len(view["nodes"]) > 10


def test_graph_view_sends_bytes_that_decode_to_the_old_payload() -> None:
    at = AppTest.from_function(_shared_app, default_timeout=60)
    at.run()
    assert not at.exception
    got = graph_payload(at)
    drawn = next(iter(DRAWN._entries.values()))  # pyright: ignore[reportPrivateUsage]
    view: Any = {"nodes": drawn.nodes, "edges": drawn.edges}
    small = compact_view(view)
    assert {k: got[k] for k in ("nodes", "edges", "styles")} == json.loads(json.dumps(small))
    assert got["options"] == {"height": 500, "physics": False, "focus": None,
                              "focus_rev": 0, "fit_ids": [], "fit_label": "Fit matches"}
    assert got["annotations"] and got["legend"]["colors"]
    assert b", " not in graph_message(at)[:2000]  # compact separators


def test_text_utf8_cannot_hold_is_escaped_and_kept() -> None:
    value = {"label": "caf\u00e9 \U0001f600", "title": "half \ud800 pair"}
    data = encode(value)
    assert "café".encode() not in data  # the fallback escapes everything
    assert json.loads(data) == value
    assert encode({"label": "café"}) == '{"label":"café"}'.encode()


def test_the_cache_is_bounded_and_least_recent_goes_first() -> None:
    cache = DrawnCache(size=3)
    views: list[Any] = [{"nodes": [{"id": f"n{i}"}], "edges": []} for i in range(5)]
    made = [cache.make(v, {f"n{i}"}) for i, v in enumerate(views)]
    assert cache.misses == 5
    assert [cache.get(v["nodes"], v["edges"]) for v in views] == [None, None, *made[2:]]
    assert cache.get(views[2]["nodes"], views[2]["edges"]) is made[2]  # now the latest
    cache.make(views[0], {"n0"})
    assert cache.get(views[3]["nodes"], views[3]["edges"]) is None  # the least recent
    assert cache.get(views[2]["nodes"], views[2]["edges"]) is made[2]
    assert CACHE_SIZE <= 8


def test_identity_is_checked_not_only_the_ids() -> None:
    cache = DrawnCache()
    view: Any = {"nodes": [{"id": "a"}], "edges": []}
    cache.make(view, {"a"})
    assert cache.get(view["nodes"], []) is None  # another edge list
    assert cache.get(list(view["nodes"]), view["edges"]) is None


def test_sessions_at_once_share_one_entry() -> None:
    cache = DrawnCache()
    view: Any = {"nodes": [{"id": f"n{i}", "kind": "memory"} for i in range(2000)],
                 "edges": []}
    ids = {n["id"] for n in view["nodes"]}
    start = threading.Barrier(8)
    got: list[Drawn] = []
    lock = threading.Lock()

    def session() -> None:
        start.wait()
        drawn = cache.get(view["nodes"], view["edges"]) or cache.make(view, ids)
        with lock:
            got.append(drawn)

    threads = [threading.Thread(target=session) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and all(d is got[0] for d in got)
    assert len(cache._entries) == 1  # pyright: ignore[reportPrivateUsage]


def test_a_bad_view_is_not_cached() -> None:
    bad: Any = {"nodes": [{"id": "a"}, {"id": "a"}], "edges": []}
    with pytest.raises(ValueError, match="appears twice"):
        graph_view(bad, key="g")
    assert DRAWN.misses == 0 and DRAWN.get(bad["nodes"], bad["edges"]) is None


#: the component's browser files, served to a page by its routes (no Streamlit server)
ASSETS = Path(__file__).resolve().parent.parent / "components" / "graph_view" / "frontend" \
    / "assets"
ORIGIN = "http://127.0.0.1:9"  # loopback; the page's routes answer, nothing listens
PAGE = ("<div id='root' style='width: 900px; height: 600px'></div>"
        "<script src='/vis-network.min.js'></script>"
        "<script type='module'>import graphView from '/graph_view.js';"
        " window.__graphView = graphView;</script>")
#: calls the component as Streamlit does with ``data`` the UTF-8 bytes of ``text`` (a
#: Uint8Array ``offset`` bytes into its buffer, as a protobuf field is), or an object
RENDER_BYTES = """([text, offset]) => {
  const utf8 = new TextEncoder().encode(text);
  const buffer = new Uint8Array(utf8.length + offset);
  buffer.set(utf8, offset);
  window.__graphView({ data: buffer.subarray(offset),
    parentElement: document.getElementById('root'), setStateValue: () => {} });
  return true; }"""
RENDER_OBJECT = """data => { window.__graphView({ data,
  parentElement: document.getElementById('root'), setStateValue: () => {} }); return true; }"""
STATE = """el => [el.getAttribute('data-renders'), el.__stats.unchanged,
  el.getAttribute('data-node-count'), el.__network.body.data.nodes.get('n1').label]"""


def _grid_message(n: int, label: str = "node") -> str:
    view: Any = {"nodes": [{"id": f"n{i}", "label": f"{label} {i}", "kind": "memory",
                            "shape": "dot", "x": float(40 * (i % 30)),
                            "y": float(40 * (i // 30))} for i in range(n)],
                 "edges": [{"id": f"e{i}", "from": f"n{i}", "to": f"n{i + 1}"}
                           for i in range(n - 1)], "legend": None}
    drawn = DrawnCache().make(view, {n["id"] for n in view["nodes"]})
    rest = {"options": {"height": 600, "physics": False, "focus": None, "focus_rev": 0,
                        "fit_ids": [], "fit_label": "Fit matches"},
            "annotations": [], "legend": None}
    return payload_bytes(drawn, rest).decode("utf-8")


@pytest.mark.browser
def test_the_browser_decodes_bytes_and_skips_the_same_bytes_again() -> None:
    from browser_support import chromium
    from playwright.sync_api import Route

    def serve(route: Route) -> None:
        name = route.request.url.removeprefix(f"{ORIGIN}/").split("?")[0]
        if name == "":
            route.fulfill(body=PAGE, content_type="text/html")
        elif "/" not in name and (ASSETS / name).is_file():
            route.fulfill(path=ASSETS / name, content_type="text/javascript")
        else:
            route.fulfill(status=404)

    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1000, "height": 700})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.route(f"{ORIGIN}/**", serve)
        page.goto(f"{ORIGIN}/")
        page.wait_for_function("() => typeof window.__graphView === 'function'")
        graph = page.locator("[data-testid='memscope-graph']")
        first = _grid_message(400, "café ☕")
        page.evaluate(RENDER_BYTES, [first, 0])
        graph.wait_for(state="attached")
        assert graph.evaluate(STATE) == ["1", 0, "400", "café ☕ 1"]
        page.evaluate(RENDER_BYTES, [first, 3])  # the same bytes in another array: nothing
        assert graph.evaluate(STATE) == ["1", 1, "400", "café ☕ 1"]
        page.evaluate(RENDER_BYTES, [_grid_message(401), 1])  # new bytes: drawn
        assert graph.evaluate(STATE) == ["2", 1, "401", "node 1"]
        page.evaluate(RENDER_OBJECT, json.loads(first))  # a plain object still works
        assert graph.evaluate(STATE) == ["3", 1, "400", "café ☕ 1"]
        page.evaluate(RENDER_BYTES, [first, 0])  # bytes after an object: drawn
        assert graph.evaluate(STATE) == ["4", 1, "400", "café ☕ 1"]
        assert errors == []
