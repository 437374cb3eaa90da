"""Benchmark: server-side layout and view building on synthetic memory graphs.

Prints figures, asserts nothing::

    .venv/bin/python bench/layout.py                 # 1k, 5k and 20k nodes
    .venv/bin/python bench/layout.py 2000 50000      # other sizes

The graphs go through the real core (feed pages → dataset → graph): documents with 1–6
memories, new versions of recent memories (chains and branches), ``extends``/``derives``
relations, four spaces, some static, forgotten and expiring memories.
"""

from __future__ import annotations

import json
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from memscope.graph.analysis import analyse  # noqa: E402
from memscope.records.dataset import from_feed_pages  # noqa: E402
from memscope.view.build import build_view  # noqa: E402
from memscope.view.layout import extend_positions, layout_positions  # noqa: E402

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
TYPES = ("text", "pdf", "webpage", "notion_doc", "google_doc", "image")
WORDS = ("prefers", "uses", "likes", "works", "lives", "plans", "reads", "drinks", "runs",
         "keeps", "writes", "knows")


def _iso(when: datetime) -> str:
    return when.isoformat().replace("+00:00", "Z")


def synthetic_pages(n_nodes: int, seed: int = 0) -> list[dict]:
    """Feed pages (200 documents each) whose graph has about ``n_nodes`` nodes."""
    rng = random.Random(seed)
    docs: list[dict] = []
    entries: dict[str, dict] = {}
    recent: list[str] = []
    count = 0
    while count < n_nodes:
        i = len(docs)
        memories = []
        for j in range(rng.randint(1, 6)):
            mem_id = f"mem-{i}-{j}"
            created = NOW - timedelta(hours=rng.uniform(1, 24 * 400))
            entry: dict = {
                "id": mem_id,
                "memory": f"{rng.choice(WORDS).capitalize()} "
                          + " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 16))),
                "spaceId": f"space-{rng.randrange(4)}",
                "createdAt": _iso(created), "updatedAt": _iso(created),
                "isStatic": rng.random() < 0.1,
                "isForgotten": rng.random() < 0.03,
            }
            if rng.random() < 0.03:
                entry["forgetAfter"] = _iso(NOW + timedelta(days=rng.uniform(-5, 30)))
            roll = rng.random()
            if recent and roll < 0.25:  # a new version of a recent memory
                parent = rng.choice(recent[-300:])
                entries[parent]["isLatest"] = False
                entry["parentMemoryId"] = parent
                entry["version"] = entries[parent].get("version", 1) + 1
            elif recent and roll < 0.35:
                entry["memoryRelations"] = {rng.choice(recent[-300:]):
                                            rng.choice(("extends", "derives"))}
            entries[mem_id] = entry
            recent.append(mem_id)
            memories.append(entry)
        docs.append({"id": f"doc-{i}", "title": f"Document {i}: {rng.choice(WORDS)} notes",
                     "type": rng.choice(TYPES), "status": "done", "memoryEntries": memories})
        count += 1 + len(memories)
    return [{"documents": docs[k:k + 200]} for k in range(0, len(docs), 200)]


def _timed(fn, *args, **kwargs):
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return result, time.perf_counter() - start


def run(n_nodes: int) -> None:
    """Build, lay out and view one synthetic graph; print one line of figures."""
    analysis, t_graph = _timed(lambda: analyse(from_feed_pages(synthetic_pages(n_nodes)), NOW))
    g = analysis.graph.graph
    positions, t_layout = _timed(layout_positions, g)
    positions2 = layout_positions(g)
    view, t_view = _timed(build_view, analysis, positions=positions)
    payload = json.dumps({"nodes": view["nodes"], "edges": view["edges"]})
    # the local layout: the last 2 % of the nodes arrive after the first drawing
    keep = list(g.nodes)[: int(len(g) * 0.98)]
    base = layout_positions(g.subgraph(keep))
    _, t_extend = _timed(extend_positions, g, base)
    print(f"{g.number_of_nodes():>7,} nodes {g.number_of_edges():>7,} edges | "
          f"graph {t_graph:6.2f} s | layout {t_layout:6.2f} s "
          f"(deterministic: {positions == positions2}) | extend +2 % {t_extend:5.2f} s | "
          f"view {t_view:5.2f} s | payload {len(payload) / 1e6:5.2f} MB", flush=True)


def main(argv: list[str]) -> None:
    sizes = [int(a) for a in argv] or [1_000, 5_000, 20_000]
    for n in sizes:
        run(n)


if __name__ == "__main__":
    main(sys.argv[1:])
