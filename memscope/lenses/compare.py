"""Two datasets compared record by record: the one comparison of two moments or two sources.

The Compare page (a snapshot against what is live now, "as of A" against "as of B", two
snapshots) and the migration check (:mod:`memscope.reports.migration`, the legacy and the
v5 load of one space) both call :func:`compare`. The rules:

* **Memories**, by id: *added* (only in B), *removed* (only in A), *changed* (in both,
  with one or more of these fields different, in this order): ``text`` (the memory's
  text), ``version`` (the stored version; ``2``, ``2.0`` and ``"2"`` are one version),
  ``latest`` (``isLatest``), ``forgotten`` (``isForgotten``).
* **Documents**, by id: added, removed, changed (``title``).
* **Entities** (Spomory), by id: added, removed, changed (``name``); **facts** (Spomory
  relations), by id: added, removed, changed (``predicate``, ``ends``: the subject and
  object ids).
* **Chain edges** — ``updates``, ``extends`` and ``derives`` as the graph draws them
  (graph-rules.md §2), named ``"older → newer (kind)"``: added, removed.
* The order is stable: memories, documents, entities, facts, then edges, each by id.

Two moments of one dataset are two datasets: :func:`compare_moments` turns each side
into the data as it stood (:func:`memscope.lenses.asof.as_of`) and compares those.

>>> from memscope.records.dataset import from_feed_pages
>>> a = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
...     {"id": "m1", "memory": "Likes tea."}, {"id": "m2", "memory": "Lives in Lisbon."}]}]}])
>>> b = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
...     {"id": "m1", "memory": "Likes green tea."}, {"id": "m3", "memory": "Has a cat."}]}]}])
>>> [(d.change, d.record, d.id, [f.field for f in d.fields]) for d in compare(a, b).differences]
[('changed', 'memory', 'm1', ['text']), ('removed', 'memory', 'm2', []), ('added', 'memory', 'm3', [])]
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal, TypeVar

import networkx as nx

from memscope.graph.build import build_graph
from memscope.lenses.asof import as_of
from memscope.lenses.presenter import mask_text
from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord
from memscope.records.passport import RelationRecord
from memscope.records.text import clip, counted

ChangeKind = Literal["added", "removed", "changed"]
RecordKind = Literal["memory", "document", "entity", "fact", "edge"]
FieldName = Literal["text", "version", "latest", "forgotten", "title", "name", "predicate",
                    "ends"]
Value = str | int | bool | None
R = TypeVar("R")

CHANGES: tuple[ChangeKind, ...] = ("added", "removed", "changed")
RECORDS: tuple[RecordKind, ...] = ("memory", "document", "entity", "fact", "edge")
#: the fields compared on a memory, in the order a difference lists them
MEMORY_FIELDS: tuple[FieldName, ...] = ("text", "version", "latest", "forgotten")
DOCUMENT_FIELDS: tuple[FieldName, ...] = ("title",)
ENTITY_FIELDS: tuple[FieldName, ...] = ("name",)
FACT_FIELDS: tuple[FieldName, ...] = ("predicate", "ends")
#: what a difference can be, as the page's filter offers it
KINDS = ("added", "removed", *(f"changed: {f}" for f in (
    *MEMORY_FIELDS, *DOCUMENT_FIELDS, *ENTITY_FIELDS, *FACT_FIELDS)))
KIND_MEANINGS = {
    "added": "only side B has it",
    "removed": "only side A has it",
    "changed: text": "the memory's text differs",
    "changed: version": "the memory's stored version differs",
    "changed: latest": "the memory is the latest version on one side, not the other",
    "changed: forgotten": "the memory is forgotten on one side, not the other",
    "changed: title": "the document's title differs",
    "changed: name": "the entity's name differs",
    "changed: predicate": "the fact's predicate differs",
    "changed: ends": "the fact links other entities",
}
#: a change as the page says it (the sides are called A and B there)
CHANGE_WORDS = {"added": "only in B", "removed": "only in A", "changed": "changed"}
#: a compared field as the page says it
FIELD_WORDS = {"text": "text", "version": "version number", "latest": "latest version",
               "forgotten": "forgotten", "title": "title", "name": "name",
               "predicate": "what it says", "ends": "what it links"}
#: a flag's two values in words, per field
FLAG_WORDS = {"latest": ("an older version", "the latest version"),
              "forgotten": ("kept", "forgotten")}


def kind_words(kind: str) -> str:
    """A kind of :data:`KINDS` as the page's filter says it.

    >>> kind_words("added"), kind_words("changed: forgotten")
    ('only in B', 'forgotten changed')
    """
    if kind.startswith("changed: "):
        field = kind.removeprefix("changed: ")
        return f"{FIELD_WORDS.get(field, field)} changed"
    return CHANGE_WORDS.get(kind, kind)


def value_words(field: str, value: Value) -> str | None:
    """A field's value in words: a flag as what it means ("forgotten", "kept"), a version
    as "v2", never ``True``/``False``.

    >>> value_words("forgotten", True), value_words("latest", False), value_words("version", 3)
    ('forgotten', 'an older version', 'v3')
    """
    if isinstance(value, bool):
        no, yes = FLAG_WORDS.get(field, ("no", "yes"))
        return yes if value else no
    if value is None:
        return None
    if field == "version":
        return f"v{value}"
    return str(value)


#: the records that link two nodes rather than being one
LINKS = frozenset({"fact", "edge"})
#: the graph's chain edges, the ones compared
CHAIN_KINDS = ("updates", "extends", "derives")
#: the labels presenter mode puts in place of a memory text and a document title
MASK_LABELS = {"memory": "Memory text", "document": "Document title",
               "entity": "Entity name", "fact": "Fact", "edge": "Link"}
#: the fields that hold text from the data (masked in presenter mode)
TEXT_FIELDS = frozenset({"text", "title", "name", "predicate"})


@dataclass(frozen=True)
class FieldChange:
    """One field of a record both sides hold, with each side's value."""

    field: FieldName
    a: Value
    b: Value


