"""Names asked in Chinese characters, memories written in Latin (memscope/store/romanize.py):
a question's 玛雅, 杰丝 or 萨姆 is read by its pinyin and matched by sound to the store's
"Maya", "Jess", "Sam", so Ask's words half can look for the name and its meaning half can
read the question with it; ordinary Chinese words must never be read as a name. The
sentences here are this file's own, not the labelled sets'."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from ask_support import reading, settled
from network_guard import run_without_network

from memscope.meaning import translate
from memscope.meaning.chinese import segmenter
from memscope.store import romanize
from memscope.store import search as store_search
from memscope.store.romanize import Match, Names, match, written
from memscope.store.store import Store

#: people, projects and places as an English store names them
PEOPLE = ("Maya", "Jess", "Sam", "Ana", "Priya", "Lena", "Elena", "Rosa", "Ravi", "Fatima",
          "Haddad", "Omar", "Noah", "Leo", "Marcus", "Jonas", "Grace", "Mary", "Tom", "Kim",
          "Lee", "Diego", "Aiko", "Tanaka", "Okafor", "Petrova", "Whitaker", "Brooks",
          "Wayne", "Nina", "Tina", "Lucas", "Oscar", "Monica", "Susan", "Linda", "Henry",
          "Carla", "Sarah", "Emma", "Hannah", "Kate", "Eric", "Ian", "Eva", "Milan",
          "Atlas", "Beacon", "Nimbus", "Gyro", "Ember", "Lumen", "Cobalt", "Harbor", "Helix",
          "Lisbon", "Porto", "Berlin", "Toronto", "Austin", "Kyoto", "Pisa", "Asana", "Figma")


def index_of(*names: str) -> romanize.NameIndex:
    return Names.of([f"We met {name} today." for name in names]).index()


def read_names(question: str, *names: str) -> list[tuple[str, str]]:
    return [(m.chars, m.name) for m in match(question, index_of(*(names or PEOPLE)))]


# -- reading names ----------------------------------------------------------------------


@pytest.mark.parametrize(("question", "chars", "name"), [
    ("玛雅对什么过敏？", "玛雅", "Maya"),           # ma-ya: the same sounds
    ("杰丝现在住在哪个城市？", "杰丝", "Jess"),      # jie-si: Chinese adds the final i
    ("杰斯每天喝什么？", "杰斯", "Jess"),
    ("萨姆平时吃什么？", "萨姆", "Sam"),            # sa-mu: and the final u
    ("安娜在为什么攒钱？", "安娜", "Ana"),          # an-na: one n
    ("普丽娅的直属领导是谁？", "普丽娅", "Priya"),  # pu-li-ya: pr, r as l
    ("莉娜什么时候值班？", "莉娜", "Lena"),         # li for le
    ("罗莎用什么编辑器？", "罗莎", "Rosa"),         # luo-sha
    ("拉维住在哪里？", "拉维", "Ravi"),             # v as w
    ("法蒂玛是谁的领导？", "法蒂玛", "Fatima"),
    ("阿特拉斯用什么数据库？", "阿特拉斯", "Atlas"),
    ("诺亚和利奥是朋友吗？", "诺亚", "Noah"),
])
def test_a_name_in_chinese_characters_is_read_as_the_stores_latin_one(question, chars, name):
    assert (chars, name) in read_names(question)


def test_the_closest_name_of_several_alike_is_taken():
    """莉娜 is "Lena" and 埃琳娜 "Elena" (the longer reading wins where they overlap)."""
    assert read_names("莉娜和埃琳娜是姐妹吗？") == [("莉娜", "Lena"), ("埃琳娜", "Elena")]


def test_only_names_the_store_holds_are_read():
    assert read_names("玛雅对什么过敏？", "Jess", "Sam") == []
    assert read_names("杰丝和萨姆住在哪？", "Jess", "Sam") == [("杰丝", "Jess"), ("萨姆", "Sam")]


@pytest.mark.parametrize("question", [
    "城市里有什么？", "这个数据库是什么？", "什么时候开始比赛？", "东方和西方有什么不同？",
    "根本没有时间", "我们明天去森林散步", "他们在加班吗？", "这本书的内容很丰富",
    "请维修一下门口的灯", "可可和咖啡哪个好喝？", "万里长城有多长？", "我们多多联系",
    "安排一下下周的会议", "他比我高多少？", "你可以帮我吗？", "文本在哪个文件夹？",
])
def test_ordinary_words_are_never_read_as_a_name(question):
    assert read_names(question) == []


def test_no_common_word_of_the_dictionary_is_read_as_a_name():
    """Every word of two characters or more that jieba's dictionary counts 500 times or
    more and does not tag as a name (about 8,400), twice in a row with 在 between, against
    the names above: none is read as one."""
    with segmenter().get_dict_file() as f:
        text = f.read().decode("utf-8")
    common = [w for w, freq, tag in re.findall(r"^(\S+) (\d+) (\w+)$", text, re.M)
              if int(freq) >= 500 and tag not in ("nr", "nrt", "nrfg", "ns", "nz", "eng")
              and len(w) >= 2]
    assert len(common) > 8_000
    index = index_of(*PEOPLE)
    read = {(w, m.name) for w in common for m in match(f"{w}在{w}", index)}
    assert read == set()


def test_the_stores_names_are_its_capitalised_words_not_its_sentence_openings():
    names = Names.of([
        "The team meets on Mondays. Maya's sister Ana lives in Austin.",
        "Data is kept for a year; the data team owns it.",
        "Need a CSV export from Nimbus?", "We need it soon.",
    ]).names()
    assert {"Maya", "Ana", "Austin", "Nimbus", "Mondays"} <= names
    # "The" and "We": common words; "Data" and "Need" open sentences and are written in
    # lower case too; "CSV" is an acronym
    assert not names & {"The", "We", "Data", "Need", "CSV"}


def test_a_question_is_written_with_the_latin_names():
    found = [Match("玛雅", 0, "Maya", 0.0), Match("萨姆", 3, "Sam", 0.0)]
    assert written("玛雅和萨姆吃什么？", found) == " Maya 和 Sam 吃什么？"
    assert store_search.key_words(written("玛雅对什么过敏？", found[:1])) == ["maya", "过敏"]


def test_reading_names_opens_no_socket() -> None:
    """pypinyin's readings and jieba's dictionary ship in their packages: reading a name
    loads both and fetches nothing."""
    body = ("from memscope.store.romanize import Names, match\n"
            "index = Names.of(['Maya is allergic to peanuts.']).index()\n"
            "print('NAMES', [m.name for m in match('玛雅对什么过敏？', index)])")
    out = run_without_network(body)
    assert "NAMES ['Maya']" in out
    assert "SOCKETS 0" in out


# -- Ask --------------------------------------------------------------------------------

FACTS = {
    "maya_peanuts": "Maya is allergic to peanuts.",
    "sam_shellfish": "Maya's partner Sam is allergic to shellfish.",
    "jess_sesame": "Maya's friend Jess is allergic to sesame.",
    "jess_berlin": "Jess lives in Berlin.",
    "maya_lisbon": "Maya lives in Lisbon.",
    "sam_fish": "Sam is pescatarian.",
    "priya_boss": "Priya reports to Fatima Haddad.",
    "lena_gyro": "Lena is on call for Gyro on Sundays.",
    "rosa_editor": "Rosa uses Neovim as her main code editor.",
    "ana_run": "Ana runs ten kilometres every Sunday.",
    "atlas_db": "Atlas uses Postgres as its primary database.",
}


def make_store(folder: Path, facts: dict[str, str] = FACTS) -> Store:
    store = Store.create(folder / "names.db")
    store.load_records([{"id": f"doc_{key}", "containerTags": ["people"],
                         "memoryEntries": [{"id": key, "memory": text}]}
                        for key, text in facts.items()])
    return store


def memory_hits(store: Store, question: str) -> list[str]:
    return [h["text"] for h in store.search(question)["hits"] if h["kind"] == "memory"]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return make_store(tmp_path)


@pytest.mark.parametrize(("question", "name"), [
    ("玛雅对什么过敏？", "Maya"), ("杰丝住在哪个城市？", "Jess"), ("萨姆吃什么？", "Sam"),
    ("普丽娅向谁汇报？", "Priya"), ("莉娜什么时候值班？", "Lena"),
    ("罗莎用什么编辑器？", "Rosa"), ("安娜每周跑多远？", "Ana"),
])
def test_ask_ranks_the_named_persons_memories_first(store, monkeypatch, question, name):
    """With the quicker meaning model (as the tests run) these Chinese questions share no
    word with any memory: without the reading Ask finds nothing of the person's."""
    texts = memory_hits(store, question)
    assert texts and texts[0].startswith(f"{name} "), texts
    monkeypatch.setattr(romanize, "latin_names", lambda conn, question: [])
    monkeypatch.setattr(translate, "english", lambda word: ())  # the dictionary has 玛雅
    assert not any(t.startswith(f"{name} ") for t in memory_hits(store, question)[:1])


