"""Cluster names: each cluster titled by a short phrase from its own text.

A cluster's text is its memories' text, its documents' titles (counted twice: a title is
what a document is about) and summaries, and its entities' names (counted twice, plus once
per link: the hub of a web of relations names it) and the predicates of their relations.

A name is a phrase of one to ``words`` (3) consecutive words of that text, never across
punctuation or a line ("Maya's friend Jess", "Fathom meeting-notes extractor", "Tooling and
habits"). It starts on a word that can say something (no common word, bare number, store
word such as "notes" or "page", or word of doing such as "prefers": a name is no clause cut
in the middle), ends on such a word or a store word ("Beacon serving notes"), and only
"and" may sit inside. A possessive never stands alone ("Maya's" is about someone of hers)
and loses its "'s" at the end ("Maya's brother Leo's phone" counts for "Maya's brother
Leo").

A phrase's weight in a cluster is ``tf × √(tf / uses) × (1 + (n − 1) / 4) × idf``: how often
it occurs there, times the square root of the share of all its uses that are there (a name
every cluster mentions names none of them), times a small bonus per word (a longer phrase
as often used says more: "Maya's friend Jess" over "Jess"), times how rare it is among
clusters, ``ln((1 + N) / (1 + df)) + 1`` with ``N`` clusters and ``df`` the clusters that
use it (the smoothed IDF of scikit-learn, so one cluster alone still gets a name). A single
word also written in lower case somewhere is a common noun ("morning", "set") and never a
name alone ("Morning routine" is); a phrase the cluster uses once is a fragment of one
sentence and no name while it has a phrase used twice (a title counts twice). Ties go to
the more frequent phrase, then the alphabet: the same data gives the same names.

Names are distinct: the heaviest (cluster, phrase) pairs are handed out first, each phrase
to one cluster, and a cluster whose best phrases all went to others takes its next one, or
else its best phrase and, after a colon, its next one ("Maya's brother Leo: padel"). A
cluster without any phrase is named by its most linked document's title (the words that fit
in :data:`NAME_MAX` characters, never cut inside a word), else ``cluster N``; a name still
taken gets a number: ``"Lisbon trip (2)"``. A name is at most :data:`NAME_MAX` characters
(a number may add a few) and is sent whole: nothing is cut with an ellipsis.

Each word is shown as it is written in the most clusters, the first letter raised ("Lisbon
trip", "Reading group"; "iPhone" stays). A run of Chinese characters is one word (``\\w+``),
so a Chinese entity names its cluster as written ("张三"). In presenter mode the analysis is
masked: its placeholders ("Memory 12 (34 chars)", "Document 3", "Entity 4") give no phrase
and every cluster gets a neutral name.

>>> from memscope.graph.analysis import analyse
>>> from memscope.records.dataset import from_feed_pages
>>> an = analyse(from_feed_pages([{"documents": [
...     {"id": "d1", "title": "Lisbon trip", "memoryEntries": [
...         {"id": "m1", "memory": "Maya booked the Lisbon trip."}]},
...     {"id": "d2", "title": "Atlas launch", "memoryEntries": [
...         {"id": "m2", "memory": "Maya moved the Atlas launch."}]}]}]))
>>> cluster_names(an, {"d1": "c1", "m1": "c1", "d2": "c2", "m2": "c2"})
{'c1': 'Lisbon trip', 'c2': 'Atlas launch'}
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterator, Mapping
from itertools import chain, compress

from memscope.graph.analysis import Analysis
from memscope.records.text import writable
from memscope.records.words import STOP_WORDS, STORE_WORDS

#: Common words and words every memory store is full of (presenter placeholders too).
NAME_STOP_WORDS = STOP_WORDS | STORE_WORDS
#: the small word a name may hold inside ("Tooling and habits"; not "for", "of" or "to":
#: "call for Beacon", "pipeline of Beacon" are clauses cut in the middle, not names)
LINK_WORDS = frozenset({"and"})
TITLE_WEIGHT = 2
#: an entity's name counts once more per link, up to this many
LINK_WEIGHT_MAX = 10
UNLINKED = "unlinked"
#: the longest name, in characters; a longer phrase is never a name (nothing is cut)
NAME_MAX = 40
#: how many phrases of each cluster stay candidates when names are handed out
CANDIDATES = 8
_NUMBERED = re.compile(r"c(\d+)")
#: an HTML tag's start ("<img", "</b": markup, not a word), a word (hyphens and
#: apostrophes inside: "meeting-notes", "Maya's"), a run of punctuation, or a line break;
#: anything but a word ends a phrase
_TOKEN = re.compile(r"</?[A-Za-z]\w*|\w+(?:['’-]\w+)*|[^\w\s]+|\n")
_POSSESSIVE = ("'s", "’s")
#: words that say what someone does (memories are sentences: "Maya prefers React"); a
#: name never holds one, so it never reads as a clause cut in the middle
_VERBS = frozenset((
    "prefers", "likes", "loves", "hates", "lives", "works", "thinks", "believes", "wants",
    "needs", "uses", "used", "owns", "drinks", "eats", "avoids", "says", "said", "asked",
    "moved", "booked", "flies", "flew", "switched", "finished", "takes", "took", "syncs",
    "deploys", "practises", "practices", "meets", "tracks", "holds", "plans", "planned",
    "reads", "plays", "runs", "gets", "goes", "went", "keeps", "wishes", "hopes", "knows",
    "reaches", "reports", "cited", "returns", "joins", "joined", "manages", "visits"))
#: where a word may sit in a name (bits): first, inside, last, or alone
_START, _INNER, _END, _ALONE = 1, 2, 4, 8
#: per bit, a table for ``bytes.translate``: a token's flags byte → 1 if it has the bit
_BIT = {bit: bytes(1 if b & bit else 0 for b in range(256)) for bit in (1, 2, 4, 8)}

Gram = tuple[str, ...]


def _flags(token: str) -> int:
    """Where ``token`` may sit in a name (bits :data:`_START`, :data:`_INNER`,
    :data:`_END`, :data:`_ALONE`; see the module docstring). A possessive is judged by
    its word ("Leo's" as "Leo"; "it's" never) and never stands alone.

    >>> [_flags(t) for t in ("Lisbon", "notes", "Leo's", "it's", "and", "42", "<img", "张三")]
    [15, 6, 7, 0, 2, 0, 0, 15]
    """
    word = token.casefold()
    if word in LINK_WORDS:
        return _INNER
    if not word[:1].isalnum():  # punctuation, a line break, a tag's start ("<img")
        return 0
    possessive = word.endswith(_POSSESSIVE)
    if possessive:
        word = word[:-2]
    if (word in STOP_WORDS or word in _VERBS or word.isdigit() or not writable(word)
            or (len(word) < 2 and word.isascii())):
        return 0
    if word in STORE_WORDS:  # "Beacon serving notes", never "Page tracking diets"
        return _INNER | _END
    return _START | _INNER | _END | (0 if possessive else _ALONE)


def _bare(word: str) -> str:
    """``word`` without a possessive ending: how a name's last word is shown."""
    return word[:-2] if word.endswith(_POSSESSIVE) else word


