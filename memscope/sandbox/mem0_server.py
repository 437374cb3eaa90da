"""The sandbox speaking mem0 too: its platform API under ``/mem0`` on the same port.

mem0's routes (``/v1/memories/…``, ``/v3/memories/…``) share their first segments with
Spomory's and Supermemory's, so they are served under a prefix: a mem0 client's base URL
(``host`` of ``MemoryClient``) is ``<sandbox url>/mem0``. Requests there take the same
fault switches (latency, statuses, drops, timeouts, malformed answers, ``fail_pages`` for
list pages), and ``Authorization: Token <key>`` is checked against ``mem0_keys``.
"""

from __future__ import annotations

from typing import Any

from memscope.sandbox.mem0_api import PREFIX, Mem0Api
from memscope.sandbox.server import Sandbox as BaseSandbox
from memscope.sandbox.server import _Handler
from memscope.sandbox.supermemory_api import ApiError, Reply
from memscope.sources.errors import reason_phrase

SERVICE = "mem0"


class Mem0Sandbox(BaseSandbox):
    """Every API of :class:`~memscope.sandbox.server.Sandbox`, and mem0's under ``/mem0``."""

    def __init__(self, *args: Any, mem0_keys: tuple[str, ...] = ("m0-sandbox-key",),
                 mem0_dream: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.mem0_keys = tuple(mem0_keys)
        #: ``mem0_dream``: the store served as mem0's Dream leaves it (superseded, merged)
        self._mem0 = Mem0Api(self._sm, self.faults, dream=mem0_dream)

    @property
    def mem0_key(self) -> str:
        """The first accepted mem0 key."""
        return self.mem0_keys[0]

    @property
    def mem0_url(self) -> str:
        """The base URL of the mem0 API, e.g. ``http://127.0.0.1:8765/mem0``."""
        return self.url + PREFIX

    def _answer(self, h: _Handler, service: str, path: str, rec: Any) -> Reply | None:
        if path.startswith(PREFIX + "/"):
            service = SERVICE  # faults apply; the base class would take it for control
        return super()._answer(h, service, path, rec)

    def _route(self, h: _Handler, service: str, path: str, rec: Any) -> Reply:
        if service != SERVICE:
            return super()._route(h, service, path, rec)
        auth = h.headers.get("Authorization") or ""
        key = auth[6:].strip() if auth.startswith("Token ") else ""
        try:
            if key not in self.mem0_keys:
                raise ApiError(401, "Invalid API key.")
            if isinstance(rec.body, str):
                raise ApiError(400, "JSON parse error.")
            return self._mem0.route(rec.method, path[len(PREFIX):], rec.query, rec.body,
                                    self.mem0_url)
        except ApiError as exc:  # mem0 answers errors as {"detail": ...}
            return self._error(SERVICE, exc.status, exc.details)

    def _error(self, service: str, status: int, details: Any,
               error: str | None = None) -> Reply:
        if service == SERVICE:
            return Reply(status, {"detail": details or reason_phrase(status)})
        return super()._error(service, status, details, error)


__all__ = ["Mem0Sandbox"]
