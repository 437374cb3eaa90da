"""Version chains: memories linked by ``parentMemoryId``, every branch kept.

Example::

    >>> from memscope.records.models import MemoryRecord as M
    >>> chains = build_chains({"a": M("a", "v1"), "b": M("b", "v2", version=5, parent_id="a"),
    ...                        "c": M("c", "v3", version=5, parent_id="b")})
    >>> [(e.id, e.stored_version, e.version) for e in chains.of("c").entries]
    [('a', 1, 1), ('b', 5, 5), ('c', 5, 6)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memscope.records.models import MemoryRecord, is_finite_number


@dataclass(slots=True)
class ChainEntry:
    """One version in a chain, with its display version."""

    id: str
    version: Any
    stored_version: Any
    parent_id: str | None
    text: str
    is_latest: bool
    is_forgotten: bool
    created_at: datetime | None
    updated_at: datetime | None
    depth: int
    repaired: bool = False


@dataclass
class Chain:
    """A connected set of versions, ordered from the root (branches included)."""

    root: str
    entries: list[ChainEntry]
    #: the root's parent is named but not loaded
    incomplete: bool = False
    missing_parent: str | None = None
    #: members on a parent-pointer cycle (empty when there is none)
    cycle: list[str] = field(default_factory=list)
    #: parent id → child ids, for parents with two or more children
    branches: dict[str, list[str]] = field(default_factory=dict)
    #: member id → its position in ``entries`` (built on first look-up)
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    @property
    def ids(self) -> list[str]:
        """Member ids in chain order."""
        return [e.id for e in self.entries]

    @property
    def latest_ids(self) -> list[str]:
        """Members marked latest and not forgotten (more than one is a finding)."""
        return [e.id for e in self.entries if e.is_latest and not e.is_forgotten]

    def entry(self, memory_id: str) -> ChainEntry | None:
        """The entry of one member (a dictionary look-up: callers ask for every member)."""
        if len(self._index) != len(self.entries):
            self._index = {e.id: i for i, e in enumerate(self.entries)}
        pos = self._index.get(memory_id)
        return None if pos is None else self.entries[pos]

    def window(self, memory_id: str, size: int = 50) -> tuple[int, list[ChainEntry]]:
        """At most ``size`` entries around ``memory_id`` (the first ones when it is not a
        member), and the position of the first: what a view of a long chain shows.

        >>> from memscope.records.models import MemoryRecord as M
        >>> mems = {f"v{i}": M(f"v{i}", "t", parent_id=f"v{i - 1}" if i else None)
        ...         for i in range(10)}
        >>> start, shown = build_chains(mems).of("v5").window("v5", 4)
        >>> start, [e.id for e in shown]
        (3, ['v3', 'v4', 'v5', 'v6'])
        """
        entry = self.entry(memory_id)
        pos = 0 if entry is None else self._index[memory_id]
        start = max(0, min(pos - size // 2, len(self.entries) - size))
        return start, self.entries[start:start + size]


@dataclass
class Chains:
    """All chains of a dataset, with a member → chain index."""

    chains: list[Chain] = field(default_factory=list)
    by_member: dict[str, Chain] = field(default_factory=dict)

    def of(self, memory_id: str) -> Chain | None:
        """The chain holding ``memory_id``; ``None`` for a memory without versions."""
        return self.by_member.get(memory_id)

    def __len__(self) -> int:
        return len(self.chains)


def _order_key(mem: MemoryRecord) -> tuple:
    created = mem.created_at
    return (created is None, created.timestamp() if created else 0.0, mem.id)


def _find_cycle(start: str, memories: dict[str, MemoryRecord]) -> list[str]:
    """Walk parent pointers from ``start`` until a member repeats; return the cycle."""
    seen: dict[str, int] = {}
    path: list[str] = []
    node: str | None = start
    while node is not None and node in memories and node not in seen:
        seen[node] = len(path)
        path.append(node)
        node = memories[node].parent_id
    if node is None or node not in seen:
        return []
    return path[seen[node]:]


def build_chains(memories: dict[str, MemoryRecord]) -> Chains:
    """Find every version chain; linear in the number of memories."""
    children = _children_of(memories)
    result = Chains()
    assigned: set[str] = set()
    for start, mem in memories.items():
        if start in assigned:
            continue
        if mem.parent_id is None and start not in children:
            continue  # a single memory with no versions has no chain
        component = _component(start, memories, children)
        assigned.update(component)
        chain = _chain_of(start, component, memories, children)
        result.chains.append(chain)
        for entry in chain.entries:
            result.by_member[entry.id] = chain
    return result


def _children_of(memories: dict[str, MemoryRecord]) -> dict[str, list[str]]:
    """Loaded parent id → its children's ids, in load order."""
    children: dict[str, list[str]] = {}
    for mem_id, mem in memories.items():
        parent = mem.parent_id
        if parent is not None and parent in memories:
            children.setdefault(parent, []).append(mem_id)
    return children


def _component(start: str, memories: dict[str, MemoryRecord],
               children: dict[str, list[str]]) -> list[str]:
    """The connected component of ``start``, through parent and child links."""
    component = [start]
    seen = {start}
    i = 0
    while i < len(component):
        node = component[i]
        i += 1
        links = list(children.get(node, ()))
        parent = memories[node].parent_id
        if parent is not None and parent in memories:
            links.append(parent)
        for other in links:
            if other not in seen:
                seen.add(other)
                component.append(other)
    return component


def _chain_of(start: str, component: list[str], memories: dict[str, MemoryRecord],
              children: dict[str, list[str]]) -> Chain:
    """The chain of one component: walked from its root, or from a cycle's oldest member."""
    roots = [m for m in component
             if memories[m].parent_id is None or memories[m].parent_id not in memories]
    cycle: list[str] = []
    if roots:
        root = roots[0]
    else:  # every member has a loaded parent: there is exactly one cycle
        cycle = _find_cycle(start, memories)
        root = min(cycle, key=lambda m: _order_key(memories[m]))
    chain = _walk(root, memories, children)
    chain.cycle = cycle
    missing = memories[root].parent_id
    if not cycle and missing is not None:
        chain.incomplete = True
        chain.missing_parent = missing
    return chain


def _walk(root: str, memories: dict[str, MemoryRecord], children: dict[str, list[str]]) -> Chain:
    """Depth-first from the root, siblings by createdAt then id, each member once."""
    entries: list[ChainEntry] = []
    branches: dict[str, list[str]] = {}
    visited: set[str] = set()
    stack: list[tuple[str, Any, int]] = [(root, 0, 0)]
    while stack:
        mem_id, prev_version, depth = stack.pop()
        if mem_id in visited:
            continue
        visited.add(mem_id)
        mem = memories[mem_id]
        stored = mem.version
        if is_finite_number(stored) and stored > prev_version:
            shown, repaired = stored, False
        else:
            shown, repaired = prev_version + 1, True
        entries.append(ChainEntry(
            id=mem_id, version=shown, stored_version=stored,
            parent_id=mem.parent_id,
            text=mem.memory, is_latest=mem.is_latest, is_forgotten=mem.is_forgotten,
            created_at=mem.created_at, updated_at=mem.updated_at, depth=depth,
            repaired=repaired,
        ))
        kids = [k for k in children.get(mem_id, ()) if k not in visited]
        kids.sort(key=lambda k: _order_key(memories[k]))
        if len(children.get(mem_id, ())) > 1:
            branches[mem_id] = sorted(children[mem_id], key=lambda k: _order_key(memories[k]))
        stack.extend((k, shown, depth + 1) for k in reversed(kids))
    return Chain(root=root, entries=entries, branches=branches)
