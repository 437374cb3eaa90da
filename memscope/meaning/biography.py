"""What a life has had or not, said in words of its own: a university degree ("never went
to university" / "studied law at Salamanca"), surgery ("has never had surgery" / "had her
appendix removed"), a broken bone, a chronic condition ("has no chronic health conditions"
/ "was diagnosed with type 1 diabetes"), colour vision, handedness, and a first child on the
way against children already born.

Each topic's values exclude each other. Unlike a one-value fact, a value here may be said
in the past ("broke her wrist skiing in 2018" still holds against "has never broken a
bone"). :func:`life_values` reads a clause's (topic, value) pairs; the owner check is the
caller's (:mod:`memscope.meaning.situations`).

The rules are in ``docs/graph-rules.md`` §7 ("What a life has had"). Pure and deterministic.
"""

from __future__ import annotations

import re
from functools import lru_cache

_DEGREE = (r"(?:degree|PhD|doctorate|MBA|MSc|BSc|BA|MA|master['’]?s|bachelor['’]?s)")
_BONE = (r"(?:wrist|arm|leg|ankle|collarbone|hip|ribs?|nose|fingers?|toes?|foot|hand|elbow|"
         r"shoulder|jaw|femur|kneecap|pelvis|skull|back|neck|thumb|shin)")
_CONDITION = (r"(?:(?:type\s+[12]\s+)?diabetes|asthma|epilepsy|hypertension|arthritis|lupus|"
              r"crohn['’]s(?:\s+disease)?|multiple\s+sclerosis|co?eliac\s+disease|COPD|"
              r"chronic\s+(?!health|medical|condition|illness|disease|problem)[a-z]+)")
_ZH_CONDITION = (r"(?:[一二12]型)?(?:高血压|糖尿病|哮喘|心脏病|关节炎|癫痫|"
                 r"慢性[\u4e00-\u9fff]{1,3}病)")
#: (topic, value, pattern): the values of one topic exclude each other
_TOPICS: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (topic, value, re.compile(pattern, re.I)) for topic, value, pattern in (
        ("degree", "none",
         r"\bnever\s+(?:went|been|gone)\s+to\s+(?:university|college|uni)\b"
         r"|\b(?:has|holds|have)\s+no\s+(?:university\s+|college\s+)?degree\b"
         r"|\b(?:yet\s+to|never)\s+(?:finish|complete|earn|get|finished|completed|earned|got)"
         r"\s+(?:any|a)\s+(?:university\s+|college\s+)?degree\b"
         # "highest qualification is his high-school diploma": no degree
         r"|\bhighest\s+(?:education|qualification|level\s+of\s+education)\s+is\s+(?:a\s+|an\s+|"
         r"his\s+|her\s+|their\s+)?(?:secondary\s+school|high[- ]school|GCSEs?|A[- ]levels?)\b"),
        ("degree", "some",
         rf"\b(?:has|holds|earned|got|completed|received|with)\s+(?:a|an)\s+(?:[\w'’-]+\s+){{0,2}}?"
         rf"{_DEGREE}\b|\b{_DEGREE}\s+(?:in|from)\s+[A-Za-z]"
         r"|\bstudied\s+(?:[a-z]+\s+){0,2}?at\s+(?:the\s+)?(?:University\s+of\s+)?[A-Z]"
         r"|\bgraduated\s+(?:from|in|with)\b"),
        ("surgery", "none",
         r"\bnever\s+(?:had|undergone|needed)\s+(?:any\s+|an?\s+)?(?:surgery|surgeries|"
         r"operations?)\b|\bno\s+(?:previous\s+|prior\s+)?(?:surgery|surgeries|operations)\b"),
        ("surgery", "some",
         r"\bhad\s+(?:her|his|their|an?)\s+(?:[a-z]+\s+)?(?:removed|replaced|taken\s+out)\b"
         r"|(?<!never )(?<!not )(?<!n['’]t )\b(?:had|underwent|undergone)\s+(?:an?\s+)?"
         r"(?:[a-z]+\s+)?(?:surgery|operation)\b"),
        ("broken bone", "none",
         r"\bnever\s+(?:broken|fractured)\s+(?:a|any|one)\s+(?:single\s+)?bones?\b"),
        ("broken bone", "some",
         rf"\b(?:broke|fractured|has\s+broken)\s+(?:her|his|their|a|an|both)\s+(?:left\s+|right\s+)?"
         rf"{_BONE}\b"),
        ("chronic condition", "none",
         r"\bno\s+(?:chronic|long[- ]term|underlying)\s+(?:health\s+|medical\s+)?"
         r"(?:conditions?|illness(?:es)?|diseases?|problems?)\b"),
        ("chronic condition", "some",
         rf"\b(?:has|have|with|diagnosed\s+with|lives\s+with|suffers\s+from|manages\s+(?:her|his|"
         rf"their))\s+(?:(?!no\b)[a-z]+\s+)?{_CONDITION}\b"),
        ("colour vision", "colour-blind",
         r"(?<!not )(?<!n['’]t )\bcolou?r[- ]blind\b"),
        ("colour vision", "normal",
         r"\b(?:perfect|normal|full|excellent)\s+colou?r\s+vision\b"
         r"|\b(?:is\s+not|isn['’]t)\s+colou?r[- ]blind\b(?!\s+(?:in|for|when|to)\b)"),
        ("handedness", "left", r"\b(?:is|was|am|are)\s+(?:\w+\s+)?left[- ]handed\b"
                               r"|\ba\s+left[- ]hander\b"),
        ("handedness", "right", r"\b(?:is|was|am|are)\s+(?:\w+\s+)?right[- ]handed\b"
                                r"|\ba\s+right[- ]hander\b"),
        # Chinese (左撇子, 没有任何慢性病 / 有高血压, 只有初中文化 / 是清华大学毕业的)
        ("handedness", "left", r"(?<!不是)左撇子|(?:用|惯用)左手(?:写字|吃饭|拿筷子)"),
        ("handedness", "right", r"(?<!不是)右撇子|(?:用|惯用)右手(?:写字|吃饭|拿筷子)"),
        ("chronic condition", "none", r"没有?(?:任何)?慢性病|无慢性病"),
        ("chronic condition", "some", rf"(?:有|患有?|确诊了?|得了){_ZH_CONDITION}"),
        ("degree", "none", r"只有(?:小学|初中|高中)(?:文化|学历)|(?:没|没有|从没)(?:上|读)过大学"
                           r"|(?:小学|初中|高中)毕业就(?:出来)?(?:工作|打工)"),
        ("degree", "some", r"(?:大学|学院|本科|硕士|博士|研究生)毕业|毕业于.{1,12}(?:大学|学院)"
                           r"|学历是(?:本科|硕士|博士|研究生)"
                           r"|(?:学士|硕士|博士)学位"),
        ("children", "first on the way",
         r"\b(?:pregnant|expecting)\s+with\s+(?:her|their|his)\s+first\b"
         r"|\bexpecting\s+(?:her|their|his)\s+first\s+(?:child|baby)\b"),
        ("children", "some",
         r"\b(?:has|have|already\s+has|raising)\s+(?:[a-z-]+\s+)?(?:\d+|two|three|four|five|six|"
         r"teenage|grown[- ]up|adult|young)\s+(?:[a-z-]+\s+)?(?:children|kids|sons|daughters)\b"
         r"|\b(?:has|have)\s+(?:a|one)\s+(?:[a-z-]+\s+)?(?:son|daughter|child|kid)\b"),
    ))
