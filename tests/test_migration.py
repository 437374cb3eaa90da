"""memscope.reports.migration: the v4 ↔ v5 comparison of two loads, on planted differences
of every kind and on an identical pair."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from memscope.records.dataset import Dataset, from_feed_pages
from memscope.records.text import counted
from memscope.reports.migration import (
    KIND_WORDS,
    ROW_KINDS,
    Difference,
    MigrationReport,
    compare,
)
from memscope.sources.results import LoadResult


def _page() -> dict[str, Any]:
    """Two documents; a chain a → b → c, a detail x extending a, an inference y from b."""
    return {"documents": [
        {"id": "d1", "title": "One", "memoryEntries": [
            {"id": "a", "memory": "Maya likes tea.", "version": 1, "isLatest": False},
            {"id": "b", "memory": "Maya likes green tea.", "version": 2,
             "parentMemoryId": "a", "isLatest": False},
            {"id": "c", "memory": "Maya likes oolong.", "version": 3, "parentMemoryId": "b"},
        ]},
        {"id": "d2", "title": "Two", "memoryEntries": [
            {"id": "x", "memory": "Every morning.", "memoryRelations": {"a": "extends"}},
            {"id": "y", "memory": "Maya may visit Taiwan.", "isInference": True,
             "memoryRelations": {"b": "derives"}},
            {"id": "z", "memory": "Maya lives in Lisbon."},
        ]},
    ]}


def _ds(page: dict[str, Any]) -> Dataset:
    return from_feed_pages([page])


def _entry(page: dict[str, Any], mem_id: str) -> dict[str, Any]:
    return next(e for d in page["documents"] for e in d["memoryEntries"] if e["id"] == mem_id)


def _rows(report: MigrationReport) -> list[tuple[str, str, Any, Any]]:
    return [(r.kind, r.id, r.legacy, r.v5) for r in report.rows]


def test_an_identical_pair_says_so_in_one_sentence() -> None:
    report = compare(_ds(_page()), _ds(_page()))
    assert report.identical and report.rows == () and report.node_ids() == set()
    assert report.sentence() == (
        "The legacy (v3/v4) and current (v5) APIs return the same 6 memories, 2 documents "
        "and 4 chain edges for all spaces.")  # no space chosen: every space
    assert report.legacy == report.v5
    out = json.loads(json.dumps(report.as_json()))
    assert out["identical"] is True and out["rows"] == [] and out["differences"] == {}
    assert out["counts"]["v5"] == {"memories": 6, "documents": 2, "edges": 4}


def test_a_stored_version_written_differently_is_the_same_version() -> None:
    v5 = _page()
    _entry(v5, "b")["version"] = "2"
    _entry(v5, "c")["version"] = 3.0
    assert compare(_ds(_page()), _ds(v5)).identical


def _planted(change: str) -> dict[str, Any]:
    """The v5 side with one planted difference."""
    page = _page()
    docs = page["documents"]
    if change == "memory_v5_lacks":
        docs[1]["memoryEntries"] = [e for e in docs[1]["memoryEntries"] if e["id"] != "z"]
    elif change == "memory_legacy_lacks":
        docs[1]["memoryEntries"].append({"id": "new", "memory": "Only v5 has me."})
    elif change == "text":
        _entry(page, "z")["memory"] = "Maya lives in Porto."
    elif change == "version":
        _entry(page, "c")["version"] = 4
    elif change == "latest":
        _entry(page, "z")["isLatest"] = False
    elif change == "forgotten":
        _entry(page, "z")["isForgotten"] = True
    elif change == "edge":
        _entry(page, "x")["memoryRelations"] = {"a": "derives"}
    elif change == "document":
        docs.append({"id": "d3", "title": "Empty", "memoryEntries": []})
    return page


@pytest.mark.parametrize(("change", "expected"), [
    ("memory_v5_lacks", [("memory", "z", "present", "missing")]),
    ("memory_legacy_lacks", [("memory", "new", "missing", "present")]),
    ("text", [("text", "z", "Maya lives in Lisbon.", "Maya lives in Porto.")]),
    ("version", [("version", "c", 3, 4)]),
    ("latest", [("latest", "z", True, False)]),
    ("forgotten", [("forgotten", "z", False, True)]),
    ("edge", [("edge", "a → x (derives)", "missing", "present"),
              ("edge", "a → x (extends)", "present", "missing")]),
    ("document", [("document", "d3", "missing", "present")]),
])
def test_each_planted_difference_is_one_row_of_its_kind(change: str, expected: list) -> None:
    legacy, v5 = _ds(_page()), _ds(_planted(change))
    before = copy.deepcopy((legacy.memories, v5.memories))
    report = compare(legacy, v5, space="sm_personal")
    assert _rows(report) == expected
    assert not report.identical
    assert (legacy.memories, v5.memories) == before  # the inputs are not changed
    kind = expected[0][0]
    assert report.by_kind() == {kind: len(expected)}
    assert report.sentence().startswith(
        "The legacy (v3/v4) and current (v5) APIs differ for this space: "
        f"{len(expected)} difference")
    assert f"{counted(len(expected), *KIND_WORDS[kind])})" in report.sentence()
    ids = {n for row in report.rows for n in row.nodes}
    assert report.node_ids() == ids and ids
    if kind == "edge":
        assert ids == {"a", "x"}
    elif kind != "document":
        assert ids == {expected[0][1]}
    # the other way round, the sides swap
    back = compare(v5, legacy)
    assert [(r.kind, r.id, r.v5, r.legacy) for r in back.rows] == [
        (k, i, legacy_value, v5_value) for k, i, legacy_value, v5_value in expected]


def test_a_missing_memory_drops_its_chain_edges_too() -> None:
    v5 = _page()
    v5["documents"][0]["memoryEntries"].pop(1)  # b: the middle of the chain
    rows = _rows(compare(_ds(_page()), _ds(v5)))
    assert rows == [("memory", "b", "present", "missing"),
                    ("edge", "a → b (updates)", "present", "missing"),
                    ("edge", "b → c (updates)", "present", "missing"),
                    ("edge", "b → y (derives)", "present", "missing")]


def test_several_differences_come_kind_by_kind() -> None:
    v5 = _planted("text")
    _entry(v5, "a")["isLatest"] = True
    _entry(v5, "c")["version"] = 7
    v5["documents"][1]["memoryEntries"].append({"id": "extra", "memory": "new"})
    report = compare(_ds(_page()), _ds(v5))
    kinds = [r.kind for r in report.rows]
    assert kinds == sorted(kinds, key=ROW_KINDS.index)
    assert report.by_kind() == {"memory": 1, "text": 1, "version": 1, "latest": 1}
    assert ("4 differences (1 memory only one API returns, 1 changed text, 1 different "
            "version number, 1 different latest flag)") in report.sentence()


def test_loads_and_presenter_mode() -> None:
    legacy = LoadResult(_ds(_page()), "supermemory", "legacy")
    v5 = LoadResult(_ds(_planted("text")), "supermemory", "v5")
    report = compare(legacy, v5)
    masked = report.masked()
    (row,) = masked.rows
    assert row.id == "z" and row.nodes == ("z",)
    assert "Lisbon" not in json.dumps(masked.as_json())
    assert "Porto" not in json.dumps(masked.as_json())
    assert row.legacy == "Memory text (21 chars)" and row.v5 == "Memory text (20 chars)"
    assert "Lisbon" in json.dumps(report.as_json())  # the unmasked report is unchanged
    flags = compare(_ds(_page()), _ds(_planted("latest"))).masked().rows
    assert flags == (Difference("latest", "z", True, False, ("z",)),)
