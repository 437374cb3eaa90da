"""The audit in Chinese phrasing (issue 35): one person's height, event times, weekly slots,
age, employer, occupation, kin, food, abilities and life said in other words; and which
``updates`` steps stay on one thing. Each rule with the look-alikes it must leave alone.
Sentences here are this file's own, not the labelled sets'."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memscope.graph.analysis import analyse
from memscope.meaning.audit import semantic_findings
from memscope.meaning.claims import claim, conflict, update_relation
from memscope.meaning.normal import normalise
from memscope.meaning.quantities import measures
from memscope.records.dataset import from_feed_pages

NOW = datetime(2026, 6, 1, tzinfo=UTC)
#: an age is compared with a year of birth as of today (memscope.meaning.quantities)
THIS_YEAR = datetime.now(UTC).year


CONFLICTS = [
    # a height in metres and in centimetres
    ("方圆身高一米七二。", "方圆有183厘米高，站在人群里很显眼。"),
    # the time of one event: its date, weekday, hour or half of the day
    ("方圆的婚礼定在5月20日。", "方圆的婚礼是九月九号办的，请了两百个客人。"),
    ("方圆回国的航班是周五上午起飞。", "方圆这次回国坐的是周日晚上的航班。"),
    ("方圆的牙医预约在8号上午。", "方圆这次看牙约在12号下午。"),
    ("方圆的体检定在下周三上午九点。", "方圆那次体检约的是下周三下午四点。"),
    # a weekly slot, said over two clauses
    ("方圆每周只练一次瑜伽，固定在周二晚上。", "方圆固定每周六上午去上瑜伽，别的时间都不去。"),
    ("方圆的吉他课固定在每周四下午。", "方圆每周只上一次吉他课，在周日上午。"),
    # an age against a year of birth
    ("方圆今年31岁。", f"方圆是{THIS_YEAR - 57}年出生的。"),
    ("Ines is 29 years old.", f"Ines was born in {THIS_YEAR - 55}."),
    # employer and occupation in other words
    ("方圆在京东上班。", "方圆的单位是美团，她在那边做运营。"),
    ("方圆在宁波上班。", "方圆的单位在温州，离家很近。"),
    ("方圆现在的公司是小米。", "方圆在联想工作。"),
    ("方圆是一名儿科医生。", "方圆是中学英语老师，带两个班。"),
    # kin denied and named without 的
    ("方圆没有孩子。", "方圆每天下午去接儿子放学。"),
    ("方圆是独生女。", "方圆说她姐姐在国外读书。"),
    ("方圆没有兄弟姐妹。", "方圆的亲弟弟今年考上了大学。"),
    # food, drink and abilities in other words
    ("方圆不吃猪肉。", "方圆最喜欢吃东坡肉。"),
    ("方圆对海鲜过敏。", "方圆最爱吃的是椒盐皮皮虾。"),
    ("方圆从来不喝咖啡。", "方圆每天下午都要来一杯卡布奇诺。"),
    ("方圆一点辣都不能吃。", "方圆吃面必须加一大勺辣椒油，越辣越好。"),
    ("方圆不会游泳。", "方圆上个月在海边游了两公里。"),
    ("方圆不会骑自行车。", "方圆周末常骑单车去公园。"),
    # what a life has had
    ("方圆是左撇子。", "方圆用右手写字，左手什么都干不了。"),
    ("方圆没有任何慢性病。", "方圆患有糖尿病，每天都要打胰岛素。"),
    ("方圆只有小学文化。", "方圆是复旦大学毕业的。"),
    # a partner who died, and one taken out
    ("方圆的丈夫前年去世了。", "方圆周末要陪结婚二十年的老公去爬山。"),
    # a fixed holiday is a date
    ("方圆是元旦那天出生的。", "方圆的生日是圣诞节。"),
    # hearsay: what is said is the claim
    ("方圆住在成都。", "听她同事说，方圆现在家在重庆。"),
]


LOOK_ALIKES = [
    ("方圆身高一米七二。", "方圆的儿子有183厘米高。"),
    ("方圆身高一米七二。", "方圆身高172厘米。"),
    ("方圆身高一米七二。", "方圆家的门高两米。"),
    ("方圆的婚礼定在5月20日。", "方圆的婚礼彩排在5月19日。"),
    ("方圆不吃猪肉。", "方圆做了红烧肉给家人吃。"),
    ("方圆去程的航班周一起飞。", "方圆周三回来的航班是晚上八点。"),
    ("方圆的婚礼定在5月20日。", "方圆要去参加表姐的婚礼，在9月9日。"),
    ("方圆每周只练一次瑜伽，固定在周二晚上。", "方圆的女儿每周六上午学游泳。"),
    ("方圆今年31岁。", f"方圆是{THIS_YEAR - 31}年出生的。"),
    ("方圆今年31岁。", f"方圆的女儿是{THIS_YEAR - 3}年出生的。"),
    ("方圆是一名儿科医生。", "方圆的爸爸是中学英语老师。"),
    ("方圆是作家，也是医生。", "方圆是医生。"),
    ("方圆是儿科医生。", "方圆业余兼职做会计。"),
    ("方圆不会游泳。", "方圆周末常带女儿去游泳馆上游泳课。"),
    ("方圆不会游泳。", "方圆上个月去泰国旅游了。"),
    ("方圆不会开车。", "方圆去年开了一家花店。"),
    ("方圆从没出过国。", "方圆去年去了一趟澳门。"),
    ("方圆的丈夫前年去世了。", "方圆曾和丈夫一起去过云南。"),
    ("方圆是右撇子。", "方圆的女儿是左撇子。"),
    ("方圆的房租每月三千。", "方圆一年的房租是三万六。"),
    ("方圆不吃猪肉。", "方圆最喜欢吃清蒸鱼。"),
]


@pytest.mark.parametrize(("a", "b"), CONFLICTS)
def test_one_thing_said_twice_in_chinese_is_a_conflict(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), LOOK_ALIKES)
def test_chinese_look_alikes_are_left_alone(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None


def test_what_is_read_in_chinese() -> None:
    (height,) = measures(normalise("方圆身高一米七二。"), zh=True)
    assert (height.kind, height.value) == ("height", 172)
    (event,) = measures(normalise("方圆的体检定在下周三上午九点。"), zh=True)
    assert (event.key, event.value) == ("checkup", {"wd": ("下", "wednesday"), "h": 540})
    (slot,) = measures("方圆每周只练一次瑜伽，固定在周二晚上。", zh=True)
    assert (slot.key, slot.value, slot.only) == ("yoga", frozenset({"tuesday"}), True)
    # a year of birth and an age are facts (compared by compare._age_against_birth)
    (born,) = claim("方圆是1969年出生的。").clauses[0].facts
    assert (born.key, born.date) == ("birthday", (("y", 1969),))
    # an age then, not now
    assert [(f.key, f.first) for f in claim("方圆16岁就出来打工了。").clauses[0].facts] == []
    assert normalise("听说方圆家在重庆。") == "方圆家在重庆。"
    assert normalise("据方圆自己说，她家在重庆。") == "方圆家在重庆。"


UPDATES_ON_ONE_THING = [
    ("方圆在超市当收银员。", "方圆辞职去读研究生了。"),
    ("方圆每天跑步三公里。", "方圆脚踝扭伤后改成游泳了。"),
    ("方圆开一辆丰田卡罗拉。", "方圆把旧车卖了，现在开比亚迪。"),
    ("方圆正在备孕。", "方圆的女儿上周出生了。"),
    ("方圆在读大三。", "方圆毕业了，在一家银行上班。"),
    ("方圆的月薪九千。", "方圆涨薪了，现在每月一万一。"),
    ("方圆不吃肉。", "医生建议方圆多补充蛋白，她现在开始吃鸡肉了。"),
    ("方圆的房租每月两千。", "房东涨租了，方圆现在每月交两千五。"),
    ("方圆在学韩语。", "方圆通过了韩语TOPIK四级。"),
    ("方圆留着短发。", "方圆剃了个光头。"),
    ("方圆的女朋友叫小雨。", "方圆和小雨分手了。"),
    ("Ines is saving up for a new bike.", "Ines is saving up for a trip to Peru."),
]


UPDATES_ON_OTHER_THINGS = [
    ("方圆的车是红色的。", "方圆的狗是红色的。"),
    ("方圆住在南京。", "方圆的儿子在南京读高中。"),
    ("方圆住在西安。", "方圆最喜欢的电影是《西安往事》。"),
    ("方圆在成都工作。", "方圆最爱吃成都火锅。"),
    ("方圆的猫叫芒果。", "方圆每天早上吃一个芒果。"),
    ("方圆每天骑车上班。", "方圆的女儿在学骑车。"),
]


@pytest.mark.parametrize(("a", "b"), UPDATES_ON_ONE_THING)
def test_an_update_on_one_thing_stays_on_it(a: str, b: str) -> None:
    assert update_relation(claim(a), claim(b)) is True


@pytest.mark.parametrize(("a", "b"), UPDATES_ON_OTHER_THINGS)
def test_an_update_on_another_thing_is_not_on_it(a: str, b: str) -> None:
    assert update_relation(claim(a), claim(b)) is not True


def _findings(*memories: dict[str, object]) -> list[str]:
    """The audit's finding kinds for memories, each in a document of its own."""
    docs = [{"id": f"d{n}", "title": f"Note {n}", "createdAt": f"2026-01-0{n}T00:00:00Z",
             "memories": [{"isLatest": True, "createdAt": f"2026-01-0{n}T00:00:00Z", **mem}]}
            for n, mem in enumerate(memories, start=1)]
    analysis = analyse(from_feed_pages([{"documents": docs}]), NOW)
    return [f.kind for f in semantic_findings(analysis)]


def test_the_audit_finds_a_chinese_conflict_with_no_word_in_common() -> None:
    assert _findings({"id": "a", "memory": "方圆身高一米七二。"},
                     {"id": "b", "memory": "方圆有183厘米高。"}) == ["suspected_contradiction"]
    assert _findings({"id": "a", "memory": "方圆身高一米七二。"},
                     {"id": "b", "memory": "方圆身高172厘米。"}) == []


@pytest.mark.parametrize(("parent", "child", "kinds"), [
    ("方圆的车是红色的。", "方圆的狗是红色的。", ["suspicious_update"]),
    ("方圆的月薪九千。", "方圆涨薪了，现在每月一万一。", []),
])
def test_the_audit_judges_a_chinese_update_by_what_it_is_about(
        parent: str, child: str, kinds: list[str]) -> None:
    assert _findings({"id": "p", "memory": parent, "isLatest": False},
                     {"id": "c", "memory": child, "parentMemoryId": "p"}) == kinds
