"""Levels a life is at, each one at a time, that hold from when they were reached — the one
owner of what a life is and has had: health (a chronic condition, or none), how well one
speaks a language, the highest degree, studies over or not, rank at work, a couple parted
or together, smoking and drinking, the body and the day (alive, bedtime, baptism, hand,
eyesight), what one does now or cannot (running, the gym, church, a mortgage, a debt,
a relationship), and what a life has had (surgery, a broken bone, colour vision, a first
child on the way); and an age against a stage of schooling or a state that needs one.

Each is a :class:`~memscope.meaning.facts.Fact` of its own family; :data:`CLASHES` says
which two values of a family cannot both hold ("has type 1 diabetes" / "has no health
conditions at all"; "can only manage a few phrases of Italian" / "fluent in Italian since
childhood"; 最高学历是本科 / 是北大的硕士; "manages a team of eight" / "has no direct
reports"). A level reached in the past still holds ("was diagnosed with asthma in 2019",
"finished university in 2015"), so most are read in clauses about the past too. The rules
are in ``docs/graph-rules.md`` §7 ("Seventh pass"). Pure and deterministic."""

from __future__ import annotations

import re
from collections.abc import Iterable

from memscope.meaning.facts import Fact
from memscope.meaning.prefilter import guarded

#: languages by their English names (matched as written, capitalised)
LANGUAGES = (
    "English|French|German|Spanish|Italian|Portuguese|Dutch|Russian|Polish|Arabic|Hebrew|"
    "Turkish|Greek|Japanese|Korean|Mandarin|Chinese|Cantonese|Hindi|Urdu|Bengali|Punjabi|"
    "Tamil|Swahili|Vietnamese|Thai|Indonesian|Malay|Swedish|Norwegian|Danish|Finnish|Czech|"
    "Hungarian|Romanian|Ukrainian|Persian|Farsi|Welsh|Irish|Gaelic|Icelandic|Tagalog|Yoruba|"
    "Igbo|Hausa|Amharic|Zulu|Xhosa|Afrikaans|Catalan|Basque|Serbian|Croatian|Bulgarian|"
    "Slovak|Slovenian|Lithuanian|Latvian|Estonian|Georgian|Armenian|Kurdish|Pashto|Nepali|"
    "Sinhala|Telugu|Marathi|Gujarati|Kannada|Malayalam|Mongolian|Tibetan|Uyghur|Latin")
_L = rf"(?P<lang>(?-i:{LANGUAGES}))"
#: Chinese names of languages and dialects (广东话 is 粤语)
_ZH_LANGUAGES = ("英语|英文|法语|德语|日语|韩语|西班牙语|俄语|意大利语|葡萄牙语|阿拉伯语|粤语|"
                 "广东话|普通话|汉语|中文|蒙古语|藏语|维吾尔语|维语|上海话|闽南语|闽南话|客家话|"
                 "四川话|泰语|越南语|荷兰语|土耳其语|印地语|拉丁语")
_ZH_L = rf"(?P<lang>{_ZH_LANGUAGES})"
_ZH_SAME_LANGUAGE = {"广东话": "粤语", "英文": "英语", "维语": "维吾尔语", "闽南话": "闽南语",
                     "中文": "汉语"}

#: how well one speaks a language: (level, pattern naming the language as ``lang``)
_PROFICIENCY: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (level, re.compile(pattern, re.I)) for level, pattern in (
        ("fluent", rf"\b(?:is|has been|became|'s) (?:\w+ )?fluent in {_L}"),
        ("fluent", rf"\bspeaks (?:fluent|perfect|flawless|native|excellent) {_L}"),
        ("fluent", rf"\bspeaks {_L} (?:fluently|perfectly|like a native|natively)\b"),
        ("fluent", rf"\b{_L} is (?:his|her|their|my) (?:mother tongue|first language|native "
                   r"(?:language|tongue))\b"),
        ("fluent", rf"\b(?:mother tongue|first language|native (?:language|tongue))(?: is)? {_L}"),
        ("fluent", rf"\bnative {_L} speaker\b"),
        ("fluent", rf"\bnative speaker of {_L}"),
        ("fluent", rf"\bgrew up speaking {_L}"),
        ("fluent", rf"\bbilingual in (?:\w+ and )?{_L}"),
        ("none", rf"\b(?:doesn['’]t|does not|can['’]t|cannot|can not|couldn['’]t) (?:speak|"
                 rf"understand|read) (?:a (?:single )?word of |any )?{_L}"),
        ("none", rf"\b(?:speaks|knows|understands) no {_L}"),
        ("none", rf"\bhas never (?:learned|learnt|studied|spoken) (?:any )?{_L}"),
        ("none", rf"\bdoesn['’]t know (?:a (?:single )?word of |any )?{_L}"),
        ("basic", rf"\b(?:is|has (?:just )?started|just started|began|has begun) learning "
                  rf"{_L}"),
        ("basic", rf"\bspeaks (?:only )?(?:a little|a bit of|some|basic|broken|rudimentary|"
                  rf"schoolboy|schoolgirl|beginner['’]?s?) {_L}"),
        ("basic", rf"\b{_L} is (?:still )?(?:basic|rudimentary|very limited|shaky)\b"),
        ("basic", rf"\bbeginner(?:['’]s)? (?:in |at )?{_L}"),
    ))
#: the Japanese test's top levels, the language unsaid (去年过了JLPT N1)
_ZH_JLPT = re.compile(r"(?:考过了?|过了|拿到了?|通过了?)(?:JLPT|日语能力考试?|日语)\s?"
                      r"N[12](?![\d])")
_ZH_PROFICIENCY: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (level, re.compile(pattern)) for level, pattern in (
        ("fluent", rf"{_ZH_L}是(?:他|她|他们|她们|我|自己)?的?母语"),
        ("fluent", rf"母语是{_ZH_L}"),
        ("fluent", rf"(?:说|讲)(?:得)?(?:一口)?(?:很|非常)?流利的{_ZH_L}"),
        ("fluent", rf"{_ZH_L}(?:说得|讲得|很|非常|特别)+(?:流利|地道)"),
        ("fluent", rf"{_ZH_L}(?:已经)?(?:考过了?|过了|拿到了?)(?:N1|N2|专八|专业八级|"
                   r"DELF ?[BC][12]|[BC][12]|雅思[78]|托福1[01]\d)"),
        ("fluent", rf"(?:做|当)(?:专职)?{_ZH_L}翻译"),
        ("none", rf"(?:一句|一个字|一点)(?:儿)?{_ZH_L}(?:也|都)(?:听不懂|不会|不懂|说不了|不会说)"),
        ("none", rf"(?:完全)?(?:不会|听不懂)(?:说|讲)?{_ZH_L}"),
        ("none", rf"(?:从来?)?没(?:有)?学过(?:任何)?{_ZH_L}"),
        ("basic", rf"(?:正在|在|刚开始|才开始)学{_ZH_L}"),
        ("basic", rf"{_ZH_L}(?:只会|就会)(?:说)?(?:几句|一点)"),
        ("basic", rf"会(?:说)?一点(?:点)?{_ZH_L}"),
    ))
#: a Japanese beginner's first step
_ZH_KANA = re.compile(r"刚学完五十音|才学完五十音|五十音(?:还没|都没)")

#: a chronic condition one has, and none at all
_CONDITION = (r"(?:type\s*[12]\s+|severe\s+|mild\s+|chronic\s+)?(?:diabetes|asthma|epilepsy|"
              r"hypertension|high blood pressure|arthritis|crohn['’]s(?: disease)?|"
              r"multiple sclerosis|copd|co?eliac disease|lupus|a heart condition|heart disease|"
              r"kidney disease|parkinson['’]s|fibromyalgia|chronic migraines?|psoriasis"
              r"|chronic (?!health|medical|condition|illness|disease|problem)[a-z]+)")
_ILL = re.compile(
    rf"(?<!no )(?<!n['’]t )(?<!not )(?<!never )\b(?:has|have|has had|with|lives with|suffers from|"
    rf"is being treated for|was diagnosed with|has been diagnosed with|got diagnosed with|"
    rf"is on medication for|manages (?:his|her|their))\s+(?:(?!no\b)[a-z]+\s+)?{_CONDITION}"
    r"|\bis (?:a )?(?:type\s*[12]\s+)?diabetic\b|\binjects insulin\b|\bon insulin\b", re.I)
_HEALTHY = re.compile(
    r"\bhas no (?:\w+ )?(?:health|medical) (?:conditions?|problems?|issues?)\b"
    r"|\bno (?:chronic|long-term|underlying|known) (?:health |medical )?(?:conditions?|"
    r"illness(?:es)?|diseases?|problems?)\b|\bnothing chronic\b"
    r"|\bis in (?:perfect|excellent) health\b"
    r"|\bhas never been ill (?:a day )?in (?:his|her|their) life\b"
    r"|\b(?:has|got) a clean bill of health\b", re.I)
_ZH_ILL = re.compile(r"(?<![没无不])(?:有|患有|患了|得了|查出(?:了|来)?|确诊(?:了|为)?)"
                     r"(?:[一二12]型|轻度|重度|慢性)?(?:糖尿病|高血压|哮喘|癫痫|心脏病|冠心病|"
                     r"关节炎|痛风|甲亢|甲减|肾病|慢性[\u4e00-\u9fff]{1,3}病)|打胰岛素"
                     r"|(?:高血压|糖尿病)(?:好几|很多|[一二两三四五六七八九十几]+)年")
_ZH_HEALTHY = re.compile(r"没有?任何(?:慢性病|基础病|疾病)|没有?(?:慢性病|基础病)|无慢性病"
                         r"|没什么(?:慢性病|"
                         r"基础病)|体检(?:结果)?(?:各项)?(?:指标)?(?:都|一切)正常"
                         r"|从来?没(?:生过|得过)(?:什么)?(?:大)?病|血压从(?:来)?没高过")

