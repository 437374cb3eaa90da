"""Seeding the embedded store with the demo dataset (first run, ``memscope seed``)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from pathlib import Path

from memscope.demo.generator import DemoDataset, generate, generate_planted
from memscope.store.store import Store

_seed_lock = threading.Lock()


def seed_store(store: Store, *, seed: int = 7, now: datetime | None = None,
               n_documents: int = 72, n_memories: int = 360,
               planted: bool = False) -> DemoDataset:
    """Generate the demo (``now`` defaults to the current time) and load it into ``store``
    (``planted``: with the semantic audit's planted cases, as the app's demo store has)."""
    make = generate_planted if planted else generate
    data = make(seed, now=now or datetime.now(UTC), n_documents=n_documents,
                n_memories=n_memories)
    store.seed(data)
    return data


def main_seed(path: str | Path, *, seed: int = 7, now: datetime | None = None) -> bool:
    """Create the embedded store at ``path`` and seed it if it is empty.

    Returns True when it seeded, False when the store already held data (kept as is).
    """
    store = Store.create(path)
    if not store.is_empty():
        return False
    seed_store(store, seed=seed, now=now, planted=True)
    return True


def seed_if_missing(path: Path, *, seed: int = 7) -> bool:
    """Create and seed the demo store at ``path`` unless it already holds data.

    Returns True when it seeded. Safe to call from several threads at once.
    """
    with _seed_lock:
        path.parent.mkdir(parents=True, exist_ok=True)
        store = Store(path)
        store.init()
        if not store.is_empty():
            return False
        seed_store(store, seed=seed, planted=True)
        return True
