"""Sign-in (Streamlit's OIDC support) under AppTest: with ``[auth]`` configured nothing but
the sign-in page shows until someone is signed in; a viewer sees the graph but gets no
destructive or adding button; an editor does. Without ``[auth]`` there is no sign-in."""

from __future__ import annotations

from typing import Any

from apptest_support import run_page
from streamlit.testing.v1 import AppTest

from components.graph_view import COMPONENT_NAME
from components.widgets.safe import md_escape
from memscope.graph.analysis import analyse
from memscope.settings import store_path
from memscope.sources.embedded import EmbeddedSource

AUTH = {"redirect_uri": "http://127.0.0.1:9/oauth2callback", "cookie_secret": "not-a-secret",
        "client_id": "memscope", "client_secret": "not-a-secret",
        "server_metadata_url": "http://127.0.0.1:9/.well-known/openid-configuration"}
ROLES = {"roles": {"viewers": ["viewer@example.com"]}}


def app(user: dict[str, Any], page: str | None = None, *, auth: bool = True,
        **state: Any) -> AppTest:
    def sign_in(at: AppTest) -> None:
        if auth:
            at.secrets["auth"] = AUTH
            at.secrets["memscope"] = ROLES
        at.user = user

    return run_page(page, sign_in, **state)


def graph_drawn(at: AppTest) -> bool:
    return any(e.proto.component_name == COMPONENT_NAME for e in at.get("bidi_component"))


def a_memory() -> str:
    an = analyse(EmbeddedSource(store_path()).load().dataset)
    return next(m for m, rec in an.dataset.memories.items() if not rec.is_forgotten)


def test_nobody_signed_in_sees_only_the_sign_in_page(fresh_data_dir):
    at = app({"is_logged_in": False})
    assert [b.label for b in at.button] == ["Sign in"]
    assert not graph_drawn(at)
    assert not at.get("page_link") and not at.dataframe and not at.markdown[1:]
    assert not store_path().exists()  # not even the store was opened


def test_a_viewer_sees_the_graph_but_no_destructive_button(fresh_data_dir):
    app({"is_logged_in": True, "email": "editor@example.com"})  # seeds the store
    node = a_memory()
    viewer = {"is_logged_in": True, "email": "viewer@example.com"}
    at = app(viewer, selected_node=node)
    assert graph_drawn(at)
    assert any(md_escape("viewer@example.com") + " (viewer)" in c.value
               for c in at.sidebar.caption)
    assert not [b for b in at.button if (b.key or "").startswith(("forget-", "restore-"))]
    assert not [e for e in at.expander if "Add a memory" in e.label]
    forget_all = app(viewer, "forget_all.py")
    assert any("viewer" in i.value for i in forget_all.info)
    assert not [b for b in forget_all.button if b.key == "forget_all_preview"]


def test_an_editor_gets_the_buttons(fresh_data_dir):
    editor = {"is_logged_in": True, "email": "editor@example.com"}
    app(editor)
    node = a_memory()
    at = app(editor, selected_node=node)
    assert at.button(key=f"forget-{node}")
    assert any(md_escape("editor@example.com") in c.value for c in at.sidebar.caption)
    assert [b for b in at.button if b.label == "Sign out"]


def test_without_auth_there_is_no_sign_in(fresh_data_dir):
    at = app({}, auth=False)
    assert graph_drawn(at)
    assert not [b for b in at.button if b.label in ("Sign in", "Sign out")]


def test_the_action_itself_refuses_a_viewer(tmp_path):
    """Not only the button: the action path refuses, sends nothing and writes nothing."""
    import pytest

    from memscope.demo.seeding import seed_store
    from memscope.sources import actions
    from memscope.sources.actions import ViewerRefused
    from memscope.store.store import Store

    store = Store.create(tmp_path / "memscope.db")
    seed_store(store, seed=3)
    source = EmbeddedSource(tmp_path / "memscope.db")
    memory = next(m for m, rec in source.load().dataset.memories.items()
                  if not rec.is_forgotten)
    rows_before = len(store.ledger())
    with pytest.raises(ViewerRefused, match="may view"):
        actions.forget(source, store, memory, reason=None, container_tag=None,
                       snapshot=None, actor="viewer@example.com", viewer=True)
    found = store.get_memory(memory)
    assert found is not None and found["isForgotten"] is False
    assert len(store.ledger()) == rows_before
    done = actions.forget(source, store, memory, reason="wrong", container_tag=None,
                          snapshot=None, actor="editor@example.com")
    assert done.ok
    assert [r.actor for r in store.ledger() if r.target_id == memory] == ["editor@example.com"]


def test_with_sign_in_no_one_types_a_server_path_to_a_graphiti_file(fresh_data_dir):
    """A Kuzu file is a path on the server: signed-in users are offered only the server
    backends (a typed path could name another user's file)."""
    editor = {"is_logged_in": True, "email": "editor@example.com"}
    at = app(editor, "connection.py")
    at.radio(key="conn_kind").set_value("graphiti").run()
    assert not at.exception
    assert at.radio(key="conn_backend").options == ["Neo4j", "FalkorDB"]
    assert at.radio(key="conn_backend").value == "neo4j"
    assert any("never from a typed path" in c.value for c in at.caption)
    local = app({}, "connection.py", auth=False)
    local.radio(key="conn_kind").set_value("graphiti").run()
    assert local.radio(key="conn_backend").options == ["Kuzu file", "Neo4j", "FalkorDB"]
