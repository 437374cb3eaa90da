"""What a short memory claims: its subject, its words, its sign, and how two claims differ.

Embeddings say two memories are about the same topic; they do not say whether both can
hold ("Maya lives in Lisbon" / "Maya lives in Berlin" score lower than "Maya is allergic to
peanuts" / "… to shellfish", which are compatible). This module reads each text twice.

As one *claim* — a subject (the leading names and kinship words: "Maya's sister Ana", "the
Atlas team"), the words after it (stems for English, characters for Chinese), a sign (a
negation or a dislike flips it) — compared by one template:

* **negation / opposite preference**: the same words, opposite signs ("drinks coffee" /
  "does not drink coffee", "likes" / "hates", 喜欢 / 不喜欢);
* **another value**: the same frame with one slot replaced — a date or a number, or a
  name or a word when the attribute holds one value at a time (lives in, reports to, main,
  primary, prefers, is set for, 住在, 最喜欢 …).

And as *clauses* (:class:`Clause`), so that a claim survives other words: a sentence cut at
";", "but", "who", "and" before a verb …; each clause with its owner (the person it is
about: "Henrik's wife is called Maren" is Henrik's, "Tara's sister lives in Bristol" the
sister's), its *facts* (:class:`Fact`: one-value attributes recognised by small families of
paraphrases — "lives in" / "home is in" / "moved to", "reports to" / "manager is" / "boss
is", 向…汇报 / 领导是 — and nouns the shipped embedder finds synonymous) and its *denials*
(:class:`Denial`: "has never had grandchildren", "keeps no pets of any kind", "avoids
Python", 从不去公司). Two texts then conflict when a fact has two values, a denial meets
what the other affirms ("drives her own car", "has three grandchildren"), or one object is
liked and disliked. A name under an attribute that holds many ("is allergic to",
"visited") is another object, so compatible; so is a text that only adds words, speaks of
the past ("grew up in", "lived there from 2010 to 2014"), holds only at times ("hates
running in the rain") or is about another person.

:func:`update_relation` says whether an ``updates`` step stays on one thing (one attribute,
one subject), which the audit completes with the embedder's cosine. The rules are in
``docs/graph-rules.md`` ("Semantic audit"). Everything here is pure and deterministic.

>>> conflict(claim("Maya lives in Lisbon."), claim("Maya lives in Berlin.")).what
'place'
>>> conflict(claim("Maya is allergic to peanuts."), claim("Maya is allergic to shellfish."))
>>> conflict(claim("玛雅住在里斯本。"), claim("玛雅住在柏林。")).what
'value'
>>> conflict(claim("Maya lives in Lisbon, near the river."),
...          claim("Maya's home is a flat in Berlin.")).what
'place'
>>> conflict(claim("Maya has never owned a car."), claim("Maya drives her car to work.")).what
'negation'

The reading and the rules live in modules of one concern each, re-exported here:
:mod:`~memscope.meaning.claim_text` (tokens, stems, word lists, numbers, dates, names),
:mod:`~memscope.meaning.clauses` (clause splitting and owners),
:mod:`~memscope.meaning.facts` (one-value facts and their cue families),
:mod:`~memscope.meaning.denials`, :mod:`~memscope.meaning.reading` (:class:`Claim`,
:func:`claim`, :class:`Clause`), :mod:`~memscope.meaning.compare` (:func:`conflict`),
:mod:`~memscope.meaning.situations` (the rarer rules it asks last: routine hours —
:mod:`~memscope.meaning.routines` —, places — :mod:`~memscope.meaning.places` —, partners,
homes, languages, allergies, quantities — :mod:`~memscope.meaning.quantities` —;
:func:`compared_widely`, :func:`measured`), Chinese words and names through
:mod:`~memscope.meaning.chinese`, and :mod:`~memscope.meaning.updates`
(:func:`update_relation`, :func:`content_text`).
"""

from __future__ import annotations

from memscope.meaning.claim_text import FUNCTIONAL as FUNCTIONAL
from memscope.meaning.claim_text import MAX_CHARS as MAX_CHARS
from memscope.meaning.claim_text import MONTHS as MONTHS
from memscope.meaning.claim_text import MULTI as MULTI
from memscope.meaning.claim_text import NEGATION as NEGATION
from memscope.meaning.claim_text import STOP as STOP
from memscope.meaning.claim_text import WEEKDAYS as WEEKDAYS
from memscope.meaning.claim_text import stem
from memscope.meaning.compare import (
    HYPERNYM,
    SYNONYM,
    Conflict,
    as_of,
    conflict,
    same_subject,
    values,
    word_similarity,
)
from memscope.meaning.denials import Denial
from memscope.meaning.facts import Fact
from memscope.meaning.reading import FAMILIES as FAMILIES
from memscope.meaning.reading import Claim, Clause, claim
from memscope.meaning.reading import families as families
from memscope.meaning.situations import compared_widely, measured
from memscope.meaning.updates import content_text, update_relation

__all__ = ["HYPERNYM", "SYNONYM", "Claim", "Clause", "Conflict", "Denial", "Fact", "as_of",
           "claim", "compared_widely", "conflict", "content_text", "measured", "same_subject",
           "stem",
           "update_relation", "values", "word_similarity"]
