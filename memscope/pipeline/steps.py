"""The steps of the view pipeline, each declaring exactly what it depends on.

A step is a plain function. Its parameter names ARE its dependencies: a field of the
:class:`~memscope.pipeline.request.ViewRequest`, another step, or one of the inputs
``entry`` (the load the request names; keyed by ``load``), ``preview`` (the positions
drawn while that load arrived; keyed by a token of that fetch) and ``keeper`` (where
derived data is kept; never keyed). ``@step`` reads the signature once, at import, into
:data:`STEPS` — the one table a reader checks (``docs/architecture.md`` prints it).

A step's memo key is the tuple of its keyed parameters' contributions: a request field
its value, an upstream step its own key — or its value when it is declared
``token="value"`` (the digest: content addressing). ``unkeyed`` parameters are passed
but left out of the key; that is allowed only where a keyed parameter fixes them (the
base graph under its digest, ``now`` under the epoch: states are equal within one
epoch). ``lazy`` upstreams are passed as a function, computed only when called. A
*choice* (``@choice``) is not memoised: it names the request fields it branches on and
returns which of its ``options`` stands in for it (value and key).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memscope import kept
from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.asof import Clock, Comparison, WorldClocks, compare, world_clocks
from memscope.lenses.asof import as_of as dataset_as_of
from memscope.lenses.filters import Filters, Match, search_text, visible_nodes
from memscope.lenses.presenter import mask, space_pseudonyms
from memscope.lenses.redact import dataset_texts
from memscope.meaning.audit import semantic_findings
from memscope.meaning.findings import SemanticFinding
from memscope.pipeline.keeping import Keeper
from memscope.pipeline.loads import Entry, Positions
from memscope.pipeline.request import ViewRequest
from memscope.records.time import day_end
from memscope.reports.memory_table import memory_frame
from memscope.reports.summary import summarise
from memscope.view import sizes, timeline
from memscope.view.budget import Overview, OverviewBase, overview_base, overview_of
from memscope.view.build import ColorBy, Groups
from memscope.view.derived import LAYOUT_SEED, Derived, digest_of
from memscope.view.edges import Pair
from memscope.view.layout import extend_positions
from memscope.view.timeline import PlaybackBasis

if TYPE_CHECKING:
    import pandas as pd

#: the request's fields a step may name (``now`` only unkeyed)
FIELDS = frozenset(f.name for f in fields(ViewRequest))
#: the other inputs a step may name
INPUTS = frozenset({"entry", "preview", "keeper"})


@dataclass(frozen=True)
class Step:
    """One step as :data:`STEPS` holds it."""

    name: str
    fn: Callable[..., Any]
    #: every parameter, in order
    params: tuple[str, ...]
    #: the parameters its key holds
    keyed: tuple[str, ...]
    lazy: frozenset[str]
    #: results kept (0: not memoised, computed every time: cheap)
    keep: int
    #: "key": downstream keys hold this step's key; "value": its value
    token: str = "key"
    #: a choice's possible stand-ins (empty for a step)
    options: tuple[str, ...] = ()
    #: content-addressed: what depends on it depends on the content, not on the load
    content: bool = False


STEPS: dict[str, Step] = {}


def step(keep: int, *, unkeyed: Iterable[str] = (), lazy: Iterable[str] = (),
         token: str = "key", content: bool = False
         ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Declare a step: its parameters are its dependencies (see the module docstring)."""
    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        params = tuple(inspect.signature(fn).parameters)
        skip = frozenset(unkeyed)
        for p in params:
            if p not in FIELDS | INPUTS | STEPS.keys():
                raise TypeError(f"step {fn.__name__}: {p} is no field, input or step")
        if "now" in params and "now" not in skip:
            raise TypeError(f"step {fn.__name__}: now is never keyed (use the epoch)")
        keyed = tuple(p for p in params if p not in skip and p != "keeper")
        STEPS[fn.__name__] = Step(fn.__name__, fn, params, keyed, frozenset(lazy), keep,
                                  token, content=content)
        return fn
    return register


