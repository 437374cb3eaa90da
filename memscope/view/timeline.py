"""The memory's history played back: for each drawn node, the days it appears and changes.

:func:`build_timeline` reads a drawn view and the analysis it was drawn from, and says for
every node on which day it appears, which look (state) it has from which day on, and on
which day it was forgotten; for every day from the first to the last date in the data, how
many memories existed and how many were superseded and forgotten. Days are ints: days
since the first date (``start``). The browser (``playback.js``) steps through them by day
or week (:func:`steps`) with no rerun, hiding what did not exist yet and drawing each
memory as it stood; after the last step it rests on the view as drawn (today).

"As of" has one owner, :mod:`memscope.lenses.asof`: a memory's record at a day is what its
rules make of it (``memory_as_of``, with the children that existed then) and its state is
:func:`memscope.graph.states.memory_state` of that record at the end of that day, so a
node's state at day ``d`` is the state the as-of lens gives at ``day_end(d)``. States only
change at a record's own instants (created, forgotten, a child created, the thresholds of
:func:`~memscope.graph.states.transition_times`), so each memory is judged on those days
only. A node's look in each state is drawn by :func:`memscope.view.nodes.vis_node` (what
every view draws a node with) and a step's changes get the marks of
:func:`memscope.view.paint.mark_changes`
(added, updated — a new version —, forgotten; what :func:`~memscope.lenses.asof.compare`
lists for that step).

Data with two clocks (Graphiti, Zep) is played on the clock time travel reads
(:data:`~memscope.lenses.asof.CLOCKS`): what the memory believed (a fact from when it was
learnt, superseded from its retirement) or what was true (from its ``valid_at``,
superseded from its ``invalid_at``; a fact with none from when it was learnt, which
:func:`clock_note` says in words). Data with one clock plays the same on both.

The payload holds no text of the data: node and edge ids (already in the graph payload),
dates, counts and vis-network style fragments.

    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> from memscope.view.build import build_view
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "createdAt": "2026-01-01T09:00:00Z",
    ...     "memoryEntries": [
    ...     {"id": "a", "memory": "v1", "isLatest": False, "createdAt": "2026-01-01T09:00:00Z"},
    ...     {"id": "b", "memory": "v2", "parentMemoryId": "a",
    ...      "createdAt": "2026-01-03T09:00:00Z"}]}]}])
    >>> an = analyse(ds, now=datetime(2026, 1, 10, tzinfo=UTC))
    >>> tl = build_timeline(an, build_view(an))
    >>> tl["start"], tl["days"], tl["counts"][0], tl["counts"][2]
    ('2026-01-01', 2, [1, 0, 0], [2, 1, 0])
    >>> steps(tl["days"], "week")
    [0, 2]
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal, NotRequired, TypedDict

from memscope.graph.analysis import Analysis
from memscope.graph.states import memory_state, transition_times
from memscope.lenses.asof import (
    BELIEVED,
    CHANGE_KINDS,
    TRUE,
    Clock,
    Comparison,
    began,
    children_of,
    document_began,
    existed,
    forgotten_at,
    memory_as_of,
    world_clocks,
)
from memscope.records.dataset import Dataset
from memscope.records.models import DocumentRecord, MemoryRecord
from memscope.records.passport import EntityRecord
from memscope.records.time import day_end
from memscope.view.colors import NEUTRAL, OTHER_COLOR
from memscope.view.nodes import vis_node
from memscope.view.paint import mark_changes
from memscope.view.payload import ViewData, VisNode

Unit = Literal["day", "week"]
#: days per step of each unit
UNITS: dict[str, int] = {"day": 1, "week": 7}
#: the node fields a look sets (a missing one is sent as ``None``: reset to the default)
LOOK_KEYS = ("color", "opacity", "borderWidth", "shapeProperties", "shadow", "font")
#: a node always there (no creation date) or a look that is the node as drawn
ALWAYS = -1
AS_DRAWN = -1
#: the most days a timeline spans (about 30 years; a date past it is clamped)
DAYS_MAX = 11_000


class TodayRest(TypedDict):
    """Where the playback rests after its last step: the view as drawn."""

    label: str
    counts: list[int]


class Timeline(TypedDict):
    """What ``playback.js`` plays (all days are ints since ``start``).

    ``nodes``: one row per drawn memory, and per other drawn node with a date:
    ``[id, appear, updated, forgotten, day, look, day, look, …]`` — ``appear`` the day it
    appears (:data:`ALWAYS`: from the start), ``updated`` 1 when it is a new version (its
    appearance is marked "updated", else "added"), ``forgotten`` the day it was forgotten
    (``-1``: not in the played days), then from each ``day`` on its ``looks`` index
    (:data:`AS_DRAWN`: as in the graph payload). ``edges``: ``[id, day]`` for edges that
    appear after both their ends (a relation stated later). ``counts[d]``: memories,
    superseded and forgotten at the end of day ``d``. ``look_states[i]``: the state
    ``looks[i]`` is drawn for (the legend counts each state on the day shown; a row's
    :data:`AS_DRAWN` look is the node's ``state`` in the graph payload). Data with a
    world clock (Graphiti, Zep) adds ``clock``, the clock the days are played on
    (:data:`~memscope.lenses.asof.CLOCKS`), and ``note``, what that means in words
    (:func:`clock_note`); other data has neither.
    """

    start: str
    days: int
    looks: list[dict[str, Any]]
    marks: dict[str, dict[str, Any]]
    nodes: list[list[Any]]
    edges: list[list[Any]]
    counts: list[list[int]]
    today: TodayRest
    look_states: NotRequired[list[str | None]]
    clock: NotRequired[str]
    note: NotRequired[str]


def steps(days: int, unit: Unit | str) -> list[int]:
    """The days a playback stops on: every ``unit`` from day 0, and always the last.

    >>> steps(15, "week"), steps(3, "day"), steps(0, "week")
    ([0, 7, 14, 15], [0, 1, 2, 3], [0])
    """
    if unit not in UNITS:
        raise ValueError(f"A playback steps by {' or '.join(UNITS)}, not {unit!r}.")
    out = list(range(0, days + 1, UNITS[unit]))
    if out[-1] != days:
        out.append(days)
    return out


def day_label(start: date, day: int) -> str:
    """How a step's date is shown (``playback.js`` writes the same).

    >>> day_label(date(2026, 3, 1), 11)
    '12 Mar 2026'
    """
    d = date.fromordinal(start.toordinal() + day)
    return f"{d.day} {d:%b} {d.year}"


def status_line(label: str, counts: list[int], clock: Clock | str = BELIEVED) -> str:
    """The line under the slider (``playback.js`` writes the same). On the world clock
    (a played day, not the view as drawn) it names the clock, and a memory that is not
    latest is one that is no longer true.

    >>> status_line("12 Mar 2026", [230, 41, 1])
    '12 Mar 2026 · 230 memories · 41 superseded · 1 forgotten'
    >>> status_line("12 Mar 2026", [3, 1, 0], "true")
    '12 Mar 2026, what was true · 3 memories · 1 no longer true · 0 forgotten'
    """
    n, superseded, forgotten = counts
    if clock == TRUE:
        label, retired = f"{label}, what was true", "no longer true"
    else:
        retired = "superseded"
    return (f"{label} · {n} {'memory' if n == 1 else 'memories'} · {superseded} {retired}"
            f" · {forgotten} forgotten")


def clock_note(dataset: Dataset, clock: Clock = BELIEVED) -> str | None:
    """What the playback of ``dataset`` on ``clock`` shows, in words, for data with a
    world clock (``None`` for other data: it has one clock, nothing to say): on the world
    clock, how many facts do not say when they became true and where they are placed.

    >>> from memscope.records.dataset import Dataset
    >>> t = datetime(2026, 3, 1, tzinfo=UTC)
    >>> ds = Dataset(memories={"a": MemoryRecord("a", "x", created_at=t, valid_at=t),
    ...                        "b": MemoryRecord("b", "y", created_at=t)})
    >>> clock_note(Dataset()) is None
    True
    >>> print(clock_note(ds, "true"))  # doctest: +NORMALIZE_WHITESPACE
    The history plays what was true on each day: a fact appears on the day it became
    true and shows as superseded from the day it stopped being true (or a newer version
    became true). 1 fact does not say when it became true; it appears on the day the
    memory learnt it.
    """
    world = world_clocks(dataset)
    if not world.facts:
        return None
    if clock != TRUE:
        return ("The history plays what the memory believed on each day: a fact appears "
                "on the day the memory learnt it and shows as superseded from the day it "
                "retired it. Choose “What was true then” in the sidebar to play when each "
                "fact was true in the world.")
    note = ("The history plays what was true on each day: a fact appears on the day it "
            "became true and shows as superseded from the day it stopped being true (or a "
            "newer version became true).")
    if world.undated == 1:
        note += (" 1 fact does not say when it became true; it appears on the day the "
                 "memory learnt it.")
    elif world.undated:
        note += (f" {world.undated} facts do not say when they became true; they appear "
                 "on the day the memory learnt them.")
    return note


_ONE_DAY = timedelta(days=1)


@functools.lru_cache(maxsize=64)
def _midnight(start: date) -> datetime:
    return datetime(start.year, start.month, start.day, tzinfo=UTC)


def _day(when: datetime, start: date) -> int:
    """The UTC day of ``when``, counted from ``start`` (negative before it)."""
    return (when - _midnight(start)) // _ONE_DAY


def _bounds(an: Analysis, mems: Collection[MemoryRecord], clock: Clock = BELIEVED
            ) -> tuple[date, int] | None:
    """The first date in the data and the last played day (no later than ``an.now``).
    On the world clock the days start when the first fact became true, if that is
    earlier (but no more than :data:`DAYS_MAX` days before the last one)."""
    if an.date_range is None:
        return None
    start, end = an.date_range
    later = [t for m in mems for t in (forgotten_at(m), m.forget_after, m.expired_at)]
    later += [r.created_at for r in an.dataset.relations.values()]
    if clock == TRUE:  # becoming true, or no longer, after the last creation
        later += [t for m in mems for t in (m.valid_at, m.invalid_at)]
    for when in later:  # a forgetting, an expiry or a relation after the last creation
        if when is not None and when.year > 1 and when <= an.now:
            end = max(end, when.date())
    if clock == TRUE:  # the world's days start when the first fact became true
        first = [t.date() for m in mems if (t := m.valid_at) is not None and t.year > 1
                 and t <= an.now]
        if first and min(first) < start:
            start = max(min(first), date.fromordinal(end.toordinal() - DAYS_MAX))
    last = _day(datetime.combine(end, datetime.min.time(), UTC), start)
    return start, max(0, min(last, _day(an.now, start), DAYS_MAX))


class _Judge:
    """Each memory's state on the played days on ``clock``, by the as-of lens's rules."""

    def __init__(self, an: Analysis, start: date, days: int, clock: Clock = BELIEVED
                 ) -> None:
        self.memories = an.dataset.memories
        self.kids = children_of(self.memories)
        self.start, self.days = start, days
        self.clock: Clock = clock

    def appear(self, created: datetime | None) -> int:
        """The day a record created at ``created`` appears (:data:`ALWAYS`: undated)."""
        return ALWAYS if created is None else max(0, _day(created, self.start))

    def began(self, mem: MemoryRecord) -> datetime | None:
        """When ``mem`` starts on the clock played (:func:`~memscope.lenses.asof.began`)."""
        return began(mem, self.clock)

    def appear_record(self, record: object) -> int:
        """The day a record of any kind appears on the clock played: a memory when it
        starts, a document when :func:`~memscope.lenses.asof.document_began` says, any
        other record when it was created."""
        if isinstance(record, MemoryRecord):
            return self.appear(self.began(record))
        if isinstance(record, DocumentRecord):
            return self.appear(document_began(record, self.memories, self.clock))
        return self.appear(getattr(record, "created_at", None))

    def state_at(self, mem: MemoryRecord, day: int) -> str:
        """The state the as-of lens gives ``mem`` at the end of ``day``."""
        when = day_end(date.fromordinal(self.start.toordinal() + day))
        kids = self.kids.get(mem.id, [])
        kept = {k: self.memories[k] for k in kids
                if existed(self.began(self.memories[k]), when)}
        return memory_state(memory_as_of(mem, when, kids, kept, set(), self.clock), when)

    def states(self, mem: MemoryRecord) -> list[tuple[int, str]]:
        """``(day, state)`` from its appearance on, a pair where the state changes."""
        first = max(0, self.appear(self.began(mem)))
        own = (mem.created_at, forgotten_at(mem), mem.expired_at, mem.invalid_at)
        instants = [*transition_times([mem]), *(t for t in own if t is not None),
                    *(t for k in self.kids.get(mem.id, [])
                      if (t := self.began(self.memories[k])) is not None)]
        days = sorted({first} | {d for t in instants if t.year > 1
                                 and first < (d := _day(t, self.start)) <= self.days})
        out: list[tuple[int, str]] = []
        for day in days:
            state = self.state_at(mem, day)
            if not out or out[-1][1] != state:
                out.append((day, state))
        return out


def _stand_in_days(an: Analysis, judge: _Judge, rep: Mapping[str, str]) -> dict[str, int]:
    """The day each drawn node that stands for others (a cluster's hexagon) appears: its
    first member's (:data:`ALWAYS` when one is undated)."""
    graph = an.graph.graph
    first: dict[str, int] = {}
    for node_id, drawn_as in rep.items():
        if drawn_as == node_id or node_id not in graph:
            continue
        day = judge.appear_record(graph.nodes[node_id].get("record"))
        if drawn_as not in first or day < first[drawn_as]:
            first[drawn_as] = day
    return first


def memory_states(an: Analysis, clock: Clock = BELIEVED) -> dict[str, list[tuple[int, str]]]:
    """Every memory's ``(day, state)`` pairs on ``clock``, as :func:`build_timeline` plays
    them (a pair where the state changes, the first on its appearance); empty when
    nothing has a date. The heavy part of a playback: the view pipeline keeps it per
    scope and clock (its ``memory_states`` step)."""
    bounds = _bounds(an, an.dataset.memories.values(), clock)
    if bounds is None:
        return {}
    judge = _Judge(an, *bounds, clock)
    return {m.id: judge.states(m) for m in an.dataset.memories.values()}


@dataclass(frozen=True)
class PlaybackBasis:
    """What a playback of one scope and one shown set reads besides the drawn view: the
    played days (``start``, ``days``), every memory's states, the day each cluster hexagon
    appears, the counts of each day and of today, the clock the days are played on and
    what that means in words (:func:`clock_note`; ``None`` for data with one clock). The
    view pipeline keeps it (its ``playback`` step), so a rerun while playing (a click)
    computes none of it again."""

    start: date
    days: int
    states: Mapping[str, list[tuple[int, str]]]
    stand_in: Mapping[str, int]
    counts: list[list[int]]
    today: list[int]
    clock: Clock = BELIEVED
    note: str | None = None


def playback_basis(an: Analysis, counted: Collection[str] | None = None,
                   rep: Mapping[str, str] | None = None,
                   states: Mapping[str, list[tuple[int, str]]] | None = None,
                   clock: Clock = BELIEVED) -> PlaybackBasis | None:
    """The :class:`PlaybackBasis` of ``an`` on ``clock`` (``None``: nothing has a date).
    ``counted``: the node ids whose memories the counts cover (default: every memory);
    ``rep``: each node → the drawn node standing for it (the overview's); ``states``:
    :func:`memory_states` of ``an`` on the same clock when already known."""
    memories = an.dataset.memories
    bounds = _bounds(an, memories.values(), clock)
    if bounds is None:
        return None
    start, days = bounds
    judge = _Judge(an, start, days, clock)
    if states is None:
        states = {m.id: judge.states(m) for m in memories.values()}
    counted_mems = [memories[i] for i in (memories if counted is None else counted)
                    if i in memories]
    return PlaybackBasis(start, days, states,
                         _stand_in_days(an, judge, rep) if rep else {},
                         _counts(judge, counted_mems, states, days),
                         _today(an, counted_mems), clock, clock_note(an.dataset, clock))


def state_on(pairs: list[tuple[int, str]], day: int) -> str | None:
    """The state on ``day`` of a memory with these ``(day, state)`` pairs (``None``: it did
    not exist yet).

    >>> state_on([(2, "recent"), (3, "latest")], 1), state_on([(2, "recent"), (3, "latest")], 9)
    (None, 'latest')
    """
    out = None
    for start, state in pairs:
        if start > day:
            break
        out = state
    return out


def _counts(judge: _Judge, counted: list[MemoryRecord],
            states: Mapping[str, list[tuple[int, str]]], days: int) -> list[list[int]]:
    """Memories, superseded and forgotten at each day (difference arrays)."""
    diff = [[0, 0, 0] for _ in range(days + 2)]
    tracked = ("superseded", "forgotten")
    for mem in counted:
        first = max(0, judge.appear(judge.began(mem)))
        if first > days:  # created after the last played day
            continue
        diff[first][0] += 1
        segments = states[mem.id]
        for i, (day, state) in enumerate(segments):
            if state in tracked and day <= days:
                col = 1 + tracked.index(state)
                end = min(segments[i + 1][0], days + 1) if i + 1 < len(segments) else days + 1
                diff[day][col] += 1
                diff[end][col] -= 1
    out: list[list[int]] = []
    run = [0, 0, 0]
    for d in range(days + 1):
        run = [run[i] + diff[d][i] for i in range(3)]
        out.append(list(run))
    return out


def _fills(view: ViewData) -> tuple[dict[str, str], str]:
    """Each colour group's fill (from the legend) and the fill of the groups past it."""
    legend = view.get("legend") or {}
    fills = {c["key"]: c["color"] for c in legend.get("colors", [])}
    other = legend.get("other")
    return fills, other["color"] if other else OTHER_COLOR


def _look(node: Mapping[str, Any]) -> dict[str, Any]:
    return {k: node.get(k) for k in LOOK_KEYS}


class _Looks:
    """The looks table: each distinct style fragment once per state it is drawn for."""

    def __init__(self) -> None:
        self.table: list[dict[str, Any]] = []
        self.states: list[str | None] = []
        self.index: dict[str, int] = {}

    def add(self, look: dict[str, Any], state: str | None = None) -> int:
        key = repr((state, sorted(look.items())))
        if key not in self.index:
            self.index[key] = len(self.table)
            self.table.append(look)
            self.states.append(state)
        return self.index[key]


def _marks() -> dict[str, dict[str, Any]]:
    """The fields :func:`mark_changes` sets on a node of each change kind."""
    probe: VisNode = {"id": "m", "label": "", "title": "", "kind": "memory", "color_group": "",
                      "shape": "dot", "size": 11, "color": {"background": NEUTRAL,
                                                            "border": NEUTRAL}}
    out: dict[str, dict[str, Any]] = {}
    when = datetime(2000, 1, 1, tzinfo=UTC)
    for kind in CHANGE_KINDS:
        change = Comparison(when, when, added=["m"] if kind == "added" else [],
                            updated=["m"] if kind == "updated" else [],
                            forgotten=["m"] if kind == "forgotten" else [])
        view: ViewData = {"nodes": [probe], "edges": [], "legend": {}}  # type: ignore[typeddict-item]
        marked = mark_changes(view, change)["nodes"][0]
        out[kind] = {k: v for k, v in marked.items() if k in LOOK_KEYS}
    return out


def _edge_rows(an: Analysis, view: ViewData, appear: Mapping[str, int],
               judge: _Judge) -> list[list[Any]]:
    """Relation edges stated after both their entities: ``[id, day]``."""
    stated: dict[tuple[str, str, str], int] = {}
    for rel in an.dataset.relations.values():
        key = (rel.subject_id, rel.object_id, rel.predicate or "")
        day = judge.appear_record(rel)
        stated[key] = min(stated.get(key, day), day)
    rows: list[list[Any]] = []
    for edge in view["edges"]:
        if edge.get("kind") != "relation":
            continue
        day = stated.get((edge["from"], edge["to"], edge.get("predicate") or ""), ALWAYS)
        if day > max(appear.get(edge["from"], ALWAYS), appear.get(edge["to"], ALWAYS)):
            rows.append([edge["id"], day])
    return rows


def build_timeline(an: Analysis, view: ViewData,
                   counted: Collection[str] | None = None,
                   rep: Mapping[str, str] | None = None, *,
                   basis: PlaybackBasis | None = None,
                   clock: Clock = BELIEVED) -> Timeline | None:
    """The playback of ``view`` (drawn from ``an``) on ``clock``; ``None`` when nothing
    has a date.

    On the memory's own clock (:data:`~memscope.lenses.asof.BELIEVED`) a memory appears
    when it was created (a fact when the memory learnt it) and is superseded from when a
    newer version was created or the memory retired it. On the world clock
    (:data:`~memscope.lenses.asof.TRUE`, data with ``valid_at`` / ``invalid_at``) a fact
    appears when it became true (one that does not say: when it was learnt, and the
    timeline's ``note`` says how many) and is superseded from when it stopped being true
    or a newer version became true; an episode appears with its first true fact if that
    is before it was saved. Either way a day is what "As of" shows on that clock.

    ``counted``: the node ids whose memories the counts cover (e.g. every node the
    filters let through, drawn or inside a collapsed cluster; default: every memory of
    ``an``). The last played day is the last date in the data (creations, forgettings,
    expiries) but never after ``an.now``; the rest after it is the view as drawn, counted
    at ``an.now``. ``rep``: each node → the drawn node standing for it (the overview's);
    a cluster's hexagon then appears with its first member. ``basis``: the
    :func:`playback_basis` of the same (the pipeline keeps it; without it, it is computed
    here, on ``clock``; a basis carries its own clock); only the drawn nodes' rows are
    built on each call.
    """
    if basis is None:
        basis = playback_basis(an, counted, rep, clock=clock)
    if basis is None:
        return None
    start, days, states, stand_in = basis.start, basis.days, basis.states, basis.stand_in
    judge = _Judge(an, start, days, basis.clock)
    memories = an.dataset.memories
    drawn = {n["id"]: n for n in view["nodes"]}
    fills, other = _fills(view)
    looks = _Looks()
    drawn_as: dict[tuple[Any, ...], tuple[dict[str, Any], int]] = {}
    rows: list[list[Any]] = []
    appear: dict[str, int] = {}
    graph = an.graph.graph
    for node_id, node in drawn.items():
        attrs = graph.nodes[node_id] if node_id in graph else None
        record = attrs.get("record") if attrs is not None else None
        day = _node_day(graph, node_id, record, judge, stand_in)
        appear[node_id] = day
        mem = memories.get(node_id)
        if mem is None or attrs is None:
            if day != ALWAYS:
                rows.append([node_id, day, 0, -1])
            continue
        group = node.get("color_group", "")
        fill = fills.get(group, other if group else NEUTRAL)
        shown = _look(node)
        row: list[Any] = [node_id, day, int(mem.parent_id is not None), -1]
        gone = forgotten_at(mem)  # marked on that day's step if the memory exists by then
        if gone is not None and gone.year > 1 and 0 <= _day(gone, start) <= days:
            row[3] = _day(gone, start)
        high = (node.get("borderWidth"), node["color"]["border"]) if node.get("highlighted") \
            else None
        for seg_day, state in states[node_id]:
            key = (state, fill, mem.is_inference, high)  # a look depends on these only
            if key not in drawn_as:
                look = _look(vis_node(node_id, attrs, state, group, fill, an.now))
                if high is not None:  # a search hit keeps its heavy border
                    look["borderWidth"] = high[0]
                    look["color"] = {"background": look["color"]["background"],
                                     "border": high[1]}
                drawn_as[key] = (look, looks.add(look, state))
            look, index = drawn_as[key]
            same = look == shown and state == node.get("state")
            row += [seg_day, AS_DRAWN if same else index]
        rows.append(row)
    counts, today = basis.counts, basis.today
    out: Timeline = {"start": start.isoformat(), "days": days, "looks": looks.table,
                     "marks": _marks(), "nodes": rows,
                     "edges": _edge_rows(an, view, appear, judge), "counts": counts,
                     "today": {"label": "Today", "counts": today},
                     "look_states": looks.states}
    if basis.note is not None:  # data with a world clock: which clock, in words
        out["clock"], out["note"] = basis.clock, basis.note
    return out


def _node_day(graph: Any, node_id: str, record: object, judge: _Judge,
              stand_in: Mapping[str, int]) -> int:
    """The day a drawn node appears: its record's; an undated entity's first fact's; a
    cluster hexagon's first member's."""
    day = judge.appear_record(record)
    if day == ALWAYS and isinstance(record, EntityRecord):
        day = _entity_day(graph, node_id, judge)
    if record is None and node_id in stand_in:
        day = stand_in[node_id]
    return day


def _entity_day(graph: Any, entity_id: str, judge: _Judge) -> int:
    """The day an undated entity appears: with the first fact about it (a Graphiti or Zep
    entity is there once something is said of it); always, when nothing dated is."""
    days = [judge.appear_record(graph.nodes[u].get("record"))
            for u, _, k in graph.in_edges(entity_id, keys=True) if k == "about"]
    return ALWAYS if not days or ALWAYS in days else min(days)


def _today(an: Analysis, counted: list[MemoryRecord]) -> list[int]:
    """Memories, superseded and forgotten as drawn (at ``an.now``)."""
    today = [len(counted), 0, 0]
    for mem in counted:
        state = an.state(mem.id)
        if state in ("superseded", "forgotten"):
            today[1 if state == "superseded" else 2] += 1
    return today


def for_view(timeline: Any, ids: Collection[str]) -> Timeline:
    """``timeline`` checked for the graph payload: the rows of nodes not in ``ids`` left
    out. Raises ``TypeError`` with one sentence when it is not a :class:`Timeline`."""
    # Python 3.11 reads a postponed ``NotRequired`` as required: the optional ones named
    keys = set(Timeline.__required_keys__) - {"clock", "note"}
    if not isinstance(timeline, Mapping) or not keys <= set(timeline):
        raise TypeError("graph_view: timeline must be what "
                        "memscope.view.timeline.build_timeline returns.")
    out: dict[str, Any] = dict(timeline)
    out["nodes"] = [r for r in timeline["nodes"] if r and r[0] in ids]
    return out  # type: ignore[return-value]


__all__ = ["AS_DRAWN", "UNITS", "Timeline", "build_timeline", "clock_note", "day_label",
           "for_view", "memory_states", "state_on", "status_line", "steps"]
