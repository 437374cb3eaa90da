"""A Graphiti graph as Memscope records, and its facts as version chains.

Pure mapping, no database and no ``graphiti_core`` import: :mod:`memscope.sources.graphiti`
reads the graph through graphiti-core's drivers and hands over :class:`Episode`,
:class:`Entity` and :class:`Fact` values.

- an **episode** is a document (its content, source description and reference time);
- a **fact** (an entity edge) is a memory, listed under every loaded episode it came
  from (one memory with several sources, drawn once), with both clocks: ``valid_at`` /
  ``invalid_at`` (true in the world) and ``created_at`` / ``expired_at`` (believed);
- a ``group_id`` is a space;
- an **entity** is an entity node, and each fact an edge to each of its two entities
  ("about"); an entity with a summary is also a profile line of its space, citing its
  facts.

**Facts as versions** (:func:`chain_facts`, the rule of ``docs/graph-rules.md``): a fact
Graphiti retired (``expired_at``, else ``invalid_at``) is the version before the one newer
fact of the same relation between the same two entities that replaced it; two such
facts, clocks that leave a gap, or several retired facts for one newer fact are noted,
never guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from memscope.records.dataset import Dataset
from memscope.records.models import (
    DocumentRecord,
    MemoryRecord,
    ParseReport,
    Profile,
    ProfileLine,
    SpaceRecord,
    cap_text,
)
from memscope.records.passport import EntityRecord
from memscope.records.text import clip, counted
from memscope.records.time import format_time, in_range

#: how long after a fact was retired its replacement may still have been learnt
#: (Graphiti stamps the old fact's ``expired_at`` while it saves the new one)
RETIRE_GRACE = timedelta(minutes=1)
#: how far apart the old fact's end and the new fact's start may be and still meet
CLOCK_SLACK = timedelta(seconds=1)
#: the characters of an episode's text shown as its summary
SUMMARY_MAX = 1_000
#: keys under a memory's ``extra`` (Graphiti's own words for the fact's parts)
RELATION, SUBJECT, OBJECT = "graphitiRelation", "graphitiSubject", "graphitiObject"


@dataclass(frozen=True, slots=True)
class Episode:
    """One Graphiti episode (``EpisodicNode``)."""

    uuid: str
    name: str
    group_id: str
    content: str
    source: str
    source_description: str
    valid_at: datetime | None
    created_at: datetime | None


@dataclass(frozen=True, slots=True)
class Entity:
    """One Graphiti entity (``EntityNode``)."""

    uuid: str
    name: str
    group_id: str
    summary: str
    labels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Fact:
    """One Graphiti fact (``EntityEdge``) with its two clocks."""

    uuid: str
    group_id: str
    name: str
    fact: str
    source_uuid: str
    target_uuid: str
    episodes: tuple[str, ...]
    created_at: datetime | None
    expired_at: datetime | None = None
    valid_at: datetime | None = None
    invalid_at: datetime | None = None


def utc(when: datetime | None) -> datetime | None:
    """A database time as an aware UTC time (Kuzu hands back naive UTC); a time outside
    1700–2199 is read as missing."""
    if when is None:
        return None
    aware = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    return aware if in_range(aware) else None


@dataclass
class Links:
    """What :func:`chain_facts` decided: each newer fact's older version, and notes."""

    parent: dict[str, str] = field(default_factory=dict)
    notes: list[tuple[str, str]] = field(default_factory=list)


def _retired(f: Fact) -> datetime | None:
    """When the fact was retired: expired (no longer believed), else invalidated."""
    return f.expired_at or f.invalid_at


def _when(when: datetime | None) -> str:
    return format_time(when) or "an unknown time"


def _candidates(old: Fact, group: Sequence[Fact]) -> list[Fact]:
    """The facts of ``old``'s group learnt after it and, when it expired, no later than
    :data:`RETIRE_GRACE` after that."""
    if old.created_at is None:
        return []
    out = []
    for new in group:
        if new.uuid == old.uuid or new.created_at is None or new.created_at <= old.created_at:
            continue
        if old.expired_at is not None and new.created_at > old.expired_at + RETIRE_GRACE:
            continue
        out.append(new)
    return out


