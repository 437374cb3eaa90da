"""Ninth pass of the audit's rules (issue 35): kin denied in an elided clause ("has two
sisters and no brothers"), one child of one kind ("has one child, a daughter"; 只有一个孩子，
是个女儿), one kin word denied in Chinese (没有哥哥) against that kin named, and a car driven as
one's own (开着她那辆…) against having none — each through the audit, which must also pair
the two texts, with the look-alikes it must leave alone.
Sentences here are this file's own, not the labelled sets'."""

from __future__ import annotations

import pytest
from test_audit_levels import _flagged as flagged

from memscope.meaning.normal import normalise


@pytest.mark.parametrize(("a", "b", "expected"), [
    # the verb of the first clause holds in the second
    ("Tomas has two sisters and no brothers.", "Tomas's brother Karel runs a bakery.", True),
    ("Tomas has two sisters but no brothers.", "Tomas has a brother, Karel.", True),
    ("Tomas has three brothers and not a single sister.", "Tomas's sister Eva is a nurse.",
     True),
    ("Tomas has two sisters and no brothers.", "Tomas's sister Eva is a nurse.", False),
    ("Bo has a cat but no dog.", "Bo walks his dog every morning.", True),
    ("Bo has a cat but no dog.", "Bo feeds his cat at seven.", False),
    # a count read whole ("two cats and a rabbit": two cats), "both of" two
    ("Chloe has one cat.", "Chloe has two cats and a rabbit.", True),
    ("Chloe has one rabbit.", "Chloe has two cats and a rabbit.", False),
    ("Chloe has just one cat, Mimi.", "Both of Chloe's cats, Mimi and Pip, are black.", True),
    ("Both of Niamh's parents are alive.", "Niamh has one sister.", False),
    # one child, said to be a daughter: no son
    ("Ines has one child, a daughter called Lea.", "Ines's son Marco is starting university.",
     True),
    ("Ines's only child is her daughter Lea.", "Ines has a son, Marco.", True),
    ("Ines has one child, a daughter called Lea.", "Ines's daughter Lea is 12.", False),
    ("Ines has no sons.", "Ines's son Marco runs a bakery.", True),
    ("Ines has no sons.", "Ines's song won a prize.", False),
    # "the youngest of four brothers" has brothers
    ("Wen is the youngest of four brothers.", "Wen has no brothers.", True),
    # Chinese: one kin denied, one child of one kind, a car of one's own
    ("钱芳没有哥哥。", "钱芳的哥哥在深圳开公司。", True),
    ("钱芳有两个姐姐，没有哥哥。", "钱芳的哥哥在深圳开公司。", True),
    ("钱芳没有哥哥。", "钱芳的姐姐在深圳开公司。", False),
    ("钱芳没有儿子。", "钱芳每天带儿子去公园。", True),
    ("钱芳只有一个孩子，是个女儿。", "钱芳的儿子今年上初中。", True),
    ("钱芳只有一个孩子，是个女儿。", "钱芳的女儿今年上初中。", False),
    ("钱芳家里没有车，上班坐地铁。", "钱芳开着她那辆白色的思域去公司。", True),
])
def test_the_audit_reads_the_kin_denied(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("text", "read"), [
    ("Tomas has two sisters and no brothers.", "Tomas has two sisters and has no brothers."),
    ("Liang has a Swiss passport and no other citizenship.",
     "Liang has a Swiss passport and no other citizenship."),
    ("Ines has one child, a daughter.", "Ines has no sons and has a daughter."),
    ("钱芳只有一个孩子，是个女儿。", "钱芳只有一个女儿，没有儿子。"),
])
def test_the_words_read(text: str, read: str) -> None:
    assert normalise(text) == read
