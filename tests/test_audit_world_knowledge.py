"""Eleventh pass of the audit's rules (issue 35): what someone uses, read with common
knowledge of who makes what. A tool denied ("has never owned an Android phone", "doesn't
own any Apple products", 从来没用过安卓手机) against one of it used; a maker's products only
("Apple only") against another maker's; a program made for one system (Final Cut Pro: a
Mac) against another system only; a sign of the zodiac against a birthday (is a Scorpio /
born on 20 July; 狮子座 / 生日在十二月底); voting or driving against an age or a school year too
young for it; each with the look-alikes it must leave alone. Sentences
here are this file's own, not the labelled sets'."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_audit_levels import _flagged as flagged
from test_audit_levels import contradictions

from memscope.meaning.claims import claim
from memscope.meaning.facts import signs_of
from memscope.meaning.situations import denied_tools
from memscope.meaning.updates import update_relation


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Marta has never owned an Android phone.", "Marta's phone is a Google Pixel 7.", True),
    ("Marta doesn't own any Apple products.", "Marta sketches on her own iPad in the "
     "evenings.", True),
    ("Marta refuses to buy anything made by Apple.", "Marta edits her podcast in Logic Pro on "
     "her laptop.", True),
    ("Marta boycotts Tesla.", "Marta drives her Model Y to the office.", True),
    ("Marta's only phone is a Samsung Galaxy A54.", "Marta's phone runs iOS 18.", True),
    ("Marta has only ever owned Android phones.", "Marta's daily phone is an iPhone 13.", True),
    ("Marta uses Apple devices only.", "Marta's work laptop is a ThinkPad T14.", True),
    ("Marta uses Linux only.", "Marta cuts her travel videos in Final Cut Pro.", True),
    ("晓雯从来没用过安卓手机。", "晓雯以前一直用小米手机。", True),
    ("晓雯唯一的手机是华为。", "晓雯的手机是iPhone 15。", True),
    # someone else's, still to come, one more, a common word, all one uses, another time
    ("Marta has never owned an Android phone.", "Marta's son has a Google Pixel 7.", False),
    ("Marta doesn't own an iPad.", "Marta wants to buy an iPad for Christmas.", False),
    ("Marta drives a Tesla Model 3.", "Marta says she'll never buy another Tesla.", False),
    ("Marta doesn't own any Apple products.", "Marta eats an apple with her lunch.", False),
    ("Marta hasn't set foot in an office since 2020.", "Marta uses Office 365 every day.",
     False),
    ("Marta never uses anything but Android.", "Marta's phone is a Samsung Galaxy.", False),
    ("Marta used to use only Windows.", "Marta runs Linux on her laptop now.", False),
])
def test_what_someone_uses(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


def test_what_is_denied() -> None:
    assert denied_tools("has never owned an Android phone") == {("phone", "android")}
    assert ("tablet", "ipad") in denied_tools("doesn't own any Apple products")
    assert denied_tools("never uses anything but Vim") == set()
    assert denied_tools("will never buy another Tesla") == set()
    assert denied_tools("never opens the windows") == set()


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Ines is a Scorpio.", "Ines was born on 20 July 1990.", True),
    ("Ines is a Capricorn.", "Ines was born on 15 August 1992.", True),
    ("晓雯是狮子座。", "晓雯的生日在十二月底。", True),
    ("晓雯的生日是8月15日。", "晓雯说自己是摩羯座的。", True),
    # the sign of that day, or a day either side; "Leo" the name; another person's sign
    ("Ines is a Leo.", "Ines was born on 23 July 1990.", False),
    ("Ines is a Cancer.", "Ines was born on 23 July 1990.", False),
    ("Leo is a teacher.", "Leo was born on 3 March.", False),
    ("Ines's husband is a Scorpio.", "Ines was born on 20 July 1990.", False),
    ("晓雯是狮子座。", "晓雯的生日是7月24日。", False),
])
def test_a_sign_and_a_birthday(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


def test_the_signs_of_a_birthday() -> None:
    assert signs_of(7, 20) == {"cancer"}
    assert signs_of(7, 23) == {"cancer", "leo"}
    assert signs_of(12, None) == {"sagittarius", "capricorn"}
    assert signs_of(1, 1) == {"capricorn"}


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Bilal is eleven.", "Bilal voted in the last general election.", True),
    ("Bilal is 14 years old.", "Bilal drives himself to school every morning.", True),
    ("Bilal is 13.", "Bilal passed his driving test in the spring.", True),
    ("嘉怡今年十四岁。", "嘉怡每天自己开车上学。", True),
    ("嘉怡在读小学五年级。", "嘉怡已经考到了驾照。", True),
    # old enough, someone else, a plan
    ("Bilal is 34.", "Bilal voted in the last general election.", False),
    ("Bilal is eleven.", "Bilal's mother voted in the last general election.", False),
    ("Bilal is 15.", "Bilal hopes to pass his driving test next year.", False),
    ("嘉怡在读高三。", "嘉怡已经考到了驾照。", False),
])
def test_what_only_an_adult_does(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Tomás has lived in Singapore all his life.", "Tomás shovels snow off his driveway every "
     "winter.", True),
    ("Tomás lives in Sydney.", "Every Christmas Tomás builds a snowman in his garden.", True),
    ("婉婷住在海口。", "婉婷说她家那边冬天经常零下二十度。", True),
    ("婉婷老家在哈尔滨。", "婉婷说老家冬天从不下雪。", True),
    # a home where it snows, snow elsewhere, someone else's home
    ("Tomás lives in Oslo.", "Tomás shovels snow off his driveway every winter.", False),
    ("Tomás lives in Singapore.", "Tomás went skiing in the Alps and built a snowman.", False),
    ("Tomás's brother lives in Singapore.", "Tomás shovels snow off his driveway every winter.",
     False),
    ("婉婷住在哈尔滨。", "婉婷说她家那边冬天经常零下二十度。", False),
])
def test_the_weather_at_home(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # read on the seventeenth sets (new writers): what they missed
    ("Kenji will turn 41 this autumn.", "Kenji is 34 years old.", True),
    ("Kenji has never owned a car.", "Last year Kenji sold the Toyota he'd had since 2015.",
     True),
    ("Kenji refuses to own any device not made by Apple.", "Kenji's phone is a Google Pixel 8.",
     True),
    ("Kenji will turn 41 this autumn.", "Kenji is 40.", False),
    ("Kenji has never owned a car.", "Kenji sold the car he borrowed from his father.", False),
    # and what they flagged wrongly: whose a clause is, fear, one time, not smoking now, a
    # household's income
    ("雅琴的室友是穆斯林，不吃猪肉。", "雅琴周末常在宿舍包猪肉白菜馅饺子。", False),
    ("雅琴听不懂粤语。", "雅琴的丈夫是广州人，一口粤语说得很地道。", False),
    ("雅琴会游泳，在泳池能游一千米。", "雅琴不敢下海游泳，怕浪。", False),
    ("Kenji usually fasts during Ramadan.", "Kenji didn't fast this Ramadan because he was "
     "ill.", False),
    ("Kenji smoked heavily in his twenties.", "Kenji is a non-smoker who now runs "
     "marathons.", False),
    ("Kenji's salary is £42,000.", "Kenji and his wife have a combined household income of "
     "about £90,000.", False),
    # what still holds: the roommate's own clause, a denial of now, not smoking now
    ("雅琴的室友是穆斯林，不吃猪肉。", "雅琴的室友周末常在宿舍包猪肉白菜馅饺子。", True),
    ("雅琴上个月把车卖了，现在没有车。", "雅琴现在每天开她那辆白色丰田去上班。", True),
    ("Kenji is a non-smoker.", "Kenji smokes a pack a day.", True),
    ("Kenji's salary is £42,000.", "Kenji earns £55,000 a year.", True),
])
def test_read_on_the_seventeenth_sets(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Tomás did his master's at Stanford.", "Tomás has never studied in the US.", True),
    ("婉婷本科毕业于浙江大学。", "婉婷说大学四年一直在广州度过。", True),
    ("婉婷正在复旦读本科。", "婉婷现在在北京读大学。", True),
    # two degrees, the same city, a place two countries share
    ("婉婷本科在武汉大学读的。", "婉婷的硕士是在中山大学念的。", False),
    ("婉婷本科毕业于浙江大学。", "婉婷说大学四年一直在杭州度过。", False),
    ("Tomás graduated from Harvard.", "Tomás studied in Cambridge.", False),
])
def test_a_university_and_where_one_studied(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # read on the eighteenth sets (new writers), in this file's words: what they missed
    ("用户一口酒都不喝。", "午饭时用户总要喝一瓶啤酒。", True),
    ("用户的母亲前年去世了。", "下周六用户要陪母亲去公园散步。", True),
    ("阿杰是家里的独生子。", "阿杰的亲姐姐在杭州当老师。", True),
    ("用户家里养了三只布偶猫。", "用户这辈子一只宠物都没养过。", True),
    ("用户只有一个孩子。", "用户家三个孩子都在读小学。", True),
    ("婉婷的本科学的是法学。", "婉婷本科读的是临床医学。", True),
    ("婉婷是右利手。", "婉婷是左撇子。", True),
    ("阿杰下岗了，目前待业在家。", "阿杰现在是一家银行的主管。", True),
    ("Tomás is unemployed.", "Tomás is on the staff of a primary school.", True),
    ("Tomás takes the 8:05 train into the city every weekday.", "Tomás works from home "
     "full-time.", True),
    ("Tomás has spent his entire life in Lyon.", "Tomás grew up in Nantes.", True),
    ("Tomás has never travelled outside Asia.", "Tomás spent a week in Machu Picchu.", True),
    # and what they flagged wrongly: learning, understanding, a hand taught, studying,
    # a kin's nationality, an allergy kept in check, how old one feels, a year's income
    ("用户不会游泳。", "用户报了个游泳班，才上了两节课。", False),
    ("用户不会说粤语。", "用户听得懂粤语。", False),
    ("用户是左撇子。", "用户写字用右手，是小时候被老师纠正过来的。", False),
    ("Tomás studied medicine in Porto.", "Tomás has never practised medicine.", False),
    ("Tomás doesn't speak German.", "Tomás's wife is German.", False),
    ("Tomás is allergic to dogs.", "Tomás has a dog and takes an antihistamine every day.",
     False),
    ("用户今年四十岁。", "用户总说自己心理年龄只有二十岁。", False),
    ("用户月薪一万五。", "用户税前年收入四十万左右，主要是年终奖。", False),
    # what still holds: daily driving is no class, a denial of speaking meets speaking
    ("用户不会开车。", "用户每天自己开车上下班。", True),
    ("用户不会说粤语。", "用户粤语说得很流利。", True),
    ("Tomás is allergic to dogs.", "Tomás has a dog.", True),
    ("Tomás has no daughters.", "Tomás's daughter is called Inês.", True),
])
def test_read_on_the_eighteenth_sets(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # read on the nineteenth sets (new writers), in this file's words: what they missed
    ("Priya moved to Japan's capital in May.", "Priya lives in Osaka.", True),
    ("Priya lives in the capital of Kenya.", "Priya lives in Mombasa.", True),
    ("Priya grew up in Lyon.", "Priya was born and raised in Nantes.", True),
    ("Priya was born in Lima.", "Priya was born and raised in Quito.", True),
    ("Swims before work every morning.", "The user can't swim.", True),
    ("Mentioned while booking the hotel that Priya flew to Oslo last week.", "Priya has never "
     "flown.", True),
    ("Priya told the user she has never once ridden a horse.", "Priya rides her horse every "
     "Sunday.", True),
    ("Priya has never held a driving licence.", "Priya works as a taxi driver in Leeds.", True),
    ('"My birthday is the 2nd of May," Priya told me.', "Priya's birthday: 9 October.", True),
    ("Priya goes to the gym on Mondays.", 'Told me: "I never set foot in a gym." (Priya)', True),
    ("Priya still owes £90,000 on the mortgage.", "Priya owns her flat outright; the last "
     "mortgage payment went out in 2021.", True),
    ("Schedule — Priya: night shift, Monday to Friday.", "Priya works nine to five on weekdays.",
     True),
    ("大学室友陈晨从没上过大学。", "陈晨本科毕业于复旦大学。", True),
    ("用户的爸爸无辣不欢。", "用户的父亲一点辣都不吃。", True),
    ("用户目前住在上海。", "用户一家现居成都，没在别的城市住过。", True),
    ("用户的房贷还得再还十年。", "用户说房贷去年就全部还清了。", True),
    ("用户从来没去过北京。", "用户去年国庆在八达岭爬了长城。", True),
    ("用户没考过驾照。", "用户每天自己开车上班。", True),
    # and what they flagged wrongly: a diet of the past, a birthday kept on another day, an
    # allergy the pet does not trigger, beef bacon, a share of the rent, reading a language,
    # a kin's habit, a habit of one's twenties
    ("Priya was vegetarian all through college.", "Priya eats chicken most days now.", False),
    ("Priya's birthday is 9 May.", "Priya is celebrating her birthday on 11 May this year.",
     False),
    ("Priya is allergic to dogs.", "Priya has a poodle and says it doesn't trigger her "
     "allergy.", False),
    ("Priya doesn't eat pork.", "Priya orders the beef bacon burger at the halal diner.", False),
    ("Priya's flat rent is £1,400 a month.", "Priya's share of the rent comes to £700.", False),
    ("Priya doesn't speak French.", "Priya can read French menus without help.", False),
    ("用户不喝咖啡。", "用户的老公是咖啡发烧友。", False),
    ("用户二十多岁时一天要抽一包烟。", "用户戒烟三年了。", False),
    ("用户自己开公司当老板，上面没有任何领导。", "用户的直属领导是刘总。", True),
    ("Priya doesn't eat pork.", "Priya orders the bacon burger.", True),
])
def test_read_on_the_nineteenth_sets(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # read on the twentieth sets (new writers), in this file's words: notes that name no one
    # are the user's, in the first person, as "she" or "he", or with no subject at all
    ("I've never been to Peru.", "User spent two weeks in Lima last year.", True),
    ("She has never owned a car.", "The user drives her own car to work.", True),
    ("Married to Omar since 2018.", "Has never been married.", True),
    ("Left-handed.", "The user is right-handed.", True),
    ("My manager is Lena Fischer.", "The user reports to Paul Weber.", True),
    ("我每天自己开车上班。", "用户没考过驾照。", True),
    ("我闺女今年八岁。", "用户的女儿今年五岁。", True),
    # someone named as the teller, a note dated another time, a phone bought for parents
    ("Her favourite dish, Omar says, is lamb stew.", "The user is vegetarian.", False),
    ("截至2025年底，用户体重80公斤。", "截至2026年6月，用户体重72公斤。", False),
    ("As of 2024, the user lives in Leeds.", "As of 2026, the user lives in York.", False),
    ("用户一直用苹果手机。", "用户给父母各买了一部华为手机。", False),
    # the same without a date: still one time
    ("用户体重80公斤。", "用户体重72公斤。", True),
])
def test_read_on_the_twentieth_sets(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # read on the twenty-first sets (new writers): a memory tool's facts, no one named
    ("Birthday is June 4", "User's birthday falls on the 20th of September", True),
    ("Sister Mira lives in Porto", "User's sister Mira lives in Lyon", True),
    ("Non-smoker", "Smokes a pack a day", True),
    ("Atheist", "Devout Catholic who goes to Mass every Sunday", True),
    ("Only car is a Tesla Model 3", "Fills up their only car with diesel every week", True),
    ("滴酒不沾", "用户每晚都要喝一杯红酒", True),
    ("生日是3月8日", "用户的生日是10月1日", True),
    ("老婆陈静是小学老师", "用户的妻子陈静在医院当护士", True),
    # someone named after a time, a count, a stray animal
    ("去年春天马超在京都看了樱花。", "用户从来没去过日本。", False),
    ("The Harbour team has six members.", "Only three people are on the Harbour team.", True),
    ("Doesn't have any pets.", "Feeds a stray cat that comes into the garden.", False),
])
def test_read_on_the_twenty_first_sets(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # subjectless Chinese notes that open on a time are the user's too (上个月…, 2021年…),
    # unless someone is named after the time; a time at school is the past
    ("滴酒不沾", "周末常和朋友去酒吧喝精酿", True),
    ("用户一个人住", "跟爸妈住在一起", True),
    ("用户从不抽烟。", "去年开始每天抽一包烟。", True),
    ("上周杨光在游泳馆游了两千米。", "用户不会游泳。", False),
    ("去年开始戒了咖啡，现在只喝茶。", "用户读大学时每天要喝三杯咖啡提神。", False),
])
def test_a_time_before_no_subject(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "expected"), [
    # read on the twenty-second sets (new writers): a note with no subject that opens on its
    # time or on a verb the list lacks is the user's, in English and in Chinese, where a
    # note opening on no name at all is the user's
    ("Is vegan.", "Most mornings eats a ham omelette before work.", True),
    ("Takes tea with no sugar", "Puts two sugars in every cup of tea", True),
    ("视力5.0，从没近视过", "近视600度，离了眼镜什么都看不清", True),
    ("患有二型糖尿病，每天打胰岛素", "身体很健康，没有任何慢性病", True),
    # a name first stays the named person's (方舟, 老张, 方圆: words too), a friend named
    # after how the user knows them, a stray, how one gets on with a boss, cooking wine and a
    # café
    ("Friend Noor is pregnant with her first child.", "Noor already has three kids.", True),
    ("Neighbour Mrs. Kowalczyk is in her eighties.", "Mrs. Kowalczyk turned 35 last week.",
     True),
    ("Strictly vegan for five years now.", "Has a cheese omelette for breakfast every day.",
     True),
    ("Has never left the United States.", "Did a semester abroad in Madrid during college.",
     True),
    ("Strongly right-handed.", "User is left-handed.", True),
    ("Sober since 2016.", "Has a couple of pints of beer every Friday.", True),
    ("现在最爱的菜是佛跳墙。", "用户最爱的菜是红烧肉。", True),
    ("从没去过日本。", "2019年在大阪读过一年语言学校，住在难波附近。", True),
    ("柳青滴酒不沾。", "每周五下班后，柳青都要跟同事去楼下酒吧喝两杯IPA。", True),
    ("Jonas smokes ten cigarettes a day.", "Has never smoked.", False),
    ("嫂子在市人民医院当护士长。", "用户在一家银行上班。", False),
    ("用户不吃海鲜，吃了会起疹子。", "上周在青岛，用户在海鲜大排档请客户吃了一顿。", False),
    ("Only three people are on the Harbour team.", "The Harbour team has six members.", True),
    ("方舟的女儿五岁了。", "方舟的儿子三岁。", False),
    ("老张住在苏州，退休后一直在那儿。", "老张的儿子在北京工作，住在海淀区。", False),
    ("方圆住在杭州。", "用户从来没在浙江生活过。", False),
    ("对猫毛过敏", "好朋友小雨养了三只猫", False),
    ("Doesn't get on with her boss.", "Admits her boss is very good at the job.", False),
    ("两年前戒了酒，聚会都只喝茶", "炖鱼的时候习惯倒点料酒去腥", False),
    ("一点咖啡因都不碰，喝了就心慌", "喜欢咖啡馆的氛围，周末常去窝着看书，点的是热可可", False),
])
def test_read_on_the_twenty_second_sets(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


def test_whose_a_chinese_note_is_is_read_without_writing_a_cache(tmp_path: Path) -> None:
    """Whether a Chinese note opens on a name is read with jieba's word tags from its
    packaged dictionary: nothing is written to the temporary folder (jieba's own loader
    would keep a cache there, where another user could leave one)."""
    script = ("from memscope.meaning.clauses import zh_opens_on_name\n"
              "print(zh_opens_on_name('周洋一碰狗毛就打喷嚏'), zh_opens_on_name('烟已经戒了五年'))")
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    out = subprocess.run([sys.executable, "-c", script], env={**os.environ, "TMPDIR": str(tmp)},
                         cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.split() == ["True", "False"], out.stderr
    assert not list(tmp.glob("jieba*")), list(tmp.iterdir())



#: the thirteenth pass, read on the development sets' misses (in this file's own words)
_THIRTEENTH = [
    # read on the development sets' misses: "only" in Chinese makes one value (唯一的, 只有一台…
    # 是), a pet's name is one value, a twin sister is a sister; an only child is one child,
    # of one kind, at one stage of life (two stages apart, or two ages two years apart)
    ("卢伟唯一的相机是富士X100。", "卢伟唯一的相机是一台索尼A7。", True),
    ("卢伟只有一台相机，是富士X100。", "卢伟唯一的相机是索尼A7。", True),
    ("卢伟家的猫叫“年糕”。", "卢伟家唯一的猫叫“汤圆”。", True),
    ("卢伟是独生子。", "卢伟有个双胞胎哥哥，在读研。", True),
    ("卢伟只有一个儿子，今年四岁，在上幼儿园。", "卢伟的儿子今年考上了大学。", True),
    ("卢伟的女儿在读初二。", "卢伟就一个女儿，早就工作了，在银行当会计。", True),
    ("Tobias's only child, a girl, is in kindergarten.", "Tobias's daughter is at college.",
     True),
    ("Tobias's only child is a boy of six.", "Tobias's daughter plays the cello.", True),
    ("Tobias's son is his only child.", "Tobias's four kids share one bedroom.", True),
    ("Tobias has one son, Emil, and no other children.", "Tobias is a father of two.", True),
    ("Tobias has one daughter, Lea, who is 4.", "Tobias's daughter Lea is 11.", True),
    # two children may be anywhere; one stage apart may be a year gone by; a son is not
    # the only daughter; the owner's own age is not the child's
    ("卢伟有两个女儿，大女儿在读大学。", "卢伟的女儿今年上小学。", False),
    ("卢伟只有一个女儿，今年高二。", "卢伟的女儿今年高三。", False),
    ("卢伟只有一个女儿，今年上小学。", "卢伟的儿子今年上大学。", False),
    ("卢伟是独生女。", "卢伟的女儿在上幼儿园。", False),
    ("Tobias's only son is 7.", "Tobias's daughter is at university.", False),
    ("Tobias's only child is 7.", "Tobias is 38.", False),
    ("Tobias has one daughter, who is 9.", "Tobias's daughter is 10.", False),
    # read on the development sets' misses: the seat one takes, a salary in other words
    # (paid a year, a field, "makes … a year", fields split by ";"), an employer through its
    # branch or after "has been", a direct supervisor, an aeroplane
    ("Oona prefers an aisle seat when she flies.", "Oona always books a window seat.", True),
    ("出行习惯：靠过道的座位（欧阳娜）", "欧阳娜坐高铁一定要靠窗的位置。", True),
    ("Oona is paid €61,000 a year.", "Oona's current salary: €74,000 per annum.", True),
    ("Salary: $95,000", "Makes $140k a year at the agency", True),
    ("Oona Berg — Role: designer; Salary: £48k; Manager: Ivo.",
     "Oona Berg is currently earning £70,000 a year.", True),
    ("Oona works at the Tartu branch of Swedbank.", "Oona is employed by SEB in Tallinn.", True),
    ("Oona has been a designer at Bolt for three years.", "Oona works at Wise.", True),
    ("Oona reports directly to Ivo Saar.", "Oona's immediate supervisor is Mart Kask.", True),
    ("Oona has never been on an aeroplane.", "Oona flew to Lisbon in May.", True),
    # a seat somebody else books, the same pay in two ways, a bike paid for, another branch
    # of one employer
    ("Oona prefers window seats.", "Oona's husband always books an aisle seat.", False),
    ("Oona takes an aisle seat on overnight flights.", "Oona likes a window seat.", False),
    ("Oona earns €74,000 a year.", "Oona takes home about €4,100 a month.", False),
    ("Oona is paid €61,000 a year.", "Oona's salary: €61,000.", False),
    ("Oona paid €400 for her bike.", "Oona's salary is €61,000.", False),
    ("Oona works at the Tartu branch of Swedbank.", "Oona works at Swedbank.", False),
    # read on the development sets' misses: kin who died, in other words (grandparents, both
    # parents; a dad's birthday party is a day with him), and parents apart against together
    ("Rafael's grandparents have all passed away.", "Rafael calls his grandfather on Sundays.",
     True),
    ("Rafael's mother died in 2015.", "Rafael is in Porto for his mum's 60th birthday.", True),
    ("Rafael's parents separated in 2004.",
     "Rafael's parents have been married for 35 years.", True),
    ("Rafael's mum is widowed.", "Rafael's mum and dad are celebrating their 30th anniversary.",
     True),
    # a grave, someone else's parents, a parting then and a remarriage said of another
    ("Rafael's father died in 2015.", "Rafael visits his father's grave in May.", False),
    ("Rafael's parents separated in 2004.",
     "Ines's parents have been married for 35 years.", False),
    # read on the development sets' misses: a Chinese employer in other words (进了, 入职,
    # 就职于某地的, 是…员工), leaving it (从…离职), and when one goes to sleep
    ("韦青在美团做前端开发。", "韦青毕业后就进了京东，一直没换过公司。", True),
    ("韦青在成都的华为上班。", "韦青目前就职于杭州的网易总部。", True),
    ("韦青前年从百度离职了。", "韦青目前仍是百度员工，负责搜索广告。", True),
    ("韦青是个夜猫子，几乎没在凌晨一点前睡过。", "韦青每晚十点半前睡觉。", True),
    ("韦青作息：每晚11点睡，早上7点起", "韦青常年凌晨四点才睡。", True),
    # leaving said of the past only, a wife's employer, an hour of waking
    ("韦青前年从百度离职了。", "韦青以前在百度工作过三年。", False),
    ("韦青从百度离职了。", "韦青的妻子在百度上班。", False),
    ("韦青每晚十点前睡觉。", "韦青凌晨四点就起床跑步。", False),
    ("韦青一般晚上十点前睡觉。", "周末韦青常常熬到凌晨两点才睡。", False),
    ("Wei is in bed by 9 p.m. every night.", "On weekends Wei is a night owl.", False),
    # read on the development sets' misses: type 1 diabetes needs insulin, single for life,
    # bedtimes in other words, eating what one is allergic to on bread
    ("Marek has had type 1 diabetes since he was six.", "Marek has never taken insulin.", True),
    ("马克有1型糖尿病。", "马克从来没打过胰岛素。", True),
    ("Marek has remained single all his life.", "Marek's wife, Ilona, is a vet.", True),
    ("On weeknights Marek is usually asleep by 10.", "Marek is rarely in bed before 3 a.m.",
     True),
    ("Marek is allergic to sesame.", "Marek spreads tahini and sesame paste on toast.", True),
    ("马克对芝麻过敏。", "马克每天早上都抹芝麻酱在面包上。", True),
    ("Marek rents a small flat in Gdańsk.",
     "Marek's one and only residence is a cabin near Lublin.", True),
    ("Marek's sole job is as a nurse at Medicover.",
     "Marek is on the staff of LuxMed and has no other employer.", True),
    # type 2, a friend's insulin, a bedtime of weekends
    ("Marek has type 2 diabetes.", "Marek has never taken insulin.", False),
    ("Marek has type 1 diabetes.", "Marek's friend has never taken insulin.", False),
    ("Marek is usually asleep by 10.", "On weekends Marek is rarely in bed before 2 a.m.",
     False),
    # read on the development sets' misses: a Chinese partner named as 对象, an ex-wife is a
    # marriage once, and whose a form is when its name comes as （姓名：…）
    ("用户的对象叫阿杰，两人在一起四年了。", "用户已经单身两年了。", True),
    ("用户的前夫在深圳开公司。", "用户从来没结过婚。", True),
    ("婚姻状况：未婚（姓名：邝美琪）", "邝美琪和丈夫结婚已经八年了。", True),
    ("邝美琪的户口落在上海浦东。", "邝美琪的户口至今还在湖南衡阳老家。", True),
    ("邝美琪现任云帆科技CTO。", "邝美琪在云帆科技做前台接待。", True),
    ("邝美琪的户口在上海浦东。", "邝美琪住在杭州。", False),
    # a friend's partner, an ex-boyfriend (no marriage)
    ("用户的朋友的对象叫阿杰。", "用户已经单身两年了。", False),
    ("用户的前男友在深圳开公司。", "用户从来没结过婚。", False),
    # read on the development sets' misses: the floor one's home is on, how long one's way
    # to work takes (twice as long and a quarter of an hour more)
    ("Ilse's flat is on the ground floor.", "Ilse lives on the twelfth floor.", True),
    ("Ilse lives in a 3rd-floor flat in Ghent.", "Ilse's apartment is on the 8th floor.", True),
    ("Ilse's commute is a 70-minute bus ride.", "Ilse lives a 5-minute walk from the office.",
     True),
    ("Getting to work takes Ilse about an hour.", "Ilse's commute: 10 minutes by bike.", True),
    # an office's floor, one floor twice, a commute about as long
    ("Ilse works on the 9th floor.", "Ilse lives in a ground-floor flat.", False),
    ("Ilse lives on the 4th floor.", "Ilse's flat is on the fourth floor.", False),
    ("Ilse's commute is 40 minutes.", "Ilse's commute takes about 50 minutes.", False),
    # one citizenship only, in other words, against another
    ("Ilse holds Belgian citizenship and no other.", "Ilse is solely a Dutch national.", True),
    ("Nationality: Belgian (sole citizenship)", "User holds only a Dutch passport.", True),
    ("Ilse has only Belgian citizenship.", "Ilse travels on her Belgian passport.", False),
    # a thing said before its owner ("The lease on Ilse's flat ends …", "The flat Ilse lives in
    # is rented …")
    ("The lease on Ilse's Ghent flat ends on 31 March 2027.",
     "Ilse's lease on the Ghent flat runs until 30 September 2028.", True),
    ("Ilse owns the flat she lives in.", "The flat Ilse lives in is rented from a landlord.",
     True),
    # read on the development sets' misses: one Chinese dog or car in other words (只有一条狗，
    # 名字叫…; 唯一的那条狗取名叫…; 唯一的一辆车), a height said as 有一米八五, two sons said
    # of their father, the youngest as 排行最小
    ("用户家里只有一只猫，名字叫团子。", "用户把家里唯一的那只猫取名叫奶茶。", True),
    ("用户唯一的一辆车是红色比亚迪。", "用户唯一的车是灰色特斯拉。", True),
    ("用户说自己有一米九二。", "用户身高一米六八。", True),
    ("马腾只有一个女儿。", "马腾的两个女儿都在读小学。", True),
    ("马腾是家里的老大。", "马腾在家排行最小。", True),
    ("马腾税后月薪三万左右。", "马腾每个月税后到手只有六千五。", True),
    ("马腾家里养了两只猫。", "马腾家里就一只猫，名字叫橘子。", True),
    # the same name twice, a height not reached
    ("用户家里只有一只猫，名字叫团子。", "用户唯一的猫叫团子。", False),
    ("用户没有一米七。", "用户身高一米八。", False),
    ("马腾税后月薪六千五左右。", "马腾每个月税后到手六千五。", False),
    # read on the development sets' misses: when one gets up (early / late, as bedtimes), and
    # a hand said alone after a semicolon
    ("Bram's alarm goes off at 5:45 every morning and he is straight up.",
     "Bram never gets up before eleven.", True),
    ("用户从来不在十点之前起床。", "用户每天早上六点准时起床遛狗。", True),
    ("Is right-handed", "User writes with the left hand; left-handed", True),
    # getting up late on holidays only
    ("Bram gets up at 6:00 every morning.", "On holidays Bram sometimes sleeps until noon.",
     False),
]


@pytest.mark.parametrize(("a", "b", "expected"), _THIRTEENTH)
def test_read_on_the_thirteenth_pass(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


_FOURTEENTH = [
    # read on the development sets' misses: a faith or none said other ways (praying,
    # "has no religion", a field then a sentence); a faith not named meets only none
    ("Imran prays five times a day.", "Imran has no religion at all.", True),
    ("Imran prays to God every night.", "Imran calls himself a convinced atheist.", True),
    ("religion: none; Imran never goes to any services", "Imran is a devout Catholic.", True),
    ("吕青对宗教毫无兴趣。", "吕青信基督教，每周日去教堂做礼拜。", True),
    ("Imran prays to God every night.", "Imran is a practising Muslim.", False),
    ("Imran's father is an atheist.", "Imran prays five times a day.", False),
    # sleep: asleep before, stayed up past, hours a night; a note that opens on what one is
    ("Night owl who rarely falls asleep before 2am", "Usually goes to bed at 9:30pm", True),
    ("Odile hasn't once stayed up past 10 pm this month.",
     "Odile is basically never asleep before 1 am.", True),
    ("Odile gets a solid nine hours of sleep every night.",
     "Odile sleeps about four hours a night.", True),
    ("Odile sleeps seven hours a night.", "Odile gets a good eight hours of sleep most nights.",
     False),
    ("Odile gets two hours of overtime every night.", "Odile sleeps eight hours a night.",
     False),
    # the days one works and has off
    ("Odile works Monday to Friday and always has weekends off.",
     "Odile works every Sunday at the bakery.", True),
    ("Odile's working week runs Wednesday to Sunday, with Mondays and Tuesdays off.",
     "Odile always has Fridays off.", True),
    ("Odile works Monday to Friday and always has weekends off.",
     "Odile works out every Saturday.", False),
    ("Odile works Monday to Friday.", "Odile works Tuesdays and Thursdays from home.", False),
    # medicine taken against none, a form's heading naming whose it is
    ("Intake form (Bruno Alves) — Current medication: none; Smoker: no.",
     "Bruno takes a statin every evening.", True),
    ("Bruno isn't on any medication at the moment.", "Bruno has been taking sertraline daily.",
     True),
    ("Bruno isn't on any medication besides his inhaler.", "Bruno uses his inhaler every day.",
     False),
    ("罗杰平时什么药都不吃。", "罗杰每天早上吃一片降压药。", True),
    # owning no property against a mortgage; a home rented said another way
    ("Bruno rents a bedsit and has never owned property.",
     "Bruno is paying off a mortgage on his terrace.", True),
    ("Rents a flat in Porto", "User owns the Porto flat they live in", True),
    ("Bruno owns a cottage in Wales.", "Bruno rents a flat in London.", False),
    # a car by its make said another way; coffee one can't stand
    ("Bruno doesn't own a car or any vehicle apart from a scooter.",
     "Bruno drives a blue Škoda Fabia to the depot.", True),
    ("Bruno's Volvo is at the garage again.", "Bruno doesn't own a car.", True),
    ("Bruno doesn't own a car.", "Bruno's dad's Volvo is at the garage again.", False),
    ("Bruno can't stand coffee and drinks only tea.", "Bruno gets through four espressos a day.",
     True),
    ("Bruno quit drinking in 2019.", "Bruno had two beers at the match in 2017.", False),
    # hands and debts in more words
    ("Bruno is left-handed.", "Bruno writes only with his right hand.", True),
    ("罗杰天生左撇子，吃饭、写字都用左手。", "罗杰写字吃饭全靠右手。", True),
    ("Bruno still owes his sister EUR 3,000.", "Bruno paid his sister back and owes her nothing.",
     True),
    ("罗杰名下没有任何贷款。", "罗杰每个月六千的房贷还得还十五年。", True),
    # a denial by what one never held, a way to work every day
    ("Bruno has never once held a squash racket.", "Bruno plays squash every Thursday.", True),
    ("Bruno has never so much as picked up knitting needles.",
     "Bruno knitted his niece a jumper last winter.", True),
    ("Bruno cycles to work every day.", "Bruno drives to the office every day.", True),
    ("Bruno cycles to work every day in summer.", "Bruno drives to work every day in winter.",
     False),
    ("Commutes by bike and never drives to work", "Drives to the office most mornings", True),
    # a kin not spoken to or gone, an only pet, a field of work left or never worked in
    ("Bruno hasn't spoken to his brother in five years.", "Bruno calls his brother every Sunday.",
     True),
    ("Mother passed away in 2020", "Has lunch with mum every Saturday", True),
    ("Bruno's mother died in 2019.", "Bruno visits his mother's grave every Sunday.", False),
    ("Bruno's only pet is a rabbit called Pip.", "Bruno has two cats and a dog.", True),
    ("Pip is the user's one and only dog.", "The user has three dogs.", True),
    ("Bruno's only pet is a cat.", "Bruno has one cat.", False),
    ("Bruno left nursing for good in 2020 and now runs a café.",
     "Bruno is a nurse at the Royal Infirmary.", True),
    ("Bruno has never worked in education.", "Bruno teaches maths at a secondary school.", True),
    ("Bruno left teaching in 2019 and now works as a nurse.", "Bruno's mother is a teacher.",
     False),
    # a birthday in a month or kept with a party, languages said only, marriage in more words
    ("Bruno's birthday is 2 May.", "Bruno's birthday falls in late November.", True),
    ("Bruno's birthday is 2 May.",
     "Every year on 18 August, Bruno throws a party for his birthday.", True),
    ("Bruno's birthday is 2 November.", "Bruno's birthday falls in early November.", False),
    ("The user said they speak only English.", "User is fluent in Cantonese.", True),
    ("罗杰外语只会英语。", "罗杰法语过了专八，在使馆当翻译。", True),
    ("Bruno has never been married.", "Bruno divorced his first wife in 2012.", True),
    ("Bruno is single.", "Bruno and his wife Ana just bought a flat.", True),
    ("Bruno is a widower.", "Bruno and his late wife Ana married in 1990.", False),
    ("Bruno and his girlfriend Ana broke up in March.", "Bruno and Ana are still together.",
     True),
    ("罗杰上一段恋爱三年前结束，之后一直单着。", "罗杰和女朋友在一起两年了。", True),
    # pay over a bound, the longest run, social media, a teller's gerund
    ("Bruno earns well over $120,000 a year.", "salary: ~$45k/yr (Bruno)", True),
    ("Bruno earns over $50k a year.", "Bruno earns $55,000 a year.", False),
    ("Bruno has never run more than 3 km.", "Bruno ran the Boston Marathon last spring.", True),
    ("Bruno has never run more than 10 km.", "Bruno ran a 10K last year.", False),
    ("罗杰这辈子跑步从没超过三公里。", "罗杰去年跑了一个半马。", True),
    ("Bruno deleted all his social media accounts last year.", "Bruno posts on TikTok daily.",
     True),
    ("User lives alone in a studio.", "User mentioned sharing a house with three housemates.",
     True),
    # Chinese: where one works, no pets, no car, an only pet, smoking given up
    ("罗杰完全远程，从不去公司。", "罗杰每天早上九点打卡进公司。", True),
    ("罗杰家里什么活物都没养。", "罗杰家里养着一只柯基。", True),
    ("罗杰家没车，出门全靠地铁。", "罗杰开的是一辆白色丰田卡罗拉。", True),
    ("罗杰唯一的宠物是一只猫。", "罗杰家还养了一只仓鼠。", True),
    ("罗杰唯一的宠物是一只猫。", "罗杰的邻居养了一条狗。", False),
    ("罗杰的烟已经戒了三年。", "罗杰一天一包烟。", True),
    ("Bruno swore off cigarettes in 2018.", "2023-06-02: Bruno smoked a cigarette at a wedding.",
     True),
    # no known drug allergies as a note or a field, an allergy card; a boss named against
    # being self-employed; fear in other words; a party's member; skipping breakfast
    ("Bruno: no known drug allergies.", "Bruno is allergic to aspirin — it gives him hives.",
     True),
    ("No known drug allergies, confirmed at intake.", "Carries an allergy card for codeine.",
     True),
    ("Bruno has no known drug allergies.", "Bruno is allergic to peanuts.", False),
    ("According to Bruno, his boss is Ines Duarte.", "Bruno is self-employed.", True),
    ("Bruno's sister's boss is Ines Duarte.", "Bruno is self-employed.", False),
    ("Wasps don't bother Bruno at all.", "Bruno is so scared of wasps that he won't eat outside.",
     True),
    ("Bruno has no fear of flying.", "Bruno is terrified of planes.", True),
    ("Bruno has never joined any political party.", "Bruno is a card-carrying Green Party member.",
     True),
    ("Bruno always skips breakfast.", "Bruno eats breakfast at seven every day.", True),
    ("Bruno loves horror films.", "Bruno flatly refuses to watch horror films.", True),
    # schooling in more words, high school, exercise, a working day's start, one job only
    ("Bruno skipped university and went straight into work.",
     "Bruno graduated from the University of Porto in 2012.", True),
    ("Bruno read history at Coimbra.", "Bruno never went to university.", True),
    ("Bruno read the paper at breakfast.", "Bruno never went to university.", False),
    ("Bruno dropped out of high school.", "Bruno graduated from high school in 2004.", True),
    ("Bruno doesn't do any exercise at all.", "Bruno swims every morning.", True),
    ("Bruno never exercises after 8 pm.", "Bruno goes swimming every morning.", False),
    ("Bruno starts work at 6 a.m. every weekday.", "Bruno never starts work before 10 a.m.",
     True),
    ("Bruno starts work at 9 every day.", "Bruno gets up at 7 every day.", False),
    ("Bruno's only job is as a nurse at the Royal Infirmary.", "Bruno teaches Year 5.", True),
    ("Bruno teaches piano and it is his only job.", "Bruno teaches at a primary school.", False),
    # Chinese: an age said as a birthday to come or a decade's party, schooling, retirement
    # still to come, a home owned in other words (not one bought for one's parents), a liking
    # and a loathing said plainly
    ("罗杰今年二十六岁。", "罗杰明年就满四十了。", True),
    ("罗杰，30岁", "罗杰上个月刚过完六十大寿。", True),
    ("罗杰的最高学历是初中。", "罗杰在复旦读完博士才回的老家。", True),
    ("罗杰已经退休了，在家带孙子。", "罗杰每天早上八点去单位打卡，说离退休还有八年。", True),
    ("罗杰说离退休还有八年。", "罗杰每天早上八点去单位打卡。", False),
    ("罗杰一直租房住，名下没有房子。", "罗杰去年全款买了套三居室，已经搬进去住了。", True),
    ("罗杰现在住的房子是租的。", "罗杰前年给父母全款买了一套房。", False),
    ("罗杰讨厌香菜，一点都不能吃。", "罗杰吃什么都要放一大把香菜。", True),
    # a driving licence or a passport had or not, in more words
    ("Bruno doesn't have a driver's license.", "Bruno renewed his driver's license in May.",
     True),
    ("A full driving licence was issued to Bruno in 2011.",
     "Bruno has yet to get a driving licence.", True),
    ("罗杰至今没考驾照。", "罗杰去年驾照12分被扣光了。", True),
    ("罗杰不会开车。", "罗杰现在跑网约车。", True),
    ("罗杰的妈妈不会开车。", "罗杰每天开车上班。", False),
    ("Bruno lacks a passport.", "Bruno renewed his passport and it is valid until 2034.", True),
    ("Bruno has no passport.", "Bruno's son's passport is valid until 2030.", False),
    # a home for life against a move or a home elsewhere; Chinese schooling and a stay in
    # hospital
    ("Bruno has lived in the same house his whole life.", "Bruno moved house twice as a boy.",
     True),
    ("Since 2019, home for Bruno has been Faro.", "Bruno has lived in Braga all his life.", True),
    ("Bruno has lived in Braga all his life.", "Bruno moved to a bigger flat in Braga.", False),
    ("Bruno has lived in Portugal all his life.", "Bruno lives in Porto.", False),
    ("罗杰在上海读博士。", "罗杰本科毕业后就没再读书，一直在工作。", True),
    ("罗杰高中没读完就辍学了。", "罗杰是市一中的高中毕业生。", True),
    ("罗杰的妈妈从来没住过院。", "罗杰的妈妈去年在医院住了两周。", True),
    # children counted other ways
    ("No kids for Bruno — he's sure he doesn't want any.", "Bruno's two sons are at school.",
     True),
    ("Not a single grandchild yet, Bruno says.", "Bruno's granddaughter Ana started school.",
     True),
    ("A father of three, Bruno walks his kids to school.", "Bruno has two children.", True),
    ("All three of Bruno's daughters swim.", "Bruno has two kids.", True),
    ("All three of Bruno's daughters swim.", "Bruno has three kids.", False),
    # a rank at work in more words
    ("Bruno is the head of sales at Nokia.", "Bruno is a junior analyst in Nokia's sales team.",
     True),
    ("Bruno has managed the Lisbon support team since 2018.",
     "Bruno joined as a graduate trainee this spring.", True),
    ("Bruno is a junior designer.", "Bruno's boss leads a team of ten.", False),
    # how one wants to be reached, how one takes tea or coffee
    ("Bruno prefers email over phone calls.", "Bruno never opens his email; phone him.", True),
    ("Bruno prefers email.", "Bruno's boss wants to be reached by phone.", False),
    ("Bruno takes his tea with milk and two sugars.", "Bruno drinks his tea black.", True),
    ("Bruno takes his coffee black, no sugar.", "Bruno has his coffee with three sugars.", True),
    ("Bruno drinks his coffee with no milk.", "Bruno takes his coffee black.", False),
    ("Bruno takes his tea with milk.", "Bruno takes his coffee black.", False),
]


_FIFTEENTH = [
    # read on the development sets' misses: a note whose subject is a time of the user's
    # week or a meal ("Sunday evenings mean …", "Breakfast is …"): the user's
    ("Estranged from her father; no contact since 2019.",
     "Saturday mornings mean a long walk with dad.", True),
    ("Teetotal for a decade now.", "Thursday nights usually end with a couple of pints of lager.",
     True),
    ("Has coeliac disease.", "Lunch most days is a ham sandwich on white bread.", True),
    ("Teetotal for a decade now.", "Thursday nights are for the pub quiz with colleagues.", False),
    # a named pet that is a dog in one note and a cat in the other
    ("Owns a border collie called Pepper.", "Pepper, the user's ginger cat, sleeps all day.",
     True),
    ("Pet Pepper is a tabby.", "Pepper, the family pet, is a spaniel.", True),
    ("Owns a border collie called Pepper.", "Pepper, the user's collie, sleeps all day.", False),
    ("Iris's dog Pepper is a beagle.", "Tom's cat Pepper is a tabby.", False),
    ("Owns a beagle called Rex.", "Rex, the user's poodle, barks at the postman.", True),
    ("Owns a golden retriever called Rex.", "User's labrador Rex barks at the postman.", False),
    ("用户养的猫叫团子，是一只英短。", "团子是用户家的布偶，特别粘人。", True),
    ("用户养的猫叫团子，是一只英短。", "团子是用户家的英短，特别粘人。", False),
    # no children, no wedding, one hand, said other ways
    ("Has three daughters.", "Is childless by choice.", True),
    ("Has been married to Dana for nine years.",
     "Has never walked down the aisle and is proudly single.", True),
    ("A lefty: writes and draws with the left hand.", "Firmly right-handed.", True),
    ("A lefty: writes and draws with the left hand.", "Plays tennis right-handed.", False),
    # a car owned by its make in a note with a reason that denies something else
    ("Doesn't own a car.",
     "Their own Toyota Yaris is how they reach the station, since no bus stops nearby.", True),
    # where one lives, said with a possessive or on a farm; a childhood spent somewhere
    ("Has never been to Spain.", "Rents a flat in Madrid's Salamanca district.", True),
    ("Aunt Greta lives on a sheep farm in Wales.",
     "Greta, the user's aunt, has spent her whole life in Berlin.", True),
    ("Grew up in Glasgow.", "Spent her whole childhood in Cardiff.", True),
    ("Tariq lives in Porto with his wife.", "Tariq has never lived anywhere in Portugal.", True),
    ("Tariq lives in Porto with his wife.", "Tariq has never lived anywhere in Spain.", False),
    # a drive, a stage of schooling, a height, an age, said other ways
    ("Cousin Ivo never learned to drive.",
     "Ivo collected the user from the station behind the wheel of his own van.", True),
    ("Daughter Lena started a history degree at university last autumn.",
     "Lena is in Year 3 at the village primary.", True),
    ("Stands about 5 foot 4.", "At six foot three, ducks under every doorway.", True),
    ("Turned 40 in May.", "Half a century old as of this May.", True),
    # a parent's name or age, as mum or as mother; a bare kin after what one does with them
    ("Mum's name is Rosa.", "User's mother is named Elena.", True),
    ("My dad turned 80 last week.", "The user's father is 65.", True),
    ("Has no children.", "Drops off daughter Ava at nursery at 8am.", True),
    ("Has no children.", "Drops off neighbour Ava at nursery at 8am.", False),
    ("Has no siblings.", "Spends every birthday with twin brother Theo.", True),
    # wine by its grape; an allergy said as one's own; savings
    ("Sober since 2018.", "Has a glass of Malbec with dinner most nights.", True),
    ("Sober since 2018.", "Cooks with Malbec for her guests.", False),
    ("Severe peanut allergy; carries an EpiPen.", "User snacks on peanuts every afternoon.",
     True),
    ("Has no savings account.", "Puts 300 pounds into his savings account each month.", True),
    # a job title as a whole note; a career's field said as "whole career"; "proud of never"
    ("Senior nurse at a children's hospital in Cork.",
     "Has never worked in healthcare; a sales rep all her life.", True),
    ("Teaches chemistry at a sixth-form college.",
     "Whole career has been in retail — has never worked in education.", True),
    ("Proud of never having borrowed a penny: no loans, no cards.", "Has a car loan.", True),
    # a count of drinks as what a note is about; whipping up a meal is eating it
    ("Avoids caffeine on her doctor's advice.", "Three strong coffees a day are the bare minimum.",
     True),
    ("Vegetarian since university.", "Most evenings rustles up a chicken stir-fry.", True),
    # holding a thing is not doing what it is for
    ("Can't play any instrument.", "Collects antique violins — nine so far.", False),
    ("Can't play any instrument.", "Plays the violin in a string quartet.", True),
    # "one" for the thing named before it
    ("Ines drives a blue Fiat Panda.", "Ines sold her car in May and doesn't own one now.", True),
    ("Ines drives a blue Fiat Panda.", "Ines sold her bike in May and doesn't own one now.",
     False),
    # the third reading, on en_dev23's misses: one language too many for one said "only"
    # speaking (a colleague by name), retirement against still working (an aside of hope cut
    # apart), a divorce from someone one is married to now, years away from a country one
    # lives in, an only child with a brother, a passport, smoking breaks, eye colour, rent
    # for the home one lives in, waking late or early, a stage of schooling, a breed
    ("Colleague Ana speaks only Spanish and English.", "Ana negotiates with the Paris office in "
     "fluent French.", True),
    ("Retired in 2022 after 30 years at the bank.",
     "Still works at the bank, hoping to retire in a couple of years.", True),
    ("Divorced from Luca in 2019.", "Celebrating 10 years of marriage with husband Luca.", True),
    ("Divorced from Luca in 2019.", "Celebrating 2 years of marriage with husband Marco.", False),
    ("Hasn't set foot in Italy for over a decade.", "Has lived in Turin since 2020.", True),
    ("Hasn't set foot in Italy for over a decade.", "Lived in Turin from 1998 to 2004.", False),
    ("Went to Oslo last year for younger sister's wedding.", "Only child.", True),
    ("Only child.", "Calls her best friend Mia 'basically my sister'.", False),
    ("Passport was renewed in March.", "Doesn't have a passport.", True),
    ("Coworker Sam has never smoked.", "Sam from accounts slips out for a cigarette after lunch.",
     True),
    ("Eyes are a deep, dark brown.", "Has blue eyes.", True),
    ("Eyes are hazel.", "Has green eyes.", False),
    ("Pays rent to the landlord of the flat they live in.", "Owns the house outright.", True),
    ("Rarely wakes before 10.", "Has been up at 5:00 every morning for years.", True),
    ("Daughter Ivy is in Year 2.", "Ivy, the daughter, starts university in September.", True),
    ("The family dog, Rolo, is a black Labrador.", "Dog Rolo is a dachshund.", True),
    ("Her dog Rex is a Labrador.", "Her parents' dog, also called Rex, is a beagle.", False),
    # a first child on the way against children had ("due in May" is no "may"); a grandchild
    # at 25; a job employed against freelance; a retired teacher against still teaching
    ("Has three children.", "Pregnant with her first child, due in May.", True),
    ("Has a grandson who just started school.", "Is 24 and the youngest on the team.", True),
    ("Works as a freelance photographer.", "Employed full-time as a bank clerk.", True),
    ("Mr Diaz next door still teaches full-time at the high school.",
     "Neighbour Mr Diaz is a retired schoolteacher.", True),
    # the fourth reading, on older sets' misses: breakfast never or as a habit (not at
    # weekends only), a field never trained for, retirement "completely from paid work"
    # against commuting to a job, a racket sport, "any political party", "for the first
    # time", a liking said back to front, a first language learned, a loan taken out, a
    # manager "some guy called", "no car is registered to", a car by its make driven
    ("Ines never eats breakfast.", "Every day, Ines sits down to a bowl of muesli at 7:00.",
     True),
    ("Ines never eats breakfast.", "Ines has toast with jam at 8:00 at weekends.", False),
    ("Kai has no medical training of any kind.", "Kai works as a surgeon in Leeds.", True),
    ("Kai has no medical training of any kind.", "Kai's sister works as a surgeon.", False),
    ("Ruth retired completely from paid work in 2021.", "Ruth commutes to her office job "
     "every weekday.", True),
    ("Omar has never played a racket sport.", "Omar plays squash every Monday.", True),
    ("Omar has never joined any political party.", "Omar is a paid-up Green Party member.",
     True),
    ("Lior has yet to go sailing for the first time.", "Lior sails on the lake most Sundays.",
     True),
    ("Noa loves thrillers.", "Thrillers are something Noa flatly refuses to watch.", True),
    ("Noa's mother tongue is Hebrew.", "Arabic is the first language Noa ever learned.", True),
    ("Noa has never taken out a loan.", "The car loan Noa took out in 2022 is still being "
     "repaid.", True),
    ("Noa reports to Ada Lin.", "Noa's line manager, some guy called Tom Reed, signs off her "
     "leave.", True),
    ("No car is registered to Noa; she doesn't own one.", "Noa keeps her own Mazda in the "
     "garage.", True),
    ("Noa has no driving licence.", "Noa drives a grey Cupra to the gym.", True),
    ("Noa loves spicy food.", "Noa can't handle any heat at all.", True),
    # one's only pet by one name, a pet of the same kind by another (not another kind, not
    # another owner's)
    ("Noa's dog is called Pip.", "Toby is the only dog Noa has ever owned.", True),
    ("The user's cat is called Luna.", "The user's only pet is a cat named Mochi.", True),
    ("Noa's dog is called Pip.", "Noa's cat is called Toby.", False),
    ("Noa's only dog is called Pip.", "Ana's dog is called Toby.", False),
    # a home named before its owner ("The flat in Haarlem, which Femke has owned outright"),
    # retirement said "after he retired" against still working, a desk in the office every
    # day against never setting foot in one
    ("The flat in Delft, which Joke has owned outright since 2020, is her only home.",
     "Joke pays rent to her landlord for the Delft flat.", True),
    ("Tom moved to Portugal after he retired.", "Tom is still working full-time at the bank.",
     True),
    ("Ivo hasn't set foot in an office since 2021.",
     "Ivo is at his desk in the company's Oslo office every day.", True),
    # an amount of a loan as what a note is about
    ("Has never borrowed money: no loans, no credit cards.",
     "About £8k of the car loan is still outstanding.", True),
]


@pytest.mark.parametrize(("a", "b", "expected"), _FIFTEENTH)
def test_read_on_the_fifteenth_pass(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


_SIXTEENTH = [
    # read on the development sets' misses: each of two people the other's manager
    ("Kofi's manager is Ama Owusu.", "Ama Owusu reports to Kofi.", True),
    ("Colleague Lars is the user's line manager and approves their expenses.",
     "Lars reports directly to the user.", True),
    ("Kofi's manager is Ama Owusu.", "Ama Owusu reports to Yaw.", False),
    ("Kofi reports to Ama.", "Ama's manager is Efua.", False),
    # a note that opens on what the user has none of, on an allergy, on how many children,
    # on how good an attribute is: the user's
    ("No siblings, and she is fine with that.", "Her younger brother Tom lives in Leeds.", True),
    ("Shellfish allergy: always checks the menu twice.",
     "No food allergies of any kind — eats everything.", True),
    ("Three sons — Adam, Ben and Carl.", "Has no children at all.", True),
    ("Excellent hearing, never needed an aid.", "Wears a hearing aid in her left ear.", True),
    ("No longer eats meat.", "Ordered the fish at dinner.", False),
    # a child count against more sons (or boys) than that
    ("Ines is Omar's only child.", "Omar has two boys.", True),
    ("Omar has two children.", "Omar has two boys.", False),
    # a clause of "X's mother Helen" is also X's mother's
    ("My dad, Piotr, turns 60 in May.", "Dad celebrated his 71st birthday last week.", True),
    # "<Name> was born and raised in X": both Name's
    ("My aunt Rosa was born and raised in Seville.", "Rosa grew up in Lima.", True),
    # days of the week before a name and what they do
    ("Tomas never learned to ride a bike.",
     "Mondays and Wednesdays after work, Tomas rides his bike along the canal.", True),
    # no plans to retire is no plan
    ("Retired in 2021 after 35 years as a nurse.",
     "Still working full-time at the hospital, with no plans to retire soon.", True),
    # one's only pet, of any kind, against another pet by another name
    ("His only pet is a rabbit called Clover.", "Walks his beagle, Rex, every morning.", True),
    ("His only dog is a beagle called Rex.", "Feeds his cat, Clover, every morning.", False),
    ("His only cat is called Miso.", "His previous cat, Pip, died in 2020.", False),
    # never in a continent or outside a country, and a city or a sight there
    ("Has never travelled anywhere in Africa.", "Went on safari near Nairobi last spring.",
     True),
    ("Has never been outside Canada.", "Climbed the Eiffel Tower last month.", True),
    ("Has never been outside Canada.", "Has a print of the Eiffel Tower in the hall.", False),
    ("Lives and works in Lima, and hasn't left Peru in years.",
     "Teaches at a school in Madrid and cycles there.", True),
    # notes that open on sleep, on a day's treat, on owing nothing, on a date it held
    ("Up at 5 every day, in bed by 9.", "A night owl who is never asleep before 1 a.m.", True),
    ("Teetotal for years.", "Saturdays after work: a glass of red at the wine bar.", True),
    ("Vegan for ethical reasons.", "Weekend treat: a bacon roll from the market.", True),
    ("Vegetarian for Lent.", "Had a steak on Friday.", False),
    ("Mortgage-free since paying it all off in 2023.",
     "Still has 12 years left to pay on the mortgage.", True),
    ("As of May 2026, owes nothing to anyone.", "As of May 2026, pays the mortgage on his house.",
     True),
    # one sibling older in one note, younger in the other; a leap day and a year without one
    ("Sister Ana is older than the user.", "Ana is the user's little sister.", True),
    ("Sister Ana is older than the user.", "Ana is the user's big sister.", False),
    ("Her birthday is 29 February.", "She was born in 1993.", True),
    ("Her birthday is 29 February.", "She was born in 1996.", False),
    # a holiday as a date; a leading "now" names no one
    ("User's birthday is on Bonfire Night.", "User's birthday is on Christmas Eve.", True),
    # a condition opening a note; a meal as what one has; hard cheese and lactose
    ("Coeliac disease — must avoid gluten.", "Breakfast is always two slices of toast.", True),
    ("Dairy-free for years.", "Lunch is usually a brie baguette.", True),
    ("Lactose intolerant.", "Eats aged parmesan without any trouble.", False),
    ("Lactose intolerant.", "Drinks a milkshake after every match.", True),
    ("Strictly vegan.", "Eats aged parmesan most days.", True),
    # a country left for good, or no home there now, and a home in a city of it
    ("Lives in Porto.", "Left Portugal for good in 2020 and now rents in Berlin.", True),
    ("Lives in Porto.", "Has no home in Portugal now.", True),
    ("Lives in Porto.", "Left Portugal for a week in 2020.", False),
    # named people: a meal ordered today against a diet; pets counted with "his"; a country
    # visited against never; debts of loans; a launch date said with a verb; a salary in words
    ("Nadia has been vegetarian for ten years.", "Nadia ordered a beef burger at lunch today.",
     True),
    ("Omar has one cat, a tabby called Pip.", "Omar feeds his two cats before work.", True),
    ("Lea has been to Peru twice.", "Lea has never once set foot in Peru.", True),
    ("Joon is completely debt-free.", "Joon is still paying off about £9k of car loans.", True),
    ("Project Heron's launch date is 4 May.", "Project Heron is launching on the ninth of July.",
     True),
    ("Aiko earns £30,000 a year.", "Aiko's annual salary is fifty thousand pounds.", True),
    # people one manages, or none; living alone or with flatmates; only electric cars
    ("Bram has no direct reports.", "Bram manages four junior analysts.", True),
    ("Bram runs a one-person studio.", "Bram supervises a dozen nurses at the clinic.", True),
    ("Eva lives alone in a flat in Lisbon.", "Eva shares a house in Lisbon with two flatmates.",
     True),
    ("Ruth only ever drives electric cars.", "Ruth fills her car with petrol every week.", True),
    ("Ruth only ever drives electric cars.", "Ruth charges her car overnight.", False),
    # never managed by someone named as one's manager
    ("Ivo's line manager is Nora Berg.", "Ivo has never reported to Nora Berg.", True),
    ("Ivo's line manager is Nora Berg.", "Ivo has never reported to Sven.", False),
    # never lived in a hemisphere, or anywhere but one place, and a home or years elsewhere
    ("Ama has never lived north of the equator.", "Ama lives in Lagos.", True),
    ("Ama has never lived north of the equator.", "Ama lives in Cape Town.", False),
    ("Piotr has never lived anywhere except Gdańsk.", "Piotr spent three years working in Oslo.",
     True),
    # an operation named, savings
    ("Leon had his tonsils out as a boy.", "Leon has never had surgery.", True),
    ("Rosa has no savings at all.", "Rosa has about £4,000 saved for a car.", True),
    # staying up until an hour; a talk in a language; a native speaker; always self-employed;
    # rent paid or none
    ("Ken is in bed by 10 every night.", "Ken usually stays up reading until one in the morning.",
     True),
    ("Ken speaks only one language, English.", "Ken talks to his aunt in Polish every week.",
     True),
    ("Ken speaks only English.", "Ken chats with friends in Leeds every week.", False),
    ("Mei is a native Japanese speaker.", "Mei's first language is Spanish.", True),
    ("Ola has always been self-employed.", "Ola is an accountant at Deloitte.", True),
    ("Ola pays £900 a month in rent.", "Ola lives rent-free with her parents.", True),
    # a manager before a change; a visit denied for one reason only; no allergy to one thing
    ("Tess reports to Ian Gray.", "Before the merger, Tess reported to Lily Moss.", False),
    ("Tess flies to Paris for work every month.",
     "Tess has never been to Paris just for fun, only on business.", False),
    ("Tess is allergic to cats.", "Tess has no allergy to dogs and keeps a spaniel.", False),
    ("Tess has no allergies.", "Tess is allergic to cats.", True),
    # one phone, and another with no other one; never studied outside a country
    ("Rui's only phone is a Pixel 8.", "Rui uses an iPhone 14 and doesn't own any other phone.",
     True),
    ("Gia has never studied outside Italy.", "Gia did her master's at the Sorbonne.", True),
    ("Gia has never studied outside Italy.", "Gia did her master's at Bocconi in Milan.", False),
    # a penicillin taken against an allergy to penicillin; no one above one and a boss; a
    # twin's year of birth, and a year said after a place
    ("Nuno is allergic to penicillin.", "Nuno took a course of amoxicillin last winter.", True),
    ("Nuno is allergic to penicillin.", "Nuno took a course of doxycycline last winter.", False),
    ("Ines is the most senior person at the firm; nobody there outranks her.",
     "Ines has a weekly call with her boss in Paris.", True),
    ("Kai's twin brother Leo was born in 1988.", "Kai was born in Bergen in 1991.", True),
    ("Kai's twin brother Leo was born in 1988.", "Kai was born in Bergen in 1988.", False),
]


def test_a_leading_adverb_names_no_one() -> None:
    """"… and now lives in Bristol" is the note's owner's, not Bristol's."""
    c = claim("Sold the old house in 2020, and now lives in Bristol.")
    assert [cl.owner for cl in c.clauses] == [("user",), ("user",)]
    assert any(f.key == "home" and f.first == "bristol" for f in c.clauses[1].facts)


