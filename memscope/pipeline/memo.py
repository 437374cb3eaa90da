"""The pipeline's memo: per-step LRUs, one computation per key, call counts.

Each step keeps its ``keep`` most recently used results. Threads asking for the same key
at once compute it once: the first computes, the others wait for it (a lock per key,
dropped once the result is in). ``calls[step]`` counts computations — what the
invalidation tests compare. :meth:`Memo.evict` drops what was derived from a load's
older revisions (content-addressed entries, keyed by digest, stay).

>>> m = Memo()
>>> m.get("double", (2,), 4, lambda: 4), m.get("double", (2,), 4, lambda: 5)
(4, 4)
>>> m.calls["double"]
1
"""

from __future__ import annotations

import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from memscope.pipeline.loads import LoadRef

T = TypeVar("T")


def _mentions(key: Any, load_key: tuple, keep_revision: int | None) -> bool:
    """True when ``key`` (nested tuples) names a revision of ``load_key`` other than
    ``keep_revision``."""
    if isinstance(key, LoadRef):
        return key.key == load_key and key.revision != keep_revision
    if isinstance(key, tuple):
        return any(_mentions(part, load_key, keep_revision) for part in key)
    return False


class Memo:
    """Per-step LRU caches with a lock per key and a call counter."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lru: dict[str, OrderedDict[Hashable, Any]] = {}
        self._pending: dict[tuple[str, Hashable], threading.Lock] = {}
        self.calls: Counter[str] = Counter()

    def has(self, step: str, key: Hashable) -> bool:
        """True when ``step``'s result for ``key`` is kept."""
        with self._lock:
            return key in self._lru.get(step, {})

    def get(self, step: str, key: Hashable, keep: int, compute: Callable[[], T]) -> T:
        """``step``'s result for ``key``: kept, or computed now (once, whoever asks)."""
        with self._lock:
            lru = self._lru.setdefault(step, OrderedDict())
            if key in lru:
                lru.move_to_end(key)
                return lru[key]
            lock = self._pending.setdefault((step, key), threading.Lock())
        with lock:
            with self._lock:
                if key in lru:
                    lru.move_to_end(key)
                    return lru[key]
            try:
                value = compute()
            except BaseException:
                with self._lock:
                    self._pending.pop((step, key), None)
                raise
            with self._lock:
                self.calls[step] += 1
                lru[key] = value
                while len(lru) > keep:
                    lru.popitem(last=False)
                self._pending.pop((step, key), None)
            return value

    def evict(self, load_key: tuple, keep_revision: int | None = None) -> int:
        """Drop every result derived from ``load_key`` (but its ``keep_revision``);
        returns how many were dropped."""
        dropped = 0
        with self._lock:
            for lru in self._lru.values():
                for key in [k for k in lru if _mentions(k, load_key, keep_revision)]:
                    del lru[key]
                    dropped += 1
        return dropped

    def clear(self) -> None:
        """Drop everything (the counters too)."""
        with self._lock:
            self._lru.clear()
            self.calls.clear()


__all__ = ["Memo"]
