"""The one comparison of two datasets (memscope.lenses.compare) and its CSV file.

Expected differences are written by hand from the pages each test builds; the as-of
test checks the comparison against the other owner of time (lenses.asof.compare).
"""

from __future__ import annotations

import copy
import csv
import io
import json
from datetime import UTC, datetime
from typing import Any

import pytest
from conftest import SM, SP

from memscope.export.compare import TEXT_MAX, comparison_csv
from memscope.lenses.asof import as_of
from memscope.lenses.asof import compare as compare_instants
from memscope.lenses.compare import KINDS, DatasetDiff, compare, compare_moments
from memscope.records.dataset import Dataset, from_feed_pages, read_files
from memscope.sources import FileSource, snapshot_bytes


def _page() -> dict[str, Any]:
    """A chain a → b (b latest), a detail x extending b, a plain memory z; two documents."""
    return {"documents": [
        {"id": "d1", "title": "Tea notes", "memoryEntries": [
            {"id": "a", "memory": "Maya likes tea.", "version": 1, "isLatest": False},
            {"id": "b", "memory": "Maya likes green tea.", "version": 2,
             "parentMemoryId": "a", "isLatest": True},
        ]},
        {"id": "d2", "title": "Home", "memoryEntries": [
            {"id": "x", "memory": "Every morning.", "memoryRelations": {"b": "extends"}},
            {"id": "z", "memory": "Maya lives in Lisbon.", "version": 1},
        ]},
    ]}


def _ds(page: dict[str, Any]) -> Dataset:
    return from_feed_pages([page])


def _entry(page: dict[str, Any], mem_id: str) -> dict[str, Any]:
    return next(e for d in page["documents"] for e in d["memoryEntries"] if e["id"] == mem_id)


def _summary(diff: DatasetDiff) -> list[tuple[str, str, str, list[tuple[str, Any, Any]]]]:
    return [(d.change, d.record, d.id, [(f.field, f.a, f.b) for f in d.fields])
            for d in diff.differences]


def test_the_same_data_on_both_sides_is_identical() -> None:
    diff = compare(_ds(_page()), _ds(_page()))
    assert diff.identical and diff.differences == ()
    assert diff.sentence() == ("A and B hold the same 4 memories, 2 documents and 2 chain "
                               "edges.")
    assert diff.counts() == dict.fromkeys(KINDS, 0)


@pytest.mark.parametrize(("field", "edit", "before", "after"), [
    ("text", lambda p: _entry(p, "z").update(memory="Maya lives in Porto."),
     "Maya lives in Lisbon.", "Maya lives in Porto."),
    ("version", lambda p: _entry(p, "z").update(version=3), 1, 3),
    ("latest", lambda p: _entry(p, "z").update(isLatest=False), True, False),
    ("forgotten", lambda p: _entry(p, "z").update(isForgotten=True), False, True),
])
def test_each_field_of_a_memory_is_one_change(field, edit, before, after) -> None:
    page = _page()
    edit(page)
    a, b = _ds(_page()), _ds(page)
    kept = copy.deepcopy((a.memories, b.memories))
    diff = compare(a, b)
    assert _summary(diff) == [("changed", "memory", "z", [(field, before, after)])]
    assert (a.memories, b.memories) == kept  # the inputs are not changed
    assert diff.counts()[f"changed: {field}"] == 1 and sum(diff.counts().values()) == 1
    assert diff.node_changes() == {"z": "changed"}
    assert diff.sentence(("the snapshot", "live now")) == (
        f"live now differs from the snapshot in 1 record: 1 changed (1 {field}).")
    (row,) = diff.rows()
    assert (row.change, row.id, row.field, row.a, row.b) == ("changed", "z", field, before,
                                                             after)


def test_a_version_written_differently_is_the_same_version() -> None:
    page = _page()
    _entry(page, "b")["version"] = "2"
    _entry(page, "z")["version"] = 1.0
    assert compare(_ds(_page()), _ds(page)).identical


