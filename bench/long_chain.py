"""Benchmark: one document whose memories form one 20,000-version chain (issue 20, item 4).

Prints figures, asserts nothing::

    .venv/bin/python bench/long_chain.py            # 20,000 versions
    .venv/bin/python bench/long_chain.py 5000       # another length
    .venv/bin/python bench/long_chain.py 20000 --no-pages   # skip the AppTest page runs
    .venv/bin/python bench/long_chain.py 20000 --profile    # cProfile of the slowest step

Times analyse(), every Insights chart builder, the audit tables, the chain diff, every
export format and (unless ``--no-pages``) the Audit and Insights pages run by Streamlit's
AppTest on that data as a snapshot file. Also prints how many tick labels / bars the
"versions per chain" chart carries (readability).
"""

from __future__ import annotations

import cProfile
import hashlib
import json
import os
import pstats
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
for extra in (ROOT, ROOT / "tests"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

from memscope.export import formats  # noqa: E402
from memscope.graph.analysis import analyse  # noqa: E402
from memscope.lenses.diff import diff_stats, word_diff  # noqa: E402
from memscope.records.dataset import from_feed_pages  # noqa: E402
from memscope.reports import audit, insights  # noqa: E402

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
T = TypeVar("T")
FIGURES: dict[str, float] = {}


def chain_page(n: int, *, chains: int = 1, bare: bool = False) -> dict[str, Any]:
    """A feed page: one document, ``chains`` chains of ``n`` versions each (by
    ``parentMemoryId``), plus a few single memories; only each chain's last is latest.
    ``bare``: the versions carry only id, text and parent (no version, no isLatest, no
    date), so every one is "latest" and every version number is repaired."""
    start = datetime(2025, 1, 1, tzinfo=UTC)
    entries: list[dict[str, Any]] = []
    for c in range(chains):
        for i in range(n):
            if bare:
                entries.append({"id": f"c{c}_v{i}", "memory": f"Chain {c} revision {i}",
                                "parentMemoryId": f"c{c}_v{i - 1}" if i else None})
                continue
            entries.append({
                "id": f"c{c}_v{i}", "memory": f"Chain {c} fact, revision {i} of the note",
                "version": i + 1, "isLatest": i == n - 1,
                "parentMemoryId": f"c{c}_v{i - 1}" if i else None,
                "createdAt": (start + timedelta(minutes=i)).isoformat()})
    entries += [{"id": "solo_a", "memory": "A memory without versions"},
                {"id": "solo_b", "memory": "Another memory without versions"}]
    return {"documents": [{"id": "doc_chain", "title": "The long chain",
                           "memoryEntries": entries}], "total": 1}


def _timed(label: str, call: Callable[[], T]) -> T:
    start = time.perf_counter()
    out = call()
    took = time.perf_counter() - start
    FIGURES[label] = took
    print(f"{label:<40} {took:8.3f} s", flush=True)
    return out


def _pages(page: dict[str, Any], shape: str) -> None:
    """The analysis pages, run by AppTest on the data as a snapshot file (the first run
    loads and analyses it; the others find it in the cache)."""
    import logging

    from apptest_support import run_page

    from components.state import session
    from components.state.connection import CONNECTION, FILE_BLOBS, Connection

    for name in list(logging.root.manager.loggerDict):
        if name.startswith("streamlit"):
            logging.getLogger(name).setLevel(logging.ERROR)  # "missing ScriptRunContext"
    blob = json.dumps(page).encode("utf-8")
    digest = hashlib.sha256(blob).hexdigest()
    state = {FILE_BLOBS.name: {digest: blob},
             CONNECTION.name: Connection("file", files=(("chain.json", digest),))}
    with tempfile.TemporaryDirectory() as data_dir:
        os.environ["MEMSCOPE_DATA_DIR"] = data_dir
        _timed(f"{shape}: page insights.py (loads the file)",
               lambda: run_page("insights.py", **state))
        for name in ("insights.py", "audit.py", "export.py", "explorer.py"):
            _timed(f"{shape}: page {name}", lambda n=name: run_page(n, **state))
        selected = {**state, session.SELECTED.name: "c0_v100"}
        _timed(f"{shape}: page explorer.py, v101 selected",
               lambda: run_page("explorer.py", **selected))


def main(argv: list[str]) -> None:
    """Run the bench for the chain length in ``argv`` (default 20,000)."""
    args = [a for a in argv if not a.startswith("--")]
    n = int(args[0]) if args else 20_000
    print(f"one chain of {n:,} versions (+2 single memories)")
    page = chain_page(n)
    ds = _timed("from_feed_pages", lambda: from_feed_pages([page]))
    analysis = _timed("analyse", lambda: analyse(ds, NOW))
    print(f"  chains: {len(analysis.chains)}, longest: "
          f"{max(len(c.entries) for c in analysis.chains.chains):,} versions")
    for key, chart in insights.CHARTS:
        fig = _timed(f"insights.{key}", lambda c=chart: c(analysis, None))
        if key == "versions":
            bars = _bars(fig)
            print(f"  versions chart: {bars} bars, x tick labels "
                  f"{_ticks(fig, bars)}")
    _timed("audit.findings_by_kind", lambda: audit.findings_by_kind(analysis))
    _timed("audit.chains_table", lambda: audit.chains_table(analysis))
    versions = _timed("audit.chain_versions", lambda: audit.chain_versions(analysis, "c0_v0"))
    mems = ds.memories
    _timed("diff first↔last", lambda: diff_stats(word_diff(mems[versions[0][0]].memory,
                                                             mems[versions[-1][0]].memory)))
    _timed("export.memories_csv", lambda: formats.memories_csv(analysis))
    _timed("export.to_node_link", lambda: json.dumps(formats.to_node_link(analysis)))
    _timed("export.to_graphml", lambda: formats.to_graphml(analysis))
    _timed("export.to_gexf", lambda: formats.to_gexf(analysis))
    _timed("export.evidence_json (1 member)",
           lambda: formats.evidence_json(analysis, formats.evidence_nodes(analysis, "c0_v0")))
    nodes = formats.evidence_nodes(analysis, "c0_v0")
    view = _timed("evidence view (layout + build_view)", lambda: _view(analysis, nodes))
    _timed("export.evidence_pack (whole chain)",
           lambda: formats.evidence_pack(analysis, nodes, view, title="Evidence"))
    full = _timed("offline view (layout + build_view, all)", lambda: _view(analysis, None))
    _timed("export.offline_html (all)", lambda: formats.offline_html(full, "Memscope graph"))
    wide = chain_page(50, chains=400)
    wide_analysis = analyse(from_feed_pages([wide]), NOW)
    fig = _timed("insights.versions (400 chains)",
                 lambda: insights.versions_per_chain(wide_analysis, None))
    bars = _bars(fig)
    print(f"  versions chart, 400 chains of 50: {bars} bars, x tick labels {_ticks(fig, bars)}")
    if "--profile" in argv:
        prof = cProfile.Profile()
        prof.enable()
        analyse(ds, NOW)
        formats.to_gexf(analysis)
        audit.chains_table(analysis)
        prof.disable()
        pstats.Stats(prof).sort_stats("cumulative").print_stats(25)
    bare = from_feed_pages([chain_page(n, bare=True)])
    bare_analysis = _timed("bare chain: analyse", lambda: analyse(bare, NOW))
    print(f"  findings: {len(bare_analysis.findings):,}, longest message: "
          f"{max(len(f.message) for f in bare_analysis.findings):,} characters")
    if "--no-pages" not in argv:
        print("pages run by AppTest on the data as a snapshot file:")
        _pages(page, "chain")
        _pages(chain_page(n, bare=True), "bare chain")


def _view(analysis: Any, visible: Any) -> Any:
    """The view the Export page puts in an evidence pack or an offline HTML file."""
    from memscope.view.build import build_view
    from memscope.view.layout import layout_positions

    g = analysis.graph.graph
    sub = g if visible is None else g.subgraph(visible)
    return build_view(analysis, visible=visible, positions=layout_positions(sub, seed=7))


def _bars(fig: Any) -> int:
    """How many bars (x values) the figure's traces hold."""
    return sum(len(t.x or ()) for t in fig.data)


def _ticks(fig: Any, bars: int) -> str:
    """How many tick labels the x axis shows: explicit ticks, else one per bar with
    ``dtick=1``, else plotly's automatic ticks (a handful)."""
    axis = fig.layout.xaxis
    if axis.tickvals is not None:
        return str(len(axis.tickvals))
    if axis.type == "category":
        return f"{bars} (one per range: {fig.data[0].x[0]!r} … {fig.data[0].x[-1]!r})"
    if axis.dtick == 1:
        return f"{bars} (one per bar)"
    return "automatic (plotly picks a handful)"


if __name__ == "__main__":
    main(sys.argv[1:])
