"""Eighth pass of the audit's rules (issue 35): one's place among siblings against an
older or younger brother or sister, an only child in a clause about the past, a debt
owed against none, and negations said in other words ("has not once", "has yet to",
"never so much as", "is terrified of"), Scandinavian and Slavic languages as kinds, a
two-digit year ("born in '88"), a birthday said by the age one turns on it, a diet
followed, a room rented, a parent lost, a shoe size and shifts said in other words. Each
with the look-alikes it must leave alone.
Sentences here are this file's own, not the labelled sets'."""

from __future__ import annotations

import pytest
from test_audit_levels import _flagged as flagged

from memscope.meaning.claims import claim, conflict
from memscope.meaning.normal import normalise

CONFLICTS = [
    # the eldest has no older brother or sister, the youngest no younger one
    ("Priya is the eldest of three daughters.", "Priya's older brother Arjun lives in Pune."),
    ("Priya is the oldest child.", "Priya has a big sister in Leeds."),
    ("Priya is the youngest of five.", "Priya has a younger brother, Dev."),
    ("Priya was born the youngest of four siblings.", "Priya's little sister Mira is at school."),
    # an only child, said of the past, has still no brother or sister
    ("Priya grew up an only child in Madras.", "Priya's brother Arjun visits every June."),
    ("Priya grew up as an only child.", "Priya has two sisters."),
    # owing nothing, or owing on a loan
    ("Priya is entirely debt-free.", "Priya still owes £9,000 on her car loan."),
    ("Priya has no debts at all.", "Priya is paying off a personal loan."),
    ("Priya has never taken out a loan.", "Priya has credit card debt she is paying down."),
    # negations in other words
    ("Priya has not once tried sushi.", "Priya tried sushi for the first time in Osaka."),
    ("Priya has yet to learn to swim.", "Priya learnt to swim at six."),
    ("Priya has never so much as touched a guitar.", "Priya plays the guitar in a band."),
    ("Priya is terrified of flying.", "Priya loves flying."),
    # a kind of language; a two-digit year; a birthday said by the age it turns
    ("Priya doesn't speak any Scandinavian language.", "Priya is fluent in Danish."),
    ("Priya can't speak a single Slavic language.", "Priya speaks Polish at home."),
    ("Priya was born in '79.", "As of 2026, Priya is 31."),
    ("Priya's birthday is 4 March.", "Priya turns 40 on 9 May 2027."),
    ("Priya's birthday is 4 March.", "Priya turns 40 on May 9."),
    # a diet followed, a room rented, a parent lost, both parents alive, a shoe size, shifts
    ("Priya follows a strict kosher diet.", "Priya eats pork chops every Sunday."),
    ("Priya follows a vegetarian diet.", "Priya eats steak every Friday."),
    ("Priya rents a room in Leith.", "Priya has lived in Glasgow since 2019."),
    ("Priya lost her father to a stroke in 2015.", "Priya's father is still alive."),
    ("Both of Priya's parents are alive.", "Priya's mother died in 2020."),
    ("Priya wears a size 39 shoe.", "Priya's shoe size is 42."),
    ("Priya works nights only.", "Priya has been on permanent day shifts since May."),
    # never married (not the same as no partner), a chat's heading, a quote after a colon,
    # "and isn't planning any", "wouldn't dream of", "left to repay", what one says one is
    ("Priya has never been married.", "Priya is divorced."),
    ("Priya has never been married.", "Priya got divorced in 2015."),
    ("Priya has never been married.", "Priya's husband Tom is a nurse."),
    ("In today's chat the user described a market he walked through in Taipei.",
     "User said: 'I've never set foot in Asia.'"),
    ("User: 'I have never been to Asia.'", "User spent a week in Tokyo last spring."),
    ("Priya has two kids.", "Priya mentioned she has no children and isn't planning any."),
    ("Priya drives her Fiat Panda to work.", "Priya wouldn't dream of owning a car."),
    ("Priya owes nothing on her student loan.",
     "Priya still has about £9,000 left to repay on her student loan."),
    ("Priya's salary is £40,000 a year.", "Priya told me she's earning £65,000 a year."),
    # a list denied, "a single", reread, volunteer work, what one says of oneself, the only
    # language after a dash
    ("Priya has no cats or dogs.", "Priya walks her dog every evening."),
    ("Priya has never watched a single Bond film.", "Priya watched every Bond film last year."),
    ("Priya has never read a Harry Potter book.", "Priya reread the Harry Potter books in May."),
    ("Priya has never done any volunteer work.", "Priya volunteers at the food bank."),
    ("Priya admitted she has never been to Rome.", "Priya went to Rome in 2019."),
    ("Priya has never been to Lisbon.", "Priya spent a week in Lisbon in 2022."),
    ("Priya is monolingual — Hindi is the only language she speaks.",
     "Priya is fluent in German."),
    # Chinese: eyesight, running, a degree, the name alone before a comma, parents alive,
    # 她哥, the Japanese test, writing hand, a height in bare centimetres, "as of", an age
    ("严峰高度近视，摘了眼镜就看不清路。", "严峰视力一直5.1，从来没戴过眼镜。"),
    ("严峰做完手术后医生禁跑。", "严峰上周刚跑完杭州马拉松。"),
    ("严峰只有初中学历。", "严峰本科四年都在南京读的。"),
    ("严峰高中毕业就参军了，跟大学无缘。", "严峰，浙江大学化学系本科，2015届。"),
    ("严峰的父亲前年去世了。", "严峰父母都健在，住在老家。"),
    ("严峰是独生子。", "严峰说他姐在深圳工作。"),
    ("严峰一点日语都不会。", "严峰前年考过了JLPT N1。"),
    ("严峰用左手写字。", "严峰一直是右手写字。"),
    ("严峰身高165。", "严峰一米八二的个子。"),
    ("截至2026年3月，严峰房贷还剩30万。", "严峰一辈子没借过贷款。"),
    ("严峰今年四十二岁。", "严峰今年（2026）二十九。"),
    # spicy food, no licence, a daily commute against fully remote, never worked, a dash
    ("严峰一点辣都吃不了。", "严峰无辣不欢。"),
    ("严峰没驾照——考了两次都没过。", "严峰每天开车上班。"),
    ("严峰每天坐地铁4号线上班。", "严峰是全职远程，一年只去两趟公司。"),
    ("严峰还没参加过正式工作。", "严峰在腾讯上班五年了。"),
    # a note's heading, a quote, a form with whose it is; a debt; never left a continent;
    # drinking every week; reading glasses; no degree; the office every day
    ("严峰在乐团拉小提琴。", "今天聊天中严峰提到，他从没学过任何乐器。"),
    ("用户原话：「我这辈子还没出过国。」", "用户去年在巴黎住了一周。"),
    ("严峰现在每天抽半包烟。", "医生备注：严峰2015年戒烟，此后一根都没抽过。"),
    ("严峰的血型是AB型。", "体检表（严峰）——血型：O型；既往病史：无。"),
    ("严峰的助学贷款已经全部还清。", "严峰的助学贷款还剩三万没还。"),
    ("严峰从来没离开过亚洲。", "严峰的蜜月是在伦敦过的。"),
    ("严峰滴酒不沾。", "严峰每周五都要和同事喝二两二锅头。"),
    ("严峰从来没戴过眼镜。", "严峰不戴老花镜就看不清菜单。"),
    ("严峰硕士毕业。", "严峰没有任何学位。"),
    ("严峰每天都得去公司坐班。", "严峰全职远程办公。"),
    ("严峰从来没结过婚。", "严峰离过婚。"),
    ("严峰从来没结过婚。", "严峰的妻子在北京工作。"),
]

