"""The graph's payload made compact: how a node or an edge is drawn goes once into a table
of styles that each item points at (see :func:`compact_view`)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, TypedDict

from memscope.view.build import ViewData

#: the fields a node or an edge keeps itself in the payload; the rest is its style
NODE_OWN = frozenset({"id", "label", "title", "x", "y", "state", "static", "highlighted",
                      "change", "color_group"})
EDGE_OWN = frozenset({"id", "from", "to", "title", "label"})
#: item fields the browser never uses, left out of the payload
EDGE_DROPPED = frozenset({"predicate"})


class CompactView(TypedDict):
    """The drawn part of a view as the payload carries it (see :func:`compact_view`)."""

    nodes: list[dict[str, Any]]
    edges: list[dict[str, Any]]
    styles: dict[str, list[dict[str, Any]]]


_PLAIN = (str, int, float, bool, type(None))


def _frozen(value: Any) -> Hashable:
    """A hashable twin of a JSON-like value."""
    if isinstance(value, dict):
        return tuple((k, _frozen(v)) for k, v in value.items())
    if isinstance(value, list):
        return ("[]", *(_frozen(v) for v in value))
    return value


def _split(items: Sequence[Mapping[str, Any]], own: frozenset[str],
           dropped: frozenset[str] = frozenset()
           ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each item's own fields plus ``s``, the index of its style in the returned table.

    Two styles are one entry when their fields are equal in the same order (always the
    case for items built by :mod:`memscope.view.build`; otherwise an entry is repeated,
    which draws the same).
    """
    index: dict[Hashable, int] = {}
    styles: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    plain = _PLAIN
    for item in items:
        row: dict[str, Any] = {}
        parts: list[Any] = []
        for key, value in item.items():
            if key in own:
                row[key] = value
            elif key not in dropped:
                parts.append(key)
                if type(value) is dict:
                    value = tuple(value.items())
                    try:
                        hash(value)
                    except TypeError:  # a list inside
                        value = _frozen(dict(value))
                elif type(value) not in plain:
                    value = _frozen(value)
                parts.append(value)
        frozen = tuple(parts)
        at = index.get(frozen)
        if at is None:
            at = index[frozen] = len(styles)
            styles.append({k: v for k, v in item.items() if k not in own and k not in dropped})
        row["s"] = at
        rows.append(row)
    return rows, styles


def compact_view(view: ViewData) -> CompactView:
    """The nodes and edges of ``view`` with their drawing style moved to a shared table.

    A node keeps its id, label, title, position, colour group and state marks (``state``,
    ``static``, ``highlighted``, ``change``); an edge its id, ends, title and label. Every
    other field (``kind``, ``shape``, ``size``, ``color``, ``borderWidth``, dashes…) is
    the item's style: ``styles["nodes"][item["s"]]`` (``styles["edges"]`` for an edge).
    The browser merges them back. Deterministic: styles are numbered in order of first use.

    >>> view = {"nodes": [{"id": "a", "label": "A", "kind": "memory", "size": 11},
    ...                   {"id": "b", "label": "B", "kind": "memory", "size": 11}],
    ...         "edges": [{"id": "e0", "from": "a", "to": "b", "kind": "updates"}]}
    >>> small = compact_view(view)  # type: ignore[arg-type]
    >>> small["nodes"][1], small["styles"]["nodes"]
    ({'id': 'b', 'label': 'B', 's': 0}, [{'kind': 'memory', 'size': 11}])
    """
    nodes, node_styles = _split(view["nodes"], NODE_OWN)
    edges, edge_styles = _split(view["edges"], EDGE_OWN, EDGE_DROPPED)
    return {"nodes": nodes, "edges": edges,
            "styles": {"nodes": node_styles, "edges": edge_styles}}
