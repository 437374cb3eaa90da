"""Time travel: the memory as it stood at a moment, and what changed between two moments.

Rules (the data only keeps the *current* state of each record, so the past is rebuilt
from timestamps):

* **Existence.** A memory, document, entity or Spomory relation exists at ``when`` if its
  ``createdAt`` ≤ ``when``. A record without ``createdAt`` cannot be placed in time and is
  treated as always present.
* **Forgetting.** A forgotten memory counts as forgotten at ``when`` only if it was
  forgotten by then. The feeds carry no forgetting time, so :func:`forgotten_at` takes the
  best available one: an explicit ``forgottenAt`` (kept in ``extra`` when a source sends
  it), else ``updatedAt`` (the embedded store sets it when it forgets; for a service it is
  the last change of the record, which is the forgetting unless something changed after
  it), else ``createdAt``. Before that moment the memory is shown as not forgotten and
  without its forget reason. ``updatedAt`` itself is left as recorded.
* **Latest.** As of ``when``, a memory is *not* latest if a loaded child (a memory whose
  ``parentMemoryId`` names it, the link version chains are made of) already existed;
  otherwise, if it has a loaded child that was created later, it *was* latest then (it
  was superseded afterwards); otherwise it keeps its recorded ``isLatest`` (a memory marked
  superseded by a version we never loaded stays superseded: nothing tells us when) —
  unless it carries the time it was retired (``expiredAt``, a temporal fact's), which
  places it: latest before that time.
  ``memoryRelations`` of kind ``updates`` without a matching parent pointer are not used
  for this (they contradict the chain and are an audit finding of their own).
* **References.** ``memoryRelations`` entries that name a memory created after ``when``
  are removed; entries naming a memory that was never loaded stay (they are dangling now
  as they were then). A ``parentMemoryId`` is left as recorded. Spomory relations whose
  subject or object did not exist yet are removed. An undated entity that facts name
  (``entityIds``: Graphiti, Zep) is there once one of the facts kept is.
* Documents keep only the memories that existed; a document created before ``when``
  stays even if all its memories came later. Profile lines (which carry no dates) stay,
  citing only memories that existed.

**Two clocks** (Graphiti and Zep facts carry ``valid_at`` / ``invalid_at``, when a fact
was true in the world, besides ``created_at`` / ``expired_at``, when the memory learnt it
and stopped believing it). Every rule above reads the memory's own clock
(:data:`BELIEVED`, transaction time: what the memory believed that day). On the world
clock (:data:`TRUE`, valid time: what was true that day):

* a memory exists at ``when`` once it became true (``valid_at`` ≤ ``when``); one with no
  ``valid_at`` is taken as true from when it was learnt (``created_at``) —
  :func:`world_clocks` counts them so a page can say so;
* it is current while ``when`` < ``invalid_at`` and no newer version is true yet; from
  ``invalid_at`` on it is not latest. Without an ``invalid_at`` it ends, as on the other
  clock, when a newer version replaced it or the memory retired it;
* a document stays when it existed or when one of its memories is true that day (a fact
  true before the episode that told it was saved keeps its source).

Forgetting (a deletion, not a world event) reads the memory's own clock on both.

Expiry is judged by :func:`memscope.graph.analysis.analyse` with ``now=when``::

    >>> from datetime import UTC, datetime
    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": "a", "memory": "v1", "isLatest": False, "createdAt": "2026-01-01T00:00:00Z"},
    ...     {"id": "b", "memory": "v2", "parentMemoryId": "a",
    ...      "createdAt": "2026-02-01T00:00:00Z"}]}]}])
    >>> jan = datetime(2026, 1, 15, tzinfo=UTC)
    >>> past = as_of(ds, jan)
    >>> sorted(past.memories), past.memories["a"].is_latest
    (['a'], True)
    >>> analyse(past, now=jan).state("a")
    'latest'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any, Literal

from memscope.records.dataset import Dataset, Duplicate
from memscope.records.models import (
    DocumentRecord,
    MemoryRecord,
    ParseReport,
    Profile,
    ProfileLine,
)
from memscope.records.time import aware, parse_time

CHANGE_KINDS = ("added", "updated", "forgotten")
#: Okabe–Ito colours: added (bluish green), updated (blue), forgotten (vermillion)

#: the clock time travel reads: what the memory believed (transaction time, the default)
#: or what was true in the world (valid time; data with world clocks only)
Clock = Literal["believed", "true"]
BELIEVED: Clock = "believed"
TRUE: Clock = "true"
CLOCKS: tuple[Clock, ...] = (BELIEVED, TRUE)


def has_world_clock(mem: MemoryRecord) -> bool:
    """True when ``mem`` says when it was true in the world (``valid_at`` or
    ``invalid_at``)."""
    return mem.valid_at is not None or mem.invalid_at is not None


@dataclass(frozen=True)
class WorldClocks:
    """What a dataset holds of the world clock: how many memories carry one, how many
    memories do not say when they became true (when any does: on the world clock they
    are placed at when they were learnt), and the first day any became true."""

    facts: int = 0
    undated: int = 0
    first: date | None = None


def world_clocks(dataset: Dataset) -> WorldClocks:
    """Count the memories with a world clock (see :class:`WorldClocks`).

    >>> from memscope.records.dataset import Dataset
    >>> world_clocks(Dataset())
    WorldClocks(facts=0, undated=0, first=None)
    """
    facts = undated = 0
    first: datetime | None = None
    for mem in dataset.memories.values():
        facts += has_world_clock(mem)
        if mem.valid_at is None:
            undated += 1
        elif first is None or mem.valid_at < first:
            first = mem.valid_at
    if not facts:
        return WorldClocks()
    return WorldClocks(facts, undated, first.date() if first is not None else None)


def began(mem: MemoryRecord, clock: Clock = BELIEVED) -> datetime | None:
    """When ``mem`` starts on ``clock``: ``created_at``, or on the world clock its
    ``valid_at`` (when it has none: ``created_at``, when it was learnt)."""
    if clock == TRUE and mem.valid_at is not None:
        return mem.valid_at
    return mem.created_at


def document_began(doc: DocumentRecord, memories: dict[str, MemoryRecord],
                   clock: Clock = BELIEVED) -> datetime | None:
    """When ``doc`` starts on ``clock`` (``None``: always there): its ``created_at``; on
    the world clock, earlier when one of its loaded memories became true before (a fact
    true before the episode that told it was saved keeps its source, see :func:`as_of`).

    >>> from memscope.records.models import DocumentRecord
    >>> t = datetime(2026, 3, 1, tzinfo=UTC)
    >>> doc = DocumentRecord("d", created_at=t, memory_ids=["m"])
    >>> mem = MemoryRecord("m", "x", created_at=t, valid_at=datetime(2026, 1, 15, tzinfo=UTC))
    >>> document_began(doc, {"m": mem}).day, document_began(doc, {"m": mem}, TRUE).day
    (1, 15)
    """
    start = doc.created_at
    if clock != TRUE or start is None:
        return start
    for mem_id in doc.memory_ids:
        mem = memories.get(mem_id)
        if mem is None:
            continue
        held = began(mem, TRUE)
        if held is None:  # an undated memory is always there, and so is its document
            return None
        start = min(start, held)
    return start


def existed(created_at: datetime | None, when: datetime) -> bool:
    """True when a record created at ``created_at`` existed at ``when`` (no date: always)."""
    return created_at is None or created_at <= aware(when)


def forgotten_at(mem: MemoryRecord) -> datetime | None:
    """When ``mem`` was forgotten, as well as the data tells; ``None`` if it is not.

    ``extra["forgottenAt"]`` if it parses, else ``updatedAt``, else ``createdAt``, else
    the beginning of time (forgotten "always").
    """
    if not mem.is_forgotten:
        return None
    explicit = parse_time(mem.extra.get("forgottenAt")) if mem.extra else None
    return explicit or mem.updated_at or mem.created_at or datetime.min.replace(tzinfo=UTC)


def forgotten_by(mem: MemoryRecord, when: datetime) -> bool:
    """True when ``mem`` was already forgotten at ``when`` (see :func:`forgotten_at`)."""
    at = forgotten_at(mem)
    return at is not None and at <= aware(when)


def children_of(memories: dict[str, MemoryRecord]) -> dict[str, list[str]]:
    """Each loaded memory's loaded children (by ``parentMemoryId``), in dataset order."""
    kids: dict[str, list[str]] = {}
    for mem_id, mem in memories.items():
        if mem.parent_id is not None and mem.parent_id in memories and mem.parent_id != mem_id:
            kids.setdefault(mem.parent_id, []).append(mem_id)
    return kids


