"""Fetch 10k documents through the local sandbox with 50 ms latency per request.

Prints the wall time of a full Supermemory load (every page of 200, bounded concurrency),
the ideal time (pages / concurrency × latency) and their ratio. Asserts nothing.

The sandbox runs in its own process (``python -m memscope.sandbox`` on a free port), as a
real service would, so its CPU time is not charged to the client; ``--in-process`` runs
it in a thread of this process instead.

Run: ``.venv/bin/python bench/fetch.py [--documents 10000] [--latency-ms 50]
[--concurrency 4] [--data demo|synthetic] [--sequential] [--in-process]``
"""

from __future__ import annotations

import argparse
import contextlib
import math
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from pydantic import SecretStr

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from memscope.sandbox import Sandbox  # noqa: E402
from memscope.sources import LoadResult, SupermemoryConfig, SupermemorySource  # noqa: E402

FEED = "/v3/documents/documents"
KEY = "sm_bench_key"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def sandbox_url(args: argparse.Namespace, folder: str) -> Iterator[str]:
    """Start the sandbox (subprocess or thread) with the data and latency; yield its URL."""
    if args.in_process:
        sb = Sandbox.create(folder, data=args.data, documents=args.documents,
                            supermemory_keys=(KEY,))
        sb.faults.latency_ms = args.latency_ms
        with sb:
            yield sb.url
        return
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "memscope.sandbox", "--port", str(port), "--dir", folder,
         "--data", args.data, "--documents", str(args.documents), "--latency-ms",
         str(args.latency_ms), "--supermemory-key", KEY],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                httpx.get(url + "/_sandbox/health", timeout=5)
                break
            except httpx.TransportError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("the sandbox did not start") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def timed_load(url: str, concurrency: int, limit: int) -> tuple[float, LoadResult]:
    """Wall time of one full load (feed pages only) and its result."""
    src = SupermemorySource(SupermemoryConfig(
        api_key=SecretStr(KEY), base_url=url, page_limit=limit, concurrency=concurrency,
        load_spaces=False, load_profiles=False))
    with src:
        started = time.perf_counter()
        result = src.load()
        return time.perf_counter() - started, result


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
    args = p.parse_args()

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
