"""Fetch 10k documents through the local sandbox with 50 ms latency per request.

Prints the wall time of a full Supermemory load (every page of 200, bounded concurrency),
the ideal time (pages / concurrency × latency) and their ratio. Asserts nothing.

``--v5`` loads 10,000 memories (demo data, five per document) through the current API
instead: namespaces, list pages and history views, everything through one adaptive limit
that starts at ``--pool`` requests in flight (8, the client's default) and grows while no
429 comes, up to ``--ceiling`` (the source's own, ``VIEW_CEILING``, when not given), and
prints the wall time, the limit's range, the request count (views and the rest) against
the issue's budget of 0.5 × memories + pages, and the ideal time for that many requests
at the start and at the ceiling (requests / width × latency). Then,
with ``--rate-limit N``, the same load once more while the service answers at most N
requests a second (429 beyond, as a key's rate limit does), printed next to the fault-free
time and the time the limit alone allows (requests / N). Then,
unless ``--every-429 0``, the same load once more while every 20th request (``--every-429``)
answers 429 — a throttling service — printed next to the fault-free time, with the retries,
the adaptive limit's range and whether the load ended complete. ``--refresh`` also times
Refresh of the unchanged account (``SupermemoryV5Source.refresh`` of the first load): its
requests (list pages and views) and seconds, and whether it equals the load.

The sandbox runs in its own process (``python -m memscope.sandbox`` on a free port), as a
real service would, so its CPU time is not charged to the client; ``--in-process`` runs
it in a thread of this process instead.

Run: ``.venv/bin/python bench/fetch.py [--documents 10000] [--latency-ms 50]
[--concurrency 4] [--data demo|synthetic] [--sequential] [--in-process]``
or ``.venv/bin/python bench/fetch.py --v5 [--memories 10000] [--pool 8] [--ceiling N]
[--every-429 20] [--rate-limit N] [--refresh]``
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
from typing import Any

import httpx
from pydantic import SecretStr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sandbox_process import sandbox_process  # noqa: E402

from memscope.sandbox import Sandbox  # noqa: E402
from memscope.sources import (  # noqa: E402
    LoadResult,
    SupermemoryConfig,
    SupermemorySource,
    SupermemoryV5Source,
)

FEED = "/v3/documents/documents"
KEY = "sm_bench_key"


@contextlib.contextmanager
def sandbox_url(args: argparse.Namespace, folder: str) -> Iterator[str]:
    """Start the sandbox (subprocess or thread) with the data and latency; yield its URL."""
    if args.in_process:
        sb = Sandbox.create(folder, data=args.data, documents=args.documents,
                            memories=args.memories, supermemory_keys=(KEY,))
        sb.faults.latency_ms = args.latency_ms
        with sb:
            yield sb.url
        return
    with sandbox_process(folder, [
            "--data", args.data, "--documents", str(args.documents), "--latency-ms",
            str(args.latency_ms), "--supermemory-key", KEY,
            *(["--memories", str(args.memories)] if args.memories else [])],
            start_s=300) as url:
        yield url


def timed_load(url: str, concurrency: int, limit: int) -> tuple[float, LoadResult]:
    """Wall time of one full load (feed pages only) and its result."""
    src = SupermemorySource(SupermemoryConfig(
        api_key=SecretStr(KEY), base_url=url, page_limit=limit, concurrency=concurrency,
        load_spaces=False, load_profiles=False))
    with src:
        started = time.perf_counter()
        result = src.load()
        return time.perf_counter() - started, result


def v5_config(url: str, pool: int, limit: int, ceiling: int | None) -> SupermemoryConfig:
    """The bench's v5 configuration: ``pool`` to start with, ``ceiling`` (when given) as
    the most in flight, no profiles."""
    config = SupermemoryConfig(
        api_key=SecretStr(KEY), base_url=url, page_limit=limit, concurrency=pool,
        history_concurrency=pool, load_profiles=False)
    if ceiling:  # set only when asked: the source's own ceiling applies otherwise
        config = config.model_validate({**config.model_dump(), "concurrency_ceiling": ceiling})
    return config


def timed_v5_load(url: str, pool: int, limit: int, ceiling: int | None = None
                  ) -> tuple[float, LoadResult, int, SupermemoryV5Source]:
    """Wall time of one full v5 load (no profiles), its result, its history views and the
    (closed) source, whose client holds the retries and the adaptive limit's range."""
    src = SupermemoryV5Source(v5_config(url, pool, limit, ceiling))
    with src:
        started = time.perf_counter()
        result = src.load()
        return time.perf_counter() - started, result, src.last_views, src


