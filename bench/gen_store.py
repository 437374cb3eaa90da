"""Write a large synthetic embedded store and/or feed JSON pages, and print timings.

    python bench/gen_store.py --documents 10000 --memories 50000 --out bench/out

Writes ``OUT/store-<n>.sqlite`` (the embedded store) and ``OUT/feed-<n>/page-###.json``
(``POST /v3/documents/documents`` pages of 200). Figures go to stdout; never a test.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from memscope.demo.generator import generate
from memscope.store.store import Store


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark generator; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--documents", type=int, default=10_000)
    ap.add_argument("--memories", type=int, default=50_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--now", default="2026-11-30T12:00:00Z", help="ISO-8601 UTC time")
    ap.add_argument("--out", type=Path, default=Path("bench/out"))
    ap.add_argument("--no-store", action="store_true", help="skip the SQLite store")
    ap.add_argument("--no-feed", action="store_true", help="skip the feed JSON pages")
    args = ap.parse_args(argv)
    now = datetime.fromisoformat(args.now.replace("Z", "+00:00")).astimezone(UTC)
    args.out.mkdir(parents=True, exist_ok=True)

    t0 = time.perf_counter()
    data = generate(args.seed, now=now, n_documents=args.documents, n_memories=args.memories)
    print(f"generate  {args.documents} documents / {args.memories} memories: "
          f"{time.perf_counter() - t0:.2f} s")

    if not args.no_store:
        path = args.out / f"store-{args.memories}.sqlite"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        store = Store.create(path)
        t0 = time.perf_counter()
        store.seed(data)
        print(f"seed      {path}: {time.perf_counter() - t0:.2f} s")
        t0 = time.perf_counter()
        page, total = 1, 0
        while True:
            res = store.list_documents(page=page, limit=200)
            total += len(res["documents"])
            if page >= res["pagination"]["totalPages"]:
                break
            page += 1
        print(f"read      {page} pages / {total} documents: {time.perf_counter() - t0:.2f} s")

    if not args.no_feed:
        folder = args.out / f"feed-{args.memories}"
        folder.mkdir(exist_ok=True)
        t0 = time.perf_counter()
        size = 0
        for page in data.to_feed_pages(200):
            target = folder / f"page-{page['pagination']['currentPage']:03d}.json"
            text = json.dumps(page, ensure_ascii=False)
            target.write_text(text, encoding="utf-8")
            size += len(text.encode())
        print(f"feed      {folder}: {size / 1e6:.1f} MB in {time.perf_counter() - t0:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
