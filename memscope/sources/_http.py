"""The HTTP layer shared by the Supermemory and Spomory clients.

One :class:`HttpClient` owns an ``httpx.Client`` (timeouts, connection pool), sends the
key only in headers, retries with exponential backoff and jitter (429 honouring
``Retry-After``, 5xx, connection errors) for as long as its retry budget lasts (a time,
``retry_budget_s``, not a number of attempts), counts the calls that reached the server
and turns every failure into one typed :class:`~memscope.sources.errors.SourceError`.

Every request of one client passes one :class:`AdaptiveLimit`: until the service first
answers 429 the requests allowed in flight grow by one with every answer while they are all
taken (doubling each round trip, up to the ceiling: ``concurrency_ceiling``, or the
source's own); a 429 shrinks them to 70 % (down to 1), and after that a run of answers
without one grows them by one again — so a throttling service slows the whole pool down,
and one that keeps up lets it grow.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from memscope import __version__
from memscope.records.jsonsafe import load_json
from memscope.sources.errors import (
    MalformedResponse,
    NetworkError,
    RateLimited,
    ServerError,
    SourceError,
    TimeoutError_,
    http_error,
    redact,
    server_text,
)

# httpx logs every request URL at INFO and httpcore traces at DEBUG: keep both quiet.
for _name in ("httpx", "httpcore"):
    logging.getLogger(_name).setLevel(logging.WARNING)

log = logging.getLogger("memscope.sources.http")


def credential_fingerprint(key: str | SecretStr) -> str:
    """A short SHA-256 fingerprint of a credential, for cache keys (never the key itself).

    >>> credential_fingerprint("sk-test")
    'f3abf2a6cc4f0098'
    """
    raw = key.get_secret_value() if isinstance(key, SecretStr) else key
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:16]


class ApiConfig(BaseModel):
    """Where and how to call a service. ``repr`` shows the key as ``**********``."""

    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    api_key: SecretStr
    base_url: str
    timeout_s: float = Field(default=30.0, gt=0, le=600)
    #: how long one request is retried (429, 5xx, dropped connections), counted from its
    #: first attempt: no retry starts past it
    retry_budget_s: float = Field(default=60.0, ge=0, le=3600)
    #: a safety cap on the attempts of one request; the retry budget normally ends first
    max_attempts: int = Field(default=100, ge=1, le=1000)
    backoff_base_s: float = Field(default=0.5, ge=0, le=60)
    backoff_max_s: float = Field(default=20.0, ge=0, le=600)
    #: A ``Retry-After`` longer than this is not waited for: :class:`RateLimited` at once.
    max_retry_after_s: float = Field(default=60.0, ge=0)
    concurrency: int = Field(default=4, ge=1, le=32)
    #: requests in flight may grow up to this while the service answers without a 429
    concurrency_ceiling: int = Field(default=16, ge=1, le=64)
    client_name: str = "memscope"

    @field_validator("api_key")
    @classmethod
    def _check_key(cls, value: SecretStr) -> SecretStr:
        raw = value.get_secret_value().strip()
        if not raw:
            raise ValueError("the API key is empty")
        if not raw.isascii() or not raw.isprintable() or any(c.isspace() for c in raw):
            raise ValueError("the API key has spaces or characters a key cannot have")
        return SecretStr(raw)

    @field_validator("base_url")
    @classmethod
    def _check_url(cls, value: str) -> str:
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("the base URL must start with https:// (or http://) and name a "
                             "host")
        if parts.username or parts.password:
            raise ValueError("the base URL must not carry a user or password: put the key "
                             "in the API key field")
        if parts.query or parts.fragment:
            raise ValueError("the base URL must not have a query (?…) or fragment (#…)")
        return value.strip().rstrip("/")

    def credential_fingerprint(self) -> str:
        """SHA-256 fingerprint of the key (16 hex digits), safe in cache keys."""
        return credential_fingerprint(self.api_key)

    @property
    def host(self) -> str:
        """The host (and port) of the base URL, for messages."""
        return urlsplit(self.base_url).netloc


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    return max(0.0, seconds) if seconds == seconds else None  # NaN → None


def compute_delay(attempt: int, retry_after: float | None, base: float, cap: float,
                  rand: Callable[[], float] = random.random) -> float:
    """Backoff before attempt ``attempt + 1``: ``base·2^(attempt-1)`` capped at ``cap``,
    with equal jitter (50–100 %); never shorter than the server's ``Retry-After``."""
    backoff = min(cap, base * (2 ** (attempt - 1)))
    delay = backoff * (0.5 + rand() / 2)
    if retry_after is not None:
        delay = max(delay, retry_after)
    return delay


