"""The sandbox in a process of its own, for the benches that time a source against it
(``fetch.py``, ``mem0.py``, ``zep.py``): a free port on 127.0.0.1, ``python -m
memscope.sandbox`` with the bench's arguments, its health route polled until it answers.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A TCP port on 127.0.0.1 nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def sandbox_process(folder: str, args: Sequence[str], *, start_s: float = 600
                    ) -> Iterator[str]:
    """``python -m memscope.sandbox --dir folder *args`` on a free port; yields its base
    URL once it answers (exits with one sentence when it does not within ``start_s``);
    stopped on the way out."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "memscope.sandbox", "--port", str(port), "--dir", folder,
         *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + start_s
        while True:
            try:
                httpx.get(url + "/_sandbox/health", timeout=5)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the sandbox did not start") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)
