"""One call from a dataset to everything the views need: graph, chains, states, findings."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from memscope.chains import Chains, build_chains
from memscope.dataset import Dataset
from memscope.findings import Finding, find_all
from memscope.graph import MemoryGraph, build_graph
from memscope.states import memory_state, utcnow


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
    when = now or utcnow()
    graph = build_graph(dataset)
    chains = build_chains(dataset.memories)
    return Analysis(dataset, graph, chains, find_all(graph, chains, when), when)
