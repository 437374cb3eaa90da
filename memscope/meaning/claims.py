"""What a short memory claims: its subject, its words, its sign, and how two claims differ.

Embeddings say two memories are about the same topic; they do not say whether both can
hold ("Maya lives in Lisbon" / "Maya lives in Berlin" score lower than "Maya is allergic to
peanuts" / "… to shellfish", which are compatible). This module reads each text as a
*claim* — a subject (the leading names and kinship words: "Maya's sister Ana", "the Atlas
team"), the words after it (stems for English, characters for Chinese), a sign (a
negation or a dislike flips it) — and compares two claims about the same subject:

* **negation / opposite preference**: the same words, opposite signs ("drinks coffee" /
  "does not drink coffee", "likes" / "hates", 喜欢 / 不喜欢);
* **another value**: the same frame with one slot replaced — a date or a number, or a
  name or a word when the attribute holds one value at a time (lives in, reports to, main,
  primary, prefers, is set for, 住在, 最喜欢 …). A name replaced under an attribute that
  holds many ("is allergic to", "visited", "likes") is another object, so compatible;
  so is a text that only adds words (a refinement) or a different subject.

The rules are in ``docs/graph-rules.md`` ("Semantic audit"). Everything here is pure and
deterministic.

>>> conflict(claim("Maya lives in Lisbon."), claim("Maya lives in Berlin.")).what
'place'
>>> conflict(claim("Maya is allergic to peanuts."), claim("Maya is allergic to shellfish."))
>>> conflict(claim("玛雅住在里斯本。"), claim("玛雅住在柏林。")).what
'value'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property, lru_cache

#: a text is read from its first characters only (a claim is a sentence or two)
MAX_CHARS = 600

def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


_TOKEN = re.compile(
    r"(?P<num>\d+(?:[.,:/-]\d+)*(?:st|nd|rd|th|%|k|km|am|pm)?)"
    r"|(?P<word>[^\W_]*[^\W\d_][^\W_]*(?:['’][^\W\d_]+)?)", re.UNICODE)
_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|(?:19|20)\d\d")
_LOCATED = re.compile(r"\b(?:is|are|was|were|will be)\s+(?:in|at)\b", re.IGNORECASE)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")

MONTHS = _set("january february march april may june july august september october "
                   "november december jan feb mar apr jun jul aug sep sept oct nov dec")
WEEKDAYS = _set("monday tuesday wednesday thursday friday saturday sunday")
_NUMBER_WORDS = _set("one two three four five six seven eight nine ten eleven twelve "
                          "twenty thirty forty fifty hundred thousand million half")
_ZH_DIGITS = frozenset("零一二三四五六七八九十百千万两半")
_ZH_DATE = frozenset("年月日号周星期")

STOP = _set(
    "the a an of to in on at for with by from and or as is are was were be been being am "
    "has have had do does did will would shall should can could might must it its this "
    "that these those her his their our my your she he they we i you me him them us 's "
    "very really now currently also still just every each there which who what about into "
    "than then so up out any anymore again usually always often since")
#: words that flip a claim's sign (stems; "n't" is read as "not")
NEGATION = _set("not no never none nobody nothing neither nor cannot stop quit longer")
_NEGATION_FORMS = _set("not no never none nobody nothing neither nor cannot stop stops "
                       "stopped stopping quit quits quitting longer")
_POSITIVE = _set("like lov enjoy prefer ador fan favourit favorit keen")
_NEGATIVE = _set("dislik hat detest loath avoid")
#: words that may stand in a subject after its first name ("Maya's sister Ana")
_GLUE = _set(
    "the a an my our their his her 's sister brother mother father mom mum dad parent "
    "partner wife husband friend cousin son daughter colleague manager boss dog cat aunt "
    "uncle grandmother grandfather grandma grandpa team user project company family kid "
    "child niece nephew")
_PRONOUNS = _set("she he they i we it you")
#: attribute stems that hold one value at a time (a stem of four letters or fewer must
#: match a word exactly, a longer one may start it: "report" covers reports, reporting)
FUNCTIONAL = _set(
    "liv based mov relocat born birthday age old work employ job role title report manag "
    "boss marri wife husband main primary favourit favorit prefer schedul due "
    "deadline launch start begin end cost price budget salary standup deploy phone email "
    "address named timezone default capital headquarter hq owner")
#: attribute stems that hold many values (a replaced name is then another object)
MULTI = _set(
    "allerg visit lik lov enjoy read play speak know has own asked want met friend tri eat "
    "learn evaluat track collect watch listen follow")


def _matcher(cues: frozenset[str]) -> tuple[frozenset[str], tuple[str, ...]]:
    return (frozenset(c for c in cues if len(c) <= 4),
            tuple(sorted(c for c in cues if len(c) > 4)))


_FUNCTIONAL_MATCH = _matcher(FUNCTIONAL)
_MULTI_MATCH = _matcher(MULTI)


def _cue(word: str, match: tuple[frozenset[str], tuple[str, ...]]) -> bool:
    return word in match[0] or word.startswith(match[1])


_ZH_STOP = frozenset("的了着过也都很和与及把被吗呢吧啊呀就还又才")
_ZH_NEGATION = frozenset("不没未别无非勿")
_ZH_POSITIVE = ("喜欢", "喜爱", "热爱", "偏爱", "爱", "最爱")
_ZH_NEGATIVE = ("讨厌", "厌恶", "反感", "恨", "受不了")
_ZH_FUNCTIONAL = ("住", "搬", "生日", "出生", "工作", "上班", "老板", "经理", "汇报", "最",
                  "主要", "首选", "定于", "定在", "截止", "发布", "上线", "岁", "预算", "电话",
                  "地址", "改到", "推迟", "提前", "在")
_ZH_MULTI = ("过敏", "去过", "读", "看", "玩", "会说", "认识", "有")
#: where a Chinese subject ends: the first predicate character after the name
_ZH_PREDICATE = frozenset("住在是喜爱讨不没用使有要会将计打去来把对于已正每吃喝从搬向给跟想最经定改"
                          "目现今明昨常总一也还")


@dataclass(frozen=True)
class Claim:
    """A text read as a claim. ``words``: its normalised tokens after the subject, stop
    words dropped (negation and preference words kept); ``kinds``: per word, ``date``,
    ``number``, ``name`` (a capitalised word inside a sentence) or ``word``. What is
    derived from them is computed once (a claim is compared many times)."""

    text: str
    zh: bool
    subject: tuple[str, ...]
    words: tuple[str, ...]
    kinds: tuple[str, ...]
    sign: int
    preference: bool
    #: "… is in / at …": the subject is at one place at a time
    located: bool = False

    @cached_property
    def core(self) -> tuple[str, ...]:
        """The words without negation and preference words: what is claimed."""
        return tuple(w for w in self.words if not _is_sign_word(w, self.zh))

    @cached_property
    def word_set(self) -> frozenset[str]:
        """The words, as a set."""
        return frozenset(self.words)

    @cached_property
    def cues(self) -> tuple[frozenset[str], frozenset[str]]:
        """Its words that name a one-value attribute, and a many-values one (English)."""
        return _cues(self.words)

    @cached_property
    def subject_cues(self) -> tuple[frozenset[str], frozenset[str]]:
        """The same for its subject ("Jonas's manager")."""
        return _cues(self.subject)

    @cached_property
    def core_set(self) -> frozenset[str]:
        """The words of :attr:`core`, as a set."""
        return frozenset(self.core)

    @cached_property
    def core_kinds(self) -> tuple[str, ...]:
        """The kind of each word of :attr:`core`."""
        return tuple(k for w, k in zip(self.words, self.kinds, strict=True)
                     if not _is_sign_word(w, self.zh))

    @cached_property
    def attribute_words(self) -> frozenset[str]:
        """The words that are not values (no names, dates or numbers)."""
        return frozenset(w for w, k in zip(self.core, self.core_kinds, strict=True)
                         if k == "word")

    @cached_property
    def preferences(self) -> frozenset[str]:
        """Its preference words (likes, prefers, hates, 喜欢 …)."""
        if self.zh:
            joined = "".join(self.words)
            return frozenset(p for p in (*_ZH_POSITIVE, *_ZH_NEGATIVE) if p in joined)
        return frozenset(w for w in self.words if w in _POSITIVE or w in _NEGATIVE)

    @cached_property
    def values(self) -> frozenset[str]:
        """The claim's names, dates and numbers."""
        return frozenset(w for w, k in zip(self.words, self.kinds, strict=True) if k != "word")

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The claim's names, in order."""
        return tuple(w for w, k in zip(self.words, self.kinds, strict=True) if k == "name")

    @cached_property
    def families(self) -> frozenset[str]:
        """The attribute families its words name (see :data:`FAMILIES`)."""
        return families(self)


