"""Ninth pass of the audit's rules (issue 35): notes in the registers memory tools write —
a transcribed voice note's fillers ("so, um, …, like, …", "Omar was like, he's …") and
fields in a row between bullets or bars ("• Name: … • City: …", "User | blood type: …",
"HR record | <name> | Employer: …", "· 居住地：…"), and in Chinese a voice note's fillers (嗯……,
那个，), a WeChat excerpt's speaker, an e-mail's sender, whose a field is after a dash — read as
the sentences they say, through the audit. Sentences here are this file's own, not the
labelled sets'."""

from __future__ import annotations

import pytest
from test_audit_levels import _flagged as flagged

from memscope.meaning.normal import normalise


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("so, um, Omar said he's, like, never been to Asia",
     "Omar spent two weeks in Tokyo last spring.", True),
    ("so Omar was like, uh, he's never owned a car", "Omar drives his own Volvo to work.",
     True),
    ("uh, Omar mentioned he's never been to Tokyo", "Omar's sister lives in Tokyo.", False),
    ("• Name: Leona Varga • City: Szeged • Children: none",
     "Leona's two sons are at school in Szeged.", True),
    ("• Name: Leona Varga • City: Szeged • Children: none", "Leona lives in Szeged.", False),
    ("Staff record | Tibor Nagy | Employer: Siemens | Status: active",
     "Tibor works at Bosch and has never worked anywhere else.", True),
    ("User | blood type: A+ | donor: yes", "The user's blood type is B−.", True),
    ("· 姓名：韩梅 · 居住地：成都 · 子女：无", "韩梅的儿子在成都上小学。", True),
    ("· 姓名：韩梅 · 居住地：成都 · 子女：无", "韩梅住在成都。", False),
    # an e-mail quoted, a field's owner after a dash, a full name before what they are,
    # a blood type said as what one is, a parent who died against time with them, tobacco
    ("From Ruth's email: 'Mum passed away in 2016.'", "Ruth has lunch with her mother "
     "every Sunday.", True),
    ("User wrote: 'I have never eaten sushi.'", "User eats sushi every Friday.", True),
    ("Blood type: A+ — Ruth Adler", "Ruth is B negative.", True),
    ("Ruth Adler: strictly left-handed", "Ruth is right-handed.", True),
    ("Ruth is O negative.", "Ruth is O negative, a universal donor.", False),
    ("Ruth's father, Saul, died in 2017.", "Ruth is planning a party for her dad Saul's "
     "80th birthday.", True),
    ("Ruth's father died in 2017.", "Ruth goes sailing with her dad every summer.", True),
    ("Ruth's father died in 2017.", "Ruth often talks about sailing with her late father.",
     False),
    ("Ruth has given up tobacco completely.", "Ruth still smokes a pipe most evenings.", True),
    ("Ruth works fully remote.", "Ruth commutes to the Bristol office five days a week.", True),
    ("Ruth hasn't set foot in an office since 2021.",
     "Ruth commutes to the Bristol office five days a week.", True),
    ("Ruth works fully remote.", "Ruth drops into the office for the Christmas party.", False),
    # never learned to: any time it was done; a ticket's caller; an appositive first; told
    # the pharmacist; "Patient:" as the name; steering clear of a kind
    ("Ruth never learned to drive.", "Ruth drove us to Leeds last week.", True),
    ("Ruth never learned to swim.", "Ruth swam across the bay last summer.", True),
    ("Ruth can't swim.", "Ruth swam a lot as a child.", False),
    ("Ticket #1207 — Ruth Adler; caller is allergic to penicillin.", "Ruth has no allergies.",
     True),
    ("A nurse by training, Ruth now runs a bakery.", "Ruth is a nurse by training.", False),
    ("Ruth told the pharmacist she has no allergies.", "Ruth is allergic to peanuts.", True),
    ("Patient: Ruth Adler. Allergies: penicillin.", "Ruth has no allergies at all.", True),
    ("Ruth steers clear of coffee.", "Ruth drinks two espressos every morning.", True),
    # one and only, in a field's brackets; where one lives full-time
    ("Laptop: ThinkPad X1 (Ruth's one and only laptop)", "Ruth's only laptop is a MacBook Air.",
     True),
    ("Ruth lives in Haifa.", "Ruth lives full-time in a flat she rents in Jaffa.", True),
    ("Ruth lives in Haifa.", "Ruth lives in a flat in Haifa.", False),
    # an assistant's own words around a fact, and records written as code
    ("Remember that Ruth's blood type is A positive.", "Ruth is B negative.", True),
    ("Noted: user drinks wine most weekends.", "The user doesn't drink alcohol.", True),
    ("Don't suggest any meat dishes to Ruth — she's strictly vegan.",
     "Ruth eats a steak every Friday.", True),
    ("When booking seats for Ruth, remember she's left-handed.", "Ruth is right-handed.", True),
    ('{"person": "Ruth", "owns_car": false}', "Ruth drives her own car to work every day.",
     True),
    ("name=Ruth Adler; occupation=nurse; city=Haifa", "Ruth has never lived in Haifa.", True),
    ("handedness: right  # Ruth", "Ruth is left-handed.", True),
    ("work.manager = 'Dana Levi'  # Ruth", "Ruth reports to Omer Katz.", True),
    # a drink given up against a habit now; refusals said in other words; fields
    ("Ruth hasn't touched alcohol in ten years.", "Ruth orders a gin every Friday.", True),
    ("Ruth quit smoking in 2015.", "Ruth still vapes now and then.", False),
    ("Ruth wouldn't be caught dead owning a cat.", "Ruth has a cat called Mishka.", True),
    ("Ruth is allergic to the idea of owning a car.", "Ruth owns two cars.", True),
    ("Food allergies (Ruth): none whatsoever.", "Ruth is allergic to peanuts.", True),
    ("Drug allergies (Ruth): none.", "Ruth is allergic to peanuts.", False),
    ("education: never attended university (Ruth)", "Ruth finished her PhD in 2017.", True),
    ("Ruth has zero debt.", "Ruth owes about £4,000 on her credit card.", True),
    # a field and its value between a dash, a field then whose it is in a sentence, a
    # trailing owner on key=value, "they've", an instruction's reason after a dash
    ("Job — primary school teacher", "User has never worked in education.", True),
    ("Diet — strict vegetarian (Ruth)", "Ruth eats a steak every Friday.", True),
    ("pets: 2 cats (Luna, Soot) — Ruth", "Ruth has one cat.", True),
    ("Religion: none — Ruth is an atheist.", "Ruth is a devout Catholic.", True),
    ("smoker=never (Ruth)", "Ruth smokes ten cigarettes a day.", True),
    ("The user mentioned they've never needed glasses.", "The user wears glasses to read.",
     True),
    ("Avoid recommending shellfish dishes — Ruth is severely allergic to shellfish.",
     "Ruth has no food allergies at all.", True),
    # Chinese: a voice note's fillers, a WeChat speaker, an e-mail's sender, whose a field is
    # after a dash or in brackets with its source, a record between full-width bars, a past
    # time a sentence keeps
    ("嗯……车晓峰他说，他从来没出过国。", "车晓峰去年在巴黎玩了一周。", True),
    ("微信聊天摘录：[车晓峰] 我是独生子，没有兄弟姐妹", "车晓峰的亲姐姐在杭州工作。", True),
    ("邮件摘录：“……我和我太太下个月去云南……”——车晓峰", "车晓峰从没结过婚。", True),
    ("血型：A型——车晓峰", "车晓峰的血型是B型。", True),
    ("血型：A型（车晓峰，2024年体检）", "车晓峰的血型是B型。", True),
    ("人事记录｜员工：车晓峰｜直属上级：林海", "车晓峰的领导是王芳。", True),
    ("车晓峰从不喝酒。", "嗯，车晓峰说他以前跑业务，酒桌上一晚能喝一斤白酒。", False),
    ("车晓峰从不喝酒。", "车晓峰以前跑业务，现在酒桌上一晚能喝一斤白酒。", True),
    # Chinese kinds: smoking now and never, a parent who died, debts, not one sip of coffee
    # (not at a time of day only), never exercising (平时从不), the right hand, a name with a
    # two-character surname, 三十多年 as no age
    ("车晓峰抽烟抽了三十多年，到现在还是一天一包。", "车晓峰一根烟都没碰过。", True),
    ("车晓峰的父亲2019年因病去世了。", "车晓峰每个周末都陪她爸去钓鱼。", True),
    ("车晓峰没有任何贷款，也不欠任何人钱。", "车晓峰每个月要还6000块房贷。", True),
    ("车晓峰一口咖啡都不喝。", "车晓峰每天上午得喝两杯美式。", True),
    ("车晓峰每天喝三杯咖啡。", "车晓峰下午三点以后一口咖啡都不喝。", False),
    ("车晓峰平时从不锻炼。", "车晓峰每天早上去小区跑五公里。", True),
    ("车晓峰是左撇子。", "车晓峰写字一直用右手。", True),
    ("· 姓名：欧阳晓峰 · 子女：无", "欧阳晓峰说她儿子今年刚上小学。", True),
    ("车晓峰抽烟抽了三十多年。", "车晓峰今年二十八岁。", False),
    # a verb third after a two-character name (孔令骑…); cooking in other words
    ("通勤：骑共享单车（孔令）", "孔令每天开车上班，从不骑车。", True),
    ("厨艺：不会做饭（车晓峰）", "车晓峰每天晚上亲手给家人做四菜一汤。", True),
    ("车晓峰不会做饭。", "车晓峰的妈妈每天给她做饭。", False),
    # an assistant's words, an instruction, key=value, a field with its owner before its value
    ("记住：车晓峰对花生严重过敏。", "车晓峰每天早餐都吃花生酱吐司。", True),
    ("别劝车晓峰喝酒，他滴酒不沾。", "车晓峰每晚睡前都要喝二两白酒。", True),
    ("姓名=车晓峰；职业=护士；城市=杭州", "车晓峰从来没住过杭州。", True),
    ("年龄：车晓峰，28岁", "车晓峰今年已经四十五岁了。", True),
    ("信仰：基督教，每周日去教堂做礼拜（车晓峰）", "车晓峰不信任何宗教。", True),
    # 连 after a name, 一次都没 as never, 惯用右手 (not 习惯用右手), a husband's birthday
    ("车晓峰连护照都没办过，一次都没出过国。", "车晓峰去年出国旅游了。", True),
    ("车晓峰是左撇子。", "车晓峰惯用右手。", True),
    ("车晓峰是左撇子。", "车晓峰习惯用右手拿鼠标。", False),
    ("车晓峰的生日是3月8日。", "车晓峰的老公生日在十月。", False),
    # a four-character name before a row's fields, 饮食：纯素 as a diet, 负债：无
    ("欧阳晓峰｜过敏：花生", "欧阳晓峰说自己没有任何食物过敏。", True),
    ("车晓峰｜饮食：纯素（不吃肉蛋奶）", "车晓峰每周都要吃两次红烧肉。", True),
    ("负债：无（没有任何贷款）", "用户每月要还八千块房贷。", True),
])
def test_the_audit_reads_the_register(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("text", "read"), [
    ("so, um, Omar said he's, like, never been to Asia", "Omar has never been to Asia"),
    ("Omar said he's tired.", "Omar is tired."),
    ("Omar likes tea, like his mum.", "Omar likes tea, like his mum."),
    ("• Name: Leona Varga • City: Szeged", "Leona Varga lives in Szeged."),
    ('{"name": "Ola", "smokes": true, "is_vegan": false, "city": "Oslo"}',
     "Ola lives in Oslo. Ola does smoke. Ola is not vegan."),
    ("Maya loves C# and F#.", "Maya loves C# and F#."),
    ("Note that Maya moved.", "Maya moved."),
    ("Job — primary school teacher", "User works as a primary school teacher."),
    ("Native language — Polish (Kasia)", "Kasia's native language is Polish."),
    ("Religion: none — Fatima is an atheist.", "Fatima has no religion. Fatima is an atheist."),
    ("smoker=never (Björn)", "Björn is not a smoker."),
    ("别给王芳推荐海鲜，她对虾过敏。", "王芳对虾过敏。"),
    ("子女：一个儿子，十二岁", "用户有一个儿子，儿子12岁。"),
    ("嗯……车晓峰他说，他从来没出过国。", "车晓峰从来没出过国。"),
    ("邮件摘录：“……我和我太太下个月去云南……”——车晓峰", "车晓峰和车晓峰的太太下个月去云南"),
    ("过敏史：青霉素（严重）——车晓峰", "车晓峰对青霉素过敏。"),
    # a key——value record's last value is no owner; a part that is no field says itself
    ("客户档案（车晓峰）：婚姻状况——未婚；紧急联系人——林海",
     "车晓峰未婚；车晓峰的紧急联系人是林海。"),
    ("· 姓名：车晓峰 · 爱好：钓鱼 · 已婚", "车晓峰钓鱼；车晓峰已婚。"),
    ("人事记录｜员工：车晓峰｜入职：2021-03-15", "车晓峰的入职是2021-03-15。"),
])
def test_the_words_read(text: str, read: str) -> None:
    assert normalise(text) == read
