"""Ninth pass of the audit's rules (issue 35): notes in the registers memory tools write —
a transcribed voice note's fillers ("so, um, …, like, …", "Omar was like, he's …") and
fields in a row between bullets or bars ("• Name: … • City: …", "User | blood type: …",
"HR record | <name> | Employer: …", "· 居住地：…") — read as the sentences they say, through
the audit. Sentences here are this file's own, not the labelled sets'."""

from __future__ import annotations

import pytest
from test_audit_levels import _flagged as flagged

from memscope.meaning.normal import normalise


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("so, um, Omar said he's, like, never been to Asia",
     "Omar spent two weeks in Tokyo last spring.", True),
    ("so Omar was like, uh, he's never owned a car", "Omar drives his own Volvo to work.",
     True),
    ("uh, Omar mentioned he's never been to Tokyo", "Omar's sister lives in Tokyo.", False),
    ("• Name: Leona Varga • City: Szeged • Children: none",
     "Leona's two sons are at school in Szeged.", True),
    ("• Name: Leona Varga • City: Szeged • Children: none", "Leona lives in Szeged.", False),
    ("Staff record | Tibor Nagy | Employer: Siemens | Status: active",
     "Tibor works at Bosch and has never worked anywhere else.", True),
    ("User | blood type: A+ | donor: yes", "The user's blood type is B−.", True),
    ("· 姓名：韩梅 · 居住地：成都 · 子女：无", "韩梅的儿子在成都上小学。", True),
    ("· 姓名：韩梅 · 居住地：成都 · 子女：无", "韩梅住在成都。", False),
])
def test_the_audit_reads_the_register(a: str, b: str, expected: bool) -> None:
    assert flagged(a, b) is expected
    assert flagged(b, a) is expected


@pytest.mark.parametrize(("text", "read"), [
    ("so, um, Omar said he's, like, never been to Asia", "Omar has never been to Asia"),
    ("Omar said he's tired.", "Omar is tired."),
    ("Omar likes tea, like his mum.", "Omar likes tea, like his mum."),
    ("• Name: Leona Varga • City: Szeged", "Leona Varga lives in Szeged."),
])
def test_the_words_read(text: str, read: str) -> None:
    assert normalise(text) == read
