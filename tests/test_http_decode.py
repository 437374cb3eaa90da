"""How :class:`HttpClient` reads an answer, over a real HTTP server on 127.0.0.1: a small
answer is decoded at once, one with many containers the careful way (any depth), and both
read a huge integer as infinity and refuse text that is not JSON."""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from pydantic import SecretStr

from memscope.sources._http import SHALLOW, ApiConfig, HttpClient
from memscope.sources.errors import MalformedResponse

BODIES: dict[str, bytes] = {
    "/small": b'{"id": "m1", "included": {"related": {"parents": [{"id": "m0"}]}}}',
    "/many": ("[" + ",".join(f'{{"i": {i}}}' for i in range(SHALLOW + 5)) + "]").encode(),
    "/deep": b"[" * 50_000 + b"1" + b"]" * 50_000,
    "/huge": b'{"n": ' + b"9" * 5000 + b"}",
    "/huge-many": ('{"n": ' + "9" * 5000 + ', "xs": [' + ",".join(["{}"] * (SHALLOW + 5))
                   + "]}").encode(),
    "/bom": b'\xef\xbb\xbf{"ok": true}',
    "/text": b"not json {",
}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = BODIES[self.path]
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def client() -> Iterator[HttpClient]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    http = HttpClient(ApiConfig(api_key=SecretStr("k"), base_url=url, max_attempts=1),
                      service="Test", auth_headers={})
    try:
        yield http
    finally:
        http.close()
        server.shutdown()


def _get(client: HttpClient, path: str) -> object:
    return client.request("GET", path, operation="read")


def test_small_and_many_container_answers_read_the_same_as_json(client):
    assert _get(client, "/small") == {"id": "m1",
                                      "included": {"related": {"parents": [{"id": "m0"}]}}}
    assert _get(client, "/many") == [{"i": i} for i in range(SHALLOW + 5)]
    assert _get(client, "/bom") == {"ok": True}


def test_depth_and_huge_integers_are_read_either_way(client):
    deep, depth = _get(client, "/deep"), 0
    while isinstance(deep, list):
        assert len(deep) == 1
        deep, depth = deep[0], depth + 1
    assert deep == "…" and depth <= 200  # what lies deeper than the careful reader keeps
    assert _get(client, "/huge") == {"n": math.inf}
    huge = _get(client, "/huge-many")
    assert isinstance(huge, dict) and huge["n"] == math.inf and len(huge["xs"]) == SHALLOW + 5


def test_text_that_is_not_json_is_malformed(client):
    with pytest.raises(MalformedResponse, match="not valid JSON"):
        _get(client, "/text")