def choice(*options: str) -> Callable[[Callable[..., str]], Callable[..., str]]:
    """Declare a choice between upstream ``options`` on the request fields it names."""
    def register(fn: Callable[..., str]) -> Callable[..., str]:
        params = tuple(inspect.signature(fn).parameters)
        assert all(p in FIELDS for p in params) and all(o in STEPS for o in options)
        STEPS[fn.__name__] = Step(fn.__name__, fn, params, params, frozenset(), 0,
                                  options=options)
        return fn
    return register


# -- the load ------------------------------------------------------------------------------

@step(keep=8)
def base(entry: Entry) -> Analysis:
    """Graph and chains of the load (judged at no particular time): heavy, per load."""
    if entry.base is not None:
        return entry.base
    with kept.no_gc():
        return analyse(entry.load.dataset)


@step(keep=8, token="value", content=True)
def digest(entry: Entry, base: Analysis) -> str:
    """The content digest (:func:`~memscope.view.derived.digest_of`), computed once."""
    return entry.digest or digest_of(base)


@step(keep=8)
def texts(entry: Entry) -> tuple[str, ...]:
    """Every text presenter mode hides (to redact the app's own sentences)."""
    return dataset_texts(entry.load.dataset)


#: semantic audits kept (one per load revision)
SEMANTIC_KEEP = 4
#: a suspected contradiction as drawn, with its finding's key: (older, newer, score, key)
Keyed = tuple[str, str, float, str]


@step(keep=SEMANTIC_KEEP)
def semantic(base: Analysis) -> list[SemanticFinding]:
    """The semantic audit of the load (:func:`memscope.meaning.audit.semantic_findings`
    over its base analysis, unmasked, judged at no time): once per load revision, never
    on a click (a view draws it only once it is done: :meth:`Pipeline.semantic`)."""
    return semantic_findings(base)


@step(keep=SEMANTIC_KEEP)
def contradictions(semantic: list[SemanticFinding]) -> tuple[list[Keyed], list[Pair]]:
    """The audit's suspected contradictions, each with its key (a digest of both texts:
    too dear for every click of every session, so once per audit), and as drawable
    pairs."""
    keyed = [(f.nodes[0], f.nodes[1], f.score, f.key) for f in semantic
             if f.kind == "suspected_contradiction" and len(f.nodes) == 2]
    return keyed, [(a, b, score) for a, b, score, _ in keyed]


# -- what depends only on the content (the digest) -----------------------------------------

@step(keep=4, unkeyed=("base", "entry"))
def derived(digest: str, identity: str, base: Analysis, entry: Entry,
            keeper: Keeper) -> Derived:
    """Layout, clusters, names of this content: kept files, the shared layout, or now."""
    return keeper.derived(base, digest, identity, preview=entry.drawn)


@step(keep=4, unkeyed=("base",))
def positions(derived: Derived, preview: Positions | None, base: Analysis) -> Positions:
    """Where every node is drawn: the derived layout, or — when this server drew the
    load while it arrived — those places kept and the rest placed around them."""
    if preview and all(derived.positions.get(n) == xy for n, xy in preview.items()):
        return derived.positions
    if preview:
        return extend_positions(base.graph.graph, preview, seed=LAYOUT_SEED)
    return derived.positions


@step(keep=0)
def today_labels(derived: Derived) -> dict[str, str]:
    """The clusters' names from today's texts."""
    return derived.labels


@step(keep=2)
def masked(entry: Entry) -> Analysis:
    """The masked load analysed (presenter mode): once per load, not per epoch."""
    with kept.no_gc():
        return analyse(mask(entry.load.dataset))


@step(keep=4)
def masked_labels(derived: Derived) -> dict[str, str]:
    """Today's clusters numbered by size ("Cluster 1" the largest), no word of the data:
    the masked texts give no phrase, and a masked document's stand-in ("Document 29")
    would read as the name of that document's card beside it."""
    return {"": "unlinked", **{k: f"Cluster {i}" for i, k in enumerate(derived.order, 1)}}


