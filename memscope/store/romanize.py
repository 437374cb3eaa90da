"""Latin names in a Chinese question, by sound (for :mod:`memscope.store.search`).

A question asked in Chinese writes a person's or a project's name in Chinese characters
(玛雅, 杰丝, 萨姆) while the memories say "Maya", "Jess", "Sam": BM25 cannot match the two.
Here the question's runs of Chinese characters are read aloud (pinyin, by pypinyin: its
data ships in its wheel, nothing is fetched) and compared with the names the store's
texts hold, their capitalised words (:class:`Names`; gathered once per store and kept in
step with its data version by reading only the rows added since, :func:`store_names`),
by a tolerant comparison of sounds (:func:`distance`): the consonants must agree by class
(b/p, d/t, g/k, r/l, v/w, j/zh/ch, s/sh/x/z …), the vowels only roughly, and a vowel that
Chinese adds after a consonant (萨姆 sa-mu for "Sam", 杰丝 jie-si for "Jess") costs nothing.

Ordinary words must never become a name. So only characters that Chinese uses to write
foreign names' sounds (:data:`SOUND_CHARS`) are read that way (城市, 数据库, 什么 have
other ones), only whole words of the question as jieba splits it, and never a word its
dictionary holds as an ordinary one made of such characters (比赛 "Pisa", 东方): 玛雅 and
安娜 are names there, 萨姆 and 莉娜 are not words at all.

>>> names = Names.of(["Maya is allergic to peanuts.", "Maya's partner Sam eats fish.",
...                   "Jess lives in Lisbon.", "Priya reports to Fatima Haddad."]).index()
>>> [m.name for m in match("玛雅对什么过敏？", names)]
['Maya']
>>> [m.name for m in match("杰丝和萨姆住在哪个城市？", names)]
['Jess', 'Sam']
>>> match("数据库在哪个城市？", names)
[]
"""

from __future__ import annotations

import functools
import logging
import re
import sqlite3
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from memscope.meaning.chinese import segmenter
from memscope.records.words import STOP_WORDS
from memscope.store.held import PerStore

log = logging.getLogger("memscope")

#: The characters Chinese writes foreign names' sounds with: those of Xinhua's tables for
#: transliterating English (and other European) names, and the ones usual in women's
#: names (娜, 莉, 莎, 娅 …). Ordinary words are mostly made of other characters.
SOUND_CHARS = frozenset(c for c in """
阿埃艾爱安昂奥欧乌尤厄恩因英翁温伍伊耶亚雅约扬延永
巴贝比波布班本宾邦博鲍拜彼伯柏芭蓓
帕佩皮普潘彭平庞派珀
达德迪多杜丹登丁东戴道蒂黛
塔特托图坦滕廷汀汤通泰陶提
加盖吉戈古甘根金冈贡格圭
卡凯基科库坎肯康孔克奎夸柯可保
法费菲福富凡芬丰方弗夫
瓦韦维沃武万文旺威薇
萨塞西索苏桑森辛松斯赛瑟撒
扎泽齐佐祖赞曾津藏宗兹茨
沙谢希肖舒尚申欣香雄什舍施夏休修许
查切奇乔丘钱琴昌琼契
贾杰朱简珍姜詹洁
哈赫霍胡汉亨杭洪海豪惠华
拉莱利洛卢兰伦林朗隆勒尔里莉丽罗鲁雷瑞露琳璐黎
马梅米莫穆曼门明芒蒙姆迈毛默玛蔓
纳内尼诺努南嫩宁农奈瑙纽娜妮
娅娃茜蕾萝琪珊婷娣丝莎
""" if not c.isspace())
#: a name is read from this many characters of a run, at least and at most
MIN_CHARS, MAX_CHARS = 2, 5
#: the most a name's sounds may differ from the characters' (:func:`distance`)
MAX_DISTANCE = 0.5
#: names shorter than this (letters) are never matched by sound
MIN_LETTERS = 3

_HAN_RUN = re.compile("[\u3400-\u9fff\uf900-\ufaff]+")
_VOWELS = frozenset("aeiou")

