"""The sandbox speaking Zep Cloud too: its v4 graph API under ``/zep/api/v4``.

A Zep client's base URL is ``<sandbox url>/zep/api/v4`` (Zep's own is
``https://api.getzep.com/api/v4``). Requests there take the same fault switches as every
route (latency, statuses with ``Retry-After``, drops, timeouts, malformed answers) and
``Authorization: Api-Key <key>`` is checked against ``zep_keys``; each request's headers
are logged with the key replaced by ``***`` (:attr:`RequestRecord.headers`).
"""

from __future__ import annotations

from typing import Any

from memscope.sandbox.faults import RequestRecord
from memscope.sandbox.mem0_server import Mem0Sandbox
from memscope.sandbox.server import _Handler
from memscope.sandbox.supermemory_api import ApiError, Reply
from memscope.sandbox.zep_api import PREFIX, ZepAccount, ZepApi
from memscope.sources.errors import reason_phrase

SERVICE = "zep"
SCHEME = "Api-Key "
_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
          429: "rate_limited", 500: "internal_error", 502: "bad_gateway",
          503: "service_unavailable", 504: "gateway_timeout"}


class ZepSandbox(Mem0Sandbox):
    """Every API of :class:`~memscope.sandbox.mem0_server.Mem0Sandbox`, and Zep's."""

    def __init__(self, *args: Any, zep_keys: tuple[str, ...] = ("z_sandbox_key",),
                 zep_account: ZepAccount | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.zep_keys = tuple(zep_keys)
        self.zep = ZepApi(zep_account)

    @property
    def zep_key(self) -> str:
        """The first accepted Zep key."""
        return self.zep_keys[0]

    @property
    def zep_url(self) -> str:
        """The base URL of the Zep API, e.g. ``http://127.0.0.1:8765/zep/api/v4``."""
        return self.url + PREFIX

    def _answer(self, h: _Handler, service: str, path: str, rec: Any) -> Reply | None:
        if path.startswith(PREFIX + "/"):
            service = SERVICE
            rec.headers = _logged_headers(h)
        return super()._answer(h, service, path, rec)

    def _route(self, h: _Handler, service: str, path: str, rec: RequestRecord) -> Reply:
        if service != SERVICE:
            return super()._route(h, service, path, rec)
        auth = h.headers.get("Authorization") or ""
        key = auth[len(SCHEME):].strip() if auth.startswith(SCHEME) else ""
        try:
            if key not in self.zep_keys:
                raise ApiError(401, {"code": "unauthorized",
                                     "message": "Invalid or missing API key."})
            if isinstance(rec.body, str):
                raise ApiError(400, {"code": "invalid_json", "message": "The body is not "
                                                                        "JSON."})
            return self.zep.route(rec.method, path[len(PREFIX):], rec.query, rec.body)
        except ApiError as exc:
            return self._error(SERVICE, exc.status, exc.details)

    def _error(self, service: str, status: int, details: Any,
               error: str | None = None) -> Reply:
        if service != SERVICE:
            return super()._error(service, status, details, error)
        body = details if isinstance(details, dict) else {
            "code": _CODES.get(status, "error"),
            "message": details or reason_phrase(status)}
        return Reply(status, {"error": body})


def _logged_headers(h: _Handler) -> dict[str, str]:
    """The request's headers (names lower-cased), the credential replaced by ``***``."""
    out = {}
    for name, value in h.headers.items():
        low = name.lower()
        if low == "authorization":
            scheme = value.split(" ", 1)[0] if " " in value else ""
            value = f"{scheme} ***" if scheme else "***"
        out[low] = value
    return out


__all__ = ["SERVICE", "ZepSandbox"]
