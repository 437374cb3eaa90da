"""Ask: a text about someone named through the person asked about ("Maya's friend Jess …")
ranks below that person's own, unless the question asks about that relation
(:func:`memscope.store.fusion.about_someone_else`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ask_support import settled
from test_ask_chinese_names import make_store, memory_hits

from memscope.store import fusion
from memscope.store.store import Store

FACTS = {
    "m1": "Maya's friend Jess is learning Japanese hiragana.",
    "m2": "Maya is learning Portuguese at B1 level.",
    "m3": "Maya's sister Ana runs 21 km on Thursdays.",
    "m4": "Maya runs 12 km on Mondays.",
    "m5": "Maya reports to Tom Okafor.",
    "m6": "Maya plays padel on weekends.",
    "m7": "Maya's partner Sam is pescatarian.",
}


@pytest.fixture
def store(tmp_path: Path, deep_on: None) -> Store:
    """The store, its deep model's vectors ready (the quicker model ranks these alike)."""
    store = make_store(tmp_path, FACTS)
    assert settled(store, 300) == "ready"
    return store


@pytest.mark.parametrize(("question", "answer", "other"), [
    ("How far does Maya jog?", FACTS["m4"], FACTS["m3"]),
    ("玛雅在学哪门语言？", FACTS["m2"], FACTS["m1"]),
])
def test_the_persons_own_memory_ranks_above_a_relations(store, monkeypatch, question, answer,
                                                         other):
    with monkeypatch.context() as patched:
        patched.setattr(fusion, "SOMEONE_ELSE", 1.0)  # as before: the relation's comes first
        texts = memory_hits(store, question)
        assert texts.index(other) < texts.index(answer)
    texts = memory_hits(store, question)
    assert texts[0] == answer and texts.index(other) > 0


def test_a_question_about_the_relation_keeps_its_memory_first(store):
    assert memory_hits(store, "What does Maya's sister run?")[0] == FACTS["m3"]
