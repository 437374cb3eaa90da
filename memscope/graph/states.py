"""Memory states (colour and badges), judged against an injectable ``now``.

Example::

    >>> from datetime import datetime, UTC
    >>> from memscope.records.models import MemoryRecord
    >>> memory_state(MemoryRecord("m", "x", is_latest=False), datetime(2026, 1, 1, tzinfo=UTC))
    'superseded'
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from datetime import datetime, timedelta

from memscope.records.models import MemoryRecord

STATES = ("forgotten", "expired", "expiring", "superseded", "recent", "latest")
EXPIRING_WITHIN = timedelta(days=7)
RECENT_WITHIN = timedelta(hours=24)
_TICK = timedelta(microseconds=1)


def memory_state(mem: MemoryRecord, now: datetime) -> str:
    """The first state that holds, in the order of graph-semantics.md."""
    if mem.is_forgotten:
        return "forgotten"
    forget_after = mem.forget_after
    if forget_after is not None:
        if forget_after <= now:
            return "expired"
        if forget_after - now < EXPIRING_WITHIN:  # a difference: safe for any ``now``
            return "expiring"
    if not mem.is_latest:
        return "superseded"
    created = mem.created_at
    if created is not None and timedelta(0) <= now - created < RECENT_WITHIN:
        return "recent"  # not before it was learnt (a fact true before the memory knew it)
    return "latest"


def transition_times(memories: Iterable[MemoryRecord]) -> list[datetime]:
    """Every instant at which some memory's state can change, sorted.

    A state depends on ``now`` only through four thresholds: ``createdAt`` (recent
    starts), ``createdAt + 24 h`` (recent ends), ``forgetAfter − 7 days`` (expiring
    starts) and ``forgetAfter`` (expired starts). Between two consecutive instants every
    state, and so every time-dependent finding, stays the same.
    """
    out: list[datetime] = []
    for mem in memories:
        if mem.created_at is not None:
            out.extend((mem.created_at, mem.created_at + RECENT_WITHIN))
        if mem.forget_after is not None:
            # expiring needs now > forgetAfter − 7 d (strictly): it starts 1 µs later
            out.append(mem.forget_after - EXPIRING_WITHIN + _TICK)
            out.append(mem.forget_after)
    out.sort()
    return out


def state_epoch(transitions: list[datetime], now: datetime) -> int:
    """How many transitions have passed at ``now``: equal epochs mean equal states.

    >>> from datetime import UTC, timedelta
    >>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
    >>> times = transition_times([MemoryRecord("m", "x", created_at=t0)])
    >>> [state_epoch(times, t0 + timedelta(hours=h)) for h in (-1, 0, 25)]
    [0, 1, 2]
    """
    return bisect_right(transitions, now)
