"""The registry of loads shared by every session of one process (no Streamlit here).

A load is kept per :meth:`Loads.key_of` — the source's cache key (kind, location,
credential *fingerprint*, scope; never a credential) plus its data version — and carries
a *revision* that bumps whenever it changes in place (a forget, a history fetch, a
resume). Sessions arriving together load once (one lock per key). A source that can tell
its data version (the embedded store) is read again only when that version changes; one
that cannot (a live service) is read again after ``ttl_s`` seconds. After a drop (the
refresh button) revisions continue where they left off, so nothing keyed by revision ever
serves the old data again.

>>> from memscope.sources.files import FileSource
>>> import tempfile, json, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "feed.json"
>>> _ = p.write_text(json.dumps({"documents": [{"id": "d", "memoryEntries": [
...     {"id": "m", "memory": "x"}]}]}))
>>> loads = Loads(ttl_s=60, clock=lambda: 0.0, keep=None, settle=None)
>>> ref = loads.load(FileSource([p]))
>>> ref.revision, sorted(loads.entry(ref.key).load.dataset.memories)
(0, ['m'])
>>> loads.touch(ref.key).revision
1
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

from memscope import kept
from memscope.graph.analysis import Analysis, analyse
from memscope.sources import LoadResult, Source
from memscope.view.derived import digest_of

log = logging.getLogger("memscope")

#: how long a load of a source without a data version is served before it is read again
LOAD_TTL_S = 15 * 60
Positions = dict[Hashable, tuple[float, float]]
#: loads a source (the UI's progress screen): the result and the positions it drew, if any
Fetch = Callable[[Source, tuple], tuple[LoadResult, Positions | None]]
#: writes a large load to disk (default: :func:`keep_in_background`)
Keep = Callable[[Source, LoadResult, Analysis, str], None]


class LoadGone(KeyError):
    """The revision a request names was replaced or dropped meanwhile."""


@dataclass(frozen=True)
class LoadRef:
    """Which load, and which revision of it: the part of a view request naming the data."""

    key: tuple
    revision: int


@dataclass(frozen=True)
class Entry:
    """One shared load. Never mutate what it holds: :meth:`Loads.touch` a new result."""

    load: LoadResult
    revision: int
    #: the clock reading when it was loaded (for the TTL)
    at: float
    #: the analysis (at no particular time) when the load came with one: read back from
    #: disk (:mod:`memscope.kept`) or made while loading a large store
    base: Analysis | None = None
    #: the content digest (:func:`memscope.view.derived.digest_of`) when known
    digest: str | None = None
    #: positions drawn while the load was arriving (a live source's preview)
    drawn: Positions | None = None
    #: False when the source cannot tell its data version (the TTL applies)
    versioned: bool = False
    #: the key it is held under (:meth:`Loads.key_of`)
    key: tuple = ()

    @property
    def ref(self) -> LoadRef:
        """The reference a view request holds."""
        return LoadRef(self.key, self.revision)


def keep_in_background(source: Source, result: LoadResult, base: Analysis,
                       digest: str) -> None:
    """Write the load and its analysis to disk in a daemon thread, so the next server
    starts warm; a failure only costs that (it is logged, never shown)."""
    def work() -> None:
        try:
            kept.keep(source, result, base, digest=digest)
        except OSError as exc:
            log.warning("Could not keep the load on disk: %s", exc.strerror or exc)
        except Exception:
            log.exception("Could not keep the load on disk")

    threading.Thread(target=work, name="memscope-keep", daemon=True).start()


def plain_fetch(source: Source, key: tuple) -> tuple[LoadResult, Positions | None]:
    """Load from the source itself, without progress (a local store parses faster
    without the collector's passes)."""
    if not source.calls_service:
        with kept.no_gc():
            return source.load(refresh=True), None
    return source.load(refresh=True), None


class Loads:
    """The shared loads of one process.

    ``clock`` is a monotonic clock in seconds (for the TTL); ``keep`` writes a large
    load to disk (``None``: never), ``settle`` freezes the heap after a large load
    (``None``: never), ``read`` reads a kept load back. ``on_change(key)`` is called
    after a load under ``key`` was replaced, touched or dropped (the pipeline evicts
    what it derived from the old revisions).
    """

    def __init__(self, ttl_s: float = LOAD_TTL_S, *,
                 clock: Callable[[], float] = time.monotonic,
                 keep: Keep | None = keep_in_background,
                 settle: Callable[[], None] | None = kept.settle_heap,
                 read: Callable[[Source], kept.Kept | None] = kept.read,
                 min_memories: int | None = None) -> None:
        self.ttl_s = ttl_s
        self.clock = clock
        self._keep = keep
        self._settle = settle
        self._read = read
        self._min = min_memories
        self._lock = threading.Lock()
        self._entries: dict[tuple, Entry] = {}
        self._dropped: dict[tuple, int] = {}
        self._key_locks: dict[tuple, threading.Lock] = {}
        self.on_change: list[Callable[[tuple], None]] = []

    @property
    def min_memories(self) -> int:
        """From this many memories on a load is analysed while loading and kept."""
        return kept.MIN_MEMORIES if self._min is None else self._min

    @staticmethod
    def key_of(source: Source) -> tuple:
        """The cache key of a source's current data (no credential in it)."""
        return (*source.cache_key(), source.data_version() or "")

    def keys(self) -> list[tuple]:
        """The keys of the loads held now."""
        with self._lock:
            return list(self._entries)

    def clear(self) -> None:
        """Forget every load (tests; a fresh server)."""
        with self._lock:
            self._entries.clear()
            self._dropped.clear()
            self._key_locks.clear()

    def _fresh(self, entry: Entry | None) -> bool:
        return entry is not None and (entry.versioned
                                      or self.clock() - entry.at <= self.ttl_s)

    def cached(self, source: Source) -> LoadRef | None:
        """The shared load of ``source`` if one is fresh."""
        key = self.key_of(source)
        with self._lock:
            entry = self._entries.get(key)
        return LoadRef(key, entry.revision) if entry is not None and self._fresh(entry) \
            else None

    def entry(self, key: tuple) -> Entry | None:
        """The load under ``key`` (any revision), if held."""
        with self._lock:
            return self._entries.get(key)

    def get(self, ref: LoadRef) -> Entry:
        """The load ``ref`` names; raises :class:`LoadGone` when that revision is gone."""
        entry = self.entry(ref.key)
        if entry is None or entry.revision != ref.revision:
            raise LoadGone("This load changed meanwhile.")
        return entry

    def load(self, source: Source, *, refresh: bool = False, fetch: Fetch | None = None
             ) -> LoadRef:
        """The source's data, shared or loaded now (``fetch`` shows progress). Raises
        the source's :class:`~memscope.sources.SourceError` on failure."""
        hit = None if refresh else self.cached(source)
        if hit is not None:
            return hit
        key = self.key_of(source)
        with self._lock:
            lock = self._key_locks.setdefault(key, threading.Lock())
        with lock:  # sessions arriving together load once
            hit = None if refresh else self.cached(source)
            if hit is not None:
                return hit
            return self._load_now(source, key, fetch or plain_fetch)

    def _load_now(self, source: Source, key: tuple, fetch: Fetch) -> LoadRef:
        t0 = time.perf_counter()
        found = self._read(source)  # this exact data, kept on disk earlier
        drawn: Positions | None = None
        if found is not None:
            result, base, digest = found.load, found.analysis, found.digest
        else:
            (result, drawn), base, digest = fetch(source, key), None, None
            if len(result.dataset.memories) >= self.min_memories:
                with kept.no_gc():  # analysed now, so it is frozen with the load (below)
                    base = analyse(result.dataset)
                digest = digest_of(base)  # once: the writer below gets it too
                _ = base.transitions  # computed before the writer pickles it, not during
                if self._keep is not None and kept.key_of(source) is not None:
                    self._keep(source, result, base, digest)
        versioned = bool(source.data_version())
        changed: list[tuple] = []
        with self._lock:
            old = self._entries.get(key)
            revision = (old.revision + 1) if old else self._dropped.pop(key, 0)
            self._entries[key] = Entry(result, revision, self.clock(), base, digest, drawn,
                                       versioned, key)
            for stale in [k for k in self._entries if k[:-1] == key[:-1] and k != key]:
                del self._entries[stale]  # the same source's older data version
                self._key_locks.pop(stale, None)
                changed.append(stale)
            if old is not None:
                changed.append(key)
        self._changed(changed)
        if self._settle is not None and len(result.dataset.memories) >= self.min_memories:
            self._settle()  # later collections skip this load (and an old one is freed)
        log.info("%s %s: %d memories in %.2f s", "read back" if found else "loaded",
                 source.kind, len(result.dataset.memories), time.perf_counter() - t0)
        return LoadRef(key, revision)

    def touch(self, key: tuple, result: LoadResult | None = None) -> LoadRef | None:
        """A shared load changed: ``result`` replaces it (``None``: the same load, e.g.
        after a forget the source reflects by itself); its revision bumps. The analysis
        and digest kept with the old load are dropped (they may no longer hold)."""
        with self._lock:
            old = self._entries.get(key)
            if old is None:
                return None
            entry = replace(old, load=result or old.load, revision=old.revision + 1,
                            base=None, digest=None)
            self._entries[key] = entry
        self._changed([key])
        return LoadRef(key, entry.revision)

    def is_stale(self, key: tuple, revision: int) -> bool:
        """True when the load under ``key`` changed (or was dropped) since ``revision``."""
        with self._lock:
            entry = self._entries.get(key)
        return entry is None or entry.revision != revision

    def drop(self, key: tuple) -> None:
        """Drop a shared load (the refresh button): the next load reads the source."""
        with self._lock:
            old = self._entries.pop(key, None)
            self._key_locks.pop(key, None)
            if old is not None:
                self._dropped[key] = old.revision + 1
        if old is not None:
            self._changed([key])

    def _changed(self, keys: list[tuple]) -> None:
        for key in keys:
            for hook in list(self.on_change):
                hook(key)


__all__ = ["LOAD_TTL_S", "Entry", "LoadGone", "LoadRef", "Loads", "keep_in_background",
           "plain_fetch"]
