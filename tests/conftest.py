"""Shared test helpers: fixture paths and a fixed ``now``."""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit_server import StreamlitServer

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SM = FIXTURES / "supermemory"
SP = FIXTURES / "spomory"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
#: Ask's deep meaning model is off for the suite (every store opened would otherwise start
#: its background build, and ranking tests stay on the fast model); the tests of the deep
#: path switch it on themselves (tests/test_deep_*.py)
os.environ.setdefault("MEMSCOPE_DEEP_MEANING", "0")


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (``make test`` runs ``-n 2``) every worker must collect the same
    test ids, and some ids are built from sets, whose order follows the string hash: the
    controller picks one random ``PYTHONHASHSEED`` for the run before its workers start
    (they inherit it), so the order stays random from run to run but equal across them."""
    if not hasattr(config, "workerinput"):
        os.environ.setdefault("PYTHONHASHSEED", str(secrets.randbelow(4_294_967_295) + 1))


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Close the Chromium the browser tests of this process shared, if they ran."""
    support = sys.modules.get("browser_support")
    if support is not None:
        support.close_shared()


def pytest_report_header(config: pytest.Config) -> str:
    """The hash seed of the run's workers, to repeat a run's set orders."""
    return f"PYTHONHASHSEED for the workers: {os.environ.get('PYTHONHASHSEED', 'random')}"


@pytest.fixture
def feed_paths() -> list[Path]:
    """The three Supermemory feed pages, newest first, as the API sends them."""
    return [SM / f"documents_page{i}.json" for i in (1, 2, 3)]


@pytest.fixture
def fresh_data_dir(tmp_path, monkeypatch) -> Path:
    """An empty data folder for the app: its embedded store is seeded on first run."""
    monkeypatch.setenv("MEMSCOPE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    """A data folder with the seeded demo store, one per test module (browser tests)."""
    from memscope.demo.seeding import seed_if_missing
    from memscope.settings import STORE_FILE

    folder = tmp_path_factory.mktemp("data")
    seed_if_missing(folder / STORE_FILE)
    return folder


@pytest.fixture(scope="module")
def server(data_dir: Path) -> Iterator[StreamlitServer]:
    """``python serve.py`` on ``data_dir``, one per test module (browser tests)."""
    from browser_support import app_server

    with app_server(data_dir) as srv:
        yield srv


@pytest.fixture(scope="module")
def graph_demo() -> Iterator[StreamlitServer]:
    """The graph component's demo app (``components/graph_view/demo_app.py``, the test
    fixtures drawn) served by ``streamlit run``, one per test module (browser tests)."""
    from streamlit_server import free_port, start_streamlit

    srv = start_streamlit("components/graph_view/demo_app.py", free_port())
    yield srv
    srv.stop()


#: how long a test waits for a deep build (a slow CI machine embeds the demo in minutes)
DEEP_WAIT_S = 300.0


@pytest.fixture
def deep_on(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Ask's deep meaning model switched on, with the test's builds and failures forgotten
    after (its build threads joined)."""
    import threading

    from memscope.meaning import deep
    from memscope.store import vectors

    monkeypatch.setenv(deep.SWITCH_ENV, "1")
    for name in ("_deep_held", "_deep_builds", "_deep_failed"):
        monkeypatch.setattr(vectors, name, type(getattr(vectors, name))())
    monkeypatch.setattr(vectors, "_deep_unavailable", [])
    yield
    for thread in [t for t in threading.enumerate() if t.name == "memscope-deep"]:
        thread.join(DEEP_WAIT_S)
