"""GraphML and GEXF 1.2 written in one pass over a flat graph, as text.

networkx's writers build an ElementTree of the whole file first (about 20 elements per
memory) and were the floor of a 20,000-version chain's export; these write the same
documents line by line. Input: a ``MultiDiGraph`` whose attributes are only ``str``,
``int``, ``float`` or ``bool`` (see :func:`memscope.export.formats.flat_graph`), each name
with one type. networkx reads both back unchanged (``read_graphml(...,
force_multigraph=True)`` and ``read_gexf``).

Example::

    >>> import io, networkx as nx
    >>> g = nx.MultiDiGraph(generator="Memscope")
    >>> g.add_node("a", kind="memory", label="<a & b>", n=3)
    >>> g.add_node("b", kind="memory", label="b\\nc")
    >>> _ = g.add_edge("a", "b", key="e0", kind="updates")
    >>> back = nx.read_graphml(io.BytesIO(graphml_bytes(g)), force_multigraph=True)
    >>> dict(back.nodes(data=True))["a"], list(back.edges(keys=True))
    ({'kind': 'memory', 'label': '<a & b>', 'n': 3}, [('a', 'b', 'e0')])
    >>> nx.read_gexf(io.BytesIO(gexf_bytes(g))).nodes["b"]["label"]
    'b\\nc'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import networkx as nx

_GRAPHML_HEAD = (
    "<?xml version='1.0' encoding='utf-8'?>\n"
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
    'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
_GEXF_HEAD = (
    "<?xml version='1.0' encoding='utf-8'?>\n"
    '<gexf xmlns="http://www.gexf.net/1.2draft" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://www.gexf.net/1.2draft '
    'http://www.gexf.net/1.2draft/gexf.xsd" version="1.2">\n')
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})
_ATTR = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                       "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})
#: GEXF's edge key attribute, as networkx names it (read back as the edge key)
GEXF_KEY = "networkx_key"


def _text(value: Any) -> str:
    return str(value).translate(_TEXT)


def _attr(value: Any) -> str:
    return str(value).translate(_ATTR)


def _value(value: Any) -> str:
    """A flat value as XML text: booleans as ``true``/``false``, floats exactly."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "long"
    if isinstance(value, float):
        return "double"
    return "string"


def _declare(items: Iterable[dict[str, Any]], skip: frozenset[str] = frozenset()
             ) -> dict[str, str]:
    """Attribute name → its type, in first-seen order."""
    types: dict[str, str] = {}
    for data in items:
        for name, value in data.items():
            if name not in types and name not in skip:
                types[name] = _type(value)
    return types


def _graphml_lines(g: nx.MultiDiGraph) -> Iterator[str]:
    kinds = {"graph": _declare([g.graph]),
             "node": _declare(d for _, d in g.nodes(data=True)),
             "edge": _declare(d for _, _, d in g.edges(data=True))}
    ids: dict[tuple[str, str], str] = {}
    yield _GRAPHML_HEAD
    for where, types in kinds.items():
        for name, kind in types.items():
            key = ids[where, name] = f"d{len(ids)}"
            yield (f'  <key id="{key}" for="{where}" attr.name="{_attr(name)}" '
                   f'attr.type="{kind}" />\n')
    yield '  <graph edgedefault="directed">\n'
    for where, name in ids:
        if where == "graph" and name in g.graph:
            yield f'    <data key="{ids[where, name]}">{_text(_value(g.graph[name]))}</data>\n'
    for node, data in g.nodes(data=True):
        yield f'    <node id="{_attr(node)}">\n'
        for name, value in data.items():
            yield f'      <data key="{ids["node", name]}">{_text(_value(value))}</data>\n'
        yield "    </node>\n"
    for u, v, key, data in g.edges(keys=True, data=True):
        yield f'    <edge source="{_attr(u)}" target="{_attr(v)}" id="{_attr(key)}">\n'
        for name, value in data.items():
            yield f'      <data key="{ids["edge", name]}">{_text(_value(value))}</data>\n'
        yield "    </edge>\n"
    yield "  </graph>\n</graphml>\n"


def graphml_bytes(g: nx.MultiDiGraph) -> bytes:
    """GraphML (UTF-8) of ``g``: one ``<key>`` per attribute name and owner, edge ids are
    the edge keys, graph attributes as graph data."""
    return "".join(_graphml_lines(g)).encode("utf-8")


def _attvalues(data: dict[str, Any], ids: dict[str, int], skip: frozenset[str],
               indent: str) -> Iterator[str]:
    values = [(name, value) for name, value in data.items() if name not in skip]
    if not values:
        return
    yield f"{indent}<attvalues>\n"
    for name, value in values:
        yield f'{indent}  <attvalue for="{ids[name]}" value="{_attr(_value(value))}" />\n'
    yield f"{indent}</attvalues>\n"


def _gexf_lines(g: nx.MultiDiGraph, date: str) -> Iterator[str]:
    node_skip, edge_skip = frozenset({"label"}), frozenset({"id"})
    edge_types = _declare((d for _, _, d in g.edges(data=True)), edge_skip)
    edge_types[GEXF_KEY] = "string"
    node_types = _declare((d for _, d in g.nodes(data=True)), node_skip)
    edge_ids = {name: i for i, name in enumerate(edge_types)}
    node_ids = {name: i + len(edge_ids) for i, name in enumerate(node_types)}
    yield _GEXF_HEAD
    yield f'  <meta lastmodifieddate="{_attr(date)}">\n    <creator>Memscope</creator>\n'
    yield '  </meta>\n  <graph defaultedgetype="directed" mode="static" name="">\n'
    for cls, types, ids in (("edge", edge_types, edge_ids), ("node", node_types, node_ids)):
        yield f'    <attributes mode="static" class="{cls}">\n'
        for name, kind in types.items():
            yield f'      <attribute id="{ids[name]}" title="{_attr(name)}" type="{kind}" />\n'
        yield "    </attributes>\n"
    yield "    <nodes>\n"
    for node, data in g.nodes(data=True):
        label = data.get("label", node)
        yield f'      <node id="{_attr(node)}" label="{_attr(label)}">\n'
        yield from _attvalues(data, node_ids, node_skip, "        ")
        yield "      </node>\n"
    yield "    </nodes>\n    <edges>\n"
    for u, v, key, data in g.edges(keys=True, data=True):
        edge_id = data.get("id", key)
        yield f'      <edge source="{_attr(u)}" target="{_attr(v)}" id="{_attr(edge_id)}">\n'
        yield from _attvalues({**data, GEXF_KEY: key}, edge_ids, edge_skip, "        ")
        yield "      </edge>\n"
    yield "    </edges>\n  </graph>\n</gexf>\n"


def gexf_bytes(g: nx.MultiDiGraph, date: str = "2000-01-01") -> bytes:
    """GEXF 1.2draft (UTF-8) of ``g``: node ``label`` from the ``label`` attribute, edge
    ids from an ``id`` attribute (else the edge key), the key kept as ``networkx_key``
    (networkx reads it back as the key); ``date`` is the ``lastmodifieddate``."""
    return "".join(_gexf_lines(g, date)).encode("utf-8")
