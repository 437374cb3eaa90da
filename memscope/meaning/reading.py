"""A text read as a claim (:class:`Claim`, :func:`claim`) and as clauses (:class:`Clause`),
each with its owner, facts and denials; and the attribute families its words name."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from memscope.meaning.claim_text import (
    _HAN,
    _LOCATED,
    _NEGATIVE,
    _POSITIVE,
    _PRONOUNS,
    _ROLE_STEMS,
    _SLOT_MARKERS,
    _ZH_NEGATION,
    _ZH_NEGATIVE,
    _ZH_POSITIVE,
    _ZH_STOP,
    MAX_CHARS,
    NEGATION,
    ONE_ROLES,
    ROLES,
    STOP,
    ZH_ROLES,
    _cues,
    _en_subject,
    _en_tokens,
    _is_sign_word,
    _zh_subject,
    _zh_tokens,
    stem,
)
from memscope.meaning.clauses import (
    _HEDGES,
    _PAST,
    _PAST_VERB,
    _ZH_HEDGES,
    _ZH_PAST,
    _clause_texts,
    _en_head,
    _zh_head,
)
from memscope.meaning.denials import (
    _KIN_KINDS,
    _POSSESSION,
    _ZH_KIN,
    PARTNERS,
    SPOUSES,
    ZH_PARTNERS,
    ZH_SPOUSES,
    Denial,
    _en_denials,
    _zh_denials,
    departures,
    lifelong,
)
from memscope.meaning.diets import named_pets
from memscope.meaning.facts import (
    Fact,
    _en_facts,
    _zh_facts,
    kin_of,
    place_among_siblings,
    sibling_order,
)
from memscope.meaning.levels import levels_of
from memscope.meaning.normal import normalise
from memscope.meaning.prefilter import guarded


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
    def managers(self) -> tuple[tuple[tuple[str, ...], str], ...]:
        """(whose, the first name of who manages them) for each manager its clauses name
        ("Wanjiru's manager is David Otieno": (("wanjiru",), "david"); "reports directly to
        the user": "user")."""
        return tuple((cl.owner, f.first.split()[0]) for cl in self.clauses if cl.owner
                     for f in cl.facts if f.key == "manager" and f.named and f.first)

    @cached_property
    def keys(self) -> frozenset[tuple[str, ...]]:
        """Whom it is about: its clauses' owners (and the kin it speaks of without naming
        them: :attr:`kin_spoken_of`), or else its subject (the audit pairs texts that share
        one)."""
        out = {cl.owner for cl in self.clauses if cl.owner} | self.kin_spoken_of
        # a pet by its name ("User's pet Miso is a tabby"): compared with what is said of it
        out |= {(name.lower(),) for name in named_pets(self.text)} if out else set()
        # "Wanjiru's manager is David Otieno" is also David's: compared with whom he manages
        out |= {(boss,) for _whose, boss in self.managers} if not self.zh else set()
        # "User's younger brother is Sam" is also Sam's: compared with what is said of him
        out |= {(name,) for name in sibling_order(self.text)} if out and not self.zh else set()
        # "Jacinta's husband Rolando" is also "Jacinta's husband"
        out |= {o[:-1] for o in out if len(o) >= 3 and o[-2] in ROLES}
        if _GONE_KIN.search(self.text):  # "Sven's mother passed away": compared with Sven's
            out |= {o[:1] for o in out if len(o) >= 2} | {
                (o[0].split("的")[0],) for o in out if self.zh and "的" in o[0]}
        if out or not self.subject or self.subject == ("*",):
            return frozenset(out)
        return frozenset((self.subject,))

    @cached_property
    def kin_spoken_of(self) -> frozenset[tuple[str, ...]]:
        """The people it speaks of without naming them as owners, as owners: the kin it
        says its owner has none of (:attr:`denied_kin`), and the children of one who has
        one child ("Ewa's only child", 徐明只有一个女儿: Ewa's daughter, son …), to be compared
        with what is said of them."""
        out = set(self.denied_kin)
        if self.zh and ZH_ONLY_CHILD.search(self.text):
            out |= {(f"{cl.owner[0]}的{kin}",) for cl in self.clauses
                    if cl.owner and "的" not in cl.owner[0] for kin in ("女儿", "儿子", "孩子")}
        elif not self.zh and (m := EN_ONLY_CHILD.search(self.text)):
            owner = next(g for g in m.group("o1", "o2", "o3", "o4") if g).lower()
            out |= {(owner,)} | {(owner, kin) for kin in (
                "child", "children", "kid", "kids", "daughter", "son")}
        return frozenset(out)

    @cached_property
    def denied_kin(self) -> frozenset[tuple[str, ...]]:
        """The people it says its owner has none of, as owners ("Sara has no children":
        Sara's children, sons, daughters …), to be compared with what is said of them."""
        # "is single", "has been a widow": their partner, whoever it is said to be
        alone = [cl.owner for cl in self.clauses if cl.owner and any(
            f.no_partner for f in cl.facts)]
        # "has never been married": their husband or wife (not a partner: levels' "wed")
        unwed = [cl.owner for cl in self.clauses if cl.owner and any(
            f.key == "wed" and f.first == "never" for f in cl.facts)]
        if self.zh:  # 周建国没有孩子: 周建的儿子, 周建的女儿 …
            return frozenset((f"{cl.owner[0]}的{kin}",) for cl in self.clauses if cl.owner
                             for d in cl.denials
                             for kin in _ZH_KIN.get("".join(d.object).removeprefix("有"), ())
                             ) | {(f"{owner[0]}的{p}",) for owner in alone for p in ZH_PARTNERS
                                  } | {(f"{owner[0]}的{p}",) for owner in unwed for p in ZH_SPOUSES}
        return frozenset((*cl.owner, kin) for cl in self.clauses if cl.owner
                         for d in cl.denials if d.verb in _POSSESSION and d.object
                         for kin in (d.object[-1], *(stem(k) for k in _KIN_KINDS.get(
                             d.object[-1], ())))) | {(*owner, p) for owner in alone
                                                    for p in PARTNERS} | {
            (*owner, p) for owner in unwed for p in SPOUSES}


@lru_cache(maxsize=200_000)
def claim(text: str) -> Claim:
    """Read ``text`` as a claim (cached: the same text is read once)."""
    cut = normalise(text[:MAX_CHARS])
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
    return Claim(text=cut, zh=zh, subject=subject, words=words,
                 kinds=tuple(k for _w, k in rest), sign=-base if negated else base,
                 preference=positive or negative, located=bool(_LOCATED.search(cut)))


#: attribute families: two texts naming one family are about one attribute even in other
#: words (an update from "eats everything but red meat" to "avoids dairy" is a diet change)
FAMILIES: dict[str, tuple[str, ...]] = {
    "diet": ("eat", "drink", "diet", "vegetarian", "vegan", "pescatarian", "dairy", "meat",
             "plant", "food", "meal", "gluten", "lactos", "吃", "喝", "素", "饮食", "肉", "奶",
             "辣"),
    "home": ("liv", "home", "based", "relocat", "address", "apartment", "hous", "住", "搬",
             "地址", "租", "老家", "搬回", "房子", "小区", "房东"),
    "work": ("work", "job", "employ", "unemploy", "compan", "office", "role", "hire",
             "promot", "position", "career", "resign", "laid", "fired", "工作", "上班", "公司",
             "升职", "晋升", "升为", "职位", "工程师", "专家", "跳槽", "辞职", "离职", "入职",
             "领导", "上司", "主管", "老板", "经理", "月薪", "年薪", "工资", "下班", "加班",
             "调到", "转正", "录用", "外企", "销售", "包工头", "退休", "教职", "老师", "教师",
             "创业", "开了一家", "开店", "柜员", "护士", "前台", "实习", "转岗", "公务员", "专员",
             "涨薪", "单位", "医生", "律师", "会计"),
    "travel": ("trip", "travel", "fli", "flight", "vacation", "holiday", "itinerary",
               "hotel", "旅", "飞", "航班", "酒店", "机票", "改签"),
    "health": ("allerg", "doctor", "physio", "injur", "medic", "health", "therap", "过敏",
               "医", "病"),
    "schedule": ("launch", "due", "deadlin", "schedul", "postpon", "delay", "releas",
                 "发布", "上线", "截止", "推迟"),
    "pregnancy": ("pregnan", "baby", "babi", "newborn", "matern", "patern", "怀孕", "生了",
                  "生下", "宝宝", "分娩", "备孕", "产假", "孩子", "儿子", "女儿", "当了爸爸",
                  "当了妈妈"),
    "devices": ("phone", "laptop", "computer", "iphone", "android", "macbook", "ipad",
                "thinkpad", "pixel", "galaxy", "手机", "电脑", "笔记本", "华为", "小米", "苹果手机",
                "苹果电脑", "联想", "三星"),
    "school": ("school", "universit", "college", "degree", "exam", "graduat", "student",
               "考研", "大学", "毕业", "高三", "研究生", "读书", "上学", "学校", "考上", "读研",
               "读博", "在读", "大一", "大二", "大三", "大四", "本科", "硕士", "博士", "高中",
               "初中"),
    "commute": ("commut", "通勤", "地铁", "骑车", "开车上班"),
    # named in Chinese only (English words of these would start other words: "run", "car")
    "exercise": ("跑步", "游泳", "健身", "瑜伽", "锻炼", "篮球", "羽毛球", "足球", "爬山",
                 "骑行", "马拉松"),
    "car": ("车", "大众", "特斯拉", "比亚迪", "丰田", "本田", "宝马", "奔驰", "奥迪"),
    "looks": ("头发", "光头", "发型", "短发", "长发", "染发", "胡子"),
}


def families(c: Claim) -> frozenset[str]:
    """The attribute families a claim's words name."""
    if c.zh:
        joined = "".join(c.words)
        return frozenset(f for f, cues in FAMILIES.items() if any(
            cue in joined if not cue.isascii() else len(cue) >= 5 and cue in c.text.lower()
            for cue in cues))
    return frozenset(f for f, cues in FAMILIES.items()
                     if any(w.startswith(cues) for w in c.attribute_words))


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
        return not (self.past or self.hedged or self.claim.sign < 0
                    or any(not d.aside for d in self.denials))


#: a Chinese text that gives one job of several (也是, 兼职, 业余): no occupation is its only one
_ZH_MORE_JOBS = re.compile(r"也是|也当|也做|兼职|兼任|业余|副业|同时是|同时也是")


#: English: one's only child ("Ewa's only child", "is her only child", "has one son"):
#: its owner, its word and, for "only child", the kind it may say after ("…, a son")
EN_ONLY_CHILD = re.compile(
    r"\b(?P<o1>[A-Z][\w-]*)['’]s\s+only\s+(?P<k1>child|kid|daughter|son)\b"
    r"|\b(?P<o2>[A-Z][\w-]*)\s+has\s+(?:only\s+|just\s+)?(?:one|a single)\s+"
    r"(?P<k2>child|kid|daughter|son)\b"
    r"|\bis\s+(?P<o3>[A-Z][\w-]*)['’]s\s+only\s+(?P<k3>child|kid|daughter|son)\b"
    r"|\b(?P<o4>[A-Z][\w-]*)['’]s\s+(?P<k4>daughter|son)(?:,?\s+[A-Z][a-z]+,?)?\s+is\s+"
    r"(?:his|her|their)\s+only\s+child\b")
#: one's only child: 只有一个女儿, 就一个孩子, 的独生女, 唯一的儿子 (是独生女 is the owner's own)
ZH_ONLY_CHILD = re.compile(r"(?:只有|就|仅有|只生了?)一个(?P<a>女儿|儿子|闺女|孩子|小孩)"
                           r"|的独生(?P<b>[女子])(?!女)|唯一的(?P<c>女儿|儿子|孩子)")
#: a kin who died ("Sven's mother passed away in 2018"): the text is also its owner's
_GONE_KIN = re.compile(r"\b(?:passed\s+away|died|lost\s+(?:his|her|their))\b|去世|过世|离世|病逝",
                       re.I)
#: a Chinese clause that only sets the time of the next (在上一家公司时，…): its past is the next's
_ZH_THEN = re.compile(r"(?:时|的时候|那会儿|期间)$")
#: a time in the past that a sentence's next clauses keep (以前跑销售，酒桌上一晚能喝一斤白酒),
#: until one says now
_ZH_THEN_ON = re.compile(r"^(?:用户|[\u4e00-\u9fff]{2,4}?)?(?:以前|当年|年轻时|年轻的时候|过去|"
                         r"那时候?|那会儿|小时候|上学时|读书时)")
_ZH_NOW = re.compile(r"现在|如今|目前|今年|这几年|最近|后来|之后|至今|一直")


#: a hand someone was taught to use instead of their own: neither hand is all of it
_HAND_SWITCHED = guarded(re.compile(
    r"(?<!没)(?<!没有)(?:纠正|改|掰)(?:过来|成|正)|"
    r"\b(?:forced|made|taught|trained|switched) to (?:write|eat|use)\b"
    r"[^.;]{0,30}\bhand\b", re.I))


def _clauses_of(c: Claim) -> tuple[Clause, ...]:
    """``c``'s clauses; the first names the owner the others inherit."""
    texts = _clause_texts(c.text[:MAX_CHARS], c.zh) or [c.text]
    out: list[Clause] = []
    first: tuple[str, ...] = ()
    for n, text in enumerate(texts):
        head, of, rest, identity = (_zh_head(text, inherited=n > 0) if c.zh
                                    else _en_head(text))
        role = next((r for r in ZH_ROLES if text.startswith(r)), None) if (
            c.zh and n and first) else None
        if role in ZH_PARTNERS:
            role = None  # 石磊刚结婚，太太是他大学同学: who his wife is, his
        if role is not None:  # 牛犇的父亲是A型血，母亲是B型血: the mother's, of 牛犇
            base = "".join(first[:1]).split("的")[0]
            head, rest = (f"{base}的{role}",), text[len(role):]
            identity = rest.startswith(("是", "叫"))
            rest = rest[1:] if identity else rest
            of = ""
        elif head is None or (head == () and n):
            head = first  # "… and drives daily", "she only learnt Korean"
        elif head == ():
            head = tuple(c.subject) if c.subject != ("*",) else ()
        past = bool((_ZH_PAST if c.zh else _PAST).search(text)) or bool(
            not c.zh and _PAST_VERB.match(rest)) or bool(
            c.zh and out and out[-1].past and (_ZH_THEN.search(out[-1].text) or (
                _ZH_THEN_ON.search(out[-1].text) and not _ZH_NOW.search(text))))
        own = _clause_claim(c, text, n, len(texts))
        hedged = bool((_ZH_HEDGES if c.zh else _HEDGES).search(text))
        facts = _zh_facts(of, rest, identity, past) if c.zh else _en_facts(
            of, rest, identity, text, past)
        # (with the thing it is about: "Ben's highest degree is a BA", 房雨的最高学历是本科;
        # a level is the owner's, or a kin's: 武强的房子还有房贷 is 武强's)
        facts += levels_of(f"{of} {rest.lstrip()}" if of and not c.zh else of + rest,
                           kin_of(of, True, zh=c.zh), facts, zh=c.zh, past=past)
        if c.zh and _ZH_MORE_JOBS.search(c.text):  # 是作家，也是医生: one of two jobs
            facts = tuple(f for f in facts if f.key != "occupation")
        if _HAND_SWITCHED.search(c.text):  # 写字用右手，是小时候被老师纠正过来的: a hand taught
            facts = tuple(f for f in facts if f.key != "hand")
        if c.zh and len(head) == 1 and of.endswith(ZH_ROLES) and any(f.of == of for f in facts):
            # 方圆的儿子是2016年生的 is the son's, as 方圆的儿子出生于… is: one owner for both
            facts = tuple(replace(f, of="") if f.of == of else f for f in facts)
            head, of = (f"{head[0]}的{of}",), ""
        if not n:  # the owner the next clauses inherit: 用户的室友是穆斯林，不吃猪肉 (the
            # roommate's), 王芳的丈夫是广州人，一口粤语说得很地道 (the husband's)
            first = (f"{head[0]}的{of}",) if (c.zh and identity and len(head) == 1 and of
                                               and of.endswith(ZH_ROLES)) else head
        denials = () if hedged else departures(rest, zh=c.zh)
        if not (hedged or past):
            denials += _zh_denials(rest) if c.zh else (*_en_denials(rest),
                                                       *place_among_siblings(facts))
        elif past and not (hedged or c.zh):
            denials += lifelong(rest)
        denials = _one_named(denials, text, out[-1] if out else None)  # (English only)
        out.append(Clause(text, head, of, own, past, hedged, facts, denials))
    # "User's daughter Sofia is an only child" is also Sofia's, whom another note names alone
    # ("Sofia has a younger brother"): the clause again, under her name — for the user's
    # kin only, whom chat notes name both ways ("Ana's daughter Ivy" and "Ben's daughter
    # Ivy" stay two people)
    out += [replace(cl, owner=cl.owner[-1:]) for cl in out
            if len(cl.owner) == 3 and cl.owner[0] == "user" and cl.owner[-2] in _ROLE_STEMS]
    # "User's mother Helen turns 70" is also "User's mother …", whom another note does not
    # name ("Mum celebrated her 58th birthday"): one has one mother, one husband, one boss
    out += [replace(cl, owner=cl.owner[:2]) for cl in out
            if len(cl.owner) == 3 and cl.owner[1] in ONE_ROLES]
    return tuple(out)


#: a thing one owns or uses, named in a clause that "one" in the next stands for ("sold his
#: car last year and doesn't own one now")
_THING_BEFORE = re.compile(r"\b(?:a|an|the|his|her|their|my|its|no)\s+(?:[\w-]+\s+)?(?P<noun>car|"
                           r"bike|bicycle|television|telly|phone|smartphone|laptop|computer|"
                           r"motorbike|scooter|passport|licence|license|piano|guitar|dog|cat|"
                           r"pet)\b", re.I)


def _one_named(denials: tuple[Denial, ...], text: str, before: Clause | None
               ) -> tuple[Denial, ...]:
    """``denials`` with "one" for its object read as the thing named before it, in the
    clause or the one before ("sold his car last year and doesn't own one now": a car;
    "doesn't own a bike and hasn't ridden one since": a bike)."""
    if not _ONE_OBJECT.search(text) or not any(d.object in ((), ("one",)) and d.verb
                                                for d in denials):
        return denials
    given = next((d for d in denials if d.object and d.object != ("one",)), None)
    named, written = (given.object, given.written) if given else ((), ())
    for where in (text, before.text if before else ""):
        if not named and (m := _THING_BEFORE.search(where)) is not None:
            named, written = (stem(m["noun"].lower()),), (m["noun"].lower(),)
    if not named:
        return denials
    return tuple(replace(d, object=named, written=written) if d.object in ((), ("one",))
                 and d.verb else d for d in denials)


#: "one" as what is owned, ridden or used ("doesn't own one now")
_ONE_OBJECT = guarded(re.compile(
    r"\b(?:own|owns|owned|ridden|ride|rides|drive|drives|driven|had|have|"
    r"has|use|uses|used)\s+one\b", re.I))


def _clause_claim(c: Claim, text: str, n: int, count: int) -> Claim:
    """The claim of one clause, its subject the sentence's when it names none."""
    if count == 1:
        return c
    if c.zh and n:
        return claim("".join(c.subject) + text)
    own = claim(text)
    return replace(own, subject=c.subject) if own.subject in ((), ("*",)) else own