def stem(word: str) -> str:
    """A light English stem: lower case, no plural/-ing/-ed, no final e, no doubled
    consonant (lives, living, lived → liv; standups → standup; preferred → prefer)."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) <= 3:
        return w
    for suffix in ("ing", "ied", "ies", "ed", "es", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith(("ss", "us",
                                                                                  "is")):
            w = w[: -len(suffix)] + ("y" if suffix in ("ied", "ies") else "")
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiousl":
        w = w[:-1]
    return w


#: the subject words as tokens are read (stemmed: "colleague" → "colleagu")
_GLUE_STEMS = frozenset(_GLUE | {stem(g) for g in _GLUE})


def _is_sign_word(word: str, zh: bool) -> bool:
    if zh:
        return word in _ZH_NEGATION or word in "喜欢爱厌恨讨"
    return word in NEGATION or word in _POSITIVE or word in _NEGATIVE


def _en_tokens(text: str) -> list[tuple[str, str]]:
    """(stem, kind) per token; "n't" becomes "not", a possessive keeps a "'s" token."""
    out: list[tuple[str, str]] = []
    first = True
    for m in _TOKEN.finditer(text.replace("n't", " not").replace("n’t", " not")):
        raw = m.group(0)
        if m.group("num"):
            kind = "date" if _DATE.fullmatch(raw) else "number"
            out.append((raw.lower(), kind))
        else:
            low = raw.lower().replace("’", "'")
            base = low[:-2] if low.endswith("'s") else low
            if (base in MONTHS and (raw[0].isupper() or base != "may")) or base in WEEKDAYS:
                kind = "date"
            elif base[:-1] in WEEKDAYS and base.endswith("s"):
                kind = "word"  # "on Fridays": a recurring day, one value among several
            elif base in _NUMBER_WORDS:
                kind = "number"
            elif raw[0].isupper() and not first and base not in _PRONOUNS:
                kind = "name"
            else:
                kind = "word"
            if base == "cannot":
                out += [("can", "word"), ("not", "word")]
            else:
                word = base if kind in ("name", "date") else stem(base)
                if word in NEGATION and base not in _NEGATION_FORMS:
                    word = base  # "notes" is no "not"
                out.append((word, kind))
            if low.endswith("'s"):
                out.append(("'s", "word"))
        first = False
    return out


def _zh_tokens(text: str) -> list[tuple[str, str]]:
    """One token per Chinese character (digits and Latin words as in English)."""
    out: list[tuple[str, str]] = []
    for part in re.split(f"({_HAN.pattern})", text):
        if not part:
            continue
        if _HAN.fullmatch(part):
            kind = "number" if part in _ZH_DIGITS else "date" if part in _ZH_DATE else "word"
            out.append((part, kind))
        else:
            out.extend((w, "name" if k == "name" or (k == "word" and w.isascii()) else k)
                       for w, k in _en_tokens(" " + part))
    return out


def _en_subject(tokens: list[tuple[str, str]], text: str) -> int:
    """How many leading tokens make the subject."""
    starts_upper = text.lstrip()[:1].isupper()
    n = 0
    for i, (w, k) in enumerate(tokens):
        if i == 0 and (starts_upper or w in _GLUE_STEMS) and w not in _PRONOUNS:
            n = 1
            continue
        if k == "name" or w in _GLUE_STEMS:
            n = i + 1
            continue
        break
    return n


def _zh_subject(tokens: list[tuple[str, str]]) -> int:
    for i, (w, _k) in enumerate(tokens):
        if i > 0 and w in _ZH_PREDICATE:
            return i
    return min(2, len(tokens))


@lru_cache(maxsize=200_000)
def claim(text: str) -> Claim:
    """Read ``text`` as a claim (cached: the same text is read once)."""
    cut = text[:MAX_CHARS]
    zh = bool(_HAN.search(cut))
    tokens = _zh_tokens(cut) if zh else _en_tokens(cut)
    n_subject = _zh_subject(tokens) if zh else _en_subject(tokens, cut)
    if not zh and n_subject == 0 and tokens and tokens[0][0] in _PRONOUNS:
        subject: tuple[str, ...] = ("*",)
        n_subject = 1
    else:
        subject = tuple(w for w, _k in tokens[:n_subject]
                        if w not in ("the", "a", "an", "'s", "my"))
    stop = _ZH_STOP if zh else STOP
    rest = [(w, k) for w, k in tokens[n_subject:] if w not in stop]
    words = tuple(w for w, _k in rest)
    joined = "".join(words) if zh else ""
    if zh:
        negated = sum(1 for w in words if w in _ZH_NEGATION) % 2 == 1
        positive = any(p in joined for p in _ZH_POSITIVE)
        negative = any(p in joined for p in _ZH_NEGATIVE)
    else:
        negated = sum(1 for w in words if w in NEGATION) % 2 == 1
        positive = any(w in _POSITIVE for w in words)
        negative = any(w in _NEGATIVE for w in words)
    base = -1 if negative and not positive else 1
    return Claim(text=text, zh=zh, subject=subject, words=words,
                 kinds=tuple(k for _w, k in rest), sign=-base if negated else base,
                 preference=positive or negative, located=bool(_LOCATED.search(cut)))


_NAMES = frozenset(("place", "person", "name"))


@dataclass(frozen=True, slots=True)
class Conflict:
    """Why two claims cannot both hold: ``what`` is ``negation``, ``preference``, ``date``,
    ``number``, ``place``, ``person``, ``name`` or ``value``; ``left``/``right`` the
    differing words (empty for a negation); ``score`` in [0, 1]."""

    what: str
    left: str
    right: str
    score: float


def _dice(a: set[str] | frozenset[str], b: set[str] | frozenset[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a or b else 1.0


def _functional(a: Claim, b: Claim) -> bool | None:
    """True when the words both claims use (or their subject) name a one-value
    attribute, False for a many-values one, ``None`` when they name neither."""
    if a.zh:
        shared = [w for w in a.words if w in b.word_set]
        joined = "".join(shared) + "|" + "".join(a.subject)
        if any(c in joined for c in _ZH_FUNCTIONAL):
            return True
        return False if any(c in joined for c in _ZH_MULTI) else None
    if a.subject_cues[0] or a.cues[0] & b.word_set:
        return True
    return False if a.subject_cues[1] or a.cues[1] & b.word_set else None


def _cues(words: Sequence[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The words that name a one-value attribute, and those that name a many-values one."""
    one = frozenset(w for w in words if _cue(w, _FUNCTIONAL_MATCH))
    many = frozenset(w for w in words if _cue(w, _MULTI_MATCH))
    return one, many


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


