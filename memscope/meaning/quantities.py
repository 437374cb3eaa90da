"""Quantities one person has one of, said in other words: an amount paid or earned for one
thing ("pays £950 a month in rent" / "monthly rent is 1,200 pounds", 月薪两万元 / 每月工资
一万二), a height ("is 1.90 m tall" / "is five foot six"), the date of one event ("the
wedding is on 5 September 2025" / "are getting married on 2025-10-18", "flight to Osaka
leaves on 14 June" / "departs on the 20th of June") and the weekday of a weekly slot
("weekly team meeting is every Tuesday" / "takes place on Thursdays"); in Chinese, heights
(一米八五 / 172厘米), the time of one event (婚礼, 航班, 看牙, 体检: a date, a weekday, an hour
or half of the day) and a weekly slot (每周只健身一次，固定在周三下午).

:func:`measures` reads a text's quantities as :class:`Measure` (what is measured, a key
naming the thing, a value in one unit); :func:`measures_conflict` says whether two texts'
measures of one key disagree. Amounts are compared per year (a month is twelfth of one),
heights in centimetres (4 cm apart is another height), dates by day, weekdays as sets that
share none when one side says the slot is weekly or "only". The owner check (one person)
is the caller's (:mod:`memscope.meaning.situations`).

The rules are in ``docs/graph-rules.md`` §7 ("Quantities"). Pure and deterministic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memscope.meaning.claim_text import _N, WEEKDAYS, _number, _set, date_parts
from memscope.meaning.normal import _ZH_DIGIT, zh_number
from memscope.meaning.prefilter import guarded


@dataclass(frozen=True)
class Measure:
    """One quantity a text gives: ``kind`` ("money", "height", "date", "weekday", "event"),
    ``key``
    (the thing measured: "rent", "salary", "gym membership", "wedding", "flight lisbon"),
    ``value`` (a float, a date's parts, or a set of weekdays) and ``only`` (the text says
    this is all there is: "only on Saturdays", "her only trip there"), ``rough`` (said as
    about so much: "around €70k")."""

    kind: str
    key: str
    value: object
    only: bool = False
    rough: bool = False
    #: a bound, not the amount: "over" ("earns well over $150,000") or "under"
    bound: str = ""


# -- money --------------------------------------------------------------------------------

_CURRENCY_SIGN = {"£": "GBP", "$": "USD", "€": "EUR", "¥": "CNY"}
_CURRENCY_WORD = {"pound": "GBP", "pounds": "GBP", "quid": "GBP", "gbp": "GBP",
                  "dollar": "USD", "dollars": "USD", "usd": "USD", "euro": "EUR",
                  "euros": "EUR", "eur": "EUR"}
_NUM = r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_MULT = r"(?:\s*(?P<mult>k\b|K\b|m\b|thousand\b|million\b|grand\b))?"
_MONEY = (re.compile(rf"(?P<sign>[£$€¥])\s?{_NUM}{_MULT}", re.I),
          re.compile(rf"\b{_NUM}{_MULT}\s*(?P<word>pounds?|quid|dollars?|euros?|GBP|USD|EUR)\b",
                     re.I))
_PER_MONTH = guarded(re.compile(
    r"\b(?:a|per|each|every)\s+month\b|\bmonthly\b|/\s?(?:month|mo)\b"
    r"|\bpcm\b|\bmonth(?:ly)?\s+(?:rent|salary|fee|pay)", re.I))
_PER_YEAR = re.compile(r"\b(?:a|per|each|every)\s+year\b|\bannual(?:ly)?\b|\byearly\b"
                       r"|/\s?(?:year|yr)\b|\bp\.?a\.?\b|\ba\s+year\b", re.I)
_PER_WEEK = re.compile(r"\b(?:a|per|each|every)\s+week\b|\bweekly\b", re.I)
#: what an amount is for, by family (the first found names the key)
_MONEY_KEYS = (
    # one's share of a rent is not the rent ("Zoe's share of the rent comes to £600")
    ("rent share", re.compile(r"\b(?:share|half|part|portion|cut) of the rent\b|\bsplits? the "
                              r"rent\b", re.I)),
    ("rent", re.compile(r"\brent(?:s|ed|ing)?\b", re.I)),
    ("mortgage", re.compile(r"\bmortgage\b", re.I)),
    # a household's or a couple's income is no one's salary ("a combined household income")
    ("household income", re.compile(r"\b(?:combined|household|joint|family|total)\s+(?:\w+\s+)?"
                                    r"income\b|\bbetween them\b", re.I)),
    ("salary", re.compile(r"\b(?:salary|earns?|earning|income|wages?|is\s+paid|gets\s+paid)"
                          r"\b|\b(?:makes?|making|brings?\s+in)\b(?=[^.;]*"
                          r"(?:\b(?:a|per|each|every)\s+(?:year|month)\b|/\s?(?:yr|year)\b))",
                          re.I)),
)
_FOR_THING = re.compile(r"\b(?:for|on)\s+(?:(?:his|her|their|the|a)\s+)?(?P<thing>[a-z]+"
                        r"(?:\s+[a-z]+)?)\b(?!\s+(?:a|per|each|every)\b)")
_THING_COSTS = re.compile(r"['’]s\s+(?P<thing>[a-z]+(?:\s+[a-z]+)?)\s+(?:costs?|is|comes\s+to)"
                          r"\s+[£$€¥\d]")
_PERIOD_WORDS = _set("a an per each every month monthly year yearly annually week weekly")


def _money_key(text: str) -> str | None:
    for key, pattern in _MONEY_KEYS:
        if pattern.search(text):
            return key
    for pattern in (_THING_COSTS, _FOR_THING):
        m = pattern.search(text)
        if m:
            words = [w for w in m.group("thing").lower().split() if w not in _PERIOD_WORDS]
            if words:
                return " ".join(words)
    return None


def _amount(m: re.Match[str]) -> tuple[str, float] | None:
    found = m.groupdict()
    currency = (_CURRENCY_SIGN.get(found.get("sign") or "")
                or _CURRENCY_WORD.get((found.get("word") or "").lower()))
    if not currency:
        return None
    value = float(m.group("num").replace(",", ""))
    mult = (m.group("mult") or "").lower()
    value *= {"k": 1e3, "thousand": 1e3, "grand": 1e3, "m": 1e6, "million": 1e6}.get(mult, 1)
    return currency, value


def _per_year(text: str, key: str) -> float | None:
    """How many of the text's periods make a year (``None``: said once, no period)."""
    if _PER_MONTH.search(text):
        return 12.0
    if _PER_WEEK.search(text):
        return 52.0
    if _PER_YEAR.search(text):
        return 1.0
    return {"rent": 12.0, "mortgage": 12.0, "salary": 1.0}.get(key)


