"""Integrity findings: the audit report of graph-semantics.md, one sentence each."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from memscope.graph.build import MemoryGraph
from memscope.graph.chains import Chains
from memscope.graph.states import memory_state
from memscope.records.time import format_time

FINDING_KINDS = (
    "dangling_parent",
    "dangling_relation",
    "cycle",
    "branch",
    "multiple_latest",
    "forgotten_latest",
    "version_repair",
    "updates_contradicts_parent",
    "expired_not_forgotten",
    "unknown_relation",
    "duplicate_memory",
    "orphan_memory",
    "believed_after_true",
    "retired_alone",
    "clocks_out_of_order",
)
#: how long a fact may still be believed after it stopped being true before it is a
#: finding (learning of a change takes the time of the next episode that tells it)
BELIEF_LAG = timedelta(days=1)


@dataclass(slots=True)
class Finding:
    """One integrity finding: its kind, the node ids involved and a sentence."""

    kind: str
    nodes: list[str]
    message: str

    def as_dict(self) -> dict:
        """Plain JSON form."""
        return {"kind": self.kind, "nodes": list(self.nodes), "message": self.message}


def find_all(mg: MemoryGraph, chains: Chains, now: datetime) -> list[Finding]:
    """Every finding of a built graph, ordered by kind then node id. A finding that
    involves a memory the load could not read (``dataset.unread``) is left out, and a
    source that keeps no documents (``dataset.keeps_documents``) has no orphan memories.

    >>> from memscope.graph.build import build_graph
    >>> from memscope.graph.chains import build_chains
    >>> from memscope.records.dataset import from_feed_pages
    >>> from memscope.records.time import utc_now
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": "b", "memory": "y", "parentMemoryId": "gone"}]}]}])
    >>> [f.message for f in find_all(build_graph(ds), build_chains(ds.memories), utc_now())]
    ['Memory b names parent gone, which is not loaded.']
    """
    out = [
        *_dangling_findings(mg),
        *_chain_findings(chains),
        *_memory_findings(mg, now),
        *_declared_findings(mg),
        *_duplicate_findings(mg),
        *_clock_findings(mg),
    ]
    unread = mg.dataset.unread
    if unread:  # what rests on an unread memory is not known yet, so it is no finding
        out = [f for f in out if not unread.intersection(f.nodes)]
    rank = {kind: i for i, kind in enumerate(FINDING_KINDS)}
    out.sort(key=lambda f: (rank[f.kind], f.nodes))
    return out


def _dangling_findings(mg: MemoryGraph) -> Iterator[Finding]:
    """Parents and relations that name something not loaded."""
    for ref in mg.dangling:
        if ref.relation == "parent":
            yield Finding("dangling_parent", [ref.node_id],
                          f"Memory {ref.node_id} names parent {ref.missing_id}, "
                          "which is not loaded.")
        elif ref.relation.startswith("relation:"):
            rel_id = ref.relation.split(":", 1)[1]
            yield Finding("dangling_relation", [ref.node_id],
                          f"Relation {rel_id} of entity {ref.node_id} names entity "
                          f"{ref.missing_id}, which is not in the data.")
        else:
            yield Finding("dangling_relation", [ref.node_id],
                          f"Memory {ref.node_id} declares '{ref.relation}' on "
                          f"{ref.missing_id}, which is not loaded.")


def _chain_findings(chains: Chains) -> Iterator[Finding]:
    """Cycles, branches, several latest versions and repaired version numbers."""
    for chain in chains.chains:
        if chain.cycle:
            yield Finding("cycle", list(chain.cycle),
                          f"Parent pointers form a cycle: {_some(chain.cycle, sep=' → ')}.")
        for parent, kids in chain.branches.items():
            yield Finding("branch", [parent, *kids],
                          f"Memory {parent} has {len(kids)} later versions: {_some(kids)}.")
        latest = chain.latest_ids
        if len(latest) > 1:
            yield Finding("multiple_latest", latest,
                          f"The chain rooted at {chain.root} has {len(latest)} latest "
                          f"versions: {_some(latest)}.")
        for e in chain.entries:
            if e.repaired:
                yield Finding("version_repair", [e.id],
                              f"Memory {e.id} has stored version {e.stored_version!r}; "
                              f"shown as {e.version}.")


def _some(ids: list[str], limit: int = 10, sep: str = ", ") -> str:
    """The first ``limit`` ids joined by ``sep``, and how many more (a message stays one
    readable sentence on a 20,000-version chain)."""
    more = len(ids) - limit
    return sep.join(ids[:limit]) + (f" and {more} more" if more > 0 else "")


def _memory_findings(mg: MemoryGraph, now: datetime) -> Iterator[Finding]:
    """Per memory: forgotten but latest, expired but kept, no loaded document."""
    ds = mg.dataset
    for mem_id, mem in ds.memories.items():
        if mem.is_forgotten and mem.is_latest:
            yield Finding("forgotten_latest", [mem_id],
                          f"Memory {mem_id} is forgotten but still marked latest.")
        if memory_state(mem, now) == "expired":
            yield Finding("expired_not_forgotten", [mem_id],
                          f"Memory {mem_id} was due to be forgotten at "
                          f"{format_time(mem.forget_after)} but is not forgotten.")
        if ds.keeps_documents and not ds.memory_documents.get(mem_id):
            yield Finding("orphan_memory", [mem_id],
                          f"Memory {mem_id} has no loaded document.")


def _clock_findings(mg: MemoryGraph) -> Iterator[Finding]:
    """What only two clocks show (Graphiti, Zep: when a fact was true, and when the
    memory learnt and retired it): a fact believed more than :data:`BELIEF_LAG` after it
    stopped being true, a fact retired with no newer version linked, clocks out of order."""
    g = mg.graph
    for mem_id, mem in mg.dataset.memories.items():
        if mem.valid_at is None and mem.invalid_at is None and mem.expired_at is None:
            continue  # one clock only: nothing to compare
        learnt, ended, retired = mem.created_at, mem.invalid_at, mem.expired_at
        if ended is not None and retired is not None and learnt is not None and \
                learnt < ended and retired - ended > BELIEF_LAG:
            yield Finding("believed_after_true", [mem_id],
                          f"Memory {mem_id} was still believed {(retired - ended).days} days "
                          f"after it stopped being true ({format_time(ended)} → "
                          f"{format_time(retired)}).")
        if (ended is not None or retired is not None) and not any(
                k == "updates" for _, _, k in g.out_edges(mem_id, keys=True)):
            yield Finding("retired_alone", [mem_id],
                          f"Memory {mem_id} stopped being true or believed "
                          f"({format_time(ended or retired)}) and no newer version is linked.")
        if (mem.valid_at is not None and ended is not None and ended < mem.valid_at) or (
                learnt is not None and retired is not None and retired < learnt):
            yield Finding("clocks_out_of_order", [mem_id],
                          f"Memory {mem_id} ends before it begins on one of its clocks.")


def _declared_findings(mg: MemoryGraph) -> Iterator[Finding]:
    """Declared relations that contradict the parent pointer or are of an unknown kind."""
    memories = mg.dataset.memories
    for other, mem_id in mg.declared_updates:
        parent = memories[mem_id].parent_id
        if parent != other:
            says = f"its parent is {parent}" if parent else "it has no parent"
            yield Finding("updates_contradicts_parent", [other, mem_id],
                          f"Memory {mem_id} declares that it updates {other}, but {says}.")
    for unk in mg.unknown_relations:
        nodes = [unk.memory_id] + ([unk.other_id] if unk.other_id in memories else [])
        yield Finding("unknown_relation", nodes,
                      f"Memory {unk.memory_id} declares unknown relation '{unk.declared}' on "
                      f"{unk.other_id}; read as 'updates'.")


def _duplicate_findings(mg: MemoryGraph) -> Iterator[Finding]:
    """One finding per memory id that appeared again with different values."""
    seen: set[str] = set()
    for dup in mg.dataset.duplicates:
        if dup.memory_id in seen:
            continue
        seen.add(dup.memory_id)
        where = f" under {dup.document_id}" if dup.document_id else ""
        yield Finding("duplicate_memory", [dup.memory_id],
                      f"Memory {dup.memory_id} appears again{where} with different values; "
                      "the first occurrence is used.")
