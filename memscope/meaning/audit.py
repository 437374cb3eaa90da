"""The semantic audit: suspected contradictions, suspicious updates, near-duplicates.

:func:`semantic_findings` reads an :class:`~memscope.graph.analysis.Analysis` and returns
:class:`~memscope.meaning.findings.SemanticFinding` items in a fixed order (kind, space,
score high first, ids). It is pure: the same analysis (and the same embedding rows) gives
the same list. It costs one embedding of the memories involved plus a pass over candidate
pairs — compute it **once per data version** and keep it with the load (the caller memoises
it per load, like the analysis itself; it never needs to run on a click).

Which memories: the latest, not forgotten ones, each space on its own. Which pairs: two
memories about one person (the subject of their claim, or the owner of one of their
clauses: :attr:`~memscope.meaning.claims.Claim.keys`) that share a word of their claim or
an attribute family; in a large subject group, each memory's nearest neighbours by
embedding outside its own chain.
A pair is a suspected contradiction when the claim check says both cannot hold
(:func:`~memscope.meaning.claims.conflict`), the two are on one topic (cosine similarity
at least :data:`TOPIC`, unless the rule itself found one attribute: a fact's family, a
denied object), and no version edge or chain links them. Near-duplicates: pairs of one
subject and the same names, numbers and dates with a cosine of at least :data:`NEAR` (or
the same words), gathered into groups that span several documents. A suspicious update:
an ``updates`` edge whose two texts are about different things — another person, or
attributes that differ (:func:`~memscope.meaning.claims.update_relation`) — or, when the
words cannot tell, whose plain words are not close in meaning (cosine below
:data:`UPDATE_RELATED`); a shared name is no evidence, every memory about a person has it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import combinations, product

import numpy as np

from memscope.graph.analysis import Analysis
from memscope.meaning.claims import (
    Claim,
    Conflict,
    as_of,
    claim,
    compared_widely,
    conflict,
    content_text,
    measured,
    update_relation,
)
from memscope.meaning.diets import allergens, given_up, ruled_out
from memscope.meaning.findings import KINDS, SemanticFinding
from memscope.meaning.levels import ages_of
from memscope.records.models import MemoryRecord

#: the least cosine similarity for two memories to be on one topic (a contradiction)
TOPIC = 0.25
#: the least cosine similarity for two memories to state the same fact
NEAR = 0.9
#: an update whose plain words (no subject, names, numbers or dates) are at least this close
#: is not suspicious when the words cannot tell (development half of the issue-35 pairs:
#: unrelated updates at most 0.12, genuine ones from 0.18). Chinese: both texts without
#: their common start, and WordLlama reads Chinese as byte pieces (0.4-0.9 for any two)
UPDATE_RELATED = 0.15
UPDATE_RELATED_ZH = 0.75
#: a subject group up to this size is checked pair by pair; above it, neighbours only
FULL_GROUP = 400
#: neighbours per memory in a large subject group
NEIGHBOURS = 12
_LINKS = ("updates", "extends", "derives")
_QUOTE = 80

_WHAT = {"negation": "one negates the other", "preference": "they state opposite preferences",
         "date": "say another date", "number": "say another number",
         "place": "say another place", "person": "say another person",
         "name": "say another name", "value": "say another value",
         "time": "put one routine at hours that cannot both hold",
         "days": "put someone at work on a day the other says they have off",
         "lifetime": "put something someone lived through before they could have",
         "reports": "make each of two people the other's manager"}


def _embed(texts: Sequence[str]) -> np.ndarray:
    """Rows for ``texts`` from the offline model; word overlap stands in when it is
    unavailable (rows of zeros: every cosine is 0, so only the claim check decides)."""
    from memscope.meaning.embed import DIM, EmbedderUnavailable, embed

    try:
        return embed(texts)
    except EmbedderUnavailable:
        return np.zeros((len(texts), DIM), dtype=np.float32)


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _QUOTE else flat[: _QUOTE - 1] + "…"


def _original(word: str, text: str) -> str:
    """``word`` (lower-cased, perhaps stemmed) as written in ``text`` when it is there,
    whole."""
    if not word:
        return word
    pattern = re.escape(word).replace(r"\ ", r"\s+")
    match = re.search(pattern, text, re.IGNORECASE)
    if word[-1:].isascii() and word[-1:].isalpha() and not re.search(
            rf"{pattern}\b", text, re.IGNORECASE):  # a stem, to its word's end: "alone"
        match = re.search(rf"{pattern}[a-z]*", text, re.IGNORECASE) or match
    words = word.split()
    if match is None and len(words) > 1:  # words the rules joined: "React with TypeScript"
        match = re.search(rf"{re.escape(words[0])}\w*(?:\W+\w+){{0,3}}?\W+"
                          rf"{re.escape(words[-1])}\w*", text, re.IGNORECASE)
    return match.group(0) if match else word


def _order(mem: MemoryRecord) -> tuple:
    return (mem.created_at is None, mem.created_at or 0, mem.id)


class _Rows:
    """Embedding rows by memory id, computed for all ids at once (each distinct text is
    embedded once: the same text in many memories has one row)."""

    def __init__(self, memories: Mapping[str, MemoryRecord], ids: Sequence[str],
                 given: Mapping[str, np.ndarray] | None) -> None:
        given = given or {}
        missing = [i for i in ids if i not in given]
        texts = sorted({memories[i].memory for i in missing})
        fresh = _embed(texts) if texts else None
        row_of = {text: n for n, text in enumerate(texts)}
        self.index = {mem_id: n for n, mem_id in enumerate(ids)}
        dim = fresh.shape[1] if fresh is not None else (
            len(next(iter(given.values()))) if given else 1)
        self.matrix = np.zeros((len(ids), dim), dtype=np.float32)
        for n, mem_id in enumerate(ids):
            if mem_id in given:
                self.matrix[n] = given[mem_id]
        if fresh is not None:
            self.matrix[[self.index[i] for i in missing]] = fresh[
                [row_of[memories[i].memory] for i in missing]]

    def cos(self, a: str, b: str) -> float:
        return float(self.matrix[self.index[a]] @ self.matrix[self.index[b]])

    def pair_cos(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """The cosine of each pair, computed together."""
        if not pairs:
            return []
        left = self.matrix[[self.index[a] for a, _b in pairs]]
        right = self.matrix[[self.index[b] for _a, b in pairs]]
        return np.einsum("ij,ij->i", left, right).tolist()

    def block(self, ids: Sequence[str]) -> np.ndarray:
        return self.matrix[[self.index[i] for i in ids]]


def _candidates(group: list[str], claims: Mapping[str, Claim], rows: _Rows,
                chain_of: Mapping[str, int], key: tuple[str, ...] | None = None
                ) -> set[tuple[str, str]]:
    """Pairs of one subject group worth checking: sharing a claim word or both short,
    or (in a large group) among each other's nearest neighbours in other chains.

    ``chain_of``: memory id → its chain's number. In a large group two versions of one
    chain are never neighbours: a chain links them (they are never a contradiction), and
    a chain whose versions all count as latest (no ``isLatest`` sent) would otherwise
    fill every memory's neighbours with its own versions. (A small group keeps its
    pairs of one chain: same words there still make near-duplicates.)
    """
    pairs: set[tuple[str, str]] = set()
    if len(group) <= FULL_GROUP:
        by_word: dict[str, list[str]] = defaultdict(list)
        for mem_id in group:
            c = claims[mem_id]
            for word in _pair_keys(c):
                by_word[word].append(mem_id)
            if len(c.core) <= 3:  # "Jonas's manager is X": the value may be all there is
                by_word["\x00short"].append(mem_id)
        for members in by_word.values():
            pairs.update(combinations(members, 2))
        # a text in the group for the kin it denies or speaks of ("Sara has no children",
        # "Ewa's only child", in the group of their children) is compared with every text
        # about them
        deniers = [m for m in group if key in claims[m].kin_spoken_of]
        if deniers:
            about = [m for m in group if any(key and cl.owner[:len(key)] == key
                                             for cl in claims[m].clauses)]
            pairs.update((a, b) if a < b else (b, a) for a, b in product(deniers, about)
                         if a != b)
        # a text denying something of its owner is compared with every text about them: the
        # thing may come in another form ("has never skied" / "skis in Zakopane")
        deniers = [m for m in group if any((cl.denials or ruled_out(cl.text) or allergens(cl.text)
                                            or given_up(cl.text))
                                           and cl.owner == key for cl in claims[m].clauses) or (
            compared_widely(claims[m]) and any(cl.owner[:len(key or ())] == key
                                               for cl in claims[m].clauses))]
        pairs.update((a, b) if a < b else (b, a) for a, b in product(deniers, group) if a != b)
        return pairs
    # a memory without a chain is a chain of its own (a number no chain has)
    chain = np.array([chain_of.get(m, -1 - n) for n, m in enumerate(group)])
    numbers, sizes = np.unique(chain, return_counts=True)
    if len(numbers) == 1:
        return pairs
    others = len(group) - sizes[np.searchsorted(numbers, chain)]
    block = rows.block(group)
    for start in range(0, len(group), 1024):
        sims = block[start:start + 1024] @ block.T
        sims[chain[start:start + 1024, None] == chain[None, :]] = -2.0  # self included
        for offset, row in enumerate(sims):
            n = start + offset
            k = min(NEIGHBOURS, int(others[n]))
            if k == 0:
                continue
            for m in np.argpartition(-row, k)[:k]:
                a, b = group[n], group[int(m)]
                pairs.add((a, b) if a < b else (b, a))
    return pairs


def _pair_keys(c: Claim) -> set[str]:
    """What two texts of one group must share to be compared: a word, or an attribute
    family both give a value for ("lives in" / "home is in")."""
    keys = set(c.words)
    for clause in c.clauses:
        keys.update(clause.claim.words)
        keys.update(f"\x00{fact.key}" for fact in clause.facts)
        # an age, a zodiac animal or a sign and a birth are compared (compare.
        # _age_against_birth, _zodiac_against_birth, _sign_against_birth)
        keys.update(k for fact in clause.facts if fact.key == "birthday"
                    for k in ("\x00age", "\x00zodiac", "\x00sign"))
        # a stage of schooling, or a state that needs an age, and an age
        # (levels.age_against_stage)
        keys.update("\x00age" for fact in clause.facts if ages_of(fact) is not None)
        keys.update(f"\x00{d.family}" for d in clause.denials if d.family)
    keys.update(f"\x00measured {key}" for key in measured(c))
    return keys


class _Groups:
    """Union-find over memory ids (near-duplicate groups)."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        root = self.parent.setdefault(x, x)
        while root != self.parent[root]:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def semantic_findings(analysis: Analysis, rows: Mapping[str, np.ndarray] | None = None
                      ) -> list[SemanticFinding]:
    """Every semantic finding of ``analysis`` in a fixed order (see the module's text).

    ``rows``: embedding rows already computed for some memory ids (L2-normalised, as
    :func:`memscope.meaning.embed.embed` returns them); the rest are embedded here.
    """
    ds = analysis.dataset
    memories = ds.memories
    g = analysis.graph.graph
    current = sorted(m.id for m in memories.values() if m.is_latest and not m.is_forgotten)
    updates = sorted({(u, v) for u, v, data in g.edges(data=True)
                      if data.get("kind") == "updates" and u in memories and v in memories
                      and u != v})
    involved = sorted(set(current) | {x for pair in updates for x in pair})
    vectors = _Rows(memories, involved, rows)
    claims = {mem_id: claim(memories[mem_id].memory) for mem_id in involved}
    found: list[SemanticFinding] = []
    by_space: dict[str | None, list[str]] = defaultdict(list)
    for mem_id in current:
        by_space[memories[mem_id].space].append(mem_id)
    chain_of = {mem_id: n for n, chain in enumerate(analysis.chains.chains)
                for mem_id in chain.ids}
    for space in sorted(by_space, key=lambda s: (s is not None, s or "")):
        found.extend(_space_findings(analysis, space, by_space[space], claims, vectors,
                                     chain_of))
    found.extend(_suspicious_updates([(memories[p], memories[c]) for p, c in updates],
                                     claims, vectors))
    rank = {kind: n for n, kind in enumerate(KINDS)}
    return sorted(found, key=lambda f: (rank[f.kind], f.space is not None, f.space or "",
                                        -f.score, f.nodes))


