"""Loading on screen, and the shared stores as the sections reach them.

The registry of shared loads is :class:`memscope.pipeline.loads.Loads`, held by the
application object's pipeline (:mod:`components.state.app`); this module adds what only
the UI knows — a live load's progress, on the screen its caller hands in — and thin
wrappers the sections call (:func:`load`, :func:`touch`, :func:`is_stale`,
:func:`forget_cached`). Loads are
keyed per ``source.cache_key()`` (kind, location, credential *fingerprint*, scope) plus
the data version; a credential never appears in a key. Shared objects are read-only:
:func:`touch` a new result.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol

import streamlit as st

from components.state.app import application
from memscope import kept
from memscope.demo.seeding import seed_if_missing
from memscope.pipeline.loads import LOAD_TTL_S, Entry, Loads, Positions
from memscope.sources import LoadProgress, LoadResult, Source
from memscope.storage import Storage

log = logging.getLogger("memscope")
__all__ = ["LOAD_TTL_S", "Entry", "ProgressScreen", "ScreenFactory", "cached_load",
           "ensure_demo_store", "forget_cached", "is_stale", "ledger_store", "load", "load_key",
           "loads", "touch"]


@st.cache_resource(show_spinner=False)
def ensure_demo_store(path: str) -> bool:
    """Seed the embedded store once per path and process; True when it seeded."""
    return seed_if_missing(Path(path))


def ledger_store() -> Storage:
    """The ledger and layout cache (:meth:`memscope.app.Memscope.storage`): PostgreSQL when
    ``MEMSCOPE_STORAGE_URL`` or ``[storage] url`` (secrets) names one, else the embedded
    store's file; one object per store and process. Raises
    :class:`~memscope.storage.StorageTooNew` (a database newer than this Memscope) or
    :class:`~memscope.storage.StorageError` (unreachable), each one sentence without the
    URL's password."""
    return application().storage()


def loads() -> Loads:
    """The process's shared loads."""
    return application().pipeline().loads


def load_key(source: Source) -> tuple:
    """The cache key of a source's current data (no credential in it)."""
    return Loads.key_of(source)


def cached_load(source: Source) -> tuple[tuple, Entry] | None:
    """The shared load of ``source`` if one is fresh."""
    ref = loads().cached(source)
    entry = loads().entry(ref.key) if ref is not None else None
    return (ref.key, entry) if ref is not None and entry is not None else None


class ProgressScreen(Protocol):
    """What shows one load's progress on the page (the widgets' ``LoadScreen``)."""

    positions: Positions

    def report(self, p: LoadProgress) -> None:
        """A load's progress callback."""
        ...

    def failed(self) -> None:
        """The load failed."""
        ...

    def done(self, summary: str) -> None:
        """The load finished; ``summary`` says what it read."""
        ...


#: makes the progress screen of one load from the source's label and the load's key;
#: handed in by the caller (the router), so this layer draws no widget of its own
ScreenFactory = Callable[[str, tuple], ProgressScreen]


def load(source: Source, *, refresh: bool = False, screen: ScreenFactory | None = None
         ) -> tuple[tuple, Entry]:
    """The source's data, shared or loaded now (with progress on ``screen``, when given).

    Raises the source's :class:`~memscope.sources.SourceError` on failure.
    """
    registry = loads()
    ref = registry.load(source, refresh=refresh,
                        fetch=None if screen is None else partial(_fetch, screen=screen))
    return ref.key, registry.get(ref)


def _fetch(source: Source, key: tuple, *, screen: ScreenFactory
           ) -> tuple[LoadResult, Positions | None]:
    """Load from the source itself, with progress on screen for a service; the
    positions the preview drew go with the load (the explorer keeps them)."""
    if not source.calls_service:  # parsing a local store: faster without gc passes
        with kept.no_gc():
            return source.load(refresh=True), None
    shown = screen(source.label, key)
    try:
        result = source.load(shown.report, refresh=True)
    except Exception:
        shown.failed()
        raise
    shown.done(result.summary())
    return result, (dict(shown.positions) or None)


def touch(key: tuple, result: LoadResult | None = None) -> None:
    """A shared load changed (after a forget, a history fetch, a resume): ``result``
    replaces it (``None``: the same load, its revision bumped). Never change the old
    result in place: other sessions still read it."""
    loads().touch(key, result)


def is_stale(key: tuple, revision: int) -> bool:
    """True when the shared load under ``key`` changed (or was dropped) since ``revision``
    was read: a part of the page rerunning on its own must rerun the whole app instead."""
    return loads().is_stale(key, revision)


def forget_cached(key: tuple) -> None:
    """Drop a shared load (the refresh button)."""
    loads().drop(key)


def texts_of(key: tuple, entry: Entry) -> tuple[str, ...]:
    """Every text of the load presenter mode hides (for redacting the app's sentences)."""
    return application().pipeline().texts(entry)
