"""Cached graph layouts: node positions per data version, shared by every replica.

A layout's key names the data it was computed for — the source identity (kind, location,
credential *fingerprint*; never a credential), a digest of the graph's structure and the
layout's parameters — and is itself a SHA-256, so the database holds no identity in clear.

>>> a = layout_key("embedded|/d/m.db", graph_digest(["a", "b"], [("a", "b")]), "seed=7")
>>> a == layout_key("embedded|/d/m.db", graph_digest(["b", "a"], [("a", "b")]), "seed=7")
True
>>> a == layout_key("embedded|/d/other.db", graph_digest(["a", "b"], [("a", "b")]), "seed=7")
False
>>> decode_positions(encode_positions({"a": (1.5, -2.0)}))
{'a': (1.5, -2.0)}
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Hashable, Iterable, Mapping
from typing import TypeVar

Position = tuple[float, float]
#: a node id (any hashable; stored as its ``str``)
K = TypeVar("K", bound=Hashable)
#: bump when the meaning of a key's parts changes (old entries are then never read)
KEY_VERSION = "layout-v1"


def graph_digest(nodes: Iterable[Hashable], edges: Iterable[tuple[Hashable, Hashable]]
                 ) -> str:
    """A SHA-256 of a graph's structure (node ids and edges, in any order): two graphs
    with the same digest get the same layout."""
    h = hashlib.sha256()
    for node in sorted(str(n) for n in nodes):
        h.update(b"n\x00" + node.encode("utf-8", "surrogatepass") + b"\x00")
    for u, v in sorted((str(a), str(b)) for a, b in edges):
        h.update(b"e\x00" + u.encode("utf-8", "surrogatepass") + b"\x00"
                 + v.encode("utf-8", "surrogatepass") + b"\x00")
    return h.hexdigest()


def layout_key(identity: str, content: str, variant: str = "") -> str:
    """The cache key of a layout: source identity + content digest (+ the layout's
    parameters, e.g. ``"seed=7"``), hashed."""
    raw = "\x00".join((KEY_VERSION, identity, content, variant))
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def encode_positions(positions: Mapping[K, Position]) -> bytes:
    """Positions as zlib-compressed JSON ``{"node id": [x, y]}``."""
    plain = {str(k): [float(x), float(y)] for k, (x, y) in positions.items()}
    text = json.dumps(plain, separators=(",", ":"), ensure_ascii=False)
    return zlib.compress(text.encode("utf-8", "surrogatepass"), 6)


def decode_positions(blob: bytes) -> dict[str, Position]:
    """The inverse of :func:`encode_positions`."""
    plain = json.loads(zlib.decompress(blob).decode("utf-8", "surrogatepass"))
    return {k: (float(v[0]), float(v[1])) for k, v in plain.items()}