LOOK_ALIKES = [
    # the other side, another's sibling, a place that is not among siblings
    ("Priya is the eldest of three daughters.", "Priya's younger brother Arjun lives in Pune."),
    ("Priya is the youngest of five.", "Priya has an older brother, Dev."),
    ("Priya is the oldest person on her team.", "Priya's older sister lives in Lima."),
    ("Priya is the youngest in the office.", "Priya has a younger brother, Dev."),
    ("Priya is the eldest of three daughters.", "Priya's husband's older brother lives in Goa."),
    # an only child now is an only child; a sibling of another
    ("Priya grew up an only child in Madras.", "Priya's husband has two brothers."),
    # a debt of another, or a favour
    ("Priya is debt-free.", "Priya's brother owes her £200."),
    ("Priya is debt-free.", "Priya owes her sister a favour."),
    ("Priya has no debts.", "Priya's flatmate is paying off a student loan."),
    # a fear is no dislike of something else; not yet is not never for a past passive
    ("Priya is scared of heights.", "Priya loves hiking in the Alps."),
    ("The decision has yet to be made.", "Priya made the decision last week."),
    ("Priya doesn't speak any Scandinavian language.", "Priya is fluent in Dutch."),
    ("Priya was born in '79.", "As of 2026, Priya is 47."),
    ("Priya's birthday is 9 May.", "Priya turns 40 on May 9."),
    ("Priya's birthday is 9 May.", "Priya turns 40 on 9 May 2027."),
    ("Priya follows a strict kosher diet.", "Priya's husband eats pork chops every Sunday."),
    ("Priya rents a room in Leith.", "Priya rents a flat in Glasgow for her son."),
    ("Priya lost her father to a stroke in 2015.", "Priya's mother is still alive."),
    ("Both of Priya's parents are alive.", "Priya's grandmother died in 2020."),
    ("Priya wears a size 39 shoe.", "Priya's son's shoe size is 42."),
    ("严峰以前近视六百度。", "严峰前年做了激光手术，现在不用戴眼镜。"),
    ("严峰的父亲前年去世了。", "严峰的岳父岳母都健在。"),
    ("严峰是独生子。", "严峰说他哥们在深圳工作。"),
    ("严峰身高180。", "严峰的儿子身高150。"),
    ("公司今年三十。", "严峰今年二十九。"),
    ("严峰没驾照。", "严峰的妻子每天开车上班。"),
    ("严峰每天坐地铁去健身房。", "严峰是全职远程。"),
    ("严峰每天坐地铁4号线上班。", "严峰的妻子是全职远程。"),
    ("严峰从来没离开过亚洲。", "严峰去年在东京住了一周。"),
    ("严峰的助学贷款已经全部还清。", "严峰的弟弟还欠三万没还。"),
    ("医生备注：严峰2015年戒烟。", "严峰的父亲每天抽一包烟。"),
    ("严峰从来没结过婚。", "严峰的弟弟离过婚。"),
    ("严峰从来没结过婚。", "严峰的女朋友在北京工作。"),
    ("Priya has never been married.", "Priya got engaged to Tom last month."),
    ("Priya has never been married.", "Priya's fiancé Tom is a nurse."),
    ("Priya has never been married.", "Priya's sister's husband Tom is a nurse."),
    ("Priya is the eldest of three daughters.", "Priya is the youngest of the cousins."),
    ("Priya was raised Catholic.", "Priya converted to Islam in 2020."),
    ("Priya has no cats or dogs.", "Priya's sister walks her dog every evening."),
    ("Priya is a single mother.", "Priya has two kids."),
    ("Priya said he has never been to Rome.", "Priya's husband went to Rome in 2019."),
    ("Priya has never been to Rome.", "Priya is flying to Rome next month."),
    ("Priya has never been to Rome.", "Priya works at Rome Partners in Leeds."),
]


