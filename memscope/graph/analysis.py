"""One call from a dataset to everything the views need: graph, chains, states, findings."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from functools import cached_property

from memscope.graph.build import MemoryGraph, build_graph
from memscope.graph.chains import Chains, build_chains
from memscope.graph.findings import Finding, find_all
from memscope.graph.states import memory_state, state_epoch, transition_times
from memscope.records.dataset import Dataset
from memscope.records.time import utc_now


@dataclass
class Analysis:
    """A dataset read through the rules of graph-semantics.md at a given ``now``."""

    dataset: Dataset
    graph: MemoryGraph
    chains: Chains
    findings: list[Finding]
    now: datetime

    def state(self, node_id: str) -> str | None:
        """The memory state of a node; ``None`` for documents and entities."""
        mem = self.dataset.memories.get(node_id)
        return memory_state(mem, self.now) if mem is not None else None

    @cached_property
    def transitions(self) -> list[datetime]:
        """The instants at which some state changes (see :func:`transition_times`)."""
        return transition_times(self.dataset.memories.values())

    def epoch(self, when: datetime) -> int:
        """States at ``when`` equal states at another time with the same epoch."""
        return state_epoch(self.transitions, when)

    def at(self, when: datetime) -> Analysis:
        """The same graph and chains judged at ``when`` (states and findings); the graph
        is shared, not copied."""
        return replace(self, now=when, findings=find_all(self.graph, self.chains, when))

    @cached_property
    def date_range(self) -> tuple[date, date] | None:
        """The first and last creation day in the data (``None`` when nothing is dated)."""
        ds = self.dataset
        days = [r.created_at.date() for r in (*ds.memories.values(), *ds.documents.values(),
                                              *ds.entities.values()) if r.created_at]
        return (min(days), max(days)) if days else None

    @cached_property
    def spaces(self) -> list[str]:
        """The spaces the memories belong to, sorted (memories without one add nothing).

        >>> from memscope.records.dataset import from_feed_pages
        >>> analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        ...     {"id": "a", "memory": "x", "spaceContainerTag": "work"},
        ...     {"id": "b", "memory": "y"}]}]}])).spaces
        ['work']
        """
        return sorted({m.space for m in self.dataset.memories.values() if m.space is not None})

    @cached_property
    def document_types(self) -> list[str]:
        """The document types present, sorted."""
        return sorted({d.type for d in self.dataset.documents.values()})

    def counts(self) -> dict[str, int]:
        """Headline counts for the UI."""
        ds = self.dataset
        return {
            "documents": len(ds.documents),
            "memories": len(ds.memories),
            "entities": len(ds.entities),
            "relations": len(ds.relations),
            "chains": len(self.chains),
            "findings": len(self.findings),
            "skipped": len(ds.report.skipped),
        }


def analyse(dataset: Dataset, now: datetime | None = None) -> Analysis:
    """Build the graph, the chains and the findings of ``dataset``."""
    when = now or utc_now()
    graph = build_graph(dataset)
    chains = build_chains(dataset.memories)
    return Analysis(dataset, graph, chains, find_all(graph, chains, when), when)
