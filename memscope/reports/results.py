"""Why an Ask result ranked where it did, in words: the words it shares with the question,
"close in meaning" when it shares none (only meaning can have brought it), and whether it
is the current version of its memory or an older one.

>>> because("Who is Maya's manager?", "Maya reports to Tom Okafor.", "latest")
'Shares “maya” with the question · current version'
>>> because("Where does she exercise?", "Maya runs along the river.", "superseded")
'Close in meaning (no word in common) · an older version, replaced since'
>>> shared_words("Where is Maya travelling?", "Maya travels to Kyoto.")
['maya', 'travelling']
>>> shared_words("玛雅住在哪里？", "玛雅住在里斯本。")
['玛雅住在']
>>> shared_words("谁对芝麻过敏？", "Jess is allergic to sesame.")
['芝麻 (sesame)', '过敏 (allergic)']
"""

from __future__ import annotations

import re

from memscope.meaning import translate
from memscope.meaning.chinese import segmenter
from memscope.meaning.claims import STOP

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u9fff]+")
#: shared words listed at most
_SHOWN = 5
_STATE_WORDS = {
    "latest": "current version",
    "recent": "current version, recently changed",
    "superseded": "an older version, replaced since",
    "forgotten": "forgotten",
    "expired": "expired",
    "expiring": "current version, expiring soon",
}


def _words(text: str) -> list[str]:
    """Content words of ``text``, case-folded, in order (Chinese runs left out: they are
    matched as pieces, see :func:`_cjk_shared`)."""
    return [w for w in _WORD.findall(text.casefold())
            if not _CJK.fullmatch(w) and w not in STOP and len(w) > 1]


def _stem(word: str) -> str:
    for end in ("ing", "ed", "es", "s"):
        if word.endswith(end) and len(word) - len(end) >= 3:
            word = word[: -len(end)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiou":
        word = word[:-1]  # travelling, running
    return word


def _cjk_shared(run: str, text: str) -> list[str]:
    """The longest pieces (two characters or more) of a Chinese run that ``text`` has."""
    out: list[str] = []
    i = 0
    while i < len(run) - 1:
        j = i + 1
        while j < len(run) and run[i:j + 1] in text:
            j += 1
        if j - i >= 2:
            out.append(run[i:j])
            i = j
        else:
            i += 1
    return out


def _cjk_in_english(run: str, text: str) -> list[str]:
    """The words of a Chinese run whose English (the dictionary Ask's words half also
    reads, :mod:`memscope.meaning.translate`) an English text holds, as the text writes
    it: "过敏 (allergic)", "玛雅 (Maya)"."""
    try:
        words = segmenter().cut(run, HMM=False)
    except ImportError:  # pragma: no cover - jieba is a dependency
        return []
    written = {_stem(w.casefold()): w for w in _WORD.findall(text)}
    return [f"{w} ({written[_stem(e)]})" for w in words
            if (e := next((e for e in translate.english(w) if _stem(e) in written), None))]


def shared_words(question: str, text: str) -> list[str]:
    """The question's content words that ``text`` also uses (a plural or -ing form counts;
    a Chinese word, in Chinese or in its English), in the question's order, each once."""
    have = {_stem(w) for w in _words(text)}
    folded = text.casefold()
    out: list[str] = []
    for word in _WORD.findall(question.casefold()):
        if _CJK.fullmatch(word):
            found = _cjk_shared(word, folded) or _cjk_in_english(word, text)
        elif word not in STOP and len(word) > 1 and _stem(word) in have:
            found = [word]
        else:
            found = []
        out += [w for w in found if w not in out]
    return out


def because(question: str, text: str, state: str | None) -> str:
    """One line: why this result came up, and which version it is."""
    shared = shared_words(question, text)
    if shared:
        listed = ", ".join(f"“{w}”" for w in shared[:_SHOWN])
        more = f" and {len(shared) - _SHOWN} more" if len(shared) > _SHOWN else ""
        parts = [f"Shares {listed}{more} with the question"]
    else:
        parts = ["Close in meaning (no word in common)"]
    if state in _STATE_WORDS:
        parts.append(_STATE_WORDS[state])
    return " · ".join(parts)


__all__ = ["because", "shared_words"]