_DEGREE = r"(?:degree|PhD|doctorate|MBA|MSc|BSc|BA|MA|master['’]?s|bachelor['’]?s)"
#: the highest degree one holds, or none; whether one's studies are over
_DEGREES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (level, re.compile(pattern, re.I)) for level, pattern in (
        ("none", r"\b(?:never went to|didn['’]t go to|did not go to|never attended|never "
                 r"studied at) (?:a )?(?:university|college|uni)\b|\bnever (?:been|gone) to "
                 r"(?:university|college|uni)\b|\b(?:yet to|never) (?:finish|complete|earn|get|"
                 r"finished|completed|earned|got) (?:any|a) (?:university |college )?degree\b"
                 r"|\bhighest (?:education|qualification|level of education)(?: is)?:? (?:a |an |"
                 r"his |her |their )?(?:secondary school|high[- ]school|GCSEs?|A[- ]levels?)\b"
                 r"|\bnever went (?:past|beyond) "
                 r"(?:primary|secondary|high) school\b|\bhas no (?:university |"
                 r"college )?degree\b|\bdropped out of (?:high )?school\b|\bnever finished "
                 r"(?:high )?school\b|\bskipped (?:university|college|uni)\b"
                 r"|\bhas(?:n['’]t| not) studied anything since (?:leaving|she left|he "
                 r"left) school\b"
                 r"|\bleft school at (?:1[4-8]|fourteen|fifteen|sixteen|seventeen|eighteen)\b"
                 r"(?=[^.;]*\b(?:no qualifications|never went back)\b)"),
        # studying for a higher degree holds a first one, or at least goes to university
        ("at-university", r"\b(?:years? into|is doing|is studying for|is working on|is "
                          r"pursuing) (?:a |an |her |his |their )?(?:PhD|doctorate|master['’]?s|"
                          r"MSc|MA)\b|\b(?:PhD|doctoral|master['’]?s) (?:student|candidate)\b"
                          r"|\bis (?:currently )?enrolled (?:in|on) (?:a|an) (?:\w+ )?degree\b"
                          r"|\bfinal-year (?:project|dissertation|thesis|exams?)\b"),
        ("bachelor-max", r"\b(?:highest|only) (?:degree|qualification)(?: is)? (?:a |an |his |her |"
                         r"their )?(?:bachelor|BA\b|BSc\b|undergraduate)"),
        ("master-max", r"\b(?:highest|only) (?:degree|qualification)(?: is)? (?:a |an |his |her |"
                       r"their )?(?:master['’]?s|MA\b|MSc\b|MBA\b)"),
        ("doctorate", r"\b(?:has|holds|earned|got|did|completed|finished|was awarded) (?:a |an |"
                      r"her |his |their )?(?:PhD|doctorate|DPhil)\b|\bis a PhD\b"),
        ("master", r"\b(?:has|holds|earned|got|did|completed|finished) (?:a |an |her |his |"
                   r"their )?(?:master['’]?s|MA\b|MSc\b|MBA\b|MPhil\b)"),
        ("bachelor", r"\b(?:has|holds|earned|got|completed) (?:a |an |her |his |their )?"
                     r"(?:bachelor['’]?s|BA\b|BSc\b|undergraduate degree|(?:university |"
                     r"college )?degree)\b|\bgraduated from (?:the )?(?!(?:high|secondary) "
                     r"school)(?-i:[A-Z])[\w.]+(?: of (?-i:[A-Z])[\w.]+)?"
                     r"|\bdid (?:his|her|their) (?:undergrad|undergraduate degree|"
                     r"degree|BA|BSc) at\b"),
        # a degree of some level ("studied law at Salamanca", "an MBA from INSEAD")
        ("some", rf"\b(?:has|holds|earned|got|completed|received|with)\s+(?:a|an)\s+"
                 rf"(?:[\w'’-]+\s+){{0,2}}?{_DEGREE}\b|\b{_DEGREE}\s+(?:in|from)\s+[A-Za-z]"
                 r"|\b(?:studied|read)\s+(?:[a-z]+\s+){0,2}?at\s+(?:the\s+)?(?:University\s+of\s+)?"
                 r"(?-i:[A-Z])"
                 r"|\bgraduated\s+(?:from|in|with)\b"),
    ))
_ZH_DEGREES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (level, re.compile(pattern)) for level, pattern in (
        ("none", r"(?:没有?|从没)(?:上|读|念)过大学|没进过大学(?:校门|的门)"
                 r"|(?:就)?没再(?:念|读|上)(?:过)?"
                 r"(?:书|学)|(?:小学|初中|高中)毕业就(?:出来)?(?:进厂)?(?:工作|打工|上班|参军|当兵)"
                 r"|(?:高中|初中)没(?:读|念)完|再没进过校园"
                 r"|最高学历(?:是|只是|就是)?(?:高中|初中|中专|小学)|没考上大学"
                 r"|辍学|只有(?:初中|高中|中专|小学)(?:学历|文化)|(?:跟|与|和)大学无缘"
                 r"|没有(?:任何)?学位|(?:大学|大[一二三])没(?:读|念)完就退学"),
        # studying for a doctorate or a master's now (在北京读博士, 在读研)
        ("at-university", r"(?<!完)读博(?:士)?(?!.{0,2}毕业)|在读研|在读研究生|读研(?:一|二|三)"),
        ("bachelor-max", r"最高学历(?:是|只是|就是)本科|没(?:读|念|上)过研"
                         r"|没(?:有)?(?:继续)?(?:读|念)研"),
        ("master-max", r"最高学历(?:是|只是|就是)硕士|没(?:读|念)(?:过)?博"),
        ("doctorate", r"是.{0,12}?博士(?!后|生)|博士(?:学位|毕业)|拿到了?博士|读完(?:了)?博士"),
        ("master", r"是.{0,12}?硕士(?!生)|硕士(?:学位|毕业)|研究生毕业|拿到了?硕士"),
        ("bachelor", r"(?:大学|学院|北大|清华|复旦|交大|浙大|南开|武大|人大)[^，。,；;]{0,6}"
                     r"毕业(?!后|以后|那年|时)|本科(?:是)?在.{1,10}?(?:读|念|上)的|本科毕业"
                     r"|大学(?:是)?在.{1,10}?(?:读|念|上)的|大学毕业|本科(?:四|五)年"
                     r"|(?:大学|学院)[^，。,；;]{0,8}(?:系|专业)本科|本科(?:读|念)的是|本科就读于"),
        ("some", r"(?:学院|研究生)毕业|毕业于.{1,12}(?:大学|学院)|学历是(?:本科|硕士|博士|研究生)"
                 r"|(?:学士|硕士|博士)学位"),
    ))
#: studies over ("finished university in 2015", 大学毕业): against still at school
_STUDIES_DONE = re.compile(
    r"\b(?:finished|completed|graduated from) (?:university|uni|college|(?:his|her|their) "
    r"(?:\w+ )?(?:degree|studies))\b|\bgraduated(?: from [A-Z][\w.]+(?: [A-Z][\w.]+)?)? in "
    r"(?:19|20)\d\d\b", re.I)
_ZH_STUDIES_DONE = re.compile(r"(?:大学|本科|研究生)毕业(?!后|以后|那年|时)|已经毕业(?:了)?")
_STILL_STUDYING = re.compile(
    r"\bis in (?:his|her|their) (?:final|last|first|second|third|fourth) year (?:of|at)\b"
    r"|\bis in (?:his|her|their) (?:\d(?:st|nd|rd|th)|final|last) year (?:of|at)\b"
    r"|\bis (?:still )?(?:studying|reading) (?:for )?(?:a |an |her |his |their )?(?:\w+ )?"
    r"(?:degree|BA|BSc)\b", re.I)

#: one's rank at work: leads people (or a firm), or leads no one
_LEADS = re.compile(
    r"\bmanages? (?:a team|a staff|a department) of\b|\bhas (?:\w+ )?direct reports\b"
    # "manages three junior engineers", "supervises a dozen nurses"
    r"|\b(?:manages|supervises|oversees)\s+(?:\d+|two|three|four|five|six|seven|eight|nine|"
    r"ten|eleven|twelve|a few|several|a dozen)\s+(?:[\w-]+\s+){0,2}?(?:people|engineers|"
    r"designers|developers|analysts|staff|employees|nurses|teachers|reports|juniors|interns|"
    r"workers|researchers)\b"
    r"|\b(?:leads|heads|runs) (?:a|the) (?:\w+ )?(?:team|department|group|division)\b"
    r"|\bhas managed the (?:\w+ )?(?:\w+ )?team\b|\bis (?:the )?head of \w+ at\b"
    r"|\bis (?:the )?(?:company['’]s )?(?:CEO|CFO|CTO|COO|head chef)\b"
    r"|\bpromoted to (?:chief \w+ officer|CEO|CFO|CTO|COO|head of)\b[^.;]*\bstill holds\b"
    r"|\bis (?:its|the) (?:CEO|founder|co-founder|managing director|head teacher|headteacher|"
    r"principal|head of (?:the )?\w+)\b|\bis (?:the )?(?:CEO|managing director|head teacher|"
    r"headteacher) (?:of|at)\b", re.I)
_LEADS_NO_ONE = re.compile(
    r"\bhas no (?:direct )?reports\b|\bis an? individual contributor\b|\bmanages no ?one\b"
    r"|\b(?:doesn['’]t|does not) manage (?:anyone|anybody|people|a team)\b"
    r"|\bhas never managed (?:anyone|anybody|people|a team)\b|\bhas no (?:leadership|"
    r"management|managerial) (?:role|responsibilit(?:y|ies))\b|\bis an? (?:\w+ )?intern\b"
    r"|\bis an? teaching assistant\b|\bis (?:still )?an? junior\b|\bgraduate trainee\b"
    r"|\bas the only (?:developer|employee|member of staff)\b"
    # "runs a one-person design studio and has no employees"
    r"|\bhas no (?:employees|staff)\b|\b(?:no one|nobody) reports to\b"
    r"|\bone-(?:person|man|woman) (?:\w+ )?(?:studio|business|firm|company|shop|operation)\b",
    re.I)
