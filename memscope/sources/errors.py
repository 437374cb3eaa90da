"""One exception hierarchy for every source; ``str(error)`` is one sentence for the UI.

Messages are built here only, from the status, the service's own ``error``/``details``
(or FastAPI ``detail``) and what we were doing — never from a URL with a query string,
a header or a credential. :func:`redact` removes a secret that a server echoed back.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

DETAILS_CAP = 300


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` with every occurrence of each (non-trivial) secret replaced by ``***``."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, "***")
    return text


class SourceError(Exception):
    """Any failure of a source; ``str()`` is one sentence the UI can show as is."""

    #: A short kind for ledgers and tests (``auth``, ``timeout`` …).
    kind = "error"
    #: Whether trying again later may help.
    retryable = False

    def __init__(self, message: str, *, service: str = "", status: int | None = None,
                 error: str | None = None, details: str | None = None,
                 operation: str | None = None, attempts: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.service = service
        self.status = status
        self.error = error
        self.details = details
        self.operation = operation
        self.attempts = attempts

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r})"


class AuthError(SourceError):
    """401: the key was rejected or missing."""

    kind = "auth"


class PaymentRequired(SourceError):
    """402: the plan's limit is reached."""

    kind = "payment"


class Forbidden(SourceError):
    """403: the key may not use this space or endpoint."""

    kind = "forbidden"


class NotFound(SourceError):
    """404 (or an id the source does not know)."""

    kind = "not_found"


class BadRequest(SourceError):
    """400/422: the service refused the request; the message quotes its text."""

    kind = "bad_request"


