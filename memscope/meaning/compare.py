"""Why two claims cannot both hold (:func:`conflict`): the one-template rules on two
whole texts, then clause by clause a fact with two values, a denial of what the other
affirms, opposite preferences."""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from difflib import SequenceMatcher
from functools import lru_cache

from memscope.meaning.claim_text import (
    _SLOT_MARKERS,
    _ZH_FUNCTIONAL,
    _ZH_MULTI,
    MONTHS,
    NEGATION,
    ROLES,
    STOP,
    WEEKDAYS,
    ZH_ROLES,
    _set,
    stem,
)
from memscope.meaning.clauses import _HEDGES, _ZH_HEDGES
from memscope.meaning.denials import (
    _KIN_KINDS,
    _PLAIN_VERBS,
    _POSSESSION,
    _ZH_AUX,
    _ZH_KIN,
    PAST_FORMS,
    ZH_AT_TIMES,
    Denial,
)
from memscope.meaning.diets import (
    FOR_OTHERS,
    NO_GLUTEN,
    allergens,
    consumed,
    eats_allergen,
    given_up,
    had_lately,
    had_once,
    managed,
    ruled_out,
)
from memscope.meaning.facts import (
    _FAMILY_KIND,
    CAR_MAKES,
    STATE_FAMILIES,
    ZODIAC,
    Fact,
    age_span,
    signs_of,
)
from memscope.meaning.levels import CLASHES, age_against_stage, clash
from memscope.meaning.places import near, within
from memscope.meaning.prefilter import guarded
from memscope.meaning.reading import Claim, Clause
from memscope.meaning.situations import features, other_surnames, situation

_NAMES = frozenset(("place", "person", "name"))
_TIMES_OF_DAY = _set("morning evening afternoon night noon midnight pm am")
_ZH_MEASURES = frozenset("个只位岁年月日号点分半次件本张元块米斤公里天周早晚上下午中夜")
#: a phrase that makes a claim hold only at times or places
_RESTRICTED = re.compile(r"\b(?:in|at|on|during|when|while|after|before|if|unless|except)\s+"
                         r"(?:the\s+)?(?!all\b)\w+|在.{1,6}(?:时|的时候)|(?:之后|之前|以后|以前)",
                         re.I)
#: a way of doing a thing that a denial may be of alone ("never played tennis competitively")
_QUALIFIED = re.compile(r"\b(?:competitively|professionally|seriously|formally|officially)\b",
                        re.I)


@dataclass(frozen=True, slots=True)
class Conflict:
    """Why two claims cannot both hold: ``what`` is ``negation``, ``preference``, ``date``,
    ``number``, ``place``, ``person``, ``name``, ``value``, ``time`` or ``lifetime``;
    ``left``/``right`` the differing words (empty for a negation); ``score`` in [0, 1];
    ``topical`` see below."""

    what: str
    left: str
    right: str
    score: float
    #: the rule itself found both on one attribute (a fact's family, a denied object), so
    #: the audit needs no embedding to say they are on one topic
    topical: bool = False


def _dice(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 1.0


#: a Chinese "only one": 唯一的电脑, 唯一的狗 (one value, as "only" in English)
_ZH_ONLY_ONE = re.compile(r"唯一的?[\u4e00-\u9fff]")


def _functional(a: Claim, b: Claim) -> bool | None:
    """True when the words both claims use (or their subject) name a one-value
    attribute, False for a many-values one, ``None`` when they name neither."""
    if a.zh:
        shared = [w for w in a.words if w in b.word_set]
        joined = "".join(shared) + "|" + "".join(a.subject)
        if any(c in joined for c in _ZH_FUNCTIONAL) or _ZH_ONLY_ONE.search(a.text + b.text):
            return True  # 奚文唯一的电脑是ThinkPad: one value, whichever text says "only"
        return False if any(c in joined for c in _ZH_MULTI) else None
    if a.subject_cues[0] or a.cues[0] & b.word_set:
        return True
    return False if a.subject_cues[1] or a.cues[1] & b.word_set else None


def values(c: Claim) -> frozenset[str]:
    """The claim's names, dates and numbers."""
    return c.values


def same_subject(a: Claim, b: Claim) -> bool:
    """Both claims name one subject (a pronoun names none)."""
    return bool(a.subject) and a.subject == b.subject and a.subject != ("*",)


def _value_kind(kinds: Sequence[str], before: str | None, zh: bool) -> str:
    if "date" in kinds:
        return "date"
    if "number" in kinds:
        return "number"
    if "name" in kinds and not zh:
        if before in ("in", "at", "from", "near", "into") or (before and before.startswith(
                ("mov", "fli", "fly", "trip", "travel", "relocat", "liv", "based"))):
            return "place"
        if before and before.startswith(("report", "marri", "with", "by", "manag", "boss")):
            return "person"
        return "name"
    return "value"


#: a note dated by when it held ("As of March 2026, …", 截至2026年3月)
_AS_OF = re.compile(r"\b(?:as of|as at)\s+(?:\w+\s+)?\d{4}\b|截至\s*\d{4}年(?:\d{1,2}月|底|初)?",
                    re.I)


def as_of(text: str) -> str | None:
    """When a note (as written) says it held ("as of march 2026", 截至2026年3月), or ``None``.
    Two notes dated two different times are not compared ("截至2025年底，体重75公斤" /
    "截至2026年3月，体重68公斤"): each held then, so neither contradicts the other."""
    m = _AS_OF.search(text)
    return m.group(0).lower() if m else None


def conflict(a: Claim, b: Claim) -> Conflict | None:
    """Why ``a`` and ``b`` cannot both hold, or ``None`` when they can (or when the rules
    cannot tell: another subject, nothing shared, only added words).

    First the two texts as wholes (:func:`_claim_conflict`: one template), unless one
    speaks of the past and the other does not, or an attribute both give agrees; then
    clause by clause for one owner: a one-value fact with two values, a denial of what the
    other affirms, opposite preferences for one object."""
    if a.zh != b.zh or other_surnames(a.text, b.text):
        return None
    owner_a, owner_b = a.clauses[0].owner, b.clauses[0].owner
    if same_subject(a, b) and a.past == b.past and not (owner_a and owner_b
                                                         and owner_a != owner_b):
        found = _claim_conflict(a, b)
        if found is not None and (found.what in ("negation", "preference")
                                  or not (_facts_agree(a, b) or _facts_apart(a, b))):
            return found
    found = _clause_conflict(a, b)
    if found is not None:
        return found
    if "number" in features(a) and "number" in features(b):
        found = _reordered_value_conflict(a, b)
        if found is not None:
            return found
    what = situation(a, b)  # the rarer rules: routines, places, partners, homes …
    return Conflict(what, "", "", 0.75, topical=True) if what else None


def _zh_inside(a: Sequence[str], b: Sequence[str]) -> bool:
    """One Chinese claim's characters inside the other's, in order and close together
    (喝咖啡 in 每天喝咖啡, 抽烟 in 抽半包烟)."""
    short, long_ = ("".join(a), "".join(b)) if len(a) <= len(b) else ("".join(b), "".join(a))
    short = "".join(ch for ch in short if ch not in _ZH_AUX)
    return _subsequence(short, long_)


def _subsequence(short: str, text: str, slack: int = 4) -> bool:
    """``short``'s characters in ``text`` in order, spread over at most ``slack`` more."""
    if not short:
        return False
    start = text.find(short[0])
    while start >= 0:
        pos, ok = start, True
        for ch in short[1:]:
            pos = text.find(ch, pos + 1)
            if pos < 0 or pos - start >= len(short) + slack:
                ok = False
                break
        if ok:
            return True
        start = text.find(short[0], start + 1)
    return False


def _claim_conflict(a: Claim, b: Claim) -> Conflict | None:
    """The one-template rules on two claims of one subject."""
    if not same_subject(a, b) or a.zh != b.zh:
        return None
    if a.sign != b.sign:
        overlap = _dice(set(a.core), set(b.core))
        if a.preference != b.preference and not (
                (b if a.preference else a).core_set <= (a if a.preference else b).core_set):
            return None  # "doesn't like cats" / "is allergic to cats": another predicate
        if (a.core_set < b.core_set and _RESTRICTED.search(b.text)) or (
                b.core_set < a.core_set and _RESTRICTED.search(a.text)):
            return None  # "loves running" / "hates running in the rain": only at times
        if a.zh and ZH_AT_TIMES.search((a if a.sign < 0 else b).text):
            return None  # 每天喝咖啡 / 下午三点以后不喝咖啡: the denial holds only then
        negative, positive = (a, b) if a.sign < 0 else (b, a)
        if (_ZH_ONE_TIME if a.zh else _ONE_TIME).search(negative.text):
            return None  # "didn't fast this Ramadan" / "usually fasts during Ramadan"
        if _QUALIFIED.search(negative.text) and not _QUALIFIED.search(positive.text):
            return None  # "plays tennis every week" / "has never played tennis competitively"
        if positive.core_set < negative.core_set:
            return None  # "eats meat" / "doesn't eat red meat": the negation is of "red"
        if a.zh and not _zh_inside(a.core, b.core):
            return None  # 不会说法语 / 会说德语: another object
        if overlap >= 0.6 and set(a.core) & set(b.core):
            what = "preference" if a.preference or b.preference else "negation"
            return Conflict(what, "", "", round(0.7 + 0.3 * overlap, 3))
        return None
    if a.sign < 0:  # two negative claims rarely exclude each other
        return None
    return _slot_conflict(a, b)


def _slots(a: Claim, b: Claim, replaced: list[tuple[int, int, int, int]]
           ) -> list[tuple[str, str, str, bool]] | None:
    """(kind, left, right, holds a name) per replaced span; ``None`` when a span is not a
    value (a whole predicate, or a date against a word)."""
    core_a, core_b = a.core, b.core
    ka, kb = a.core_kinds, b.core_kinds
    width, sep = (6, "") if a.zh else (3, " ")
    slots = []
    for i1, i2, j1, j2 in replaced:
        if a.zh and all(w in _ZH_JOINERS for w in (*core_a[i1:i2], *core_b[j1:j2])):
            continue  # 生日在8月 / 生日是8月15日: 在 and 是 join, they are no value
        if a.zh and {"".join(core_a[i1:i2]), "".join(core_b[j1:j2])} & _ZH_WORKING:
            return None  # 在华为上班 / 在华为做芯片设计: working there, and what the work is
        if max(i2 - i1, j2 - j1) > width:
            return None  # a whole predicate replaced: another attribute, not a value
        before = core_a[i1 - 1] if i1 > 0 else None
        if before in _SLOT_MARKERS:
            return None  # "favourite colour" / "favourite season": another attribute
        if before in MONTHS and {*ka[i1:i2], *kb[j1:j2]} == {"number"}:
            ka, kb = (*ka[:i1], *("date",) * (i2 - i1), *ka[i2:]), (
                *kb[:j1], *("date",) * (j2 - j1), *kb[j2:])  # "March 10" / "March 14"
        if any("name" in kinds and ("number" in kinds or "date" in kinds)
               for kinds in (ka[i1:i2], kb[j1:j2])):
            return None  # "$90k for Q2" / "$60k for Q3": two values side by side
        kind_a = _value_kind(ka[i1:i2], before, a.zh)
        kind_b = _value_kind(kb[j1:j2], before, b.zh)
        if kind_a in ("date", "number") and any(
                k not in ("date", "number") and w not in _TIMES_OF_DAY and w not in _ZH_MEASURES
                for k, w in zip((*ka[i1:i2], *kb[j1:j2]), (*core_a[i1:i2], *core_b[j1:j2]),
                                strict=True)):
            return None  # "54" / "worked at the library for 30": not one slot
        if kind_a != kind_b and not {kind_a, kind_b} <= _NAMES:
            return None  # a date against a word: not one slot
        named = kind_a in _NAMES or "name" in (*ka[i1:i2], *kb[j1:j2])
        left, right = sep.join(core_a[i1:i2]), sep.join(core_b[j1:j2])
        if before in MONTHS and kind_a == "date":
            left, right = f"{before} {left}", f"{before} {right}"  # "December 7"
        slots.append((kind_a, left, right, named))
    return slots


def _shared_count(core_a: Sequence[str], core_b: Sequence[str]) -> int:
    """How many words the two hold in common, repeats counted as often as both hold them:
    the most :func:`_align`'s frame can hold (a common subsequence).

    >>> _shared_count(("a", "b", "a", "c"), ("a", "a", "a", "d"))
    2
    """
    if len(core_a) > len(core_b):
        core_a, core_b = core_b, core_a
    rest = list(core_b)
    n = 0
    for w in core_a:
        if w in rest:
            rest.remove(w)
            n += 1
    return n


def _align(core_a: tuple[str, ...], core_b: tuple[str, ...]
           ) -> tuple[list[str], list[tuple[int, int, int, int]]]:
    """The words both share in order, and the replaced spans ``(i1, i2, j1, j2)``: one
    span between a common start and end when that is all that differs (the usual case,
    and cheap), else difflib's alignment."""
    n = min(len(core_a), len(core_b))
    start = 0
    while start < n and core_a[start] == core_b[start]:
        start += 1
    end = 0
    while end < n - start and core_a[-1 - end] == core_b[-1 - end]:
        end += 1
    mid_a, mid_b = len(core_a) - start - end, len(core_b) - start - end
    if mid_a <= 3 and mid_b <= 3:
        frame = [*core_a[:start], *core_a[len(core_a) - end:]]
        spans = [(start, start + mid_a, start, start + mid_b)] if mid_a and mid_b else []
        return frame, spans
    ops = SequenceMatcher(None, core_a, core_b, autojunk=False).get_opcodes()
    frame = [w for tag, i1, i2, _j1, _j2 in ops if tag == "equal" for w in core_a[i1:i2]]
    return frame, [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in ops if tag == "replace"]


def _merge_dates(spans: list[tuple[int, int, int, int]], kinds_a: Sequence[str],
                 kinds_b: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """Join replaced spans that only date parts separate (三月三日 / 七月十四日: the
    month and the day of one date)."""
    out: list[tuple[int, int, int, int]] = []
    for span in spans:
        if out:
            i1, i2, j1, j2 = out[-1]
            gap_a, gap_b = kinds_a[i2:span[0]], kinds_b[j2:span[2]]
            if all(k in ("date", "number") for k in (*gap_a, *gap_b, *kinds_a[span[0]:span[1]],
                                                       *kinds_a[i1:i2])):
                out[-1] = (i1, span[1], j1, span[3])
                continue
        out.append(span)
    return out


#: events that happen more than once: two dates are two events
_REPEATED = re.compile(r"\b(?:moved|relocated|visited|travel(?:l)?ed|went|flew|bought|changed|"
                       r"switched|renovated|repainted)\b", re.I)


_WEEKLY = re.compile(r"\b(?:weekly|once a week)\b", re.I)


def _weekly_day(c: Claim, value: str) -> bool:
    """``value`` is a day of the week of something ``c`` says happens once a week."""
    return value.rstrip("s") in WEEKDAYS and _WEEKLY.search(c.text) is not None


def _may_differ(a: Claim, b: Claim) -> bool:
    """Whether two claims of an attribute that may hold many values can still differ in one
    (:func:`_slot_conflict`): both say where someone is, or one holds a date or a number,
    or both a weekly day."""
    return (a.located and b.located) or any(
        "date" in c.core_kinds or "number" in c.core_kinds for c in (a, b)) or bool(
        _WEEKLY.search(a.text) and _WEEKLY.search(b.text))


def _slot_conflict(a: Claim, b: Claim) -> Conflict | None:
    """The same frame with one value replaced, under an attribute that holds one value
    (or a date or number under any attribute)."""
    core_a, core_b = a.core, b.core
    marked_a, marked_b = a.marked_noun, b.marked_noun
    if marked_a and marked_b and marked_a != marked_b:
        return None  # "favourite colour" / "favourite season": two attributes
    common = a.core_set & b.core_set
    functional = _functional(a, b) is True
    if core_a == core_b or len(a.core_set) - len(common) > 6 or (
            len(b.core_set) - len(common) > 6) or not (functional or _may_differ(a, b)):
        # nothing replaced, or more than two three-word values, or a many-values attribute
        # with no date, number or weekly day to differ: cheap checks
        return None
    # "Jonas's manager is X" / "… is Y", "Diego prefers tea" / "… coffee": the attribute
    # is in the subject or a preference word, and the rest is the value
    bare = functional and max(len(core_a), len(core_b)) <= 3 and (
        a.zh or bool(a.subject_cues[0]) or a.preference or b.preference)
    need = 0 if bare else max(1, (min(len(core_a), len(core_b)) + 2) // 3)
    if _shared_count(core_a, core_b) < need:
        return None  # too few words in common for a frame, whatever their order
    frame, replaced = _align(core_a, core_b)
    if not replaced or len(frame) < need:
        return None
    slots = _slots(a, b, _merge_dates(replaced, a.core_kinds, b.core_kinds))
    if not slots:
        return None
    functional = functional or (a.located and b.located and all(s[0] in _NAMES
                                                                 for s in slots))
    if len(slots) > 1 or (not functional and slots[0][3]):
        return None  # several things differ, or another object: both may hold
    kind, left, right, _named = next((s for s in slots if s[0] != "value"), slots[0])
    if kind == "value" and _weekly_day(a, left) and _weekly_day(b, right):
        kind = "date"  # "the weekly lesson is on Tuesdays" / "… on Thursdays": one day
    if not functional and kind not in ("date", "number"):
        return None
    if kind == "date" and _REPEATED.search(a.text) and _REPEATED.search(b.text):
        return None  # "moved to Edinburgh in 2018" / "moved to a bigger flat … in 2023"
    if kind == "value" and a.values and a.values == b.values:
        return None  # the same names, dates and numbers in other words: a rewording
    if kind == "value" and not a.zh and not bare and max(len(left.split()),
                                                         len(right.split())) > 1:
        return None  # "works full-time" / "works from home on Fridays": another aspect
    closeness = len(frame) / max(len(core_a), len(core_b))
    base = 0.75 if functional else 0.6
    return Conflict(kind, left, right, round(min(1.0, base + 0.25 * closeness), 3))


# ---------------------------------------------------------------------------------------
# Comparing readings

#: word pairs at least this close (shipped embedder) name one thing ("children" / "kids",
#: "colour" / "color"); a denied object and a word at least :data:`HYPERNYM` close are one
#: kind of thing ("meat" / "beef": 0.58, "coffee" / "espresso": 0.42, but "beer" / "wine":
#: 0.21, "dogs" / "cats": 0.18)
SYNONYM = 0.8
HYPERNYM = 0.3
#: attributes a noun names ("favourite *colour*", "*dog* is called", "*lease* ends")
_NOUN_KEYS = frozenset(("attr", "name", "favourite", "count", "end"))
#: attributes whose values are compared as they are (not "one name inside the other")
_HAN_VALUE = re.compile(r"[\u3400-\u9fff]")
_NUMBERS = re.compile(r"\d+")
#: two ways of having no job, which may both hold
_NOT_WORKING = frozenset(("retired", "unemployed"))
#: (every family whose value is a word of the rules', :data:`~memscope.meaning.facts.
#: _FAMILY_KIND` "value", and a few more; the work mode is judged before: _WORKMODES)
_EXACT = frozenset(("marital", "employment", "hours", "age", "count", "floor",
                    *(key for key, kind in _FAMILY_KIND.items() if kind == "value")))


@lru_cache(maxsize=20_000)
def _word_row(word: str) -> tuple[float, ...]:
    from memscope.meaning.embed import EmbedderUnavailable, embed

    try:
        return tuple(float(x) for x in embed([word])[0])
    except EmbedderUnavailable:
        return ()


@lru_cache(maxsize=100_000)
def word_similarity(a: str, b: str) -> float:
    """Cosine of two words (or short phrases) by the shipped embedder; 0 without it (kept:
    the audit asks for the same pairs of attribute nouns many times)."""
    if a == b:
        return 1.0
    ra, rb = _word_row(a), _word_row(b)
    return sum(x * y for x, y in zip(ra, rb, strict=True)) if ra and rb else 0.0


_CHILDREN = frozenset(("child", "children", "kid", "kids"))


#: where one works, all of it → what it rules out ("works entirely from home" / "takes
#: the train to work"); some of each may both hold
_WORKMODES = {"remote": ("office", "some-office"), "office": ("remote", "some-remote")}
_SONS_DAUGHTERS = frozenset(("son", "sons", "daughter", "daughters", "boys", "girls"))
#: counts of a whole and of its parts (children: sons and daughters; siblings: brothers
#: and sisters)
_WHOLES = ((_CHILDREN, _SONS_DAUGHTERS),
           (frozenset(("sibling", "siblings")),
            frozenset(("brother", "brothers", "sister", "sisters"))))


def _count_of_parts(f: Fact, g: Fact) -> bool | None:
    """Two counts of which one counts a part of the other's whole (children and sons,
    pets and cats), or ``None``."""
    part = _part_of_children(f, g)
    return _pets_counted(f, g) if part is None else part


#: animals kept as pets, counted ("has two cats": two pets at least)
_PET_NOUNS = frozenset(("cats", "dogs", "rabbits", "hamsters", "parrots", "budgies",
                        "tortoises", "goldfish", "guinea pigs", "ferrets", "birds"))


def _pets_counted(f: Fact, g: Fact) -> bool | None:
    """A count of one's pets against more of one kind ("only pet" / "has two cats"):
    ``True`` when the kind alone outnumbers the pets; ``None`` otherwise."""
    pets, kind = (f, g) if f.noun == "pets" else (g, f)
    if pets.noun != "pets" or kind.noun not in _PET_NOUNS:
        return None
    return True if _int_or(kind.first) > _int_or(pets.first) > 0 else None


def _int_or(value: str) -> int:
    """``value`` as a whole number, 0 when it is none."""
    return int(value) if value.isdigit() else 0


def _part_of_children(f: Fact, g: Fact) -> bool | None:
    """Children counted against sons or daughters counted, or siblings against brothers or
    sisters: more of a part than of the whole conflict ("has only one child" / "has two
    daughters", "her only sibling is her brother" / "has three sisters"); fewer or as many
    may both hold (None when the two counts are not a whole and a part of it)."""
    for total, part in ((f, g), (g, f)):
        whole, some = total.noun.split()[-1:], part.noun.split()[-1:]
        if whole and some and any(whole[0] in w and some[0] in p for w, p in _WHOLES) and \
                total.first.isdigit() and part.first.isdigit():
            return int(part.first) > int(total.first)
    return None


def _nouns_match(a: str, b: str) -> bool:
    """Two attribute nouns name one attribute: the same head, one inside the other, or
    synonyms by the embedder ("children" / "kids")."""
    wa, wb = a.split(), b.split()
    if not wa or not wb:
        return a == b
    if {wa[-1], wb[-1]} <= _CHILDREN:
        return True  # "one child" / "three kids"
    if set(wa) <= set(wb) or set(wb) <= set(wa):
        return True
    if stem(wa[-1]) == stem(wb[-1]):  # one head; but "auth service" / "billing service" differ
        return not ({w for w in wa[:-1] if w not in STOP}
                    and {w for w in wb[:-1] if w not in STOP})
    return word_similarity(a, b) >= SYNONYM


def _same_value(a: str, names: frozenset[str]) -> bool:
    """``a`` is one of ``names``, or inside one (a Chinese place or employer refined: 杭州 /
    杭州西湖区, 华为 / 华为的深圳总部)."""
    return any(a == n or (min(len(a), len(n)) >= 3 and (a in n or n in a)) or (
        min(len(a), len(n)) >= 2 and _HAN_VALUE.match(a) is not None and (
            n.startswith(a) or a.startswith(n))) for n in names)


def _apart(f: Fact, g: Fact) -> bool:
    """Two facts of two attributes or owners, or of two moves in two years."""
    return f.key != g.key or f.of != g.of or bool(f.when and g.when and f.when != g.when)


def _dates_conflict(f: Fact, g: Fact) -> bool | None:
    """Two dates that differ in a part both give (None: no part in common); or a birthday on
    29 February and a year of birth that had none ("born in 1991")."""
    da, db = dict(f.date), dict(g.date)
    for day, year in ((da, db), (db, da)):
        if f.key == "birthday" and day.get("m") == 2 and day.get("d") == 29 and "y" not in day \
                and "y" in year and not calendar.isleap(year["y"]):
            return True
    shared = da.keys() & db.keys()
    return any(da[k] != db[k] for k in shared) if shared else None


def _lunar(f: Fact) -> bool:
    """A birthday by the lunar calendar (农历生日, 阴历生日)."""
    return "农历" in f.noun or "阴历" in f.noun


def _facts_conflict(f: Fact, g: Fact) -> bool | None:
    """``True``: one attribute with two values; ``False``: one attribute, one value;
    ``None``: not one attribute (or not comparable)."""
    if _apart(f, g):
        return None  # another attribute; or two moves in two years
    if f.key == "birthday" and _lunar(f) != _lunar(g):
        return None  # 农历生日是八月十五 / 公历生日在九月: two calendars
    if f.key in CLASHES:  # levels.py: "fluent in Italian" / "a few phrases of Italian"
        return clash(f, g)
    if f.key == "count" and (part := _count_of_parts(f, g)) is not None:
        return part
    if f.key in _NOUN_KEYS and not _nouns_match(f.noun, g.noun):
        return None
    if f.key in ("attr", "name") and not (f.exclusive or g.exclusive or (f.named and g.named)):
        return None  # "Maya's flat is small" / "… bright"; but "Maya's laptop is a MacBook
        #              Air" / "… a ThinkPad": one thing, two names
    if f.date or g.date:
        return _dates_conflict(f, g)
    if not f.first or not g.first:  # "is single": no partner at all
        return None if not f.first and not g.first else bool(f.names or g.names)
    if f.key == "age" and (span_f := age_span(f.first)) and (span_g := age_span(g.first)):
        return span_f[1] < span_g[0] or span_g[1] < span_f[0]  # "52" / "in his early fifties"
    if f.key == "workmode":  # all of it at home against any at the office, or the other way
        return g.first in _WORKMODES.get(f.first, ()) or f.first in _WORKMODES.get(g.first, ())
    if f.key in _EXACT:
        return _exact_values_differ(f, g)
    return _values_differ(f, g)


def _exact_values_differ(f: Fact, g: Fact) -> bool:
    """Two values of an attribute said in few words (:data:`_EXACT`) that cannot both
    hold: not two ways of having no job, and a faith not named only against none."""
    if f.key == "religion" and "religious" in (f.first, g.first):
        return "none" in (f.first, g.first) and f.first != g.first
    return f.first != g.first and {f.first, g.first} != _NOT_WORKING


def _values_differ(f: Fact, g: Fact) -> bool:
    """Two values of one attribute said in words: numbers that differ, no place within
    the other, no name of one in the other, no synonyms."""
    numbers_f, numbers_g = _NUMBERS.findall(f.value), _NUMBERS.findall(g.value)
    if numbers_f and numbers_g and numbers_f != numbers_g:
        return True  # "the 3rd floor of the Leeds building" / "the 7th floor of …"
    if _FAMILY_KIND.get(f.key) == "place" and (within(f.first, g.first)
                                               or within(g.first, f.first)
                                               or near(f.first, g.first)):
        return False  # "lives in Spain" / "lives in Seville": one place, said finer
    return not (_same_value(f.first, g.names) or _same_value(g.first, f.names)
                or word_similarity(_shown(f.first, f.value), _shown(g.first, g.value))
                >= SYNONYM)  # "NYC" / "New York"


def _kind_of(f: Fact) -> str:
    if f.date:
        return "date"
    if f.key in _FAMILY_KIND:
        return _FAMILY_KIND[f.key]
    return "name" if f.named else "value"


def _firm(x: Clause) -> tuple[Fact, ...]:
    """The facts a clause asserts: not one said after a hope, a plan or a hedge (吴倩打算明年
    搬去重庆, "might move to Oslo"; but "is unemployed and looking for work" is unemployed)."""
    if not x.hedged:
        return x.facts
    hedge = (_ZH_HEDGES if x.claim.zh else _HEDGES).search(x.text)
    if hedge is None:
        return x.facts
    low = x.text.lower()
    return tuple(f for f in x.facts if (
        0 <= low.find(f.value.lower()) <= hedge.start() if f.key in CLASHES
        # a level says its own words: "is learning Greek" is a beginner's Greek
        else 0 <= low.find((f.first or f.value or "\0").lower()) < hedge.start()))


def _fact_conflict(x: Clause, y: Clause, *, firm: bool = False
                   ) -> tuple[Conflict | None, bool]:
    """A conflict between two clauses' facts (``firm``: those they assert, :func:`_firm`),
    and whether some attribute agreed."""
    agreed = False
    for f in _firm(x) if firm else x.facts:
        for g in _firm(y) if firm else y.facts:
            if _age_against_birth(f, g) or _zodiac_against_birth(f, g) or \
                    _sign_against_birth(f, g) or \
                    age_against_stage(f, g):
                return Conflict("number", f.value, g.value, 0.8, topical=True), agreed
            verdict = _facts_conflict(f, g)
            if verdict:
                left, right = (f.value, g.value) if f.date or not (f.first and g.first) else (
                    _as_said(f), _as_said(g))
                return Conflict(_kind_of(f), _shown(left, f.value), _shown(right, g.value),
                                0.8, topical=True), agreed
            agreed = agreed or verdict is False
    return None, agreed


#: an age said and a year of birth agree when the age could have been said this many years
#: back at most (memories are recent: "is 28" and "born in 1985" are not both true of one
#: written since)
AGE_YEARS_BACK = 8


def _zodiac_against_birth(f: Fact, g: Fact) -> bool:
    """One owner's zodiac animal and year of birth that disagree (属狗 / 1993年8月出生: 1993
    is a year of the rooster); a birth in January or February, or in a month not said, may
    belong to the year before (the animal's year starts at the Spring Festival)."""
    animal, born = (f, g) if f.key == "zodiac" else (g, f)
    if animal.key != "zodiac" or born.key != "birthday" or f.of != g.of:
        return False
    parts = dict(born.date)
    year, month = parts.get("y"), parts.get("m")
    if year is None:
        return False
    years = {year} if month is not None and month > 2 else {year, year - 1}
    return animal.first not in {ZODIAC[(y - 4) % 12] for y in years}


def _sign_against_birth(f: Fact, g: Fact) -> bool:
    """One owner's sign of the zodiac and birthday that disagree ("is a Scorpio" / "was
    born on 20 July", 狮子座 / 生日在十二月底)."""
    sign, born = (f, g) if f.key == "sign" else (g, f)
    if sign.key != "sign" or born.key != "birthday" or f.of != g.of:
        return False
    parts = dict(born.date)
    month = parts.get("m")
    return month is not None and sign.first not in signs_of(month, parts.get("d"))


def _age_against_birth(f: Fact, g: Fact) -> bool:
    """One owner's age said now and year of birth that cannot both hold (今年28岁 /
    1985年出生, "is in his early fifties" / "was born in 1998"), as of today's year."""
    age, born = (f, g) if f.key == "age" else (g, f)
    if age.key != "age" or born.key != "birthday" or f.of != g.of:
        return False
    year, span = dict(born.date).get("y"), age_span(age.first)
    if year is None or span is None:
        return False
    now = datetime.now(UTC).year
    return year + span[1] < now - AGE_YEARS_BACK or year + span[0] > now + 1


def _as_said(f: Fact) -> str:
    """A fact's value as its text says it: the value itself when the text names it
    ("Lisbon"), else the words that said it ("is single", "never went to university": not
    the rules' own word for it, "single", "none")."""
    return f.first if f.first.lower() in f.value.lower() and f.key not in STATE_FAMILIES else (
        f.value)


def _shown(value: str, written: str) -> str:
    """A value as the text writes it ("médecins sans frontières" → "Médecins Sans
    Frontières"), a few words at most, cut after a word that ends a phrase.

    >>> _shown("rides the number 12 bus to the office", "Rides the number 12 bus to the office.")
    'Rides the number 12 bus…'
    """
    at = written.lower().find(value)
    if at >= 0:
        value = written[at:at + len(value)]
    words = value.split()
    if len(words) <= _SHOWN_WORDS:
        return " ".join(words).strip(" ,.;")
    cut = words[:_SHOWN_WORDS]
    while cut and cut[-1].lower() in _TAIL_WORDS:  # not "sits down to a bowl of"
        cut.pop()
    return " ".join(cut).strip(" ,.;") + "…"


#: the words of a value shown at most, and the words a cut value does not end on
_SHOWN_WORDS = 7
_TAIL_WORDS = frozenset(("of", "a", "an", "the", "to", "at", "in", "with", "for", "and", "on",
                         "from", "as", "by", "or"))


def _fuzzy_in(word: str, stems: frozenset[str]) -> bool:
    """``word`` among ``stems`` (or as the stemmer left it: "ski" / "skis", "fly" / "fli"), or
    sharing its first six letters with one ("allergy" / "allergic", "licence" / "licensed"),
    the doer of one ("teacher" / "teach", "smoker" / "smok"), or a stem of it where one
    text's word was stemmed and the other's, a name, was not ("googl" / "google")."""
    return word in stems or (len(word) >= 3 and (word + "s" in stems or (
        word.endswith("y") and word[:-1] + "i" in stems))) or (len(word) >= 6 and any(
        len(s) >= 6 and s[:6] == word[:6] for s in stems)) or (
        len(word) >= 6 and word.endswith("er") and word[:-2] in stems) or any(
        len(s) >= 6 and s.endswith("er") and s[:-2].rstrip(s[-3]) + s[-3] == word
        for s in stems) or (
        len(word) >= 4 and any(s.startswith(word) and len(s) - len(word) <= 1 for s in stems))


_GONE = re.compile(r"\b(?:sold|stolen|lost|gave away|given away|got rid of|died|passed away|"
                   r"scrapped|wrecked|written off|moved out)\b", re.I)


def _possesses(d: Denial, y: Clause) -> bool:
    """Whether ``y`` gives its owner the thing ``d`` denies them: after a verb of having or
    a possessive ("has three grandchildren", "got her driving licence", "Sara's two
    children"), not someone else's ("his brother's car")."""
    if _GONE.search(y.text):
        return False  # "Maya's car was sold last year": had, has no more
    head = (d.written or d.object)[-1]
    # a long word's stem ("brothe"), a short one's whole ("sons": a son, not a song)
    part = re.escape(head[:max(4, len(head) - 2)]) if len(head) > 5 else re.escape(
        head.removesuffix("s")) + r"s?\b"
    return bool(re.search(
        r"(?:\b(?:has|have|had|owns?|owned|keeps?|kept|got|gets|his|her|their|my|our|"
        r"(?:youngest|eldest|oldest|middle) of)|^\W*\w+"
        r"['’]s)\s+(?:(?![\w-]+['’]s\b)[\w-]+\s+){0,3}?" + part, y.text, re.I))


def _nouns_of(y: Clause) -> tuple[str, ...]:
    """The plain words of an affirming clause, as written (for the embedder; names left
    out: "Portuguese" is no kind of "Spanish")."""
    return tuple(w.lower() for w in re.findall(r"[^\W\d_]+", y.text)
                 if w.lower() not in STOP and len(w) > 2 and not w[:1].isupper())[:12]


#: Chinese things a denial meets in other words: a bike's other names, swimming done
#: (游到了对岸; not 旅游了, a trip)
_ZH_KINDS_OF = {"自行车": re.compile(r"单车|骑车|骑行"),
                "宠物": re.compile(r"养(?:了|着|过)?[^，。,；;]{0,5}"
                                 r"(?:猫|狗|兔|仓鼠|鹦鹉|龟|金鱼|鸟)"),
                "游泳": re.compile(r"(?<!旅)(?<!导)游(?:到|了|过|完)"),
                "开车": re.compile(r"开着车|自驾|驾车"),
                "运动": re.compile(r"足球|篮球|排球|羽毛球|乒乓球|网球|跑步|跑了|健身|瑜伽|"
                                 r"游泳|骑行|爬山|打球|踢球|跑[\d一二三四五六七八九十两半]+公里"),
                "锻炼": re.compile(r"足球|篮球|排球|羽毛球|乒乓球|网球|跑步|跑了|健身|瑜伽|"
                                 r"游泳|骑行|爬山|打球|踢球|跑[\d一二三四五六七八九十两半]+公里"),
                "飞机": re.compile(r"飞(?:一趟|往|去|到)|坐飞机|航班"),
                "做饭": re.compile(r"做(?:了)?[^，。,；;]{0,4}菜|下厨|掌勺|炒菜|烧菜|"
                                 r"做(?:早|午|晚)饭"),
                "乐器": re.compile(r"钢琴|吉他|小提琴|大提琴|古筝|二胡|琵琶|笛子|萨克斯|尤克里里|"
                                 r"架子鼓|手风琴")}
#: what one takes one's kin to do is theirs (带儿子去游泳馆上游泳课: the son swims)
_ZH_KIN_DOES = re.compile(r"(?:带|陪|送|接|教)(?:着|了)?(?:我|她|他)?的?(?:儿子|女儿|孩子|"
                          r"闺女|小孩|孙子|孙女|父母|妈妈|爸爸|老人)[^，。,；;]*"
                          # a cousin, and kin as a likeness (表姐, 像亲姐妹): no sibling
                          r"|[表堂](?:哥|姐|弟|妹|兄)|(?:像|如|似|跟|和)亲?(?:兄弟|姐妹|姐弟|兄妹)")


_SPEAK = stem("speak")
#: reading or understanding a language, and speaking it
_UNDERSTANDS = re.compile(r"\b(?:reads?|understands?|follows?|can read|can understand)\b", re.I)
_SPEAKING = re.compile(r"\b(?:speaks?|spoke|speaking|talks?|chats?|converses?)\b", re.I)
#: verbs whose object alone does not meet them: one studies law without practising it
_PRACTICE = frozenset((stem("practise"), stem("practice")))
#: a Chinese denial of speaking (不会说粤语), and understanding, which it leaves (听得懂粤语)
_ZH_SPEAKS = re.compile(r"^(?:说|讲)")
_ZH_UNDERSTANDS = re.compile(r"听(?:得)?懂")
#: learning something (报了游泳班, 在学日语, 才上了两节课): not yet able to
_ZH_LEARNING = re.compile(r"报了|报名|在学|正在学|"
                          r"学了?(?:[一二两三四五六七八九十几]+|\d+)(?:节|个|周|天)|"
                          r"上了[^，。,；;]{0,4}(?:节|次)课|(?:训练|培训|兴趣|补习)班")


def _zh_denies(d: Denial, x: Clause, other: Claim, affirming: list[Clause]) -> float:
    """:func:`_denies` for a Chinese denial: its characters in what the other affirms."""
    core = "".join(d.object)
    kin = _ZH_KIN.get(core.removeprefix("有"))
    kin_words = "(?:" + "|".join(kin) + ")" if kin else ""
    if kin and x.owner and (re.search(re.escape(x.owner[0]) + r"(?:的|有.{0,3}?)(?:亲|双胞胎)?"
                                      + kin_words, other.text) or (
            affirming and re.search(r"[她他]的?(?:亲|双胞胎)?" + kin_words + r"|(?:送|接|带|陪)"
                                    + kin_words, other.text))):
        # 没有孩子 / 周建国的儿子今年考上了大学, 每天去接她的女儿, 先送闺女去幼儿园;
        # 独生子 / 陈晨说他哥哥…, 杨帆的亲妹妹
        return 0.75
    if core == "车":  # 没有车 / 有一辆特斯拉, 开一辆白色的特斯拉上班: 辆 counts vehicles
        return 0.75 if any(re.search(r"有.{0,3}辆|开(?:着)?自己的|"
                                     r"开(?:着|的是)?(?:一|他那|她那|自己那)辆",
                                     y.text)
                           for y in affirming) else 0.0
    kinds = next((v for k, v in _ZH_KINDS_OF.items() if core.endswith(k)), None)
    if _ZH_SPEAKS.match(core):  # 不会说粤语 / 能听懂大部分粤语: understanding, not speaking
        affirming = [y for y in affirming if not _ZH_UNDERSTANDS.search(y.text)]
    if "不会" in x.text:  # 不会游泳 / 报了成人游泳班: learning it, not able to yet
        affirming = [y for y in affirming if not _ZH_LEARNING.search(y.text)]
    return 0.75 if core and any(_subsequence(core, text) or (
        len(core) <= 4 and core[-2:] in text) or (kinds and kinds.search(text))
        for y in affirming if (text := _ZH_KIN_DOES.sub("", y.text))) else 0.0


def _denies(d: Denial, x: Clause, other: Claim, affirming: list[Clause]) -> float:
    """How sure the denial ``d`` of ``x`` is denied by ``other`` (0: not at all)."""
    stems = frozenset().union(*(y.stems for y in affirming))
    if d.family:  # 不在任何公司任职 / 在华为做全职工程师
        return 0.75 if any(f.key == d.family and f.first for y in affirming
                           for f in y.facts) else 0.0
    if x.claim.zh:  # 从不去公司 / 每周都去公司上班, 不抽烟 / 每天抽半包烟
        return _zh_denies(d, x, other, affirming)
    if not d.object:  # "doesn't drive" / "drives her own car"
        if d.verb and _ABILITY.search(x.text) and d.verb in _done(affirming):
            return 0.75  # "can't drive" / "drove the whole way to Edinburgh"
        if d.verb in _VERB_KINDS and any(_VERB_KINDS[d.verb].search(y.text) for y in affirming
                                         if not y.of):
            return 0.75  # "never exercises" / "plays five-a-side football three evenings a week"
        return 0.75 if d.verb and _fuzzy_in(d.verb, stems) else 0.0
    kinds = _KINDS_OF.get(" ".join(d.object)) or _KINDS_OF.get(d.object[-1])
    if d.verb in _POSSESSION:  # "has no children" / "Sara's two children go to school"
        return 0.75 if _possession_denied(d, x, other, affirming, stems) or _uses_own(
            d, affirming) or (kinds and _owns_one(kinds, affirming)) or (
            d.object[-1] in _USED_KINDS and kinds and any(
                k in (w.lower() for w in re.findall(r"\w+", y.text))
                for y in affirming if not y.of for k in kinds)) else 0.0
    if d.verb == _SPEAK and all(_UNDERSTANDS.search(y.text) and not _SPEAKING.search(y.text)
                                for y in affirming):
        return 0.0  # "doesn't speak French" / "can read French menus": reading, not speaking
    if d.verb in _PRACTICE and not _fuzzy_in(d.verb, stems):
        return 0.0  # "never practised law" / "studied law at Edinburgh": studying is no practice
    if all(_fuzzy_in(o, stems) for o in d.object):
        return 0.75
    naming = [y for y in affirming if not y.of and any(
        k in y.stems or k in (w.lower() for w in re.findall(r"\w+", y.text)) for k in kinds or ())]
    if naming and not (d.verb and not _fuzzy_in(d.verb, stems)
                       and all(_HELD_NOT_DONE.search(y.text) for y in naming)):
        return 0.75  # "has never played an instrument" / "plays the piano well"
    # one kind of thing, by the embedder, when the other does the same (not a plain) verb:
    # "does not eat any meat" / "beef ragù, which she eats every Sunday"
    if len(d.object) == 1 and not d.named and d.verb and d.verb not in _PLAIN_VERBS and _fuzzy_in(
            d.verb, stems) and any(word_similarity(d.written[0], w) >= HYPERNYM
                                   for y in affirming for w in _nouns_of(y)
                                   if stem(w) != d.verb):
        return 0.7
    return 0.0


#: having a thing without doing what it is for ("can't play any instrument" / "collects
#: vintage guitars")
_HELD_NOT_DONE = re.compile(r"\b(?:collects?|collecting|sells?|selling|repairs?|restores?|"
                            r"inherited|owns?)\b", re.I)


def _owns_one(kinds: tuple[str, ...], affirming: list[Clause]) -> bool:
    """A clause of the owner's own has one of ``kinds`` ("owns two rental flats", "rides her
    own road bike")."""
    return any(re.search(rf"\b(?:owns?|has|have|bought|buys|her|his|their|my)\s+(?:own\s+)?"
                         rf"(?:[\w-]+\s+){{0,3}}?{re.escape(kind)}\b", y.text, re.I)
               for y in affirming if not y.of for kind in kinds) or any(
        y.of.split()[0] in kinds for y in affirming
        if y.of and not _GONE.search(y.text))  # "Sara's dog Rex is twelve"; not "… died"


#: a denial of being able to do something: a time it was done denies it too
_ABILITY = re.compile(r"\b(?:can['’]?t|cannot|can\s+not|unable\s+to|never\s+learn(?:ed|t)\s+"
                      r"(?:how\s+)?to|no\s+idea\s+how\s+to|(?:has|have)\s+never\s+(?:once\s+|"
                      r"ever\s+)?(?:flown|driven|swum|ridden|smoked|sung|skied|cooked|run))\b",
                      re.I)


#: a lifelong "never" of doing something ("never learned to swim", "has never driven")
_NEVER_DONE = re.compile(r"\bnever\s+learn(?:ed|t)\s+(?:how\s+)?to\b|\b(?:has|have)\s+never\s+"
                         r"(?:once\s+|ever\s+)?(?:flown|driven|swum|ridden|skied)\b", re.I)


def _done(affirming: list[Clause]) -> frozenset[str]:
    """The stems of the verbs the clauses say were done in a simple past of their own."""
    return frozenset(stem(PAST_FORMS[w]) for y in affirming
                     for w in re.findall(r"[a-z]+", y.text.lower()) if w in PAST_FORMS)


def _before_kin(text: str, kin: str) -> list[str]:
    """The words a kin's clause says of the kin before naming it ("Omar's *older* sister
    Layla …": older).

    >>> _before_kin("Omar's older sister Layla lives in Ghent", "sister")
    ['older']
    """
    head, found, _rest = text.lower().partition(f" {kin}")
    return re.findall(r"[a-z]+", head.split("'s", 1)[-1].split("’s", 1)[-1]) if found else []


def _possession_denied(d: Denial, x: Clause, other: Claim, affirming: list[Clause],
                       stems: frozenset[str]) -> bool:
    """``other`` gives ``x``'s owner what ``d`` says they have none of — the thing or a kin
    of that kind ("has no children" / "Sara's two sons go to school")."""
    kinds = frozenset(stem(k) for k in _KIN_KINDS.get(d.object[-1], ()))
    n = len(x.owner)
    # "Sara's sons", "Omar's sister Layla" (the kin word, then perhaps a name)
    theirs = [y for y in other.clauses if y.owner[:n] == x.owner and len(y.owner) in (
              n + 1, n + 2) and (_fuzzy_in(y.owner[n], frozenset(d.object))
                                 or y.owner[n] in kinds) and not (y.past or y.hedged)]
    held = stems | frozenset(y.owner[n] for y in theirs) | frozenset(
        stem(w) for y in theirs for w in _before_kin(y.text, y.owner[n]))
    named = [d] + [Denial(d.verb, (*d.object[:-1], kin), d.any, written=(kin,))
                   for kin in sorted(kinds) if kin in held]
    return any(all(_fuzzy_in(o, held) for o in e.object) and any(
        _possesses(e, y) for y in (*affirming, *theirs)) for e in named)


#: a vehicle (its stem) and how a text uses one of its own: "drives his Škoda Octavia to
#: the depot", "parks her Audi A4", "cycles to work on his old Bianchi"
_VEHICLES = _set("car cars van vans truck suv bike bikes bicycle bicycles motorbike motorcycle "
                 "scooter")
_OWN_VEHICLE = {
    "car": re.compile(r"\b(?:drives?|driving|parks?|parking|keeps)\s+(?:his|her|their)\s+"
                      r"(?P<what>(?:[^\W\d_][\w-]*\s*){1,3})", re.I),
    "bicycl": re.compile(r"\b(?:cycles?|cycling|rides?|riding|bikes?)\b[^.;]{0,30}?\b(?:on|with)"
                         r"\s+(?:his|her|their)\s+(?P<what>(?:[^\W\d_][\w-]*\s*){1,3})", re.I),
}
_OWN_VEHICLE["bik"] = _OWN_VEHICLE["bicycl"]


def _a_vehicle(words: str) -> bool:
    """The words after "drives his" name a vehicle of his: its make ("Škoda Octavia", "old
    Bianchi") or a vehicle noun, not a person ("Mum", "kids") or someone else's ("father's
    Volvo")."""
    for n, word in enumerate(words.split()[:3]):
        if word.lower() in _VEHICLES:
            return True
        if word[:1].isupper():
            return word.lower() not in ROLES and not re.search(r"['’]s$", word)
        if n == 2 or word.lower() in ROLES or word.lower() in STOP:
            return False
    return False


_MAKES = r"(?:" + "|".join(CAR_MAKES) + r")\b"
_OWNS_MAKE = re.compile(r"\b(?:owns?|has|have|bought|drives?|leases?|sold|keeps)\s+(?:an?|his|"
                       r"her|their|the)\s+(?:[\w-]+\s+){0,2}?" + _MAKES
                       # "Raj's Honda Civic is in the garage", "their own 2018 Honda Civic"
                       + r"|\b(?-i:[A-Z])[\w-]*['’]s\s+(?:own\s+)?(?:(?:19|20)\d\d\s+)?"
                       r"(?:(?:new|old|red|blue|black|white|silver|grey|green)\s+)?" + _MAKES
                       + r"|\b(?:his|her|their)\s+own\s+(?:[\w-]+\s+){0,2}?" + _MAKES, re.I)


def _uses_own(d: Denial, affirming: list[Clause]) -> bool:
    """``d`` denies owning a car or a bicycle and a clause of the same owner uses their own
    one, by its make ("has never owned a car" / "drives his Škoda Octavia", "owns a blue
    Toyota Corolla")."""
    vehicle = next((w for w in d.object if w in _OWN_VEHICLE), None)  # "a car or any vehicle"
    if vehicle is None:
        return False
    return any(_a_vehicle(m.group("what")) for y in affirming
               for m in _OWN_VEHICLE[vehicle].finditer(y.text)) or (vehicle == "car" and any(
                   _OWNS_MAKE.search(y.text) for y in affirming))


#: a few kinds of thing and what is one of them (world knowledge, like the diets' lists):
#: a denial of the kind meets any of them ("doesn't play any instrument" / "plays cello")
_KINDS_OF = {" ".join(stem(w) for w in k.split()): v for k, v in {
    "instrument": ("piano", "guitar", "violin", "cello", "viola", "drum", "drums", "flute",
                   "saxophone", "sax", "trumpet", "trombone", "clarinet", "ukulele", "harp",
                   "keyboard", "organ", "oboe", "banjo", "accordion", "harmonica", "bass"),
    "instruments": ("piano", "guitar", "violin", "cello", "viola", "drum", "drums", "flute",
                    "saxophone", "sax", "trumpet", "trombone", "clarinet", "ukulele", "harp",
                    "keyboard", "organ", "oboe", "banjo", "accordion", "harmonica", "bass"),
    "media": ("instagram", "facebook", "tiktok", "twitter", "snapchat", "linkedin", "reddit",
              "threads", "bluesky", "mastodon"),
    "smartphone": ("iphone", "android", "pixel", "galaxy"),
    **dict.fromkeys(("pet", "pets"), ("dog", "dogs", "cat", "cats", "puppy", "kitten",
                                      "rabbit", "hamster", "parrot", "budgie", "tortoise",
                                      "goldfish", "spaniel", "labrador", "terrier")),
    **dict.fromkeys(("racket sport", "racket sports", "racquet sport", "racquet sports"), (
        "tennis", "badminton", "squash", "padel", "pickleball", "racquetball")),
    "bank account": ("current account", "savings account", "checking account"),
    "bike": ("cycles", "cycling", "cycle"),
    "bicycle": ("cycles", "cycling", "cycle", "bike", "bikes"),
    "property": ("flat", "flats", "house", "houses", "apartment", "apartments", "rental",
                 "rentals", "cottage", "villa", "bungalow"),
    "plane": ("flies", "fly", "flight", "flights", "flew", "flying"),
    "planes": ("flies", "fly", "flight", "flights", "flew", "flying"),
    "linux": ("ubuntu", "debian", "fedora", "mint", "centos", "manjaro", "nixos", "popos"),
    "apple devices": ("iphone", "ipad", "imac", "macbook", "mac", "airpods", "ipod"),
    "apple products": ("iphone", "ipad", "imac", "macbook", "mac", "airpods", "ipod"),
    "romance language": ("spanish", "french", "italian", "portuguese", "romanian", "catalan"),
    "romance languages": ("spanish", "french", "italian", "portuguese", "romanian", "catalan"),
    **dict.fromkeys(("scandinavian language", "scandinavian languages", "nordic language",
                     "nordic languages"), ("norwegian", "swedish", "danish", "icelandic",
                                           "faroese")),
    **dict.fromkeys(("slavic language", "slavic languages"), (
        "russian", "polish", "czech", "slovak", "ukrainian", "belarusian", "serbian", "croatian",
        "bosnian", "bulgarian", "slovenian", "macedonian")),
}.items()}


#: kinds one has by using one ("has no social media" / "posts daily on Instagram")
_USED_KINDS = frozenset(("media", "smartphon"))
#: verbs a denial of which meets its kinds done ("never exercises" / "plays football")
_VERB_KINDS = {stem("exercise"): re.compile(
    r"\b(?:plays?|playing)\s+(?:[\w-]+\s+)?(?:football|soccer|tennis|squash|badminton|"
    r"basketball|volleyball|hockey|rugby|netball|padel)\b|\b(?:goes|go)\s+(?:to\s+the\s+)?"
    r"(?:gym|running|swimming|cycling|climbing|hiking)\b|\b(?:runs|jogs|swims|cycles|lifts|"
    r"trains|works\s+out|does\s+(?:yoga|pilates|crossfit))\b", re.I)}


#: a denial of eating or drinking: what is cooked for someone else does not affirm it
#: ("doesn't eat coriander" / "adds coriander when cooking noodles for her daughter")
_EATING = re.compile(r"\b(?:eat|eats|drink|drinks)\b|吃|喝", re.I)


def _of_kin(y: Clause, x: Clause) -> bool:
    """``y`` says what its owner's kin is ("Gwen's husband is French": the husband's), and
    ``x`` denies something else than having that kin ("has only sons" / "Dmitri's daughter
    is called Katya" still meet)."""
    if y.of and y.of.endswith(ZH_ROLES):  # 蒋琳的老公是咖啡发烧友: the husband's (but 没有任何
        role = next(r for r in ZH_ROLES if y.of.endswith(r))  # 领导 meets 直属领导是刘总)
        return not any(role in "".join(d.object) for d in x.denials)
    if not y.of or y.of.split()[-1].lower() not in ROLES:
        return False
    kin = stem(y.of.split()[-1].lower())
    return not any(kin in (d.verb, *d.object) or kin in (stem(w) for w in d.written)
                   for d in x.denials)


#: a clause whose subject is a thing, not its owner ("says it doesn't trigger her allergy")
_OF_A_THING = re.compile(r"^(?:(?:she|he|they)\s+)?(?:says?|said)\s+(?:that\s+)?(?:it|this|that)\b|"
                         r"^(?:it|this|that)\s+(?:doesn['’]t|does not|won['’]t|never|isn['’]t)\b",
                         re.I)


def _denial_conflict(x: Clause, other: Claim) -> Conflict | None:
    """``x`` denies what ``other`` affirms of the same owner ("has never had grandchildren"
    / "has three grandchildren", "avoids Python" / "writes all her tools in Python",
    "never drinks coffee" / "drinks three espressos a day", 从不去公司 / 每周都去公司上班)."""
    if not x.denials or not x.owner or _OF_A_THING.match(x.text):
        return None
    # never learned to do it, or never done it: a time it was done, however long ago, counts
    ever = _NEVER_DONE.search(x.text) is not None
    affirming = [y for y in other.clauses if y.owner == x.owner and not _of_kin(y, x) and (
                 y.affirms or (ever and y.past and not (
                     y.hedged or y.claim.sign < 0 or any(not d.aside for d in y.denials))))
                 and not (_EATING.search(x.text) and FOR_OTHERS.search(y.text))
                 # a habit of the past denied now ("doesn't smoke" / "smoked for ten years
                 # before giving up"): a denial of ever doing it still meets it
                 and (ever or not any(g.key in CLASHES and g.first in ("once", "former")
                                      for g in y.facts))]
    if any(f.key == g.key and f.key in CLASHES and not clash(f, g)
           for f in x.facts for y in affirming for g in y.facts):
        return None  # levels say how the two hold ("quit smoking" / "smoked for years")
    for d in x.denials:
        if d.verb == "learn" and len(d.object) == 1 and ever:  # never learned to swim: swims
            d = replace(d, verb=stem(d.object[0]), object=(), written=())
        score = _denies(d, x, other, affirming)
        if score:
            return Conflict("negation", "", "", score, topical=True)
    return None


_PREFERENCE = re.compile(
    r"\b(?:likes?|loves?|adores?|enjoys?|prefers?|hates?|dislikes?|detests?|loathes?|"
    r"(?:can['’]t|cannot|could\s?n['’]t)\s+(?:stand|bear|stomach)|is fond of|is a (?:big )?fan "
    r"of)\s+(?P<object>[^,;.]+)", re.I)
_OBJECT_END = _set("to for over than and or but because when while if on at in with since as "
                   "whenever wherever by")
#: what makes a preference hold only at times ("hates running in the rain")
_PREFERENCE_RESTRICTED = _set("in on at during when while after before if unless except")


#: a favourite thing named ("Maja's favourite food is sushi"): liked
_FAVOURITE = re.compile(r"\bfavou?rite\s+(?:[a-z]+\s+){0,2}?(?:is|are)\s+(?:an?\s+|the\s+)?"
                        r"(?P<object>[^,;.]+)", re.I)


@lru_cache(maxsize=50_000)
def _preference_object(text: str) -> tuple[str, ...]:
    """The stems of what ``text`` likes or dislikes ("prefers email for anything
    important" → ("email",), "favourite food is sushi" → ("sushi",)); nothing when only at
    times ("hates running in the rain")."""
    m = _PREFERENCE.search(text) or _FAVOURITE.search(text)
    if not m:
        return ()
    out: list[str] = []
    for w in re.findall(r"[\w'-]+", m.group("object").lower()):
        if w in _PREFERENCE_RESTRICTED and out:
            return ()
        if w in _OBJECT_END or len(out) == 3:
            break
        if w not in STOP and w not in NEGATION:
            out.append(stem(w))
    return tuple(out)


#: what a Chinese clause dislikes (讨厌猫), and what it likes (最喜欢的动物就是猫, 最爱吃香菜)
_ZH_DISLIKED = re.compile(r"(?:讨厌|不喜欢|受不了|反感|厌恶)(?P<o>[\u4e00-\u9fff]{1,4}?)"
                          r"(?=[，。,；;、]|$)")
_ZH_LIKED = re.compile(r"(?<!不)(?:最喜欢|喜欢|最爱|热爱)(?:吃|喝|看|听|玩)?"
                       r"(?:的[\u4e00-\u9fff]{1,3}?就?是)?(?P<o>[\u4e00-\u9fff]{1,4}?)(?=[，。,；;、]|$)")


def _zh_preference_conflict(x: Clause, y: Clause) -> Conflict | None:
    """One Chinese clause dislikes what the other likes best (钱多多讨厌猫 / 钱多多最喜欢的
    动物就是猫; 讨厌钓鱼 / 最大的爱好就是周末去水库钓鱼)."""
    for first, second in ((x, y), (y, x)):
        disliked = {m["o"] for m in _ZH_DISLIKED.finditer(first.text)}
        if disliked & {m["o"] for m in _ZH_LIKED.finditer(second.text)} or any(
                len(o) >= 2 and re.search(rf"(?<!不)爱好(?:就)?是[^，。,；;]{{0,8}}{re.escape(o)}",
                                          second.text) for o in disliked):
            return Conflict("preference", "", "", 0.75, topical=True)
    return None


def _prefers(c: Claim) -> bool:
    """``c`` says what its owner likes or dislikes (by its words, or as :data:`_PREFERENCE`
    reads it: "can't stand sushi" is "hates")."""
    return c.preference or _PREFERENCE.search(c.text) is not None


def _preference_conflict(x: Clause, y: Clause) -> Conflict | None:
    """Opposite preferences for one object, whatever else the clauses say ("prefers email
    for anything important" / "hates email")."""
    if x.claim.zh:
        return _zh_preference_conflict(x, y)
    if x.claim.sign == y.claim.sign or not (_prefers(x.claim) and _prefers(y.claim)):
        return None
    ox, oy = _preference_object(x.text), _preference_object(y.text)
    negative, positive = (set(ox), set(oy)) if x.claim.sign < 0 else (set(oy), set(ox))
    if ox and oy and negative <= positive:  # not "loves hiking" / "doesn't like hiking alone"
        return Conflict("preference", "", "", 0.75, topical=True)
    return None


#: a denial of one time, not of a habit: "didn't fast this Ramadan", "didn't go last week";
#: in Chinese a period the text names (这个月…一次健身房都没去过)
_ONE_TIME = re.compile(r"\b(?:did(?:n['’]t| not)|was(?:n['’]t| not))\b[^.;]{0,40}?\b(?:this|"
                       r"last|that)\s+(?:week|weekend|month|year|summer|winter|spring|autumn|"
                       r"term|semester|season|time|Ramadan|Lent|Christmas|Easter)\b|"
                       r"\b(?:did(?:n['’]t| not))\b[^.;]{0,40}?\b(?:yesterday|today|tonight)\b",
                       re.I)
_ZH_ONE_TIME = re.compile(r"这(?:两|几|一)?(?:周|天|个月|阵子|段时间|学期)|上(?:个)?(?:月|周|星期)|"
                          r"本(?:周|月)")
#: a state from then on, not one time (上个月把车卖了，现在没有车)
_ZH_NOW_ON = re.compile(r"现在|目前|如今|已经|再也|不再")


def _one_time(c: Claim, x: Clause) -> bool:
    """``x`` denies something of one time only (:data:`_ONE_TIME`), which meets no habit;
    not a state from then on (上个月把车卖了，现在没有车)."""
    if not x.denials:
        return False
    if c.zh:
        return bool(_ZH_ONE_TIME.search(c.text)) and not _ZH_NOW_ON.search(x.text)
    return bool(_ONE_TIME.search(x.text))


def _clause_conflict(a: Claim, b: Claim) -> Conflict | None:
    """The first conflict between the clauses of ``a`` and ``b`` about one owner: a denial
    of what the other affirms, a fact with two values, opposite preferences, or the
    one-template rules clause against clause."""
    first_a, first_b = a.clauses[0], b.clauses[0]
    several = len(a.clauses) + len(b.clauses) > 2
    if not several and a.subject == b.subject and not (
            (first_a.facts and first_b.facts) or first_a.denials or first_b.denials
            or (a.preference and b.preference) or ruled_out(a.text) or ruled_out(b.text)
            or allergens(a.text) or allergens(b.text) or given_up(a.text) or given_up(b.text)):
        return None  # one clause each, read whole already, and nothing more to compare
    for x in a.clauses:
        found = None if _one_time(a, x) else _denial_conflict(x, b)
        if found is not None:
            return found
    for y in b.clauses:
        found = None if _one_time(b, y) else _denial_conflict(y, a)
        if found is not None:
            return _swap(found)
    for x in a.clauses:
        for y in b.clauses:
            if x.owner and x.owner == y.owner and (
                    _diet_conflict(x, y, b) or _diet_conflict(y, x, a)):
                return Conflict("negation", "", "", 0.7, topical=True)
            if x.owner and x.owner == y.owner and x.past == y.past:
                found = _pair_conflict(x, y, several=several)
                if found is not None:
                    return found
            elif x.owner and x.owner == y.owner and (found := _level_conflict(x, y)):
                return found
    return None


def _level_conflict(x: Clause, y: Clause) -> Conflict | None:
    """Levels (levels.py) of a clause about the past against one about now: a level
    reached still holds ("finished university in 2015" / "is in her final year")."""
    for f in x.facts:
        for g in y.facts:
            if f.key in CLASHES and _facts_conflict(f, g):
                return Conflict("value", f.value, g.value, 0.8, topical=True)
    return None


#: a diet kept once ("was vegetarian all through college")
_WAS_ON_DIET = re.compile(r"\b(?:was|were|used to be|had been)\s+(?:a\s+)?(?:strict(?:ly)?\s+)?"
                          r"(?:vegetarian|vegan|pescatarian|teetotal|kosher|halal|dairy-free|"
                          r"gluten-free)\b", re.I)


_YEAR_OF = re.compile(r"\b(?:in|since)\s+((?:19|20)\d\d)\b")
_DATED = re.compile(r"^\s*((?:19|20)\d\d)-\d\d-\d\d\b|\b(?:in|on)\s+(?:\w+\s+){0,2}?"
                    r"((?:19|20)\d\d)\b")


def _had_after(given: frozenset[str], gave: str, had: str) -> bool:
    """``had`` says its owner had one of ``given`` once, in a year after the one ``gave``
    says they gave it up in ("swore off cigarettes in 2020" / "2024-03-09: Pavel smoked a
    cigarette at his cousin's party")."""
    year = _YEAR_OF.search(gave)
    when = _DATED.search(had)
    if year is None or when is None:
        return False
    return int(when.group(1) or when.group(2)) > int(year.group(1)) and bool(
        given & had_once(had))


def _diet_conflict(x: Clause, y: Clause, whole: Claim) -> bool:
    """``x`` rules out a kind of food or drink that ``y`` says its owner has ("is vegan" /
    "eats cheese every day", 滴酒不沾 / 每周五都去喝啤酒), or gave it up a while ago when ``y``
    says they had it lately ("quit drinking in 2019" / "had two beers last Saturday").
    ``whole``: the text ``y`` is a clause of."""
    if y.hedged or y.denials or y.claim.sign < 0:
        return False
    given = given_up(x.text)
    if given and given & had_lately(y.text, y.claim.text):
        return True  # "quit drinking in 2019" / "had two beers at the match last Saturday"
    if given and _had_after(given, x.text, y.claim.text):
        return True  # "swore off cigarettes in 2020" / "2024-03-09: smoked a cigarette"
    denied = ruled_out(x.text)
    if denied and not x.past and denied & had_lately(
            y.text, y.claim.text, every=True) and not _LAPSE.search(y.text):
        return True  # "is strictly vegan" / "had scrambled eggs for breakfast this morning"
    if y.past or x.past:
        return False
    # "hasn't touched alcohol in ten years" (smoking given up is the levels' to judge against
    # a habit: "quit smoking in 2015" / "still vapes now and then" may both hold)
    ruled = denied | (given - {"tobacco"})
    found = bool(ruled and ruled & _consumed(y, whole)) or (
        eats_allergen(x.text, y.text) and not managed(whole.text))
    # (a diet of the past says nothing of now: "was vegetarian all through college" /
    # "eats chicken most days now")
    return found and not _WAS_ON_DIET.search(x.text)


#: a meal had once by mistake ("had an omelette yesterday, by mistake"): no lapse of a diet
_LAPSE = guarded(re.compile(
    r"\bby\s+(?:mistake|accident)\b|\baccidentally\b|\bunknowingly\b|"
    r"\bwithout\s+(?:knowing|realising|realizing)\b|\bcheat\s+(?:day|meal)\b|"
    r"不小心|误食|误吃", re.I))
#: a clause that has what another names ("… and eats most of it herself"), or a heading
#: that says the rest is a habit ("Friday ritual: one Negroni …")
_REFERS = guarded(re.compile(
    r"\b(?:eats?|drinks?|has|finishes|polishes\s+off)\s+(?:\w+\s+){0,3}?(?:of\s+)?"
    r"(?:it|them)\b|自己(?:也)?吃|吃得|吃光|吃完|"
    r"\b(?:ritual|routine|go-to|usual|staple)\b|\bfavou?rite\s+"
    r"(?:breakfast|lunch|dinner|meal|snack|dish|drink)\b", re.I))


def _consumed(y: Clause, whole: Claim) -> frozenset[str]:
    """What ``y`` says its owner has (:func:`~memscope.meaning.diets.consumed`), read in
    the whole text (``whole``) when the clause names none and every clause is the owner's
    ("bakes a wheat sourdough every weekend and eats most of it herself", "Friday ritual:
    one Negroni at the bar"); nothing that holds gluten when the text says it is free of it
    ("loves pasta and buys gluten-free brands")."""
    found = consumed(y.text)
    if not found and len(whole.clauses) > 1 and _REFERS.search(whole.text) and all(
            c.owner == y.owner and not c.denials and c.claim.sign >= 0 for c in whole.clauses):
        found = consumed(whole.text)
    if "gluten" in found and NO_GLUTEN.search(whole.text):
        return found - {"gluten"}  # "loves pasta and buys gluten-free brands"
    return found


def _pair_conflict(x: Clause, y: Clause, *, several: bool) -> Conflict | None:
    found = _fact_conflict(x, y, firm=True)[0] or _preference_conflict(x, y)
    two_subjects = x.claim.subject != y.claim.subject
    if found is not None or x.past or not (several or two_subjects) or (
            two_subjects and x.claim.sign == y.claim.sign):
        return found
    # the one-template rules, clause against clause, once both are read as about their
    # owner (高雪很喜欢爵士乐 is 高雪's as much as 高雪讨厌爵士乐); read with two subjects, only
    # a negation or a preference counts (a "slot" is not one then)
    found = _claim_conflict(x.as_owner, y.as_owner)
    if found is not None and found.what not in ("negation", "preference") and (
            x.claim.subject != y.claim.subject or (
                x.facts and y.facts and not {f.key for f in x.facts} & {f.key for f in y.facts})):
        return None  # another subject; or an employer and a home: two attributes
    return found


#: Chinese words for working somewhere, whatever the work
_ZH_WORKING = frozenset(("上班", "工作", "打工", "干活", "任职", "就职"))
#: Chinese words that only join a subject to its value (是, 为, 在): left out of the bags
_ZH_JOINERS = frozenset("是为在的了")


def _bag(c: Claim) -> dict[str, str]:
    """A claim's words, subject included, each with its kind."""
    out = dict.fromkeys(c.subject, "word")
    out.update(zip(c.core, c.core_kinds, strict=True))
    return {w: k for w, k in out.items() if not (c.zh and w in _ZH_JOINERS)}


def _reordered_value_conflict(a: Claim, b: Claim) -> Conflict | None:
    """Two texts with the same words in another order but for one number or time ("lands
    at 18:40 on Friday" / "Nadia's Friday flight home lands at 9.15 pm", 房租每月四千五百元 /
    每月房租是3200元): one value, two readings."""
    if a.zh != b.zh or a.sign < 0 or b.sign < 0 or a.past != b.past or not (
            "number" in a.core_kinds and "number" in b.core_kinds) or not (
            a.clauses[0].owner and a.clauses[0].owner == b.clauses[0].owner):
        return None
    bag_a, bag_b = _bag(a), _bag(b)
    only_a, only_b = bag_a.keys() - bag_b.keys(), bag_b.keys() - bag_a.keys()
    if len(only_a) != 1 or len(only_b) != 1:
        return None
    (left,), (right,) = only_a, only_b
    kind = bag_a[left]
    if kind != "number" or bag_b[right] != kind or len(bag_a.keys() & bag_b.keys()) < (
            4 if a.zh else 3):
        return None
    return Conflict(kind, left, right, 0.75)


def _swap(found: Conflict) -> Conflict:
    return replace(found, left=found.right, right=found.left)


def _fact_keys(c: Claim) -> set[str]:
    return {f.key for cl in c.clauses for f in cl.facts}


def _facts_apart(a: Claim, b: Claim) -> bool:
    """Both texts give facts, none of one attribute ("住在成都" / "在重庆工作": a home and an
    employer): the one-template rule's "another value" is then another attribute."""
    keys_a, keys_b = _fact_keys(a), _fact_keys(b)
    return bool(keys_a and keys_b) and not keys_a & keys_b


def _facts_agree(a: Claim, b: Claim) -> bool:
    """Some attribute both texts give has one value in both ("born on 3 May 1993" / "her
    birthday is the 3rd of May")."""
    return any(x.owner and x.owner == y.owner and _fact_conflict(x, y)[1]
               for x in a.clauses for y in b.clauses)