@pytest.mark.parametrize(("a", "b"), CONFLICTS)
def test_they_conflict(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), LOOK_ALIKES)
def test_they_may_both_hold(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None


def test_a_place_among_siblings_still_affirms_the_siblings() -> None:
    """"The youngest of four brothers" has brothers: "has no brothers" still meets it."""
    assert conflict(claim("Wen is the youngest of four brothers."),
                    claim("Wen has one older sister and no brothers.")) is not None


@pytest.mark.parametrize(("text", "read"), [
    ("Priya has not once smoked.", "Priya has never smoked."),
    ("Priya has yet to get a licence.", "Priya has never get a licence."),
    ("Priya did not once complain.", "Priya never complain."),
    ("Priya's big sister is a nurse.", "Priya's older sister is a nurse."),
    ("Priya's baby brother is two.", "Priya's younger brother is two."),
])
def test_the_words_read(text: str, read: str) -> None:
    assert normalise(text) == read


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("严峰从来没结过婚。", "严峰的妻子在北京工作。", True),
    ("严峰从来没结过婚。", "严峰的女朋友在北京工作。", False),
    ("Priya has never been married.", "Priya's husband Tom is a nurse.", True),
    ("Priya has never been married.", "Priya's fiancé Tom is a nurse.", False),
])
def test_never_married_is_compared_with_a_spouse_by_the_audit(a: str, b: str,
                                                                expected: bool) -> None:
    """The two texts have different subjects (the spouse's is theirs): the audit must
    still pair them, as it pairs "has no partner" with a named partner."""
    assert flagged(a, b) is expected
