"""States a life has one of at a time (issue 35): how many children against how many sons
or daughters, a home owned or rented, the school one is at, one's own boss or another's,
and work done all at home or all at the office. Each rule with the look-alikes it must
leave alone; English and Chinese. Sentences here are this file's own, not the labelled
sets'."""

from __future__ import annotations

import pytest

from memscope.meaning.claims import claim, conflict

CONFLICTS = [
    # more sons or daughters than children
    ("Ilse has only one child.", "Ilse has two daughters, both at university."),
    ("Ilse has three sons.", "Ilse has just two children."),
    ("方圆有三个儿子。", "方圆只有两个孩子。"),
    ("方圆只有一个女儿。", "方圆有两个儿子，都在上小学。"),
    # a home owned or rented
    ("Ilse owns her flat in Graz outright.", "Ilse rents the flat she lives in from her aunt."),
    ("Ilse owns the house she lives in.", "Ilse rents her house from a cousin."),
    ("方圆住的是自己买的房子。", "方圆一直租房住。"),
    # the school one is at now
    ("Ilse is in high school.", "Ilse is an undergraduate studying chemistry."),
    ("方圆在读高中。", "方圆还是一名初中生。"),
    ("方圆在读大学。", "方圆刚上初二。"),
    # one's own boss, or another's
    ("Ilse is self-employed.", "Ilse works at Siemens as a planner."),
    ("方圆是个体户。", "方圆在华为上班。"),
    # all of the work at home, or all at the office
    ("Ilse works entirely from home.", "Ilse takes the tram to work."),
    ("Ilse never works remotely.", "Ilse works from home on Fridays."),
    ("Ilse commutes to the office every day.", "Ilse is fully remote."),
    # an employer not named, one's own work, a first job, a home shared (住在一块儿)
    ("方圆在一家外企上班。", "方圆从来没给别人打过工。"),
    ("方圆退休好几年了。", "方圆今年刚参加工作。"),
    ("方圆上个月辞职了，现在在家待业。", "方圆刚升了部门经理。"),
    ("方圆和女儿住在一块儿。", "方圆一个人住。"),
    # a home said with "living" ("has been living in")
    ("Ilse has been living in Graz since 2019.", "Ilse lives in Vienna."),
]

LOOK_ALIKES = [
    # fewer sons or daughters than children; or other kin, or another's
    ("Ilse has three children.", "Ilse has two daughters."),
    ("Ilse has two children.", "Ilse's sister has three sons."),
    ("方圆有三个孩子。", "方圆有两个女儿。"),
    ("方圆有一个女儿。", "方圆有一个儿子。"),
    ("方圆没有两个孩子。", "方圆有三个儿子。"),
    # two homes, or a garage
    ("Ilse owns her flat in Graz.", "Ilse rents a garage for her motorbike."),
    ("Ilse owns a holiday house in Spain.", "Ilse rents a flat in London."),
    # school then, or someone else's
    ("方圆在读大学。", "方圆上高中的时候住校。"),
    ("方圆在读大学。", "方圆的妹妹还在读初中。"),
    ("Ilse is an undergraduate.", "Ilse's son is in high school."),
    # a trade, not an employer
    ("Ilse is self-employed.", "Ilse works as a designer."),
    ("Ilse is self-employed.", "Ilse used to work at Siemens."),
    # some days at home and some at the office
    ("Ilse works from home on Mondays.", "Ilse takes the bus to work on Tuesdays."),
    ("Ilse works from home.", "Ilse's husband commutes to Linz daily."),
    # another's work or home; "一块" of money
    ("方圆在一家外企上班。", "方圆的哥哥是个体户。"),
    ("方圆和女儿住在一块儿。", "方圆的母亲一个人住。"),
    ("方圆每月多赚一块钱。", "方圆一个人住。"),
    ("Ilse has been living in Graz since 2019.", "Ilse's sister lives in Vienna."),
]


