"""One way of writing what is written many ways, before a text is read as a claim: units
("174 centimetres" → "174 cm"), times of day ("9.15 pm" → "21:15", 下午三点 → "15:00"),
ordinals ("seventh floor" → "7th floor"), Chinese amounts, months and days (四千五百元 →
4500元, 三千块 → 3000元, 十月五号 → 10月5日, 每个月 → 每月), a sentence said back to
front ("Czech is Zofia's mother tongue" → "Zofia's mother tongue is Czech") and one that
opens on its time ("In September Ottilie moved …" → "Ottilie moved … in september").

Pure and deterministic; what it rewrites is read, never shown.
"""

from __future__ import annotations

import re

from memscope.meaning.claim_text import _N, ONE_ROLES, ZH_ROLES, _number
from memscope.meaning.clauses import ZH_LEADING_TIME, zh_name_length, zh_opens_on_name
from memscope.meaning.places import capital
from memscope.meaning.prefilter import Rewrites, guarded
from memscope.meaning.profile import as_sentences

_UNITS = (
    (r"centimet(?:re|er)s?|cms", "cm"), (r"millimet(?:re|er)s?", "mm"),
    (r"kilomet(?:re|er)s?|kms", "km"), (r"met(?:re|er)s", "m"),
    (r"kilo(?:gram(?:me)?)?s|kgs", "kg"), (r"grams?|grammes?", "g"),
    (r"minutes|mins", "min"), (r"hours|hrs", "h"),
    (r"euros?", "EUR"), (r"dollars?", "USD"), (r"pounds sterling", "GBP"),
)
_UNIT = re.compile(r"(?<=\d)(\s*)\b(?:" + "|".join(f"(?P<u{n}>{p})" for n, (p, _u) in
                                                    enumerate(_UNITS)) + r")\b", re.I)
_ORDINALS = {w: n for n, w in enumerate(
    ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
     "ninth", "tenth", "eleventh", "twelfth"))}
_ORDINAL = guarded(re.compile(
    r"\b(" + "|".join(_ORDINALS) + r")\b(?=\s+(?:floor|row|grade|year|"
                                    r"place|storey|story|level)\b)", re.I))
