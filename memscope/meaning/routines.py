"""A day's routine read as hours: when someone gets up, works out, starts work and goes to
bed.

"is up at 5:30 every day", "wakes at five", "never gets up before ten", "rarely gets out
of bed before eleven", "goes to bed at 10 pm sharp", "never goes to sleep before 2 am".
Two texts about one person conflict when one puts the routine at an hour the other rules
out: up at five against never up before ten; in bed at ten against never asleep before
two; or up at six every day against up at nine every day.

A bare hour is read as the routine suggests: getting up at "five" is 05:00; going to bed
at "ten" is 22:00, and at "two" is 02:00 the next night (counted as 26:00, so that a
bedtime after midnight is later than one before it). Pure and deterministic.
"""

from __future__ import annotations

import re
from functools import lru_cache

from memscope.meaning.normal import normalise
from memscope.meaning.prefilter import guarded

_HOUR_WORDS = {w: n for n, w in enumerate(
    ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
     "eleven", "twelve"))} | {"noon": 12, "midday": 12, "midnight": 24}
_HOUR = r"(?P<hour>\d{1,2}(?::\d\d)?|" + "|".join(_HOUR_WORDS) + r")\b"
_WAKE = (r"(?:(?:is|am|are|gets?|got|getting|wakes?|woke|waking)\s+up|wakes?|woke|"
         r"(?:gets?|got|getting)\s+out\s+of\s+bed|rises|gets?\s+up)")
_SLEEP = (r"(?:goes|go|going|went|gets?|got|heads?)\s+to\s+(?:bed|sleep)|falls?\s+asleep|"
          r"turns?\s+in|bedtime\s+is|(?:is|gets?)\s+in\s+bed|sleeps?")
#: a daily workout ("goes running every morning at 6 am", "never works out before 10 am")
_EXERCISE = (r"(?:goes|go|going|went)\s+(?:running|jogging|swimming|to\s+the\s+gym)|"
             r"(?:runs|trains)(?!\s+(?:the|a|an|her|his|their|its|our|this|that|new)\b)|jogs|"
             r"exercises?|works?\s+out|hits\s+the\s+gym|swims")  # not "runs the meeting"
#: the start of one's working day ("starts work at 7 a.m.", "workday begins at 10", "clocks in
#: at 4 a.m.")
_WORK = (r"(?:starts?|starting|begins?)\s+work|work\s?day\s+(?:begins|starts)|"
         r"(?:clocks?|clocking)\s+in")
_ACT = (rf"(?:(?P<wake>{_WAKE})|(?P<sleep>{_SLEEP})|(?P<exercise>{_EXERCISE})|"
        rf"(?P<work>{_WORK}))")
#: "is up at 5:30", "goes to bed at 22:00"
_AT = re.compile(rf"\b{_ACT}\b[^.;,]{{0,20}}?\b(?:at\s+(?:around\s+|about\s+)?|around\s+|"
                 rf"about\s+|from\s+){_HOUR}", re.I)
#: "is always asleep by 10 pm": in bed at that hour or before
_BY = re.compile(rf"\b(?:{_ACT}|(?P<asleep>asleep|in bed))\b[^.;,]{{0,12}}?\b(?:by|before)\s+"
                 rf"{_HOUR}", re.I)
#: "usually stays up gaming until two in the morning": asleep at that hour, not before
_STAYS_UP = re.compile(rf"\bstay(?:s|ing)?\s+up\s+(?:[a-z]+\s+){{0,2}}?(?:until|till|til)\s+"
                       rf"(?:about\s+|around\s+)?{_HOUR}", re.I)
#: "hasn't once stayed up past 10 pm": asleep by then
_UP_PAST = re.compile(rf"(?:\bnever|\bnot|n['’]t)\s+(?:once\s+|ever\s+)?stay(?:s|ed)?\s+up\s+"
                      rf"(?:past|after|beyond)\s+{_HOUR}", re.I)
#: "never gets up before ten", "rarely goes to sleep before 2 am"
_NOT_BEFORE = re.compile(rf"\b(?:never|rarely|seldom|hardly\s+ever)\b[^.;]{{0,20}}?\b"
                         rf"(?:{_ACT}|(?P<asleep>asleep))\b"
                         rf"[^.;,]{{0,20}}?\bbefore\s+{_HOUR}", re.I)
#: the same in Chinese, once its times are written one way (每天早上06:00起床, 每晚21:00就
#: 上床睡觉了, 从不在10:00之前起床)
_ZH_AT = re.compile(r"(?P<hour>\d{1,2}:\d\d)[^，。,；;\d]{0,3}?"
                    r"(?:(?P<wake>起床|醒来?|起来|才起)|(?P<sleep>睡觉|入睡|上床|睡))")
#: 每天都要睡到11:00: up at that hour
_ZH_SLEEPS_TILL = re.compile(r"睡到(?:上午|中午)?(?P<hour>\d{1,2}:\d\d)")
_ZH_NOT_BEFORE = re.compile(r"(?:从不|从来不|很少|不会|从没|从来没)在?(?P<hour>\d{1,2}:\d\d)"
                            r"(?:之前|以前|前)[^，。,；;]{0,2}?(?:(?P<wake>起床|醒|起来)|"
                            r"(?P<sleep>睡觉|入睡|上床|睡))")
