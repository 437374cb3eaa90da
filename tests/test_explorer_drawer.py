"""The explorer's drawer and the graph's height, without a browser (AppTest): the drawer
opens on a selection or a search and its close button closes it until something new is
shown; the graph's height comes from the window the browser reported."""

from __future__ import annotations

from apptest_support import graph_payload, run_page

from components.state import session
from components.widgets.stage import CLOSE_KEY, DEFAULT_HEIGHT, MIN_HEIGHT, graph_height


def close_buttons(at) -> list:
    return [b for b in at.button if b.key == CLOSE_KEY]


def test_the_graph_reaches_the_window_bottom_it_was_told_of() -> None:
    assert graph_height({"height": 900, "top": 208}) == 900 - 208 - 14
    assert graph_height({"height": 1080, "top": 208}) - graph_height(
        {"height": 900, "top": 208}) == 180
    assert graph_height({"height": 500, "top": 300}) == MIN_HEIGHT  # never a sliver
    for unknown in (None, {}, {"height": "900", "top": 1}, {"height": True, "top": 0}):
        assert graph_height(unknown) == DEFAULT_HEIGHT


def test_the_drawer_opens_on_a_selection_and_closes_with_its_button(fresh_data_dir) -> None:
    at = run_page("explorer.py")
    assert close_buttons(at) == []  # the first view: no drawer over the graph
    assert graph_payload(at)["options"]["height"] == DEFAULT_HEIGHT  # no window reported
    node = next(n["id"] for n in graph_payload(at)["nodes"] if n["id"].startswith("mem_"))
    at.session_state[session.SELECTED.name] = node
    at.run()
    assert len(close_buttons(at)) == 1
    close_buttons(at)[0].click().run()
    assert not at.exception, at.exception
    assert at.session_state[session.SELECTED.name] is None
    assert close_buttons(at) == []


def test_a_closed_search_stays_closed_until_the_search_changes(fresh_data_dir) -> None:
    at = run_page("explorer.py")
    at.text_input(key=session.TEXT_SEARCH.name).set_value("Lisbon").run()
    assert len(close_buttons(at)) == 1
    assert any("highlighted in the graph" in c.value for c in at.caption)
    close_buttons(at)[0].click().run()
    assert close_buttons(at) == []
    at.run()  # another run (a filter, a click elsewhere) does not bring it back
    assert close_buttons(at) == []
    at.text_input(key=session.TEXT_SEARCH.name).set_value("Maya").run()
    assert len(close_buttons(at)) == 1


def test_an_answer_opens_the_drawer(fresh_data_dir) -> None:
    at = run_page("explorer.py")
    at.text_input(key=session.ASK_QUERY.name).set_value("Lisbon")
    next(b for b in at.button if b.label == "Ask").click().run()
    assert not at.exception, at.exception
    assert len(close_buttons(at)) == 1
    assert any(m.value == "**Results**" for m in at.markdown)  # the drawer's title
    close_buttons(at)[0].click().run()
    assert close_buttons(at) == []