def test_a_memory_and_a_document_only_on_one_side() -> None:
    page = _page()
    page["documents"][1]["memoryEntries"] = [e for e in page["documents"][1]["memoryEntries"]
                                             if e["id"] != "z"]
    page["documents"].append({"id": "d3", "title": "Work", "memoryEntries": [
        {"id": "w", "memory": "Maya works at Fathom."}]})
    page["documents"][0]["title"] = "Tea"
    diff = compare(_ds(_page()), _ds(page))
    assert _summary(diff) == [
        ("added", "memory", "w", []),
        ("removed", "memory", "z", []),
        ("changed", "document", "d1", [("title", "Tea notes", "Tea")]),
        ("added", "document", "d3", []),
    ]
    added, removed = diff.differences[0], diff.differences[1]
    assert (added.a_text, added.b_text) == (None, "Maya works at Fathom.")
    assert (removed.a_text, removed.b_text) == ("Maya lives in Lisbon.", None)
    assert diff.node_changes() == {"w": "added", "z": "removed", "d1": "changed",
                                   "d3": "added"}
    # the other way round, added and removed swap
    back = compare(_ds(page), _ds(_page()))
    assert [(d.change, d.id) for d in back.differences] == [
        ("removed", "w"), ("added", "z"), ("changed", "d1"), ("removed", "d3")]
    assert diff.counts()["added"] == 2 and diff.counts()["removed"] == 1


def test_a_re_versioned_chain() -> None:
    """A new version c of b: c is added, b is no longer the latest, the chain grows."""
    page = _page()
    _entry(page, "b")["isLatest"] = False
    page["documents"][0]["memoryEntries"].append(
        {"id": "c", "memory": "Maya likes oolong.", "version": 3, "parentMemoryId": "b",
         "isLatest": True})
    diff = compare(_ds(_page()), _ds(page))
    assert _summary(diff) == [
        ("changed", "memory", "b", [("latest", True, False)]),
        ("added", "memory", "c", []),
        ("added", "edge", "b → c (updates)", []),
    ]
    assert diff.differences[2].nodes == ("b", "c")
    assert diff.node_changes() == {"b": "changed", "c": "added"}
    assert (diff.a.edges, diff.b.edges) == (2, 3)
    assert diff.of_kinds(["changed: latest"]) == (diff.differences[0],)
    assert [d.id for d in diff.of_kinds(["added"])] == ["c", "b → c (updates)"]


def test_a_relation_kind_that_changed_is_one_edge_out_and_one_in() -> None:
    page = _page()
    _entry(page, "x")["memoryRelations"] = {"b": "derives"}
    diff = compare(_ds(_page()), _ds(page))
    assert [(d.change, d.id) for d in diff.differences] == [
        ("added", "b → x (derives)"), ("removed", "b → x (extends)")]
    assert diff.node_changes() == {"b": "changed", "x": "changed"}


def test_spomory_entities_and_facts() -> None:
    a = read_files([SP / "passport.json"])
    raw = json.loads((SP / "passport.json").read_text(encoding="utf-8"))
    gone = raw["relations"].pop(0)
    raw["entities"][0]["name"] = "Somebody else"
    b = FileSource.from_bytes([("p.json", json.dumps(raw).encode())]).load().dataset
    diff = compare(a, b)
    changes = [(d.change, d.record, d.id) for d in diff.differences]
    assert ("removed", "fact", gone["id"]) in changes
    assert ("changed", "entity", raw["entities"][0]["id"]) in changes
    fact = next(d for d in diff.differences if d.record == "fact")
    assert fact.nodes == (gone["subject_id"], gone["object_id"])
    assert fact.a_text is not None and gone["predicate"] in fact.a_text
    assert diff.counts()["changed: name"] == 1


def _instants() -> tuple[Dataset, datetime, datetime]:
    ds = read_files([SM / f"documents_page{i}.json" for i in (1, 2, 3)])
    return ds, datetime(2026, 11, 12, tzinfo=UTC), datetime(2026, 11, 23, tzinfo=UTC)


def test_as_of_a_against_as_of_b_agrees_with_the_as_of_lens() -> None:
    ds, t1, t2 = _instants()
    diff = compare_moments(ds, t1, t2)
    other = compare_instants(ds, t1, t2)
    then = as_of(ds, t1).memories
    mem = [d for d in diff.differences if d.record == "memory"]
    added = {d.id for d in mem if d.change == "added"}
    assert added == set(other.added) | set(other.updated) and added
    assert not [d for d in mem if d.change == "removed"]  # time only adds records
    forgotten = {d.id for d in mem for f in d.fields if f.field == "forgotten"
                 and (f.a, f.b) == (False, True)}
    assert forgotten == set(other.forgotten) & set(then)
    assert not [f for d in mem for f in d.fields if f.field == "forgotten" and f.b is False]
    # a version replaced in the window was the latest at t1 and is not at t2
    no_longer = {d.id for d in mem for f in d.fields if f.field == "latest"
                 and (f.a, f.b) == (True, False)}
    replaced = {old for old, _new in other.pairs if old in then and then[old].is_latest}
    assert no_longer == replaced and no_longer
    assert diff.a.memories == len(then) and diff.b.memories == len(as_of(ds, t2).memories)


