"""The audit's third pass (issue 35): a day's hours, places, partners, only children and
one number said in another order — each with the look-alikes it must leave alone.
Sentences here are this file's own, not the labelled sets'."""

from __future__ import annotations

import pytest
from network_guard import run_without_network

from memscope.meaning.claims import claim, conflict
from memscope.meaning.places import city_country, country, zh_places
from memscope.meaning.routines import routine


@pytest.mark.parametrize(("a", "b"), [
    # routine hours
    ("Bruno is up at six every morning.", "Bruno never gets out of bed before nine."),
    ("Bruno wakes at 4:45 every day.", "Bruno rarely wakes up before 8 am."),
    ("Greta goes to bed at 9 pm every night.", "Greta never goes to sleep before midnight."),
    ("Greta goes to bed at ten every night.", "Greta never goes to bed before three."),
    ("Bruno gets up at 5 every weekday.", "Bruno gets up at 9:30 every weekday."),
    # places
    ("Bruno has never been to Portugal.", "Bruno spent a long weekend in Porto in May."),
    ("Bruno has never set foot in Germany.", "Bruno gave a talk in Munich last year."),
    ("Greta has never left Canada.", "Greta studied for a year in Barcelona."),
    ("王静从来没有去过法国。", "王静前年在里昂读了一年书。"),
    ("王静从没出过国。", "王静去年夏天去了东京看樱花。"),
    ("Greta has lived in Oslo her whole life.",
     "Greta grew up in Tromsø and moved to Oslo in 2015."),
    ("Greta has lived in Oslo all her life.", "Greta moved to Oslo for university."),
    # one weekly thing, two days
    ("Bruno's weekly piano lesson is on Mondays.", "Bruno's weekly piano lesson is on Wednesdays."),
    # no partner
    ("Greta is single.", "Greta's husband Lars picks her up after work."),
    ("Greta has been a widow since 2019.", "Greta and her husband cook dinner together."),
    ("王静已经丧偶多年。", "王静的丈夫每天开车送她上班。"),
    # only child
    ("Bruno is an only child.", "Bruno's brother runs a bakery in Ghent."),
    ("王静是独生女。", "王静的姐姐在杭州当老师。"),
    ("王静没有孩子。", "王静每天晚上给她的儿子讲故事。"),
    # no allergies (of a kind), and one of that kind
    ("Bruno has no allergies.", "Bruno is allergic to wasp stings."),
    ("Bruno has no food allergies at all.", "Bruno is allergic to sesame."),
    ("Bruno has no known drug allergies.", "Bruno is allergic to amoxicillin."),
    ("王静没有任何药物过敏。", "王静对阿司匹林过敏。"),
    # no car or bike of one's own, and one used by its make
    ("Greta has never owned a car.", "Greta parks her Volvo XC60 by the station."),
    ("Greta doesn't own a bicycle.", "Greta rides to the lab on her old Peugeot."),
    # coffee and tea are kinds a denial rules out
    ("Greta never drinks coffee.", "Greta orders a cortado every afternoon."),
    ("王静从不喝茶。", "王静每天下午都喝一杯抹茶。"),
    # one number, other order
    ("Greta's train to Oslo leaves at 07:10 on Monday.",
     "Greta's Monday train to Oslo leaves at 8.20 am."),
    ("王静的月薪是八千元。", "王静月薪为6500元。"),
])
def test_conflicts(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), [
    # hours that can both hold, or are not one routine
    ("Bruno is up at six every morning.", "Bruno never gets up before five."),
    ("Greta goes to bed at 11 pm every night.", "Greta never goes to sleep before ten."),
    ("Bruno picks up his son at five every day.", "Bruno never gets up before nine."),
    ("Bruno is up at six every morning.", "Greta never gets up before nine."),
    # a plan, another country, another person, a region the rules cannot place
    ("Bruno has never been to Portugal.", "Bruno hopes to visit Porto next spring."),
    ("Bruno has never been to Portugal.", "Bruno spent a long weekend in Seville."),
    ("Bruno has never been to Portugal.", "Bruno's sister lives in Lisbon."),
    ("Greta has never left Canada.", "Greta grew up in Toronto and studied in Montreal."),
    ("王静从没出过国。", "王静去年在成都工作。"),
    ("王静从来没有去过法国。", "王静打算明年去巴黎。"),
    ("Bruno has lived in Italy all his life.", "Bruno grew up in Turin."),
    ("Bruno has lived in Italy all his life.", "Bruno lives in Milan with his aunt."),
    ("Bruno lives in Germany.", "Bruno lives in Cologne."),  # GeoNames: Köln
    # a day of something not said to happen once a week
    ("Bruno plays padel on Mondays.", "Bruno plays padel on Wednesdays."),
    # an allergy of another kind, or none said
    ("Bruno has no food allergies.", "Bruno is allergic to penicillin."),
    ("Bruno has no drug allergies.", "Bruno is allergic to peanuts."),
    # a car that is someone else's, or a person driven
    ("Greta has never owned a car.", "Greta drives her brother's Saab on weekends."),
    ("Greta has never owned a car.", "Greta drives her kids to school in a hired van."),
    ("Greta has never owned a car.", "Greta drives her Dad to the clinic."),
    # coffee only at times; tea is not coffee
    ("Greta doesn't drink coffee after noon.", "Greta orders a cortado every morning."),
    ("Greta never drinks coffee.", "Greta drinks green tea every morning."),
    # a partner who is no more
    ("Greta has been a widow since 2019.", "Greta's late husband built the house."),
    ("Greta is single.", "Greta's ex-husband lives in Bergen."),
    # someone else's only child
    ("Bruno's only child, Mila, studies law.", "Bruno's brother runs a bakery in Ghent."),
    # two numbers, or one number of another thing
    ("Greta's train to Oslo leaves at 07:10 on Monday.",
     "Greta's Friday train to Oslo leaves at 8.20 am."),
    ("Greta runs 5 km on Mondays.", "Greta swims 5 km on Mondays."),
])
def test_look_alikes_are_left_alone(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None


def test_routine_hours_are_read_as_the_routine_suggests() -> None:
    assert routine("Greta goes to bed at ten every night.") == (("sleep", "at", 22.0),)
    assert routine("Greta never goes to sleep before 2 am.") == (("sleep", "not_before", 26.0),)
    assert routine("Bruno is up at 5:30 every day.") == (("wake", "at", 5.5),)
    assert routine("Bruno got up at five to catch the train.") == (("wake", "once", 5.0),)
    assert routine("Bruno picked the parcel up at the depot.") == ()


def test_places_come_from_the_installed_gazetteer() -> None:
    assert country("Japan") == country("日本") == city_country("Osaka") == "JP"
    assert city_country("Paris") == "FR"  # the most populous of the name
    assert city_country("京都") == "JP"
    assert city_country("Nowhereville") is None
    assert city_country("Seville") == "ES"  # another name of a large city (GeoNames: Sevilla)
    # the island (places._SIGHTS), not GeoNames' small town of the name in Cameroon
    assert city_country("Bali") == "ID"
    assert zh_places("他去年在巴黎住了半年，今年去了曼谷。") == ("FR", "TH")


def test_the_gazetteer_opens_no_socket() -> None:
    body = ("from memscope.meaning.places import city_country, country\n"
            "print('CODES', city_country('Kyoto'), country('意大利'))")
    out = run_without_network(body)
    assert "CODES JP IT" in out
    assert "SOCKETS 0" in out


def test_the_audit_pairs_them_among_other_memories() -> None:
    """The rules reach the audit's findings: each pair is compared although the two texts
    share no word (the audit pairs a text with every other about its owner when it gives
    routine hours or no partner, and a partner said with a name is the owner's partner)."""
    from datetime import UTC, datetime

    from memscope.graph.analysis import analyse
    from memscope.meaning.audit import semantic_findings
    from memscope.records.dataset import from_feed_pages

    texts = {
        "wake": "Bruno is up at six every morning.",
        "late": "Bruno rarely gets out of bed before nine.",
        "widow": "Greta has been a widow since 2019.",
        "lars": "Greta's husband Lars picks her up after work.",
        "only": "Bruno is an only child.",
        "bro": "Bruno's brother runs a bakery in Ghent.",
        "pt": "Bruno has never been to Portugal.",
        "porto": "Bruno spent a long weekend in Porto in May.",
        "other": "Greta's sister Ida lives in Bergen.",
        "plan": "Bruno hopes to visit Lisbon next spring.",
    }
    docs = [{"id": f"d-{key}", "title": key, "createdAt": "2026-05-01T09:00:00Z",
             "memoryEntries": [{"id": key, "memory": text, "spaceContainerTag": "s",
                                "createdAt": f"2026-05-{n + 1:02d}T10:00:00Z"}]}
            for n, (key, text) in enumerate(texts.items())]
    found = semantic_findings(analyse(from_feed_pages([{"documents": docs}]),
                                      datetime(2026, 6, 1, tzinfo=UTC)))
    pairs = {frozenset(f.nodes) for f in found if f.kind == "suspected_contradiction"}
    assert pairs == {frozenset(p) for p in (("wake", "late"), ("widow", "lars"),
                                            ("only", "bro"), ("pt", "porto"))}
    routine = next(f for f in found if set(f.nodes) == {"wake", "late"})
    assert "put one routine at hours that cannot both hold" in routine.reason  # in words


def test_chinese_updates_on_one_thing_in_other_words() -> None:
    """A time a clause opens on is not the name; a manager, a plan carried out."""
    from memscope.meaning.claims import update_relation

    assert update_relation(claim("去年王静住在成都。"), claim("王静今年搬到了重庆。")) is True
    assert update_relation(claim("王静的上司是刘经理。"),
                           claim("王静现在的直属领导换成了赵总监。")) is True
    assert update_relation(claim("王静打算领养一只猫。"),
                           claim("王静从救助站领回来一只橘猫。")) is True
    assert update_relation(claim("王静喜欢听爵士乐。"), claim("王静的护照明年到期。")) is not True


def test_a_pregnancy_and_the_birth_are_one_thing() -> None:
    """An update from "expecting" to the birth stays on one thing (a topic of its own:
    怀孕 / 生了, pregnant / baby); an update to something else is still another thing."""
    from memscope.meaning.claims import update_relation

    assert update_relation(claim("王静怀孕五个月了。"), claim("王静上周生了一个女儿。")) is True
    assert update_relation(claim("Greta is pregnant with twins."),
                           claim("Greta is on maternity leave.")) is True
    assert update_relation(claim("王静怀孕五个月了。"), claim("王静的护照明年到期。")) is not True


@pytest.mark.parametrize(("text", "size"), [
    ("王静在杭州工作。", 2), ("王静怡在苏州工作。", 3),        # two people, not one
    ("周建国没有孩子。", 3), ("周建国的儿子在读大学。", 3),
    ("刘洋女儿的生日在五月。", 2), ("刘洋出生于1990年。", 2),   # a role; a dictionary word
    ("陈晓明目前在深圳。", 3),                                # 目前 far commoner than 明目
    ("杨帆养了一只猫。", 2), ("马超单身。", 2), ("玛雅改喝燕麦拿铁了。", 2),
])
def test_a_chinese_name_is_read_whole(text: str, size: int) -> None:
    from memscope.meaning.clauses import zh_name_length

    assert zh_name_length(text) == size


@pytest.mark.parametrize(("a", "b"), [
    ("王静在杭州工作。", "王静怡在苏州工作。"),
    ("张伟会说日语。", "张伟明不会说日语。"),
    ("吴昊晚上不喝咖啡。", "吴昊每天早上都要喝一杯咖啡。"),
    ("邵杰每天喝两杯咖啡。", "邵杰下午三点以后不喝咖啡。"),
    ("蔡敏周末不加班。", "蔡敏工作日经常加班到九点。"),
    ("陆婷不会游泳。", "陆婷正在报班学游泳。"),
    ("康宁上个月刚搬到深圳。", "康宁之前一直住在广州。"),
    ("廖静一家三口住在成都。", "廖静和丈夫、儿子住在一起。"),
    ("谢涛已经结婚了。", "谢涛的弟弟谢波还是单身。"),
])
def test_chinese_look_alikes_are_left_alone(a: str, b: str) -> None:
    """Two people whose names share two characters; a denial at times (晚上, 周末, 三点以后);
    learning is no ability yet; 之前 is the past; 住在一起 is no place; a brother."""
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None


def test_a_chinese_denial_not_at_all_is_still_one() -> None:
    assert conflict(claim("段鹏对猫毛过敏。"),
                    claim("段鹏一点也不对猫过敏，家里养了三只猫。")) is not None


@pytest.mark.parametrize(("a", "b"), [
    ("王静每天早上七点起床。", "王静每天早上都是九点半才起床。"),      # Chinese routine hours
    ("王静每天晚上十点睡觉。", "王静每晚十二点以后才睡。"),
    ("王静还没有结婚。", "王静的丈夫叫刘强。"),                        # not married
    ("王静已经离婚了。", "王静和丈夫结婚八年了。"),                    # divorced / married
    ("王静每天抽半包烟。", "王静两年前就把烟戒了。"),                  # quit smoking
    ("王静会说流利的德语。", "王静一句德语都不会说。"),                # not a word of it
    ("王静有一辆宝马。", "王静没有车，每天坐公交上班。"),              # 辆 counts vehicles
    ("王静去过韩国。", "王静从未出过国。"),                            # a country, 去过
    ("王静1988年出生。", "王静是1992年生的。"),                        # a birth year
    ("王静的房租是每月五千元。", "王静每个月房租四千块。"),            # money written two ways
    ("王静的生日是3月8日。", "王静的生日在十月二号。"),                # a date in numerals
    ("王静的体检预约在周五上午九点。", "王静的体检预约是周五下午两点。"),  # a time of day
])
def test_chinese_conflicts_in_other_words(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), [
    ("王静的生日在八月。", "王静的生日是8月15日。"),      # 在 and 是 are no values
    ("王静的丈夫是医生。", "王静的丈夫在市医院工作。"),    # 在 a place says no name
    ("王静每天早上七点起床。", "王静每天早上七点半出门。"),  # leaving is no waking
    ("王静一点也不喜欢咖啡。", "王静每天下午都要喝茶。"),
])
def test_chinese_look_alikes_in_other_words(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None


def test_chinese_times_dates_and_money_are_written_one_way() -> None:
    from memscope.meaning.normal import normalise

    assert normalise("王芳的会议在周四下午三点。") == "王芳的会议在周四15:00。"
    assert normalise("王芳每天早上八点半起床") == "王芳每天08:30起床"
    assert normalise("王芳生日在十月五号") == "王芳生日在10月5日"
    assert normalise("王芳每个月房租三千块") == "王芳每月房租3000元"
    assert normalise("他一点也不在乎") == "他一点也不在乎"  # "not at all", no hour


@pytest.mark.parametrize(("a", "b"), [
    ("Bruno no longer works at Siemens.", "Bruno currently works at Siemens in Munich."),
    ("Bruno drinks three espressos a day.", "Bruno gave up coffee entirely a year ago."),
    ("Bruno has zero siblings.", "Bruno's sister Elsa lives in Graz."),
    ("Bruno has no brothers.", "Bruno's brother Max is a chef."),
    ("Bruno is divorced.", "Bruno has been happily married to Ida for ten years."),
    ("Bruno smokes a pipe every evening.", "Bruno has never smoked in his life."),
    ("Bruno doesn't own a car.", "Bruno owns a red Volkswagen Golf."),
    ("Bruno owns the flat he lives in.", "Bruno rents his flat from the council."),
    ("Bruno only speaks Dutch and French.", "Bruno is fluent in Italian."),
    ("Bruno usually goes to bed around 1 am.", "Bruno is always asleep by 11 pm."),
    ("Bruno has never worked as a teacher.", "Bruno teaches history at a grammar school."),
    ("Bruno owns a bike.", "Bruno doesn't own a bike any more."),
    ("Bruno is a teetotaller.", "Every Saturday Bruno drinks a pint of lager at the pub."),
    ("Bruno is retired.", "Bruno works 30 hours a week as a surveyor."),
    ("Bruno has no idea how to swim.", "Bruno, a keen swimmer, does forty lengths daily."),
    ("Bruno has never played an instrument in his life.", "Bruno plays the cello well."),
    ("Bruno doesn't use social media of any kind.", "Bruno posts on Instagram daily."),
    ("Bruno has never ridden a bike.", "Bruno cycles to the office most days."),
    ("Bruno is allergic to nothing.", "Bruno is allergic to wasp stings."),
    ("Bruno is lactose intolerant.", "Bruno has no food intolerances whatsoever."),
    ("Bruno speaks only English.", "Bruno chats with his aunt in fluent Greek."),
    ("Bruno rarely sleeps before 2 am.", "Bruno is in bed by 9:30 every night."),
    ("Bruno has exactly one child.", "Bruno has three kids."),
])
def test_english_conflicts_in_other_words(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), [
    ("Anna Schmidt works at Deloitte.", "Anna Berg works at PwC."),       # two surnames
    ("Bruno no longer works at Siemens.", "Bruno works at Bosch."),       # a change of job
    ("Bruno owns a house in the country.", "Bruno rents a flat in town."),  # two homes
    ("Bruno is training for a marathon.", "Bruno has never run a marathon."),  # a plan
    ("Bruno only speaks Dutch and French.", "Bruno is learning Italian."),
    ("Bruno usually goes to bed around 10 pm.", "Bruno is always asleep by 11 pm."),
    ("Bruno doesn't own a car.", "Bruno drives his sister's Volkswagen."),
    ("Bruno still works part-time.", "Bruno retired from full-time work at 65."),
    ("Bruno was engaged to Ida in 2020.", "Bruno is now married to Sana."),
    ("Bruno has never played an instrument.", "Bruno's daughter plays the cello."),
])
def test_english_look_alikes_in_other_words(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None
