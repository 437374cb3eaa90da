"""The rarer rules of the semantic audit, read from what a life says: a day's routine
hours, places someone has or has never been, no partner against a current one, a home for
life, no allergies, owning or renting one's home, the only languages someone speaks, one
thing measured twice (an amount, a height, an event's date or time, a weekly slot's day:
:mod:`~memscope.meaning.quantities`; a Chinese sentence read whole), a kin who died against
time spent with them, a public event lived through against a year of birth too late for it
(:mod:`~memscope.meaning.events`), a sight seen from home against a home far from it, a
Chinese province never lived in against a home there, and two people who share a first
name but not a surname. Each answers what kind of conflict it found ("time", "negation",
"place", "value", "lifetime", "days") or ``None``;
:func:`memscope.meaning.compare.conflict` asks them after the template and clause rules,
only for texts that hold what one of them reads (:func:`features`, read once per text).

The rules are in ``docs/graph-rules.md`` §7 ("A day's hours, places, partners …").
Pure and deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache

from memscope.meaning.claim_text import _HAN, _N, _number, _zh_int
from memscope.meaning.denials import PARTNERS, SPOUSES, ZH_PARTNERS, ZH_SPOUSES
from memscope.meaning.diets import (
    ONLY_PET,
    ZH_PET_ALTS,
    allergens,
    allergy_conflict,
    allergy_denied,
    named_pets,
    other_pets,
    pet_kind,
)
from memscope.meaning.events import born_too_late, witnessed
from memscope.meaning.facts import age_span, sibling_order
from memscope.meaning.levels import LANGUAGES
from memscope.meaning.places import (
    city_country,
    city_region,
    continent,
    country,
    latitude,
    region,
    sights,
    sights_visited,
    universities,
    within,
    zh_places,
)
from memscope.meaning.prefilter import guarded
from memscope.meaning.quantities import Measure, measures, measures_conflict
from memscope.meaning.reading import EN_ONLY_CHILD, ZH_ONLY_CHILD, Claim, Clause
from memscope.meaning.routines import routine, routines_conflict


def situation(a: Claim, b: Claim) -> str | None:
    """What kind of conflict one of the rarer rules finds between ``a`` and ``b`` (both
    ways), or ``None``; a rule is asked only when a text holds what it reads."""
    fa, fb = features(a), features(b)
    if not (fa or fb):
        return None  # most pairs: neither text gives what these rules read
    checks = (
        ("alone" in fa or "alone" in fb, _partners_conflict),
        ("routine" in fa and "routine" in fb, _routine_conflict),
        ("travel" in fa or "travel" in fb, _travel_conflict),
        ("lifelong" in fa or "lifelong" in fb, _lifelong_conflict),
        (("no_allergy" in fa and "allergy" in fb) or ("no_allergy" in fb and "allergy" in fa),
         _allergies_conflict),
        (("tenure" in fa and ("tenure" in fb or "tenure_some" in fb)) or (
            "tenure" in fb and "tenure_some" in fa), _tenure_conflict),
        ("only_speaks" in fa or "only_speaks" in fb, _languages_conflict),
        ("quantity" in fa and "quantity" in fb, _quantities_conflict),
        ("kin_gone" in fa or "kin_gone" in fb, _kin_gone_conflict),
        (("parents_apart" in fa and "parents_together" in fb) or (
            "parents_apart" in fb and "parents_together" in fa), _parents_conflict),
        (("only_child" in fa and "child_stage" in fb) or ("only_child" in fb
                                                           and "child_stage" in fa),
         _child_stage_conflict),
        (("only_tool" in fa and "tool" in fb) or ("only_tool" in fb and "tool" in fa),
         _tool_conflict),
        (("no_tool" in fa and "tool" in fb) or ("no_tool" in fb and "tool" in fa),
         _tool_denied_conflict),
        ("passport" in fa and "passport" in fb, _passport_conflict),
        (("no_meds" in fa and "meds" in fb) or ("no_meds" in fb and "meds" in fa),
         _medication_conflict),
        (("career_out" in fa and "career" in fb) or ("career_out" in fb and "career" in fa)
         or ("career_only" in fa and "career" in fb) or ("career_only" in fb and "career" in fa),
         _career_conflict),
        (("zh_no_car" in fa and "zh_car" in fb) or ("zh_no_car" in fb and "zh_car" in fa),
         _zh_car_conflict),
        (("zh_only_pet" in fa and "zh_pet" in fb) or ("zh_only_pet" in fb and "zh_pet" in fa),
         _zh_pet_conflict),
        ("fuel" in fa and "fuel" in fb, _fuel_conflict),
        ("witness" in fa or "witness" in fb, _lifetime_conflict),
        ("sight" in fa or "sight" in fb, _sight_conflict),
        ("climate" in fa or "climate" in fb, _climate_conflict),
        ("university" in fa or "university" in fb, _university_conflict),
        ("travel" in fa or "travel" in fb, _never_lived_conflict),
        ("pet_named" in fa and "pet_named" in fb, _pet_named_conflict),
        ("divorced_from" in fa or "divorced_from" in fb, _divorced_conflict),
        ("manager" in fa and "manager" in fb, _each_others_manager),
        ("sibling_order" in fa and "sibling_order" in fb, _sibling_order_conflict),
        (("never_under" in fa and "manager" in fb) or ("never_under" in fb and "manager" in fa),
         _never_under_conflict),
    )
    return next((what for wanted, rule in checks if wanted and (what := rule(a, b))), None)


def compared_widely(c: Claim) -> bool:
    """Whether the audit compares ``c`` with every text about its owner, shared words or
    not: it holds what a rarer rule reads on one side (routine hours, no partner, a visit
    denied, a home for life, no allergies, owning or renting a home, the only languages
    someone speaks, a height, one child), which the other text may say in words of its
    own."""
    return bool(features(c) - _NARROW)


#: what a rarer rule reads on its common side only (a job, a medicine, an allergy, a home
#: owned or rented): the other, rarer side is compared widely and meets it
_NARROW = frozenset(("number", "allergy", "quantity", "child_stage", "career", "meds",
                     "tenure_some", "manager", "sibling_order", "never_under"))


def measured(c: Claim) -> frozenset[str]:
    """What the claim's clauses measure ("GBP salary", "height", "wedding"): two texts about
    one such thing are compared, whatever words they share."""
    return frozenset(m.key for _cl, found in _measured_clauses(c) for m in found) if (
        "quantity" in features(c)) else frozenset()


def features(c: Claim) -> frozenset[str]:
    """What of the rarer rules' matter a claim holds ("number", "routine", "no_allergy",
    "allergy", "alone", "tenure", "only_speaks", "travel", "lifelong", "quantity", "height",
    "passport", "fuel", "tool", "no_meds", "meds" …): read once per claim
    and kept on it, as its cached properties are (a large audit asks for every pair; a
    cache keyed on the claim would hash all its words each time)."""
    kept = c.__dict__.get(_KEPT)
    if kept is None:
        kept = c.__dict__[_KEPT] = _claim_features(c)
    return kept


_KEPT = "situation_features"


def _text_features(text: str) -> set[str]:
    """The features read from a text's words alone (:func:`features`)."""
    out = set(_rare_cues(text))
    if routine(text):
        out.add("routine")
    if allergy_denied(text) is not None:
        out.add("no_allergy")
    if allergens(text):
        out.add("allergy")
    out |= _tenure_features(text)
    if _ONLY_SPEAKS.search(text) or _ZH_ONLY_SPEAKS.search(text):
        out.add("only_speaks")
    if "passport" in text or "citizenship" in text or "national" in text:
        out.add("passport")
    if _ELECTRIC_CAR.search(text) or _FUELLED_CAR.search(text):
        out.add("fuel")
    out |= _tool_features(text)
    if witnessed(text) is not None:
        out.add("witness")
    if _NEAR_HOME.search(text) and sights(text):
        out.add("sight")
    if _SNOW_AT_HOME.search(text) or _NO_SNOW_AT_HOME.search(text):
        out.add("climate")
    out |= _family_features(text)
    out |= _medication_features(text)
    out |= _zh_owned_features(text)
    out |= _career_features(text)
    if (_AT_UNIVERSITY.search(text) and universities(text)) or _STUDIED_IN.search(text) or (
            _NEVER_STUDIED.search(text)):
        out.add("university")
    return out | {name for name, found in (("pet_named", named_pets(text)),
                                           ("divorced_from", _DIVORCED_FROM.search(text)))
                  if found}


def _family_features(text: str) -> set[str]:
    """"only_child" when a text says someone has one child (one daughter, one son),
    "child_stage" when it says what a child of theirs is (a stage of life, an age, a
    daughter or a son) or that they have several (:func:`_child_stage_conflict`);
    "parents_apart" and "parents_together" (:func:`_parents_conflict`)."""
    out = {name for name, found in (("parents_apart", _PARENTS_APART.search(text)), (
        "parents_together", _PARENTS_TOGETHER.search(text))) if found} if (
        "parent" in text or "mum" in text or "mom" in text or "mother" in text) else set()
    if _ZH_CHILD.search(text):
        only, stage = ZH_ONLY_CHILD.search(text), (
            any(p.search(text) for p in _ZH_LIFE_STAGES) or _ZH_CHILD_AGE.search(text))
    elif _EN_CHILD.search(text):
        only, stage = EN_ONLY_CHILD.search(text), (
            any(p.search(text) for p in _EN_LIFE_STAGES) or _EN_CHILD_AGE.search(text)
            or _EN_SEVERAL.search(text) or _EN_KIN_OF.search(text))
    else:
        only, stage = None, _EN_SEVERAL.search(text)  # "Camille is a mother of three"
    return out | {name for name, found in (("only_child", only), ("child_stage", stage))
                  if found}


def _tool_features(text: str) -> set[str]:
    """The tool features of a text: "tool" when it names a tool (or a maker's products),
    "only_tool" when it says all someone uses, "no_tool" when it denies one."""
    if not (_TOOL_RE.search(text) or _MAKER.search(text)):
        return set()
    out = {"tool", "only_tool"} if _ONLY_TOOL.search(text) else {"tool"}
    return out | {"no_tool"} if denied_tools(text) else out


def _claim_features(c: Claim) -> frozenset[str]:
    """The features of a claim: its text's, and what its clauses read (:func:`features`)."""
    out = _text_features(c.text)
    if "number" in c.core_kinds:
        out.add("number")
    if _managers(c):
        out.add("manager")
    if not c.zh and sibling_order(c.text):
        out.add("sibling_order")
    if not c.zh and _NEVER_UNDER.search(c.text):
        out.add("never_under")
    if any(f.no_partner or (f.key == "wed" and f.first == "never")
           for cl in c.clauses for f in cl.facts):
        out.add("alone")
    kinds = {m.kind for _cl, found in _measured_clauses(c) for m in found}
    if kinds:
        out.add("quantity")
    if "height" in kinds:
        out.add("height")  # said in words of its own ("five foot six"): compared widely
    return frozenset(out)


#: owning or renting one's home, said of *the* home ("owns the flat he lives in", "rents
#: his house", "the flat Yusuf lives in is rented"; not "owns a house in the countryside")
def _held_home(verbs: str, passive: str, words: int) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{verbs})\s+(?:the|his|her|their)\s+(?:\w+\s+)?"
                      r"(?P<what>flat|house|apartment|home|place)\b|\b(?P<what2>flat|house|"
                      rf"apartment|home)\s+(?:\w+\s+){{0,{words}}}?(?:is|was)\s+{passive}\b",
                      re.I)


_OWNS_HOME = _held_home("owns?|bought", r"(?:fully\s+)?(?:owned|paid off|bought)", 3)
_RENTS_HOME = _held_home("rents?|renting", "rented", 4)
#: the same, said another way: "rents a flat in Leeds" (a home rented is where one lives),
#: "pays €1,450 a month in rent … for the Haarlem flat", "the flat in Haarlem, which Femke
#: has owned outright"
_HOME = r"(?P<what>flat|house|apartment|home|place|studio|room)"
_RENTS_A_HOME = re.compile(rf"\brents?\s+(?:a|an)\s+(?:[\w-]+\s+)?{_HOME}\b", re.I)
_RENT_FOR_HOME = re.compile(rf"\b(?<!neither )(?<!no )rent\s+(?:to\s+(?:her|his|their|a|the)\s+"
                            rf"(?:\w+\s+)?landlord\s+)?(?:for|of)\s+(?:the|his|her|their)\s+"
                            rf"(?:[\w-]+\s+)?"
                            rf"{_HOME}\b", re.I)
_OWNED_OUTRIGHT = re.compile(rf"\b{_HOME}\b[^.;]{{0,40}}?\b(?:has\s+)?owned\s+outright\b", re.I)
#: owning no home at all ("has never owned property", "no property to his name"), and
#: owning one, any ("is paying off a mortgage on her terrace", "owns house")
_NO_PROPERTY = re.compile(r"\b(?:has\s+)?never\s+owned\s+(?:any\s+)?(?:property|a\s+(?:home|"
                          r"house|flat))\b|\b(?:doesn['’]t|does not)\s+own\s+(?:any\s+)?"
                          r"property\b|\bno\s+property\s+to\s+(?:his|her|their)\s+name\b|"
                          r"\bowns\s+no\s+property\b", re.I)
_OWNS_PROPERTY = guarded(re.compile(
    r"(?<!neither )(?<!nor )(?<!no )\b(?:paying\s+off|pays\s+off|"
    r"paid\s+off|repaying|final)\s+(?:(?:a|the|her|his|their)\s+)?"
    r"mortgage\b|"
    r"\b(?:is\s+paying|pays)\s+(?:a|the|her|his|their)\s+mortgage\b|"
    r"\bmortgage\s+on\s+(?:her|his|their|the)\b|"
    r"\bowns?\s+(?:(?:the|his|her|their|a|an)\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:flat|house|home|apartment|terrace|semi(?:-detached)?|bungalow|"
    r"cottage|property)\b", re.I))