def test_the_person_asked_about_ranks_above_the_one_only_named_as_theirs(store):
    """"Maya's partner Sam is allergic to shellfish" is about Sam: for 玛雅, Maya's own
    memories come first (the words half's subject share)."""
    texts = memory_hits(store, "玛雅对什么过敏？")
    assert texts.index("Maya is allergic to peanuts.") < texts.index(FACTS["sam_shellfish"])


def test_a_chinese_question_without_a_name_is_unchanged(store, monkeypatch):
    before = memory_hits(store, "数据库是什么？")
    monkeypatch.setattr(romanize, "latin_names", lambda conn, question: [])
    assert memory_hits(store, "数据库是什么？") == before


def names_read(store: Store, question: str) -> list[str]:
    with reading(store) as conn:
        return [m.name for m in romanize.latin_names(conn, question)]


def test_names_added_later_are_read(store):
    """The store's names follow its data version (only the new rows are read)."""
    assert names_read(store, "尼娜会什么乐器？") == []
    store.load_records([{"id": "doc_nina", "containerTags": ["people"],
                         "memoryEntries": [{"id": "nina", "memory": "Nina plays the cello."}]}])
    assert names_read(store, "尼娜会什么乐器？") == ["Nina"]
    assert memory_hits(store, "尼娜会什么乐器？")[0] == "Nina plays the cello."


