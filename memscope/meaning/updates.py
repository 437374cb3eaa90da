"""Whether an ``updates`` step stays on one thing (:func:`update_relation`), and the plain
words a text says of its subject (:func:`content_text`) for the embedder to compare."""

from __future__ import annotations

import re

from memscope.meaning.claim_text import (
    _HAN,
    _NUMBER_WORDS,
    _ROLE_STEMS,
    _ZH_DIGITS,
    _ZH_STOP,
    MAX_CHARS,
    MONTHS,
    STOP,
    WEEKDAYS,
    ZH_ROLES,
    _set,
    stem,
)
from memscope.meaning.clauses import zh_name_length
from memscope.meaning.compare import _NOUN_KEYS, _fuzzy_in, conflict
from memscope.meaning.prefilter import guarded
from memscope.meaning.reading import FAMILIES, Claim

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
                     r"\b|打算|计划|准备|想要|正在找|在找|开始找|考虑", re.I)
_DONE = guarded(re.compile(
    r"\b(?:\w+ed|bought|got|found|made|took|won|sold|paid|chose|signed|began|"
    r"opened|booked|went|gave|moved)\b|买了|订了|找到|开了|搬了|已经|考上|拿到|"
    r"回来|领回|了", re.I))


def update_relation(a: Claim, b: Claim) -> bool | None:
    """Whether an update from ``a`` to ``b`` stays on one thing: ``True`` when both name one
    attribute (a fact of one family, a topic family, a shared name; one intention: "saving
    up for …"; else a shared plain word, unless one text is about a thing of its owner's
    that the other never names), ``b`` is what came of ``a``'s intention, or the two would
    conflict (the update resolves it); ``False`` when ``b`` is about someone else ("Tara
    lives in Leeds" → "Tara's sister lives in Bristol"), about another of the owner's
    things ("Li's car" → "Li's cat"), or both name attributes and none is shared;
    ``None`` when the words cannot tell (the caller compares meanings). A shared subject
    alone says nothing: every memory about a person has their name."""
    keys_a, keys_b = _attribute_keys(a), _attribute_keys(b)
    if "topic:pregnancy" in keys_a & keys_b:
        return True  # 正在备孕 → 儿子上个月出生了: the child is what came of it
    other = _other_subject(a, b)
    if other is not None:
        return other
    if _INTENT.search(a.text) and not _INTENT.search(b.text) and _DONE.search(b.text):
        return True
    if conflict(a, b) is not None:
        return True  # what the update resolves: one attribute, two values
    if keys_a & keys_b or _shared_names(a, b):
        return True
    intent_a, intent_b = _INTENT.search(a.text), _INTENT.search(b.text)
    if intent_a and intent_b and intent_a.group(0).lower() == intent_b.group(0).lower():
        return True  # "saving up for a new laptop" → "… for a trip to Japan": one goal, changed
    if _other_things(a, b) or (keys_a and keys_b):
        # "Li's car is white" → "Li's cat is white", 在北京工作 → 最爱吃北京烤鸭: a word both
        # say is what two different things are (or where), not one attribute
        return False
    return True if _shares_plain_words(a, b) and not _thing_left(a, b) else None


def _other_things(a: Claim, b: Claim) -> bool:
    """Both texts are about one owner's things, and not the same thing ("Li's car" /
    "Li's cat", 李伟的车 / 李伟的猫; 婚礼定在 and 婚礼推迟到 are one)."""
    of_a, of_b = a.clauses[0].of, b.clauses[0].of
    if not of_a or not of_b:
        return False
    if a.zh:
        return of_a[0] != of_b[0]
    return of_a not in of_b and of_b not in of_a


def _thing_left(a: Claim, b: Claim) -> bool:
    """One text is about its owner's thing that the other never names (潘悦的猫叫橘子 →
    潘悦每天早上吃一个橘子): a word both say is then no tie between them."""
    for one, other in ((a, b), (b, a)):
        thing = one.clauses[0].of
        if thing.endswith((*ZH_ROLES, "对象")) or stem(thing.split()[-1] if thing else "") in (
                _ROLE_STEMS):
            continue  # 男朋友叫张强 → 和张强分手了: a person, named in the other
        if thing and not other.clauses[0].of and (thing[0] if one.zh else thing) not in (
                other.text if one.zh else other.text.lower()):
            return True
    return False


