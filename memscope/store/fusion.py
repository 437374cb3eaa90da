"""The meaning half of local Ask and how it is fused with the words half (used by
:mod:`memscope.store.search`): what of a question is embedded, the texts nearest it in
meaning, and reciprocal rank fusion of the two rankings.

WordLlama's constants were chosen on ``tests/labelled/ask_eval.json`` (``bench/ask.py``),
on few trials (the fusion constant 10, 20 and 60; the floor 0.2 to 0.35; fusion by
normalised scores instead of ranks), so they may fit that set better than other data. The
deep model's (:data:`DEEP_FLOOR`, :data:`DEEP_FUSION_K`) were chosen on the development
half of ``tests/labelled/heldout/ask_questions.json`` only; its held-out half judges them.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from collections.abc import Mapping
from functools import lru_cache

import numpy as np

from memscope.meaning import deep
from memscope.meaning.claim_text import ROLES, ZH_ROLES, stem
from memscope.meaning.embed import EmbedderUnavailable, embed
from memscope.records.words import STOP_WORDS, tokens
from memscope.store import vectors

log = logging.getLogger("memscope")

#: reciprocal rank fusion's constant: small, so the first few places of each list weigh
#: most (10, 20 and 60 were tried on tests/labelled/ask_eval.json; 10 ranked best)
FUSION_K = 10
#: a text this close in meaning (cosine) or closer counts as a meaning hit; unrelated
#: texts score about 0.2 with WordLlama, the answers to the evaluation's questions 0.5
MEANING_FLOOR = 0.3
#: meaning hits fused, at most
MEANING_POOL = 100
#: the floor of the deep model (multilingual-e5-small): its cosines run high, so hits
#: start higher. Chosen on the development half of tests/labelled/heldout/ask_questions.json
#: only (0.6 to 0.85 tried: 0.6–0.75 ranked alike, 0.8 lost Chinese and paraphrases)
DEEP_FLOOR = 0.75
#: the fusion constant when the deep model answered: its meaning list is good enough
#: that its first places should weigh more (3, 4, 5, 10 and 20 tried on the development
#: half: 3–5 ranked best, 10 as with WordLlama lost about 0.03 of MRR)
DEEP_FUSION_K = 5
#: what a meaning hit counts for when it is about someone the question does not ask
#: about (:func:`about_someone_else`). On the development half of
#: tests/labelled/heldout/ask_questions.json, 0.2 to 0.6 ranked alike (MRR 0.858 → 0.868)
SOMEONE_ELSE = 0.5
#: which model answered a question's meaning half (:func:`nearest_by`)
DEEP, FAST, NONE = "deep", "fast", "none"


def meaning_text(query: str) -> str:
    """What is embedded for a question: its words without the common ones (a question's
    "what does … do" says nothing about the memories it asks for).

    >>> meaning_text("What does Maya eat?"), meaning_text("who is it")
    ('maya eat', 'who is it')
    """
    kept = [t for t in tokens(query) if t not in STOP_WORDS]
    return " ".join(kept) if kept else query.strip()


def nearest(conn: sqlite3.Connection, query: str, container_tag: str | None
             ) -> list[tuple[str, str, float]]:
    """The rows nearest the question in meaning, best first (:func:`nearest_by`)."""
    return nearest_by(conn, query, container_tag)[0]


def nearest_by(conn: sqlite3.Connection, query: str, container_tag: str | None, *,
               also: str | None = None) -> tuple[list[tuple[str, str, float]], str]:
    """The rows nearest the question in meaning, best first, and which model found them
    (:data:`DEEP`, :data:`FAST` or :data:`NONE`).

    When the deep vectors of ``conn``'s current data version are ready, the question as
    asked (e5 reads whole sentences: dropping its common words lost paraphrases) against
    them, cosine ≥ :data:`DEEP_FLOOR`; else its content words with WordLlama, cosine ≥
    :data:`MEANING_FLOOR`; nothing when no model is available (words alone then rank).

    ``also``: the question with the names it writes in Chinese characters written in Latin
    (:mod:`memscope.store.romanize`); the deep model then looks from halfway between the
    two (:func:`_between`). On the development half of
    tests/labelled/heldout/ask_questions.json, the Chinese questions' hybrid MRR was 0.70
    with the Latin names in the words half only and 0.75 so; the Latin question alone
    gained on some questions what it lost on others (it put the person's other memories
    first). WordLlama reads ``query`` alone (either way measured alike)."""
    if query.strip():
        vecs = vectors.deep_current(conn)
        if vecs is not None:
            try:
                query_vec = deep.query(query.strip())
                if also and also.strip() and also != query:
                    query_vec = _between(query_vec, deep.query(also.strip()))
            except EmbedderUnavailable as exc:
                log.warning("%s", exc)
            else:
                return vecs.nearest(query_vec, pool=MEANING_POOL,
                                    container_tag=container_tag, floor=DEEP_FLOOR), DEEP
    text = meaning_text(query)
    if not text:
        return [], NONE
    try:
        vecs = vectors.current(conn)
        query_vec = embed([text])[0]
    except EmbedderUnavailable as exc:
        log.warning("%s Ask ranks by words alone.", exc)
        return [], NONE
    return vecs.nearest(query_vec, pool=MEANING_POOL, container_tag=container_tag,
                        floor=MEANING_FLOOR), FAST


def _between(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The unit vector halfway between two unit vectors (``a`` when they are opposite).

    >>> _between(np.array([1.0, 0.0]), np.array([0.0, 1.0])).round(4).tolist()
    [0.7071, 0.7071]
    """
    mid = a + b
    norm = float(np.linalg.norm(mid))
    return (mid / norm).astype(a.dtype) if norm > 1e-9 else a


