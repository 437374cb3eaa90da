"""Graph → what the browser draws: vis-network node and edge dicts plus a legend.

Plain JSON-ready dicts, deterministic (the same analysis gives identical dicts, so the
component's payload stays byte-identical across reruns). Text from the data goes into
``label`` (truncated) and ``title`` (full, plain text); the component never renders it as
HTML.

Example::

    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "title": "Notes", "memoryEntries": [
    ...     {"id": "a", "memory": "x"}, {"id": "b", "memory": "y", "parentMemoryId": "a"}]}]}])
    >>> view = build_view(analyse(ds))
    >>> [n["id"] for n in view["nodes"]], [(e["from"], e["to"], e["kind"]) for e in view["edges"]]
    (['d', 'a', 'b'], [('d', 'a', 'source'), ('d', 'b', 'source'), ('a', 'b', 'updates')])
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections import Counter
from collections.abc import Collection, Hashable, Mapping
from datetime import datetime
from typing import Any, Literal, NotRequired, TypedDict

import igraph as ig
import networkx as nx

from memscope.graph.analysis import Analysis
from memscope.graph.states import STATES
from memscope.records.text import KEY_MAX, bounded_key, clip, relation_label, shorten
from memscope.view.layout import seeded_igraph
from memscope.view.names import cluster_names
from memscope.view.palette import PALETTE as _PALETTE
from memscope.view.wording import relative_time

ColorBy = Literal["cluster", "space", "document_type"]
COLOR_BY: tuple[str, ...] = ("cluster", "space", "document_type")
NODE_KINDS = ("document", "memory", "entity")
#: every shape the graph draws (``cluster``: the drawing budget's collapsed clusters)
SHAPE_KINDS = ("document", "memory", "entity", "cluster")

LABEL_MAX = 24
#: connected components at least this large are split into Louvain communities
COMMUNITY_MIN = 40
TITLE_MAX = 2000
STATIC_BADGE = "★ "
#: an inferred memory (the service inferred it; the user never stated it): a dotted
#: border, drawn at every zoom and in either theme whatever the text, and this label suffix
INFERRED_BADGE = " ≈"
INFERRED_STYLE: dict[str, Any] = {"borderWidth": 3, "shapeProperties": {"borderDashes": [1, 3]}}

#: 20 fills at least 19 CIEDE2000 apart from each other, from both themes' backgrounds
#: and from the colours with a meaning of their own (:mod:`memscope.view.palette`).
#: Colour groups past the 20th share :data:`OTHER_COLOR`: no two groups drawn in a colour
#: of their own ever share it.
PALETTE = _PALETTE
#: every colour group of its own is listed in the legend
LEGEND_MAX = len(PALETTE)
NEUTRAL = "#DDDDDD"  # no group: unlinked nodes, no space, no document
OTHER_COLOR = "#9E9E9E"  # the groups past the palette, together
#: a document is a card: its title inside a box (vis-network's ``box`` sizes itself to
#: the label, wrapped at :data:`CARD_WIDTH` px; ``size`` only serves the label layers)
SHAPES = {"document": "box", "memory": "dot", "entity": "diamond", "cluster": "hexagon"}
SIZES = {"document": 16, "memory": 11, "entity": 14}
CARD_WIDTH = 120
CARD_MARGIN = 8
CARD_LABEL_MAX = 40
#: a memory's size grows by this much per doubling of what depends on it (its later
#: versions, the memories extending or derived from it, transitively), up to
#: :data:`SIZE_STEPS` steps: 11, 14, 17, 20, 23 px for 0, 1, 2–3, 4–7, 8+ dependents
SIZE_STEP = 3
SIZE_STEPS = 4
#: the edge kinds along which a memory depends on another (the newer / derived end)
DEPENDS = ("updates", "extends", "derives")
SHAPE_LABELS = {"document": "document", "memory": "memory", "entity": "entity",
                "cluster": "collapsed cluster"}

#: state → style fragment merged into the node (Okabe–Ito amber/vermillion for warnings).
#: Expiring and expired differ at any zoom: an expiring memory keeps its fill inside a
#: thick amber ring; an expired one is filled red with a dashed dark-red border.
STATE_STYLES: dict[str, dict[str, Any]] = {
    "latest": {},
    "recent": {"borderWidth": 3,
               "shadow": {"enabled": True, "color": "rgba(0,114,178,0.85)", "size": 14,
                          "x": 0, "y": 0}},
    "superseded": {"opacity": 0.45, "borderWidth": 2,
                   "shapeProperties": {"borderDashes": [4, 3]}},
    "forgotten": {"opacity": 0.55, "font": {"color": "#8C8C8C"}},
    "expiring": {"borderWidth": 6},
    "expired": {"borderWidth": 3, "shapeProperties": {"borderDashes": [3, 2]}},
}
FORGOTTEN_COLOR: NodeColor = {"background": "#E4E4E4", "border": "#9A9A9A"}
STATE_BORDERS = {"expiring": "#E69F00", "expired": "#8A2A00", "recent": "#0072B2"}
#: states whose fill replaces the colour group's
STATE_FILLS = {"expired": "#D55E00", "forgotten": FORGOTTEN_COLOR["background"]}
STATE_LABELS = {"latest": "current", "recent": "added in the last day",
                "superseded": "superseded by a newer version", "forgotten": "forgotten",
                "expiring": "expires within a week", "expired": "expired (kept past its "
                "forget date)", "static": "static fact (★)",
                "inferred": "inferred — not stated by you (dotted, ≈)"}
#: the order the legend lists states in
LEGEND_STATES = ("latest", "recent", "superseded", "forgotten", "expiring", "expired",
                 "static", "inferred")

#: edge kind → style (an arrow on every chain edge, ``updates``/``extends``/``derives``,
#: pointing at the newer version / the memory that extends or is derived, so a chain reads
#: as a directed path; and on ``relation``, at the object). Chain edges are drawn wide, so
#: their arrows (which grow with the width) read at the fitted zoom. Only relation edges
#: get a tooltip (predicate and confidence): the others say what the legend says, and
#: would double the edge payload.
EDGE_STYLES: dict[str, EdgeStyle] = {
    "source": {"color": {"color": "#BBBBBB"}, "width": 1},
    "updates": {"color": {"color": "#0072B2"}, "width": 4, "arrows": "to"},
    "extends": {"color": {"color": "#009E73"}, "width": 4, "dashes": [8, 5], "arrows": "to"},
    "derives": {"color": {"color": "#CC79A7"}, "width": 4, "dashes": [2, 4], "arrows": "to"},
    "relation": {"color": {"color": "#777777"}, "width": 1.5, "arrows": "to"},
}
EDGE_MEANING = {"source": "source document", "updates": "newer version",
                "extends": "adds detail", "derives": "inferred from", "relation": "relation"}


class NodeColor(TypedDict):
    """vis-network node colours."""

    background: str
    border: str


class EdgeStyle(TypedDict):
    """How one edge kind is drawn (vis-network edge options)."""

    color: dict[str, str]
    width: float
    arrows: NotRequired[str]
    dashes: NotRequired[list[int]]


class VisNode(TypedDict):
    """One vis-network node; ``kind``/``state``/``static``/``color_group`` are Memscope's own
    (``kind`` is ``"cluster"`` for the drawing budget's collapsed clusters).

    (Not vis-network's ``group``: vis would invent group colours for unknown names.)
    """

    id: str
    label: str
    title: str
    kind: str
    color_group: str
    shape: str
    size: float
    color: NodeColor
    borderWidth: NotRequired[int]  # 1 (the component's default) when absent
    state: NotRequired[str]
    static: NotRequired[bool]
    inferred: NotRequired[bool]
    opacity: NotRequired[float]
    shapeProperties: NotRequired[dict[str, Any]]
    shadow: NotRequired[dict[str, Any]]
    font: NotRequired[dict[str, Any]]
    x: NotRequired[float]
    y: NotRequired[float]
    widthConstraint: NotRequired[dict[str, int]]  # a document card's width
    margin: NotRequired[int]  # a document card's padding around its title
    highlighted: NotRequired[bool]  # set by :func:`highlight`
    change: NotRequired[str]  # set by :func:`memscope.view.changes.mark_changes`


VisEdge = TypedDict("VisEdge", {
    "id": str, "from": str, "to": str, "kind": str, "title": NotRequired[str],
    "color": dict[str, str],
    "width": float, "arrows": NotRequired[str], "dashes": NotRequired[list[int]],
    "label": NotRequired[str], "predicate": NotRequired[str],
})


class LegendColor(TypedDict):
    """One colour group in the legend: its fill and border (draw the swatch from them)."""

    key: str
    label: str
    color: str
    border: str
    count: int


class LegendEntry(TypedDict):
    """One legend line: a shape, a state or an edge kind, how many are drawn, and the
    exact style they are drawn with (vis-network option names; a state's missing
    ``background`` means "the colour group's fill")."""

    key: str
    label: str
    count: int
    style: dict[str, Any]


class Legend(TypedDict):
    """What is drawn and how: counts per kind, state, edge kind and colour group, and the
    style of each (so swatches are drawn from data, not hard-coded).

    ``colors`` lists every colour group drawn in a colour of its own (at most
    :data:`LEGEND_MAX`, largest first; then the neutral group ``""``); ``other`` is the
    groups past the palette together, in :data:`OTHER_COLOR` (``None`` when there are
    none; its nodes are those whose ``color_group`` is not a key of ``colors``), and
    ``other_colors`` how many groups it holds.
    """

    color_by: str
    kinds: dict[str, int]
    states: dict[str, int]
    static: int
    edges: dict[str, int]
    #: inferred memories drawn
    inferred: int
    colors: list[LegendColor]
    other: LegendColor | None
    other_colors: int
    shapes: list[LegendEntry]
    state_styles: list[LegendEntry]
    edge_styles: list[LegendEntry]


class ViewData(TypedDict):
    """What the graph component draws."""

    nodes: list[VisNode]
    edges: list[VisEdge]
    legend: Legend


@functools.lru_cache(maxsize=1024)
def _darker(color: str, factor: float = 0.62) -> str:
    """``color`` (``#rrggbb``) darkened (remembered: a view asks for a few colours only)."""
    r, g, b = (int(color[i:i + 2], 16) for i in (1, 3, 5))
    return "#{:02X}{:02X}{:02X}".format(*(int(c * factor) for c in (r, g, b)))


def _group_keys(analysis: Analysis, color_by: str
                ) -> tuple[dict[Hashable, str], dict[str, str], list[str]]:
    """Colour-group key of every node, a label per key and the keys in colour order.

    The key ``""`` is the neutral group (unlinked nodes, no space, no document).
    """
    if color_by == "cluster":
        return _cluster_keys(analysis)
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


#: the clusters of a graph and their names, computed once per graph (a graph is never
#: changed once analysed; as-of analyses share theirs): graph → (keys, labels, order)
_CLUSTER_CACHE: weakref.WeakKeyDictionary[
    nx.MultiDiGraph, tuple[dict[Hashable, str], dict[str, str], list[str]]] = (
    weakref.WeakKeyDictionary())
_CLUSTER_LOCK = threading.Lock()


def _cluster_keys(analysis: Analysis
                  ) -> tuple[dict[Hashable, str], dict[str, str], list[str]]:
    """Cluster keys ``c1``, ``c2`` … by decreasing size; single nodes are unlinked (``""``).

    Each cluster is named by its most telling words (:func:`~memscope.view.names.cluster_names`).
    """
    g = analysis.graph.graph
    with _CLUSTER_LOCK:
        cached = _CLUSTER_CACHE.get(g)
    if cached is not None:
        return cached
    keys: dict[Hashable, str] = {}
    order: list[str] = []
    comps = [sorted(c, key=str) for c in _clusters(g)]
    comps.sort(key=lambda c: (-len(c), str(c[0])))
    for rank, comp in enumerate(comps):
        key = f"c{rank + 1}" if len(comp) > 1 else ""
        for node in comp:
            keys[node] = key
        if key:
            order.append(key)
    names = cluster_names(analysis, {str(k): v for k, v in keys.items() if v})
    labels = {"": "unlinked", **{k: names.get(k, k) for k in order}}
    result = (keys, labels, order)
    with _CLUSTER_LOCK:
        _CLUSTER_CACHE[g] = result
    return result


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


def _clusters(g: nx.MultiDiGraph) -> list[list[Hashable]]:
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


def _short_text(g: nx.MultiDiGraph, node: Hashable, limit: int) -> str:
    attrs = g.nodes[node]
    return clip(_text_of(attrs["kind"], attrs["record"], node), limit)


def _palette(order: list[str]) -> dict[str, str]:
    """Colour per group key: the first :data:`PALETTE` keys (the largest groups) one
    colour each, every later key :data:`OTHER_COLOR`; ``""`` is neutral."""
    colors = {k: PALETTE[i] if i < len(PALETTE) else OTHER_COLOR for i, k in enumerate(order)}
    colors[""] = NEUTRAL
    return colors


def _fresh(value: Any) -> Any:
    """A copy of a small style value, so nodes never share mutable parts."""
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    return value


def _text_of(kind: str, record: Any, node_id: Hashable) -> str:
    if kind == "document":
        return record.title or str(node_id)
    if kind == "memory":
        return record.memory or str(node_id)
    return record.name or str(node_id)


def _when(record: Any, now: datetime | None) -> list[str]:
    """When a memory was made and when it is (or was) to be forgotten, in words."""
    if now is None:
        return []
    out = []
    if record.created_at is not None:
        out.append(f"added {relative_time(record.created_at, now)}")
    if record.forget_after is not None:
        verb = "to be forgotten" if record.forget_after > now else "forget date passed"
        out.append(f"{verb} {relative_time(record.forget_after, now)}")
    return ["; ".join(out)] if out else []


def _title(kind: str, record: Any, node_id: Hashable, state: str | None,
           now: datetime | None = None) -> str:
    """The tooltip: full text first, then facts, as plain lines (times as "3 days ago"
    seen from ``now``)."""
    text = _text_of(kind, record, node_id)
    if kind == "document":
        facts = [f"document {node_id} · {record.type}"
                 + (f" · {record.status}" if record.status else "")]
        facts += [x for x in (record.url, record.summary) if x]
    elif kind == "memory":
        badges = (f"{state}" + (" · static" if record.is_static else "")
                  + (" · inferred, not stated by you" if record.is_inference else ""))
        space = record.space
        facts = [f"memory {node_id} · {badges} · version {record.version!r}"
                 + (f" · space {space}" if space else "")]
        facts += _when(record, now)
        if record.forget_reason:
            facts.append(f"forget reason: {record.forget_reason}")
    else:
        facts = [f"entity {node_id} · {record.type}"]
        if record.aliases:
            facts.append("aliases: " + ", ".join(record.aliases))
    # each part cut first: a 5 MB text is never joined whole to be cut after
    return shorten("\n".join(shorten(t, TITLE_MAX) for t in [text, *facts]), TITLE_MAX)


def memory_size(dependents: int) -> int:
    """A memory's drawn size for how many memories depend on it (bounded: see
    :data:`SIZE_STEP`).

    >>> [memory_size(n) for n in (0, 1, 2, 3, 4, 8, 500)]
    [11, 14, 17, 17, 20, 23, 23]
    """
    steps = min(SIZE_STEPS, max(0, dependents).bit_length())
    return SIZES["memory"] + SIZE_STEP * steps


#: how many memories depend on each memory of a graph (only those with any), computed
#: once per graph: graph → {memory: dependents}
_DEPENDENTS_CACHE: weakref.WeakKeyDictionary[nx.MultiDiGraph, dict[Hashable, int]] = (
    weakref.WeakKeyDictionary())
#: past this many, a memory's dependents are not counted further (its size is capped)
DEPENDENTS_CAP = 1 << SIZE_STEPS


def dependents(g: nx.MultiDiGraph) -> dict[Hashable, int]:
    """Memories reachable from each memory along :data:`DEPENDS` edges (its later
    versions, what extends it or is derived from it, and so on), counted up to
    :data:`DEPENDENTS_CAP`; memories with none are left out. Remembered per graph."""
    with _CLUSTER_LOCK:
        known = _DEPENDENTS_CACHE.get(g)
    if known is not None:
        return known
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
    with _CLUSTER_LOCK:
        _DEPENDENTS_CACHE[g] = out
    return out


def _node(node_id: Hashable, attrs: Mapping[str, Any], state: str | None, group: str,
          fill: str, now: datetime | None = None, depending: int = 0) -> VisNode:
    kind, record = attrs["kind"], attrs["record"]
    label = clip(_text_of(kind, record, node_id),
                 CARD_LABEL_MAX if kind == "document" else LABEL_MAX)
    node: VisNode = {
        "id": str(node_id), "label": label,
        "title": _title(kind, record, node_id, state, now),
        "kind": kind, "color_group": group, "shape": SHAPES[kind],
        "size": memory_size(depending) if kind == "memory" else SIZES[kind],
        "color": {"background": fill, "border": _darker(fill)},
    }
    if kind == "document":  # every card as wide, its title wrapped inside
        node["widthConstraint"] = {"minimum": CARD_WIDTH, "maximum": CARD_WIDTH}
        node["margin"] = CARD_MARGIN
    if kind == "memory" and state is not None:
        node["state"] = state
        node.update(_fresh(STATE_STYLES[state]))
        if state == "forgotten":
            node["color"] = FORGOTTEN_COLOR.copy()
        elif state in STATE_BORDERS:
            node["color"] = {"background": STATE_FILLS.get(state, fill),
                             "border": STATE_BORDERS[state]}
        if record.is_static:
            node["static"] = True
            node["label"] = STATIC_BADGE + label
        if record.is_inference:
            _mark_inferred(node)
    return node


def _mark_inferred(node: VisNode) -> None:
    """Draw ``node`` as inferred: the label suffix, and the dotted border unless its state
    already draws a dashed one (superseded, expired keep theirs; expiring its wide ring)."""
    node["inferred"] = True
    node["label"] = node["label"] + INFERRED_BADGE
    if "shapeProperties" not in node:
        node["shapeProperties"] = _fresh(INFERRED_STYLE["shapeProperties"])
        node["borderWidth"] = max(node.get("borderWidth", 1), INFERRED_STYLE["borderWidth"])


def _edge(g: nx.MultiDiGraph, index: int, u: Hashable, v: Hashable,
          data: Mapping[str, Any]) -> VisEdge:
    kind = data["kind"]
    style = EDGE_STYLES[kind]
    edge: VisEdge = {"id": f"e{index}", "from": str(u), "to": str(v), "kind": kind,
                     "color": dict(style["color"]), "width": style["width"]}
    if "arrows" in style:
        edge["arrows"] = style["arrows"]
    if "dashes" in style:
        edge["dashes"] = list(style["dashes"])
    if kind == "relation":
        predicate = data.get("predicate") or ""
        edge["predicate"] = predicate
        edge["label"] = clip(predicate, 20)
        conf = data.get("confidence")
        head, tail = _short_text(g, u, 40), _short_text(g, v, 40)
        edge["title"] = shorten(relation_label(head, clip(predicate, TITLE_MAX), tail)
                                + (f"\nconfidence {conf:g}" if conf is not None else ""),
                                TITLE_MAX)
    return edge


#: colour groups given to :class:`Painter`: node → cluster key, key → name, keys by size
Groups = tuple[Mapping[Any, str], Mapping[str, str], list[str]]


class Painter:
    """How every node of one analysis is drawn under one ``color_by``: the colour groups,
    the palette and one :class:`VisNode` at a time (what :func:`build_view` draws, for
    callers that draw only some nodes, e.g. the drawing budget's overview).
    """

    def __init__(self, analysis: Analysis, color_by: ColorBy = "cluster",
                 positions: Mapping[Hashable, tuple[float, float]] | None = None,
                 groups: Groups | None = None) -> None:
        if color_by not in COLOR_BY:
            raise ValueError(f"color_by must be one of {', '.join(COLOR_BY)}, "
                             f"not {color_by!r}.")
        self.analysis = analysis
        self.color_by = color_by
        self.positions = positions
        # ``groups``: the clusters to colour by (e.g. today's, for an as-of or masked
        # analysis: one clustering for the colours, the hexagons and the names)
        self.keys, self.labels, self.order = (
            groups if groups is not None and color_by == "cluster"
            else _group_keys(analysis, color_by))
        self.colors = _palette(self.order)
        self.dependents = dependents(analysis.graph.graph)

    def node(self, node_id: Hashable) -> VisNode:
        """The node as :func:`build_view` draws it."""
        an = self.analysis
        attrs = an.graph.graph.nodes[node_id]
        state = an.state(node_id) if attrs["kind"] == "memory" else None  # type: ignore[arg-type]
        group = self.keys.get(node_id, "")
        node = _node(node_id, attrs, state, group, self.colors[group], an.now,
                     self.dependents.get(node_id, 0))
        positions = self.positions
        if positions is not None and node_id in positions:
            x, y = positions[node_id]
            node["x"], node["y"] = round(float(x), 1), round(float(y), 1)
        return node

    def fill(self, kind: str, state: str | None, group: str) -> str:
        """The background a node of ``kind``/``state`` in colour ``group`` is drawn with
        (the same as ``self.node(...)["color"]["background"]``, without building it)."""
        if kind == "memory" and state is not None:
            if state == "forgotten":
                return FORGOTTEN_COLOR["background"]
            if state in STATE_BORDERS:
                return STATE_FILLS.get(state, self.colors[group])
        return self.colors[group]

    def legend(self, kinds: Mapping[str, int], states: Mapping[str, int], static: int,
               groups: Counter[str], edge_kinds: Mapping[str, int], *,
               inferred: int = 0) -> Legend:
        """The legend of a view with these counts (what :func:`build_view` would list)."""
        return _legend_of(self.color_by, kinds, states, static, groups, edge_kinds,
                          self.labels, self.colors, inferred=inferred)


def vis_edge(g: nx.MultiDiGraph, index: int, u: Hashable, v: Hashable,
             data: Mapping[str, Any]) -> VisEdge:
    """Edge number ``index`` of ``g`` (in ``g.edges()`` order) as :func:`build_view`
    draws it."""
    return _edge(g, index, u, v, data)


def build_view(analysis: Analysis, *, color_by: ColorBy = "cluster",
               visible: Collection[str] | None = None,
               positions: Mapping[Hashable, tuple[float, float]] | None = None,
               groups: Groups | None = None) -> ViewData:
    """The nodes, edges and legend the graph component draws.

    ``color_by`` picks the fill colour: ``"cluster"`` (default: weakly connected components,
    the large ones split into Louvain communities), memory
    ``"space"`` (container tag) or ``"document_type"``; colours are assigned on the whole
    graph, so filtering with ``visible`` (node ids to draw; ``None`` = all; unknown ids
    are ignored) does not recolour anything. ``positions`` (e.g. from
    :func:`memscope.view.layout.layout_positions`) adds ``x``/``y``; ``groups`` are the
    clusters to colour by (default: this graph's own).
    """
    painter = Painter(analysis, color_by, positions, groups)
    g = analysis.graph.graph
    shown = None if visible is None else set(visible)
    nodes = [painter.node(node_id) for node_id in g
             if shown is None or node_id in shown]
    edges: list[VisEdge] = []
    for i, (u, v, data) in enumerate(g.edges(data=True)):
        if shown is None or (u in shown and v in shown):
            edges.append(_edge(g, i, u, v, data))
    return {"nodes": nodes, "edges": edges,
            "legend": _legend(color_by, nodes, edges, painter.labels, painter.colors)}


def _state_style(state: str) -> dict[str, Any]:
    """How a state is drawn, for a legend swatch (vis-network option names)."""
    if state == "static":
        return {"labelPrefix": STATIC_BADGE}
    if state == "inferred":
        return {"borderWidth": INFERRED_STYLE["borderWidth"],
                "borderDashes": list(INFERRED_STYLE["shapeProperties"]["borderDashes"]),
                "labelSuffix": INFERRED_BADGE}
    style = _fresh(STATE_STYLES[state])
    dashes = style.pop("shapeProperties", {}).get("borderDashes")
    if dashes:
        style["borderDashes"] = dashes
    if state in STATE_FILLS:
        style["background"] = STATE_FILLS[state]
    if state == "forgotten":
        style["border"] = FORGOTTEN_COLOR["border"]
    elif state in STATE_BORDERS:
        style["border"] = STATE_BORDERS[state]
    return style


def legend_styles() -> tuple[list[LegendEntry], list[LegendEntry], list[LegendEntry]]:
    """The shapes, state styles and edge styles with zero counts (the legend's key).

    >>> shapes, states, edges = legend_styles()
    >>> [s["style"]["shape"] for s in shapes]
    ['box', 'dot', 'diamond', 'hexagon']
    >>> [(s["key"], s["style"].get("borderDashes")) for s in states if "expir" in s["key"]]
    [('expiring', None), ('expired', [3, 2])]
    """
    shapes: list[LegendEntry] = [
        {"key": k, "label": SHAPE_LABELS[k], "count": 0,
         "style": {"shape": SHAPES[k], **({"size": SIZES[k]} if k in SIZES else {})}}
        for k in SHAPE_KINDS]
    states: list[LegendEntry] = [{"key": s, "label": STATE_LABELS[s], "count": 0,
                                  "style": _state_style(s)} for s in LEGEND_STATES]
    edges: list[LegendEntry] = [{"key": k, "label": EDGE_MEANING[k], "count": 0,
                                 "style": _fresh(dict(EDGE_STYLES[k]))} for k in EDGE_STYLES]
    return shapes, states, edges


def _legend(color_by: str, nodes: list[VisNode], edges: list[VisEdge],
            labels: Mapping[str, str], colors: Mapping[str, str]) -> Legend:
    kinds = Counter(n["kind"] for n in nodes)
    states = Counter(n["state"] for n in nodes if "state" in n)
    static = sum(1 for n in nodes if n.get("static"))
    inferred = sum(1 for n in nodes if n.get("inferred"))
    groups = Counter(n["color_group"] for n in nodes)
    edge_kinds = Counter(e["kind"] for e in edges)
    return _legend_of(color_by, kinds, states, static, groups, edge_kinds, labels, colors,
                      inferred=inferred)


def _legend_of(color_by: str, kinds: Mapping[str, int], states: Mapping[str, int],
               static: int, groups: Counter[str], edge_kinds: Mapping[str, int],
               labels: Mapping[str, str], colors: Mapping[str, str], *,
               inferred: int = 0) -> Legend:
    """The legend from its counts (nodes per kind, state and colour group; edges per kind;
    static and inferred memories)."""
    own = [k for k in colors if k and colors[k] != OTHER_COLOR and groups[k]]
    if groups[""]:
        own.append("")
    listed: list[LegendColor] = [
        {"key": k, "label": clip(labels.get(k, k)), "color": colors[k],
         "border": _darker(colors[k]), "count": groups[k]} for k in own]
    owned = set(own)
    rest = [k for k in groups if k not in owned and groups[k]]
    other: LegendColor | None = None
    if rest:
        other = {"key": "", "label": f"{len(rest)} other group{'s' if len(rest) != 1 else ''}",
                 "color": OTHER_COLOR, "border": _darker(OTHER_COLOR),
                 "count": sum(groups[k] for k in rest)}
    shapes, state_styles, edge_styles = legend_styles()
    for entry in shapes:
        entry["count"] = kinds.get(entry["key"], 0)
    for entry in state_styles:
        entry["count"] = {"static": static, "inferred": inferred}.get(
            entry["key"], states.get(entry["key"], 0))
    for entry in edge_styles:
        entry["count"] = edge_kinds.get(entry["key"], 0)
    return {
        "color_by": color_by,
        "kinds": {k: kinds.get(k, 0) for k in NODE_KINDS},
        "states": {s: states.get(s, 0) for s in STATES},
        "static": static,
        "inferred": inferred,
        "edges": {k: edge_kinds.get(k, 0) for k in EDGE_STYLES},  # a drawn-on kind adds its own
        "colors": listed,
        "other": other,
        "other_colors": len(rest),
        "shapes": shapes,
        "state_styles": state_styles,
        "edge_styles": edge_styles,
    }


#: how :func:`highlight` marks a node: border width and colour
HIGHLIGHT_WIDTH = 5
HIGHLIGHT_BORDER = "#000000"


def highlight(view: ViewData, node_ids: Collection[str]) -> ViewData:
    """A copy of ``view`` with ``node_ids`` drawn with a heavy black border.

    The input is not changed (views are shared between sessions).

    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> view = build_view(analyse(from_feed_pages([{"documents": [{"id": "d"}]}])))
    >>> node = highlight(view, ["d"])["nodes"][0]
    >>> node["borderWidth"], node["color"]["border"], "borderWidth" in view["nodes"][0]
    (5, '#000000', False)
    """
    marked = set(node_ids)
    nodes: list[VisNode] = []
    for node in view["nodes"]:
        if node["id"] in marked:
            node = node.copy()
            node["borderWidth"] = HIGHLIGHT_WIDTH
            node["color"] = {"background": node["color"]["background"],
                             "border": HIGHLIGHT_BORDER}
            node["highlighted"] = True
        nodes.append(node)
    return {"nodes": nodes, "edges": view["edges"], "legend": view["legend"]}


def cluster_order(analysis: Analysis) -> list[str]:
    """The cluster keys of :func:`cluster_groups`, by decreasing size."""
    return list(_cluster_keys(analysis)[2])


def prime_clusters(analysis: Analysis, clusters: Mapping[str, str],
                   labels: Mapping[str, str], order: list[str]) -> None:
    """Hand :func:`cluster_groups` (and ``color_by="cluster"``) the clusters and names of
    ``analysis`` computed earlier (e.g. read back by :mod:`memscope.view.derived`), so
    they are not computed again; ignored when they are already known. ``clusters`` must
    give every node of the graph."""
    g = analysis.graph.graph
    keys: dict[Hashable, str] = {n: clusters[str(n)] for n in g}
    with _CLUSTER_LOCK:
        if g not in _CLUSTER_CACHE:
            _CLUSTER_CACHE[g] = (keys, dict(labels), list(order))


def cluster_groups(analysis: Analysis) -> tuple[dict[str, str], dict[str, str]]:
    """Every node's cluster key (``""`` = unlinked) and a name per key: its most telling
    words (:func:`memscope.view.names.cluster_names`; ``""`` is ``"unlinked"``).

    The same grouping and names as ``color_by="cluster"`` (computed once per graph), for
    the drawing budget's overview and the labels drawn over the clusters.
    """
    keys, labels, _ = _group_keys(analysis, "cluster")
    return {str(k): v for k, v in keys.items()}, labels
