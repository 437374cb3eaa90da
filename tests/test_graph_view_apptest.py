"""The graph component under AppTest: payload, selection state, payload stability."""

from __future__ import annotations

from typing import Any

import pytest
from apptest_support import browser_click, graph_element, graph_payload
from streamlit.testing.v1 import AppTest

from components.graph_view import COMPONENT_NAME, LIBRARY_NAME, graph_view

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


def _selected_text(at: AppTest) -> str:
    return next(t.value for t in at.text if t.value.startswith("Selected node:"))


def _browser_click(at: AppTest, node_id: str | None) -> None:
    browser_click(at, node_id)


def test_the_element_and_its_payload() -> None:
    at = _run_demo()
    element = _element(at)
    payload = _payload(at)
    assert set(payload) == {"nodes", "edges", "options"}
    assert len(payload["nodes"]) == 36 and len(payload["edges"]) == 32
    assert payload["options"] == {"height": 560, "physics": False, "focus": None,
                                  "focus_rev": 0}
    assert all("x" in n and "y" in n for n in payload["nodes"])
    hostile = next(n for n in payload["nodes"] if n["id"] == "doc_hostile")
    assert hostile["title"].startswith("<img src=x onerror=alert('title')>")
    # the graph element carries only our module; the vendored library is a second element
    # with no data, whose message is the same on every run (so Streamlit sends it once)
    assert "export default async function graphView" in element.proto.js_content
    assert len(element.proto.js_content) < 20_000
    library = _element(at, LIBRARY_NAME)
    assert library.proto.js_content.startswith("/**\n * vis-network\n")
    assert "@license" in library.proto.js_content[:1000]
    assert "sourceMappingURL" not in library.proto.js_content
    assert library.proto.WhichOneof("data") is None
    for el in (element, library):
        assert el.proto.js_source_path == "" and el.proto.css_source_path == ""
        assert el.proto.html_content == ""
    library_message = library.proto.SerializeToString()
    at.run()
    assert _element(at, LIBRARY_NAME).proto.SerializeToString() == library_message
    assert _selected_text(at) == "Selected node: —"


def test_a_simulated_click_leaves_the_payload_identical() -> None:
    at = _run_demo()
    before = _element(at).proto.json
    # what the click does: the component state (browser) and the app state (callback)
    at.session_state["graph"] = {"selected": "mem_fe_v2"}
    at.session_state["selected_node"] = "mem_fe_v2"
    at.run()
    assert _selected_text(at) == "Selected node: mem_fe_v2"
    assert _element(at).proto.json == before
    at.run()
    assert _element(at).proto.json == before


def test_the_click_callback_writes_the_app_state() -> None:
    at = _run_demo()
    before = _element(at).proto.json
    _browser_click(at, "mem_hostile")
    assert at.session_state["selected_node"] == "mem_hostile"
    assert _selected_text(at) == "Selected node: mem_hostile"
    assert _element(at).proto.json == before
    _browser_click(at, None)  # a click on empty space clears the selection
    assert at.session_state["selected_node"] is None
    assert _element(at).proto.json == before


def test_a_selection_made_elsewhere_is_sent_once_as_focus() -> None:
    at = _run_demo()
    at.session_state["selected_node"] = "doc_trip"  # e.g. chosen in a history panel
    at.run()
    first = _payload(at)["options"]
    assert (first["focus"], first["focus_rev"]) == ("doc_trip", 0)
    sent = _element(at).proto.json
    _browser_click(at, "doc_trip")  # the browser reports what it now shows
    assert _element(at).proto.json == sent
    _browser_click(at, "mem_trip")  # the user clicks elsewhere: no new payload
    assert _element(at).proto.json == sent
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
    ({"selected_key": "graph"}, "selected_key must differ from key"),
    ({"selected_key": ""}, "selected_key must be a non-empty string"),
    ({"physics": "yes"}, "physics must be True or False"),
    ({"focus": 3}, "focus must be a node id"),
])
def test_bad_arguments_get_one_clear_sentence(kwargs: dict, message: str) -> None:
    args: dict = {"view": {"nodes": [{"id": "a"}], "edges": []}} | kwargs
    view = args.pop("view")
    with pytest.raises((TypeError, ValueError), match=message):
        graph_view(view, **args)