_ZH_MONEY = re.compile(r"(?P<num>\d+(?:\.\d+)?|[零一二两三四五六七八九十百千]+)(?P<wan>万)?"
                       r"(?P<rest>[零一二两三四五六七八九千百]*)(?:元|块|人民币)?")
#: (a year's or a household's whole income, bonuses and all, is no salary: 年收入, 家庭收入)
_ZH_MONEY_KEYS = (("household income", re.compile(r"(?:年|总|家庭|全家|税前年)收入")),
                  ("salary", re.compile(r"月薪|年薪|工资|薪水|收入|挣|税后到手|到手工资")),
                  ("rent", re.compile(r"房租|租金")))


def _zh_money(text: str) -> list[Measure]:
    for key, pattern in _ZH_MONEY_KEYS:
        cue = pattern.search(text)
        if not cue:
            continue
        per_year = 1.0 if re.search(r"年薪|[每一]年|全年|年租", text) else 12.0
        for m in _ZH_MONEY.finditer(text, cue.end() if key != "salary" else 0):
            value = _zh_value(m)
            if value is not None and value >= 100:
                return [Measure("money", f"CNY {key}", value * per_year)]
    return []


def _zh_value(m: re.Match[str]) -> float | None:
    raw = m.group("num")
    base = float(raw) if raw[0].isdigit() else zh_number(raw)
    if base is None:
        return None
    if m.group("wan"):
        rest = m.group("rest")
        extra = (zh_number(rest) or 0) if rest else 0
        # 一万二 is 12,000: a lone digit after 万 counts thousands
        if rest and len(rest) == 1:
            extra *= 1000
        return base * 10_000 + extra
    return base


#: an amount that is a part, a past one, or one more ("an extra £300 a month from tutoring",
#: "paid £800 when she lived in Leeds"): not the whole of one thing now
_NOT_THE_AMOUNT = guarded(re.compile(
    r"\b(?:extra|additional|bonus|on\s+top|side|another|also|"
    r"(?<!\bis )(?<!\bgets )(?<!\bare )paid|"
    r"earned|used\s+to|was|were|previously|formerly|back\s+then|"
    r"when\s+(?:she|he|they|i|we)\b)", re.I))


#: an amount said as a bound ("over £50k", "up to $90,000"): no one value to compare
_BOUND = re.compile(r"\b(?:over|under|more\s+than|less\s+than|at\s+least|at\s+most|up\s+to|"
                    r"upwards\s+of|below|above)\s+[£$€¥\d]", re.I)
#: an amount said roughly ("around €70k", "about £48,000"): compared within a tenth
_ROUGHLY = re.compile(r"\b(?:around|about|roughly|approximately|approx\.?|nearly|almost|some|"
                      r"circa|just\s+under|just\s+over)\s+[£$€¥\d]|~", re.I)


