"""Which Supermemory API a connection speaks: the current one (v5), the legacy one (v3/v4),
or ``auto`` — the default — which asks v5's first route and falls back to the legacy API
only when v5 answers 404.

Supermemory shuts its legacy API down on 31 December 2026 (its API reference: "v3 and v4
are deprecated and will be shut down on December 31, 2026"). A connection still on the
legacy API says so once, with the date, and whether the account already answers v5; from
1 January 2027 a 404 on a legacy route says the API was retired, naming v5.

>>> retired(date(2026, 12, 31)), retired(date(2027, 1, 1))
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Literal

from memscope.records.time import utc_now
from memscope.sources.errors import DialectMismatch, NotFound, SourceError, route_missing

#: ``auto`` (the default: v5, or the legacy API where only that answers), ``v5``, ``legacy``
Dialect = Literal["auto", "v5", "legacy"]
DIALECTS: tuple[Dialect, ...] = ("auto", "v5", "legacy")
#: the last day Supermemory serves its legacy API (v3/v4)
LEGACY_LAST_DAY = date(2026, 12, 31)
LEGACY_LAST_DAY_TEXT = "31 December 2026"
#: v5's first route, asked by ``auto``: one namespace, the cheapest answer it has
PROBE_ROUTE = "GET /ns"


def today_utc() -> date:
    """Today's date in UTC (the retirement is dated in UTC)."""
    return utc_now().date()


def retired(today: date | None = None) -> bool:
    """True once Supermemory's legacy API has been shut down (from 1 January 2027)."""
    return (today or today_utc()) > LEGACY_LAST_DAY


def parse_dialect(value: str | None) -> Dialect:
    """A configured dialect (``None`` or empty: ``auto``); ``ValueError`` with one sentence
    for any other word.

    >>> parse_dialect(None), parse_dialect(" V5 "), parse_dialect("legacy")
    ('auto', 'v5', 'legacy')
    """
    word = (value or "auto").strip().lower()
    for known in DIALECTS:
        if word == known:
            return known
    raise ValueError(f"The Supermemory dialect {word!r} in the settings is not one Memscope "
                     "knows: use \"auto\" (the default), \"v5\" or \"legacy\".")


def retirement_sentence(answers_v5: bool | None, today: date | None = None) -> str:
    """What a connection on the legacy API is told, once: the date, and whether this
    account already answers the current API (``None``: not known).

    >>> retirement_sentence(True, date(2026, 12, 5))[:63]
    'Supermemory shuts its legacy API (v3/v4) down on 31 December 20'
    """
    if retired(today):
        head = (f"Supermemory retired its legacy API (v3/v4) on {LEGACY_LAST_DAY_TEXT}; this "
                "service still answers it, so it is a deployment of its own.")
    else:
        head = (f"Supermemory shuts its legacy API (v3/v4) down on {LEGACY_LAST_DAY_TEXT}; "
                "after that day a connection on it stops loading.")
    if answers_v5 is True:
        return head + " This account already answers the current API (v5): switch to it."
    if answers_v5 is False:
        return head + (" This service does not answer the current API (v5) yet: ask its "
                       "operator to move to it.")
    return head


def legacy_gone(route: str, *, today: date | None = None,
                service: str = "Supermemory") -> DialectMismatch:
    """The sentence for a 404 on the legacy API's first ``route``: before the shutdown,
    "choose v5"; from 1 January 2027, "the legacy API was retired"."""
    if retired(today):
        text = (f"Supermemory retired its legacy API (v3/v4) on {LEGACY_LAST_DAY_TEXT} (404 "
                f"on {route}): connect with its current API (v5) — choose 'current API (v5)' "
                "or 'Automatic' on the Connection page.")
        return DialectMismatch(text, dialect="legacy", service=service, status=404,
                               operation=route)
    text = (f"This service does not answer Supermemory's legacy API (v3/v4) routes (404 on "
            f"{route}); choose 'current API (v5)' or 'Automatic' on the Connection page.")
    return DialectMismatch(text, dialect="legacy", service=service, status=404,
                           operation=route)


@dataclass(frozen=True)
class Probe:
    """What asking v5's first route told: ``answers`` is True (it answered), False (404:
    no v5 here) — any other failure is raised, not guessed."""

    answers: bool
    calls: int = 1


def probe_v5(ask: Callable[[], object]) -> Probe:
    """Run ``ask`` (one request to v5's first route); a 404 that is a missing route means
    the service has no v5, a 404 with a reason of its own (or any other error) is raised.
    """
    try:
        ask()
    except NotFound as exc:
        if isinstance(route_missing(exc, "v5", PROBE_ROUTE), DialectMismatch):
            return Probe(False)
        raise
    return Probe(True)


def neither(v5_route: str, legacy_route: str, service: str = "Supermemory") -> SourceError:
    """The sentence when ``auto`` found neither API (a wrong base URL, most likely)."""
    return DialectMismatch(
        f"This service answers neither Supermemory's current API (404 on {v5_route}) nor its "
        f"legacy API (404 on {legacy_route}) — check the base URL.", dialect="auto",
        service=service, status=404, operation=legacy_route)


__all__ = ["DIALECTS", "LEGACY_LAST_DAY", "LEGACY_LAST_DAY_TEXT", "PROBE_ROUTE", "Dialect",
           "Probe", "legacy_gone", "neither", "parse_dialect", "probe_v5", "retired",
           "retirement_sentence", "today_utc"]
