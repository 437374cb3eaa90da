"""Levels a life is at (issue 35, ``memscope/meaning/levels.py``): health, how well one
speaks a language, the highest degree, studies over or not, rank at work, a couple parted
or together, smoking and drinking (never, once, given up, now), alive or dead, early to
bed or late, left- or right-handed, perfect eyesight or glasses, running against an injury
that stops it, the gym or never, a mortgage owed or none, never in a relationship or once,
an age against the stage
of schooling, and one's only car electric against fuelling it (``situations.py``). Each
rule with the look-alikes it must leave alone; English and Chinese. Sentences here are
this file's own, not the labelled sets'."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memscope.graph.analysis import analyse
from memscope.meaning.audit import semantic_findings
from memscope.meaning.claims import claim, conflict
from memscope.meaning.findings import SemanticFinding
from memscope.records.dataset import from_feed_pages

CONFLICTS = [
    # a chronic condition, and none at all
    ("Oskar has asthma and carries an inhaler.", "Oskar has no health conditions whatsoever."),
    ("Oskar is a type 2 diabetic.", "Oskar is in perfect health, with nothing chronic."),
    ("Oskar was diagnosed with epilepsy in 2019.", "Oskar has no medical conditions."),
    ("方宁患有高血压，每天吃药。", "方宁没有任何慢性病。"),
    ("方宁前年查出了哮喘。", "方宁体检一切正常。"),
    ("方宁高血压好几年了。", "方宁血压从来没高过。"),
    ("Oskar has type 2 diabetes.", "Oskar doesn't have diabetes."),
    # how well one speaks a language
    ("Oskar is fluent in Polish.", "Oskar can't speak a word of Polish."),
    ("Oskar has just started learning Greek.", "Oskar's mother tongue is Greek."),
    ("Oskar speaks a little Dutch.", "Oskar speaks Dutch like a native."),
    ("方宁一句德语都不会。", "方宁说一口流利的德语。"),
    ("方宁在学韩语，才入门。", "方宁的母语是韩语。"),
    ("方宁刚学完五十音。", "方宁日语已经考过了N1。"),
    # the highest degree, or none
    ("Oskar never went to university.", "Oskar holds a master's in physics."),
    ("Oskar's highest degree is a BSc.", "Oskar earned a PhD in 2015."),
    ("方宁的最高学历是本科。", "方宁是浙大的博士。"),
    ("方宁没上过大学。", "方宁本科是在南京读的。"),
    ("方宁在读大二。", "方宁高中毕业就出来工作了。"),
    # studies over, or not
    ("Oskar finished university in 2012.", "Oskar is in his second year of a law degree."),
    ("方宁大学毕业了。", "方宁还在读高三。"),
    # leads people, or no one
    ("Oskar manages a team of twelve.", "Oskar has no direct reports."),
    ("Oskar is the CEO of Pinecone Labs.", "Oskar is an intern at Pinecone Labs."),
    ("方宁手下管着二十个人。", "方宁还是个普通职员，没带过下属。"),
    # a couple parted, and together
    ("Oskar and his girlfriend Lena broke up in May.", "Oskar is still with Lena."),
    ("Oskar and his wife divorced in 2021.", "Oskar has been married to Marta since 2009."),
    # smoking and drinking: never, once, given up, now
    ("Oskar has never smoked.", "Oskar smokes a pack a day."),
    ("Oskar gave up smoking last year.", "Oskar is a heavy smoker."),
    ("Oskar is a lifelong non-smoker.", "Oskar smoked at university."),
    ("Oskar has been teetotal his entire life.", "Oskar got really drunk at his stag do."),
    ("方宁从来没抽过烟。", "方宁是个老烟枪。"),
    ("方宁戒烟两年了。", "方宁一天一包烟，烟瘾很大。"),
    ("方宁滴酒不沾。", "方宁每晚都要喝上一杯红酒。"),
    # alive or dead, early to bed or late, left- or right-handed, eyesight
    ("Oskar's grandmother is still alive.", "Oskar's grandmother died in 2003."),
    ("方宁的外公还健在。", "方宁的外公十年前就去世了。"),
    ("Oskar is a night owl who never goes to bed before 1 a.m.",
     "Oskar is asleep by nine every night."),
    ("方宁是个夜猫子。", "方宁每晚九点就睡觉。"),
    ("Oskar is left-handed.", "Oskar is right-handed."),
    ("方宁是左撇子。", "方宁是右撇子。"),
    ("Oskar has perfect eyesight.", "Oskar wears thick glasses."),
    ("方宁视力一直是5.0。", "方宁近视六百度。"),
    # running against an injury that stops it; the gym, or never
    ("Oskar is on crutches after his fall.", "Oskar runs 10 km every morning."),
    ("Oskar can't walk without crutches.", "Oskar is running the Berlin marathon on Sunday."),
    ("方宁现在还拄着拐。", "方宁每天都去跑五公里。"),
    ("方宁膝盖受伤了，医生不让她跑步。", "方宁每周跑两次十公里。"),
    ("Oskar has never set foot in a gym.", "Oskar goes to the gym every weekday."),
    ("方宁从来没进过健身房。", "方宁每周三次去健身房。"),
    # studying for a higher degree against none; drinks most weeks against years without
    ("Oskar is three years into a PhD.", "Oskar never went past secondary school."),
    ("Oskar hasn't touched a drop of alcohol in years.",
     "Oskar has a couple of pints with friends every Friday."),
    # church every week, or not in years; baptised or not
    ("Oskar goes to Mass every Sunday.", "Oskar hasn't been to church in twenty years."),
    ("方宁每周日都去教堂。", "方宁从来没进过教堂。"),
    ("Oskar was baptised in 1990.", "Oskar has never been baptised."),
    ("方宁小时候受过洗。", "方宁从没受过洗。"),
    # a mortgage owed, or none; never in a relationship, or once
    ("Oskar has a mortgage on his flat.", "Oskar bought the flat outright."),
    ("方宁的房子还有二十年房贷。", "方宁的房子是全款买的。"),
    ("Oskar has never been in a relationship.", "Oskar broke up with his girlfriend in May."),
    ("方宁从来没谈过恋爱。", "方宁和前男友分手三年了。"),
    # one's only car electric, and fuel for it
    ("Oskar's only car is fully electric.", "Oskar fills the car up with diesel on Mondays."),
    ("方宁就一辆车，是纯电的。", "方宁每周都去加油站加一次汽油。"),
]

LOOK_ALIKES = [
    # ill once, or another's illness, or a condition and some health
    ("Oskar had asthma as a child.", "Oskar has no health conditions now."),
    ("Oskar's father has diabetes.", "Oskar has no health conditions."),
    ("方宁有高血压。", "方宁的父亲没有任何慢性病。"),
    ("方宁的母亲有糖尿病。", "方宁体检一切正常。"),
    # two languages, or a beginner and a beginner
    ("Oskar is fluent in Polish.", "Oskar can't speak a word of Czech."),
    ("Oskar speaks a little Dutch.", "Oskar has just started learning Dutch."),
    ("方宁一句德语都不会。", "方宁说一口流利的法语。"),
    ("Oskar's wife is fluent in Greek.", "Oskar has just started learning Greek."),
    # degrees that may both hold
    ("Oskar holds a master's in physics.", "Oskar earned a PhD in 2015."),
    ("Oskar never went to university.", "Oskar's sister holds a master's in law."),
    ("方宁是浙大的博士。", "方宁本科是在南京读的。"),
    ("方宁没上过大学。", "方宁的哥哥是北大的硕士。"),
    # studies of another, or the future
    ("Oskar finished university in 2012.", "Oskar's son is in his second year of a law degree."),
    ("方宁大学毕业了。", "方宁的女儿还在读高三。"),
    # leading and being led, or another's team
    ("Oskar manages a team of twelve.", "Oskar reports to the CFO."),
    ("Oskar has no direct reports.", "Oskar's manager leads a team of nine."),
    ("方宁手下管着二十个人。", "方宁的领导是老周。"),
    # a couple parted, and a new partner
    ("Oskar and his wife divorced in 2010.", "Oskar has been married to Marta since 2016."),
    ("Oskar split up with his boyfriend Tom.", "Oskar is engaged to Luis."),
    # smoking given up after smoking once, or another's smoking
    ("Oskar gave up smoking in 2018.", "Oskar smoked twenty a day in his thirties."),
    ("Oskar has never smoked.", "Oskar's father smokes a pipe."),
    ("方宁戒烟两年了。", "方宁以前每天抽一包烟。"),
    ("方宁滴酒不沾。", "方宁的丈夫每晚都要喝上一杯红酒。"),
    # another's life, bedtime, hand or eyes; or a night out
    ("Oskar's grandmother is still alive.", "Oskar's grandfather died in 2003."),
    ("方宁的外公还健在。", "方宁的外婆十年前就去世了。"),
    ("Oskar is asleep by nine every night.", "Oskar's flatmate is a night owl."),
    ("方宁每晚九点就睡觉。", "方宁的儿子是个夜猫子。"),
    ("Oskar is left-handed.", "Oskar's wife is right-handed."),
    ("Oskar has perfect eyesight.", "Oskar's son wears glasses."),
    ("方宁视力一直是5.0。", "方宁的母亲近视六百度。"),
    # an injury gone, another's running, or a gym once
    ("Oskar was on crutches in 2019.", "Oskar runs 10 km every morning."),
    ("Oskar's wife is on crutches.", "Oskar runs 10 km every morning."),
    ("方宁的父亲拄着拐。", "方宁每天都去跑五公里。"),
    ("Oskar has never set foot in a gym.", "Oskar's daughter goes to the gym every weekday."),
    # given up after years of it: the levels say how both hold, not the denial
    ("Oskar quit smoking five years ago.", "Oskar smoked a pack a day for twenty years."),
    # tea is no drink of alcohol
    ("方宁滴酒不沾。", "方宁每天喝两杯绿茶。"),
    # a PhD student holds a first degree; drinks once, not now
    ("Oskar is a PhD student.", "Oskar holds a master's in physics."),
    ("Oskar has been sober for years.", "Oskar had two pints at his wedding in 2009."),
    # another's church
    ("Oskar goes to Mass every Sunday.", "Oskar's wife never goes to church."),
    ("方宁每周日都去教堂。", "方宁的丈夫从来没进过教堂。"),
    # another's mortgage or past
    ("Oskar has a mortgage on his flat.", "Oskar's brother bought his flat outright."),
    ("方宁从来没谈过恋爱。", "方宁的姐姐和前男友分手三年了。"),
    # a car that is not one's only one, a hybrid, or another's car
    ("Oskar drives an electric Kia.", "Oskar fills up the van with diesel."),
    ("Oskar's only car is a plug-in hybrid.", "Oskar fills up with petrol on Fridays."),
    ("Oskar's only car is fully electric.", "Oskar's wife fills up her car with petrol."),
]


@pytest.mark.parametrize(("a", "b"), CONFLICTS)
def test_two_levels_of_one_life_conflict(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), LOOK_ALIKES)
def test_levels_that_may_both_hold_are_left_alone(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None


NOW = datetime(2026, 12, 6, tzinfo=UTC)


def contradictions(a: str, b: str) -> list[SemanticFinding]:
    """The suspected contradictions the audit (not only the rules) finds in ``a`` and
    ``b``, each in a document of its own: the pair must also be one it compares."""
    memories = [{"id": n, "memory": text, "spaceContainerTag": "s",
                 "createdAt": f"2026-05-0{d}T10:00:00Z"} for d, (n, text) in
                enumerate((("a", a), ("b", b)), start=1)]
    docs = [{"id": f"d{m['id']}", "title": m["id"], "memoryEntries": [m]} for m in memories]
    found = semantic_findings(analyse(from_feed_pages([{"documents": docs}]), NOW))
    return [f for f in found if f.kind == "suspected_contradiction"]


def _flagged(a: str, b: str) -> bool:
    """Whether the audit flags ``a`` and ``b`` (:func:`contradictions`)."""
    return bool(contradictions(a, b))


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Oskar's son is 16.", "Oskar's son is in his final year of primary school.", True),
    ("Oskar's daughter just started secondary school.", "Oskar's daughter is 4.", True),
    ("方宁的儿子还在上幼儿园大班。", "方宁的儿子今年十四岁了。", True),
    ("Oskar's son is 11.", "Oskar's son is in his final year of primary school.", False),
    ("Oskar's son is 16.", "Oskar's daughter is in Year 3.", False),
    ("方宁的儿子还在上幼儿园大班。", "方宁今年三十四岁了。", False),
    # a state that needs an age: working, retired, married, a degree
    ("Oskar is eleven and in Year 6.", "Oskar works as an accountant in Leeds.", True),
    ("Oskar is in his early twenties.", "Oskar retired from the police last year.", True),
    ("Oskar is 15.", "Oskar earned a PhD in 2015.", True),
    ("Oskar is 15.", "Oskar works as a waiter at weekends.", False),
    ("Oskar is 45.", "Oskar retired from the army last year.", False),
    ("Oskar's son is nine.", "Oskar works as an accountant in Leeds.", False),
    # a child's age is the child's (曹阳有一个八岁的儿子; a profile's 子女 field)
    ("方宁离婚了。", "方宁有一个八岁的儿子。", False),
    ("婚姻状况：离异", "子女：一个儿子，十二岁", False),
])
def test_an_age_against_a_stage_or_a_state(a: str, b: str, expected: bool) -> None:
    assert _flagged(a, b) is expected