_ZH_LEADS = re.compile(r"手(?:底)?下(?:管着|带着|有)"
                       r"|带着?(?:一个)?(?:\d+|[一二两三四五六七八九十几]+)(?:个)?人的团队|管着(?:\d+|[一二两三四五六七八九十几]+)(?:号|个)?人"
                       r"|(?:是|当)(?:公司的?)?(?:创始人|CEO|总经理|园长|校长)")
_ZH_LEADS_NO_ONE = re.compile(r"没(?:有)?带过(?:任何)?(?:下属|团队|人)|没有(?:任何)?下属"
                              r"|(?:是|还是)(?:[^，。,；;是]{1,8}的)?(?:个|一名|一个)?普通(?:员工|专员|"
                              r"职员|老师|教师|科员)"
                              r"|(?:是|还是)(?:个|一名)?实习生")

#: a couple that has parted ("Viktor and Olga broke up", "Olu and his wife divorced in
#: 2020"), and one still together ("is still with his girlfriend Olga", "has been married to
#: Ngozi since 2005"); the partner's name as ``name``, a year as ``year``
_PARTNER_WORD = r"(?:wife|husband|partner|girlfriend|boyfriend|spouse|fianc[ée]e?)"
_PARTED = re.compile(
    rf"^\s*and (?:(?:his|her|their) {_PARTNER_WORD}(?:,? (?P<name>[A-Z][\w-]+))?|"
    r"(?P<name2>[A-Z][\w-]+)),? (?:have |had |finally )?(?:split up|broke up|separated|"
    r"divorced|split)\b(?:[^,;]*?\b(?P<year>(?:19|20)\d\d)\b)?"
    rf"|\b(?:split up|broke up|separated) (?:with|from) (?:(?:his|her|their) {_PARTNER_WORD}"
    r"|(?P<name3>[A-Z][\w-]+))(?:[^,;]*?\b(?P<year2>(?:19|20)\d\d)\b)?", re.I)
_TOGETHER = re.compile(
    rf"\bis still (?:with|together with|married to|engaged to) (?:(?:his|her|their) "
    rf"{_PARTNER_WORD},? )?(?P<name>[A-Z][\w-]+)?"
    rf"|\bstill lives with (?P<name2>[A-Z][\w-]+),? (?:his|her|their) {_PARTNER_WORD}"
    r"|\b(?:has been|is) (?:\w+ly )?married to (?:[\w-]+,? ){0,5}?(?P<name3>[A-Z][\w-]+)?,? "
    r"since (?P<year>(?:19|20)\d\d)\b"
    r"|^\s*and (?P<name4>[A-Z][\w-]+) are still together\b")


def _couple(rest: str, of: str) -> Fact | None:
    """A couple parted or together (:data:`_PARTED`, :data:`_TOGETHER`)."""
    for value, pattern in (("over", _PARTED), ("together", _TOGETHER)):
        if (m := pattern.search(rest)) is None:
            continue
        found = m.groupdict()
        name = next((found[k] for k in ("name", "name2", "name3", "name4") if found.get(k)), "")
        year = next((int(found[k]) for k in ("year", "year2") if found.get(k)), 0)
        still = value == "together" and "still" in m.group(0).lower()
        return Fact("couple", "still" if still else "", of, m.group(0), value,
                    frozenset((value, *((name.lower(),) if name else ()))),
                    (("y", year),) if year else ())
    return None


def _couple_clash(f: Fact, g: Fact) -> bool:
    """A couple parted against one together: the same partner named, "still" together, or
    together since a year before the parting."""
    if {f.first, g.first} != {"over", "together"}:
        return False
    over, together = (f, g) if f.first == "over" else (g, f)
    if (over.names & together.names) - {"over", "together"} or together.noun == "still":
        return True
    parted, since = dict(over.date).get("y", 0), dict(together.date).get("y", 0)
    return bool(parted and since and since < parted)


#: the stage of schooling one is at now, and the ages it is at ("just started secondary
#: school", "is in Year 5", 还在上幼儿园中班; the school states of facts.py too)
STAGE_AGES = {"kindergarten": (2, 6), "primary": (5, 12), "middle": (11, 15),
              "secondary": (11, 18), "high": (14, 19), "university": (16, 120)}
_STAGES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (stage, re.compile(pattern, re.I)) for stage, pattern in (
        ("kindergarten", r"\b(?:is|are) (?:still )?(?:in|at) (?:nursery|kindergarten|pre-?school)"
                         r"\b|\b(?:just )?started (?:nursery|kindergarten|pre-?school)\b"),
        ("primary", r"\b(?:is|are) in (?:his|her|their) (?:\w+ )?year (?:of|at) (?:primary|"
                    r"elementary) school\b|\b(?:just )?started (?:primary|elementary) school\b"
                    r"|\bin Year [1-6]\b"),
        ("secondary", r"\b(?:just )?started (?:secondary|high) school\b|\b(?:is|are) (?:still )?"
                      r"(?:in|at) secondary school\b|\bin Year (?:[7-9]|1[01])\b"),
        # "started an engineering degree at university this September"
        ("university", r"\b(?:just )?(?:started|starts|is starting) (?:university|college|uni\b|"
                       r"an? (?:\w+ ){0,2}"
                       r"degree at (?:university|college|uni\b))"),
    ))
_ZH_STAGES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (stage, re.compile(pattern)) for stage, pattern in (
        ("kindergarten", r"(?:上|读|在)幼儿园|幼儿园(?:小|中|大)班|上早教"),
        ("middle", r"(?:刚)?上(?:了)?初中"),
        ("high", r"(?:读|上)?高[一二三](?!的时候|时|那)|今年高考"),
    ))


def _stage(rest: str, facts: Iterable[Fact], of: str, *, zh: bool) -> Fact | None:
    found = _first(_ZH_STAGES if zh else _STAGES, rest)
    if found is not None:
        return _fact("stage", of, found[0], found[1].group(0))
    school = next((f for f in facts if f.key == "school" and f.of == of), None)
    return None if school is None else _fact("stage", of, school.first, school.value)


#: the youngest one can be in a state (facts.py's and this module's): employed, retired,
#: married, holding a degree, leading people
MIN_AGES = {("employment", "employed"): 14, ("employment", "retired"): 40,
            ("works_for", "self"): 16, ("works_for", "another"): 14,
            ("marital", "married"): 16, ("marital", "divorced"): 17,
            ("marital", "widowed"): 17, ("degree", "bachelor"): 19,
            ("degree", "bachelor-max"): 19, ("degree", "some"): 19, ("degree", "master"): 21,
            ("degree", "master-max"): 21, ("degree", "doctorate"): 24,
            ("studies", "done"): 19, ("rank", "leads"): 18,
            # voting in an election (18 nearly everywhere; 16 in a few countries: a year's
            # slack, so from 17), driving on the road (17, 16 in some places)
            ("voter", "votes"): 18, ("driver", "drives"): 17,
            # a grandparent: two generations of parents (the youngest seen are in their
            # thirties)
            ("grandchildren", "some"): 30}
#: the states only an adult is in, against a stage of schooling too (初一 / 开车上学)
_ADULT_ONLY = frozenset(("voter", "driver"))


def ages_of(f: Fact) -> tuple[int, int] | None:
    """The ages (least, most) a state or a stage of schooling goes with; None for other
    facts."""
    if f.key == "stage":
        return STAGE_AGES.get(f.first)
    low = MIN_AGES.get((f.key, f.first))
    return None if low is None else (low, 200)


def age_against_stage(f: Fact, g: Fact) -> bool:
    """An age and a stage of schooling, or a state, of one owner that do not go together
    ("is 17" / "is in his last year of primary school"; 十五岁 / 上幼儿园中班; "is twelve" /
    "works as a solicitor"; "in his early twenties" / "retired"; "is nine" / "voted in the
    last election"), a year's slack; a stage of schooling and what only an adult does (上初一 /
    每天自己开车上学)."""
    age, other = (f, g) if f.key == "age" else (g, f)
    if (age.key == "stage" and other.key in _ADULT_ONLY) or (
            other.key == "stage" and age.key in _ADULT_ONLY):
        stage, adult = (age, other) if age.key == "stage" else (other, age)
        school, least = ages_of(stage), MIN_AGES[(adult.key, adult.first)]
        return f.of == g.of and school is not None and school[1] < least - 1
    if age.key != "age" or f.of != g.of or (ages := ages_of(other)) is None:
        return False
    span = re.fullmatch(r"(\d{1,3})(?:-(\d{1,3}))?", age.first)
    if span is None:
        return False
    a_low, a_high = int(span.group(1)), int(span.group(2) or span.group(1))
    return a_high < ages[0] - 1 or a_low > ages[1] + 1


