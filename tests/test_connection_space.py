"""The Connection page's space under AppTest, against the real sandbox over loopback: a
space typed on the form is the connection's space (both Supermemory dialects) — the load
and an Add go to it — the picker then shows it, and a later choice in the picker replaces
it (a later Connect keeps that choice)."""

from __future__ import annotations

import pytest
from apptest_support import open_fold, run_page
from sandbox_fixture import running_sandbox
from streamlit.testing.v1 import AppTest

from memscope.sandbox import Sandbox

PERSONAL = "sm_project_personal"
WORK = "acme_work"
DIALECTS = ["v5", "legacy"]


def connect(at: AppTest, sandbox: Sandbox, dialect: str, space: str) -> None:
    """Fill the form in as a person does (Supermemory, ``dialect``, the key, a typed
    ``space``) and press Connect."""
    at.radio(key="conn_kind").set_value("supermemory").run()  # redraws the fields
    at.radio(key="conn_dialect").set_value(dialect)
    at.text_input(key="conn_base_url").input(sandbox.url)
    next(t for t in at.text_input if t.label == "API key").input(sandbox.supermemory_key)
    at.text_input(key="conn_space").input(space)
    press_connect(at)


def press_connect(at: AppTest) -> None:
    next(b for b in at.button if b.label == "Connect").click()
    at.run()
    assert not at.exception, at.exception


def space_of(at: AppTest) -> str | None:
    return at.session_state["connection"].space


def picker(at: AppTest):
    return at.selectbox(key="space_pick")


def spaces_asked(sandbox: Sandbox, dialect: str) -> set[str | None]:
    """The spaces the loads asked the service for (``None``: every space)."""
    if dialect == "v5":  # namespace-scoped routes; ``GET /ns`` lists the namespaces
        return {r.path.split("/")[2] for r in sandbox.requests
                if r.path.startswith("/ns/") and "/list/" in r.path}
    feeds = sandbox.requests_to("/v3/documents/documents", "POST")
    return {tag for r in feeds for tag in (r.body.get("containerTags") or [None])}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_typed_space_is_the_connections_and_an_add_goes_to_it(fresh_data_dir, tmp_path,
                                                                dialect):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        at = run_page("connection.py")
        assert picker(at).value == ""  # the embedded store: all spaces
        connect(at, sandbox, dialect, PERSONAL)
        assert space_of(at) == PERSONAL
        assert picker(at).value == PERSONAL  # the picker shows the typed space
        assert at.text_input(key="conn_space").value == PERSONAL
        assert PERSONAL in " ".join(c.value for c in at.sidebar.caption).replace("\\", "")
        assert spaces_asked(sandbox, dialect) == {PERSONAL}
        at.switch_page("pages/explorer.py").run()
        assert not at.exception, at.exception
        text = "Maya keeps her running shoes by the door."
        open_fold(at, "Add a memory")
        at.text_area(key="add_text").input(text)
        next(b for b in at.button if b.label == "Add…").click().run()
        next(b for b in at.button if b.label == "Confirm add").click().run()
        assert not at.exception, at.exception
        if dialect == "v5":
            [post] = sandbox.requests_to(f"/ns/{PERSONAL}/document", "POST")
        else:
            [post] = sandbox.requests_to("/v3/documents", "POST")
            assert post.body["containerTag"] == PERSONAL
        assert post.body["content"] == text
        assert space_of(at) == PERSONAL


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_later_choice_in_the_picker_replaces_the_typed_space(fresh_data_dir, tmp_path,
                                                               dialect):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        at = run_page("connection.py")
        connect(at, sandbox, dialect, PERSONAL)
        # listed, by its name when the service names it ("Acme Work · acme_work")
        assert WORK in [o.split(" (")[0].split(" · ")[-1] for o in picker(at).options]
        picker(at).set_value(WORK).run()
        assert not at.exception, at.exception
        assert space_of(at) == WORK
        assert picker(at).value == WORK
        assert at.text_input(key="conn_space").value == WORK  # the form follows the pick
        press_connect(at)  # Connect again (the key kept): the later choice still holds
        assert space_of(at) == WORK and picker(at).value == WORK
        assert at.session_state["connection"].dialect == dialect
        picker(at).set_value("").run()  # "All spaces"
        assert not at.exception, at.exception
        assert space_of(at) is None
        assert at.text_input(key="conn_space").value == ""


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_typed_space_the_service_does_not_list_is_kept_and_shown(fresh_data_dir,
                                                                  tmp_path, dialect):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        at = run_page("connection.py")
        connect(at, sandbox, dialect, "brand_new_space")
        assert space_of(at) == "brand_new_space"
        assert picker(at).value == "brand_new_space"
        at.run()  # and it stays on the next run
        assert space_of(at) == "brand_new_space"
