"""Where Memscope keeps its files, and first-run seeding of the embedded demo store."""

from __future__ import annotations

import os
import threading
from pathlib import Path

DATA_DIR_ENV = "MEMSCOPE_DATA_DIR"
STORE_FILE = "memscope.db"
_seed_lock = threading.Lock()


def data_dir(explicit: str | Path | None = None) -> Path:
    """The data folder: ``explicit``, else ``$MEMSCOPE_DATA_DIR``, else ``./data``."""
    chosen = explicit or os.environ.get(DATA_DIR_ENV) or "data"
    return Path(chosen).expanduser()


def store_path(explicit_dir: str | Path | None = None) -> Path:
    """The embedded store's SQLite file inside the data folder."""
    return data_dir(explicit_dir) / STORE_FILE


def seed_if_missing(path: Path, *, seed: int = 7) -> bool:
    """Create and seed the demo store at ``path`` unless it already holds data.

    Returns True when it seeded. Safe to call from several threads at once.
    """
    from memscope.demo import seed_store
    from memscope.store import Store

    with _seed_lock:
        path.parent.mkdir(parents=True, exist_ok=True)
        store = Store(path)
        store.init()
        if not store.is_empty():
            return False
        seed_store(store, seed=seed)
        return True