def chain_facts(facts: Iterable[Fact]) -> Links:
    """The version links between facts (see the module's rule), oldest first per pair.

    >>> t = datetime(2026, 3, 1, tzinfo=UTC)
    >>> old = Fact("a", "g", "LIVES_IN", "Ana lives in Porto", "ana", "porto", (), t,
    ...            expired_at=t + timedelta(days=9), invalid_at=t + timedelta(days=8))
    >>> new = Fact("b", "g", "LIVES_IN", "Ana lives in Lyon", "ana", "porto", (),
    ...            t + timedelta(days=9), valid_at=t + timedelta(days=8))
    >>> chain_facts([old, new]).parent
    {'b': 'a'}
    """
    groups: dict[tuple[str, str, str, str], list[Fact]] = {}
    for f in facts:
        groups.setdefault((f.group_id, f.source_uuid, f.target_uuid, f.name), []).append(f)
    links = Links()
    for group in groups.values():
        if len(group) < 2:
            continue
        claims: dict[str, list[Fact]] = {}
        for old in group:
            if _retired(old) is None:
                continue
            found = _candidates(old, group)
            if not found:
                continue  # retired with no newer fact: said by _notes_for
            if len(found) > 1:
                links.notes.append((old.uuid, (
                    f"The memory stopped believing this fact on {_when(_retired(old))}, and "
                    f"{counted(len(found), 'newer fact')} of the same relation between the "
                    "same two entities could have replaced it; no version link is drawn.")))
                continue
            new = found[0]
            if (old.invalid_at is not None and new.valid_at is not None
                    and abs(new.valid_at - old.invalid_at) > CLOCK_SLACK):
                how = "a gap" if new.valid_at > old.invalid_at else "an overlap"
                links.notes.append((old.uuid, (
                    f"This fact stopped being true on {_when(old.invalid_at)} but the newer "
                    f"fact that followed it is true from {_when(new.valid_at)} — {how} "
                    "between the two; no version link is drawn.")))
                continue
            claims.setdefault(new.uuid, []).append(old)
        for new_id, olds in claims.items():
            olds.sort(key=lambda f: (f.created_at or datetime.min.replace(tzinfo=UTC), f.uuid))
            links.parent[new_id] = olds[-1].uuid
            for other in olds[:-1]:
                links.notes.append((other.uuid, (
                    f"{counted(len(olds), 'older fact')} were retired by the same newer fact; "
                    "the newest of them is its version before, this one has no link.")))
    return links


def _document(ep: Episode) -> DocumentRecord:
    """An episode as a document; its text is its summary too (Graphiti keeps none), so
    the panel and the provenance trail show what was said."""
    kind = clip(ep.source or "episode", 40)
    return DocumentRecord(
        id=ep.uuid, title=cap_text(ep.name) or "(untitled episode)", type=kind,
        summary=clip(ep.content, SUMMARY_MAX) or None, source=cap_text(ep.source_description),
        content=cap_text(ep.content), status="done",
        metadata={"referenceTime": format_time(ep.valid_at), "group": ep.group_id},
        created_at=ep.created_at)


def _versions(facts: dict[str, Fact], parent: dict[str, str]) -> dict[str, tuple[int, str]]:
    """Each chained fact's version number and its chain's root."""
    out: dict[str, tuple[int, str]] = {}
    parents = set(parent.values())
    for fact_id in facts:
        trail = [fact_id]
        while trail[-1] in parent and len(trail) <= len(facts):
            trail.append(parent[trail[-1]])
        if len(trail) > 1 or fact_id in parents:
            out[fact_id] = (len(trail), trail[-1])
    return out


def _memory(f: Fact, names: dict[str, str], parent: str | None, latest: bool,
            version: tuple[int, str] | None) -> MemoryRecord:
    return MemoryRecord(
        id=f.uuid, memory=cap_text(f.fact) or "", container_tag=f.group_id,
        version=version[0] if version else 1, is_latest=latest, parent_id=parent,
        root_id=version[1] if version else None, created_at=f.created_at,
        updated_at=f.expired_at, valid_at=f.valid_at, invalid_at=f.invalid_at,
        expired_at=f.expired_at,
        entity_ids=tuple(dict.fromkeys(e for e in (f.source_uuid, f.target_uuid) if e)),
        extra={RELATION: f.name, SUBJECT: names.get(f.source_uuid, f.source_uuid),
               OBJECT: names.get(f.target_uuid, f.target_uuid)})