#: smoking and drinking: never in one's life, done once, given up, not now, done now (a clause
#: about the past says only "done once": "smoked 20 a day for thirty years")
_HABITS: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (family, value, re.compile(pattern, re.I)) for family, value, pattern in (
        ("smoking", "never", r"\b(?:has )?never (?:once )?smoked\b|\bis a lifelong "
                             r"non-?smoker\b|\bnever been a smoker\b"),
        # "is a non-smoker": not now, whatever before
        ("smoking", "no", r"\bis a non-?smoker\b"),
        ("smoking", "former", r"\b(?:gave up|given up|quit|stopped|kicked|packed in|swore off) "
                              r"(?:smoking|tobacco|cigarettes|the cigarettes|the fags)\b"
                              r"|\b(?:is an? )?(?:ex|former)[- ]smoker\b|\bno longer smokes\b"
                              r"|\bhas(?:n['’]t| not) smoked (?:in|for|since)\b"
                              r"|\bhas(?:n['’]t| not) had a (?:single )?cigarette since\b"
                              r"|\b(?:has been|is) smoke-free\b"
                              r"|\b(?:smoked|smoking)\b[^.;]{0,60}\b(?:packed|knocked|kicked) it "
                              r"(?:in|on the head)\b|\bkicked the habit\b"),
        ("smoking", "once", r"\bsmoked\b(?! (?:salmon|fish|meat|ham))"),
        ("smoking", "now", r"(?<!no longer )(?<!never )(?<!n['’]t )\bsmokes\b(?! (?:his|her|"
                           r"their|its|the) )|\bis a (?:heavy |chain |regular |social |daily )?"
                           r"smoker\b|\b(?:a|one|half a|two) packs? (?:of \w+ )?a day\b|"
                           r"\bchain-?smok"),
        ("drinking", "never", r"\bteetotal (?:(?:his|her|their) (?:entire |whole )?life|all "
                              r"(?:his|her|their) life|since birth)\b|\bhas never (?:once )?"
                              r"(?:drunk|touched) (?:alcohol|a drop|booze)\b|\bnever drunk "
                              r"alcohol\b"),
        ("drinking", "former", r"\b(?:has been|is|stayed) sober (?:for|since)\b|\b(?:gave up|"
                               r"given up|quit|stopped|swore off) (?:drinking|alcohol|booze)\b"
                               r"|\brecovering alcoholic\b"
                               r"|\bhas(?:n['’]t| not) (?:touched|had) (?:a (?:single )?drop"
                               r"(?: of alcohol)?|a drink|any (?:alcohol|wine|beer|spirits|booze)"
                               r"|alcohol)\b|\bhas(?:n['’]t| not) drunk (?:in|for|since)\b"
                               r"|\b(?:has been|is) off (?:alcohol|booze|the booze)\b"),
        ("drinking", "now", r"^(?=.*\b(?:every|most|each|a week|nightly|daily)\b).*?\b(?:a "
                            r"couple of|a few|two|three|several) (?:pints|beers|glasses of wine)"
                            r"\b"),
        ("drinking", "once", r"\bdrank (?:like a fish|heavily|a lot)\b|\bgot (?:properly |really "
                             r"|very |blind )?drunk\b"),
    ))
_ZH_HABITS: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (family, value, re.compile(pattern)) for family, value, pattern in (
        ("smoking", "never", r"从(?:来)?(?:没|不)(?:有)?抽(?:过)?(?:一根)?烟|这辈子没抽过烟|"
                             r"从(?:来)?(?:没|不)(?:有)?碰过烟"
                             r"|一根烟(?:都|也)没(?:碰|抽)过"),
        ("smoking", "former", r"戒(?:了)?烟|(?:早就|已经)不抽(?:烟)?了"
                              r"|(?:\d+|[一二两三四五六七八九十几半]+)(?:年|个月)(?:多)?(?:都)?没(?:有)?"
                              r"(?:抽|碰)(?:过)?(?:一根)?烟"),
        ("smoking", "now", r"(?:每天|一天)(?:大概|都|要|得)?(?:抽(?:一|半|两|大半)包|"
                           r"(?:一|半|两|大半)包烟)|烟民|老烟枪|"
                           r"烟龄|"
                           r"烟瘾(?:很|特别)?大|(?:还是|仍然|依然)(?:每天|一天)(?:一|半|两)包"),
        ("smoking", "once", r"抽过烟|以前(?:每天)?抽烟"),
        ("drinking", "never", r"滴酒不沾|从(?:来)?(?:不|没)喝(?:过)?酒|一口酒都(?:不|没)"),
        ("drinking", "former", r"戒(?:了)?酒|(?:\d+|[一二两三四五六七八九十几]+)年没(?:喝|碰)"
                               r"(?:过)?酒"),
        # (of drink, not tea: 每天喝两杯绿茶 is no drinking)
        ("drinking", "now", r"每(?:天|晚|周)(?:睡前)?(?:都)?(?:得|要)?(?:来|喝)(?:上)?"
                            r"(?:二两|(?:一|两|几)(?:杯|瓶|口))(?:白酒|啤酒|红酒|黄酒|酒)"
                            r"|每(?:天|晚|周[一二三四五六日天]?)[^，。,；;不没]{0,10}(?:喝|来)(?:上)?"
                            r"[^，。,；;]{0,4}(?:白酒|啤酒|红酒|黄酒|二锅头|茅台|威士忌)"),
        ("drinking", "once", r"喝(?:了)?(?:[一二两三四五六七八九十几]+)瓶啤酒|喝醉(?:过|了)"),
    ))


#: states of the body, the day and faith, each one of two at a time: alive or dead, early
#: to bed or late, baptised or not, left- or right-handed, perfect eyesight or glasses
#: a seat taken on some trips only ("on long-haul flights", "on short hops", "on trains")
_ANY_TRIP = (r"(?![^.;,]{0,12}\b(?:on|for|during|when|if)\s+(?:(?:the|a|an|any)\s+)?(?:long|short|"
             r"overnight|night|red-eye|domestic|international|trains?|buses|coach|ferr))")
_BODY: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (family, value, re.compile(pattern, re.I)) for family, value, pattern in (
        ("alive", "dead", r"\b(?:passed away|died|is dead|has died|was killed)\b"),
        ("alive", "alive", r"\b(?:is )?(?:still alive|alive and well|still living)\b"
                           r"|\b(?:is|are) (?:both |very much )?alive\b"),
        ("bedtime", "late", r"\bnight owl\b|\b(?:rarely|never|seldom) (?:goes to bed|hits the "
                            r"hay|turns in|sleeps|gets to bed|asleep|in bed) (?:before|until) "
                            r"(?:midnight|1[0-2]"
                            r"|[1-4](?::\d\d)? ?a\.?m\.?|0[0-4]:\d\d|one|two|three)\b"),
        ("bedtime", "early", r"\bearly bird\b|\b(?:in bed|asleep|out like a light|tucked up) by "
                             r"(?:[789]|ten|nine|eight|seven|10)(?::\d\d)?"
                             r"(?: ?p\.?m\.?| o['’]clock)?(?: sharp)? (?:every|each|most) night\b"
                             r"|\bin bed by [89](?::\d\d)? ?p\.?m"
                             r"|\b(?:usually|always|normally) (?:in bed|asleep) (?:by|before) "
                             r"(?:[89]|10|nine|ten)(?::\d\d)?(?: ?p\.?m\.?)?\b"),
        ("baptised", "no", r"\b(?:has never been|was never|is not|isn['’]t) bapti[sz]ed\b"),
        ("baptised", "yes", r"\b(?:was|has been|got) bapti[sz]ed\b"),
        # one's hand, not a sport's ("plays tennis right-handed")
        # when one gets up: early ("alarm goes off at 06:00 … gets straight up", "up at 5:30
        # every day") or late ("never gets up before ten"), as bedtimes
        ("waking", "late", r"\b(?:never|rarely|seldom) (?:gets up|wakes(?: up)?|is up) "
                           r"(?:before|until) "
                           r"(?:(?:0?9|1[0-2])(?::\d\d)?|nine|ten|eleven|noon|midday)\b"),
        ("waking", "early", r"\b(?:alarm goes off|gets up|wakes up|is up|has been up) (?:at|by) "
                            r"(?:0?[4-7](?::\d\d)?|four|five|six|seven)\b(?:(?! ?p\.?m).)*?"
                            r"\b(?:(?:every|each) (?:morning|day)|for (?:years|decades))\b"),
        ("hand", "left", r"\b(?:is|['’]s|was|am|are|was born) (?:\w+ )?left[- ]handed\b"
                         r"|\ba left[- ]hander\b|^\s*left[- ]handed\s*$|\bis a (?:lefty|"
                         r"southpaw)\b|^(?:User is )?[Aa] lefty\b"
                         r"|\bwrites\b[^.;]{0,30}?\bwith (?:her|his|their|the) left hand\b"),
        ("hand", "right", r"\b(?:is|['’]s|was|am|are|was born) (?:\w+ )?right[- ]handed\b"
                          r"|\ba right[- ]hander\b|^\s*right[- ]handed\s*$"
                          r"|\b(?:strongly|firmly|fully) right[- ]handed\b"
                          r"|\bwrites (?:only )?with (?:her|his|their|the) right hand\b"),
        # insulin: type 1 diabetes needs it ("has type 1 diabetes" / "has never needed insulin")
        ("insulin", "no insulin", r"\b(?:has never|never|doesn['’]t|does not|has not|hasn['’]t) "
                             r"(?:\w+ )?(?:needed|need|taken|take|used|use|injected|been on) "
                             r"insulin\b"),
        ("insulin", "takes insulin", r"\btype[\s-]*(?:1|one|i)\s+diabet(?:es|ic)\b"
                                     r"|\binjects insulin\b|\bon insulin\b"
                                     r"|\binsulin (?:pump|pen|injections?|shots?)\b"),
        # the seat one takes on a plane or a train ("prefers window seats", "always books an
        # aisle seat because window seats make them feel trapped"); not on some trips only
        # ("on long-haul flights", "on short hops")
        ("seat", "aisle", r"\b(?:prefers?|(?:always |only )?(?:asks? for|books?|picks?|chooses?|"
                          r"takes?|requests?|insists? on|goes? for)|likes?)\s+(?:an |the )?aisle "
                          r"seats?\b" + _ANY_TRIP + r"|\bwindow seats? makes? (?:him|her|them|me) "
                          r"feel\b|\b(?:hates?|can['’]t stand|avoids?) (?:the )?window(?: seats?)?"
                          r"\b" + _ANY_TRIP),
        ("seat", "window", r"\b(?:prefers?|(?:always |only )?(?:asks? for|books?|picks?|chooses?|"
                           r"takes?|requests?|insists? on|goes? for)|likes?)\s+(?:a |the )?window "
                           r"seats?\b" + _ANY_TRIP + r"|\b(?:hates?|can['’]t stand|avoids?) "
                           r"(?:the )?aisle(?: seats?)?\b" + _ANY_TRIP),
        ("eyesight", "perfect", r"\bperfect (?:eyesight|vision)\b|\b20/20 vision\b|\bhas never "
                                r"(?:needed|worn|had) (?:glasses|spectacles|contact lenses)\b"),
        ("eyesight", "glasses", r"\b(?:wears|needs) (?:\w+ )?(?:glasses|spectacles|contact lenses)"
                                r"\b|\bwithout (?:his|her|their) (?:reading )?glasses\b|\bis "
                                r"(?:very |severely |badly )?(?:short|near)-?sighted\b"),
        # breakfast skipped or eaten as a habit ("never eats breakfast" / "sits down to a bowl
        # of porridge at 7:30 every day"; not at weekends only)
        ("breakfast", "none", r"\b(?:never|doesn['’]t|does not|rarely) (?:eats?|has|have) "
                              r"breakfast\b"),
        ("breakfast", "eats", r"\b(?:has|eats|sits down to|starts the day with|tucks into)\s+"
                              r"(?:a\s+(?:bowl|plate)\s+of\s+|some\s+)?(?:[\w-]+\s+)?(?:porridge|"
                              r"cereal|oatmeal|muesli|granola|toast|eggs|pancakes|breakfast)\b"
                              r"(?![^.;]*\b(?:weekends?|saturdays?|sundays?|holidays?)\b)"
                              r"(?=[^.;]{0,40}?\b(?:every\s+(?:morning|day)|"
                              r"each\s+morning|at\s+(?:0?[5-9](?::\d\d)?|five|six|seven|eight|"
                              r"nine)\b))"),
        # the colour of one's eyes, by its last colour word ("eyes are a pale, almost grey
        # blue": blue; "has brown eyes")
        *(("eyes", colour, rf"\beyes\s+are\s+(?:an?\s+)?(?:[\w-]+,?\s+){{0,4}}?{word}\b"
           r"(?![- ](?:blue|green|grey|gray|brown|hazel))"
           rf"|\b(?:has|with)\s+(?:(?:bright|dark|light|pale|deep|big)\s+)?{word}\s+eyes\b")
          for colour, word in (("blue", "blue"), ("brown", "brown"), ("green", "green"),
                               ("grey", "gr[ae]y"), ("hazel", "hazel"))),
    ))
