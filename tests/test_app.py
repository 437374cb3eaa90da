"""The app on a fresh data directory: AppTest runs the real script against real SQLite."""

from __future__ import annotations

import pytest
from conftest import ROOT
from streamlit.testing.v1 import AppTest

from memscope.analysis import analyse
from memscope.settings import store_path
from memscope.sources.embedded import EmbeddedSource


@pytest.fixture
def fresh_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMSCOPE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_home_seeds_the_store_and_shows_counts(fresh_data_dir):
    assert not store_path().exists()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    assert not at.exception, at.exception
    assert store_path().exists()  # seeded on first run
    expected = analyse(EmbeddedSource(store_path()).load().dataset).counts()
    metrics = {m.label: m.value for m in at.metric}
    assert metrics == {
        "Documents": str(expected["documents"]),
        "Memories": str(expected["memories"]),
        "Version chains": str(expected["chains"]),
        "Integrity findings": str(expected["findings"]),
    }
    assert expected["memories"] >= 300 and expected["chains"] > 0
    table = at.dataframe[0].value
    assert len(table) == expected["memories"]
    assert set(table["state"]) >= {"latest", "superseded", "forgotten", "expiring", "expired"}
