"""Notes written as a profile's fields, read as sentences before anything else reads them:
"Name: Priya Raman. Lives in: Pune." → "Priya Raman lives in Pune."; "Allergies: none
known. Name: Jun-ho Park." → "Jun-ho Park has no allergies."; "Priya Raman – current city:
Hyderabad" → "Priya Raman lives in Hyderabad"; 母语：粤语（黎嘉欣） → 黎嘉欣的母语是粤语;
姓名：刘畅；现居：成都 → 刘畅住在成都; 杨帆：职位 产品经理 → 杨帆是产品经理.

Memory tools store facts this way (a field, a value, whose it is); the rules read
sentences. A field this module does not know is written "<name>'s <field> is <value>"
(所有者的字段是值), which the rules may still read. Pure and deterministic; what it writes
is read, never shown.
"""

from __future__ import annotations

import json
import re

from memscope.meaning.prefilter import guarded

#: "Name: Priya Raman" anywhere in an English note
_EN_NAME = re.compile(r"(?:^|(?<=[.;]\s))(?:Name|Person|Patient|Client|Employee|Customer|Member)"
                      r":\s*"
                      r"(?P<name>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3})"
                      r"\s*(?:[.;]\s*|$)")
#: "Priya Raman – current city: Hyderabad": the name, a dash, what is said of them
_EN_DASH = re.compile(r"^(?P<name>(?:[A-Z][\w'’-]*)(?:\s+[A-Z][\w'’-]*){0,2})\s+[–—-]\s+"
                      r"(?P<rest>.+)$", re.S)
#: the first word of what is said after the dash, when it is a verb ("– turned 41 in March",
#: "– lives in Belgium", "– has no direct reports")
_VERBISH = re.compile(r"^(?:[a-z]+(?:s|ed)|is|has|was|can|can['’]t|cannot|never|does|doesn['’]t|"
                      r"did|will|won['’]t|rarely|always|only|still)\b")
#: one "Field: value" of an English note
_EN_FIELD = re.compile(r"^(?P<key>[A-Za-z][A-Za-z -]{1,30}?):\s*(?P<value>.+)$", re.S)
#: where a field ends: a full stop or a semicolon before the next "Field:" (values may hold
#: ";" and "," otherwise)
_EN_SPLIT = re.compile(r"[.;]\s+(?=[A-Z][A-Za-z -]{1,30}:)")
_NONE = re.compile(r"^(?:none|no|nil|n/a)(?:\s+known|\s+whatsoever|\s+at all)?\s*(?:$|[–—;,.-])",
                   re.I)
_YES = re.compile(r"^(?:yes|y)\s*(?:$|[–—;,.-])", re.I)
#: yes-or-no fields, said of a person ("Smoker: no, never smoked")
_YES_NO = frozenset(("smoker", "drinker", "vegetarian", "vegan", "married", "pet owner",
                     "driver", "homeowner", "parent"))
#: values that say a state of their own ("Role: unemployed, job-hunting")
_STATE_VALUE = re.compile(r"^(?:unemployed|retired|self-employed|freelance|student|married|"
                          r"single|divorced|widowed|engaged)\b", re.I)
#: a value's aside after a dash ("none – teetotal")
_ASIDE = re.compile(r"\s*[–—-]\s+|\s*;\s*")
_PARENS = re.compile(r"\s*\([^)]*\)")
#: fields and the sentence each is (``{n}`` the name, ``{v}`` the value)
_EN_SENTENCES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"^(?:{keys})$", re.I), sentence) for keys, sentence in (
        (r"lives in|city|current city|home|home city|location|based in|residence|"
         r"hometown now|address", "{n} lives in {v}"),
        (r"age", "{n} is {v} years old"),
        (r"birthday|date of birth|dob|born", "{n}'s birthday is {v}"),
        (r"marital status|relationship status|status", "{n} is {v}"),
        (r"job|job title|title|role|occupation|position|profession", "{n} works as a {v}"),
        (r"employer|company|works at|workplace|works for", "{n} works at {v}"),
        (r"manager|reports to|boss|line manager", "{n} reports to {v}"),
        (r"manages", "{n} manages a {v}"),
        (r"languages?|speaks", "{n} speaks {v}"),
        (r"native language|first language|mother tongue", "{n}'s native language is {v}"),
        (r"(?:food |drug |medication )?allerg(?:y|ies)|allergic to", "{n} is allergic to {v}"),
        (r"partner|spouse|husband|wife|girlfriend|boyfriend", "{n}'s {k} is called {v}"),
        (r"diet", "{n} is {v}"),
        (r"health|medical|conditions|health conditions", "{n} has {v}"),
        (r"pets|children|kids|siblings", "{n} has {v}"),
        (r"religion|faith", "{n} is {v}"),
        (r"handedness|dominant hand|hand", "{n} is {v}-handed"),
        (r"drinks|eats|plays|uses|owns|drives|speaks only|prefers", "{n} {k} {v}"),
    ))