#: a Chinese home one owns, or rents (住的是自己买的房子 / 一直租房住, 房子是租的)
_ZH_OWNS_HOME = re.compile(r"自己(?:全款)?买的房|住(?:的是)?自己家的房|房子是(?:自己|他|她)"
                           r"(?:全款)?买的|(?<!没)(?<!还没)买了房|一套自住|全款买了(?:一)?套"
                           r"|房本上是(?:他|她)?自己的名字|(?:登记)?在自己名下的[^，。,；;]{0,4}(?:居室|房)"
                           r"|自有住房|房贷还剩")
_ZH_RENTS_HOME = re.compile(r"租房(?:子)?住|住的是租的|房子是租的|租住|一直租房|在租房|还没买房"
                            r"|名下没有(?:任何)?(?:房产|房子)|名下一套房都没有|没有房子")


def _said_of_owner(c: Claim, pattern: re.Pattern[str]) -> bool:
    """A clause of ``c`` about its owner (not a kin or a thing of theirs, nor a home bought
    for someone else: 给父母全款买了一套房) says ``pattern``."""
    return any(pattern.search(x.text) and not x.of and not _BOUGHT_FOR.search(x.text)
               for x in c.clauses)


_BOUGHT_FOR = re.compile(r"给[^，。,；;]{1,6}?(?:全款)?买")


def _tenure_conflict(a: Claim, b: Claim) -> str | None:
    """One person owns the home the other text says they rent ("owns the flat he lives in"
    / "the flat Yusuf lives in is rented from a private landlord", 住的是自己买的房子 /
    一直租房住)."""
    if a.past or b.past or a.zh != b.zh:
        return None
    if a.zh:  # (said of the owner, not of a kin: 王芳的父母全款买了套房 is theirs)
        return "value" if any(
            _said_of_owner(first, _ZH_OWNS_HOME) and _said_of_owner(second, _ZH_RENTS_HOME)
            and _mentions_owner(first, second) for first, second in ((a, b), (b, a))) else None
    for first, second in ((a, b), (b, a)):
        if _NO_PROPERTY.search(first.text) and _OWNS_PROPERTY.search(second.text) and (
                _mentions_owner(first, second)):
            return "value"  # "has never owned property" / "is paying off a mortgage"
        owns = _OWNS_HOME.search(first.text) or _OWNED_OUTRIGHT.search(first.text)
        rents = _RENTS_HOME.search(second.text) or _RENTS_A_HOME.search(second.text) or (
            _RENT_FOR_HOME.search(second.text))
        if owns and rents and (_home_noun(owns) == _home_noun(rents) or _lived_in(
                owns, first.text) or _lived_in(rents, second.text)) and _mentions_owner(
                first, second):
            return "value"
    return None


def _lived_in(m: re.Match[str], text: str) -> bool:
    """The home a tenure pattern found is said to be the one its owner lives in ("the flat
    they live in"): their home, whatever the other text calls it."""
    return re.match(r"\s+(?:(?:he|she|they|\w+)\s+)?(?:lives?|is\s+living)\s+in\b",
                    text[m.end():]) is not None


def _home_noun(m: re.Match[str]) -> str:
    """The home a tenure pattern names ("flat", "house" …)."""
    return (m.group("what") or m.groupdict().get("what2") or "").lower()


def _quantities_conflict(a: Claim, b: Claim) -> str | None:
    """One person's one thing measured twice, apart: an amount paid or earned, a height,
    the date of one event, the weekday of a weekly slot (:mod:`~memscope.meaning.
    quantities`)."""
    if a.zh != b.zh:
        return None
    for x, left in _measured_clauses(a):
        owner = _measured_owner(x)
        if not owner or x.past or x.hedged or not left:
            continue
        for y, right in _measured_clauses(b):
            if _measured_owner(y) == owner and not (y.past or y.hedged):
                what = measures_conflict(left, right)
                if what:
                    return what
    return None


def _measured_clauses(c: Claim) -> list[tuple[Clause, tuple[Measure, ...]]]:
    """Each clause with its measures; a Chinese text read whole, as its first clause's (its
    commas part what one measure says: 每周只健身一次，固定在周三下午)."""
    if c.zh:
        first = c.clauses[0]
        if any(cl.owner and cl.owner != first.owner for cl in c.clauses) or any(
                cl.past or cl.hedged for cl in c.clauses):
            return [(cl, _measures_of(cl, True)) for cl in c.clauses]
        return [(first, _measures_of(first, True, c.text))]
    return [(cl, _measures_of(cl, False)) for cl in c.clauses]


def _measured_owner(x: Clause) -> tuple[str, ...]:
    """The clause's owner, else the one name it says a thing is of ("The lease on
    Leocadia's flat")."""
    if x.owner:
        return x.owner
    names = _POSSESSOR.findall(x.text)
    return (names[0].lower(),) if len(names) == 1 else ()


_POSSESSOR = re.compile(r"\b([A-Z][\w-]*)['’]s\b")


def _measures_of(x: Clause, zh: bool, text: str | None = None) -> tuple[Measure, ...]:
    """The clause's measures (of ``text`` when given: the clause's whole sentence), a
    height only when it is the owner's own ("Maya's fence is 1.80 m tall" is the
    fence's)."""
    found = measures(x.text if text is None else text, zh)
    if x.of and x.of != "height":
        found = tuple(m for m in found if m.kind != "height")
    return found


def _mentions_owner(a: Claim, b: Claim) -> bool:
    """Both texts are about one person: one owner, or the other's owner named in it."""
    owner = a.clauses[0].owner
    return bool(owner) and (owner == b.clauses[0].owner or any(
        cl.owner == owner for cl in b.clauses) or (
        len(owner) == 1 and re.search(rf"\b{re.escape(owner[0])}", b.text, re.I) is not None))


#: "only speaks Portuguese and Spanish": the languages someone speaks, all of them
_ONLY_SPEAKS = re.compile(r"\b(?:only\s+speaks?|speaks?\s+only)\s+(?P<langs>[A-Z]\w+(?:(?:,\s*|"
                          r"\s+and\s+|\s+or\s+)[A-Z]\w+)*)"
                          r"|\bspeaks\s+(?P<langs2>[A-Z]\w+(?:\s+and\s+[A-Z]\w+)?)\s+only\b")
_SPEAKS = re.compile(r"\b(?:speaks|is fluent in|fluent in|in fluent|is a native speaker of|"
                     r"(?:is\s+)?(?:bi|tri)lingual in)\s+(?:fluent\s+|both\s+)?"
                     r"(?P<lang>[A-Z]\w+(?:(?:,\s*|\s+and\s+)[A-Z]\w+)*)"
                     # a talk in a language ("chats with his grandmother in Urdu")
                     r"|\b(?:chats?|talks?|converses?|speaks?|writes?|texts?)\s+(?:with|to)\s+"
                     r"[^.;,]{1,40}?\s+in\s+(?P<lang2>" + LANGUAGES + r")\b")


#: Chinese: 只会说普通话, 一门外语都不会 / 英语说得很流利, 会说日语, 粤语是他的母语
_ZH_LANG = r"(?:(?![的是在说会讲很])[\u4e00-\u9fff]){1,2}(?:语|话|文)"
_ZH_ONLY_SPEAKS = re.compile(r"(?:只会(?:说|讲)|外语只会)(?P<langs>[\u4e00-\u9fff]{2,4}?"
                             r"(?:[和、][\u4e00-\u9fff]{2,4}?)?)(?=[，。,；;]|$)"
                             r"|(?P<none>一门外语都不会|不会(?:说)?(?:任何|一门)外语)")
#: (a language test passed is the language spoken: 日语过了N1, 英语考过了专八)
_ZH_SPEAKS = guarded(re.compile(
    rf"(?P<lang>{_ZH_LANG})(?:说得|讲得|很流利|是(?:他|她)的母语|(?:考)?过了"
    rf"(?:N1|N2|专八|专四|八级|六级))"
    rf"|(?:会说|会讲|能说|精通)(?P<lang2>{_ZH_LANG})"))
#: one language by its Chinese names
_ZH_SAME = {"普通话": "汉语", "中文": "汉语", "国语": "汉语", "汉语": "汉语"}


def _zh_languages_conflict(a: Claim, b: Claim) -> bool:
    """One Chinese note gives all the languages its owner speaks (只会说普通话, 一门外语都不会)
    and the other one more (英语说得很流利)."""
    for first, second in ((a, b), (b, a)):
        only = _ZH_ONLY_SPEAKS.search(first.text)
        if only is None:
            continue
        known = {_ZH_SAME.get(lang, lang) for lang in re.split(r"[和、]", only.group("langs") or "")
                 if lang}
        if only.group("none"):
            known = {"汉语"}  # no foreign language: Chinese only
        for y in second.clauses:
            if y.hedged or y.past or y.denials:
                continue
            for m in _ZH_SPEAKS.finditer(y.text):
                lang = m.group("lang") or m.group("lang2")
                lang = _ZH_SAME.get(lang, lang)
                if not any(lang.endswith(k) or k.endswith(lang) for k in known):
                    return True
    return False


def _languages_conflict(a: Claim, b: Claim) -> str | None:
    """One text gives all the languages someone speaks and the other one more ("only speaks
    Portuguese and Spanish" / "is fluent in Japanese"; 只会说普通话 / 英语说得很流利)."""
    if a.zh != b.zh or not ((a.clauses[0].owner and a.clauses[0].owner == b.clauses[0].owner)
                            or {cl.owner for cl in a.clauses if cl.owner}
                            & {cl.owner for cl in b.clauses if cl.owner}):
        return None  # (one owner: "Colleague Sven …" is also Sven's)
    if a.zh:
        return "value" if _zh_languages_conflict(a, b) else None
    for first, second in ((a, b), (b, a)):
        only = _ONLY_SPEAKS.search(first.text)
        if only is None:
            continue
        known = set(re.findall(r"[A-Z]\w+", only.group("langs") or only.group("langs2")))
        if any(lang not in known for y in second.clauses
               if not (y.hedged or y.past) for m in _SPEAKS.finditer(y.text)
               for lang in re.findall(r"[A-Z]\w+", m.group("lang") or m.group("lang2"))):
            return "value"  # (a clause of learning or wishing is hedged: clauses.py)
    return None


#: tools one uses one of, by kind: each value with the words that name it (a program
#: made for one system only names that system: Final Cut Pro runs on a Mac alone)
_TOOLS: dict[str, dict[str, tuple[str, ...]]] = {
    # a brand of Android phone is an Android phone ("android:…"), not another kind of phone
    "phone": {"iphone": ("iphone", "苹果手机", "ios", "face id", "airdrop", "imessage", "facetime"),
              "android": ("android", "安卓"),
              "android:samsung": ("galaxy", "samsung phone", "三星手机"),
              "android:pixel": ("pixel",),
              "android:huawei": ("huawei", "华为"), "android:xiaomi": ("xiaomi", "小米", "红米"),
              "android:oppo": ("oppo",), "android:vivo": ("vivo",),
              "android:oneplus": ("oneplus", "一加")},
    "os": {"windows": ("windows",), "linux": ("linux", "ubuntu", "debian", "fedora"),
           "macos": ("macos", "mac os", "mac用户", "mac person", "mac user", "final cut",
                     "logic pro")},
    "editor": {"vim": ("vim", "neovim"), "emacs": ("emacs",), "vscode": ("vs code", "vscode"),
               "sublime": ("sublime",), "intellij": ("intellij", "pycharm"), "zed": ("zed",)},
    "office": {"word": ("microsoft word", "ms word", "office"), "wps": ("wps",),
               "docs": ("google docs",), "libreoffice": ("libreoffice",), "pages": ("pages",)},
    "browser": {"chrome": ("chrome",), "firefox": ("firefox",), "safari": ("safari",),
                "edge": ("edge",)},
    # (a ThinkPad is a Lenovo: "lenovo:thinkpad")
    "computer": {"mac": ("macbook", "imac", "mac mini"), "lenovo:thinkpad": ("thinkpad",),
                 "lenovo": ("联想", "拯救者", "lenovo", "legion"),
                 "dell": ("dell xps", "dell laptop"), "surface": ("surface laptop", "surface pro")},
    "tablet": {"ipad": ("ipad",)},
    "car": {"tesla": ("特斯拉", "tesla", "model 3", "model y", "model s", "model x"),
            "byd": ("比亚迪",), "bmw": ("宝马",),
            "mercedes": ("奔驰",), "audi": ("奥迪",), "toyota": ("丰田",), "honda": ("本田",),
            "volkswagen": ("大众汽车", "大众")},
}
#: Apple's products, named as a whole ("Apple products", "anything made by Apple", 苹果的产品):
#: denying them denies each, and using only them rules out another maker's
_APPLE_PRODUCTS = (("phone", "iphone"), ("computer", "mac"), ("os", "macos"), ("tablet", "ipad"))
_MAKER = guarded(re.compile(
    r"\bApple(?:['’]s)?\s+(?:products?|devices?|gear|hardware|stuff|"
    r"ecosystem|anything)\b|\b(?:made|built|sold|designed)\s+by\s+Apple\b|"
    r"\bApple(?:[- ]only|\s+loyalist|\s+fan)\b|苹果(?:的)?(?:产品|设备|东西|全家桶)"
    r"|果粉"))
_TOOL_WORD = {w: (kind, value) for kind, values in _TOOLS.items()
              for value, words in values.items() for w in words}
_TOOL_RE = guarded(re.compile(
    r"(?<![a-z])(?:" + "|".join(re.escape(w) for w in sorted(_TOOL_WORD, key=len, reverse=True)
                                if w.isascii()) + r")(?![a-z])|"
    + "|".join(re.escape(w) for w in sorted(_TOOL_WORD, key=len, reverse=True) if not w.isascii()),
    re.I))