def dataset_of(episodes: Iterable[Episode], entities: Iterable[Entity],
               facts: Iterable[Fact]) -> Dataset:
    """Every episode, fact, space and entity summary as one dataset (the version links
    of :func:`chain_facts`; what could not be linked is under "Data issues"; what the two
    clocks show — a fact believed after it stopped being true, one retired with nothing
    newer, clocks out of order — are the audit's findings, :mod:`memscope.graph.findings`)."""
    ds = Dataset()
    report: ParseReport = ds.report
    eps = {e.uuid: e for e in episodes}
    ents = list(entities)
    names = {e.uuid: e.name for e in ents}
    by_id: dict[str, Fact] = {}
    for f in facts:
        if f.uuid in by_id:
            report.skip(f"fact {f.uuid}", "the same fact was read twice; the first is kept")
            continue
        by_id[f.uuid] = f
    for ep in eps.values():
        ds.documents[ep.uuid] = _document(ep)
    _entities(ds, ents, by_id)
    links = chain_facts(by_id.values())
    versions = _versions(by_id, links.parent)
    replaced = set(links.parent.values())
    for record, text in links.notes:
        report.note(record, text)
    for f in by_id.values():
        latest = f.uuid not in replaced and f.expired_at is None
        mem = _memory(f, names, links.parent.get(f.uuid), latest, versions.get(f.uuid))
        sources = [e for e in dict.fromkeys(f.episodes) if e in eps]
        if len(sources) < len(set(f.episodes)):
            report.note(f.uuid, f"{counted(len(set(f.episodes)) - len(sources), 'episode')} "
                                "this fact came from could not be read.")
        if not sources:
            ds.add_memory(mem, None)
        for ep_id in sources:
            ds.add_memory(mem, ep_id)
    _spaces(ds, eps.values(), by_id.values())
    _profiles(ds, ents, by_id.values())
    return ds


def _entities(ds: Dataset, ents: Sequence[Entity], facts: dict[str, Fact]) -> None:
    """Each entity as an entity node (its labels' first but "Entity" as its type)."""
    for ent in ents:
        if ent.uuid in ds.entities or ent.uuid in ds.documents or ent.uuid in facts:
            ds.report.skip(f"entity {ent.uuid}", "an entity id already used; the first is kept")
            continue
        ds.entities[ent.uuid] = EntityRecord(
            id=ent.uuid, name=clip(ent.name or ent.uuid, 200),
            type=next((label for label in ent.labels if label != "Entity"), "entity"),
            attributes={"summary": cap_text(ent.summary) or ""} if ent.summary.strip() else {},
            extra={"group": ent.group_id})


def _spaces(ds: Dataset, eps: Iterable[Episode], facts: Iterable[Fact]) -> None:
    docs: dict[str, int] = {}
    mems: dict[str, int] = {}
    for ep in eps:
        docs[ep.group_id] = docs.get(ep.group_id, 0) + 1
    for f in facts:
        mems[f.group_id] = mems.get(f.group_id, 0) + 1
    for tag in sorted(set(docs) | set(mems)):
        ds.spaces.append(SpaceRecord(container_tag=tag, name=tag,
                                     document_count=docs.get(tag, 0),
                                     memory_count=mems.get(tag, 0)))


def _profiles(ds: Dataset, entities: Sequence[Entity], facts: Iterable[Fact]) -> None:
    """Each space's entities with a summary, as static profile lines citing their facts."""
    cited: dict[str, list[str]] = {}
    for f in facts:
        for end in (f.source_uuid, f.target_uuid):
            cited.setdefault(end, []).append(f.uuid)
    for ent in sorted(entities, key=lambda e: (e.group_id, e.name.lower(), e.uuid)):
        if not ent.summary.strip():
            continue
        profile = ds.profiles.setdefault(ent.group_id, Profile(ent.group_id))
        text = cap_text(f"{ent.name}: {ent.summary.strip()}") or ""
        profile.static.append(ProfileLine(text, "static", cited.get(ent.uuid, [])[:20]))


__all__ = ["CLOCK_SLACK", "OBJECT", "RELATION", "RETIRE_GRACE", "SUBJECT",
           "Entity", "Episode", "Fact", "Links", "chain_facts", "dataset_of", "utc"]