#: one sound: a consonant class (one letter) or a run of vowels, and whether it is weak —
#: a vowel Chinese adds after a consonant (free to drop), or a consonant that is easily
#: not heard (y, w, h, a final r: cheap to drop)
Unit = tuple[str, bool]

# -- sounds -----------------------------------------------------------------------------

_INITIALS = ("zh", "ch", "sh", "b", "p", "m", "f", "d", "t", "n", "l", "g", "k", "h", "j",
             "q", "x", "r", "z", "c", "s", "y", "w")
_CLASS = {"b": "p", "d": "t", "g": "k", "q": "j", "zh": "j", "ch": "j", "x": "s", "sh": "s",
          "c": "s", "z": "s", "r": "l", "v": "w"}
#: the vowel Chinese adds after these initials, to write a consonant alone (斯 si for "s",
#: 特 te for "t", 姆 mu for "m")
_ADDED = {"i": {"z", "c", "s", "zh", "ch", "sh", "r"},
          "e": {"k", "t", "d", "g", "l", "s", "h", "z"},
          "u": {"p", "b", "f", "m", "t", "d", "k", "g"}}
_PINYIN_FINALS = (("iong", "ion"), ("ong", "on"), ("ng", "n"), ("uo", "o"), ("ie", "e"),
                  ("ou", "o"), ("ao", "o"), ("ei", "e"), ("v", "u"), ("ü", "u"))


def _syllable_units(syllable: str) -> list[Unit]:
    """The sounds of one pinyin syllable (no tone), e.g. ``jie`` → j, e."""
    if syllable == "er":  # 尔: a final r or l
        return [("l", True)]
    initial = next((i for i in _INITIALS if syllable.startswith(i) and len(syllable) > len(i)),
                   "")
    final = syllable[len(initial):]
    if (initial, final[:1]) in (("y", "i"), ("y", "u")) or (initial, final) == ("w", "u"):
        initial = ""  # yi, yin, ying, yu, wu: the vowel alone
    for old, new in _PINYIN_FINALS:
        final = final.replace(old, new)
    units: list[Unit] = []
    if initial:
        units.append((_CLASS.get(initial, initial), initial in ("y", "w", "h")))
    vowels = final.rstrip("n")
    if vowels:
        units.append((vowels, initial in _ADDED.get(vowels, ())))
    if final.endswith("n"):
        units.append(("n", False))
    return units


def pinyin_units(syllables: Iterable[str]) -> tuple[Unit, ...]:
    """The sounds of pinyin syllables (no tones), a consonant written twice (安娜 an-na)
    once.

    >>> pinyin_units(["sa", "mu"])
    (('s', False), ('a', False), ('m', False), ('u', True))
    """
    units: list[Unit] = []
    for syllable in syllables:
        for unit in _syllable_units(syllable):
            _append(units, unit)
    return tuple(units)


def _append(units: list[Unit], unit: Unit) -> None:
    """Add a sound; a consonant of the class just before merges with it (weak only when
    both are)."""
    if units and not _is_vowel(unit) and units[-1][0] == unit[0]:
        units[-1] = (unit[0], units[-1][1] and unit[1])
    else:
        units.append(unit)


_LATIN_RULES = (("ph", "f"), ("th", "t"), ("sh", "s"), ("tch", "j"), ("ch", "j"), ("ck", "k"),
                ("qu", "kw"), ("x", "ks"), ("wh", "w"), ("gh", ""), ("dg", "j"))
#: vowel spellings and the pinyin vowel they sound as (a y before a vowel is a consonant)
_LATIN_VOWELS = (("ee", "i"), ("ea", "i"), ("oo", "u"), ("ou", "u"), ("au", "o"),
                 ("ay(?![aeiou])", "e"), ("ey(?![aeiou])", "e"), ("ie$", "i"))


