"""Insight charts (plotly figures) from an analysis and the current filter's visible nodes.

Every function takes an :class:`~memscope.graph.analysis.Analysis` and ``visible`` (node ids
that pass the filters; ``None`` = everything) and returns a titled, labelled
``plotly.graph_objects.Figure``; an empty selection gives a figure that says so. Labels
that come from the data (spaces, document types, reasons, predicates) are HTML-escaped and
shortened: plotly would otherwise render tags such as ``<b>`` or ``<a>`` in them.

Example::

    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "type": "<b>pdf</b>",
    ...     "memoryEntries": [{"id": "m", "memory": "x"}]}]}])
    >>> list(per_document_type(analyse(ds)).data[0].x)
    ['&lt;b&gt;pdf&lt;/b&gt;']
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from datetime import datetime
from typing import Any, cast

import pandas as pd
import plotly.graph_objects as go

from memscope.graph.analysis import Analysis
from memscope.graph.states import STATES
from memscope.lenses.asof import forgotten_at
from memscope.records.models import MemoryRecord
from memscope.records.text import one_line, shorten

#: Okabe–Ito colours per memory state (distinguishable with colour-vision deficiencies)
STATE_COLORS = {"latest": "#009E73", "recent": "#56B4E9", "superseded": "#999999",
                "forgotten": "#4D4D4D", "expiring": "#E69F00", "expired": "#D55E00"}
KIND_COLORS = {"updates": "#0072B2", "extends": "#009E73", "derives": "#CC79A7",
               "relation": "#777777", "about": "#9E9E9E"}
LABEL_MAX = 40
TOP_N = 20
#: at most this many bars (or ranges of lengths) in "versions per chain"
MAX_BINS = 20
NO_SPACE = "(no space)"
NO_REASON = "(no reason given)"

Chart = Callable[[Analysis, "Collection[str] | None"], go.Figure]


def label(text: object, limit: int = LABEL_MAX) -> str:
    """A data-derived chart label: one line, at most ``limit`` characters, HTML-escaped.

    >>> label("<script>x</script>"), label("a   very\\nlong label", 10)
    ('&lt;script&gt;x&lt;/script&gt;', 'a very lo…')
    """
    return html.escape(shorten(one_line(str(text)), limit), quote=False)


def _layout(fig: go.Figure, title: str, x: str, y: str, *, legend: str | None = None
            ) -> go.Figure:
    fig.update_layout(
        title={"text": title, "x": 0.0, "xanchor": "left"},
        xaxis_title=x, yaxis_title=y, template="plotly_white", height=380,
        margin={"l": 60, "r": 20, "t": 60, "b": 60}, legend_title_text=legend,
        font={"size": 13}, barmode="stack", hoverlabel={"namelength": -1},
    )
    _whole_numbers(fig)
    return fig


def _traces(fig: go.Figure) -> tuple[Any, ...]:
    """The figure's traces. (plotly has no type hints, and ``fig.data`` is inferred as the
    figure's own keys, ``"data"``/``"layout"``/``"frames"``.)"""
    return cast("tuple[Any, ...]", fig.data)


def _whole_numbers(fig: go.Figure) -> None:
    """Counts have no halves: one tick per unit on the count axis when counts are small."""
    traces = _traces(fig)
    horizontal = any(getattr(t, "orientation", None) == "h" for t in traces)
    values = [t.x if horizontal else t.y for t in traces]
    top = sum(max((v for v in vals if v is not None), default=0) for vals in values
              if vals is not None)
    if 0 < top <= 10:
        (fig.update_xaxes if horizontal else fig.update_yaxes)(dtick=1, rangemode="tozero")


def _empty(title: str, message: str = "Nothing to show for the current filters.") -> go.Figure:
    fig = go.Figure()
    fig.add_annotation(text=message, showarrow=False, x=0.5, y=0.5, xref="paper",
                       yref="paper", font={"size": 14})
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False)
    fig.update_layout(title={"text": title, "x": 0.0, "xanchor": "left"},
                      template="plotly_white", height=380)
    return fig


def _memories(analysis: Analysis, visible: Collection[str] | None
              ) -> list[tuple[str, MemoryRecord]]:
    shown = None if visible is None else set(visible)
    return [(m_id, m) for m_id, m in analysis.dataset.memories.items()
            if shown is None or m_id in shown]


def _space(mem: MemoryRecord) -> str:
    return mem.space or NO_SPACE


def _period(times: Iterable[datetime], freq: str | None) -> tuple[pd.Series, str]:
    """Period starts of ``times`` (UTC, naive) and the period's name."""
    stamps = pd.to_datetime(pd.Series(list(times)), utc=True).dt.tz_convert(None)
    if freq is None:
        span = (stamps.max() - stamps.min()).days if len(stamps) else 0
        freq = "D" if span <= 62 else "W" if span <= 730 else "M"
    name = {"D": "day", "W": "week", "M": "month"}[freq]
    return stamps.dt.to_period(freq).dt.start_time, name