def conflict(a: Claim, b: Claim) -> Conflict | None:
    """Why ``a`` and ``b`` cannot both hold, or ``None`` when they can (or when this rule
    cannot tell: another subject, nothing shared, only added words)."""
    if not same_subject(a, b) or a.zh != b.zh:
        return None
    if a.sign != b.sign:
        overlap = _dice(set(a.core), set(b.core))
        if overlap >= 0.6 and set(a.core) & set(b.core):
            what = "preference" if a.preference or b.preference else "negation"
            return Conflict(what, "", "", round(0.7 + 0.3 * overlap, 3))
        return None
    if a.sign < 0:  # two negative claims rarely exclude each other
        return None
    return _slot_conflict(a, b) or _family_conflict(a, b)


#: attribute families that hold one value at a time (one home, one employer)
ONE_VALUE_FAMILIES = ("home", "work")


def _family_conflict(a: Claim, b: Claim) -> Conflict | None:
    """The same one-value family in other words, each naming one place or employer, and
    not the same one ("lives in Lisbon" / "moved to Berlin and lives there now")."""
    shared = a.families & b.families & set(ONE_VALUE_FAMILIES)
    names_a, names_b = a.names, b.names
    if not shared or len(names_a) != 1 or len(names_b) != 1 or names_a == names_b:
        return None
    return Conflict("place" if "home" in shared else "name", names_a[0], names_b[0], 0.7)


