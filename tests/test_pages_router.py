"""``pages/`` is the pages folder, and the router still draws every page under AppTest.

With a ``pages/`` folder beside ``app.py``, Streamlit's old multipage mode runs a page's
script on its own in a run that has not called ``st.navigation`` (AppTest: every run after
the first; a server: its first run). Each page's ``nav.through_router()`` then runs the
router, so every run shows the router's sidebar, and a page asked for by its file name
before sign-in shows the sign-in page only."""

from __future__ import annotations

from apptest_support import assert_no_page_failure
from conftest import ROOT
from streamlit.testing.v1 import AppTest
from test_sign_in import AUTH, ROLES

from memscope.settings import store_path


def new_app() -> AppTest:
    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)


def routed(at: AppTest) -> AppTest:
    """The run went through the router: no exception, no page failure, and the shared
    sidebar (drawn by the router, never by a page) is there."""
    assert not at.exception, at.exception
    assert_no_page_failure(at)
    assert at.sidebar.button(key="refresh_data"), "the router did not draw the sidebar"
    return at


def titles(at: AppTest) -> list[str]:
    return [t.value for t in at.title]


def test_every_run_goes_through_the_router(fresh_data_dir):
    at = new_app()
    routed(at.run())
    for _ in range(3):
        routed(at.run())
    routed(at.sidebar.button(key="refresh_data").click().run())
    routed(at.switch_page("pages/ledger.py").run())
    assert titles(at) == ["Ledger"]
    routed(at.run())
    assert titles(at) == ["Ledger"]
    routed(at.switch_page("pages/explorer.py").run())
    assert "Ledger" not in titles(at)


def test_a_page_asked_for_on_the_first_run_is_drawn_by_the_router(fresh_data_dir):
    at = new_app().switch_page("pages/profile.py")
    routed(at.run())
    assert titles(at) == ["Profile"]


def test_before_sign_in_a_page_by_its_file_name_shows_the_sign_in_page_only(fresh_data_dir):
    at = new_app()
    at.secrets["auth"] = AUTH
    at.secrets["memscope"] = ROLES
    at.user = {"is_logged_in": False}
    at.switch_page("pages/forget_all.py").run()
    assert not at.exception, at.exception
    for _ in range(2):
        assert [b.label for b in at.button] == ["Sign in"]
        assert titles(at) == ["Memscope"] and not list(at.sidebar)[1:]
        at.run()
    assert not store_path().exists()  # the store was never opened