_ZH_HABIT = re.compile(r"每天|每晚|每早|天天|总是|一般|通常|平时|都")
_HABIT = re.compile(r"\b(?:every|each|daily|always|usually|normally|sharp|weekday)\b", re.I)
_ROUTINE_CUE = guarded(re.compile(
    r"\b(?:up|wakes?|woke|waking|bed|sleeps?|asleep|turns? in|running|"
    r"work\s?day|clocks?|clocking|starts? work|starting work|"
    r"jogging|swimming|runs|jogs|gym|exercises?|works? out|trains|swims)\b"
    r"|起床|醒|起来|睡", re.I))


def _hours(raw: str, sleep: bool) -> float:
    """``raw`` ("5:30", "22:00", "ten") as hours, a bedtime after midnight past 24."""
    word = raw.lower()
    if word in _HOUR_WORDS:
        hour = float(_HOUR_WORDS[word])
        if sleep and 7 <= hour <= 11:
            hour += 12  # "goes to bed at ten": 22:00
    else:
        h, _sep, m = raw.partition(":")
        hour = int(h) + int(m or 0) / 60
        if sleep and 7 <= int(h) <= 11:
            hour += 12  # "in bed by 9:30": 21:30
    if sleep and hour < 7:
        hour += 24  # "never goes to sleep before 2 am": 26:00
    return hour


@lru_cache(maxsize=50_000)
def routine(text: str) -> tuple[tuple[str, str, float], ...]:
    """``(activity, how, hour)`` per routine hour in ``text``: activity ``wake`` or
    ``sleep``; how ``at`` (a habit at that hour), ``once`` (at that hour, not said to be a
    habit), ``not_before`` or ``by`` (at that hour or before)."""
    if not _ROUTINE_CUE.search(text):
        return ()
    norm = normalise(text)
    zh = re.search(r"[\u4e00-\u9fff]", norm) is not None
    not_before, at, habit = (_ZH_NOT_BEFORE, _ZH_AT, _ZH_HABIT) if zh else (
        _NOT_BEFORE, _AT, _HABIT)
    out: list[tuple[str, str, float]] = []
    denied: list[tuple[int, int]] = []
    for m in not_before.finditer(norm):
        act = "sleep" if m.groupdict().get("asleep") else _activity(m)
        out.append((act, "not_before", _hours(m.group("hour"), act == "sleep")))
        denied.append(m.span())
    if not zh:
        for m in _BY.finditer(norm):
            if any(start <= m.start() < end for start, end in denied):
                continue  # "never asleep before 2 am" is not asleep by then
            act = "sleep" if m.group("asleep") is not None else _activity(m)
            out.append((act, "by", _hours(m.group("hour"), act == "sleep")))
        out.extend(("sleep", "by", _hours(m.group("hour"), True)) for m in _UP_PAST.finditer(norm))
    if not out:
        how = "at" if habit.search(norm) else "once"
        for m in at.finditer(norm):
            act = _activity(m)  # (a working day's start is a routine)
            out.append((act, "at" if act == "work" else how,
                        _hours(m.group("hour"), act == "sleep")))
        out.extend(("sleep", how, _hours(m.group("hour"), True))
                   for m in ((_STAYS_UP.finditer(norm)) if not zh else ()))
        if zh:
            out.extend(("wake", how, _hours(m.group("hour"), False))
                       for m in _ZH_SLEEPS_TILL.finditer(norm))
    return tuple(out)


def _activity(m: re.Match[str]) -> str:
    """Which routine a match is of: ``sleep``, ``exercise``, ``work`` or ``wake``."""
    groups = m.groupdict()
    return "sleep" if groups.get("sleep") else "exercise" if groups.get("exercise") else (
        "work" if groups.get("work") else "wake")


def _out_before_up(x: tuple[str, str, float], y: tuple[str, str, float]) -> bool:
    """Out for a workout at an hour before the one the other says its owner is never up
    ("goes running every morning at 6 am" / "never gets up before ten")."""
    (_e, ex_how, ex_hour), (_w, wake_how, wake_hour) = (x, y) if x[0] == "exercise" else (y, x)
    return wake_how == "not_before" and ex_how in ("at", "once") and ex_hour < wake_hour


def routines_conflict(a: str, b: str) -> bool:
    """Whether the routine hours of ``a`` and ``b`` (one person's) cannot both hold."""
    first, second = routine(a), routine(b)
    return any(_hours_conflict(x, y) for x in first for y in second)


def _hours_conflict(x: tuple[str, str, float], y: tuple[str, str, float]) -> bool:
    """Two routine hours (:func:`routine`) that cannot both hold."""
    (act, how, hour), (act2, how2, hour2) = x, y
    if {act, act2} == {"exercise", "wake"}:
        return _out_before_up(x, y)
    if act != act2:
        return False
    if how == "not_before" and how2 in ("at", "once") and hour2 < hour:
        return True
    if how2 == "not_before" and how in ("at", "once") and hour < hour2:
        return True
    if how == how2 == "at" and abs(hour - hour2) >= 1:
        return True
    if {how, how2} == {"by", "not_before"} and (
            hour if how == "by" else hour2) < (hour2 if how == "by" else hour):
        return True  # "in bed by 9:30 every night" / "rarely sleeps before 2 am"
    if how == "by" and how2 in ("at", "once") and hour2 > hour + 0.5:
        return True  # "always asleep by 10 pm" / "goes to bed around 2 am"
    return how2 == "by" and how in ("at", "once") and hour > hour2 + 0.5


__all__ = ["routine", "routines_conflict"]
