"""The shared Supermemory fixtures (pages 1–3 as one dataset) read at 2026-11-30T12:00Z.

Every expected value below was written by hand from reading the fixture files, not by
running the code.
"""

from __future__ import annotations

import pytest
from conftest import NOW

from memscope.graph.analysis import analyse
from memscope.records.dataset import read_files
from memscope.reports.inspection import inspect_json

DOCS = {
    "doc_stack_2", "doc_trip", "doc_ml_reading", "doc_hostile", "doc_stack_1", "doc_health",
    "doc_dangling", "doc_empty", "doc_stack_0", "doc_coffee", "doc_bad_1", "doc_bad_2",
}
MEMS = {
    "mem_fe_v1", "mem_fe_v2", "mem_fe_v3", "mem_ts_course", "mem_trip", "mem_trip_hotel",
    "mem_reads_ml", "mem_is_mle", "mem_coffee_v1", "mem_coffee_v2", "mem_coffee_v2b",
    "mem_hostile", "mem_unicode", "mem_editor", "mem_allergy", "mem_run", "mem_orphan_child",
    "mem_weird_rel", "mem_ok_after_bad",
}
SOURCE_EDGES = {
    ("doc_stack_2", "mem_fe_v3"), ("doc_stack_2", "mem_ts_course"), ("doc_trip", "mem_trip"),
    ("doc_trip", "mem_trip_hotel"), ("doc_ml_reading", "mem_reads_ml"),
    ("doc_ml_reading", "mem_is_mle"), ("doc_ml_reading", "mem_coffee_v2"),
    ("doc_hostile", "mem_hostile"), ("doc_hostile", "mem_unicode"),
    ("doc_stack_1", "mem_fe_v2"), ("doc_stack_1", "mem_editor"), ("doc_health", "mem_allergy"),
    ("doc_health", "mem_run"), ("doc_dangling", "mem_orphan_child"),
    ("doc_dangling", "mem_weird_rel"), ("doc_stack_0", "mem_fe_v1"),
    ("doc_stack_0", "mem_editor"), ("doc_coffee", "mem_coffee_v1"),
    ("doc_coffee", "mem_coffee_v2b"), ("doc_bad_2", "mem_ok_after_bad"),
}
RELATION_EDGES = {
    ("mem_fe_v2", "mem_fe_v3", "updates"),
    ("mem_fe_v1", "mem_fe_v2", "updates"),
    ("mem_fe_v3", "mem_ts_course", "extends"),
    ("mem_trip", "mem_trip_hotel", "extends"),
    ("mem_reads_ml", "mem_is_mle", "derives"),
    ("mem_coffee_v1", "mem_coffee_v2", "updates"),
    ("mem_coffee_v1", "mem_coffee_v2b", "updates"),
    ("mem_editor", "mem_weird_rel", "updates"),  # unknown 'supersedes' read as updates
}


@pytest.fixture
def result(feed_paths):
    return inspect_json(analyse(read_files(feed_paths), NOW))


def test_exact_node_set(result):
    kinds = {n["id"]: n["kind"] for n in result["nodes"]}
    assert kinds == {**{d: "document" for d in DOCS}, **{m: "memory" for m in MEMS}}
    assert len(result["nodes"]) == len(DOCS) + len(MEMS)  # mem_editor once


def test_exact_edge_set_with_kinds(result):
    edges = [(e["source"], e["target"], e["kind"]) for e in result["edges"]]
    assert len(edges) == len(set(edges))
    assert {(s, t) for s, t, k in edges if k == "source"} == SOURCE_EDGES
    assert {e for e in edges if e[2] != "source"} == RELATION_EDGES


def test_memory_under_two_documents_is_one_node(result):
    editor = next(n for n in result["nodes"] if n["id"] == "mem_editor")
    assert editor["documents"] == ["doc_stack_1", "doc_stack_0"]


