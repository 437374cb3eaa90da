"""Load N Graphiti facts from a Kuzu file (issue 34's bench), and say how long it took.

The graph is made of graphiti-core's own classes (``EpisodicNode``, ``EntityNode``,
``EntityEdge``; no LLM, embeddings as small fixed lists): ten facts per episode, five
groups, one fact in ten retired by a newer fact of the same relation between the same two
entities (so version chains are built too). Episodes and entities are saved with their own
``save``; the facts, written one by one with ``EntityEdge.save`` (about 10 ms each here),
are written in batches by the same statement as graphiti-core's Kuzu save, with
``UNWIND``. The file is kept under ``bench/out/`` (git-ignored) and reused by the next run
with the same N.

Prints the wall time of one full :class:`~memscope.sources.graphiti.GraphitiSource` load
(graphiti-core's read helpers, then the records and chains), split into reading and
mapping, and of the graph build and analysis on top. Asserts nothing.

Run: ``.venv/bin/python bench/graphiti.py [--facts 50000] [--fresh]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import shutil
import sys
import time
import warnings
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

os.environ["GRAPHITI_TELEMETRY_ENABLED"] = "false"  # before graphiti-core is imported

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphiti_core.edges import EntityEdge  # noqa: E402
from graphiti_core.nodes import EntityNode, EpisodeType, EpisodicNode  # noqa: E402

from memscope.graph.analysis import analyse  # noqa: E402
from memscope.sources.graphiti import GraphitiConfig, GraphitiSource  # noqa: E402
from memscope.sources.graphiti_map import dataset_of  # noqa: E402

OUT = ROOT / "bench" / "out"
EMB = [0.1, 0.2, 0.3]
BATCH = 2_000
#: graphiti-core's Kuzu save of one entity edge (edge_db_queries), over a batch of rows
#: (``reference_time`` left out: always empty here, Kuzu cannot type an all-empty column)
SAVE_EDGES = """
UNWIND $rows AS r
MATCH (source:Entity {uuid: r.source_node_uuid})
MATCH (target:Entity {uuid: r.target_node_uuid})
CREATE (source)-[:RELATES_TO]->(e:RelatesToNode_ {uuid: r.uuid})-[:RELATES_TO]->(target)
SET e.group_id = r.group_id, e.created_at = r.created_at, e.name = r.name, e.fact = r.fact,
    e.fact_embedding = r.fact_embedding, e.episodes = r.episodes,
    e.expired_at = r.expired_at, e.valid_at = r.valid_at, e.invalid_at = r.invalid_at,
    e.attributes = r.attributes
"""
START = datetime(2026, 1, 1, tzinfo=UTC)


def facts_of(n: int, people: int) -> list[EntityEdge]:
    """``n`` facts; fact ``i`` with ``i % 10 == 9`` replaces fact ``i - 1`` (same pair)."""
    out: list[EntityEdge] = []
    for i in range(n):
        p = (i // 10) % people
        made = START + timedelta(minutes=i)
        pair = i - 1 if i % 10 == 9 else i
        edge = EntityEdge(uuid=f"f{i:07d}", group_id=f"g{p % 5}", source_node_uuid=f"p{p}",
                          target_node_uuid=f"p{(p + 1 + pair % 7) % people}",
                          name="KNOWS" if i % 10 < 8 else "WORKS_WITH",
                          fact=f"Person {p} knows person {(p + 1 + pair % 7) % people} "
                               f"(fact {i})", episodes=[f"e{i // 10:06d}"],
                          fact_embedding=EMB, created_at=made, valid_at=made)
        if i % 10 == 8:  # retired by the next fact
            edge.invalid_at = made + timedelta(minutes=1)
            edge.expired_at = made + timedelta(minutes=1)
        out.append(edge)
    return out


async def write(path: Path, n: int) -> Any:
    """The bench's graph at ``path``."""
    import json

    from graphiti_core.driver.kuzu_driver import KuzuDriver

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        driver = KuzuDriver(str(path))
    people = max(10, n // 25)
    for p in range(people):
        await EntityNode(uuid=f"p{p}", name=f"Person {p}", group_id=f"g{p % 5}",
                         summary=f"Person {p} of the bench." if p % 3 == 0 else "",
                         name_embedding=EMB, created_at=START).save(driver)
    for e in range((n + 9) // 10):
        await EpisodicNode(uuid=f"e{e:06d}", name=f"Episode {e}", group_id=f"g{e % 5}",
                           source=EpisodeType.text, source_description="bench",
                           content=f"Text of episode {e}.", valid_at=START, created_at=START
                           ).save(driver)
    edges = facts_of(n, people)
    for i in range(0, n, BATCH):
        rows = [{**e.model_dump(exclude={"attributes", "reference_time"}),
                 "attributes": json.dumps({})}
                for e in edges[i:i + BATCH]]
        await driver.execute_query(SAVE_EDGES, rows=rows)
    return driver


def main() -> None:
    parser = argparse.ArgumentParser(description="Load N Graphiti facts from a Kuzu file.")
    parser.add_argument("--facts", type=int, default=50_000)
    parser.add_argument("--fresh", action="store_true", help="write the file again")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"graphiti-{args.facts}.kuzu"
    if args.fresh and path.exists():
        path.unlink()
        shutil.rmtree(path.with_suffix(".kuzu.wal"), ignore_errors=True)
    if not path.exists():
        t = time.perf_counter()
        driver = asyncio.run(write(path, args.facts))
        gc.collect()  # the loop's last query results go before their database closes
        driver.client.close()
        driver.db.close()
        print(f"wrote {args.facts:,} facts to {path.name} in {time.perf_counter() - t:.1f} s")

    source = GraphitiSource(GraphitiConfig("kuzu", str(path)))
    t = time.perf_counter()
    result = source.load()
    load_s = time.perf_counter() - t
    ds = result.dataset
    t = time.perf_counter()
    _, eps, ents, facts = source.read()
    read_s = time.perf_counter() - t
    t = time.perf_counter()
    dataset_of(eps, ents, facts)
    map_s = time.perf_counter() - t
    t = time.perf_counter()
    analysis = analyse(ds)
    analyse_s = time.perf_counter() - t
    source.close()
    chains = {c.root for c in analysis.chains.by_member.values()}
    print(f"facts {len(ds.memories):,}, episodes {len(ds.documents):,}, "
          f"spaces {len(ds.spaces)}, version chains {len(chains):,}")
    print(f"load (read + records + chains): {load_s:.2f} s")
    print(f"  again, read through graphiti-core: {read_s:.2f} s; records and chains: "
          f"{map_s:.2f} s")
    print(f"graph build and analysis on top: {analyse_s:.2f} s")


if __name__ == "__main__":
    main()