@dataclass(frozen=True)
class Difference:
    """One record that differs: which (``record``, ``id``), how (``change``), the fields
    that changed (for ``changed``), the record's text on each side that has it (a
    memory's text, a document's title) and the graph nodes it concerns."""

    record: RecordKind
    id: str
    change: ChangeKind
    fields: tuple[FieldChange, ...] = ()
    a_text: str | None = None
    b_text: str | None = None
    nodes: tuple[str, ...] = ()

    @property
    def kinds(self) -> tuple[str, ...]:
        """What it counts as in :data:`KINDS` (one per changed field for ``changed``)."""
        if self.change != "changed":
            return (self.change,)
        return tuple(f"changed: {f.field}" for f in self.fields)


@dataclass(frozen=True)
class Counts:
    """What one side holds: memories, documents, chain edges, entities, facts."""

    memories: int
    documents: int
    edges: int
    entities: int = 0
    facts: int = 0

    def words(self) -> str:
        """What it holds, in words (entities and facts only when there are some)."""
        parts = [counted(self.memories, "memory", "memories"),
                 counted(self.documents, "document"), counted(self.edges, "chain edge")]
        if self.entities or self.facts:
            parts += [counted(self.entities, "entity", "entities"),
                      counted(self.facts, "fact")]
        return ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True)
class Row:
    """A difference flattened for a table or a CSV file: one row per changed field."""

    change: ChangeKind
    record: RecordKind
    id: str
    field: str
    a: Value
    b: Value
    #: the record's text (a memory's, a document's title, a link's two ends), B's if it has one
    text: str | None = None