#: values that are a whole predicate ("Housing: owns house", "Commute: drives to work")
_OWN_VERB = re.compile(r"^(?:owns|rents|uses|lives|works|speaks|drinks|eats|plays|has|drives|"
                       r"cycles|walks|takes|keeps|runs|swims)\b", re.I)
#: values that begin with a verb ("Caffeine: avoids completely")
_VERB_FIRST = re.compile(r"^(?:avoids|prefers|loves|likes|hates|never|only|rarely|always|"
                         r"quit|gave up|doesn['’]t|does not|can['’]t|cannot)\b", re.I)


def _en_field(name: str, key: str, value: str) -> str:
    """One English field as a sentence about ``name``."""
    key, value = key.strip(), value.strip().rstrip(".")
    low = key.lower()
    if low in _YES_NO and (_NONE.match(value) or _YES.match(value) or value.lower() == "never"):
        no = _NONE.match(value) is not None or value.lower() == "never"
        aside = _ASIDE.split(value, maxsplit=1)[1:] or re.split(r",\s*", value, maxsplit=1)[1:]
        out = f"{name} is {'not ' if no else ''}a {low}"
        return out + (f"; {name} {aside[0].strip()}" if aside and aside[0].strip() else "")
    if _STATE_VALUE.match(value):
        return f"{name} is {value}"
    if _NONE.match(value) and low in ("exercise", "sport", "sports"):
        return f"{name} never exercises"
    if _NONE.match(value):
        aside = _ASIDE.split(value, maxsplit=1)
        out = f"{name} has no {low}" if low not in ("allergies", "allergy") else (
            f"{name} has no allergies")
        out = re.sub(r" allergy$", " allergies", out)  # "Food allergy: none": no food allergies
        if len(aside) == 2 and aside[1].strip():
            rest = aside[1].strip()
            verb = rest.split()[0].lower()
            out += f"; {name} {rest}" if verb.endswith(("ed", "s")) else f"; {name} is {rest}"
        return out
    if _VERB_FIRST.match(value):
        first, _, rest = value.partition(" ")
        return f"{name} {first} {low} {rest}".rstrip()
    if _OWN_VERB.match(value):  # "Housing: owns house"
        return f"{name} {value}"
    value = _PARENS.sub("", value)
    for pattern, sentence in _EN_SENTENCES:
        if pattern.match(low):
            return sentence.format(n=name, v=value, k=low)
    return f"{name}'s {low} is {value}"


def _known_en_key(key: str) -> bool:
    """Whether ``key`` is one of the fields this module writes a sentence for."""
    low = key.strip().lower()
    return low in _YES_NO or any(p.match(low) for p, _s in _EN_SENTENCES) or (
        low in _EN_OTHER_KEYS)


#: fields with no sentence of their own that a profile holds ("Height: 5'2\"")
_EN_OTHER_KEYS = frozenset(("height", "weight", "blood type", "pets", "children", "kids",
                            "nationality", "alcohol", "caffeine", "exercise", "social media",
                            "housing", "smoking", "education", "highest education", "car",
                            "phone", "hobbies", "hobby", "siblings", "eats", "commute",
                            "salary", "annual salary", "current salary", "income", "pay"))


#: whose a note is, named beside its field: "Health: type 1 diabetes (Emeka)", "Devices
#: (Yerlan): Apple only", "User's birthday: 29 March"
_EN_NAMED = r"(?P<name>User|[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)"
#: (with a plain aside after the name: "Employer: Deloitte (Mateo, audit team)"; not a time,
#: which would change what the field says: "(Anna, until recently)")
_EN_OWNER_AFTER = re.compile(r"^(?P<key>[A-Za-z][A-Za-z &/-]{1,30}?):\s*(?P<value>.+?)\.?\s*\("
                             + _EN_NAMED + r"(?:,\s*(?!(?:until|since|before|after|formerly|"
                             r"previously|former|ex|now|then|not|no)\b)[a-z][a-z -]{1,30})?"
                             r"\)\s*\.?$", re.S)
_EN_OWNER_IN_KEY = re.compile(r"^(?P<key>[A-Z][A-Za-z &/-]{1,30}?)\s*\(" + _EN_NAMED
                              + r"\):\s*(?P<value>.+)$", re.S)
_EN_OWNER_POSSESSIVE = re.compile(r"^(?P<name>User|[A-Z][\w'’-]*)['’]s (?P<key>[a-z][a-z &/-]"
                                  r"{1,30}?):\s*(?P<value>.+)$", re.S)