_ZH_BODY: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (family, value, re.compile(pattern)) for family, value, pattern in (
        ("alive", "dead", r"去世|过世|病逝|离世|已故|不在(?:人世)?了"
                          r"|走了(?:好|很多|几|[一二两三四五六七八九十]+)(?:些)?年"),
        ("alive", "alive", r"(?:还|仍然|依然)?健在|还活着"),
        # (times as normal.py writes them: 晚上九点 is 21:00, 凌晨三点 03:00)
        ("bedtime", "late", r"夜猫子|不到(?:凌晨[一二三四五1-5]点|0[1-5]:\d\d)不(?:睡|合眼|上床)"
                            r"|(?:熬|拖)到(?:凌晨[一二三四五1-5]点|0[1-5]:\d\d)(?:才|多)"
                            r"|0[1-5]:\d\d(?:以后|之后|后|多)?(?:才|再)(?:睡|入睡|上床)"
                            r"|没(?:有)?在(?:凌晨)?0[1-5]:\d\d(?:之|以)?前(?:睡|入睡|上床)"),
        ("bedtime", "early", r"(?:(?:每晚|每天晚上)?(?:[八九]|[89])点|(?:19|2[0-3]):\d\d)"
                             r"(?:之前|以前|前|左右)?(?:准时|就)?(?:上床|睡觉|睡(?!不着)|入睡)"
                             r"|早睡早起"),
        ("baptised", "no", r"没(?:有)?(?:受|领)(?:过)?洗|从(?:未|没)(?:受|领)(?:过)?洗"),
        ("baptised", "yes", r"受(?:过)?洗|领(?:过)?洗"),
        # born left-handed, which a hand switched since leaves (天生是左撇子 / 写字用右手，是小时候
        # 被老师改过来的)
        ("waking", "late", r"从(?:来)?不在(?:0?9|1[0-2]):\d\d(?:之|以)?前起床"
                           r"|(?:0?9|1[0-2]):\d\d(?:以后|之后|后)才起(?:床)?"),
        ("waking", "early", r"(?:0?[4-6]:\d\d)(?:准时|就)?起床"),
        ("hand", "born-left", r"天生(?:就)?(?:是)?(?:个)?左撇子"),
        ("hand", "left", r"(?<!不是)左撇子|左利手|(?:用|惯用)左手(?:写字|吃饭|拿筷子)"
                         r"|(?:写字|吃饭|拿筷子)(?:、(?:写字|吃饭|拿筷子))*(?:都|也)?用左手"
                         r"|(?<!习)惯用左手"),
        ("hand", "right", r"(?<!不是)右撇子|右利手|(?:干啥|干什么|做什么|什么)都用右手"
                          r"|(?:用|惯用|都是|一直是)右手(?:写字|吃饭|拿筷子)|(?<!习)惯用右手"
                          r"|(?:写字|吃饭|拿筷子)(?:一直|都|向来)?(?:是)?用右手"
                          r"|全靠右手|只能用右手"),
        ("insulin", "no insulin", r"(?:从没|从来没|从未|没)(?:有)?(?:打|用|注射)过胰岛素"
                             r"|不(?:需要|用)(?:打|注射)胰岛素"),
        ("insulin", "takes insulin", r"(?:1|一)型糖尿病|(?<![没不过])(?:打|注射)胰岛素"),
        ("seat", "aisle", r"(?:过道|靠走廊|靠过道)(?:的)?(?:座位|位置|位子|位)"),
        ("seat", "window", r"靠窗(?:的)?(?:座位|位置|位子|位)"),
        ("eyesight", "perfect", r"视力(?:一直)?(?:是)?5\.[0-3]|视力(?:一直)?(?:很|特别|非常)好"
                                r"|从(?:来)?没戴过眼镜|不用戴眼镜"),
        ("eyesight", "glasses", r"近视(?:\d+|[一二三四五六七八九十两几]+)百(?:多)?度|近视\d+度"
                                r"|不戴(?:老花|近视)?(?:眼)?镜[^，。,；;]{0,8}看不清"
                                r"|(?:离开|不戴)眼镜(?:就)?什么都看不清|戴(?:着)?(?:近视|老花)?眼镜"
                                r"|(?<!以前)(?<!之前)(?<!曾经)高度近视|摘了眼镜[^，。,；;]{0,4}看不清"),
    ))


#: what a life has had, or not: surgery, a broken bone, colour vision, a first child on the
#: way against children born ("has never had surgery" / "had her appendix removed"; "broke
#: her wrist skiing in 2018" still holds against "has never broken a bone")
_BONE = (r"(?:wrist|arm|leg|ankle|collarbone|hip|ribs?|nose|fingers?|toes?|foot|hand|elbow|"
         r"shoulder|jaw|femur|kneecap|pelvis|skull|back|neck|thumb|shin)")
_LIFE: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (family, value, re.compile(pattern, re.I)) for family, value, pattern in (
        ("surgery", "none", r"\bnever\s+(?:had|undergone|needed)\s+(?:any\s+|an?\s+)?(?:surgery|"
                            r"surgeries|operations?)(?:\s+of\s+any\s+kind)?\b"
                            r"|\bno\s+(?:previous\s+|prior\s+)?(?:surgery|surgeries|operations)\b"),
        ("surgery", "some", r"\bhad\s+(?:her|his|their|an?)\s+(?:[a-z]+\s+)?(?:removed|replaced|"
                            r"taken\s+out)\b|\bhad\s+(?:her|his|their|an?)\s+(?:[a-z]+\s+)?"
                            r"(?:appendix|tonsils|gallbladder|wisdom\s+teeth)\s+out\b"
                            r"|(?<!never )(?<!not )(?<!n['’]t )\b(?:had|underwent|undergone)\s+"
                            r"(?:an?\s+)?(?:[a-z]+\s+)?(?:surgery|operation)\b"),
        ("broken bone", "none", r"\bnever\s+(?:broken|fractured)\s+(?:a|any|one)\s+(?:single\s+)?"
                                r"bones?\b"),
        ("broken bone", "some", rf"\b(?:broke|fractured|has\s+broken)\s+(?:her|his|their|a|an|"
                                rf"both)\s+(?:left\s+|right\s+)?{_BONE}\b"),
        # never married, or once ("has never been married" / "got divorced in 2015", said of
        # the past too); not a partner (one never married may be engaged)
        ("wed", "never", r"\bhas never (?:been )?married\b|\bnever (?:got )?married\b"),
        ("wed", "once", r"\b(?:is|was|got|has been) (?:now )?(?:divorced|widowed)\b|\bis a "
                        r"widow(?:er)?\b|\bex-(?:wife|husband)\b"
                        r"|\bdivorced (?:his|her|their) (?:first |second )?(?:wife|husband)\b"),
        ("colour vision", "colour-blind", r"(?<!not )(?<!n['’]t )\bcolou?r[- ]blind\b"),
        ("colour vision", "normal", r"\b(?:perfect|normal|full|excellent)\s+colou?r\s+vision\b"
                                    r"|\b(?:is\s+not|isn['’]t)\s+colou?r[- ]blind\b"
                                    r"(?!\s+(?:in|for|when|to)\b)"),
        # a grandchild had: one is old enough to be a grandparent (MIN_AGES)
        ("grandchildren", "some", r"\b(?:has|have)\s+(?:a|an|one|two|three|four|five|\d+)\s+"
                                  r"(?:[a-z-]+\s+)?grand(?:daughters?|sons?|child(?:ren)?|kids?)\b"),
        ("children", "first on the way", r"\b(?:pregnant|expecting)\s+with\s+(?:her|their|his)\s+"
                                         r"first\b|\bexpecting\s+(?:her|their|his)\s+first\s+"
                                         r"(?:child|baby)\b"),
        ("children", "some", r"\b(?:has|have|already\s+has|raising)\s+(?:[a-z-]+\s+)?(?:\d+|two|"
                             r"three|four|five|six|teenage|grown[- ]up|adult|young)\s+"
                             r"(?:[a-z-]+\s+)?(?:children|kids|sons|daughters)\b|\b(?:has|have)\s+(?:a|one)\s+"
                             r"(?:[a-z-]+\s+)?(?:son|daughter|child|kid)\b"),
    ))
