"""What a clause says its owner never does or has (:class:`Denial`): "has never had
grandchildren", "keeps no pets of any kind", "avoids Python", 从不去公司."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from memscope.meaning.claim_text import (
    _NEGATIVE,
    _NUMBER_WORDS,
    _POSITIVE,
    MONTHS,
    STOP,
    WEEKDAYS,
    _set,
    stem,
)
from memscope.meaning.prefilter import guarded

_ZH_DENY = re.compile(r"从来没有|从来没|从来不|从没有|从没|从未|从不|没有|没|不|未|戒掉了?|戒了|戒")
#: (不敢: daring not, which is fear, not a denial of doing or being able: 不敢下海游泳)
_ZH_NOT_DENIAL = ("不过", "不错", "不同", "不少", "不久", "不仅", "不但", "不断", "不管", "不论",
                  "不得不", "不然", "不如", "未来", "没想到", "不敢")
_ZH_AUX = "会能想敢要在再去过了着"
_ZH_DENIED_FAMILY = (("employer", re.compile(r"任职|工作|上班|公司")),
                     ("partner", re.compile(r"结婚|对象")))
#: what a denial's tail may say without restricting it ("avoids X wherever she can")
_UNIVERSAL = _set("any anything anyone anybody anywhere ever whatsoever wherever whenever all "
                  "kind kinds sort sorts type types")
#: words after which a denial holds only sometimes ("never drinks coffee after 3 pm")
_RESTRICTING = _set("after before until unless except when while during if outside without "
                    "competitively professionally seriously formally officially "
                    "because though although")
#: verbs too plain to carry a denial without an object ("does not have", "never goes")
_PLAIN_VERBS = _set("be been is are was were am have has had do does did get go make take use "
                    "say see want need like")
#: words skipped between a negation and its verb ("has never *ever* …", "has never *been* to")
_BEFORE_VERB = _set("ever even really actually yet once be to been")
#: a negation of these is no denial of a fact ("doesn't need to", "not only")
_NOT_DENIED = _set("need needs want wants only just sure always")
_AVOID = ("avoid", "refus", "shun", "quit", "stop", "lack")
#: how long a denial has held ("in years", "for ages")
_SPANS = _set("years months weeks decades ages ever")
#: "left Harlow & Finch last year": works there no more (a departure is said in the past)
_DEPARTURE = re.compile(r"\b(?:left|quit|resigned from|stopped working (?:at|for)|moved away "
                        r"from|moved out of)\s+(?:the\s+|his\s+|her\s+|their\s+)?"
                        r"(?P<object>[A-Z][\w'’&.-]*(?:\s+(?:&\s+|of\s+|de\s+)?[A-Z][\w'’.-]*)*)")
#: "lives without a TV", "manages without a car": has none
_LIVING = frozenset(("liv", "manag", "get", "go", "do", "cop", "surviv"))
#: "a word of", "a drop of": nothing at all of what follows
_FILLERS = _set("word drop bite sip puff bit ounce")
#: simple pasts whose stem is not their verb's ("drove" is "drive"): a time an ability was
#: used (compare.py), and a denial's verb ("never drove")
PAST_FORMS = {"drove": "drive", "swam": "swim", "rode": "ride", "flew": "fly",
              "spoke": "speak", "wrote": "write", "ate": "eat", "drank": "drink",
              "sang": "sing", "ran": "run"}
#: past participles and simple pasts a denial's verb may be in ("has never taught" /
#: "teaches")
_IRREGULAR = {**PAST_FORMS, "taught": "teach", "flown": "fly", "driven": "drive", "ridden": "ride",
              "written": "write", "eaten": "eat", "swum": "swim", "sung": "sing",
              "spoken": "speak", "drunk": "drink", "bought": "buy", "caught": "catch",
              "fought": "fight", "worn": "wear", "sold": "sell", "held": "hold",
              "built": "build", "learnt": "learn", "met": "meet", "read": "read",
              "run": "run", "smoked": "smoke", "won": "win", "seen": "see", "known": "know",
              "grown": "grow", "thrown": "throw", "taken": "take", "given": "give"}
#: two-word verbs of giving something up ("gave up coffee", "stays away from sugar")
_AVOID_PHRASES = frozenset((("gave", "up"), ("given", "up"), ("giving", "up"), ("give", "up"),
                            ("gives", "up"), ("stays", "away"), ("stay", "away")))
#: denials of having: the other text must give the owner the thing too ("has no children" /
#: "teaches children" both hold; "… / her two children" do not)
_POSSESSION = frozenset(("hav", "own", "keep", "got"))


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
    #: said beside what the clause affirms, which still stands ("is the youngest of four
    #: brothers": has brothers, and no younger one)
    aside: bool = False


#: a clause without one of these denies nothing (cheap: most clauses deny nothing)
_DENIAL_TRIGGER = re.compile(r"\b(?:not|never|no|zero|cannot|avoid|refus|shun|quit|stop|lack|"
                             r"without|yet to|non-|gave up|"
                             r"given up|giving up|give up|gives up|stays? away)|n['’]t\b", re.I)


#: an only child has no brother or sister (not "her only child, Mia": another person's)
_ONLY_CHILD = re.compile(r"\b(?:is|was|grew up(?: as)?|being|as) an only child\b", re.I)
_ZH_ONLY_CHILD = re.compile(r"独生[子女]")
_NO_SIBLING = Denial("hav", ("sibling",), True, written=("siblings",))


_LACKS = re.compile(r"\blacks\s+(?:a\s+|an\s+|any\s+)?", re.I)
_NO_IDEA = re.compile(r"\b(?:has|have|had)\s+no\s+idea\s+how\s+to\b", re.I)


# --- denials ---------------------------------------------------------------------------

#: a Chinese departure from an employer (从腾讯离职, 辞去了华为的工作, 离开了字节跳动公司)
_ZH_DEPARTURE = re.compile(r"从([^，。,；;、\s从]{2,8}?)(?:离职|辞职|跳槽)"
                           r"|辞(?:去|掉)了?([^，。,；;、\s]{2,8}?)的工作"
                           r"|离开了?([^，。,；;、\s]{2,8}?)(?:公司|集团)")


def departures(rest: str, *, zh: bool = False) -> tuple[Denial, ...]:
    """What a clause in the past says its owner has left, and so is no longer at ("left
    Harlow & Finch last year", "moved away from Leeds"; an employer in Chinese: 从腾讯离职)."""
    if zh:
        found = _ZH_DEPARTURE.search(rest)
        name = next((g for g in found.groups() if g), "") if found else ""
        return (Denial("", tuple(name), False, named=True),) if len(name) >= 2 else ()
    m = _DEPARTURE.search(rest)
    if m is None or re.match(r"\s*for\s+(?:a|an|the|one|two|three|few|some)\b",
                             rest[m.end():], re.I):
        return ()  # "left Lisbon for a week": away, not gone
    written = tuple(w.lower() for w in re.findall(r"[^\W\d_]+", m.group("object"))
                    if w.lower() not in STOP and w.lower() not in ("of", "de"))
    return (Denial("", tuple(stem(w) for w in written), False, written=written, named=True),
            ) if written else ()


def lifelong(rest: str) -> tuple[Denial, ...]:
    """What an English clause about the past still denies now: one who grew up an only
    child has no brother or sister ("Ilse grew up an only child in Leuven")."""
    return (_NO_SIBLING,) if _ONLY_CHILD.search(rest) else ()


def _en_denials(rest: str) -> tuple[Denial, ...]:
    """What an English clause denies: "not / never / no longer VERB OBJECT", "VERB no
    OBJECT", "avoids / gave up OBJECT" — unless it holds only at times ("after 3 pm", "on
    Fridays") or is about needing, wanting or liking."""
    if _ONLY_CHILD.search(rest):  # "is an only child": no brother or sister
        return (_NO_SIBLING,)
    if not _DENIAL_TRIGGER.search(rest):
        return ()
    rest = _NO_IDEA.sub("cannot", rest)  # "has no idea how to swim": cannot swim
    rest = _LACKS.sub("has no ", rest)  # "lacks a passport": has none
    raw = re.findall(r"[\w'’-]+|[,;:—–]", re.sub(r"\bzero\b", "no", rest.replace(
        "n't", " not").replace("n’t", " not"), flags=re.I))  # "has zero siblings": none
    words = [w for part in raw for w in part.lower().replace("’", "'").split("-") if w]
    named = {w.lower() for w in raw if w[:1].isupper()}
    out: list[Denial | None] = []
    for i, w in enumerate(words):
        phrase = i + 1 < len(words) and (w, words[i + 1]) in _AVOID_PHRASES
        avoid = phrase or stem(w).startswith(_AVOID)
        if avoid and i and words[i - 1] in ("not", "never", "no"):
            continue  # "never avoids": no denial
        if w == "non" and i + 1 < len(words) and words[i + 1].endswith("er"):
            verb = stem(words[i + 1][:-2])  # "a non-swimmer": does not swim
            # (smoking and drinking have kinds of their own: diets.py reads them)
            out.append(Denial(verb, (), False) if len(verb) >= 3 and verb not in (
                "smok", "drink") else None)
            continue
        without = w == "without" and i > 0 and stem(words[i - 1]) in _LIVING
        yet = w == "yet" and words[i + 1:i + 2] == ["to"]  # "has yet to learn to drive"
        if avoid or without or yet or w in ("not", "never", "no", "cannot"):
            found = _denial_at(words, i, avoid=avoid or without,
                               skip=2 if phrase or yet else 1)
            if found is not None:
                out.append(replace(found, named=any(w in named for w in found.written)))
    return tuple(d for d in out if d is not None)


#: the marks a clause's words keep (an object ends at them)
_PUNCTUATION = frozenset(",;:—–")


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
        if j >= len(words) or words[j] in _PUNCTUATION:
            return None
        verb = stem(_IRREGULAR.get(words[j], words[j]))
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
    if verb == "get" and tail[:2] in (["on", "with"], ["along", "with"]):
        return None  # "doesn't get on with her boss": how they get on, not a thing had
    stems: list[str] = []
    written: list[str] = []
    universal = False
    for k, x in enumerate(tail):
        if x in _PUNCTUATION:
            break  # "doesn't run at all, her knees …": the object ends at the comma
        if x in ("in", "for") and tail[k + 1:k + 2] and tail[k + 1] in _SPANS:
            break  # "hasn't used the train in years": still a denial, of the train
        if x == "in" and tail[k + 1:k + 2] and tail[k + 1] in ("his", "her", "their", "my") and (
                "life" in tail[k + 2:k + 4]):
            universal = True  # "has never played an instrument in his life": ever
            break
        if x in _RESTRICTING or x in MONTHS or x in WEEKDAYS or x.rstrip("s") in WEEKDAYS \
                or x[:1].isdigit():
            return None
        if x in _UNIVERSAL or (x == "at" and tail[k + 1:k + 2] == ["all"]):
            universal = True
        elif x in ("but", "and", "so", "she", "he", "they", "ago") or x in _NUMBER_WORDS or (
                len(x) > 5 and x.endswith("ly")):
            break  # "gave up coffee completely two years ago": the object is coffee
        elif x in _FILLERS and tail[k + 1:k + 2] == ["of"]:
            universal = True  # "doesn't speak a word of Portuguese"
        elif x not in STOP and x not in ("of", "longer", "more", "kind", "single") and len(
                stems) < 3:
            stems.append(stem(x))
            written.append(x)
    if not stems and (not verb or verb in _PLAIN_VERBS):
        return None
    return Denial(verb, tuple(stems), universal, written=tuple(written))


def _zh_denials(rest: str) -> tuple[Denial, ...]:
    """What a Chinese clause denies: the characters after 不, 没有, 从不, 从未, 戒 … (its
    aspect and modal characters left out: 不会游泳 → 游泳)."""
    out: list[Denial] = []
    if _ZH_ONLY_CHILD.search(rest):  # 是独生女: 没有兄弟姐妹
        out.append(Denial("", tuple("兄弟姐妹"), True))
    for m in _ZH_DENY.finditer(rest):
        if any(rest.startswith(w, m.start()) for w in _ZH_NOT_DENIAL):
            continue
        when = ZH_AT_TIMES.search(re.split(r"[，。,；;]", rest[:m.start()])[-1])
        if when and not (when.group(0) in ("平时", "平日", "一般") and m.group(0).startswith("从")):
            continue  # 晚上不喝咖啡, 周末不加班: only at times (平时从不锻炼: never)
        tail = re.split(r"[，。,；;]", rest[m.end():])[0]
        if not tail or tail.startswith(("喜欢", "爱", "太", "很", "怎么", "一定", "是")):
            continue  # a dislike is a preference; 不太, 不很: a degree, not a denial
        universal = "任何" in tail
        family = next((f for f, cue in _ZH_DENIED_FAMILY if cue.search(tail)),
                      "") if universal else ""
        core = "".join(ch for ch in tail.replace("任何", "") if ch not in _ZH_AUX)
        before = _ZH_NOT_EVEN.search(rest[:m.start()])
        if before is not None and before.group("what") in ("次", "回", "遍", "下"):
            universal = True  # 一次都没出过国: never, and 次 is no thing
        elif before is not None and len(core) <= 2:  # 一句法语都不会说: 说法语, not at all
            core, universal = core + before.group("what"), True
        if len(core) >= (1 if m.group(0).startswith("戒") else 2) or family or core == "车":
            out.append(Denial("", tuple(core), universal, family))
    return tuple(out)


#: a partner, as an owner's role ("Jacinta's husband Rolando") and in Chinese (王静的丈夫)
PARTNERS = ("husband", "wife", "spouse", "partner", "boyfriend", "girlfriend", "fiance",
            "fiancee", "fiancé", "fiancée")
ZH_PARTNERS = ("丈夫", "妻子", "老公", "老婆", "太太", "先生", "媳妇", "男朋友", "女朋友", "伴侣")
#: whom one never married has not (a partner or a fiancé, maybe)
SPOUSES = ("husband", "wife", "spouse")
ZH_SPOUSES = ("丈夫", "妻子", "老公", "老婆", "太太", "媳妇")
#: a Chinese time before a negation makes it hold only then (晚上不喝咖啡, 周末不加班,
#: 下午三点以后不喝咖啡, 平时不喝酒: usually, with exceptions; not 一点也不, "not at all")
ZH_AT_TIMES = guarded(re.compile(
    r"早上|上午|中午|下午|晚上|夜里|深夜|半夜|凌晨|周末|工作日|平时|平日|"
    r"周[一二三四五六日天]|星期|礼拜|以后|之后|以前|之前|时候|期间|"
    r"(?:\d+|[二三四五六七八九两]|十[一二]?)点|"
    r"上班时|开车时|一般|这(?:两|几|一)?(?:周|天|个月|阵子|段时间)"))
#: "not even one": the object before 都 / 也 and the negation (一句法语都不会说, 一口酒也不喝)
_ZH_NOT_EVEN = re.compile(r"一[句点口个字滴杯只条本台部辆]?(?P<what>[\u4e00-\u9fff]{1,4}?)[都也]$")
#: Chinese kin words and the kin they name (没有孩子 / 的儿子)
_ZH_KIN = {"孩子": ("儿子", "女儿", "孩子", "闺女", "小孩"), "子女": ("儿子", "女儿", "孩子"),
           "兄弟姐妹": ("哥哥", "姐姐", "弟弟", "妹妹"), "孙子": ("孙子", "孙女"),
           "弟弟妹妹": ("弟弟", "妹妹"), "哥哥姐姐": ("哥哥", "姐姐"), "哥哥": ("哥哥",),
           "姐姐": ("姐姐",), "弟弟": ("弟弟",), "妹妹": ("妹妹",), "儿子": ("儿子",),
           "女儿": ("女儿", "闺女")}
#: kin words and the kin they name ("has no children" / "has two sons"; "has no sisters" /
#: "has two brothers" both hold)
_KIN_KINDS: dict[str, tuple[str, ...]] = {
    "children": ("son", "daughter", "kid", "boy", "girl", "child", "baby", "twin"),
    "child": ("son", "daughter", "kid", "boy", "girl", "children", "baby", "twin"),
    "kid": ("son", "daughter", "child", "children", "boy", "girl", "twin"),
    "sibling": ("brother", "sister"),
    "grandchildren": ("grandson", "granddaughter", "grandchild"),
    "grandchild": ("grandson", "granddaughter", "grandchildren"),
    "parent": ("mother", "father", "mum", "mom", "dad")}
