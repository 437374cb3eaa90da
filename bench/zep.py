"""Load N facts (default 50,000) from the sandbox's Zep API at 50 ms a request.

The sandbox (its own process, ``python -m memscope.sandbox --zep-facts N``, as a real
service would be) serves a generated Zep account: ``--graphs`` user graphs sharing the
facts, one episode per five facts, every tenth fact the older half of a two-version chain.
Prints the wall time of one full :class:`~memscope.sources.zep.ZepSource` load (the user
and graph lists, then each graph's episodes, nodes and edges, ``--concurrency`` lists at
once, each list's pages one after the other by cursor), the request count and the ideal
time for those requests at that pool size. Asserts nothing.

Run: ``.venv/bin/python bench/zep.py [--facts 50000] [--graphs 10] [--latency-ms 50]
[--concurrency 4]``
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from pydantic import SecretStr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox_process import sandbox_process  # noqa: E402

from memscope.sources.zep import MAX_PAGE, ZepConfig, ZepSource  # noqa: E402

KEY = "z-bench-key"


@contextlib.contextmanager
def sandbox(folder: str, args: argparse.Namespace) -> Iterator[str]:
    """The sandbox in its own process with the generated account; its Zep base URL."""
    with sandbox_process(folder, [
            "--data", "synthetic", "--documents", "1", "--zep-facts", str(args.facts),
            "--zep-graphs", str(args.graphs), "--latency-ms", str(args.latency_ms),
            "--zep-key", KEY]) as url:
        yield url + "/zep/api/v4"


def main() -> int:
    """Start the sandbox, time one load, print the figures."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--facts", type=int, default=50_000)
    p.add_argument("--graphs", type=int, default=10)
    p.add_argument("--latency-ms", type=float, default=50.0)
    p.add_argument("--concurrency", type=int, default=4, help="lists in flight (4)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="memscope-bench-") as folder, \
            sandbox(folder, args) as url:
        src = ZepSource(ZepConfig(api_key=SecretStr(KEY), base_url=url,
                                  concurrency=args.concurrency))
        with src:
            started = time.perf_counter()
            result = src.load()
            wall = time.perf_counter() - started
    ds = result.dataset
    chained = sum(1 for m in ds.memories.values() if m.parent_id)
    per_graph = [(s.document_count or 0, s.memory_count or 0) for s in ds.spaces]
    nodes = 70  # the generator's entities per graph
    lists = [max(1, math.ceil(n / MAX_PAGE)) for docs, facts in per_graph
             for n in (docs, nodes, facts)]
    # the two account lists, then the graphs' lists on the pool: a list's pages in a row
    rounds = sorted(lists, reverse=True)
    lanes = [0] * max(1, args.concurrency)
    for pages in rounds:
        lanes[lanes.index(min(lanes))] += pages
    latency = args.latency_ms / 1000
    ideal = (2 + max(lanes)) * latency
    print(f"Zep load, sandbox (generated account) in its own process, latency "
          f"{args.latency_ms:g} ms per request")
    print(f"loaded {len(ds.memories):,} facts ({chained:,} as the newer version of a chain) "
          f"and {len(ds.documents):,} episodes from {len(ds.spaces)} graphs: "
          f"{result.calls} requests ({sum(lists)} list pages of {MAX_PAGE} + 2 account "
          f"lists), {args.concurrency} lists at once")
    print(f"wall   {wall:.3f} s")
    print(f"ideal  {ideal:.3f} s  (the longest lane of pages at this pool size × latency)")
    print(f"ratio  {wall / ideal:.2f}  (wall / ideal)")
    print(f"notes  {len(result.notes)}; data issues {len(ds.report.issues)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
