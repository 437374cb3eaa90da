"""Loading and caching, shared between sessions of the same source and credential.

Loads are cached per ``source.cache_key()`` (kind, location, credential *fingerprint*,
scope) plus the source's data version; analyses per (that key, revision, state epoch). A
credential itself never appears in a key. Cached objects are shared: never mutate them
outside :func:`touch`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

import streamlit as st

from components.widgets.loading import LoadScreen
from memscope import kept
from memscope.demo.seeding import seed_if_missing
from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.asof import Comparison, as_of, compare
from memscope.lenses.presenter import mask
from memscope.lenses.redact import dataset_texts
from memscope.records.time import day_end
from memscope.settings import store_path
from memscope.sources import LoadResult, Source
from memscope.storage import Storage, configured_url, open_storage
from memscope.view.derived import digest_of

LOAD_TTL_S = 15 * 60
log = logging.getLogger("memscope")
_lock = threading.Lock()


@dataclass
class Entry:
    load: LoadResult
    revision: int
    at: float
    #: the analysis (at no particular time) when the load came with one: read back from
    #: disk (:mod:`memscope.kept`) or made while loading a large store
    base: Analysis | None = None
    #: the content digest (:func:`memscope.view.derived.digest_of`) when known
    digest: str | None = None


_loads: dict[tuple, Entry] = {}
#: revision to continue from after a dropped load, so caches keyed by revision never
#: serve the old data for a key whose data version the source cannot tell
_dropped: dict[tuple, int] = {}
_key_locks: dict[tuple, threading.Lock] = {}


@st.cache_resource(show_spinner=False)
def ensure_demo_store(path: str) -> bool:
    """Seed the embedded store once per path and process; True when it seeded."""
    return seed_if_missing(Path(path))


@st.cache_resource(show_spinner=False)
def ledger_store(path: str) -> Storage:
    """The ledger and layout cache: PostgreSQL when ``[storage] url`` (secrets) or
    ``MEMSCOPE_STORAGE_URL`` names one, else the embedded store's file at ``path``; one
    object per process. Migrates the database; raises
    :class:`~memscope.storage.StorageTooNew` (a database newer than this Memscope) or
    :class:`~memscope.storage.StorageError` (unreachable), each one sentence without the
    URL's password. The URL is read here, never passed as (or hashed into) a cache key."""
    try:
        table = st.secrets.get("storage")
    except (FileNotFoundError, KeyError, AttributeError):
        table = None
    secrets = {"storage": table} if isinstance(table, Mapping) else {}
    return open_storage(configured_url(secrets), sqlite_path=Path(path))


def layout_cache() -> Storage:
    """The shared layout cache (the ledger's storage): ``get_layout(key)`` /
    ``put_layout(key, positions)`` with ``key = layout_key(source.identity(),
    digest, "seed=7")`` from :mod:`memscope.storage` (``digest``: :func:`digest_of_load`)."""
    return ledger_store(str(store_path()))


def load_key(source: Source) -> tuple:
    """The cache key of a source's current data (no credential in it)."""
    return (*source.cache_key(), source.data_version() or "")


def cached_load(source: Source) -> tuple[tuple, Entry] | None:
    """The shared load of ``source`` if one is fresh."""
    key = load_key(source)
    with _lock:
        entry = _loads.get(key)
    if entry is None or time.monotonic() - entry.at > LOAD_TTL_S:
        return None
    return key, entry


def load(source: Source, *, refresh: bool = False, show_progress: bool = True
         ) -> tuple[tuple, Entry]:
    """The source's data, from the shared cache or loaded now (with progress on screen).

    Raises the source's :class:`~memscope.sources.SourceError` on failure.
    """
    hit = None if refresh else cached_load(source)
    if hit is not None:
        return hit
    with _load_lock(load_key(source)):  # sessions arriving together load once
        hit = None if refresh else cached_load(source)
        if hit is not None:
            return hit
        return _load_now(source, show_progress)


def _load_lock(key: tuple) -> threading.Lock:
    with _lock:
        return _key_locks.setdefault(key, threading.Lock())


def _load_now(source: Source, show_progress: bool) -> tuple[tuple, Entry]:
    key = load_key(source)
    t0 = time.perf_counter()
    found = kept.read(source)  # this exact data, kept on disk by an earlier run or `warm`
    if found is not None:
        result, base, digest = found.load, found.analysis, found.digest
    else:
        result, base, digest = _fetch(source, key, show_progress), None, None
        if len(result.dataset.memories) >= kept.MIN_MEMORIES:
            with kept.no_gc():  # analysed now, so it is frozen with the load (below)
                base = analyse(result.dataset)
            if kept.key_of(source) is not None:
                _keep_later(source, result, base)
    with _lock:
        old = _loads.get(key)
        revision = (old.revision + 1) if old else _dropped.pop(key, 0)
        entry = Entry(result, revision, time.monotonic(), base, digest)
        for stale in [k for k in _loads if k[:-1] == key[:-1] and k != key]:
            del _loads[stale]  # the same source's older data version: never served again
        _loads[key] = entry
    if len(result.dataset.memories) >= kept.MIN_MEMORIES:
        kept.settle_heap()  # later collections skip this load (and an old one is freed)
    log.info("%s %s: %d memories in %.2f s", "read back" if found else "loaded",
             source.kind, len(result.dataset.memories), time.perf_counter() - t0)
    return key, entry