#: answers with at most this many ``{`` and ``[`` are decoded on the calling thread (their
#: depth cannot exceed it, far below the recursion limit)
SHALLOW = 100

#: what a 429 multiplies the requests in flight by (CUBIC's 0.7: gentler than halving, so
#: a service that refuses one request in twenty still gets about nine at once, not six)
DECREASE = 0.7


class AdaptiveLimit:
    """How many requests of one client may be in flight (AIMD with a slow start): until
    the first 429 every answer while the limit is what holds requests back adds one (the
    limit doubles each round trip); a 429 cuts the limit to :data:`DECREASE` of itself
    (down to 1) and ends the slow start; after it, a run of ``limit / 2`` answers without
    one, while the limit holds requests back, adds one. Never above ``ceiling``.

    Every request holds a place (:meth:`slot`) for its attempts, and gives it up while it
    waits out a backoff (:meth:`resting`). A 429 cuts the limit at most once per *epoch*:
    requests sent before the last cut (:attr:`epoch` at sending) do not cut it again, so
    one burst of 429s is one signal, not eight.

    >>> gate = AdaptiveLimit(8, 16)
    >>> gate.throttled(gate.epoch), gate.throttled(0), gate.limit
    (True, False, 5)
    """

    def __init__(self, start: int, ceiling: int) -> None:
        self.ceiling = max(1, ceiling)
        self.limit = max(1, min(start, self.ceiling))
        self.in_flight = 0
        #: requests waiting out a backoff (they hold no place in flight)
        self.waiting = 0
        self.epoch = 0
        #: the lowest and highest limit so far, and the cuts (for benches and tests)
        self.lowest = self.highest = self.limit
        self.cuts = 0
        self._streak = 0
        self._cond = threading.Condition()

    def acquire(self) -> None:
        """Wait until fewer than :attr:`limit` requests are in flight, then count one."""
        with self._cond:
            while self.in_flight >= self.limit:
                self._cond.wait()
            self.in_flight += 1

    def release(self) -> None:
        """One request is over."""
        with self._cond:
            self.in_flight -= 1
            self._cond.notify()

    @contextmanager
    def resting(self) -> Iterator[None]:
        """Give this request's place up while it waits out a backoff (it sends nothing
        meanwhile), and take one again before its next attempt; :attr:`waiting` counts
        such requests, so a pool can keep the limit busy with others."""
        with self._cond:
            self.in_flight -= 1
            self.waiting += 1
            self._cond.notify()
        try:
            yield
        finally:
            with self._cond:
                self.waiting -= 1
                while self.in_flight >= self.limit:
                    self._cond.wait()
                self.in_flight += 1

    @property
    def width(self) -> int:
        """How many requests a pool may have started now: the limit, plus those waiting
        out a backoff (they hold no place)."""
        return self.limit + self.waiting

    @contextmanager
    def slot(self) -> Iterator[None]:
        """Hold one place in flight for the ``with`` block."""
        self.acquire()
        try:
            yield
        finally:
            self.release()

    def throttled(self, epoch: int) -> bool:
        """The service answered 429 to a request sent in ``epoch``: cut the limit, unless
        it was cut since that request was sent. True when it was cut."""
        with self._cond:
            if epoch != self.epoch:
                return False
            self.epoch += 1
            self.limit = max(1, int(self.limit * DECREASE))
            self.lowest = min(self.lowest, self.limit)
            self.cuts += 1
            self._streak = 0
            return True

    def succeeded(self) -> None:
        """An answer without a 429 (called while its request is still in flight) while
        (nearly) every place was taken: one place more — at once until the first 429,
        after it once ``limit / 2`` such answers came."""
        with self._cond:
            if self.limit >= self.ceiling or self.in_flight < self.limit - 1:
                return  # at the ceiling, or the limit is not what holds requests back
            self._streak += 1
            if self.cuts == 0 or 2 * self._streak >= self.limit:  # slow start, or a window
                self._streak = 0
                self.limit += 1
                self.highest = max(self.highest, self.limit)
                self._cond.notify()


