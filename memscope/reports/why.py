"""“Why does it believe this?”: the provenance trail of one memory (or Spomory fact).

:func:`trail` reads an analysis top to bottom: the statement (what the memory's chain
says at the analysis's time, and which version was asked about), the versions that led
to it (date, what changed in words, whether it was inferred), the documents each version
came from (title, type, date and the passage the source gives) — for a mem0
``history.db``, the conversation turns it most likely came from and how they were matched
— the relations that touch it, the profile lines that cite it, and what would go with it
if forgotten. A :class:`Trail` is plain frozen data (:mod:`memscope.reports.trail`: the
records, the text, a change in words); :meth:`Trail.as_text` and :meth:`Trail.as_json`
render it.
Every text is bounded here (:func:`memscope.records.text.clip`); built from a masked
analysis (:func:`memscope.lenses.presenter.mask`) the trail holds no real text.

>>> from memscope.graph.analysis import analyse
>>> from memscope.records.dataset import from_feed_pages
>>> an = analyse(from_feed_pages([{"documents": [{"id": "d", "title": "Chat", "memoryEntries": [
...     {"id": "a", "memory": "Prefers Vue", "isLatest": False},
...     {"id": "b", "memory": "Prefers React", "parentMemoryId": "a", "version": 2}]}]}]))
>>> t = trail(an, "a")
>>> t.statement.id, [v.change for v in t.versions]
('b', ['First stated.', '“Vue” became “React”.'])
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Any

from memscope.graph.analysis import Analysis
from memscope.lenses.impact import forget_impact
from memscope.records.models import DocumentRecord
from memscope.records.text import FULL_MAX, clip, counted
from memscope.records.text import relation_label as join_relation
from memscope.records.time import format_time, parse_time
from memscope.reports.trail import (
    PASSAGE_MAX,
    QUOTE_MAX,
    CitingLine,
    Conversation,
    Link,
    Source,
    Statement,
    Trail,
    Turn,
    UnknownTrail,
    Version,
    change_words,
    ident,
    masked_change,
    quote,
)
from memscope.sources.mem0_events import CONVERSATION

#: states in which a version still holds (what the assistant believes now)
HOLDING = frozenset({"latest", "recent", "expiring"})
#: the most versions a trail lists (the newest; a note counts the rest)
VERSIONS_MAX = 100
#: the most relations a trail lists
RELATIONS_MAX = 50
#: the share of a profile line's words a version must hold to be what the line says
SAYS_SHARE = 0.75
#: "where it came from" without a loaded document, where the source keeps documents or not
SOURCELESS = "No source document is loaded."
KEEPS_NONE = "This service keeps no source documents: its version history is its provenance."
#: the most turns a conversation of the trail lists
TURNS_MAX = 20
_WORD = re.compile(r"\w+")
_PIECES = re.compile(r"(?<=[.!?])\s+|\n+")
#: an edge kind and its direction → how the trail says it
_WORDS = {("updates", "in"): "updates", ("updates", "out"): "is updated by",
          ("extends", "in"): "extends", ("extends", "out"): "is extended by",
          ("derives", "in"): "is inferred from", ("derives", "out"): "is a basis of",
          ("contradicts", "in"): "may contradict", ("contradicts", "out"): "may contradict",
          ("about", "out"): "is about", ("about", "in"): "is named by"}

def _words(text: str) -> set[str]:
    return {w.casefold() for w in _WORD.findall(text)}


def passage(text: str, doc: DocumentRecord) -> tuple[str | None, str | None]:
    """The part of ``doc`` that says ``text``: the piece (line or sentence) of its content
    sharing most of the memory's words (half at least), else its summary; and where it
    came from (``"content"``, ``"summary"``, or ``None`` when the source gives neither)."""
    wanted = _words(text)
    if doc.content and wanted:
        best, score = None, 0.0
        for piece in _PIECES.split(doc.content):
            got = len(wanted & _words(piece)) / len(wanted)
            if got > score:
                best, score = piece, got
        if best is not None and score >= 0.5:  # a list item's marker is no part of it
            return clip(best.strip().removeprefix("- ").removeprefix("* "), PASSAGE_MAX), \
                "content"
    if doc.summary:
        return clip(doc.summary, PASSAGE_MAX), "summary"
    return None, None


def _label(analysis: Analysis, node_id: str) -> str:
    ds = analysis.dataset
    mem = ds.memories.get(node_id)
    if mem is not None:
        return clip(mem.memory)
    doc = ds.documents.get(node_id)
    if doc is not None:
        return clip(doc.title or "(untitled)")
    ent = ds.entities.get(node_id)
    return clip(ent.name) if ent is not None else node_id


def _display_version(analysis: Analysis, mem_id: str) -> str:
    chain = analysis.chains.of(mem_id)
    entry = chain.entry(mem_id) if chain else None
    value = entry.version if entry else analysis.dataset.memories[mem_id].version
    return f"v{clip(str(value), 20)}"


def _newest(analysis: Analysis, ids: Iterable[str]) -> str | None:
    mems = analysis.dataset.memories

    def key(i: str) -> tuple:
        made = mems[i].created_at
        return (made is not None, made.timestamp() if made else 0.0, i)

    return max(ids, key=key, default=None)


def _statement_id(analysis: Analysis, asked: str) -> tuple[str, str | None, list[str]]:
    """The version whose text stands for ``asked`` now, a note when it is not plain, and
    the other versions that hold beside it: a holding version below ``asked`` (or else
    anywhere in its chain), the newest first."""
    chain = analysis.chains.of(asked)
    if chain is None:
        return asked, None, []
    below: set[str] = {asked}
    for entry in chain.entries:  # parents come before their children
        if entry.parent_id in below:
            below.add(entry.id)
    holding = [e.id for e in chain.entries if analysis.state(e.id) in HOLDING]
    mine = [i for i in holding if i in below]
    pick = _newest(analysis, mine or holding)
    if pick is None:
        last = _newest(analysis, chain.ids) or asked
        return last, ("No version of this chain holds now (each is superseded, forgotten "
                      "or expired); its newest version is shown."), []
    note = None
    others = [i for i in mine or holding if i != pick]
    if others:
        note = (f"The chain has {len(others) + 1} versions that hold at once (a branch); "
                "the newest is shown, the others are listed beside it.")
    return pick, note, others


def _path(analysis: Analysis, last: str) -> list[str]:
    """``last`` and its ancestors, oldest first; a parent cycle ends where it repeats."""
    mems = analysis.dataset.memories
    out: list[str] = []
    seen: set[str] = set()
    node: str | None = last
    while node is not None and node in mems and node not in seen:
        seen.add(node)
        out.append(node)
        mem = mems[node]
        node = mem.parent_id
        if node is None and mem.relations:  # a declared update names its parent
            node = next((o for o, k in mem.relations.items() if k == "updates"), None)
    out.reverse()
    return out


def _version(analysis: Analysis, mem_id: str, parent: str | None, asked: str,
             masked: bool) -> Version:
    ds, g = analysis.dataset, analysis.graph.graph
    mem = ds.memories[mem_id]
    before = ds.memories[parent].memory if parent is not None else None
    bases = [u for u, _, k in g.in_edges(mem_id, keys=True) if k == "derives"]
    return Version(
        id=mem_id, version=_display_version(analysis, mem_id),
        created=format_time(mem.created_at), state=analysis.state(mem_id),
        text=clip(mem.memory),
        change=(masked_change if masked else change_words)(before, mem.memory),
        inferred=mem.is_inference or bool(bases),
        derived_from=tuple(f"{quote(_label(analysis, b), QUOTE_MAX)} ({ident(b)})"
                           for b in bases),
        asked=mem_id == asked)


def _sources(analysis: Analysis, versions: Iterable[Version]) -> list[Source]:
    ds = analysis.dataset
    out = []
    for v in versions:
        text = ds.memories[v.id].memory
        for doc_id in ds.memory_documents.get(v.id, []):
            doc = ds.documents[doc_id]
            found, where = passage(text, doc)
            out.append(Source(v.id, doc_id, clip(doc.title or "(untitled)"), clip(doc.type),
                              format_time(doc.created_at), found, where))
    return out


def _turns(raw: Any) -> tuple[Turn, ...]:
    rows = [t for t in raw if isinstance(t, dict)] if isinstance(raw, list) else []
    return tuple(Turn(clip(str(t.get("role") or "unknown"), 40),
                      clip(t["content"], PASSAGE_MAX),
                      clip(t["name"], 80) if isinstance(t.get("name"), str) else None)
                 for t in rows[-TURNS_MAX:] if isinstance(t.get("content"), str))


def _conversations(analysis: Analysis, versions: Iterable[Version]) -> list[Conversation]:
    """The conversation each version most likely came from, as its source matched it
    (a mem0 ``history.db``'s saved turns, :func:`memscope.sources.mem0_history.most_likely`;
    a masked analysis keeps none)."""
    out = []
    for v in versions:
        said = analysis.dataset.memories[v.id].extra.get(CONVERSATION)
        turns = _turns(said.get("turns")) if isinstance(said, dict) else ()
        if isinstance(said, dict) and turns:
            out.append(Conversation(v.id, clip(str(said.get("session") or "unknown"), 120),
                                    format_time(parse_time(said.get("savedAt"))),
                                    clip(str(said.get("how") or "Matched by time."), 600),
                                    turns))
    return out


def _links(analysis: Analysis, node_id: str,
           contradicting: Iterable[str] = ()) -> tuple[list[Link], list[str]]:
    g = analysis.graph.graph
    rows = [(u, k, "in") for u, _, k in g.in_edges(node_id, keys=True) if k != "source"]
    rows += [(v, k, "out") for _, v, k in g.out_edges(node_id, keys=True) if k != "source"]
    rows += [(o, "contradicts", "out") for o in contradicting if o in g]
    links = [Link(str(kind), _WORDS.get((kind, d)) or str(kind), other, _label(analysis, other))
             for other, kind, d in rows]
    notes = [f"It names {clip(ref.missing_id, 80)} ({clip(ref.relation, 40)}), which is "
             "not loaded." for ref in analysis.graph.dangling_of(node_id)]
    return links, notes


def _bounded(links: list[Link], notes: list[str]) -> tuple[Link, ...]:
    if len(links) > RELATIONS_MAX:
        notes.append(f"{counted(len(links) - RELATIONS_MAX, 'more relation')} not listed.")
    return tuple(links[:RELATIONS_MAX])


def _says(line: str, texts: dict[str, set[str]]) -> list[str]:
    """The versions whose words hold :data:`SAYS_SHARE` of a profile line's words."""
    wanted = _words(line)
    if len(wanted) < 2:
        return []
    return [m for m, words in texts.items() if len(wanted & words) >= SAYS_SHARE * len(wanted)]


