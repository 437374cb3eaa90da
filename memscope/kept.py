"""A data version's load and analysis, kept on disk so a restart starts warm.

Reading 50,000 memories from the embedded store and checking every record at the edge
takes seconds; building the graph and chains most of another. Neither depends on
anything but the data and this code, so :func:`keep` writes both (with the content
digest of :mod:`memscope.view.derived`) to ``<data folder>/derived/load-<key>.pickle``
and :func:`read` gives them back in a fraction of the time. ``python -m memscope warm``
and the app's first load of a large store write it; the app reads it before loading.

The key (:func:`key_of`) names the store's own id and data version, its scope, a
fingerprint of the code that parses and analyses (so an upgrade never unpickles objects
of an older shape) and the derived data's format and layout seed (which the kept digest
stands for). Only the embedded store is kept: a live service must be asked for
its data anyway (its layout and clusters are shared through :mod:`memscope.storage`).

A pickle runs code when it is read, so a file is read only when an HMAC-SHA256 made with
this data folder's own random key (``derived/.kept-key``, mode 0600, created on first
write) matches it: a file copied from elsewhere, altered or truncated is ignored and
rewritten. Anyone who can write that key can also change the code beside it; the key
keeps out files that were not written here.

>>> import tempfile
>>> from memscope.store.store import Store
>>> from memscope.sources.embedded import EmbeddedSource
>>> folder = Path(tempfile.mkdtemp())
>>> store = Store.create(folder / "memscope.db")
>>> _ = store.add_document("Maya flies to Lisbon on Friday.", "work")
>>> src = EmbeddedSource(store)
>>> read(src) is None
True
>>> path = keep(src, src.load(), analyse(src.load().dataset), min_memories=0)
>>> back = read(src)
>>> [m.memory for m in back.load.dataset.memories.values()]
['Maya flies to Lisbon on Friday.']
>>> back.digest == digest_of(back.analysis)
True
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import hmac
import os
import pickle
import secrets
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from memscope.graph.analysis import Analysis, analyse
from memscope.sources import LoadResult, Source
from memscope.sources.embedded import EmbeddedSource
from memscope.view.derived import FORMAT as DERIVED_FORMAT
from memscope.view.derived import LAYOUT_SEED, digest_of, folder_of

#: bumped when what a kept file holds changes shape
FORMAT = 1
MAGIC = b"memscope-kept\n"
KEY_FILE = ".kept-key"
#: below this many memories a load is quick: nothing is kept
MIN_MEMORIES = 2_000
#: kept files per data folder (the newest); each can be tens of MB
KEEP = 2
#: the packages whose code shapes what is kept
_CODE = ("records", "graph", "sources", "store")

_gc_lock = threading.Lock()
_gc_depth = 0
_frozen = False


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building large, long-lived structures
    (a 50,000-memory load runs ~40% faster without its passes); nests across threads."""
    global _gc_depth
    with _gc_lock:
        _gc_depth += 1
        if _gc_depth == 1:
            gc.disable()
    try:
        yield
    finally:
        with _gc_lock:
            _gc_depth -= 1
            if _gc_depth == 0:
                gc.enable()


def settle_heap(*, free_old: bool = True) -> None:
    """After a large load: freeze every object alive into the collector's permanent
    generation, so later full collections do not walk the shared graph again (each would
    hold the GIL for up to a second at 50,000 memories). From the second call on, what
    the previous call froze is unfrozen and collected first, so an old load's cycles are
    not kept for ever: they live at most until the next load. That full collection is
    skipped on the first call (nothing was frozen before) and with ``free_old=False``
    (the caller knows nothing old was dropped, e.g. the server's warm-up)."""
    global _frozen
    with _gc_lock:
        if _frozen and free_old:
            gc.unfreeze()
            gc.collect()
        gc.freeze()
        _frozen = True


@dataclass(frozen=True)
class Kept:
    """A load, its analysis (judged at no particular time) and its content digest."""

    load: LoadResult
    analysis: Analysis
    digest: str