def latin_units(name: str) -> tuple[Unit, ...]:
    """The sounds of a Latin name, spelled roughly as pinyin would write them.

    >>> latin_units("Jess")
    (('j', False), ('e', False), ('s', False))
    >>> latin_units("Rosa")
    (('l', False), ('o', False), ('s', False), ('a', False))
    """
    s = "".join(c for c in unicodedata.normalize("NFKD", name.casefold()) if "a" <= c <= "z")
    for old, new in _LATIN_RULES:
        s = s.replace(old, new)
    s = re.sub("c(?=[eiy])", "s", s).replace("c", "k").replace("q", "k")
    s = re.sub("ng(?![aeiouy])", "n", s)
    s = re.sub("(?<=[aeiou])h(?![aeiou])", "", s)  # Sarah, Noah
    if re.search("[aeiouy].*[^aeiouy]e$", s):
        s = s[:-1]  # a silent final e: Jane, Rose
    for old, new in _LATIN_VOWELS:
        s = re.sub(old, new, s)
    s = re.sub("y(?![aeiou])", "i", re.sub("w(?![aeiou])", "u", s))  # vowels here
    units: list[Unit] = []
    for m in re.finditer("ai|ei|oi|.", s):  # other vowels in a row are apart: Le-o, Mi-a
        c = m.group()
        if c[0] in _VOWELS:
            units.append((c, False))
            continue
        weak = c in ("y", "w", "h") or (c == "r" and s[m.end():m.end() + 1] not in _VOWELS)
        _append(units, (_CLASS.get(c, c), weak))
    return tuple(units)


def _is_vowel(unit: Unit) -> bool:
    return unit[0][0] in _VOWELS


def _main_vowel(run: str) -> str:
    """The vowel heard most in a run (ia → a, uo → o, ai → a)."""
    return run[1] if len(run) > 1 and run[0] in "iu" else run[0]


def _vowel_cost(a: str, b: str) -> float:
    if a == b:
        return 0.0
    pair = {_main_vowel(a), _main_vowel(b)}
    if len(pair) == 1:
        return 0.1
    if pair in ({"e", "i"}, {"o", "u"}) or {a, b} == {"ai", "e"} or a in b or b in a:
        return 0.25
    return 0.5 if pair == {"a", "e"} else 1.0


def _drop_cost(unit: Unit) -> float:
    if _is_vowel(unit):
        return 0.0 if unit[1] else 0.5
    return 0.25 if unit[1] or unit[0] in ("y", "w", "h") else 1.0


def distance(chinese: tuple[Unit, ...], latin: tuple[Unit, ...]) -> float:
    """How far two spellings' sounds are apart: dropping a vowel Chinese added costs
    nothing, another vowel 0.5, a weak consonant 0.25 and any other consonant 1; unlike
    vowels 0.1 to 1 and unlike consonants 1. (Edit distance over the sounds.)

    >>> distance(pinyin_units(["jie", "si"]), latin_units("Jess"))
    0.0
    >>> distance(pinyin_units(["li", "na"]), latin_units("Lena"))
    0.25
    >>> distance(pinyin_units(["shu", "ma"]), latin_units("Sam"))
    1.5
    """
    row = [0.0]
    for b in latin:
        row.append(row[-1] + _drop_cost(b))
    for a in chinese:
        prev, row = row, [row[0] + _drop_cost(a)]
        for j, b in enumerate(latin, start=1):
            if _is_vowel(a) and _is_vowel(b):
                swap = _vowel_cost(a[0], b[0])
            else:
                swap = 0.0 if a[0] == b[0] else 1.0
            row.append(min(prev[j - 1] + swap, prev[j] + _drop_cost(a),
                           row[j - 1] + _drop_cost(b)))
    return row[-1]


def _skeleton(units: tuple[Unit, ...]) -> str:
    """The consonants that cannot be dropped cheaply, but l (r, l and 尔 er, which may be
    weak on one side only): two spellings within :data:`MAX_DISTANCE` of each other have
    the same."""
    return "".join(u[0] for u in units
                   if not _is_vowel(u) and u[0] != "l" and _drop_cost(u) >= 1.0)


# -- the store's names -----------------------------------------------------------------