@dataclass(frozen=True)
class DatasetDiff:
    """Side A against side B: their counts and every difference, in a stable order."""

    a: Counts
    b: Counts
    differences: tuple[Difference, ...]

    @property
    def identical(self) -> bool:
        """True when nothing differs."""
        return not self.differences

    def counts(self) -> dict[str, int]:
        """How many differences of each kind of :data:`KINDS` (every kind, zeros too)."""
        out = dict.fromkeys(KINDS, 0)
        for d in self.differences:
            for kind in d.kinds:
                out[kind] += 1
        return out

    def of_kinds(self, kinds: Collection[str]) -> tuple[Difference, ...]:
        """The differences of any of ``kinds`` (a changed record stays whole)."""
        wanted = set(kinds)
        return tuple(d for d in self.differences if wanted.intersection(d.kinds))

    def node_changes(self) -> dict[str, ChangeKind]:
        """Each graph node a difference concerns → ``added``, ``removed`` or ``changed``
        (a memory's, document's or entity's own change first; the ends of an edge or a
        fact that differs count as ``changed`` when they have none of their own)."""
        out: dict[str, ChangeKind] = {}
        for d in self.differences:
            if d.record not in LINKS:
                out[d.id] = d.change
        for d in self.differences:
            if d.record in LINKS:
                for node in d.nodes:
                    out.setdefault(node, "changed")
        return out

    def rows(self, kinds: Collection[str] | None = None) -> list[Row]:
        """The differences (of ``kinds``, default all) as rows: an added or removed record
        is one row with its text on its side; a changed one is one row per field."""
        out: list[Row] = []
        for d in self.differences if kinds is None else self.of_kinds(kinds):
            text = d.b_text if d.b_text is not None else d.a_text
            if d.change != "changed":
                out.append(Row(d.change, d.record, d.id, "", d.a_text, d.b_text, text))
                continue
            out.extend(Row(d.change, d.record, d.id, f.field, f.a, f.b, text)
                       for f in d.fields if kinds is None or f"changed: {f.field}" in kinds)
        return out

    def sentence(self, names: tuple[str, str] = ("A", "B")) -> str:
        """The outcome in one sentence (``names``: what to call the two sides)."""
        a, b = names
        if self.identical:
            return f"{a} and {b} hold the same {self.b.words()}."
        by = self.counts()
        changed = sum(1 for d in self.differences if d.change == "changed")
        fields = ", ".join(f"{n} {k.removeprefix('changed: ')}" for k, n in by.items()
                           if k.startswith("changed: ") and n)
        parts = [f"{by['added']} added"] * bool(by["added"]) \
            + [f"{by['removed']} removed"] * bool(by["removed"]) \
            + [f"{changed} changed ({fields})"] * bool(changed)
        return (f"{b} differs from {a} in {counted(len(self.differences), 'record')}: "
                f"{', '.join(parts)}.")

    def masked(self) -> DatasetDiff:
        """The same comparison with every memory text and document title replaced by its
        length (presenter mode); ids, versions and flags stay."""
        return replace(self, differences=tuple(_masked(d) for d in self.differences))


def _masked(d: Difference) -> Difference:
    label = MASK_LABELS[d.record]
    fields = tuple(replace(f, a=_mask(f.a, label), b=_mask(f.b, label))
                   if f.field in TEXT_FIELDS else f for f in d.fields)
    return replace(d, fields=fields, a_text=_mask(d.a_text, label),
                   b_text=_mask(d.b_text, label))


def _mask(value: Value, label: str) -> Value:
    return mask_text(value, label) if isinstance(value, str) else value


def version_value(value: Any) -> Value:
    """A stored version as one comparable value: ``2``, ``2.0`` and ``"2"`` are ``2``.

    >>> version_value("2"), version_value(2.0), version_value(True), version_value(None)
    (2, 2, 'True', 'None')
    """
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return repr(value)


def chain_edges(dataset: Dataset, graph: nx.MultiDiGraph | None = None
                ) -> set[tuple[str, str, str]]:
    """``(older, newer, kind)`` of every chain edge the graph draws for ``dataset``
    (``graph``: the graph already built for it, e.g. an analysis's, read instead)."""
    g = build_graph(dataset).graph if graph is None else graph
    return {(str(u), str(v), str(d["kind"])) for u, v, d in g.edges(data=True)
            if d["kind"] in CHAIN_KINDS}


def edge_name(edge: tuple[str, str, str]) -> str:
    """``"older → newer (kind)"``: how a chain edge is named in a difference."""
    older, newer, kind = edge
    return f"{older} → {newer} ({kind})"


def edge_words(dataset: Dataset, edge: tuple[str, str, str]) -> str:
    """A chain edge named by its two memories' texts: ``"“old” → “new” (updates)"``."""
    older, newer, kind = edge

    def said(mem_id: str) -> str:
        mem = dataset.memories.get(mem_id)
        return f"“{clip(mem.memory, 60)}”" if mem is not None else "a memory not loaded"

    return f"{said(older)} → {said(newer)} ({kind})"


def _memory_fields(a: MemoryRecord, b: MemoryRecord
                   ) -> tuple[tuple[FieldName, Value, Value], ...]:
    return (("text", a.memory, b.memory),
            ("version", version_value(a.version), version_value(b.version)),
            ("latest", a.is_latest, b.is_latest),
            ("forgotten", a.is_forgotten, b.is_forgotten))