@cache
def code_fingerprint() -> str:
    """SHA-256 over the source of the packages whose objects are kept."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256(str(FORMAT).encode())
    for package in _CODE:
        for path in sorted((root / package).rglob("*.py")):
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def key_of(source: Source) -> str | None:
    """The name of ``source``'s current data and scope, or None when it is not kept."""
    if not isinstance(source, EmbeddedSource):
        return None
    stamp = source.data_version()
    if not stamp:
        return None
    # the digest kept beside the load names the derived data's format and layout seed
    # too: a kept digest never outlives a change of either
    derived = f"derived={DERIVED_FORMAT},seed={LAYOUT_SEED}"
    text = "\0".join((code_fingerprint(), derived, *source.cache_key(), stamp))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _folder(source: EmbeddedSource) -> Path:
    return folder_of(source.store.path.resolve().parent)


def _secret(folder: Path, *, create: bool) -> bytes | None:
    path = folder / KEY_FILE
    with contextlib.suppress(OSError):
        data = path.read_bytes()
        if len(data) == 32:
            return data
    if not create:
        return None
    folder.mkdir(parents=True, exist_ok=True)
    data = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
    return data


def read(source: Source) -> Kept | None:
    """What was kept for ``source``'s current data, or None (not kept, unreadable, not
    signed by this folder's key). Never raises for a bad file."""
    key = key_of(source)
    if key is None or not isinstance(source, EmbeddedSource):
        return None
    folder = _folder(source)
    secret = _secret(folder, create=False)
    try:
        blob = (folder / f"load-{key}.pickle").read_bytes()
    except OSError:
        return None
    head = len(MAGIC)
    if secret is None or not blob.startswith(MAGIC) or len(blob) < head + 32:
        return None
    sig, body = blob[head:head + 32], blob[head + 32:]
    if not hmac.compare_digest(sig, hmac.new(secret, body, hashlib.sha256).digest()):
        return None
    try:
        with no_gc():
            kept = pickle.loads(body)  # signed by this folder's own key (checked above)
    except Exception:  # a damaged cache is recomputed, never fatal
        return None
    return kept if isinstance(kept, Kept) else None


def keep(source: Source, load: LoadResult, analysis: Analysis, *, digest: str | None = None,
         min_memories: int | None = None) -> Path | None:
    """Write ``load`` and ``analysis`` (of ``source``'s current data) to the data folder,
    atomically, and keep the :data:`KEEP` newest such files; None when not kept (another
    kind of source, or under ``min_memories`` memories, default :data:`MIN_MEMORIES`).
    Raises :class:`OSError` when the folder cannot be written."""
    key = key_of(source)
    least = MIN_MEMORIES if min_memories is None else min_memories
    if key is None or not isinstance(source, EmbeddedSource) \
            or len(load.dataset.memories) < least:
        return None
    folder = _folder(source)
    secret = _secret(folder, create=True)
    assert secret is not None
    slim = replace(load, raw_pages={}, raw_passport=None)  # the records hold it all
    kept = Kept(slim, analysis, digest or digest_of(analysis))
    with no_gc():
        body = pickle.dumps(kept, protocol=pickle.HIGHEST_PROTOCOL)
    sig = hmac.new(secret, body, hashlib.sha256).digest()
    target = folder / f"load-{key}.pickle"
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".kept-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(MAGIC + sig + body)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _prune(folder, target)
    return target


def _prune(folder: Path, keep_path: Path) -> None:
    try:
        files = sorted(folder.glob("load-*.pickle"), key=lambda p: p.stat().st_mtime,
                       reverse=True)
    except OSError:
        return
    for old in files[KEEP:]:
        if old != keep_path:
            old.unlink(missing_ok=True)


def load_and_analyse(source: Source) -> Kept:
    """``source``'s data and its analysis: read back when kept, else loaded, analysed
    and (for a large embedded store) kept. For ``memscope warm``."""
    found = read(source)
    if found is not None:
        return found
    with no_gc():
        load = source.load(refresh=True)
        analysis = analyse(load.dataset)
    kept = Kept(load, analysis, digest_of(analysis))
    keep(source, load, analysis, digest=kept.digest)
    return kept


__all__ = ["MIN_MEMORIES", "Kept", "code_fingerprint", "keep", "key_of", "load_and_analyse",
           "no_gc", "read", "settle_heap"]