_POSSESSIVE = re.compile(r"(\w+)['’]s\b")


def subject_share(terms: list[str], row: sqlite3.Row, share: float) -> float:
    """A memory's share of the question's words, less half a word for each word the text
    holds only as a possessive: "Maya's sister Ana …" is about Ana, so for "where is Maya
    travelling?" it holds "Maya" half as much as "Maya flies to Lisbon" does.

    >>> subject_share(["maya", "lisbon"], {"memory": "Maya's partner lives in Lisbon."}, 1.0)
    0.75
    >>> subject_share(["maya"], {"memory": "Maya's partner and Maya."}, 1.0)
    1.0
    """
    text = (row["memory"] or "").casefold()
    owners = {m.group(1) for m in _POSSESSIVE.finditer(text)}
    only = 0
    for term in terms:
        if any(o.startswith(term) for o in owners):
            bare = re.search(rf"\b{re.escape(term)}\w*\b(?!['’]s\b)", text)
            only += bare is None
    return max(0.0, share - 0.5 * only / len(terms))


_ROLE_WORDS = "|".join(sorted(ROLES, key=len, reverse=True))
_ZH_ROLE_WORDS = "|".join(sorted(ZH_ROLES, key=len, reverse=True))


def about_someone_else(words: frozenset[str], text: str) -> bool:
    """Whether ``text`` names one of the question's ``words`` only to say whose relation its
    subject is ("Maya's friend Jess …", 玛雅的朋友杰丝…) and the question names no such
    relation: "What is Maya learning?" asks about Maya, not about her friend. A question
    about the friend ("What is Maya's friend learning?") keeps the text. ``words``: the
    question's words and their English, case-folded.

    >>> q = frozenset({"maya", "learning"})
    >>> about_someone_else(q, "Maya's friend Jess is learning Japanese.")
    True
    >>> about_someone_else(q | {"friend"}, "Maya's friend Jess is learning Japanese.")
    False
    >>> about_someone_else(q, "Maya's friend Jess teaches Maya Japanese.")
    False
    >>> about_someone_else(frozenset({"玛雅", "maya"}), "玛雅的姐姐安娜在学日语。")
    True
    """
    low = text.casefold()
    stems = {stem(w) for w in words}
    for word in words:
        if len(word) < 2 or word not in low:
            continue
        through = _named_through(word)
        relations = [m.group(1) for m in through.finditer(low)]
        asked = any((stem(r) in stems) if word.isascii() else (r in words) for r in relations)
        if relations and not asked and low.count(word) == len(relations):
            return True
    return False


@lru_cache(maxsize=4096)
def _named_through(word: str) -> re.Pattern[str]:
    """``word`` as the owner of a relation ("maya's friend", 玛雅的朋友), the relation
    captured (compiled once per word, not once per result)."""
    if word.isascii():
        return re.compile(rf"\b{re.escape(word)}\w*['’]s (?:\w+ )?({_ROLE_WORDS})\b")
    return re.compile(rf"{re.escape(word)}的({_ZH_ROLE_WORDS})")


def fuse(words_found: list[tuple[str, str, float, float]],
         meaning_found: list[tuple[str, str, float]],
         weight: Mapping[tuple[str, str], float], *,
         k: int = FUSION_K,
         someone_else: frozenset[tuple[str, str]] = frozenset()) -> dict[tuple[str, str], float]:
    """Reciprocal rank fusion of the two rankings, each row's sum of ``share / (k + rank)``
    — ``share`` being the squared share of the question's words a words hit holds (1 for
    a meaning hit, :data:`SOMEONE_ELSE` for one of ``someone_else``: texts about someone
    the question does not ask about, :func:`about_someone_else`), so a text matched only
    by a name counts little — halved between the two lists, times the row's state weight,
    scaled so that a row first in both with all the words scores 1 (before its weight).
    ``rank`` starts at 1; ``k`` is the fusion constant (:data:`FUSION_K`, or
    :data:`DEEP_FUSION_K` for the deep model's list).

    >>> w = {("memory", "a"): 1.0, ("memory", "b"): 1.0}
    >>> fuse([("memory", "a", 9.0, 1.0)], [("memory", "a", .8), ("memory", "b", .5)], w)
    {('memory', 'a'): 1.0, ('memory', 'b'): 0.4583}
    """
    scores: dict[tuple[str, str], float] = {}
    ordered = sorted(words_found, key=lambda f: -f[2] * weight.get((f[0], f[1]), 1.0))
    for rank, (kind, ref, _, share) in enumerate(ordered, start=1):
        scores[kind, ref] = scores.get((kind, ref), 0.0) + 0.5 * share ** 2 / (k + rank)
    for rank, (kind, ref, _) in enumerate(meaning_found, start=1):
        share = SOMEONE_ELSE if (kind, ref) in someone_else else 1.0
        scores[kind, ref] = scores.get((kind, ref), 0.0) + 0.5 * share / (k + rank)
    top = 1.0 / (k + 1)
    return {key: round_score(score / top * weight.get(key, 1.0)) for key, score in scores.items()}


def round_score(score: float) -> float:
    """Four significant digits (a tiny BM25 score in a small store keeps its order).

    >>> round_score(3.14159265), round_score(0.0000123456)
    (3.142, 1.235e-05)
    """
    return float(f"{score:.4g}")
