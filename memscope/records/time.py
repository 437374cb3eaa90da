"""The one place times are read, written and computed with (always timezone-aware UTC).

Times are read only inside :data:`EARLIEST` … :data:`LATEST` (UTC): everything later
stages do with a time — a week either side, a day's end, a pandas ``Timestamp``
(1677-09-22 … 2262-04-11) — then stays computable. A time outside is treated as missing,
and :func:`read_time` says why.
"""

from __future__ import annotations

import functools
from datetime import UTC, date, datetime
from datetime import time as clock

#: the first instant a time may have (UTC); earlier ones are treated as missing
EARLIEST = datetime(1700, 1, 1, tzinfo=UTC)
#: the first instant after the supported range (UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
RANGE_TEXT = "1700-01-01 to 2199-12-31 UTC"


def utc_now() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def aware(when: datetime) -> datetime:
    """``when`` as an aware time (a naive time is read as UTC, like the parsers do).

    >>> aware(datetime(2026, 1, 2)).isoformat()
    '2026-01-02T00:00:00+00:00'
    """
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def in_range(when: datetime) -> bool:
    """True when ``when`` (naive = UTC) lies in the supported range.

    >>> in_range(datetime(2026, 1, 1)), in_range(datetime(9999, 12, 31, tzinfo=UTC))
    (True, False)
    """
    try:
        return EARLIEST <= aware(when) < LATEST
    except (OverflowError, ValueError):  # pragma: no cover - aware comparisons do not overflow
        return False


@functools.lru_cache(maxsize=200_000)
def _parse(text: str) -> datetime | str:
    """The time, or the reason it cannot be used (cached: feeds repeat their times)."""
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        parsed = aware(datetime.fromisoformat(text))
    except ValueError:
        return "is not an ISO-8601 time"
    if not in_range(parsed):
        return f"is outside the supported range ({RANGE_TEXT})"
    return parsed


def read_time(value: object) -> tuple[datetime | None, str | None]:
    """``(time, None)`` for a usable ISO-8601 time, ``(None, reason)`` for one that is
    not, ``(None, None)`` for an absent one (``None`` or ``""``).

    >>> read_time("0001-01-01T00:00:00+14:00")
    (None, 'is outside the supported range (1700-01-01 to 2199-12-31 UTC)')
    >>> read_time(None), read_time(42)
    ((None, None), (None, 'is not an ISO-8601 time'))
    """
    if value is None or value == "":
        return None, None
    if not isinstance(value, str):
        return None, "is not an ISO-8601 time"
    parsed = _parse(value.strip())
    if isinstance(parsed, str):
        return None, parsed
    return parsed, None


def parse_time(value: object) -> datetime | None:
    """Parse an ISO-8601 time (``Z`` or offset; naive is read as UTC); ``None`` if unusable
    (not a time, or outside the supported range).

    >>> parse_time("2026-11-30T12:00:00Z").isoformat()
    '2026-11-30T12:00:00+00:00'
    >>> parse_time("yesterday") is None, parse_time(42) is None
    (True, True)
    >>> parse_time("9999-12-31T23:59:59-14:00") is None
    True
    """
    return read_time(value)[0]


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