@choice("today_labels", "masked_labels")
def labels(presenter: bool) -> str:
    """Names without a word of the data in presenter mode."""
    return "masked_labels" if presenter else "today_labels"


@step(keep=0)
def groups(derived: Derived, labels: dict[str, str]) -> Groups:
    """Today's clustering with its names: what colours, hexagons and names all use."""
    return derived.clusters, labels, derived.order


# -- the scope: today, masked, as of -------------------------------------------------------

@step(keep=16, unkeyed=("now",))
def today(base: Analysis, epoch: int, now: datetime) -> Analysis:
    """Today's states and findings (cheap; once per state epoch)."""
    return base.at(now)


@step(keep=4, unkeyed=("now",))
def masked_today(masked: Analysis, epoch: int, now: datetime) -> Analysis:
    """The masked analysis judged now."""
    return masked.at(now)


@step(keep=8)
def clocks(entry: Entry) -> WorldClocks:
    """What the load holds of the world clock (whether time travel may read it)."""
    return world_clocks(entry.load.dataset)


@step(keep=4)
def past(entry: Entry, as_of: Any, presenter: bool, clock: Clock) -> Analysis:
    """The data as it stood at the end of the as-of day on ``clock`` (masked in
    presenter mode)."""
    when = day_end(as_of)
    ds = dataset_as_of(entry.load.dataset, when, clock)
    if presenter:  # the spaces numbered as in the whole load (a tag may be gone that day)
        ds = mask(ds, space_pseudonyms(entry.load.dataset))
    with kept.no_gc():
        return analyse(ds, when)


@choice("today", "masked_today", "past")
def scoped(as_of: Any, presenter: bool) -> str:
    """What the pages show: as of a day, masked, or today."""
    if as_of is not None:
        return "past"
    return "masked_today" if presenter else "today"


# -- what the scope's graph gives: per graph, not per state epoch -------------------------

@step(keep=8)
def today_dependents(base: Analysis) -> dict[Hashable, int]:
    """How many memories depend on each (:func:`memscope.view.sizes.dependents`) in the
    load's graph, which today's analyses share."""
    return sizes.dependents(base.graph.graph)


@step(keep=2)
def masked_today_dependents(masked: Analysis) -> dict[Hashable, int]:
    """The same in the masked graph."""
    return sizes.dependents(masked.graph.graph)


@step(keep=4)
def past_dependents(past: Analysis) -> dict[Hashable, int]:
    """The same in the graph as of a day."""
    return sizes.dependents(past.graph.graph)


@choice("today_dependents", "masked_today_dependents", "past_dependents")
def dependents(as_of: Any, presenter: bool) -> str:
    """What depends on each memory of the scope's graph (a memory's drawn size)."""
    return f"{scoped(as_of, presenter)}_dependents"


@step(keep=8)
def summary(scoped: Analysis) -> list[str]:
    """The summary card's sentences (:func:`memscope.reports.summary.summarise`: reads
    every memory, once per scope)."""
    return summarise(scoped).sentences()


@step(keep=4)
def memory_table(scoped: Analysis) -> pd.DataFrame:
    """Every memory of the scope as a table row
    (:func:`memscope.reports.memory_table.memory_frame`)."""
    return memory_frame(scoped)


# -- the view ------------------------------------------------------------------------------

@step(keep=32)
def visible(scoped: Analysis, node_filters: Filters) -> frozenset[str]:
    """The ids that pass the node filters."""
    return frozenset(visible_nodes(scoped, node_filters))


@step(keep=0, token="value")
def hidden(scoped: Analysis, visible: frozenset[str], selected: str | None) -> str | None:
    """The selected node when the filters hide it (drawn on top; searched too)."""
    if selected and selected in scoped.graph.graph and selected not in visible:
        return selected
    return None


