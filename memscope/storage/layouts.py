"""Cached graph layouts: node positions per data version, shared by every replica.

A layout's key names the data it was computed for — the source identity (kind, location,
credential *fingerprint*; never a credential), the digest of the graph's content
(:func:`memscope.view.derived.digest_of`, computed by the caller) and the layout's
parameters — and is itself a SHA-256, so the database holds no identity in clear.

>>> a = layout_key("embedded|/d/m.db", "3f2a", "seed=7")
>>> a == layout_key("embedded|/d/m.db", "3f2a", "seed=7")
True
>>> a == layout_key("embedded|/d/other.db", "3f2a", "seed=7")
False
>>> decode_positions(encode_positions({"a": (1.5, -2.0)}))
{'a': (1.5, -2.0)}
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Hashable, Mapping
from typing import TypeVar

Position = tuple[float, float]
#: a node id (any hashable; stored as its ``str``)
K = TypeVar("K", bound=Hashable)
#: bump when the meaning of a key's parts changes (old entries are then never read)
KEY_VERSION = "layout-v1"


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
