"""AppTest helpers for the graph component: its payload, and a click as the browser
sends it (the component's state as a widget value)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from streamlit.proto.WidgetStates_pb2 import WidgetStates
from streamlit.testing.v1 import AppTest

from components.graph_view import COMPONENT_NAME


def app_pages() -> list[str]:
    """The file names of the pages the router (``app.py``) registers, in its order: the
    page lists of the every-page tests follow it, so a new page is covered when added."""
    source = (Path(__file__).resolve().parents[1] / "app.py").read_text(encoding="utf-8")
    return re.findall(r'st\.Page\("pages/([\w-]+\.py)"', source)


def app_page_titles() -> list[str]:
    """The titles of the pages ``app.py`` registers, in its order (the sidebar's links)."""
    source = (Path(__file__).resolve().parents[1] / "app.py").read_text(encoding="utf-8")
    return re.findall(r'st\.Page\("pages/[\w-]+\.py", title="([^"]+)"', source)


def graph_element(at: AppTest, name: str = COMPONENT_NAME) -> Any:
    """The one element of the component ``name`` on the page."""
    elements = [e for e in at.get("bidi_component") if e.proto.component_name == name]
    assert len(elements) == 1
    return elements[0]


def element_message(element: Any) -> bytes:
    """The bytes a graph component's element carries (``data=`` bytes, see
    ``components/graph_view/message.py``); fails when it carries anything else."""
    proto = element.proto
    assert proto.WhichOneof("data") == "bytes", proto.WhichOneof("data")
    return proto.bytes


def message_payload(message: bytes) -> dict:
    """The payload object the browser decodes from a graph message (UTF-8 JSON bytes;
    raises ``ValueError`` when they are not)."""
    value = json.loads(message.decode("utf-8"))
    if not isinstance(value, dict):
        raise ValueError("the graph message is not a JSON object")
    return value


def element_payload(element: Any) -> dict:
    """The payload object the browser decodes from a graph element's bytes."""
    return message_payload(element_message(element))


def graph_message(at: AppTest) -> bytes:
    """Exactly the bytes the browser receives for the graph."""
    return element_message(graph_element(at))


def graph_payload(at: AppTest) -> dict:
    """The payload the browser decodes from the graph's bytes."""
    return element_payload(graph_element(at))


def browser_click(at: AppTest, node_id: str | None) -> None:
    """Run the script as after a click on ``node_id`` (``None``: on empty space).

    Uses AppTest's private ``_tree``/``_run``: AppTest has no public way to set a custom
    component's state.
    """
    states = at._tree.get_widget_states()
    widget = states.widgets.add()
    widget.id = graph_element(at).proto.id
    widget.json_value = json.dumps({"selected": node_id})
    at._run(WidgetStates(widgets=states.widgets))


def run_page(page: str | None = None, prepare: Callable[[AppTest], None] | None = None, /,
             **state: Any) -> AppTest:
    """Run the app (``pages/<page>`` if given, with ``app.py`` as the entry point so
    links resolve) with ``state`` preset in the session and ``prepare`` (e.g. secrets, a
    signed-in user) applied first; fails on an exception."""
    from conftest import ROOT

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    if prepare is not None:
        prepare(at)
    for key, value in state.items():
        at.session_state[key] = value
    if page is not None:
        at.switch_page(f"pages/{page}")
    at.run()
    assert not at.exception, at.exception
    assert_no_page_failure(at)
    return at


def assert_no_page_failure(at: AppTest) -> None:
    """The router's safety net did not fire (it turns a bug into one sentence on screen,
    which ``at.exception`` would not show)."""
    from components.state.context import PAGE_FAILED

    assert not [e.value for e in at.error if e.value == PAGE_FAILED], "a page failed"


def open_fold(at: AppTest, label: str) -> None:
    """Open the folded section (``components.widgets.folds``) labelled ``label``, as a
    click on its header does: its state becomes open and the app runs again, now drawing
    what is inside. It must be there, closed, before."""
    from components.sections.ask import ADD_OPEN
    from components.sections.overview import DATA_ISSUES_OPEN
    from components.sections.semantic_forget import SEMANTIC_FORGET_OPEN, TITLE

    state = {"Add a memory": ADD_OPEN, TITLE: SEMANTIC_FORGET_OPEN}.get(label)
    if state is None and label.startswith("Data issues"):
        state = DATA_ISSUES_OPEN
    assert state is not None, f"no fold labelled {label!r}"
    assert [e for e in at.expander if e.label == label], f"no {label!r} on the page"
    at.session_state[state.name] = True
    at.run()
    assert not at.exception, at.exception