class _Phrases:
    """The phrases of every cluster, counted: per cluster ``{phrase: count}`` (a phrase
    is its case-folded words); over all clusters how often each phrase is used and by how
    many clusters, and in how many clusters each word is written each way.

    Counting runs in C (``Counter`` over ``zip`` and ``compress``); Python only judges
    each distinct word once (:func:`_flags`)."""

    def __init__(self, words: int) -> None:
        self.words = max(1, words)
        self.counts: dict[str, Counter[Gram]] = {}
        self.spread: Counter[str] = Counter()  # token as written → clusters using it
        self.uses: Counter[Gram] = Counter()
        self.df: Counter[Gram] = Counter()
        self.common: set[str] = set()  # words written all in lower case somewhere
        self._fold: dict[str, str] = {}
        self._last: dict[str, str] = {}  # as the last word: possessive dropped
        self._flags: dict[str, int] = {}

    def _learn(self, tokens: list[str]) -> None:
        distinct = set(tokens)
        self.spread.update(distinct)
        for token in distinct.difference(self._fold):
            folded = token.casefold()
            self._fold[token] = folded
            self._last[token] = _bare(folded)
            self._flags[token] = flags = _flags(token)
            if flags & _ALONE and token.islower():
                self.common.add(folded)

    def _grams(self, tokens: list[str]) -> Iterator[Gram]:
        """Every phrase of ``tokens`` (see the module docstring), as case-folded words.

        Each token's bits are one byte; which positions start a valid phrase of ``n``
        words is the AND of shifted byte strings (as big integers), all in C."""
        self._learn(tokens)
        folded = list(map(self._fold.__getitem__, tokens))
        last = list(map(self._last.__getitem__, tokens))
        flags = bytes(map(self._flags.__getitem__, tokens))
        streams = [compress(zip(folded), flags.translate(_BIT[_ALONE]))]
        start, inner, end = (int.from_bytes(flags.translate(_BIT[b]))
                             for b in (_START, _INNER, _END))
        size = len(tokens)
        for n in range(2, min(self.words, size) + 1):
            # position i starts one: word i starts, i+1 … i+n-2 are inner, i+n-1 ends
            ok = (start >> (8 * (n - 1))) & end
            for i in range(1, n - 1):
                ok &= inner >> (8 * (n - 1 - i))
            starts = ok.to_bytes(size)[n - 1:]  # (the low bytes are the last positions)
            streams.append(compress(zip(*(folded[i:] for i in range(n - 1)), last[n - 1:],
                                        strict=False), starts))
        return chain.from_iterable(streams)

    def add(self, key: str, text: str) -> None:
        """Count the phrases of cluster ``key``'s joined ``text``."""
        grams = list(self._grams(_TOKEN.findall(text)))
        counts = Counter(grams)
        self.counts[key] = counts
        self.uses.update(grams)
        self.df.update(counts.keys())

    def spellings(self) -> dict[str, str]:
        """Every case-folded word (and possessive-free last word) → how it is written in
        the most clusters (ties: first in code-point order, "Lisbon" before "lisbon")."""
        forms: dict[str, list[str]] = defaultdict(list)
        for token, folded in self._fold.items():
            forms[folded].append(token)
        spread = self.spread
        out = {word: min(ways, key=lambda w: (-spread[w], w)) for word, ways in forms.items()}
        for token, folded in self._fold.items():  # "Leo's" alone still spells "leo"
            out.setdefault(self._last[token], _bare(out[folded]))
        return out

    @staticmethod
    def spelling(phrase: Gram, forms: Mapping[str, str], *, title: bool = True) -> str:
        """``phrase`` written as its words most often are (:meth:`spellings`); with
        ``title``, the first letter raised when the first word is written all in lower
        case ("Reading group")."""
        words = [forms.get(w, w) for w in phrase]
        text = " ".join(words)
        return text[:1].upper() + text[1:] if title and words[0].islower() else text


