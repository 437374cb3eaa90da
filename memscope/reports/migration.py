"""The migration check ("v4 ↔ v5"): one space loaded through Supermemory's legacy (v3/v4)
and current (v5) APIs, compared record by record.

:func:`compare` is pure: two loads (a :class:`~memscope.sources.base.LoadResult` or a
:class:`~memscope.records.dataset.Dataset` each) in, a :class:`MigrationReport` out. It is
the one comparison of two datasets (:func:`memscope.lenses.compare.compare`, which the
Compare page draws too), its differences read as rows of what both APIs are supposed to
say the same way:

* ``memory`` — a memory present in one load and not the other;
* ``text``, ``version``, ``latest``, ``forgotten`` — a memory in both whose text, stored
  version (``2`` and ``"2"`` are the same version) or flag differs;
* ``edge`` — a chain edge (``updates``/``extends``/``derives``, as the graph draws them:
  graph-rules.md §2) present in one load and not the other;
* ``document`` — a document present in one load and not the other.

:func:`load_both` loads one space through both dialects for the command line
(``memscope diff``) and the Connection page.

>>> from memscope.records.dataset import from_feed_pages
>>> page = {"documents": [{"id": "d", "memoryEntries": [{"id": "a", "memory": "x"},
...     {"id": "b", "memory": "y", "parentMemoryId": "a", "version": 2}]}]}
>>> print(compare(from_feed_pages([page]), from_feed_pages([page])).sentence())
... # doctest: +NORMALIZE_WHITESPACE
The legacy (v3/v4) and current (v5) APIs return the same 2 memories, 1 document and
1 chain edge for all spaces.
>>> page["documents"][0]["memoryEntries"][1]["memory"] = "z"
>>> report = compare(from_feed_pages([page]), from_feed_pages([page | {"documents": [
...     {"id": "d", "memoryEntries": [{"id": "a", "memory": "x"}]}]}]))
>>> [(r.kind, r.id, r.legacy, r.v5) for r in report.rows]
[('memory', 'b', 'present', 'missing'), ('edge', 'a → b (updates)', 'present', 'missing')]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from memscope.lenses.compare import DatasetDiff
from memscope.lenses.compare import compare as compare_datasets
from memscope.lenses.presenter import mask_text
from memscope.records.dataset import Dataset
from memscope.records.text import counted
from memscope.sources.results import LoadProgress, LoadResult

RowKind = Literal["memory", "text", "version", "latest", "forgotten", "edge", "document"]
#: the kinds of difference, in the order a report lists them
ROW_KINDS: tuple[RowKind, ...] = ("memory", "text", "version", "latest", "forgotten", "edge",
                                  "document")
#: what each kind means, for the table's caption and ``--help``
ROW_MEANINGS = {
    "memory": "a memory one API returns and the other does not",
    "text": "the memory's text differs",
    "version": "the memory's stored version differs",
    "latest": "the memory's isLatest flag differs",
    "forgotten": "the memory's isForgotten flag differs",
    "edge": "a chain edge (updates, extends, derives) one API implies and the other does not",
    "document": "a document one API returns and the other does not",
}
#: a difference's kind as counted in the sentence (one, many)
KIND_WORDS = {
    "memory": ("memory only one API returns", "memories only one API returns"),
    "text": ("changed text", "changed texts"),
    "version": ("different version number", "different version numbers"),
    "latest": ("different latest flag", "different latest flags"),
    "forgotten": ("different forgotten flag", "different forgotten flags"),
    "edge": ("chain edge only one API implies", "chain edges only one API implies"),
    "document": ("document only one API returns", "documents only one API returns"),
}
PRESENT, MISSING = "present", "missing"
LEGACY_NAME, V5_NAME = "legacy (v3/v4)", "current (v5)"

Value = str | int | bool | None
Load = LoadResult | Dataset


@dataclass(frozen=True)
class Difference:
    """One way the two loads differ: its kind, the record (a memory or document id, or
    ``"a → b (updates)"`` for an edge), each side's value (``"present"``/``"missing"`` for
    presence rows) and the graph nodes it concerns (what the graph marks)."""

    kind: RowKind
    id: str
    legacy: Value
    v5: Value
    nodes: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The row as JSON-ready values."""
        return {"kind": self.kind, "id": self.id, "legacy": self.legacy, "v5": self.v5,
                "nodes": list(self.nodes)}


@dataclass(frozen=True)
class Counts:
    """What one load holds: memories, documents, chain edges."""

    memories: int
    documents: int
    edges: int


