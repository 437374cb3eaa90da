"""Integrity findings: the audit report of graph-semantics.md, one sentence each."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

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
)


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
    """Every finding of a built graph, ordered by kind then node id."""
    ds = mg.dataset
    memories = ds.memories
    out: list[Finding] = []
    add = out.append

    for ref in mg.dangling:
        if ref.relation == "parent":
            add(Finding("dangling_parent", [ref.node_id],
                        f"Memory {ref.node_id} names parent {ref.missing_id}, "
                        "which is not loaded."))
        elif ref.relation.startswith("relation:"):
            rel_id = ref.relation.split(":", 1)[1]
            add(Finding("dangling_relation", [ref.node_id],
                        f"Relation {rel_id} of entity {ref.node_id} names entity "
                        f"{ref.missing_id}, which is not in the data."))
        else:
            add(Finding("dangling_relation", [ref.node_id],
                        f"Memory {ref.node_id} declares '{ref.relation}' on {ref.missing_id}, "
                        "which is not loaded."))

    for chain in chains.chains:
        if chain.cycle:
            add(Finding("cycle", list(chain.cycle),
                        f"Parent pointers form a cycle: {' → '.join(chain.cycle)}."))
        for parent, kids in chain.branches.items():
            add(Finding("branch", [parent, *kids],
                        f"Memory {parent} has {len(kids)} later versions: {', '.join(kids)}."))
        latest = chain.latest_ids
        if len(latest) > 1:
            add(Finding("multiple_latest", latest,
                        f"The chain rooted at {chain.root} has {len(latest)} latest versions: "
                        f"{', '.join(latest)}."))
        for e in chain.entries:
            if e.repaired:
                add(Finding("version_repair", [e.id],
                            f"Memory {e.id} has stored version {e.stored_version!r}; "
                            f"shown as {e.version}."))

    for mem_id, mem in memories.items():
        if mem.is_forgotten and mem.is_latest:
            add(Finding("forgotten_latest", [mem_id],
                        f"Memory {mem_id} is forgotten but still marked latest."))
        if memory_state(mem, now) == "expired":
            add(Finding("expired_not_forgotten", [mem_id],
                        f"Memory {mem_id} was due to be forgotten at "
                        f"{format_time(mem.forget_after)} but is not forgotten."))
        if not ds.memory_documents.get(mem_id):
            add(Finding("orphan_memory", [mem_id],
                        f"Memory {mem_id} has no loaded document."))

    for other, mem_id in mg.declared_updates:
        parent = memories[mem_id].parent_id
        if parent != other:
            says = f"its parent is {parent}" if parent else "it has no parent"
            add(Finding("updates_contradicts_parent", [other, mem_id],
                        f"Memory {mem_id} declares that it updates {other}, but {says}."))

    for unk in mg.unknown_relations:
        nodes = [unk.memory_id] + ([unk.other_id] if unk.other_id in memories else [])
        add(Finding("unknown_relation", nodes,
                    f"Memory {unk.memory_id} declares unknown relation '{unk.declared}' on "
                    f"{unk.other_id}; read as 'updates'."))

    seen_dup: set[str] = set()
    for dup in ds.duplicates:
        if dup.memory_id in seen_dup:
            continue
        seen_dup.add(dup.memory_id)
        where = f" under {dup.document_id}" if dup.document_id else ""
        add(Finding("duplicate_memory", [dup.memory_id],
                    f"Memory {dup.memory_id} appears again{where} with different values; "
                    "the first occurrence is used."))

    rank = {kind: i for i, kind in enumerate(FINDING_KINDS)}
    out.sort(key=lambda f: (rank[f.kind], f.nodes))
    return out
