"""Drive ``mem0ai`` 2.2.1's ``MemoryClient`` against the sandbox, in its own process.

``make test`` installs mem0ai without its dependencies into ``.venv/mem0``; the tests run
this script with ``PYTHONPATH=.venv/mem0``::

    MEM0_API_KEY=… MEM0_TELEMETRY=False MEM0_DIR=/tmp/x python tests/mem0_driver.py \\
        http://127.0.0.1:8765/mem0 < steps.json

The key comes from the environment only (never argv). Before mem0 is imported:

- every outgoing connection and name look-up is checked: only 127.0.0.1, ::1 and
  ``localhost`` are let through, anything else is refused and listed under ``outside``;
- ``posthog`` (mem0's telemetry library, not installed) is a stand-in that counts how
  often a ``Posthog`` client is created — with telemetry off, never;
- ``mem0`` is entered as a bare package: its ``__init__`` imports the open-source
  ``Memory`` (openai, qdrant…), which ``MemoryClient`` does not use.

``steps.json`` is a list of ``{"op": <MemoryClient method>, "args": [...], "kwargs":
{...}}`` (or ``{"probe": "10.255.255.1"}``, a connection the guard must refuse); each
answer is ``{"op", "json"}`` or ``{"op", "error", "message"}``. One JSON object is printed:
``{"results": [...], "outside": [...], "posthog_clients": n, "telemetry": bool,
"client_file": path}``.
"""

from __future__ import annotations

import importlib
import json
import os
import socket
import sys
import types
from pathlib import Path
from typing import Any

LOOPBACK = {"127.0.0.1", "::1", "localhost"}
OUTSIDE: list[str] = []
POSTHOG_CLIENTS = [0]


def _host(address: Any) -> str:
    return str(address[0]) if isinstance(address, tuple) and address else str(address)


def _guard() -> None:
    """Refuse (and list) every connection or look-up beyond this machine's loopback."""
    connect, connect_ex, lookup = (socket.socket.connect, socket.socket.connect_ex,
                                   socket.getaddrinfo)

    def checked(sock: socket.socket, address: Any) -> Any:
        host = _host(address)
        if sock.family in (socket.AF_INET, socket.AF_INET6) and host not in LOOPBACK:
            OUTSIDE.append(host)
            raise OSError(f"memscope test guard: no connection to {host}")
        return connect(sock, address)

    def checked_ex(sock: socket.socket, address: Any) -> Any:
        host = _host(address)
        if sock.family in (socket.AF_INET, socket.AF_INET6) and host not in LOOPBACK:
            OUTSIDE.append(host)
            return 111
        return connect_ex(sock, address)

    def checked_lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and str(host) not in LOOPBACK:
            OUTSIDE.append(str(host))
            raise socket.gaierror(f"memscope test guard: no look-up of {host}")
        return lookup(host, *args, **kwargs)

    socket.socket.connect = checked  # type: ignore[method-assign]
    socket.socket.connect_ex = checked_ex  # type: ignore[method-assign]
    socket.getaddrinfo = checked_lookup  # type: ignore[assignment]


def _stand_ins() -> None:
    """``posthog`` as a counting stand-in, ``mem0`` as a bare package."""
    posthog = types.ModuleType("posthog")

    class Posthog:  # mem0.memory.telemetry's only use of the library
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            POSTHOG_CLIENTS[0] += 1

        def capture(self, *args: Any, **kwargs: Any) -> None:
            POSTHOG_CLIENTS[0] += 1

        def shutdown(self) -> None:
            pass

    posthog.Posthog = Posthog  # type: ignore[attr-defined]
    sys.modules["posthog"] = posthog
    root = next(Path(p) / "mem0" for p in sys.path if (Path(p) / "mem0" / "client").is_dir())
    mem0 = types.ModuleType("mem0")
    mem0.__path__ = [str(root)]
    mem0.__file__ = str(root / "__init__.py")
    mem0.__version__ = "2.2.1"  # type: ignore[attr-defined]
    sys.modules["mem0"] = mem0


def main() -> int:
    base_url = sys.argv[1]
    _guard()
    _stand_ins()
    client_main = importlib.import_module("mem0.client.main")  # after the guard
    telemetry = importlib.import_module("mem0.memory.telemetry")
    MemoryClient = client_main.MemoryClient

    client = MemoryClient(api_key=os.environ["MEM0_API_KEY"], host=base_url)
    results: list[dict[str, Any]] = []
    for step in json.load(sys.stdin):
        if "probe" in step:
            try:
                socket.create_connection((step["probe"], 80), timeout=1).close()
                results.append({"probe": step["probe"], "connected": True})
            except OSError as exc:
                results.append({"probe": step["probe"], "connected": False,
                                "message": str(exc)})
            continue
        op = step["op"]
        try:
            answer = getattr(client, op)(*step.get("args", []), **step.get("kwargs", {}))
            results.append({"op": op, "json": answer})
        except Exception as exc:  # reported to the test, which judges
            results.append({"op": op, "error": type(exc).__name__, "message": str(exc)})
    json.dump({"results": results, "outside": OUTSIDE, "posthog_clients": POSTHOG_CLIENTS[0],
               "telemetry": bool(telemetry.MEM0_TELEMETRY),
               "client_posthog": telemetry.client_telemetry.posthog is not None,
               "client_file": sys.modules["mem0.client.main"].__file__}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