def _other_subject(a: Claim, b: Claim) -> bool | None:
    """``False`` when ``b`` is about someone else than ``a`` (another subject with nothing
    said of both, or ``a``'s subject's sister, friend …), ``True`` for another subject of
    whom the same is said ("Diego owns the billing service" → "Noah owns …"), ``None``
    when both are about one subject."""
    oa, ob = a.clauses[0].owner, b.clauses[0].owner
    if not oa or not ob or oa == ob:
        return None
    if a.zh and "的" not in oa[0] and "的" not in ob[0] and oa[0] in b.text:
        return None  # 医生建议冯亮…, 房东涨租了，魏东…: 冯亮's, told by someone else
    size = (lambda o: len("".join(o))) if a.zh else len
    longer, shorter, other = (ob, oa, a) if size(ob) > size(oa) else (oa, ob, b)
    if longer[:len(shorter)] != shorter and not (a.zh and longer[0].startswith(shorter[0])):
        return _shares_plain_words(a, b)
    if a.zh:  # 孙丽 → 孙丽的妹妹, unless the parent speaks of her sister too
        extra = longer[0][len(shorter[0]):]
        return None if any(extra.endswith(r) and r in other.text for r in ZH_ROLES) else False
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
    body = _ZH_TITLE.sub("", text[zh_name_length(text):MAX_CHARS])  # 《北京遇上西雅图》: a title
    body = _ZH_NOT_DATES.sub(lambda m: m.group(0).replace("日", "\x00"), body)
    return frozenset(pair for pair in (body[i:i + 2] for i in range(len(body) - 1))
                     if all((_HAN.match(ch) and ch not in _ZH_STOP and ch not in _ZH_DIGITS
                             and ch not in "年月日天周号岁的了是在") or ch == "\x00"
                            for ch in pair)
                     and pair not in _ZH_GENERIC)


#: a title in Chinese quotation marks (a film, a book): its words are not the text's
_ZH_TITLE = re.compile(r"《[^》]{0,30}》")
#: 日 that is no day: 日语, 日本, 日文 (kept as a word, unlike 3日, 日期)
_ZH_NOT_DATES = re.compile(r"日(?=[语本文])")


#: the topic a fact's family is part of
_FACT_TOPICS = {"employer": "topic:work", "occupation": "topic:work", "manager": "topic:work",
                "home": "topic:home",
                # one's love life: a partner, then a parting (罗莹的男朋友叫张强 → 罗莹和张强分手了)
                **dict.fromkeys(("partner", "dated", "wed", "marital", "couple"),
                                "topic:partner"),
                # one's exercise, faith, schooling, health and way to work, each said in
                # several families ("goes to the gym every morning" → "swims every morning")
                **dict.fromkeys(("exercise", "gym", "running"), "topic:exercise"),
                **dict.fromkeys(("religion", "church", "baptised"), "topic:faith"),
                **dict.fromkeys(("degree", "studies", "high school", "school"),
                                "topic:education"),
                **dict.fromkeys(("hospital", "surgery", "health", "insulin"), "topic:health"),
                **dict.fromkeys(("commute", "workmode", "driver"), "topic:commute")}


def _attribute_keys(c: Claim) -> frozenset[str]:
    """The attributes a text names: its facts' families and its topic families."""
    keys = {f"{f.key}:{f.noun}" if f.key in _NOUN_KEYS else f.key
            for cl in c.clauses for f in cl.facts}
    keys |= {d.family for cl in c.clauses for d in cl.denials if d.family}
    keys |= {_FACT_TOPICS[k] for k in keys if k in _FACT_TOPICS}  # 在超市当收银员: work
    if c.zh:  # its families from the whole text after the name (its subject may be misread)
        rest = c.text[zh_name_length(c.text):MAX_CHARS]
        low = rest.lower()
        keys |= {f"topic:{f}" for f, cues in FAMILIES.items() if any(
            cue in rest if not cue.isascii() else len(cue) >= 5 and cue in low for cue in cues)}
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
