"""Heavy parsing off the shared interpreter: one small process pool, created on first use.

A Streamlit server runs every session's script in threads of one interpreter, so a session
parsing a 30 MB snapshot holds the GIL for seconds and slows everyone else's reruns. Above
:data:`OFFLOAD_BYTES` the parse runs in a worker process (``spawn`` context: a clean
interpreter that imports only what the job needs) and the records come back pickled as
constructor calls (``Record(*fields)``), which unpickles about twice as fast as the
default state restore of slotted dataclasses.

Workers never run the server's main script: Streamlit installs the app script as
``__main__`` and ``spawn`` would re-run it in every worker, so while a worker starts (only
ever inside :func:`run_in_worker`'s submit) ``__main__`` is a blank module.

A worker that dies (killed, out of memory) or fails unexpectedly becomes one sentence
(:class:`~memscope.sources.errors.FileError`), never a traceback; the broken pool is
dropped so the next parse gets a fresh one.

>>> offload(OFFLOAD_BYTES - 1), offload(OFFLOAD_BYTES)
(False, True)
>>> offload(10, threshold=0)
True
"""

from __future__ import annotations

import copyreg
import dataclasses
import io
import multiprocessing
import os
import pickle
import sys
import threading
import types
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from memscope.records.models import (
    DataIssue,
    DocumentRecord,
    MemoryRecord,
    ProfileLine,
    Skipped,
    SpaceRecord,
)
from memscope.records.passport import EntityRecord, Provenance, RelationRecord
from memscope.sources.errors import FileError

#: Inputs of this many bytes or more are parsed in a worker process; smaller ones in-process
#: (starting or reaching a worker costs more than parsing them).
OFFLOAD_BYTES = 2_000_000
#: Worker processes at most (the pool starts them one at a time, as parses need them).
MAX_WORKERS = max(1, min(2, os.cpu_count() or 1))

#: Slotted record classes pickled as constructor calls (see :func:`dumps`).
RECORD_CLASSES: tuple[type, ...] = (MemoryRecord, DocumentRecord, SpaceRecord, ProfileLine,
                                    Skipped, DataIssue, Provenance, EntityRecord,
                                    RelationRecord)

T = TypeVar("T")

_lock = threading.Lock()
_pool: ProcessPoolExecutor | None = None
#: What ``__main__`` is while a worker starts: no file, no spec, so nothing is re-run.
_BLANK_MAIN = types.ModuleType("__main__")


def offload(size: int, threshold: int | None = None) -> bool:
    """Whether ``size`` bytes of input are parsed in a worker (``threshold`` defaults to
    :data:`OFFLOAD_BYTES`)."""
    return size >= (OFFLOAD_BYTES if threshold is None else threshold)


def _as_call(obj: Any) -> tuple[type, tuple[Any, ...]]:
    return type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))


def dumps(obj: Any) -> bytes:
    """Pickle ``obj`` with every record class reduced to a constructor call.

    >>> from memscope.records.models import Skipped
    >>> loads(dumps([Skipped("m1", "no id")]))
    [Skipped(record='m1', reason='no id')]
    """
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    table = copyreg.dispatch_table.copy()
    table.update(dict.fromkeys(RECORD_CLASSES, _as_call))
    pickler.dispatch_table = table
    pickler.dump(obj)
    return buf.getvalue()


def loads(data: bytes) -> Any:
    """Unpickle what :func:`dumps` made (only ever bytes from our own worker)."""
    return pickle.loads(data)  # our own worker's output, never user bytes


def _get_pool() -> ProcessPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ProcessPoolExecutor(max_workers=MAX_WORKERS,
                                        mp_context=multiprocessing.get_context("spawn"))
        return _pool


def _drop_pool(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def _submit(pool: ProcessPoolExecutor, job: Callable[..., T], args: tuple[Any, ...]
            ) -> Future[T]:
    """``pool.submit`` (which starts a worker when none is idle) with ``__main__`` blank."""
    with _lock:
        main = sys.modules.get("__main__")
        sys.modules["__main__"] = _BLANK_MAIN
        try:
            return pool.submit(job, *args)
        finally:
            if sys.modules.get("__main__") is _BLANK_MAIN and main is not None:
                sys.modules["__main__"] = main


def pool_pids() -> list[int]:
    """Process ids of the live workers (empty before the first offloaded parse)."""
    with _lock:
        pool = _pool
    processes = getattr(pool, "_processes", None) or {}
    return [p.pid for p in processes.values() if p.is_alive() and p.pid is not None]


def shutdown() -> None:
    """Stop the workers (the next offloaded parse starts a new pool)."""
    with _lock:
        pool = _pool
    if pool is not None:
        _drop_pool(pool)


def run_in_worker(job: Callable[..., T], *args: Any, what: str = "the file") -> T:
    """``job(*args)`` in a worker process; ``job`` and its arguments and result must
    pickle (``job`` a module-level function, not one of ``__main__``). A worker that dies
    or a job that raises anything but :class:`FileError` becomes a :class:`FileError`
    naming ``what``."""
    for attempt in (1, 2):
        pool = _get_pool()
        try:
            future = _submit(pool, job, args)
        except (BrokenProcessPool, RuntimeError):
            _drop_pool(pool)  # broken (or shut down) while idle: one fresh pool, once
            if attempt == 2:
                raise FileError(f"Could not read {what}: the parsing process could not "
                                "start.") from None
            continue
        try:
            return future.result()
        except FileError as exc:
            raise FileError(str(exc)) from None
        except BrokenProcessPool:
            _drop_pool(pool)
            raise FileError(f"Could not read {what}: the parsing process stopped "
                            "unexpectedly (out of memory?).") from None
        except Exception as exc:  # one sentence instead of a traceback
            raise FileError(f"Could not read {what}: parsing failed "
                            f"({type(exc).__name__}).") from None
    raise AssertionError("unreachable")  # pragma: no cover
