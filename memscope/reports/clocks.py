"""A temporal fact's two clocks in words (Graphiti, Zep): when it was true in the world,
and when the memory learnt it and stopped believing it.

>>> from datetime import UTC, datetime
>>> from memscope.records.models import MemoryRecord
>>> m = MemoryRecord("f", "Ana works at Acme", created_at=datetime(2026, 4, 3, tzinfo=UTC),
...                  valid_at=datetime(2026, 3, 1, tzinfo=UTC),
...                  invalid_at=datetime(2026, 6, 30, tzinfo=UTC),
...                  expired_at=datetime(2026, 7, 9, tzinfo=UTC))
>>> clocks_in_words(m)
'True from 1 March to 30 June 2026; learnt 3 April 2026, retired 9 July 2026.'
>>> clocks_in_words(MemoryRecord("m", "x")) is None
True
"""

from __future__ import annotations

from datetime import datetime

from memscope.records.models import MemoryRecord
from memscope.sources.graphiti_map import RELATION


def day(when: datetime, *, year: bool = True) -> str:
    """``3 April 2026`` (``3 April`` without the year)."""
    text = f"{when.day} {when.strftime('%B')}"
    return f"{text} {when.year}" if year else text


def is_temporal(mem: MemoryRecord) -> bool:
    """True for a memory that comes with a world clock (a Graphiti fact, or any memory
    that carries ``valid_at``, ``invalid_at`` or ``expired_at``)."""
    return (mem.valid_at is not None or mem.invalid_at is not None
            or mem.expired_at is not None or RELATION in mem.extra)


def clocks_in_words(mem: MemoryRecord) -> str | None:
    """Both clocks in one sentence, or ``None`` for a memory without a world clock. A
    fact with no ``valid_at`` says so rather than being placed at a guessed time."""
    if not is_temporal(mem):
        return None
    start, end = mem.valid_at, mem.invalid_at
    if start is not None and end is not None:
        same = start.year == end.year
        world = f"True from {day(start, year=not same)} to {day(end)}"
    elif start is not None:
        world = f"True from {day(start)}"
    elif end is not None:
        world = f"True until {day(end)} (since when is not recorded)"
    else:
        world = "When this became true is not recorded"
    learnt = f"learnt {day(mem.created_at)}" if mem.created_at else "learnt at a time not recorded"
    believed = f", retired {day(mem.expired_at)}" if mem.expired_at else ", still believed"
    return f"{world}; {learnt}{believed}."


__all__ = ["clocks_in_words", "day", "is_temporal"]
