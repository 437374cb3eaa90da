"""A real local HTTP server speaking both APIs, with API-key checks and fault injection.

>>> with Sandbox.create(tmp_dir) as sb:                              # doctest: +SKIP
...     sb.faults.status_sequence = [429, 429]
...     SupermemorySource(SupermemoryConfig(api_key=sb.supermemory_key,
...                                         base_url=sb.url)).load()
"""

from __future__ import annotations

import json
import logging
import tempfile
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qsl, urlsplit

from memscope.sandbox.data import default_passport, seed
from memscope.sandbox.faults import Faults, RequestRecord
from memscope.sandbox.spomory_api import SpomoryApi, SpomoryGraph
from memscope.sandbox.supermemory_api import ApiError, Reply, SupermemoryApi
from memscope.sandbox.supermemory_v5 import SupermemoryV5Api, is_v5_path
from memscope.sources.errors import reason_phrase
from memscope.store.store import Store, StoreError

log = logging.getLogger("memscope.sandbox")

#: the service's own wording for the errors its documentation shows; any other status
#: says the standard description of ``http.HTTPStatus``
SERVICE_DETAILS: dict[int, str] = {
    HTTPStatus.UNAUTHORIZED: "Invalid or missing API key",
    HTTPStatus.TOO_MANY_REQUESTS: "Rate limit exceeded, retry later"}
BROKEN_JSON = b'{"documents": [{"id": "doc_cut", "title": "cut off'


def _description(status: int) -> str:
    """The standard one-line description of ``status`` (``"Error"`` if unknown)."""
    try:
        return HTTPStatus(status).description
    except ValueError:
        return "Error"


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "memscope-sandbox/1"
    #: TCP_NODELAY: headers and body go out in two writes, and without it every answer
    #: waits ~40 ms for the client's delayed ACK — a stall a real service does not have,
    #: which would swamp the latency switch
    disable_nagle_algorithm = True
    server: _Server

    def _dispatch(self) -> None:
        self.server.sandbox.handle(self)

    do_GET = do_POST = do_DELETE = do_PUT = do_PATCH = _dispatch

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    sandbox: Sandbox