def _citing(analysis: Analysis, ids: Collection[str]) -> list[CitingLine]:
    """Profile lines naming a version of ``ids``; a line that names no memory (the legacy
    API's lines are bare strings) when it says what a version says."""
    out = []
    texts: dict[str, set[str]] | None = None
    for tag, profile in analysis.dataset.profiles.items():
        for line in (*profile.static, *profile.dynamic):
            cites, how = [m for m in line.memory_ids if m in ids], "cites"
            if not line.memory_ids or all(m.startswith("aggregated_") for m in line.memory_ids):
                if texts is None:
                    texts = {m: _words(analysis.dataset.memories[m].memory[:FULL_MAX])
                             for m in ids}
                cites, how = _says(line.text[:FULL_MAX], texts), "says what"
            if cites:
                out.append(CitingLine(clip(tag or "this space", 80), line.kind,
                                      clip(line.text),
                                      tuple(_display_version(analysis, m) for m in cites),
                                      how))
    return out


def _contradicting(semantic: Iterable[Any], node_id: str) -> list[str]:
    """The other memory of each suspected contradiction naming ``node_id``."""
    out = []
    for f in semantic:
        if getattr(f, "kind", None) == "suspected_contradiction" and node_id in f.nodes:
            out += [n for n in f.nodes if n != node_id]
    return list(dict.fromkeys(out))


