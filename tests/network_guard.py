"""A fresh interpreter with the network refused, for tests that prove something opens no
socket: creating any socket raises, as any connection or name look-up does (each attempt
is also counted, in case a library swallows the error), and the count is printed last as
``SOCKETS <n>``."""

from __future__ import annotations

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