#: one tool and no other ("only uses Windows", "has only ever owned Android phones", "runs
#: Linux on every machine", "Windows only", "never uses anything but Vim", 只用WPS,
#: 一直用苹果手机, 唯一的手机)
_ONLY_TOOL = guarded(re.compile(
    r"\b(?:only|exclusively)\s+(?:ever\s+)?(?:uses?|used|runs?|owns?|owned|"
    r"buys?|bought|works?\s+(?:in|on|with))\b|(?-i:\b[A-Z]\w*[- ]only\b)|"
    r"\b(?:anything|nothing)\s+(?:but|other than|except)\b|唯一的手机|就这一部|"
    r"\bnot (?:made|built|designed) by\b|"
    r"\b(?:uses?|runs?)\s+(?:only|nothing\s+but|exclusively)\b|"
    r"\b(?:uses?|runs?)\s+(?:\w+\s+){1,2}only\b"
    r"|\bon\s+(?:every|all\s+(?:his|her|their))\s+(?:machine|computer|device)"
    r"|\b(?:only|one|sole|main)\s+(?:phone|laptop|computer|mobile)\b"
    r"|\bloyalist\b|\bthrough and through\b|\bdie-hard\b"
    r"|只用|只使用|一直用|一直是|从来只用|都是用|就这一部手机|只有一部手机|"
    r"只有一辆车|就一辆车|唯一的车|唯一的?一辆车|就这一辆车?|没有别的车|只认|"
    r"纯(?:Mac|苹果|安卓|Windows)用户|唯一的电脑|唯一一台电脑|就这一台电脑"
    r"|全靠它", re.I))


#: a tool used only in one place ("only uses Windows at work"): others may be used elsewhere
_SOME_PLACE = re.compile(r"\b(?:at|for) (?:work|home|school|the office)\b|在公司|在家", re.I)
#: but "both at home and at work" is everywhere
_BOTH_PLACES = re.compile(r"\bboth (?:at |for )?(?:work|home|school)\b", re.I)


def _one_tool(a: str, b: str) -> bool:
    """Two tool values that may name one tool ("android" and "android:pixel")."""
    return a == b or a.startswith(b + ":") or b.startswith(a + ":")


def _tools_of(text: str, makers: bool = False) -> set[tuple[str, str]]:
    """The (kind, value) of each tool a text names (:data:`_TOOLS`); with ``makers``, each
    product of a maker it names as a whole (:data:`_APPLE_PRODUCTS`: "Apple devices")."""
    tools = {_TOOL_WORD[m.group(0).lower()] for m in _TOOL_RE.finditer(text)
             if m.group(0) not in _COMMON_WORDS}
    if makers and _MAKER.search(text):
        tools.update(_APPLE_PRODUCTS)
    return tools


#: tool names that are common words written small ("an office", "the edge", "windows"):
#: they name the tool only when written as its name (Office, Edge, Windows)
_COMMON_WORDS = frozenset(("office", "pages", "edge", "safari", "windows", "chrome", "word",
                           "pixel", "galaxy"))
#: a denial of what is still to come, or of one more ("will never buy another Tesla")
_NOT_NOW = re.compile(r"\b(?:another|again|next|will|won['’]t|would|going to)\b|['’]ll\b|再也|以后",
                      re.I)
#: a word that denies a tool named after it in its clause ("has never owned an Android
#: phone", "refuses to buy anything made by Tesla", "doesn't own any Apple products",
#: 从来没用过安卓手机); not "not only"
_DENIES_TOOL = re.compile(r"(?:\b(?:never|not|no|refuses?|refused|avoids?|boycotts?|without)\b"
                          r"|n['’]t\b)(?!\s+only\b)[^,;.]{0,40}$|(?:没|未|不|拒绝)[^，。,;；]{0,8}$",
                          re.I)
#: a denial of doing it ever: a time it was done counts against it
_EVER = re.compile(r"\b(?:never|ever)\b|从来|从没|从未|没.过|未.过")


def denied_tools(text: str) -> set[tuple[str, str]]:
    """The tools ``text`` says someone does not use or own, by (kind, value): each named
    after a denial in its clause, a maker's products as a whole included; none when it
    names them as all it uses ("never uses anything but Vim") or as only somewhere."""
    if _ONLY_TOOL.search(text) or _NOT_NOW.search(text) or (
            _SOME_PLACE.search(text) and not _BOTH_PLACES.search(text)):
        return set()
    out = {_TOOL_WORD[m.group(0).lower()] for m in _TOOL_RE.finditer(text)
           if m.group(0) not in _COMMON_WORDS and _DENIES_TOOL.search(text, 0, m.start())}
    maker = _MAKER.search(text)
    if maker and _DENIES_TOOL.search(text, 0, maker.start()):
        out.update(_APPLE_PRODUCTS)
    return out


def _tool_denied_conflict(a: Claim, b: Claim) -> str | None:
    """One text denies someone uses or owns a tool (or any of a maker's), the other that
    they use one ("has never owned an Android phone" / "her phone is a Google Pixel",
    "doesn't own any Apple products" / "watches films on her own iPad"); a time it was
    used before counts only against "never"."""
    if not _mentions_owner(a, b):
        return None
    for first, second in ((a, b), (b, a)):
        owner = first.clauses[0].owner
        for x in first.clauses:
            denied = denied_tools(x.text) if x.owner == owner and not x.hedged else set()
            if not denied:
                continue
            used = _used_tools(second, owner, before=_EVER.search(x.text) is not None)
            if any(k == kind and _one_tool(v, value) for k, v in used for kind, value in denied):
                return "negation"
    return None


def _tool_conflict(a: Claim, b: Claim) -> str | None:
    """One text says someone uses one tool of a kind and no other, the other that they use
    another of that kind ("only uses Windows" / "runs Linux at home", "has only ever used
    Android phones" / "uses an iPhone", 只用WPS / 每天用Microsoft Word写报告); a tool used
    only before is no conflict ("used to use only Windows")."""
    for first, second in ((a, b), (b, a)):
        only = {tool for x in first.clauses if _ONLY_TOOL.search(x.text) and not (
                    x.hedged or x.past
                    or (_SOME_PLACE.search(x.text) and not _BOTH_PLACES.search(x.text)))
                for tool in _tools_of(x.text, makers=True)}
        if first.zh and not only and any(_ONLY_TOOL.search(x.text) for x in first.clauses):
            # 高峰的手机是华为，他就这一部手机: the only one is in the next clause
            only = {tool for x in first.clauses if not (x.hedged or x.denials or x.past)
                    for tool in _tools_of(x.text)}
        if not only or not _mentions_owner(first, second):
            continue
        kinds = {kind for kind, _value in only}
        used = _used_tools(second, first.clauses[0].owner, before=False)
        if any(kind in kinds and not any(_one_tool(value, v) for k, v in only if k == kind)
               for kind, value in used):
            return "value"
    return None


#: what of one's own a clause may be about when it names a tool of theirs ("Marta's phone
#: is a Pixel", "her work laptop")
_DEVICE_NOUNS = ("phone", "phones", "mobile", "laptop", "laptops", "computer", "computers",
                 "machine", "tablet", "car", "device", "devices", "setup", "os", "browser",
                 "editor", "手机", "电脑", "车")


#: a tool bought or set up for someone else (给父母各买了一部华为手机, "bought an iPad for her
#: mum"): not one's own
_FOR_SOMEONE = re.compile(r"给[^，。,；;]{1,6}(?:买|送|配)|"
                          r"\b(?:bought|got|gave|ordered)\b[^.;]{0,25}\bfor (?:her|his|their) "
                          r"(?:mum|mom|mother|dad|father|parents|son|daughter|kids|children|wife|"
                          r"husband|partner)\b", re.I)


def _used_tools(c: Claim, owner: tuple[str, ...], before: bool) -> set[tuple[str, str]]:
    """The tools ``c`` says ``owner`` uses (``before``: or used once), in clauses of theirs
    that affirm it; a text whose clauses name no owner but the owner's name counts as
    theirs ("The only phone Zainab has … is a Samsung Galaxy"); not what their team or
    company runs ("Bruno's team runs Debian servers")."""
    clauses = [y for y in c.clauses if y.owner == owner and (
        not y.of or y.of.endswith(_DEVICE_NOUNS))]
    if not clauses and len(owner) == 1 and not any(y.owner for y in c.clauses) and re.search(
            rf"\b{re.escape(owner[0])}\b", c.text, re.I):
        clauses = list(c.clauses)
    return {tool for y in clauses if not (y.hedged or (y.past and not before)
                                          or _denies_more(y) or denied_tools(y.text)
                                          or _FOR_SOMEONE.search(y.text))
            for tool in _tools_of(y.text)}


def _denies_more(y: Clause) -> bool:
    """Whether a clause denies something (or is negative), other than any other one of what
    it names ("uses a Samsung Galaxy S23 and doesn't own any other phone" still uses it)."""
    others = [d for d in y.denials if "other" in d.object]
    return (bool(y.denials) and len(others) < len(y.denials)) or (
        y.claim.sign < 0 and not others)


#: one's only passport ("holds only a Serbian passport") and a passport of another country
#: ("his Canadian passport")
_ONLY_PASSPORT = re.compile(
    r"\bonly (?:a |an |one )?(?P<n>[A-Z][a-z]+) (?:passport|citizenship|nationality)\b"
    r"|\b(?P<n2>[A-Z][a-z]+) (?:citizenship|nationality) and no other\b"
    r"|\bsolely (?:a |an )?(?P<n3>[A-Z][a-z]+) (?:national|citizen)\b"
    r"|\bnationality is (?P<n4>[A-Z][a-z]+) \(sole citizenship\)")
_PASSPORT = re.compile(r"\b(?:his|her|their|a|an|only|solely)\s+(?:an?\s+)?(?P<n>[A-Z][a-z]+)\s+"
                       r"(?:passport|citizenship|nationality|national|citizen)\b"
                       r"|\bnationality is (?P<n2>[A-Z][a-z]+)\b")


#: no passport now ("has no passport", "passport expired … hasn't renewed it", 没有护照), and
#: one valid now ("passport is valid until 2031", 护照有效期到…)
_NO_PASSPORT = guarded(re.compile(
    r"\b(?:has|holds) no passport\b|\bhas never (?:even )?(?:had|held) a "
    r"passport\b|\bpassport expired\b[^.;]{0,30}\b(?:hasn['’]t|has not|"
    r"never) renewed\b|没有护照"
    r"|护照过期了?[^，。,；;]{0,4}没(?:去)?(?:续|换)"))
_KINS_PASSPORT = re.compile(r"['’]s\s+(?:son|daughter|wife|husband|partner|child|mother|"
                            r"father|mum|dad)['’]s\s+passport")
_VALID_PASSPORT = re.compile(r"\bpassport\b[^.;]{0,40}?\b(?:is |was )?valid (?:until|till|to|"
                             r"through) (?:19|20)\d\d\b|护照有效期到")


def _passport_conflict(a: Claim, b: Claim) -> str | None:
    """One country's passport only, and another's ("holds only a Serbian passport" /
    "travels on his Canadian passport"); no passport now against one valid now ("lacks a
    passport" / "renewed her passport in 2025 and it is valid until 2035")."""
    if not _mentions_owner(a, b):
        return None
    for first, second in ((a, b), (b, a)):
        if _NO_PASSPORT.search(first.text) and _VALID_PASSPORT.search(second.text) and not (
                _NO_PASSPORT.search(second.text) or _KINS_PASSPORT.search(second.text)):
            return "value"
    for first, second in ((a, b), (b, a)):
        only = _ONLY_PASSPORT.search(first.text)
        if only is None:
            continue
        own = next(g for g in only.group("n", "n2", "n3", "n4") if g)
        owner = first.clauses[0].owner
        if any((m["n"] or m["n2"]) != own for y in second.clauses
               if y.owner == owner and not (y.hedged or y.past or y.denials)
               for m in _PASSPORT.finditer(y.text)):
            return "value"
    return None


#: a car that runs on electricity alone ("his only car is fully electric", 纯电的特斯拉), and
#: one that takes fuel ("fills up with diesel", 加油站加92号汽油); a hybrid takes both
_ELECTRIC_CAR = guarded(re.compile(
    r"\b(?:fully |all[- ]|purely )?electric\b|(?<![A-Za-z])EVs?"
    r"(?![A-Za-z])|\bTesla\b|\bModel [3SXY]\b|\bNissan Leaf\b|纯电|"
    r"电动汽车|特斯拉", re.I))
_FUELLED_CAR = guarded(re.compile(
    r"\b(?:petrol|diesel|gasoline|unleaded)\b|\bfills? (?:it |her |his |"
    r"their |the car |the tank )?up\b|\b(?:gas|petrol|filling) station\b|"
    r"\bper (?:litre|liter|gallon)\b|\bmpg\b|加油站|汽油|柴油|费油|"
    r"加(?:一次|满)?油", re.I))
_HYBRID = re.compile(r"\bhybrid\b|混动|插电|增程", re.I)
#: one car only ("his only car", 唯一的车, 就一辆车)
_ONE_CAR = guarded(re.compile(
    r"\b(?:only|sole|one and only)\s+(?:\w+\s+)?(?:car|vehicle)\b|"
    r"\bthe only car\b|\bonly\s+(?:ever\s+)?(?:drives|owns|buys|has)\s+(?:fully\s+)?"
    r"electric\b|唯一(?:的|一辆)?(?:车|一辆车)|就(?:这)?一辆车|只有一辆车|"
    r"家就一辆|(?:车|car)\s*[:：]", re.I))


def _fuel_conflict(a: Claim, b: Claim) -> str | None:
    """One's only car runs on electricity alone, and one fills it with fuel ("his only car
    is an electric Tesla" / "fills up his only car with diesel", 就一辆车，是纯电的 /
    每周去加油站加92号汽油); not a hybrid."""
    if not (_ONE_CAR.search(a.text) or _ONE_CAR.search(b.text)) or _HYBRID.search(a.text) or \
            _HYBRID.search(b.text) or a.past or b.past:
        return None
    for first, second in ((a, b), (b, a)):
        owner = first.clauses[0].owner
        if owner and _ELECTRIC_CAR.search(first.text) and not (
                _FUELLED_CAR.search(first.text) or _ELECTRIC_CAR.search(second.text)) and any(
                _FUELLED_CAR.search(y.text) for y in second.clauses
                if y.owner == owner and not (y.hedged or y.past or y.denials)):
            return "value"
    return None


