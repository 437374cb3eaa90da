"""Tenth pass of the audit's rules (issue 35): common knowledge the rules now carry, each
with the look-alikes it must leave alone. Places people go that are no city (Bali,
Patagonia, Machu Picchu) and the southern hemisphere; public events someone lived through
against a year of birth or an age; a sight seen from home against a home in another
country or province; foods that hold gluten, drinks and dishes read in a habit said over
two clauses; a note's teller who names whom it is about. Sentences here are this file's
own, not the labelled sets'."""

from __future__ import annotations

import pytest
from test_audit_levels import _flagged as flagged

from memscope.meaning.events import witnessed
from memscope.meaning.places import city_country, continent, sights


@pytest.mark.parametrize(("a", "b", "expected"), [
    # places that are no city of GeoNames' list
    ("Ingrid has never been to Asia.", "Ingrid spent her honeymoon in Bali.", True),
    ("Ingrid has never set foot in South America.", "Ingrid went trekking in Patagonia in "
     "March.", True),
    ("Ingrid has never been to Peru.", "Ingrid hiked the Inca Trail to Machu Picchu in 2021.",
     True),
    ("Ingrid has never left Europe.", "Ingrid went surfing in Hawaii two years ago.", True),
    ("Ingrid has never been south of the equator.", "Ingrid toured New Zealand by campervan "
     "last winter.", True),
    ("Ingrid has been to every continent except Africa.", "Ingrid climbed Kilimanjaro in "
     "2019.", True),
    ("Ingrid has never been to Iceland.", "Ingrid took a week off in Reykjavik last year.",
     True),
    ("卡米拉从来没去过亚洲。", "卡米拉去年在巴厘岛度了蜜月。", True),
    ("卡米拉从来没去过南半球。", "卡米拉去年在澳大利亚住了半年。", True),
    # a trip still to come, another person, somewhere allowed
    ("Ingrid has never been to Asia.", "Ingrid is flying to Bali next month.", False),
    ("Ingrid has never been to Asia.", "Ingrid's brother spent his honeymoon in Bali.", False),
    ("Ingrid has never been south of the equator.", "Ingrid toured Norway by campervan last "
     "winter.", False),
    ("Ingrid has been to every continent except Africa.", "Ingrid climbed Mount Fuji in "
     "2019.", False),
])
def test_places_people_go(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Tobias was born in 1994.", "Tobias remembers watching the moon landing on TV as a boy.",
     True),
    ("Tobias was born in 1994.", "Tobias vividly remembers the Berlin Wall coming down.", True),
    ("Tobias is 25.", "Tobias fought in the Falklands War.", True),
    ("Tobias is 25.", "Tobias remembers watching the Berlin Wall fall live on television.",
     True),
    ("邵阳是1995年出生的。", "邵阳记得小时候守在电视前看香港回归的直播。", True),
    # old enough, a film about it, someone else's memory
    ("Tobias was born in 1960.", "Tobias remembers watching the moon landing on TV as a boy.",
     False),
    ("Tobias was born in 1994.", "Tobias watched a documentary about the moon landing.", False),
    ("Tobias was born in 1994.", "Tobias's father remembers watching the moon landing live.",
     False),
    ("邵阳是1985年出生的。", "邵阳记得小时候守在电视前看香港回归的直播。", False),
    ("Tobias was born in 1994.", "Tobias has no memory of the moon landing at all.", False),
])
def test_events_lived_through(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Odile lives in Montreal.", "Odile can see Big Ben from her office window.", True),
    ("Odile lives in Madrid.", "Odile's flat is a ten-minute walk from the Colosseum.", True),
    ("Odile lives in Toronto.", "Odile's commute on the Tube takes forty minutes.", True),
    ("许静住在成都。", "许静每天上班都路过外滩。", True),
    # a visit, another person, two cities of one country (a river runs through many)
    ("Odile lives in Montreal.", "Odile visited Big Ben on a trip last spring.", False),
    ("Odile lives in Montreal.", "Odile's sister can see Big Ben from her office window.",
     False),
    ("Odile lives in Reading.", "Odile's office overlooks the Thames.", False),
    ("许静住在上海。", "许静每天上班都路过外滩。", False),
])
def test_a_sight_from_home(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Magnus has coeliac disease.", "Magnus has rye bread with every lunch.", True),
    ("Magnus is coeliac.", "Magnus makes fresh pasta every Sunday and eats most of it "
     "himself.", True),
    ("Magnus follows a strictly kosher diet.", "Magnus's usual Saturday lunch is a bacon "
     "roll.", True),
    ("Magnus is vegetarian.", "Magnus had a lamb kebab for dinner last night.", True),
    ("Magnus hasn't had a single sip of alcohol in his life.", "Magnus drinks a pint of cider "
     "most evenings.", True),
    ("Magnus is allergic to shellfish.", "Magnus's favourite dinner is lobster linguine.",
     True),
    ("User mentioned Magnus's go-to snack is beef jerky.", "Magnus is vegan.", True),
    ("钟敏有乳糜泻，严格无麸质饮食。", "钟敏每天早饭都吃两个馒头。", True),
    ("钟敏饮食上一直严守清真。", "钟敏最爱吃的菜是回锅肉。", True),
    ("钟敏确诊乳糜泻。", "钟敏的早饭雷打不动：一碗牛肉面。", True),
    # gluten-free food, cooking for others, before the diet, another person
    ("Magnus is coeliac.", "Magnus eats gluten-free pasta every Sunday.", False),
    ("Magnus is vegetarian.", "Magnus cooks lamb for his family every Sunday and eats a "
     "salad himself.", False),
    ("Magnus is vegetarian.", "Magnus had a lamb kebab in 2010.", False),
    ("User mentioned Magnus's son eats beef jerky every day.", "Magnus is vegan.", False),
    ("钟敏确诊乳糜泻。", "钟敏每天早饭都吃无麸质面包。", False),
    ("Magnus is coeliac.", "Magnus loves pizza and only orders gluten-free bases.", False),
    ("Magnus is vegetarian.", "Magnus roasts a chicken for his wife on Sundays and never eats "
     "any of it.", False),
])
def test_what_a_diet_rules_out(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # tuned on en_dev12 and zh_dev12 (after their first readings), in this file's words
    ("Ingrid has never left Morocco.", "Ingrid spent a week on Mallorca in 2018.", True),
    ("Ingrid has never been to Peru.", "Ingrid has booked a trip to Cusco for next May.",
     False),
    ("Ingrid has no allergies of any kind.", "Ingrid reacts badly to wasp stings and has a "
     "wasp-venom allergy.", True),
    ("Ingrid strictly keeps kosher.", "Ingrid's favourite breakfast is a ham and cheese "
     "croissant.", True),
    ("Ingrid swims three times a week.", "Ingrid has never swum competitively.", False),
    ("Ingrid is mildly lactose intolerant.", "Ingrid has a latte now and then.", False),
    ("Ingrid has no debts at all.", "Ingrid is still paying off a 9,000-euro car loan.", True),
    ("吕薇是2001年出生的。", "吕薇说她读幼儿园那年，在电视上看了香港回归。", True),
    ("吕薇今年17岁。", "吕薇说2008年北京奥运会时她在水立方当过志愿者。", True),
    ("吕薇从来没去过云南。", "吕薇去年夏天在丽江住了一个月。", True),
    ("吕薇住在苏州。", "吕薇说她从来没在江苏生活过。", True),
    ("吕薇去年去南京开了三天会。", "吕薇说她从来没在江苏生活过。", False),
    ("吕薇严格遵守穆斯林的饮食禁忌。", "吕薇最爱吃的是回锅肉。", True),
    ("吕薇不吃葱。", "吕薇给儿子炒菜时总要多放葱，因为儿子爱吃。", False),
    ("吕薇的生日是5月3日。", "吕薇每年都到6月才办生日聚会。", False),
    # a liked thing against one that cannot be stood; a predicate first, its owner after a dash
    ("Farah's favourite snack is olives.", "Farah can't stand olives or anything pickled.",
     True),
    ("Hates jazz — Farah says it gives her a headache.", "Farah loves jazz and goes to a jazz "
     "club every Friday.", True),
    ("Farah's favourite snack is olives.", "Farah can't stand olives in her salad.", False),
    ("Farah's favourite snack is olives.", "Farah's husband can't stand olives.", False),
])
def test_tuned_on_the_twelfth_sets(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # tuned on en_dev13 and zh_dev13 (after their first readings), in this file's words
    ("Rahel is a strict teetotaller.", "Most Fridays Rahel winds down with a pint of stout.",
     True),
    ("Rahel is a strict teetotaller.", "Most evenings Rahel unwinds with a glass of rum.", True),
    ("Rahel has a severe sesame allergy.", "A sesame bagel is what Rahel eats most mornings.",
     True),
    ("Rahel strictly keeps to halal food rules.", "Rahel's usual Saturday lunch is a ham "
     "sandwich.", True),
    ("Rahel keeps strictly kosher.", "Rahel often orders the crab linguine.", True),
    ("Rahel has followed a strict vegan diet for years.", "Rahel's favourite breakfast is "
     "scrambled eggs.", True),
    ("Rahel has cut out caffeine.", "Rahel drinks two espressos after lunch every day.", True),
    ("Rahel has cut out caffeine.", "Rahel drinks a decaf latte after lunch every day.", False),
    ("Rahel is a mother of two.", "Rahel has three children.", True),
    ("Rahel is a mother of two.", "Rahel's sister has three children.", False),
    ("Rahel describes herself as a committed atheist.", "Rahel is a devout Muslim.", True),
    ("The only car Rahel owns is a grey Skoda.", "Rahel's car is a white Fiat.", True),
    ("According to Rahel, she is 31.", "Rahel turned 45 in May.", True),
    ("祝涛今年三十五了。", "祝涛是2003年出生的。", True),
    ("今年国庆，祝涛带着爸妈在云南大理住了十天。", "祝涛从来没去过云南。", True),
    ("祝涛讨厌狗。", "祝涛最喜欢的动物就是狗。", True),
    ("祝涛讨厌狗。", "祝涛的女儿最喜欢狗。", False),
    ("祝涛对猫毛过敏。", "祝涛家里有只橘猫，养了三年。", True),
    ("祝涛对猫毛过敏。", "祝涛很喜欢看猫的视频。", False),
    ("祝涛是虔诚的穆斯林。", "祝涛中午常点一份红烧肉盖饭。", True),
    ("祝涛每逢初一十五吃素。", "祝涛平时也吃肉。", False),
    ("祝涛的妻子叫何静。", "祝涛的老婆名叫吴倩。", True),
])
def test_tuned_on_the_thirteenth_sets(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # tuned on en_dev14, en_dev15 and zh_dev14 (after their first readings), in this file's
    # words
    ("Nearly every day, Bruno has a cheese toastie for lunch.", "Bruno is vegan.", True),
    ("In Porto Bruno was chatting away in fluent Portuguese.", "Bruno doesn't speak a word of "
     "Portuguese.", True),
    ("Bruno drinks no alcohol at all.", "Bruno has a margarita most Fridays.", True),
    ("Bruno doesn't have caffeine at all.", "Bruno gets through three cans of Red Bull a "
     "night.", True),
    ("Bruno is lactose intolerant and avoids dairy.", "Bruno's go-to dinner is paneer tikka.",
     True),
    ("Bruno is debt-free.", "Bruno is still paying off about £8k in car loans.", True),
    ("Bruno is a vegetarian.", "On Sunday Bruno roasted a chicken and went back for seconds.",
     True),
    ("Bruno's doctor has told him to cut out salt and sugar.", "Bruno had cake at a party "
     "last week.", False),
    ("During Lent Bruno gave up chocolate.", "Bruno normally has chocolate every day.", False),
    ("Bruno doesn't smoke.", "Bruno smoked for years before he kicked the habit in 2015.",
     False),
    ("Bruno has never been to Wales.", "Bruno flies to London twice a year.", False),
    ("Bruno has never learned to surf.", "Bruno has booked surf lessons for his trip to "
     "Bali.", False),
    ("Bruno is teetotal.", "Bruno drinks ginger tea every morning.", False),
    ("贝贝对花生严重过敏。", "贝贝最爱的零食是花生糖。", True),
    ("贝贝是个虔诚的穆斯林。", "贝贝最拿手的是回锅肉，逢年过节都要做一大锅，自己吃得最欢。", True),
    ("贝贝是虔诚的印度教徒。", "贝贝最爱吃牛排。", True),
    ("贝贝是严格的素食者。", "贝贝昨天中午点了份牛腩饭。", True),
    ("贝贝对猫毛过敏。", "贝贝家那只橘猫已经十岁了。", True),
    ("贾小敏这辈子从没碰过烟。", "贾小敏烟龄都五年了。", True),
    ("贝贝没有任何负债。", "贝贝欠了一屁股债。", True),
    ("用户是独生女。", "用户说她亲姐下个月结婚。", True),
    ("钱多多家里没养任何宠物。", "钱多多每天下班都牵她家那条金毛去遛弯。", True),
    ("贝贝在华为上班。", "贝贝在华为做芯片设计。", False),
    ("贝贝每天都喝可乐。", "贝贝说下个月开始要戒可乐。", False),
    ("贝贝对海鲜过敏。", "贝贝吃一点虾就全身起红疹。", False),
])
def test_tuned_on_the_fourteenth_sets(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # tuned on en_dev16 (after its first reading), in this file's words
    ("Ottar is unable to drive.", "Ottar drives his daughter to school every morning.", True),
    ("Ottar's birthday falls on 2 May.", "Ottar celebrates his birthday each year on 9 "
     "August.", True),
    ("Ottar is a devout, practising Muslim.", "Ottar has a pint of lager after work most "
     "days.", True),
    ("Ottar gave up cigarettes in 2018.", "Ottar gets through a pack of Marlboros a day.",
     True),
    ("Ottar is completely free of debt.", "Ottar is still paying off a big car loan.", True),
    ("Ottar is mildly allergic to dogs.", "Ottar has a spaniel called Rolo.", False),
    ("Ottar doesn't smoke cigarettes.", "Ottar vapes now and then.", False),
    ("Ottar is unable to drive.", "Ottar's wife drives him to work every morning.", False),
])
def test_tuned_on_the_sixteenth_set(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # tuned on zh_dev15 (after its first reading), in this file's words
    ("庞博从来没抽过烟。", "庞博烟龄八年，一天一包。", True),
    ("庞博从来没抽过烟。", "庞博每天一包牛奶。", False),
    ("庞博讨厌爬山，觉得太累。", "庞博最大的爱好就是周末去郊外爬山。", True),
    ("庞博这辈子没离开过欧洲。", "庞博去年在东京住了半个月。", True),
    ("庞博的母语是普通话。", "庞博从小说的第一语言是客家话。", True),
    ("庞博平时基本吃素。", "庞博过年会吃几块腊肉。", False),
    ("庞博每周游一次泳。", "庞博最近感冒，这两周没去游泳。", False),
    ("庞博的农历生日是正月初八。", "庞博今年的公历生日在二月。", False),
    ("庞博没有任何负债。", "庞博还欠着银行二十万车贷。", True),
    ("庞博的父母都已经去世了。", "庞博每个周末都回老家陪父母吃饭。", True),
])
def test_tuned_on_the_fifteenth_chinese_set(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # an only child or sibling counted against a count of them or of a part of them
    ("Rutger's only child is a girl called Fenna.", "Rutger has two children.", True),
    ("Rutger's only child is a girl called Fenna.", "Rutger is the father of two sons.", True),
    ("Rutger's only sibling is his sister Lotte.", "Rutger has three brothers.", True),
    ("Rutger's only child is a girl called Fenna.", "Rutger has one daughter.", False),
    ("Rutger's only sibling is his sister Lotte.", "Rutger has one sister.", False),
    ("Rutger's only child is a girl called Fenna.", "Rutger's brother has two children.",
     False),
])
def test_an_only_one_counted(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


def test_a_field_named_with_an_aside() -> None:
    """"(Mateo, audit team)" names whose the field is; a time in the aside keeps it apart."""
    assert flagged("Mateo is unemployed and job hunting.", "Employer: Deloitte (Mateo, audit "
                   "team)")
    assert not flagged("Mateo is unemployed and job hunting.", "Employer: Deloitte (Ana, "
                       "audit team)")


def test_what_is_read() -> None:
    assert city_country("Bali") == "ID" and city_country("Zürich") == city_country("Zurich")
    assert city_country("巴厘岛") == "ID" and city_country("Machu Picchu") == "PE"
    assert {"AU", "NZ", "ZA"} <= continent("southern hemisphere") == continent("南半球")
    assert "NO" not in continent("southern hemisphere")
    assert sights("a view of the Brandenburg Gate") == ("berlin",)
    assert sights("每天路过天安门") == ("北京",)
    assert witnessed("served in the Vietnam War") == (1975, 16)
    assert witnessed("read a book about the Vietnam War") is None
    assert witnessed("mentions the moon landing") is None  # named, not lived through
