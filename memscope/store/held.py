"""What one process keeps per store, by the store's id, for the few stores used last: the
store's stamp (its id and data version) and a small most-recently-used holder
(:class:`PerStore`) for the indexes Ask keeps in step with a store's data."""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


def stamp(conn: sqlite3.Connection) -> tuple[str, str]:
    """``conn``'s store id and data version (``""`` and ``"0"`` when unset)."""
    rows = dict(conn.execute(
        "SELECT key, value FROM meta WHERE key IN ('store_uid', 'data_version')").fetchall())
    return str(rows.get("store_uid") or ""), str(rows.get("data_version") or "0")


class PerStore(Generic[T]):
    """One ``T`` per store, made by ``new`` on first use; the ``hold`` stores used last are
    kept, and ``drop`` is called on one let go."""

    def __init__(self, new: Callable[[], T], *, hold: int,
                 drop: Callable[[T], None] | None = None) -> None:
        self._new, self._hold, self._drop = new, hold, drop
        self._lock = threading.Lock()
        self._items: OrderedDict[str, T] = OrderedDict()

    def get(self, conn: sqlite3.Connection) -> tuple[T, str]:
        """``conn``'s store's item and the store's data version now."""
        uid, version = stamp(conn)
        with self._lock:
            item = self._items.get(uid)
            if item is None:
                item = self._items[uid] = self._new()
            self._items.move_to_end(uid)
            while len(self._items) > self._hold:
                gone = self._items.popitem(last=False)[1]
                if self._drop is not None:
                    self._drop(gone)
        return item, version


__all__ = ["PerStore", "stamp"]
