"""The needle test before a pattern (memscope.meaning.prefilter) never skips a pattern that
would have matched: every rule pattern, on every development note and the demo store's
notes, finds what it found without the test."""

from __future__ import annotations

import importlib
import json
import pkgutil
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

import memscope.meaning
from memscope.demo.generator import generate_planted
from memscope.meaning.prefilter import Guarded, Rewrites, guarded, holds, needle

LABELLED = Path(__file__).parent / "labelled"

#: texts where lower-casing and matching without case part ways, and the usual traps
TRAPS = ("ſingle and happy", "ſays he is married", "Lives in Kraków", "LIVES IN OSLO",
         "İstanbul is home", "Ｍaria is married", "lives in\nParis", "", " ", "日本",
         "she is SINGLE", "Single since 2020.", "works from home on Fridays")


def _patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Every compiled pattern of the meaning modules: module-level, in tuples of
    patterns or of (pattern, written) rewrites, and behind a needle."""
    found: dict[int, tuple[str, re.Pattern[str]]] = {}

    def add(name: str, value: object) -> None:
        if isinstance(value, Guarded):
            value = value.re
        if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
            found.setdefault(id(value), (name, value))

    for info in pkgutil.iter_modules(memscope.meaning.__path__):
        if info.name in ("deep_worker",):
            continue
        module = importlib.import_module(f"memscope.meaning.{info.name}")
        for name, value in vars(module).items():
            add(f"{info.name}.{name}", value)
            if isinstance(value, tuple | list):
                for n, item in enumerate(value):
                    add(f"{info.name}.{name}[{n}]", item)
                    if isinstance(item, tuple) and item:
                        add(f"{info.name}.{name}[{n}][0]", item[0])
            if isinstance(value, Rewrites):
                for n, (pattern, _written) in enumerate(value._ways):
                    add(f"{info.name}.{name}[{n}]", pattern)
    return sorted(found.values(), key=lambda item: item[0])


def _texts() -> list[str]:
    texts = set(TRAPS)
    for path in sorted(LABELLED.glob("*_dev*/pairs.json")):
        for pair in json.loads(path.read_text(encoding="utf-8")).get("development", []):
            texts.update(pair[k] for k in ("a", "b") if isinstance(pair.get(k), str))
    data = generate_planted(7, now=datetime(2026, 6, 1, tzinfo=UTC))
    texts.update(m["memory"] for m in data.memories())
    return sorted(texts)


PATTERNS = _patterns()
TEXTS = _texts()


def test_the_corpus_is_large_and_the_rules_are_many() -> None:
    assert len(TEXTS) > 2000
    assert len(PATTERNS) > 500
    assert sum(needle(p) is not None for _name, p in PATTERNS) > 400


@pytest.mark.parametrize("chunk", range(8))
def test_no_pattern_is_skipped_on_a_text_it_matches(chunk: int) -> None:
    wrong = [(name, text) for name, pattern, found in
             ((name, pattern, needle(pattern)) for name, pattern in PATTERNS[chunk::8])
             for text in TEXTS if not holds(found, text) and pattern.search(text)]
    assert wrong == []


def test_a_guarded_pattern_answers_as_the_pattern() -> None:
    pattern = re.compile(r"\b(?:single|married|engaged)\b", re.I)
    g = guarded(pattern)
    for text in (*TRAPS, "Maya got married in 2019", "no status here"):
        assert bool(g.search(text)) == bool(pattern.search(text))
        assert g.findall(text) == pattern.findall(text)
        assert [m.span() for m in g.finditer(text)] == [m.span() for m in pattern.finditer(text)]
        assert g.sub("X", text) == pattern.sub("X", text)
        assert bool(g.match(text)) == bool(pattern.match(text))


def test_case_free_needles_are_not_trusted_on_text_that_is_not_ascii() -> None:
    pattern = re.compile(r"single", re.I)
    assert needle(pattern) == (("single",), True)
    assert pattern.search("ſingle")  # "ſ" matches "s" without case
    assert holds(needle(pattern), "ſingle")
    assert not holds(needle(pattern), "married")
    assert holds(None, "anything")


def test_rewrites_apply_in_turn_as_subs_do() -> None:
    ways = [(re.compile(r"\bmum\b"), "mother"), (re.compile(r"\bmother\b"), "parent"),
            (re.compile(r"(?i)\bnyc\b"), "New York"), (re.compile(r"^x?"), "<")]
    rewrites = Rewrites(ways)
    for text in ("my mum lives in NYC", "nothing here", "ſ nyc", ""):
        expected = text
        for pattern, written in ways:
            expected = pattern.sub(written, expected)
        assert rewrites(text) == expected
