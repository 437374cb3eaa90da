"""The HTTP layer shared by the Supermemory and Spomory clients.

One :class:`HttpClient` owns an ``httpx.Client`` (timeouts, connection pool), sends the
key only in headers, retries with exponential backoff and jitter (429 honouring
``Retry-After``, 5xx, connection errors), counts the calls that reached the server and
turns every failure into one typed :class:`~memscope.sources.errors.SourceError`.
"""

from __future__ import annotations

import hashlib
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
    max_attempts: int = Field(default=4, ge=1, le=10)
    backoff_base_s: float = Field(default=0.5, ge=0, le=60)
    backoff_max_s: float = Field(default=20.0, ge=0, le=600)
    #: A ``Retry-After`` longer than this is not waited for: :class:`RateLimited` at once.
    max_retry_after_s: float = Field(default=60.0, ge=0)
    concurrency: int = Field(default=4, ge=1, le=32)
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


class HttpClient:
    """A thread-safe JSON client for one service with retries and typed errors."""

    def __init__(self, config: ApiConfig, *, service: str, auth_headers: dict[str, str],
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.config = config
        self.service = service
        self._sleep = sleep
        self._lock = threading.Lock()
        self._calls = 0
        self._pause_until = 0.0
        self._secrets = (config.api_key.get_secret_value(),)
        headers = {"Accept": "application/json",
                   "User-Agent": f"{config.client_name}/{__version__}", **auth_headers}
        # the feed's page pool and (Supermemory v5) the history-view pool share it
        pool = max(config.concurrency, getattr(config, "history_concurrency", 0)) + 2
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

    def _count(self) -> None:
        with self._lock:
            self._calls += 1

    def _wait_for_pause(self) -> None:
        delay = self._pause_until - time.monotonic()
        if delay > 0:
            self._sleep(delay)

    def _pause(self, seconds: float) -> None:
        with self._lock:
            self._pause_until = max(self._pause_until, time.monotonic() + seconds)

    def close(self) -> None:
        """Close the connection pool."""
        self._client.close()

    def _fail(self, exc: SourceError) -> SourceError:
        exc.message = redact(exc.message, self._secrets)
        exc.args = (exc.message,)
        return exc

    def request(self, method: str, path: str, *, operation: str, json: Any = None,
                params: dict[str, Any] | None = None, idempotent: bool = True) -> Any:
        """Send one request (retrying as configured) and return the decoded JSON body.

        ``idempotent=False`` (Spomory's forget) retries only when the request surely was
        not processed: a refused connection or a 429.
        """
        cfg, svc = self.config, self.service
        for attempt in range(1, cfg.max_attempts + 1):
            last = attempt == cfg.max_attempts
            self._wait_for_pause()
            started = time.monotonic()
            try:
                resp = self._client.request(method, path, json=json, params=params)
            except httpx.ConnectTimeout:
                error = TimeoutError_(
                    f"{svc} at {cfg.host} did not accept a connection within "
                    f"{cfg.timeout_s:g} s while trying to {operation} — check the base URL "
                    "and the network.", service=svc, operation=operation, attempts=attempt)
                if last:
                    raise self._fail(error) from None
                self._retry(attempt, None, f"{method} {path}: connect timeout")
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
                if last or not (idempotent or refused):
                    raise self._fail(error) from None
                self._retry(attempt, None, f"{method} {path}: {type(exc).__name__}")
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
                return self._decode(resp, operation, attempt)
            body = self._body(resp)
            retry_after = parse_retry_after(resp.headers.get("Retry-After"))
            _, details = server_text(body)
            quota = status == 429 and "quota" in (details or "").lower()
            retryable = (status == 429 and not quota) or (status >= 500 and idempotent)
            too_long = retry_after is not None and retry_after > cfg.max_retry_after_s
            if retryable and not last and not too_long:
                self._retry(attempt, retry_after, f"{method} {path}: {status}",
                            pause=status == 429)
                continue
            raise self._fail(http_error(svc, status, body, operation, retry_after=retry_after,
                                        attempts=attempt, secrets=self._secrets))
        raise AssertionError("unreachable")  # pragma: no cover

    def _retry(self, attempt: int, retry_after: float | None, why: str, *,
               pause: bool = False) -> None:
        """Sleep before the next attempt; ``pause`` (a 429) holds back every thread."""
        cfg = self.config
        delay = compute_delay(attempt, retry_after, cfg.backoff_base_s, cfg.backoff_max_s)
        log.info("%s: retrying in %.2f s (attempt %d of %d)", why, delay, attempt + 1,
                 cfg.max_attempts)
        if pause:
            self._pause(delay)
        self._sleep(delay)

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
        text that is not JSON is a :class:`MalformedResponse`."""
        try:
            value, _notes = load_json(resp.content.decode("utf-8-sig", errors="replace"))
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


__all__ = ["ApiConfig", "HttpClient", "RateLimited", "ambiguous", "compute_delay",
           "credential_fingerprint", "ensure", "parse_retry_after"]