@pytest.mark.parametrize(("a", "b", "expected"), _SIXTEENTH)
def test_read_on_the_sixteenth_pass(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b", "shown"), [
    ("Maya is single.", "Maya is married to Tom.", "(“is single” / “is married”)"),
    ("Maya's phone is a Pixel 9.", "Maya's phone is an iPhone 15.", "(“Pixel” / “iPhone”)"),
    ("Ravi prefers SolidJS for frontend work.",
     "Ravi prefers React with TypeScript for frontend work.",
     "(“SolidJS” / “React with TypeScript”)"),
    ("Maya lives alone.", "Maya lives with her parents.", "(“alone” / “parents”)"),
    ("According to Paolo, his boss is Greta Lind.", "Paolo is self-employed.",
     "(“boss is Greta Lind” / “is self-employed”)"),
    ("韩梅梅每天挤地铁上下班。", "韩梅梅在家办公，三年没踏进过公司了。",
     "(“每天挤地铁上下班” / “在家办公”)"),
    # a long value is cut after a word that ends a phrase, not after "of"
    ("Nikolai never eats breakfast.",
     "Every day without fail, Nikolai sits down to a bowl of porridge at 7:30.",
     "(“never eats breakfast” / “sits down to a bowl of porridge”)"),
])
def test_a_reason_shows_the_values_as_written(a: str, b: str, shown: str) -> None:
    """The two values in a finding's reason are the texts' words, whole (not a stem, not
    the rules' own word for a state: "some-remote", "alon")."""
    assert any(shown in f.reason for f in contradictions(a, b))


@pytest.mark.parametrize(("a", "b", "expected"), _FOURTEENTH)
def test_read_on_the_fourteenth_pass(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("a", "b"), [
    ("Bruno goes to the gym every morning.", "Bruno swims every morning now."),
    ("Bruno goes to church every Sunday.", "Bruno is an atheist these days."),
    ("Bruno cycles to work every day.", "Bruno works fully remote now."),
    ("Bruno never went to university.", "Bruno is currently enrolled in a law degree."),
])
def test_an_update_within_one_topic_of_several_families_stays_on_it(a: str, b: str) -> None:
    """An update between two families of one topic (exercise, faith, a way to work,
    schooling) is on one thing, not a suspicious jump."""
    assert update_relation(claim(a), claim(b)) is True
