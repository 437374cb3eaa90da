"""A fresh interpreter with the network refused, for tests that prove something opens no
socket: creating any socket raises, as any connection or name look-up does (each attempt
is also counted, in case a library swallows the error), and the count is printed last as
``SOCKETS <n>``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_SCRIPT = """
import sys
reach = ("socket.connect", "socket.getaddrinfo", "socket.gethostbyname",
         "socket.gethostbyname_ex", "socket.gethostbyaddr", "socket.sendto",
         "socket.sendmsg", "urllib.Request")
tried = []
def hook(event, args):
    if event in reach:
        tried.append(event)
    if event in reach or event == "socket.__new__":
        raise RuntimeError("network used: " + event)
sys.addaudithook(hook)
{body}
print("SOCKETS", len(tried), file=sys.{stream})
"""


def no_network(body: str, *, stream: str = "stdout") -> str:
    """The source of a script (for ``python -c``) that runs ``body`` with the network
    refused and then prints ``SOCKETS <attempts>`` on ``stream`` (stdout or stderr)."""
    if stream not in ("stdout", "stderr"):
        raise ValueError(f"stream must be stdout or stderr, not {stream!r}")
    return _SCRIPT.format(body=body, stream=stream)


def run_without_network(body: str) -> str:
    """``body`` in a fresh interpreter with the network refused (run from the project's
    root); its standard output, which ends with ``SOCKETS <attempts>``. Fails the test
    when the interpreter fails. A library that only probes (urllib3, imported by
    WordLlama's ``requests``, makes a socket to test for IPv6) is refused without being
    counted: only connections and look-ups count."""
    done = subprocess.run([sys.executable, "-c", no_network(body)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout
