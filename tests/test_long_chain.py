"""A very long version chain (issue 20, item 4): one chain in order, a binned chart, paged
tables on the Audit page, and exports that parse back whole.

Sizes: the core checks use 20,000 versions (the issue's shape); the exports' round trip
and the AppTest runs of the Audit page use 2,050 (more than one page and more than the
diff's picker list, and fast enough for CI). Every page also runs once on 20,000 versions,
dated and bare (about 20 s in all). Speed is printed by ``bench/long_chain.py``, never
asserted here.
"""

from __future__ import annotations

import hashlib
import io
import json
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import networkx as nx
import pytest
from apptest_support import app_pages, run_page

from components.sections.audit import MAX_NODE_LINKS, MAX_PICKER_OPTIONS
from components.state import session
from components.state.connection import CONNECTION, FILE_BLOBS, Connection
from components.widgets.tables import TABLE_ROWS
from memscope.export.formats import flat_graph, to_gexf, to_graphml
from memscope.graph.analysis import Analysis, analyse
from memscope.records.dataset import from_feed_pages
from memscope.reports.audit import VERSION_PAGE, chain_versions_page, version_pages
from memscope.reports.insights import MAX_BINS, bin_width, versions_per_chain

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)
LONG = 20_000
MEDIUM = 2_050
#: the most rows a page's table lists (the longest lists say how many more the CSV has)
TABLE_MAX = 2_000
#: the most bars (x values) a chart's trace draws: long chains are binned
BARS_MAX = 60


def file_state(name: str, page: dict[str, Any], **more: Any) -> dict[str, Any]:
    """Session state that opens the feed ``page`` as the app's snapshot file ``name``."""
    blob = json.dumps(page).encode("utf-8")
    digest = hashlib.sha256(blob).hexdigest()
    return {FILE_BLOBS.name: {digest: blob},
            CONNECTION.name: Connection("file", files=((name, digest),)), **more}


def chain_page(lengths: list[int]) -> dict[str, Any]:
    """One document holding one chain per length (``c<k>_v<i>``, linked by
    ``parentMemoryId``, only the last latest) and one memory without versions."""
    start = datetime(2025, 1, 1, tzinfo=UTC)
    entries: list[dict[str, Any]] = [{"id": "solo", "memory": "A memory without versions"}]
    for k, n in enumerate(lengths):
        entries += [{"id": f"c{k}_v{i}", "memory": f"Chain {k} note, revision {i}",
                     "version": i + 1, "isLatest": i == n - 1,
                     "parentMemoryId": f"c{k}_v{i - 1}" if i else None,
                     "createdAt": (start + timedelta(minutes=i)).isoformat()}
                    for i in range(n)]
    return {"documents": [{"id": "doc", "title": "Long chain", "memoryEntries": entries}],
            "total": 1}


@pytest.fixture(scope="module")
def long_an() -> Analysis:
    return analyse(from_feed_pages([chain_page([LONG])]), NOW)


@pytest.fixture(scope="module")
def medium_an() -> Analysis:
    return analyse(from_feed_pages([chain_page([MEDIUM])]), NOW)


def test_a_long_chain_is_one_chain_in_order(long_an):
    assert len(long_an.chains) == 1
    chain = long_an.chains.chains[0]
    assert chain.root == "c0_v0"
    assert chain.ids == [f"c0_v{i}" for i in range(LONG)]
    assert [e.version for e in chain.entries] == list(range(1, LONG + 1))
    assert chain.latest_ids == [f"c0_v{LONG - 1}"]
    assert long_an.chains.of("solo") is None
    # every member finds its own entry (a look-up, used by the exports for each member)
    assert all(chain.entry(f"c0_v{i}").id == f"c0_v{i}" for i in range(0, LONG, 997))
    assert chain.entry("solo") is None


def test_a_chain_window_holds_the_member(long_an):
    chain = long_an.chains.chains[0]
    start, shown = chain.window("c0_v10000", 50)
    assert len(shown) == 50 and shown == chain.entries[start:start + 50]
    assert "c0_v10000" in [e.id for e in shown]
    assert chain.window("c0_v0", 50)[0] == 0
    assert chain.window(f"c0_v{LONG - 1}", 50)[0] == LONG - 50


def _axis(fig: Any) -> tuple[list[Any], list[int]]:
    trace = cast("tuple[Any, ...]", fig.data)[0]
    return list(trace.x), [int(y) for y in trace.y]