def _readable(c: Claim) -> bool:
    """Whether a text has any word to read (not empty, not only symbols or emoji)."""
    return bool(c.words or c.subject)


def _linked(analysis: Analysis, a: str, b: str) -> bool:
    g = analysis.graph.graph
    for u, v in ((a, b), (b, a)):
        edges = g.get_edge_data(u, v)
        if edges and any(k in _LINKS for k in edges):
            return True
    chain_a, chain_b = analysis.chains.of(a), analysis.chains.of(b)
    return chain_a is not None and chain_a is chain_b


def _space_findings(analysis: Analysis, space: str | None, ids: list[str],
                    claims: Mapping[str, Claim], vectors: _Rows,
                    chain_of: Mapping[str, int]) -> list[SemanticFinding]:
    memories = analysis.dataset.memories
    # the same text twice is one statement: checked once, grouped as a near-duplicate
    same_text: dict[str, list[str]] = defaultdict(list)
    for mem_id in ids:
        if _readable(claims[mem_id]):  # a text with no words states nothing
            same_text[" ".join(memories[mem_id].memory.split()).casefold()].append(mem_id)
    groups = _Groups()
    for members in same_text.values():
        for other in members[1:]:
            groups.union(members[0], other)
    heads = sorted(members[0] for members in same_text.values())
    # a text is in the group of each person it speaks of: its subject and its clauses'
    # owners ("Ana left the company; Florin reports to Mihai Pop now" is Ana's and Florin's)
    by_subject: dict[tuple[str, ...], list[str]] = defaultdict(list)
    for mem_id in heads:
        for key in claims[mem_id].keys:
            by_subject[key].append(mem_id)
    out: list[SemanticFinding] = []
    seen: set[tuple[str, str]] = set()
    # two notes dated two different times are not compared (claims.as_of)
    dates = {mem_id: as_of(memories[mem_id].memory) for mem_id in heads}
    for subject in sorted(by_subject):
        pairs = sorted(_candidates(by_subject[subject], claims, vectors, chain_of, subject)
                       - seen)
        seen.update(pairs)
        for (a, b), cos in zip(pairs, vectors.pair_cos(pairs), strict=True):
            ca, cb = claims[a], claims[b]
            found = None if dates[a] and dates[b] and dates[a] != dates[b] else conflict(ca, cb)
            if found is None:
                if ca.subject == cb.subject and (ca.words == cb.words or (
                        cos >= NEAR and ca.values == cb.values)):
                    groups.union(a, b)
            elif (found.topical or cos >= TOPIC) and not _linked(analysis, a, b):
                out.append(_contradiction(memories[a], memories[b], found, cos, space))
    return out + _duplicates(analysis, space, ids, groups, vectors)


