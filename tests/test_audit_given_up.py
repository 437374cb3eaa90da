"""Ninth pass of the audit's rules (issue 35): a drink, smoking or sugar given up a while
ago ("quit drinking in 2019", "has been sober for ten years", 已经三年没喝酒了, 戒烟三年了)
against having it lately ("had two beers at the match last Saturday", 上周末…喝了五六瓶啤酒),
through the audit; and a name read with its prefix (老周, 小李). Each with the look-alikes
it must leave alone. Sentences here are this file's own, not the labelled sets'."""

from __future__ import annotations

import pytest
from test_audit_levels import _flagged as flagged

from memscope.meaning.clauses import zh_name_length
from memscope.meaning.diets import given_up, had_lately


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("Ahmed quit drinking in 2019.", "Ahmed had two beers at the match last Saturday.", True),
    ("Ahmed has been sober for ten years.", "Ahmed got properly drunk at a wedding last month.",
     True),
    ("Ahmed hasn't had a drink in five years.", "Ahmed drank a glass of wine yesterday.", True),
    ("Ahmed has not smoked since 2015.", "Ahmed smoked a cigarette at the party last week.",
     True),
    ("Ahmed has been off sugar for two years.", "Ahmed had a slice of cake last week.", True),
    ("老周已经三年没喝酒了。", "老周上周末跟同事吃烧烤，喝了五六瓶啤酒。", True),
    ("老周戒烟三年了。", "老周前几天在饭局上抽了两根烟。", True),
    # before it was given up, someone else, another kind, no time said
    ("Ahmed quit drinking in 2019.", "Ahmed had two beers at the match in 2017.", False),
    ("Ahmed quit drinking in 2019.", "Ahmed's wife had two beers last Saturday.", False),
    ("Ahmed has been sober for ten years.", "Ahmed had two coffees last Saturday.", False),
    ("老周已经三年没喝酒了。", "老周上周末陪同事喝了两杯奶茶。", False),
])
def test_given_up_against_had_lately(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


def test_what_is_read() -> None:
    assert given_up("Ahmed hasn't had any wine in five years.") == {"alcohol"}
    assert given_up("Ahmed hasn't had any fun in years.") == frozenset()
    assert given_up("Ahmed has been off work for two months.") == frozenset()
    assert had_lately("喝了两瓶啤酒", "老周上周末跟同事吃烧烤，喝了两瓶啤酒。") == {"alcohol"}
    assert had_lately("喝了两瓶啤酒") == frozenset()  # no time said


@pytest.mark.parametrize(("text", "length"), [
    ("老周前几天在饭局上抽了两根烟", 2), ("小李昨天去了北京", 2), ("阿强在深圳开公司", 2),
    ("王静怡在苏州工作", 3),
])
def test_a_name_with_its_prefix_is_two_characters(text: str, length: int) -> None:
    assert zh_name_length(text) == length