def _allergies_conflict(a: Claim, b: Claim) -> str | None:
    """No allergies (of a kind) against one of that kind, for one owner ("has no food
    allergies at all" / "is allergic to shellfish"): :func:`~memscope.meaning.diets.
    allergy_conflict`."""
    if not (a.clauses[0].owner and a.clauses[0].owner == b.clauses[0].owner) or (
            a.past or b.past):
        return None
    if allergy_conflict(a.text, b.text) or allergy_conflict(b.text, a.text):
        return "negation"
    return None


#: no medicine taken now ("is not on any medication", "takes no regular medication",
#: "Medication: none", 不吃任何药)
_NO_MEDS = guarded(re.compile(
    r"\b(?:has no|takes no|is not on any|isn['’]t on any|not on any|"
    r"(?:doesn['’]t|does not|never) take any)\s+(?:regular\s+|prescription\s+|"
    r"current\s+|daily\s+)?(?:medications?|medicines?|meds|pills|tablets|"
    r"prescriptions?)\b(?!,?\s+(?:besides|except|apart from|other than|but)\b)"
    r"|不吃任何药|没有(?:在)?(?:长期)?吃(?:任何)?药|不用吃药|什么药都不吃|一片药都不吃"
    r"|从不吃药|(?:长期)?用药[：:]\s*无|没有长期用药"))
#: a medicine taken as a habit ("takes a blood-pressure tablet every morning", "is on
#: sertraline", "injects insulin", 每天都要吃降压药)
_MEDICINES = (r"(?:tablets?|pills?|antidepressants?|statins?|medications?|medicines?|sertraline|"
              r"metformin|levothyroxine|insulin|beta[- ]blockers?|inhalers?|blood[- ]thinners?|"
              r"warfarin|lithium|prozac|fluoxetine|citalopram|ramipril|amlodipine|atorvastatin|"
              r"omeprazole|thyroxine)\b")
_TAKES_MEDS = re.compile(rf"\b(?:takes|has taken|has been taking|injects|uses)\s+"
                         rf"(?:(?:a|an|one|two|his|her|their|daily|\d+\s*(?:mg|mcg|micrograms?)\s+of)\s+)?(?:[\w-]+\s+){{0,2}}?"
                         rf"{_MEDICINES}"
                         rf"|\b(?:is|has been|'s)\s+(?:still\s+)?on\s+(?:\d+\s*mg\s+of\s+)?"
                         rf"(?:[\w-]+\s+)?{_MEDICINES}"
                         r"|(?:吃|服用?|打)[^，。,；;]{0,6}(?:药|胰岛素|降压|降糖|二甲双胍|氨氯地平)"
                         r"|(?:每日|每天)(?:二甲双胍|氨氯地平|胰岛素|降压药|降糖药)", re.I)
_MEDS_HABIT = re.compile(r"\b(?:every|each|daily|a day|twice|nightly|regularly|still|"
                         r"currently|now)\b|\bis on\b", re.I)
_ZH_MEDS_DAILY = re.compile(r"每天|每日|每晚|每早|长期|一直|常年|按时")
_ZH_MEDS_CUE = re.compile(r"药|胰岛素|降压|降糖|二甲双胍|氨氯地平")


#: fields of work, by the words for leaving one or never having worked in it, and the
#: words for working in it now
_FIELDS = {
    "education": (r"teaching|education|a school|schools", r"\bteach(?:es|ing)\b(?! \w+ing\b)|"
                  r"\bhas taught\b|"
                  r"\bteacher\b|\blecturer\b|\bheadteacher\b|\bhead teacher\b",
                  r"teaching|teacher"),
    "health": (r"nursing|medicine|healthcare|health ?care|a hospital|hospitals|any healthcare "
               r"setting", r"\bnurse\b|\bdoctor\b|\bparamedic\b|\btherapist\b|\bsurgeon\b|"
               r"\bmidwife\b|\bGP\b|\banaesthetist\b|\banaesthesiologist\b|\bphysician\b|"
               r"\bpharmacist\b", r"medical|nursing|clinical"),
    "kitchen": (r"a kitchen|kitchens|hospitality|catering", r"\bchef\b|\bcook at\b",
                r"culinary|cooking|chef"),
}
#: a field left, never worked in, or never trained for ("has no medical training of any kind")
_OUT = (r"\b(?:left|quit|gave up|jacked in|packed in|walked away from)\s+(?:{0})\b"
        r"(?=[^.;]*\b(?:for good|years ago|altogether|and now|now|since)\b)"
        r"|\b(?:has\s+)?never\s+(?:once\s+)?worked\s+(?:a\s+day\s+)?in\s+(?:\w+\s+)?(?:{0})\b"
        r"|\b(?:has\s+)?(?:no|never\s+had\s+any)\s+(?:{1})\s+training\b")
_OUT_OF_FIELD = re.compile("|".join(f"(?P<{field}>{_OUT.format(words, trained)})"
                                    for field, (words, _now, trained) in _FIELDS.items()), re.I)
_IN_FIELD = re.compile("|".join(f"(?P<{field}>{now})" for field, (_words, now, _trained) in
                                _FIELDS.items()))
#: one job and no other ("it is her only job", "doesn't have any other job")
_ONLY_JOB = re.compile(r"\bonly job\b|\b(?:no|(?:doesn['’]t|does not) have any) other jobs?\b"
                       r"|\bfirst and only job\b", re.I)
_CAREER_CUE = guarded(re.compile(
    r"teach|taught|school|educat|nurs|medic|health|hospital|doctor|pharmac|"
    r"paramedic|"
    r"therapist|surgeon|midwife|GP\b|anaesth|physician|chef|cook|kitchen|"
    r"hospitality|catering", re.I))


def _tenure_features(text: str) -> set[str]:
    """"tenure" when a text says someone owns or rents the home they live in, or owns no
    property; "tenure_some" when it says they rent a home or own one, said commonly (not
    compared widely: :func:`_tenure_conflict`)."""
    if any(p.search(text) for p in (_OWNS_HOME, _RENTS_HOME, _ZH_OWNS_HOME, _ZH_RENTS_HOME,
                                    _RENT_FOR_HOME, _OWNED_OUTRIGHT, _NO_PROPERTY)):
        return {"tenure"}
    return {"tenure_some"} if _RENTS_A_HOME.search(text) or _OWNS_PROPERTY.search(text) else set()


def _career_features(text: str) -> set[str]:
    """"career_out" when a text says someone left a field of work or never worked in it,
    "career" when it names a job in one (:func:`_career_conflict`)."""
    if not _CAREER_CUE.search(text):
        return set()
    out = {name for name, pattern in (("career_out", _OUT_OF_FIELD), ("career", _IN_FIELD))
           if pattern.search(text)}
    return out | {"career_only"} if "career" in out and _ONLY_JOB.search(text) else out


def _fields(pattern: re.Pattern[str], text: str) -> set[str]:
    """The fields of work (:data:`_FIELDS`) ``pattern`` finds in ``text``."""
    return {field for m in pattern.finditer(text) for field, v in m.groupdict().items() if v}


def _career_conflict(a: Claim, b: Claim) -> str | None:
    """One text says someone left a field of work or never worked in it, or that their only
    job is in another, the other that they work in it now ("left nursing for good in 2021"
    / "is a nurse at St Thomas'", "has never worked in education" / "teaches at a primary
    school", "her only job is as an anaesthetist" / "teaches Year 3")."""
    if a.zh or b.zh:
        return None
    for first, second in ((a, b), (b, a)):
        out = _fields(_OUT_OF_FIELD, first.text)
        if _ONLY_JOB.search(first.text) and not out:  # one job only: no other field
            out = set(_FIELDS) - _fields(_IN_FIELD, first.text)
        if not out:
            continue
        owner = first.clauses[0].owner
        for y in second.clauses:
            if owner and y.owner and y.owner[-1:] == owner[-1:] and not (y.past or y.hedged) and (
                    out & _fields(_IN_FIELD, y.text)) and not _OUT_OF_FIELD.search(y.text):
                return "negation"
    return None


#: Chinese: no car (家没车, 车辆：无, 从来没买过车), and a car of one's own by its make
#: (她开的是一辆本田雅阁, 谢东升的白色比亚迪, 提的那辆Model 3)
_ZH_CAR_MAKES = (r"(?:比亚迪|特斯拉|丰田|本田|大众|宝马|奔驰|奥迪|雅阁|凯美瑞|卡罗拉|思域|"
                 r"Model ?[3YSX]|理想|蔚来|小鹏|吉利|哈弗|五菱|别克|日产|马自达|现代|起亚|"
                 r"福特|沃尔沃|保时捷|路虎|凯迪拉克|红旗|SUV)")
_ZH_NO_CAR = re.compile(r"(?:家|名下)?(?:没车|没有(?:汽)?车(?!票|位))|从(?:来)?没买过车"
                        r"|车辆[：:=]\s*无|没有汽车")
_ZH_OWN_CAR = re.compile(rf"(?:开的是|开着|提的|提了|买的|买了)(?:一辆|那辆)?[^，。,；;]{{0,10}}?"
                         rf"{_ZH_CAR_MAKES}|(?:[她他]|自己|^[\u4e00-\u9fff]{{2,3}})的(?:[^，。,；;的]{{0,4}})?"
                         rf"{_ZH_CAR_MAKES}")


#: Chinese: one's only pet (唯一的宠物是一只叫咪咪的猫), and a pet kept (养了一只金毛，叫旺财;
#: 养的那只柯基叫豆豆), each with its kind and its name if said
_ZH_PET_WORD = f"(?:{ZH_PET_ALTS})"
_ZH_ONLY_PET = re.compile(rf"唯一的宠物是(?:一只|一条|只|条)?"
                          rf"(?:叫(?P<name>[\u4e00-\u9fff]{{1,3}})的)?(?P<kind>{_ZH_PET_WORD})(?:[，,]?叫(?P<name2>[\u4e00-\u9fff]{{1,3}}))?")
_ZH_PET = re.compile(rf"(?:养了|养着|养的|还养了)(?:一只|一条|只|条|那只|那条)?"
                     rf"(?:叫(?P<name>[\u4e00-\u9fff]{{1,3}})的)?(?P<kind>{_ZH_PET_WORD})"
                     rf"(?:[，,]?(?:名字)?叫(?P<name2>[\u4e00-\u9fff]{{1,3}}))?")


def _zh_owned_features(text: str) -> set[str]:
    """Chinese: "zh_only_pet" and "zh_pet" (:func:`_zh_pet_conflict`), "zh_no_car" and
    "zh_car" (:func:`_zh_car_conflict`)."""
    wanted = ((("zh_only_pet", _ZH_ONLY_PET), ("zh_pet", _ZH_PET)) if (
        "宠物" in text or "养" in text) else ()) + ((
            ("zh_no_car", _ZH_NO_CAR), ("zh_car", _ZH_OWN_CAR)) if (
        "车" in text or "Model" in text) else ())
    return {name for name, pattern in wanted if pattern.search(text)}


def _zh_pet_conflict(a: Claim, b: Claim) -> str | None:
    """One Chinese note gives someone's only pet, the other a pet of another kind, or of
    that kind by another name."""
    if not (a.zh and b.zh):
        return None
    for first, second in ((a, b), (b, a)):
        only, kept = _ZH_ONLY_PET.search(first.text), _ZH_PET.search(second.text)
        if only is None or kept is None or not _mentions_owner(first, second) or (
                _ZH_ONLY_PET.search(second.text)):
            continue
        if pet_kind(only["kind"]) != pet_kind(kept["kind"]):
            return "value"
        name, other = only["name"] or only["name2"], kept["name"] or kept["name2"]
        if name and other and name != other:
            return "name"
    return None


def _zh_car_conflict(a: Claim, b: Claim) -> str | None:
    """One Chinese note says someone has no car, the other names their own by its make."""
    if not (a.zh and b.zh):
        return None
    for first, second in ((a, b), (b, a)):
        if _ZH_NO_CAR.search(first.text) and _ZH_OWN_CAR.search(second.text) and (
                not _ZH_NO_CAR.search(second.text)) and _mentions_owner(first, second):
            return "negation"
    return None


def _medication_features(text: str) -> set[str]:
    """"no_meds" when a text says someone takes no medicine now, "meds" when it says one
    they take as a habit (:func:`_medication_conflict`)."""
    if _NO_MEDS.search(text):
        return {"no_meds"}
    if _TAKES_MEDS.search(text) and (
            _ZH_MEDS_DAILY if _ZH_MEDS_CUE.search(text) else _MEDS_HABIT).search(text):
        return {"meds"}
    return set()


def _one_owner_now(a: Claim, b: Claim) -> bool:
    """Both texts are in one language, of one owner (their first clauses'), and not about
    the past."""
    return a.zh == b.zh and not (a.past or b.past) and bool(
        a.clauses[0].owner and a.clauses[0].owner == b.clauses[0].owner)


def _medication_conflict(a: Claim, b: Claim) -> str | None:
    """No medicine taken now against one taken as a habit, for one owner ("Medication:
    none" / "takes a blood-pressure tablet every morning")."""
    return "negation" if _one_owner_now(a, b) else None


def _routine_conflict(a: Claim, b: Claim) -> str | None:
    """One person's day at hours that cannot both hold ("is up at five every day" /
    "rarely gets out of bed before eleven"): :mod:`~memscope.meaning.routines`."""
    if not _one_owner_now(a, b):
        return None
    return "time" if routines_conflict(
        a.text, b.text) else None


_PLACE_NAME = r"(?:the\s+)?(?P<place>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,2})"
#: "has never been to Japan", "has never set foot in Italy", "never visited Japan"
_NEVER_BEEN = re.compile(r"\b(?:never(?:\s+once|\s+ever)?|(?:is|has)\s+(?:still\s+)?yet\s+to)\s+"
                         r"(?:(?:been|travell?ed|gone|flown|traveled|go|travel|fly)\s+(?:anywhere\s+)?"
                         r"(?:to|in)|set\s+foot\s+in|visit(?:ed)?)\s+"
                         + _PLACE_NAME)
