"""Notes written as a profile's fields (issue 35, `memscope/meaning/profile.py`): read as
sentences, then by the same rules as any note. Sentences here are this file's own, not the
labelled sets'."""

from __future__ import annotations

import pytest

from memscope.meaning.claims import claim, conflict
from memscope.meaning.profile import as_sentences


@pytest.mark.parametrize(("text", "zh", "read"), [
    ("Name: Lior Katz. Lives in: Haifa.", False, "Lior Katz lives in Haifa."),
    ("Age: 52. Name: Lior Katz.", False, "Lior Katz is 52 years old."),
    ("Lior Katz – current city: Eilat (since May).", False, "Lior Katz lives in Eilat."),
    ("Lior Katz – moved to Eilat in May.", False, "Lior Katz moved to Eilat in May."),
    ("Lior Katz – three coffees a day.", False, "Lior Katz has three coffees a day."),
    ("Pets: none. Name: Lior Katz.", False, "Lior Katz has no pets."),
    ("Name: Lior Katz. Alcohol: none – teetotal.", False,
     "Lior Katz has no alcohol; Lior Katz is teetotal."),
    ("Sugar: avoids completely. Name: Lior Katz.", False, "Lior Katz avoids sugar completely."),
    ("Languages: Hebrew (native), Arabic (fluent). Name: Lior Katz.", False,
     "Lior Katz speaks Hebrew, Arabic."),
    ("Name: Lior Katz. Favourite band: Queen.", False, "Lior Katz's favourite band is Queen."),
    ("Name: Lior Katz. Smoker: no, never smoked.", False,
     "Lior Katz is not a smoker; Lior Katz never smoked."),
    ("Role: unemployed, job-hunting. Name: Lior Katz.", False,
     "Lior Katz is unemployed, job-hunting."),
    ("Marital status: divorced. Name: Lior Katz.", False, "Lior Katz is divorced."),
    ("Housing: rents a room. Name: Lior Katz.", False, "Lior Katz rents a room."),
    ("Name: Lior Katz. Eats: no pork.", False, "Lior Katz eats no pork."),
    ("Lior Katz – born 2 July.", False, "Lior Katz was born on 2 July."),
    ("母语：闽南话（林涛）", True, "林涛的母语是闽南话。"),
    ("姓名：林涛；现居：厦门", True, "林涛住在厦门。"),
    ("林涛：职位 产品经理", True, "林涛是产品经理。"),
    ("语言：汉语、日语，别的外语都不会（林涛）", True, "林涛只会说汉语、日语。"),
    ("过敏：无（林涛）", True, "林涛没有任何过敏。"),
    ("宠物：无（林涛）", True, "林涛没有宠物。"),
    ("属相：属马（林涛）", True, "林涛属马。"),
    ("林涛：兄弟姐妹 无（独生子）", True, "林涛没有兄弟姐妹。"),
    ("信仰：道教（林涛）", True, "林涛信道教。"),
    ("咖啡：不喝（林涛）", True, "林涛不喝咖啡。"),
    ("林涛：每天上午两杯美式", True, "林涛每天上午两杯美式"),
    # a field of no one named is the user's
    ("Occupation: retired", False, "User is retired."),
    ("Languages: English only", False, "User speaks English only."),
    ("Pets: two rabbits", False, "User has two rabbits."),
    ("现居：成都", True, "用户住在成都。"),
    # whose a note is, named beside its field; each of its items a sentence
    ("Health: asthma; uses an inhaler daily. (Lior)", False,
     "Lior has asthma. Lior uses an inhaler daily."),
    ("Family (Lior): married to Noa; parents live in Haifa.", False,
     "Lior is married to Noa. Lior's parents live in Haifa."),
    ("Lior's birthday: 3 February.", False, "Lior's birthday is 3 February."),
    ("Money (Lior): no debts, no savings; pays rent monthly.", False,
     "Lior has no debts, no savings. Lior pays rent monthly."),
    ("Diet & drinks (Lior): vegetarian since 2019", False, "Lior is vegetarian since 2019."),
])
def test_a_field_is_read_as_a_sentence(text: str, zh: bool, read: str) -> None:
    assert as_sentences(text, zh=zh) == read