def trail(analysis: Analysis, node_id: str, *, semantic: Iterable[Any] = (),
          masked: bool = False) -> Trail:
    """The trail of the memory (or Spomory fact) ``node_id``; ``semantic``: the semantic
    audit's findings, whose suspected contradictions are listed among the relations;
    ``masked``: ``analysis`` is masked (presenter mode), so a change is not told in words
    (the words of two placeholders say nothing).

    Raises :class:`UnknownTrail` (one sentence) for an id that is not a loaded memory or
    fact."""
    ds = analysis.dataset
    if node_id in ds.relations:
        return _fact_trail(analysis, node_id)
    if node_id not in ds.memories:
        raise UnknownTrail(_unknown(analysis, node_id))
    stated, note, others = _statement_id(analysis, node_id)
    path = _path(analysis, stated)
    notes: list[str] = []
    if len(path) > VERSIONS_MAX:
        notes.append(f"The first {counted(len(path) - VERSIONS_MAX, 'version')} of the "
                     "chain are not listed.")
    parents = dict(zip(path[1:], path, strict=False))
    shown = path[-VERSIONS_MAX:]
    versions = tuple(_version(analysis, m, parents.get(m), node_id, masked) for m in shown)
    if node_id not in path:
        notes.append(f"The version asked about ({ident(node_id)}) is on another branch of "
                     "the chain.")
    chain = analysis.chains.of(stated)
    if chain is not None and chain.incomplete:
        notes.append(f"Older versions are not loaded: the chain starts at "
                     f"{ident(chain.root)}, whose parent {clip(chain.missing_parent, 80)} "
                     "is missing.")
    if chain is not None and chain.cycle:
        notes.append(f"Parent pointers form a cycle ({counted(len(chain.cycle), 'member')}); "
                     "the versions are listed up to where it repeats.")
    links, link_notes = _links(analysis, stated, _contradicting(semantic, stated))
    notes += link_notes
    impact = forget_impact(analysis, stated)
    texts = {m: clip(ds.memories[m].memory) for m in (
        *impact.later_versions, *(d for d, _ in impact.dependants)) if m in ds.memories}
    mem = ds.memories[stated]
    statement = Statement(
        stated, clip(mem.memory, FULL_MAX), _display_version(analysis, stated),
        analysis.state(stated), node_id, _display_version(analysis, node_id),
        analysis.state(node_id), note if stated == node_id else _asked_note(
            analysis, node_id, note),
        tuple(f"{quote(_label(analysis, o))} ({ident(o)})" for o in others[:RELATIONS_MAX]))
    return Trail("memory", format_time(analysis.now), statement, versions,
                 tuple(_sources(analysis, versions)), _bounded(links, notes),
                 tuple(_citing(analysis, dict.fromkeys([*path, *others]))),
                 tuple(impact.sentences(texts)), tuple(notes),
                 () if masked else tuple(_conversations(analysis, versions)),
                 sourceless=SOURCELESS if analysis.dataset.keeps_documents else
                 KEEPS_NONE)


