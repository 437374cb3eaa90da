"""Start the API sandbox on a free loopback port for a test: real sockets, no mocks.

Test modules define their own small fixtures around :func:`running_sandbox` (importing a
fixture by name would shadow it).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from conftest import FIXTURES

from memscope.sandbox import Sandbox
from memscope.sandbox.faults import RequestRecord
from memscope.sources import (
    SpomoryConfig,
    SpomorySource,
    SupermemoryConfig,
    SupermemorySource,
    SupermemoryV5Source,
)

#: Client settings that keep retry tests fast (backoff of 10–50 ms, 2 s timeout, at most
#: 4 attempts a request: a fault that never ends fails in a moment, not a retry budget).
FAST: dict[str, Any] = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, "timeout_s": 2.0,
                        "max_attempts": 4}
FEED = "/v3/documents/documents"


@contextmanager
def running_sandbox(folder: Path, **kwargs: Any) -> Iterator[Sandbox]:
    """A sandbox over a fresh store in ``folder``, serving on a free port until exit.

    Unless told otherwise it serves the test fixtures (``tests/fixtures``): their
    Supermemory documents and their Spomory passport."""
    kwargs.setdefault("data", "fixtures")
    kwargs.setdefault("fixtures", FIXTURES)
    sandbox = Sandbox.create(folder, **kwargs).start()
    try:
        yield sandbox
    finally:
        sandbox.stop()


def supermemory(sandbox: Sandbox, **overrides: Any) -> SupermemorySource:
    """A Supermemory client of ``sandbox`` with fast retries."""
    cfg = {"api_key": sandbox.supermemory_key, "base_url": sandbox.url, **FAST, **overrides}
    return SupermemorySource(SupermemoryConfig(**cfg))


def supermemory_v5(sandbox: Sandbox, **overrides: Any) -> SupermemoryV5Source:
    """A Supermemory client of ``sandbox`` speaking the current API (v5), fast retries."""
    cfg = {"api_key": sandbox.supermemory_key, "base_url": sandbox.url, **FAST, **overrides}
    return SupermemoryV5Source(SupermemoryConfig(**cfg))


def spomory(sandbox: Sandbox, **overrides: Any) -> SpomorySource:
    """A Spomory client of ``sandbox`` with fast retries."""
    cfg = {"api_key": sandbox.spomory_key, "base_url": sandbox.url, **FAST, **overrides}
    return SpomorySource(SpomoryConfig(**cfg))


def feed_pages(sandbox: Sandbox) -> list[int]:
    """Page numbers of the feed requests the sandbox received, in arrival order."""
    return [r.body["page"] for r in sandbox.requests_to(FEED, "POST")]


def max_in_flight(sandbox: Sandbox, path: str = FEED) -> int:
    """The most requests to ``path`` the server was handling at the same moment."""
    spans = [(r.started, r.finished) for r in sandbox.requests_to(path)]
    events = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans],
                    key=lambda ev: (ev[0], ev[1]))
    best = now = 0
    for _, step in events:
        now += step
        best = max(best, now)
    return best


def free_port() -> int:
    """A TCP port that was free a moment ago on 127.0.0.1."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def deleted(sandbox: Sandbox, path: str, *, wait_s: float = 20) -> list[RequestRecord]:
    """The DELETE requests the sandbox received for ``path``, waiting up to ``wait_s``
    for the first (a browser's run may end a moment before its request is in the log)."""
    deadline = time.monotonic() + wait_s
    while True:
        found = sandbox.requests_to(path, "DELETE")
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.25)