#: a bedtime of some nights only ("on weekends", "sometimes", 周末, 偶尔, 假期)
_SOME_NIGHTS = guarded(re.compile(
    r"\b(?:on|at)\s+(?:the\s+)?weekends?\b|\bon\s+(?:\w+days|holidays?)\b"
    r"|\b(?:sometimes|occasionally|now and then|once in a while)\b"
    r"|周末|周[一二三四五六日天]|星期|礼拜|偶尔|有时|节假日|假期|放假", re.I))
#: a wish, a plan or an application: no degree or life event of one's own yet ("hopes to do a
#: PhD", "applied for a master's in law", 考研)
_LIFE_FAMILIES = frozenset(family for family, _value, _pattern in _LIFE)
_NOT_OWN = re.compile(r"\b(?:wants?|hopes?|plans?|planning|would\s+like|dreams?|applying|"
                      r"applied|considering|thinking\s+about|might|(?-i:may)|if)\b"
                      r"|想|希望|打算|准备|如果|可能|考研", re.I)


#: a mortgage still owed ("pays the mortgage on her flat", "still has 18 years left to pay on
#: the mortgage"; not "since paying off the mortgage")
_MORTGAGE_OWED = (r"\bhas a mortgage\b|\bowes\b[^.;]{0,30}?\bon (?:the|her|his|their) "
                  r"mortgage\b|(?<!since )(?<!after )\b(?:is )?paying off (?:a|the|her|his|"
                  r"their) mortgage\b|\bmortgage (?:payments?|repayments?)\b"
                  r"|\byears? left (?:to pay )?on (?:the|her|his|their) mortgage\b"
                  r"|\bpays (?:off )?(?:the|a|her|his|their) mortgage\b")


#: what one does now, or cannot or never does: running (and walking far) against an injury
#: that stops it, the gym against never going; read in clauses about now only
_NOW: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (family, value, re.compile(pattern, re.I)) for family, value, pattern in (
        ("running", "cannot", r"\bon crutches\b|\bwithout (?:his|her|their)? ?crutches\b"
                              r"|\bin a (?:leg |full-leg )?cast\b|\bcan(?:no|['’])?t (?:run|walk)"
                              r"\b|\bhas(?:n['’]t| not) (?:run|been running|gone (?:for a "
                              r"run|running|jogging)) (?:(?:in|for) (?:years|months|ages)\b|"
                              r"since\b)|\buses a wheelchair\b"),
        ("running", "runs", r"\bran (?:a |the )?(?:\d+ ?k|marathon|half[- ]marathon|\d+ ?(?:km|"
                            r"miles?))\b|\bis running (?:the|a) (?:[\w-]+ )?(?:marathon|half[- ]"
                            r"marathon|\d+ ?k)\b|\bruns (?:\d+ ?(?:km|k|miles?)|every|each|"
                            r"daily)|\bgoes (?:running|jogging) (?:every|each|daily)\b"),
        ("gym", "never", r"\bnever (?:been|set foot) (?:inside |in )?(?:a |the )?gym\b"
                         r"|\bhas(?:n['’]t| not) (?:been to|set foot in) (?:a |the )?gym in "
                         r"(?:years|ages|months)\b|\b(?:doesn['’]t|does not|never) go(?:es)? to "
                         r"(?:a |the )?gym\b|\bhas no gym membership\b"),
        ("gym", "goes", r"\b(?:is at|goes to|hits|trains at) the gym (?:at|every|each|most|\d|"
                        r"(?:four|three|five|two) times|on|(?:Mon|Tues|Wednes|Thurs|Fri|Satur|"
                        r"Sun)day)|(?<!no )gym membership\b"),
        # exercise, none or as a habit ("doesn't do any exercise at all" / "runs 10 km every
        # morning before breakfast")
        ("exercise", "none", r"(?:\b(?:doesn['’]t|does not|never) (?:do )?(?:any )?exercise\b"
                             r"|\bnever exercises\b|\bdoes no exercise\b)"
                             r"(?!\s+(?:after|before|on|at(?! all)|in|during|when|while|if)\b)"),
        ("exercise", "regular", r"\b(?:runs|jogs|swims) (?:\d+ ?(?:km|k|miles?) )?every "
                                r"(?:morning|day|evening|weekday)\b|\bexercises (?:every|daily)\b"
                                r"|\bgoes (?:running|jogging|swimming) every\b"),
        # church: goes, or not in years (a faith aside: "a lapsed Catholic" may still go)
        ("church", "goes", r"\bgoes to (?:church|Mass|services?)\b(?=[^.;]*\b(?:every|each|"
                           r"weekly|most)\b)|\bnever misses (?:Sunday )?(?:Mass|church)\b"),
        ("church", "not", r"\bhas(?:n['’]t| not) (?:been to|set foot in|gone to|attended) (?:a )?"
                          r"(?:church|Mass)\b|\b(?:never|doesn['’]t|does not) (?:go|goes) to "
                          r"(?:church|Mass)\b"),
        # someone above one at work, or no one ("is the most senior person at his company;
        # nobody there outranks him" / "has a quarterly review with his boss")
        ("boss", "none", r"\b(?:nobody|no one)\s+(?:there\s+|at\s+(?:the|his|her|their)\s+"
                         r"(?:company|firm)\s+)?outranks\b|\bis the most senior (?:person|"
                         r"employee|member of staff)\b|\bhas no (?:boss|manager|line manager)\b"
                         r"|\b(?:answers|reports) to no(?:body| ?one)\b"),
        ("boss", "has", r"\b(?:with|to|by|from) (?:his|her|their) (?:boss|manager|line manager)\b"
                        r"|\b(?:his|her|their) (?:boss|manager|line manager) (?:is|says|wants|"
                        r"signs|approves|runs)\b"),
        # rent paid, or none ("pays €1,200 a month in rent" / "lives rent-free in a flat his
        # parents own")
        ("rent", "none", r"\brent[- ]free\b|\bpays no rent\b|\b(?:doesn['’]t|does not|never) "
                         r"pays? (?:any )?rent\b"),
        ("rent", "paid", r"\bpays\s+(?:about\s+|around\s+|roughly\s+)?(?:[£$€]|(?:EUR|USD|GBP) )?"
                         r"\d[\d,.]*k?\s+(?:a|per|each)\s+(?:month|week)\s+(?:in\s+)?rent\b"
                         r"|\b(?:his|her|their) (?:monthly )?rent (?:is|comes to)\b"),
        # money put aside, or none ("has no savings whatsoever" / "has roughly £10,000 put
        # aside in a savings account")
        ("savings", "none", r"\bhas no savings\b|\bno savings (?:at all|whatsoever|to speak of)\b"
                            r"|\bhas (?:nothing|zero|not a penny) (?:saved|put aside|put away|in "
                            r"savings)\b"),
        ("savings", "held", r"\bhas (?:about |around |roughly |nearly |over |almost )?"
                            r"(?:[£$€]|(?:EUR|USD|GBP) )?\d[\d,.]*k? (?:saved|put aside|put away|"
                            r"in (?:savings|a savings account))\b"
                            r"|\b(?:in|into) a savings account\b"),
        # a mortgage still owed, or none ("has paid off the mortgage", 全款买的)
        ("mortgage", "none", r"\b(?:has )?paid off (?:the|her|his|their) mortgage\b|\bowes "
                             r"nothing on\b|\bmortgage-free\b|\bhas no mortgage\b|\bhas never "
                             r"had a mortgage\b|\bbought (?:it|the [\w-]+|(?:her|his|their) "
                             r"[\w-]+) outright\b|\bowns? (?:it|the [\w-]+|(?:her|his|their) "
                             r"[\w-]+) outright\b|"
                             r"\b(?:last|final) mortgage (?:payment|repayment)\b"
                             r"|\b(?:since|after) paying off (?:the|her|his|their) mortgage\b"),
        ("mortgage", "owes", _MORTGAGE_OWED),
        # owing nothing at all, or owing on a loan or a card ("is completely debt-free" /
        # "still owes £18,000 on her student loan")
        ("debt", "none", r"\b(?:is |completely |entirely |totally )*"
                         r"(?:debt-free|free of debts?)\b"
                         r"|\bhas (?:no|zero) debts?"
                         r"(?: at all| of any kind)?\b|\bowes (?:nothing|no one|nobody) (?:anything"
                         r")?\b|\b(?:has )?(?:never|not) (?:had|taken(?: out)?) (?:a |any )?"
                         r"(?:loans?|debt)\b|\bowes (?:him|her|them) nothing\b|\bno loans\b"
                         r"|\bnever (?:having )?borrowed\b"),
        ("debt", "owes", r"\b(?:still )?owes (?:(?:her|his|their) [\w-]+ )?(?:about |around |"
                         r"roughly |over |nearly |almost )?(?:[£$€]|(?:EUR|USD|GBP) )?\d[\d,.]*k?\b"
                         r"|\bloan\b[^.;]{0,40}\bis still (?:being paid off|being repaid|"
                         r"outstanding)\b|\b(?:still )?(?:is )?paying (?:off|back) "
                         r"(?:about |around |roughly |nearly |over )?[£$€]?\d[\d,.]*k? (?:in|of) "
                         r"(?:student |car |personal )?loans?\b"
                         r"|\b(?:still )?(?:is )?paying (?:off|back) "
                         r"(?:a|her|his|their) "
                         r"(?:[£$€]?\d[\d,.]*k?(?:[- ](?:dollar|euro|pound|yuan))? )?"
                         r"(?:large |big |huge |small )?(?:student |car |personal |bank )?"
                         r"(?:loan|debt|credit card)|\bhas "
                         r"(?:[£$€]?\d[\d,.]*k? (?:of |in )?)?(?:credit[- ]card|student|"
                         r"personal) (?:loan |debt)"
                         # a mortgage is a debt ("owes nothing to anyone" / "pays the mortgage
                         # on her flat")
                         r"|" + _MORTGAGE_OWED),
        # high school left unfinished, or finished ("dropped out of high school at 16" /
        # "finished high school as class valedictorian")
        ("high school", "dropped out", r"\bdropped out of (?:high|secondary) school\b"
                                       r"|\bnever finished (?:high|secondary) school\b"),
        ("high school", "finished", r"\b(?:finished|completed|graduated from) (?:high|secondary) "
                                    r"school\b"),
        # never in a relationship, or once ("her ex-boyfriend", "broke up with")
        ("dated", "never", r"\bhas never (?:been in a (?:romantic |serious )?relationship|had a "
                           r"(?:girlfriend|boyfriend|"
                           r"partner)|dated anyone|been on a date)\b"),
        ("dated", "once", r"\bex-(?:girlfriend|boyfriend|wife|husband|partner|fianc[ée]e?)\b"
                          r"|\b(?:broke|split) up with\b|\bgot divorced\b"
                          r"|\blives with (?:his|her|their) (?:girlfriend|boyfriend|partner|wife|"
                          r"husband|fianc[ée]e?)\b"),
    ))