_EN_ITEM_STATE = re.compile(r"^(?:married|engaged|divorced|widowed|single|separated|retired|"
                            r"unemployed|self-employed|vegan|vegetarian|pescatarian|teetotal|"
                            r"allergic|fluent|right-handed|left-handed)\b")
_EN_ITEM_KIN = re.compile(r"^(?:parents|mother|father|mum|mom|dad|sister|brother|sisters|brothers|"
                          r"son|daughter|sons|daughters|kids|children|wife|husband|partner)\s+"
                          r"(?:is|are|was|were|lives?|live|works?|has|have|[a-z]+s)\b")


#: words that only say which of a thing a field names ("current salary", "main bank")
_KEY_MARKERS = frozenset(("current", "present", "main", "primary", "only", "home", "usual",
                          "annual", "monthly", "daily", "first", "native", "favourite",
                          "favorite", "preferred"))


def _named_note(text: str) -> str | None:
    """A note whose owner is named beside its one field, as sentences about them, each of
    its "; "-separated items one (None: not such a note). An item that is a predicate is
    said of the owner ("injects insulin daily"), any other as the field's value."""
    m = (_EN_OWNER_AFTER.match(text.strip()) or _EN_OWNER_IN_KEY.match(text.strip())
         or _EN_OWNER_POSSESSIVE.match(text.strip()))
    if m is None:
        return None
    name, key = m["name"], m["key"].strip()
    out = []
    for item in (i.strip() for i in re.split(r";\s*", m["value"].strip().rstrip("."))):
        if not item:
            continue
        if re.match(r"no\s+\w", item) and not _NONE.match(item):
            out.append(f"{name} has {item}")  # "no investments, no crypto"
        elif _EN_ITEM_STATE.match(item):
            out.append(f"{name} is {item}")  # "married to Sunita"
        elif _EN_ITEM_KIN.match(item):
            out.append(f"{name}'s {item}")  # "parents live in Jaipur"
        elif _VERBISH.match(item) and not _NONE.match(item) and key.lower() not in _YES_NO:
            out.append(f"{name} {item}")  # a predicate already: "injects insulin daily"
        else:
            first = key.split()[0] if key.split() else key
            # "current salary", "home city": a marker, then the thing named (kept whole)
            whole = _known_en_key(key) or first.lower() in _KEY_MARKERS
            out.append(_en_field(name, key if whole else first, item))
    return ". ".join(out) + "." if out else None


#: whose a field is, after a dash at its end ("DOB: 03/07/1985 — Esperanza Ruiz")
_EN_OWNER_DASH = re.compile(r"^(?P<field>[A-Za-z][A-Za-z &/-]{1,30}?:\s*.+?)\s+[—–]\s+"
                            + _EN_NAMED + r"\s*\.?$", re.S)
#: a person's full name, then what they are ("Chidi Okeke: strictly right-handed")
_EN_NAME_FIRST = re.compile(r"^(?P<name>[A-Z][\w'’-]*\s+[A-Z][\w'’-]*):\s+(?P<rest>[a-z].+)$",
                            re.S)


#: "Phone: Google Pixel 8 (Björn's one and only phone)": his only phone is that
_EN_ONLY_ONE = re.compile(r"^[A-Z][A-Za-z ]{1,30}:\s*(?P<value>[^()]+?)\s*\((?P<name>User|"
                          r"[A-Z][\w'’-]*)['’]s (?:one and )?only (?P<thing>[a-z][a-z ]{1,30})\)"
                          r"\s*\.?$", re.S)


def _dashes(text: str) -> str:
    """A field and its value between a dash as "Key: value" ("Job — nurse"), and a field's
    owner after a dash in brackets ("DOB: 03/07/1985 — Esperanza Ruiz")."""
    keyed = _EN_KEY_DASH.match(text.strip())
    whose = _EN_NAME_COLON.match(keyed["value"]) if keyed is not None else None
    if keyed is not None and whose is not None:  # "Schedule — Abdul: night shift": Abdul's
        text = (f"{keyed['key']}: {whose['value']} ({whose['name']})"
                if _known_en_key(keyed["key"]) else
                f"{whose['name']}'s {keyed['key'].lower()} is {whose['value']}")
    elif keyed is not None and _known_en_key(keyed["key"]):
        text = f"{keyed['key']}: {keyed['value']}"
    if (dash := _EN_OWNER_DASH.match(text.strip())) is not None:
        text = f"{dash['field']} ({dash['name']})"
    return text