@dataclass(frozen=True)
class MigrationReport:
    """The comparison of one space loaded through both APIs."""

    legacy: Counts
    v5: Counts
    rows: tuple[Difference, ...]
    space: str | None = None
    #: where each side came from (e.g. the two snapshot files); names, never secrets
    sources: tuple[str, str] = (LEGACY_NAME, V5_NAME)

    @property
    def identical(self) -> bool:
        """True when nothing differs."""
        return not self.rows

    def node_ids(self) -> set[str]:
        """Every graph node a difference concerns (to mark on the graph)."""
        return {n for row in self.rows for n in row.nodes}

    def by_kind(self) -> dict[str, int]:
        """How many differences of each kind (kinds with none left out)."""
        out = {k: sum(1 for r in self.rows if r.kind == k) for k in ROW_KINDS}
        return {k: n for k, n in out.items() if n}

    def sentence(self) -> str:
        """The outcome in one sentence."""
        where = "all spaces" if self.space is None else "this space"
        if self.identical:
            c = self.legacy
            return (f"The legacy (v3/v4) and current (v5) APIs return the same "
                    f"{counted(c.memories, 'memory', 'memories')}, "
                    f"{counted(c.documents, 'document')} and "
                    f"{counted(c.edges, 'chain edge')} for {where}.")
        parts = ", ".join(counted(n, *KIND_WORDS.get(kind, (kind, kind)))
                          for kind, n in self.by_kind().items())
        return (f"The legacy (v3/v4) and current (v5) APIs differ for {where}: "
                f"{counted(len(self.rows), 'difference')} ({parts}).")

    def masked(self) -> MigrationReport:
        """The same report with every memory text replaced (presenter mode)."""
        rows = tuple(replace(r, legacy=_masked(r.legacy), v5=_masked(r.v5))
                     if r.kind == "text" else r for r in self.rows)
        return replace(self, rows=rows)

    def as_json(self) -> dict[str, Any]:
        """The whole report as JSON-ready values (what ``memscope diff`` prints)."""
        return {
            "identical": self.identical, "sentence": self.sentence(), "space": self.space,
            "sources": {"legacy": self.sources[0], "v5": self.sources[1]},
            "counts": {"legacy": vars(self.legacy), "v5": vars(self.v5)},
            "differences": self.by_kind(),
            "rows": [r.as_json() for r in self.rows],
        }


def _masked(value: Value) -> Value:
    return mask_text(value, "Memory text") if isinstance(value, str) else value


def _dataset(load: Load) -> Dataset:
    return load.dataset if isinstance(load, LoadResult) else load


def _side(present: bool) -> str:
    return PRESENT if present else MISSING


def _rows(diff: DatasetDiff) -> list[Difference]:
    """The comparison's differences as the migration check's rows (its kinds, its
    order: kind by kind, each kind's rows by id; a document's title is not compared)."""
    records = diff.differences
    rows = [Difference("memory", d.id, _side(d.change == "removed"),
                       _side(d.change == "added"), d.nodes)
            for d in records if d.record == "memory" and d.change != "changed"]
    fields = [Difference(f.field, d.id, f.a, f.b, d.nodes)
              for d in records if d.record == "memory" and d.change == "changed"
              for f in d.fields if f.field in ROW_KINDS]
    rows += sorted(fields, key=lambda r: ROW_KINDS.index(r.kind))  # stable: ids sorted
    rows += [Difference("edge", d.id, _side(d.change == "removed"), _side(d.change == "added"),
                        d.nodes) for d in records if d.record == "edge"]
    rows += [Difference("document", d.id, _side(d.change == "removed"),
                        _side(d.change == "added"), d.nodes)
             for d in records if d.record == "document" and d.change != "changed"]
    return rows


def compare(legacy: Load, v5: Load, *, space: str | None = None,
            sources: tuple[str, str] = (LEGACY_NAME, V5_NAME)) -> MigrationReport:
    """Compare two loads of the same space (``legacy`` through v3/v4, ``v5`` through v5)
    with :func:`memscope.lenses.compare.compare` (the legacy side as A).

    Rows come kind by kind (:data:`ROW_KINDS`), each kind's rows sorted by id; the inputs
    are not changed.
    """
    diff = compare_datasets(_dataset(legacy), _dataset(v5))
    legacy_counts, v5_counts = (Counts(c.memories, c.documents, c.edges)
                                for c in (diff.a, diff.b))
    return MigrationReport(legacy_counts, v5_counts, tuple(_rows(diff)), space, sources)


# -- loading one space both ways ---------------------------------------------------------------

#: ``(dialect, progress)`` callback of :func:`load_both`
BothProgress = Callable[[str, LoadProgress], None]


@dataclass
class BothLoads:
    """The two loads :func:`load_both` made, and the requests each took."""

    legacy: LoadResult
    v5: LoadResult
    calls: dict[str, int] = field(default_factory=dict)


def load_both(api_key: Any, *, base_url: str | None = None, space: str | None = None,
              progress: BothProgress | None = None, **settings: Any) -> BothLoads:
    """Load ``space`` (``None``: every space) through the legacy and the v5 dialect with
    one key (a ``SecretStr`` or a string; only ever sent in headers), profiles left out.

    Raises the first load's :class:`~memscope.sources.errors.SourceError` (one sentence,
    e.g. :class:`~memscope.sources.errors.DialectMismatch` when the service does not speak
    one of the two)."""
    from memscope.sources.supermemory import SupermemoryConfig, SupermemorySource
    from memscope.sources.supermemory_v5 import SupermemoryV5Source

    common: dict[str, Any] = {"api_key": api_key, "container_tags": (space,) if space else (),
                              "load_profiles": False, "max_profiles": 0, **settings}
    if base_url:
        common["base_url"] = base_url
    out: dict[str, LoadResult] = {}
    calls: dict[str, int] = {}
    sources = (("legacy", lambda: SupermemorySource(
                   SupermemoryConfig(**common, dialect="legacy"))),
               ("v5", lambda: SupermemoryV5Source(SupermemoryConfig(**common, dialect="v5"))))
    for dialect, make in sources:
        step = None if progress is None else _tagged(progress, dialect)
        with make() as source:
            out[dialect] = source.load(step, refresh=True)
            calls[dialect] = source.calls
    return BothLoads(out["legacy"], out["v5"], calls)


def _tagged(progress: BothProgress, dialect: str) -> Callable[[LoadProgress], None]:
    return lambda p: progress(dialect, p)