def _money(text: str) -> list[Measure]:
    key = _money_key(text)
    if key is None or _NOT_THE_AMOUNT.search(text):
        return []
    bound = ""
    if (m := _BOUND.search(text)) is not None:
        bound = "under" if re.match(r"under|less|at\s+most|up\s+to|below", m.group(0),
                                    re.I) else "over"
    out = []
    for m in (m for pattern in _MONEY for m in pattern.finditer(text)):
        amount = _amount(m)
        if amount is None:
            continue
        per_year = _per_year(text, key)
        currency, value = amount
        out.append(Measure("money", f"{currency} {key}",
                           value * per_year if per_year else value,
                           rough=bool(_ROUGHLY.search(text)), bound=bound))
    return out[:1] if len(out) == 1 else []  # two amounts in one clause: not read


# -- height -------------------------------------------------------------------------------

_SMALL = {w: n for n, w in enumerate(("zero", "one", "two", "three", "four", "five", "six",
                                      "seven", "eight", "nine", "ten", "eleven"))}
_SMALL_WORD = "|".join(_SMALL)
_FEET = re.compile(rf"\b(?P<ft>[4-7]|{_SMALL_WORD})\s*(?:ft|foot|feet|')\s*(?:and\s+)?"
                   rf"(?P<inch>1[01]|\d|{_SMALL_WORD})?(?:\s*(?:in(?:ches)?\b|\"|”))?", re.I)
_METRES = re.compile(r"\b(?P<m>[12][.,]\d{1,2})\s*m\b|\b(?P<cm>1\d\d|2[0-2]\d)\s*cm\b", re.I)
_HEIGHT_CUE = re.compile(r"\b(?:tall|height|short(?:est)?|tallest|stands)\b"
                         r"|\b(?:is|at)\s+(?:just\s+|only\s+|about\s+|around\s+)?"
                         r"(?:[12][.,]\d|1\d\d\s*cm|[4-7]\s*(?:ft|foot|feet|')|"
                         r"(?:four|five|six|seven)\s+(?:ft|foot|feet))", re.I)


def _height(text: str) -> list[Measure]:
    if not _HEIGHT_CUE.search(text):
        return []
    m = _METRES.search(text)
    if m:
        value = (float(m.group("m").replace(",", ".")) * 100 if m.group("m")
                 else float(m.group("cm")))
        return [Measure("height", "height", value)]
    m = _FEET.search(text)
    if m:
        ft, inch = m.group("ft").lower(), (m.group("inch") or "0").lower()
        feet = int(ft) if ft.isdigit() else _SMALL[ft]
        inches = int(inch) if inch.isdigit() else _SMALL[inch]
        return [Measure("height", "height", round((feet * 12 + inches) * 2.54, 1))]
    return []


# -- the date of one event ----------------------------------------------------------------

_PLACE = r"(?P<place>[A-Z][\w'’-]+)"
_EVENTS = (
    ("wedding", re.compile(r"\bwedding\b|\bgetting\s+married\b|\bget\s+married\b"
                           r"|\bmarrying\b|\bmarry\b", re.I)),
    ("flight", re.compile(rf"\bflight\s+(?:back\s+)?to\s+{_PLACE}"
                          rf"|\bfl(?:ies|y|ying)\s+(?:out\s+|back\s+)?to\s+"
                          rf"{_PLACE.replace('place', 'place2')}")),
    ("appointment", re.compile(r"\b(?P<what>[a-z]+)\s+appointment\b")),
    ("lease", re.compile(r"\blease\b", re.I)),
    ("birthday", re.compile(r"\bbirthday\b|\bborn\s+on\b", re.I)),
)
_WHOSE = re.compile(r"\b(?P<who>[A-Z][\w-]*)['’]s\s+(?:[\w-]+\s+){0,2}?(?:wedding|flight|"
                    r"appointment|lease|birthday)\b")
_DMY = re.compile(r"\b(?P<d>\d{1,2})/(?P<m>\d{1,2})(?:/(?P<y>(?:19|20)?\d\d))?\b")
_ONLY = re.compile(r"\bonly\b|\bjust\s+once\b", re.I)


