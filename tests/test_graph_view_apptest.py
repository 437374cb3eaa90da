"""The graph component under AppTest: payload, selection state, payload stability."""

from __future__ import annotations

import json
from typing import Any

import pytest
from apptest_support import browser_click, graph_element, graph_message, graph_payload
from streamlit.testing.v1 import AppTest

from components.graph_view import (
    ANNOTATIONS_MAX,
    COMPONENT_NAME,
    graph_view,
    group_annotations,
)
from memscope.view.library import vis_network_js

DEMO = "../components/graph_view/demo_app.py"  # relative to this file


def _run_demo() -> AppTest:
    at = AppTest.from_file(DEMO, default_timeout=30)
    at.run()
    assert not at.exception
    return at


def _element(at: AppTest, name: str = COMPONENT_NAME) -> Any:
    return graph_element(at, name)


def _payload(at: AppTest) -> dict:
    return graph_payload(at)


def payload_legend(at: AppTest) -> list[dict]:
    """The legend the demo shows (its colour groups)."""
    return json.loads(at.json[0].value)["colors"]


def _selected_text(at: AppTest) -> str:
    return next(t.value for t in at.text if t.value.startswith("Selected node:"))


def _browser_click(at: AppTest, node_id: str | None) -> None:
    browser_click(at, node_id)


def test_the_element_and_its_payload() -> None:
    at = _run_demo()
    element = _element(at)
    payload = _payload(at)
    assert set(payload) == {"nodes", "edges", "styles", "options", "annotations", "legend"}
    # the legend panel's data is the view's legend, as the page's JSON shows it
    assert payload["legend"]["colors"] == payload_legend(at)
    assert len(payload["nodes"]) == 36 and len(payload["edges"]) == 32
    # how items are drawn is shared: a handful of styles, each item points at one
    styles = payload["styles"]
    assert 0 < len(styles["nodes"]) < 36 and 0 < len(styles["edges"]) < 32
    assert all(0 <= n["s"] < len(styles["nodes"]) for n in payload["nodes"])
    assert all("shape" not in n and "color" not in n for n in payload["nodes"])
    assert {styles["edges"][e["s"]]["kind"] for e in payload["edges"]} >= {"source", "updates"}
    assert payload["options"] == {"height": 560, "physics": False, "focus": None,
                                  "focus_rev": 0, "fit_ids": [], "fit_label": "Fit matches"}
    # one name per cluster of at least three placed nodes, at the centre of its nodes
    legend = {c["key"]: c["label"] for c in payload_legend(at)}
    names = {a["text"] for a in payload["annotations"]}
    assert names and names <= set(legend.values())
    first = payload["annotations"][0]
    members = [n for n in payload["nodes"]
               if legend.get(n["color_group"]) == first["text"]]
    assert len(members) >= 3
    assert first["x"] == pytest.approx(sum(n["x"] for n in members) / len(members), abs=0.1)
    assert all("x" in n and "y" in n for n in payload["nodes"])
    hostile = next(n for n in payload["nodes"] if n["id"] == "doc_hostile")
    assert hostile["title"].startswith("<img src=x onerror=alert('title')>")
    # the element carries only the loader (a few kB); the modules, the stylesheet and the
    # vendored library are files Streamlit serves (tests/test_component_files.py), so no
    # element carries the library and none is sent for it. It is the page's one graph
    # element: behind serve.py the page has asked for the files already (preload.py).
    js = element.proto.js_content
    assert "export default async function graphViewLoader" in js
    assert len(js) < 10_000  # loader.js with its FILES (it also primes the code cache)
    assert vis_network_js()[-300:] not in js and "@license" not in js
    assert "\n//" not in js  # the file's comments stay in the file
    names = [e.proto.component_name for e in at.get("bidi_component")]
    assert names == [COMPONENT_NAME]
    assert element.proto.js_source_path == "" and element.proto.css_source_path == ""
    assert element.proto.html_content == "" and element.proto.css_content == ""
    message = element.proto.SerializeToString()
    at.run()
    assert _element(at, COMPONENT_NAME).proto.SerializeToString() == message
    assert _selected_text(at) == "Selected node: —"


