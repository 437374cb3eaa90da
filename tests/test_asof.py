"""As-of time travel and the two-date comparison, on the fixtures and hand-built cases.

Expected values are read off the fixture files by hand (createdAt/updatedAt of each
record), not produced by the code under test.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from conftest import NOW, SM, SP

from memscope.graph.analysis import analyse
from memscope.lenses.asof import as_of, compare, forgotten_at
from memscope.records.dataset import Dataset, from_feed_pages, read_files
from memscope.records.time import day_end
from memscope.view.build import build_view
from memscope.view.colors import CHANGE_COLORS
from memscope.view.paint import UNCHANGED_OPACITY, mark_changes

NOV12 = datetime(2026, 11, 12, tzinfo=UTC)
NOV16_NOON = datetime(2026, 11, 16, 12, tzinfo=UTC)
NOV23 = datetime(2026, 11, 23, tzinfo=UTC)

# created on or before 2026-11-12 (page 2: fe_v2 11-10, editor 11-09, allergy 11-08,
# run 11-08, orphan_child 11-07, weird_rel 11-07; page 3: fe_v1 11-02, coffee_v1 11-01,
# ok_after_bad 11-01)
MEMORIES_NOV12 = {"mem_fe_v2", "mem_editor", "mem_allergy", "mem_run", "mem_orphan_child",
                  "mem_weird_rel", "mem_fe_v1", "mem_coffee_v1", "mem_ok_after_bad"}
# page 1's four documents are from 11-14 … 11-20; the rest are from 11-10 or earlier
DOCUMENTS_NOV12 = {"doc_stack_1", "doc_health", "doc_dangling", "doc_empty", "doc_stack_0",
                   "doc_coffee", "doc_bad_1", "doc_bad_2"}


@pytest.fixture(scope="module")
def ds():
    return read_files([SM / f"documents_page{i}.json" for i in (1, 2, 3)])


def test_as_of_drops_what_came_later_and_recomputes_latest(ds):
    past = as_of(ds, NOV12)
    assert set(past.memories) == MEMORIES_NOV12
    assert set(past.documents) == DOCUMENTS_NOV12
    # fe_v2's child fe_v3 came on 11-20: fe_v2 was the latest then; fe_v1 was not
    assert past.memories["mem_fe_v2"].is_latest is True
    assert past.memories["mem_fe_v1"].is_latest is False
    # coffee_v1's children came on 11-15 and 11-16: on 11-12 it was the latest
    assert past.memories["mem_coffee_v1"].is_latest is True
    assert all(m.is_latest for k, m in past.memories.items() if k != "mem_fe_v1")
    # documents keep only memories that existed; a document that lost all stays
    assert past.documents["doc_coffee"].memory_ids == ["mem_coffee_v1"]
    assert past.memory_documents["mem_editor"] == ["doc_stack_1", "doc_stack_0"]
    # allergy was forgotten on 11-08 (its updatedAt): still forgotten, with its reason
    assert past.memories["mem_allergy"].is_forgotten is True
    assert past.memories["mem_allergy"].forget_reason == "user asked to remove medical data"


def test_as_of_never_changes_its_input(ds):
    before = {k: (m.is_latest, m.is_forgotten, dict(m.relations or {}))
              for k, m in ds.memories.items()}
    docs = {k: list(d.memory_ids) for k, d in ds.documents.items()}
    past = as_of(ds, NOV12)
    past.memories["mem_fe_v2"].memory = "changed"
    assert {k: (m.is_latest, m.is_forgotten, dict(m.relations or {}))
            for k, m in ds.memories.items()} == before
    assert {k: d.memory_ids for k, d in ds.documents.items()} == docs
    assert ds.memories["mem_fe_v2"].memory == "Prefers React for frontend work."
    assert len(ds.memories) == 19


def test_analysis_as_of_judges_states_and_chains_at_that_date(ds):
    an = analyse(as_of(ds, NOV12), now=NOV12)
    assert an.state("mem_fe_v1") == "superseded"
    assert an.state("mem_fe_v2") == "latest"
    assert an.state("mem_allergy") == "forgotten"
    assert an.state("mem_run") == "latest"  # forgetAfter 11-29 is 17 days away
    chain = an.chains.of("mem_fe_v2")
    assert chain is not None and chain.ids == ["mem_fe_v1", "mem_fe_v2"]
    assert an.chains.of("mem_coffee_v1") is None  # no later version yet
    kinds = {f.kind for f in an.findings}
    assert "expired_not_forgotten" not in kinds and "branch" not in kinds


def test_expiry_and_latest_move_with_the_date(ds):
    an = analyse(as_of(ds, NOV16_NOON), now=NOV16_NOON)
    assert len(an.dataset.memories) == 15  # + reads_ml, is_mle, coffee_v2, hostile, unicode, v2b
    assert an.state("mem_coffee_v1") == "superseded"
    assert {f.kind: f.nodes for f in an.findings}["multiple_latest"] == [
        "mem_coffee_v2", "mem_coffee_v2b"]
    later = analyse(as_of(ds, NOV23), now=NOV23)
    assert len(later.dataset.memories) == 19  # the newest memory is from 11-20
    assert later.state("mem_run") == "expiring"  # 11-29 is within 7 days of 11-23
    assert later.state("mem_fe_v2") == "superseded"
    assert later.state("mem_fe_v3") == "latest"
    assert analyse(as_of(ds, NOW), now=NOW).state("mem_run") == "expired"


def _one_doc(*entries: dict) -> Dataset:
    return from_feed_pages([{"documents": [{"id": "d", "createdAt": "2026-01-01T00:00:00Z",
                                            "memoryEntries": list(entries)}]}])


def test_forgetting_is_judged_at_its_time():
    ds = _one_doc(
        {"id": "a", "memory": "x", "isForgotten": True, "forgetReason": "wrong",
         "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-03-01T00:00:00Z"},
        {"id": "b", "memory": "y", "isForgotten": True, "forgottenAt": "2026-02-01T00:00:00Z",
         "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-04-01T00:00:00Z"},
        {"id": "c", "memory": "z", "isForgotten": True, "createdAt": "2026-01-01T00:00:00Z"})
    feb = as_of(ds, datetime(2026, 2, 15, tzinfo=UTC))
    assert (feb.memories["a"].is_forgotten, feb.memories["a"].forget_reason) == (False, None)
    assert feb.memories["b"].is_forgotten is True  # forgottenAt wins over updatedAt
    assert feb.memories["c"].is_forgotten is True  # no updatedAt: createdAt
    mar = as_of(ds, datetime(2026, 3, 1, tzinfo=UTC))  # the boundary counts
    assert (mar.memories["a"].is_forgotten, mar.memories["a"].forget_reason) == (True, "wrong")
    assert forgotten_at(ds.memories["b"]) == datetime(2026, 2, 1, tzinfo=UTC)
    assert forgotten_at(_one_doc({"id": "n", "memory": "n"}).memories["n"]) is None


def test_latest_rule_edge_cases():
    ds = _one_doc(
        # superseded by a version that was never loaded: stays superseded
        {"id": "lone", "memory": "x", "isLatest": False, "createdAt": "2026-01-01T00:00:00Z"},
        # a child without createdAt always existed: the parent is never latest
        {"id": "p", "memory": "p", "isLatest": True, "createdAt": "2026-01-01T00:00:00Z"},
        {"id": "q", "memory": "q", "parentMemoryId": "p"},
        # no createdAt at all: kept at any date
        {"id": "undated", "memory": "u"},
        # a relation that points forward in time is removed; one to a never-loaded id stays
        {"id": "r", "memory": "r", "createdAt": "2026-01-01T00:00:00Z",
         "memoryRelations": {"s": "extends", "ghost": "derives"}},
        {"id": "s", "memory": "s", "createdAt": "2026-03-01T00:00:00Z"})
    feb = as_of(ds, datetime(2026, 2, 1, tzinfo=UTC))
    assert feb.memories["lone"].is_latest is False
    assert feb.memories["p"].is_latest is False
    assert "undated" in feb.memories and "q" in feb.memories
    assert feb.memories["r"].relations == {"ghost": "derives"}
    assert ds.memories["r"].relations == {"s": "extends", "ghost": "derives"}
    before = as_of(ds, datetime(2025, 1, 1, tzinfo=UTC))
    assert set(before.memories) == {"q", "undated"} and not before.documents


def test_naive_dates_are_utc_and_day_end_covers_the_day(ds):
    assert set(as_of(ds, datetime(2026, 11, 12)).memories) == MEMORIES_NOV12
    end = day_end(date(2026, 11, 15))
    assert "mem_coffee_v2" in as_of(ds, end).memories  # created 11-15 13:00
    assert "mem_coffee_v2b" not in as_of(ds, end).memories  # 11-16


def test_spomory_as_of():
    ds = read_files([SP / "passport.json"])
    past = as_of(ds, datetime(2026, 11, 3, 12, tzinfo=UTC))
    assert len(past.entities) == 5  # all created 11-02
    assert set(past.relations) == {"r1", "r2"}  # r3 11-04, r4/r5 11-05
    assert not as_of(ds, datetime(2026, 11, 1, tzinfo=UTC)).entities


def test_compare_between_two_dates(ds):
    c = compare(ds, NOV12, NOV16_NOON)
    assert c.added == ["mem_reads_ml", "mem_is_mle", "mem_hostile", "mem_unicode"]
    assert c.updated == ["mem_coffee_v2", "mem_coffee_v2b"]
    assert c.pairs == [("mem_coffee_v1", "mem_coffee_v2"), ("mem_coffee_v1", "mem_coffee_v2b")]
    assert c.forgotten == []
    assert c.counts() == {"added": 4, "updated": 2, "forgotten": 0}


def test_compare_lists_new_versions_and_forgetting(ds):
    c = compare(ds, datetime(2026, 11, 1, tzinfo=UTC), NOV12)
    assert c.added == ["mem_editor", "mem_allergy", "mem_run", "mem_weird_rel", "mem_fe_v1",
                       "mem_coffee_v1", "mem_ok_after_bad"]
    assert c.updated == ["mem_fe_v2", "mem_orphan_child"]
    assert c.replaced == {"mem_fe_v2": "mem_fe_v1", "mem_orphan_child": "mem_not_loaded"}
    assert c.forgotten == ["mem_allergy"]  # created 11-08 and forgotten the same moment
    assert c.change_of("mem_allergy") == "forgotten"
    assert c.change_of("mem_fe_v2") == "updated"
    assert c.change_of("mem_run") == "added"
    assert c.change_of("doc_health") is None
    to_now = compare(ds, NOV12, NOW)
    assert to_now.added == ["mem_ts_course", "mem_trip", "mem_trip_hotel", "mem_reads_ml",
                            "mem_is_mle", "mem_hostile", "mem_unicode"]
    assert to_now.updated == ["mem_fe_v3", "mem_coffee_v2", "mem_coffee_v2b"]
    with pytest.raises(ValueError, match="must not be after"):
        compare(ds, NOW, NOV12)


def test_mark_changes_colours_the_graph(ds):
    c = compare(ds, NOV12, NOV16_NOON)
    view = build_view(analyse(as_of(ds, NOV16_NOON), now=NOV16_NOON))
    before = [dict(n) for n in view["nodes"]]
    marked = {n["id"]: n for n in mark_changes(view, c)["nodes"]}
    assert [dict(n) for n in view["nodes"]] == before  # the input view is untouched
    assert marked["mem_hostile"].get("change") == "added"
    assert marked["mem_hostile"]["color"]["background"] == CHANGE_COLORS["added"]
    assert marked["mem_coffee_v2b"].get("change") == "updated"
    assert marked["mem_editor"].get("opacity") == UNCHANGED_OPACITY
    assert "change" not in marked["doc_health"]