_SUFFIX = {1: "st", 2: "nd", 3: "rd"}
#: the days of a month as ordinals in words ("twentieth": 20, "thirty-first": 31)
_DAY_ORDINALS = {w: n for n, w in enumerate(
    ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
     "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
     "seventeenth", "eighteenth", "nineteenth", "twentieth"), start=1)} | {
    f"{tens}-{w}": base + n for tens, base in (("twenty", 20), ("thirty", 30))
    for n, w in enumerate(("first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                           "eighth", "ninth"), start=1) if base + n <= 31} | {"thirtieth": 30}
#: a time of day with its half: "9.15 pm", "6:40pm", "6 pm", "7 a.m."
_TIME_12 = re.compile(r"\b(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?\s*([ap])(?:\.m\.|\.?\s?m\b)", re.I)
_TIME_24 = re.compile(r"\b([01]?\d|2[0-3])\.([0-5]\d)\b(?=\s*(?:h\b|hours\b|$|[,;]|\s+on\b))")
_ZH_DIGIT = {c: n for n, c in enumerate("零一二三四五六七八九")} | {"两": 2, "〇": 0}
_ZH_UNIT = {"十": 10, "百": 100, "千": 1000}
_ZH_AMOUNT = re.compile(r"([零一二两三四五六七八九十百千]+)"
                        r"(?=(万|元|块(?![儿去来])|岁|公斤|斤|公里|厘米|米|个?月|日|号|点))")
#: a Chinese time of day, its half of the day before it: 下午三点 → 15:00, 早上八点半 → 08:30
_ZH_TIME = guarded(re.compile(
    r"(?P<half>上午|早上|早晨|清晨|凌晨|中午|下午|傍晚|晚上|每晚|夜里|半夜)?"
    r"(?P<h>\d{1,2})点(?:(?P<half_hour>半)|(?P<m>\d{1,2})分?)?"))
_ZH_PM = ("中午", "下午", "傍晚", "晚上", "每晚", "夜里")
#: one way of writing a Chinese month, a day of the month, money and "every month"
_ZH_WAYS = ((re.compile(r"(\d{1,2})号(?![线楼房门院车厢位窗口码])"), r"\1日"),
            (re.compile(r"(\d)\s*块钱?"), r"\1元"),
            (re.compile(r"每个月"), "每月"),
            # 四千五: four thousand five hundred (said short)
            (re.compile(r"(?<=[一二两三四五六七八九])千(?P<d>[一二三四五六七八九])(?![百十万千\d])"),
             r"千\g<d>百"),
            (re.compile(r"无辣不欢"), "爱吃辣"),
            # what is named for a drink and is none: cooking wine, a hotel (料酒, 酒店)
            (re.compile(r"料酒"), "调味料"), (re.compile(r"酒店"), "宾馆"),
            # idioms said plainly: 光棍一条 / 母胎单身 (单身), 家里一根独苗 / 独子 (独生子),
            # 荤腥一口不碰 (不吃肉), 没挨过刀 (没做过手术), 离不开X (天天吃X)
            (re.compile(r"光棍一条|母胎单身|打光棍"), "单身"),
            (re.compile(r"(?:家里的?)?独子|(?:家里)?就[她他]一根独苗|一根独苗"), "独生子"),
            (re.compile(r"荤腥一口(?:都)?不碰|不沾荤腥"), "不吃肉"),
            (re.compile(r"没挨过刀"), "没做过手术"),
            (re.compile(r"名叫|名字叫|叫做"), "叫"),
            (re.compile(r"(?:从小说的|小时候说的)?第一语言"), "母语"),
            (re.compile(r"广东话|广府话"), "粤语"),
            # 他亲哥: his brother (as 的亲哥哥 is)
            (re.compile(r"(?<=[她他])亲(?P<k>哥|姐|弟|妹)(?![哥姐弟妹])"), r"\g<k>\g<k>"),
            # 今年四十二了: an age (今年四十二岁)
            (re.compile(r"今年(?P<n>[二三四五六七八九]?十[一二三四五六七八九]?|\d{1,3})(?:岁)?了"
                        r"(?=[，。,；;！]|$)"), r"今年\g<n>岁"),
            # 明年就满四十: thirty-nine now; 刚过完五十大寿: fifty
            (re.compile(r"明年(?:就)?(?:满|到)(?P<n>[二三四五六七八九]?十[一二三四五六七八九]?|\d{1,3})"
                        r"(?:岁)?(?:了)?"), lambda m: f"今年{_one_less(m['n'])}岁"),
            (re.compile(r"(?:刚)?过(?:完|了)(?P<n>[二三四五六七八九]十|\d{2})(?:岁)?大寿"),
             r"今年\g<n>岁"),
            (re.compile(r"雷打不动(?:地|的)?"), "每天"),  # without fail: no denial
            # a liking and a loathing said plainly: 吃什么都要放一大把香菜 (爱吃香菜), 香菜是全世界
            # 最难吃的东西 (讨厌香菜); 王建国提到他亲哥哥…: 王建国的哥哥…
            (re.compile(r"(?:吃什么|什么菜|每道菜)都要(?:放|加)(?:一大把|很多|好多)?"
                        r"(?P<x>[\u4e00-\u9fff]{1,3}?)(?=[，。,；;]|$)"), r"爱吃\g<x>"),
            (re.compile(r"(?P<pre>说|^)(?P<x>[\u4e00-\u9fff]{1,3}?)是(?:全世界|世界上)最难吃的"
                        r"(?:东西|食物)"), r"\g<pre>讨厌\g<x>"),
            (re.compile(r"(?P<who>[\u4e00-\u9fff]{2,3})(?:提到|说)(?:他|她)(?:的)?亲?"
                        r"(?P<k>哥哥|姐姐|弟弟|妹妹)"), r"\g<who>有个\g<k>，"),
            # 她的亲姐姐: her sister
            (re.compile(r"的亲(?=姐姐|哥哥|弟弟|妹妹|儿子|女儿|闺女|兄弟|姐妹)"), "的"),
            # 只有一台电脑，是MacBook Air: its only computer is (唯一的电脑是…)
            (re.compile(r"(?:只有|就|仅有)一(?:台|部|辆|只|条|套)(?P<n>[\u4e00-\u9fff]{1,3})[，,]"
                        r"(?:是|用的是)(?:一[台部辆只条套])?"), r"唯一的\g<n>是"),
            (re.compile(r"(?<=唯一的)(?P<n>[\u4e00-\u9fff]{1,3})是一[台部辆只条套个]"), r"\g<n>是"),
            # 唯一的一台电脑, 唯一的那条狗: the only one; 只有一条狗，叫豆豆; 取名叫旺财
            (re.compile(r"唯一的(?:一|那)[台部辆只条套个]"), "唯一的"),
            (re.compile(r"(?P<c>(?:只有|就|仅有)一(?:台|部|辆|只|条|套)(?P<n>[\u4e00-\u9fff]{1,3}))"
                        r"[，,](?:名字)?叫"), r"\g<c>，唯一的\g<n>叫"),
            (re.compile(r"取名?(?:叫|为)"), "叫"),
            # 只有一个孩子，是个女儿: no son (as "has one child, a daughter")
            (re.compile(r"只有一个孩子[，,]\s*(?:是)?(?:个|一个)?(?P<kin>女儿|儿子)"),
             lambda m: f"只有一个{m['kin']}，没有{'儿子' if m['kin'] == '女儿' else '女儿'}"),
            (re.compile(r"(?:顿顿|天天|每天)?离不开(?=[\u4e00-\u9fff])"), "天天吃"),
            # 王静的丈夫张伟在银行工作: her husband is called 张伟, and 张伟 works there
            (re.compile(r"^(?P<who>(?:用户|[\u4e00-\u9fff]{2,3}?))的(?P<role>丈夫|老公|妻子|老婆|太太|"
                        r"先生|男朋友|女朋友|对象)(?!前年|去年|今年|上个?月|那年|早年|生前|生日|工作|单位|"
                        r"公司|老家|名字|年龄|身高|体重|手机|爱好|血型|学历|职业)"
                        r"(?P<name>(?:(?![的是在了说做去来有会开叫也都很每从已刚住当上前])"
                        r"[\u4e00-\u9fff]){2,3}?)(?=在|是|每|从|已|刚|也|"
                        r"都|很|会|住|开|做|当|去(?!世)|上)"),
             r"\g<who>的\g<role>叫\g<name>，\g<name>"),
            # 用户的母亲前年走了: died
            (re.compile(r"^(?P<who>(?:用户|[\u4e00-\u9fff]{2,3}?)的(?:母亲|父亲|妈妈|爸爸|爷爷|奶奶|"
                        r"外公|外婆))(?P<when>[^，。,；;]{0,4}?)走了"), r"\g<who>\g<when>去世了"),
            # 习亮长这么大还没坐过飞机: 习亮还没坐过飞机
            (re.compile(r"长这么大|这辈子|一辈子(?=没|从|都没|也没)"), ""),
            # 截至2026年1月，韩冬…: as of a date, the note speaks of now; 今年（2026）: this year
            (re.compile(r"^(?:截至|截止到?|到)(?:目前|现在|\d{4}年(?:\d{1,2}月)?(?:底|初|中)?)[，,]\s*"),
             ""),
            (re.compile(r"(?P<y>今年|现在)[（(]\d{4}[)）]"), r"\g<y>"),
            (re.compile(r"(?<=今年)(?P<n>[二三四五六七八九]?十[一二三四五六七八九]?|[1-9]\d)"
                        r"(?=[。，,；;]|$)"), r"\g<n>岁"),  # 今年二十七: 27 years old
            # a note's heading before what it says: 今天聊天中…, 5月12日通话记录：…, 医生备注：…,
            # 客户备注（张伟，2026年3月更新）：… (whose it is)
            (re.compile(r"^(?:今天|昨天|前天|上次|刚才|之前)?在?(?:聊天|通话|谈话|见面|电话)(?:时|中|里)"
                        r"[，,]?\s*"), ""),
            (re.compile(r"^(?:\d{1,2}月\d{1,2}日)?[\u4e00-\u9fff]{0,4}(?:备注|记录|笔记)[（(]"
                        r"(?P<who>用户|[\u4e00-\u9fff]{2,3})[^)）]*[)）][：:]\s*"), r"\g<who>"),
            (re.compile(r"^(?:\d{1,2}月\d{1,2}日|\d{1,2}/\d{1,2})?\s*[\u4e00-\u9fff]{0,4}"
                        r"(?:备注|记录|笔记)[：:]\s*"), ""),
            # 一点辣都沾不得: eats nothing spicy (无辣不欢 is above); 没驾照: cannot
            # drive; 睡午觉 / 没有午睡的习惯: naps, never naps
            (re.compile(r"一点(?:儿)?辣(?:都|也)(?:沾不得|不能吃|吃不了|不吃|碰不了)"), "不吃辣"),
            (re.compile(r"(?:没有?|没考到?|没考过|还没拿到)驾照"), "不会开车"),
            (re.compile(r"睡午觉"), "午睡"),
            # 本科学的是 / 本科读的是: the major
            (re.compile(r"的?本科(?:学|读|念)的(?:专业)?是"), "的本科专业是"),
            (re.compile(r"(?:从小)?(?:就)?没有午睡的习惯"), "从不午睡"),
            # 金敏父母都健在: her father and her mother; 她哥: her brother
            (re.compile(r"^(?P<who>用户|[\u4e00-\u9fff]{2,3}?)(?:的)?父母(?:都|也都|俩)?(?:还)?"
                        r"(?P<state>健在|在世)"),
             r"\g<who>的父亲\g<state>，\g<who>的母亲\g<state>"),
            (re.compile(r"(?<=[她他的])(?P<kin>[哥姐弟妹])(?![哥姐弟妹们夫])"), r"\g<kin>\g<kin>"),
            # 旱鸭子: 不会游泳; 对英语一窍不通: 完全不会英语
            (re.compile(r"是(?:个|一只)?旱鸭子"), "不会游泳"),
            (re.compile(r"对(?P<what>[\u4e00-\u9fff]{1,4}?)一窍不通"), r"完全不会\g<what>"),
            # 从来没摸过方向盘: 没开过车; 在中学教数学: 当数学老师
            (re.compile(r"摸过方向盘"), "开过车"),
            (re.compile(r"(?<![不没])教(?P<what>数学|语文|英语|物理|化学|生物|历史|地理|音乐|美术|体育)"
                        r"(?![^，。,；;]{0,3}老师)"), r"当\g<what>老师"),
            # 把酒戒了: 戒酒了
            (re.compile(r"把(?P<what>酒|烟|咖啡|糖|肉)(?:给)?戒(?:掉)?了"), r"戒\g<what>了"),
            # 徐晨唯一的女儿: his daughter
            (re.compile(r"唯一的(?=女儿|儿子|孩子)"), "的"),
            # 一次宠物也没养过: 从没养过宠物
            (re.compile(r"一次(?P<x>[\u4e00-\u9fff]{1,4}?)(?:也|都)没(?P<v>[\u4e00-\u9fff])过"),
             r"从没\g<v>过\g<x>"),
            # 牛晓军的独生女: his daughter (his only one)
            (re.compile(r"(?<!是)(?<!家里)(?<!家)的独生(?P<who>[子女])"),
             lambda m: "的" + ("儿子" if m["who"] == "子" else "女儿")),
            # a fixed holiday is its date (国庆节那天出生的, 生日是五一劳动节)
            (re.compile(r"国庆节?(?=那天|当天|$|[，。,；;])"), "10月1日"),
            (re.compile(r"五一劳动节|劳动节|五一节"), "5月1日"), (re.compile(r"元旦"), "1月1日"),
            (re.compile(r"圣诞节"), "12月25日"), (re.compile(r"情人节"), "2月14日"),
            (re.compile(r"儿童节|六一节"), "6月1日"),
            # 彭博的妻子去年去世了: widowed
            (re.compile(r"^(?P<who>[\u4e00-\u9fff]{2,3}?)的(?:妻子|丈夫|老婆|老公|太太|先生)"
                        r"[^，。,；;]{0,7}?(?:去世|过世|病逝|离世)了?"), r"\g<who>丧偶"),
            # 陈志强现在的公司是中兴: his company, now
            (re.compile(r"(?<=[\u4e00-\u9fff])(?:现在|目前|如今)的(?=公司|单位|老板|领导|上司)"),
             "的"),
            # hearsay before the claim: 听说董强家在…, 听她老公说，王静…, 据张敏自己说，她家… —
            # what is said is the claim, its teller is no owner
            (re.compile(r"^据(?P<name>[\u4e00-\u9fff]{2,3}?)(?:自己|本人)?(?:说|讲)[，,]\s*[她他]"),
             r"\g<name>"),
            (re.compile(r"^(?:听说|据说|据了解|(?:听|据)[\u4e00-\u9fff]{1,5}(?:说|讲))[，,]?\s*"),
             ""))
#: a note's teller, what they say of whom (:func:`_zh_said`)
_ZH_SAID = re.compile(r"^(?P<name>用户|[\u4e00-\u9fff]{2,4}?)(?:说|讲|表示|提到|坦言|称|原话)"
                      r"[，,:：]?\s*"
                      r"(?P<quote>[\"“「『])?(?P<who>我们家|我的|我|她们家|他们家|她的|他的|她|他|自己)?"
                      r"(?P<self>自己)?(?P<kin>(?:老公|老婆|媳妇|丈夫|妻子|太太|先生|爸爸|妈妈|爸|妈|父亲|"
                      r"母亲|爷爷|奶奶|外公|外婆|姥姥|姥爷|儿子|女儿|闺女|孩子|娃|哥哥|姐姐|弟弟|妹妹|"
                      r"男朋友|女朋友|对象|领导|上司|老板|同事|直属领导|直属上司))?")
_ZH_QUOTES = re.compile(r"[\"“”「」『』]")
#: 我先生, 我妈: the teller's kin (上官晴的先生)
_ZH_KIN_OF_ME = re.compile("我(?=" + "|".join(sorted((*ZH_ROLES, "爸", "妈", "哥", "姐", "弟", "妹",
                                                     "对象"), key=len, reverse=True)) + ")")


def _zh_said(text: str) -> str:
    """What a Chinese note says its teller said, written as said of them (:data:`_ZH_SAID`):
    倪娜说她最喜欢的颜色… → 倪娜最喜欢的颜色…; 用户提到老公在… → 用户的老公在…; 用户说"我已经
    三年没喝酒了" → 用户已经三年没喝酒了 (a first-person quote's 我 is the teller)."""
    m = _ZH_SAID.match(text)
    if m is None:
        return text
    name, who, rest = m["name"], m["who"] or "", text[m.end():]
    if not (who or m["quote"] or m["self"] or m["kin"]):
        return text  # 用户说23年国庆…: not said of anyone named here
    if m["quote"]:
        rest = _ZH_KIN_OF_ME.sub(f"{name}的", _ZH_QUOTES.sub("", rest).replace(
            "我们家", f"{name}家").replace("我的", f"{name}的")).replace("我", name)
    if m["kin"]:
        return f"{name}的{m['kin']}{rest}"
    return f"{name}家{rest}" if who.endswith("家") else f"{name}{rest}"


#: fixed holidays, as their dates ("born on Christmas Day")
_HOLIDAYS = ((re.compile(r"\bChristmas Day\b"), "25 December"),
             (re.compile(r"\bChristmas Eve\b"), "24 December"),
             (re.compile(r"\bNew Year['’]s Day\b"), "1 January"),
             (re.compile(r"\bNew Year['’]s Eve\b"), "31 December"),
             (re.compile(r"\bValentine['’]s Day\b"), "14 February"),
             (re.compile(r"\bHalloween\b"), "31 October"),
             (re.compile(r"\b(?:US|U\.S\.|American) Independence Day\b"
                         r"|\b(?:the )?Fourth of July\b"), "4 July"),
             (re.compile(r"\bBastille Day\b"), "14 July"),
             (re.compile(r"\bSt\.? Patrick['’]s Day\b"), "17 March"),
             (re.compile(r"\bBonfire Night\b|\bGuy Fawkes Night\b"), "5 November"))
_WHEN = (r"january|february|march|april|may|june|july|august|september|october|november|"
         r"december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|spring|summer|"
         r"autumn|fall|winter|week|month|year|weekend|morning|evening|weeknight|weekday|"
         r"workday|work night|school night|(?:19|20)\d\d")
#: a sentence that opens on its time ("In September Ottilie moved …", "Last year, Ana …")
_LEADING_TIME = re.compile(
    r"^(?P<lead>(?:(?:nearly|almost|practically)\s+)?(?:in|on|since|by|from|until|during|last|for|"
    r"this|next|early|late|every|each|most|many|some)\s+"
    r"(?:(?:the|last|this|next|early|late|mid)\s+)?(?:" + _WHEN
    + r"|day)s?(?:\s+(?:19|20)\d\d)?(?:\s+without\s+fail)?),?\s+"
    r"(?P<rest>[A-Z].*?)(?P<end>[.!]?)\s*$", re.I | re.S)
#: a sentence that opens on days of the week, then a name and what they do ("Tuesdays and
#: Thursdays before work, Jonah swims …"): the days go after, as for :data:`_LEADING_TIME`
_DAYS = r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days|[Ww]eekends|[Ww]eekdays"
_LEADING_DAYS = re.compile(
    rf"^(?P<lead>(?:{_DAYS})(?:(?:,\s*|\s+(?:and|or)\s+)(?:{_DAYS}))*"
    r"(?:\s+(?:before|after)\s+(?:work|school|breakfast|lunch|dinner))?),\s+"
    r"(?P<rest>[A-Z].*?)(?P<end>[.!]?)\s*$", re.S)
#: a sentence that opens on a place, then a name and what they do ("In Munich Amélie was …")
_LEADING_PLACE = re.compile(r"^(?P<lead>(?:In|At)\s+[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?),?\s+"
                            r"(?P<rest>[A-Z][\w'’-]+\s+(?:was|is|has|had|[a-z]+(?:s|ed))\b.*?)"
                            r"(?P<end>[.!]?)\s*$", re.S)
#: a sentence that opens on a height, a weight or an age, then what one does ("At six foot
#: five, folds up like a deckchair")
_LEADING_MEASURE = re.compile(
    r"^(?P<lead>At\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"[a-z]+ty(?:-[a-z]+)?)\b[^,;]{0,25}),\s+(?P<rest>[a-z].*?)(?P<end>[.!]?)\s*$", re.S)
#: "Czech is Zofia's mother tongue": a value, "is", a name's attribute (lower case)
_BACK_TO_FRONT = re.compile(
    r"^(?P<value>[A-Z][\w.&'’ -]{0,40}?)\s+(?:is|has always been)\s+(?:(?P<owner>[A-Z][\w-]*"
    r"(?:\s+[A-Z][\w-]*)?|the user)['’]s|(?P<our>our))\s+(?P<noun>(?:[a-z]+\s+){0,2}[a-z]+)"
    r"(?P<rest>\s*(?:[.;,!]|$).*)$", re.S)


#: the roles one person has one of at a time ("her husband", "his manager")
_ONE_ROLE = "(?:" + "|".join(sorted(ONE_ROLES, key=lambda w: (-len(w), w))) + ")"
#: one person's role and name said in other words, written one way: "Aisha says her husband,
#: Karim, works …" → "Aisha's husband Karim works …"; "Patrick's partner's name is Declan",
#: "Priya's manager is a woman called Helen Park" → "… is called …"; "Aisha's husband Karim
#: works …" also says who her husband is ("Aisha's husband is called Karim; Karim works …")
#: "the big five-oh": 50
_DECADE_OH = {"three": 30, "four": 40, "five": 50, "six": 60, "seven": 70, "eight": 80}
#: a child of the other kind ("has one child, a daughter": no son)
_OTHER_CHILD = {"son": "daughter", "daughter": "son"}
#: how a note says someone said something of themself ("Jonas admitted he …")
_SAYS = (r"(?:admitted|admits|says|said|mentioned|mentions|told (?:me|us|(?:the|her|his|their) "
         r"[a-z]+)|claims|claimed|"
         r"confirmed|confirms|explained|noted|insists|insisted)")
#: a teller's gerund as the verb it stands for ("mentioned being six foot two": is)
_GERUNDS = {"being": "is", "having": "has", "sharing": "shares", "living": "lives",
            "working": "works", "owning": "owns", "renting": "rents", "driving": "drives",
            "playing": "plays", "speaking": "speaks", "smoking": "smokes", "taking": "takes",
            "running": "runs", "cycling": "cycles", "teaching": "teaches", "keeping": "keeps"}
def _manager_named(m: re.Match[str]) -> str:
    """A colleague said to be someone's manager, as that one's manager (:data:`_ONE_PERSON_
    WAYS`)."""
    owner = "User" if m["owner"] == "the user" else m["owner"]
    return f"{owner}'s {m['role']} is {m['name']}; {m['name']}"


def _when_said(lead: str) -> str:
    """When a note's opening says something happens, as words after it ("Fridays after
    work" → "fridays after work", "Weekend treat" → "at weekends")."""
    return "at weekends" if lead == "Weekend treat" else lead.lower()


_ONE_PERSON_WAYS = (
    # a note's heading: "In today's chat the user described …"; "User: 'I …'" is said by
    # the user
    (re.compile(r"^In (?:today['’]s|yesterday['’]s|the|a|our|this week['’]s) (?:chat|call|"
                r"conversation|session|meeting),?\s+(?=[A-Za-z])"), ""),
    (re.compile(r"^(?P<owner>(?:[Tt]he )?[Uu]ser|[A-Z][\w-]*):\s+(?=['\"“‘])"),
     r"\g<owner> said: "),
    # an assistant's own words around a fact: "Remember that …", "Noted: …", "User (Wei
    # Ling) said …", "Don't suggest meat to Priya — she's vegetarian", "When suggesting desk
    # setups for Ola, remember he's left-handed"
    (re.compile(r"^(?:Remember|Noted|Note|FYI|Reminder|Keep in mind|Important)(?: that)?[:,]?\s+"
                r"(?P<c>\S)", re.I), lambda m: m["c"].upper()),
    (re.compile(r"^(?:The )?[Uu]ser \((?P<name>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?)\)"),
     r"\g<name>"),
    (re.compile(r"^(?:Don['’]t|Do not|Never|Avoid)\b[^—–;:]{0,60}?\b(?:to|for|with) "
                r"(?P<name>[A-Z][\w'’-]*)\s*(?:[—–;:]|,? as|,? because|,? since)\s*"
                r"(?:she|he|they)['’](?P<be>s|re)\s+"), r"\g<name> is "),
    (re.compile(r"^(?:Avoid|Don['’]t|Do not|Never)\b[^—–]{3,60}?\s+[—–]\s+(?=(?:[Tt]he )?"
                r"(?:[Uu]ser|[A-Z][\w'’-]*) (?:is|has|can['’]t|cannot|doesn['’]t|does not|"
                r"never)\b)"), ""),
    (re.compile(r"^When [^,]{3,60}? (?:for|to|with) (?P<name>[A-Z][\w'’-]*), (?:remember|note|keep "
                r"in mind)(?: that)? (?:she|he|they)['’](?:s|re)\s+"), r"\g<name> is "),
    # "Rosa is AB negative", "Kai is type O+": a blood type
    (re.compile(r"^(?P<who>(?:[Tt]he )?[Uu]ser|[A-Z][\w-]*) is (?:type |blood type |blood group )?"
                r"(?P<t>AB|A|B|O)[ -]?(?P<s>positive|negative|\+|−|-)(?![\w+−-])"),
     r"\g<who>'s blood type is \g<t> \g<s>"),
    # "Ticket #4471 — Hiroshi Tanaka; caller works as a nurse": Hiroshi works as a nurse; "A
    # chemist by training, Lukas holds …": Lukas holds …; "steers clear of": avoids
    (re.compile(r"^(?:Ticket|Case|Call|Log|Note)\s*#?\s*\d*\s*[—–-]\s*(?P<name>[A-Z][\w'’-]*"
                r"(?:\s+[A-Z][\w'’-]*)?)\s*;\s*(?:the\s+)?(?:caller|customer|client|patient|"
                r"user|member)\s+"), r"\g<name> "),
    (re.compile(r"^(?:An?|The) [a-z][\w -]{2,30}? by (?:training|trade|profession|background),\s+"
                r"(?=[A-Z])"), ""),
    (re.compile(r"\bsteers? clear of\b"), "avoids"),
    # "one and only residence", "sole home": the only one
    (re.compile(r"\bone and only\b|\b(?:sole|single|lone)\b(?= (?:residence|home|job|employer|"
                r"workplace|car|vehicle|pet|dog|cat|computer|laptop|phone)\b)"), "only"),
    (re.compile(r"\bis on the (?:payroll|staff) of\b(?= [A-Z])"), "works at"),
    # "The lease on Leocadia's flat ends …": her lease on the flat; "The flat Yusuf lives in is
    # rented …": Yusuf's flat is rented
    (re.compile(r"^The (?P<n>lease|contract|tenancy|mortgage|warranty|insurance) (?:on|for) "
                r"(?P<o>[A-Z][\w'’-]*)['’]s "), r"\g<o>'s \g<n> on the "),
    (re.compile(r"^The (?P<n>flat|house|apartment|home|studio) (?P<o>[A-Z][\w'’-]*) "
                r"(?:lives|is living) in (?=is|was|has)"), r"\g<o>'s \g<n> "),
    # "Getting to work takes Yuki ninety minutes": Yuki's commute takes them
    (re.compile(r"^(?:Getting|Going|Travelling|Traveling) (?:to|into) (?:work|the office) takes "
                r"(?P<name>[A-Z][\w'’-]*) "), r"\g<name>'s commute takes "),
    # "Breakfast for Ben is peanut butter on toast": Ben has it for breakfast
    (re.compile(r"^(?P<meal>Breakfast|Lunch|Dinner|Supper) for (?P<name>[A-Z][\w'’-]*) is "),
     lambda m: f"{m['name']} has for {m['meal'].lower()} "),
    # "works at the Accra branch of Ecobank": works at Ecobank in Accra
    (re.compile(r"\b(?P<v>works?|working) (?:at|for|in) the (?P<place>[A-Z][\w-]*"
                r"(?: [A-Z][\w-]*)?) "
                r"(?:branch|office|site|store|plant|campus) of (?P<org>[A-Z][\w&'’-]*"
                r"(?: [A-Z][\w&'’-]*)*)"), r"\g<v> at \g<org> in \g<place>"),
    (re.compile(r"\b(?:aero|air)planes?\b"), lambda m: "planes" if m[0].endswith("s") else "plane"),
    # "lives full-time in a house she owns in Vancouver": lives in Vancouver
    (re.compile(r"\blives (?:full-time |year-round |permanently |all year )?(?:in|on) "
                r"(?:a|an|the|her|his|their) [a-z][\w -]{1,40}? in (?P<city>[A-Z][\w-]+)"),
     r"lives in \g<city>"),
    # "From Lars's email: 'Dad passed away …'": what Lars wrote
    (re.compile(r"^From (?P<owner>(?:the )?[Uu]ser|[A-Z][\w-]*)['’]s (?:e-?mail|message|text|"
                r"letter|note|voicemail|DM|WhatsApp|chat)s?[:,]?\s+(?=['\"“‘])"),
     r"\g<owner> said: "),
    # "The user's husband …", "the user …": User, as most notes write it
    (re.compile(r"^[Tt]he user\b"), "User"),
    # a kin named first, their role after ("Elena, the user's wife, …", "Noah (user's son)
    # lives …") → "User's wife Elena …", as "User's wife Elena is a dentist" is written
    (re.compile(r"^(?P<name>[A-Z][\w-]*)(?:,\s+|\s+\()(?:the\s+)?(?P<owner>[Uu]ser|[A-Z][\w-]*)"
                r"['’]s\s+(?P<role>[a-z][\w-]*(?: [a-z][\w-]*)?)(?:,|\))\s+"),
     lambda m: f"{m['owner'][:1].upper()}{m['owner'][1:]}'s {m['role']} {m['name']} "),
    # what someone says in the first person, as a note says it: "User said: 'I haven't had
    # a drink since 2019.'" → "User haven't had a drink since 2019."
    (re.compile(r"^(?P<owner>(?:[Tt]he )?[Uu]ser|[A-Z][\w-]*) (?:said|says|mentioned|told "
                r"(?:me|us)|wrote|writes|texted)(?::|,)?\s+['\"“‘](?P<quote>.+?)[.!]?['\"”’]\.?$"),
     lambda m: _first_person(m)),
    # "Ruby says her favourite colour is purple": Ruby's favourite colour
    (re.compile(r"(?P<who>(?:[A-Z][\w-]*['’]s (?:[a-z]+ )?)?[A-Z][\w-]*) (?:says|said|"
                r"mentioned) (?:that )?(?:her|his|their) (?=(?:[a-z]+ ){0,2}(?:is|are|was)\b)"),
     r"\g<who>'s "),
    # a predicate first, whose it is after a dash ("Can't stand cilantro — Minh says …",
    # "Prefers to start the day with coffee — Mateo drinks …"): Minh's, Mateo's
    (re.compile(r"^(?P<pred>(?:Can['’]t|Cannot|Doesn['’]t|Does not|Never|Always|Loves|Hates|"
                r"Prefers|Likes|Enjoys|Adores|Dislikes|Avoids|Drinks|Eats|Speaks|Plays|Owns)\b"
                r"[^—–;]{2,80}?)\s+[—–]\s+(?P<name>[A-Z][\w'’-]*)(?=\s+[a-z])"),
     lambda m: f"{m['name']} {m['pred'][:1].lower()}{m['pred'][1:]}; {m['name']}"),
    # the thing first, whose it is after: "A peanut butter sandwich is what Yuki eats for
    # lunch" is "Yuki eats a peanut butter sandwich for lunch"; "The only phone Kaito owns is
    # a Pixel" is "Kaito's only phone is a Pixel"; "According to Olu, he is 28" is "Olu is
    # 28"; "describes himself as an atheist" is "is an atheist"; "is a mother of three" has
    # three children
    (re.compile(r"^(?P<thing>(?:An?|The)\s[^,;]{2,60}?) is what (?P<name>[A-Z][\w'’-]*) "
                r"(?P<verb>[a-z]+s)\b"),
     lambda m: f"{m['name']} {m['verb']} {m['thing'][:1].lower()}{m['thing'][1:]}"),
    (re.compile(r"^The (?:only|sole) (?P<thing>[a-z]+(?: [a-z]+)?) (?P<name>[A-Z][\w'’-]*) "
                r"(?:owns|has|drives|uses|owns and uses) is\b"),
     r"\g<name>'s only \g<thing> is"),
    (re.compile(r"^According to (?P<owner>[A-Z][\w-]*),\s+(?:he|she|they)\s+(?=[a-z])"),
     r"\g<owner> "),
    (re.compile(r"^According to (?P<owner>[A-Z][\w-]*),\s+(?:his|her|their)\s+(?=[a-z])"),
     r"\g<owner>'s "),
    (re.compile(r"\b(?:describes|considers|calls) (?:himself|herself|themselves|themself)"
                r"(?: as)?\b"), "is"),
    (re.compile(r"\bis an? (?:mother|father|mum|mom|dad|parent) of (?P<n>two|three|four|five|six|"
                r"seven|eight|\d)\b(?! \w)"), r"has \g<n> children"),
    # other words for a denial and a birthday: "is unable to swim" (can't), "has yet to go
    # fishing" (has never), "lacks a passport" (has no); "birthday falls on", "celebrates
    # his birthday each year on" (birthday is)
    # "has spent her entire life in Manchester" (has lived there all her life); "has never
    # travelled outside Europe" (never left it); "Despite his family's roots, Jamal …" (the
    # claim after the concession); "Meera is Ravi's one and only sibling" (Ravi has one)
    (re.compile(r"\bhas spent (?P<p>his|her|their) (?P<w>entire|whole) life in "
                r"(?P<place>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)(?: (?:apartments|flats|houses|"
                r"homes))?"),
     r"has lived in \g<place> \g<p> \g<w> life"),
    (re.compile(r"\b(?:has )?never (?:travell?ed|traveled|been) outside (?:of )?"),
     "has never left "),
    (re.compile(r"^(?:Despite|In spite of) [^,;.]{1,60},\s*(?=[A-Z])"), ""),
    # a denial said by what one never touched: "has never so much as picked up a pair of
    # knitting needles" (never knitted), "has never once held a tennis racket" (never played
    # tennis), "never learned how to ride a bike" (to ride one); "Rain or shine, Ravi
    # cycles …" (Ravi cycles)
    (re.compile(r"\bnever (?:so much as |once |even )?(?:held|picked up|touched) a (?P<game>tennis|"
                r"squash|badminton|table[- ]tennis) (?:racket|racquet|bat)\b"),
     r"never played \g<game>"),
    (re.compile(r"\bnever (?:so much as |once |even )?(?:held|picked up|touched) (?:a pair of )?"
                r"knitting needles\b"), "never knitted"),
    (re.compile(r"\bnever learn(?:ed|t) how to\b"), "never learned to"),
    # no social media, said other ways: "deleted all his social media accounts in 2024",
    # "has no social media accounts anywhere" (isn't on social media)
    (re.compile(r"\b(?:deleted|closed|shut down|quit) all (?:of )?(?:his|her|their) social media"
                r"(?: accounts)?(?: in (?:19|20)\d\d| years ago| last year)?(?: and has no "
                r"accounts anywhere)?|\bhas no social media(?: accounts?)?(?: anywhere| at all)?"),
     "isn't on social media"),
    # a workout is no work: "works out every Saturday" (exercises), not "worked out the cost"
    # nor "works out of the Leeds office"
    (re.compile(r"\bwork(?P<end>s|ed|ing)? out\b(?!\s+(?:of|how|what|why|where|whether|that|the|a|"
                r"an|his|her|their|its|my|our|your|this|these|those|which|who)\b)"),
     lambda m: "exercise" + {"s": "s", "ed": "d", "ing": "ing", None: ""}[m["end"]]),
    # fear said other ways: "Spiders don't bother Oskar at all", "has no fear of flying"
    # (doesn't hate spiders, flying), "has a crippling fear of heights", "is so scared of
    # planes that …" (is afraid of flying: hates it)
    (re.compile(r"\b(?P<v>afraid of|fear of|scared of|terrified of) (?:planes|aeroplanes|"
                r"airplanes)\b"), r"\g<v> flying"),
    (re.compile(r"^(?P<x>[A-Z][a-z]+) (?:don['’]t|doesn['’]t|do not|does not) bother "
                r"(?P<y>[A-Z][\w-]*)(?: (?:at all|in the slightest|one bit))?\b"),
     lambda m: f"{m['y']} doesn't hate {m['x'].lower()}"),
    (re.compile(r"\b(?:has no fear (?:at all |whatsoever )?of|(?:is not|isn['’]t) (?:at all )?"
                r"(?:afraid|scared|frightened) of)\b"), "doesn't hate"),
    (re.compile(r"\bhas an? (?:\w+ )?fear of\b"), "is afraid of"),
    (re.compile(r"\bis so (?:scared|frightened|terrified|afraid) of (?P<x>[\w-]+)(?: that)? "
                r"(?=he |she |they )"), r"is afraid of \g<x>; "),
    (re.compile(r"\bis (?:very |really )?(?:scared|frightened|terrified) of\b"),
     "is afraid of"),
    (re.compile(r"\s+whatsoever\b"), ""),
    # "refuses to watch horror films" (hates them), "always skips breakfast" (never eats it)
    (re.compile(r"\b(?:flatly |simply )?refuses to (?:watch|listen to|eat|read)\b"), "hates"),
    (re.compile(r"\b(?:always )?skips breakfast\b"), "never eats breakfast"),
    # a party's member: "has never joined any political party" (is not a member of any),
    # "is a card-carrying Labour Party member", "carries a Green Party membership card"
    (re.compile(r"\bhas never joined any (?:political )?party\b"),
     "is not a member of any political party"),
    (re.compile(r"\b(?:is|has been) an? (?:card-carrying |paid-up |lifelong )?(?P<p>[A-Z][\w-]*"
                r"(?: [A-Z][\w-]*)? Party) member\b"), r"is a member of the \g<p>"),
    (re.compile(r"\bcarries an? (?P<p>[A-Z][\w-]*(?: [A-Z][\w-]*)? Party) membership card\b"),
     r"is a member of the \g<p>"),
    # "Since 2018, home for Leilani has been Honolulu": she has lived there since
    (re.compile(r"^Since (?P<when>(?:[A-Z][a-z]+ )?(?:19|20)\d\d), home for (?P<who>[A-Z][\w-]*) "
                r"has been (?P<place>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?)"),
     r"\g<who> has lived in \g<place> since \g<when>"),
    # "A full driving licence was issued to Mohammed in 2010": Mohammed got one
    (re.compile(r"^(?:A|An|The|His|Her) (?P<thing>(?:full |new )?(?:driving|driver['’]?s) "
                r"licen[cs]e) was issued to (?P<who>[A-Z][\w-]*)\b"),
     r"\g<who> got a \g<thing>"),
    # children counted other ways: "No kids for Maria — …" (has no kids), "Not a single
    # grandchild yet, Margaret says" (has no grandchildren), "A father of three, Lars …" (has
    # three children), "All three of Mehmet's daughters …" (has three daughters)
    (re.compile(r"^No (?P<what>kids|children|grandchildren|pets) for (?P<who>[A-Z][\w-]*)\b"),
     r"\g<who> has no \g<what>"),
    (re.compile(r"^Not a single (?P<what>grandchild|child|kid|pet) yet,? (?P<who>[A-Z][\w-]*) "
                r"says\b"), lambda m: f"{m['who']} has no {m['what']}"
                                        f"{'ren' if m['what'].endswith('child') else 's'}"),
    (re.compile(r"^An? (?:mother|father|mum|mom|dad|parent) of (?P<n>two|three|four|five|six|"
                r"\d),\s+(?P<who>[A-Z][\w-]*)\b"), r"\g<who> has \g<n> children; \g<who>"),
    (re.compile(r"^All (?P<n>two|three|four|five|six) of (?P<who>[A-Z][\w-]*)['’]s "
                r"(?P<kin>daughters|sons|children|kids)\b"),
     r"\g<who> has \g<n> \g<kin>; \g<who>'s \g<kin>"),
    # "No known drug allergies, confirmed by her GP": the user has none
    (re.compile(r"^No known (?P<kind>(?:drug |food |medication )?)allergies\b"),
     r"User has no known \g<kind>allergies"),
    # one's way to work: "drives to the office" is "drives to work"
    (re.compile(r"\b(?P<v>drives|drive|driving|cycles|cycle|cycling|walks|walk|walking) "
                r"(?:in)?to the office\b"), r"\g<v> to work"),
    (re.compile(r"^(?:Rain or shine|Come rain or shine|Without fail|Most days),\s*(?=[A-Z])"), ""),
    (re.compile(r"^(?P<x>[A-Z][\w-]*) is (?P<y>[A-Z][\w-]*)['’]s (?:one and )?only "
                r"(?P<kin>sibling|child|son|daughter|brother|sister)\b"),
     r"\g<y> has one \g<kin>; \g<y>'s \g<kin> is \g<x>"),
    # an assistant's own words around a fact: "Mentioned while planning the trip that Greta
    # flew …", "Inès told the user she has never …" (the fact, said of whom it is)
    (re.compile(r"^(?:Mentioned|Noted|Said|Told me|Remarked)\b[^.;:]{0,60}?\bthat\s+(?=[A-Z])"),
     ""),
    (re.compile(r"^(?P<name>[A-Z][\w'’-]*) (?:told|tells) (?:the user|me|us|User)(?: that)? "
                r"(?:she|he|they) (?=[a-z])"), r"\g<name> "),
    (re.compile(r"\b(?P<who>[A-Z][\w'’-]*) was born and (?:raised|bred|brought up) in "
                r"(?P<p>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?)"),
     r"\g<who> was born in \g<p>; \g<who> grew up in \g<p>"),
    (re.compile(r"\bwas born and (?:raised|bred|brought up) in (?P<p>[A-Z][\w'’-]*"
                r"(?: [A-Z][\w'’-]*)?)"), r"was born in \g<p>; grew up in \g<p>"),
    # a party for a birthday, or one kept on another day this year, is no birthday ("is
    # celebrating her birthday on 11 May this year", "throwing her birthday party on 7 April")
    (re.compile(r"\b(?:is |are )?(?:celebrating|throwing|having|holding|hosting) (?:his|her|their) "
                r"birthday(?: party| dinner| drinks)?\b"), "is having a party"),
    (re.compile(r"\bbirthday (?:party|dinner|drinks|celebration|bash)\b"), "party"),
    (re.compile(r"\b(?:is|are) unable to\b"), "can't"),
    (re.compile(r"\bha(?:s|ve) yet to\b"), "has never"),
    (re.compile(r"\blacks (?:an? |any )"), "has no "),
    # "User mentioned being six foot two", "… sharing a flat with two roommates": what the
    # user is and does
    (re.compile(r"^(?P<who>User|[A-Z][\w-]*) (?:said|says|mentioned|mentions|admitted|admits) "
                r"(?P<ger>" + "|".join(_GERUNDS) + r")\b"),
     lambda m: f"{m['who']} {_GERUNDS[m['ger']]}"),
    # "User said his birthday falls in late October": the user's birthday
    (re.compile(r"^(?P<who>User|[A-Z][\w-]*) (?:said|says|mentioned|mentions)(?: that)? (?:his|her|"
                r"their) (?=[a-z])"), r"\g<who>'s "),
    (re.compile(r"(?P<who>\b[A-Z][\w-]*)['’]s birthday (?:always )?(?:falls on|coincides with|"
                r"lands on)\b"), r"\g<who>'s birthday is on"),
    (re.compile(r"(?P<who>\b[A-Z][\w-]*)['’]s birthday (?:always )?falls in (?:early |late |mid-)?"
                r"(?=[A-Z])"), r"\g<who>'s birthday is in "),
    (re.compile(r"^(?:Every|Each) year on (?P<date>\d{1,2}(?:st|nd|rd|th)? [A-Z][a-z]+|[A-Z][a-z]+ "
                r"\d{1,2}(?:st|nd|rd|th)?), (?P<who>[A-Z][\w-]*) (?:throws|has|holds|hosts) a "
                r"(?:party|dinner|do) for (?:his|her|their) birthday\b"),
     r"\g<who>'s birthday is on \g<date>"),
    (re.compile(r"^(?P<who>[A-Z][\w-]*) celebrates (?:his|her|their) birthday (?:each|every) year "
                r"on\b"), r"\g<who>'s birthday is on"),
    # "Ingrid's only child is a boy named Sindre": she has one child, and who it is ("…
    # is her son Amir" is read as one child of one kind, :data:`_OTHER_CHILD`)
    (re.compile(r"^(?P<who>[A-Z][\w-]*)['’]s only (?:(?P<kin>child|son|daughter) is\b(?! (?:her|"
                r"his|their) (?:son|daughter)\b)|(?P<kin2>sibling|brother|sister) is\b)"
                r"(?! (?:named|called)\b)"),
     lambda m: f"{m['who']} has one {m['kin'] or m['kin2']}; {m['who']}'s "
               f"{m['kin'] or m['kin2']} is"),
    # a teller naming whom the claim is about: "User mentioned Marcus's go-to lunch is …",
    # "User said Tomasz takes …" are Marcus's and Tomasz's
    (re.compile(rf"^(?:(?:[Tt]he )?[Uu]ser|[A-Z][\w-]*) {_SAYS}(?: that)? (?=[A-Z][\w'’-]*"
                r"(?:['’]s [a-z]|\s+(?:is|has|takes|eats|drinks|works|lives|owns|drives)\b))"),
     ""),
    # hearsay around the claim: "According to Hannah, her brother …" is Hannah's brother;
    # "Her go-to lunch, Amara says, is …" is Amara's
    (re.compile(r"^According to (?P<owner>[A-Z][\w-]*),\s+(?:her|his|their)\s+"),
     r"\g<owner>'s "),
    (re.compile(r"^(?:Her|His|Their) (?P<thing>[\w -]{2,30}?),\s+(?P<owner>[A-Z][\w-]*) "
                r"(?:says|said|insists|claims),\s+"), r"\g<owner>'s \g<thing> "),
    # hearsay before the claim: what is said is the claim, its teller no owner ("According
    # to his flatmate, Aziz …", "Tom's doctor says he has …", "Nadia's allergist confirmed
    # last month that she …")
    (re.compile(r"^According to (?:his|her|their|a|the) [\w -]{2,30}?,\s+(?=[A-Z])"), ""),
    (re.compile(r"^(?P<owner>[A-Z][\w-]*)['’]s (?:doctor|allergist|GP|dentist|therapist|mother|"
                r"father|mum|mom|dad|sister|brother|friend|flatmate|roommate|partner|wife|"
                r"husband|boss|manager|colleague|coach)(?: [\w-]+){0,2}? (?:says|said|confirmed|"
                r"thinks|reports|reported|told (?:me|us))(?: [\w-]+){0,3}? (?:that )?"
                r"(?:he|she|they) "), r"\g<owner> "),
    # "and isn't planning any" adds nothing to "has no children"
    (re.compile(r",? and (?:isn['’]t|is not|aren['’]t|are not) (?:planning|hoping|trying) (?:on |"
                r"for |to have )?(?:any|one)\b"), ""),
    # "wouldn't dream of owning a car": would never own one; "and not a single sister": and
    # no sisters; "owes nothing" / "still has €18,000 left to repay on her loan": a debt
    (re.compile(r"\bwouldn['’]t dream of (?P<verb>[a-z]+?)ing\b"), r"would never \g<verb>"),
    (re.compile(r"\b(?:wouldn['’]t be caught dead|is allergic to the idea of) "
                r"(?P<verb>[a-z]+?)ing\b"),
     r"would never \g<verb>"),
    (re.compile(r"\band not a single (?P<x>[a-z]+?)s?\b(?=[.,;]|$)"), r"and no \g<x>s"),
    (re.compile(r"\bstill has (?:about |around |roughly |some )?(?P<n>[£$€]?\d[\d,.]*k?) "
                r"left to (?:repay|pay off|pay back)\b"), r"still owes \g<n>"),
    # what someone says of themself: "Jonas admitted he has never read …", "Tariq mentioned
    # that he …" → "Jonas has never read …"
    (re.compile(rf"^(?P<owner>[A-Z][\w-]*) {_SAYS}(?: that)? (?:he|she|they) (?=[a-z])"),
     r"\g<owner> "),
    (re.compile(rf"^(?P<owner>[A-Z][\w-]*) {_SAYS}(?: that)? (?:he|she|they)(?:['’](?:s|re) "
                r"(?=(?:never|already|just|ever|been|got|had)\b)|['’]ve )"), r"\g<owner> has "),
    (re.compile(rf"^(?P<owner>[A-Z][\w-]*) {_SAYS}(?: that)? (?:he|she|they)['’](?:s|re) "),
     r"\g<owner> is "),
    # a name's age or state between commas: "Mohammed, 28, has just …", "Emma, divorced
    # since 2019, lives …" → "Mohammed is 28 years old; Mohammed has just …"
    (re.compile(r"^(?P<name>(?:[A-Z][\w-]*['’]s (?:[a-z-]+ )?)?[A-Z][\w-]*), (?P<age>\d{1,2}), "
                r"(?=[a-z])"), r"\g<name> is \g<age> years old; \g<name> "),
    (re.compile(r"^(?P<name>[A-Z][\w-]*), (?P<state>(?:divorced|married|single|widowed|retired|"
                r"unemployed)\b[^,;]{0,30}), (?=[a-z])"), r"\g<name> is \g<state>; \g<name> "),
    # a possessed thing named between commas: "User's dog, Biscuit, needs walking"
    (re.compile(r"(?P<head>\b[A-Z][\w-]*['’]s [a-z]+), (?P<name>[A-Z][\w-]*), (?=[a-z])"),
     r"\g<head> \g<name> "),
    # an aside after a possessed thing: "User's cat, her one and only pet, is called Tofu"
    (re.compile(r"(?P<head>\b[A-Z][\w-]*['’]s [a-z]+), (?:her|his|their) [^,;]{2,40}, "
                r"(?=(?:is|was|has|lives)\b)"), r"\g<head> "),
    # idioms of age and sleep: "hit the big five-oh" (turned 50), "hits the hay" (goes to
    # bed), "out like a light by nine" (asleep by nine), "up with the larks at five"
    (re.compile(r"\b(?:hit|turned|reached) the big (?P<n>three|four|five|six|seven|eight)-oh\b",
                re.I), lambda m: f"turned {_DECADE_OH[m['n'].lower()]}"),
    (re.compile(r"\bhits? the (?:hay|sack)\b"), "goes to bed"),
    (re.compile(r"\bis out like a light\b"), "is asleep"),
    (re.compile(r"\bup with the (?:larks|lark|birds)\b"), "up"),
    # "favourite football club": favourite team; "has only sons": no daughters; "Only three
    # people are on the Harbour team": the Harbour team has three members
    (re.compile(r"\bfavou?rite (?:football |footy |soccer )?club\b"), "favourite team"),
    (re.compile(r"\bhas only (?P<kin>sons|daughters)\b"),
     lambda m: "has no " + ("daughters" if m["kin"] == "sons" else "sons")),
    # "Both of Chloe's cats, Mimi and Pip, are black": she has two cats
    (re.compile(r"^Both (?:of )?(?P<who>[A-Z][\w-]*)['’]s "
                r"(?P<what>(?!(?:grand)?parents\b)[a-z]+s)\b"),
     r"\g<who> has two \g<what>. \g<who>'s \g<what>"),
    # "has one child, a daughter" and "Ines's only child is her son": no child of the other
    # kind; "has two sisters and no brothers": the verb again ("… and has no brothers")
    (re.compile(r"\b(?P<aux>has|have) (?:one|a single|only one|just one) (?:child|kid),? "
                r"(?:a|her|his|their) (?P<kin>son|daughter)\b"),
     lambda m: f"{m['aux']} no {_OTHER_CHILD[m['kin']]}s and {m['aux']} a {m['kin']}"),
    (re.compile(r"^(?P<who>[A-Z][\w-]*)['’]s only (?:child|kid) is (?:her|his|their) "
                r"(?P<kin>son|daughter)\b"),
     lambda m: f"{m['who']} has no {_OTHER_CHILD[m['kin']]}s and has a {m['kin']}"),
    (re.compile(r"\b(?P<aux>has|have|had) (?P<what>(?!no\b|never\b)[\w -]{2,40}?),? "
                r"(?P<conj>and|but) (?P<no>no|zero) (?!other\b)(?=[a-z])"),
     r"\g<aux> \g<what> \g<conj> \g<aux> \g<no> "),
    (re.compile(r"^Only (?P<n>\w+) people are on the (?P<team>[A-Z][\w-]* team)\b"),
     r"The \g<team> has \g<n> members"),
    # "with no issues": a manner, no denial
    (re.compile(r",?\s+(?:with|without) (?:no |any )?(?:issues|problems|trouble|complaints|side "
                r"effects|reaction|fuss)\b"), ""),
    # "As an only child, Bruno …": Bruno is an only child
    (re.compile(r"^As an only child, (?P<name>[A-Z][\w-]*) "),
     r"\g<name> is an only child; \g<name> "),
    # "a monolingual English speaker": speaks only English; "has called Hamburg home": lives
    # there
    (re.compile(r"\b(?:is |has )?(?:an? )?monolingual (?P<lang>[A-Z]\w+) speaker\b"),
     r"speaks only \g<lang>"),
    (re.compile(r"\b(?:has )?call(?:s|ed) (?P<place>[A-Z][\w-]*(?: [A-Z][\w-]*)?) home\b"),
     r"has lived in \g<place>"),
    # "Malik's only sister, Tanya, lives …": his only sister is Tanya
    (re.compile(r"^(?P<head>(?:[A-Z][\w-]* )?[A-Z][\w-]*['’]s only (?:sister|brother|son|"
                r"daughter|child|aunt|uncle|cousin)),? (?P<name>[A-Z][\w-]*),? (?=[a-z])"),
     r"\g<head> is called \g<name>; \g<name> "),
    # "has no shellfish allergy": is not allergic to shellfish
    (re.compile(r"\bhas no (?!known\b|food\b|drug\b|medication\b|medicine\b|other\b)"
                r"(?P<what>[a-z]+) allerg(?:y|ies)\b"), r"is not allergic to \g<what>"),
    # "Japanese is the only language Kaito speaks": Kaito speaks only Japanese
    (re.compile(r"^(?P<lang>[A-Z]\w+) is the only language (?P<owner>[A-Z][\w-]*) "
                r"(?:speaks|knows)\b"), r"\g<owner> speaks only \g<lang>"),
    # "has not once smoked", "has yet to get a licence", "has never so much as picked up":
    # never; "is terrified of flying": hates it
    (re.compile(r"\b(?P<aux>has|have|had) (?:not once|not ever|yet to)\b(?! (?:been|be)\b)"),
     r"\g<aux> never"),
    (re.compile(r"\b(?:did|does|do) not once (?P<verb>[a-z]+)\b"), r"never \g<verb>"),
    (re.compile(r"\bnever so much as\b"), "never"),
    (re.compile(r"\b(?:is|was|are) (?:terrified|scared|afraid|frightened) of\b"), "hates"),
    # "born in '88": in 1988; "Kai turns 35 on 2 July 2026": his birthday is 2 July
    (re.compile(r"\b(?P<pre>born in|born|in|since|from) ['’](?P<yy>\d\d)\b"),
     lambda m: f"{m['pre']} {'19' if int(m['yy']) > 30 else '20'}{m['yy']}"),
    (re.compile(r"^(?P<who>[A-Z][\w-]*(?: [A-Z][\w-]*)?) turns (?P<n>\d{1,3}) on (?P<date>\d{1,2}"
                r"(?:st|nd|rd|th)? (?:of )?[A-Z][a-z]+|[A-Z][a-z]+ \d{1,2}(?:st|nd|rd|th)?)"
                r"(?:,? (?:19|20)\d\d)?"),
     lambda m: f"{m['who']} turns {m['n']}; {m['who']}'s birthday is {_day_first(m['date'])}"),
    # "has no tattoos or piercings": none of either; "never read a single book": a book;
    # "reread": read; "has never done any volunteer work": never volunteered
    (re.compile(r"\b(?P<neg>has no|doesn['’]t have any|does not have any) (?P<x>[a-z]+s) or "
                r"(?P<y>[a-z]+s)\b"), r"\g<neg> \g<x> and \g<neg> \g<y>"),
    (re.compile(r"\b(?P<neg>never|not|n['’]t)(?P<mid>(?: [a-z]+){0,2}) (?:a|one) single\b"),
     r"\g<neg>\g<mid> a"),
    (re.compile(r"\bre-?read\b"), "read"),
    (re.compile(r"\b(?:done|did|does|do) (?:any )?(?:volunteer|voluntary)(?:ing)? work\b"),
     "volunteered"),
    # "Lukas is monolingual — German is the only language he speaks": speaks only German
    (re.compile(r"^(?P<owner>[A-Z][\w-]*)\b(?P<mid>[^—–;]*?)\s*[—–;]\s*(?P<lang>[A-Z]\w+) is the "
                r"only language (?:he|she|they) (?:speaks|knows)\b"),
     r"\g<owner>\g<mid>; \g<owner> speaks only \g<lang>"),
    # "follows a strictly halal diet": eats halal; "is on a vegan diet": is vegan
    (re.compile(r"\b(?:follows|keeps|sticks to|is on) an? (?:strict(?:ly)? |fully |mostly )?"
                r"(?P<diet>halal|kosher)(?: diet)?\b"), r"eats \g<diet>"),
    (re.compile(r"\b(?:follows|keeps|sticks to|is on) an? (?:strict(?:ly)? |fully )?"
                r"(?P<diet>vegan|vegetarian|pescatarian) diet\b"),
     r"is \g<diet>"),
    # "lost her mother to cancer two years ago": her mother died; "both of Niamh's parents
    # are alive": her mother and her father
    (re.compile(r"^(?P<who>[A-Z][\w-]*) lost (?:her|his|their) (?P<kin>mother|father|mum|mom|"
                r"dad|husband|wife|partner|brother|sister|son|daughter)(?: to [a-z ]{3,30}?)?"
                r"(?=(?: (?:in|last|this|\w+ (?:years?|months?) ago)\b|[.,;]|$))"),
     r"\g<who>'s \g<kin> died"),
    (re.compile(r"^(?:Both of (?P<a>[A-Z][\w-]*)['’]s parents are|(?P<b>[A-Z][\w-]*)['’]s "
                r"parents are both) (?:still )?alive\b"),
     lambda m: (f"{m['a'] or m['b']}'s mother is alive; {m['a'] or m['b']}'s father is "
                "alive")),
    # "wears a size 38 shoe": shoe size 38
    (re.compile(r"^(?P<who>[A-Z][\w-]*) wears (?:a )?(?:size |(?:EU|UK|US) )+(?P<n>\d{1,2}(?:\.5)?)"
                r" (?:shoes?|trainers)\b"), r"\g<who>'s shoe size is \g<n>"),
    # "big sister", "little brother": an older sister, a younger brother
    (re.compile(r"\bbig (?=(?:sister|brother)s?\b)"), "older "),
    (re.compile(r"\b(?:little|baby|kid) (?=(?:sister|brother)s?\b)"), "younger "),
    # "hates coffee and won't touch it": won't touch coffee
    (re.compile(r"\b(?P<x>[a-z]+) and (?P<neg>won['’]t|will not|wouldn['’]t|never) "
                r"(?P<verb>touch|touches|eat|eats|drink|drinks) (?:it|them)\b"),
     r"\g<x> and \g<neg> \g<verb> \g<x>"),
    # "TV": a television; "answers to nobody but the CEO": reports to the CEO
    (re.compile(r"\bTVs?\b"), "television"),
    (re.compile(r"\banswers (?:directly )?to (?:no ?one|nobody) (?:but|except|other than) "),
     "reports to "),
    (re.compile(r"\banswers (?:directly )?to (?=[A-Z]|the\b|her\b|his\b)"), "reports to "),
    # "reports directly to the CFO, Martin Keller": to Martin Keller; "one and only": only
    (re.compile(r"\b(?P<verb>reports?(?: \w+ly)? to) (?:the|her|his|their) [\w -]{2,30}?, "
                r"(?=[A-Z])"), r"\g<verb> "),
    (re.compile(r"\bone and only\b"), "only"),
    # what someone says of their own one thing, value first: "When asked, Mia said purple
    # has always been her favourite colour", "Purple is her favourite colour, Mia says"
    (re.compile(r"^When asked,\s+"), ""),
    (re.compile(r"^(?P<owner>[A-Z][\w-]*) (?:says|said|insists|claims|told us) (?:that )?"
                r"(?P<value>[\w -]{2,30}?) (?:is|has always been) (?:her|his|their) "
                r"(?P<noun>(?:favourite|favorite) [a-z]+(?: [a-z]+){0,3})(?P<end>[.!]?)$"),
     lambda m: _turned(m)),
    (re.compile(r"^(?P<value>[\w -]{2,30}?) (?:is|has always been) (?:her|his|their) "
                r"(?P<noun>(?:favourite|favorite) [a-z]+(?: [a-z]+){0,3}),\s+(?P<owner>[A-Z][\w-]*)"
                r" (?:says|said|insists|claims)(?P<end>[.!]?)$"),
     lambda m: _turned(m)),
    # "her favourite time of year": her favourite season
    (re.compile(r"\b(?P<fav>favou?rite) time of (?:the )?year\b"), r"\g<fav> season"),
    # "couldn't speak Portuguese if her life depended on it": cannot
    (re.compile(r"\bcould(?:n['’]t| not) (?P<rest>[^,;.]{2,40}?) if (?:her|his|their) life "
                r"depended on it\b"), r"can't \g<rest>"),
    (re.compile(rf"^(?P<owner>[A-Z][\w-]*) (?:says|said|mentioned|told us) (?:that )?"
                rf"(?:her|his|their) (?:\w+ )?(?P<role>{_ONE_ROLE}),?\s+"
                r"(?P<name>[A-Z][\w-]*),?\s+"),
     r"\g<owner>'s \g<role> \g<name> "),
    (re.compile(rf"\b(?P<head>[A-Z][\w-]*['’]s (?:\w+ )?{_ONE_ROLE})['’]s (?:first )?name is "
                r"(?=[A-Z])"), r"\g<head> is called "),
    (re.compile(rf"\b(?P<head>[A-Z][\w-]*['’]s (?:\w+ )?{_ONE_ROLE}) is (?:a|an) (?:\w+ )?"
                r"(?:woman|man|person|guy|lady|gentleman) (?:called|named) (?=[A-Z])"),
     r"\g<head> is called "),
    (re.compile(rf"^(?P<head>[A-Z][\w-]*['’]s (?P<role>{_ONE_ROLE})),? (?P<name>[A-Z][\w-]*),? "
                r"(?P<verb>[a-z]+s|is|was|has)\b"),
     r"\g<head> is called \g<name>; \g<name> \g<verb>"),
    # no children, no wedding, in other words: "is childless (by choice)" (has no children),
    # "has never walked down the aisle" (has never married)
    (re.compile(r"\b(?:is|has been|remains|stays) (?:happily |contentedly )?childless"
                r"(?: by choice)?\b"), "has no children"),
    (re.compile(r"\bhas never (?:once )?walked down the aisle\b"), "has never married"),
    # an age in other words: "half a century old" (50 years old), said as a whole note of
    # the user's when it opens one
    (re.compile(r"^(?:Half a century|Fifty years) old\b"), "User is 50 years old"),
    (re.compile(r"\bhalf a century old\b"), "50 years old"),
    # one spelling for an attribute ("favorite color": favourite colour); a form's line of
    # the user's ("User's favourite colour: purple") as a sentence
    (re.compile(r"\bfavorite\b"), "favourite"),
    (re.compile(r"\bcolor\b"), "colour"),
    (re.compile(r"^(?P<head>User['’]s (?:[a-z]+ ){0,2}[a-z]+):\s+(?=[\w£$€])"), r"\g<head> is "),
    # a childhood spent somewhere: grew up there
    (re.compile(r"\bspent (?:his|her|their) (?:entire |whole )?childhood in\b"), "grew up in"),
    # a kin named bare after what one does with them ("User picks up son Noah"): one's own
    (re.compile(r"(?<![\w'’])(?P<prev>up|off|with|for|to|from|by|visits|calls|phones|rings|"
                r"texts|sees|meets|takes|drives|collects|helps|joins|walks) (?P<adj>(?:twin|"
                r"older|younger|elder|eldest|youngest|little|big|baby|teenage) )?(?P<kin>son|"
                r"daughter|wife|husband|partner|brother|sister|mum|mom|dad|mother|father|"
                r"grandson|granddaughter)(?P<end> (?=[A-Z][a-z])|(?=['’]s\b))"),
     r"\g<prev> their \g<adj>\g<kin>\g<end>"),
    # one word for one's parents after a possessive ("User's mum": User's mother), so two
    # notes about her are about one person
    (re.compile(r"(?<=['’]s )(?:mum|mom) and dad\b"), "mother and father"),
    (re.compile(r"(?<=['’]s )dad and (?:mum|mom)\b"), "father and mother"),
    (re.compile(r"(?<=['’]s )(?:mum|mom|mummy|mommy)\b"), "mother"),
    (re.compile(r"(?<=['’]s )(?:dad|daddy)\b"), "father"),
    # a parent's name said either way ("User's mother is named Isabel": her name is Isabel)
    (re.compile(r"(?P<head>['’]s (?:mother|father)) is (?:named|called) (?=[A-Z])"),
     r"\g<head>'s name is "),
    # "behind the wheel of his own pickup": driving it
    (re.compile(r"\bbehind the wheel of\b"), "driving"),
    # a job title as a whole note ("Head chef at an Italian restaurant in Leith"): the user's
    (re.compile(r"^(?=(?:Head|Senior|Junior|Lead|Chief|Sous|Staff|Principal|Assistant|Deputy) "
                r"[a-z]+(?: [a-z]+)? (?:at|for|in) )"), "User is a "),
    # a denial of any party, of a first time: "never joined any political party" (any
    # party), "has yet to go fishing for the first time" (never went)
    (re.compile(r"\bany political (part(?:y|ies))\b"), r"any \1"),
    (re.compile(r"(?<=\bnever )(?P<what>[^,;.]{2,40}?) for the (?:very )?first time\b"),
     r"\g<what>"),
    # a thing or a liking said back to front: "Horror films are something Tobias flatly
    # refuses to watch", "jazz is hands down his favourite genre"; "Georgian is the first
    # language Dmitri ever learned to speak" (his mother tongue)
    (re.compile(r"^(?P<x>[A-Z][\w -]{2,40}?) (?:are|is) something (?P<n>[A-Z][\w'’-]*) "
                r"(?:flatly |simply |just )?(?P<v>refuses to watch|refuses to eat|hates|loves|"
                r"can['’]t stand|avoids)\b"),
     lambda m: f"{m['n']} {m['v']} {m['x'][:1].lower()}{m['x'][1:]}"),
    (re.compile(r"\bis (?:hands down|by far|easily|without (?:a )?doubt) (?=(?:his|her|their) "
                r"favou?rite\b)"), "is "),
    (re.compile(r"^(?P<l>[A-Z][a-z]+) is the first language (?P<n>[A-Z][\w'’-]*) (?:ever )?"
                r"(?:learned|learnt)(?: to speak)?\b"), r"\g<n>'s mother tongue is \g<l>"),
    # "The car loan Amara took out in 2021 …": Amara's car loan
    (re.compile(r"^The (?P<t>(?:[a-z]+ )?(?:loan|mortgage)) (?P<n>[A-Z][\w'’-]*) took out\b"),
     r"\g<n>'s \g<t> taken out"),
    # "Kenji's line manager, some guy called Dave Pollard, signs off …": his manager is Dave
    (re.compile(r"(?P<h>['’]s (?:line )?manager), (?:some|a) (?:guy|man|woman|bloke|person|lady) "
                r"(?:called|named) (?P<n>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?),"),
     r"\g<h> is \g<n>; he"),
    # "Rolo is the only dog Finn has ever owned": Finn's only dog is Rolo
    (re.compile(r"^(?P<p>[A-Z][\w'’-]*) is the only (?P<k>dog|cat|pet) (?P<o>[A-Z][\w'’-]*) has "
                r"(?:ever )?(?:owned|had)\b"), r"\g<o>'s only \g<k> is \g<p>"),
    # "The flat in Haarlem, which Femke has owned outright …": Femke's flat
    (re.compile(r"^The (?P<t>flat|house|apartment|home|studio) in (?P<p>[A-Z][\w'’-]*), which "
                r"(?P<n>[A-Z][\w'’-]*) "), r"\g<n>'s \g<t> in \g<p>, which \g<n> "),
    # an amount of a loan as what a note is about ("About £20k of the undergrad student loan
    # is still outstanding"): the user's loan of that amount
    (re.compile(r"^(?:(?P<about>About|Around|Roughly|Nearly|Over|Some) )?(?P<amount>[£$€]\s?"
                r"[\d,.]+\s?k?) of (?:the|my|his|her|their) (?P<loan>(?:[\w-]+ ){0,3}?(?:loan|"
                r"mortgage|debt|overdraft))\b"),
     lambda m: " ".join(w for w in ("User's", m["loan"], "of", (m["about"] or "").lower(),
                                    m["amount"]) if w)),
    # "No car is registered to Aditi": she has none
    (re.compile(r"^No (?P<t>car|vehicle) is registered to (?P<n>[A-Z][\w'’-]*)"),
     r"\g<n> has no \g<t> registered"),
    # a neighbour named by where they live ("Mrs Okafor next door": the user's neighbour)
    (re.compile(r"^(?P<n>[A-Z][\w'’-]+) next door\b"), r"User's neighbour \g<n>"),
    # kin as a figure of speech ("still calls her 'basically my sister'", "thinks of him as a
    # brother"): someone close, no kin
    (re.compile(r"\b(?:calls?|considers?|thinks? of) (?:her|him|them|(?:her|his|their) "
                r"(?:[\w-]+ ){0,2}[A-Z][\w-]*)(?: as)? ['‘\"“]?"
                r"(?:basically |practically |like |almost )?(?:my|a|their|his|her) (?:sister|"
                r"brother|sibling|mum|mom|dad|mother|father|daughter|son)['’\"”]?"),
     "is close to them"),
    # "Only child." as a whole note: the user is one
    (re.compile(r"^User['’]s only child(?=\s*\.?\s*$|\s*[;:—–])"), "User is an only child"),
    # a note that is one word of what someone is, and how ("A lefty: writes … with the left
    # hand"): the user's
    (re.compile(r"^An? (?=(?:lefty|southpaw|left-hander|right-hander)\b)"), "User is a "),
    # a colleague named as someone's manager, more said after it ("User's coworker Dmitri is
    # the user's line manager and signs off …"): "User's line manager is Dmitri; Dmitri signs
    # off …"
    (re.compile(r"^(?:[A-Z][\w-]*['’]s\s+)?(?:[Cc]o-?worker|[Cc]olleague|[Tt]eam-?mate)\s+"
                r"(?P<name>[A-Z][\w-]*(?: [A-Z][\w-]*)?) is (?P<owner>the user|[A-Z][\w-]*)['’]s "
                r"(?P<role>(?:line |direct )?(?:manager|boss))\s+and\b"), _manager_named),
    # a note that opens on what the user has none of ("No pets — the lease forbids them", "No
    # food allergies or intolerances at all"), or on an allergy ("Peanut allergy: carries an
    # EpiPen"): the user's
    (re.compile(r"^No (?!longer\b|more\b|one\b|matter\b|way\b|idea\b|need\b|plans?\b|"
                r"doubt\b|problem\b|thanks\b|smoking\b|entry\b|parking\b)(?=[a-z])"),
     "User has no "),
    (re.compile(r"^(?P<what>[A-Z][a-z]+(?:[ -][a-z]+)?) (?P<kind>allergy|intolerance)\b"),
     lambda m: f"User has a {m['what'].lower()} {m['kind']}"),
    # a note that opens on what the user has, said with how ("Perfect eyesight — has never
    # needed glasses", "Bad hay fever every spring"): the user's
    (re.compile(r"^(?P<how>Perfect|Bad|Good|Poor|Excellent|Terrible|Severe|Mild|Chronic|Awful)"
                r" (?=(?:[a-z-]+ ){0,2}?(?:eyesight|sight|vision|hearing|memory|hay fever|"
                r"asthma|eczema|back|knees?|migraines?|insomnia|allerg(?:y|ies)|teeth|"
                r"health|credit)\b)"), lambda m: f"User has {m['how'].lower()} "),
    # a note that opens on days of the week, then what the user has then ("Fridays after work:
    # a pint of IPA at The Crown"): "User has a pint of IPA at The Crown fridays after work"
    (re.compile(rf"^(?P<lead>(?:{_DAYS})(?:\s+(?:mornings?|evenings?|nights?|(?:before|after)\s+"
                r"(?:work|school|breakfast|lunch|dinner)))?|Weekend treat):\s+"
                r"(?P<rest>(?:an?|two|three|\d+)\s[^.!]*?)(?P<end>[.!]?)\s*$", re.S),
     lambda m: f"User has {m['rest']} {_when_said(m['lead'])}{m['end']}"),
    # a note that opens on owing nothing ("Debt-free since paying off the mortgage"), or on
    # the date it held ("As of January 2026, owes nothing to anyone"): the user's
    (re.compile(r"^(?P<w>Debt-free|Mortgage-free)\b"), lambda m: f"User is {m['w'].lower()}"),
    (re.compile(r"^(?P<lead>As (?:of|at) [\w ]{3,25}?\d{4}),\s+(?P<rest>[a-z][^.!]*?)"
                r"(?P<end>[.!]?)\s*$", re.S),
     lambda m: f"User {m['rest']}, {m['lead'].lower()}{m['end']}"),
    # both at once ("lives and works in Buenos Aires"): each said
    (re.compile(r"\b(?P<a>lives?|lived|works?|worked) and (?P<b>lives?|lived|works?|worked) "
                r"in (?P<p>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?)"),
     r"\g<a> in \g<p> and \g<b> in \g<p>"),
    # a note that opens on a condition ("Coeliac disease — has to avoid gluten"): the user's
    (re.compile(r"^(?P<c>Coeliac disease|Celiac disease|Type [12] diabetes|Diabetes|Asthma|"
                r"Epilepsy|Hypertension|High blood pressure|Crohn['’]s disease|Migraines|"
                r"Arthritis|Psoriasis|Eczema|ADHD)\b"),
     lambda m: f"User has {m['c'] if m['c'][:4].isupper() else m['c'][0].lower() + m['c'][1:]}"),
    # an amount in words ("sixty-five thousand pounds"): in digits
    (re.compile(rf"\b{_N}\s+thousand\b(?=\s+(?:pounds|dollars|euros|quid|a year|per year|"
                r"annually)\b)", re.I),
     lambda m: f"{int(_number(m.group(1))) * 1000}" if _number(m.group(1)).isdigit()
     else m.group(0)),
    # a day of a month as an ordinal in words ("the twentieth of September"): "20 September"
    (re.compile(r"\b(?:the\s+)?(?P<d>" + "|".join(_DAY_ORDINALS) + r")\s+of\s+(?P<m>January|"
                r"February|March|April|May|June|July|August|September|October|November|"
                r"December)\b", re.I),
     lambda m: f"{_DAY_ORDINALS[m['d'].lower()]} {m['m'].capitalize()}"),
    # a launch said with a verb ("Project Falcon is launching on 20 September"): its date
    (re.compile(r"\b(?P<x>[A-Z][\w-]*(?: [A-Z][\w-]*)?) (?:is launching|launches|will launch|"
                r"is due to launch|is set to launch|is scheduled to launch|goes live|will go live|"
                r"is going live) on\b"), r"\g<x>'s launch date is on"),
    # a twin's birth is one's own ("Siobhan's twin sister Aoife was born in 1990": so was
    # Siobhan)
    (re.compile(r"^(?P<o>[A-Z][\w-]*)(?: [A-Z][\w-]*)?['’]s twin (?:sister|brother) "
                r"(?P<t>[A-Z][\w-]*) was born (?P<when>(?:on|in) [^.;]*)"),
     r"\g<t> was born \g<when>; \g<o> was born \g<when>"),
    # "is a native Korean speaker": a native speaker of Korean
    (re.compile(r"\bis an? native (?P<l>[A-Z]\w+) speaker\b"), r"is a native speaker of \g<l>"),
    # "speaks only one language, English": speaks only English
    (re.compile(r"\bspeaks only one language(?:,|:|\s+—|\s+-)?\s+(?=[A-Z])"), "speaks only "),
    # a note that opens on when the user sleeps or what kind of sleeper they are ("In bed by
    # 10 every night", "Night owl: rarely asleep before 2am"): the user's
    (re.compile(r"^(?P<w>In bed|Up|Asleep|Awake)(?= (?:by|at|before|around)\b)"),
     lambda m: f"User is {m['w'].lower()}"),
    (re.compile(r"^(?:An? )?(?P<w>[Nn]ight owl|[Ee]arly bird|[Ee]arly riser|[Ee]arly sleeper|"
                r"[Mm]orning person|[Ll]ight sleeper|[Hh]eavy sleeper|[Ll]ate riser)\b"),
     lambda m: f"User is {'an' if m['w'][0] in 'EeAaIiOoUu' else 'a'} {m['w'].lower()}"),
    # a note that opens on how many of a kin or a pet ("Two daughters — Maya, 9, and Ellie"):
    # the user's
    (re.compile(r"^(?P<n>One|Two|Three|Four|Five|Six) (?=(?:sons?|daughters?|kids?|children|"
                r"boys|girls|grandchildren|grandkids|brothers?|sisters?|siblings|cats?|dogs?)"
                r"\b)"), lambda m: f"User has {m['n'].lower()} "),
)
#: every English rewrite, in the order they apply (each skipped on a note that lacks its
#: needle: prefilter.Rewrites)
_EN_WAYS = Rewrites((*_ONE_PERSON_WAYS, *_HOLIDAYS))


#: attributes whose values are common words, written in lower case when they open a
#: sentence ("Teal is his favourite colour" → "… colour is teal"; but "Porto is her
#: favourite city" keeps its name)
_COMMON_VALUES = frozenset(("colour", "color", "season", "food", "dish", "drink", "fruit",
                            "sport", "animal", "flower", "meal", "snack", "dessert",
                            "vegetable", "instrument", "game"))


_FIRST_PERSON = ((re.compile(r"\bI['’]m\b"), "{o} is"), (re.compile(r"\bI['’]ve\b"), "{o} has"),
                 (re.compile(r"\bI (?:have|own)\b"), "{o} has"),
                 (re.compile(r"\bI['’]d\b"), "{o} would"), (re.compile(r"\bI['’]ll\b"), "{o} will"),
                 (re.compile(r"\bI\b"), "{o}"), (re.compile(r"\b[Mm]y\b"), "{o}'s"),
                 (re.compile(r"\bam\b"), "is"))
#: a kin named as one's own in a quote ("Dad passed away in 2015": the speaker's dad)
_OWN_KIN = re.compile(r"(?:^|(?<=[.;,] ))(?:Dad|Mum|Mom|Mother|Father|Grandma|Grandpa)\b")


def _first_person(m: re.Match[str]) -> str:
    """A quote in the first person as a note about its speaker ("I'm Jewish" → "User is
    Jewish", "my boss Linda" → "User's boss Linda")."""
    owner = m.group("owner")
    owner = owner[:1].upper() + owner[1:] if owner.lower() in ("user", "the user") else owner
    return said_by(owner, m.group("quote")) + "."


def said_by(owner: str, quote: str) -> str:
    """``quote``, in the first person, as said of ``owner`` ("I'm Jewish" → "User is Jewish",
    "my boss Linda" → "User's boss Linda", "Dad passed away" → "User's dad passed away")."""
    for pattern, written in _FIRST_PERSON:
        quote = pattern.sub(written.format(o=owner), quote)
    return _OWN_KIN.sub(lambda k: f"{owner}'s {k.group(0).lower()}", quote)


def _value_of(m: re.Match[str]) -> str:
    """The value of a sentence said back to front, in lower case when it is a common word
    (:data:`_COMMON_VALUES`)."""
    value = m.group("value")
    if m.group("noun").split()[-1].lower() in _COMMON_VALUES and " " not in value.strip():
        return value.lower()
    return value


def _day_first(date: str) -> str:
    """A day and a month written day first ("July 2" → "2 July").

    >>> _day_first("July 2"), _day_first("2nd of July")
    ('2 July', '2nd of July')
    """
    month, _sep, day = date.partition(" ")
    return f"{day} {month}" if month[:1].isalpha() else date


def _turned(m: re.Match[str]) -> str:
    """"<value> is his favourite <noun>, <owner> says" (and the like) written as
    "<owner>'s favourite <noun> is <value>"."""
    return f"{m.group('owner')}'s {m.group('noun')} is {_value_of(m)}{m.group('end')}"


def zh_number(raw: str) -> int | None:
    """A Chinese number below ten thousand: 四千五百 → 4500, 十二 → 12, 两 → 2."""
    total, digit = 0, None
    for ch in raw:
        if ch in _ZH_DIGIT:
            digit = _ZH_DIGIT[ch]
        elif ch in _ZH_UNIT:
            total += (1 if digit is None else digit) * _ZH_UNIT[ch]
            digit = None
        else:
            return None
    return total + (digit or 0)


def _time(m: re.Match[str]) -> str:
    hour, minute = int(m.group(1)) % 12, int(m.group(2) or 0)
    if m.group(3).lower() == "p":
        hour += 12
    return f"{hour:02d}:{minute:02d}"


def _zh_time(m: re.Match[str]) -> str:
    hour = int(m.group("h"))
    minute = 30 if m.group("half_hour") else int(m.group("m") or 0)
    half = m.group("half") or ""
    if half in _ZH_PM and hour < 12:
        hour += 12
    if hour > 24 or minute > 59:
        return m.group(0)
    return f"{half if half == '每晚' else ''}{hour % 24:02d}:{minute:02d}"


def _unit(m: re.Match[str]) -> str:
    found = next(k for k, v in m.groupdict().items() if v is not None)
    return " " + _UNITS[int(found[1:])][1]


def _ordinal(m: re.Match[str]) -> str:
    n = _ORDINALS[m.group(1).lower()]
    return f"{n}{_SUFFIX.get(n, 'th')}"


def _zh_amount(m: re.Match[str]) -> str:
    if m.group(2) == "点" and m.group(1) == "一":
        return m.group(1)  # 一点也不, 差一点: "at all", "almost", not one o'clock
    value = zh_number(m.group(1))
    return m.group(1) if value is None else str(value)


#: what a transcribed voice note says between its words ("so, um, Tomasz said he's, like,
#: never …", "uh, Kwame mentioned …", "Mehmet was like, he's never …")
_FILLERS = (
    (re.compile(r"(?:^|(?<=[,.;]\s))(?:so|well|okay|ok|and|oh),?\s+(?=(?:um|uh|er|erm)\b|"
                r"[A-Z])", re.I), ""),
    (re.compile(r"(?:,\s*)?\b(?:um+|uh+|er+|erm+|hmm+)\b,?\s*", re.I), " "),
    (re.compile(r",\s*(?:like|you know|I mean|what),\s*"), " "),
    (re.compile(r"\b(?:like|you know|I mean),\s+"), ""),
    (re.compile(r"\b(?P<who>[A-Z][\w-]*) was like,?\s+(?=(?:he|she|they)\b)"), r"\g<who> said "),
)


#: a log line's date first ("2024-03-09: Pavel smoked a cigarette …"): the date after
_DATE_FIRST = re.compile(r"^(?P<date>(?:19|20)\d\d-\d\d(?:-\d\d)?):?\s+(?P<rest>[A-Z].*?)"
                         r"(?P<end>[.!]?)$", re.S)
#: "All four of my grandparents have passed away": the user's grandparents have all
_OF_MINE = re.compile(r"^(?:All|Both)(?: \w+)? of my (?P<kin>\w+) (?P<aux>have|has|are|were) ")
#: "I think Hannah's a night owl": what the teller holds of Hannah, said of Hannah
_I_THINK = re.compile(r"^I (?:think|believe|reckon|gather)(?: that)?,? (?=[A-Z][a-z])(?!I\b)")


#: a quote with its speaker after it ('"My birthday is the 3rd of November," Zoe told me.',
#: 'Told me: "I never set foot in a gym." (Paula)'): read as "Zoe said: …" is
_EN_QUOTE_THEN_NAME = (
    re.compile(r"^[\"“](?P<q>[^\"”]+?)[,.]?[\"”],?\s+(?P<name>[A-Z][\w'’-]*)\s+(?:said|says|"
               r"told me|mentioned|wrote|explained)\.?\s*$"),
    re.compile(r"^(?:Told me|Says|Said|Mentioned)[:,]?\s*[\"“](?P<q>[^\"”]+?)[\"”]\.?\s*"
               r"\((?P<name>[A-Z][\w'’-]*)\)\.?\s*$"),
)


def _en_quote(text: str) -> str:
    """A quote whose speaker comes after it, with the speaker first (unchanged when it is
    not one): the first person in it is then read as said of them (:func:`_first_person`).

    >>> _en_quote('"My birthday is the 3rd of November," Zoe told me.')
    'Zoe said: "My birthday is the 3rd of November."'
    """
    for pattern in _EN_QUOTE_THEN_NAME:
        m = pattern.match(text.strip())
        if m is not None:
            return f'{m["name"]} said: "{m["q"].strip().rstrip(".,")}."'
    return text


def _spoken(text: str) -> str:
    """A transcribed voice note without its fillers (unchanged when it has none).

    >>> _spoken("so, um, Tomasz said he's, like, never been on a plane")
    "Tomasz said he's never been on a plane"
    >>> _spoken("so Mehmet was like, uh, he's never played football")
    "Mehmet said he's never played football"
    """
    if not _SPOKEN.search(text):
        return text
    for pattern, written in _FILLERS:
        text = pattern.sub(written, text)
    return re.sub(r"\s{2,}", " ", text).strip()


#: what a Chinese note says around its words: a voice note's fillers (嗯……, 那个，, 呃),
#: a WeChat excerpt's speaker ([郗明远] 我…), an e-mail's sender after its quote
#: (“……我和我先生……”——上官晴), a teller named twice (宁涛他说，他是…)
_ZH_FILLERS = re.compile(r"(?:^|(?<=[，,。…]))(?:嗯|呃|唔)+[，,。…]*|那个[，,…]+|……")
_ZH_CHAT = re.compile(r"^(?:微信|聊天|群聊|短信)[\u4e00-\u9fff]{0,4}[：:]\s*[\[【](?P<name>用户|"
                      r"[\u4e00-\u9fff]{2,4})[\]】]\s*(?P<rest>.+)$", re.S)
_ZH_MAIL = re.compile(r"^(?:邮件|来信|信件)[\u4e00-\u9fff]{0,4}[：:]\s*[\"“「](?P<rest>.+?)[\"”」]"
                      r"\s*(?:——|—|－)\s*(?:发件人[：:]\s*)?(?P<name>用户|[\u4e00-\u9fff]{2,4})"
                      r"\s*[。.]?$", re.S)
_ZH_TWICE = re.compile(r"^(?P<name>用户|[\u4e00-\u9fff]{2,3}?)[他她](?=说|讲|提到|表示)")
#: an assistant's own words around a fact (备忘：…, 记住：…), an instruction that says what it
#: rests on (别劝贺子健喝酒，他滴酒不沾 → 贺子健滴酒不沾), key=value fields (职业=护士)
_ZH_NOTED = re.compile(r"^(?:备忘|记住|注意|提醒|请记住|要记得|记一下)[：:，,]\s*")
_ZH_DONT = re.compile(r"^(?:别|不要|千万别|千万不要|不能)(?:劝|给|让|跟|向|约|帮)")
_ZH_KEY_EQ = re.compile(r"(?<=[\u4e00-\u9fff])\s*=\s*")


#: a time alone at a note's head (今年春节，张伟… / 去年跨年夜，叶子…): it goes after the name
_ZH_TIME_HEAD = re.compile(r"^(?P<time>(?:今年|去年|前年|明年|上个?月|这个?月|上周|这周|每年|"
                           r"那年)的?(?:春节|国庆|中秋|元旦|跨年夜|除夕|暑假|寒假|夏天|冬天|春天|秋天|年底|年初|"
                           r"五一|十一|圣诞节?)?|(?:春节|国庆|暑假|寒假|过年)(?:期间|的时候)?|"
                           r"每(?:周|星期)[一二三四五六日天]*(?:早上|晚上|下午|上午)?|"
                           r"每天(?:早上|晚上|下午|上午)|每晚|每个?周末)[，,]\s*"
                           r"(?=[\u4e00-\u9fff])")


#: a note that opens on how the user knows someone, then their name (同事陈浩…, 大学室友邓涛…,
#: 表哥高远…): the name is whose the note is
_ZH_KNOWN_AS = re.compile(r"^(?:大学|高中|初中|小学|公司|以前的|最好的|好|老)?"
                          r"(?:室友|同事|好友|朋友|闺蜜|邻居|老同学|同学|表哥|表姐|表弟|表妹|堂哥|堂姐|堂弟|堂妹|发小|"
                          r"师兄|师姐|学长|学姐|上司|领导|老板|姐夫|妹夫|嫂子|弟媳|姑父|姨父|舅舅|"
                          r"舅妈|叔叔|婶婶|姑姑|小姨|大姨)(?=[\u4e00-\u9fff]{2})"
                          r"(?![们的都也说和跟])")
#: a note that opens on one of the user's kin, no one named before (外婆2019年就去世了,
#: 岳父血压一直正常): the user's
_ZH_USERS_KIN = re.compile(r"^(?=(?:外婆|外公|爷爷|奶奶|姥姥|姥爷|岳父|岳母|公公|婆婆|爸爸|妈妈|"
                           r"老爸|老妈|父亲|母亲|老公|老婆|丈夫|妻子|儿子|女儿|哥哥|姐姐|弟弟|"
                           r"妹妹|父母|爸妈|双亲|姐夫|妹夫|嫂子|弟媳|舅舅|舅妈|婶婶|姑姑|姑父|姨父|"
                           r"小姨|大姨)(?!的))")
#: a note in the first person, saved from a chat (我每天自己开车上班, 我的直属上司是陈静,
#: 我闺女今年五岁): the user's
_ZH_I = re.compile(r"^我(?:(?=的)|(?P<kin>(?=爸|妈|哥|姐|弟|妹|老公|老婆|丈夫|妻子|闺女|儿子|女儿|"
                   r"孩子|爷爷|奶奶|外公|外婆))|(?![们]))")
#: a note with no subject, its predicate first (对花生过敏, 是素食者, 养了一条狗, 在杭州工作,
#: after a time: 上个月刚飞了一趟三亚, 2021年和男友周航分手了 — not 在北京时，…, a time or
#: place before someone named)
_ZH_NO_SUBJECT = re.compile(r"^(?:是(?!否)|对(?![面象手方])|有(?![些人时的])|没有|没|不|从不|"
                            r"从来|从没|养了|养着|养过|住在|喜欢|讨厌|爱吃|不爱|会(?![议计员长所场])|"
                            r"和(?=男友|女友|前任|老公|老婆|丈夫|妻子|朋友|家人|同事)|跟(?=[^，,。]{1,8}[去学住])|"
                            r"常(?=[和去在跟跑喝吃看回带陪住])|搬(?:到|去|回|家)|调(?:到|去|回)|"
                            r"(?:考|学|做|戒|买|换|辞|得|飞|去|回)(?:了|过)|开始|体检|称体重|家里(?!人)|"
                            r"不会|已经|刚|偏好|习惯|患有|毕业于|就职于|任职于|供职于|"
                            r"视力|身高|体重|血型|生日|工作地点|家(?:就)?在|租房|单身|滴酒不沾|最喜欢|"
                            r"最讨厌|最大的爱好|最拿手|最爱|唯一的|虔诚的|写字|除了|"
                            r"在(?![^，,。]{0,10}(?:时|的时候|期间|那年|那会儿?)[，,])|"
                            r"(?:每天|每周|每年|经常|一直|平时|曾经|目前|现在|正在|打算|计划|高中|"
                            r"大学|本科)(?![^，,。]{0,10}[，,]))(?!的)")
def _one_less(n: str) -> str:
    """A Chinese or written age, one year less ("四十" → "39")."""
    value = int(n) if n.isdigit() else (zh_number(n) or 0)
    return str(int(value) - 1)


#: one kin, two words (用户的爸爸 / 用户的父亲)
_ZH_KIN_WORDS = ((re.compile(r"(?<=[的她他])(?:爸爸|老爸)"), "父亲"),
                 (re.compile(r"(?<=[的她他])(?:妈妈|老妈)"), "母亲"),
                 (re.compile(r"(?<=[的她他])闺女"), "女儿"),
                 (re.compile(r"(?<=[的她他])老婆"), "妻子"),
                 (re.compile(r"(?<=[的她他])老公"), "丈夫"))


#: what a note may open on that is not the user (someone else, a pronoun, a place or time
#: clause before a name: 在北京时，王芳…), nor a plain word (a Latin name, a number, a quote)
_ZH_OTHERS = re.compile(r"[^\u4e00-\u9fff]|他|她|它|你|咱|我们|大家|有人|别人|人家|对方|"
                        r"[^，,。]{1,8}(?:时|的时候|期间)[，,]")


#: the user as what a later clause is about (上周在青岛，用户在…): the note names its subject
_ZH_USER_LATER = re.compile(r"(?:^|[，,。；;：:])\s*用户")


def _zh_whose(text: str) -> str:
    """A Chinese note with whose it is first, as the other notes write it: 同事陈浩上个月离职 →
    陈浩上个月离职, 外婆2019年就去世了 → 用户的外婆2019年就去世了.

    >>> _zh_whose("大学室友邓涛现在在腾讯上班。"), _zh_whose("岳父血压一直正常。")
    ('邓涛现在在腾讯上班。', '用户的岳父血压一直正常。')
    >>> _zh_whose("我闺女今年刚满五岁。"), _zh_whose("我每天自己开车上班。")
    ('用户的闺女今年刚满五岁。', '用户每天自己开车上班。')
    >>> _zh_whose("对花生过敏。"), _zh_whose("在北京时，王芳常去后海。")
    ('用户对花生过敏。', '在北京时，王芳常去后海。')
    >>> _zh_whose("上个月刚飞了一趟三亚。"), _zh_whose("上周杨光游了两千米。")
    ('用户上个月刚飞了一趟三亚。', '上周杨光游了两千米。')
    """
    text = _ZH_I.sub(lambda m: "用户" if m["kin"] is None else "用户的", text, count=1)
    known = _ZH_KNOWN_AS.match(text)  # 同事陈浩…: 陈浩's (not 嫂子在市医院…: the user's kin's)
    if known is not None and zh_opens_on_name(text[known.end():]):
        text = text[known.end():]
    text = _ZH_USERS_KIN.sub("用户的", text, count=1)
    lead = ZH_LEADING_TIME.match(text)  # 上个月刚飞了一趟三亚: after a time
    body = text[lead.end():] if lead else text
    if _ZH_USER_LATER.search(text) is not None:
        return text  # 上周在青岛，用户在…: the note names its subject
    if _ZH_NO_SUBJECT.match(text) or (lead and _ZH_NO_SUBJECT.match(body)):
        return "用户" + text  # 对花生过敏, 是素食者, 在杭州工作: the user's
    if not body.startswith("在") and (
            _ZH_OTHERS.match(body) is None and not zh_opens_on_name(body)):
        return "用户" + text  # 烟已经戒了五年, 近视八百度, 公司是全远程的: no one named
    return text


def _zh_kin_words(text: str) -> str:
    """One word for one kin (用户的爸爸, 她妈妈 → 用户的父亲, 她母亲)."""
    for pattern, written in _ZH_KIN_WORDS:
        text = pattern.sub(written, text)
    return text


#: a time just before 用户, no comma between (晚饭时用户总要喝上二两白酒, 下周二用户要请假…)
_ZH_TIME_BEFORE_USER = re.compile(
    r"^(?P<time>(?:[早午晚]饭(?:时|后|前)|饭后|下班后|周末|平时|最近|每(?:天|晚|周|年|逢)"
    r"(?:早上|晚上|[一二三四五六日天])?|(?:上|下|这)(?:个)?(?:周|星期|礼拜)[一二三四五六日天]?|"
    r"(?:昨|今|明)天(?:早上|晚上)?|(?:去|今|明|前)年(?:夏天|冬天|春天|秋天|国庆|春节)?))"
    r"(?=用户)")


def _zh_time_head(text: str) -> str:
    """A note that opens on a time alone, with the time after its name (unchanged when it
    does not).

    >>> _zh_time_head("今年春节，张伟带着全家去了海南。")
    '张伟今年春节带着全家去了海南。'
    """
    m = _ZH_TIME_HEAD.match(text) or _ZH_TIME_BEFORE_USER.match(text)
    if m is None or len(m["time"]) < 2:
        return text
    rest = text[m.end():]
    n = 2 if rest.startswith("用户") else zh_name_length(rest)
    return f"{rest[:n]}{m['time']}{rest[n:]}"


def _zh_instruction(text: str) -> str:
    """An instruction to the assistant as the fact it rests on (unchanged when it is not
    one): 别给王芳推荐海鲜，她对虾过敏 → 王芳对虾过敏.

    >>> _zh_instruction("别劝贺子健喝酒，他滴酒不沾。")
    '贺子健滴酒不沾。'
    """
    m = _ZH_DONT.match(text)
    if m is None:
        return text
    rest = text[m.end():]
    name = rest[:zh_name_length(rest)] if not rest.startswith("用户") else "用户"
    comma = re.search(r"[，,]\s*(?:因为)?[她他]", rest)
    return f"{name}{rest[comma.end():]}" if comma else text


def _zh_spoken(text: str) -> str:
    """A Chinese note as what it says, said of whom (unchanged when it has none of these).

    >>> _zh_spoken("嗯……宁涛他说，他是个旱鸭子。")
    '宁涛说，他是个旱鸭子。'
    >>> _zh_spoken("微信聊天摘录：[郗明远] 我写字一直用右手")
    '郗明远说：“我写字一直用右手”'
    >>> _zh_spoken("邮件摘录：“……我和我先生下个月去云南……”——上官晴")
    '上官晴说：“我和我先生下个月去云南”'
    """
    text = _ZH_NOTED.sub("", _ZH_FILLERS.sub("", text).lstrip("，,。 "))
    text = _zh_time_head(_zh_instruction(_ZH_KEY_EQ.sub("：", text)))
    if (m := _ZH_CHAT.match(text)) is not None:
        return f"{m['name']}说：“{m['rest'].strip()}”"
    if (m := _ZH_MAIL.match(text)) is not None:
        return f"{m['name']}说：“{m['rest'].strip()}”"
    return _ZH_TWICE.sub(r"\g<name>", text)


_SPOKEN = re.compile(r"\b(?:um+|uh+|er+|erm+|hmm+|like|you know|I mean|what),|\b(?:um+|uh+|erm+)"
                     r"\b|\bwas like\b", re.I)


#: a note with no subject, a verb first ("Cycles to the office every day", "Took up golf in
#: 2020", "Has never been married"), or a state ("Married to Aisha since 2019", "Left-handed"):
#: the user's, as a profile's own notes and a memory tool's facts are
_NO_SUBJECT = re.compile(
    r"(?:(?P<verb>Lives|Lived|Works|Worked|Prefers|Takes|Took|Drinks|Drank|Eats|Ate|Cycles|Walks|"
    r"Runs|Ran|Drives|Drove|Hates|Loves|Likes|Dislikes|Plays|Played|Speaks|Spoke|Owns|Owned|"
    r"Rents|Keeps|Goes|Went|Uses|Used|Wears|Sleeps|Wakes|Commutes|Avoids|Never|Always|Usually|"
    r"Often|Rarely|Still|Currently|Recently|Now|Doesn['’]t|Didn['’]t|Can['’]t|Cannot|Has|Had|Is|"
    r"Was|Smokes|Smoked|Swims|Studies|Studied|Teaches|Reads|Watches|Listens|Cooks|Bakes|Gave|"
    r"Gets|Got|Completed|Finished|Dropped|Quit|Paid|Spent|Moved|Visited|Travell?ed|Graduated|"
    r"Holds|Held|Picks|Starts|Started|Refuses|Learned|Learnt|Joined|Left|Grew|Attends|"
    r"Attended|Volunteers|Owes|Pays|Saves|Sold|Bought|Hits|Renewed|Celebrated|Flies|Flew|Orders|"
    r"Ordered|Fills|Makes|Earns|Spends|Wants|Needs|Enjoys|Tries|Plans|Visits|Calls|Meets|Sees|"
    r"Shares|Rides|Prays|Fasts|Believes|Follows|Supports|Collects|Writes|Wrote|"
    r"Understands|Divorced(?= [A-Z])|Broke|Did|Made|Began|Became|Brought|Built|Caught|Chose|"
    r"Fell|Felt|Found|Heard|Hurt|Kept|Knew|Lost|Met|Put|Rode|Sat|Saw|Sent|Slept|Stole|Swam|"
    r"Taught|Threw|Told|Tore|Woke|Wore|Won|Won['’]t|Shouldn['’]t|Hasn['’]t|Hadn['’]t|"
    r"Isn['’]t|Wasn['’]t|Hardly|Barely|Seldom|Occasionally|Sometimes|Regularly|Already)"
    r"|(?P<state>Married|Single|Divorced|Widowed|Engaged|Retired|Unemployed|Pregnant|"
    r"Vegetarian|Vegan|Pescatarian|Teetotal|Allergic|Left-handed|Right-handed|Lactose[- ]intolerant"
    r"|Self-employed|Colou?r-blind|Diabetic|Non-smoker|Atheist|Agnostic|Christian|Catholic|"
    r"Muslim|Jewish|Buddhist|Hindu|Asthmatic|Deaf|Blind|Terrified|Afraid|Fluent|Bilingual|"
    r"Monolingual|Learning|Studying|Training|Saving|Planning|Dating|Expecting|Renting|Looking|"
    r"Celebrating|Employed|Freelance|"
    r"Trying|Considering|Living|Working|Devout|Practising|Practicing|Strict|Childless|Estranged|"
    r"Separated|Sober|Unmarried|Ambidextrous|Short-sighted|Long-sighted|Nearsighted|Farsighted|"
    r"(?:Gluten|Dairy|Sugar|Alcohol|Caffeine|Meat|Nut)-free|Lifelong|Committed|Staunch|"
    r"(?:Strongly|Fully|Firmly|Completely|Totally|Strictly|Fiercely|Staunchly|Deeply|Proudly|"
    r"Happily|Mostly|Largely|Severely|Mildly) [a-z][a-z-]+(?<!s)|Proud(?= of\b))|(?P<born>Born))"
    r"(?=[ .,;:]|$)(?! (?:it|there|this|that|he|she|they|you|we)\b)")
#: a note that opens on a thing of someone's, no one named ("Birthday is March 3",
#: "Favorite color is green", "Sister Leila lives in Oslo", "Father passed away in 2018",
#: "Pet Miso is a tabby cat", "Only car is a Tesla Model Y"): the user's
_USERS_THING = guarded(re.compile(
    r"(?:Birthday|Favou?rite|Only(?! (?:\d|one|two|three|four|five|six|seven|eight|nine|ten)\b)"
    r"(?! (?:[a-z]+ed|took|got|went|had|ever|just|once|recently|really)\b)|"
    r"Main|Daily|Annual|Monthly|Current|Go-to|Usual|Weekly|"
    r"Hometown|Blood|Native|Primary|Preferred|Maiden|Nickname|Partner|Wife|Husband|Boyfriend|"
    r"Girlfriend|Fianc[ée]e?|Mom|Mum|Mother|Dad|Father|Sister|Brother|Son|Daughter|Grandma|"
    r"Grandmother|Grandpa|Grandfather|Aunt|Uncle|Cousin|Pet|Dog|Cat|Car|Phone|Laptop|Commute|"
    r"Salary|Rent|Budget|Diet|Job|Employer|Manager|Boss|Office|Address|Age|Height|Weight|"
    r"(?:Whole|Entire) career|Passport|Eyes|Hair|"
    r"Religion|Severe|Mild|Dietary|Friend|Best friend|Coworker|Co-worker|Colleague|Neighbou?r|"
    r"Roommate|Flatmate|Housemate|Classmate|Teammate|Landlord|Landlady|Nephew|Niece|Grandson|"
    r"Granddaughter|(?:Brother|Sister|Mother|Father|Son|Daughter)-in-law|Step(?:son|daughter|"
    r"mother|father|brother|sister)|Godson|Goddaughter|Twin)(?=['’ ])"
    r"(?!['’ ]s? (?:it|there|this|that)\b)"))
#: a note whose subject is a time of the user's week, a meal or a count of drinks of theirs
#: ("Sunday evenings mean an hour-long catch-up with mum", "Breakfast every morning is a
#: wheat bagel", "Friday evenings usually end with a couple of pints", "Two double espressos
#: before 8am are non-negotiable"): the user's
_USERS_ROUTINE = re.compile(
    r"(?:(?:One|Two|Three|Four|Five|A couple of) (?:double |large |strong |small )?(?:espressos|"
    r"coffees|lattes|cappuccinos|americanos|flat whites|pints|beers|glasses of [a-z]+|cups of "
    r"[a-z]+)(?: a day)?(?: (?:before|after|at|with) [\w:]+(?: [ap]\.?m\.?)?)?|"
    r"(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)days?|Weekends|Weekdays|Weeknights|Mornings|"
    r"Evenings|Nights|Breakfast|Lunch|Dinner)(?: (?:mornings|afternoons|evenings|nights))?"
    r"(?: (?:(?:every|each) (?:morning|day|evening|night|week)|most days|on weekdays))?"
    r"(?= (?:mean|means|are|is|usually|always|often|typically|tend|end|ends|start|starts|"
    r"begin|begins)\b)")
#: a note in the first person (read by :func:`said_by`), or about "she"/"he" with no one
#: named: the user's (notes an assistant saves from a chat, "I'm allergic to mango", "She
#: has never set foot in Japan")
_FIRST_PERSON_OPENING = re.compile(r"(?:I|My|Our|We)\b|I['’]")
_OUR = ((re.compile(r"^We (?:have|own)\b"), "User has"), (re.compile(r"^We\b"), "User"),
        (re.compile(r"\b[Oo]ur\b"), "User's"))
_THIRD_PERSON = ((re.compile(r"^(?:She|He|They)['’]s\b"), "User is"),
                 (re.compile(r"^(?:She|He|They)\b"), "User"),
                 (re.compile(r"^(?:Her|His|Their)\b"), "User's"))
#: whose a note is, named after a dash ("Prefers tea — Mateo drinks four cups a day")
_WHOSE_AFTER_DASH = re.compile(r"\s[—–]\s+[A-Z][\w'’-]*\s")
#: someone named as the teller ("Her go-to lunch, Amara says, is …"): the note is theirs
_NAMED_TELLER = re.compile(r"\b[A-Z][\w'’-]+ (?:says|said|mentions|mentioned|told|tells|explains|"
                           r"explained|admits|admitted)\b")
#: a note that opens on what its owner is, then "who" ("Night owl who never sleeps before
#: two", "O-negative donor who gives blood"): the user is one (not someone named, nor
#: the user's kin: the kin words open :data:`_USERS_THING`)
_ONE_WHO_DOES = re.compile(r"^(?:(?P<article>An?)\s+)?(?!(?:The|This|That|These|Those|Every|"
                           r"Each|Some|Any|No|My|Our|Your|His|Her|Their|Its)\b)"
                           r"(?P<np>[A-Za-z][a-z-]+(?:\s+(?:[a-z][a-z-]+|Catholic|Christian|"
                           r"Muslim|Jewish|Hindu|Buddhist)){0,2})\s+who\s+(?=[a-z])")
#: states said as what one is ("User is an atheist", "… a non-smoker")
_ONE_WHO = frozenset(("Non-smoker", "Atheist", "Agnostic", "Christian", "Catholic", "Muslim",
                      "Buddhist", "Hindu", "Vegetarian", "Vegan", "Pescatarian"))


#: a note's first word that reads as a verb with no subject before it ("Whips up an omelette",
#: "Puts two sugars in …", "Emigrated to Canada"): a verb's -s or -ed ending, then what a
#: verb's object or particle opens with (after -ed, a preposition too) — not a name (a name
#: is followed by its verb: "Jonas smokes", "Ahmed says"), nor a plural noun that opens a
#: field or a topic ("Pets: none", "Escalations about …")
_OBJECT_OPENING = (r"a|an|the|up|out|off|her|his|their|its|every|each|two|three|four|five|six|"
                   r"several|some|no|most|all|back|away|down|twice|once")
_VERB_FIRST = re.compile(
    r"(?P<verb>[A-Z][a-z]{2,}ed(?=\s+(?:" + _OBJECT_OPENING + r"|into|onto|to|for|with|from|"
    r"about|over|through|around|as|at|in|on|\d+)\b)"
    r"|[A-Z][a-z]{2,}(?<![aiouy]s)(?<!ss)s(?=\s+(?:(?:" + _OBJECT_OPENING
    + r"|about|around|roughly|barely|nearly|almost)\b|[£$€]?\d)))\s+")
_NOT_VERBS = frozenset(("pets", "allergies", "languages", "heights", "cats", "dogs", "spiders",
                        "colleagues", "vehicles", "hobbies", "finances", "thanks", "years",
                        "parents", "friends", "kids", "siblings", "grandparents", "weekends",
                        "mornings", "evenings", "nights", "holidays", "plans", "notes", "details",
                        "sundays", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays",
                        "saturdays", "weekdays", "summers", "winters", "noted", "mentioned",
                        "ahmed", "mohammed", "muhammed", "hamed", "javed", "saeed", "rasheed",
                        "zayed", "jared", "fred", "ned", "ted", "reed"))


def _verb_first(text: str) -> re.Match[str] | None:
    """The verb a note with no subject opens on, by its shape (:data:`_VERB_FIRST`), or
    None.

    >>> _verb_first("Whips up an omelette most mornings.")["verb"]
    'Whips'
    >>> _verb_first("Jonas smokes ten a day.") is None, _verb_first("Pets: none") is None
    (True, True)
    """
    m = _VERB_FIRST.match(text)
    return m if m is not None and m["verb"].lower() not in _NOT_VERBS else None


def _time_first(text: str) -> str:
    """A note with no subject that opens on its time, with the time after what it says, so
    it reads as the user's ("Last autumn made the final payment" → "Made the final payment
    last autumn"; unchanged otherwise).

    >>> _time_first("Most mornings whips up an omelette.")
    'Whips up an omelette most mornings.'
    >>> _time_first("Last year Ana moved to Porto.")
    'Last year Ana moved to Porto.'
    """
    lead = _LEADING_TIME.match(text) or _LEADING_MEASURE.match(text)
    if lead is None or lead.group("rest")[:1].isupper():
        return text
    rest = lead.group("rest")
    rest = rest[:1].upper() + rest[1:]
    if _NO_SUBJECT.match(rest) is None and _verb_first(rest) is None:
        if lead.re is _LEADING_MEASURE and re.match(r"[A-Z][a-z]+s\s", rest):
            # after a height or an age, a word in -s is the verb ("ducks under"): the user's
            return f"User {rest[:1].lower()}{rest[1:]} {lead.group('lead').lower()}{lead['end']}"
        return text
    return f"{rest} {lead.group('lead').lower()}{lead.group('end')}"


def _users(text: str) -> str:
    """A note with no one named as its subject, as the user's (unchanged otherwise).

    >>> _users("I'm allergic to mango and my sister is too.")
    "User is allergic to mango and User's sister is too."
    >>> _users("Married to Aisha.")
    'User is married to Aisha.'
    """
    if _NAMED_TELLER.search(text) is None:
        if _FIRST_PERSON_OPENING.match(text):
            for pattern, written in _OUR:
                text = pattern.sub(written, text)
            return said_by("User", text)
        for pattern, written in _THIRD_PERSON:
            if (m := pattern.match(text)) is not None:
                return written + text[m.end():]
    if (m := _USERS_THING.match(text) or _USERS_ROUTINE.match(text)) is not None and (
            not _WHOSE_AFTER_DASH.search(text)):
        return f"User's {m.group(0)[:1].lower()}{m.group(0)[1:]}{text[m.end():]}"
    if (m := _NO_SUBJECT.match(text) or _verb_first(text)) is None or (
            _WHOSE_AFTER_DASH.search(text)):
        who = _ONE_WHO_DOES.match(text)
        if who is not None and (who["article"] or " " in who["np"]) and (
                who["article"] or who["np"][:1].isupper()):  # "Maya who …": someone named
            np = who["np"][:1].lower() + who["np"][1:]
            return f"User is {'an' if np[:1] in 'aeiou' else 'a'} {np}{text[who.end('np'):]}"
        return text  # ("Prefers tea — Mateo drinks …": Mateo's)
    word = m.group(0)
    if m.re is _NO_SUBJECT and m["state"]:
        article = "a " if word in _ONE_WHO else ""  # "Atheist": User is an atheist
        if word[:1] in "AEIOU" and article:
            article = "an "
        return f"User is {article}{word[:1].lower()}{word[1:]}{text[m.end():]}"
    if m.re is _NO_SUBJECT and m["born"]:
        return f"User was born{text[m.end():]}"
    word = m["verb"]
    return f"User {word[:1].lower()}{word[1:]}{text[m.end('verb'):]}"


#: a capital named by its country ("the capital of Japan", "Canada's capital", "Nigeria's
#: capital city"): the city, as the other notes name it
_CAPITAL_OF = re.compile(r"\bthe capital (?:city )?of "
                         r"(?P<a>(?:the )?[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?)|"
                         r"\b(?P<b>[A-Z][\w-]*(?: [A-Z][\w-]*)?)['’]s capital(?: city)?\b")


#: a courtesy title before a surname ("Mrs. Kowalczyk across the hall"): the name is the
#: surname, as the other notes write it
_TITLE = re.compile(r"\b(?:Mr|Mrs|Ms|Miss|Mx)\.?\s+(?=[A-Z][\w'’-]+)")


def _capital_named(m: re.Match[str]) -> str:
    """The capital's name for :data:`_CAPITAL_OF` (the words unchanged when the country is
    unknown)."""
    return capital(m["a"] or m["b"]) or m.group(0)


def normalise(text: str) -> str:
    """``text`` with its units, times, ordinals and Chinese amounts written one way, and a
    back-to-front "<value> is <name>'s <attribute>" turned round."""
    zh = re.search(r"[\u4e00-\u9fff]", text) is not None
    # "Name: Priya. Lives in: Pune." → "Priya lives in Pune." (a voice note's fillers out first)
    text = as_sentences(_zh_spoken(text) if zh else _en_quote(_spoken(text)), zh=zh)
    if zh:
        text = _ZH_TIME.sub(_zh_time, _ZH_AMOUNT.sub(_zh_amount, text))
        for pattern, written in _ZH_WAYS:
            text = pattern.sub(written, text)
        return _zh_kin_words(_zh_said(_zh_whose(text)))
    text = _TITLE.sub("", _CAPITAL_OF.sub(_capital_named, text))
    text = _DATE_FIRST.sub(r"\g<rest> on \g<date>\g<end>", text)
    text = _users(_time_first(_OF_MINE.sub(r"User's \g<kin> \g<aux> all ", _I_THINK.sub("", text))))
    lead = _LEADING_TIME.match(text) or _LEADING_DAYS.match(text)
    if lead is not None and (lead.group("rest")[:1].isupper()
                             or lead.group("rest").lower().startswith("the user ")):
        rest = re.sub(r"^the user\b", "User", lead.group("rest"), flags=re.I)
        text = f"{rest} {lead.group('lead').lower()}{lead.group('end')}"
    elif (lead := _LEADING_PLACE.match(text)) is not None:  # "in Munich": the place kept
        place = lead.group("lead")
        text = f"{lead.group('rest')} {place[:1].lower()}{place[1:]}{lead.group('end')}"
    text = _EN_WAYS(text)
    m = _BACK_TO_FRONT.match(text)
    if m is not None and not m.group("value").lower().startswith(("she ", "he ", "it ", "this ",
                                                                   "that ", "there ")):
        owner = "User" if m["our"] or m["owner"] == "the user" else m["owner"]
        text = f"{owner}'s {m.group('noun')} is {_value_of(m)}{m.group('rest')}"
    text = _TIME_12.sub(_time, text)
    text = _TIME_24.sub(lambda t: f"{int(t.group(1)):02d}:{t.group(2)}", text)
    text = _UNIT.sub(_unit, text)
    return _ORDINAL.sub(_ordinal, text)


__all__ = ["normalise", "zh_number"]