_ZH_NOW: tuple[tuple[str, str, re.Pattern[str]], ...] = tuple(
    (family, value, re.compile(pattern)) for family, value, pattern in (
        ("running", "cannot", r"拄(?:着)?拐|打着?石膏|(?:再也)?跑不了(?:步)?"
                              r"|不(?:让|许)(?:他|她)?跑(?:步)?|(?:\d+|[一二两三几]+)年没跑(?:过)?(?:步)?"
                              r"|告别(?:了)?长跑|禁(?:止)?跑(?:步)?|(?:\d+|[一二两三几]+)年一步都没跑过"),
        ("running", "runs", r"每(?:天|周|个月)[^，。,；;]{0,6}跑(?:步|[^，。,；;]{0,4}?"
                            r"[一二三四五六七八九十\d]+公里)"
                            r"|跑完(?:了)?(?:全马|[^，。,；;]{0,6}马拉松)|在练马拉松|(?:都|每天)去跑[一二三四五六七八九十\d]+公里"),
        ("gym", "never", r"从(?:来)?没(?:进|去)过健身房|没办过健身卡|从不去健身房"),
        ("gym", "goes", r"(?:每天|每周)[^，。,；;]{0,6}(?:去健身房|撸铁)|健身狂"),
        ("church", "goes", r"每(?:周|个?星期)(?:日|天|末)?(?:都)?(?:去|上)(?:教堂|做礼拜|望弥撒)"),
        ("church", "not", r"从(?:来)?(?:未|没|不)(?:进|去)(?:过)?教堂"),
        ("mortgage", "none", r"全款买的|一次性付清|没(?:有)?(?:任何)?(?:贷款|房贷)"
                             r"|从(?:来)?没(?:贷过款|借过贷款)|没借过贷款|房贷[^，。,；;]{0,6}还清"),
        ("mortgage", "owes", r"房贷(?:还)?(?:有|剩)|还有[^，。,；;]{0,8}房贷|每月(?:还|交)房贷"
                             r"|房贷还(?:得|要)(?:再)?还|房贷[^，。,；;]{0,4}还没还(?:完|清)"
                             r"|房贷[：:]\s*每月|每个?月[^，。,；;]{0,6}的房贷"
                             r"|月供"),
        ("dated", "never", r"没谈过恋爱|从(?:来)?没谈过(?:恋爱|对象|男朋友|女朋友)|母胎单身"),
        # high school left unfinished, or finished (高中没读完就辍学了 / 高中毕业生); a stay in
        # hospital, never or once (从来没住过院 / 在医院住了一个月)
        ("high school", "dropped out", r"高中没(?:读|念)完|高中(?:时)?(?:就)?辍学"),
        ("high school", "finished", r"高中毕业"),
        ("hospital", "never", r"(?:从来|从)?没(?:有)?住过院"),
        ("hospital", "once", r"(?:在医院)?住(?:了|过)[^，。,；;]{0,4}院|在医院住了"),
        ("dated", "once", r"前女友|前男友|前妻|前夫|分(?:了)?手|离过婚"),
        # never married, or once (an ex-wife, a divorce)
        ("wed", "never", r"从(?:来)?没(?:有)?结过婚|没结过婚|(?:一直|还)?没(?:有)?结婚"),
        ("wed", "once", r"前妻|前夫|离过婚|离婚了|丧偶"),
        # owing nothing at all, or owing on a loan (助学贷款还清了 / 还剩三万没还)
        ("debt", "none", r"(?:贷款|欠款|债)[^，。,；;]{0,6}(?:全部|都|已经)?还清"
                         r"|一分钱(?:都|也)?不欠|(?:没有|无)(?:任何)?(?:负债|债务|欠款|贷款)"
                         r"|不欠(?:任何人|别人)?(?:一分)?钱"),
        ("debt", "owes", r"(?:贷款|欠款|债)[^，。,；;]{0,4}还(?:剩|欠|差)"
                         r"|还(?:欠|剩)[^，。,；;]{0,8}没还"
                         r"|(?:每个?月|每月)(?:要|得)?还[^，。,；;]{0,8}(?:房贷|车贷|贷款)"
                         r"|(?:房贷|车贷)(?:还剩|还有|没还完)|欠了?(?:一屁股|很多|不少|一大笔)?债|"
                         r"欠着[^，。,；;]{0,8}(?:房贷|车贷|贷款|钱|债)|"
                         r"信用卡(?:都)?刷爆"),
    ))


_WAS = re.compile(r"\b(?:was|were|used to|had been)\b", re.I)


def _now(rest: str, of: str, *, zh: bool, past: bool) -> list[Fact]:
    """What one does now, or cannot (:data:`_NOW`); in a clause about the past ("was on
    crutches in 2019") only what a past says for good: married once, or in love once
    (用户的前妻…, an ex-wife)."""
    if past or (not zh and _WAS.search(rest)):
        return [f for f in _families(_ZH_NOW if zh else _NOW, rest, of)
                if f.key in ("wed", "dated") and f.first == "once"]
    return _families(_ZH_NOW if zh else _NOW, rest, of)


def _families(table: Iterable[tuple[str, str, re.Pattern[str]]], rest: str, of: str,
              *, past: bool = False) -> list[Fact]:
    """The first value of each family of ``table`` a clause says; in a clause about the past
    a value "now" is "once" (smoking: "smoked 20 a day for thirty years")."""
    out: list[Fact] = []
    for family, value, pattern in table:
        if not any(f.key == family for f in out) and (m := pattern.search(rest)) is not None:
            out.append(_fact(family, of, "once" if past and value == "now" else value,
                             m.group(0)))
    return out


def given_up_habits(text: str) -> frozenset[str]:
    """The habits (``smoking``, ``drinking``) ``text`` says its owner gave up: the
    "former" values of :data:`_HABITS` ("quit drinking in 2019", "has been sober for ten
    years", 戒烟三年了).

    >>> sorted(given_up_habits("Ahmed has not smoked since 2015."))
    ['smoking']
    >>> sorted(given_up_habits("戒酒五年了"))
    ['drinking']
    """
    table = _ZH_HABITS if re.search(r"[\u4e00-\u9fff]", text) else _HABITS
    return frozenset(family for family, value, pattern in table
                     if value == "former" and pattern.search(text))


def _habits(rest: str, of: str, *, zh: bool, past: bool) -> list[Fact]:
    """Smoking and drinking (:data:`_HABITS`); in a clause about the past, only done once."""
    return _families(_ZH_HABITS if zh else _HABITS, rest, of, past=past)


#: two values of a family that cannot both hold
CLASHES: dict[str, frozenset[frozenset[str]]] = {
    "health": frozenset((frozenset(("ill", "healthy")),)),
    "proficiency": frozenset((frozenset(("none", "fluent")), frozenset(("basic", "fluent")))),
    "degree": frozenset(frozenset(p) for p in (
        ("none", "bachelor"), ("none", "master"), ("none", "doctorate"),
        ("none", "bachelor-max"), ("bachelor-max", "master"), ("bachelor-max", "doctorate"),
        ("master-max", "doctorate"), ("none", "master-max"), ("none", "at-university"),
        ("none", "some"))),
    "studies": frozenset((frozenset(("done", "studying")),)),
    "rank": frozenset((frozenset(("leads", "no-one")),)),
    "couple": frozenset((frozenset(("over", "together")),)),
    "alive": frozenset((frozenset(("alive", "dead")),)),
    "bedtime": frozenset((frozenset(("early", "late")),)),
    "hand": frozenset((frozenset(("left", "right")),)),
    "seat": frozenset((frozenset(("window", "aisle")),)),
    "high school": frozenset((frozenset(("dropped out", "finished")),)),
    "exercise": frozenset((frozenset(("none", "regular")),)),
    "hospital": frozenset((frozenset(("never", "once")),)),
    "waking": frozenset((frozenset(("early", "late")),)),
    "insulin": frozenset((frozenset(("no insulin", "takes insulin")),)),
    **{family: frozenset((frozenset(values),)) for family, values in (
        ("surgery", ("none", "some")), ("broken bone", ("none", "some")),
        ("colour vision", ("colour-blind", "normal")),
        ("children", ("first on the way", "some")))},
    "running": frozenset((frozenset(("cannot", "runs")),)),
    "gym": frozenset((frozenset(("never", "goes")),)),
    "church": frozenset((frozenset(("goes", "not")),)),
    "baptised": frozenset((frozenset(("yes", "no")),)),
    "mortgage": frozenset((frozenset(("none", "owes")),)),
    "savings": frozenset((frozenset(("none", "held")),)),
    "rent": frozenset((frozenset(("none", "paid")),)),
    "boss": frozenset((frozenset(("none", "has")),)),
    "debt": frozenset((frozenset(("none", "owes")),)),
    "wed": frozenset((frozenset(("never", "once")),)),
    "dated": frozenset((frozenset(("never", "once")),)),
    "eyesight": frozenset((frozenset(("perfect", "glasses")),)),
    "breakfast": frozenset((frozenset(("none", "eats")),)),
    # (hazel is green and brown; a grey may be a grey-blue)
    "eyes": frozenset(frozenset(p) for p in (("blue", "brown"), ("brown", "green"),
                                             ("brown", "grey"))),
    **dict.fromkeys(("smoking", "drinking"), frozenset(frozenset(p) for p in (
        ("never", "once"), ("never", "former"), ("never", "now"), ("former", "now"),
        ("no", "now")))),
}


