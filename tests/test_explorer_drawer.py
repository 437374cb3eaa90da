"""The explorer's drawer and the graph's height, without a browser (AppTest): the drawer
opens on a selection or a search and its close button closes it until something new is
shown; the graph takes the window's height in the browser (the server sends no height)."""

from __future__ import annotations

from apptest_support import graph_payload, run_page

from components.graph_view import WINDOW
from components.sections.ask import ASK_QUERY
from components.sections.explorer import TEXT_SEARCH
from components.state import session
from components.widgets.stage import CLOSE_KEY


def close_buttons(at) -> list:
    return [b for b in at.button if b.key == CLOSE_KEY]


def test_the_graph_takes_the_window_height_in_the_browser(fresh_data_dir) -> None:
    """The first run needs no window size: the payload asks the browser for the window's
    height, with its bounds."""
    at = run_page("explorer.py")
    options = graph_payload(at)["options"]
    assert options["height"] == WINDOW
    assert options["window"] == {"min": 420, "max": 5000, "margin": 14}


def test_the_drawer_opens_on_a_selection_and_closes_with_its_button(fresh_data_dir) -> None:
    at = run_page("explorer.py")
    assert close_buttons(at) == []  # the first view: no drawer over the graph
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
    at.text_input(key=TEXT_SEARCH.name).set_value("Lisbon").run()
    assert len(close_buttons(at)) == 1
    assert any("highlighted in the graph" in c.value for c in at.caption)
    close_buttons(at)[0].click().run()
    assert close_buttons(at) == []
    at.run()  # another run (a filter, a click elsewhere) does not bring it back
    assert close_buttons(at) == []
    at.text_input(key=TEXT_SEARCH.name).set_value("Maya").run()
    assert len(close_buttons(at)) == 1


def test_an_answer_opens_the_drawer(fresh_data_dir) -> None:
    at = run_page("explorer.py")
    at.text_input(key=ASK_QUERY.name).set_value("Lisbon")
    next(b for b in at.button if b.label == "Ask").click().run()
    assert not at.exception, at.exception
    assert len(close_buttons(at)) == 1
    assert any(m.value == "**Results**" for m in at.markdown)  # the drawer's title
    close_buttons(at)[0].click().run()
    assert close_buttons(at) == []