def memory_as_of(mem: MemoryRecord, when: datetime, kids: list[str],
                 kept: dict[str, MemoryRecord], dropped: set[str],
                 clock: Clock = BELIEVED) -> MemoryRecord:
    """``mem`` as it stood at ``when`` (``kept``: what existed then, ``dropped``: what did
    not): not forgotten before its time, not latest once a child in ``kept`` replaced it
    (on the world clock: nor once it stopped being true), latest when every child came
    later, and no relation to a dropped memory."""
    changes: dict[str, Any] = {}
    if mem.is_forgotten and not forgotten_by(mem, when):
        changes.update(is_forgotten=False, forget_reason=None)
    end = mem.invalid_at if clock == TRUE else None
    if any(k in kept for k in kids) or (end is not None and end <= when):
        changes["is_latest"] = False
    elif end is not None:  # true that day, and no newer version was yet
        changes["is_latest"] = True
    elif kids or (mem.expired_at is not None and mem.expired_at > when):
        # every loaded child came later, or it was retired later: the newest version then
        changes["is_latest"] = True
    if mem.relations is not None:
        relations = {o: k for o, k in mem.relations.items() if o not in dropped}
        changes["relations"] = relations
    return replace(mem, extra=dict(mem.extra), **changes)


def as_of(dataset: Dataset, when: datetime, clock: Clock = BELIEVED) -> Dataset:
    """A new dataset: ``dataset`` as it stood at ``when`` on ``clock`` (rules in the
    module docstring).

    The input is never changed; every kept record is a copy.
    """
    when = aware(when)
    memories = dataset.memories
    kept_ids = [m_id for m_id, m in memories.items() if existed(began(m, clock), when)]
    kept = {m_id: memories[m_id] for m_id in kept_ids}
    dropped = set(memories) - set(kept)
    kids = children_of(memories)

    out = Dataset()
    for doc_id, doc in dataset.documents.items():
        if existed(document_began(doc, memories, clock), when):
            out.documents[doc_id] = replace(doc, memory_ids=[m for m in doc.memory_ids
                                                             if m in kept],
                                            extra=dict(doc.extra))
    for mem_id in kept_ids:
        out.memories[mem_id] = memory_as_of(kept[mem_id], when, kids.get(mem_id, []),
                                             kept, dropped, clock)
        out.memory_documents[mem_id] = [d for d in dataset.memory_documents.get(mem_id, [])
                                        if d in out.documents]

    gone_entities = set()
    # an undated entity that facts name (Graphiti, Zep) is there once one of them is
    named = {e for m in dataset.memories.values() for e in m.entity_ids}
    named_now = {e for m in out.memories.values() for e in m.entity_ids}
    for ent_id, ent in dataset.entities.items():
        if existed(ent.created_at, when) and (ent.created_at is not None
                                               or ent_id not in named or ent_id in named_now):
            out.entities[ent_id] = replace(ent, aliases=list(ent.aliases),
                                           attributes=dict(ent.attributes),
                                           provenance=list(ent.provenance),
                                           extra=dict(ent.extra))
        else:
            gone_entities.add(ent_id)
    for rel_id, rel in dataset.relations.items():
        if existed(rel.created_at, when) and not ({rel.subject_id, rel.object_id}
                                                  & gone_entities):
            out.relations[rel_id] = replace(rel, provenance=list(rel.provenance),
                                            extra=dict(rel.extra))

    out.spaces = [replace(s, extra=dict(s.extra)) for s in dataset.spaces]
    out.profiles = {tag: _profile_as_of(p, kept) for tag, p in dataset.profiles.items()}
    out.duplicates = [Duplicate(d.memory_id, d.document_id) for d in dataset.duplicates
                      if d.memory_id in kept]
    out.report = ParseReport(list(dataset.report.skipped), list(dataset.report.issues))
    return dataset.carry(out)


