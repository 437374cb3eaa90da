"""What sending the graph costs per script run: the dict payload of before vs the bytes
message (components/graph_view/message.py), for demo views of 5k and 20k drawn nodes.

Per drawn view (the pipeline's, as the explorer draws it: budget = the drawn nodes), the
CPU seconds (``time.process_time``, the median of ``--repeat`` runs) of:

- ``old``: the view's items checked, ``compact_view``, then what Streamlit does with a
  dict ``data`` (``serialize_mixed_data``: its walk and ``json.dumps``; the identity's
  ``json.dumps(sort_keys=True)`` and its ``calc_hash``);
- ``new, cache miss``: the items checked, ``compact_view`` and one compact UTF-8 encoding,
  the small parts spliced in, then what Streamlit does with bytes (into the proto,
  ``calc_hash`` of them);
- ``new, cache hit`` (another session, or a rerun after a click): the small parts
  encoded and spliced in, the proto, ``calc_hash``.

Also the sizes of the JSON Streamlit sent before and of the bytes now. Both paths then
serialise the ForwardMsg and hash it (Streamlit's message cache): the same for both,
left out. Prints figures; asserts nothing. Run:
``.venv/bin/python bench/payload.py [--drawn 5000,20000] [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipeline import demo_pipeline  # bench/pipeline.py
from streamlit.components.v2.bidi_component.serialization import (
    serialize_mixed_data,
)
from streamlit.proto.BidiComponent_pb2 import BidiComponent
from streamlit.util import calc_hash

from components.graph_view import _check_items, compact_view, group_annotations
from components.graph_view.message import DrawnCache, encode, payload_bytes
from memscope.view.budget import MAX_BUDGET
from memscope.view.build import ViewData


def _cpu(fn: Callable[[], Any], repeat: int) -> float:
    """The median CPU seconds of ``fn`` over ``repeat`` runs."""
    times: list[float] = []
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return statistics.median(times)


def _rest(view: ViewData) -> dict[str, Any]:
    """The small parts, as graph_view makes them for the explorer's first view."""
    options = {"height": 800, "physics": False, "focus": None, "focus_rev": 0,
               "fit_ids": [], "fit_label": "Fit matches"}
    return {"options": options, "annotations": group_annotations(view),
            "legend": view.get("legend")}


def old_path(view: ViewData, rest: dict[str, Any]) -> int:
    """One script run's graph work before: returns the JSON's length."""
    _check_items(view)
    small = compact_view(view)
    payload = {"nodes": small["nodes"], "edges": small["edges"], "styles": small["styles"],
               **rest}
    proto = BidiComponent()
    serialize_mixed_data(payload, proto)
    calc_hash(json.dumps(payload, sort_keys=True))
    return len(proto.json)


def new_path(view: ViewData, rest: dict[str, Any], cache: DrawnCache) -> int:
    """One script run's graph work now (a hit when ``cache`` holds the view): returns the
    message's length."""
    drawn = cache.get(view["nodes"], view["edges"])
    if drawn is None:
        drawn = cache.make(view, _check_items(view))
    proto = BidiComponent()
    proto.bytes = payload_bytes(drawn, rest)
    calc_hash(proto.bytes)
    return len(proto.bytes)


def _parts(view: ViewData, rest: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    """The steps of the two paths, each to time by itself."""
    small = compact_view(view)
    payload = {**small, **rest}
    return {"check": lambda: _check_items(view),
            "compact_view": lambda: compact_view(view),
            "Streamlit's dumps (plain + sorted)": lambda: (
                json.dumps(payload), json.dumps(payload, sort_keys=True)),
            "one compact encode": lambda: encode(small)}


def drawn_view(nodes: int) -> ViewData:
    """The explorer's first view of a demo of about ``nodes`` nodes (memories and their
    documents, ``nodes / 1.2`` memories), drawn in full (the budget is above it)."""
    p, source = demo_pipeline(round(nodes / 1.2))
    req = p.first(p.loads.load(source), source.identity())
    return p.view(replace(req, budget=MAX_BUDGET)).drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--drawn", default="5000,20000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"CPU per script run (time.process_time), median of {args.repeat}")
    for size in (int(n) for n in args.drawn.split(",")):
        t0 = time.perf_counter()
        view = drawn_view(size)
        print(f"  (view of {size:,} nodes made in {time.perf_counter() - t0:.0f} s)")
        rest = _rest(view)
        n, e = len(view["nodes"]), len(view["edges"])
        old_len = old_path(view, rest)
        old = _cpu(lambda: old_path(view, rest), args.repeat)  # noqa: B023

        def miss() -> None:
            new_path(view, rest, DrawnCache())  # noqa: B023

        cold = _cpu(miss, args.repeat)
        warm_cache = DrawnCache()
        new_len = new_path(view, rest, warm_cache)
        hit = _cpu(lambda: new_path(view, rest, warm_cache), args.repeat)  # noqa: B023
        print(f"{n:>6,} nodes {e:>6,} edges   old {old * 1000:7.1f} ms   "
              f"new miss {cold * 1000:7.1f} ms   new hit {hit * 1000:6.2f} ms   "
              f"({old / hit:5.0f}x)   JSON {old_len / 1e6:.2f} MB -> bytes "
              f"{new_len / 1e6:.2f} MB")
        print("  of which: " + ", ".join(f"{name} {_cpu(fn, args.repeat) * 1000:.1f} ms"
                                         for name, fn in _parts(view, rest).items()))


if __name__ == "__main__":
    main()