def test_the_csv_file_bounds_texts_and_defuses_formulas() -> None:
    page = _page()
    _entry(page, "z")["memory"] = "=HYPERLINK(\"http://x\")" + "a" * 5000
    page["documents"].append({"id": "d9", "title": "+cmd|' /C calc'!A0\nsecond line",
                              "memoryEntries": []})
    diff = compare(_ds(_page()), _ds(page))
    rows = list(csv.reader(io.StringIO(comparison_csv(diff, ("snapshot", "live")).decode())))
    assert rows[0] == ["change", "record", "id", "field", "snapshot", "live"]
    body = {(r[0], r[1], r[2], r[3]): r for r in rows[1:]}
    text_row = body[("changed", "memory", "z", "text")]
    assert text_row[4] == "Maya lives in Lisbon."
    assert text_row[5].startswith("'=HYPERLINK") and len(text_row[5]) <= TEXT_MAX + 1
    title = body[("added", "document", "d9", "")]
    assert title[4] == "" and title[5].startswith("'+cmd") and "\n" not in title[5]
    only = list(csv.reader(io.StringIO(comparison_csv(diff, kinds=["added"]).decode())))
    assert [r[2] for r in only[1:]] == ["d9"]


def test_presenter_mode_masks_every_text_and_keeps_ids_and_flags() -> None:
    page = _page()
    _entry(page, "z")["memory"] = "Maya lives in Porto."
    _entry(page, "x")["isForgotten"] = True
    page["documents"].append({"id": "d3", "title": "Secret diary", "memoryEntries": [
        {"id": "s", "memory": "A private thought."}]})
    diff = compare(_ds(_page()), _ds(page))
    masked = diff.masked()
    blob = comparison_csv(masked).decode() + repr(masked)
    for text in ("Porto", "Lisbon", "Secret diary", "private thought", "Every morning"):
        assert text not in blob
    assert [(d.change, d.id) for d in masked.differences] == \
        [(d.change, d.id) for d in diff.differences]
    z = next(d for d in masked.differences if d.id == "z")
    assert (z.fields[0].a, z.fields[0].b) == ("Memory text (21 chars)", "Memory text (20 chars)")
    x = next(d for d in masked.differences if d.id == "x")
    assert (x.fields[0].field, x.fields[0].a, x.fields[0].b) == ("forgotten", False, True)
    assert "Porto" in repr(diff)  # the unmasked comparison is unchanged


def test_hostile_input_compares_without_raising() -> None:
    hostile = {"documents": [{"id": "d,\n\"1", "title": "<script>alert(1)</script>",
                              "memoryEntries": [
        {"id": "m\u202e1", "memory": "\u0000" + "x" * 1_000_000, "version": [1, 2]},
        {"id": "m2", "memory": None, "version": True, "parentMemoryId": "m2"},
        {"id": "m3", "memory": "loop", "parentMemoryId": "m4"},
        {"id": "m4", "memory": "loop", "parentMemoryId": "m3"}]}]}
    a = _ds(hostile)
    other = copy.deepcopy(hostile)
    other["documents"][0]["memoryEntries"][0]["version"] = "[1, 2]"
    other["documents"][0]["memoryEntries"].pop()
    diff = compare(a, _ds(other))
    assert ("removed", "memory", "m4") in [(d.change, d.record, d.id) for d in diff.differences]
    out = comparison_csv(diff).decode()
    rows = list(csv.reader(io.StringIO(out)))
    assert all(len(r) == 6 for r in rows) and len(rows) == len(diff.rows()) + 1
    assert max(len(c) for r in rows for c in r) <= TEXT_MAX + 1
    assert compare(a, a).identical
    assert compare(Dataset(), Dataset()).identical
    both_ways = compare(Dataset(), a)
    assert {d.change for d in both_ways.differences} == {"added"}


def test_a_snapshot_compared_with_itself_is_identical() -> None:
    ds = read_files([SM / f"documents_page{i}.json" for i in (1, 2, 3)])
    again = FileSource.from_bytes([("s.json", snapshot_bytes(ds))]).load().dataset
    assert compare(ds, again).identical


def test_a_side_s_own_graph_gives_the_same_comparison() -> None:
    from memscope.graph.analysis import analyse

    ds, t1, t2 = _instants()
    a, b = as_of(ds, t1), as_of(ds, t2)
    built = compare(a, b)
    given = compare(a, b, graph_a=analyse(a).graph.graph, graph_b=analyse(b).graph.graph)
    assert given == built and any(d.record == "edge" for d in built.differences)