def _event_date(text: str) -> list[Measure]:
    for name, pattern in _EVENTS:
        m = pattern.search(text)
        if not m:
            continue
        groups = m.groupdict()
        place = groups.get("place") or groups.get("place2")
        what = groups.get("what")
        key = name + (f" {place.lower()}" if place else "") + (f" {what}" if what else "")
        whose = _WHOSE.search(text)
        if whose and not re.match(rf"(?:[A-Z][\w'’-]*\s+(?:and|&)\s+)?{whose['who']}['’]s\b",
                                  text):
            key += f" of {whose['who'].lower()}"  # "is going to Jess's wedding": not hers
        if name == "flight" and not place:
            return []
        parts = dict(date_parts(text))
        if "d" not in parts:
            slashed = _DMY.search(text)  # 14/03: day first, as written outside the US
            if slashed:
                parts = {"d": int(slashed["d"]), "m": int(slashed["m"])}
                if slashed["y"]:
                    parts["y"] = int(slashed["y"]) % 100 + 2000
        if "d" in parts and "m" in parts and 1 <= parts["m"] <= 12:
            return [Measure("date", key, (parts.get("y"), parts["m"], parts["d"]),
                            only=bool(_ONLY.search(text)))]
        return []
    return []


# -- the weekday of a weekly slot ---------------------------------------------------------

