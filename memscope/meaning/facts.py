"""The one-value facts a clause gives its owner (:class:`Fact`), recognised by small
families of paraphrases ("lives in" / "home is in" / "moved to", 向…汇报 / 领导是), states
said in a word ("is single", "full-time"), ages and counts."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from memscope.meaning.claim_text import (
    _HAN,
    _N,
    _NUMBER_VALUE,
    _ROLE_STEMS,
    _TENS,
    _ZH_DATE_RE,
    ROLES,
    STOP,
    ZH_ROLES,
    _name_runs,
    _names,
    _number,
    _set,
    _zh_date,
    _zh_int,
    date_parts,
    stem,
)
from memscope.meaning.denials import _ZH_DENY, Denial
from memscope.meaning.prefilter import guarded

#: words that make an attribute hold one value ("her only employer", "main bank")
_MARKERS = _set("only sole main primary favourite favorite one current usual regular new")
#: one-value attributes in other words: the family of each attribute noun
_NOUN_FAMILIES: dict[str, str] = {
    **dict.fromkeys(("manager", "boss", "line manager", "supervisor", "direct manager",
                     "line-manager", "reporting manager", "direct supervisor",
                     "immediate supervisor", "immediate manager", "direct boss"), "manager"),
    **dict.fromkeys(("partner", "wife", "husband", "spouse", "girlfriend", "boyfriend",
                     "fiancé", "fiancée", "fiance", "fiancee"), "partner"),
    **dict.fromkeys(("home", "home city", "flat", "apartment", "house", "address", "residence",
                     "place of residence", "main residence", "primary residence"), "home"),
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
_FAMILY_KIND = {"home": "place", "workplace": "place", "birthplace": "place", "raised": "place",
                "manager": "person", "partner": "person", "doctor": "person",
                "age": "number", "count": "number", "household": "value", "blood": "value",
                "school": "value", "religion": "value", "shift": "value", "commute": "value",
                "contact": "value", "contact hours": "value", "tea milk": "value",
                "tea sugar": "value", "coffee milk": "value", "coffee sugar": "value",
                "birth_order": "value", "works_for": "value",
                "workmode": "value"}


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
             r"\s+(?:in|to)\b(?!\s+(?:the|a|an)\s+\w+\s+office)"
             # "shares a flat with her parents in Ankara"
             r"|\bshares?\s+(?:a|an|the|his|her|their)\s+(?:[\w-]+\s+)?(?:flat|house|apartment|"
             r"home)\s+(?:with\s+(?:\w+\s+){1,4}?)?in\b"
             # "rents a room in Osu, Accra", "rents a flat in Leith"
             r"|\brents?\s+(?:a|an|the)\s+(?:[\w-]+\s+)?(?:room|flat|house|apartment|studio|"
             r"bedsit)\s+in\b(?![^.;]*?\bfor\s+(?:her|his|their|a|an)\s)"),
    ("employer", r"\bworks?(?:\s+[\w-]+){0,4}?\s+(?:for|at)\b(?!\s+(?:home|night|weekends?)\b)"
                 r"|\bemployed(?:\s+[\w-]+){0,2}?\s+(?:by|at)\b"
                 r"|\bjoined\b(?=\s+(?:the\s+)?[A-Z])"
                 r"|\b(?:started|starts|began|begins)\s+(?:as\s+(?:an?\s+)?(?:[\w-]+\s+){0,3}?)?"
                 r"(?:at|with)\b(?=\s+(?:the\s+)?[A-Z])"
                 r"|(?:\b(?:is|as|has been)|['’]s(?: been)?)(?:\s+now)? an? (?:[\w-]+\s+){0,2}?"
                 r"(?!(?:volunteer|member|regular|guest|"
                 r"visitor|customer|client|patient|fan|student|resident|speaker|trustee|"
                 r"mentor|subscriber)\b)[\w-]+ (?:at|for)\b"),
    ("bank", r"\bbanks? with\b"),
    ("manager", r"\b(?:reports?|reported|reporting)\s+(?:\w+ly\s+)?to\b|\bmanaged by\b"
                r"|\bworks? under\b"),
    ("partner", r"\bmarried to\b|\bin a relationship with\b|\b(?:is|has been|been) (?:dating|"
                r"seeing)\b|\bengaged to\b|\bgoing out with\b"),
    ("birthday", r"\bborn on\b|\bborn in\b(?=\s+(?:\w+\s+)?(?:19|20)\d\d\b)"
                 # "born in Galway in 1993": the year
                 r"|\bborn in [A-Z][\w'’-]*(?: [A-Z][\w'’-]*)? in\b(?=\s+(?:19|20)\d\d\b)"
                 r"|\bbirthday (?:is )?(?:on )?(?:the )?(?=\d|(?-i:[A-Z]))"
                 r"|\bcelebrates (?:his|her|their) birthday (?:every year )?(?:on|in) "
                 r"(?:mid-|early |late )?(?=\d|(?-i:[A-Z]))"),
    ("birthplace", r"\bborn in\b(?!\s+(?:\w+\s+)?(?:19|20)\d\d\b)"),
    # where one grew up: one place ("grew up in Nairobi" / "was raised in Mombasa")
    ("raised", r"\b(?:grew up|was raised|raised|spent (?:his|her|their) childhood) in\b"),
    ("wedding", r"\b(?:getting|get|gets) married (?:on|in)\b"
                r"|(?<!['’]s )\bwedding (?:is )?(?:on|in)\b"
                r"|^(?:[A-Z][\w-]*\s+(?:and|&)\s+)?[A-Z][\w-]*['’]s\s+wedding (?:is )?(?:on|in)\b"),
    ("language", r"\bnative speaker of\b"),
    ("blood", r"\bblood (?:type|group)(?:\s+is)?\b"),
    ("end", r"\b(?:ends?|runs?|lasts?|is valid|expires?)\s+(?:on|until|in)\b|\bexpires?\b"
            r"|\b(?:is|are|has been|have been)\s+(?:now\s+)?(?:re)?(?:scheduled|booked|planned|"
            r"set|fixed|arranged|due)\s+(?:for|on)\b"),
))
#: words one of which a clause must hold for a family's cue to be looked for (cheap: most
#: clauses name no one-value attribute)
_TRIGGERS = {
    "workplace": ("desk", "office", "out of", "headquarter", " hq", "branch", "site", "campus"),
    "home": ("liv", "resid", "based", "moved", "relocat", "settled", "shares", "rent"),
    "employer": ("work", "employ", "joined", " at ", " for "),
    "bank": ("bank",), "manager": ("report", "managed", "under"),
    "partner": ("married", "relationship", "dating", "seeing", "engaged", "going out"),
    "birthday": ("born", "birthday"), "birthplace": ("born",),
    "raised": ("grew up", "raised", "childhood"),
    "wedding": ("married", "wedding"), "language": ("native",), "blood": ("blood",),
    "end": ("end", "run", "last", "valid", "expir", "schedul", "booked", "planned", "set ",
            "fixed", "arranged", "due"),
}
_STATE_TRIGGER = guarded(re.compile(
    r"single|bachelor|married|engaged|unemployed|working|eldest|oldest|youngest|老大|长子|长女|最小|老幺|"
    r"老小|night|nine|9[- ]to|day shift|夜班|白班|朝九|一家|打过工|参加工作|入职|升|"
    r"athe|agnos|relig|catholic|christian|pray|ramadan|temple|mosque|gurdwara|"
    r"protestant|anglican|methodist|baptist|lutheran|church|mass\b|muslim|islam|jewish|"
    r"synagogue|shabbat|yom kippur|hindu|buddhist|无神|宗教|信|徒|礼拜|弥撒|穆斯林|佛|"
    r"self|freelance|payroll|个体|自由职业|remote|home|office|commut|办公|远程|上班|上下班|公司|工作|坐班|"
    r"work mode|email|phone|contact|call|联系|tea|coffee|"
    r"公司上班|通勤|to work|into the city|into town|jobless|out of work|between jobs|no job|works|"
    r"(?:full|part)"
    r"[- ]time|alone|on (?:his|her|their|my) own|by (?:him|her|them)sel|live|living|share|"
    r"together|no (?:partner|boyfriend|girlfriend|wife|husband)|wife|husband|widow|divorc|"
    r"seeing anyone|dating anyone|relationship|"
    r"retired|退休|school|undergraduate|student|学|初|高|大|vot|ballot|driv|驾|开车|网约车|出租|滴滴|投|选举|"
    r"单身|单着|未婚|婚|丧偶|守寡|离异|失业|"
    r"待业|没有工作|全职|兼职|住|合租|对象|伴侣|朋友|妻|丈夫|老公|老婆|经理|主管|总监|员工", re.I))
#: words an age or a count needs ("… years old", "turned", "has two …", "father of …")
_AGE_TRIGGER = re.compile(r"old|turn|age|birthday|^\s*(?:is|was)\s|\dy\.?/?o\b|\dyo\b", re.I)
#: an age by its decade ("in his early fifties": 50-54)
_DECADE = re.compile(r"\bin\s+(?:his|her|their)\s+(?:(?P<part>early|mid|late)[\s-]*)?"
                     r"(?P<dec>twenties|thirties|forties|fifties|sixties|seventies|eighties|"
                     r"nineties)\b", re.I)
_DECADES = {"twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60,
            "seventies": 70, "eighties": 80, "nineties": 90}
_DECADE_PART = {"early": (0, 4), "mid": (3, 7), "late": (6, 9), "": (0, 9)}
_COUNT_TRIGGER = re.compile(r"\b(?:has|have|owns?|keeps?|of|his|her|their|my)\s|['’]s\s", re.I)
_EVENT = re.compile(r"\b(?:moved|relocated|settled|joined)\b", re.I)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
#: a negation just before a cue ("no longer works at", "doesn't live in", "never reported to")
_NEGATED_CUE = re.compile(r"(?:\b(?:no longer|not|never)|n['’]t)(?:\s+\w+)?\s*$", re.I)


_AGE = (re.compile(rf"\b{_N}\s*(?:years?|yrs?)[\s-]*old\b", re.I),
       # "is a 2-year-old beagle", "who is 3yo" (not "has a 2-year-old son": the son's)
       re.compile(rf"\b(?:is|['’]s) an? {_N}-years?-old\b", re.I),
       re.compile(rf"\b{_N}\s*(?:yo|y/o|y\.o\.)(?!\w)", re.I),
        re.compile(rf"\b(?:turned|aged|age)\s+{_N}\b", re.I),
        # (not an age still to come: "turns 40 next month")
        re.compile(rf"\bturns\s+{_N}\b(?!\s+(?:next|in|on|this|later|soon)\b)", re.I),
        re.compile(rf"^\s*(?:is|was)\s+{_N}\s*(?:$|[,.;]|and\b)", re.I),
        re.compile(r"\b(\d{1,3})(?:st|nd|rd|th)\s+birthday\b", re.I))
#: an age still to come this year ("will turn 41 this autumn", "turns 30 next month"): a
#: year less now
_TURNS_SOON = re.compile(rf"\b(?:will turn|turns|is turning|is going to turn)\s+{_N}\b"
                         r"(?=\s+(?:next|this|in|on|later|soon)\b)", re.I)
_COUNT = (# "walks his three dogs", "drops her two kids at school": how many the owner has
          re.compile(rf"\b(?:his|her|their|my)\s+(?:own\s+)?{_N}\s+((?:dogs|cats|kids|children|sons|"
                     r"daughters|boys|girls|grandchildren|brothers|sisters|siblings|pets))\b",
                     re.I),
          re.compile(rf"\b(?:has|have|owns?|keeps?)\s+(?:exactly\s+|just\s+|only\s+)?{_N}\s+"
                     r"((?:[a-z-]+\s+)?(?!(?:and|or|but|with|in|at|who|that|from)\b)[a-z]+)",
                     re.I),
          re.compile(rf"\b(?:father|mother|parent|mum|mom|dad)\s+of\s+{_N}\s+((?:[a-z-]+\s+)?"
                     r"[a-z]+)", re.I),
          # "is a father of three": children
          re.compile(rf"\b(?:father|mother|parent|mum|mom|dad)\s+of\s+{_N}(?P<kids>)\b"
                     r"(?!\s+[a-z])", re.I),
          # "manages a team of eight engineers": the team's size, said of its head
          re.compile(rf"\b(?:manages|leads|runs|heads)\s+a\s+(?:team|group|staff|crew)\s+of\s+"
                     rf"{_N}\s+((?:[a-z-]+\s+)?[a-z]+)", re.I))
#: "Nina's two cats", "Ravi's two younger brothers" (an age or a size before the noun)
_OWN_COUNT = re.compile(rf"^\W*[A-Z][\w-]*['’]s\s+{_N}\s+(?:(?:younger|older|elder|little|big|"
                        rf"grown-up|adult|teenage|twin|small|young)\s+)?([a-z]+)")
_NOT_COUNTED = _set("years year days times weeks months hours")
_ANY_NUMBER = re.compile(r"\d|\b(?:" + "|".join(_NUMBER_VALUE) + "|" + "|".join(_TENS)
                         + r")\b", re.I)
_HOUSEHOLD = (
    (re.compile(r"\b(?:lives?|living|lived)\s+(?:\w+\s+)?(?:alone|on (?:his|her|their|my) own"
                r"|by (?:him|her|them)sel(?:f|ves))\b", re.I), "alone"),
    (re.compile(r"\b(?:lives?|living)\s+(?:\w+\s+)?with\b|\bshares?\s+(?:a|an|the|his|her|"
                r"their)?\s*(?:[\w-]+\s+)?(?:flat|house|home|apartment|place)\s+(?:in\s+[A-Z][\w'’-]*"
                r"(?:\s+[A-Z][\w'’-]*)?\s+)?with\b|"
                r"\blives? together\b|\bwith\s+(?:\w+\s+)?(?:flatmates|housemates|roommates)\b",
                re.I), "with"),
    (re.compile(r"一个人住|独居|独自(?:一人)?住|自己一个人住"), "alone"),
    (re.compile(r"(?:和|跟|与).{1,6}(?:住在一起|一起住|同住|住在一块儿?|住一块儿?)|合租"), "with"))
_WORK_HOURS = r"\b(?:works?|working|employed|job|position|role)\b[^,;.]{0,24}?\b"
#: one-value states said in a word: each family's values exclude each other ("is single" /
#: "is married", "is unemployed" / "works at Café Nero", "full-time" / "part-time")
#: a place among others than one's siblings ("the youngest of the cousins", "the oldest
#: in the office", "the oldest person on her team")
_NOT_SIBLINGS = (r"(?! of (?:the |all |her |his |their )?(?:\w+ )?(?:cousins|grandchildren|"
                 r"grandkids|class|team|group|friends|colleagues|staff|players|students)\b)"
                 r"(?! (?!child\b)[a-z]+ (?:in|at|on|of)\b)"
                 r"(?! (?:in|at|on) (?!(?:the|her|his|their) family\b))")
#: not in one season or on some days only ("cycles to work every day in summer")
_EVERY_SEASON = (r"(?![^.;]*\b(?:in (?:the )?(?:summer|winter|spring|autumn|fall)|when|if|unless|"
                 r"sometimes|some days|on \w+days)\b)")

#: car makes: owning one is owning a car ("owns a blue Toyota Corolla")
CAR_MAKES = ("toyota", "ford", "bmw", "audi", "tesla", "škoda", "skoda", "volvo", "volkswagen",
            "vw", "honda", "nissan", "kia", "hyundai", "mercedes", "fiat", "renault",
            "peugeot", "citroën", "citroen", "mazda", "subaru", "opel", "seat", "jeep",
            "porsche", "lexus", "dacia", "chevrolet", "suzuki", "mitsubishi", "jaguar",
            "polestar", "byd", "saab", "mini cooper", "land rover", "alfa romeo", "lancia",
            "cupra", "chrysler", "cadillac", "buick")

_STATES: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (family, value, re.compile(pattern, re.I)) for family, value, pattern in (
        ("marital", "single", r"\b(?:is|has been|remains|stays)(?: now| still)? single\b|"
                              r"\b(?:lifelong|confirmed|committed) bachelor\b|"
                              r"\bunmarried\b|单身"
                              r"|未婚(?![夫妻])"),
        # divorced first: 和老婆离婚三年了 names a wife and says the marriage is over
        ("marital", "divorced", r"\b(?:is|got|has been) divorced\b|离婚了|已经离婚|离异|"
                                r"\bhas(?: not|n['’]t) remarried\b|"
                                r"离婚(?:\d+|[一二三四五六七八九十两几]+)年"),
        ("marital", "married", r"\b(?:is|got|has been|have been|are)(?: \w+ly)? married\b"
                               r"|\bmarried to\b"
                               # "Helga and her husband Rolf are celebrating 25 years of
                               # marriage"
                               r"|^\s*(?:[A-Z][\w-]*(?: [A-Z][\w-]*)? )?and (?:his|her|their) "
                               r"(?:husband|wife)\b(?![^.;]*\b(?:divorc|split|separat|broke up|"
                               r"late\b|ex-))"
                               r"|\bcelebrat(?:ing|ed|es) (?:their |his |her )?(?:\w+ )?"
                               r"(?:years of marriage|wedding anniversary)\b"
                               r"|\b(?:has|have) a (?:wife|husband)\b|已婚|已经结婚|结婚了"
                               r"|(?:有|的|和|跟)(?:妻子|丈夫|老公|老婆)|结婚(?:\d+|[一二三四五六七八九十两]+)年"),
        ("marital", "engaged", r"\b(?:is|got|are) engaged\b|\bengaged to\b|订婚"),
        ("marital", "widowed", r"\b(?:is|has been|remains|became) (?:a )?widow(?:ed|er)?\b"
                               r"|丧偶|守寡"),
        ("employment", "unemployed", r"\b(?:is|has been)(?: (?:currently|now|still))? "
                                     r"(?:unemployed|jobless|out of work|between jobs)\b"
                                     r"|\bhas no job\b|失业|待业|没有工作"
                                     r"|(?:还|从)(?:来)?没(?:有)?(?:参加|找)(?:过)?(?:正式)?工作"
                                     r"|从(?:来)?没(?:有)?(?:正式)?(?:工作|上过班)过?"),
        # what only an adult may do: vote in an election, drive on the road (levels.MIN_AGES)
        ("voter", "votes", r"\bvoted (?:in|at|for)\b[^.;]{0,40}?\b(?:elections?|"
                           r"referend(?:um|a)|polls?|primar(?:y|ies))\b|"
                           r"\bvotes in (?:every|each|the|all)\b[^.;]{0,20}?\belections?\b|"
                           r"\bcast (?:a|her|his|their) (?:first )?(?:vote|ballot)\b|"
                           r"(?:投(?:了|过)?票|参加(?:了|过)?[^，。,；;]{0,6}选举)"),
        ("driver", "no licence", r"\b(?:has|holds) no (?:full )?(?:driving|driver['’]?s) "
                                 r"licen[cs]e\b|"
                                 r"\b(?:has )?never (?:held|had|got|passed) "
                                 r"(?:a |her |his |their )?(?:driving|driver['’]?s) "
                                 r"(?:licen[cs]e|test)\b"
                                 r"|\b(?:doesn['’]t|does not) (?:have|hold) (?:a |any )?(?:full )?"
                                 r"(?:driving|driver['’]?s) licen[cs]e\b"
                                 r"|\bhas never (?:get|got) (?:a |her |his |their )?"
                                 r"(?:driving|driver['’]?s) licen[cs]e\b"
                                 r"|(?:至今|从来|一直)?没(?:有)?考(?:过)?驾照|驾照都没考过"
                                 r"|(?<!谁)不会开车"),  # (没驾照: normal.py, 不会开车)
        ("driver", "drives", r"\b(?:lorry|truck|taxi|cab|bus|delivery|van|uber|racing|rally) "
                             r"driver\b|"
                             r"\b(?:has|holds|got|passed|earned|obtained|renewed|has held) "
                             r"(?:a |an |her |his |their )?(?:full |clean )?"
                             r"(?:driving licen[cs]e|driver['’]?s licen[cs]e|driving test)\b|"
                             r"\b(?:driving|driver['’]?s) licen[cs]e was issued to\b|"
                             r"驾照[^，。,；;]{0,4}被扣|驾龄|(?:跑|开)(?:网约车|出租车?|滴滴)|"
                             r"\bdrives (?:himself|herself|themselves|"
                             r"(?:his|her|their) (?:own )?car)\b|"
                             # "drives a red Alfa Romeo": a car by its make
                             r"\bdrives (?:a|an|his|her|their) (?:[\w-]+ ){0,2}?(?:"
                             + "|".join(CAR_MAKES) + r")\b|"
                             r"\bdrives\b[^.;]{0,25}?\bto (?:work|school|the office|college)\b|"
                             r"考(?:到|过|了|出)(?:了)?(?:驾照|驾驶证)|(?:有|拿到了?)[A-Z]?\d?驾照|"
                             r"(?:自己)?开车(?:上下班|上班|上学|去公司|去学校|通勤)"),
        ("employment", "retired", r"\b(?:is|has been)(?: (?:now|fully|already))? retired\b"
                                  r"|\bis an? retired [a-z]+(?!['’])\b"
                                  r"|\bafter (?:he|she|they) retired\b"
                                  r"|\bretired (?:(?:completely|fully) )?(?:in|last|at|from "
                                  r"(?!full[- ]time))\b(?: (?:paid )?work\b)?"
                                  r"|(?<!离)(?<!没)(?<!快)(?<!要)退休(?!还有|还差|还早|年龄)"),
        # where one works: all of it at home or all at the office, or some of it
        ("workmode", "remote", r"完全远程|全远程|"
                               r"\bworks? (?:entirely|fully|only|exclusively|100%) (?:from home|"
                               r"remotely)\b|\bis (?:a )?fully remote\b|\bnever commutes\b|"
                               r"\bworks? (?:entirely|fully|100%) remote\b|"
                               r"\bhas(?:n['’]t| not) (?:set foot in|been (?:in)?to) (?:an|the) "
                               r"office\b|"
                               r"\bnever goes? (?:in)?to (?:the|an|her|his) office\b|"
                               r"\bworks? from home (?:every (?:single )?(?:day|weekday)|"
                               r"full[- ]time)\b|"
                               r"完全(?:居家|在家)办公|一直在家办公|从不去公司|全职远程"
                               r"|(?:\d+|[一二两三几]+)年没(?:踏进|去)过公司"
                               r"|\bwork mode is (?:fully )?remote\b"
                               r"|\boffice days per week is 0\b"),
        ("workmode", "office", r"\b(?:works? (?:from|in|at) the office|goes? (?:in)?to the office|"
                               r"commutes?|is at (?:his|her|their) desk in (?:the|an?) "
                               r"[^.;,]{0,25}?office)\b[^.;,]{0,30}?\b(?:every (?:single )?"
                               r"(?:day|weekday)|"
                               r"five days a week|daily)\b|\bnever works? (?:from home|remotely)\b|"
                               r"\b(?:takes|catches|rides|drives) (?:the |a |her |his )?\w+ to "
                               r"(?:work|the office) every (?:day|weekday|morning)\b|"
                               r"\b(?:takes|catches|rides) (?:the |a )?(?:[\d:.]+ )?(?:train|bus|"
                               r"tram|tube|metro|subway|ferry) (?:in)?to (?:the city|town|work|"
                               r"the office)\b[^.;]{0,20}\bevery (?:single )?(?:day|weekday|"
                               r"morning)\b|"
                               r"每天都?(?:去|到)公司上班|从不在家办公|从来不在家办公"
                               r"|每天(?:都)?(?:坐|乘|搭|骑|开)[^，。,；;]{1,8}(?:上班|去公司)"
                               r"|(?:每天|天天)(?:都)?(?:得|要)?(?:去|到)[^，。,；;]{0,8}(?:办公室|公司)"
                               r"(?:坐班|上班)"
                               r"|每天[^，。,；;]{0,10}?(?:打卡进公司|到公司打卡|去公司坐班)"
                               r"|每天(?:挤|坐)(?:地铁|公交)上下班"
                               r"|\bwork mode is (?:on-?site|in-office|office)\b"
                               r"|\boffice days per week is [45]\b"),
        ("workmode", "some-remote", r"\bworks? (?:from home|remotely)\b"
                                    r"|(?<!不允许)(?<!不能)(?<!不让)(?<!不许)(?:在家|居家)办公"),
        ("workmode", "some-office", r"\b(?:takes|catches|rides|drives) (?:the |a |her |his )?"
                                    r"(?:train|bus|tram|subway|tube|metro|car|bike) to "
                                    r"(?:work|the office)\b|\bcommutes?\b|\bgoes? (?:in)?to the "
                                    r"office\b|\bis in the office\b|(?:去|到)公司上班|通勤"),
        ("works_for", "self", r"\b(?:is|has been|has always been)(?: (?:now|fully|still))? "
                               r"(?:self[- ]employed|freelance)\b|个体户|自由职业者?"
                               r"|\bhas never been on (?:any|a) (?:company['’]s |firm['’]s )?"
                               r"payroll\b"
                               r"|\b(?:works|is) (?:as )?an? freelance(?:r\b| [a-z]+)"
                               r"|从(?:来)?没(?:有)?给(?:别)?人打过工"),
        # an employer not named still employs (在一家国企上班, 在一家外企写代码)
        ("works_for", "another", r"在一家[^，。,；;]{1,8}?(?:上班|工作|任职|写代码|当|做)"
                                  r"|\bis employed (?:full[- ]time |part[- ]time )?(?:as|by|at)\b"),
        ("employment", "employed", r"刚参加工作|刚入职|每天[^，。,；;]{0,10}?(?:去|到)单位打卡"
                                   r"|离退休还有|(?:刚)?升(?:了|为|任)(?:部门)?(?:总监|经理|"
                                   r"主管)|(?:现在|目前)是[^，。,；;]{0,6}(?:经理|主管|总监|员工)"
                                   r"|\bworking (?:\w+ ){0,3}?as an? [a-z]+\b|"
                                   r"\bis on the staff (?:of|at)\b|"
                                   r"\bworks\b(?: (?:\d+|full[- ]time|part[- ]time)"
                                   r"(?: (?:hours|h))?(?: a week)?)? as an? [a-z]+"
                                   # "still works at the post office, hoping to retire"
                                   r"|\bcommutes to (?:her|his|their) (?:[\w-]+ )?job\b"
                                   r"|\bstill (?:works|working|teaches|teaching) (?:full[- ]time )?"
                                   r"(?:at|for|in) "
                                   r"(?:the|a|an) "
                                   r"[a-z][\w-]*(?: (?!as\b|and\b|but\b|since\b)[a-z][\w-]*)?"),
        # nights or days at work ("works night shifts" / "works nine-to-five", 上夜班 / 白班)
        # (not one kept only at weekends: "works night shifts at weekends")
        ("shift", "night", r"(?:\bworks? (?:the )?night(?:s| shifts?)\b|\bnight (?:security|"
                           r"porter|watchman|shift)\b|"
                           r"\bon (?:the )?night shifts?\b|\bworks nights only\b|夜班)"
                           r"(?!\s*(?:at|on|over) (?:the )?weekends?\b)(?!.*周末)"),
        ("shift", "day", r"(?:\bnine[- ]to[- ]five\b|\b9[- ]to[- ]5\b|\bdaytime only\b|"
                         r"\bworks? (?:the )?day "
                         r"shifts?\b|\bon (?:permanent |regular |the )?day shifts?\b|白班|朝九晚五)"
                         r"(?!\s*(?:at|on|over) (?:the )?weekends?\b)"),
        # how, and when, one wants to be reached ("prefers email over phone calls" / "wants
        # to be reached by phone"; "mornings only" / "only in the evenings", 只在上午联系 /
        # 只在晚上联系)
        ("contact", "email", r"\bprefers email\b|\bemail only\b|\b(?:please )?do not phone\b"
                             r"|\bby email only\b"),
        ("contact", "phone", r"\b(?:wants|asks|prefers|likes) to be (?:reached|contacted|called) "
                             r"by phone\b|\b(?:updates|contact) (?:should )?come by phone\b"
                             r"|\bcome by phone\b|\bnever opens (?:his|her|their) email\b"
                             r"|\bfinds email annoying\b"),
        ("contact hours", "morning", r"\b(?:contact hours: )?mornings only\b|\bonly in the "
                                     r"mornings?\b(?=[^.;]*\b(?:call|contact|reach|phone)\b)"
                                     r"|只在上午联系"),
        ("contact hours", "evening", r"\b(?:call|contact|reach|phone)\w* (?:\w+ )?only in the "
                                     r"evenings?\b|\bevenings only\b|只在晚上联系"),
        # how one takes one's tea or coffee: with milk or black, with sugar or none ("takes
        # her tea with milk and two sugars" / "drinks her tea black and unsweetened")
        ("tea milk", "with", r"\btea with (?!no\b)(?:a splash of )?(?:\w+ )?milk\b"),
        ("tea milk", "without", r"\btea black\b|\bblack tea\b(?=[^.;]*\b(?:always|only)\b)"),
        ("tea sugar", "with", r"\btea with [^.;]{0,25}\b(?:one|two|three|\d) sugars?\b"),
        ("tea sugar", "without", r"\btea (?:black and )?unsweetened\b|\btea\b[^.;]{0,20}\bno "
                                 r"sugar\b"),
        ("coffee milk", "with", r"\bcoffee\b[^.;]{0,40}\b(?:a splash of|with) (?!no\b)(?:\w+ )?"
                                r"milk\b"),
        ("coffee milk", "without", r"\bcoffee black\b"),
        ("coffee sugar", "with", r"\bcoffee\b[^.;]{0,25}\b(?:one|two|three|four|\d) sugars\b"),
        ("coffee sugar", "without", r"\bcoffee black,? no sugar\b|\bcoffee\b[^.;]{0,20}\bno "
                                    r"sugar\b|\bcoffee\b[^.;]{0,20}\bunsweetened\b"),
        # how one gets to work every day, one way ("cycles to work every day, rain or shine"
        # / "drives to the office every day"; "commutes by bike")
        ("commute", "bike", r"(?:\b(?:cycles|bikes) (?:in)?to (?:work|the office)\b(?=[^.;]*?"
                            r"\b(?:every (?:single )?(?:day|morning|weekday)|daily)\b)"
                            r"|\bcommutes by (?:bike|bicycle)\b)" + _EVERY_SEASON),
        ("commute", "car", r"\bdrives (?:in)?to (?:work|the office)\b(?=[^.;]*?\b(?:every "
                           r"(?:single )?(?:day|morning|weekday)|daily)\b)" + _EVERY_SEASON),
        ("commute", "foot", r"\bwalks (?:in)?to (?:work|the office)\b(?=[^.;]*?\b(?:every "
                            r"(?:single )?(?:day|morning|weekday)|daily)\b)" + _EVERY_SEASON),
        # one's faith, or none ("is a practising Catholic" / "is an atheist", 是基督徒 /
        # 不信任何宗教); "no longer practises Hinduism" names none
        ("religion", "none", r"\b(?:is|'s) (?:an? )?(?:lifelong |committed |convinced |staunch |"
                             r"firm |confirmed |proud )?"
                             r"(?:atheist|agnostic)\b|"
                             r"\b(?:doesn['’]t|does not) (?:follow|practi[sc]e|have) (?:any|a) "
                             r"religion\b|\bis(?:n['’]t| not) religious\b|无神论|不信(?:任何)?宗教|"
                             r"无宗教信仰|没有(?:任何)?(?:宗教)?信仰"
                             r"|不信教|对宗教(?:毫无|没有|没什么|不感)兴趣|"
                             r"\bhas no (?:religion|religious (?:faith|beliefs?|practice))\b|"
                             r"\bnever prays\b"),
        ("religion", "christian", r"(?<!no longer )(?<!not )\b(?:is|'s|was raised|became) (?:an? )?"
                                  r"(?:devout |practi[sc]ing |committed |lifelong )?"
                                  r"(?:(?:Orthodox|Evangelical) )?"
                                  r"(?:Catholic|Christian|Protestant|Anglican|Methodist|Baptist|"
                                  r"Lutheran)\b|\bconverted to (?:Christianity|Catholicism)\b|"
                                  r"\b(?:goes|attends|has been) (?:to |at )?(?:church|Mass) "
                                  r"(?:every|each) Sunday\b|\bgoes to (?:church|Mass)\b|"
                                  r"基督徒|天主教徒|信(?:仰|的是)?(?:基督|耶稣|天主)|做礼拜|望弥撒"),
        ("religion", "muslim", r"(?<!no longer )(?<!not )\b(?:is|'s|became) (?:a )?(?:devout |"
                               r"practi[sc]ing )?Muslim\b|\bconverted to Islam\b|穆斯林|"
                               r"(?<!never )\bprays five times a day\b|"
                               r"(?<!never )\bfasts (?:every|during|for|through)(?: the)? "
                               r"Ramadan\b|"
                               r"信(?:仰|的是)?伊斯兰"),
        ("religion", "jewish", r"(?<!no longer )(?<!not )\b(?:is|'s|I['’]m) (?:devoutly |"
                               r"observant(?:ly)? )?Jewish\b|\bgoes to synagogue\b|\bkeeps? "
                               r"(?:the )?Shabbat\b|\bfasts (?:every|on) Yom Kippur\b|信犹太教"),
        ("religion", "hindu", r"(?<!no longer )(?<!not )\b(?:is|'s) (?:a )?(?:devout |"
                              r"practi[sc]ing )?Hindu\b|信印度教"),
        # a faith not named ("prays to God every night", "is deeply religious"): against
        # none only
        ("religion", "religious", r"(?<!not )(?<!never )\b(?:is|'s) (?:deeply |very |devoutly |"
                                  r"quite |fairly )?religious\b|"
                                  r"(?<!never )\bprays (?:to God|every (?:night|morning|day)|daily)"
                                  r"|\bgoes to the (?:temple|mosque|gurdwara)\b[^.;]{0,30}\bpray"),
        ("religion", "taoist", r"信(?:仰|的是)?道教|道教徒"),
        ("religion", "buddhist", r"(?<!no longer )(?<!not )\b(?:is|'s) (?:a )?(?:devout |"
                                 r"practi[sc]ing )?Buddhist\b|信佛|信仰佛教|佛教徒|吃斋念佛|"
                                 r"皈依了?佛门"),
        # one's place among siblings ("is the eldest of four" / "is the youngest", 老大 /
        # 最小的)
        ("birth_order", "eldest", r"\b(?:is|was born) the (?:eldest|oldest)" + _NOT_SIBLINGS
                                  + r"(?: child| of)?\b|"
                                  r"家里的?老大|长子|长女|家里最大的|排行老大"),
        ("birth_order", "youngest", r"\b(?:is|was born) the youngest" + _NOT_SIBLINGS
                                    + r"(?: child| of)?\b|"
                                    r"家里最小的|老幺|家里的?老小|排行最小"),
        # the school one is at now (还在读高中 / 在读大学二年级; "is in high school")
        ("school", "primary", r"\b(?:is|are) (?:still )?in (?:primary|elementary) school\b|"
                              r"\b(?:is|are) (?:still )?(?:a|an) (?:primary|elementary)[- ]school "
                              r"(?:pupil|student|kid)\b|小学生|(?:读|上)小学(?!的时候|时|那)|小学[一二三四五六]年级"),
        ("school", "middle", r"\b(?:is|are) (?:still )?in (?:middle|junior high) school\b|"
                             r"(?:是|还是)(?:一名|个)?初中生|(?:读|上)初中(?!的时候|时|那)|初中[一二三]年级|"
                             r"(?:读|上)初[一二三](?!的时候|时|那)"),
        ("school", "high", r"\b(?:is|are) (?:still )?in high school\b|\b(?:is|are) (?:still )?"
                           r"(?:a|an) high[- ]school (?:student|senior|junior|pupil)\b|"
                           r"(?:是|还是)(?:一名|个)?高中生|(?:读|上)高中(?!的时候|时|那)|高中[一二三]年级|"
                           r"(?:读|上)高[一二三](?!的时候|时|那)"),
        ("school", "university", r"\b(?:is|are) (?:still )?(?:an )?(?:undergraduate|"
                                 r"university student|college student)\b|"
                                 r"(?:是|还是)(?:一名|个)?大学生|(?:读|上)大学(?!的时候|时|那)|大学[一二三四]年级|"
                                 r"本科在读|(?:读|上)大[一二三四](?!的时候|时|那)"),
        ("hours", "full-time", _WORK_HOURS + r"full[- ]time\b|\bfull[- ]time (?:job|employee|"
                                             r"position|role|worker|contract)\b|全职"),
        ("hours", "part-time", _WORK_HOURS + r"part[- ]time\b|\bpart[- ]time (?:job|employee|"
                                             r"position|role|worker)\b|兼职"),
    ))
#: no partner at all (against a named one)
#: the families a state is read in (its value a word of ours; what it shows is the text's)
STATE_FAMILIES = frozenset((*(family for family, _value, _pattern in _STATES), "household"))
_SINGLE = guarded(re.compile(
    r"\b(?:is|has been|remains|has (?:stayed|remained))(?: now| still)? single\b|"
    r"\bunmarried\b|\bhas no (?:partner|boyfriend|girlfriend|wife|husband)\b|"
    r"\bhas never been in a relationship\b|"
    r"\b(?:lifelong|confirmed) bachelor\b|"
    r"\b(?:is|has been|remains|became) (?:a )?widow(?:ed|er)?\b|"
    r"\b(?:is|has been)(?:n['’]t| not) (?:seeing|dating) anyone\b"
    r"(?!\s+(?:today|tomorrow|this|until|before|after|on|at\s+(?!the\s+moment)))|"
    r"\bis(?:n['’]t| not) in a relationship\b", re.I))


_IDENTITY = re.compile(r"^\s*(?:is|was|has always been|has been|remains|is still|is now)\s+"
                       r"(?:(?:called|named)\s+)?(?P<prep>(?:in|at|on|with)\s+)?", re.I)


_APPOSITIVE = re.compile(r",\s*(?:his|her|their|the)\s+(?P<marker>only|sole|main|primary|"
                         r"favourite|favorite|home|one)\s+(?P<noun>[a-z]+(?:\s+[a-z]+)?)", re.I)


_ZH_V = r"([^，。,；;、\s的了]{2,12}?)"
#: occupations, by their last characters
_ZH_JOBS = ("CEO|CFO|CTO|COO|总裁|董事长|"
            "医生|老师|教师|护士|律师|会计|工程师|程序员|设计师|总监|前台|接待|司机|厨师|柜员|警察|"
            "记者|作家|演员|店员|服务员|客户经理|销售经理|项目经理|产品经理|公务员|保安|快递员|"
            "园长|校长|院长|店长|厂长|实习生|部门经理|总经理|科员|专员|讲师|副教授|教授|"
            "教导主任|一把手|律师助理")
_ZH_END = r"(?=[，。,；;]|$)"
_ZH_CUES: tuple[tuple[str, re.Pattern[str]], ...] = tuple((f, re.compile(p)) for f, p in (
    ("employer", r"在([^，。,；;、\s了]{2,14}?)"
                 r"(?:工作|上班|任职|实习|[做当](?=[^，。,；;]{0,6}[师员])|"
                 r"做(?=后台|后端|前端|开发|产品|运营|销售|设计|研发|测试|财务|会计|人事|市场|客服|"
                 r"行政|编辑))"
                 rf"|是{_ZH_V}的(?:全职|兼职|正式)?(?:员工|雇员|职员|工程师)"
                 # 仍是腾讯员工, 就职于深圳的腾讯总部, 入职腾讯, 毕业后就进了阿里巴巴
                 r"|是(?!一名|一个|个|名|普通|正式|新|老|临时|合同)([^，。,；;、\s的了]{2,8}?)"
                 r"(?:正式|全职|兼职)?(?:员工|雇员|职员)"
                 rf"|(?:就职|供职|受雇)于(?:[^，。,；;、\s的]{{2,4}}的)?{_ZH_V}{_ZH_END}"
                 r"|(?:进了|入职(?:了)?|加入了?)(?![刚才已了的后前时半一两三四五六七八九十\d])"
                 r"([^，。,；;、\s了的]{2,8}?)(?=[，。,；;]|$|工作|上班|做|当)"),
    # (not a hotel on a trip: 出差三天，住在南山区的一家酒店)
    ("home", rf"(?:住在|(?<!老)家(?:就)?在|住|搬到了?|搬去了?|定居在?|现居(?:于|在)?)"
             rf"(?!在?(?:一起|一块)){_ZH_V}"
             r"(?=[，。,；;、\s的]|$)(?![^，。,；;]{0,8}(?:酒店|宾馆|民宿|旅馆))"),
    ("manager", rf"向{_ZH_V}汇报|(?:领导|上级|老板|上司|经理)(?:是|叫){_ZH_V}{_ZH_END}"),
    ("partner", rf"(?:妻子|丈夫|老婆|老公|太太|女朋友|男朋友|伴侣|对象)(?:是|叫){_ZH_V}{_ZH_END}"
                rf"|和{_ZH_V}结婚|嫁给了?{_ZH_V}{_ZH_END}|娶了{_ZH_V}{_ZH_END}"),
    ("language", rf"母语是{_ZH_V}{_ZH_END}"),
    # what one does for a living (是一名外科医生, 只是个前台接待, 当了护士)
    ("occupation", r"(?:是|当了?|做|现任|担任)(?:一名|一个|一位|个|名|位)?"
                   r"(?:[^，。,；;是]{1,8}?的)?"
                   rf"([^，。,；;的是]{{0,5}}?(?:{_ZH_JOBS})){_ZH_END}"),
    ("blood", r"血型(?:是)?(AB|A|B|O)|(AB|A|B|O)型血"),
    # where one's household registration is (户口落在北京海淀 / 户口至今还在河南周口老家)
    ("hukou", r"户口(?:本)?[^，。,；;在]{0,4}?(?:落在|落户在|迁到了?|在)([^，。,；;、\s的]{2,10}?)"
              r"(?=[，。,；;]|$|老家)"),
))


_ZH_BORN = re.compile(r"生日(?!聚会|派对|宴|会|礼物|蛋糕|祝福)|出生|生于|年生的|年生人")
_ZH_YEAR = r"(?:19|20)\d\d|[一二][九〇零][〇零一二三四五六七八九]{2}"
_ZH_BORN_YEAR = re.compile(rf"(?P<y>{_ZH_YEAR})年(?:出生|生)|(?:出生于|生于)(?P<y2>{_ZH_YEAR})年")
#: an age by its decade (四十出头, 三十多岁, 五十来岁)
_ZH_DECADE = re.compile(r"(?P<tens>[二三四五六七八九])十(?P<part>出头|多岁|"
                        r"多(?![年个次天月周斤公里万千百元块人])|来岁)")
#: an age said now (今年28岁), not one at a time gone (十六岁就出来打工, 18岁那年)
_ZH_AGE = re.compile(r"(\d{1,3}|[一二三四五六七八九十]{1,3})(?:周)?岁"
                     r"(?!那年|时|的时候|就|起|开始|以前|之前|前|的)")


_ZH_NOUN_FAMILIES = {"领导": "manager", "上级": "manager", "老板": "manager", "上司": "manager",
                     "经理": "manager", "妻子": "partner", "丈夫": "partner", "老婆": "partner",
                     "老公": "partner", "太太": "partner", "对象": "partner", "伴侣": "partner",
                     "女朋友": "partner", "男朋友": "partner",
                     "生日": "birthday", "母语": "language",
                     "血型": "blood", "单位": "employer", "公司": "employer",
                     "本科专业": "major"}


#: (never married is no partner's absence: levels.py's family "wed")
_ZH_SINGLE = re.compile(r"单身|未婚(?![夫妻])|丧偶|守寡|没有(?:对象|伴侣|男朋友|女朋友)|一直单着")


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

    @property
    def no_partner(self) -> bool:
        """It says its owner has no partner ("is single", "has been a widow", 丧偶)."""
        return self.key == "partner" and not self.first


def _state(key: str, of: str, value: str, *, noun: str = "", shown: str = "") -> Fact:
    return Fact(key, noun, of, shown or value, value, frozenset((value,)))


#: the user as whom someone reports to ("reports to the user", "reports directly to me")
_TO_THE_USER = re.compile(r"(?:the\s+)?user\b|me\b", re.I)


def _value_fact(key: str, noun: str, of: str, window: str, *, exclusive: bool = True,
                zh: bool = False) -> Fact | None:
    """A fact whose value is read from ``window`` (the words after the cue)."""
    window = window.strip()
    if key in _DATE_FAMILIES:
        date = _zh_date(window) if zh else date_parts(window)
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
    if key == "manager" and _TO_THE_USER.match(window):
        names = ["user"]  # "Dmitri reports directly to the user": the user manages him
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
            prep == "on" and date_parts(window)):
        return None  # "Mirela's flat is in …" says where, not what
    if key == "attr" and noun.split()[-1:] and noun.split()[-1] in ROLES and not marked:
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
        if _NEGATED_CUE.search(rest[max(0, m.start() - 24):m.start()]):
            continue  # "no longer works at Amazon": a denial (denials.py), not a value
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


def age_span(value: str) -> tuple[int, int] | None:
    """The least and most years an age fact's value says ("34", "50-54").

    >>> age_span("34"), age_span("50-54"), age_span("old")
    ((34, 34), (50, 54), None)
    """
    m = re.fullmatch(r"(\d{1,3})(?:-(\d{1,3}))?", value)
    return None if m is None else (int(m.group(1)), int(m.group(2) or m.group(1)))


def _number_facts(of: str, rest: str, text: str) -> list[Fact]:
    """An age ("is 34", "turned 41", "her 35th birthday", "in his early fifties") and
    counts ("has two children", "the father of three kids", "Nina's two cats")."""
    out: list[Fact] = []
    if (decade := _DECADE.search(rest)) is not None:
        low, high = _DECADE_PART[(decade["part"] or "").lower()]
        base = _DECADES[decade["dec"].lower()]
        out.append(_state("age", of, f"{base + low}-{base + high}", shown=decade.group(0)))
    if not _ANY_NUMBER.search(text):
        return out
    if (m := _TURNS_SOON.search(rest)) is not None and not out:
        n = _number(m.group(1))  # "will turn 41 this autumn": 40 now
        out.append(_state("age", of, str(int(n) - 1) if n.isdigit() else n, shown=m.group(0)))
    for pattern in _AGE if _AGE_TRIGGER.search(rest) and not out else ():
        if (m := pattern.search(rest)) is not None:
            out.append(_state("age", of, _number(m.group(1)),
                              shown=m.group(0)))
            break
    if not _COUNT_TRIGGER.search(text):
        return out
    counted = [(m, "team" if pattern is _COUNT[-1] else of) for pattern in _COUNT
               for m in pattern.finditer(rest)]
    # "Nina's two cats …": the owner's count ("Sara's two sons …" is about the sons)
    counted += [(m, "") for m in _OWN_COUNT.finditer(text)
                if stem(m.group(2).lower()) not in _ROLE_STEMS]
    for m, whose in counted:
        noun = (m.group(2).lower().split() or ["children"])[-1]  # "a father of three"
        if noun not in _NOT_COUNTED:
            out.append(_state("count", whose, _number(m.group(1)), noun=noun,
                              shown=m.group(0)))
    return out


def _state_facts(rest: str, of: str, facts: list[Fact]) -> list[Fact]:
    """The one-value states a clause names (:data:`_STATES`, a household, no partner); an
    employer, or working hours, mean employed."""
    out: list[Fact] = []
    if _STATE_TRIGGER.search(rest):
        for family, value, pattern in _STATES:
            if (m := pattern.search(rest)) is not None and not any(f.key == family for f in out):
                out.append(_state(family, of, value, shown=m.group(0).strip()))
        household = next(((v, m) for pattern, v in _HOUSEHOLD if (m := pattern.search(rest))),
                         None)
        if household is not None:
            out.append(_state("household", of, household[0],
                              shown=household[1].group(0).strip()))
        if (_ZH_SINGLE if _HAN.search(rest) else _SINGLE).search(rest):
            out.append(Fact("partner", "", of, "single", "", frozenset()))
    if any(f.key == "employer" or (f.key == "hours" and f.first) for f in (*facts, *out)) and \
            not any(f.key == "employment" for f in out):
        out.append(_state("employment", of, "employed"))
    boss = next((f for f in facts if f.key in ("employer", "manager") and f.first), None)
    if boss is not None and not any(f.key == "works_for" for f in out):
        # an employer or a boss named ("Paolo's boss is Greta Lind": Paolo's): not one's own
        out.append(_state("works_for", of if boss.key == "employer" else boss.of, "another",
                          shown=f"works for {boss.value}" if boss.key == "employer" else
                          f"{boss.noun or 'manager'} is {boss.value}"))
    return out


def kin_of(thing: str, identity: bool, *, zh: bool) -> str:
    """Whose a clause's facts are: its kin's when it names one ("Deepa's husband is
    Catholic", 白雪的母亲是医生: the husband's, the mother's), else its owner's ("");
    ``thing`` what the clause is about, ``identity`` whether it says what that thing is."""
    if zh:
        return "" if identity and not thing.endswith(ZH_ROLES) else thing
    return thing if thing and stem(thing.split()[-1]) in _ROLE_STEMS else "" if identity \
        else thing


#: one's time at work, whose states are one's own ("Ravi's hours are 9 to 5, daytime only")
_OWN_TIME = frozenset(("hours", "schedule", "shift", "shifts", "working", "job", "rota"))


#: the facts a clause about the past still gives: they hold for life
_FOR_LIFE = ("birthday", "birthplace", "raised")


#: the floor one's home is on ("lives on the 9th floor", "flat is on the ground floor", "a
#: ground-floor flat"; ordinals as normal.py writes them)
_HOME_FLOOR = re.compile(
    r"\b(?:lives|living|flat|apartment|home|place)\b[^.;,]{0,30}?\bon the (?P<n>\d{1,3}(?:st|nd|"
    r"rd|th)|ground) floor\b|\b(?P<n2>ground|\d{1,3}(?:st|nd|rd|th))[- ]floor (?:flat|apartment|"
    r"studio|condo)\b", re.I)


def _home_floor(of: str, text: str) -> list[Fact]:
    """The floor a clause says its owner's home is on (family ``floor``)."""
    m = _HOME_FLOOR.search(text)
    if m is None:
        return []
    return [_state("floor", of, f"{(m['n'] or m['n2']).lower()} floor", shown=m.group(0))]


#: the things one may have one of, counted ("only pet" is one pet)
_COUNTED_ONLY = {"pet": "pets", "dog": "dogs", "cat": "cats", "child": "children",
                 "car": "cars", "sibling": "siblings"}
_ONLY_ONE = re.compile(r"^(?:only|sole|one and only) (?P<noun>" + "|".join(_COUNTED_ONLY) + r")$")


def _en_facts(thing: str, rest: str, identity: bool, text: str, past: bool
              ) -> tuple[Fact, ...]:
    """The facts of an English clause (see :class:`Fact`); a clause about the past gives
    only its birth and where its owner grew up."""
    facts: list[Fact] = []
    if identity and thing:
        fact = _identity_fact(thing, rest)
        facts.extend(() if fact is None else (fact,))
        if fact is not None and (counted := _ONLY_ONE.match(thing.lower())) is not None:
            # "Chloe's only pet is a tabby": one pet
            noun = _COUNTED_ONLY[counted["noun"]]
            facts.append(Fact("count", noun, "", "1", "1", frozenset(("1",))))
    of = kin_of(thing, identity, zh=False)
    if of.removeprefix("only ").removeprefix("main ").split(" ")[0] in _OWN_TIME:
        # "Ravi's hours are 9 to 5", "User's only job is night security": his
        of = ""
    if past:  # what still holds of a past: one's birth, where one grew up
        facts += [f for f in _cue_facts(of, rest, facts) if f.key in _FOR_LIFE]
        return tuple(f for f in facts if f.key in _FOR_LIFE)
    facts += _cue_facts(of, rest, facts)
    facts += _number_facts(of, rest, text)
    if "floor" in text:
        facts += _home_floor(of, text)
    if (s := sign_fact(of, rest)) is not None:
        facts.append(s)
    facts += _state_facts(rest, of, facts)
    for m in _APPOSITIVE.finditer(rest):  # "… Gatwick, his home airport"
        key, noun, _marked = _noun_key(f"{m.group('marker')} {m.group('noun')}")
        runs = _name_runs(rest[:m.start()])
        if runs and not any(f.key == key and f.noun == noun for f in facts):
            facts.append(Fact(key, noun, of, runs[-1][1], runs[-1][0],
                              frozenset(low for low, _raw in runs), named=True))
    return tuple(facts)


#: a Chinese value that names no one thing (一家外企, 某个公司)
_ZH_SOME = ("一家", "一个", "一所", "一间", "某")


#: what a Chinese count counts, as the English count's noun (孩子 → "children")
_ZH_COUNTED = {"孩子": "children", "小孩": "children", "娃": "children", "儿子": "sons",
               "女儿": "daughters",
               "闺女": "daughters", "猫": "cats", "狗": "dogs", "车": "cars", "房子": "houses",
               "房": "houses"}
#: (家两个孩子: the household's; 两只英短猫: a breed's name before the animal)
#: (朱丹的两个儿子都…: his two sons)
_ZH_COUNT = guarded(re.compile(
    r"(?:(只|就|一共|总共)(?:有|养了?|生了?)?|有|养了?|生了|"
    r"(?:的|^)(?=[两三四五六]个)|(?:(?<=用户)|^)家(?:里)?)"
    r"(\d{1,2}|[一二两三四五六七八九十]{1,2})(?:个|只|条|位|名|辆|套|台|部)"
    r"(?:[\u4e00-\u9fff]{1,2}?(?=猫|狗))?"
    r"(" + "|".join(_ZH_COUNTED) + ")"))


#: a Chinese favourite: 最喜欢的歌手是周杰伦, 最爱的颜色其实是绿色
_ZH_FAVOURITE = re.compile(r"最(?:喜欢|爱)的(?P<noun>[\u4e00-\u9fff]{1,4}?)(?:其实|一直|就|还)?是"
                           r"(?P<value>[^，。,；;、\s]{1,12})")
#: the animal of one's birth year (属狗, 属相是龙; "born in the Year of the Dragon")
_ZH_ZODIAC = re.compile(r"属(?:相是)?(?P<animal>[鼠牛虎兔龙蛇马羊猴鸡狗猪])")
ZODIAC = "鼠牛虎兔龙蛇马羊猴鸡狗猪"


#: the signs of the (Western) zodiac, each with the day its dates start (the year's first
#: sign, Capricorn, started the December before)
SIGNS = (("capricorn", (1, 1)), ("aquarius", (1, 20)), ("pisces", (2, 19)), ("aries", (3, 21)),
         ("taurus", (4, 20)), ("gemini", (5, 21)), ("cancer", (6, 21)), ("leo", (7, 23)),
         ("virgo", (8, 23)), ("libra", (9, 23)), ("scorpio", (10, 23)),
         ("sagittarius", (11, 22)), ("capricorn", (12, 22)))
_ZH_SIGNS = {"摩羯": "capricorn", "山羊": "capricorn", "水瓶": "aquarius", "宝瓶": "aquarius",
             "双鱼": "pisces", "白羊": "aries", "金牛": "taurus", "双子": "gemini",
             "巨蟹": "cancer", "狮子": "leo", "处女": "virgo", "天秤": "libra", "天平": "libra",
             "天蝎": "scorpio", "射手": "sagittarius", "人马": "sagittarius"}
#: one's sign ("is a Scorpio", "her star sign is Leo", 是天蝎座, 我摩羯座的); "Leo" and
#: "Cancer" alone are a name and an illness, so a sign is read after "is a" or "sign"
_SIGN = guarded(re.compile(
    r"\b(?:is an?|(?:star|sun|zodiac|astrological) sign(?: is)?:?|typical|proud)"
    r"\s+(?-i:(?P<s>Aries|Taurus|Gemini|Cancer|Leo|Virgo|Libra|Scorpio|Sagittarius|"
    r"Capricorn|Aquarius|Pisces))\b|(?P<zh>" + "|".join(_ZH_SIGNS) + ")座", re.I))


def sign_fact(of: str, rest: str) -> Fact | None:
    """One's sign of the zodiac, as the family ``sign`` (its value the English name)."""
    m = _SIGN.search(rest)
    if m is None:
        return None
    return _state("sign", of, m["s"].lower() if m["s"] else _ZH_SIGNS[m["zh"]],
                  shown=m.group(0))


def signs_of(month: int, day: int | None) -> frozenset[str]:
    """The signs a birthday may have: its day's, or a day either side (the dates move by a
    day from year to year); a month alone, the two signs it holds."""
    def sign(m: int, d: int) -> str:
        return [name for name, start in SIGNS if start <= (m, d)][-1]
    if day is None:
        return frozenset((sign(month, 1), sign(month, 28)))
    return frozenset(sign(month, min(31, max(1, d))) for d in (day - 1, day, day + 1))


def _zh_more(of: str, rest: str) -> list[Fact]:
    """A Chinese favourite, the animal of one's birth year and one's sign."""
    out: list[Fact] = []
    if (s := sign_fact(of, rest)) is not None:
        out.append(s)
    if (m := _ZH_FAVOURITE.search(rest)) is not None:
        value = m["value"]
        out.append(Fact("favourite", m["noun"], of, value, value, frozenset((value,))))
    if (z := _ZH_ZODIAC.search(rest)) is not None:
        out.append(_state("zodiac", of, z["animal"]))
    return out


def _zh_counts(of: str, rest: str) -> list[Fact]:
    """A Chinese count (有两个女儿, 养了三只猫); "only" a number of sons or daughters is the
    number of children too (只有一个女儿: one child)."""
    out: list[Fact] = []
    for m in _ZH_COUNT.finditer(rest):
        n = _zh_int(m.group(2))
        if n is None or (m.start() and rest[m.start() - 1] in "没不"):
            continue
        noun = _ZH_COUNTED[m.group(3)]
        out.append(_state("count", of, str(n), noun=noun, shown=m.group(0)))
        if m.group(1) and noun in ("sons", "daughters"):
            out.append(_state("count", of, str(n), noun="children", shown=m.group(0)))
    return out


#: what a pet or a thing of one's is called (家的狗叫"豆豆", 唯一的猫叫咪咪): one value
#: only when 唯一 says there is one (as "Wiebke's only dog is called Bruno")
_ZH_CALLED = re.compile(r"(?P<only>唯一的?)?(?P<noun>狗狗?|猫咪?|宠物|鹦鹉|兔子|仓鼠|乌龟|车|电脑|"
                        r"手机)(?:的名字)?叫(?:做)?[\"“「]?(?P<value>[^，。,；;、\s\"”」]{1,8})")


def _zh_called(of: str, text: str) -> list[Fact]:
    """What a Chinese clause says a pet or a thing is called (family ``name``)."""
    m = _ZH_CALLED.search(text)
    if m is None:
        return []
    value = m["value"]
    return [Fact("name", m["noun"][:1], of, value, value, frozenset((value,)),
                 exclusive=bool(m["only"]), named=True)]


def _zh_facts(thing: str, rest: str, identity: bool, past: bool) -> tuple[Fact, ...]:
    """The facts of a Chinese clause (as :func:`_en_facts`)."""
    facts: list[Fact] = []
    if thing.endswith(("单位", "公司")) and rest.startswith("在"):
        identity = True  # 蔡文的单位在宁波: where she works
    if identity and thing:  # 周杰的领导是王总, 刘洋的生日是3月14日
        family = next((f for noun, f in _ZH_NOUN_FAMILIES.items() if thing.endswith(noun)),
                      None)
        fact = None if family is None else _value_fact(
            family, thing, "", re.sub(r"^(?:是|叫|在)", "", rest), zh=True)
        facts.extend(() if fact is None else (fact,))
    of = kin_of(thing, identity, zh=True)
    if past:
        return tuple(f for f in facts if f.key == "birthday")
    for family, cue in _ZH_CUES:
        said = thing + rest if family == "hukou" else rest  # 崔浩的户口落在…
        m = cue.search(said)
        if m and not any(f.key == family for f in facts) and not _ZH_DENY.search(
                said[:m.start()][-3:]):
            value = next(g for g in m.groups() if g)
            if not value.startswith(_ZH_SOME):  # 在一家外企工作: which one, it does not say
                facts.append(_state(family, "" if family == "hukou" else of, value))
    if not any(f.key == "birthday" for f in facts) and _ZH_BORN.search(rest):
        m = _ZH_DATE_RE.search(rest)
        date = _zh_date(rest)
        if m and date:
            facts.append(Fact("birthday", "", of, m.group(0), "", frozenset(), date))
        elif (y := _ZH_BORN_YEAR.search(rest)) is not None:  # 1990年出生 / 是1985年生的
            facts.append(Fact("birthday", "", of, y.group(0), "", frozenset(),
                              (("y", _zh_int(y["y"] or y["y2"]) or 0),)))
    if (m := _ZH_AGE.search(rest)) is not None and (n := _zh_int(m.group(1))) is not None and (
            "心理年龄" not in rest[:m.start()]):  # 心理年龄永远十八岁: how old one feels
        facts.append(_state("age", of, str(n), shown=m.group(0)))
    elif (d := _ZH_DECADE.search(rest)) is not None:  # 四十出头: 40-44
        base = _zh_int(d["tens"] + "十") or 0
        low, high = {"出头": (0, 4), "多": (1, 9), "来": (-2, 3)}[d["part"][:2].rstrip("岁")]
        facts.append(_state("age", of, f"{base + low}-{base + high}", shown=d.group(0)))
    facts += _zh_counts(of, rest)
    facts += _zh_more(of, rest)
    facts += _zh_called(of, thing + rest)
    facts += _state_facts(rest, of, facts)
    return tuple(facts)


def place_among_siblings(facts: Iterable[Fact]) -> tuple[Denial, ...]:
    """What one's place among one's siblings (the family ``birth_order``) denies: the eldest
    has no older brother or sister, the youngest no younger one ("is the eldest of four
    sisters" / "Camila's older sister Valeria"). Said beside what the clause affirms, which
    still stands ("the youngest of four brothers" has brothers)."""
    sides = {"eldest": "older", "youngest": "younger"}
    return tuple(Denial("hav", (side, "sibling"), True, written=(side, "siblings"), aside=True)
                 for f in facts if f.key == "birth_order" and (side := sides.get(f.first)))


#: a sibling said older or younger than whose sibling they are, with their name ("User's
#: younger brother is Sam", "her older sister, Ana", "User's brother Sam is older than the
#: user")
_SIBLING_ORDER = re.compile(
    r"\b(?P<rel>older|younger|elder|big|little|baby|kid)\s+(?:brother|sister|sibling)"
    r"(?:\s+is|,)?\s+(?P<name>[A-Z][\w-]*)"
    r"|\b(?:brother|sister|sibling),?\s+(?P<name2>[A-Z][\w-]*),?\s+is\s+(?:(?:a\s+)?(?:few|"
    r"two|three|four|five|\d+)\s+years\s+)?(?P<rel2>older|younger)\s+than\b")
_OLDER = frozenset(("older", "elder", "big"))


def sibling_order(text: str) -> dict[str, str]:
    """The siblings ``text`` names, name → "older" or "younger" (than whose sibling they are).

    >>> sibling_order("User's younger brother is Sam"), sibling_order("her big sister, Ana")
    ({'sam': 'younger'}, {'ana': 'older'})
    >>> sibling_order("User's brother Sam is older than the user")
    {'sam': 'older'}
    """
    out: dict[str, str] = {}
    for m in _SIBLING_ORDER.finditer(text):
        name, rel = (m["name"], m["rel"]) if m["name"] else (m["name2"], m["rel2"])
        out[name.lower()] = "older" if rel.lower() in _OLDER else "younger"
    return out
