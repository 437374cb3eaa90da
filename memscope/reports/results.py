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
"""

from __future__ import annotations

import re

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


def shared_words(question: str, text: str) -> list[str]:
    """The question's content words that ``text`` also uses (a plural or -ing form counts),
    in the question's order, each once."""
    have = {_stem(w) for w in _words(text)}
    folded = text.casefold()
    out: list[str] = []
    for word in _WORD.findall(question.casefold()):
        if _CJK.fullmatch(word):
            found = _cjk_shared(word, folded)
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