def _one_line(text: str) -> str | None:
    """A one-line note read whole (None: not such a note): a field then a sentence of whose
    it is, an only thing in a field's brackets, a full name before what they are."""
    if (said := _EN_FIELD_THEN_SAID.match(text.strip())) is not None:
        field = _english(f"{said['field']} ({said['name']})").rstrip(".")
        return f"{field}. {said['name']} {said['rest']}"
    if (only := _EN_ONLY_ONE.match(text.strip())) is not None:
        return f"{only['name']}'s only {only['thing']} is {only['value'].strip()}."
    if (first := _EN_NAME_FIRST.match(text.strip())) is not None and not _known_en_key(
            first["name"]):
        rest = first["rest"].strip()
        return f"{first['name']} {rest}" if _VERBISH.match(rest) else f"{first['name']} is {rest}"
    return None


#: "Abdul: night shift, 10pm to 6am" after a field and a dash: whose the value is
_EN_NAME_COLON = re.compile(r"^(?P<name>[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?):\s*(?P<value>[^:]+)$",
                            re.S)
#: "Job — primary school teacher": a field and its value between a dash
_EN_KEY_DASH = re.compile(r"^(?P<key>[A-Z][A-Za-z ]{1,30}?)\s+[—–]\s+(?P<value>.+)$", re.S)
#: "Religion: none — Fatima is an atheist" ("religion: none; Bridget never attends any
#: services"): the field, then whose it is in a sentence
_EN_FIELD_THEN_SAID = re.compile(r"^(?!\w+ (?:said|says|told|wrote|asked)\b)"
                                 r"(?P<field>[A-Za-z][A-Za-z &/-]{1,30}?:\s*[^—–;\"“”]+?)"
                                 r"(?:\s+[—–]|;)\s+"
                                 r"(?P<name>[A-Z][\w'’-]*) (?P<rest>(?:is|has|was|never|doesn['’]t|"
                                 r"does not|can['’]t)\b.+)$", re.S)


#: a form's heading with whose it is ("Intake form (Dara Whitfield) — Allergies: …",
#: "GP intake form, Thabo M.: current medication — none"): the name, then the fields
_FORM_HEADING = re.compile(
    r"^(?:[A-Z]{2,}\s+)?(?:[A-Za-z]+\s+){0,2}?(?:intake(?:\s+form)?|form|record|file)\s*"
    r"(?:\((?P<n1>[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)\)|,\s*(?P<n2>[A-Z][\w'’-]+)"
    r"(?:\s+(?P<more>[A-Z][\w'’-]+)|\s+[A-Z]\.)?(?=[:\s]))\s*[—–:]?\s*(?P<rest>\S.*)$", re.S | re.I)


def _form_heading(text: str) -> str:
    """A form's heading as the name its fields are of (:data:`_FORM_HEADING`; unchanged
    otherwise).

    >>> _form_heading("GP intake form, Thabo M.: current medication — none.")
    'Thabo — current medication: none.'
    """
    m = _FORM_HEADING.match(text)
    if m is None or not (name := m["n1"] or " ".join(filter(None, (m["n2"], m["more"])))):
        return text
    rest = m["rest"]
    if ":" not in rest:
        rest = re.sub(r"\s+[—–]\s+", ": ", rest, count=1)  # "current medication — none"
    return f"{name} — {rest}"


def _english(text: str) -> str:
    """An English note's fields as sentences about whose they are (the name after "Name:",
    before a dash, or the user's)."""
    text = _dashes(_form_heading(re.sub(r"^([A-Z][A-Za-z ]{1,30}?) \((?:the )?user\):",
                                        r"\1 (User):", text)))
    if (whole := _one_line(text)) is not None:
        return whole
    named = _named_note(text)
    if named is not None:
        return named
    name = None
    m = _EN_NAME.search(text)
    if m is not None:
        name = m["name"]
        text = (text[:m.start()] + text[m.end():]).strip()
    elif (dash := _EN_DASH.match(text)) is not None:
        rest = dash["rest"].strip()
        if ":" not in rest[:32]:  # "Hamid Karimi – turned 41 in March": a sentence
            if not rest[:1].islower() or not re.match(r"^[^–—]+\s[–—]\s[^–—]+$", text) or (
                    re.match(r"(?:who|which|that|a|an|the|and|but)\b", rest)):
                return text  # an aside between dashes, or a hyphen between words: prose
            if rest.startswith("born "):  # "Nadia Benali – born 21 October"
                return f"{dash['name']} was born on {rest[5:]}"
            verb = _VERBISH.match(rest) is not None
            return f"{dash['name']} {rest}" if verb else f"{dash['name']} has {rest}"
        name, text = dash["name"], rest
    if name is None:
        field = _EN_FIELD.match(text.strip())
        if field is None or not _known_en_key(field["key"]):
            return text
        name = "User"  # a field of no one named is the user's (a profile's own facts)
    parts = [p.strip() for p in _EN_SPLIT.split(text.strip()) if p.strip()]
    out = []
    for part in parts:
        field = _EN_FIELD.match(part)
        out.append(_en_field(name, field["key"], field["value"]) if field
                   else f"{name} {part.rstrip('.')}")
    return ". ".join(out) + "." if out else f"{name}."


