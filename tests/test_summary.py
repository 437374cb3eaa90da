"""The summary card's sentences: numbers equal the analysis's own counts (issue 12, item 12).

Every expected number is computed here from the analysis (its states, findings, records),
never copied from the implementation.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memscope.demo.generator import generate
from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.presenter import mask
from memscope.records.dataset import Dataset, from_feed_pages, read_files
from memscope.reports.summary import summarise

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)
PASSPORT = Path(__file__).resolve().parent / "fixtures" / "spomory" / "passport.json"


@pytest.fixture(scope="module")
def demo() -> Analysis:
    return analyse(from_feed_pages(generate(7, now=NOW).to_feed_pages()), NOW)


def numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


def test_demo_sentences_carry_the_analysis_counts(demo: Analysis):
    states = Counter(demo.state(m) for m in demo.dataset.memories)
    current = states["latest"] + states["recent"] + states["expiring"]
    summary = summarise(demo)
    lines = summary.sentences()
    assert 2 <= len(lines) <= 3
    holds, now, audit = lines
    assert f"{len(demo.dataset.memories)} memories" in holds
    assert f"{len(demo.dataset.documents)} documents" in holds
    assert f"{len(demo.spaces)} spaces" in holds
    assert now.startswith(f"{current} memories are current")
    assert f"({states['expiring']} of them expiring" in now
    assert f"{states['superseded']} superseded" in now
    assert f"{states['forgotten']} forgotten" in now
    assert f"{states['expired']} expired" in now
    # the states named partition the memories: current + the rest = all
    assert current + states["superseded"] + states["forgotten"] + states["expired"] \
        == len(demo.dataset.memories)
    assert f"found {len(demo.findings)} integrity problems" in audit
    top_kind, top_count = Counter(f.kind for f in demo.findings).most_common(1)[0]
    assert f"({top_count})" in audit
    assert summary.findings == len(demo.findings) and top_kind in summary.finding_kinds


def test_demo_names_are_the_most_mentioned_capitalised_words(demo: Analysis):
    texts = [m.memory for m in demo.dataset.memories.values()]
    maya = sum(t.count("Maya") for t in texts)
    assert maya > 0
    summary = summarise(demo)
    assert summary.names[0] == "Maya"  # the demo's user: in most of her memories
    assert "the names mentioned most are Maya" in summary.sentences()[0]
    every_word = {w.casefold() for t in texts for w in re.findall(r"\w+", t)}
    every_word |= {w.casefold() for d in demo.dataset.documents.values()
                   for w in re.findall(r"\w+", d.title or "")}
    assert all(w.casefold() in every_word for w in summary.names + summary.topics)


def test_presenter_mode_summary_has_the_same_numbers_and_none_of_the_words(demo: Analysis):
    masked = analyse(mask(demo.dataset), NOW)
    plain, hidden = summarise(demo), summarise(masked)
    for line_plain, line_hidden in zip(plain.sentences()[1:], hidden.sentences()[1:],
                                       strict=True):
        assert numbers(line_plain) == numbers(line_hidden)
    text = " ".join(hidden.sentences())
    assert hidden.names == [] and hidden.topics == []
    for word in plain.names[:5] + plain.topics[:5]:
        assert word not in text
    assert "Memory" not in text and "chars" not in text


def test_spomory_only_counts_entities_and_relations():
    ds = read_files([PASSPORT])
    an = analyse(ds, NOW)
    mentions = Counter(e for r in ds.relations.values() for e in (r.subject_id, r.object_id)
                       if e in ds.entities)
    most = ds.entities[min(mentions, key=lambda e: (-mentions[e], ds.entities[e].name))].name
    lines = summarise(an).sentences()
    assert len(lines) == 2  # no memory: no sentence about memory states
    assert f"{len(ds.entities)} entities linked by {len(ds.relations)} relations" in lines[0]
    assert f"the names mentioned most are {most}" in lines[0]
    predicates = Counter(r.predicate for r in ds.relations.values())
    top = max(predicates.values())
    listed = lines[0].split("the most common relations ")[1]
    assert sum(p in listed for p in predicates) == min(3, len(predicates))
    assert all(p in listed for p, n in predicates.items() if n == top) or \
        sum(n == top for n in predicates.values()) > 3
    assert numbers(lines[1])[0] == len(an.findings)


def test_an_empty_dataset_says_so():
    lines = summarise(analyse(Dataset(), NOW)).sentences()
    assert lines == ["This memory is empty: no documents, memories, entities or relations "
                     "are loaded.", "The audit found no integrity problem."]


def test_one_current_memory_reads_in_the_singular():
    an = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "m", "memory": "Ana reads.", "createdAt": "2026-01-01T00:00:00Z"}]}]}]), NOW)
    lines = summarise(an).sentences()
    assert lines[0].startswith("This memory holds 1 memory from 1 document")
    assert lines[1] == "The only memory is current."


#: a 5 MB word (issue 20): a run of letters no person wrote as a name
HUGE = "Zebra" + "z" * (5 * 2**20)


def test_a_5_mb_word_is_no_name_and_no_sentence_holds_it():
    """Texts, a title, a space and an entity name that each hold a 5 MB word: the card
    names what a person wrote (Maya, Lisbon) and quotes the space cut short."""
    an = analyse(from_feed_pages([{"documents": [{"id": "d", "title": HUGE, "memoryEntries": [
        {"id": "a", "memory": f"Maya flies to Lisbon. {HUGE}", "spaceContainerTag": HUGE},
        {"id": "b", "memory": f"{HUGE} Maya books Lisbon.", "spaceContainerTag": HUGE}]}]}]),
        NOW)
    summary = summarise(an)
    assert sorted(summary.names) == ["Lisbon", "Maya"]
    assert all(len(w) < 100 for w in summary.names + summary.topics + summary.spaces)
    assert summary.spaces and summary.spaces[0].startswith("Zebra")
    lines = summary.sentences()
    assert lines and all(len(line) < 1000 for line in lines), [len(x) for x in lines]
    assert "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz" not in " ".join(lines)


def test_a_huge_entity_name_is_left_out_of_the_names():
    ds = read_files([PASSPORT])
    entity = next(iter(ds.entities.values()))
    ds.entities[entity.id] = replace(entity, name=HUGE)
    names = summarise(analyse(ds, NOW)).names
    assert names and HUGE not in names and all(len(n) < 100 for n in names)