#: a capitalised word (with a possessive or an O'…), a word in lower case
_CAPITALISED = re.compile(r"\b[A-Z][^\W\d_]*(?:['’][^\W\d_]+)*")
_LOWER = re.compile(r"\b[a-z]+\b")
_OPENS = frozenset(".!?:;\n")


@dataclass(frozen=True)
class NameIndex:
    """Names ready to be matched: by consonant skeleton (:func:`_skeleton`), the names and
    their sounds."""

    by_sound: dict[str, list[tuple[str, tuple[Unit, ...]]]]


@dataclass(eq=False)
class Names:
    """The names of a store's texts: its capitalised Latin words (a possessive "'s"
    dropped) written so inside sentences more often than in lower case ("Maya", not the
    "Need" of a title), or only opening sentences and never in lower case; not a common
    word (:data:`~memscope.records.words.STOP_WORDS`) nor an acronym ("CSV")."""

    #: capitalised words inside sentences → how often
    inside: Counter[str] = field(default_factory=Counter)
    #: capitalised words opening sentences → how often
    opening: Counter[str] = field(default_factory=Counter)
    #: words in lower case → how often
    lower: Counter[str] = field(default_factory=Counter)
    _index: NameIndex | None = None

    @classmethod
    def of(cls, texts: Iterable[str | None]) -> Names:
        """The names of ``texts``."""
        names = cls()
        names.add(texts)
        return names

    def add(self, texts: Iterable[str | None]) -> None:
        """Take in more texts."""
        for text in texts:
            if not text:
                continue
            self.lower.update(_LOWER.findall(text))
            for m in _CAPITALISED.finditer(text):
                word = m.group()
                if not word.isascii():
                    continue
                if word[-2:] in ("'s", "’s"):
                    word = word[:-2]
                before = text[max(0, m.start() - 4):m.start()].rstrip()
                opens = m.start() == 0 or (before != "" and before[-1] in _OPENS)
                (self.opening if opens else self.inside)[word] += 1
        self._index = None

    def names(self) -> set[str]:
        """The words taken for names."""
        return {w for w in self.inside.keys() | self.opening.keys()
                if len(w) > 1 and not w.isupper() and w.casefold() not in STOP_WORDS
                and (self.inside[w] > self.lower[w.casefold()]
                     or (not self.inside[w] and not self.lower[w.casefold()]))}

    def index(self) -> NameIndex:
        """The names ready to be matched (built again after :meth:`add`)."""
        if self._index is None:
            by_sound: dict[str, list[tuple[str, tuple[Unit, ...]]]] = {}
            kept = self.names()
            for name in sorted(kept):
                if len(name) >= MIN_LETTERS:
                    units = latin_units(name)
                    by_sound.setdefault(_skeleton(units), []).append((name, units))
            self._index = NameIndex(by_sound)
        return self._index


# -- matching ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """A name read in a question: the characters, where they start, the Latin name
    and how far their sounds are apart (:func:`distance`)."""

    chars: str
    start: int
    name: str
    cost: float


@functools.cache
def _pinyin() -> Callable[[str], list[str]] | None:
    """pypinyin's reading of a run of characters, loaded once (None without pypinyin)."""
    try:
        from pypinyin import Style, lazy_pinyin
    except ImportError:  # pragma: no cover - pypinyin is a dependency
        log.warning("pypinyin is not installed: Chinese names are not matched to Latin ones.")
        return None
    return functools.partial(lazy_pinyin, style=Style.NORMAL, strict=False)


@functools.lru_cache(maxsize=4096)
def _read(run: str) -> tuple[str, ...]:
    """The pinyin syllables of a run of characters, one per character ("" when unknown)."""
    reader = _pinyin()
    syllables = reader(run) if reader is not None else []
    if len(syllables) != len(run):
        return ("",) * len(run)
    return tuple(s if s.isascii() and s.isalpha() else "" for s in syllables)