def test_the_versions_chart_bins_a_long_chain(long_an):
    fig = versions_per_chain(long_an)
    xs, ys = _axis(fig)
    assert len(xs) <= MAX_BINS
    assert sum(ys) == 1 and ys[-1] == 1  # the one chain, in the last range
    assert xs[-1].endswith("20,000") and xs[0].startswith("1–")
    assert cast("Any", fig).layout.xaxis.dtick is None  # not one tick per version


def test_the_versions_chart_bins_many_chains():
    lengths = [2] * 30 + [3] * 5 + [60, 61, 500]
    an = analyse(from_feed_pages([chain_page(lengths)]), NOW)
    xs, ys = _axis(versions_per_chain(an))
    assert len(xs) <= MAX_BINS and sum(ys) == len(lengths)
    assert bin_width(500) == 50
    assert (xs[0], ys[0]) == ("1–50", 35)  # every chain of 2 or 3 in the first range
    assert (xs[1], ys[1]) == ("51–100", 2) and (xs[-1], ys[-1]) == ("451–500", 1)


@pytest.mark.parametrize("top", [1, 19, 20, 21, 99, 100, 101, 20_000, 20_002, 123_456])
def test_bin_width_is_the_smallest_round_width_that_fits(top):
    width = bin_width(top)
    assert -(-top // width) <= MAX_BINS
    rounds = sorted(s * 10 ** p for p in range(8) for s in (1, 2, 5))
    smaller = [w for w in rounds if w < width]
    assert not smaller or -(-top // smaller[-1]) > MAX_BINS


def test_the_versions_table_pages_a_chain(medium_an):
    pages = version_pages(medium_an, "c0_v5")
    assert pages == -(-MEDIUM // VERSION_PAGE) == 21
    frames = [chain_versions_page(medium_an, "c0_v0", p) for p in range(pages)]
    assert all(len(f) == VERSION_PAGE for f in frames[:-1])
    assert len(frames[-1]) == MEDIUM % VERSION_PAGE
    assert [i for f in frames for i in f["id"]] == medium_an.chains.chains[0].ids
    assert chain_versions_page(medium_an, "solo").empty


def test_exports_of_a_long_chain_parse_back_whole(medium_an):
    flat = flat_graph(medium_an)
    assert flat.number_of_nodes() == MEDIUM + 2
    assert flat.number_of_edges() == (MEDIUM - 1) + (MEDIUM + 1)  # updates + source
    back = nx.read_graphml(io.BytesIO(to_graphml(medium_an)), force_multigraph=True)
    assert dict(back.nodes(data=True)) == dict(flat.nodes(data=True))
    assert sorted(back.edges(keys=True)) == sorted(flat.edges(keys=True))
    gexf = nx.read_gexf(io.BytesIO(to_gexf(medium_an)))
    assert dict(gexf.nodes(data=True)) == dict(flat.nodes(data=True))
    assert sorted((u, v, d["id"]) for u, v, d in gexf.edges(data=True)) == sorted(
        flat.edges(keys=True))


def test_the_audit_page_pages_a_long_chain(fresh_data_dir):
    at = run_page("audit.py", **file_state("chain.json", chain_page([MEDIUM])))
    assert MEDIUM > MAX_PICKER_OPTIONS
    assert all(len(s.options) <= MAX_PICKER_OPTIONS for s in at.selectbox)
    tables = {len(d.value) for d in at.dataframe}
    assert VERSION_PAGE in tables and MEDIUM not in tables
    page = next(n for n in at.number_input if n.label.startswith("Page of versions"))
    older = next(n for n in at.number_input if n.label.startswith("Older version"))
    newer = next(n for n in at.number_input if n.label.startswith("Newer version"))
    assert (page.value, older.value, newer.value) == (1, 1, MEDIUM)
    assert "Versions 1–100 of 2,050." in [c.value for c in at.caption]
    page.set_value(21)
    older.set_value(2)
    at.run()
    assert not at.exception
    assert "Versions 2,001–2,050 of 2,050." in [c.value for c in at.caption]
    last = [d.value for d in at.dataframe if len(d.value) == MEDIUM % VERSION_PAGE]
    assert last and list(last[0]["id"]) == [f"c0_v{i}" for i in range(2000, MEDIUM)]
    # the picked version by its number and its words (no id)
    assert "v2 · Chain 0 note, revision 1" in [c.value for c in at.caption]


def bare_chain(n: int) -> dict[str, Any]:
    """A chain whose versions carry only id, text and parent: every one reads as latest
    and every version number is repaired (a finding each)."""
    entries = [{"id": f"b_v{i}", "memory": f"revision {i}",
                "parentMemoryId": f"b_v{i - 1}" if i else None} for i in range(n)]
    return {"documents": [{"id": "doc", "memoryEntries": entries}], "total": 1}


def test_a_finding_about_a_long_chain_stays_one_short_sentence():
    an = analyse(from_feed_pages([bare_chain(MEDIUM)]), NOW)
    several = [f for f in an.findings if f.kind == "multiple_latest"]
    assert len(several) == 1 and len(several[0].nodes) == MEDIUM  # every member kept
    assert len(several[0].message) < 300
    assert several[0].message.endswith(f"b_v9 and {MEDIUM - 10} more.")
    assert all(len(f.message) < 300 for f in an.findings)


def test_the_audit_page_links_a_bounded_number_of_a_findings_nodes(fresh_data_dir):
    at = run_page("audit.py", **file_state("bare.json", bare_chain(MEDIUM)))
    assert f"… and {MEDIUM - MAX_NODE_LINKS:,} more nodes." in [c.value for c in at.caption]
    assert len(at.get("page_link")) < MEDIUM // 5


def test_the_audit_page_lists_the_longest_chains_when_there_are_many(fresh_data_dir):
    lengths = [2] * (MAX_PICKER_OPTIONS + 50) + [7]
    at = run_page("audit.py", **file_state("many.json", chain_page(lengths)))
    picker = next(s for s in at.selectbox if s.label == "Chain")
    assert len(picker.options) == MAX_PICKER_OPTIONS
    assert picker.value == f"c{len(lengths) - 1}_v0"  # the longest chain comes first
    assert f"Lists the {MAX_PICKER_OPTIONS} longest of {len(lengths):,} chains." in [
        c.value for c in at.caption]
    chains = next(d.value for d in at.dataframe if "branches" in d.value.columns)
    assert len(chains) == len(lengths)  # the chains table has every chain


def test_the_explorer_panel_shows_the_versions_around_the_selected_one(fresh_data_dir):
    """A long chain's history in the node panel: a window around the selected version,
    said in a caption, not every version with its diff."""
    from components.sections.panels import HISTORY_SHOWN

    at = run_page("explorer.py", **file_state("chain.json", chain_page([MEDIUM]),
                                              **{session.SELECTED.name: "c0_v1000"}))
    versions = [b for b in at.button if str(b.key or "").startswith("hist-c0_v1000-")]
    assert len(versions) == HISTORY_SHOWN < MEDIUM
    assert any("◀ selected" in b.label for b in versions)
    assert f"Versions 976–1,025 of {MEDIUM:,}, around the selected one (the Audit page " \
           "pages through all of them)." in [c.value for c in at.caption]


@pytest.fixture(scope="module", params=["dated", "bare"])
def long_state(request) -> dict[str, Any]:
    """Session state that opens one 20,000-version chain as the app's snapshot file: its
    versions dated, or bare (every one reads as latest)."""
    return file_state("chain.json", chain_page([LONG]) if request.param == "dated"
                      else bare_chain(LONG))


def _bars(at: Any) -> list[int]:
    """How many x values each trace of each chart on the page draws."""
    return [len(trace.get("x") or ()) for chart in at.get("plotly_chart")
            for trace in json.loads(chart.proto.spec).get("data", [])]


@pytest.mark.parametrize("page", app_pages())
def test_every_page_holds_a_20000_version_chain(page, long_state, fresh_data_dir):
    """Every page opens on one 20,000-version chain (its versions dated, or bare): no
    error, every table listing at most TABLE_MAX rows, every chart binned."""
    at = run_page(page, **long_state)
    assert not [e.value for e in at.error], (page, [e.value for e in at.error])
    assert [len(f.value) for f in at.dataframe if len(f.value) > TABLE_MAX] == [], page
    assert [n for n in _bars(at) if n > BARS_MAX] == [], page
    if any(len(f.value) == TABLE_ROWS for f in at.dataframe):  # cut: and says so
        assert any("are listed; the CSV has every one" in c.value for c in at.caption), page


def test_the_compare_page_lists_the_first_rows_of_a_long_difference(fresh_data_dir):
    """On the bare chain the page's first comparison (live as of a past day against live
    now) differs in 19,999 records; the page lists the first TABLE_ROWS and says the CSV
    has every one."""
    at = run_page("compare.py", **file_state("bare.json", bare_chain(LONG)))
    sizes = [len(f.value) for f in at.dataframe]
    assert TABLE_ROWS in sizes, sizes
    captions = [c.value for c in at.caption if "are listed" in c.value]
    assert len(captions) == 1 and captions[0].startswith(f"The first {TABLE_ROWS:,} of "), \
        captions
    total = int(captions[0].split(" of ")[1].split(" ")[0].replace(",", ""))
    assert total > TABLE_ROWS