def test_a_simulated_click_leaves_the_payload_identical() -> None:
    at = _run_demo()
    before = graph_message(at)
    # what the click does: the component state (browser) and the app state (callback)
    at.session_state["graph"] = {"selected": "mem_fe_v2"}
    at.session_state["selected_node"] = "mem_fe_v2"
    at.run()
    assert _selected_text(at) == "Selected node: mem_fe_v2"
    assert graph_message(at) == before
    at.run()
    assert graph_message(at) == before


def test_the_click_callback_writes_the_app_state() -> None:
    at = _run_demo()
    before = graph_message(at)
    _browser_click(at, "mem_hostile")
    assert at.session_state["selected_node"] == "mem_hostile"
    assert _selected_text(at) == "Selected node: mem_hostile"
    assert graph_message(at) == before
    _browser_click(at, None)  # a click on empty space clears the selection
    assert at.session_state["selected_node"] is None
    assert graph_message(at) == before


def test_a_selection_made_elsewhere_is_sent_once_as_focus() -> None:
    at = _run_demo()
    at.session_state["selected_node"] = "doc_trip"  # e.g. chosen in a history panel
    at.run()
    first = _payload(at)["options"]
    assert (first["focus"], first["focus_rev"]) == ("doc_trip", 0)
    sent = graph_message(at)
    _browser_click(at, "doc_trip")  # the browser reports what it now shows
    assert graph_message(at) == sent
    _browser_click(at, "mem_trip")  # the user clicks elsewhere: no new payload
    assert graph_message(at) == sent
    at.session_state["selected_node"] = "doc_trip"  # and the panel picks doc_trip again
    at.run()
    again = _payload(at)["options"]
    assert (again["focus"], again["focus_rev"]) == ("doc_trip", 1)


def test_colour_change_changes_styles_not_ids() -> None:
    at = _run_demo()
    before = _payload(at)
    at.radio(key="color_by").set_value("space").run()
    after = _payload(at)
    assert [n["id"] for n in after["nodes"]] == [n["id"] for n in before["nodes"]]
    assert [e["id"] for e in after["edges"]] == [e["id"] for e in before["edges"]]
    assert {n["color_group"] for n in after["nodes"]} == {"sm_project_personal", ""}
    at.toggle(key="physics").set_value(True).run()
    assert _payload(at)["options"]["physics"] is True


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"view": {"nodes": []}}, "view must be a ViewData"),
    ({"view": {"nodes": [{"id": "a"}, {"id": "a"}], "edges": []}}, "appears twice"),
    ({"view": {"nodes": [{"id": "a"}], "edges": [{"id": "e", "from": "a", "to": "b"}]}},
     "which is not a node of the view"),
    ({"height": 20}, "height must be a whole number"),
    ({"key": ""}, "key must be a non-empty string"),
    ({"key": "my__graph"}, "without '__'"),
    ({"fit_ids": "a"}, "fit_ids must be a collection"),
    ({"fit_ids": [1]}, "node ids \\(strings\\) only"),
    ({"fit_label": ""}, "fit_label must be a short"),
    ({"annotations": {"text": "a"}}, "annotations must be a list"),
    ({"annotations": ["a"]}, "each annotation must be a mapping"),
    ({"annotations": [{"text": " ", "x": 0, "y": 0, "size": 1}]}, "non-empty 'text'"),
    ({"annotations": [{"text": "a", "x": float("nan"), "y": 0, "size": 1}]},
     "finite numbers 'x' and 'y'"),
    ({"annotations": [{"text": "a", "x": 0, "y": 0, "size": 0}]}, "positive 'size'"),
    ({"annotations": [{"text": "a", "x": 0, "y": 0, "size": 1, "color": "red;"}]},
     "use '#rgb' or '#rrggbb'"),
    ({"physics": "yes"}, "physics must be True or False"),
    ({"focus": 3}, "focus must be a node id"),
])
def test_bad_arguments_get_one_clear_sentence(kwargs: dict, message: str) -> None:
    args: dict = {"view": {"nodes": [{"id": "a"}], "edges": []}} | kwargs
    view = args.pop("view")
    with pytest.raises((TypeError, ValueError), match=message):
        graph_view(view, **args)