def _cluster_texts(analysis: Analysis, clusters: Mapping[str, str]) -> dict[str, list[str]]:
    """Every cluster's texts (see the module docstring), in node order."""
    g = analysis.graph.graph
    texts: dict[str, list[str]] = defaultdict(list)
    for node, key in clusters.items():
        if node not in g:
            continue
        attrs = g.nodes[node]
        kind, record = attrs["kind"], attrs["record"]
        if kind == "memory":
            texts[key].append(getattr(record, "memory", "") or "")
        elif kind == "document":
            texts[key] += [getattr(record, "title", None) or ""] * TITLE_WEIGHT
            texts[key].append(getattr(record, "summary", None) or "")
        else:
            links = min(g.degree(node), LINK_WEIGHT_MAX)
            texts[key] += [getattr(record, "name", "") or ""] * (TITLE_WEIGHT + links)
            texts[key] += [data.get("predicate") or "" for _, _, data
                           in g.out_edges(node, data=True) if data.get("kind") == "relation"]
    return texts


def _length_bonus(phrase: Gram) -> float:
    """A longer phrase as often used as a shorter one says more ("Maya's friend Jess"
    over "Jess"), but not more than a word used half as often again."""
    return 1 + (len(phrase) - 1) / 4


class _Reversed:
    """A phrase that sorts backwards: of two equal weights and counts, the phrase first
    in the alphabet is the heavier."""

    __slots__ = ("phrase",)

    def __init__(self, phrase: Gram) -> None:
        self.phrase = phrase

    def __lt__(self, other: _Reversed) -> bool:
        return self.phrase > other.phrase