# -- Chinese -----------------------------------------------------------------------------

_ZH_NAME = r"用户|[\u4e00-\u9fff]{2,3}"
#: 母语：粤语（黎嘉欣）: whose a note is, in brackets at its end
_ZH_OWNER_AFTER = re.compile(rf"^(?P<rest>.+?)[（(](?:姓名[：:]\s*)?(?P<name>{_ZH_NAME})[)）]"
                             r"\s*[。.]?$",
                             re.S)
#: a form's title with whose it is before its fields: 入院登记（李秀英）——过敏史：青霉素
_ZH_FORM = re.compile(rf"^[\u4e00-\u9fff]{{2,6}}[（(](?P<name>{_ZH_NAME})[)）](?:——|—|[：:]|\s)+"
                      r"(?P<rest>.+)$", re.S)
#: 姓名：刘畅
_ZH_NAME_FIELD = re.compile(r"(?:^|[；;，,。]\s*)(?:姓名|员工|客户|患者|病人)[：:]\s*"
                            r"(?P<name>用户|[\u4e00-\u9fff]{2,4})(?=[；;，,。\s]|$)")
#: 杨帆：职位 产品经理
_ZH_OWNER_FIRST = re.compile(rf"^(?P<name>{_ZH_NAME})[：:]\s*(?P<rest>.+)$", re.S)
_ZH_FIELD = re.compile(r"^(?P<key>[\u4e00-\u9fff]{2,5})(?:[：:]\s*|——|\s+)(?P<value>.+)$", re.S)
#: whose a field is, after a dash at its end (学历：高中毕业——龚立新), or in its brackets
#: with a word of where it comes from (身高：158cm（贺思远，入职体检）)
_ZH_OWNER_DASH = re.compile(rf"^(?P<rest>[^—]+?[：:][^—]+?)\s*(?:——|—)\s*(?P<name>{_ZH_NAME})"
                            r"\s*[。.]?$", re.S)
_ZH_OWNER_ASIDE = re.compile(rf"[（(](?P<name>{_ZH_NAME})[，,][^）)]{{1,20}}[)）](?=\s*[。.]?$)")
_ZH_NONE = re.compile(r"^(?:无|没有)(?:任何)?(?:$|[，,（(])")
_ZH_SENTENCES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(rf"^(?:{keys})$"), sentence) for keys, sentence in (
        (r"现居|居住地|住址|住处|城市|常住|现居地|所在城市", "{n}住在{v}"),
        (r"老家|籍贯|家乡", "{n}老家在{v}"),
        (r"母语", "{n}的母语是{v}"),
        (r"语言|会说", "{n}会说{v}"),
        (r"职位|职业|岗位|工作|身份", "{n}是{v}"),
        (r"单位|公司|雇主|工作单位", "{n}在{v}工作"),
        (r"领导|上级|上司|直属领导|直属上级|主管", "{n}的领导是{v}"),
        (r"生日|出生日期", "{n}的生日是{v}"),
        (r"年龄", "{n}今年{v}"),
        (r"属相|生肖", "{n}属{v}"),
        (r"学历|最高学历", "{n}的学历是{v}"),
        (r"手机", "{n}的手机是{v}"),
        (r"血型", "{n}的血型是{v}"),
        (r"过敏|过敏史|过敏源", "{n}对{v}过敏"),
        (r"宠物", "{n}养了{v}"),
        (r"孩子|子女", "{n}有{v}"),
        (r"对象|伴侣|配偶|老公|老婆|丈夫|妻子", "{n}的{k}是{v}"),
    ))
#: fields none of the sentences above name, which are no one's name either
_ZH_OTHER_KEYS = frozenset(("姓名", "兄弟姐妹", "宠物", "咖啡", "喝茶", "饮料", "车", "房子",
                            "负债", "债务", "贷款",
                            "住房", "专业", "学校", "出行偏好", "座位", "身高", "体重", "视力"))
#: fields whose value says itself what it is (饮食：严格素食者 → 曹阳严格素食者)
_ZH_AS_IS = frozenset(("饮食", "运动", "爱好", "通勤", "宗教", "信仰", "婚姻", "婚姻状况", "厨艺",
                       "常用软件", "作息", "烟酒", "吸烟", "饮酒", "健康", "驾照", "技能",
                       "上班方式", "办公方式", "工作方式", "忌口", "日程", "作息时间"))


