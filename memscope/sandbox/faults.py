"""Fault switches of the sandbox, flippable at runtime (tests) or over ``/_sandbox/faults``.

The ``*_sequence`` / counter switches are consumed one request at a time, and apply to
every API request unless ``only_path`` narrows them to paths starting with it; the periodic
ones (``every_429``, ``every_503``) count those requests and fault every Nth;
``rate_limit`` refuses Supermemory v5 requests beyond a number per second.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from dataclasses import dataclass, field, fields
from typing import Any


@dataclass
class RequestRecord:
    """One request the sandbox received (never its credential)."""

    method: str
    path: str
    target: str
    query: dict[str, str]
    body: Any
    auth: str | None  # "bearer", "x-api-key", "both" or None — never the key
    status: int | None = None
    fault: str | None = None
    started: float = 0.0  # time.monotonic() at arrival and when answered (or dropped)
    finished: float = 0.0
    #: the JSON value answered (``None`` for pre-encoded bytes or no answer), for tests
    answer: Any = None
    #: every query parameter in order, repeated ones too (``query`` keeps the last of each)
    query_pairs: list[tuple[str, str]] = field(default_factory=list)
    #: the request's headers, lower-cased names (Zep's routes only), the credential
    #: replaced by its scheme (``Api-Key ***``)
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Faults:
    """What the sandbox does wrong. Change fields directly or with :meth:`update`."""

    latency_ms: float = 0.0
    #: the next requests answer with these statuses, one per request (e.g. [429, 429])
    status_sequence: list[int] = field(default_factory=list)
    #: ``Retry-After`` header value sent with faulted 429/503 answers
    retry_after: str | None = None
    #: ``details`` (Supermemory) / ``detail`` (Spomory) text of faulted answers
    error_details: str | None = None
    #: feed pages that always fail with ``fail_status``
    fail_pages: set[int] = field(default_factory=set)
    fail_status: int = 503
    #: the next N requests hang for ``hang_s`` and get no answer
    timeouts: int = 0
    hang_s: float = 3.0
    #: the next N requests: the connection is closed without an answer
    drops: int = 0
    #: the next N successful answers are cut-off JSON
    malformed: int = 0
    #: feed pages after the first are served as if this many documents had been added at
    #: the head of the feed since page 1 (so documents repeat across pages)
    shift: int = 0
    #: feed pages come without their ``pagination`` object
    omit_pagination: bool = False
    #: status of ``GET /v3/container-tags/list`` (e.g. 403 for a scoped key)
    spaces_status: int | None = None
    #: Spomory's forget deletes a different relation than the nearest one
    spomory_wrong_forget: bool = False
    #: Spomory's export ``result`` is not JSON
    spomory_bad_export: bool = False
    #: status reads of an added document that answer a processing state (``extracting``,
    #: ``chunking`` …) before it is ``done``; 0: the first read answers ``done``
    processing_polls: int = 0
    #: the next N added documents end ``failed`` instead of ``done`` (nothing is stored)
    fail_processing: int = 0
    #: every Supermemory v5 route (``/namespaces``, ``/ns/…``) answers 404, as a service
    #: that speaks only the legacy API would
    v5_missing: bool = False
    #: every legacy Supermemory route (``/v3/…``, ``/v4/…``) answers 404, as a v5-only one
    legacy_missing: bool = False
    #: every Nth API request answers 429 (with ``retry_after``), 0: never — a service
    #: that throttles now and then, whatever the client does
    every_429: int = 0
    #: every Nth API request answers 503 (checked after ``every_429``), 0: never
    every_503: int = 0
    #: Supermemory v5 requests answered per second (a sliding second), 0: no limit; one
    #: over it answers 429 (with ``retry_after`` when set) and is not counted — a service
    #: that throttles a client going faster than its key allows
    rate_limit: float = 0.0
    #: sequences and counters apply only to paths starting with this
    only_path: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    #: when the requests ``rate_limit`` let through in the last second arrived
    _answered: deque[float] = field(default_factory=deque, repr=False, compare=False)
    #: API requests counted for ``every_429`` / ``every_503``
    _seen: int = field(default=0, repr=False, compare=False)

    def applies(self, path: str) -> bool:
        """True when the counters and sequences apply to ``path``."""
        return self.only_path is None or path.startswith(self.only_path)

    def take(self, name: str) -> bool:
        """Consume one unit of the counter ``name``; True if there was one."""
        with self._lock:
            left = getattr(self, name)
            if left > 0:
                setattr(self, name, left - 1)
                return True
            return False

    def take_status(self) -> int | None:
        """The next status of :attr:`status_sequence`, if any."""
        with self._lock:
            return self.status_sequence.pop(0) if self.status_sequence else None

    def take_periodic(self) -> int | None:
        """Count one API request; 429 or 503 when it is an ``every_429`` / ``every_503``
        one, else ``None``."""
        with self._lock:
            self._seen += 1
            if self.every_429 > 0 and self._seen % self.every_429 == 0:
                return 429
            if self.every_503 > 0 and self._seen % self.every_503 == 0:
                return 503
            return None

    def over_rate(self, now: float | None = None) -> bool:
        """Count one request against :attr:`rate_limit`: True (not counted) when the last
        second already holds as many as it allows."""
        with self._lock:
            if self.rate_limit <= 0:
                return False
            now = time.monotonic() if now is None else now
            while self._answered and self._answered[0] <= now - 1.0:
                self._answered.popleft()
            if len(self._answered) >= self.rate_limit:
                return True
            self._answered.append(now)
            return False

    def update(self, **changes: Any) -> None:
        """Set several switches at once (unknown names raise ``ValueError``)."""
        names = {f.name for f in fields(self) if not f.name.startswith("_")}
        with self._lock:
            for key, value in changes.items():
                if key not in names:
                    raise ValueError(f"unknown fault switch {key!r}")
                if key == "fail_pages":
                    value = {int(v) for v in value or ()}
                elif key == "status_sequence":
                    value = [int(v) for v in value or ()]
                elif key in ("every_429", "every_503"):
                    value = max(0, int(value or 0))
                    self._seen = 0  # the period starts again
                elif key == "rate_limit":
                    value = max(0.0, float(value or 0))
                    self._answered.clear()
                setattr(self, key, value)

    def reset(self) -> None:
        """Back to no faults at all."""
        fresh = Faults()
        self.update(**{f.name: getattr(fresh, f.name) for f in fields(self)
                       if not f.name.startswith("_")})

    def as_dict(self) -> dict[str, Any]:
        """The switches as JSON-friendly values."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if not f.name.startswith("_")}
        out["fail_pages"] = sorted(out["fail_pages"])
        return out
