"""Warm a fresh server before the first person arrives (``python serve.py``).

Before the server opens its port: import what the first page needs, then ask the
process's pipeline for exactly the view a first visit asks for
(:meth:`memscope.pipeline.core.Pipeline.prewarm`: the configured embedded store's load
and analysis — kept on disk by :mod:`memscope.kept` —, its content digest, its layout,
clusters and names, the first overview) and compute the summary card; then freeze all of
it out of the garbage collector's full passes. Live services are not contacted: they
need the session's key. A failure is logged in one line and changes nothing else: the
first page then does the work itself.
"""

from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger("memscope")


class _OnlyOtherThreads(logging.Filter):
    """Drops the records one thread logs."""

    def __init__(self, thread: int) -> None:
        super().__init__()
        self.thread = thread

    def filter(self, record: logging.LogRecord) -> bool:
        return record.thread != self.thread


def prewarm() -> None:
    """Import the app's sections and fill the shared caches for the configured embedded
    store (nothing when another source is configured or the store does not exist yet)."""
    t0 = time.perf_counter()
    from streamlit.logger import get_logger

    # Streamlit warns about cached calls made outside a session: expected in this thread
    noisy = get_logger("streamlit.runtime.scriptrunner_utils.script_run_context")
    here = threading.get_ident()
    quiet = _OnlyOtherThreads(here)
    noisy.addFilter(quiet)
    try:
        from components.sections import explorer, overview  # noqa: F401  (the first page's imports)
        from components.state import connection
        from components.state.pipeline import pipeline
        from memscope import kept
        from memscope.settings import store_path
        from memscope.sources.embedded import EmbeddedSource

        conn = connection.configured_connection()
        path = store_path()
        if conn.kind != "embedded" or not path.is_file():
            return
        source = EmbeddedSource(path, container_tags=(conn.space,) if conn.space else ())
        p = pipeline()
        p.prewarm(source)  # the first view and its summary sentences
        kept.settle_heap(free_old=False)  # the layout and overview too; nothing was dropped
    except Exception as exc:  # warming is an optimisation, never a failure
        log.warning("Could not warm the server (%s: %s); the first page loads it instead.",
                    type(exc).__name__, exc)
        return
    finally:
        noisy.removeFilter(quiet)
    log.info("server warm in %.1f s", time.perf_counter() - t0)