def test_states_at_injected_now(result):
    states = {n["id"]: n["state"] for n in result["nodes"] if n["kind"] == "memory"}
    special = {
        "mem_allergy": "forgotten", "mem_run": "expired", "mem_fe_v1": "superseded",
        "mem_fe_v2": "superseded", "mem_coffee_v1": "superseded",
    }
    assert states == {m: special.get(m, "latest") for m in MEMS}
    static = {n["id"] for n in result["nodes"] if n["static"]}
    assert static == {"mem_fe_v3", "mem_editor", "mem_allergy"}


def test_chains_with_display_versions_and_branches(result):
    chains = {tuple(e["id"] for e in c): c for c in result["chains"]}
    assert set(chains) == {
        ("mem_fe_v1", "mem_fe_v2", "mem_fe_v3"),
        ("mem_coffee_v1", "mem_coffee_v2", "mem_coffee_v2b"),  # siblings by createdAt
        ("mem_orphan_child",),  # parent not loaded: incomplete chain
    }
    fe = chains[("mem_fe_v1", "mem_fe_v2", "mem_fe_v3")]
    assert [(e["version"], e["parent"]) for e in fe] == [
        (1, None), (2, "mem_fe_v1"), (3, "mem_fe_v2")]
    coffee = chains[("mem_coffee_v1", "mem_coffee_v2", "mem_coffee_v2b")]
    assert [e["version"] for e in coffee] == [1, 2, 2]


def test_findings(result):
    found = {(f["kind"], tuple(f["nodes"])) for f in result["findings"]}
    assert found == {
        ("dangling_parent", ("mem_orphan_child",)),
        ("branch", ("mem_coffee_v1", "mem_coffee_v2", "mem_coffee_v2b")),
        ("multiple_latest", ("mem_coffee_v2", "mem_coffee_v2b")),
        ("forgotten_latest", ("mem_allergy",)),
        ("expired_not_forgotten", ("mem_run",)),
        ("unknown_relation", ("mem_weird_rel", "mem_editor")),
        ("updates_contradicts_parent", ("mem_editor", "mem_weird_rel")),
    }
    assert all(f["message"].endswith(".") for f in result["findings"])
    dangling = next(f for f in result["findings"] if f["kind"] == "dangling_parent")
    assert "mem_not_loaded" in dangling["message"]


def test_skipped_records(result):
    assert result["skipped"] == [
        {"record": "doc_bad_2/memoryEntries[0]", "reason": "memory entry has no id"}]


def test_hostile_and_unicode_text_kept_verbatim(feed_paths):
    ds = read_files(feed_paths)
    assert ds.documents["doc_hostile"].title == "<img src=x onerror=alert('title')>"
    assert ds.memories["mem_hostile"].memory.startswith("<script>alert('memory')</script>")
    assert ds.memories["mem_unicode"].memory == "喜欢喝乌龙茶 🍵 — naïve café ørsted"


def test_page_order_does_not_matter(feed_paths):
    forward = inspect_json(analyse(read_files(feed_paths), NOW))
    backward = inspect_json(analyse(read_files(list(reversed(feed_paths))), NOW))
    key = lambda r: (  # noqa: E731
        sorted((n["id"], n["state"]) for n in r["nodes"]),
        sorted((e["source"], e["target"], e["kind"]) for e in r["edges"]),
        sorted(tuple(e["id"] for e in c) for c in r["chains"]),
    )
    assert key(forward) == key(backward)


def test_spomory_passport_graph():
    from conftest import SP

    result = inspect_json(analyse(read_files([SP / "export_response.json"]), NOW))
    assert {n["id"] for n in result["nodes"]} == {"e_zs", "e_co", "e_bj", "e_py", "e_x"}
    assert {n["kind"] for n in result["nodes"]} == {"entity"}
    assert {(e["source"], e["target"], e["kind"]) for e in result["edges"]} == {
        ("e_zs", "e_co", "relation"), ("e_zs", "e_bj", "relation"),
        ("e_zs", "e_py", "relation"), ("e_x", "e_zs", "relation")}
    assert [(f["kind"], f["nodes"]) for f in result["findings"]] == [
        ("dangling_relation", ["e_zs"])]
    assert "e_missing" in result["findings"][0]["message"]