def _candidates(phrases: _Phrases, keys: list[str]) -> dict[str, list[tuple[float, Gram]]]:
    """Each cluster's :data:`CANDIDATES` heaviest phrases, heaviest first (the weight and
    which phrases may be names: see the module docstring). Phrases are read most used
    first; the reading stops when no phrase left could weigh more than the lightest
    candidate. A phrase only ever said inside a longer candidate (as often as it) is
    dropped: "Cobalt ticket" of "Cobalt ticket classifier" reads cut off."""
    df, uses, common = phrases.df, phrases.uses, phrases.common
    idf = {n: math.log((1 + len(keys)) / (1 + n)) + 1 for n in set(df.values())}
    bonus = [0.0] + [_length_bonus(("",) * n) for n in range(1, phrases.words + 1)]
    most = max(idf.values(), default=1.0) * bonus[-1]

    def weight(phrase: Gram, count: int) -> float:
        if len(phrase) > 1 and sum(map(len, phrase)) + len(phrase) - 1 > NAME_MAX:
            return 0.0
        if len(phrase) == 1 and phrase[0] in common:
            return 0.0
        return count * math.sqrt(count / uses[phrase]) * bonus[len(phrase)] * idf[df[phrase]]

    def heaviest(ranked: list[tuple[Gram, int]], floor: int
                 ) -> list[tuple[float, int, _Reversed]]:
        heap: list[tuple[float, int, _Reversed]] = []  # the lightest candidate on top
        for phrase, count in ranked:
            if count < floor or (len(heap) == 2 * CANDIDATES and count * most < heap[0][0]):
                break
            w = weight(phrase, count)
            if w <= 0:
                continue
            item = (w, count, _Reversed(phrase))
            if len(heap) < 2 * CANDIDATES:  # twice: some may be inside others
                heapq.heappush(heap, item)
            elif item > heap[0]:
                heapq.heapreplace(heap, item)
        return heap

    out: dict[str, list[tuple[float, Gram]]] = {}
    for key in keys:
        ranked = phrases.counts[key].most_common()
        heap = heaviest(ranked, 2) or heaviest(ranked, 1)  # used twice, else once
        best = sorted(heap, reverse=True)
        inside = {(r.phrase[i:j], c) for _, c, r in best if len(r.phrase) > 1
                  for i in range(len(r.phrase)) for j in range(i + 1, len(r.phrase) + 1)
                  if j - i < len(r.phrase)}
        out[key] = [(w, r.phrase) for w, c, r in best
                    if (r.phrase, c) not in inside][:CANDIDATES]
    return out


def _title_words(title: str | None) -> str:
    """The leading words of ``title`` that fit in :data:`NAME_MAX` characters (never a
    word cut; no common word or punctuation left dangling at the end); ``""`` when no
    word a person wrote fits.

    >>> _title_words("LoRA: Low-Rank Adaptation of Large Language Models (PDF)")
    'LoRA: Low-Rank Adaptation of Large'
    >>> _title_words("Q" * 5_000_000), _title_words(None)
    ('', '')
    """
    if not title:
        return ""
    kept: list[str] = []
    size = -1
    for word in title[: 4 * NAME_MAX + 64].split():
        if size + 1 + len(word) > NAME_MAX:
            break
        kept.append(word)
        size += 1 + len(word)
    while kept:
        last = kept[-1].rstrip(",;:([{—–-")
        if last and last.casefold() not in STOP_WORDS:
            kept[-1] = last
            break
        kept.pop()
    name = " ".join(kept)
    return name if any(writable(w) for w in _TOKEN.findall(name)) else ""