class RateLimited(SourceError):
    """429 after every retry (or a ``Retry-After`` too long to wait for)."""

    kind = "rate_limited"
    retryable = True

    def __init__(self, message: str, *, retry_after: float | None = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.retry_after = retry_after


class QuotaExceeded(SourceError):
    """Spomory 429 ``API key quota exceeded``: the key's lifetime quota is used up."""

    kind = "quota"


class ServerError(SourceError):
    """5xx after every retry."""

    kind = "server"
    retryable = True


class TimeoutError_(SourceError):  # the builtin name is taken
    """The service did not answer in time."""

    kind = "timeout"
    retryable = True


class NetworkError(SourceError):
    """Could not connect, or the connection dropped before a full answer."""

    kind = "network"
    retryable = True


class MalformedResponse(SourceError):
    """The answer was not the JSON (or shape) the API documents."""

    kind = "malformed"
    retryable = True


class ForgetMismatch(SourceError):
    """Spomory forgot something other than the fact that was asked for.

    ``expected_id`` is the relation the user picked, ``removed`` the ``(id, sentence)``
    pairs that really disappeared, ``result`` the :class:`ForgetResult` (with the
    re-read data) so the UI can refresh and ledger it.
    """

    kind = "mismatch"

    def __init__(self, message: str, *, expected_id: str,
                 removed: list[tuple[str, str]], result: Any = None, **kw: Any) -> None:
        super().__init__(message, **kw)
        self.expected_id = expected_id
        self.removed = removed
        self.result = result


class Unsupported(SourceError):
    """The source lacks the capability; the message says why."""

    kind = "unsupported"


class DialectMismatch(NotFound):
    """The service answered 404 on the chosen Supermemory dialect's first route: it
    speaks the other one. ``dialect`` is the one that was tried (``v5`` or ``legacy``)."""

    kind = "dialect"

    def __init__(self, message: str, *, dialect: str = "v5", **kw: Any) -> None:
        super().__init__(message, **kw)
        self.dialect = dialect


def dialect_mismatch(dialect: str, route: str, *, service: str = "Supermemory"
                     ) -> DialectMismatch:
    """The one-sentence :class:`DialectMismatch` for ``dialect`` (``v5``/``legacy``)
    after a 404 on its first ``route`` (e.g. ``GET /namespaces``)."""
    if dialect == "v5":
        text = (f"This service does not answer Supermemory's current API (v5) routes (404 on "
                f"{route}); choose 'legacy API (v3/v4)' or 'Automatic' on the Connection page.")
    else:
        text = (f"This service does not answer Supermemory's legacy API (v3/v4) routes (404 "
                f"on {route}); choose 'current API (v5)' on the Connection page.")
    return DialectMismatch(text, dialect=dialect, service=service, status=404,
                           operation=route)


def route_missing(exc: NotFound, dialect: str, route: str) -> NotFound:
    """``exc`` (a 404 on ``dialect``'s first route) as a :class:`DialectMismatch` when the
    service gave no reason of its own beyond "not found" (a route it does not have);
    a 404 with the service's own sentence (e.g. a quota text) stays as it is."""
    details = (exc.details or "").lower()
    if details and "not found" not in details and "route" not in details:
        return exc
    return dialect_mismatch(dialect, route, service=exc.service or "Supermemory")


class ConfirmationRequired(SourceError):
    """A destructive bulk action was not confirmed with the expected words."""

    kind = "confirmation"


class FileError(SourceError):
    """A snapshot file cannot be read, or is not a supported shape."""

    kind = "file"


def reason_phrase(status: int) -> str:
    """The standard reason phrase of an HTTP status (``http.HTTPStatus``), else "Error".

    >>> reason_phrase(429), reason_phrase(599)
    ('Too Many Requests', 'Error')
    """
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _cap(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= DETAILS_CAP else text[: DETAILS_CAP - 1] + "…"


def server_text(body: Any) -> tuple[str | None, str | None]:
    """``(error, details)`` from a Supermemory ``{"error", "details"}`` body, a FastAPI
    ``{"detail": str | [{"loc", "msg"}]}`` body or a Zep ``{"error": {"code", "message"}}``
    body; ``(None, None)`` if none."""
    if not isinstance(body, dict):
        return None, None
    error, details = body.get("error"), body.get("details", body.get("message"))
    if isinstance(error, dict):  # Zep: {"error": {"code", "message"}}
        error, details = error.get("code"), error.get("message")
    detail = body.get("detail")
    if isinstance(detail, list):
        parts = []
        for item in detail:
            if isinstance(item, dict):
                loc = ".".join(str(x) for x in item.get("loc") or [] if x != "body")
                parts.append(f"{loc}: {item.get('msg')}" if loc else str(item.get("msg")))
        details = "; ".join(parts) or None
    elif isinstance(detail, str):
        details = detail
    error = _cap(str(error)) if error is not None else None
    details = _cap(str(details)) if details is not None else None
    return error, details


def http_error(service: str, status: int, body: Any, operation: str, *,
               retry_after: float | None = None, attempts: int = 1,
               secrets: tuple[str, ...] = ()) -> SourceError:
    """The typed error, with its one-sentence message, for an HTTP error status."""
    error, details = server_text(body)
    label = error or reason_phrase(status)
    said = f"{status} {label}" + (f": {details}" if details else "")
    said = redact(said, secrets)
    kw: dict[str, Any] = dict(service=service, status=status, error=error, details=details,
                              operation=operation, attempts=attempts)
    if 300 <= status < 400:
        return BadRequest(f"{service} answered with a redirect ({said}) while trying to "
                          f"{operation} — check the base URL (https, and no extra path).",
                          **kw)
    if status == 401:
        return AuthError(f"{service} rejected the API key ({said}) — re-enter it.", **kw)
    if status == 402:
        return PaymentRequired(f"{service} says the plan's limit is reached ({said}) — "
                               "upgrade the plan or wait for the limit to reset.", **kw)
    if status == 403:
        return Forbidden(f"{service} does not allow this key for this space or endpoint "
                         f"({said}) — use a key with access to it.", **kw)
    if status == 404:
        return NotFound(f"{service} found nothing there ({said}) while trying to "
                        f"{operation}.", **kw)
    if status == 429 and "quota" in (details or "").lower():
        return QuotaExceeded(f"{service} says this key's lifetime call quota is used up "
                             f"({said}) — use another key.", **kw)
    if status == 429:
        wait = f"; it asked to wait {retry_after:g} s" if retry_after else ""
        return RateLimited(f"{service} is rate limiting requests ({said}) — gave up after "
                           f"{attempts} attempt{'s' if attempts != 1 else ''}{wait}; try "
                           "again in a minute.", retry_after=retry_after, **kw)
    if status >= 500:
        return ServerError(f"{service} had a service error ({said}) after {attempts} "
                           f"attempt{'s' if attempts != 1 else ''} — try again later.", **kw)
    return BadRequest(f"{service} refused the request to {operation} ({said}).", **kw)
