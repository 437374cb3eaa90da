"""Word diffs, filters, local search and the forget impact preview, on the fixtures."""

from __future__ import annotations

from datetime import date

import pytest
from conftest import NOW

from memscope.graph.analysis import analyse
from memscope.lenses.diff import diff_stats, word_diff
from memscope.lenses.filters import Filters, search_text, visible_nodes
from memscope.lenses.impact import forget_impact
from memscope.records.dataset import read_files
from memscope.records.models import Profile, ProfileLine


@pytest.fixture
def an(feed_paths):
    return analyse(read_files(feed_paths), NOW)


def test_word_diff_round_trips_both_texts():
    old, new = "Drinks three coffees a day.", "Drinks decaf after 2 pm."
    segs = word_diff(old, new)
    assert "".join(t for op, t in segs if op != "insert") == old
    assert "".join(t for op, t in segs if op != "delete") == new
    assert segs[0] == ("equal", "Drinks ")
    assert diff_stats(segs) == {"insert": 4, "delete": 4}
    assert word_diff("same words", "same words") == [("equal", "same words")]
    assert word_diff(None, "new") == [("insert", "new")]


def test_hiding_superseded_and_forgotten(an):
    all_nodes = visible_nodes(an, Filters())
    assert all_nodes == set(an.graph.graph.nodes)
    shown = visible_nodes(an, Filters(show_superseded=False, show_forgotten=False))
    assert all_nodes - shown == {"mem_fe_v1", "mem_fe_v2", "mem_coffee_v1", "mem_allergy"}


def test_document_type_filter_keeps_memories_of_those_documents(an):
    shown = visible_nodes(an, Filters(document_types=frozenset({"pdf"})))
    assert shown == {"doc_ml_reading", "mem_reads_ml", "mem_is_mle", "mem_coffee_v2"}


def test_date_range_and_space(an):
    shown = visible_nodes(an, Filters(date_from=date(2026, 11, 18), date_to=date(2026, 11, 20)))
    assert shown == {"doc_stack_2", "doc_trip", "mem_fe_v3", "mem_ts_course", "mem_trip",
                     "mem_trip_hotel"}
    assert visible_nodes(an, Filters(spaces=frozenset({"acme_work"}))) == set()


def test_search_is_case_insensitive_and_covers_documents(an):
    hits = search_text(an, "LISBON")
    assert {(h.node_id, h.field) for h in hits} == {
        ("mem_trip", "memory"), ("mem_trip_hotel", "memory"), ("doc_trip", "title")}
    assert all("lisbon" in h.excerpt.lower() for h in hits)
    assert search_text(an, "   ") == []
    assert [h.node_id for h in search_text(an, "乌龙茶")] == ["mem_unicode"]
    assert search_text(an, "lisbon", within={"doc_trip"})[0].node_id == "doc_trip"


def test_forget_impact_lists_later_versions_dependants_and_profile_lines(an):
    an.dataset.profiles["sm_project_personal"] = Profile(
        "sm_project_personal", static=[ProfileLine("Frontend: React", "static", ["mem_fe_v2"])])
    impact = forget_impact(an, "mem_fe_v2")
    assert impact.later_versions == ["mem_fe_v3"]
    assert impact.dependants == []
    assert [line.text for line in impact.profile_lines] == ["Frontend: React"]
    root = forget_impact(an, "mem_fe_v1")
    assert root.later_versions == ["mem_fe_v2", "mem_fe_v3"]
    assert forget_impact(an, "mem_fe_v3").dependants == [("mem_ts_course", "extends")]
    assert forget_impact(an, "mem_coffee_v1").later_versions == ["mem_coffee_v2",
                                                                  "mem_coffee_v2b"]
    assert forget_impact(an, "mem_unicode").sentences() == []