def _fact(key: str, of: str, value: str, shown: str, noun: str = "") -> Fact:
    return Fact(key, noun, of, shown, value, frozenset((value,)))


def _first(patterns: Iterable[tuple[str, re.Pattern[str]]], text: str
           ) -> tuple[str, re.Match[str]] | None:
    return next(((level, m) for level, p in patterns if (m := p.search(text))), None)


def _proficiency(rest: str, of: str, *, zh: bool) -> list[Fact]:
    """How well the owner speaks each language a clause names (:data:`_PROFICIENCY`)."""
    out: list[Fact] = []
    for level, pattern in _ZH_PROFICIENCY if zh else _PROFICIENCY:
        if (m := pattern.search(rest)) is not None:
            lang = m["lang"] if zh else m["lang"].lower()
            lang = _ZH_SAME_LANGUAGE.get(lang, lang)
            if not any(f.noun == lang for f in out):
                out.append(_fact("proficiency", of, level, m.group(0), noun=lang))
    if zh and (m := _ZH_JLPT.search(rest)) and not any(f.noun == "日语" for f in out):
        out.append(_fact("proficiency", of, "fluent", m.group(0), noun="日语"))
    if zh and _ZH_KANA.search(rest) and not any(f.noun == "日语" for f in out):
        out.append(_fact("proficiency", of, "basic", "五十音", noun="日语"))
    return out


def _schooling(rest: str, of: str, *, zh: bool) -> list[Fact]:
    """The highest degree a clause gives its owner, and whether their studies are over."""
    out: list[Fact] = []
    found = _first(_ZH_DEGREES if zh else _DEGREES, rest)
    if found is not None:
        out.append(_fact("degree", of, found[0], found[1].group(0)))
    done = (_ZH_STUDIES_DONE if zh else _STUDIES_DONE).search(rest)
    if done is not None:
        out.append(_fact("studies", of, "done", done.group(0)))
    elif not zh and (still := _STILL_STUDYING.search(rest)) is not None:
        out.append(_fact("studies", of, "studying", still.group(0)))
    return out


def level_facts(rest: str, of: str, *, zh: bool) -> list[Fact]:
    """The levels a clause's words give its owner (``of``: the owner's kin, or "")."""
    low = rest.lower()
    out = _proficiency(rest, of, zh=zh) if _holds("proficiency", low) else []
    for key, yes, no in (("health", _ZH_ILL if zh else _ILL, _ZH_HEALTHY if zh else _HEALTHY),
                         ("rank", _ZH_LEADS if zh else _LEADS,
                          _ZH_LEADS_NO_ONE if zh else _LEADS_NO_ONE)):
        values = ("ill", "healthy") if key == "health" else ("leads", "no-one")
        if not _holds(key, low):
            continue
        if (m := no.search(rest)) is not None:
            out.append(_fact(key, of, values[1], m.group(0)))
        elif (m := yes.search(rest)) is not None:
            out.append(_fact(key, of, values[0], m.group(0)))
    if not zh and _holds("couple", low) and (couple := _couple(rest, of)) is not None:
        out.append(couple)
    return out + (_schooling(rest, of, zh=zh) if _holds("degree", low) else [])


#: words one of which a clause must hold for a group of levels to be read in it (cheap
#: substring tests: most clauses name none); each pattern of a group needs one of its words
_WORDS = {
    "proficiency": ("fluent", "speak", "spoke", "tongue", "native", "learn", "word of",
                    "bilingual", "beginner", "rudimentary", "limited", "shaky", "understand",
                    "knows no", "know no", "language", "read", "studied", "basic", "语", "话",
                    "文", "五十音", "翻译", "n1", "n2"),
    "health": ("diabet", "asthma", "epilep", "hypertens", "pressure", "arthrit", "crohn",
               "sclerosis", "copd", "eliac", "lupus", "heart", "kidney", "parkinson",
               "fibromyalg", "migraine", "psoriasis", "insulin", "health", "medical", "chronic",
               "condition", "illness", "disease", "ill ", "病", "血", "胰岛素", "体检", "哮喘",
               "癫痫", "痛风", "甲亢", "甲减"),
    "rank": ("manag", "report", "lead", "head", "runs", "ceo", "founder", "director",
             "supervis", "oversee", "employees", "staff", "one-",
             "principal", "intern", "contributor", "assistant", "junior", "trainee", "only dev",
             "only employee", "cfo", "cto", "coo", "chef", "带过", "管", "下属", "团队",
             "创始人", "总经理", "园长", "校长", "员工", "专员", "职员", "老师", "教师", "科员",
             "实习"),
    "couple": ("split", "broke up", "separated", "divorc", "still", "married"),
    "degree": ("universit", "college", "uni", "degree", "studied", "学位", "school", "phd",
               "doctor", "master", "ma", "msc", "mba", "mphil", "ba", "bsc", "graduat",
               "undergrad", "qualification", "finish", "complet", "year", "studying", "reading",
               "bachelor", "念书", "读书", "学", "毕业", "博", "硕士", "研", "本科", "大学",
               "高中", "初中", "辍", " read "),
    "habits": ("smok", "cigar", "fags", "drunk", "drink", "drank", "alcohol", "sober",
               "teetotal", "booze", "pint", "beer", "wine", "drop", "烟", "抽", "酒", "喝醉",
               "pack", "二锅头", "茅台", "威士忌", "一包"),
    "body": ("died", "dead", "passed away", "killed", "alive", "living", "owl", "bed", "asleep",
             "hay", "bird", "turns in", "sleep", "light", "tucked", "handed", "hander", "lefty",
             " hand",
             "southpaw", "eyesight", "vision", "glasses", "spectacles", "contact", "sighted",
             "bapti", "世", "故", "健在", "活着", "夜猫子", "睡", "上床", "合眼", "熬", "撇子",
             "左手", "右手", "视力", "近视", "眼镜", "花镜", "洗", "不在", "走了", "离世", "病逝",
             "左利手", "右利手", "aisle", "window", "过道", "走廊", "靠窗", "insulin",
             "diabet", "胰岛素", "糖尿病", " up ", "alarm", "起床", "起", "eyes", "wakes",
             "breakfast", "porridge", "cereal", "oatmeal", "muesli", "granola", "toast"),
    "life": ("surger", "operation", "removed", "replaced", "taken out", " out ", "bone", "broke",
             "fractur", "colour", "color", "pregnant", "expecting", "son", "daughter", "child",
             "grand",
             "kid", "married", "divorced", "widow", "ex-"),
    "now": ("crutch", "cast", "run", "ran", "walk", "wheelchair", "marathon", "jog", "gym",
            "high school", "secondary school", "exercise", "swim",
            "mortgage", "outright", "owes", "debt", "loan", "relationship", "girlfriend",
            "saving", "saved", "put aside", "put away", "rent", "outranks", "senior",
            "boss", "manager", "reports to no", "answers to",
            "boyfriend", "dated",
            "date", "ex-", "broke up", "split up", "divorced", "church", "mass", "servic", "拐",
            "石膏", "跑", "马拉松", "健身", "撸铁", "贷", "全款", "付清", "月供", "恋爱",
            "谈过", "母胎", "前女友", "前男友", "前妻", "前夫", "分手", "分了手", "离过婚",
            "教堂", "礼拜", "弥撒", "结婚", "结过婚", "离婚", "丧偶", "欠",
            "还清", "负债", "债", "高中", "院"),
}


#: each group's words as one pattern (one search instead of a test per word)
_WORDS_ANY = {group: re.compile("|".join(map(re.escape, words)))
              for group, words in _WORDS.items()}


def _holds(group: str, low: str) -> bool:
    """Whether a clause (lower-cased) holds a word of ``group`` (:data:`_WORDS`).

    >>> _holds("now", "she still owes £200"), _holds("now", "she likes tea")
    (True, False)
    """
    return _WORDS_ANY[group].search(low) is not None


def levels_of(rest: str, of: str, facts: Iterable[Fact], *, zh: bool, past: bool = False
              ) -> tuple[Fact, ...]:
    """:func:`level_facts`, and studies not over for one at a school now (``facts``: the
    clause's other facts: "is in high school", 在读大学二年级)."""
    facts = tuple(facts)
    low = rest.lower()
    out = level_facts(rest, of, zh=zh)
    for group, read in (("habits", lambda: _habits(rest, of, zh=zh, past=past)),
                        ("body", lambda: _families(_ZH_BODY if zh else _BODY, rest, of)),
                        ("now", lambda: _now(rest, of, zh=zh, past=past)),
                        ("life", lambda: [] if zh else _families(_LIFE, rest, of))):
        if _holds(group, low):
            out += read()
    if _NOT_OWN.search(rest):  # wished for, not had
        out = [f for f in out if f.key not in ("degree", *_LIFE_FAMILIES)]
    if any(f.key in ("bedtime", "waking") for f in out) and _SOME_NIGHTS.search(rest):
        # 周末常常熬到凌晨一点才睡: some nights
        out = [f for f in out if f.key not in ("bedtime", "waking")]
    if past:  # one's hand as a child is not one's hand now (小时候被硬掰成用右手写字), nor
        # eyesight once that of now (以前近视六百度 / 做了全飞秒，现在不用戴眼镜)
        out = [f for f in out if f.key not in ("hand", "eyesight")]
    stage = _stage(rest, facts, of, zh=zh)
    if stage is not None:
        out.append(stage)
        if not any(f.key == "studies" for f in out):
            out.append(_fact("studies", of, "studying", stage.value))
        if stage.first == "university" and not any(f.key == "degree" for f in out):
            out.append(_fact("degree", of, "at-university", stage.value))
    return tuple(out)


def clash(f: Fact, g: Fact) -> bool | None:
    """Whether two facts of one family of levels (same owner) cannot both hold; None when
    they are not levels, or levels of two languages."""
    pairs = CLASHES.get(f.key)
    if f.key == "couple":
        return _couple_clash(f, g)
    if pairs is None or f.noun != g.noun:
        return None
    return f.first != g.first and frozenset((f.first, g.first)) in pairs