def _zh_field(name: str, key: str, value: str) -> str:
    """One Chinese field as a sentence about ``name``."""
    value = value.strip().rstrip("。")
    if key == "语言" and re.search(r"(?:别的|其他|其它)外语都不会", value):
        langs = re.split(r"[，,]", value)[0]
        return f"{name}只会说{langs}"
    if key.startswith("过敏") and _ZH_NONE.match(value):
        return f"{name}没有任何过敏"
    if _ZH_NONE.match(value):  # 兄弟姐妹 无（独生子）, 宠物：无
        return f"{name}没有{key}"
    if key in ("宗教", "信仰") and not re.match(r"[无不没]", value):
        return f"{name}信{value}"  # 信仰：道教 → 秦川信道教
    if re.fullmatch(r"(?:不|没|从不|从没)[\u4e00-\u9fff]{1,2}", value):
        return f"{name}{value}{key}"  # 咖啡：不喝 → 用户不喝咖啡
    if key in ("属相", "生肖") and value.startswith("属"):
        return f"{name}{value}"
    if key in ("孩子", "子女"):  # 子女：一个儿子，十二岁: the son is twelve, not the parent
        value = re.sub(r"(儿子|女儿|孩子|闺女)[，,]\s*(?=[\d一二两三四五六七八九十]+岁)", r"\1，\1",
                       value)
    if key in _ZH_AS_IS:  # (饮食：纯素 → 白露吃纯素, as a diet is said)
        eats = re.match(r"纯素|全素|素食(?!者)|清真", value) is not None
        return f"{name}吃{value}" if eats else f"{name}{value}"
    value = re.sub(r"[（(][^）)]*[)）]", "", value).strip() or value  # 青霉素（严重）: 青霉素
    for pattern, sentence in _ZH_SENTENCES:
        if pattern.match(key):
            return sentence.format(n=name, v=value, k=key)
    return f"{name}的{key}是{value}"


def _known_key(word: str) -> bool:
    """Whether ``word`` names a field (母语, 现居 …) rather than a person."""
    return word in _ZH_AS_IS or word in _ZH_OTHER_KEYS or any(
        p.match(word) for p, _s in _ZH_SENTENCES)


#: 年龄：上官雯，28岁: a field, whose it is, its value (a number: 生日：杜宇航，1995年7月12日)
_ZH_FIELD_NAME_VALUE = re.compile(r"^(?P<key>[\u4e00-\u9fff]{2,5})[：:]\s*"
                                  r"(?P<name>用户|[\u4e00-\u9fff]{2,4})"
                                  r"[，,]\s*(?P<value>[^，,；;]+?)\s*[。.]?$")


def _chinese(text: str) -> str:
    """A Chinese note's fields as sentences about whose they are (the name in brackets
    after them, after 姓名：, before a colon, or 用户)."""
    if (m := _ZH_FIELD_NAME_VALUE.match(text)) is not None and _known_key(m["key"]) and not (
            re.search(r"[一二三四五六七八九十两几个的是在有无不没每会]", m["name"])
            or _known_key(m["name"]) or re.search(r"[（(]", text)
            or not re.search(r"\d|[一二三四五六七八九十]+(?:岁|年|月)", m["value"])):
        text = f"{m['key']}：{m['value']}（{m['name']}）"
    if (dash := _ZH_OWNER_DASH.match(text)) is not None:  # 学历：高中毕业——龚立新
        text = f"{dash['rest']}（{dash['name']}）"
    text = _ZH_OWNER_ASIDE.sub(r"（\g<name>）", text)  # 身高：158cm（贺思远，入职体检）
    form = _ZH_FORM.match(text)
    if form is not None and re.search(r"[：:]|——", form["rest"]):  # 体检表（魏东）——血型：O型
        text = f"{form['rest'].rstrip('。. ')}（{form['name']}）"
    name = None
    first = _ZH_OWNER_FIRST.match(text)
    if first is not None and _known_key(first["name"]):
        first = None  # 母语：粤语（黎嘉欣）: a field first, its owner after
    if first is None and (m := _ZH_OWNER_AFTER.match(text)) is not None and re.search(
            r"[：:]|——", m["rest"]):
        name, text = m["name"], m["rest"]
    elif (m := _ZH_NAME_FIELD.search(text)) is not None:
        name = m["name"]
        text = (text[:m.start()] + text[m.end():]).strip("；;，, ")
    elif first is None and (f := _ZH_FIELD.match(text)) is not None and _known_key(f["key"]) \
            and re.match(r"[\u4e00-\u9fff]{2,5}[：:]", text):
        name = "用户"  # a field of no one named is the user's (a profile's own facts)
    elif (m := first) is not None:
        if not _ZH_FIELD.match(m["rest"]):
            return f"{m['name']}{m['rest']}"  # 用户：每天上午两杯美式 → 用户每天上午两杯美式
        name, text = m["name"], m["rest"]
    if name is None or not re.search(r"[：:]|——|^[\u4e00-\u9fff]{2,5}\s", text):
        return text if name is None else f"{name}{text}"
    out = []
    for part in (p.strip() for p in re.split(r"[；;]", text) if p.strip()):
        field = _ZH_FIELD.match(part)
        out.append(_zh_field(name, field["key"], field["value"]) if field else f"{name}{part}")
    return "；".join(out) + "。"