class Sandbox:
    """Both APIs on ``127.0.0.1`` from a :class:`~memscope.store.store.Store` and a Spomory graph.

    ``faults`` can be flipped at runtime; ``requests`` lists what arrived (no keys).
    """

    def __init__(self, store: Store, *, host: str = "127.0.0.1", port: int = 0,
                 supermemory_keys: tuple[str, ...] = ("sm_sandbox_key",),
                 spomory_keys: tuple[str, ...] = ("sp_sandbox_key",),
                 passport: dict[str, Any] | None = None, spomory_quota: int = 1000,
                 faults: Faults | None = None) -> None:
        self.store = store
        self.faults = faults or Faults()
        self.supermemory_keys = tuple(supermemory_keys)
        self.spomory_keys = tuple(spomory_keys)
        self.spomory = SpomoryGraph(passport)
        self.spomory_quota = spomory_quota
        self.spomory_calls: dict[str, int] = {}
        self.requests: list[RequestRecord] = []
        self._lock = threading.Lock()
        self._sm = SupermemoryApi(store, self.faults)
        self._v5 = SupermemoryV5Api(self._sm)
        self._sp = SpomoryApi(self.spomory, self.faults)
        self._host, self._port = host, port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @classmethod
    def create(cls, folder: str | Path | None = None, *, data: str = "demo",
               documents: int | None = None, memories: int | None = None,
               passport: dict[str, Any] | None = None, fixtures: str | Path | None = None,
               **kwargs: Any) -> Self:
        """A sandbox over a fresh store in ``folder`` (a temporary one if ``None``)
        seeded with ``data`` (``demo``, ``synthetic``, or ``fixtures`` read from the
        ``fixtures`` folder), and ``passport`` as its Spomory graph (default: the fixtures'
        passport if a fixtures folder is known, else a generated one)."""
        base = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="memscope-sandbox-"))
        store = Store.create(base / "sandbox.db")
        if store.is_empty():
            seed(store, data, documents=documents, memories=memories, fixtures=fixtures)
        if passport is None:
            passport = default_passport(fixtures)
        return cls(store, passport=passport, **kwargs)

    @property
    def supermemory_key(self) -> str:
        """The first accepted Supermemory key."""
        return self.supermemory_keys[0]

    @property
    def spomory_key(self) -> str:
        """The first accepted Spomory key."""
        return self.spomory_keys[0]

    @property
    def url(self) -> str:
        """The base URL, e.g. ``http://127.0.0.1:8765``."""
        if self._server is None:
            raise RuntimeError("the sandbox is not running; call start()")
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def bind(self) -> Self:
        """Open the listening socket (port 0 = a free port); :attr:`url` is then known."""
        if self._server is None:
            server = _Server((self._host, self._port), _Handler)
            server.sandbox = self
            self._server = server
        return self

    def start(self) -> Self:
        """Listen and serve in a daemon thread (once)."""
        if self._thread is not None:
            return self
        self.bind()
        self._thread = threading.Thread(target=self._server.serve_forever,  # type: ignore[union-attr]
                                        name="memscope-sandbox",
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Listen and serve on the calling thread (the command line)."""
        self.bind()
        self._server.serve_forever()  # type: ignore[union-attr]

    def stop(self) -> None:
        """Stop serving and close the socket."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self if self._thread is not None else self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def requests_to(self, path: str, method: str | None = None) -> list[RequestRecord]:
        """Requests received for ``path`` (and ``method``), in arrival order."""
        with self._lock:
            return [r for r in self.requests
                    if r.path == path and (method is None or r.method == method)]

    def clear_requests(self) -> None:
        """Forget the request log."""
        with self._lock:
            self.requests.clear()

    # -- one request ---------------------------------------------------------------------

    def handle(self, h: _Handler) -> None:
        """Read, fault, authenticate, route and answer one request."""
        split = urlsplit(h.path)
        path = split.path
        length = int(h.headers.get("Content-Length") or 0)
        raw = h.rfile.read(length) if length else b""
        service = ("supermemory" if path.startswith(("/v3/", "/v4/")) or is_v5_path(path) else
                   "spomory" if path.startswith("/v1/") else "control")
        has_bearer = (h.headers.get("Authorization") or "").startswith("Bearer ")
        has_xkey = bool(h.headers.get("x-api-key"))
        auth = ("both" if has_bearer and has_xkey else "bearer" if has_bearer else
                "x-api-key" if has_xkey else None)
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        rec = RequestRecord(h.command, path, split.path + ("?" + split.query if split.query
                                                           else ""),
                            dict(parse_qsl(split.query)), body, auth, started=time.monotonic(),
                            query_pairs=parse_qsl(split.query, keep_blank_values=True))
        with self._lock:
            self.requests.append(rec)
        try:
            reply = self._answer(h, service, path, rec)
        except ApiError as exc:
            reply = self._error(service, exc.status, exc.details, exc.error)
        except StoreError as exc:
            reply = self._error(service, 500, str(exc))
        if reply is None:  # dropped or hung: no answer at all
            h.close_connection = True
            rec.finished = time.monotonic()
            return
        rec.status = reply.status
        rec.answer = None if isinstance(reply.body, bytes) else reply.body
        rec.finished = time.monotonic()  # before the answer leaves: the client waits for it
        self._send(h, reply)

    def _answer(self, h: _Handler, service: str, path: str,
                rec: RequestRecord) -> Reply | None:
        f = self.faults
        if service == "control":
            return self._control(rec)
        if f.latency_ms:
            time.sleep(f.latency_ms / 1000)
        if f.applies(path):
            if f.take("drops"):
                rec.fault = "drop"
                return None
            if f.take("timeouts"):
                rec.fault = "timeout"
                time.sleep(f.hang_s)
                return None
            status = f.take_status()
            if status is None:
                status = f.take_periodic()
            if status is not None:
                rec.fault = f"status {status}"
                reply = self._error(service, status, f.error_details)
                if f.retry_after is not None and status in (429, 503):
                    reply.headers["Retry-After"] = str(f.retry_after)
                return reply
        reply = self._route(h, service, path, rec)
        if reply.status == 200 and f.applies(path) and f.take("malformed"):
            rec.fault = "malformed"
            reply = Reply(200, BROKEN_JSON)
        return reply

    def _route(self, h: _Handler, service: str, path: str, rec: RequestRecord) -> Reply:
        """The API's answer once no fault intervened: key check, then the route."""
        v5 = service == "supermemory" and is_v5_path(path)
        if service == "supermemory" and (self.faults.v5_missing if v5 else
                                         self.faults.legacy_missing):
            raise ApiError(404, f"No route {rec.method} {path}")  # the other dialect only
        denied = self._check_key(service, h)
        if denied is not None:
            return denied
        if isinstance(rec.body, str):
            raise ApiError(400 if service == "supermemory" else 422, "The body is not JSON")
        if v5:
            return self._v5.route(rec.method, path, rec.query_pairs, rec.body)
        if service == "supermemory":
            return self._sm.route(rec.method, path, rec.body)
        return self._sp.route(rec.method, path, rec.query, rec.body)

    def _check_key(self, service: str, h: _Handler) -> Reply | None:
        bearer = h.headers.get("Authorization") or ""
        bearer = bearer[7:].strip() if bearer.startswith("Bearer ") else ""
        if service == "supermemory":
            if bearer not in self.supermemory_keys:
                return self._error(service, 401, "Invalid or missing API key")
            return None
        key = h.headers.get("x-api-key") or bearer  # x-api-key wins when both are sent
        if not key:
            return self._error(service, 401, "missing API key (x-api-key header or "
                                             "Authorization: Bearer)")
        if key not in self.spomory_keys:
            return self._error(service, 401, "invalid or revoked API key")
        with self._lock:
            used = self.spomory_calls.get(key, 0) + 1
            self.spomory_calls[key] = used
        if used > self.spomory_quota:
            return self._error(service, 429, "API key quota exceeded")
        return None

    def _error(self, service: str, status: int, details: Any,
               error: str | None = None) -> Reply:
        if details is None:
            details = SERVICE_DETAILS.get(status) or _description(status)
        if service == "spomory":
            return Reply(status, {"detail": details})
        return Reply(status, {"error": error or reason_phrase(status), "details": details})

    def _control(self, rec: RequestRecord) -> Reply:
        if rec.path == "/_sandbox/faults":
            if rec.method == "POST":
                try:
                    self.faults.update(**(rec.body or {}))
                except (TypeError, ValueError) as exc:
                    return Reply(400, {"error": "Bad Request", "details": str(exc)})
            return Reply(200, self.faults.as_dict())
        if rec.path == "/_sandbox/reset" and rec.method == "POST":
            self.faults.reset()
            self.clear_requests()
            return Reply(200, self.faults.as_dict())
        if rec.path == "/_sandbox/requests":
            with self._lock:
                rows = [{"method": r.method, "path": r.path, "status": r.status,
                         "fault": r.fault} for r in self.requests]
            return Reply(200, rows)
        if rec.path == "/_sandbox/health":
            return Reply(200, {"ok": True})
        return Reply(404, {"error": "Not Found", "details": rec.path})

    @staticmethod
    def _send(h: _Handler, reply: Reply) -> None:
        data = reply.body if isinstance(reply.body, bytes) else json.dumps(
            reply.body, ensure_ascii=False).encode("utf-8")
        try:
            h.send_response(reply.status)
            h.send_header("Content-Type", "application/json; charset=utf-8")
            h.send_header("Content-Length", str(len(data)))
            for name, value in reply.headers.items():
                h.send_header(name, value)
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            h.close_connection = True
