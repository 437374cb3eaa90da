"""Pure parts of the source layer: backoff, Retry-After, error sentences, capabilities."""

from __future__ import annotations

from email.utils import formatdate

import pytest
from pydantic import SecretStr

from memscope.sources import (
    CAPABILITY_NAMES,
    AuthError,
    BadRequest,
    Capabilities,
    EmbeddedSource,
    FileSource,
    Forbidden,
    NotFound,
    PaymentRequired,
    QuotaExceeded,
    RateLimited,
    ServerError,
    SpomorySource,
    SupermemoryConfig,
    SupermemorySource,
)
from memscope.sources._http import compute_delay, parse_retry_after
from memscope.sources.errors import http_error
from memscope.sources.results import ForgetAllPreview, LoadProgress


def test_backoff_doubles_with_jitter_and_a_cap():
    low, high = (lambda: 0.0), (lambda: 1.0)
    assert [compute_delay(a, None, 0.5, 20, low) for a in (1, 2, 3, 4)] == [0.25, 0.5, 1, 2]
    assert [compute_delay(a, None, 0.5, 20, high) for a in (1, 2, 3, 4)] == [0.5, 1, 2, 4]
    assert compute_delay(10, None, 0.5, 20, high) == 20


def test_backoff_never_shorter_than_retry_after():
    assert compute_delay(1, 3.0, 0.5, 20, lambda: 1.0) == 3.0
    assert compute_delay(4, 0.1, 0.5, 20, lambda: 1.0) == 4.0


def test_retry_after_seconds_and_dates():
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after(" 0.5 ") == 0.5
    assert parse_retry_after(None) is None and parse_retry_after("soon") is None
    assert parse_retry_after("-3") == 0.0
    date = formatdate(1_000_030, usegmt=True)
    assert parse_retry_after(date, now=1_000_000) == pytest.approx(30)


@pytest.mark.parametrize(("status", "body", "kind", "sentence"), [
    (401, {"error": "Unauthorized", "details": "Invalid or missing API key"}, AuthError,
     "Supermemory rejected the API key (401 Unauthorized: Invalid or missing API key) — "
     "re-enter it."),
    (402, {"error": "Payment Required", "details": "Plan limit"}, PaymentRequired,
     "Supermemory says the plan's limit is reached (402 Payment Required: Plan limit) — "
     "upgrade the plan or wait for the limit to reset."),
    (403, {"error": "Forbidden", "details": "Scoped key"}, Forbidden,
     "Supermemory does not allow this key for this space or endpoint (403 Forbidden: Scoped "
     "key) — use a key with access to it."),
    (404, {"error": "Not Found", "details": "No such memory"}, NotFound,
     "Supermemory found nothing there (404 Not Found: No such memory) while trying to "
     "forget memory m1."),
    (422, {"error": "Validation", "details": "limit too big"}, BadRequest,
     "Supermemory refused the request to forget memory m1 (422 Validation: limit too big)."),
    (301, None, BadRequest,
     "Supermemory answered with a redirect (301 Moved Permanently) while trying to forget "
     "memory m1 — check the base URL (https, and no extra path)."),
    (500, None, ServerError,
     "Supermemory had a service error (500 Internal Server Error) after 1 attempt — try "
     "again later."),
])
def test_http_error_sentences(status, body, kind, sentence):
    err = http_error("Supermemory", status, body, "forget memory m1")
    assert isinstance(err, kind) and str(err) == sentence


def test_fastapi_shapes_and_quota():
    err = http_error("Spomory", 422, {"detail": [{"loc": ["query", "query"],
                                                  "msg": "Field required"}]}, "search")
    assert str(err) == "Spomory refused the request to search (422 Unprocessable Entity: " \
                       "query.query: Field required)."
    quota = http_error("Spomory", 429, {"detail": "API key quota exceeded"}, "export")
    assert isinstance(quota, QuotaExceeded) and not quota.retryable
    limited = http_error("Spomory", 429, {"detail": "slow down"}, "export", retry_after=2,
                         attempts=4)
    assert isinstance(limited, RateLimited) and "asked to wait 2 s" in str(limited)


def test_capabilities_and_reasons():
    caps = Capabilities(forget=True, why_not=(("history", "No history here."),))
    assert caps.can("forget") and caps.reason("forget") is None
    assert caps.reason("history") == "No history here."
    assert caps.reason("restore") == "This source cannot restore."
    assert set(caps.as_dict()) == set(CAPABILITY_NAMES)
    with pytest.raises(ValueError):
        caps.can("teleport")
    assert not SupermemorySource.capabilities.can("restore")
    assert (SupermemorySource.capabilities.reason("restore") or "").startswith(
        "Supermemory's API")
    assert SpomorySource.capabilities.can("forget_all")
    assert not FileSource.capabilities.can("forget")
    assert all(EmbeddedSource.capabilities.as_dict().values())


def test_preview_confirm_words_and_progress_fraction():
    preview = ForgetAllPreview("space", 3, confirm_words=("space", "3"))
    assert preview.accepts(" space ") and preview.accepts("3") and not preview.accepts("4")
    assert LoadProgress(2, 4, 10, 20, 1).fraction == 0.75
    assert LoadProgress(1, None, 0, 0).fraction == 0.0


def test_config_validation():
    cfg = SupermemoryConfig(api_key=SecretStr("k-123456"), base_url="https://self.hosted/api/")
    assert cfg.base_url == "https://self.hosted/api" and cfg.host == "self.hosted"
    assert cfg.page_limit == 200 and cfg.concurrency == 4 and cfg.timeout_s == 30
    # retries end by time (a throttled service is waited out for a minute); the attempt
    # count is only a safety cap, and 8 requests in flight may grow to 16
    assert cfg.retry_budget_s == 60 and cfg.max_attempts == 100
    assert cfg.concurrency_ceiling == 16
    with pytest.raises(ValueError):
        SupermemoryConfig(api_key=SecretStr("k-123456"), base_url="ftp://x")
    with pytest.raises(ValueError):
        SupermemoryConfig(api_key=SecretStr("k-123456"), concurrency=0)
