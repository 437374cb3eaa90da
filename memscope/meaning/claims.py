"""What a short memory claims: its subject, its words, its sign, and how two claims differ.

Embeddings say two memories are about the same topic; they do not say whether both can
hold ("Maya lives in Lisbon" / "Maya lives in Berlin" score lower than "Maya is allergic to
peanuts" / "… to shellfish", which are compatible). This module reads each text twice.

As one *claim* — a subject (the leading names and kinship words: "Maya's sister Ana", "the
Atlas team"), the words after it (stems for English, characters for Chinese), a sign (a
negation or a dislike flips it) — compared by one template:

* **negation / opposite preference**: the same words, opposite signs ("drinks coffee" /
  "does not drink coffee", "likes" / "hates", 喜欢 / 不喜欢);
* **another value**: the same frame with one slot replaced — a date or a number, or a
  name or a word when the attribute holds one value at a time (lives in, reports to, main,
  primary, prefers, is set for, 住在, 最喜欢 …).

And as *clauses* (:class:`Clause`), so that a claim survives other words: a sentence cut at
";", "but", "who", "and" before a verb …; each clause with its owner (the person it is
about: "Henrik's wife is called Maren" is Henrik's, "Tara's sister lives in Bristol" the
sister's), its *facts* (:class:`Fact`: one-value attributes recognised by small families of
paraphrases — "lives in" / "home is in" / "moved to", "reports to" / "manager is" / "boss
is", 向…汇报 / 领导是 — and nouns the shipped embedder finds synonymous) and its *denials*
(:class:`Denial`: "has never had grandchildren", "keeps no pets of any kind", "avoids
Python", 从不去公司). Two texts then conflict when a fact has two values, a denial meets
what the other affirms ("drives her own car", "has three grandchildren"), or one object is
liked and disliked. A name under an attribute that holds many ("is allergic to",
"visited") is another object, so compatible; so is a text that only adds words, speaks of
the past ("grew up in", "lived there from 2010 to 2014"), holds only at times ("hates
running in the rain") or is about another person.

:func:`update_relation` says whether an ``updates`` step stays on one thing (one attribute,
one subject), which the audit completes with the embedder's cosine. The rules are in
``docs/graph-rules.md`` ("Semantic audit"). Everything here is pure and deterministic.

>>> conflict(claim("Maya lives in Lisbon."), claim("Maya lives in Berlin.")).what
'place'
>>> conflict(claim("Maya is allergic to peanuts."), claim("Maya is allergic to shellfish."))
>>> conflict(claim("玛雅住在里斯本。"), claim("玛雅住在柏林。")).what
'value'
>>> conflict(claim("Maya lives in Lisbon, near the river."),
...          claim("Maya's home is a flat in Berlin.")).what
'place'
>>> conflict(claim("Maya has never owned a car."), claim("Maya drives her car to work.")).what
'negation'
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import cached_property, lru_cache
from itertools import islice

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
    "than then so up out any anymore again usually always often since doe")
#: words that flip a claim's sign (stems; "n't" is read as "not")
NEGATION = _set("not no never none nobody nothing neither nor cannot stop quit longer")
_NEGATION_FORMS = _set("not no never none nobody nothing neither nor cannot stop stops "
                       "stopped stopping quit quits quitting longer")
_POSITIVE = _set("like lik lov enjoy prefer ador fan favourit favorit keen")
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

    @cached_property
    def marked_noun(self) -> str:
        """The word after "favourite", "main", "primary", "only": the attribute it marks."""
        for n, w in enumerate(self.words[:-1]):
            if w in _SLOT_MARKERS:
                return self.words[n + 1]
        return ""

    @cached_property
    def clauses(self) -> tuple[Clause, ...]:
        """Its clauses, each with its owner, facts and denials (see :class:`Clause`)."""
        return _clauses_of(self)

    @cached_property
    def past(self) -> bool:
        """Whether it speaks of a time gone ("lived in Paris from 2010 to 2014", "grew up
        in", "used to", 以前)."""
        return any(cl.past for cl in self.clauses)

    @cached_property
    def keys(self) -> frozenset[tuple[str, ...]]:
        """Whom it is about: its clauses' owners (and the kin it says the owner has none
        of), or else its subject (the audit pairs texts that share one)."""
        out = {cl.owner for cl in self.clauses if cl.owner} | self.denied_kin
        if out or not self.subject or self.subject == ("*",):
            return frozenset(out)
        return frozenset((self.subject,))

    @cached_property
    def denied_kin(self) -> frozenset[tuple[str, ...]]:
        """The people it says its owner has none of, as owners ("Sara has no children":
        Sara's children, sons, daughters …), to be compared with what is said of them."""
        return frozenset((*cl.owner, kin) for cl in self.clauses if cl.owner
                         for d in cl.denials if d.verb in _POSSESSION and d.object
                         for kin in (d.object[-1], *(stem(k) for k in _KIN_KINDS.get(
                             d.object[-1], ()))))


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
        # "no longer", "not … any longer": one negation each ("longer" alone is none)
        negated = sum(1 for w in words if w in NEGATION and w != "longer") % 2 == 1
        positive = any(w in _POSITIVE for w in words)
        negative = any(w in _NEGATIVE for w in words)
    base = -1 if negative and not positive else 1
    return Claim(text=text, zh=zh, subject=subject, words=words,
                 kinds=tuple(k for _w, k in rest), sign=-base if negated else base,
                 preference=positive or negative, located=bool(_LOCATED.search(cut)))


_NAMES = frozenset(("place", "person", "name"))
_TIMES_OF_DAY = _set("morning evening afternoon night noon midnight pm am")
_ZH_MEASURES = frozenset("个只位岁年月日号点分半次件本张元块米斤公里天周早晚上下午中夜")
#: a phrase that makes a claim hold only at times or places
_RESTRICTED = re.compile(r"\b(?:in|at|on|during|when|while|after|before|if|unless|except)\s+"
                         r"(?:the\s+)?(?!all\b)\w+|在.{1,6}(?:时|的时候)|(?:之后|之前|以后|以前)",
                         re.I)
#: words after which a replaced word names the attribute, not its value
_SLOT_MARKERS = _set("favourit favorit main primary only sole")


@dataclass(frozen=True, slots=True)
class Conflict:
    """Why two claims cannot both hold: ``what`` is ``negation``, ``preference``, ``date``,
    ``number``, ``place``, ``person``, ``name`` or ``value``; ``left``/``right`` the
    differing words (empty for a negation); ``score`` in [0, 1]; ``topical`` see below."""

    what: str
    left: str
    right: str
    score: float
    #: the rule itself found both on one attribute (a fact's family, a denied object), so
    #: the audit needs no embedding to say they are on one topic
    topical: bool = False


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
    """Why ``a`` and ``b`` cannot both hold, or ``None`` when they can (or when the rules
    cannot tell: another subject, nothing shared, only added words).

    First the two texts as wholes (:func:`_claim_conflict`: one template), unless one
    speaks of the past and the other does not, or an attribute both give agrees; then
    clause by clause for one owner: a one-value fact with two values, a denial of what the
    other affirms, opposite preferences for one object."""
    if a.zh != b.zh:
        return None
    owner_a, owner_b = a.clauses[0].owner, b.clauses[0].owner
    if same_subject(a, b) and a.past == b.past and not (owner_a and owner_b
                                                         and owner_a != owner_b):
        found = _claim_conflict(a, b)
        if found is not None and (found.what in ("negation", "preference")
                                  or not (_facts_agree(a, b) or _facts_apart(a, b))):
            return found
    return _clause_conflict(a, b)


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
        negative, positive = (a, b) if a.sign < 0 else (b, a)
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
    marked_a, marked_b = a.marked_noun, b.marked_noun
    if marked_a and marked_b and marked_a != marked_b:
        return None  # "favourite colour" / "favourite season": two attributes
    common = a.core_set & b.core_set
    if core_a == core_b or len(a.core_set) - len(common) > 6 or (
            len(b.core_set) - len(common) > 6):
        return None  # nothing replaced, or more than two three-word values: cheap checks
    frame, replaced = _align(core_a, core_b)
    functional = _functional(a, b) is True
    # "Jonas's manager is X" / "… is Y", "Diego prefers tea" / "… coffee": the attribute
    # is in the subject or a preference word, and the rest is the value
    bare = functional and max(len(core_a), len(core_b)) <= 3 and (
        a.zh or bool(a.subject_cues[0]) or a.preference or b.preference)
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
    if kind == "value" and not a.zh and not bare and max(len(left.split()),
                                                         len(right.split())) > 1:
        return None  # "works full-time" / "works from home on Fridays": another aspect
    closeness = len(frame) / max(len(core_a), len(core_b))
    base = 0.75 if functional else 0.6
    return Conflict(kind, left, right, round(min(1.0, base + 0.25 * closeness), 3))


#: attribute families: two texts naming one family are about one attribute even in other
#: words (an update from "eats everything but red meat" to "avoids dairy" is a diet change)
FAMILIES: dict[str, tuple[str, ...]] = {
    "diet": ("eat", "drink", "diet", "vegetarian", "vegan", "pescatarian", "dairy", "meat",
             "plant", "food", "meal", "gluten", "lactos", "吃", "喝", "素", "饮食", "肉", "奶"),
    "home": ("liv", "home", "based", "relocat", "address", "apartment", "hous", "住", "搬",
             "地址"),
    "work": ("work", "job", "employ", "unemploy", "compan", "office", "role", "hire",
             "promot", "position", "career", "resign", "laid", "fired", "工作", "上班", "公司",
             "升职", "晋升", "升为", "职位", "工程师", "专家", "跳槽", "辞职", "离职", "入职"),
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


# ---------------------------------------------------------------------------------------
# Reading past one template: clauses, whose they are, one-value facts, denials.
#
# A sentence is cut into clauses (";", "but", ", who", "and" before a verb …); a clause
# without a subject of its own ("… and drives daily", "she only learnt Korean") is about
# the sentence's. Each clause has an *owner* (the person: "Elena Rossi" is Elena; "Henrik's
# wife is called Maren" is about Henrik, "Tara's sister lives in Bristol" about the sister),
# *facts* (a one-value attribute and its value, whatever the words: "lives in" / "home is
# in" / "moved to"; "reports to" / "manager is" / "boss is"), and *denials* (what it says
# the owner never does or has: "has never had grandchildren", "keeps no pets of any kind",
# "avoids Python", 从不去公司).

#: words that open a time or place phrase before the subject ("These days Ingrid …")
_LEADING = _set(
    "these this after before since once on in at during every each now today nowadays "
    "recently lately currently meanwhile also still last next back for from as when by until "
    "over following")
_PRONOUN_HEADS = _set("she he they i we")
_DETERMINER_HEADS = _set("the a an my our your their his her its this that")
#: a person named through another ("Tara's sister", "Xavier's boss"): a clause about them is
#: about someone else, unless it only says who they are ("Henrik's wife is called Maren")
_ROLES = _set(
    "sister brother son daughter child children kid kids cousin friend colleague coworker "
    "niece nephew aunt uncle grandchild grandchildren grandson granddaughter grandmother "
    "grandfather grandma grandpa parent parents mother father mum mom dad sibling siblings "
    "neighbour neighbor flatmate roommate partner wife husband spouse girlfriend boyfriend "
    "fiancé fiancée fiance fiancee manager boss supervisor mentor teacher landlord youngest "
    "eldest oldest baby twin stepson stepdaughter stepmother stepfather ex")
_ROLE_STEMS = frozenset(stem(r) for r in _ROLES)
#: words that make an attribute hold one value ("her only employer", "main bank")
_MARKERS = _set("only sole main primary favourite favorite one current usual regular new")
#: one-value attributes in other words: the family of each attribute noun
_NOUN_FAMILIES: dict[str, str] = {
    **dict.fromkeys(("manager", "boss", "line manager", "supervisor", "direct manager",
                     "line-manager", "reporting manager"), "manager"),
    **dict.fromkeys(("partner", "wife", "husband", "spouse", "girlfriend", "boyfriend",
                     "fiancé", "fiancée", "fiance", "fiancee"), "partner"),
    **dict.fromkeys(("home", "home city", "flat", "apartment", "house", "address"), "home"),
    **dict.fromkeys(("employer", "company", "job", "workplace"), "employer"),
    **dict.fromkeys(("desk", "office", "work desk"), "workplace"),
    **dict.fromkeys(("birthday", "date of birth", "birth date", "birthdate"), "birthday"),
    **dict.fromkeys(("wedding", "wedding day", "wedding date"), "wedding"),
    "age": "age",
    **dict.fromkeys(("blood type", "blood group"), "blood"),
    **dict.fromkeys(("mother tongue", "first language", "native language", "native tongue"),
                    "language"),
    **dict.fromkeys(("gp", "family doctor", "general practitioner", "family physician"),
                    "doctor"),
    **dict.fromkeys(("bank", "bank account"), "bank"),
}
#: families whose value is a date
_DATE_FAMILIES = frozenset(("birthday", "wedding", "end"))
_FAMILY_KIND = {"home": "place", "workplace": "place", "birthplace": "place",
                "manager": "person", "partner": "person", "doctor": "person",
                "age": "number", "count": "number", "household": "value", "blood": "value"}


def _cue_pattern(pattern: str) -> re.Pattern[str]:
    """A cue pattern whose first word must not follow a hyphen ("usage-based billing in")."""
    if pattern.startswith(r"\b"):
        pattern = r"(?<![\w-])" + pattern[2:]
    return re.compile(pattern, re.I)


#: where a family is said with a verb (the value follows the cue)
_CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((family, _cue_pattern(pattern)) for family,
                                                       pattern in (
    ("workplace", r"\b(?:desk|office) is (?:based )?(?:in|at)\b|\bworks? out of\b"
                  r"|\bworks? (?:in|from|at) the\b(?=[^,;]*\b(?:office|headquarters|hq|"
                  r"branch|site|campus)\b)"),
    ("home", r"\b(?:lives|live|living|resides|reside|is based|are based|has lived|have lived|"
             r"has been living|moved|has moved|relocated|has relocated|settled)(?:\s+\w+){0,2}?"
             r"\s+(?:in|to)\b(?!\s+(?:the|a|an)\s+\w+\s+office)"),
    ("employer", r"\bworks?(?:\s+[\w-]+){0,4}?\s+(?:for|at)\b(?!\s+(?:home|night|weekends?)\b)"
                 r"|\bemployed(?:\s+[\w-]+){0,2}?\s+(?:by|at)\b"
                 r"|\bjoined\b(?=\s+(?:the\s+)?[A-Z])"
                 r"|\b(?:is|as) an? (?:[\w-]+\s+){0,2}?(?!(?:volunteer|member|regular|guest|"
                 r"visitor|customer|client|patient|fan|student|resident|speaker|trustee|"
                 r"mentor|subscriber)\b)[\w-]+ (?:at|for)\b"),
    ("bank", r"\bbanks? with\b"),
    ("manager", r"\b(?:reports?|reported|reporting)\s+(?:\w+ly\s+)?to\b|\bmanaged by\b"
                r"|\bworks? under\b"),
    ("partner", r"\bmarried to\b|\bin a relationship with\b|\b(?:is|has been|been) (?:dating|"
                r"seeing)\b|\bengaged to\b|\bgoing out with\b"),
    ("birthday", r"\bborn on\b|\bborn in\b(?=\s+(?:\w+\s+)?(?:19|20)\d\d\b)"
                 r"|\bbirthday (?:is )?(?:on )?(?:the )?(?=\d|[A-Z])"),
    ("birthplace", r"\bborn in\b(?!\s+(?:\w+\s+)?(?:19|20)\d\d\b)"),
    ("wedding", r"\b(?:getting|get|gets) married (?:on|in)\b|\bwedding (?:is )?(?:on|in)\b"),
    ("language", r"\bnative speaker of\b"),
    ("blood", r"\bblood (?:type|group)(?:\s+is)?\b"),
    ("end", r"\b(?:ends?|runs?|lasts?|is valid|expires?)\s+(?:on|until|in)\b|\bexpires?\b"),
))
#: words one of which a clause must hold for a family's cue to be looked for (cheap: most
#: clauses name no one-value attribute)
_TRIGGERS = {
    "workplace": ("desk", "office", "out of", "headquarter", " hq", "branch", "site", "campus"),
    "home": ("live", "resid", "based", "moved", "relocat", "settled"),
    "employer": ("work", "employ", "joined", " at ", " for "),
    "bank": ("bank",), "manager": ("report", "managed", "under"),
    "partner": ("married", "relationship", "dating", "seeing", "engaged", "going out"),
    "birthday": ("born", "birthday"), "birthplace": ("born",),
    "wedding": ("married", "wedding"), "language": ("native",), "blood": ("blood",),
    "end": ("end", "run", "last", "valid", "expir"),
}
_STATE_TRIGGER = re.compile(
    r"single|married|engaged|unemployed|jobless|out of work|between jobs|no job|(?:full|part)"
    r"[- ]time|alone|on (?:his|her|their|my) own|by (?:him|her|them)sel|live|living|share|"
    r"together|no (?:partner|boyfriend|girlfriend|wife|husband)|wife|husband|单身|未婚|婚|失业|"
    r"待业|没有工作|全职|兼职|住|合租|对象|伴侣|朋友|妻|丈夫|老公|老婆", re.I)
#: words an age or a count needs ("… years old", "turned", "has two …", "father of …")
_AGE_TRIGGER = re.compile(r"old|turn|age|birthday|^\s*(?:is|was)\s", re.I)
_COUNT_TRIGGER = re.compile(r"\b(?:has|have|owns?|keeps?|of)\s|['’]s\s", re.I)
_EVENT = re.compile(r"\b(?:moved|relocated|settled|joined)\b", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_NUMBER_VALUE = {w: str(n) for n, w in enumerate(re.findall(r"\w+", (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty")))}
_TENS = {w: 10 * n for n, w in enumerate(
    ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"), start=2)}
#: a number in digits or words ("34", "four", "thirty-four", "thirty four")
_N = (r"(\d{1,3}|(?:" + "|".join(_TENS) + r")(?:[- ](?:one|two|three|four|five|six|seven|"
      r"eight|nine)\b)?|" + "|".join(sorted(_NUMBER_VALUE, key=len, reverse=True)) + r")")


def _number(raw: str) -> str:
    """A number read by :data:`_N`, in digits ("thirty-four" → "34")."""
    low = raw.lower()
    if low in _NUMBER_VALUE:
        return _NUMBER_VALUE[low]
    tens, _sep, ones = low.replace(" ", "-").partition("-")
    if tens in _TENS:
        return str(_TENS[tens] + int(_NUMBER_VALUE.get(ones, "0")))
    return raw
_AGE = (re.compile(rf"\b{_N}\s*(?:years?|yrs?)[\s-]*old\b", re.I),
        re.compile(rf"\b(?:turned|turns|aged|age)\s+{_N}\b", re.I),
        re.compile(rf"^\s*(?:is|was)\s+{_N}\s*(?:$|[,.;]|and\b)", re.I),
        re.compile(r"\b(\d{1,3})(?:st|nd|rd|th)\s+birthday\b", re.I))
_COUNT = (re.compile(rf"\b(?:has|have|owns?|keeps?)\s+{_N}\s+((?:[a-z-]+\s+)?[a-z]+)", re.I),
          re.compile(rf"\b(?:father|mother|parent|mum|mom|dad)\s+of\s+{_N}\s+((?:[a-z-]+\s+)?"
                     r"[a-z]+)", re.I))
_OWN_COUNT = re.compile(rf"^\W*[A-Z][\w-]*['’]s\s+{_N}\s+([a-z]+)")
_NOT_COUNTED = _set("years year days times weeks months hours")
_ANY_NUMBER = re.compile(r"\d|\b(?:" + "|".join(_NUMBER_VALUE) + "|" + "|".join(_TENS)
                         + r")\b", re.I)
_HOUSEHOLD = (
    (re.compile(r"\b(?:lives?|living|lived)\s+(?:\w+\s+)?(?:alone|on (?:his|her|their|my) own"
                r"|by (?:him|her|them)sel(?:f|ves))\b", re.I), "alone"),
    (re.compile(r"\b(?:lives?|living)\s+(?:\w+\s+)?with\b|\bshares?\s+(?:a|an|the|his|her|"
                r"their)?\s*(?:flat|house|home|apartment|place)\s+with\b|\blives? together\b",
                re.I), "with"),
    (re.compile(r"一个人住|独居|独自(?:一人)?住|自己一个人住"), "alone"),
    (re.compile(r"(?:和|跟|与).{1,6}(?:住在一起|一起住|同住)|合租"), "with"))
_WORK_HOURS = r"\b(?:works?|working|employed|job|position|role)\b[^,;.]{0,24}?\b"
#: one-value states said in a word: each family's values exclude each other ("is single" /
#: "is married", "is unemployed" / "works at Café Nero", "full-time" / "part-time")
_STATES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (family, value, re.compile(pattern, re.I)) for family, value, pattern in (
        ("marital", "single", r"\b(?:is|has been|remains|stays) single\b|\bunmarried\b|单身"
                              r"|未婚"),
        ("marital", "married", r"\b(?:is|got|has been|are) married\b|\bmarried to\b"
                               r"|\b(?:has|have) a (?:wife|husband)\b|已婚|已经结婚|结婚了"
                               r"|(?:有|的)(?:妻子|丈夫|老公|老婆)"),
        ("marital", "engaged", r"\b(?:is|got|are) engaged\b|\bengaged to\b|订婚"),
        ("employment", "unemployed", r"\b(?:is|has been) (?:unemployed|jobless|out of work|"
                                     r"between jobs)\b|\bhas no job\b|失业|待业|没有工作"),
        ("hours", "full-time", _WORK_HOURS + r"full[- ]time\b|\bfull[- ]time (?:job|employee|"
                                             r"position|role|worker)\b|全职"),
        ("hours", "part-time", _WORK_HOURS + r"part[- ]time\b|\bpart[- ]time (?:job|employee|"
                                             r"position|role|worker)\b|兼职"),
    ))
#: no partner at all (against a named one)
_SINGLE = re.compile(r"\b(?:is|has been|remains) single\b|\bunmarried\b|\bhas no (?:partner|"
                     r"boyfriend|girlfriend|wife|husband)\b|\bhas never (?:been )?married\b",
                     re.I)
#: a clause about a time gone: its facts are not today's
_PAST = re.compile(
    r"\b(?:used to|previously|formerly|grew up|as an? (?:child|kid|teenager|student)|in the "
    r"past|back then|former|ex-\w+|first (?:husband|wife|job|marriage|partner)|(?:was|were) "
    r"married|divorced|until (?:19|20)\d\d|from (?:19|20)\d\d to|between (?:19|20)\d\d and)\b",
    re.I)
_PAST_VERB = re.compile(r"^\s*(?:\w+ly\s+)?(?:lived|worked|was (?:based|living|working)|"
                        r"stayed|spent)\b", re.I)
_HEDGES = re.compile(r"\b(?:wants? to|would like|plans? to|planning|hopes? to|hoping|thinking "
                     r"(?:about|of)|considering|looking (?:for|into)|saving (?:for|up)|dreams? of|"
                     r"wish(?:es)? to|might|may|could|should|trying to|tries to|learning to|"
                     r"used to|if)\b", re.I)
_ZH_HEDGES = re.compile(r"想|打算|计划|准备|希望|可能|如果")
_IDENTITY = re.compile(r"^\s*(?:is|was|has always been|has been|remains|is still|is now)\s+"
                       r"(?:(?:called|named)\s+)?(?P<prep>(?:in|at|on|with)\s+)?", re.I)
_PARTICIPLES = _set("born made sold built done set due going being not taken given written known "
                    "seen gone chosen driven eaten broken stolen spoken frozen hidden forgotten "
                    "paid kept held left lost found told bought brought sent spent run won")
_APPOSITIVE = re.compile(r",\s*(?:his|her|their|the)\s+(?P<marker>only|sole|main|primary|"
                         r"favourite|favorite|home|one)\s+(?P<noun>[a-z]+(?:\s+[a-z]+)?)", re.I)
_NAME_TOKEN = (r"(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+[A-ZÀ-ÖØ-Þ][\w.&-]*"
               r"|[A-ZÀ-ÖØ-Þ](?:[\w.&-]|['’](?!s\b)\w)*")
_NAME_RUN = re.compile(rf"(?:{_NAME_TOKEN})(?:\s+(?:(?:de|da|van|von|der|del|la|le|di|du|bin|"
                       rf"al|el|of|y)\s+)?(?:{_NAME_TOKEN}))*")
_TITLES = ("dr ", "mr ", "mrs ", "ms ", "prof ")
_MONTH_NUMBER = {m: n for n, names in enumerate((
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
    ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
    ("october", "oct"), ("november", "nov"), ("december", "dec")), start=1) for m in names}
_MONTH = (r"(january|february|march|april|may|june|july|august|september|october|november|"
          r"december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?")
_DATES = (
    (re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+{_MONTH}(?:,?\s+((?:19|20)\d\d))?"
                r"\b", re.I), ("d", "m", "y")),
    (re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+((?:19|20)\d\d))?", re.I),
     ("m", "d", "y")),
    (re.compile(r"\b((?:19|20)\d\d)-(\d{1,2})-(\d{1,2})\b"), ("y", "m", "d")),
    (re.compile(rf"\b{_MONTH}(?:\s+((?:19|20)\d\d))?\b", re.I), ("m", "y")),
    (re.compile(r"\b((?:19|20)\d\d)\b"), ("y",)),
)
#: Chinese: numerals, cues, roles, and what a denial looks like
_ZH_NUM = {c: n for n, c in enumerate("零一二三四五六七八九")} | {"两": 2}
_ZH_V = r"([^，。,；;、\s的了]{2,12}?)"
_ZH_END = r"(?=[，。,；;]|$)"
_ZH_CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((f, re.compile(p)) for f, p in (
    ("employer", r"在([^，。,；;、\s了]{2,14}?)(?:工作|上班|任职|实习|做(?=[^，。,；;]{0,6}[师员]))"
                 rf"|是{_ZH_V}的(?:全职|兼职|正式)?(?:员工|雇员|职员|工程师)"
                 rf"|(?:就职|供职|受雇)于{_ZH_V}{_ZH_END}"),
    ("home", rf"(?:住在|家在|住|搬到了?|搬去了?|定居在?)(?!一起){_ZH_V}(?=[，。,；;、\s的]|$)"),
    ("manager", rf"向{_ZH_V}汇报|(?:领导|上级|老板|上司|经理)(?:是|叫){_ZH_V}{_ZH_END}"),
    ("partner", rf"(?:妻子|丈夫|老婆|老公|太太|女朋友|男朋友|伴侣|对象)(?:是|叫){_ZH_V}{_ZH_END}"
                rf"|和{_ZH_V}结婚|嫁给了?{_ZH_V}{_ZH_END}|娶了{_ZH_V}{_ZH_END}"),
    ("language", rf"母语是{_ZH_V}{_ZH_END}"),
    ("blood", r"血型(?:是)?(AB|A|B|O)|(AB|A|B|O)型血"),
))
_ZH_DATE_RE = re.compile(r"(?:(\d{4}|[零一二三四五六七八九]{4})年)?"
                         r"(\d{1,2}|[一二三四五六七八九十]{1,3})月"
                         r"(?:(\d{1,2}|[一二三四五六七八九十]{1,3})[日号])?")
_ZH_BORN = re.compile(r"生日|出生|生于")
_ZH_AGE = re.compile(r"(\d{1,3}|[一二三四五六七八九十]{1,3})(?:周)?岁")
_ZH_ROLES = ("妹妹", "姐姐", "哥哥", "弟弟", "女儿", "儿子", "妻子", "丈夫", "老婆", "老公", "父亲",
             "母亲", "爸爸", "妈妈", "孩子", "朋友", "同事", "领导", "上级", "老板", "经理", "上司",
             "男朋友", "女朋友", "太太", "先生", "室友", "邻居", "宝宝")
_ZH_NOUN_FAMILIES = {"领导": "manager", "上级": "manager", "老板": "manager", "上司": "manager",
                     "经理": "manager", "妻子": "partner", "丈夫": "partner", "老婆": "partner",
                     "老公": "partner", "太太": "partner", "生日": "birthday", "母语": "language",
                     "血型": "blood"}
_ZH_THING = re.compile(r"的([^是叫在住有每从不没会已今去岁\d一二三四五六七八九十两]{1,5})")
_ZH_SINGLE = re.compile(r"单身|未婚|没有(?:对象|伴侣|男朋友|女朋友)")
_ZH_PAST = re.compile(r"以前|曾经|小时候|过去|原来|从前|前任|前妻|前夫")
_ZH_DENY = re.compile(r"从来没有|从来没|从来不|从没有|从没|从未|从不|没有|没|不|未|戒掉了?|戒了|戒")
_ZH_NOT_DENIAL = ("不过", "不错", "不同", "不少", "不久", "不仅", "不但", "不断", "不管", "不论",
                  "不得不", "不然", "不如", "未来", "没想到")
_ZH_AUX = "会能想敢要在再去过了着"
_ZH_DENIED_FAMILY = (("employer", re.compile(r"任职|工作|上班|公司")),
                     ("partner", re.compile(r"结婚|对象")))
#: what a denial's tail may say without restricting it ("avoids X wherever she can")
_UNIVERSAL = _set("any anything anyone anybody anywhere ever whatsoever wherever whenever all "
                  "kind kinds sort sorts type types")
#: words after which a denial holds only sometimes ("never drinks coffee after 3 pm")
_RESTRICTING = _set("after before until unless except when while during if outside without "
                    "because though although")
#: verbs too plain to carry a denial without an object ("does not have", "never goes")
_PLAIN_VERBS = _set("be been is are was were am have has had do does did get go make take use "
                    "say see want need like")
#: words skipped between a negation and its verb ("has never *ever* …", "has never *been* to")
_BEFORE_VERB = _set("ever even really actually yet once be to been")
#: a negation of these is no denial of a fact ("doesn't need to", "not only")
_NOT_DENIED = _set("need needs want wants only just sure always")
_AVOID = ("avoid", "refus", "shun", "quit", "stop")
#: two-word verbs of giving something up ("gave up coffee", "stays away from sugar")
_AVOID_PHRASES = frozenset((("gave", "up"), ("given", "up"), ("giving", "up"), ("give", "up"),
                            ("gives", "up"), ("stays", "away"), ("stay", "away")))
#: denials of having: the other text must give the owner the thing too ("has no children" /
#: "teaches children" both hold; "… / her two children" do not)
_POSSESSION = frozenset(("hav", "own", "keep", "got"))


@dataclass(frozen=True, slots=True)
class Fact:
    """A one-value attribute a clause gives its owner: ``key`` its family (``home``,
    ``employer``, ``manager``, ``partner``, ``birthday``, ``age``, ``marital`` …), or
    ``attr``, ``favourite``, ``count`` or ``end`` with ``noun`` naming it; ``of``: the
    owner's thing it is about ("Marcus's *youngest* is four"), empty for the owner;
    ``value`` as written, ``first`` its leading name (or the whole value, normalised),
    ``names`` every name it holds, ``date`` its parts (``y``, ``m``, ``d``)."""

    key: str
    noun: str
    of: str
    value: str
    first: str
    names: frozenset[str]
    date: tuple[tuple[str, int], ...] = ()
    exclusive: bool = True
    #: the year of a move or a new job ("moved to Osaka in 2015"): two in two years hold
    when: int = 0
    #: its value is a name ("a MacBook Air"), not a description ("old", "small")
    named: bool = False


def _state(key: str, of: str, value: str, *, noun: str = "", shown: str = "") -> Fact:
    return Fact(key, noun, of, shown or value, value, frozenset((value,)))


@dataclass(frozen=True, slots=True)
class Denial:
    """What a clause says its owner never does or has: the ``verb`` (a stem; empty for
    "avoids X"), the ``object`` stems (Chinese: characters), whether it holds for ``any``
    object of the verb, the family it denies (``employer`` for 不在任何公司任职), and the
    object's words as ``written`` (the embedder reads words, not stems)."""

    verb: str
    object: tuple[str, ...]
    any: bool
    family: str = ""
    written: tuple[str, ...] = ()
    #: the object is a name ("Spanish", "Linux"): no kind of thing, so nothing is one kind
    #: of it ("doesn't speak Spanish" / "speaks Portuguese")
    named: bool = False


@dataclass(frozen=True)
class Clause:
    """One clause of a text: its owner (``()`` when it names none), the owner's thing it
    is about (``of``), its claim (subject inherited), and what it states."""

    text: str
    owner: tuple[str, ...]
    of: str
    claim: Claim
    past: bool
    hedged: bool
    facts: tuple[Fact, ...]
    denials: tuple[Denial, ...]

    @cached_property
    def as_owner(self) -> Claim:
        """Its claim read as about its owner (computed once: a claim caches what it
        derives)."""
        return replace(self.claim, subject=self.owner) if self.owner else self.claim

    @cached_property
    def stems(self) -> frozenset[str]:
        """Its words' stems (English) or characters (Chinese), negations included — but not
        what it says it is free of ("dairy-free", "no-sugar")."""
        words = frozenset(self.claim.words) | frozenset(self.claim.subject[1:])
        if "-" not in self.text:
            return words
        free = {stem(w.lower()) for pair in re.findall(
            r"([^\W\d_]+)-(?:free|less)\b|\b(?:no|non|zero)-([^\W\d_]+)", self.text)
            for w in pair if w}
        return words - free

    @cached_property
    def affirms(self) -> bool:
        """It states something as so: not past, hoped for, denied or disliked."""
        return not (self.past or self.hedged or self.denials or self.claim.sign < 0)


# --- clauses ---------------------------------------------------------------------------

_AUX_HEADS = _set("is are was were has have had will would can could does did never only also "
                  "still now then always often rarely usually no not")
_EN_STRONG = re.compile(r"\s*;\s*|:\s+|\s+[—–]\s+|\s+-\s+|(?<!\b[DM]r)(?<!\bMrs)(?<!\bMs)"
                        r"(?<!\bSt)(?<!\bProf)\.\s+(?=[A-Z])")
_EN_WEAK = re.compile(r",?\s+(?:but|whereas|while|although|though)\s+|,\s*(?:and\s+)?(?=(?:she|"
                      r"he|they|who|which)\b)|\s+(?:who|which)\s+")


def _split_and(piece: str) -> list[str]:
    """Cut at "and" / ", and" before a verb ("… in 2020 and lives there"), not in a list
    ("Swedish and Norwegian", "her partner and two flatmates")."""
    out, start = [], 0
    for m in re.finditer(r",?\s+and\s+(\w+)", piece):
        word = m.group(1)
        low = word.lower()
        verbish = word[:1].islower() and (
            low in _AUX_HEADS or low.endswith("ed") or (
                low.endswith("s") and not low.endswith("ss") and low not in _NUMBER_WORDS
                and low not in _DETERMINER_HEADS))
        if verbish:
            out.append(piece[start:m.start()])
            start = m.start(1)
    out.append(piece[start:])
    return out


def _clause_texts(text: str, zh: bool) -> list[str]:
    if zh:
        return [p.strip() for p in re.split(r"[，,；;。！？!?]", text) if p.strip()]
    out: list[str] = []
    for part in _EN_STRONG.split(text):
        for piece in _EN_WEAK.split(part):
            out.extend(_split_and(piece))
    return [p.strip(" ,.!?") for p in out if p and p.strip(" ,.!?")]


def _clauses_of(c: Claim) -> tuple[Clause, ...]:
    """``c``'s clauses; the first names the owner the others inherit."""
    texts = _clause_texts(c.text[:MAX_CHARS], c.zh) or [c.text]
    out: list[Clause] = []
    first: tuple[str, ...] = ()
    for n, text in enumerate(texts):
        head, of, rest, identity = (_zh_head(text, inherited=n > 0) if c.zh
                                    else _en_head(text))
        if head is None or (head == () and n):
            head = first  # "… and drives daily", "she only learnt Korean"
        elif head == ():
            head = tuple(c.subject) if c.subject != ("*",) else ()
        if not n:
            first = head
        past = bool((_ZH_PAST if c.zh else _PAST).search(text)) or bool(
            not c.zh and _PAST_VERB.match(rest))
        own = _clause_claim(c, text, n, len(texts))
        hedged = bool((_ZH_HEDGES if c.zh else _HEDGES).search(text))
        facts = _zh_facts(of, rest, identity, past) if c.zh else _en_facts(
            of, rest, identity, text, past)
        denials = () if hedged or past else (_zh_denials(rest) if c.zh else _en_denials(rest))
        out.append(Clause(text, head, of, own, past, hedged, facts, denials))
    return tuple(out)


def _clause_claim(c: Claim, text: str, n: int, count: int) -> Claim:
    """The claim of one clause, its subject the sentence's when it names none."""
    if count == 1:
        return c
    if c.zh and n:
        return claim("".join(c.subject) + text)
    own = claim(text)
    return replace(own, subject=c.subject) if own.subject in ((), ("*",)) else own


# --- whose a clause is -----------------------------------------------------------------

def _en_head(text: str) -> tuple[tuple[str, ...] | None, str, str, bool]:
    """(owner — ``None`` for "the sentence's", ``()`` for "the claim's subject" —, the
    owner's thing it is about, the rest of the clause after them, whether the rest says
    what that thing is: "Henrik's wife *is called Maren*", "Zane's blood type *is* O
    negative")."""
    tokens = list(islice(_HEAD_TOKEN.finditer(text), 8))  # the subject is near the start
    if not tokens:
        return None, "", "", False
    i = _after_leading(tokens)
    word = tokens[i].group(0)
    low = word.lower()
    if low in _PRONOUN_HEADS:
        return None, "", text[tokens[i].end():], False
    if low in _DETERMINER_HEADS and word[:1].isupper():
        return (), "", text, False  # "The Atlas team …": the claim's subject decides
    m = _NAME_RUN.match(text, tokens[i].start()) if word[:1].isupper() else None
    if m is None:
        return None, "", text[tokens[i].start():], False
    return _possessed((_norm_name(m.group(0).split()[0]),), text, m.end())


_HEAD_TOKEN = re.compile(r"[^\s,;:]+")
#: a clause without one of these denies nothing (cheap: most clauses deny nothing)
_DENIAL_TRIGGER = re.compile(r"\b(?:not|never|no|cannot|avoid|refus|shun|quit|stop|gave up|"
                             r"given up|giving up|give up|gives up|stays? away)|n['’]t\b", re.I)


def _after_leading(tokens: list[re.Match[str]]) -> int:
    """Where the subject starts after a leading time or place phrase ("These days Ingrid
    …", "After the reorganisation, Xavier …")."""
    if tokens[0].group(0).lower().strip("'’") not in _LEADING:
        return 0
    for j in range(1, min(len(tokens), 8)):
        word = tokens[j].group(0)
        if word.lower() in _PRONOUN_HEADS or (word[:1].isupper() and
                                              word.lower() not in _LEADING):
            return j
    return 0


def _possessed(owner: tuple[str, ...], text: str, pos: int
               ) -> tuple[tuple[str, ...], str, str, bool]:
    """Read "'s …" after the owner's name: another person ("Maya's sister Ana", "Tara's
    sister lives"), or the owner's thing ("Carmen's contract ends", "Zane's blood type is")."""
    while (poss := re.match(r"['’]s\s+", text[pos:])) is not None:
        pos += poss.end()
        cut = _possessed_phrase(text[pos:])
        if not cut:
            break
        role = cut[-1].lower()
        if role not in _ROLES and stem(role) in _ROLE_STEMS:
            role = next(r for r in _ROLES if stem(r) == stem(role))  # "friends": a friend
        end = pos + len(" ".join(cut))
        after = text[end:]
        named = _NAME_RUN.match(after.lstrip()) if after[:1] == " " else None
        if role in _ROLES and named and not _is_identity(after, role=True):
            owner = (*owner, stem(role), _norm_name(named.group(0).split()[0]))
            pos = end + len(after) - len(after.lstrip()) + named.end()
            continue  # "Maya's sister Ana …": Ana
        identity = _is_identity(after, role=role in _ROLES)
        if role in _ROLES and not identity:
            return (*owner, stem(role)), "", after, False  # "Tara's sister lives …"
        return owner, " ".join(w.lower() for w in cut), after, identity
    return owner, "", text[pos:], False


def _possessed_phrase(text: str) -> list[str]:
    """The words of a possessed thing, up to its verb ("contract | ends on", "favourite
    colour | is", "friends | drink"): a role ends it, unless it starts a family noun
    ("mother tongue")."""
    words = re.match(r"((?:[A-Za-zÀ-ÿ-]+\s+){0,3})([A-Za-zÀ-ÿ-]+)(?=[\s,;.]|$)", text)
    if not words:
        return []
    parts = words.group(0).split()
    cut: list[str] = []
    for w in parts:
        low = w.lower()
        if low in STOP or (cut and low.endswith(("s", "ed")) and not low.endswith("ss")
                           and stem(low) not in _ROLE_STEMS and cut[-1].lower() not in
                           _NUMBER_WORDS and not cut[-1].isdigit()):
            break  # a verb ("contract ends"), not a counted noun ("two sons", "3 cats")
        cut.append(w)
        nxt = parts[len(cut)].lower() if len(cut) < len(parts) else ""
        if stem(low) in _ROLE_STEMS and f"{low} {nxt}" not in _NOUN_FAMILIES:
            break
    return cut


def _is_identity(after: str, *, role: bool) -> bool:
    """Whether ``after`` says what the possessed thing is ("is called Maren", "is O
    negative", "has always been deep red") rather than what it does ("was born on …")."""
    m = _IDENTITY.match(after)
    if not m:
        return False
    nxt = after[m.end():].lstrip()
    if role:  # "Henrik's wife is called Maren", "Xavier's boss is Claire Fontaine"
        return bool(re.match(r"(?:Dr|Mr|Mrs|Ms|Prof)\b|[A-ZÀ-ÖØ-Þ]", nxt))
    word = re.match(r"[a-z]+", nxt)
    return not (word and (word.group(0).endswith("ed") or word.group(0) in _PARTICIPLES))


def _zh_head(text: str, *, inherited: bool) -> tuple[tuple[str, ...] | None, str, str, bool]:
    """A Chinese clause's owner (its first two characters, a name read the same way in
    every text: 高雪很喜欢 is 高雪's; 孙丽的妹妹 is the sister), the owner's thing it is
    about (周杰的领导是…: 领导), the rest, and whether the rest says what that thing is
    (是, 叫)."""
    if inherited:
        return None, "", text, False
    if text[:1] in "他她我你":
        return None, "", text[1:], False
    latin = re.match(r"[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*)*\s*", text)
    if latin:  # "Atlas 的发布…": the Latin name
        owner, rest = latin.group(0).strip().lower(), text[latin.end():]
    else:
        owner, rest = text[:2], text[2:]
        if len(rest) > 1 and (rest[1] == "的" or rest[1:].startswith(_ZH_ROLES)):
            rest = rest[1:]  # 韩梅梅的姐姐: a three-character name, read as its first two
    while True:
        role = next((r for r in _ZH_ROLES if rest.startswith(r)), None)
        if role is not None:  # 刘洋女儿的生日: the daughter's
            thing, after = role, rest[len(role):]
        elif (m := _ZH_THING.match(rest)) is not None:
            thing, after = m.group(1), rest[m.end():]
        else:
            return (owner,), "", rest[1:] if rest.startswith("的") else rest, False
        identity = bool(re.match(r"(?:是|叫)", after))
        if thing == "家":  # 陈晨的家在杭州: where she lives
            return (owner,), "", thing + after, False
        if not thing.endswith(_ZH_ROLES) or identity:
            return (owner,), thing, after, identity
        owner, rest = f"{owner}的{thing}", after  # 孙丽的妹妹住在苏州: the sister


def _norm_name(name: str) -> str:
    low = name.lower().strip(".,;:!?'’").replace("’", "'")
    return low[:-2] if low.endswith("'s") else low


# --- values ----------------------------------------------------------------------------

def _names(window: str) -> list[str]:
    """The names in ``window``, in order, normalised (see :func:`_name_runs`)."""
    return [low for low, _raw in _name_runs(window)]


def _name_runs(window: str) -> list[tuple[str, str]]:
    """(normalised, as written) per name in ``window``, in order (titles dropped; months,
    weekdays and pronouns left out)."""
    out = []
    for m in _NAME_RUN.finditer(window):
        low = _norm_name(m.group(0))
        for title in _TITLES:
            low = low.removeprefix(title)
        low = low.strip()
        if low and low not in MONTHS and low not in WEEKDAYS and low.rstrip("s") not in \
                WEEKDAYS and low not in _PRONOUNS and low not in ("i", "q1", "q2", "q3", "q4"):
            out.append((low, m.group(0).strip(".,;:!?'’")))
    return out


def _date(window: str) -> tuple[tuple[str, int], ...]:
    """The first date in ``window`` as its parts (("d", 14), ("m", 3), ("y", 1988))."""
    best: tuple[int, tuple[tuple[str, int], ...]] | None = None
    for pattern, parts in _DATES:
        m = pattern.search(window)
        if not m:
            continue
        found = []
        for part, raw in zip(parts, m.groups(), strict=False):
            if raw is None:
                continue
            value = int(raw) if raw.isdigit() else _MONTH_NUMBER.get(raw.lower().rstrip("."))
            if value is not None:
                found.append((part, value))
        if found and (best is None or m.start() < best[0] or (
                m.start() == best[0] and len(found) > len(best[1]))):
            best = (m.start(), tuple(sorted(found)))
    return best[1] if best else ()


def _zh_int(raw: str) -> int | None:
    if raw.isdigit():
        return int(raw)
    if all(c in _ZH_NUM for c in raw):  # 一九九零
        return int("".join(str(_ZH_NUM[c]) for c in raw))
    if "十" in raw:
        tens, _sep, ones = raw.partition("十")
        return (_ZH_NUM.get(tens, 1) if tens else 1) * 10 + (_ZH_NUM.get(ones, 0) if ones else 0)
    return None


def _zh_date(window: str) -> tuple[tuple[str, int], ...]:
    m = _ZH_DATE_RE.search(window)
    if not m:
        return ()
    parts = ((part, _zh_int(raw)) for part, raw in zip(("y", "m", "d"), m.groups(), strict=True)
             if raw)
    return tuple(sorted((part, value) for part, value in parts if value is not None))


def _value_fact(key: str, noun: str, of: str, window: str, *, exclusive: bool = True,
                zh: bool = False) -> Fact | None:
    """A fact whose value is read from ``window`` (the words after the cue)."""
    window = window.strip()
    if key in _DATE_FAMILIES:
        date = _zh_date(window) if zh else _date(window)
        return Fact(key, noun, of, window, "", frozenset(), date, exclusive) if date else None
    if key == "blood":  # "O negative", "A+", "AB positive"
        m = re.match(r"\s*(AB|A|B|O)\s*(\+|-|positive|negative|pos|neg)?", window, re.I)
        if not m:
            return None
        rh = (m.group(2) or "").lower()
        rh = {"+": "positive", "-": "negative", "pos": "positive", "neg": "negative"}.get(rh, rh)
        return _state(key, of, f"{m.group(1).upper()} {rh}".strip(), noun=noun)
    if zh:
        value = window.strip("，。,；; ")
        return _state(key, of, value, noun=noun) if len(value) >= 2 else None
    names = _names(window)
    if names:
        return Fact(key, noun, of, window, names[0], frozenset(names), (), exclusive,
                    named=True)
    if key in ("favourite", "language") or (key == "attr" and exclusive):
        words = tuple(w for w in re.findall(r"[\w+-]+", window.lower()) if w not in STOP)
        if words:
            return Fact(key, noun, of, window, " ".join(words), frozenset(words), (), exclusive)
    return None


# --- facts -----------------------------------------------------------------------------

def _noun_key(phrase: str) -> tuple[str, str, bool]:
    """(family, or ``attr`` / ``favourite``; the noun; whether a marker makes it hold one
    value) of an attribute phrase ("main bank account" → ("bank", "bank account", True))."""
    words = phrase.lower().split()
    markers = [w for w in words if w in _MARKERS]
    noun = " ".join(w for w in words if w not in _MARKERS)
    if noun in _NOUN_FAMILIES:  # "office address" is no home: only the whole phrase counts
        return _NOUN_FAMILIES[noun], noun, True
    if "favourite" in markers or "favorite" in markers:
        return "favourite", noun, True
    return "attr", noun, bool(markers) or words[:1] == ["home"]


def _identity_fact(thing: str, rest: str) -> Fact | None:
    """What "X's <thing> is …" says: "Zane's blood type is O negative", "Viktor's main bank
    account is with Rabobank", "Wiebke's only dog is called Bruno", "Mina's wedding is on
    14 September"."""
    key, noun, marked = _noun_key(thing)
    m = _IDENTITY.match(rest)
    if m is None:
        return None
    window = rest[m.end():]
    prep = (m.group("prep") or "").strip().lower()
    if prep and key not in _DATE_FAMILIES and key not in ("home", "workplace", "bank") and not (
            prep == "on" and _date(window)):
        return None  # "Mirela's flat is in …" says where, not what
    if key == "attr" and noun.split()[-1:] and noun.split()[-1] in _ROLES and not marked:
        return None  # "Kofi's daughter is called Ama": one daughter of several, perhaps
    if key == "attr" and prep == "on":
        key = "end"  # "Pilar's appointment is on 4 June": a date of the thing
    fact = _value_fact(key, noun, "", window, exclusive=marked or key != "attr")
    if fact is None or (key == "attr" and not (marked or fact.names or fact.date)):
        return None
    if key == "attr" and re.search(r"\b(?:called|named)\b", m.group(0), re.I):
        # its name, another attribute than what it is ("Maya's dog is called Rex" /
        # "Maya's dog is a Labrador")
        return replace(fact, key="name")
    return fact


def _cue_facts(of: str, rest: str, facts: list[Fact]) -> list[Fact]:
    """The families a clause names with a verb (:data:`_CUES`)."""
    out: list[Fact] = []
    low = rest.lower()
    for family, cue in _CUES:
        if not any(t in low for t in _TRIGGERS[family]):
            continue
        m = cue.search(rest)
        if not m or any(f.key == family for f in (*facts, *out)) or (
                family == "employer" and any(f.key == "workplace" for f in out)):
            continue
        noun = ""
        if family == "end":  # the thing that ends: "contract ends", "visa expires"
            noun = of or " ".join(w for w in re.findall(r"[a-z]+", rest[:m.start()].lower())
                                  if w not in STOP)
            if not noun:
                continue
        window = re.split(r";|\bbut\b", rest[m.end():])[0]
        fact = _value_fact(family, noun, "" if family == "end" else of, window)
        if fact is None:
            continue
        year = _YEAR.search(rest) if _EVENT.search(m.group(0)) else None
        out.append(replace(fact, when=int(year.group(0))) if year else fact)
    return out


def _number_facts(of: str, rest: str, text: str) -> list[Fact]:
    """An age ("is 34", "turned 41", "her 35th birthday") and counts ("has two children",
    "the father of three kids", "Nina's two cats")."""
    out: list[Fact] = []
    if not _ANY_NUMBER.search(text):
        return out
    for pattern in _AGE if _AGE_TRIGGER.search(rest) else ():
        if (m := pattern.search(rest)) is not None:
            out.append(_state("age", of, _number(m.group(1)),
                              shown=m.group(0)))
            break
    if not _COUNT_TRIGGER.search(text):
        return out
    counted = [(m, of) for pattern in _COUNT for m in pattern.finditer(rest)]
    # "Nina's two cats …": the owner's count ("Sara's two sons …" is about the sons)
    counted += [(m, "") for m in _OWN_COUNT.finditer(text)
                if stem(m.group(2).lower()) not in _ROLE_STEMS]
    for m, whose in counted:
        noun = m.group(2).lower().split()[-1]
        if noun not in _NOT_COUNTED:
            out.append(_state("count", whose, _number(m.group(1)), noun=noun,
                              shown=m.group(0)))
    return out


def _state_facts(rest: str, of: str, facts: list[Fact]) -> list[Fact]:
    """The one-value states a clause names (:data:`_STATES`, a household, no partner); an
    employer means employed."""
    out: list[Fact] = []
    if _STATE_TRIGGER.search(rest):
        for family, value, pattern in _STATES:
            if pattern.search(rest) and not any(f.key == family for f in out):
                out.append(_state(family, of, value))
        household = next((v for pattern, v in _HOUSEHOLD if pattern.search(rest)), None)
        if household is not None:
            out.append(_state("household", of, household))
        if (_ZH_SINGLE if _HAN.search(rest) else _SINGLE).search(rest):
            out.append(Fact("partner", "", of, "single", "", frozenset()))
    if any(f.key == "employer" for f in facts) and not any(f.key == "employment" for f in out):
        out.append(_state("employment", of, "employed"))
    return out


def _en_facts(thing: str, rest: str, identity: bool, text: str, past: bool
              ) -> tuple[Fact, ...]:
    """The facts of an English clause (see :class:`Fact`); a clause about the past gives
    only its birth."""
    facts: list[Fact] = []
    if identity and thing:
        fact = _identity_fact(thing, rest)
        facts.extend(() if fact is None else (fact,))
    of = "" if identity else thing
    if past:
        return tuple(f for f in facts if f.key in ("birthday", "birthplace"))
    facts += _cue_facts(of, rest, facts)
    facts += _number_facts(of, rest, text)
    facts += _state_facts(rest, of, facts)
    for m in _APPOSITIVE.finditer(rest):  # "… Gatwick, his home airport"
        key, noun, _marked = _noun_key(f"{m.group('marker')} {m.group('noun')}")
        runs = _name_runs(rest[:m.start()])
        if runs and not any(f.key == key and f.noun == noun for f in facts):
            facts.append(Fact(key, noun, of, runs[-1][1], runs[-1][0],
                              frozenset(low for low, _raw in runs), named=True))
    return tuple(facts)


def _zh_facts(thing: str, rest: str, identity: bool, past: bool) -> tuple[Fact, ...]:
    """The facts of a Chinese clause (as :func:`_en_facts`)."""
    facts: list[Fact] = []
    if identity and thing:  # 周杰的领导是王总, 刘洋的生日是3月14日
        family = next((f for noun, f in _ZH_NOUN_FAMILIES.items() if thing.endswith(noun)),
                      None)
        fact = None if family is None else _value_fact(
            family, thing, "", re.sub(r"^(?:是|叫|在)", "", rest), zh=True)
        facts.extend(() if fact is None else (fact,))
    of = "" if identity else thing
    if past:
        return tuple(f for f in facts if f.key == "birthday")
    for family, cue in _ZH_CUES:
        m = cue.search(rest)
        if m and not any(f.key == family for f in facts) and not _ZH_DENY.search(
                rest[:m.start()][-3:]):
            facts.append(_state(family, of, next(g for g in m.groups() if g)))
    if not any(f.key == "birthday" for f in facts) and _ZH_BORN.search(rest):
        m = _ZH_DATE_RE.search(rest)
        date = _zh_date(rest)
        if m and date:
            facts.append(Fact("birthday", "", of, m.group(0), "", frozenset(), date))
    if (m := _ZH_AGE.search(rest)) is not None and (n := _zh_int(m.group(1))) is not None:
        facts.append(_state("age", of, str(n), shown=m.group(0)))
    facts += _state_facts(rest, of, facts)
    return tuple(facts)


# --- denials ---------------------------------------------------------------------------

def _en_denials(rest: str) -> tuple[Denial, ...]:
    """What an English clause denies: "not / never / no longer VERB OBJECT", "VERB no
    OBJECT", "avoids / gave up OBJECT" — unless it holds only at times ("after 3 pm", "on
    Fridays") or is about needing, wanting or liking."""
    if not _DENIAL_TRIGGER.search(rest):
        return ()
    raw = re.findall(r"[\w'’-]+", rest.replace("n't", " not").replace("n’t", " not"))
    words = [w for part in raw for w in part.lower().replace("’", "'").split("-") if w]
    named = {w.lower() for w in raw if w[:1].isupper()}
    out = []
    for i, w in enumerate(words):
        phrase = i + 1 < len(words) and (w, words[i + 1]) in _AVOID_PHRASES
        avoid = phrase or stem(w).startswith(_AVOID)
        if avoid and i and words[i - 1] in ("not", "never", "no"):
            continue  # "never avoids": no denial
        if avoid or w in ("not", "never", "no", "cannot"):
            found = _denial_at(words, i, avoid=avoid, skip=2 if phrase else 1)
            if found is not None:
                out.append(replace(found, named=any(w in named for w in found.written)))
    return tuple(out)


def _denial_at(words: list[str], i: int, *, avoid: bool, skip: int) -> Denial | None:
    """The denial whose negation (or verb of avoiding) is ``words[i]``."""
    j, verb = i + skip, ""
    if words[i] == "no" and j < len(words) and words[j] == "longer":
        j += 1
    if words[i] == "no" and i and words[i - 1] in ("has", "have", "had"):
        verb = "hav"  # "has no children"
    elif words[i] == "no" and i and words[i - 1] not in STOP:
        verb = stem(words[i - 1])  # "keeps no pets"
    elif not avoid:
        while j < len(words) and words[j] in _BEFORE_VERB and not (
                words[j] == "been" and j + 1 < len(words) and words[j + 1] in ("to", "in")):
            j += 1
        if j >= len(words):
            return None
        verb = stem(words[j])
        if verb in _POSITIVE or verb in _NEGATIVE or words[j] in _NOT_DENIED:
            return None  # a dislike is a preference; "doesn't need to" denies nothing
        j += 1
    else:
        while j < len(words) and words[j] in ("to", "the", "a", "an"):
            j += 1
    return _denied_object(words[j:], verb)


def _denied_object(tail: list[str], verb: str) -> Denial | None:
    """The denial of ``verb`` with the object ``tail`` starts with; ``None`` when a date,
    a day or a condition makes it hold only at times."""
    stems: list[str] = []
    written: list[str] = []
    universal = False
    for k, x in enumerate(tail):
        if x in _RESTRICTING or x in MONTHS or x in WEEKDAYS or x.rstrip("s") in WEEKDAYS \
                or x[:1].isdigit():
            return None
        if x in _UNIVERSAL or (x == "at" and tail[k + 1:k + 2] == ["all"]):
            universal = True
        elif x in ("but", "and", "so", "she", "he", "they"):
            break
        elif x not in STOP and x not in ("of", "longer", "kind", "single") and len(stems) < 3:
            stems.append(stem(x))
            written.append(x)
    if not stems and (not verb or verb in _PLAIN_VERBS):
        return None
    return Denial(verb, tuple(stems), universal, written=tuple(written))


def _zh_denials(rest: str) -> tuple[Denial, ...]:
    """What a Chinese clause denies: the characters after 不, 没有, 从不, 从未, 戒 … (its
    aspect and modal characters left out: 不会游泳 → 游泳)."""
    out: list[Denial] = []
    for m in _ZH_DENY.finditer(rest):
        if any(rest.startswith(w, m.start()) for w in _ZH_NOT_DENIAL):
            continue
        tail = re.split(r"[，。,；;]", rest[m.end():])[0]
        if not tail or tail.startswith(("喜欢", "爱", "太", "很", "怎么", "一定", "是")):
            continue  # a dislike is a preference; 不太, 不很: a degree, not a denial
        universal = "任何" in tail
        family = next((f for f, cue in _ZH_DENIED_FAMILY if cue.search(tail)),
                      "") if universal else ""
        core = "".join(ch for ch in tail.replace("任何", "") if ch not in _ZH_AUX)
        if len(core) >= (1 if m.group(0).startswith("戒") else 2) or family:
            out.append(Denial("", tuple(core), universal, family))
    return tuple(out)


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
_EXACT = frozenset(("marital", "employment", "hours", "household", "blood", "age", "count"))


@lru_cache(maxsize=20_000)
def _word_row(word: str) -> tuple[float, ...]:
    from memscope.meaning.embed import EmbedderUnavailable, embed

    try:
        return tuple(float(x) for x in embed([word])[0])
    except EmbedderUnavailable:
        return ()


def word_similarity(a: str, b: str) -> float:
    """Cosine of two words (or short phrases) by the shipped embedder; 0 without it."""
    if a == b:
        return 1.0
    ra, rb = _word_row(a), _word_row(b)
    return sum(x * y for x, y in zip(ra, rb, strict=True)) if ra and rb else 0.0


def _nouns_match(a: str, b: str) -> bool:
    """Two attribute nouns name one attribute: the same head, one inside the other, or
    synonyms by the embedder ("children" / "kids")."""
    wa, wb = a.split(), b.split()
    if not wa or not wb:
        return a == b
    if stem(wa[-1]) == stem(wb[-1]) or set(wa) <= set(wb) or set(wb) <= set(wa):
        return True
    return word_similarity(a, b) >= SYNONYM


def _same_value(a: str, names: frozenset[str]) -> bool:
    return any(a == n or (min(len(a), len(n)) >= 3 and (a in n or n in a)) for n in names)


def _facts_conflict(f: Fact, g: Fact) -> bool | None:
    """``True``: one attribute with two values; ``False``: one attribute, one value;
    ``None``: not one attribute (or not comparable)."""
    if f.key != g.key or f.of != g.of or (f.when and g.when and f.when != g.when):
        return None  # another attribute; or two moves in two years
    if f.key in _NOUN_KEYS and not _nouns_match(f.noun, g.noun):
        return None
    if f.key in ("attr", "name") and not (f.exclusive or g.exclusive or (f.named and g.named)):
        return None  # "Maya's flat is small" / "… bright"; but "Maya's laptop is a MacBook
        #              Air" / "… a ThinkPad": one thing, two names
    if f.date or g.date:
        da, db = dict(f.date), dict(g.date)
        shared = da.keys() & db.keys()
        return any(da[k] != db[k] for k in shared) if shared else None
    if not f.first or not g.first:  # "is single": no partner at all
        return None if not f.first and not g.first else bool(f.names or g.names)
    if f.key in _EXACT:
        return f.first != g.first
    return not (_same_value(f.first, g.names) or _same_value(g.first, f.names)
                or word_similarity(_shown(f.first, f.value), _shown(g.first, g.value))
                >= SYNONYM)  # "NYC" / "New York"


def _kind_of(f: Fact) -> str:
    if f.date:
        return "date"
    if f.key in _FAMILY_KIND:
        return _FAMILY_KIND[f.key]
    return "name" if f.named else "value"


def _fact_conflict(x: Clause, y: Clause) -> tuple[Conflict | None, bool]:
    """A conflict between two clauses' facts, and whether some attribute agreed."""
    agreed = False
    for f in x.facts:
        for g in y.facts:
            verdict = _facts_conflict(f, g)
            if verdict:
                left, right = (f.value, g.value) if f.date or not (f.first and g.first) else (
                    f.first, g.first)
                return Conflict(_kind_of(f), _shown(left, f.value), _shown(right, g.value),
                                0.8, topical=True), agreed
            agreed = agreed or verdict is False
    return None, agreed


def _shown(value: str, written: str) -> str:
    """A value as the text writes it ("médecins sans frontières" → "Médecins Sans
    Frontières"), a few words at most."""
    at = written.lower().find(value)
    if at >= 0:
        value = written[at:at + len(value)]
    return " ".join(value.split()[:6]).strip(" ,.;")


def _fuzzy_in(word: str, stems: frozenset[str]) -> bool:
    """``word`` among ``stems``, or sharing its first six letters with one ("allergy" /
    "allergic", "licence" / "licensed")."""
    return word in stems or (len(word) >= 6 and any(
        len(s) >= 6 and s[:6] == word[:6] for s in stems))


_GONE = re.compile(r"\b(?:sold|stolen|lost|gave away|given away|got rid of|died|passed away|"
                   r"scrapped|wrecked|written off|moved out)\b", re.I)


def _possesses(d: Denial, y: Clause) -> bool:
    """Whether ``y`` gives its owner the thing ``d`` denies them: after a verb of having or
    a possessive ("has three grandchildren", "got her driving licence", "Sara's two
    children"), not someone else's ("his brother's car")."""
    if _GONE.search(y.text):
        return False  # "Maya's car was sold last year": had, has no more
    head = (d.written or d.object)[-1]
    part = re.escape(head[:max(4, len(head) - 2)])
    return bool(re.search(
        r"(?:\b(?:has|have|had|owns?|owned|keeps?|kept|got|gets|his|her|their|my|our)|^\W*\w+"
        r"['’]s)\s+(?:(?![\w-]+['’]s\b)[\w-]+\s+){0,3}?" + part, y.text, re.I))


def _nouns_of(y: Clause) -> tuple[str, ...]:
    """The plain words of an affirming clause, as written (for the embedder; names left
    out: "Portuguese" is no kind of "Spanish")."""
    return tuple(w.lower() for w in re.findall(r"[^\W\d_]+", y.text)
                 if w.lower() not in STOP and len(w) > 2 and not w[:1].isupper())[:12]


def _denies(d: Denial, x: Clause, other: Claim, affirming: list[Clause]) -> float:
    """How sure the denial ``d`` of ``x`` is denied by ``other`` (0: not at all)."""
    stems = frozenset().union(*(y.stems for y in affirming))
    if d.family:  # 不在任何公司任职 / 在华为做全职工程师
        return 0.75 if any(f.key == d.family and f.first for y in affirming
                           for f in y.facts) else 0.0
    if x.claim.zh:  # 从不去公司 / 每周都去公司上班, 不抽烟 / 每天抽半包烟
        core = "".join(d.object)
        return 0.75 if core and any(_subsequence(core, y.text) or (
            len(core) <= 4 and core[-2:] in y.text) for y in affirming) else 0.0
    if not d.object:  # "doesn't drive" / "drives her own car"
        return 0.75 if d.verb and _fuzzy_in(d.verb, stems) else 0.0
    if d.verb in _POSSESSION:  # "has no children" / "Sara's two children go to school"
        return 0.75 if _possession_denied(d, x, other, affirming, stems) else 0.0
    if all(_fuzzy_in(o, stems) for o in d.object):
        return 0.75
    # one kind of thing, by the embedder, when the other does the same (not a plain) verb:
    # "does not eat any meat" / "beef ragù, which she eats every Sunday"
    if len(d.object) == 1 and not d.named and d.verb and d.verb not in _PLAIN_VERBS and _fuzzy_in(
            d.verb, stems) and any(word_similarity(d.written[0], w) >= HYPERNYM
                                   for y in affirming for w in _nouns_of(y)
                                   if stem(w) != d.verb):
        return 0.7
    return 0.0


#: kin words and the kin they name ("has no children" / "has two sons"; "has no sisters" /
#: "has two brothers" both hold)
_KIN_KINDS: dict[str, tuple[str, ...]] = {
    "children": ("son", "daughter", "kid", "boy", "girl", "child", "baby"),
    "child": ("son", "daughter", "kid", "boy", "girl", "children", "baby"),
    "kid": ("son", "daughter", "child", "children", "boy", "girl"),
    "sibling": ("brother", "sister"),
    "grandchildren": ("grandson", "granddaughter", "grandchild"),
    "grandchild": ("grandson", "granddaughter", "grandchildren"),
    "parent": ("mother", "father", "mum", "mom", "dad")}


def _possession_denied(d: Denial, x: Clause, other: Claim, affirming: list[Clause],
                       stems: frozenset[str]) -> bool:
    """``other`` gives ``x``'s owner what ``d`` says they have none of — the thing or a kin
    of that kind ("has no children" / "Sara's two sons go to school")."""
    kinds = frozenset(stem(k) for k in _KIN_KINDS.get(d.object[-1], ()))
    theirs = [y for y in other.clauses if y.owner[:-1] == x.owner and len(y.owner) ==
              len(x.owner) + 1 and (_fuzzy_in(y.owner[-1], frozenset(d.object))
                                    or y.owner[-1] in kinds) and not (y.past or y.hedged)]
    held = stems | frozenset(y.owner[-1] for y in theirs)
    named = [d] + [Denial(d.verb, (*d.object[:-1], kin), d.any, written=(kin,))
                   for kin in sorted(kinds) if kin in held]
    return any(all(_fuzzy_in(o, held) for o in e.object) and any(
        _possesses(e, y) for y in (*affirming, *theirs)) for e in named)


def _denial_conflict(x: Clause, other: Claim) -> Conflict | None:
    """``x`` denies what ``other`` affirms of the same owner ("has never had grandchildren"
    / "has three grandchildren", "avoids Python" / "writes all her tools in Python",
    "never drinks coffee" / "drinks three espressos a day", 从不去公司 / 每周都去公司上班)."""
    if not x.denials or not x.owner:
        return None
    affirming = [y for y in other.clauses if y.owner == x.owner and y.affirms]
    for d in x.denials:
        score = _denies(d, x, other, affirming)
        if score:
            return Conflict("negation", "", "", score, topical=True)
    return None


_PREFERENCE = re.compile(
    r"\b(?:likes?|loves?|adores?|enjoys?|prefers?|hates?|dislikes?|detests?|loathes?|can't "
    r"stand|cannot stand|is fond of|is a (?:big )?fan of)\s+(?P<object>[^,;.]+)", re.I)
_OBJECT_END = _set("to for over than and but because when while if on at in with since as "
                   "whenever wherever by")
#: what makes a preference hold only at times ("hates running in the rain")
_PREFERENCE_RESTRICTED = _set("in on at during when while after before if unless except")


@lru_cache(maxsize=50_000)
def _preference_object(text: str) -> tuple[str, ...]:
    """The stems of what ``text`` likes or dislikes ("prefers email for anything
    important" → ("email",)); nothing when only at times ("hates running in the rain")."""
    m = _PREFERENCE.search(text)
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


def _preference_conflict(x: Clause, y: Clause) -> Conflict | None:
    """Opposite preferences for one object, whatever else the clauses say ("prefers email
    for anything important" / "hates email")."""
    if x.claim.zh or x.claim.sign == y.claim.sign or not (x.claim.preference and
                                                          y.claim.preference):
        return None
    ox, oy = _preference_object(x.text), _preference_object(y.text)
    negative, positive = (set(ox), set(oy)) if x.claim.sign < 0 else (set(oy), set(ox))
    if ox and oy and negative <= positive:  # not "loves hiking" / "doesn't like hiking alone"
        return Conflict("preference", "", "", 0.75, topical=True)
    return None


def _clause_conflict(a: Claim, b: Claim) -> Conflict | None:
    """The first conflict between the clauses of ``a`` and ``b`` about one owner: a denial
    of what the other affirms, a fact with two values, opposite preferences, or the
    one-template rules clause against clause."""
    first_a, first_b = a.clauses[0], b.clauses[0]
    several = len(a.clauses) + len(b.clauses) > 2
    if not several and a.subject == b.subject and not (
            (first_a.facts and first_b.facts) or first_a.denials or first_b.denials
            or (a.preference and b.preference)):
        return None  # one clause each, read whole already, and nothing more to compare
    for x in a.clauses:
        found = _denial_conflict(x, b)
        if found is not None:
            return found
    for y in b.clauses:
        found = _denial_conflict(y, a)
        if found is not None:
            return _swap(found)
    for x in a.clauses:
        for y in b.clauses:
            if x.owner and x.owner == y.owner and x.past == y.past:
                found = _pair_conflict(x, y, several=several)
                if found is not None:
                    return found
    return None


def _pair_conflict(x: Clause, y: Clause, *, several: bool) -> Conflict | None:
    found = _fact_conflict(x, y)[0] or _preference_conflict(x, y)
    two_subjects = x.claim.subject != y.claim.subject
    if found is not None or x.past or not (several or two_subjects) or (
            two_subjects and x.claim.sign == y.claim.sign):
        return found
    # the one-template rules, clause against clause, once both are read as about their
    # owner (高雪很喜欢爵士乐 is 高雪's as much as 高雪讨厌爵士乐); read with two subjects, only
    # a negation or a preference counts (a "slot" is not one then)
    found = _claim_conflict(x.as_owner, y.as_owner)
    if found is not None and x.claim.subject != y.claim.subject and \
            found.what not in ("negation", "preference"):
        return None
    return found


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


# ---------------------------------------------------------------------------------------
# Updates

#: words too general to tie an update to its parent ("every day", "now")
_GENERIC = _set("day daily week weekly month monthly year yearly time morning evening night "
                "weekend new old now today last next one two three get got make made take took "
                "go went going always every usual usually also")
_ZH_GENERIC = frozenset(("现在", "已经", "一直", "每个", "我们", "他们", "还是", "但是", "因为",
                         "所以", "非常", "特别", "经常", "一个", "一家", "自己", "喜欢"))
#: an intention, then what came of it ("is saving for a car" → "bought a used Nissan Leaf")
_INTENT = re.compile(r"\b(?:plans?|planning|wants?|hopes?|hoping|saving (?:up )?for|looking "
                     r"(?:for|into)|thinking (?:about|of)|considering|intends?|going to|about to)"
                     r"\b|打算|计划|准备|想要|正在找", re.I)
_DONE = re.compile(r"\b(?:\w+ed|bought|got|found|made|took|won|sold|paid|chose|signed|began|"
                   r"opened|booked|went|gave|moved)\b|买了|订了|找到|开了|搬了|已经", re.I)


def update_relation(a: Claim, b: Claim) -> bool | None:
    """Whether an update from ``a`` to ``b`` stays on one thing: ``True`` when both name one
    attribute (a fact of one family, a topic family, a shared name or plain word) or ``b``
    is what came of ``a``'s intention; ``False`` when ``b`` is about someone else ("Tara
    lives in Leeds" → "Tara's sister lives in Bristol") or both name attributes and none is
    shared; ``None`` when the words cannot tell (the caller compares meanings). A shared
    subject alone says nothing: every memory about a person has their name."""
    other = _other_subject(a, b)
    if other is not None:
        return other
    if _INTENT.search(a.text) and not _INTENT.search(b.text) and _DONE.search(b.text):
        return True
    keys_a, keys_b = _attribute_keys(a), _attribute_keys(b)
    if keys_a & keys_b or _shared_names(a, b) or _shares_plain_words(a, b):
        return True
    return False if keys_a and keys_b else None


def _other_subject(a: Claim, b: Claim) -> bool | None:
    """``False`` when ``b`` is about someone else than ``a`` (another subject with nothing
    said of both, or ``a``'s subject's sister, friend …), ``True`` for another subject of
    whom the same is said ("Diego owns the billing service" → "Noah owns …"), ``None``
    when both are about one subject."""
    oa, ob = a.clauses[0].owner, b.clauses[0].owner
    if not oa or not ob or oa == ob:
        return None
    longer, shorter, other = (ob, oa, a) if len(ob) > len(oa) else (oa, ob, b)
    if longer[:len(shorter)] != shorter and not (a.zh and longer[0].startswith(shorter[0])):
        return _shares_plain_words(a, b)
    if a.zh:  # 孙丽 → 孙丽的妹妹, unless the parent speaks of her sister too
        extra = longer[0][len(shorter[0]):]
        return None if any(extra.endswith(r) and r in other.text for r in _ZH_ROLES) else False
    mentioned = frozenset(other.words)
    return None if any(w in _ROLE_STEMS and _fuzzy_in(w, mentioned)
                       for w in longer[len(shorter):]) else False


def _shared_names(a: Claim, b: Claim) -> bool:
    names_a = {w for w, k in zip(a.words, a.kinds, strict=True) if k == "name"}
    return any(w in names_a for w, k in zip(b.words, b.kinds, strict=True) if k == "name")


def _shares_plain_words(a: Claim, b: Claim) -> bool:
    """Both say a plain word (not a name, number or date; not a word of time): "reports",
    "laptop"; Chinese: a pair of characters (爵士, 开车, 西班牙)."""
    if a.zh:
        return bool(_zh_pairs(a.text) & _zh_pairs(b.text))
    plain_a = {w for w in a.attribute_words if w not in _GENERIC and len(w) > 2}
    plain_b = frozenset(w for w in b.attribute_words if w not in _GENERIC and len(w) > 2)
    return bool(plain_a & plain_b) or any(_fuzzy_in(w, plain_b) for w in plain_a)


def _zh_pairs(text: str) -> frozenset[str]:
    """The character pairs of a Chinese text after its name, times and numbers left out
    (the words it may share with another, without segmentation)."""
    body = text[2:MAX_CHARS]
    return frozenset(pair for pair in (body[i:i + 2] for i in range(len(body) - 1))
                     if all(_HAN.match(ch) and ch not in _ZH_STOP and ch not in _ZH_DIGITS
                            and ch not in "年月日天周号岁的了是在" for ch in pair)
                     and pair not in _ZH_GENERIC)


def _attribute_keys(c: Claim) -> frozenset[str]:
    """The attributes a text names: its facts' families and its topic families."""
    keys = {f"{f.key}:{f.noun}" if f.key in _NOUN_KEYS else f.key
            for cl in c.clauses for f in cl.facts}
    keys |= {d.family for cl in c.clauses for d in cl.denials if d.family}
    if c.zh:  # its families from the whole text after the name (its subject may be misread)
        rest = c.text[2:MAX_CHARS]
        keys |= {f"topic:{f}" for f, cues in FAMILIES.items()
                 if any(not cue.isascii() and cue in rest for cue in cues)}
    else:
        keys |= {f"topic:{t}" for t in c.families}
    return frozenset(keys)


def content_text(c: Claim) -> str:
    """The plain words a text says of its subject, as written (no names, numbers or
    dates, no stop words): what the embedder compares for an update."""
    if c.zh:
        return "".join(w for w, k in zip(c.words, c.kinds, strict=True) if k == "word")
    subject = set(c.subject)
    words = []
    for n, w in enumerate(re.findall(r"[^\W\d_][\w'’-]*", c.text[:MAX_CHARS])):
        low = w.lower()
        if (low in STOP or low in subject or stem(low) in subject or low.endswith(("'s", "’s"))
                or (n and w[:1].isupper()) or low in MONTHS or low in WEEKDAYS
                or low in _NUMBER_WORDS):
            continue
        words.append(low)
    return " ".join(words)


__all__ = ["HYPERNYM", "SYNONYM", "Claim", "Clause", "Conflict", "Denial", "Fact", "claim",
           "conflict", "content_text", "same_subject", "stem", "update_relation", "values",
           "word_similarity"]