def added_over_time(analysis: Analysis, visible: Collection[str] | None = None, *,
                    freq: str | None = None) -> go.Figure:
    """Memories added per day/week/month (``freq`` "D"/"W"/"M"; automatic by default),
    stacked by their state now."""
    title = "Memories added over time, by state"
    rows = [(m.created_at, analysis.state(m_id)) for m_id, m in _memories(analysis, visible)
            if m.created_at is not None]
    if not rows:
        return _empty(title)
    starts, name = _period((t for t, _ in rows), freq)
    frame = pd.DataFrame({"period": starts, "state": [s for _, s in rows]})
    counts = frame.groupby(["period", "state"]).size()
    fig = go.Figure()
    for state in STATES:
        part = counts.loc[counts.index.get_level_values("state") == state]
        if part.empty:
            continue
        fig.add_bar(x=part.index.get_level_values("period"), y=part.values, name=state,
                    marker_color=STATE_COLORS[state])
    return _layout(fig, title, f"created ({name})", "memories", legend="state")


def forgotten_over_time(analysis: Analysis, visible: Collection[str] | None = None, *,
                        freq: str | None = None) -> go.Figure:
    """Memories forgotten per period (the forgetting time as :mod:`memscope.lenses.asof` reads
    it: ``forgottenAt``, else ``updatedAt``)."""
    title = "Memories forgotten over time"
    times = [t for _, m in _memories(analysis, visible)
             if (t := forgotten_at(m)) is not None and t.year > 1]
    if not times:
        return _empty(title, "No forgotten memories with a date in the current filters.")
    starts, name = _period(times, freq)
    counts = starts.value_counts().sort_index()
    fig = go.Figure(go.Bar(x=counts.index, y=counts.values, name="forgotten",
                           marker_color=STATE_COLORS["forgotten"]))
    return _layout(fig, title, f"forgotten ({name})", "memories")


