"""Start a real ``streamlit run`` server for browser tests, and stop it again.

Example::

    server = start_streamlit("components/graph_view/demo_app.py", free_port())
    try:
        page.goto(server.url)
    finally:
        server.stop()
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _worker() -> tuple[int, int]:
    """This pytest-xdist worker's index and the number of workers (``(0, 1)`` alone)."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = os.environ.get("PYTEST_XDIST_WORKER_COUNT", "")
    if name.startswith("gw") and name[2:].isdigit() and count.isdigit() and int(count) > 1:
        return int(name[2:]) % int(count), int(count)
    return 0, 1


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now.

    Under pytest-xdist each worker only gets its own share of the ports (``port // 2``
    modulo the number of workers is its index: Linux hands out odd ports to ``bind``), so
    two workers never pick the same port in the moment between this call and the
    server's bind (the other worker's server would answer this one's health check)."""
    index, count = _worker()
    for _ in range(1000):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if (port // 2) % count == index:
            return port
    raise RuntimeError("no free loopback port for this test worker")


@dataclass
class StreamlitServer:
    """A running ``streamlit run`` subprocess."""

    process: subprocess.Popen[bytes]
    port: int
    log_path: Path

    @property
    def url(self) -> str:
        """The app's base URL (loopback only)."""
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        """Everything the server printed so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 10 s) and remove its log."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log_path.unlink(missing_ok=True)


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
            return resp.read().strip() == b"ok"
    except OSError:
        return False


def start_streamlit(script: str | os.PathLike[str], port: int,
                    env: Mapping[str, str] | None = None, *,
                    timeout: float = 30.0) -> StreamlitServer:
    """Run ``script`` (relative to the repository root) headless on ``port``:
    ``streamlit run <script>``, or for ``serve.py`` (what ``make run`` starts: the same
    after the server's warm-up) ``python serve.py``.

    The server binds 127.0.0.1 only, sends no usage statistics and watches no files; the
    repository root is on ``PYTHONPATH``. Returns once ``/_stcore/health`` answers ``ok``;
    raises ``RuntimeError`` with the server's output if it exits or does not get healthy
    within ``timeout`` seconds.
    """
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), full_env.get("PYTHONPATH", "")) if p)
    full_env.update(env or {})
    fd, log_name = tempfile.mkstemp(prefix="streamlit-", suffix=".log")
    log_path = Path(log_name)
    with os.fdopen(fd, "wb") as log:
        command = [sys.executable, str(script)] if Path(script).name == "serve.py" \
            else [sys.executable, "-m", "streamlit", "run", str(script)]
        process = subprocess.Popen(
            [*command,
             "--server.headless", "true",
             "--server.address", "127.0.0.1",
             "--server.port", str(port),
             "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT,
        )
    server = StreamlitServer(process, port, log_path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            output = server.log()
            server.stop()
            raise RuntimeError(f"streamlit exited with {process.returncode}:\n{output}")
        if _healthy(server.url):
            return server
        time.sleep(0.2)
    output = server.log()
    server.stop()
    raise RuntimeError(f"streamlit did not become healthy in {timeout:.0f} s:\n{output}")