def _fallback(analysis: Analysis, key: str, members: list[Hashable], position: int) -> str:
    """A neutral name: the title of the cluster's most linked document, else a number."""
    g = analysis.graph.graph
    docs = sorted((n for n in members if n in g and g.nodes[n]["kind"] == "document"),
                  key=lambda n: (-g.degree(n), str(n)))
    for node in docs:
        if title := _title_words(getattr(g.nodes[node]["record"], "title", None)):
            return title
    match = _NUMBERED.fullmatch(key)
    return f"cluster {match.group(1) if match else position}"


def _subtitled(phrases: _Phrases, key: str, options: list[Gram],
               forms: Mapping[str, str], used: set[str]) -> str:
    """For a cluster whose phrases all name others: its best phrase and, after a colon,
    its next phrase sharing no word with it ("Maya's brother Leo: Japanese hiragana");
    ``""`` when no such name is free and fits."""
    if not options:
        return ""
    best = phrases.spelling(options[0], forms)
    for other in options[1:]:
        if set(other).isdisjoint(options[0]):
            name = f"{best}: {phrases.spelling(other, forms, title=False)}"
            if len(name) <= NAME_MAX and name.casefold() not in used:
                return name
    return ""


def _natural(key: str) -> tuple[int, str]:
    """Cluster keys in their own order, whatever order the nodes came in: ``c2`` before
    ``c10``, then any other key by the alphabet."""
    match = _NUMBERED.fullmatch(key)
    return (int(match.group(1)), "") if match else (1 << 62, key)


def _numbered(name: str, used: set[str]) -> str:
    """``name``, or ``name (2)``, ``name (3)`` … whichever is not ``used`` yet."""
    n, out = 1, name
    while out.casefold() in used:
        n += 1
        out = f"{name} ({n})"
    return out


def cluster_names(analysis: Analysis, clusters: Mapping[str, str], *,
                  words: int = 3) -> dict[str, str]:
    """``{cluster key: name}`` for every key in ``clusters`` (node id → cluster key;
    ``""`` = unlinked nodes, named ``"unlinked"``): a phrase of at most ``words`` words
    from the cluster's own text, distinct across clusters (see the module docstring)."""
    members: dict[str, list[Hashable]] = defaultdict(list)
    for node, key in clusters.items():
        members[key].append(node)
    phrases = _Phrases(words)
    for key, parts in _cluster_texts(analysis, clusters).items():
        if key != "":
            phrases.add(key, "\n".join(parts))
    order = {key: i for i, key in enumerate(sorted(members, key=_natural))}
    candidates = _candidates(phrases, [k for k in members if phrases.counts.get(k)])
    picks = sorted((-score, order[key], rank, key, phrase)
                   for key, options in candidates.items()
                   for rank, (score, phrase) in enumerate(options))
    forms = phrases.spellings()
    names: dict[str, str] = {"": UNLINKED} if "" in members else {}
    used = {UNLINKED}
    for *_, key, phrase in picks:
        if key not in names:
            name = phrases.spelling(phrase, forms)
            if name.casefold() not in used and len(name) <= NAME_MAX:
                names[key] = name
                used.add(name.casefold())
    for key in sorted(members, key=_natural):
        if key not in names:
            options = [p for _, p in candidates.get(key, [])]
            name = _subtitled(phrases, key, options, forms, used) or _numbered(
                phrases.spelling(options[0], forms) if options
                else _fallback(analysis, key, members[key], order[key] + 1), used)
            names[key] = name
            used.add(name.casefold())
    return {key: names[key] for key in members}


__all__ = ["NAME_MAX", "NAME_STOP_WORDS", "cluster_names"]