#: fields in a row, between bullets or bars ("• Name: Priya Raman • City: Pune", "User |
#: blood type: O− | donor: yes", "HR record | Kenji Watanabe | Employer: Fujitsu", "· 居住地：成都")
_ROW = re.compile(r"\s*(?:^|\s)[•|·]\s*|\s*[•·｜]\s*")
_BARE_NAME = re.compile(r"^(?:User|[A-Z][A-Za-z'’-]*(?:\s+[A-Z][A-Za-z'’-]*){0,2}|用户|"
                        r"[\u4e00-\u9fff]{2,4})$")


def _row(text: str, *, zh: bool) -> str:
    """Fields written in a row as the note's fields one after another ("Name: X. Key:
    value." / 姓名：X；键：值), a bare name among them as the name (not a heading such as
    "HR record").

    >>> _row("• Name: Priya Raman • City: Pune • Children: none", zh=False)
    'Name: Priya Raman. City: Pune. Children: none.'
    >>> _row("HR record | Kenji Watanabe | Employer: Fujitsu | Status: active", zh=False)
    'Name: Kenji Watanabe. Employer: Fujitsu. Status: active.'
    >>> _row("· 居住地：成都 · 子女：无（刘畅）", zh=True)
    '居住地：成都；子女：无（刘畅）'
    >>> _row("· 爱好：钓鱼 · 已婚", zh=True)
    '爱好：钓鱼；已婚'
    """
    parts = [p.strip().rstrip(".;；。") for p in _ROW.split(text) if p.strip()]
    fields = [p[:1].upper() + p[1:] for p in parts if re.search(r"[:：]", p)]
    if len(parts) < 2 or not fields:
        return text
    named = any(re.match(r"(?:Name|Person|姓名|员工|客户|患者|病人)\s*[:：]", f) for f in fields)
    names = [p for p in parts if not named and not re.search(r"[:：]", p) and _BARE_NAME.match(p)
             and p.split()[0].lower() not in ("hr", "record", "ticket", "note", "profile")
             and not re.match(r"[已未离单在退男女无有不没]", p)]  # not 已婚, 退休, 男 …
    if zh:  # (a part that is no field says itself: 已婚)
        said = [p for p in parts if not re.search(r"[:：]", p) and p not in names[:1]
                and not re.search(r"(?:记录|备注|档案|表|信息|资料|工单)$|[A-Za-z]", p)]
        return "；".join(([f"姓名：{names[0]}"] if names else []) + fields + said)
    return ". ".join(([f"Name: {names[0]}"] if names else []) + fields) + "."


#: a record written as code: JSON ({"person": "Yusuf", "owns_car": false}), key=value pairs
#: (name=Amara; city=Leeds), a field with its owner in a comment (handedness: right  # Ola)
#: or in brackets after its key (schedule(Grace): nights)
_KEY_VALUE = guarded(re.compile(
    r"(?P<key>[A-Za-z][\w.]*)\s*=\s*['\"]?(?P<value>[^;'\"]+?)['\"]?\s*(?:;|$)"))
_OWNER_COMMENT = re.compile(r"^(?P<field>.+?)\s+#\s*(?P<name>User|[A-Z][\w'’-]*(?: [A-Z][\w'’-]*)?)"
                            r"\s*$")
_KEY_OWNER = re.compile(r"^(?P<key>[a-z][\w .]{1,30}?)\((?P<name>[A-Z][\w'’-]*)\):\s*")
_NAME_KEYS = ("name", "person", "user", "who", "patient", "client", "employee")
_TRAILING_OWNER = re.compile(r"\s*\((?P<name>User|[A-Z][\w'’-]*)\)\s*\.?$")