#: a clause without one of these says none of it (cheap: most clauses do not)
_TRIGGER = re.compile(r"universit|college|\buni\b|degree|PhD|doctorate|MBA|master|bachelor|highest|"
                      r"studied|graduat|surger|operation|removed|replaced|taken out|bone|broke|"
                      r"fractur|chronic|diabet|asthma|epilep|hypertens|arthritis|lupus|crohn|"
                      r"sclerosis|celiac|coeliac|COPD|colou?r|handed|pregnant|expecting|"
                      r"children|kids|sons|daughters|\bson\b|daughter|child\b|\bkid\b|"
                      r"撇子|左手|右手|慢性|高血压|糖尿病|哮喘|心脏病|关节炎|癫痫|大学|学院|毕业|"
                      r"文化|学历|学位", re.I)
#: what says a value is only wished for or someone else's ("hopes to do a PhD")
_NOT_OWN = re.compile(r"\b(?:wants?|hopes?|plans?|planning|would\s+like|dreams?|applying|"
                      r"applied|considering|thinking\s+about|might|may|if)\b"
                      r"|想|希望|打算|准备|如果|可能|考研", re.I)


@lru_cache(maxsize=50_000)
def life_values(text: str) -> tuple[tuple[str, str], ...]:
    """(topic, value) per topic a clause's ``text`` gives one value of; none when it gives
    two of one topic, or wishes for one."""
    if not _TRIGGER.search(text) or _NOT_OWN.search(text):
        return ()
    found: dict[str, set[str]] = {}
    for topic, value, pattern in _TOPICS:
        if pattern.search(text):
            found.setdefault(topic, set()).add(value)
    return tuple((topic, next(iter(values))) for topic, values in found.items()
                 if len(values) == 1)


def life_conflict(left: tuple[tuple[str, str], ...], right: tuple[tuple[str, str], ...]
                  ) -> bool:
    """Whether two clauses give one topic two values."""
    values = dict(left)
    return any(topic in values and values[topic] != value for topic, value in right)
