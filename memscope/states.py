"""Memory states (colour and badges), judged against an injectable ``now``.

Example::

    >>> from datetime import datetime, UTC
    >>> from memscope.models import MemoryRecord
    >>> memory_state(MemoryRecord("m", "x", is_latest=False), datetime(2026, 1, 1, tzinfo=UTC))
    'superseded'
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memscope.models import MemoryRecord

STATES = ("forgotten", "expired", "expiring", "superseded", "recent", "latest")
EXPIRING_WITHIN = timedelta(days=7)
RECENT_WITHIN = timedelta(hours=24)


def utcnow() -> datetime:
    """The current time, timezone-aware."""
    return datetime.now(UTC)


def memory_state(mem: MemoryRecord, now: datetime) -> str:
    """The first state that holds, in the order of graph-semantics.md."""
    if mem.is_forgotten:
        return "forgotten"
    forget_after = mem.forget_after
    if forget_after is not None:
        if forget_after <= now:
            return "expired"
        if forget_after < now + EXPIRING_WITHIN:
            return "expiring"
    if not mem.is_latest:
        return "superseded"
    created = mem.created_at
    if created is not None and now - created < RECENT_WITHIN:
        return "recent"
    return "latest"