@pytest.mark.parametrize(("a", "b"), CONFLICTS)
def test_two_states_of_one_life_conflict(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), LOOK_ALIKES)
def test_states_that_may_both_hold_are_left_alone(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None


# --- phrasing around the claim ---------------------------------------------------------

PHRASED_CONFLICTS = [
    # a pet or twins said as the subject ("Bruno's dog Rex …", "Bruno's twins …")
    ("Bruno has no pets.", "Bruno's dog Rex is twelve."),
    ("Bruno has no children.", "Bruno's twins start school in September."),
    # "during" says nothing of the claim ("has never fasted during Ramadan")
    ("Bruno fasts every Ramadan.", "Bruno has never fasted during Ramadan."),
    # a time phrase before the name: the name is still the owner
    ("Every Friday evening Bruno plays in a futsal league.", "Bruno has never played futsal."),
    ("Since June 2024, Bruno works at Bosch.", "Bruno is currently unemployed."),
    ("Most winter weekends Bruno skis in the Alps.", "Bruno never learned to ski."),
    ("从前年开始，方圆就在苏州上班。", "方圆在杭州工作。"),
    ("这两年方圆都在京东上班。", "方圆是美团的员工。"),
    ("去年冬天方圆在京都住了一周。", "方圆从来没去过日本。"),
    # a job started, or had now
    ("Three weeks ago Bruno started as a buyer at Lidl.", "Bruno is out of work."),
    ("Bruno works at Aldi.", "Bruno left Aldi in May; he's now a buyer at Lidl."),
    # a value said first, or by its owner
    ("Bruno's favourite colour is red.", "When asked, Bruno said teal has always been his "
                                         "favourite colour."),
    ("Bruno's favourite colour is red.", "Teal is his favourite colour, Bruno says."),
    ("Bruno's favourite season is spring.", "Winter is Bruno's favourite time of year."),
    ("方圆最喜欢的颜色是红色。", "方圆说她最喜欢的颜色其实是蓝色。"),
    ("方圆每天晚上十点就睡了。", "据她邻居讲，方圆每天凌晨两点才睡。"),
    # not yet been there; lacking something
    ("Bruno is yet to visit Brazil.", "Bruno spent a year in Recife."),
    ("Bruno lacks a passport.", "Bruno showed his passport at the gate."),
    # counts with 就 (only)
    ("方圆家就一辆车。", "方圆家有两辆车。"),
    # an age between commas; a manager named after the title; "one and only"
    ("Bruno is in his late fifties.", "Bruno, 31, has just moved to Braga."),
    ("Bruno reports directly to the COO, Vera Lind.", "Bruno's one and only manager is "
                                                      "Olaf Berg."),
    # allergies said in other words, or by someone else
    ("Bruno has a mild walnut allergy.", "Bruno has no food allergies."),
    ("Bruno is allergic to wasps.", "Bruno's doctor says he has no wasp allergy."),
    ("Bruno is allergic to horses.", "According to his trainer, Bruno isn't allergic to "
                                     "any animals."),
    # a holiday is its date
    ("Bruno's birthday is 3 March.", "Bruno was born on Christmas Day."),
    # what a diet rules out, in other words
    ("Bruno only eats halal food.", "Bruno's usual order is a pepperoni pizza."),
    ("Bruno keeps kosher.", "Bruno eats a ham and mustard sandwich most days."),
    ("方圆只吃清真。", "方圆最爱吃猪肉白菜馅的饺子。"),
    ("方圆早就把烟戒了。", "方圆每天要抽一包烟。"),
    ("方圆吃不了辣。", "方圆无辣不欢。"),
    ("方圆滴酒不沾。", "每周六晚上，方圆都去酒吧喝两杯精酿啤酒。"),
    ("Bruno is vegan.", "Bruno's usual lunch is a tuna sandwich."),
    ("Bruno is teetotal.", "Bruno and his brother share a bottle of cider every Sunday."),
    ("Bruno hates tea and won't touch it.", "Bruno's favourite drink is a cup of green tea."),
    # a television by its short name; one's manager as "answers to"
    ("Bruno has never owned a television.", "Bruno watches the news on his TV every night."),
    ("Bruno answers to nobody but the CEO.", "Bruno reports to Vera Lind."),
    # working against retired; never lived outside a country; a clause before the name
    ("Bruno retired from teaching in 2020.", "Bruno is still working full days as a teacher."),
    ("Bruno has never lived outside Portugal.", "After leaving school, Bruno spent two years "
                                                "in Lyon."),
    # one tool of a kind and no other; the only languages one speaks
    ("Bruno only uses Linux.", "Bruno runs Windows on his laptop."),
    ("Bruno has only ever used Android phones.", "Bruno checks his iPhone every hour."),
    ("方圆只用WPS写文档。", "方圆每天用Microsoft Word写周报。"),
    ("Portuguese is the only language Bruno speaks.", "Bruno is fluent in both French and "
                                                       "German."),
    ("方圆只会说普通话。", "方圆日语说得很流利。"),
    ("方圆一门外语都不会。", "方圆会说英语。"),
    # notes as an assistant keeps them: a kin named first, a quote in the first person
    ("User's brother Ivo lives in Split.", "Ivo, the user's brother, still lives in Zadar."),
    ("User's son Ivo doesn't use any social media.", "Ivo (user's son) posts on TikTok daily."),
    ("User is teetotal.", "User said: 'I'm having a glass of wine every night.'"),
    ("User said: 'I haven't had a drink since 2020.'", "User has a beer most evenings."),
    ("User swims every morning.", "User said: 'I don't swim at all, my ears can't take it.'"),
    ("User's daughter Ana's favourite colour is red.", "Ana (user's daughter) says her "
                                                       "favourite colour is blue."),
    # one faith, or none
    ("Bruno is a practising Catholic.", "Bruno is an atheist."),
    ("Bruno doesn't follow any religion.", "Bruno goes to synagogue every Saturday."),
    ("Bruno is Hindu.", "Bruno converted to Christianity in 2019 and no longer practises "
                        "Hinduism."),
    ("方圆是基督徒。", "方圆说她是无神论者。"),
    ("方圆的奶奶信佛。", "方圆说奶奶不信任何宗教。"),
    ("方圆是穆斯林。", "方圆信的是天主教。"),
    # a kin named with their role in one note and alone in the other
    ("User's daughter Ivy is an only child.", "Ivy has a younger sister, Mae."),
    ("The user's husband Ivo works for Siemens.", "Ivo is unemployed."),
    ("User's boyfriend Ivo doesn't drink coffee at all.", "Ivo has two espressos before work."),
    ("Bruno doesn't drink coffee at all.", "Bruno starts every day with a flat white and a "
                                           "double espresso."),
    # nights or days at work; a favourite in Chinese; the animal of a birth year
    ("Bruno works night shifts at the depot.", "Bruno works nine-to-five in an office."),
    ("方圆上的是夜班。", "方圆现在上白班，朝九晚五。"),
    ("方圆最喜欢的歌手是周杰伦。", "方圆说自己最喜欢的歌手是陈奕迅。"),
    ("方圆属狗。", "方圆是1993年8月出生的。"),
    ("方圆属虎。", "方圆出生于1995年。"),
    ("方圆住的是自己买的房子。", "方圆现在还在租房。"),
    ("方圆不抽烟。", "方圆说\"我一天一包烟，戒了好几次都没戒掉\"。"),
    # exercise and social media by their kinds; another's home and birthday words; hours
    ("Bruno never exercises.", "Bruno plays five-a-side football twice a week."),
    ("Bruno has no social media.", "Bruno posts daily on Instagram."),
    ("Bruno lives in Porto.", "Bruno shares a flat with his parents in Braga."),
    ("Bruno has never resided outside Portugal.", "Bruno lives in Madrid."),
    ("Bruno's birthday is on Christmas Day.", "Bruno celebrates his birthday every year in "
                                              "mid-June."),
    ("Bruno works the night shift at the depot.", "Bruno's hours at the depot are 9 to 5, "
                                                  "daytime only."),
    ("Bruno is allergic to cats.", "Bruno's three cats sleep on his bed."),
    # one's main laptop against one's only computer; a club is a team; one passport; a team's
    # size; only sons
    ("Bruno's main laptop is a ThinkPad.", "Bruno does all his work on a MacBook Pro, the only "
                                           "computer he owns."),
    ("Bruno's favourite football club is Benfica.", "Bruno's favourite team is Porto."),
    ("Bruno holds only a Portuguese passport.", "Bruno travels on his Brazilian passport."),
    ("The Kiln team has six members.", "Only three people are on the Kiln team."),
    ("Bruno's daughter is called Rita.", "Bruno has only sons."),
    # small pets; a lifelong faith; a loyal user of one tool; work from home full-time; a car
    ("Pets: two rabbits", "User has never had a pet of any kind."),
    ("Bruno is a lifelong Catholic.", "Bruno is an atheist."),
    ("Bruno is an iPhone loyalist.", "Bruno's current phone is a Samsung Galaxy S23."),
    ("Bruno is a Mac person through and through.", "Bruno built a Windows gaming PC last year."),
    ("Bruno works from home full-time.", "Bruno commutes into the city office five days a "
                                         "week."),
    ("Bruno doesn't own a car.", "Bruno drives his 2018 Honda Civic to work each morning."),
    # a kin who died against a call to them; idioms of age and sleep; spicy food; beef; dairy
    ("User's mum passed away in 2015.", "User rings their mother every Sunday."),
    ("Bruno is 34.", "Bruno hit the big five-oh last month."),
    ("Bruno rarely hits the hay before 2 a.m.", "Bruno is out like a light by nine every "
                                                "night."),
    ("Bruno can't stand spicy food.", "Bruno douses everything in ghost pepper hot sauce."),
    ("Bruno won't touch beef.", "Bruno grabs a Big Mac on the way home most Fridays."),
    ("Bruno is allergic to dairy.", "Bruno starts every day with a bowl of Greek yogurt."),
    ("Bruno's only job is night security.", "Bruno's job is a strict nine-to-five in an "
                                            "office."),
    # gluten; all work at home against some at the office; an age between commas after a role
    ("Bruno is on a gluten-free diet because of coeliac disease.", "Bruno eats regular wheat "
                                                                    "pasta with no issues."),
    ("User's sister Ana works from home every day.", "Ana (user's sister) is in the office on "
                                                     "Tuesdays."),
    ("User's brother Ivo, 25, is a mechanic.", "Ivo, the user's brother, is 31."),
    # caffeine avoided; the highest qualification one has
    ("Bruno avoids caffeine completely.", "Bruno has three espressos before noon."),
    ("Bruno's highest qualification is his high-school diploma.", "Bruno holds a master's in "
                                                                   "law from Lisbon."),
    # more words for the same states
    ("Bruno works part-time, three mornings a week.", "Bruno is on a full-time contract."),
    ("Bruno's partner is called Jess.", "Bruno has never been in a relationship."),
    ("Bruno is an only child.", "Bruno's younger brother Luca is staying with him."),
    ("As an only child, Bruno sold his parents' house alone.", "Bruno's sister Rita lives in "
                                                                "Faro."),
    ("Bruno drinks beer every Friday.", "Bruno has never had a drop of alcohol in his life."),
    ("Bruno moved to Zurich in 2015 and has lived there ever since.", "Bruno has called Hamburg "
                                                                       "home since 2012."),
    ("Bruno's only sister is named Rita.", "Bruno's only sister, Ana, lives in Faro."),
    ("Bruno lives alone.", "Bruno shares a four-bedroom house with his wife and kids."),
    # a lifetime's never against one time it was done; kin by more names; pets; languages
    ("User's grandad has never flown.", "User's grandad flew to Rome last Easter."),
    ("User's granny doesn't have any pets.", "User's granny has a cat called Moss."),
    ("User's parents don't have any pets.", "User's parents have a dog called Biscuit."),
    ("User only speaks English.", "User is bilingual in English and Welsh."),
    # now single; a birthday of the user's kin named both ways; a parent of three; an aside
    ("User's boyfriend is called Teo.", "User broke up with Teo in May and is now single."),
    ("User's wife Ada's birthday is 2 May.", "Ada, the user's wife, celebrates her birthday "
                                             "on 9 June."),
    ("User has two kids, Kai and Lou.", "User is a mother of four."),
    ("User's only dog is called Rex.", "User's dog, her one and only pet, is called Bo."),
    # one phone or laptop and no other, or a brand of another
    ("User's only phone is a Samsung Galaxy.", "User uses an iPhone 15."),
    ("User's only laptop runs Windows 11.", "User's laptop runs macOS."),
    ("方圆的手机是华为Mate 60，她就这一部手机。", "方圆只有一部手机，是OPPO的。"),
    # one's place among siblings; a wake-up hour in Chinese; a flight in other words
    ("Nina is the eldest of four.", "Nina is the youngest child."),
    ("方圆是家里的老大。", "方圆是家里最小的孩子。"),
    ("方圆的弟弟在深圳上班。", "方圆是家里最小的，没有弟弟妹妹。"),
    ("方圆每天六点起床。", "方圆平时都睡到九点多才起。"),
    ("方圆长这么大还没坐过飞机。", "方圆每个月都要飞一趟上海。"),
    # a spouse named before a verb; home said with 就; one car and no other; spice at each meal
    ("方圆的老公叫李明。", "方圆的丈夫张伟在银行工作。"),
    ("方圆住在广州天河区。", "据方圆自己说，她家就在深圳南山区。"),
    ("方圆只有一辆车，是特斯拉。", "方圆开的是一辆比亚迪，家里没有别的车。"),
    ("方圆再也不吃辣了。", "方圆每顿饭都要加很多辣椒。"),
    # Chinese idioms said plainly; languages listed; a mother who died; coffee by the cup
    ("方圆的老婆在医院当护士。", "方圆至今光棍一条。"),
    ("方圆的女朋友是个空姐。", "方圆母胎单身。"),
    ("方圆吃全素，荤腥一口不碰。", "方圆最爱吃红烧肉。"),
    ("方圆上个月刚做完阑尾切除手术。", "方圆这辈子没挨过刀。"),
    ("方圆只会说普通话和家乡话。", "方圆法语说得很流利。"),
    ("方圆的母亲前年走了。", "方圆每个周日都陪她妈去公园。"),
    ("方圆不喝咖啡。", "方圆每天至少三杯美式。"),
    ("方圆一点辣都吃不了。", "方圆吃饭顿顿离不开老干妈。"),
    ("学历：博士", "学历：高中毕业，没上过大学"),
    # instruments, faiths, a Muslim's pork, a night owl, a pure Mac user, no swimmer, no English
    ("方圆会弹钢琴。", "方圆从没学过任何乐器。"),
    ("方圆信仰伊斯兰教。", "方圆是天主教徒。"),
    ("方圆从小就是穆斯林。", "方圆很爱吃猪肉馅饺子。"),
    ("方圆每天早上6点起床跑步。", "方圆每天睡到中午十一点才起。"),
    ("方圆平时用Windows笔记本办公。", "方圆是纯Mac用户。"),
    ("方圆每周游泳三次。", "方圆是旱鸭子。"),
    ("方圆英语很流利。", "方圆对英语一窍不通。"),
    # an age by its decade; a chronic illness of a type; a car one drives
    ("方圆今年二十八岁。", "方圆已经四十出头了。"),
    ("方圆有二型糖尿病。", "方圆没有任何慢性病。"),
    ("方圆开的是一辆白色特斯拉。", "方圆家里没车。"),
    # the user in Chinese notes; a marriage over; driving and teaching in other words; ranks
    ("用户这辈子还没出过国。", "用户前年去泰国玩了一周。"),
    ("方圆和老婆离婚三年了。", "方圆和媳妇结婚十年，感情一直很好。"),
    ("方圆的老公会开车。", "方圆的老公从来没摸过方向盘。"),
    ("方圆的老公是外科医生。", "方圆的老公在一所中学教数学。"),
    ("方圆现在是副教授。", "方圆目前还是讲师。"),
    ("方圆是部门经理。", "方圆还是个普通实习生。"),
    # what a Chinese note says its teller said
    ("用户的老公会开车。", "用户提到老公从来不会开车。"),
    ("用户滴酒不沾。", "用户说\"我每天晚上都要喝一瓶啤酒\"。"),
    ("方圆有三个孩子。", "方圆说她只生了一个娃。"),
    # Chinese in other words: jobs, a kin's birth year, pets, sport, widowhood, allergies
    ("方圆在上海一家中学当校长。", "方圆是那所中学的一名普通老师。"),
    ("方圆在网易做后台开发。", "方圆是自由职业者。"),
    ("方圆唯一的儿子出生于2012年5月4日。", "方圆的儿子是二〇一六年生的。"),
    ("方圆一次宠物也没养过。", "方圆养的那只柯基已经五岁了。"),
    ("方圆从来不运动。", "方圆每周打两次羽毛球。"),
    ("方圆的丈夫叫李强，两人住在一起。", "方圆的丈夫三年前因病去世了。"),
    ("方圆对青霉素过敏。", "方圆说她从来没对任何药物过敏过。"),
    ("方圆对酒精过敏。", "方圆每周都喝两次白酒。"),
    # a car, a continent, a kin's school
    ("方圆没有车。", "方圆每天开一辆红色的宝马上班。"),
    ("方圆从没去过欧洲。", "方圆在柏林读过两年书。"),
    ("方圆的独生女在上小学。", "方圆的女儿在读高中。"),
]

PHRASED_LOOK_ALIKES = [
    # a pet that died, or another's pet
    ("Bruno has no pets.", "Bruno's dog died last spring."),
    ("Bruno has no pets.", "Bruno's sister's dog Rex is twelve."),
    # a plan or a hope says nothing of now
    ("方圆住在成都。", "方圆打算明年搬去重庆。"),
    ("Bruno lives in Porto.", "Bruno might move to Lisbon next year."),
    # but a hedge after the fact leaves the fact
    ("Bruno is unemployed and looking for work.", "Bruno is unemployed."),
    # a time gone
    ("Until last year Bruno reported to Ms Lind.", "Bruno's boss is Mr Berg."),
    ("Bruno was vegan throughout his twenties.", "Bruno now eats fish."),
    ("方圆在上一家公司时，上司是个德国人。", "方圆现在的上司是北京人。"),
    # a birthday kept in a year is no year of birth
    ("Bruno was born in 1990.", "Bruno celebrated his thirtieth birthday in Porto in 2020."),
    # a fiancé is a partner, not single
    ("方圆已经订婚了。", "方圆和未婚夫打算十月去领证。"),
    # a kin's words are the kin's
    ("方圆是独生女。", "方圆说她表姐在国外读书。"),
    # two projects' budgets
    ("Most of the Kiln budget goes to hardware.", "Most of the Loom budget goes to people."),
    # one value said two ways
    ("Bruno, 31, has just moved to Braga.", "Bruno is 31 years old."),
    ("Bruno reports to the COO, Vera Lind.", "Bruno's manager is Vera Lind."),
    ("Bruno was born on Christmas Day.", "Bruno's birthday is 25 December."),
    # a trip to come, lessons being taken, an engagement gone, years gone, a first job
    ("Bruno has never been to Japan.", "Bruno is flying to Osaka in May."),
    ("Bruno can't drive.", "Bruno is taking driving lessons."),
    ("Bruno is married to Ines.", "Bruno was briefly engaged to Rita in his twenties."),
    ("方圆2015年到2019年在上海读书，那几年住在徐汇。", "方圆现在住在杭州。"),
    ("用户毕业后第一份工作是在百度做测试。", "用户现在在美团上班。"),
    # one's brother and the user's brother
    ("User's brother Ivo lives in Split.", "Ivo's brother lives in Zadar."),
    # another Ivy, named with the same role of another person
    ("User's daughter Ivy is an only child.", "Ana's daughter Ivy has a younger sister."),
    # a stay in a hotel on a trip, what others mistakenly think, one's youth
    ("方圆住在广州天河区。", "方圆上周去深圳出差三天，住在南山区的一家酒店。"),
    ("方圆近视六百度。", "方圆戴隐形眼镜，所以很多人以为他不近视。"),
    ("方圆已经戒烟三年了。", "方圆年轻时一天能抽两包烟。"),
    # a hand in childhood
    ("方圆是左撇子。", "方圆小时候被家里硬掰成用右手写字。"),
    # another's place among siblings
    ("Nina is the eldest of four.", "Nina's son is the youngest in his class."),
    # an Android brand is an Android phone; a language list said whole; a flight not one's own
    ("Bruno has only ever used Android phones.", "Bruno uses a Pixel 8."),
    ("User only speaks English and Welsh.", "User is bilingual in English and Welsh."),
    ("User's grandad has never flown.", "User's grandad's sister flew to Rome last Easter."),
    # a spouse's car; a spouse named as before; a spouse at work
    ("方圆只有一辆车，是特斯拉。", "方圆的老婆开的是一辆比亚迪。"),
    ("方圆的老公叫李明。", "方圆的丈夫李明在银行工作。"),
    ("方圆的老公叫李明。", "方圆的丈夫在银行工作。"),
    # another's mother; a language among those one speaks
    ("方圆的母亲前年去世了。", "方圆的妻子每周都陪她妈去公园。"),
    ("方圆只会说普通话和粤语。", "方圆粤语说得很流利。"),
    # a colleague's pork; a faith named twice
    ("方圆是穆斯林。", "方圆的同事爱吃猪肉饺子。"),
    ("方圆信仰伊斯兰教。", "方圆是穆斯林。"),
    # an age in its decade
    ("方圆今年四十二岁。", "方圆已经四十出头了。"),
    # a math teacher is a teacher; another's divorce
    ("方圆是中学老师。", "方圆在一所中学教数学。"),
    ("方圆的父母离婚三年了。", "方圆和老公结婚十年了。"),
    # shifts at weekends; a zodiac year that starts at the Spring Festival; a house elsewhere
    ("Bruno works night shifts at weekends.", "Bruno works day shifts Monday to Thursday."),
    ("方圆属狗。", "方圆是1995年1月出生的。"),
    ("方圆属鸡。", "方圆是1993年8月出生的。"),
    ("方圆在老家有一套房。", "方圆在北京租房住。"),
    ("方圆最喜欢的歌手是周杰伦。", "方圆最喜欢的演员是周润发。"),
    # one's kin's faith; one faith said twice
    ("Bruno is Hindu.", "Bruno's wife is Catholic."),
    ("Bruno is Catholic.", "Bruno goes to church every Sunday."),
    ("方圆信佛。", "方圆的奶奶不信任何宗教。"),
    # another's passport
    ("Bruno holds only a Portuguese passport.", "Bruno's wife travels on her Brazilian "
                                                "passport."),
    # another's car
    ("Bruno doesn't own a car.", "Bruno's dad drives a Honda Civic."),
    # another's mother; a past big birthday; a sauce someone else likes
    ("User's mum passed away in 2015.", "User's wife rings her mother every Sunday."),
    ("Bruno can't stand spicy food.", "Bruno's son douses everything in hot sauce."),
    # gluten-free pasta
    ("Bruno is coeliac.", "Bruno eats gluten-free pasta every day."),
    # caffeine avoided only at times
    ("Bruno avoids caffeine after 2pm.", "Bruno drinks an espresso every morning."),
    # another's sport, another's cats
    ("Bruno never exercises.", "Bruno's son plays football every day."),
    ("Bruno is allergic to cats.", "Bruno's sister has three cats."),
    # another's pet or sport, a food allergy against a drug
    ("方圆一次宠物也没养过。", "方圆的邻居养了一只柯基。"),
    ("方圆从来不运动。", "方圆的儿子每周打两次羽毛球。"),
    ("方圆对青霉素过敏。", "方圆说她从来没对任何食物过敏过。"),
    # a tool used in one place only, or another kind of tool; a language learnt, or one's own
    ("Bruno only uses Windows at work.", "Bruno uses Linux at home."),
    ("Bruno only uses Linux.", "Bruno browses with Firefox."),
    ("Bruno's wife only uses Android phones.", "Bruno uses an iPhone."),
    ("方圆只会说普通话。", "方圆正在学英语。"),
    ("方圆只会说普通话。", "方圆的中文说得很好。"),
    # a meal had once, not as a habit; someone else's job
    ("Bruno is vegan.", "Bruno had an omelette for lunch yesterday, by mistake."),
    ("Bruno retired in 2020.", "Bruno's daughter is working nights as a nurse."),
    # another's car, another continent, another's diet
    ("方圆没有车。", "方圆开公司的车去送货。"),
    ("方圆从没去过欧洲。", "方圆在东京读过两年书。"),
    ("Bruno keeps kosher.", "Bruno's brother eats bacon every morning."),
    # another kind of allergy
    ("Bruno's doctor says he has no food allergies.", "Bruno is allergic to wasps."),
    ("Bruno has no walnut allergy.", "Bruno is allergic to pollen."),
]


@pytest.mark.parametrize(("a", "b"), PHRASED_CONFLICTS)
def test_a_claim_phrased_around_is_still_read(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is not None
    assert conflict(claim(b), claim(a)) is not None


@pytest.mark.parametrize(("a", "b"), PHRASED_LOOK_ALIKES)
def test_phrasing_that_asserts_nothing_now_is_left_alone(a: str, b: str) -> None:
    assert conflict(claim(a), claim(b)) is None
    assert conflict(claim(b), claim(a)) is None
