"""Colour groups: the group each node is coloured by, and each group's colour.

By cluster (weakly connected components, the large ones split into Louvain communities,
each named by its most telling words: :func:`~memscope.view.names.cluster_names`), by
memory space, or by document type. Nothing here is remembered: the view pipeline keeps
the clusters of each content (the ``derived`` step, :mod:`memscope.view.derived`), and a
caller drawing outside it that needs them twice computes them once and passes them on
(``groups=``).

>>> from memscope.graph.analysis import analyse
>>> from memscope.records.dataset import from_feed_pages
>>> an = analyse(from_feed_pages([{"documents": [{"id": "d", "title": "Lisbon trip",
...     "memoryEntries": [{"id": "m", "memory": "Maya flies to Lisbon."}]}]}]))
>>> keys, labels, order = cluster_keys(an)
>>> keys, labels["c1"], order
({'d': 'c1', 'm': 'c1'}, 'Lisbon', ['c1'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping
from typing import Any

import igraph as ig
import networkx as nx

from memscope.graph.analysis import Analysis
from memscope.records.text import KEY_MAX, bounded_key
from memscope.view.colors import NEUTRAL, OTHER_COLOR
from memscope.view.layout import seeded_igraph
from memscope.view.names import cluster_names
from memscope.view.style import PALETTE

#: connected components at least this large are split into Louvain communities
COMMUNITY_MIN = 40

#: colour groups: node → group key (``""``: the neutral group), key → name, keys by
#: decreasing size
Groups = tuple[Mapping[Any, str], Mapping[str, str], list[str]]
#: the same, as computed here
Keys = tuple[dict[Hashable, str], dict[str, str], list[str]]


def group_keys(analysis: Analysis, color_by: str) -> Keys:
    """Colour-group key of every node, a label per key and the keys in colour order.

    The key ``""`` is the neutral group (unlinked nodes, no space, no document).
    """
    if color_by == "cluster":
        return cluster_keys(analysis)
    if color_by == "space":
        keys = _space_keys(analysis)
        labels = {"": "no space", **{k: k for k in keys.values() if k}}
    else:
        keys = _type_keys(analysis)
        labels = {"": "no document", **{
            k: k.split(":", 1)[1] if k.startswith("type:") else "entity · " + k.split(":", 1)[1]
            for k in keys.values() if k}}
    if any(len(k) > KEY_MAX for k in labels):  # a 5 MB space tag is no key to send
        short = {k: bounded_key(k) for k in labels}
        keys = {n: short[k] for n, k in keys.items()}
        labels = {short[k]: label for k, label in labels.items()}
    counts = Counter(k for k in keys.values() if k)
    order = sorted(counts, key=lambda k: (-counts[k], k))
    return keys, labels, order


def cluster_keys(analysis: Analysis) -> Keys:
    """Cluster keys ``c1``, ``c2`` … by decreasing size (single nodes are unlinked,
    ``""``), each cluster's name and the keys in order."""
    keys: dict[Hashable, str] = {}
    order: list[str] = []
    comps = [sorted(c, key=str) for c in communities(analysis.graph.graph)]
    comps.sort(key=lambda c: (-len(c), str(c[0])))
    for rank, comp in enumerate(comps):
        key = f"c{rank + 1}" if len(comp) > 1 else ""
        for node in comp:
            keys[node] = key
        if key:
            order.append(key)
    names = cluster_names(analysis, {str(k): v for k, v in keys.items() if v})
    labels = {"": "unlinked", **{k: names.get(k, k) for k in order}}
    return keys, labels, order


def cluster_groups(analysis: Analysis) -> tuple[dict[str, str], dict[str, str]]:
    """Every node's cluster key (``""`` = unlinked) and a name per key: its most telling
    words (``""`` is ``"unlinked"``); the same grouping and names as
    ``color_by="cluster"``."""
    keys, labels, _ = cluster_keys(analysis)
    return {str(k): v for k, v in keys.items()}, labels


def _space_keys(analysis: Analysis) -> dict[Hashable, str]:
    """A memory's space; a document's most common memory space; ``""`` for the rest."""
    ds = analysis.dataset
    keys: dict[Hashable, str] = {}
    for node, attrs in analysis.graph.graph.nodes(data=True):
        kind, record = attrs["kind"], attrs["record"]
        if kind == "memory":
            keys[node] = record.space or ""
        elif kind == "document":
            spaces = Counter(s for m in record.memory_ids
                             if (s := ds.memories[m].space) is not None)
            keys[node] = min(spaces, key=lambda s: (-spaces[s], s)) if spaces else ""
        else:
            keys[node] = ""
    return keys


def _type_keys(analysis: Analysis) -> dict[Hashable, str]:
    """``type:<document type>`` for documents and their memories, ``entity:<type>``."""
    ds = analysis.dataset
    keys: dict[Hashable, str] = {}
    for node, attrs in analysis.graph.graph.nodes(data=True):
        kind, record = attrs["kind"], attrs["record"]
        if kind == "document":
            keys[node] = f"type:{record.type}"
        elif kind == "memory":
            docs = attrs.get("documents") or []
            keys[node] = f"type:{ds.documents[docs[0]].type}" if docs else ""
        else:
            keys[node] = f"entity:{record.type}"
    return keys


def communities(g: nx.MultiDiGraph) -> list[list[Hashable]]:
    """Weakly connected components; big ones split into Louvain communities (seeded)."""
    out: list[list[Hashable]] = []
    position: dict[Hashable, int] = {}
    for comp in nx.weakly_connected_components(g):
        if len(comp) < COMMUNITY_MIN:
            out.append(list(comp))
            continue
        if not position:
            position = {n: i for i, n in enumerate(g)}
        nodes = sorted(comp, key=position.__getitem__)  # graph order: deterministic
        index = {n: i for i, n in enumerate(nodes)}
        # a weakly connected component holds every edge out of its nodes: its nodes' own
        # out-edges are its edges (a subgraph view would filter each one again)
        pairs = {(min(index[u], index[v]), max(index[u], index[v]))
                 for u, v in g.out_edges(nodes) if u != v}
        with seeded_igraph(len(nodes)):
            parts = ig.Graph(n=len(nodes), edges=sorted(pairs)).community_multilevel()
        out.extend([nodes[i] for i in part] for part in parts)
    return out


def palette_of(order: list[str]) -> dict[str, str]:
    """Colour per group key: the first :data:`~memscope.view.style.PALETTE` keys (the
    largest groups) one colour each, every later key
    :data:`~memscope.view.colors.OTHER_COLOR`; ``""`` is neutral."""
    colors = {k: PALETTE[i] if i < len(PALETTE) else OTHER_COLOR for i, k in enumerate(order)}
    colors[""] = NEUTRAL
    return colors


__all__ = ["COMMUNITY_MIN", "Groups", "Keys", "cluster_groups", "cluster_keys", "communities",
           "group_keys", "palette_of"]
