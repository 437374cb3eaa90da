"""The semantic audit (memscope.meaning.audit): suspected contradictions, suspicious
updates and near-duplicates on small hand-made datasets, and the claim check
(memscope.meaning.claims) on the labelled pairs of tests/fixtures/semantic_pairs.json."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from memscope.graph.analysis import Analysis, analyse
from memscope.meaning.audit import semantic_findings
from memscope.meaning.findings import SemanticFinding
from memscope.records.dataset import from_feed_pages

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def _doc(doc_id: str, *memories: dict[str, Any], day: int = 1) -> dict[str, Any]:
    entries = [{"spaceContainerTag": "personal", "createdAt": f"2026-05-{day:02d}T10:00:00Z",
                **m} for m in memories]
    return {"id": doc_id, "title": doc_id, "createdAt": f"2026-05-{day:02d}T09:00:00Z",
            "memoryEntries": entries}


def _analysis(*docs: dict[str, Any]) -> Analysis:
    return analyse(from_feed_pages([{"documents": list(docs)}]), NOW)


def _kinds(found: list[SemanticFinding], kind: str) -> list[tuple[str, ...]]:
    return [f.nodes for f in found if f.kind == kind]


@pytest.fixture(scope="module")
def story() -> list[SemanticFinding]:
    return semantic_findings(_analysis(
        _doc("d1", {"id": "home1", "memory": "Maya lives in Lisbon."},
             {"id": "nuts", "memory": "Maya is allergic to peanuts."},
             {"id": "fe1", "memory": "Maya prefers Vue for frontend work."}, day=1),
        _doc("d2", {"id": "home2", "memory": "Maya lives in Berlin."},
             {"id": "fish", "memory": "Maya is allergic to shellfish."},
             {"id": "bad", "memory": "Maya's brother Leo plays padel on weekends.",
              "parentMemoryId": "fe1"}, day=2),
        _doc("d3", {"id": "dup1", "memory": "Maya keeps her notes in Obsidian."},
             {"id": "old", "memory": "The Atlas launch is set for 2026-05-20.", "isLatest": False},
             day=3),
        _doc("d4", {"id": "dup2", "memory": "Maya keeps her notes in Obsidian."},
             {"id": "new", "memory": "The Atlas launch moved to 2026-06-10.",
              "parentMemoryId": "old"}, day=4),
    ))


def test_a_contradiction_is_found_and_a_compatible_look_alike_is_not(story):
    assert _kinds(story, "suspected_contradiction") == [("home1", "home2")]
    found = next(f for f in story if f.kind == "suspected_contradiction")
    assert "another place" in found.reason and "Lisbon" in found.reason
    assert found.texts == ("Maya lives in Lisbon.", "Maya lives in Berlin.")
    assert 0 < found.score <= 1 and found.space == "personal"


def test_an_update_to_an_unrelated_fact_is_suspicious_and_a_real_one_is_not(story):
    assert _kinds(story, "suspicious_update") == [("fe1", "bad")]


def test_near_duplicates_are_one_finding_with_their_members(story):
    assert _kinds(story, "near_duplicate") == [("dup1", "dup2")]


def test_linked_or_forgotten_memories_are_not_contradictions():
    found = semantic_findings(_analysis(
        _doc("d1", {"id": "a", "memory": "Maya lives in Lisbon."},
             {"id": "f", "memory": "Maya lives in Porto.", "isForgotten": True}),
        _doc("d2", {"id": "b", "memory": "Maya lives in Berlin.",
                    "memoryRelations": {"a": "extends"}}, day=2)))
    assert _kinds(found, "suspected_contradiction") == []


def test_spaces_are_audited_apart():
    found = semantic_findings(_analysis(
        _doc("d1", {"id": "a", "memory": "Maya lives in Lisbon."}),
        _doc("d2", {"id": "b", "memory": "Maya lives in Berlin.", "spaceContainerTag": "work"},
             day=2)))
    assert found == []


def test_the_same_analysis_gives_the_same_list_and_keys(story):
    again = semantic_findings(_analysis(
        _doc("d1", {"id": "home1", "memory": "Maya lives in Lisbon."}),
        _doc("d2", {"id": "home2", "memory": "Maya lives in Berlin."}, day=2)))
    assert [f.key for f in again] == [f.key for f in story if f.nodes == ("home1", "home2")]
