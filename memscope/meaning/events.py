"""Public events someone says they lived through, and the years of birth that rules out:
"remembers watching the moon landing live on TV" / "was born in 1990", "served in the
Gulf War" / "was born in 2006", 记得小时候看过北京亚运会开幕式 / 2000年出生.

Each event is named with the year it happened (its last year, for a war): to remember
seeing it someone was born at least :data:`WITNESS_AGE` years before; to have served in
it, at least :data:`SERVICE_AGE`. A text is read for an event only when it also says it
was seen as it happened ("remembers", "watched … live", "as a kid", 亲眼, 记得, 直播) or
served in; a documentary, a book or a parent's memory of it is no witness. The events are
common knowledge, a short list; any other is left to the model check. Pure and
deterministic.

>>> witnessed("Aiko remembers watching the Apollo 11 moon landing live on TV.")
(1969, 3)
>>> witnessed("Hugo served as a soldier in the Gulf War.")
(1991, 16)
>>> witnessed("Aiko watched a documentary about the moon landing.") is None
True
"""

from __future__ import annotations

import re
from functools import lru_cache

from memscope.meaning.prefilter import guarded

#: the least age at which someone remembers seeing an event, and at which they serve in a
#: war
WITNESS_AGE = 3
SERVICE_AGE = 16

#: events by their year (a war by its last year)
EVENTS: tuple[tuple[re.Pattern[str], int], ...] = tuple(
    (re.compile(pattern, re.I), year) for pattern, year in (
        (r"\bmoon landing\b|\bapollo 11\b|\b(?:first|armstrong['’]s)\s+(?:steps?|walk)\s+on\s+"
         r"the\s+moon\b|\bman\s+(?:land|walk)(?:ing|ed)?\s+on\s+the\s+moon\b|登月", 1969),
        (r"\bwoodstock\b", 1969),
        (r"\bberlin\s+wall\s+(?:come|came|coming|fall|fell|falling|go|went|torn)\b|"
         r"\bfall\s+of\s+the\s+berlin\s+wall\b|柏林墙倒", 1989),
        (r"\bgulf\s+war\b|海湾战争", 1991),
        (r"\bvietnam\s+war\b|越南战争|越战", 1975),
        (r"\bfalklands?\s+war\b", 1982),
        (r"\b9/11\b|\bseptember\s+11(?:th)?\s+attacks?\b|\btwin\s+towers\s+(?:fall|fell|come|came|"
         r"collapse)|九一一|911事件", 2001),
        (r"\blive\s+aid\b", 1985),
        (r"\bchallenger\s+(?:disaster|explosion|explode|blew)", 1986),
        (r"\bchernobyl\b|切尔诺贝利", 1986),
        (r"\b(?:princess\s+)?diana['’]s\s+funeral\b", 1997),
        (r"\bkennedy\s+(?:assassination|was\s+shot|being\s+shot)|\bjfk\s+(?:assassination|was\s+"
         r"shot)", 1963),
        (r"\b(?:queen\s+elizabeth['’]s\s+|the\s+queen['’]s\s+)coronation\b", 1953),
        (r"\b1966\s+world\s+cup\b", 1966),
        (r"\b(?:los\s+angeles|la)\s+olympics\b|洛杉矶奥运会?", 1984),
        (r"\bbeijing\s+asian\s+games\b|北京亚运会", 1990),
        (r"\bbeijing\s+olympics\b|北京奥运会", 2008),
        (r"\bhong\s+kong\s+handover\b|香港回归", 1997),
        (r"澳门回归", 1999),
    ))
#: seen as it happened ("remembers watching", "saw it live", "as a kid", 亲眼, 记得)
_WITNESS = guarded(re.compile(
    r"\b(?:remembers?|remembered|recalls?|recalled|witnessed|vividly)\b|"
    r"\blive\s+on\s+(?:tv|television|the\s+telly|the\s+radio)\b|"
    r"\b(?:watched|saw|seen|watching|seeing)\b[^.;]{0,40}\blive\b|"
    r"\bas\s+(?:a|an)\s+(?:kid|child|boy|girl|teenager|toddler)\b|"
    r"\bin\s+person\b|\bwas\s+there\s+(?:when|for)\b|"
    r"亲眼|记得|小时候|直播|守在电视|电视上看|现场看|那年", re.I))
#: served in it ("served in the Gulf War", "fought in Vietnam", 参加过越战)
_SERVED = re.compile(r"\b(?:served|fought|deployed|was\s+a\s+soldier|as\s+a\s+soldier|"
                     r"veteran\s+of|volunteered|volunteer)\b|参加过|参战|当兵|志愿者", re.I)
#: a memory denied ("doesn't remember the moon landing", "was too young to remember")
_NOT_SEEN = guarded(re.compile(
    r"(?:n['’]t|\bnot|\bnever|\bno)\s+(?:\w+\s+){0,2}?(?:remember|recall|"
    r"memory|memories|see|seen|saw|watch|watched)\b|\btoo\s+young\b|"
    r"\bnot\s+(?:yet\s+)?born\b|(?:不记得|没印象|没看过|还没出生|太小)", re.I))
#: what is no witness: a film, a book or a lesson about it
_ABOUT = guarded(re.compile(
    r"\b(?:documentary|documentaries|film|movie|book|novel|podcast|lecture|"
    r"class|course|museum|exhibition|replay|footage|reading|read|studied|"
    r"learned|learnt|essay|thesis)\b|纪录片|电影|书|课|博物馆|回放|重播",
    re.I))


@lru_cache(maxsize=50_000)
def witnessed(text: str) -> tuple[int, int] | None:
    """The year of the public event ``text`` says its owner saw as it happened or served
    in, and the least age that takes (:data:`WITNESS_AGE`, :data:`SERVICE_AGE`); ``None``
    when it names none, or only one seen on a screen later, read about, or remembered by
    someone else."""
    years = [year for pattern, year in EVENTS if pattern.search(text)]
    if not years or _ABOUT.search(text) or _NOT_SEEN.search(text):
        return None
    if _SERVED.search(text):
        return min(years), SERVICE_AGE
    if _WITNESS.search(text):
        return min(years), WITNESS_AGE
    return None


def born_too_late(born: int, seen: tuple[int, int]) -> bool:
    """Someone born in ``born`` cannot have lived through ``seen`` (:func:`witnessed`).

    >>> born_too_late(1990, (1969, 3)), born_too_late(1960, (1969, 3))
    (True, False)
    """
    year, age = seen
    return born > year - age


__all__ = ["EVENTS", "SERVICE_AGE", "WITNESS_AGE", "born_too_late", "witnessed"]