def _duplicates(analysis: Analysis, space: str | None, ids: list[str], groups: _Groups,
                vectors: _Rows) -> list[SemanticFinding]:
    """One finding per group of near-duplicates that spans several documents."""
    memories = analysis.dataset.memories
    docs = analysis.dataset.memory_documents
    members_of: dict[str, list[str]] = defaultdict(list)
    for mem_id in ids:
        members_of[groups.find(mem_id)].append(mem_id)
    out: list[SemanticFinding] = []
    for members in members_of.values():
        documents = {d for m in members for d in docs.get(m, ())}
        if len(members) < 2 or len(documents) < 2:
            continue
        ordered = sorted((memories[m] for m in members), key=_order)
        nodes = tuple(m.id for m in ordered)
        sims = [vectors.cos(x, y) for x, y in combinations(nodes[:50], 2)]
        score = round(max(0.0, min(1.0, min(sims))), 3) if sims else 1.0
        reason = (f"{len(nodes)} memories state the same fact in {len(documents)} documents "
                  f"(“{_quote(ordered[0].memory)}”).")
        out.append(SemanticFinding("near_duplicate", nodes, score, reason, space,
                                   tuple(m.memory for m in ordered)))
    return out


def _contradiction(a: MemoryRecord, b: MemoryRecord, found: Conflict, cos: float,
                   space: str | None) -> SemanticFinding:
    """The finding for two memories whose claims conflict (the older one first)."""
    first, second = sorted((a, b), key=_order)
    what = _WHAT[found.what]
    if found.left:
        left, right = (found.left, found.right) if first is a else (found.right, found.left)
        what += f" (“{_original(left, first.memory)}” / “{_original(right, second.memory)}”)"
    reason = (f"Both are about the same subject and attribute but {what}, and no update "
              "links them.")
    score = round(min(1.0, 0.8 * found.score + 0.2 * max(cos, 0.0)), 3)
    return SemanticFinding("suspected_contradiction", (first.id, second.id), score, reason,
                           space, (first.memory, second.memory))