@pytest.mark.parametrize("text", [
    "Lior lives in Haifa.",
    "Note: buy milk before Friday.",  # no field a profile holds
    "Lior — who lives in Haifa — works at Intel.",  # an aside between dashes
    "Lior Katz - a nurse - lives in Haifa.",  # hyphens between words
    "Lior moved to Haifa: he loves it.",  # a colon in prose, no field
    "林涛住在厦门。",
])
def test_prose_is_left_as_it_is(text: str) -> None:
    assert as_sentences(text, zh=any("\u4e00" <= ch <= "\u9fff" for ch in text)) == text


CONFLICTS = [
    ("Name: Lior Katz. Lives in: Haifa.", "Lior Katz – current city: Eilat."),
    ("Name: Lior Katz. Age: 34.", "Lior Katz – turned 41 in March."),
    ("Pets: none. Name: Lior Katz.", "Lior Katz – walks his two beagles every morning."),
    ("Allergies: none known. Name: Lior Katz.", "Lior Katz – severe walnut allergy."),
    ("Name: Lior Katz. Alcohol: none – teetotal.", "Lior Katz – drinks red wine most nights."),
    ("母语：闽南话（林涛）", "林涛只会普通话，一句闽南话都不会说，母语是普通话。"),
    ("饮食：严格素食者，不吃任何肉类（林涛）", "林涛最喜欢吃回锅肉。"),
    ("宗教：无宗教信仰（林涛）", "林涛是基督徒，每周日去教堂做礼拜。"),
    ("属相：属龙（林涛）", "林涛是1990年8月出生的。"),
    ("Name: Lior Katz. Languages: Hebrew, English.", "Lior Katz – monolingual English speaker."),
    ("林涛：兄弟姐妹 无（独生子）", "林涛的亲哥哥在美国读博士。"),
    ("信仰：道教（林涛）", "林涛说自己不信任何宗教。"),
    ("咖啡：不喝（林涛）", "林涛：每天下午来一杯拿铁。"),
    ("技能：不会开车，没有驾照（林涛）", "林涛每天自己驾车送孩子上学。"),
    ("忌口：不吃香菜（林涛）", "林涛是香菜爱好者，吃面都要加一大把香菜。"),
    ("Occupation: retired", "User is working full-time as a software engineer."),
    ("Languages: English only", "User chats with her grandmother in fluent Cantonese."),
    ("Children: none", "User has two kids, Leo and Maya."),
    ("Marital status: married. Name: Lior Katz.", "Lior Katz – lifelong bachelor."),
    ("Name: Lior Katz. Birthday: 3 February.", "Lior Katz – born 21 October."),
    ("Health: asthma; uses an inhaler daily. (Lior)", "Lior has no chronic conditions."),
    ("Family (Lior): married to Noa since 2015.", "Lior is single and has never married."),
    ("Lior's birthday: 3 February.", "Lior turns 40 on 9 May 2027."),
    ("Diet (Lior): vegan, no animal products at all.", "Lior has a beef burger every Friday."),
]

LOOK_ALIKES = [
    ("Name: Lior Katz. Lives in: Haifa.", "Lior Katz – grew up in Eilat."),
    ("Pets: none. Name: Lior Katz.", "Lior Katz – walks his neighbour's beagle on Sundays."),
    ("姓名：林涛；现居：重庆", "林涛老家在四川绵阳。"),
    ("林涛：职位 产品经理", "林涛刚入行时做了两年测试工程师。"),
    ("血型：AB型（林涛）", "林涛的父亲是A型血，母亲是B型血。"),
    ("Lior Katz turns 40 next month.", "Lior Katz is 39."),
    ("Lior's birthday: 3 February.", "Lior turns 40 on 3 February 2027."),
    ("Health: asthma (Lior)", "Lior's brother has no chronic conditions."),
    ("Family (Lior): married to Noa since 2015.", "Lior's sister is single."),
]


@pytest.mark.parametrize(("a", "b"), CONFLICTS)
def test_fields_against_notes_conflict(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), LOOK_ALIKES)
def test_fields_that_may_both_hold_are_left_alone(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None