@step(keep=4)
def base_view(scoped: Analysis, positions: Positions, groups: Groups,
              visible: frozenset[str], color_by: ColorBy, edge_kinds: frozenset[str],
              dependents: dict[Hashable, int]) -> OverviewBase:
    """What every expansion of one view shares (the per-node work; tens of MB; built
    with the collector paused: a full pass over a 200k heap is ~1.7 s)."""
    with kept.no_gc():
        return overview_base(scoped, positions, groups[0], visible=visible,
                             color_by=color_by, edge_kinds=edge_kinds, clustering=groups,
                             depending=dependents)


@step(keep=32, lazy=("base_view",))
def overview(scoped: Analysis, positions: Positions, groups: Groups,
             visible: frozenset[str], color_by: ColorBy, edge_kinds: frozenset[str],
             budget: int, expanded: frozenset[str], dependents: dict[Hashable, int],
             base_view: Callable[[], OverviewBase]) -> Overview:
    """The drawable overview (past the budget, clusters collapsed into hexagons)."""
    shared = base_view() if len(visible) > budget else None
    with kept.no_gc():  # long-lived (memoised) structures: no collector passes over them
        return overview_of(scoped, positions, groups[0], groups[1], visible=visible,
                           color_by=color_by, budget=budget, expanded=expanded,
                           edge_kinds=edge_kinds, base=shared, clustering=groups,
                           depending=dependents)


@step(keep=4)
def memory_states(scoped: Analysis, clock: Clock) -> dict[str, list[tuple[int, str]]]:
    """Every memory's states on the played days on ``clock`` (:func:`memscope.view.
    timeline.memory_states`): a playback's heavy part, once per scope and clock (data
    with one clock is always played on the memory's own)."""
    return timeline.memory_states(scoped, clock)


@step(keep=8)
def playback(scoped: Analysis, memory_states: dict[str, list[tuple[int, str]]],
             visible: frozenset[str], hidden: str | None, overview: Overview, clock: Clock
             ) -> PlaybackBasis | None:
    """What a playback of the shown set reads besides the drawn view (the days, the
    hexagons' days, each day's counts, on ``clock``): a click while playing computes
    none of it."""
    return timeline.playback_basis(scoped, visible | {hidden} if hidden else visible,
                                   overview.rep, memory_states, clock)


@step(keep=16)
def matches(scoped: Analysis, visible: frozenset[str], query: str, hidden: str | None
            ) -> list[Match]:
    """The text search among the shown nodes (and the hidden selection)."""
    if not query:
        return []
    return search_text(scoped, query, within=set(visible) | ({hidden} if hidden else set()))


@step(keep=8, unkeyed=("now",))
def comparison(entry: Entry, since: Any, as_of: Any, clock: Clock, now: datetime
               ) -> Comparison | None:
    """What changed between the end of ``since`` and the as-of day (or now: the first
    instant asked, kept until the load changes) on ``clock``; ``None`` without a right
    order."""
    if since is None:
        return None
    t2, t1 = day_end(as_of) if as_of is not None else now, day_end(since)
    return None if t1 >= t2 else compare(entry.load.dataset, t1, t2, clock)


def dependencies() -> dict[str, tuple[str, ...]]:
    """Each step's keyed dependencies (a choice: its fields, then ``|`` its options)."""
    out: dict[str, tuple[str, ...]] = {}
    for name, s in STEPS.items():
        out[name] = s.keyed + (("|", *s.options) if s.options else ())
    return out


def closure(name: str) -> frozenset[str]:
    """The request fields (and inputs) ``name`` depends on, through every upstream (a
    choice: through each option); a content-addressed step counts as ``"content"``."""
    s = STEPS[name]
    found: set[str] = set()
    for p in (*s.keyed, *s.options):
        if p in STEPS and STEPS[p].content:
            found.add("content")
        elif p in STEPS:
            found |= closure(p)
        else:
            found.add("load" if p == "entry" else p)
    return frozenset(found)


__all__ = ["STEPS", "Step", "choice", "closure", "dependencies", "step"]
