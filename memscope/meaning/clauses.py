"""Where a text is cut into clauses and whose each clause is: its owner ("Henrik's wife is
called Maren" is Henrik's, "Tara's sister lives in Bristol" the sister's), the owner's
thing it is about, and whether it speaks of the past or only of a hope."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import islice

from memscope.meaning.chinese import segmenter, tagger
from memscope.meaning.claim_text import (
    _NAME_RUN,
    _NUMBER_WORDS,
    _ROLE_STEMS,
    ROLES,
    STOP,
    ZH_ROLES,
    _norm_name,
    _set,
    stem,
)
from memscope.meaning.facts import _IDENTITY, _NOUN_FAMILIES
from memscope.meaning.prefilter import guarded

# ---------------------------------------------------------------------------------------
# Reading past one template: clauses, whose they are, one-value facts, denials.
#
# A sentence is cut into clauses (";", "but", ", who", "and" before a verb …); a clause
# without a subject of its own ("… and drives daily", "she only learnt Korean") is about
# the sentence's. Each clause has an *owner* (the person: "Elena Rossi" is Elena; "Henrik's
# wife is called Maren" is about Henrik, "Tara's sister lives in Bristol" about the sister),
# *facts* (a one-value attribute and its value, whatever the words: "lives in" / "home is
# in" / "moved to"; "reports to" / "manager is" / "boss is"), and *denials* (what it says
# the owner never does or has: "has never had grandchildren", "keeps no pets of any kind",
# "avoids Python", 从不去公司).

#: words that open a time or place phrase before the subject ("These days Ingrid …")
_LEADING = _set(
    "these this after before since once on in at during every each now today nowadays "
    "recently lately currently meanwhile also still last next back for from as when by until "
    "over following most some many apart except besides aside two three four five six seven "
    "eight nine ten several few whenever")
#: capitalised words of a time, which a leading phrase holds ("Every Tuesday night Kai …",
#: "Since March 2023, Ingrid …"): no one's name
_TIME_NAMES = _set(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays "
    "thursdays fridays saturdays sundays january february march april may june july august "
    "september october november december christmas easter ramadan new year years eve day "
    "spring summer autumn winter fall")
#: leading words that are one adverb, not the start of a phrase ("now", "still")
_ADVERBS = _set("now still also currently recently today nowadays lately meanwhile")
_PRONOUN_HEADS = _set("she he they i we")
_DETERMINER_HEADS = _set("the a an my our your their his her its this that")


#: a clause about a time gone: its facts are not today's
_PAST = guarded(re.compile(
    r"\b(?:used to|previously|formerly|grew up|(?:was|were) (?:raised|brought up)"
    r"|(?<!even )as an? (?:child|kid|teenager|student)"
    r"|in the past|back then|former|ex-\w+|first (?:husband|wife|job|marriage|partner)"
    r"|(?:was|were) (?:\w+ly )?(?:married|engaged)|(?:got|was|were) divorced"
    r"|divorced (?:in|from|after)|until (?:19|20)\d\d|"
    r"until (?:last|recently|a (?:year|month|few \w+) ago)|"
    r"from (?:19|20)\d\d to|between (?:19|20)\d\d and)\b"
    # a time before a change ("Before last year's reorg, Chiara reported to Elena")
    r"|^\s*before\s+(?:last\s+year['’]s|the|her|his|their|last|that)\b[^,;]{0,40},",
    re.I))
_PAST_VERB = re.compile(r"^\s*(?:\w+ly\s+)?(?:lived|worked|was (?:based|living|working)|"
                        r"stayed|spent)\b", re.I)
_HEDGES = re.compile(r"\b(?:wants? to|would like|(?<!no )plans? to|planning|hopes? to|hoping|"
                     r"thinking (?:about|of)|considering|looking (?:for|into)|saving (?:for|up)|"
                     r"dreams? of|"
                     r"wish(?:es)? to|might|(?-i:may)|could|should|trying to|tries to|learning to|"
                     r"used to|if|training for|preparing for|goals?|aims? to|bucket list|"
                    r"taking (?:\w+ )?lessons|has (?:her|his|their) (?:driving )?test|"
                     r"(?:has )?booked (?:\w+ )?(?:lessons|a course|classes)|signed up for|"
                     r"enrolled (?:in|on)|"
                     r"resolutions?)\b", re.I)
_ZH_HEDGES = re.compile(r"想|打算|计划|准备|希望|可能|如果|正在学|在学|报班学|学着|以为|开始要|"
                        r"(?:下个?月|下周|明年|明天)(?:开始)?要")


_PARTICIPLES = _set("born made sold built done set due going being not taken given written known "
                    "seen gone chosen driven eaten broken stolen spoken frozen hidden forgotten "
                    "paid kept held left lost found told bought brought sent spent run won")


_ZH_THING = re.compile(r"的([^是叫在住有每从不没会已今去岁\d一二三四五六七八九十两]{1,5})")


_ZH_PAST = guarded(re.compile(
    r"以前|之前|此前|曾经|小时候|过去|原来|从前(?!年)|前任|前妻|前夫|"
    r"(?:\d+|[一二三四五六七八九十]+)(?:多)?岁(?:的)?时(?:候)?|年轻时|上学时|读书时|"
    r"(?:读|上|念)?(?:大学|高中|初中|小学|研究生|读研)(?:时|的时候|那会儿?)|"
    r"上一家|前一家|当年|年轻时|年轻的时候|刚[\u4e00-\u9fff]{1,3}(?:时|的时候)|那几年|那些年|那段时间|第一份工作|头一份工作|"
    r"\d{4}年(?:到|至)\d{4}年|那时候?|那会儿"
    r"|(?<=[\u4e00-\u9fff]{2})曾(?=[和在去到是跟与])"))  # 彭博曾和妻子…, not 曾琪


# --- clauses ---------------------------------------------------------------------------

_AUX_HEADS = _set("is are was were has have had will would can could does did never only also "
                  "still now then always often rarely usually no not")
_EN_STRONG = re.compile(r"\s*;\s*|:\s+|\s+[—–]\s+|\s+-\s+|(?<!\b[DM]r)(?<!\bMrs)(?<!\bMs)"
                        r"(?<!\bSt)(?<!\bProf)\.\s+(?=[A-Z])")
#: a name, an aside after "who" between commas, the rest of the sentence
_RELATIVE_ASIDE = re.compile(r"^(?P<head>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?),\s+who\s+"
                             r"(?P<aside>[^,;]{3,80}),\s+(?P<rest>[a-z][^;]*)$")
_EN_WEAK = re.compile(r",?\s+(?:but|whereas|while|although|though|because)\s+"
                      # an aside of what one hopes or plans ("…, hoping to retire soon")
                      r"|,\s+(?=(?:hoping|planning|intending|aiming|wanting)\s+to\b)"
                      # a reason with a denial of its own ("…, since buses don't reach it")
                      r"|,\s+since\s+(?=(?:[\w'’-]+\s+){0,3}(?:don['’]t|doesn['’]t|can['’]t|"
                      r"won['’]t|isn['’]t|aren['’]t|never|not|no)\b)"
                      r"|,\s*(?:and\s+)?(?=(?:she|he|they|who|which)\b)|\s+(?:who|which)\s+")


def _split_and(piece: str) -> list[str]:
    """Cut at "and" / ", and" before a verb ("… in 2020 and lives there"), not in a list
    ("Swedish and Norwegian", "her partner and two flatmates")."""
    out, start = [], 0
    for m in re.finditer(r",?\s+and\s+(\w+)", piece):
        word = m.group(1)
        low = word.lower()
        verbish = word[:1].islower() and (
            low in _AUX_HEADS or low.endswith("ed") or (
                low.endswith("s") and not low.endswith("ss") and low not in _NUMBER_WORDS
                and low not in _DETERMINER_HEADS))
        if verbish:
            out.append(piece[start:m.start()])
            start = m.start(1)
    out.append(piece[start:])
    return out


def _clause_texts(text: str, zh: bool) -> list[str]:
    if zh:
        pieces = [p.strip() for p in re.split(r"[，,；;。！？!?]|——", text) if p.strip()]
        if len(pieces) > 1 and ZH_LEADING_TIME.fullmatch(pieces[0]):
            pieces[:2] = [pieces[0] + pieces[1]]  # 从去年开始，王静…: one clause, hers
        return pieces
    out: list[str] = []
    aside = _RELATIVE_ASIDE.match(text)
    if aside:  # "Noah, who grew up by the sea, is a strong swimmer": the aside apart
        text = f"{aside['head']} {aside['rest']}; {aside['head']} {aside['aside']}"
    for part in _EN_STRONG.split(text):
        for piece in _EN_WEAK.split(part):
            out.extend(_split_and(piece))
    return [p.strip(" ,.!?") for p in out if p and p.strip(" ,.!?")]


# --- whose a clause is -----------------------------------------------------------------

def _en_head(text: str) -> tuple[tuple[str, ...] | None, str, str, bool]:
    """(owner — ``None`` for "the sentence's", ``()`` for "the claim's subject" —, the
    owner's thing it is about, the rest of the clause after them, whether the rest says
    what that thing is: "Henrik's wife *is called Maren*", "Zane's blood type *is* O
    negative")."""
    tokens = list(islice(_HEAD_TOKEN.finditer(text), 8))  # the subject is near the start
    if not tokens:
        return None, "", "", False
    i = _after_leading(tokens)
    word = tokens[i].group(0)
    low = word.lower()
    if low in _PRONOUN_HEADS:
        return None, "", text[tokens[i].end():], False
    if low in _DETERMINER_HEADS and word[:1].isupper():
        return (), "", text, False  # "The Atlas team …": the claim's subject decides
    m = _NAME_RUN.match(text, tokens[i].start()) if word[:1].isupper() else None
    if m is None:
        return None, "", text[tokens[i].start():], False
    return _possessed((_norm_name(m.group(0).split()[0]),), text, m.end())


_HEAD_TOKEN = re.compile(r"[^\s,;:]+")


def _after_leading(tokens: list[re.Match[str]]) -> int:
    """Where the subject starts after a leading time or place phrase ("These days Ingrid
    …", "After the reorganisation, Xavier …")."""
    if tokens[0].group(0).lower().strip("'’") not in _LEADING:
        return 0
    if tokens[0].group(0).lower() in _ADVERBS and len(tokens) > 1 and \
            tokens[1].group(0)[:1].islower():
        return 0  # "now lives in a village near Leeds": no subject ("Now Ingrid …" has one)
    for j in range(1, len(tokens)):  # "Before moving back to Osaka, Hiroshi …": after the comma
        if "," in tokens[0].string[tokens[j - 1].end():tokens[j].start()]:
            word = tokens[j].group(0)
            if word.lower() in _PRONOUN_HEADS or word[:1].isupper():
                return j
            break
    for j in range(1, min(len(tokens), 8)):
        word = tokens[j].group(0)
        if word.lower() in _PRONOUN_HEADS or (word[:1].isupper() and
                                              word.lower() not in _LEADING and
                                              word.lower().strip("'’") not in _TIME_NAMES):
            return j
    return 0


def _possessed(owner: tuple[str, ...], text: str, pos: int
               ) -> tuple[tuple[str, ...], str, str, bool]:
    """Read "'s …" after the owner's name: another person ("Maya's sister Ana", "Tara's
    sister lives", "Maya's mum's birthday"), or the owner's thing ("Carmen's contract ends",
    "Zane's blood type is")."""
    while (poss := re.match(r"['’]s\s+", text[pos:])) is not None:
        pos += poss.end()
        cut = _possessed_phrase(text[pos:])
        if not cut:
            break
        role = cut[-1].lower()
        if role not in ROLES and stem(role) in _ROLE_STEMS:
            role = next(r for r in ROLES if stem(r) == stem(role))  # "friends": a friend
        end = pos + len(" ".join(cut))
        after = text[end:]
        if role in ROLES and re.match(r"['’]s\s", after):
            owner = (*owner, stem(role))
            pos = end
            continue  # "Maya's mum's birthday …": the mum's
        named = _NAME_RUN.match(after.lstrip()) if after[:1] == " " else None
        if role in ROLES and named and not _is_identity(after, role=True):
            owner = (*owner, stem(role), _norm_name(named.group(0).split()[0]))
            pos = end + len(after) - len(after.lstrip()) + named.end()
            continue  # "Maya's sister Ana …": Ana
        identity = _is_identity(after, role=role in ROLES)
        if role in ROLES and not identity:
            return (*owner, stem(role)), "", after, False  # "Tara's sister lives …"
        return owner, " ".join(w.lower() for w in cut), after, identity
    return owner, "", text[pos:], False


def _possessed_phrase(text: str) -> list[str]:
    """The words of a possessed thing, up to its verb ("contract | ends on", "favourite
    colour | is", "friends | drink"): a role ends it, unless it starts a family noun
    ("mother tongue")."""
    words = re.match(r"((?:[A-Za-zÀ-ÿ-]+\s+){0,3})([A-Za-zÀ-ÿ-]+)(?=[\s,;.]|['’]s\s|$)", text)
    if not words:
        return []
    parts = words.group(0).split()
    cut: list[str] = []
    for w in parts:
        low = w.lower()
        if low in STOP or (cut and low.endswith(("s", "ed")) and not low.endswith("ss")
                           and stem(low) not in _ROLE_STEMS and cut[-1].lower() not in
                           _NUMBER_WORDS and not cut[-1].isdigit()):
            break  # a verb ("contract ends"), not a counted noun ("two sons", "3 cats")
        cut.append(w)
        nxt = parts[len(cut)].lower() if len(cut) < len(parts) else ""
        if stem(low) in _ROLE_STEMS and f"{low} {nxt}" not in _NOUN_FAMILIES and not (
                nxt and stem(nxt) in _ROLE_STEMS):  # "twin sons": the sons
            break
    return cut


def _is_identity(after: str, *, role: bool) -> bool:
    """Whether ``after`` says what the possessed thing is ("is called Maren", "is O
    negative", "has always been deep red") rather than what it does ("was born on …")."""
    m = _IDENTITY.match(after)
    if not m:
        return False
    nxt = after[m.end():].lstrip()
    if role:  # "Henrik's wife is called Maren", "Xavier's boss is Claire Fontaine"
        return bool(re.match(r"(?:Dr|Mr|Mrs|Ms|Prof)\b|[A-ZÀ-ÖØ-Þ]", nxt))
    word = re.match(r"[a-z]+", nxt)
    return not (word and (word.group(0).endswith("ed") or word.group(0) in _PARTICIPLES))


#: a time a Chinese clause may open on before its name (去年李雪梅住在成都, 2013年史磊…)
ZH_LEADING_TIME = guarded(re.compile(
    r"(?:(?:去年|今年|前年|明年|上个?月|这个?月|下个?月|上周|这周|下周)"
    r"(?:春天|夏天|秋天|冬天|底|初|末)?|最近|现在|目前|如今|今天|昨天|"
    r"后来|当时|之前|以前|前几天|周末|平时|每天|春天|夏天|秋天|冬天|小时候|"
    r"(?:从|自)?(?:去年|今年|前年|\d{4}年)(?:\d{1,2}月)?(?:开始|起)|"
    r"\d{4}年(?:\d{1,2}月)?(?:底|初)?(?!代)|"
    r"这(?:两|几)年|近(?:两|几)年|"
    r"每(?:周|个?星期)[一二三四五六日天](?:下班后|晚上|早上|上午|下午)?|"
    r"(?:周|星期|礼拜)[一二三四五六日天](?:下班后|晚上|早上|上午|下午|中午)?|"
    r"\d{1,2}岁(?:之前|以前|前|那年|的时候|时)"
    r")[，,]?"))
#: characters that, third after a two-character name, begin what is said of it (a verb, a
#: particle, a preposition) rather than end a three-character name: jieba's guesses glue
#: some to the name (杨帆养了一只猫 → 杨帆养)
_ZH_AFTER_NAME = frozenset("有养下上去来到在是住从不没也都还就才又很最刚正被把给跟与和同对向要想"
                           "能会可已每说做吃喝买看学开用写读教当叫姓让请带送找等家的了过离戒爱"
                           "无滴只并比靠替帮再仍曾太挺真改换搬回走跑拿打玩听唱跳坐站睡穿戴抽练"
                           "卖借寄拍弹得辞退涨提剃转考毕报剪染签攒订租降怀备留信属欠烟"
                           "骑钓爬滑刷喂遛煮炒逛踢追连一受怕嫌讨恨")


#: two-character surnames (欧阳静怡, 上官晴: a name of three or four characters)
_ZH_DOUBLE_SURNAMES = ("欧阳", "上官", "司马", "诸葛", "东方", "皇甫", "令狐", "慕容", "尉迟",
                       "公孙", "长孙", "宇文", "司徒", "夏侯", "端木", "南宫", "独孤", "西门",
                       "轩辕", "申屠")


@lru_cache(maxsize=50_000)
def zh_name_length(text: str) -> int:
    """How many characters the name a Chinese clause opens with has: two when its third
    character begins what is said of it — a verb, particle or preposition (王静在杭州工作,
    杨帆养了一只猫), a role (刘洋女儿的生日) or a word of jieba's dictionary not five times
    rarer than any the fourth would begin (刘洋出生于, 王静平时) — else three (王静怡在苏州工作,
    周建国没有孩子, 陈思远家在南京, 陈晓明目前):
    so 王静 and 王静怡 are two people, and one person's name reads the same in every text.
    (jieba's own guesses at names glue a verb to them, 杨帆养, or split them, 周 / 建国.)"""
    if text.startswith(_ZH_DOUBLE_SURNAMES) and len(text) > 3:
        return 1 + zh_name_length(text[1:])  # 欧阳静怡说: 欧阳 and a given name
    if len(text) > 3 and text[1] == text[2] and text[0] not in "老小阿" and all(
            "\u4e00" <= ch <= "\u9fff" for ch in text[:3]):
        return 3  # a given name of one character twice (钱多多, 王芳芳)
    if len(text) == 3 and all("\u4e00" <= ch <= "\u9fff" for ch in text) and not (
            text[2] in _ZH_AFTER_NAME or text.startswith("用户")):
        return 3  # the name alone, before a comma (黄博文，武汉大学本科)
    if len(text) < 4 or not all("\u4e00" <= ch <= "\u9fff" for ch in text[:3]) or (
            text[2] in _ZH_AFTER_NAME or text[2:].startswith(ZH_ROLES)) or (
            text.startswith("用户")) or (  # the user, as chat notes call them
            text[0] in "老小阿" and text[1] != text[0]):  # 老周, 小李, 阿强: a name and a prefix
        return 2
    try:
        words = segmenter().FREQ
    except ImportError:  # pragma: no cover - jieba is a dependency
        return 2
    # the word the third character would begin, against the word after a three-character
    # name, unless that one is far commoner (陈晓明目前: 目前 against 明目; but 刘洋出生于:
    # 出生 against 生于)
    third = max((words.get(text[2:end], 0) for end in (4, 5, 6) if end <= len(text)),
                default=0)
    after = max((words.get(text[3:end], 0) for end in (5, 6, 7) if end <= len(text)),
                default=0)
    return 2 if third and third * 5 > after else 3


#: the commonest Chinese surnames (a note that opens on one of them and then no word of the
#: dictionary opens on a name: 周洋一碰狗毛…, 王磊在深圳…)
_ZH_SURNAMES = frozenset("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁"
                         "潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦"
                         "邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤温康施牛樊葛邢"
                         "乔伍庞颜倪庄聂章鲁岳欧司诸慕尉申")
#: rarer surnames: a note opening on one of them and on no word of the dictionary opens on
#: a name too (冷建平前年…), though alone they begin words (冷, 符)
_ZH_RARER_SURNAMES = frozenset("冷符甘柴洪祝艾鲍苗芦麦甄仇鞠柯宫蔺冼骆邝殷池闻卞晏祁蓝滕燕娄沙"
                               "翟詹耿焦俞左柳包宁尚舒阮纪梅童凌毕单季裴霍涂盛翁冉游辛靳管蒙喻蒲"
                               "房屈饶解牟尤穆农卓古吉缪简项连褚窦戚岑景党费卜席卫米柏宗瞿桂佟"
                               "臧闵苟邬边姬师栾隋商刁荣巫寇桑郎丛仲虞敖巩佘查麻苑迟官封谈匡惠荆"
                               "冀郁胥班储栗楚鄢劳谌奚皮粟楼满闻厉伊郜阚权帅屠朴盖练廉禹井祖漆巴"
                               "丰支卿狄计索宣晋芮扈晁阙浦戈伏鹿薄邸雍辜羊乌母裘亓修邰赫杭况那宿"
                               "鲜印逯隆茹战慕危玉银亢嵇湛宾戎勾茅利呼居揭干尉冶斯元束檀衣展阴昝"
                               "智幸奉植衡富尧闭由于")
#: how rare a word of jieba's dictionary that opens on a surname may be and still be read as
#: a name (周洋 0, 孙悦 32, 方圆 285; 牛奶 801, 高中 4,732): a plain noun read as a name only
#: loses a note (钱包丢了), a name read as no one's puts someone's note on the user
_ZH_NAME_FREQ = 300
#: what follows a name (and seldom a plain word) at a note's start: its possessive, or its
#: verb of saying (方舟的女儿…, 于佳说…)
_ZH_AFTER_OPENING_NAME = re.compile(r"的|说|讲|表示|提到|告诉|觉得|认为")


@lru_cache(maxsize=50_000)
def zh_opens_on_name(text: str) -> bool:
    """Whether a Chinese note may open on someone's name: jieba tags its first word a
    person's name, or that word opens on a surname and is rare (周洋, 方圆: not 高中), or jieba
    cannot make a word of it (婉|婷), or it is a common surname alone, or a name and its
    possessive or verb of saying follow (方舟的女儿, 于佳说); a double surname, a prefix and a
    surname (东方明, 老张) too. A rare plain word with no surname first (近视, 旱鸭子) is no name.

    >>> zh_opens_on_name("周洋一碰狗毛就打喷嚏"), zh_opens_on_name("李娜是护士")
    (True, True)
    >>> zh_opens_on_name("冷建平前年查出脂肪肝"), zh_opens_on_name("老张住在苏州")
    (True, True)
    >>> zh_opens_on_name("高中时住校"), zh_opens_on_name("信基督教"), zh_opens_on_name("烟已经戒了")
    (False, False, False)
    """
    if not text or not "\u4e00" <= text[0] <= "\u9fff":
        return False
    if text.startswith(_ZH_DOUBLE_SURNAMES) or (
            text[0] in "小老阿" and text[1:2] and text[1] in _ZH_SURNAMES):
        return True  # 东方明, 上官婷; 老张, 小李
    try:
        first = next(iter(tagger().cut(text[:10])))
        common = segmenter().FREQ
    except ImportError:  # pragma: no cover - jieba is a dependency
        return True
    word = first.word
    size = zh_name_length(text)
    surname = text[0] in _ZH_SURNAMES or text[0] in _ZH_RARER_SURNAMES
    if text[0] in _ZH_RARER_SURNAMES and max(common.get(text[:2], 0), common.get(
            text[:3], 0)) < _ZH_NAME_FREQ:
        return True  # 冷建平: a rarer surname, then no word of the dictionary
    if first.flag.startswith("nr") or (common.get(word, 0) < _ZH_NAME_FREQ and (
            surname or len(word) == 1)) or (len(word) == 1 and text[0] in _ZH_SURNAMES):
        return True  # a name jieba knows or cannot split (婉|婷), a surname first
    return bool(_ZH_AFTER_OPENING_NAME.match(text, size)) and (
        surname or len(word) == 1 or not common.get(word, 0)
    )  # 方舟的女儿…, 于佳说…, 婉婷的… (no word of the dictionary; not 最爱的菜)


def _zh_head(text: str, *, inherited: bool) -> tuple[tuple[str, ...] | None, str, str, bool]:
    """A Chinese clause's owner (its name, :func:`zh_name_length`: 高雪很喜欢 is 高雪's;
    孙丽的妹妹 is the sister), the owner's thing it is
    about (周杰的领导是…: 领导), the rest, and whether the rest says what that thing is
    (是, 叫)."""
    if inherited:
        return None, "", text, False
    if text[:1] in "他她我你":
        return None, "", text[1:], False
    latin = re.match(r"[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*)*\s*", text)
    if latin:  # "Atlas 的发布…": the Latin name
        owner, rest = latin.group(0).strip().lower(), text[latin.end():]
    else:
        lead = ZH_LEADING_TIME.match(text)  # 去年李雪梅住在成都: 李雪梅's, last year
        if lead is not None and len(text) > lead.end() + 1:
            text = text[lead.end():] + text[:lead.end()]
        size = zh_name_length(text)
        owner, rest = text[:size], text[size:]
        if rest.startswith("的") and rest[1:].startswith(ZH_ROLES):
            rest = rest[1:]  # 谢涛的弟弟谢波: the brother
    while True:
        role = next((r for r in ZH_ROLES if rest.startswith(r)), None)
        if role is not None:  # 刘洋女儿的生日: the daughter's
            thing, after = role, rest[len(role):]
        elif (m := _ZH_THING.match(rest)) is not None:
            thing, after = m.group(1), rest[m.end():]
        else:
            return (owner,), "", rest[1:] if rest.startswith("的") else rest, False
        # 生日在10月5日 says what the birthday is; 妻子在医院工作 does not say who she is
        identity = bool(re.match(r"(?:是|叫)|定?在(?=\d)", after))
        if thing == "家":  # 陈晨的家在杭州: where she lives
            return (owner,), "", thing + after, False
        if not thing.endswith(ZH_ROLES) or identity:
            return (owner,), thing, after, identity
        owner, rest = f"{owner}的{thing}", after  # 孙丽的妹妹住在苏州: the sister