def _sorted(keys: Collection[Hashable]) -> list[Any]:
    return sorted(keys, key=str)


def _fact(ds: Dataset) -> Callable[[RelationRecord], str]:
    names = {e_id: e.name for e_id, e in ds.entities.items()}
    return lambda r: r.sentence(names)


def _fact_fields(x: RelationRecord, y: RelationRecord
                 ) -> tuple[tuple[FieldName, Value, Value], ...]:
    return (("predicate", x.predicate, y.predicate),
            ("ends", f"{x.subject_id} → {x.object_id}", f"{y.subject_id} → {y.object_id}"))


def _keyed(record: RecordKind, left: Mapping[str, R], right: Mapping[str, R],
           text: Callable[[R], str | None],
           fields: Callable[[R, R], tuple[tuple[FieldName, Value, Value], ...]], *,
           text_b: Callable[[R], str | None] | None = None) -> list[Difference]:
    """Records of one kind matched by id: added, removed, changed in ``fields``."""
    text_b = text_b or text
    out: list[Difference] = []
    for key in _sorted(left.keys() | right.keys()):
        x, y = left.get(key), right.get(key)
        nodes = _ends(record, x if x is not None else y, key)
        if x is None and y is not None:
            out.append(Difference(record, key, "added", b_text=text_b(y), nodes=nodes))
        elif y is None and x is not None:
            out.append(Difference(record, key, "removed", a_text=text(x), nodes=nodes))
        elif x is not None and y is not None:
            changed = tuple(FieldChange(n, u, v) for n, u, v in fields(x, y) if u != v)
            if changed:
                out.append(Difference(record, key, "changed", changed, text(x), text_b(y),
                                      nodes))
    return out


def _ends(record: RecordKind, rec: Any, key: str) -> tuple[str, ...]:
    """The graph nodes a record is: itself, or a fact's two entities."""
    if record == "fact" and isinstance(rec, RelationRecord):
        return (rec.subject_id, rec.object_id)
    return (key,)


def compare(a: Dataset, b: Dataset, *, graph_a: nx.MultiDiGraph | None = None,
            graph_b: nx.MultiDiGraph | None = None) -> DatasetDiff:
    """Every difference between side ``a`` and side ``b`` (rules in the module
    docstring); the inputs are not changed. ``graph_a``/``graph_b``: the graph already
    built for a side (its analysis's), so its chain edges are read, not built again."""
    out = _keyed("memory", a.memories, b.memories, lambda m: m.memory, _memory_fields)
    out += _keyed("document", a.documents, b.documents, lambda d: d.title,
                  lambda x, y: (("title", x.title, y.title),))
    out += _keyed("entity", a.entities, b.entities,
                  lambda e: e.name, lambda x, y: (("name", x.name, y.name),))
    out += _keyed("fact", a.relations, b.relations, _fact(a), _fact_fields,
                  text_b=_fact(b))
    ea, eb = chain_edges(a, graph_a), chain_edges(b, graph_b)
    for edge in sorted(ea ^ eb):
        side = a if edge in ea else b
        words = edge_words(side, edge)
        out.append(Difference("edge", edge_name(edge), "removed" if edge in ea else "added",
                              a_text=words if edge in ea else None,
                              b_text=None if edge in ea else words,
                              nodes=(edge[0], edge[1])))
    return DatasetDiff(_counts(a, ea), _counts(b, eb), tuple(out))


def _counts(ds: Dataset, edges: set[tuple[str, str, str]]) -> Counts:
    return Counts(len(ds.memories), len(ds.documents), len(edges), len(ds.entities),
                  len(ds.relations))


def compare_moments(dataset: Dataset, t1: datetime, t2: datetime) -> DatasetDiff:
    """``dataset`` as it stood at ``t1`` (side A) against as it stood at ``t2`` (side B)."""
    return compare(as_of(dataset, t1), as_of(dataset, t2))


__all__ = ["CHANGES", "CHANGE_WORDS", "FIELD_WORDS", "FLAG_WORDS", "KINDS", "KIND_MEANINGS",
           "MEMORY_FIELDS", "RECORDS", "Counts", "DatasetDiff", "Difference", "FieldChange",
           "Row", "chain_edges", "compare", "compare_moments", "edge_name", "edge_words",
           "kind_words", "value_words", "version_value"]