def _asked_note(analysis: Analysis, asked: str, note: str | None) -> str:
    said = (f"You asked about {_display_version(analysis, asked)} ({ident(asked)}), which is "
            f"{analysis.state(asked) or 'not current'}; this is what its chain says now.")
    return f"{said} {note}" if note else said


def _unknown(analysis: Analysis, node_id: str) -> str:
    ds, shown = analysis.dataset, clip(node_id, 80)
    if node_id in ds.documents:
        return f"{shown} is a document, not a memory: ask about one of its memories."
    if node_id in ds.entities:
        return f"{shown} is an entity, not a fact: ask about one of its facts."
    return f"Nothing with id {shown} is loaded."


def _fact_trail(analysis: Analysis, rel_id: str) -> Trail:
    """A Spomory fact: no versions or profile; its provenance is where it came from."""
    ds = analysis.dataset
    rel = ds.relations[rel_id]
    names = {e_id: e.name for e_id, e in ds.entities.items()}
    said = join_relation(names.get(rel.subject_id, rel.subject_id), rel.predicate,
                         names.get(rel.object_id, rel.object_id))
    created = format_time(rel.created_at)
    details = [f"confidence {rel.confidence:.2f}" if rel.confidence is not None else None,
               f"mentioned {counted(rel.mention_count, 'time')}"
               if rel.mention_count is not None else None]
    statement = Statement(rel_id, clip(said, FULL_MAX), "v1", "latest", rel_id, "v1",
                          "latest", "; ".join(d for d in details if d).capitalize() or None)
    version = Version(rel_id, "v1", created, "latest", clip(said), "First stated.", False,
                      asked=True)
    sources = tuple(Source(rel_id, p.source_id, clip(p.source_id or "(unnamed source)"),
                           clip(p.extractor or p.client_name or "provenance"), created,
                           clip(p.source_span, PASSAGE_MAX) if p.source_span else None,
                           "provenance" if p.source_span else None)
                    for p in rel.provenance)
    links = [Link("relation", role, e, clip(names[e]) if e in names else f"{e} (not loaded)")
             for role, e in (("subject:", rel.subject_id), ("object:", rel.object_id))]
    for other_id, other in ds.relations.items():
        if other_id != rel_id and {other.subject_id, other.object_id} & {
                rel.subject_id, rel.object_id}:
            links.append(Link("relation", "shares an entity with", other_id,
                              clip(join_relation(names.get(other.subject_id, other.subject_id),
                                                 other.predicate,
                                                 names.get(other.object_id, other.object_id)))))
    notes = ["A fact keeps no version history: the service returns only its current value."]
    return Trail("fact", format_time(analysis.now), statement, (version,), sources,
                 _bounded(links, notes), (), (), tuple(notes))