def test_search_matches_become_fit_ids_and_a_click_keeps_the_payload() -> None:
    at = _run_demo()
    at.text_input(key="find").set_value("trip").run()
    payload = _payload(at)
    fit = payload["options"]["fit_ids"]
    expected = sorted(n["id"] for n in payload["nodes"] if "trip" in n["label"].casefold())
    assert fit == expected and len(fit) >= 2
    before = graph_message(at)
    _browser_click(at, fit[0])
    assert graph_message(at) == before


def test_annotations_are_checked_shortened_and_capped() -> None:
    at = AppTest.from_function(_annotation_app, default_timeout=30)
    at.run()
    assert not at.exception
    notes = _payload(at)["annotations"]
    assert len(notes) == ANNOTATIONS_MAX
    assert min(a["size"] for a in notes) == 1 + 10  # the ten smallest were dropped
    long = next(a for a in notes if a["text"].endswith("…"))
    assert len(long["text"]) == 60 and "\n" not in long["text"]
    assert long["color"] == "#123abc"


def _annotation_app() -> None:
    from components.graph_view import ANNOTATIONS_MAX, graph_view

    notes = [{"text": f"name {i}", "x": i, "y": 0, "size": 1 + i}
             for i in range(ANNOTATIONS_MAX + 10)]
    notes[-1] |= {"text": "a very\nlong name " * 10, "color": "#123abc"}
    graph_view({"nodes": [{"id": "a", "x": 0, "y": 0}], "edges": []}, key="g",  # type: ignore
               annotations=notes)  # type: ignore[arg-type]


def test_group_annotations_skip_small_unnamed_and_collapsed_groups() -> None:
    def node(i: int, group: str, x: float, kind: str = "memory") -> dict:
        return {"id": f"{group}{i}", "color_group": group, "kind": kind, "x": x, "y": 0.0}

    nodes = ([node(i, "big", x) for i, x in enumerate((-300.0, -100.0, 100.0, 300.0))]
             + [node(i, "small", x) for i, x in enumerate((0.0, 10.0))]
             + [node(i, "", x) for i, x in enumerate((0.0, 1.0, 2.0))]
             + [node(i, "hex", x, "cluster") for i, x in enumerate((0.0, 1.0, 2.0))]
             + [node(i, "anon", x) for i, x in enumerate((0.0, 1.0, 2.0))])
    view = {"nodes": nodes, "edges": []}
    names = {"big": "travel", "small": "food", "": "unlinked", "hex": "x"}
    notes = group_annotations(view, names)  # type: ignore[arg-type]
    assert [n["text"] for n in notes] == ["travel"]
    assert notes[0]["x"] == 0.0
    assert notes[0]["size"] > group_annotations(view, names, scale=0.1)[0]["size"]  # type: ignore[arg-type]
    assert [n["text"] for n in group_annotations(view, names, min_nodes=2)] == [  # type: ignore[arg-type]
        "travel", "food"]


def test_the_compact_payload_merges_back_to_the_view() -> None:
    from datetime import UTC, datetime
    from pathlib import Path

    from components.graph_view import compact_view
    from memscope.graph.analysis import analyse
    from memscope.records.dataset import read_files
    from memscope.view.build import build_view, highlight

    fixtures = Path(__file__).resolve().parent / "fixtures"
    files = [fixtures / "supermemory" / f"documents_page{i}.json" for i in (1, 2, 3)]
    files.append(fixtures / "spomory" / "passport.json")
    analysis = analyse(read_files(files), datetime(2026, 11, 20, 12, tzinfo=UTC))
    view = highlight(build_view(analysis), ["doc_trip"])
    small = compact_view(view)
    merged = [{**small["styles"]["nodes"][n["s"]], **{k: v for k, v in n.items() if k != "s"}}
              for n in small["nodes"]]
    assert merged == [dict(n) for n in view["nodes"]]
    edges = [{**small["styles"]["edges"][e["s"]], **{k: v for k, v in e.items() if k != "s"}}
             for e in small["edges"]]
    assert edges == [{k: v for k, v in e.items() if k != "predicate"} for e in view["edges"]]
    assert compact_view(view) == small  # deterministic
