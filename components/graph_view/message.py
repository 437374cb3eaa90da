"""The graph's message to the browser: UTF-8 JSON bytes, its heavy part encoded once per
drawn view and shared by every session and rerun that draws the same view.

Why: for a dict ``data`` Streamlit's custom component v2 JSON-encodes the payload twice on
every script run (a key-sorted dump for the element's identity, a plain one for the
proto): about a quarter of a rerun's CPU at 10,000 memories, plus :func:`compact_view`.
For ``bytes`` it only hashes them and forwards them as they are. The view pipeline hands
every session and rerun that asks for the same view the very same node and edge lists,
so the compact nodes, edges and styles, encoded, are kept here keyed by those lists'
identity (:class:`DrawnCache`); the small parts (options, annotations, legend, slideshow,
timeline) are encoded per call and spliced in (:func:`payload_bytes`). The browser
decodes the bytes to exactly the object the dict payload was (same keys in the same
order, same values).

The lists of a drawn view must not change once drawn (the pipeline's never do: they are
shared between sessions already); a changed list is a new view only if it is a new list.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Set
from dataclasses import dataclass
from typing import Any

from components.graph_view.compact import compact_view
from memscope.view.build import ViewData

#: how many drawn views keep their encoding; each entry holds its view's lists (so their
#: ids cannot be reused while it lives) and its bytes (a few MB at 20,000 nodes)
CACHE_SIZE = 6

_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_ENCODE_ASCII = json.JSONEncoder(separators=(",", ":")).encode


def encode(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON (``\\uXXXX`` escapes only for text UTF-8 cannot
    hold, such as a lone surrogate from a hostile file)."""
    try:
        return _ENCODE(value).encode("utf-8")
    except UnicodeEncodeError:
        return _ENCODE_ASCII(value).encode("ascii")


@dataclass(frozen=True, slots=True, eq=False)
class Drawn:
    """One drawn view's heavy part: ``"nodes":[…],"edges":[…],"styles":{…}`` encoded
    (``body``, no braces), the node ids, and the lists it was made from."""

    nodes: list[Any]
    edges: list[Any]
    ids: frozenset[str]
    body: bytes


class DrawnCache:
    """A small thread-safe LRU of :class:`Drawn`, keyed by the identity of a view's node
    and edge lists (checked with ``is``; the entry holds the lists, so an id stays theirs).

    :meth:`get` then, on a miss, :meth:`make`; ``misses`` counts the encodings made (for
    tests and benchmarks).
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self.misses = 0
        self._lock = threading.Lock()
        self._entries: OrderedDict[tuple[int, int], Drawn] = OrderedDict()

    def get(self, nodes: list[Any], edges: list[Any]) -> Drawn | None:
        """The entry made from exactly these lists, or ``None``."""
        key = (id(nodes), id(edges))
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry.nodes is not nodes or entry.edges is not edges:
                return None
            self._entries.move_to_end(key)
            return entry

    def make(self, view: ViewData, ids: Set[str]) -> Drawn:
        """The heavy part of ``view`` (whose node ids are ``ids``, checked), encoded now and
        cached; when another session made it meanwhile, that one (so all share one)."""
        nodes, edges = view["nodes"], view["edges"]
        made = Drawn(nodes, edges, frozenset(ids), encode(compact_view(view))[1:-1])
        key = (id(nodes), id(edges))
        with self._lock:
            self.misses += 1
            entry = self._entries.get(key)
            if entry is not None and entry.nodes is nodes and entry.edges is edges:
                return entry
            self._entries[key] = made
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return made

    def clear(self) -> None:
        """Forget every entry (for tests)."""
        with self._lock:
            self._entries.clear()
            self.misses = 0


#: the one cache every session shares
DRAWN = DrawnCache()


def payload_bytes(drawn: Drawn, rest: Mapping[str, Any]) -> bytes:
    """The whole payload as bytes: ``drawn``'s nodes, edges and styles, then ``rest``'s
    keys in order (options, annotations, legend…), one JSON object.

    >>> d = Drawn([], [], frozenset(), b'"nodes":[],"edges":[]')
    >>> payload_bytes(d, {"options": {"height": 600}})
    b'{"nodes":[],"edges":[],"options":{"height":600}}'
    """
    if not rest:
        return b"".join((b"{", drawn.body, b"}"))
    return b"".join((b"{", drawn.body, b",", encode(dict(rest))[1:]))


def decode(data: bytes) -> dict[str, Any]:
    """The payload the browser gets from ``data`` (for tests and benchmarks)."""
    value = json.loads(data.decode("utf-8"))
    if not isinstance(value, dict):
        raise ValueError("graph message: not a JSON object")
    return value