#: jieba's tags of people's and places' names
_NAME_TAGS = frozenset({"nr", "nrt", "nrfg", "ns"})
#: a word of jieba's dictionary counted fewer times is too rare to be taken for an
#: ordinary word (露西 "Lucy", 14, is tagged a noun)
ORDINARY_FREQ = 20


@functools.cache
def _ordinary() -> frozenset[str]:
    """The words of jieba's dictionary made only of :data:`SOUND_CHARS` that it does not
    tag as a person's or a place's name and counts at least :data:`ORDINARY_FREQ` times
    (比赛, 东方, 根本: about 340), read once from the dictionary in its package (about
    50 ms)."""
    try:
        with segmenter().get_dict_file() as f:
            raw = f.read()
    except ImportError:  # pragma: no cover - jieba is a dependency
        return frozenset()
    text = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
    chars = "".join(sorted(SOUND_CHARS))
    entry = re.compile(f"^([{chars}]{{{MIN_CHARS},{MAX_CHARS}}}) (\\d+) (\\w+)$", re.M)
    return frozenset(w for w, freq, tag in entry.findall(text)
                     if tag not in _NAME_TAGS and int(freq) >= ORDINARY_FREQ)


@functools.lru_cache(maxsize=4096)
def _words(run: str) -> tuple[str, ...]:
    """A run of characters as jieba's dictionary words (one character each without
    jieba), as :func:`memscope.store.search.segment` splits a question."""
    try:
        return tuple(w for w in segmenter().cut(run, HMM=False) if w)
    except ImportError:  # pragma: no cover - jieba is a dependency
        return tuple(run)


def _candidates(run: str, offset: int, index: NameIndex) -> list[Match]:
    """Every reading of a name in a run of characters (at ``offset`` in the question): a
    few of its words in a row (never part of a word), no ordinary word (:func:`_ordinary`)
    among them, made of :data:`SOUND_CHARS` only, read by sound."""
    syllables, words, ordinary = _read(run), _words(run), _ordinary()
    found: list[Match] = []
    start = 0
    for first, word in enumerate(words):
        end = start
        for part in words[first:]:
            if len(part) > 1 and part in ordinary:
                break
            end += len(part)
            if end - start > MAX_CHARS:
                break
            if end - start < MIN_CHARS:
                continue
            chars, said = run[start:end], syllables[start:end]
            if "" in said:
                continue
            if not all(c in SOUND_CHARS for c in chars):
                continue
            units = pinyin_units(said)
            best: tuple[float, str] | None = None
            for candidate, latin in index.by_sound.get(_skeleton(units), ()):
                cost = distance(units, latin)
                if cost <= MAX_DISTANCE and (best is None or cost < best[0]):
                    best = (cost, candidate)
            if best is not None:
                found.append(Match(chars, offset + start, best[1], best[0]))
        start += len(word)
    return found


def match(question: str, index: NameIndex) -> list[Match]:
    """The names read in ``question``'s runs of Chinese characters, in order; where two
    readings overlap, the longer (then the closer) one: 埃琳娜 is "Elena", not "Lena".

    >>> index = Names.of(["Lena and Elena met in Pisa."]).index()
    >>> [(m.chars, m.name) for m in match("莉娜和埃琳娜在看比赛", index)]
    [('莉娜', 'Lena'), ('埃琳娜', 'Elena')]
    """
    found: list[Match] = []
    for run in _HAN_RUN.finditer(question):
        if len(run.group()) >= MIN_CHARS:
            found += _candidates(run.group(), run.start(), index)
    kept: list[Match] = []
    taken: set[int] = set()
    for m in sorted(found, key=lambda m: (-len(m.chars), m.cost, m.start)):
        span = set(range(m.start, m.start + len(m.chars)))
        if not span & taken:
            kept.append(m)
            taken |= span
    return sorted(kept, key=lambda m: m.start)