class HttpClient:
    """A thread-safe JSON client for one service with retries and typed errors."""

    def __init__(self, config: ApiConfig, *, service: str, auth_headers: dict[str, str],
                 sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic,
                 ceiling: int | None = None) -> None:
        """``ceiling``: the most requests in flight the adaptive limit may grow to
        (``config.concurrency_ceiling`` when not given)."""
        self.config = config
        self.service = service
        self._sleep = sleep
        self._clock = clock
        self._lock = threading.Lock()
        self._calls = 0
        self._retries = 0
        self._pause_until = 0.0
        self._secrets = (config.api_key.get_secret_value(),)
        headers = {"Accept": "application/json",
                   "User-Agent": f"{config.client_name}/{__version__}", **auth_headers}
        # the feed's page pool and (Supermemory v5, mem0) the history pool share it
        start = max(config.concurrency, getattr(config, "history_concurrency", 0))
        top = config.concurrency_ceiling if ceiling is None else ceiling
        self.gate = AdaptiveLimit(start, max(start, top))
        pool = self.gate.ceiling + 2
        self._client = httpx.Client(
            base_url=config.base_url, headers=headers, follow_redirects=False,
            timeout=httpx.Timeout(config.timeout_s),
            limits=httpx.Limits(max_connections=pool, max_keepalive_connections=pool),
        )

    def __repr__(self) -> str:
        return f"HttpClient(service={self.service!r}, host={self.config.host!r})"

    @property
    def calls(self) -> int:
        """Requests that reached the server (retries included; refused connects not)."""
        return self._calls

    @property
    def retries(self) -> int:
        """Attempts after a first one (every retry this client waited for)."""
        return self._retries

    def _count(self) -> None:
        with self._lock:
            self._calls += 1

    def _wait_for_pause(self) -> None:
        delay = self._pause_until - self._clock()
        if delay > 0:
            self._sleep(delay)

    def _pause(self, seconds: float) -> None:
        with self._lock:
            self._pause_until = max(self._pause_until, self._clock() + seconds)

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def _fail(self, exc: SourceError) -> SourceError:
        exc.message = redact(exc.message, self._secrets)
        exc.args = (exc.message,)
        return exc

    def request(self, method: str, path: str, *, operation: str, json: Any = None,
                params: dict[str, Any] | None = None, idempotent: bool = True,
                headers: dict[str, str] | None = None) -> Any:
        """Send one request (retrying within the retry budget) and return the decoded JSON
        body. It waits for a place in flight (:attr:`gate`) and keeps it for every attempt.

        ``idempotent=False`` (Spomory's forget) retries only when the request surely was
        not processed: a refused connection or a 429. ``headers`` go with every attempt
        (Zep's ``Idempotency-Key``: a retry is the same request).
        """
        with self.gate.slot():
            return self._attempts(method, path, operation, json, params, idempotent,
                                  headers)

    def _attempts(self, method: str, path: str, operation: str, json: Any,
                  params: dict[str, Any] | None, idempotent: bool,
                  headers: dict[str, str] | None = None) -> Any:
        cfg, svc = self.config, self.service
        first = self._clock()
        attempt = 0
        while True:
            attempt += 1
            self._wait_for_pause()
            epoch = self.gate.epoch
            started = time.monotonic()
            try:
                resp = self._client.request(method, path, json=json, params=params,
                                            headers=headers)
            except httpx.ConnectTimeout:
                error = TimeoutError_(
                    f"{svc} at {cfg.host} did not accept a connection within "
                    f"{cfg.timeout_s:g} s while trying to {operation} — check the base URL "
                    "and the network.", service=svc, operation=operation, attempts=attempt)
                if not self._retry(attempt, first, None, f"{method} {path}: connect timeout"):
                    raise self._fail(error) from None
                continue
            except httpx.TimeoutException:
                self._count()
                raise self._fail(TimeoutError_(
                    f"{svc} did not answer within {cfg.timeout_s:g} s (timeout) while trying "
                    f"to {operation} — try again, or raise the timeout.", service=svc,
                    operation=operation, attempts=attempt)) from None
            except httpx.TransportError as exc:
                refused = isinstance(exc, httpx.ConnectError)
                if not refused:
                    self._count()
                what = ("could not connect to" if refused
                        else "dropped the connection to")
                error = NetworkError(
                    f"Memscope {what} {svc} at {cfg.host} ({type(exc).__name__}) while trying "
                    f"to {operation} — check the base URL and the network, then try again.",
                    service=svc, operation=operation, attempts=attempt)
                if not (idempotent or refused) or not self._retry(
                        attempt, first, None, f"{method} {path}: {type(exc).__name__}"):
                    raise self._fail(error) from None
                continue
            except httpx.HTTPError as exc:  # e.g. a body that cannot be decoded
                self._count()
                raise self._fail(MalformedResponse(
                    f"{svc} sent an answer Memscope could not read ({type(exc).__name__}) "
                    f"while trying to {operation} — try again later.", service=svc,
                    operation=operation, attempts=attempt)) from None
            self._count()
            status = resp.status_code
            log.debug("%s %s -> %s in %.0f ms (attempt %d)", method, path, status,
                      (time.monotonic() - started) * 1000, attempt)
            if 200 <= status < 300:
                self.gate.succeeded()
                return self._decode(resp, operation, attempt)
            if status == 429:
                self.gate.throttled(epoch)
            body = self._body(resp)
            retry_after = parse_retry_after(resp.headers.get("Retry-After"))
            _, details = server_text(body)
            quota = status == 429 and "quota" in (details or "").lower()
            retryable = (status == 429 and not quota) or (status >= 500 and idempotent)
            too_long = retry_after is not None and retry_after > cfg.max_retry_after_s
            # a 429 that says how long to wait holds every request back that long; one
            # that does not is answered by the smaller pool (the gate) and its own backoff
            if retryable and not too_long and self._retry(
                    attempt, first, retry_after, f"{method} {path}: {status}",
                    pause=status == 429 and retry_after is not None):
                continue
            raise self._fail(http_error(svc, status, body, operation, retry_after=retry_after,
                                        attempts=attempt, secrets=self._secrets))

    def _retry(self, attempt: int, first: float, retry_after: float | None, why: str, *,
               pause: bool = False) -> bool:
        """Sleep before the next attempt and return True — or return False when there is
        none: the attempts are capped, or it would start past the retry budget (counted
        from ``first``). ``pause`` (a 429 with ``Retry-After``) holds back every thread for
        the delay."""
        cfg = self.config
        if attempt >= cfg.max_attempts:
            return False
        delay = compute_delay(attempt, retry_after, cfg.backoff_base_s, cfg.backoff_max_s)
        left = cfg.retry_budget_s - (self._clock() - first)
        if delay > left:
            log.info("%s: not retried (the %g s retry budget is spent)", why,
                     cfg.retry_budget_s)
            return False
        log.info("%s: retrying in %.2f s (attempt %d, %.1f s of the retry budget left)",
                 why, delay, attempt + 1, left - delay)
        with self._lock:
            self._retries += 1
        if pause:
            self._pause(delay)
        with self.gate.resting():
            self._sleep(delay)
        return True

    @staticmethod
    def _body(resp: httpx.Response) -> Any:
        """An error body: JSON, a short plain text, or ``None`` (an HTML page says little)."""
        try:
            return resp.json()
        except ValueError:
            text = resp.text.strip()
            return {"details": text[:300]} if text and not text.startswith("<") else None

    def _decode(self, resp: httpx.Response, operation: str, attempt: int) -> Any:
        """The answer's JSON, read like a file is (any depth or number size is safe);
        text that is not JSON is a :class:`MalformedResponse`. An answer with at most
        :data:`SHALLOW` containers cannot nest deeper than that, so it is decoded here at
        once (:func:`~memscope.records.jsonsafe.load_json` decodes on a thread of its own,
        a quarter of a millisecond per answer, which thousands of history views feel)."""
        text = resp.content.decode("utf-8-sig", errors="replace")
        if text.count("{") + text.count("[") <= SHALLOW:
            try:
                return json.loads(text)
            except (ValueError, RecursionError):
                pass  # not JSON, or an integer too long: load_json says which
        try:
            value, _notes = load_json(text)
            return value
        except ValueError as exc:
            raise self._fail(MalformedResponse(
                f"{self.service} sent an answer that is not valid JSON (HTTP "
                f"{resp.status_code}, {len(resp.content)} bytes: {exc.__class__.__name__}) "
                f"while trying to {operation} — try again; if it persists the service is "
                "misbehaving.", service=self.service, status=resp.status_code,
                operation=operation, attempts=attempt)) from None


@contextmanager
def ambiguous(service: str, what: str, effect: str) -> Iterator[None]:
    """A non-idempotent call that failed after it may have reached the server: say that
    it may already have had its ``effect`` (e.g. "deleted something")."""
    try:
        yield
    except (NetworkError, TimeoutError_, ServerError, MalformedResponse) as exc:
        if isinstance(exc, NetworkError) and "could not connect" in exc.message:
            raise
        exc.message = (f"The {what} to {service} failed midway ({exc.kind}: {exc.message}) "
                       f"and may already have {effect} — reload the graph to check before "
                       "trying again.")
        exc.args = (exc.message,)
        raise


def ensure(condition: bool, service: str, operation: str, what: str) -> None:
    """Raise :class:`MalformedResponse` unless ``condition`` (a shape check) holds."""
    if not condition:
        raise MalformedResponse(
            f"{service} answered in an unexpected shape ({what}) while trying to "
            f"{operation} — the API may have changed.", service=service, operation=operation)


__all__ = ["AdaptiveLimit", "ApiConfig", "HttpClient", "RateLimited", "ambiguous",
           "compute_delay", "credential_fingerprint", "ensure", "parse_retry_after"]