def timed_v5_refresh(url: str, pool: int, limit: int, previous: LoadResult,
                     ceiling: int | None = None) -> tuple[float, LoadResult, int]:
    """Wall time of Refresh after ``previous`` (a new source, as another session's would
    be), its result and its history views."""
    src = SupermemoryV5Source(v5_config(url, pool, limit, ceiling))
    with src:
        started = time.perf_counter()
        result = src.refresh(previous)
        return time.perf_counter() - started, result, src.last_views


def v5_main(args: argparse.Namespace) -> int:
    """The v5 figures: wall time, requests against the budget, ideal at the pool size."""
    args.data = "demo"
    args.memories = args.memories or 10_000
    args.documents = max(1, args.memories // 5)
    with tempfile.TemporaryDirectory(prefix="memscope-bench-") as folder, \
            sandbox_url(args, folder) as url:
        # untimed: builds the sandbox's feed and v5 index for this data version
        httpx.post(url + "/ns/sm_project_personal/list/memories", json={},
                   params={"limit": 1}, timeout=300,
                   headers={"Authorization": f"Bearer {KEY}"})
        wall, result, views, first = timed_v5_load(url, args.pool, args.limit, args.ceiling)
        refreshed = (timed_v5_refresh(url, args.pool, args.limit, result, args.ceiling)
                     if args.refresh else None)
        limited = None
        if args.rate_limit:
            httpx.post(url + "/_sandbox/faults", json={"rate_limit": args.rate_limit},
                       timeout=30)
            limited = timed_v5_load(url, args.pool, args.limit, args.ceiling)
            httpx.post(url + "/_sandbox/faults", json={"rate_limit": 0}, timeout=30)
        throttled = None
        if args.every_429:
            httpx.post(url + "/_sandbox/faults", json={"every_429": args.every_429},
                       timeout=30)
            throttled = timed_v5_load(url, args.pool, args.limit, args.ceiling)
    latency = args.latency_ms / 1000
    ds = result.dataset
    memories = len(ds.memories)
    pages = result.pages_total
    ideal = result.calls / args.pool * latency
    top = first._http.gate
    ideal_top = result.calls / top.ceiling * latency
    budget = 0.5 * memories + pages
    print(f"v5 load, sandbox (demo data) in its own process, latency {args.latency_ms:g} ms "
          "per request")
    print(f"loaded {len(ds.documents)} documents, {memories} memories: {pages} list pages of "
          f"{args.limit}, {views} history views, {result.calls} requests in all "
          f"(pool {args.pool})")
    print(f"requests {result.calls}  = {result.calls / memories:.2f} × memories "
          f"(budget 0.5 × memories + pages = {budget:g})")
    print(f"wall   {wall:.3f} s  (in flight {top.lowest}–{top.highest}, started at "
          f"{args.pool}, ceiling {top.ceiling}, {top.cuts} cuts)")
    print(f"ideal  {ideal:.3f} s  (requests / pool × latency); at the ceiling "
          f"{ideal_top:.3f} s")
    print(f"ratio  {wall / ideal:.2f}  (wall / ideal); {wall / ideal_top:.2f} at the ceiling")
    if refreshed is not None:
        r_wall, r_result, r_views = refreshed
        rds = r_result.dataset
        same = (list(rds.memories) == list(ds.memories) and rds.documents == ds.documents
                and rds.memory_documents == ds.memory_documents
                and all(rds.memories[i] == m for i, m in ds.memories.items()))
        print(f"refresh, unchanged account: {r_result.calls} requests "
              f"({r_result.calls - r_views} namespaces and list pages, {r_views} history "
              f"views), wall {r_wall:.3f} s (full load {wall:.3f} s, {result.calls} "
              f"requests); {'equals the load' if same else 'DIFFERS from the load'}")
    if limited is not None:
        l_wall, l_result, _, src = limited
        gate = src._http.gate
        print(f"rate limit {args.rate_limit:g} requests/s (429 beyond it, no Retry-After): "
              f"wall {l_wall:.3f} s (no faults {wall:.3f} s; the limit alone allows "
              f"{l_result.calls / args.rate_limit:.3f} s), {l_result.calls} requests, "
              f"{_pool(src)}, ended "
              f"at {gate.limit} after {gate.cuts} cuts, "
              f"{'complete' if l_result.complete else 'INCOMPLETE'}")
    if throttled is not None:
        t_wall, t_result, _, src = throttled
        print(f"429 every {args.every_429}th request: wall {t_wall:.3f} s (no faults "
              f"{wall:.3f} s, ×{t_wall / wall:.2f}), {t_result.calls} requests, "
              f"{_pool(src)} (started at {args.pool}), {len(t_result.unread_histories)} unread, "
              f"{'complete' if t_result.complete else 'INCOMPLETE'}")
    return 0



def _pool(src: Any) -> str:
    """A load's retries and how far its requests in flight ranged."""
    gate = src._http.gate
    return f"{src._http.retries} retries, in flight {gate.lowest}–{gate.highest}"

def main() -> int:
    """Start the sandbox, warm its feed cache, time the load and print the figures."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--documents", type=int, default=10_000)
    p.add_argument("--latency-ms", type=float, default=50.0)
    p.add_argument("--concurrency", type=int, default=4)
    p.add_argument("--limit", type=int, default=200)
    p.add_argument("--data", choices=("demo", "synthetic"), default="demo")
    p.add_argument("--sequential", action="store_true", help="also time concurrency 1")
    p.add_argument("--in-process", action="store_true", help="run the sandbox in a thread")
    p.add_argument("--v5", action="store_true", help="a v5 load of --memories memories")
    p.add_argument("--memories", type=int, default=None, help="v5: memories (10,000)")
    p.add_argument("--pool", type=int, default=8,
                   help="v5: requests in flight to start with (8)")
    p.add_argument("--ceiling", type=int, default=None,
                   help="v5: the most in flight (the source's own when not given)")
    p.add_argument("--every-429", type=int, default=20,
                   help="v5: also load while every Nth request answers 429 (20; 0: skip)")
    p.add_argument("--rate-limit", type=float, default=0,
                   help="v5: also load while the service answers at most N requests a "
                        "second (429 beyond; 0: skip)")
    p.add_argument("--refresh", action="store_true",
                   help="v5: also time Refresh of the unchanged account")
    args = p.parse_args()
    if args.v5:
        return v5_main(args)

    with tempfile.TemporaryDirectory(prefix="memscope-bench-") as folder, \
            sandbox_url(args, folder) as url:
        # one untimed request builds the sandbox's encoded-feed cache
        httpx.post(url + FEED, json={"page": 1, "limit": 1}, timeout=300,
                   headers={"Authorization": f"Bearer {KEY}"})
        wall, result = timed_load(url, args.concurrency, args.limit)
        seq = timed_load(url, 1, args.limit)[0] if args.sequential else None

    pages = result.pages_total
    latency = args.latency_ms / 1000
    ideal = pages / args.concurrency * latency
    floor = (1 + math.ceil((pages - 1) / args.concurrency)) * latency
    ds = result.dataset
    where = "in this process" if args.in_process else "in its own process"
    print(f"sandbox ({args.data} data) {where}, latency {args.latency_ms:g} ms per request")
    print(f"loaded {len(ds.documents)} documents, {ds.memory_count} memories in {pages} pages "
          f"of {args.limit} ({result.calls} requests, {len(result.missing_pages)} missing), "
          f"concurrency {args.concurrency}")
    print(f"wall   {wall:.3f} s")
    print(f"ideal  {ideal:.3f} s  (pages / concurrency × latency)")
    print(f"ratio  {wall / ideal:.2f}  (wall / ideal)")
    print(f"floor  {floor:.3f} s  (page 1 alone, then the rest {args.concurrency} at a time)")
    if seq is not None:
        print(f"sequential wall {seq:.3f} s  (speed-up {seq / wall:.2f}×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