def test_names_follow_memories_removed(store):
    """Memories removed (here by hand: the app forgets them softly) make the names be read
    anew, also when the last one's rowid is given again to a new memory."""
    assert names_read(store, "杰丝住在哪？") == ["Jess"]

    def write(*statements: tuple[str, tuple[object, ...]]) -> None:
        conn = sqlite3.connect(store.path, isolation_level=None)
        try:
            for sql, args in statements:
                conn.execute(sql, args)
            conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'data_version'")
        finally:
            conn.close()

    top = read_one(store, "SELECT MAX(rowid) FROM memories")
    write(("DELETE FROM memories WHERE rowid = ?", (top,)),
          ("INSERT INTO memories (rowid, id, memory, created_at, updated_at) VALUES "
           "(?, 'nina', 'Nina plays the cello.', '2026-01-01', '2026-01-01')", (top,)))
    assert names_read(store, "尼娜会什么乐器？") == ["Nina"]  # as many memories as before
    write(("DELETE FROM memories WHERE memory LIKE '%Jess%'", ()))
    assert names_read(store, "杰丝住在哪？") == []


def read_one(store: Store, sql: str) -> object:
    with reading(store) as conn:
        return conn.execute(sql).fetchone()[0]


def test_a_store_that_also_holds_the_name_in_characters_finds_both(tmp_path):
    """Where the store's Chinese texts write 玛雅 too, the words half looks for both."""
    store = make_store(tmp_path, {**FACTS, "maya_zh": "玛雅住在北京。"})
    with reading(store) as conn:
        for_words, in_latin = store_search._with_names(conn, "玛雅住在哪里？")
    assert (for_words, in_latin) == ("玛雅 Maya 住在哪里？", " Maya 住在哪里？")
    texts = memory_hits(store, "玛雅住在哪里？")
    assert set(texts[:2]) == {"玛雅住在北京。", "Maya lives in Lisbon."}, texts


def test_with_the_deep_model_the_named_persons_answer_ranks_first(tmp_path, deep_on,
                                                                 monkeypatch):
    """The question of the report: "玛雅对什么过敏？" ranked Sam's allergy (and others')
    above Maya's own; read with "Maya", her answer is first."""
    store = make_store(tmp_path)
    assert settled(store, 300) == "ready"
    found = store.search("玛雅对什么过敏？")
    assert found["meaning"] == "deep"
    texts = [h["text"] for h in found["hits"] if h["kind"] == "memory"]
    assert texts[0] == "Maya is allergic to peanuts.", texts
    monkeypatch.setattr(romanize, "latin_names", lambda conn, question: [])
    monkeypatch.setattr(translate, "english", lambda word: ())  # the dictionary has 玛雅
    assert memory_hits(store, "玛雅对什么过敏？")[0] != "Maya is allergic to peanuts."