def versions_per_chain(analysis: Analysis, visible: Collection[str] | None = None
                       ) -> go.Figure:
    """How many chains have 1, 2, 3 … versions (chains with a visible member).

    Up to :data:`MAX_BINS` versions, one bar per length; longer chains put the lengths in
    at most :data:`MAX_BINS` ranges of a round width ("1–1,000", "1,001–2,000" …), so
    a 20,000-version chain gives a few readable labels, not 20,000.
    """
    title = "Versions per chain"
    shown = None if visible is None else set(visible)
    lengths = [len(c.entries) for c in analysis.chains.chains
               if shown is None or any(e.id in shown for e in c.entries)]
    if not lengths:
        return _empty(title, "No version chains in the current filters.")
    counts = Counter(lengths)
    if max(counts) <= MAX_BINS:
        xs = list(range(1, max(counts) + 1))
        fig = go.Figure(go.Bar(x=xs, y=[counts.get(x, 0) for x in xs], name="chains",
                               marker_color="#0072B2"))
        fig = _layout(fig, title, "versions in the chain", "chains")
        fig.update_xaxes(dtick=1)
        return fig
    width = bin_width(max(counts))
    binned = Counter((n - 1) // width for n in lengths)
    last = max(binned)
    names = [f"{b * width + 1:,}–{(b + 1) * width:,}" for b in range(last + 1)]
    fig = go.Figure(go.Bar(x=names, y=[binned.get(b, 0) for b in range(last + 1)],
                           name="chains", marker_color="#0072B2"))
    fig = _layout(fig, title, f"versions in the chain (ranges of {width:,})", "chains")
    fig.update_xaxes(type="category", tickangle=-30)
    return fig


def bin_width(top: int, bins: int = MAX_BINS) -> int:
    """The smallest round width (1, 2, 5 × a power of ten) that fits ``1..top`` in at most
    ``bins`` ranges.

    >>> bin_width(20), bin_width(21), bin_width(20_002), bin_width(100)
    (1, 2, 2000, 5)
    """
    scale = 1
    while True:
        for step in (1, 2, 5):
            if -(-top // (step * scale)) <= bins:
                return step * scale
        scale *= 10


def relation_kinds(analysis: Analysis, visible: Collection[str] | None = None) -> go.Figure:
    """Memory relations by kind (``updates``/``extends``/``derives``) and Spomory
    relations by predicate (the :data:`TOP_N` most common), between visible nodes."""
    title = "Relations by kind"
    shown = None if visible is None else set(visible)
    counts: Counter[str] = Counter()
    for u, v, data in analysis.graph.graph.edges(data=True):
        kind = data["kind"]
        if kind == "source" or (shown is not None and (u not in shown or v not in shown)):
            continue
        counts["relation: " + (data.get("predicate") or "") if kind == "relation"
               else kind] += 1
    if not counts:
        return _empty(title, "No relations in the current filters.")
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_N]
    colors = [KIND_COLORS.get(k, KIND_COLORS["relation"]) for k, _ in items]
    fig = go.Figure(go.Bar(x=[n for _, n in items], y=[label(k) for k, _ in items],
                           orientation="h", marker_color=colors, name="relations"))
    fig = _layout(fig, title, "relations", "kind")
    fig.update_yaxes(autorange="reversed")
    return fig


def static_vs_dynamic(analysis: Analysis, visible: Collection[str] | None = None
                      ) -> go.Figure:
    """Static (long-lived) vs dynamic memories, and the static vs dynamic profile lines
    of the spaces those memories belong to."""
    title = "Static vs dynamic"
    mems = _memories(analysis, visible)
    spaces = {_space(m) for _, m in mems} if visible is not None else None
    static = sum(1 for _, m in mems if m.is_static)
    lines = {"static": 0, "dynamic": 0}
    for tag, profile in analysis.dataset.profiles.items():
        if spaces is None or (tag or NO_SPACE) in spaces:
            lines["static"] += len(profile.static)
            lines["dynamic"] += len(profile.dynamic)
    if not mems and not any(lines.values()):
        return _empty(title)
    groups = ["memories", "profile lines"]
    fig = go.Figure()
    fig.add_bar(x=groups, y=[static, lines["static"]], name="static", marker_color="#AA4499")
    fig.add_bar(x=groups, y=[len(mems) - static, lines["dynamic"]], name="dynamic",
                marker_color="#88CCEE")
    fig = _layout(fig, title, "", "count", legend="kind")
    fig.update_layout(barmode="group")
    return fig


def per_space(analysis: Analysis, visible: Collection[str] | None = None) -> go.Figure:
    """Memories per space (named as the data names it, else by its tag), stacked by
    state."""
    title = "Memories per space"
    name = analysis.dataset.space_label
    rows = [(name(m.space) or NO_SPACE, analysis.state(m_id))
            for m_id, m in _memories(analysis, visible)]
    if not rows:
        return _empty(title)
    totals = Counter(s for s, _ in rows)
    order = sorted(totals, key=lambda s: (-totals[s], s))[:TOP_N]
    per = Counter(rows)
    fig = go.Figure()
    for state in STATES:
        ys = [per.get((s, state), 0) for s in order]
        if any(ys):
            fig.add_bar(y=[label(s) for s in order], x=ys, name=state, orientation="h",
                        marker_color=STATE_COLORS[state])
    fig = _layout(fig, title, "memories", "space", legend="state")
    fig.update_yaxes(autorange="reversed")
    return fig


def per_document_type(analysis: Analysis, visible: Collection[str] | None = None
                      ) -> go.Figure:
    """Documents per document type, and the memories extracted from them."""
    title = "Documents and memories per document type"
    ds = analysis.dataset
    shown = None if visible is None else set(visible)
    docs = Counter(d.type for d_id, d in ds.documents.items()
                   if shown is None or d_id in shown)
    mems: Counter[str] = Counter()
    for m_id, _ in _memories(analysis, visible):
        for t in {ds.documents[d].type for d in ds.memory_documents.get(m_id, [])}:
            mems[t] += 1
    if not docs and not mems:
        return _empty(title)
    order = sorted(set(docs) | set(mems), key=lambda t: (-docs[t], -mems[t], t))[:TOP_N]
    xs = [label(t) for t in order]
    fig = go.Figure()
    fig.add_bar(x=xs, y=[docs[t] for t in order], name="documents", marker_color="#332288")
    fig.add_bar(x=xs, y=[mems[t] for t in order], name="memories", marker_color="#44AA99")
    fig = _layout(fig, title, "document type", "count")
    fig.update_layout(barmode="group")
    return fig


def forget_reasons(analysis: Analysis, visible: Collection[str] | None = None) -> go.Figure:
    """Forgotten memories per forget reason (the :data:`TOP_N` most common)."""
    title = "Forget reasons"
    counts = Counter((m.forget_reason or "").strip() or NO_REASON
                     for _, m in _memories(analysis, visible) if m.is_forgotten)
    if not counts:
        return _empty(title, "No forgotten memories in the current filters.")
    items = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_N]
    fig = go.Figure(go.Bar(x=[n for _, n in items], y=[label(r) for r, _ in items],
                           orientation="h", marker_color=STATE_COLORS["forgotten"],
                           name="forgotten", hovertext=[label(r, 200) for r, _ in items],
                           hoverinfo="text+x"))
    fig = _layout(fig, title, "forgotten memories", "reason")
    fig.update_yaxes(autorange="reversed")
    return fig


#: every chart, in page order: (key, function)
CHARTS: tuple[tuple[str, Chart], ...] = (
    ("added", added_over_time),
    ("forgotten", forgotten_over_time),
    ("versions", versions_per_chain),
    ("relations", relation_kinds),
    ("static", static_vs_dynamic),
    ("spaces", per_space),
    ("types", per_document_type),
    ("reasons", forget_reasons),
)


def all_charts(analysis: Analysis, visible: Collection[str] | None = None
               ) -> dict[str, go.Figure]:
    """Every chart of :data:`CHARTS`, by key."""
    return {key: chart(analysis, visible) for key, chart in CHARTS}
