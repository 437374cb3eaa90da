"""Load about 10,000 mem0 memories through the sandbox's mem0 API at 50 ms a request.

The sandbox (its own process, ``python -m memscope.sandbox``, as a real service would be)
serves the demo data as mem0 memories: every version chain's main line is one memory, its
versions the history's events. ``--store-memories 18000`` gives about 10,000 mem0
memories. Prints the wall time of one full :class:`~memscope.sources.Mem0Source` load
(the entity list, every entity's list pages, one history per memory on a pool of
``--pool``), the request count against ``1 + pages + memories``, and the ideal time for
that many requests (the entity list, each entity's first page in turn, the other pages
``--concurrency`` at a time, then the histories ``--pool`` at a time). Asserts nothing.

Run: ``.venv/bin/python bench/mem0.py [--store-memories 18000] [--latency-ms 50]
[--pool 8] [--concurrency 4] [--page-size 100]``
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

import httpx
from pydantic import SecretStr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox_process import sandbox_process  # noqa: E402

from memscope.sources import Mem0Config, Mem0Source  # noqa: E402

KEY = "m0-bench-key"


@contextlib.contextmanager
def sandbox(folder: str, args: argparse.Namespace) -> Iterator[str]:
    """The sandbox in its own process with the demo data and the latency; its mem0 URL."""
    with sandbox_process(folder, [
            "--data", "demo", "--documents", str(max(1, args.store_memories // 5)),
            "--memories", str(args.store_memories), "--latency-ms", str(args.latency_ms),
            "--mem0-key", KEY]) as url:
        # untimed: builds the sandbox's feed and its mem0 view for this data version
        httpx.get(url + "/mem0/v1/entities/", timeout=600,
                  headers={"Authorization": f"Token {KEY}"})
        yield url + "/mem0"


def main() -> int:
    """Start the sandbox, time one load, print the figures."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--store-memories", type=int, default=18_000)
    p.add_argument("--latency-ms", type=float, default=50.0)
    p.add_argument("--pool", type=int, default=8, help="histories in flight (8)")
    p.add_argument("--concurrency", type=int, default=4, help="list pages in flight (4)")
    p.add_argument("--page-size", type=int, default=100)
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="memscope-bench-") as folder, \
            sandbox(folder, args) as url:
        src = Mem0Source(Mem0Config(api_key=SecretStr(KEY), base_url=url,
                                    history_concurrency=args.pool,
                                    concurrency=args.concurrency, page_size=args.page_size))
        with src:
            started = time.perf_counter()
            result = src.load()
            wall = time.perf_counter() - started
    ds = result.dataset
    memories = sum(1 for m in ds.memories.values() if m.is_latest)
    entities = len(ds.spaces)
    counts = [s.memory_count or 0 for s in ds.spaces]
    pages = sum(max(1, math.ceil(n / args.page_size)) for n in counts)
    latency = args.latency_ms / 1000
    rest = pages - entities  # after each entity's first page, all on one pool
    ideal = (1 + entities + math.ceil(rest / args.concurrency)
             + math.ceil(memories / args.pool)) * latency
    print(f"mem0 load, sandbox (demo data) in its own process, latency {args.latency_ms:g} ms "
          "per request")
    print(f"loaded {memories} mem0 memories in {len(ds.memories)} versions from {entities} "
          f"entities: {pages} list pages of {args.page_size}, {memories} histories "
          f"(pool {args.pool}), {result.calls} requests in all "
          f"(1 + pages + memories = {1 + pages + memories})")
    print(f"wall   {wall:.3f} s")
    print(f"ideal  {ideal:.3f} s  (the requests at these pool sizes × latency)")
    print(f"ratio  {wall / ideal:.2f}  (wall / ideal)")
    print(f"notes  {len(result.notes)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
