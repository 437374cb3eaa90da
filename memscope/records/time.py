"""The one place times are read, written and computed with (always timezone-aware UTC)."""

from __future__ import annotations

import functools
from datetime import UTC, date, datetime
from datetime import time as clock


def utc_now() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def aware(when: datetime) -> datetime:
    """``when`` as an aware time (a naive time is read as UTC, like the parsers do).

    >>> aware(datetime(2026, 1, 2)).isoformat()
    '2026-01-02T00:00:00+00:00'
    """
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


@functools.lru_cache(maxsize=200_000)
def _parse(text: str) -> datetime | None:
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        return None
    return aware(parsed)


def parse_time(value: object) -> datetime | None:
    """Parse an ISO-8601 time (``Z`` or offset; naive is read as UTC); ``None`` if unusable.

    >>> parse_time("2026-11-30T12:00:00Z").isoformat()
    '2026-11-30T12:00:00+00:00'
    >>> parse_time("yesterday") is None, parse_time(42) is None
    (True, True)
    """
    if not isinstance(value, str) or not value:
        return None
    return _parse(value.strip())


def format_time(value: datetime | None) -> str | None:
    """Format a time as ISO-8601 UTC with a trailing ``Z`` (``None`` stays ``None``).

    >>> format_time(datetime(2026, 11, 30, 12, 0, tzinfo=UTC))
    '2026-11-30T12:00:00Z'
    """
    if value is None:
        return None
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def iso_utc(value: datetime) -> str:
    """Format a time as ISO-8601 UTC to the second with a trailing ``Z`` (naive = UTC).

    >>> iso_utc(datetime(2026, 11, 30, 12, 0, 5, 999, tzinfo=UTC))
    '2026-11-30T12:00:05Z'
    """
    return aware(value).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def day_end(day: date) -> datetime:
    """The last instant of ``day`` in UTC: "as it stood on that date".

    >>> day_end(date(2026, 11, 12)).isoformat()
    '2026-11-12T23:59:59.999999+00:00'
    """
    return datetime.combine(day, clock.max, tzinfo=UTC)