def _fetch(source: Source, key: tuple, show_progress: bool) -> LoadResult:
    """Load from the source itself (with progress on screen for a service)."""
    if not source.calls_service:  # parsing a local store: faster without gc passes
        with kept.no_gc():
            return source.load(refresh=True)
    if not show_progress:
        return source.load(refresh=True)
    screen = LoadScreen(source.label, key)
    try:
        result = source.load(screen.report, refresh=True)
    except Exception:
        screen.failed()
        raise
    screen.done(result.summary())
    return result


def _keep_later(source: Source, result: LoadResult, base: Analysis) -> None:
    """Write the load and its analysis to disk in the background, so the next server
    starts warm; a failure only costs that (it is logged, never shown)."""
    def work() -> None:
        try:
            kept.keep(source, result, base)
        except OSError as exc:
            log.warning("Could not keep the load on disk: %s", exc.strerror or exc)
        except Exception:  # e.g. the load changed in place meanwhile: not kept, logged
            log.exception("Could not keep the load on disk")

    threading.Thread(target=work, name="memscope-keep", daemon=True).start()


def touch(key: tuple, result: LoadResult | None = None) -> None:
    """Mark a shared load as changed in place (after a forget or a history fetch)."""
    with _lock:
        old = _loads.get(key)
        if old is not None:
            _loads[key] = Entry(result or old.load, old.revision + 1, old.at)


def is_stale(key: tuple, revision: int) -> bool:
    """True when the shared load under ``key`` changed (or was dropped) since ``revision``
    was read: a part of the page rerunning on its own must rerun the whole app instead."""
    with _lock:
        entry = _loads.get(key)
    return entry is None or entry.revision != revision


def forget_cached(key: tuple) -> None:
    """Drop a shared load (the refresh button)."""
    with _lock:
        old = _loads.pop(key, None)
        if old is not None:
            _dropped[key] = old.revision + 1


@st.cache_resource(show_spinner=False, max_entries=8)
def _base(key: tuple, revision: int, _entry: Entry) -> Analysis:
    # ``key`` holds the credential fingerprint, so the unhashed ``_entry`` cannot leak
    # between users of different keys. Graph and chains do not depend on the time.
    if _entry.base is not None:
        return _entry.base
    with kept.no_gc():
        return analyse(_entry.load.dataset)


@st.cache_resource(show_spinner=False, max_entries=16)
def _at_epoch(key: tuple, revision: int, epoch: int, _entry: Entry) -> Analysis:
    return _base(key, revision, _entry).at(datetime.now(UTC))


def epoch_of(key: tuple, entry: Entry) -> int:
    """The state epoch now: it changes only when some memory's state changes."""
    return _base(key, entry.revision, entry).epoch(datetime.now(UTC))


def analysis_of(key: tuple, entry: Entry) -> Analysis:
    """The analysis of a load as it stands now; shared and read-only.

    Rebuilt only when the data changes (revision) or a state changes (epoch), not as
    the clock moves.
    """
    return _at_epoch(key, entry.revision, epoch_of(key, entry), entry)


@st.cache_resource(show_spinner=False, max_entries=8)
def _digest(key: tuple, revision: int, _entry: Entry) -> str:
    return _entry.digest or digest_of(_base(key, revision, _entry))


def digest_of_load(key: tuple, entry: Entry) -> str:
    """The content digest of a load (:func:`memscope.view.derived.digest_of`): the name
    of its layout, clusters and names wherever they are kept."""
    return _digest(key, entry.revision, entry)


@st.cache_resource(show_spinner=False, max_entries=4)
def _derived(key: tuple, revision: int, epoch: int, when: date | None, presenter: bool,
             _result: LoadResult) -> Analysis:
    ds = _result.dataset
    if when is not None:
        now = day_end(when)
        ds = as_of(ds, now)
    else:
        now = datetime.now(UTC)
    if presenter:
        ds = mask(ds)
    return analyse(ds, now)


def derived_analysis(key: tuple, entry: Entry, when: date | None, presenter: bool
                     ) -> Analysis:
    """The analysis as of ``when`` (end of that day) and/or masked; shared, read-only."""
    epoch = epoch_of(key, entry) if when is None else -1  # a past day never moves
    return _derived(key, entry.revision, epoch, when, presenter, entry.load)


@st.cache_resource(show_spinner=False, max_entries=8)
def _comparison(key: tuple, revision: int, since: date, until: date | None,
                _result: LoadResult) -> Comparison | None:
    t2 = day_end(until) if until is not None else datetime.now(UTC)
    t1 = day_end(since)
    if t1 >= t2:
        return None
    return compare(_result.dataset, t1, t2)


def comparison_of(key: tuple, entry: Entry, since: date, until: date | None
                  ) -> Comparison | None:
    """What changed between the end of ``since`` and ``until`` (or now); ``None`` when
    the order is wrong."""
    return _comparison(key, entry.revision, since, until, entry.load)


@st.cache_resource(show_spinner=False, max_entries=8)
def _texts(key: tuple, revision: int, _result: LoadResult) -> tuple[str, ...]:
    return dataset_texts(_result.dataset)


def texts_of(key: tuple, entry: Entry) -> tuple[str, ...]:
    """Every text of the load presenter mode hides (for redacting the app's sentences)."""
    return _texts(key, entry.revision, entry.load)
