"""Records → a networkx ``MultiDiGraph``, exactly as graph-semantics.md says.

Example::

    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": "a", "memory": "x"}, {"id": "b", "memory": "y", "parentMemoryId": "a"}]}]}])
    >>> sorted(build_graph(ds).graph.edges(keys=True))
    [('a', 'b', 'updates'), ('d', 'a', 'source'), ('d', 'b', 'source')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from memscope.records.dataset import Dataset
from memscope.records.models import RELATION_KINDS

#: a suspected contradiction between two memories (the semantic audit's): never an edge
#: of this graph (the view draws it on top, :mod:`memscope.view.edges`), but a kind
#: the "Relation kinds" filter offers like the others
CONTRADICTS = "contradicts"
#: a fact's edge to each of its entities (Graphiti, Zep: its two ends)
ABOUT = "about"
EDGE_KINDS = ("source", *RELATION_KINDS, "relation", ABOUT, CONTRADICTS)


@dataclass(slots=True)
class DanglingRef:
    """A reference to a record that is not loaded; it adds no edge.

    ``relation`` is ``"parent"`` for a ``parentMemoryId``, the declared relation type for
    a ``memoryRelations`` entry, or ``"relation:<id>"`` for a Spomory relation.
    """

    node_id: str
    missing_id: str
    relation: str


@dataclass(slots=True)
class UnknownRelation:
    """A ``memoryRelations`` entry whose type is not one we know; it is read as ``updates``."""

    memory_id: str
    other_id: str
    declared: str


@dataclass
class MemoryGraph:
    """The graph and what building it noticed."""

    graph: nx.MultiDiGraph
    dataset: Dataset
    dangling: list[DanglingRef] = field(default_factory=list)
    unknown_relations: list[UnknownRelation] = field(default_factory=list)
    #: ``(other, memory)`` pairs of ``updates`` edges that came from ``memoryRelations``
    declared_updates: list[tuple[str, str]] = field(default_factory=list)

    def dangling_of(self, node_id: str) -> list[DanglingRef]:
        """Dangling references made by ``node_id``."""
        return [d for d in self.dangling if d.node_id == node_id]


#: ``(from, to, key, attributes)``: a keyed edge of the multigraph
_Edge = tuple[str, str, str, dict[str, Any]]


def build_graph(ds: Dataset) -> MemoryGraph:
    """Build the graph of a dataset; linear in its size.

    All node ids are added before any relation edge, so references work in any direction
    and across documents and pages.
    """
    g = nx.MultiDiGraph()
    mg = MemoryGraph(graph=g, dataset=ds)
    g.add_nodes_from((doc_id, {"kind": "document", "record": doc})
                     for doc_id, doc in ds.documents.items())
    g.add_nodes_from(
        (mem_id, {"kind": "memory", "record": mem, "documents": ds.memory_documents[mem_id]})
        for mem_id, mem in ds.memories.items()
    )
    g.add_nodes_from((ent_id, {"kind": "entity", "record": ent})
                     for ent_id, ent in ds.entities.items())

    edges: list[_Edge] = []
    for mem_id, docs in ds.memory_documents.items():
        edges.extend((doc_id, mem_id, "source", {"kind": "source"}) for doc_id in docs)
    edges.extend(_version_edges(mg))
    edges.extend(_entity_edges(mg))
    edges.extend((mem_id, ent_id, ABOUT, {"kind": ABOUT})
                 for mem_id, mem in ds.memories.items() for ent_id in mem.entity_ids
                 if ent_id in ds.entities)
    # The stubs type MultiDiGraph.add_edges_from like Graph's (no key in the tuple), but a
    # multigraph takes ``(u, v, key, data)``; this is networkx's documented form.
    g.add_edges_from(edges)  # pyright: ignore[reportArgumentType]
    return mg


def _version_edges(mg: MemoryGraph) -> list[_Edge]:
    """The ``updates``/``extends``/``derives`` edges between memories; notes what dangles.

    A memory's declared ``memoryRelations`` win over its ``parentMemoryId``; a parent that
    is not loaded is dangling either way.
    """
    memories = mg.dataset.memories
    edges: list[_Edge] = []
    for mem_id, mem in memories.items():
        if mem.relations:
            for other, declared in mem.relations.items():
                kind = declared
                if declared not in RELATION_KINDS:
                    mg.unknown_relations.append(UnknownRelation(mem_id, other, declared))
                    kind = "updates"
                if other not in memories:
                    mg.dangling.append(DanglingRef(mem_id, other, declared))
                    continue
                edges.append((other, mem_id, kind, {"kind": kind, "via": "relations",
                                                    "declared": declared}))
                if kind == "updates":
                    mg.declared_updates.append((other, mem_id))
        elif mem.parent_id is not None and mem.parent_id in memories:
            edges.append((mem.parent_id, mem_id, "updates",
                          {"kind": "updates", "via": "parent", "declared": "parent"}))
        if mem.parent_id is not None and mem.parent_id not in memories:
            mg.dangling.append(DanglingRef(mem_id, mem.parent_id, "parent"))
    return edges


def _entity_edges(mg: MemoryGraph) -> list[_Edge]:
    """One edge per Spomory relation whose two entities are loaded; the rest dangle."""
    entities = mg.dataset.entities
    edges: list[_Edge] = []
    for rel_id, rel in mg.dataset.relations.items():
        missing = [e for e in (rel.subject_id, rel.object_id) if e not in entities]
        if missing:
            present = rel.subject_id if rel.subject_id in entities else rel.object_id
            for e in missing:
                mg.dangling.append(DanglingRef(present, e, f"relation:{rel_id}"))
            continue
        edges.append((rel.subject_id, rel.object_id, rel_id, {
            "kind": "relation", "relation_id": rel_id, "predicate": rel.predicate,
            "confidence": rel.confidence, "record": rel,
        }))
    return edges