#: "has never left the United States": never anywhere outside it
_NEVER_LEFT = re.compile(r"\bnever\s+(?:left|been\s+outside(?:\s+of)?|set\s+foot\s+outside"
                         r"(?:\s+of)?|(?:lived|resided)\s+(?:anywhere\s+)?outside(?:\s+of)?)\s+"
                         + _PLACE_NAME)
#: not left for years ("hasn't left Argentina in years"): not outside it now either
_NOT_LEFT_FOR = re.compile(r"\b(?:hasn['’]t|has\s+not)\s+left\s+" + _PLACE_NAME
                           + r"(?=\s+(?:in|for)\s+(?:years|ages|decades|a\s+decade|months)\b)")
#: "has never been south of the equator": never in the southern hemisphere
_NEVER_SOUTH = re.compile(r"\bnever\s+(?:been|travell?ed|traveled|gone|flown|set\s+foot|ventured)"
                          r"\s+(?:anywhere\s+)?(?:south|below)\s+(?:of\s+)?the\s+equator\b")
#: "has been to every continent except South America": never there
_ALL_BUT = re.compile(r"\b(?:every|all\s+the|all)\s+continents?\s+(?:but|except)\s+"
                      + _PLACE_NAME)
_ZH_NEVER_BEEN = re.compile(r"(?:从未|从没有?|从来没有?|没有?)(?:去过|到过|踏足过?)"
                            r"(?P<place>[\u3400-\u9fff]{2,6}?)(?=[，。,；;]|$)")
#: 出国 is leaving China (a Chinese text's home country)
_ZH_NEVER_ABROAD = re.compile(r"(?:从未|从没有?|从来没有?|没有?)出过?国")
#: 从来没在浙江生活过: never lived there (so never been there to live)
_EN_NEVER_LIVED = re.compile(r"\bnever\s+(?:once\s+|actually\s+)?lived\s+(?:anywhere\s+)?in\s+"
                             + _PLACE_NAME)
#: not there for a while up to now ("hasn't set foot in Portugal for over a decade")
_EN_NOT_BEEN_FOR = re.compile(r"\b(?:hasn['’]t|has\s+not|haven['’]t)\s+(?:been\s+(?:back\s+)?"
                              r"(?:to|in)|set\s+foot\s+in|visited|returned\s+to)\s+" + _PLACE_NAME
                              + r"\s+(?:for|in|since)\b")
#: a country left for good, or no home there now ("left France for good in 2019", "has no
#: home in Europe now"): no home in a city of it now
_EN_LEFT_FOR_GOOD = re.compile(r"\b(?:left|moved\s+(?:away\s+)?(?:from|out\s+of))\s+"
                               + _PLACE_NAME + r"\s+for\s+good\b")
_EN_NO_HOME_IN = re.compile(r"\bhas\s+no\s+(?:home|flat|house|place|address)\s+(?:left\s+)?in\s+"
                            + _PLACE_NAME + r"(?=\s+(?:now|any\s*more|these\s+days)\b)")
_ZH_NEVER_LIVED = re.compile(r"(?:从未|从没有?|从来没有?|没有?)在(?P<place>[\u3400-\u9fff]{2,6}?)"
                             r"(?:生活|住|居住|定居|待)过")
_ZH_NEVER_LEFT = re.compile(r"(?:从未|从没有?|从来没有?|没有?)离开过"
                            r"(?P<place>[\u3400-\u9fff]{2,6}?)(?=[，。,；;]|$)")
#: a place someone is, was or went ("in Kyoto", "to Venice", "visited Lisbon")
_EN_PLACE = re.compile(r"\b(?:in|on|to|at|near|around|visited|toured|climbed|explored)\s+"
                       + _PLACE_NAME)


#: being in a country: gone, lived, worked or studied there
_IN_COUNTRY = re.compile(r"\b(?:been\s+to|visited|went\s+to|travell?ed\s+to|traveled\s+to|"
                         r"flew\s+to|trip\s+to|holiday(?:ed)?\s+in|vacation(?:ed)?\s+in|"
                         r"lived\s+in|worked\s+in|studied\s+in|moved\s+to)\s+" + _PLACE_NAME)
#: a trip still to come ("is flying to Tokyo in October", "will visit Kyoto"): no visit yet
_TRIP_AHEAD = guarded(re.compile(
    r"\b(?:is|are|['’]s)\s+(?:flying|going|travelling|traveling|heading|off)\s"
    r"|\bwill\s+(?:visit|fly|go|travel|be)\b|\bnext\s+(?:week|month|year|"
    r"spring|summer|autumn|winter|january|february|march|april|may|june|"
    r"july|august|september|october|november|december)\b|\bbooked\b|"
    r"\bplans?\s+to\b|\bplanning\b|下(?:个?月|周|星期)|明年|打算|准备|要去|订了",
    re.I))
#: a text that may deny a visit (cheap: most texts do not)
_TRAVEL_CUE = re.compile(r"never|yet to|continents? (?:but|except)|从未|从没|从来没|"
                         r"没有?(?:去|到|出|离开)|"
                         r"(?:n['’]t|not) (?:been|set foot|visited|returned|left)|for good|"
                         r"only ever lived|"
                         r"no (?:home|flat|house|place|address) ")


@lru_cache(maxsize=50_000)
def _rare_cues(text: str) -> frozenset[str]:
    """Which of the rarer rules a text may take part in as their first side ("travel": it
    may deny a visit; "lifelong": a home for life), read once per text: every pair of a
    large audit asks."""
    return frozenset(name for name, cue in (("travel", _TRAVEL_CUE), ("lifelong", _LIFELONG),
                                            ("kin_gone", _KIN_GONE), ("kin_gone", _ZH_KIN_GONE))
                     if cue.search(text))


_KIN = (r"(?:mother|father|mum|mom|dad|brother|sister|son|daughter|grandmother|grandfather|"
        r"grandma|grandpa|granny|parents|grandparents)")
#: a kin who died ("Sven's mother passed away in 2018", "lost his father last year", "Sven's
#: grandparents have all passed away"), or one not spoken to at all
_KIN_GONE = guarded(re.compile(
    rf"\b(?P<owner>[A-Z][\w-]*)['’]s\s+(?:(?:late|only|older|younger|elder)"
    rf"\s+)?(?P<kin>{_KIN})(?:,?\s+[A-Z][\w-]*,?)?\s+(?:(?:have|has|had)\s+)?"
    rf"(?:all\s+|both\s+)?(?:passed\s+away|died)\b"
    rf"|\b(?P<owner2>[A-Z][\w-]*)\s+lost\s+(?:his|her|their)\s+"
    rf"(?:(?:two|four|both)\s+)?(?P<kin2>{_KIN})\b"
    # "All four of User's grandparents have passed away"
    rf"|\b(?:all|both)\s+(?:(?:two|four)\s+)?of\s+(?P<owner3>[A-Z][\w-]*)['’]s\s+"
    rf"(?P<kin3>{_KIN})\s+(?:have|has)\s+(?:all\s+)?(?:passed\s+away|died)\b"
    # not in touch at all: "hasn't spoken to her grandmother in two years",
    # "is estranged from their mother"
    rf"|\b(?P<owner4>[A-Z][\w-]*)\s+(?:hasn['’]t|has\s+not)\s+(?:spoken|talked)\s+"
    rf"to\s+(?:his|her|their)\s+(?P<kin4>{_KIN})\s+(?:in|for|since)\b"
    rf"|\b(?P<owner5>[A-Z][\w-]*)\s+is\s+estranged\s+from\s+(?:his|her|their)\s+"
    rf"(?P<kin5>{_KIN})\b"))
#: a kin's day spent with them ("in Durban for her dad's 70th birthday party")
_KIN_DAY = re.compile(r"\b(?:for|at|to|celebrating)\s+(?:his|her|their)\s+(?P<kin>" + _KIN
                      + r")['’]s\s+(?:\d+\w*\s+)?(?:birthday|anniversary|retirement|party)",
                      re.I)
#: the kin a word of several stands for ("grandparents": a grandmother and a grandfather)
_KIN_GROUPS = {"parents": ("mother", "father"), "grandparents": ("grandmother", "grandfather")}
#: time spent with a kin now ("visits his mother every Sunday", "calls her dad daily")
_WITH_KIN = re.compile(r"\b(?:visits|visiting|calls|phones|rings|sees|meets|lives\s+with|"
                       r"has\s+(?:\w+\s+)?(?:lunch|dinner|breakfast|coffee)\s+with|cooks\s+for|"
                       r"takes\s+care\s+of|looks\s+after|drives|with|party\s+for)\s+"
                       r"(?:(?:his|her|their)\s+(?!late\b)(?:(?:\w+\s+)?)|"
                       r"(?=(?:mum|mom|dad|grandma|granny|grandpa)\b))"
                       r"(?P<kin>" + _KIN + r")\b(?!['’]s)", re.I)
#  (not "visits his father's grave", "with her late mother")


#: one kin by its other words ("mum" is the mother)
_ONE_KIN = {"mum": "mother", "mom": "mother", "dad": "father", "grandma": "grandmother",
            "granny": "grandmother", "grandpa": "grandfather"}


#: a Chinese kin who died (用户的母亲前年去世了), and time spent with them now (陪她妈去公园)
_ZH_KIN_WORDS = {"母亲": "mother", "妈妈": "mother", "妈": "mother", "父亲": "father",
                 "爸爸": "father", "爸": "father", "爷爷": "grandfather", "奶奶": "grandmother",
                 "外公": "maternal grandfather", "外婆": "maternal grandmother",
                 "父母": "parents", "爸妈": "parents"}
_ZH_KIN_ALTS = "|".join(sorted(_ZH_KIN_WORDS, key=len, reverse=True))
_ZH_KIN_GONE = re.compile(rf"^(?P<owner>用户|[\u4e00-\u9fff]{{2,3}}?)的(?P<kin>{_ZH_KIN_ALTS})"
                          r"[^，。,；;]{0,10}?(?:去世|过世|离世|病逝)")
_ZH_WITH_KIN = re.compile(rf"(?:陪|看望|照顾|给|跟|和)(?:她|他)?的?(?P<kin>{_ZH_KIN_ALTS})"
                          r"(?![^，。,；;]{0,4}(?:墓|坟|遗像))")


def _zh_kin_gone(a: Claim, b: Claim) -> bool:
    """One Chinese note says its owner's mother (father …) died, the other that the owner
    spends time with her now (:func:`_kin_gone_conflict`)."""
    for first, second in ((a, b), (b, a)):
        gone = _ZH_KIN_GONE.search(first.text)
        if gone is None:
            continue
        kin = _ZH_KIN_WORDS[gone["kin"]]
        if any(y.owner == (gone["owner"],) and not (y.past or y.hedged) and any(
                _ZH_KIN_WORDS[m["kin"]] == kin for m in _ZH_WITH_KIN.finditer(y.text))
               for y in second.clauses):
            return True
    return False


def _latest_birth(y: Clause) -> int | None:
    """The latest year its owner can have been born in, by the year of birth or the age a
    clause gives them (None when it gives neither)."""
    for f in y.facts:
        if f.of:
            continue
        if f.key == "birthday" and (year := dict(f.date).get("y")):
            return year
        if f.key == "age" and (span := age_span(f.first)) is not None:
            return datetime.now(UTC).year - span[0]
    return None


def _lifetime_conflict(a: Claim, b: Claim) -> str | None:
    """One text says its owner lived through a public event (saw it as it happened, or
    served in it) and the other gives them a year of birth or an age too late for it
    ("remembers watching the moon landing live" / "was born in 1990";
    :mod:`~memscope.meaning.events`)."""
    for first, second in ((a, b), (b, a)):
        for x in first.clauses:
            seen = witnessed(x.text) if x.owner and not x.hedged else None
            if seen is None:
                continue
            for y in second.clauses:
                if y.owner == x.owner and (born := _latest_birth(y)) is not None and (
                        born_too_late(born, seen)):
                    return "lifetime"
    return None


#: a sight seen from home or passed every day ("can see the Eiffel Tower from her balcony",
#: "her flat overlooks the Thames", "commute on the Tube", 从她家阳台就能看到东方明珠)
_NEAR_HOME = re.compile(r"\b(?:balcony|window|windows|front\s+door|overlooks?|overlooking|"
                        r"minute\s+(?:walk|stroll)|walks?\s+past|commute|commutes|every\s+"
                        r"(?:day|morning)|from\s+(?:her|his|their|my)\s+(?:flat|house|home|desk|"
                        r"bedroom|office))\b|阳台|窗|家门口|路过|上班|通勤|每天", re.I)


def _sight_conflict(a: Claim, b: Claim) -> str | None:
    """One text says its owner lives in one country (or Chinese province) and the other
    that they see a sight of a city in another from home, or pass it every day ("lives in
    Sydney" / "can see the Eiffel Tower from her balcony"; 住在广州 / 每天上班都路过天安门).
    Two cities of one country are left alone (a river runs through many)."""
    for first, second in ((a, b), (b, a)):
        if "sight" not in features(first):
            continue
        for x in first.clauses:
            seen = sights(x.text) if x.owner and _NEAR_HOME.search(x.text) else ()
            if not seen:
                continue
            for y in second.clauses:
                if y.owner == x.owner and not (y.past or y.hedged) and any(
                        f.key == "home" and not f.of and f.first and _far(f.first, seen[0])
                        for f in y.facts):
                    return "place"
    return None


#: snow or a deep frost where someone lives ("shovels snow off his driveway", "builds a
#: snowman outside her house", 家门口堆雪人, 他住的地方冬天零下二十几度, 家乡每年冬天都下大雪)
_SNOW_AT_HOME = guarded(re.compile(
    r"\b(?:shovel(?:s|led|ling|ing)?|clears?|clearing)\s+(?:the\s+)?snow\b|\bsnowm[ae]n\s+"
    r"(?:in|outside|in front of)\s+(?:the|her|his|their)\s+(?:garden|house|yard|home|front)|"
    r"\bsnowed in\b|\b(?:minus|−|-)\s?(?:1[5-9]|[2-5]\d)\s?(?:°|degrees)|"
    r"(?:家门口|院子里?|小区|楼下|家乡|老家|家那边|住的地方)[^，。,；;]{0,12}"
    r"(?:堆雪人|扫雪|铲雪|下(?:大)?雪|零下)|"
    r"(?:住的地方|家那边|家乡|老家)[^，。,；;]{0,8}冬天[^，。,；;]{0,8}(?:零下|下(?:大)?雪)", re.I))