def written(question: str, found: Iterable[Match], *, keep: Iterable[Match] = ()) -> str:
    """``question`` with each name of ``found`` written in Latin instead of its characters
    (after them for those in ``keep``), set apart by spaces.

    >>> found = [Match("玛雅", 0, "Maya", 0.0)]
    >>> written("玛雅对什么过敏？", found), written("玛雅对什么过敏？", found, keep=found)
    (' Maya 对什么过敏？', '玛雅 Maya 对什么过敏？')
    """
    kept = set(keep)
    out, at = [], 0
    for m in sorted(found, key=lambda m: m.start):
        out += [question[at:m.start], m.chars if m in kept else "", f" {m.name} "]
        at = m.start + len(m.chars)
    return "".join(out) + question[at:]


# -- per store --------------------------------------------------------------------------


@dataclass(eq=False)
class _Held:
    """One store's :class:`Names` and how far they have read its tables."""

    names: Names = field(default_factory=Names)
    version: str = ""
    memory_rowid: int = 0
    #: how many memories, and the id of the one at :attr:`memory_rowid`, when last read
    memory_count: int = 0
    memory_last: str | None = None
    document_rowid: int = 0
    document_updated: str = ""
    #: whether the store's documents say when they changed
    dated: bool | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def sync(self, conn: sqlite3.Connection, version: str) -> None:
        """Read the memories added and the documents added or changed since the last data
        version seen; all the memories again after some were removed. (A document removed
        may leave a name no text holds any more, which only costs a word BM25 finds
        nowhere.) The caller holds :attr:`lock`."""
        if version == self.version:
            return
        count, last = conn.execute(
            "SELECT COUNT(*), (SELECT id FROM memories WHERE rowid = ?) FROM memories",
            (self.memory_rowid,)).fetchone()
        rows = conn.execute("SELECT rowid, id, memory FROM memories WHERE rowid > ? "
                            "ORDER BY rowid", (self.memory_rowid,)).fetchall()
        if count != self.memory_count + len(rows) or last != self.memory_last:
            # memories were removed (or a removed one's rowid was given again): all anew
            self.names, self.memory_count, self.memory_rowid = Names(), 0, 0
            self.memory_last, self.document_rowid, self.document_updated = None, 0, ""
            rows = conn.execute("SELECT rowid, id, memory FROM memories ORDER BY rowid"
                                ).fetchall()
        self.names.add(r[2] for r in rows)
        self.memory_count += len(rows)
        if rows:
            self.memory_rowid, self.memory_last = int(rows[-1][0]), str(rows[-1][1])
        if self.dated is None:
            self.dated = any(r[1] == "updated_at"
                             for r in conn.execute("PRAGMA table_info(documents)"))
        if self.dated:
            docs = conn.execute(
                "SELECT rowid, title, summary, updated_at FROM documents WHERE rowid > ? "
                "OR updated_at > ?", (self.document_rowid, self.document_updated)).fetchall()
        else:  # a loaded file's copy (memscope.sources.file_ask) has no dates
            docs = conn.execute("SELECT rowid, title, summary, '' FROM documents "
                                "WHERE rowid > ?", (self.document_rowid,)).fetchall()
        self.names.add(t for r in docs for t in (r[1], r[2]))
        self.document_rowid = max([self.document_rowid, *(int(r[0]) for r in docs)])
        self.document_updated = max([self.document_updated, *(str(r[3] or "") for r in docs)])
        self.version = version


#: stores whose names the process keeps (those used last)
_HOLD = 8
_held: PerStore[_Held] = PerStore(_Held, hold=_HOLD)


def store_names(conn: sqlite3.Connection) -> NameIndex:
    """The names of ``conn``'s store at its data version (the process holds the
    :data:`_HOLD` most recently used stores')."""
    held, version = _held.get(conn)
    with held.lock:
        held.sync(conn, version)
        return held.names.index()


def latin_names(conn: sqlite3.Connection, question: str) -> list[Match]:
    """The store's names read in ``question`` (none when it holds no Chinese)."""
    if not _HAN_RUN.search(question):
        return []
    return match(question, store_names(conn))


__all__ = ["SOUND_CHARS", "Match", "NameIndex", "Names", "distance", "latin_names",
           "latin_units", "match", "pinyin_units", "store_names", "written"]
