"""Plain words for people who are not engineers: relative times (relation labels are
:func:`memscope.records.text.relation_label`).

>>> from datetime import UTC, datetime, timedelta
>>> now = datetime(2026, 3, 1, 12, tzinfo=UTC)
>>> relative_time(now - timedelta(days=3), now), relative_time(now + timedelta(days=2), now)
('3 days ago', 'in 2 days')
"""

from __future__ import annotations

from datetime import datetime

from memscope.records.time import aware

_MINUTE, _HOUR, _DAY = 60, 3600, 86400


def _count(n: int, unit: str) -> str:
    return f"{n} {unit}{'' if n == 1 else 's'}"


def _span(seconds: float) -> str:
    """How long ``seconds`` (≥ 45) is, in the largest unit that reads naturally."""
    if seconds < 45 * _MINUTE:
        return _count(max(1, round(seconds / _MINUTE)), "minute")
    if seconds < 22 * _HOUR:
        return _count(max(1, round(seconds / _HOUR)), "hour")
    days = seconds / _DAY
    if days < 13.5:
        return _count(max(1, round(days)), "day")
    if days < 26:
        return _count(round(days / 7), "week")
    if days < 320:
        return _count(max(1, round(days / 30.44)), "month")
    return _count(max(1, round(days / 365.25)), "year")


def relative_time(when: datetime, now: datetime) -> str:
    """``when`` as seen from ``now``, in words (naive times are read as UTC).

    >>> from datetime import UTC, timedelta
    >>> now = datetime(2026, 3, 1, 12, tzinfo=UTC)
    >>> [relative_time(now - d, now) for d in (timedelta(seconds=20), timedelta(minutes=5),
    ...  timedelta(hours=1), timedelta(days=1), timedelta(days=3), timedelta(days=20),
    ...  timedelta(days=100), timedelta(days=731))]
    ['just now', '5 minutes ago', '1 hour ago', 'yesterday', '3 days ago', '3 weeks ago', \
'3 months ago', '2 years ago']
    >>> relative_time(now + timedelta(days=2), now), relative_time(now + timedelta(hours=30), now)
    ('in 2 days', 'tomorrow')
    >>> relative_time(datetime(2026, 3, 1, 11, 58), now)
    '2 minutes ago'
    """
    seconds = (aware(when) - aware(now)).total_seconds()
    ahead, gap = seconds > 0, abs(seconds)
    if gap < 45:
        return "just now"
    if 22 * _HOUR <= gap < 36 * _HOUR:
        return "tomorrow" if ahead else "yesterday"
    span = _span(gap)
    return f"in {span}" if ahead else f"{span} ago"


__all__ = ["relative_time"]