#: no snow and no cold where someone lives (老家冬天从不下雪, "it never snows where she lives")
_NO_SNOW_AT_HOME = re.compile(r"(?:老家|家乡|住的地方|家那边)[^，。,；;]{0,8}"
                              r"(?:从不|从来不|从没)下(?:过)?雪|"
                              r"\bnever snows\b|\bhas never seen snow\b")
#: where someone's home is, besides a home fact: 三亚本地人, 在三亚长大, 老家在哈尔滨 (a hometown,
#: which 家乡 and 老家 speak of; not "is from Oslo", a home once, with snow now elsewhere)
_HOME_PLACE = re.compile(r"(?P<a>[\u4e00-\u9fff]{2,4}?)本地人|在(?P<b>[\u4e00-\u9fff]{2,4}?)长大|"
                         r"(?:老家|家乡)(?:在|是)(?P<c>[\u4e00-\u9fff]{2,4})")
#: the tropics: no city there has snow or a deep frost
TROPICS = 23.5


def _homes(c: Claim, owner: tuple[str, ...]) -> set[str]:
    """The places ``c`` says ``owner`` lives in, or (in Chinese) grew up in."""
    out = {f.first for y in c.clauses if y.owner == owner and not y.hedged
           for f in y.facts if f.key == "home" and not f.of and f.first}
    for y in c.clauses:
        if y.owner == owner:
            out.update(g for m in _HOME_PLACE.finditer(y.text) for g in m.groups() if g)
    return out


def _climate_conflict(a: Claim, b: Claim) -> str | None:
    """Snow or a deep frost at home against a home in the tropics, or snow at Christmas
    against one in the southern hemisphere ("lives in Singapore" / "shovels snow off his
    driveway most winter mornings", 住在海口 / 家那边冬天经常零下二十度, 住在悉尼 / 每年圣诞都在
    家门口堆雪人); no snow at home ever against a home far north or south (哈尔滨 /
    老家冬天从不下雪)."""
    for first, second in ((a, b), (b, a)):
        owner = first.clauses[0].owner
        if not owner or not _mentions_owner(first, second):
            continue
        snow, warm = _SNOW_AT_HOME.search(first.text), _NO_SNOW_AT_HOME.search(first.text)
        if not (snow or warm):
            continue
        christmas = re.search(r"Christmas|圣诞", first.text) is not None
        for home in _homes(second, owner):
            lat = latitude(home)
            if lat is None:
                continue
            if snow and (abs(lat) < TROPICS or (christmas and lat < -TROPICS)):
                return "place"
            if warm and abs(lat) > 40:
                return "place"
    return None


#: studying at a university named ("did his undergrad at MIT", 本科毕业于清华大学, 正在清华读本科)
_AT_UNIVERSITY = guarded(re.compile(
    r"\b(?:studied|studies|is studying|graduated|did (?:his|her|their) "
    r"(?:undergrad|degree|PhD|masters?|master['’]s|MBA|BA|BSc)|went|enrolled|got "
    r"(?:his|her|their) (?:degree|PhD|BA|BSc|MA|MSc))\b[^.;]{0,30}?"
    r"\b(?:at|from)\b|毕业于|(?:读|念|上)的是|本科|硕士|博士|研究生|在读|考上",
    re.I))
#: where someone spent their university years, or studies now (大学四年都在长沙度过, 在上海读
#: 大学, "studied in Lyon")
_STUDIED_IN = re.compile(r"大学(?:四年|那几年|期间|时)?[^，。,；;]{0,6}?在"
                         r"(?P<a>[\u4e00-\u9fff]{2,4}?)(?:度过|读书|上学|念书|读的)|在(?P<b>[\u4e00-\u9fff]{2,4}?)(?:读大学|读本科|"
                         r"上大学|念大学)|\b(?:studied|went to (?:university|college)|was at "
                         r"university) in (?P<c>[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)?)"
                         # "has never studied outside Italy": all of it there
                         r"|\bnever studied (?:anywhere )?outside (?:of )?(?:the )?"
                         r"(?P<d>[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)?)")
#: a country someone never studied in ("has never studied in the US")
_NEVER_STUDIED = re.compile(r"\bnever studied (?:in|abroad in) (?:the )?(?P<c>[A-Z][\w'’-]+"
                            r"(?: [A-Z][\w'’-]+)?)")


#: a city name two countries' well-known cities share
_TWO_COUNTRIES = frozenset(("cambridge", "perth", "london", "birmingham", "manchester"))


def _study_places(c: Claim, owner: tuple[str, ...]) -> tuple[set[str], set[str], set[str]]:
    """The cities of the universities ``c`` says ``owner`` studied at, the places it says
    they spent their university years in, and the countries they never studied in."""
    unis: set[str] = set()
    spent: set[str] = set()
    never: set[str] = set()
    for y in c.clauses:
        if y.owner != owner or y.hedged:
            continue
        if _AT_UNIVERSITY.search(y.text):
            unis.update(universities(y.text))
        spent.update(g.lstrip("在").removesuffix("市") for m in _STUDIED_IN.finditer(y.text)
                     for g in m.groups() if g and not universities(g))
        never.update(m["c"] for m in _NEVER_STUDIED.finditer(y.text))
    return unis, spent, never


def _university_conflict(a: Claim, b: Claim) -> str | None:
    """A university named against the years someone studied in another city, or against
    a country they never studied in ("did his undergrad at MIT" / "has never studied in the
    US"; 本科毕业于清华大学 / 大学四年全在上海度过): the university's city (common knowledge,
    :data:`~memscope.meaning.places.UNIVERSITIES`). English places are told apart by their
    country (Harvard is in Cambridge, Massachusetts), Chinese cities by name; two
    universities are two degrees (本科在南京大学 / 硕士在复旦)."""
    owner = a.clauses[0].owner
    if not owner or owner != b.clauses[0].owner:
        return None
    read_a, read_b = _study_places(a, owner), _study_places(b, owner)
    for (unis, _spent, _never), (_unis, spent, never) in ((read_a, read_b), (read_b, read_a)):
        for uni in unis:
            there = city_country(uni)
            if any(country(n) == there for n in never):
                return "place"
            for place in spent:
                if _HAN.search(uni) and _HAN.search(place):
                    if place != uni and city_country(place) and place not in uni:
                        return "place"
                elif place.lower() in _TWO_COUNTRIES:
                    continue  # Cambridge: England's, and Harvard's in Massachusetts
                elif (here := city_country(place) or _country_whole(place)) and there and \
                        here != there:
                    return "place"
    return None


def _far(home: str, city: str) -> bool:
    """``home`` (a city or a country) is in another country than ``city``, or for two
    cities of China, in another province."""
    if _HAN.search(city):
        here, there = city_region(home), city_region(city)
        if here and there:
            return here != there
    here, there = city_country(home), city_country(city)
    return bool(here and there and here != there.split(".")[0])


#: a child of one's, in Chinese (闺女 is a daughter, 孩子 / 小孩 / 娃 any child)
_ZH_CHILDREN = {"女儿": "d", "闺女": "d", "独生女": "d", "儿子": "s", "独生子": "s", "孩子": "",
                "小孩": "", "娃": ""}
_ZH_CHILD = re.compile("|".join(sorted(_ZH_CHILDREN, key=len, reverse=True)))
#: a child's stage of life, first to last: a baby, kindergarten, primary, middle and high
#: school, university, a working life (N岁 too: :func:`_zh_stage`)
_ZH_LIFE_STAGES = tuple(re.compile(p) for p in (
    r"早教|刚出生|刚满月|还在吃奶|襁褓",
    r"幼儿园|托儿所",
    r"小学|[一二三四五六]年级",
    r"初中|初[一二三](?![次])|中考",
    r"高中|高[一二三](?![兴度])|高考",
    r"(?<!没考上)(?<!没上)(?:大学|大[一二三四]|读研|研究生|读博|本科)(?!毕业)",
    r"大学毕业|(?:本科|研究生)毕业|毕业了|(?:参加|已经)工作|上班|在.{1,8}(?:当|做)"
    r"(?:会计|医生|老师|护士|律师|工程师)"))
_ZH_CHILD_AGE = re.compile(r"(\d{1,2}|[一二两三四五六七八九十]{1,3})岁")


def _zh_stage(text: str) -> int | None:
    """The stage of life a Chinese sentence gives a child (:data:`_ZH_LIFE_STAGES`' index, an
    age read as the usual stage at it), or ``None``."""
    found = [n for n, p in enumerate(_ZH_LIFE_STAGES) if p.search(text)]
    if found:
        return found[-1]  # 高三，马上要高考了 / 大学毕业在上班: the latest it names
    m = _ZH_CHILD_AGE.search(text)
    age = _zh_int(m.group(1)) if m else None
    if age is None:
        return None
    return next(n for n, top in enumerate((2, 5, 11, 14, 17, 22, 200)) if age <= top)


def _zh_child_stages(c: Claim) -> dict[str, int]:
    """The stage of each child a Chinese text speaks of ("d", "s" or "" for a child of
    either kind): read in the sentence after the child's word, up to its end."""
    out: dict[str, int] = {}
    for m in _ZH_CHILD.finditer(c.text):
        end = c.text.find("。", m.end())
        stage = _zh_stage(c.text[m.end():end if end >= 0 else None])
        if stage is not None:
            out.setdefault(_ZH_CHILDREN[m.group(0)], stage)
    return out


#: "has one son, Bao, and no other children": the one is the only child
_EN_NO_OTHER = re.compile(r"\bno other (?:children|kids)\b", re.I)
#: what an only child is, said after it ("…, a son", "… is a boy of six"; the claim's text
#: may say it as "Tobias has one child; Tobias's child is a boy of six")
_EN_KIND = re.compile(r"(?:[,:]|\bis)\s+(?:an?|the)\s+(?:[\w-]+\s+){0,2}"
                      r"(?P<k>son|boy|daughter|girl)\b")
_EN_CHILDREN = {"child": "", "kid": "", "daughter": "d", "girl": "d", "son": "s", "boy": "s"}
_EN_CHILD = re.compile(r"\b(?:child|kid|daughter|son|boy|girl)s?\b", re.I)
#: a child's stage of life, first to last (as :data:`_ZH_LIFE_STAGES`)
_EN_LIFE_STAGES = tuple(re.compile(p, re.I) for p in (
    r"\b(?:baby|newborn|infant|toddler)\b",
    r"\b(?:nursery|pre-?school|kindergarten|reception class)\b",
    r"\b(?:primary|elementary) school\b|\bYear [1-6]\b|\bgrade [1-5]\b"
    r"|\b(?:first|second|third|fourth|fifth) grade\b",
    r"\b(?:middle|secondary) school\b|\bjunior high\b|\bYear [7-9]\b|\bgrade [6-8]\b",
    r"\bhigh school\b|\bsixth form\b|\bYear 1[0-3]\b|\bgrade (?:9|1[0-2])\b|\bA-levels\b",
    r"\b(?:university|college|uni)\b(?! degree)|\bundergrad|\bfreshman\b|\bsophomore\b",
    r"\bgraduated\b|\bworks as\b|\bworking as\b|\bhas kids of (?:his|her) own\b"))
#: someone's daughter or son ("Ewa's daughter")
_EN_KIN_OF = re.compile(r"['’]s\s+(?:daughter|son)\b")
#: a child's age ("3yo", "a three-year-old", "is twelve"; numbers as claim_text reads them)
_EN_CHILD_AGE = guarded(re.compile(
    rf"\b{_N}(?:\s?yo\b|[- ]years?[- ]old\b|-year-old\b)|\b(?:is|turned|turns|aged)\s+{_N}"
    r"\b(?!\s*(?:%|percent|minutes|hours|days|weeks|months|km|miles|kg|cm))", re.I))
#: several children: "three children", "a mother of three", "two kids"
_EN_SEVERAL = re.compile(r"\b(?:two|three|four|five|six|seven|[2-9])\s+(?:children|kids|sons|"
                         r"daughters)\b|\b(?:mother|father|mum|mom|dad|parent)\s+of\s+"
                         r"(?:two|three|four|five|six|[2-9])\b|\bboth (?:of )?(?:his|her|their) "
                         r"(?:children|kids)\b", re.I)


def _en_stage(text: str) -> int | None:
    """The stage of life an English sentence gives a child (:data:`_EN_LIFE_STAGES`' index, or an
    age read as the usual stage at it), or ``None``."""
    found = [n for n, p in enumerate(_EN_LIFE_STAGES) if p.search(text)]
    if found:
        return found[-1]
    age = _en_age(text)
    if age is None:
        return None
    return next(n for n, top in enumerate((2, 4, 10, 13, 17, 22, 200)) if age <= top)


def _en_age(text: str) -> int | None:
    """The age an English sentence gives (``3yo``, "is twelve", "a three-year-old")."""
    m = _EN_CHILD_AGE.search(text)
    age = _number(next((g for g in m.groups() if g), "")) if m else ""
    return int(age) if age.isdigit() else None


def _en_per_child(text: str, read: Callable[[str], int | None]) -> dict[str, int]:
    """What ``read`` finds (a stage of life, an age) for each child an English text speaks
    of ("d", "s" or "" for either kind), read in the sentence that names the child."""
    out: dict[str, int] = {}
    for m in _EN_CHILD.finditer(text):
        start = max(text.rfind(".", 0, m.start()) + 1, 0)
        end = text.find(".", m.end())
        found = read(text[start:end if end >= 0 else None])
        if found is not None:
            out.setdefault(_EN_CHILDREN[m.group(0).lower().rstrip("s")], found)
    return out