def _after_common_start(a: str, b: str) -> tuple[str, str]:
    """Both texts without the words they start with in common ("Maya's colleague Omar
    plays …" / "Maya's colleague Omar parks …" → "plays …" / "parks …"; Chinese: the
    characters), so a shared subject does not make two claims look alike."""
    if claim(a).zh or claim(b).zh:
        n = 0
        while n < min(len(a), len(b)) and a[n] == b[n]:
            n += 1
        return a[n:], b[n:]
    wa, wb = a.split(), b.split()
    n = 0
    while n < min(len(wa), len(wb)) and wa[n].casefold() == wb[n].casefold():
        n += 1
    return " ".join(wa[n:]), " ".join(wb[n:])


def _compared(a: Claim, b: Claim, text_a: str, text_b: str) -> tuple[str, str]:
    """What the embedder compares for an update: the plain words each text says about its
    subject (English), or both texts without their common start (Chinese)."""
    if a.zh or b.zh:
        return _after_common_start(text_a, text_b)
    return content_text(a), content_text(b)


def _suspicious_updates(pairs: list[tuple[MemoryRecord, MemoryRecord]],
                        claims: Mapping[str, Claim], vectors: _Rows) -> list[SemanticFinding]:
    """The ``updates`` steps about different things: another person or other attributes
    (:func:`update_relation` says ``False``), or, when it cannot tell, plain words not
    close in meaning."""
    judged = [(p, c, update_relation(claims[p.id], claims[c.id])) for p, c in pairs
              if _readable(claims[p.id]) and _readable(claims[c.id])]
    candidates = [(p, c, verdict) for p, c, verdict in judged if verdict is not True]
    if not candidates:
        return []
    rests = [_compared(claims[p.id], claims[c.id], p.memory, c.memory)
             for p, c, _verdict in candidates]
    rows = _embed([text for pair in rests for text in pair])
    out: list[SemanticFinding] = []
    for n, (parent, child, verdict) in enumerate(candidates):
        cos = float(rows[2 * n] @ rows[2 * n + 1])
        zh = claims[parent.id].zh or claims[child.id].zh
        limit = UPDATE_RELATED_ZH if zh else UPDATE_RELATED
        if verdict is None and cos >= limit:
            continue
        reason = (f"“{_quote(child.memory)}” updated “{_quote(parent.memory)}”, but the two "
                  "are about different things: the service may have retired a fact by "
                  "mistake.")
        score = round(0.5 + 0.5 * (1.0 - min(1.0, max(cos, 0.0) / limit)), 3)
        if verdict is False:  # the words say so: another person, other attributes
            score = max(score, 0.7)
        out.append(SemanticFinding("suspicious_update", (parent.id, child.id), score, reason,
                                   child.space, (parent.memory, child.memory)))
    return out


__all__ = ["NEAR", "TOPIC", "UPDATE_RELATED", "semantic_findings"]