def _coded(text: str) -> str:
    """A record written as code, as "Key: value" fields with their owner (unchanged when it
    is not one).

    >>> _coded('{"person": "Yusuf", "owns_car": false, "drives": false}')
    'Yusuf does not own a car. Yusuf does not drive.'
    >>> _coded("name=Amara Okafor; occupation=nurse; city=Leeds")
    'Name: Amara Okafor. Occupation: nurse. City: Leeds.'
    >>> _coded("work.manager = 'Priyanka Rao'  # Jess")
    'Manager: Priyanka Rao (Jess)'
    """
    text = text.strip()
    fields: list[tuple[str, str]] = []
    if text.startswith("{") and text.endswith("}"):
        try:
            data = json.loads(text)
        except ValueError:
            return text
        if not isinstance(data, dict):
            return text
        fields = [(str(k), _said(str(k), v) if isinstance(v, bool) else str(v))
                  for k, v in data.items() if isinstance(v, str | bool | int | float)]
    elif (comment := _OWNER_COMMENT.match(text)) is not None:
        inner = _coded(comment["field"]).rstrip(".")
        return f"{inner[:1].upper()}{inner[1:]} ({comment['name']})"
    elif (owned := _KEY_OWNER.match(text)) is not None:
        return f"{owned['key'].split('.')[-1].capitalize()} ({owned['name']}): {text[owned.end():]}"
    elif (owner := _TRAILING_OWNER.search(text)) is not None and "=" in text:
        inner = _coded(text[:owner.start()]).rstrip(".")  # smoker=never (Björn)
        return f"{inner} ({owner['name']})" if inner != text[:owner.start()] else text
    elif "=" in text and len(pairs := _KEY_VALUE.findall(text)) >= 1 and (
            "".join(f"{k}={v}" for k, v in pairs).replace(" ", "")
            == re.sub(r"[\s;'\"]", "", text)):
        fields = [(k, v.strip()) for k, v in pairs]
    if not fields:
        return text
    if len(fields) == 1 and fields[0][0].lower() not in _NAME_KEYS:
        key, value = fields[0]
        return f"{key.split('.')[-1].replace('_', ' ').capitalize()}: {value}"
    name = next((v for k, v in fields if k.lower() in _NAME_KEYS), "User")
    said = [f"{name} {v}." for k, v in fields if k.lower() not in _NAME_KEYS
            and v.startswith(_SAID)]
    out = [f"Name: {v}" if k.lower() in _NAME_KEYS else
           f"{k.split('.')[-1].replace('_', ' ').capitalize()}: {v}" for k, v in fields
           if not v.startswith(_SAID) or k.lower() in _NAME_KEYS]
    if said and len(out) <= 1:
        return " ".join(said)  # nothing but what is said of them: sentences already
    return " ".join([". ".join(out) + ".", *said])


def _zh_coded(text: str) -> str:
    """A Chinese record written as JSON, as its fields (unchanged when it is not one).

    >>> _zh_coded('{"姓名": "陈晓梅", "生日": "10月5日"}')
    '姓名：陈晓梅；生日：10月5日'
    """
    try:
        data = json.loads(text)
    except ValueError:
        return text
    if not isinstance(data, dict) or not any(k in ("姓名", "名字") for k in data):
        return text
    return "；".join(f"{k}：{v}" for k, v in data.items() if isinstance(v, str | int | float)
                    and not isinstance(v, bool))


#: how a yes-or-no field of a coded record reads (:func:`_said`)
_SAID = ("does ", "is ")


def _said(key: str, value: bool) -> str:
    """A coded yes-or-no field as the predicate it says ("owns_car": False → "does not own a
    car", "smokes": True → "does smoke", "is_vegan": False → "is not vegan").

    >>> _said("owns_car", False), _said("smokes", True), _said("is_vegan", False)
    ('does not own a car', 'does smoke', 'is not vegan')
    """
    words = key.lower().replace("-", "_").split("_")
    verb, rest = words[0], " ".join(words[1:])
    if verb == "is":
        return f"is {'' if value else 'not '}{rest}".strip()
    base = "have" if verb == "has" else verb[:-1] if verb.endswith("s") else verb
    thing = f" a {rest}" if rest and not rest.endswith("s") else f" {rest}" if rest else ""
    return f"does {'' if value else 'not '}{base}{thing}"


def as_sentences(text: str, *, zh: bool) -> str:
    """``text`` with a profile's fields written as sentences (unchanged when it has none).

    >>> as_sentences("Name: Priya Raman. Lives in: Pune.", zh=False)
    'Priya Raman lives in Pune.'
    >>> as_sentences("Allergies: none known. Name: Jun-ho Park.", zh=False)
    'Jun-ho Park has no allergies.'
    >>> as_sentences("母语：粤语（黎嘉欣）", zh=True)
    '黎嘉欣的母语是粤语。'
    >>> as_sentences("Priya lives in Pune.", zh=False)
    'Priya lives in Pune.'
    """
    if not zh and ("=" in text or "#" in text or text.lstrip().startswith("{")
                   or _KEY_OWNER.match(text)):
        text = _coded(text)
    elif zh and text.lstrip().startswith("{"):
        text = _zh_coded(text)
    if ":" not in text and "：" not in text and "–" not in text and "—" not in text:
        return text
    if "•" in text or "·" in text or "|" in text or "｜" in text:
        text = _row(text, zh=zh)
    return _chinese(text) if zh else _english(text)
