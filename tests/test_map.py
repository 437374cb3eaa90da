"""The first view as one map: documents as cards, memories sized by what depends on them,
chains as directed paths, and the components set as one island rather than rows."""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import UTC, datetime

import networkx as nx
import pytest

from memscope.demo.generator import generate
from memscope.graph.analysis import Analysis, analyse
from memscope.records.dataset import from_feed_pages
from memscope.view.build import build_view, legend_styles
from memscope.view.layout import ASPECT, CELL, EDGE_PX, layout_positions
from memscope.view.sizes import CARD_WIDTH, SIZES, dependents, memory_size
from memscope.view.style import EDGE_STYLES

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def demo() -> Analysis:
    return analyse(from_feed_pages(generate(7, now=NOW).to_feed_pages(limit=200)), NOW)


def _coverage(pos: dict, unit: float) -> float:
    """Share of the drawing's bounding box (in cells of ``unit``) within a cell of a node."""
    cells = {(math.floor(x / unit), math.floor(y / unit)) for x, y in pos.values()}
    near = {(a + dx, b + dy) for a, b in cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    xs = range(min(c[0] for c in cells), max(c[0] for c in cells) + 1)
    ys = range(min(c[1] for c in cells), max(c[1] for c in cells) + 1)
    return sum((a, b) in near for a in xs for b in ys) / (len(xs) * len(ys))


@pytest.mark.parametrize("seed", [0, 7])
def test_the_demo_is_one_dense_wide_map(demo: Analysis, seed: int) -> None:
    g = demo.graph.graph
    pos = layout_positions(g, seed=seed)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    width, height = max(xs) - min(xs), max(ys) - min(ys)
    # wide like the canvas; the rows of packed components were 1.1-1.5
    assert 0.8 * ASPECT <= width / height <= 1.3 * ASPECT
    # little empty space: 0.57-0.62 of the box was near a node with rows, 3.1-3.6 edge
    # lengths squared per node
    assert _coverage(pos, EDGE_PX) >= 0.72
    assert width * height / len(pos) <= 2.5 * EDGE_PX ** 2
    # the largest component sits in the middle of the map
    largest = max(nx.weakly_connected_components(g), key=len)
    cx = sum(pos[n][0] for n in largest) / len(largest)
    cy = sum(pos[n][1] for n in largest) / len(largest)
    mx, my = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    assert abs(cx - mx) < 0.2 * width and abs(cy - my) < 0.2 * height


def test_components_never_touch(demo: Analysis) -> None:
    g = demo.graph.graph
    pos = layout_positions(g, seed=7)
    comp = {n: i for i, c in enumerate(nx.weakly_connected_components(g)) for n in c}
    grid: dict[tuple[int, int], list] = defaultdict(list)
    unit = CELL * EDGE_PX
    for n, (x, y) in pos.items():
        grid[(math.floor(x / unit), math.floor(y / unit))].append(n)
    closest = math.inf
    for n, (x, y) in pos.items():
        gx, gy = math.floor(x / unit), math.floor(y / unit)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for m in grid[(gx + dx, gy + dy)]:
                    if comp[m] != comp[n]:
                        closest = min(closest, math.dist(pos[n], pos[m]))
    assert closest >= unit * 0.99  # at least one packing cell between two components


def test_documents_are_labelled_cards(demo: Analysis) -> None:
    view = build_view(demo)
    docs = [n for n in view["nodes"] if n["kind"] == "document"]
    assert docs and all(n["shape"] == "box" for n in docs)
    assert all(n.get("widthConstraint") == {"minimum": CARD_WIDTH, "maximum": CARD_WIDTH}
               for n in docs)
    titled = {d: r.title for d, r in demo.dataset.documents.items() if r.title}
    for node in docs:  # the title (cut, never lost) is the card's own label
        title = titled.get(node["id"], node["id"])
        assert node["label"] == title or title.startswith(node["label"].rstrip("…"))
    assert all(n["shape"] != "box" for n in view["nodes"] if n["kind"] != "document")
    shapes = {s["key"]: s["style"]["shape"] for s in legend_styles()[0]}
    assert shapes["document"] == "box"


def _chain(n: int, extra: dict | None = None) -> Analysis:
    entries = [{"id": "m0", "memory": "version 0"}]
    entries += [{"id": f"m{i}", "memory": f"version {i}", "parentMemoryId": f"m{i - 1}"}
                for i in range(1, n)]
    entries += [{"id": "lone", "memory": "nothing depends on me"}]
    if extra:
        entries.append(extra)
    return analyse(from_feed_pages([{"documents": [
        {"id": "d", "title": "Notes", "memoryEntries": entries}]}]), NOW)


def test_memories_grow_with_what_depends_on_them() -> None:
    an = _chain(10, {"id": "x", "memory": "extends version 8",
                     "memoryRelations": {"m8": "extends"}})
    dep = dependents(an.graph.graph)
    # m0 has 9 later versions and, through m8, the memory extending it
    assert dep["m0"] == 10 and dep["m6"] == 4 and dep["m8"] == 2
    assert "lone" not in dep and "m9" not in dep and "x" not in dep
    sizes = {n["id"]: n["size"] for n in build_view(an)["nodes"]}
    assert sizes["lone"] == sizes["m9"] == sizes["x"] == SIZES["memory"]
    assert sizes["m0"] > sizes["m6"] > sizes["m8"] > sizes["m9"]
    assert sizes["d"] == SIZES["document"]


def test_sizes_are_bounded_and_few() -> None:
    sizes = {memory_size(n) for n in range(0, 10_000, 7)}
    assert min(sizes) == SIZES["memory"] and max(sizes) <= 2.1 * SIZES["memory"]
    assert len(sizes) <= 5  # a handful of styles in the payload, not one per memory
    long = _chain(300)
    assert max(n["size"] for n in build_view(long)["nodes"]) == max(sizes)


def test_a_cycle_counts_each_member_once() -> None:
    an = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "a", "memory": "a", "parentMemoryId": "b"},
        {"id": "b", "memory": "b", "parentMemoryId": "a"}]}]}]), NOW)
    assert dependents(an.graph.graph) == {"a": 1, "b": 1}


def test_chains_are_directed_paths(demo: Analysis) -> None:
    for kind in ("updates", "extends", "derives"):
        assert EDGE_STYLES[kind].get("arrows") == "to"
        assert EDGE_STYLES[kind]["width"] > EDGE_STYLES["source"]["width"] * 2
    edges = build_view(demo)["edges"]
    chain = [e for e in edges if e["kind"] in ("updates", "extends", "derives")]
    assert chain and all(e.get("arrows") == "to" for e in chain)
    assert all("arrows" not in e for e in edges if e["kind"] == "source")
    memories = demo.dataset.memories
    for e in chain:  # the arrow points at the newer / the depending memory
        newer = memories[e["to"]]
        assert newer.parent_id == e["from"] or e["from"] in (newer.relations or {})
