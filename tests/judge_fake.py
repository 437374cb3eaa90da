"""A fake OpenAI-compatible chat endpoint on 127.0.0.1 for the judge's tests.

What it answers depends on the pair's text: a statement naming Berlin gets a confirmed
conflict, Kyoto a rejection, "garbled" an answer that is not JSON, "refuse" a refusal,
"stall" no answer before the client's timeout, "slowly" a correct answer after
:data:`SLOW_S`; "flaky" a 503 first, then a verdict. Anything else: no conflict.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

SLOW_S = 0.6
STALL_S = 4.0


class FakeChat(BaseHTTPRequestHandler):
    seen: ClassVar[list[tuple[str, str | None, dict]]] = []
    flaked: ClassVar[set[str]] = set()
    #: seconds every answer waits (a browser test watching the progress sets it)
    delay: ClassVar[float] = 0.0
    #: confirm every pair (a test of near misses the rules let through)
    agree: ClassVar[bool] = False

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def _send(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        with suppress(OSError):  # the client gave up (a timeout test)
            self.wfile.write(data)

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        FakeChat.seen.append((self.path, self.headers.get("Authorization"), body))
        text = body["messages"][-1]["content"]
        time.sleep(FakeChat.delay)
        if "stall" in text:
            time.sleep(STALL_S)
        if "slowly" in text:
            time.sleep(SLOW_S)
        if "flaky" in text and text not in FakeChat.flaked:
            FakeChat.flaked.add(text)
            self._send(503, {"error": "busy"})
            return
        message: dict[str, object]
        if "refuse" in text:
            message = {"role": "assistant", "content": None,
                       "refusal": "I can't help with comparing personal data."}
        elif "garbled" in text:
            message = {"role": "assistant", "content": "Sure! They look fine to me."}
        elif "Berlin" in text or "slowly" in text or FakeChat.agree:
            message = {"role": "assistant", "content":
                       '{"conflict": true, "reason": "One home at a time."}'}
        else:
            message = {"role": "assistant", "content":
                       'Here: {"conflict": false, "reason": "Both can hold."}'}
        self._send(200, {"choices": [{"index": 0, "message": message}]})


@contextmanager
def serving() -> Iterator[str]:
    """Serve the fake on a free loopback port; yields its base URL (``…/v1``)."""
    FakeChat.seen = []
    FakeChat.flaked = set()
    FakeChat.delay = 0.0
    FakeChat.agree = False
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeChat)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()
        server.server_close()