def pack_trails(analysis: Analysis, node_ids: Collection[str], limit: int = 20, *,
                masked: bool = False) -> dict[str, str]:
    """The trails an evidence pack of ``node_ids`` holds, as text by id: one per version
    that holds in each chain among them (its newest when none does), one per memory
    outside a chain and one per Spomory fact — at most ``limit``."""
    ds = analysis.dataset
    heads: list[str] = []
    done: set[int] = set()
    for n in node_ids:
        chain = analysis.chains.of(n) if n in ds.memories else None
        if chain is None:
            if n in ds.memories or n in ds.relations:
                heads.append(n)
            continue
        if id(chain) in done:
            continue
        done.add(id(chain))
        holding = [i for i in chain.ids if analysis.state(i) in HOLDING]
        heads += holding or [_newest(analysis, chain.ids) or chain.root]
    for n in node_ids:  # an entity's facts
        if n in ds.entities:
            heads += [r for r, rel in ds.relations.items()
                      if n in (rel.subject_id, rel.object_id)]
    chosen = list(dict.fromkeys(heads))[:limit]
    return {h: trail(analysis, h, masked=masked).as_text() for h in chosen}


__all__ = ["CitingLine", "Conversation", "Link", "Source", "Statement", "Trail", "Turn",
           "UnknownTrail", "Version", "change_words", "pack_trails", "passage", "trail"]
