"""Cluster names: each cluster named by its most telling words (TF-IDF against the others).

A cluster's text is its memories' text, its documents' titles (counted twice: a title is
what a document is about) and summaries, and its entities' names and the predicates of
their relations. A word's weight in a cluster is how often it occurs there times how rare
it is among clusters — ``tf × (ln((1 + N) / (1 + df)) + 1)`` with ``N`` clusters and
``df`` the clusters that use it (the smoothed IDF of scikit-learn, so one cluster alone
still gets a name). Common words (:data:`NAME_STOP_WORDS`) and bare numbers never count.
Ties go to the more frequent word, then the alphabet: the same data gives the same names.
A cluster without any such word is named by its document title, else ``cluster N``.

Words are shown as most often written ("Lisbon", not "lisbon"). In presenter mode the
analysis is masked, so its placeholders ("Memory 12 (34 chars)") give no word and every
cluster gets a neutral name.

>>> from memscope.graph.analysis import analyse
>>> from memscope.records.dataset import from_feed_pages
>>> an = analyse(from_feed_pages([{"documents": [
...     {"id": "d1", "title": "Lisbon trip", "memoryEntries": [
...         {"id": "m1", "memory": "Maya flies to Lisbon."}]},
...     {"id": "d2", "title": "Atlas launch", "memoryEntries": [
...         {"id": "m2", "memory": "Maya moved the Atlas launch."}]}]}]))
>>> cluster_names(an, {"d1": "c1", "m1": "c1", "d2": "c2", "m2": "c2"}, words=2)
{'c1': 'Lisbon · trip', 'c2': 'Atlas · launch'}
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter, defaultdict
from collections.abc import Hashable, Mapping

from memscope.graph.analysis import Analysis
from memscope.records.text import clip, writable
from memscope.records.words import STOP_WORDS, STORE_WORDS, WORD

#: Common words and words every memory store is full of (presenter placeholders too).
NAME_STOP_WORDS = STOP_WORDS | STORE_WORDS
SEPARATOR = " · "
TITLE_WEIGHT = 2
UNLINKED = "unlinked"
_NUMBERED = re.compile(r"c(\d+)")
NAME_MAX = 40


def _node_texts(kind: str, record: object) -> list[str]:
    """The texts of one node (a title counted :data:`TITLE_WEIGHT` times)."""
    if kind == "memory":
        return [getattr(record, "memory", "") or ""]
    if kind == "document":
        return [getattr(record, "title", None) or ""] * TITLE_WEIGHT + [
            getattr(record, "summary", None) or ""]
    return [getattr(record, "name", "") or ""] * TITLE_WEIGHT


def _cluster_words(analysis: Analysis, clusters: Mapping[str, str]
                   ) -> tuple[dict[str, Counter[str]], dict[str, Counter[str]]]:
    """Per cluster: how often each content word occurs (case-folded), and how often each
    word occurs as written. One regex pass per cluster over all its text; the words
    that cannot name anything are judged once per distinct word and removed."""
    g = analysis.graph.graph
    texts: dict[str, list[str]] = defaultdict(list)
    for node, key in clusters.items():
        if node not in g:
            continue
        attrs = g.nodes[node]
        texts[key] += _node_texts(attrs["kind"], attrs["record"])
        if attrs["kind"] == "entity":
            texts[key] += [data.get("predicate") or "" for _, _, data
                           in g.out_edges(node, data=True) if data.get("kind") == "relation"]
    counts: dict[str, Counter[str]] = {}
    raw: dict[str, Counter[str]] = {}
    for key, parts in texts.items():
        joined = "\n".join(parts)
        counts[key] = Counter(WORD.findall(joined.casefold()))
        raw[key] = Counter(WORD.findall(joined))
    seen: set[str] = set().union(*counts.values())
    bad = {w for w in seen if len(w) < 2 or w in NAME_STOP_WORDS or w.isdigit()
           or not writable(w)}  # a 5 MB "word" names nothing
    for bag in counts.values():
        for word in bad.intersection(bag):
            del bag[word]
    return counts, raw


def _spellings(raw: Mapping[str, Counter[str]]) -> dict[str, list[str]]:
    """Every case-folded word → the ways it is written anywhere, in code-point order."""
    forms: dict[str, list[str]] = defaultdict(list)
    for form in sorted(set().union(*raw.values())):
        forms[form.casefold()].append(form)
    return forms


def _spelling(word: str, raw: Counter[str], forms: Mapping[str, list[str]]) -> str:
    """How ``word`` (case-folded) is most often written in a cluster (``raw``); ties go to
    the spelling first in code-point order ("Lisbon" before "lisbon").

    >>> raw = Counter({"TypeScript": 2, "typescript": 1})
    >>> _spelling("typescript", raw, _spellings({"c": raw}))
    'TypeScript'
    """
    return max(forms.get(word) or [word], key=lambda f: raw.get(f, 0))  # first of equals


def _fallback(analysis: Analysis, key: str, members: list[Hashable], position: int) -> str:
    """A neutral name: the title of the cluster's most linked document, else a number."""
    if key == "":
        return UNLINKED
    g = analysis.graph.graph
    docs = [n for n in members if n in g and g.nodes[n]["kind"] == "document"
            and getattr(g.nodes[n]["record"], "title", None)]
    if docs:
        node = min(docs, key=lambda n: (-g.degree(n), str(n)))
        return clip(g.nodes[node]["record"].title, NAME_MAX)
    match = _NUMBERED.fullmatch(key)
    return f"cluster {match.group(1) if match else position}"


def cluster_names(analysis: Analysis, clusters: Mapping[str, str], *,
                  words: int = 3) -> dict[str, str]:
    """``{cluster key: name}`` for every key in ``clusters`` (node id → cluster key;
    ``""`` = unlinked nodes, named ``"unlinked"``): the ``words`` most telling words
    joined by ``" · "`` (see the module docstring)."""
    counts, raw = _cluster_words(analysis, clusters)
    forms = _spellings(raw)
    members: dict[str, list[Hashable]] = defaultdict(list)
    for node, key in clusters.items():
        members[key].append(node)
    named = [k for k in members if k != "" and counts.get(k)]
    df: Counter[str] = Counter()
    for key in named:
        df.update(counts[key].keys())
    total = len(named)
    idf = {w: math.log((1 + total) / (1 + n)) + 1 for w, n in df.items()}
    names: dict[str, str] = {}
    for position, key in enumerate(members, start=1):
        bag = counts.get(key)
        if key == "" or not bag:
            names[key] = _fallback(analysis, key, members[key], position)
            continue
        top = heapq.nsmallest(max(1, words), bag.items(),
                              key=lambda kv: (-kv[1] * idf[kv[0]], -kv[1], kv[0]))
        names[key] = SEPARATOR.join(_spelling(w, raw[key], forms) for w, _ in top)
    return names


__all__ = ["NAME_STOP_WORDS", "cluster_names"]