def _slots(a: Claim, b: Claim, replaced: list[tuple[int, int, int, int]]
           ) -> list[tuple[str, str, str, bool]] | None:
    """(kind, left, right, holds a name) per replaced span; ``None`` when a span is not a
    value (a whole predicate, or a date against a word)."""
    core_a, core_b = a.core, b.core
    ka, kb = a.core_kinds, b.core_kinds
    width, sep = (6, "") if a.zh else (3, " ")
    slots = []
    for i1, i2, j1, j2 in replaced:
        if max(i2 - i1, j2 - j1) > width:
            return None  # a whole predicate replaced: another attribute, not a value
        before = core_a[i1 - 1] if i1 > 0 else None
        if before in MONTHS and {*ka[i1:i2], *kb[j1:j2]} == {"number"}:
            ka, kb = (*ka[:i1], *("date",) * (i2 - i1), *ka[i2:]), (
                *kb[:j1], *("date",) * (j2 - j1), *kb[j2:])  # "March 10" / "March 14"
        if any("name" in kinds and ("number" in kinds or "date" in kinds)
               for kinds in (ka[i1:i2], kb[j1:j2])):
            return None  # "$90k for Q2" / "$60k for Q3": two values side by side
        kind_a = _value_kind(ka[i1:i2], before, a.zh)
        kind_b = _value_kind(kb[j1:j2], before, b.zh)
        if kind_a != kind_b and not {kind_a, kind_b} <= _NAMES:
            return None  # a date against a word: not one slot
        named = kind_a in _NAMES or "name" in (*ka[i1:i2], *kb[j1:j2])
        left, right = sep.join(core_a[i1:i2]), sep.join(core_b[j1:j2])
        if before in MONTHS and kind_a == "date":
            left, right = f"{before} {left}", f"{before} {right}"  # "December 7"
        slots.append((kind_a, left, right, named))
    return slots


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


