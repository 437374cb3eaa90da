"""Where Memscope keeps its files (the data folder and the embedded store's path)."""

from __future__ import annotations

import os
from pathlib import Path

DATA_DIR_ENV = "MEMSCOPE_DATA_DIR"
STORE_FILE = "memscope.db"


def data_dir(explicit: str | Path | None = None) -> Path:
    """The data folder: ``explicit``, else ``$MEMSCOPE_DATA_DIR``, else ``./data``."""
    chosen = explicit or os.environ.get(DATA_DIR_ENV) or "data"
    return Path(chosen).expanduser()


def store_path(explicit_dir: str | Path | None = None) -> Path:
    """The embedded store's SQLite file inside the data folder."""
    return data_dir(explicit_dir) / STORE_FILE