_DAY = re.compile(r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b", re.I)
_SLOT = re.compile(r"\b(?:weekly\s+(?P<weekly>[a-z]+(?:\s+[a-z]+){0,2}?)\s+(?:is|are|takes|"
                   r"happens|falls|runs)|(?P<noun>gym|swim(?:s|ming)?|meeting|class|lesson|"
                   r"practice|training|session|standup)\b)", re.I)
_SLOT_WORDS = {"swim": "swim", "swims": "swim", "swimming": "swim", "sessions": "gym",
               "session": "gym", "gym": "gym"}
#: the word before a slot's noun that names which one ("piano lesson", "team meeting")
_QUALIFIER = re.compile(r"\b(?P<q>[a-z]+)\s+(?:class|lesson|practice|training|meeting)s?\b")
_NOT_QUALIFIERS = _set("s the a an her his their my our weekly every each next")


def _weekday(text: str) -> list[Measure]:
    days = frozenset(d.lower() for d in _DAY.findall(text))
    if not days or not days <= WEEKDAYS:
        return []
    m = _SLOT.search(text)
    if not m:
        return []
    thing = (m.group("weekly") or m.group("noun")).lower()
    head = thing.split()[-1]
    key = _SLOT_WORDS.get(head, head)
    qualifier = _QUALIFIER.search(text.lower())
    if key not in ("gym", "swim") and qualifier and qualifier["q"] not in _NOT_QUALIFIERS:
        key = f"{qualifier['q']} {key}"
    weekly = bool(m.group("weekly")) or bool(re.search(r"\bonce\s+a\s+week\b", text, re.I))
    only = bool(_ONLY.search(text)) or weekly
    return [Measure("weekday", key, days, only=only)]


# -- the days one works -------------------------------------------------------------------

_DAY_NUMBER = {"monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2,
               "wed": 2, "thursday": 3, "thu": 3, "thur": 3, "thurs": 3, "friday": 4, "fri": 4,
               "saturday": 5, "sat": 5, "sunday": 6, "sun": 6}
_FULL_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_SHORT_DAY = r"(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.?"
#: days said as a range ("Monday to Friday", "Mon–Fri"), a word for some ("weekends",
#: "weekdays") or one by name ("Saturdays")
_DAYS = guarded(re.compile(
    rf"\b(?P<a>{_FULL_DAY}|{_SHORT_DAY})s?\s*(?:-|–|—|\bto\b|\bthrough\b|"
    rf"\bthru\b|\btill\b|\buntil\b)\s*(?P<b>{_FULL_DAY}|{_SHORT_DAY})s?\b"
    rf"|\b(?P<ends>weekends?|saturday and sunday|saturdays and sundays)\b"
    rf"|\b(?P<weekdays>weekdays)\b|\b(?P<one>{_FULL_DAY})s?\b", re.I))
#: a text about work ("works", "shift", "rota", "day off"), not a workout
_WORK_DAYS_CUE = guarded(re.compile(
    r"\bwork(?:s|ed|ing)?\b(?!\s+out)|\bshifts?\b|\brota\b|"
    r"\bschedule\b|\bclocks?\s+in\b|(?:days?|weekends?)\s+(?:\w+\s+)?off\b",
    re.I))
#: days said free: "has weekends off", "Sundays and Mondays off", "Wednesdays are their
#: fixed day off"; or "never works weekends"
_OFF_AFTER = re.compile(r"^[^.;,]{0,40}?\b(?:off|free)\b")
_NOT_WORKED = re.compile(r"\b(?:never|not|n['’]t)\b(?:,?\s*\w+,?){0,2}?\s+works?\s+"
                         r"(?:on\s+)?(?:the\s+)?$", re.I)


def _day_set(m: re.Match[str]) -> frozenset[int]:
    if m["ends"]:
        return frozenset((5, 6))
    if m["weekdays"]:
        return frozenset(range(5))
    if m["one"]:
        return frozenset((_DAY_NUMBER[m["one"].lower()],))
    a, b = (_DAY_NUMBER[m[g].lower().rstrip(".")] for g in ("a", "b"))
    return frozenset(range(a, b + 1)) if a <= b else frozenset((*range(a, 7), *range(b + 1)))


def _workdays(text: str) -> list[Measure]:
    """The days one works and the days one has off (kind ``workdays``, value the two sets
    of day numbers, Monday 0): "works Monday to Friday and always has weekends off",
    "Sundays and Mondays off", "never works weekends", "works every Saturday"."""
    if not _WORK_DAYS_CUE.search(text):
        return []
    on: set[int] = set()
    off: set[int] = set()
    found = list(_DAYS.finditer(text))
    next_off = False  # the days said next are off ("Sundays and Mondays off")
    for i in range(len(found) - 1, -1, -1):
        m = found[i]
        gap = text[m.end():found[i + 1].start() if i + 1 < len(found) else len(text)]
        days = _day_set(m)
        if _OFF_AFTER.match(gap) or _NOT_WORKED.search(text[:m.start()]) or (
                next_off and re.fullmatch(r"\s*(?:and|or|&)\s*", gap)):
            off |= days
            next_off = True
        else:
            on |= days
            next_off = False
    if not off and not re.search(r"\bwork(?:s|ed|ing)?\b(?!\s+out)|\bshifts?\b|\brota\b|"
                                 r"\bclocks?\s+in\b|\bschedule\b", text, re.I):
        return []
    return [Measure("workdays", "work", (frozenset(on), frozenset(off)))] if on or off else []


# -- Chinese: heights, the time of one event, a weekly slot --------------------------------

_ZH_DIGIT_CHARS = "".join(_ZH_DIGIT)
#: a person's height said so (身高, 个子, 172厘米高), not a thing's (门高两米)
_ZH_HEIGHT_CUE = re.compile(r"身高|个子|个头|(?:厘米|公分|米[\d零一二三四五六七八九]{0,2})[高矮]"
                            r"|(?<!没)有[12一两]米[\d零一二三四五六七八九]")  # 说自己有一米八五
_ZH_HEIGHT = re.compile(rf"(?P<m>[12])米(?P<dm>[{_ZH_DIGIT_CHARS}\d]{{1,2}})?"
                        rf"(?![\d{_ZH_DIGIT_CHARS}]*[公千]?米)"
                        r"|(?P<dec>[12]\.\d{1,2})米|(?P<cm>1\d\d|2[0-2]\d)\s*(?:厘米|公分|cm)"
                        r"|(?<=身高)(?:是|有|才|只有)?(?P<bare>1[3-9]\d|2[01]\d)(?![\d.])")
#: an event of one person and the words naming it (婚礼, 航班, 看牙 …)
_ZH_EVENTS = (("wedding", re.compile(r"婚礼|婚期")),
              ("flight", re.compile(r"航班|机票|起飞|飞机")),
              ("dentist", re.compile(r"牙医|看牙|拔牙|补牙|洗牙")),
              ("checkup", re.compile(r"体检")),
              ("interview", re.compile(r"面试")))
#: someone else's event that one attends (去参加王芳的婚礼, 喝喜酒)
_ZH_GUEST = re.compile(r"参加|出席|喝.{0,3}喜酒|送.{0,4}(?:去|到)机场|接机")
_ZH_REHEARSAL = re.compile(r"彩排|排练|试妆|试穿|筹备")
_ZH_MONTH_DAY = re.compile(r"(?P<m>\d{1,2})月(?P<d>\d{1,2})日")
_ZH_DAY = re.compile(r"(?<![月\d])(?P<d>\d{1,2})日")
_ZH_WEEKDAY = guarded(re.compile(
    r"(?P<when>下下?个?|这个?|上个?|本)?(?:周|星期|礼拜)"
    r"(?P<day>[一二三四五六日天])"))
_ZH_WEEKDAYS = {"一": "monday", "二": "tuesday", "三": "wednesday", "四": "thursday",
                "五": "friday", "六": "saturday", "日": "sunday", "天": "sunday"}
_ZH_HOUR = re.compile(r"(?P<h>[0-2]\d):(?P<min>[0-5]\d)")
_ZH_HALF = re.compile(r"(?P<am>早上|上午|早晨|清晨|凌晨)|(?P<pm>下午|晚上|傍晚|夜里)")
#: a weekly slot: its noun, and a lesson by its subject (钢琴课, 英语课)
_ZH_SLOT = guarded(re.compile(
    r"(?P<gym>健身)|(?P<swim>游泳)|(?P<yoga>瑜伽)"
    r"|(?P<lesson>[\u4e00-\u9fff]{2})课|(?P<meeting>例会|组会|周会)"))
_ZH_SLOT_ONLY = re.compile(r"只|固定|一次|其他时间都?不")


def _zh_height(text: str) -> list[Measure]:
    """A Chinese height in centimetres (一米八五 is 185, 1.72米, 172厘米) when the text says
    it is a person's (身高, 个子, 172厘米高)."""
    if not _ZH_HEIGHT_CUE.search(text):
        return []
    m = _ZH_HEIGHT.search(text)
    if not m:
        return []
    if m.group("cm") or m.group("bare"):  # 身高158: centimetres, unsaid
        return [Measure("height", "height", float(m.group("cm") or m.group("bare")))]
    if m.group("dec"):
        return [Measure("height", "height", float(m.group("dec")) * 100)]
    tail = "".join(str(_ZH_DIGIT.get(ch, ch)) for ch in (m.group("dm") or ""))
    return [Measure("height", "height", int(m.group("m")) * 100 + int(tail.ljust(2, "0")))]


def _zh_event(text: str) -> list[Measure]:
    """The time of one event of the owner's (婚礼定在10月3日, 航班是周二早上八点起飞, 牙医
    预约在15号下午): its day of the month, weekday, hour or half of the day, as given."""
    if _ZH_GUEST.search(text):
        return []
    for name, pattern in _ZH_EVENTS:
        if not pattern.search(text):
            continue
        when: dict[str, object] = {}
        if (md := _ZH_MONTH_DAY.search(text)) is not None:
            when["md"] = (int(md["m"]), int(md["d"]))
        elif (day := _ZH_DAY.search(text)) is not None:
            when["d"] = int(day["d"])
        if (wd := _ZH_WEEKDAY.search(text)) is not None:
            when["wd"] = ((wd["when"] or "")[:1], _ZH_WEEKDAYS[wd["day"]])
        if (hour := _ZH_HOUR.search(text)) is not None:
            when["h"] = int(hour["h"]) * 60 + int(hour["min"])
        if (half := _ZH_HALF.search(text)) is not None:
            when["half"] = "am" if half["am"] else "pm"
        if _ZH_REHEARSAL.search(text):  # 婚礼彩排: another event than the wedding
            name += " rehearsal"
        if name == "flight":  # 去程 / 回来的航班: two flights
            name += " back" if re.search(r"回程|返程|回来|回国|飞回", text) else (
                " out" if re.search(r"去程|出发|飞往|飞去", text) else "")
        return [Measure("event", name, when)] if when else []
    return []


def _zh_weekday(text: str) -> list[Measure]:
    """The weekdays of a Chinese weekly slot (每周三健身, 钢琴课固定在每周六), "only" when the
    text says so (只, 固定, 一次); not another week's day (下周三)."""
    days = frozenset(_ZH_WEEKDAYS[m["day"]] for m in _ZH_WEEKDAY.finditer(text)
                     if not m["when"])
    slot = _ZH_SLOT.search(text)
    if not days or slot is None or ("每" not in text and not _ZH_SLOT_ONLY.search(text)):
        return []
    key = slot.group("lesson") or next(k for k, v in slot.groupdict().items() if v)
    return [Measure("weekday", key, days, only=bool(_ZH_SLOT_ONLY.search(text)))]


# -- a commute ----------------------------------------------------------------------------

#: a span of time: a number (in digits or words, as claim_text reads them), "an", "half an"
_SPAN = rf"(?P<n>{_N}|half an|an|a)[- ](?P<unit>minutes?|mins?|hours?|hrs?)\b"
_ONE_SPAN = {"a": 1.0, "an": 1.0, "half an": 0.5}
#: how long one's way to work takes ("commute is a 90-minute train ride", "Getting to work
#: takes Yuki about ninety minutes", "lives a 10-minute walk from the office")
_COMMUTE = tuple(re.compile(p, re.I) for p in (
    rf"\bcommute\b[^.;]{{0,20}}?\b{_SPAN}",
    rf"\b(?:getting|going|travelling|traveling|the (?:trip|journey|ride)) (?:to|into) (?:work|"
    rf"the office)[^.;]{{0,25}}?\b{_SPAN}",
    rf"\blives (?:just |only )?(?:a|an) {_SPAN}[^.;]{{0,12}}?\bfrom (?:work|the office|"
    rf"(?:his|her|their) (?:office|work))\b"))


def _commute(text: str) -> list[Measure]:
    """How many minutes one's commute takes (kind ``duration``, key ``commute``)."""
    m = next((found for p in _COMMUTE if (found := p.search(text)) is not None), None)
    if m is None:
        return []
    n, unit = m.group("n").lower(), m.group("unit").lower()
    minutes = _ONE_SPAN.get(n) or float(number if (number := _number(n)).isdigit() else 0)
    if unit.startswith("h"):
        minutes *= 60  # "an hour", "two hours", "1 hour"
    return [Measure("duration", "commute", minutes, rough=True)] if minutes else []


# -- a night's sleep ----------------------------------------------------------------------

_HOURS_SLEPT = rf"(?P<n>{_N})(?:\s*(?:-|–|to|or)\s*(?P<n2>{_N}))?[- ]hours?\b"
#: how long one sleeps a night ("sleeps four or five hours a night", "gets a solid nine
#: hours of sleep", "needs a full nine hours and gets it every night")
_SLEEP = re.compile(rf"\b(?:(?:sleeps?|slept)\s+(?:only\s+|just\s+|about\s+|around\s+|"
                    rf"roughly\s+|barely\s+|maybe\s+)?|(?P<gets>gets?|needs?)\s+(?:only\s+|"
                    rf"just\s+|about\s+)?(?:a\s+)?(?P<full>solid\s+|full\s+|good\s+)?)"
                    rf"{_HOURS_SLEPT}"
                    rf"(?P<night>[^.;]{{0,30}}\b(?:sleep|night|nightly)\b)?", re.I)


def _sleep(text: str) -> list[Measure]:
    """How many hours one sleeps a night (kind ``duration``, key ``sleep``; a span's
    middle: "four or five hours" is 4.5)."""
    m = _SLEEP.search(text)
    if m is None or (m["gets"] and not m["full"] and (
            not m["night"] or re.match(r"\s+of\s+(?!sleep)", m["night"]))):
        return []  # "gets two hours of overtime every night"
    hours = [float(n) for n in (_number(m["n"].lower()), _number((m["n2"] or "").lower()))
             if n.isdigit()]
    return [Measure("duration", "sleep", sum(hours) / len(hours), rough=True)] if hours else []


# -- the longest run ----------------------------------------------------------------------

#: races by their length in km
_RACES = {"marathon": 42.2, "half marathon": 21.1, "half-marathon": 21.1, "ultra": 50.0,
          "ultramarathon": 50.0, "10k": 10.0, "10 k": 10.0, "全马": 42.2, "全程马拉松": 42.2,
          "马拉松": 42.2, "半马": 21.1, "半程马拉松": 21.1}
#: "has never run more than 5 km", "has never run further than a kilometre" (a bound)
_NEVER_RAN = re.compile(rf"\bnever\s+(?:once\s+)?(?:run|ran|jogged)\s+(?:more|further|farther|"
                        rf"longer)\s+than\s+(?P<n>{_N}|an?)\s*(?P<unit>km|k|kilomet(?:re|er)s?|"
                        rf"miles?)\b", re.I)
#: a race run ("has run several marathons", "ran the Berlin Marathon", "ran a half
#: marathon"): at least its length
_RAN_RACE = re.compile(r"\b(?:has\s+run|ran|runs|finished|completed|has\s+completed|has\s+"
                       r"finished)\s+(?:(?!never)[\w'’-]+\s+){0,3}?(?P<race>half[- ]marathon|"
                       r"ultramarathon|ultra|marathon|10\s?k)s?\b", re.I)
_ZH_NEVER_RAN = re.compile(r"(?:从(?:来)?没|没有?)(?:跑)?(?:过)?超过"
                           r"(?P<n>\d+|[一二两三四五六七八九十]+)公里")
_ZH_RAN_RACE = re.compile(r"(?:跑完|跑过|跑了|完成)(?:了)?[^，。,；;]{0,6}?"
                          r"(?P<race>全程马拉松|半程马拉松|全马|半马|马拉松)")


def _longest_run(text: str, zh: bool) -> list[Measure]:
    """How far one has run, at most (kind ``distance``, key ``run``, bound ``under``: "has
    never run more than 5 km") or at least (a race run: a marathon is 42.2 km)."""
    never = (_ZH_NEVER_RAN if zh else _NEVER_RAN).search(text)
    if never is not None:
        raw = never["n"].lower()
        if raw in ("a", "an"):
            km = 1.0
        elif zh:
            km = float(raw) if raw.isdigit() else float(zh_number(raw) or 0)
        else:
            km = float(number) if (number := _number(raw)).isdigit() else 0.0
        if not zh and never["unit"].lower().startswith("mile"):
            km *= 1.6
        return [Measure("distance", "run", km, bound="under")] if km else []
    ran = (_ZH_RAN_RACE if zh else _RAN_RACE).search(text)
    if ran is None:
        return []
    race = ran["race"].lower().replace(" ", "") if not zh else ran["race"]
    km = _RACES.get(race.replace("half-marathon", "half marathon").replace("halfmarathon",
                                                                           "half marathon"))
    return [Measure("distance", "run", km, bound="over")] if km else []


# -- reading and comparing ----------------------------------------------------------------

@lru_cache(maxsize=50_000)
def measures(text: str, zh: bool = False) -> tuple[Measure, ...]:
    """The quantities ``text`` gives (one clause's text is best: two in one text are
    read apart only when their keys differ)."""
    run = _longest_run(text, zh) if re.search(r"\bra[nc]|\bruns?\b|marathon|jogged|跑",
                                              text, re.I) else []
    if zh:
        return tuple(_zh_money(text) + _zh_height(text) + _zh_event(text) + _zh_weekday(text)
                     + run)
    found = _commute(text) if re.search(r"commute|to work|office|into work", text,
                                         re.I) else []
    if re.search(r"\bsleep|\bslept\b|\bhours?\b", text, re.I):
        found += _sleep(text)
    found += _workdays(text) + run
    if not any(ch.isdigit() for ch in text) and not _DAY.search(text) and not re.search(
            r"\b(?:foot|feet|ft)\b", text, re.I):
        return tuple(found)
    return tuple(_money(text) + _height(text) + _event_date(text) + _weekday(text) + found)


def measures_conflict(left: tuple[Measure, ...], right: tuple[Measure, ...]) -> str | None:
    """What kind of conflict two texts' measures of one thing show ("number", "time",
    "days"), or ``None`` when none is measured on both sides or they agree."""
    for x in left:
        for y in right:
            if x.kind != y.kind or x.key != y.key:
                continue
            if _differ(x, y):
                return "days" if x.kind == "workdays" else "time" if x.kind in (
                    "date", "weekday") else "number"
    return None


def _differ(x: Measure, y: Measure) -> bool:
    if x.kind == "duration":  # a commute: twice as long, and a quarter of an hour more;
        a, b = sorted((float(x.value), float(y.value)))  # type: ignore[arg-type]
        if x.key == "sleep":  # a night's sleep: three hours more
            return b - a >= 3
        return b >= 2 * a and b - a >= 15
    if x.kind == "distance":  # never more than 5 km / a marathon run
        return x.bound != y.bound and _out_of_bound(*((x, y) if x.bound == "under" else (y, x)))
    if x.kind == "money":
        a, b = float(x.value), float(y.value)  # type: ignore[arg-type]
        if x.bound or y.bound:  # "well over $150,000" / "~$60k": below the bound by a fifth
            return _out_of_bound(x, y) if x.bound else _out_of_bound(y, x)
        return abs(a - b) > (0.1 if x.rough or y.rough else 0.02) * max(a, b)
    if x.kind == "height":
        return abs(float(x.value) - float(y.value)) >= 4  # type: ignore[arg-type]
    if x.kind == "date":
        (ya, ma, da), (yb, mb, db) = x.value, y.value  # type: ignore[misc]
        if ya and yb and ya != yb:
            return True
        return (ma, da) != (mb, db)
    if x.kind == "event":
        return _event_differs(x.value, y.value)  # type: ignore[arg-type]
    if x.kind == "workdays":  # at work on a day the other says is off
        (on_x, off_x), (on_y, off_y) = x.value, y.value  # type: ignore[misc]
        return bool(on_x & off_y or on_y & off_x)
    if x.kind == "weekday":
        days_x, days_y = x.value, y.value
        return bool((x.only or y.only) and not (days_x & days_y))  # type: ignore[operator]
    return False


def _out_of_bound(bounded: Measure, other: Measure) -> bool:
    """An amount a fifth or more beyond the bound the other text sets (an amount against
    two bounds is not compared)."""
    if other.bound and not (bounded.kind == "distance" and other.bound == "over"):
        return False  # (a race run is at least its length)
    limit, value = float(bounded.value), float(other.value)  # type: ignore[arg-type]
    return value < 0.8 * limit if bounded.bound == "over" else value > 1.25 * limit


def _event_differs(x: dict[str, object], y: dict[str, object]) -> bool:
    """Two times of one event that cannot both hold: another date, day of the month or
    weekday; on one day (or no day given on either), another hour or half of the day."""
    if "md" in x and "md" in y and x["md"] != y["md"]:
        return True
    day_x = x["md"][1] if "md" in x else x.get("d")  # type: ignore[index]
    day_y = y["md"][1] if "md" in y else y.get("d")  # type: ignore[index]
    if day_x is not None and day_y is not None and day_x != day_y:
        return True
    if "wd" in x and "wd" in y and x["wd"] != y["wd"]:
        return x["wd"][0] == y["wd"][0]  # type: ignore[index]  # 下周一 / 下周一, not 这周 / 下周
    if "h" in x and "h" in y:
        return abs(int(x["h"]) - int(y["h"])) >= 60  # type: ignore[call-overload]
    return "half" in x and "half" in y and x["half"] != y["half"]
