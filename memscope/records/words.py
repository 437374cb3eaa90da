"""Words of a text for search and naming: one tokeniser and one list of common words.

Shared by the store's search (which words of a question to look for), the view's cluster
names and the summary card (which words say what a text is about).

>>> content_words("Where is Maya travelling? She's flying to Lisbon on the 3rd.")
['maya', 'travelling', 'flying', 'lisbon', '3rd']
"""

from __future__ import annotations

import re

#: a word: a run of letters, digits or underscores (any script)
WORD = re.compile(r"\w+")

#: Common English words (and a few words every memory text is full of) that never say
#: what a text is about. Small on purpose: it is read by people too.
_STOP_TEXT = """
a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing done down during each either
else ever every few for from further get gets got had has have having he her here hers
herself him himself his how i if in into is it its itself just let like may me might more
most much must my myself neither no nor not now of off on once one only or other our ours
ourselves out over own per same shall she should so some still such than that the their
theirs them themselves then there these they this those through thus to too under until up
upon us very via was we were what when where whether which while who whom whose why will
with within without would yet you your yours yourself yourselves s t d ll m re ve
new next last week weeks day days month months year years today tomorrow yesterday
"""
STOP_WORDS = frozenset(_STOP_TEXT.split())
#: Words every memory store is full of, and presenter mode's placeholder words ("Memory 12
#: (34 chars)", "Document 3", "Entity 4", "predicate 2"): they never name a topic.
STORE_WORDS = frozenset({
    "memory", "memories", "document", "documents", "chars", "notes", "note", "summary",
    "content", "chat", "conversation", "assistant", "page", "saved", "image", "video",
    "entity", "alias", "span", "predicate", "reason", "url", "pdf", "thread", "post",
    "space", "profile", "line", "static", "dynamic", "many", "well", "likely",
    "probably", "need", "needs", "wants", "want", "uses", "use", "used",
})


def tokens(text: str) -> list[str]:
    """Every word of ``text``, case-folded, in order (``\\w+`` runs, so any script).

    >>> tokens("Maya's São Paulo trip")
    ['maya', 's', 'são', 'paulo', 'trip']
    """
    return WORD.findall(text.casefold())


def content_words(text: str) -> list[str]:
    """The words of ``text`` that can say what it is about: no common word, no bare
    number, at least two characters; in order, repeats kept."""
    return [w for w in tokens(text)
            if len(w) > 1 and w not in STOP_WORDS and not w.isdigit()]


def surface_words(text: str, stop: frozenset[str] = STOP_WORDS) -> list[tuple[str, str]]:
    """Like :func:`content_words` with ``stop`` as the common words, each word as
    ``(case-folded, as written)``.

    >>> surface_words("Trip to Lisbon")
    [('trip', 'Trip'), ('lisbon', 'Lisbon')]
    """
    out = []
    for word in WORD.findall(text):
        key = word.casefold()
        if len(key) > 1 and key not in stop and not key.isdigit():
            out.append((key, word))
    return out


__all__ = ["STOP_WORDS", "STORE_WORDS", "WORD", "content_words", "surface_words", "tokens"]