def _en_child_conflict(a: Claim, b: Claim) -> str | None:
    """One English text says someone has one child (or one daughter, one son), the other
    that they have several children, that a child of the other kind is theirs, or gives that
    child a stage of life two or more from the first's ("Ewa's only child is a three-year-old
    boy" / "Ewa's daughter started university"; "Théo … is Camille's only child" / "Camille
    is a mother of three"). The other text must name the same person."""
    for first, second in ((a, b), (b, a)):
        only = EN_ONLY_CHILD.search(first.text)
        if only is None:
            continue
        owner = only["o1"] or only["o2"] or only["o3"] or only["o4"]
        if re.search(rf"\b{re.escape(owner)}\b", second.text, re.I) is None:
            continue
        word = (only["k1"] or only["k2"] or only["k3"] or only["k4"]).lower()
        kind = _EN_CHILDREN[word]
        if only["k4"] or _EN_NO_OTHER.search(first.text):
            word = "child"  # "Olga's daughter is her only child", "… and no other children"
        said = _EN_KIND.search(first.text[only.end():].split(".")[0][:80])
        if not kind and said:
            kind = _EN_CHILDREN[said["k"].lower()]
        theirs = _en_per_child(second.text, _en_stage)
        if word in ("child", "kid") and (_EN_SEVERAL.search(second.text) or (kind and (
                any(k and k != kind for k in theirs) or re.search(
                    rf"\b{re.escape(owner)}['’]s\s+{'daughter' if kind == 's' else 'son'}\b",
                    second.text, re.I)))):
            return "value"  # several children; an only child who is a son, and a daughter
        here = _en_per_child(first.text, _en_stage)
        mine = here.get(kind, here.get(""))
        if mine is not None and any(abs(mine - v) >= 2 for k, v in theirs.items()
                                    if not kind or not k or k == kind):
            return "value"
        ages, other = (_en_per_child(first.text, _en_age),
                       _en_per_child(second.text, _en_age))
        age = ages.get(kind, ages.get(""))
        if age is not None and any(abs(age - v) >= 2 for k, v in other.items()
                                   if not kind or not k or k == kind):
            return "value"  # "one daughter, Zoe, who is 3yo" / "Zoe is 10"
    return None


def _child_stage_conflict(a: Claim, b: Claim) -> str | None:
    """One text says its owner has one child, the other gives that child a stage of life
    two or more stages from the first's (徐明只有一个女儿，今年六岁 / 徐明的闺女已经上大学了;
    用户的女儿今年高三 / 用户只有一个女儿，已经大学毕业在上班了; English:
    :func:`_en_child_conflict`). Of two children, each may be anywhere; one stage apart may
    be a year that passed between the two notes."""
    if a.zh != b.zh:
        return None
    if not a.zh:
        return _en_child_conflict(a, b)
    for first, second in ((a, b), (b, a)):
        only = ZH_ONLY_CHILD.search(first.text)
        if only is None or not _mentions_owner(first, second):
            continue
        kind = {"女": "d", "子": "s"}.get(only["b"] or "", "") or _ZH_CHILDREN.get(
            only["a"] or only["c"] or "", "")
        here, there = _zh_child_stages(first), _zh_child_stages(second)
        mine = here.get(kind, here.get(""))
        theirs = [v for k, v in there.items() if not kind or not k or k == kind]
        if mine is not None and any(abs(mine - v) >= 2 for v in theirs):
            return "value"
    return None


#: someone's parents parted, or one of them widowed ("Mina's parents divorced when she was
#: twelve", "User's mum is widowed"), and together now ("have been happily married for 40
#: years", "are celebrating their 40th wedding anniversary")
_PARENTS_APART = re.compile(
    r"\b(?P<o>[A-Z][\w-]*)['’]s\s+(?:parents|mum and dad|mom and dad|mother and father)\s+"
    r"(?:(?:are|were|got|have|had)\s+)?(?:been\s+)?(?:divorced|separated|split\s+up|broke\s+up)\b"
    r"|\b(?P<o2>[A-Z][\w-]*)['’]s\s+(?:mum|mom|mother|dad|father)\s+(?:is|was\s+left)\s+"
    r"(?:a\s+)?widow(?:ed|er)?\b")
_PARENTS_TOGETHER = re.compile(
    r"\b(?P<o>[A-Z][\w-]*)['’]s\s+(?:parents|mum and dad|mom and dad|mother and father)\s+"
    r"(?:are\s+still\s+(?:married|together)|have\s+been\s+(?:\w+\s+)?married\s+for"
    r"|(?:are\s+)?celebrating\s+their\s+(?:\d+\w*\s+)?(?:wedding\s+)?anniversary"
    r"|(?:have\s+)?never\s+(?:separated|divorced|split))", re.I)


#: one's marriage to someone ended ("Divorced from Marco in 2020", "divorced Marco"), and
#: one's marriage to them now ("married to Marco", "15 years of marriage with husband Marco",
#: "her husband Marco"; not a late or a former one)
_DIVORCED_FROM = re.compile(r"\bdivorced\s+(?:from\s+)?(?P<name>[A-Z][\w-]+)")
_MARRIED_TO = guarded(re.compile(
    r"\bmarried\s+to\s+(?P<name>[A-Z][\w-]+)|(?<!late )(?<!former )"
    r"(?<!ex-)\b(?:husband|wife|spouse)\s+(?P<name2>[A-Z][\w-]+)"))


_FORMER = re.compile(r"\b(?:ex-|former|late|divorced|used to|was married|were married)", re.I)


def _divorced_conflict(a: Claim, b: Claim) -> str | None:
    """One text says its owner divorced someone, the other that they are married to that
    person now ("Divorced from Marco in 2020" / "Celebrating 15 years of marriage with
    husband Marco next month")."""
    if a.zh or b.zh or not a.subject or a.subject[:1] != b.subject[:1]:
        return None
    for first, second in ((a, b), (b, a)):
        gone = {m["name"] for m in _DIVORCED_FROM.finditer(first.text)}
        now = {m["name"] or m["name2"] for m in _MARRIED_TO.finditer(second.text)
               } if not _FORMER.search(second.text) else set()
        if gone & now:
            return "negation"
    return None


#: a pet of before ("her previous cat", "the late Rex", "died in 2021")
_PET_GONE = re.compile(r"\b(?:previous|late|former|old|first|childhood)\s+(?:[\w-]+\s+)?"
                       r"(?:pet|dog|cat|rabbit|hamster)s?\b|\b(?:died|passed away|put down|"
                       r"put to sleep|rehomed)\b", re.I)


def _pet_named_conflict(a: Claim, b: Claim) -> str | None:
    """One pet of one owner, by its name, is a dog in one text and a cat in the other ("has a
    golden retriever named Biscuit" / "Biscuit, the user's tabby cat, …"; "Pet Miso is a
    tabby cat" / "Miso, the family pet, is a beagle"): both texts of one owner, or one
    about the pet itself. Or one's only pet (or dog) by one name and one of the same kind by
    another ("Finn's dog is called Biscuit" / "Rolo is the only dog Finn has ever owned")."""
    pa, pb = named_pets(a.text), named_pets(b.text)
    # ("The family dog, Biscuit, …" is the user's)
    heads = tuple("user" if h == "family" else h for h in (*a.subject[:1], *b.subject[:1]))
    if any(name in pb and other_pets(kind, pb[name])
           and (heads[:1] == heads[1:] or name.lower() in heads) for name, kind in pa.items()):
        return "value"
    # one's only pet (or dog) by one name, another pet (of the same kind) by another
    only = ONLY_PET.search(a.text) or ONLY_PET.search(b.text)
    any_kind = only is not None and only.group(0).split()[-1].lower() in ("pet", "animal")
    if _PET_GONE.search(a.text) or _PET_GONE.search(b.text):
        return None  # "User's previous cat, Tofu, died in 2021": no pet of now
    return "value" if only and pa and pb and not set(pa) & set(pb) and (
        _mentions_owner(a, b) or _mentions_owner(b, a)) and (any_kind or any(
            pet_kind(x) == pet_kind(y) for x in pa.values() for y in pb.values())) else None


def _managers(c: Claim) -> list[tuple[str, str]]:
    """(whose, who manages them) by first names, for one person's managers a claim names
    (:attr:`~memscope.meaning.reading.Claim.managers`; not "User's sister's boss")."""
    return [(whose[0], boss) for whose, boss in c.managers if len(whose) == 1]


def _each_others_manager(a: Claim, b: Claim) -> str | None:
    """Each of two people the other's manager ("Wanjiru's manager is David Otieno" / "David
    Otieno reports to Wanjiru"; "Dmitri is the user's line manager" / "Dmitri reports
    directly to the user")."""
    inverse = {(boss, whose) for whose, boss in _managers(b)}
    return "reports" if any(pair in inverse and pair[0] != pair[1]
                            for pair in _managers(a)) else None


#: someone never managed by a person ("has never worked under Raj Patel", "never reported to
#: Tom")
_NEVER_UNDER = re.compile(r"\b(?:never|not)\s+(?:once\s+|ever\s+)?(?:worked\s+(?:directly\s+)?"
                          r"under|reported\s+(?:directly\s+)?to|been\s+managed\s+by)\s+"
                          r"(?P<name>[A-Z][\w-]*)")


def _never_under_conflict(a: Claim, b: Claim) -> str | None:
    """One note names someone's manager, the other says they never worked under them
    ("Olivia's line manager is Raj Patel" / "Olivia has never worked under Raj Patel")."""
    for first, second in ((a, b), (b, a)):
        bosses = set(_managers(second))
        for x in first.clauses:
            if x.owner and len(x.owner) == 1 and not x.past and any(
                    (x.owner[0], m.group("name").lower()) in bosses
                    for m in _NEVER_UNDER.finditer(x.text)):
                return "negation"
    return None


def _sibling_order_conflict(a: Claim, b: Claim) -> str | None:
    """One sibling, by name, older in one note and younger in the other ("Brother Sam is
    older than the user" / "Sam is the user's younger brother")."""
    oa, ob = sibling_order(a.text), sibling_order(b.text)
    return "value" if any(ob.get(name, rel) != rel for name, rel in oa.items()) else None


def _parents_conflict(a: Claim, b: Claim) -> str | None:
    """One text says someone's parents parted (or one of them is widowed), the other that
    they are together now ("Mina's parents divorced" / "Mina's parents have been happily
    married for 40 years")."""
    for first, second in ((a, b), (b, a)):
        apart, together = _PARENTS_APART.search(first.text), _PARENTS_TOGETHER.search(
            second.text)
        if apart and together and (apart["o"] or apart["o2"]).lower() == together["o"].lower():
            return "negation"
    return None


def _kin_gone_conflict(a: Claim, b: Claim) -> str | None:
    """One text says its owner's mother (father, son …) died, the other that they spend
    time with her now ("Sven's mother passed away in 2018" / "Sven visits his mother at her
    house every Sunday"; 用户的母亲前年去世了 / 用户每个周日都陪她妈去公园)."""
    if a.zh or b.zh:
        return "negation" if a.zh == b.zh and _zh_kin_gone(a, b) else None
    for first, second in ((a, b), (b, a)):
        gone = _KIN_GONE.search(first.text)
        if gone is None:
            continue
        owner = next(v for k, v in gone.groupdict().items() if k.startswith("owner") and v)
        owner = owner.lower()
        kin = next(v for k, v in gone.groupdict().items() if k.startswith("kin") and v).lower()
        kin = _ONE_KIN.get(kin, kin)
        kins = _KIN_GROUPS.get(kin, (kin,))
        for y in second.clauses:  # (a plan with them says they are alive as well)
            if y.owner == (owner,) and not y.past and any(
                    _ONE_KIN.get(k := m["kin"].lower(), k) in kins
                    for pattern in (_WITH_KIN, _KIN_DAY) for m in pattern.finditer(y.text)):
                return "negation"
    return None


def _places_in(y: Clause) -> tuple[str, ...]:
    """The countries of the cities (or the countries) a clause puts its owner in."""
    if y.claim.zh:
        return zh_places(y.text)
    out: list[str] = []
    for m in _EN_PLACE.finditer(y.text):
        words = re.sub(r"['’]s\b", "", m.group("place")).split()  # "Lisbon's Alfama district"
        code = next((c for n in range(len(words), 0, -1)
                     if (c := city_country(" ".join(words[:n]))) is not None), None)
        if code:
            out.append(code)
    # a country one went to ("has been to Japan three times", "did her master's in France")
    out += [code for m in _IN_COUNTRY.finditer(y.text)
            if (code := _country_whole(m.group("place"))) is not None]
    # a sight is where it stands ("a bike tour over the Golden Gate Bridge": the US)
    out += [code for city in sights_visited(y.text) if (code := city_country(city)) is not None]
    return tuple(out)


def _travel_denied(x: Clause) -> tuple[frozenset[str], frozenset[str]]:
    """The countries ``x`` says its owner has never been to, and the one it says they have
    never left."""
    text = x.text
    if x.claim.zh:
        never = {c for m in _ZH_NEVER_BEEN.finditer(text)
                 if (c := country(m.group("place")) or region(m.group("place")))}
        never |= {c for m in _ZH_NEVER_BEEN.finditer(text) for c in continent(m.group("place"))}
        # 出国 is leaving the mainland: 去过香港和澳门 is no going abroad in its words
        home = {"CN", "HK", "MO", "TW"} if _ZH_NEVER_ABROAD.search(text) else set()
        for m in _ZH_NEVER_LEFT.finditer(text):  # 从来没离开过亚洲 / 中国
            place = m.group("place")
            home |= set(continent(place)) or ({c} if (c := country(place)) else set())
        return frozenset(never), frozenset(home)
    never = {c for m in _NEVER_BEEN.finditer(text) if (c := _country_whole(m.group("place")))
             and not _FOR_SOME_REASON.match(text, m.end())}
    left = {c for never in (_NEVER_LEFT, _NOT_LEFT_FOR) for m in never.finditer(text)
            if (c := _country_whole(m.group("place")))}
    # a continent is its countries ("has never travelled to Asia", "never left Europe")
    never |= {c for m in _NEVER_BEEN.finditer(text) for c in continent(m.group("place"))}
    left |= {c for m in _NEVER_LEFT.finditer(text) for c in continent(m.group("place"))}
    never |= {c for m in _ALL_BUT.finditer(text) for c in continent(m.group("place"))}
    if _NEVER_SOUTH.search(text):
        never |= continent("southern hemisphere")
    return frozenset(never), frozenset(left)


