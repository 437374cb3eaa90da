"""How large each node is drawn: by kind, a document card's width, and a memory by how
much depends on it.

A memory's size grows by :data:`SIZE_STEP` per doubling of what depends on it (its later
versions, the memories extending or derived from it, transitively), up to
:data:`SIZE_STEPS` steps. :func:`dependents` counts them; nothing here is remembered
(the view pipeline keeps them per graph: its ``dependents`` step).

>>> import networkx as nx
>>> g = nx.MultiDiGraph([("a", "b", {"kind": "updates"}), ("b", "c", {"kind": "extends"})])
>>> dependents(g), memory_size(dependents(g)["a"])
({'a': 2, 'b': 1}, 17)
"""

from __future__ import annotations

from collections.abc import Hashable

import networkx as nx

#: vis-network ``size`` per node kind (a document card sizes itself to its title: its
#: ``size`` only serves the label layers)
SIZES = {"document": 16, "memory": 11, "entity": 14}
#: a document card's width (its title wrapped inside) and padding, in px
CARD_WIDTH = 120
CARD_MARGIN = 8
#: 11, 14, 17, 20, 23 px for 0, 1, 2–3, 4–7, 8+ dependents
SIZE_STEP = 3
SIZE_STEPS = 4
#: the edge kinds along which a memory depends on another (the newer / derived end)
DEPENDS = ("updates", "extends", "derives")
#: past this many, a memory's dependents are not counted further (its size is capped)
DEPENDENTS_CAP = 1 << SIZE_STEPS


def memory_size(dependents: int) -> int:
    """A memory's drawn size for how many memories depend on it (bounded: see
    :data:`SIZE_STEP`).

    >>> [memory_size(n) for n in (0, 1, 2, 3, 4, 8, 500)]
    [11, 14, 17, 17, 20, 23, 23]
    """
    steps = min(SIZE_STEPS, max(0, dependents).bit_length())
    return SIZES["memory"] + SIZE_STEP * steps


def dependents(g: nx.MultiDiGraph) -> dict[Hashable, int]:
    """Memories reachable from each memory along :data:`DEPENDS` edges (its later
    versions, what extends it or is derived from it, and so on), counted up to
    :data:`DEPENDENTS_CAP`; memories with none are left out."""
    after: dict[Hashable, list[Hashable]] = {}
    for u, v, kind in g.edges(data="kind"):
        if kind in DEPENDS and u != v:
            after.setdefault(u, []).append(v)
    out: dict[Hashable, int] = {}
    for start, nexts in after.items():
        seen = {start}
        todo = list(nexts)
        while todo and len(seen) <= DEPENDENTS_CAP:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                todo.extend(after.get(node, ()))
        out[start] = len(seen) - 1
    return out


__all__ = ["CARD_MARGIN", "CARD_WIDTH", "DEPENDENTS_CAP", "DEPENDS", "SIZES", "SIZE_STEP",
           "SIZE_STEPS", "dependents", "memory_size"]
