"""Shared test helpers: fixture paths and a fixed ``now``."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
SM = FIXTURES / "supermemory"
SP = FIXTURES / "spomory"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture
def feed_paths() -> list[Path]:
    """The three Supermemory feed pages, newest first, as the API sends them."""
    return [SM / f"documents_page{i}.json" for i in (1, 2, 3)]


@pytest.fixture
def fresh_data_dir(tmp_path, monkeypatch) -> Path:
    """An empty data folder for the app: its embedded store is seeded on first run."""
    monkeypatch.setenv("MEMSCOPE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"