def _slot_conflict(a: Claim, b: Claim) -> Conflict | None:
    """The same frame with one value replaced, under an attribute that holds one value
    (or a date or number under any attribute)."""
    core_a, core_b = a.core, b.core
    common = a.core_set & b.core_set
    if core_a == core_b or len(a.core_set) - len(common) > 6 or (
            len(b.core_set) - len(common) > 6):
        return None  # nothing replaced, or more than two three-word values: cheap checks
    frame, replaced = _align(core_a, core_b)
    functional = _functional(a, b) is True
    # "Jonas's manager is X" / "… is Y", "Diego prefers tea" / "… coffee": the attribute
    # is in the subject or a preference word, and the rest is the value
    bare = functional and max(len(core_a), len(core_b)) <= 3
    if not replaced or len(frame) < (0 if bare else max(1, (min(len(core_a), len(core_b))
                                                            + 2) // 3)):
        return None
    slots = _slots(a, b, _merge_dates(replaced, a.core_kinds, b.core_kinds))
    if slots is None:
        return None
    functional = functional or (a.located and b.located and all(s[0] in _NAMES
                                                                 for s in slots))
    if len(slots) > 1 or (not functional and slots[0][3]):
        return None  # several things differ, or another object: both may hold
    kind, left, right, _named = next((s for s in slots if s[0] != "value"), slots[0])
    if not functional and kind not in ("date", "number"):
        return None
    if kind == "value" and a.values and a.values == b.values:
        return None  # the same names, dates and numbers in other words: a rewording
    closeness = len(frame) / max(len(core_a), len(core_b))
    base = 0.75 if functional else 0.6
    return Conflict(kind, left, right, round(min(1.0, base + 0.25 * closeness), 3))


#: attribute families: two texts naming one family are about one attribute even in other
#: words (an update from "eats everything but red meat" to "avoids dairy" is a diet change)
FAMILIES: dict[str, tuple[str, ...]] = {
    "diet": ("eat", "diet", "vegetarian", "vegan", "pescatarian", "dairy", "meat", "plant",
             "food", "meal", "gluten", "lactos", "吃", "素", "饮食", "肉", "奶"),
    "home": ("liv", "home", "based", "relocat", "address", "apartment", "hous", "住", "搬",
             "地址"),
    "work": ("work", "job", "employ", "compan", "office", "role", "hire", "工作", "上班",
             "公司"),
    "travel": ("trip", "travel", "fli", "flight", "vacation", "holiday", "itinerary",
               "hotel", "旅", "飞", "航班", "酒店"),
    "health": ("allerg", "doctor", "physio", "injur", "medic", "health", "therap", "过敏",
               "医", "病"),
    "schedule": ("launch", "due", "deadlin", "schedul", "postpon", "delay", "releas",
                 "发布", "上线", "截止", "推迟"),
}


def families(c: Claim) -> frozenset[str]:
    """The attribute families a claim's words name."""
    if c.zh:
        joined = "".join(c.words)
        return frozenset(f for f, cues in FAMILIES.items()
                         if any(not cue.isascii() and cue in joined for cue in cues))
    return frozenset(f for f, cues in FAMILIES.items()
                     if any(w.startswith(cues) for w in c.attribute_words))


def related(a: Claim, b: Claim) -> bool:
    """True when two claims share an attribute word, a value (name, date, number) or an
    attribute family — as an update's parent and child should. A shared subject alone is
    not enough: "Maya prefers Vue" updated by "Maya is allergic to peanuts" changed what
    the memory is about."""
    return bool(a.attribute_words & b.attribute_words or a.values & b.values
                or a.families & b.families or a.preferences & b.preferences)


__all__ = ["Claim", "Conflict", "claim", "conflict", "related", "same_subject", "stem", "values"]