def _profile_as_of(profile: Profile, kept: dict[str, MemoryRecord]) -> Profile:
    def lines(items: list[ProfileLine]) -> list[ProfileLine]:
        return [ProfileLine(p.text, p.kind, [m for m in p.memory_ids if m in kept])
                for p in items]

    return Profile(profile.container_tag, lines(profile.static), lines(profile.dynamic))


@dataclass(frozen=True)
class Comparison:
    """What changed between ``t1`` (exclusive) and ``t2`` (inclusive), on ``clock``.

    ``added``: memories created in (t1, t2] (on the world clock: that became true then,
    see :func:`began`) that are not a new version (no ``parentMemoryId``). ``updated``:
    new versions (with a ``parentMemoryId``) created (became true) in (t1, t2], by their
    own id; ``replaced[new_id]`` is the version it replaced (its parent
    id, which may not be loaded). ``forgotten``: memories that existed at t2 and were
    forgotten in (t1, t2] (see :func:`forgotten_at`). ``added`` and ``updated`` never
    overlap; a memory created and forgotten inside the window is in both its list and
    ``forgotten``. Every list keeps dataset order.
    """

    t1: datetime
    t2: datetime
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    replaced: dict[str, str] = field(default_factory=dict)
    clock: Clock = BELIEVED

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """``(replaced version, new version)`` for every update."""
        return [(self.replaced[new], new) for new in self.updated]

    def change_of(self, node_id: str) -> str | None:
        """``"forgotten"``, ``"updated"`` or ``"added"`` (in that precedence), else None."""
        for kind in ("forgotten", "updated", "added"):
            if node_id in getattr(self, kind):
                return kind
        return None

    def counts(self) -> dict[str, int]:
        """Number of memories per change kind."""
        return {kind: len(getattr(self, kind)) for kind in CHANGE_KINDS}


def compare(dataset: Dataset, t1: datetime, t2: datetime,
            clock: Clock = BELIEVED) -> Comparison:
    """Memories added, updated (new versions) and forgotten between ``t1`` and ``t2``
    (added and updated on ``clock``; forgetting on the memory's own).

    Raises ``ValueError`` when ``t1`` is after ``t2``.
    """
    t1, t2 = aware(t1), aware(t2)
    if t1 > t2:
        raise ValueError("The first date of a comparison must not be after the second.")
    added: list[str] = []
    updated: list[str] = []
    forgotten: list[str] = []
    replaced: dict[str, str] = {}
    for mem_id, mem in dataset.memories.items():
        start = began(mem, clock)
        if not existed(start, t2):
            continue
        if not existed(start, t1):
            if mem.parent_id is not None:
                updated.append(mem_id)
                replaced[mem_id] = mem.parent_id
            else:
                added.append(mem_id)
        if forgotten_by(mem, t2) and not forgotten_by(mem, t1):
            forgotten.append(mem_id)
    return Comparison(t1, t2, added, updated, forgotten, replaced, clock)
