"""How a claim's text is read into words: tokens and stems, stop words and the word lists
of signs, subjects and attributes, numbers, dates and names (English and Chinese)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from memscope.meaning.prefilter import guarded

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
_ZH_DIGITS = frozenset("零〇一二三四五六七八九十百千万两半")
_ZH_DATE = frozenset("年月日号周星期")

STOP = _set(
    "the a an of to in on at for with by from and or as is are was were be been being am "
    "has have had do does did will would shall should can could might must it its this "
    "that these those her his their our my your she he they we i you me him them us 's "
    "very really now currently also still just every each there which who what about into "
    "than then so up out any anymore again usually always often since doe during dur")
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
                  "地址", "改到", "推迟", "提前", "在", "唯一")
_ZH_MULTI = ("过敏", "去过", "读", "看", "玩", "会说", "认识", "有")
#: where a Chinese subject ends: the first predicate character after the name
_ZH_PREDICATE = frozenset("住在是喜爱讨不没用使有要会将计打去来把对于已正每吃喝从搬向给跟想最经定改"
                          "目现今明昨常总一也还")


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


#: words after which a replaced word names the attribute, not its value
_SLOT_MARKERS = _set("favourit favorit main primary only sole")


def _cues(words: Sequence[str]) -> tuple[frozenset[str], frozenset[str]]:
    """The words that name a one-value attribute, and those that name a many-values one."""
    one = frozenset(w for w in words if _cue(w, _FUNCTIONAL_MATCH))
    many = frozenset(w for w in words if _cue(w, _MULTI_MATCH))
    return one, many


#: a person named through another ("Tara's sister", "Xavier's boss"): a clause about them is
#: about someone else, unless it only says who they are ("Henrik's wife is called Maren")
ROLES = _set(
    "sister brother son daughter child children kid kids cousin friend colleague coworker "
    "niece nephew aunt uncle grandchild grandchildren grandson granddaughter grandmother "
    "grandfather grandma grandpa parent parents mother father mum mom dad sibling siblings "
    "neighbour neighbor flatmate roommate partner wife husband spouse girlfriend boyfriend "
    "fiancé fiancée fiance fiancee manager boss supervisor mentor teacher landlord youngest "
    "eldest oldest baby twin stepson stepdaughter stepmother stepfather ex grandad granddad "
    "granny gran nan nana grandparent grandparents stepbrother stepsister brother-in-law "
    "sister-in-law mother-in-law father-in-law son-in-law daughter-in-law")
_ROLE_STEMS = frozenset(stem(r) for r in ROLES)
#: the roles one has one of at a time ("her husband", "his manager", "my mother"): a clause
#: of "X's mother Helen" is also X's mother's, and "her husband, Karim," names him
ONE_ROLES = _set("mother father husband wife partner boyfriend girlfriend fiancé fiancée "
                 "fiance fiancee manager boss")


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


_NAME_TOKEN = (r"(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+[A-ZÀ-ÖØ-Þ][\w.&-]*"
               r"|[A-ZÀ-ÖØ-Þ](?:[\w.&-]|['’](?!s\b)\w)*"
               r"|(?<![\w-])[a-z][A-Z][\w.&-]*")  # a brand written so: iPhone, eBay
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
_ZH_NUM = {c: n for n, c in enumerate("零一二三四五六七八九")} | {"两": 2, "〇": 0}


_ZH_DATE_RE = guarded(re.compile(
    r"(?:(\d{4}|[零〇一二三四五六七八九]{4})年)?"
    r"(\d{1,2}|[一二三四五六七八九十]{1,3})月"
    r"(?:(\d{1,2}|[一二三四五六七八九十]{1,3})[日号])?"))


#: Chinese words for a person named through another (玛雅的朋友杰丝), as :data:`ROLES`
ZH_ROLES = ("妹妹", "姐姐", "哥哥", "弟弟", "女儿", "儿子", "妻子", "丈夫", "老婆", "老公", "父亲",
             "母亲", "爸爸", "妈妈", "孩子", "朋友", "同事", "领导", "上级", "老板", "经理", "上司",
             "男朋友", "女朋友", "太太", "先生", "室友", "邻居", "宝宝", "爷爷", "奶奶", "外公",
             "外婆", "姥姥", "姥爷", "闺女", "媳妇", "表姐", "表哥", "表妹", "表弟", "堂哥", "堂姐",
             "堂弟", "堂妹", "叔叔", "舅舅", "姑姑", "阿姨", "岳父", "岳母", "公公", "婆婆", "孙子",
             "孙女")


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


def date_parts(window: str) -> tuple[tuple[str, int], ...]:
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