#: parts of a country its code stands for whole ("has never been to Scotland" says nothing
#: of London)
_PARTS = frozenset(("scotland", "wales", "england", "northern ireland"))


def _country_whole(name: str) -> str | None:
    """The ISO code of the country ``name`` names, unless it names only a part of one."""
    return None if name.strip().lower() in _PARTS else country(name)


def _travel_conflict(a: Claim, b: Claim) -> str | None:
    """One text says its owner has never been to a country (or never left one) and the
    other puts them in a city there (or outside it): "has never been to Japan" / "spent
    two weeks in Kyoto", 从没出过国 / 去年在巴黎做了一年交换生
    (:mod:`~memscope.meaning.places`)."""
    for first, second in ((a, b), (b, a)):
        if "travel" not in _rare_cues(first.text):
            continue
        for x in first.clauses:
            never, home = _travel_denied(x) if x.owner else (frozenset(), frozenset())
            cities = _cities_denied(x) if x.owner else frozenset()
            if not never and not home and not cities:
                continue
            for y in second.clauses:
                if y.owner != x.owner or y.hedged or y.denials or y.claim.sign < 0 or (
                        _TRIP_AHEAD.search(y.text)):
                    continue
                if any(c in never or (home and c.split(".")[0] not in home)
                       for c in _places_in(y)):
                    return "negation"
                if cities & {m.group("place").casefold() for m in _EN_PLACE.finditer(y.text)}:
                    return "negation"  # "has never been to Rome" / "went to Rome in 2019"
    return None


def _never_lived_conflict(a: Claim, b: Claim) -> str | None:
    """One note says its owner never lived in a province or country (or has not been there
    for years, left it for good, has no home there now), the other that they live in a city
    of it (从来没在浙江生活过 / 住在杭州; "has never lived anywhere in France" / "lives in Lyon";
    "hasn't set foot in Portugal for over a decade" / "has lived in Porto since 2019"; "left
    France for good" / "lives in Lyon"); a visit is no home (去广州出差). Never having lived
    somewhere at all also rules out years spent there once ("has never lived in Kreuzberg" /
    "spent six years in a Kreuzberg apartment"), and so do never having lived in a half of
    the world or anywhere but one place ("has never lived north of the equator" / "lives in
    Accra"; "has never lived anywhere except Kraków" / "spent four years working in
    Dublin")."""
    if a.zh != b.zh:
        return None
    for first, second in ((a, b), (b, a)):
        for x in first.clauses:
            if x.owner and any(_lives_or_lived(second, x.owner, where, years=years)
                               for where, years in _never_lived_in(x)):
                return "negation"
    return None


def _never_lived_in(x: Clause) -> list[tuple[Callable[[str], bool], bool]]:
    """Where a clause says its owner never lived (or does not now), as tests of a place
    named elsewhere, each with whether years spent there once count against it too."""
    zh = x.claim.zh
    patterns = (_ZH_NEVER_LIVED,) if zh else (_EN_NEVER_LIVED, _EN_NOT_BEEN_FOR,
                                              _EN_LEFT_FOR_GOOD, _EN_NO_HOME_IN)
    out: list[tuple[Callable[[str], bool], bool]] = []
    for never in patterns:
        ever = never is _EN_NEVER_LIVED
        for place in (m.group("place") for m in never.finditer(x.text)):
            out.append((lambda p, place=place, ever=ever: within(p, place) or (
                ever and p.casefold() == place.casefold()), ever))
    if zh:
        return out
    if (half := _NEVER_LIVED_HALF.search(x.text)) is not None:
        side = (half["dir"] or "").lower() or (
            "north" if (half["dir2"] or "").lower() == "southern" else "south")
        codes = continent(f"{side}ern hemisphere")
        out.append((lambda p, codes=codes: city_country(p) in codes, True))
    only = _ONLY_LIVED.search(x.text)
    place = (only["place"] or only["place2"]) if only is not None else ""
    if place and "hemisphere" not in place.lower():
        out.append((lambda p, place=place: _elsewhere(p, place), True))
    return out


def _lives_or_lived(c: Claim, owner: tuple[str, ...], where: Callable[[str], bool], *,
                    years: bool) -> bool:
    """Whether ``c`` gives ``owner`` a home of now in a place ``where`` takes, or (with
    ``years``) says they spent years in one."""
    if any(y.owner == owner and not (y.past or y.hedged) and any(
            f.key == "home" and not f.of and f.first and where(f.first) for f in y.facts)
           for y in c.clauses):
        return True
    return years and _spent_in(c, owner, where)


#: never lived in one half of the world ("has never lived north of the equator", "has only
#: ever lived in the Southern Hemisphere": never in the northern)
_NEVER_LIVED_HALF = re.compile(r"\bnever\s+(?:once\s+)?lived\s+(?:anywhere\s+)?(?P<dir>north|"
                               r"south)\s+of\s+the\s+equator\b|\bonly\s+ever\s+lived\s+in\s+"
                               r"the\s+(?P<dir2>northern|southern)\s+hemisphere\b", re.I)
#: one place all one has lived in ("has never lived anywhere except Kraków", "has only ever
#: lived in Ghana")
_ONLY_LIVED = re.compile(r"\bnever\s+(?:once\s+)?lived\s+anywhere\s+(?:except|but|other\s+than|"
                         r"outside(?:\s+of)?)\s+" + _PLACE_NAME
                         + r"|\bonly\s+ever\s+lived\s+in\s+" + _PLACE_NAME.replace(
                             "P<place>", "P<place2>"))


def _elsewhere(name: str, place: str) -> bool:
    """``name`` is a known city outside ``place`` (a country, or another city)."""
    code = city_country(name)
    if code is None:
        return False
    home = country(place)
    if home is not None:
        return code != home
    return city_country(place) is not None and name.casefold() != place.casefold()


def _spent_in(c: Claim, owner: tuple[str, ...], where: Callable[[str], bool]) -> bool:
    """Whether ``c`` (about ``owner``, read whole: "spent childhood and teens in Oslo" is one
    span) says years were spent in a place ``where`` takes ("spent four years working in
    Dublin")."""
    if not c.clauses or c.clauses[0].owner != owner:
        return False
    return any(where(m.group("place")) for m in _SPENT_YEARS_IN.finditer(c.text))


#: years of one's life spent in a place ("spent six years in a Kreuzberg apartment", "spent
#: most of her twenties in Lisbon")
_SPENT_YEARS_IN = re.compile(r"\bspent\s+(?:[\w-]+\s+){1,4}?(?:years?|months|twenties|thirties|"
                             r"teens|childhood)\s+(?:living\s+|working\s+|studying\s+)?in\s+"
                             r"(?:an?\s+|the\s+)?"
                             r"(?P<place>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)")


def _cities_denied(x: Clause) -> frozenset[str]:
    """The cities (not countries) an English clause says its owner has never been to."""
    if x.claim.zh:
        return frozenset()
    return frozenset(m.group("place").casefold() for m in _NEVER_BEEN.finditer(x.text)
                     if country(m.group("place")) is None
                     and city_country(m.group("place")) is not None
                     and not _FOR_SOME_REASON.match(x.text, m.end()))


#: a visit denied only for one reason ("has never been to London just for fun, only on
#: business"): other visits may have been
_FOR_SOME_REASON = re.compile(r"\s+(?:just\s+|only\s+|purely\s+|simply\s+)?(?:for|on)\s+"
                              r"(?:fun|pleasure|holiday|vacation|a\s+holiday|business|work)\b",
                              re.I)


_FULL_NAME = re.compile(r"\s*([A-Z][\w’'-]+)\s+([A-Z][\w-]+)(?:['’]s)?\b")


def other_surnames(a: str, b: str) -> bool:
    """Two texts that open on one first name with two surnames are about two people ("Anna
    Schmidt works at Deloitte" / "Anna Berg works at PwC"); the owner is read by first name
    (a surname dropped), so this says when that would join them."""
    ma, mb = _FULL_NAME.match(a), _FULL_NAME.match(b)
    return bool(ma and mb and ma.group(1) == mb.group(1) and ma.group(2) != mb.group(2))



#: a home held for life ("has lived in Zagreb her whole life", 一直住在)
_LIFELONG = re.compile(r"\b(?:(?:his|her|their|my) (?:whole|entire) life|all (?:his|her|their|my) "
                       r"life|since (?:birth|(?:the day )?(?:he|she|they) (?:was|were) born))\b",
                       re.I)
#: one home all one's life, not named ("has lived in the same house his whole life"), and a
#: move of house
_SAME_HOME = re.compile(r"\blived in the same (?:house|home|flat|place)\b", re.I)
_MOVED_HOUSE = re.compile(r"\bmoved (?:house|home)\b|\bmoved (?:to|from)\b", re.I)
#: a clause that puts its owner's earlier life elsewhere, or a move to the place later
_EARLIER = re.compile(r"\b(?:grew up|was born|was raised|spent (?:his|her|their) childhood)\s+"
                      r"(?:in|on)\s+(?:the\s+)?(?P<place>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)")
_MOVED = re.compile(r"\b(?:moved|relocated|emigrated)\s+(?:back\s+)?to\s+(?:the\s+)?"
                    r"(?P<place>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)")


def _lifelong_conflict(a: Claim, b: Claim) -> str | None:
    """One text says its owner has lived in one place all their life, the other that they
    grew up (or were born) somewhere else, or moved there: "has lived in Zagreb her whole
    life" / "grew up in Split and only moved to Zagreb in 2019"; not a place inside it
    ("has lived in Spain all his life" / "grew up in Seville")."""
    if a.zh or b.zh:
        return None
    for first, second in ((a, b), (b, a)):
        if "lifelong" not in _rare_cues(first.text):
            continue
        for x in first.clauses:
            if not x.owner or not _LIFELONG.search(x.text):
                continue
            homes = [f.first for f in x.facts if f.key == "home" and f.first]
            if not homes:
                if _SAME_HOME.search(x.text) and any(
                        y.owner == x.owner and _MOVED_HOUSE.search(y.text)
                        for y in second.clauses):
                    return "place"  # "the same house his whole life" / "moved house"
                continue
            home = homes[0]
            for y in second.clauses:
                if y.owner != x.owner:
                    continue
                if _elsewhere_since(y, home):
                    return "place"
    return None


def _elsewhere_since(y: Clause, home: str) -> bool:
    """``y`` puts its owner's earlier life elsewhere than ``home`` (grew up, was born), a
    move to ``home`` (so not there all along), or a move to, or a home in, another place."""
    def apart(p: str) -> bool:
        return p != home and home not in p and p not in home and not within(p, home) and not (
            within(home, p))
    places = [m.group("place").lower() for m in _EARLIER.finditer(y.text)]
    moved = [m.group("place").lower() for m in _MOVED.finditer(y.text)]
    homes = [f.first for f in y.facts if f.key == "home" and f.first and not y.past]
    return any(apart(p) for p in places) or any(p == home or apart(p) for p in moved) or any(
        apart(p) for p in homes)



#: a partner who is no more ("her late husband", 前夫)
_SPOUSE = re.compile(r"\b(?:his|her|their)\s+(?:" + "|".join(PARTNERS) + r")\b", re.I)
_ZH_SPOUSE = "|".join(ZH_PARTNERS)
_NOT_CURRENT = re.compile(r"\b(?:late|ex|former|deceased|died|passed away|divorced|widow\w*)\b"
                          r"|去世|过世|已故|前夫|前妻|离婚|丧偶", re.I)


def _partner_conflict(x: Clause, other: Claim) -> str | None:
    """``x`` says its owner has no partner ("is single", "has been a widow since 2016",
    丧偶) and ``other`` gives them a current one as a person of their own ("Jacinta's
    husband Rolando drives her to church", "her wife", 她的丈夫); or ``x`` says they never
    married and ``other`` gives them a husband or a wife (a fiancé or a partner may be)."""
    unwed = any(f.key == "wed" and f.first == "never" for f in x.facts)
    if not x.owner or not (unwed or any(f.no_partner for f in x.facts)) or _NOT_CURRENT.search(
            other.text):
        return None
    # never married: no husband or wife, though a partner or a fiancé may be
    only_wed = unwed and not any(f.no_partner for f in x.facts)
    kinds, zh_kinds = (SPOUSES, "|".join(ZH_SPOUSES)) if only_wed else (PARTNERS, _ZH_SPOUSE)
    said = re.compile(rf"\b(?:his|her|their|{re.escape(x.owner[0])}['’]s)\s+(?:husband|wife|"
                      r"spouse)\b", re.I) if only_wed else _SPOUSE
    n = len(x.owner)
    for y in other.clauses:
        if y.past or y.hedged:
            continue
        if other.zh:
            spouse = re.search(re.escape(x.owner[0]) + r"的(?:" + zh_kinds + ")", y.text) or (
                y.owner == x.owner and re.search(
                    r"[她他]的(?:" + zh_kinds + r")|(?:陪|和|跟|带|给)[^，。,；;]{0,10}?的?(?:"
                    + zh_kinds + ")", y.text))  # 陪结婚三十年的老婆去看电影
        else:
            spouse = (y.owner[:n] == x.owner and len(y.owner) > n
                      and y.owner[n] in kinds) or (
                y.owner == x.owner and said.search(y.text))
        if spouse:
            return "negation"
    return None


def _partners_conflict(a: Claim, b: Claim) -> str | None:
    """:func:`_partner_conflict` both ways."""
    pairs = [(x, b) for x in a.clauses] + [(y, a) for y in b.clauses]
    return next((found for x, other in pairs if (found := _partner_conflict(x, other))), None)


__all__ = ["compared_widely", "features", "other_surnames", "situation"]
