"""Lenient record parsing: defaults, unknown keys, skips, text cap, both wire shapes."""

from __future__ import annotations

import json

from conftest import SM, SP

from memscope.records.dataset import from_feed_pages, from_objects, read_files
from memscope.records.models import TEXT_CAP, ParseReport, cap_text, parse_memory, parse_profile
from memscope.records.passport import decode_result, parse_passport


def test_memory_defaults_follow_graph_semantics():
    rep = ParseReport()
    mem = parse_memory({"id": "m", "memory": "x"}, "here", rep)
    assert mem is not None
    assert (mem.is_latest, mem.is_forgotten, mem.is_static, mem.version) == (True, False, False, 1)
    assert mem.parent_id is None and mem.root_id is None and mem.relations is None
    assert mem.forget_after is None and mem.forget_reason is None
    assert rep.skipped == [] and rep.issues == []


def test_memory_without_id_is_skipped_with_reason():
    rep = ParseReport()
    assert parse_memory({"memory": "no id"}, "doc/memoryEntries[0]", rep) is None
    assert [(s.record, s.reason) for s in rep.skipped] == [
        ("doc/memoryEntries[0]", "memory entry has no id")]


def test_unknown_keys_are_kept_and_written_back():
    rep = ParseReport()
    raw = {"id": "m", "memory": "x", "orgId": "org", "sourceRelevanceScore": 0.4}
    mem = parse_memory(raw, "w", rep)
    assert mem is not None
    assert mem.extra == {"orgId": "org", "sourceRelevanceScore": 0.4}
    wire = mem.to_wire()
    assert wire["orgId"] == "org" and wire["sourceRelevanceScore"] == 0.4


def test_both_wire_shapes_give_the_same_records():
    api = {"id": "d", "type": "pdf", "memoryEntries": [{"id": "m", "memory": "x"}]}
    export = {"id": "d", "documentType": "pdf", "memories": [{"id": "m", "memory": "x"}]}
    a, b = from_feed_pages([[api]]), from_feed_pages([[export]])
    assert a.documents["d"].type == b.documents["d"].type == "pdf"
    assert a.documents["d"].memory_ids == b.documents["d"].memory_ids == ["m"]
    assert a.memories["m"] == b.memories["m"]


def test_document_without_type_or_memories_takes_defaults(feed_paths):
    ds = read_files(feed_paths)
    doc = ds.documents["doc_bad_1"]
    assert doc.type == "unknown" and doc.memory_ids == []
    assert all(s.record != "doc_bad_1" for s in ds.report.skipped)


def test_text_is_capped_with_an_ellipsis():
    long = "a" * (TEXT_CAP + 50)
    capped = cap_text(long)
    assert capped is not None
    assert len(capped) == TEXT_CAP and capped.endswith("…")
    assert cap_text("short") == "short"
    rep = ParseReport()
    mem = parse_memory({"id": "m", "memory": long}, "w", rep)
    assert mem is not None and len(mem.memory) == TEXT_CAP


def test_bad_values_are_noted_not_fatal():
    rep = ParseReport()
    mem = parse_memory(
        {"id": "m", "memory": "x", "createdAt": "yesterday", "memoryRelations": ["a"]}, "w", rep)
    assert mem is not None
    assert mem.created_at is None and mem.relations is None
    assert {i.message for i in rep.issues} == {
        "createdAt 'yesterday' is not an ISO-8601 time; treated as missing",
        "memoryRelations is not an object; ignored",
    }


def test_non_object_records_are_skipped_and_the_rest_kept():
    ds = from_feed_pages([{"documents": ["junk", {"id": "d", "memoryEntries": [7, {"id": "m"}]}]}])
    assert list(ds.documents) == ["d"] and list(ds.memories) == ["m"]
    assert [s.reason for s in ds.report.skipped] == [
        "document is a str, not an object", "memory entry is a int, not an object"]


def test_passport_decoded_and_double_encoded_are_equal():
    plain = json.loads((SP / "passport.json").read_text())
    wrapped = json.loads((SP / "export_response.json").read_text())
    assert isinstance(wrapped["result"], str)
    assert decode_result(wrapped) == plain
    ents_a, rels_a = parse_passport(plain, ParseReport())
    ents_b, rels_b = parse_passport(wrapped, ParseReport())
    assert ents_a == ents_b and rels_a == rels_b
    assert [e.id for e in ents_a] == ["e_zs", "e_co", "e_bj", "e_py", "e_x"]
    assert rels_a[0].provenance[0].source_span == "张三在某公司工作。"
    assert ents_a[0].aliases == ["Zhang San"]


def test_profile_lines_as_strings_or_with_sources():
    raw = json.loads((SM / "profile.json").read_text())
    prof = parse_profile(raw, "sm_project_personal", ParseReport())
    assert [line.text for line in prof.static][2] == "<script>alert('profile')</script>"
    assert len(prof.dynamic) == 2
    cited = parse_profile({"static": [{"text": "t", "memoryIds": ["m1"]}], "dynamic": None},
                          "s", ParseReport())
    assert cited.static[0].memory_ids == ["m1"] and cited.dynamic == []
    empty = parse_profile({"profile": None}, "s", ParseReport())
    assert empty.static == [] and empty.dynamic == []


def test_from_objects_mixes_feed_and_passport():
    plain = json.loads((SP / "passport.json").read_text())
    ds = from_objects([{"documents": [{"id": "d", "memoryEntries": []}]}, plain])
    assert set(ds.documents) == {"d"} and len(ds.entities) == 5


def test_an_unusable_space_tag_falls_back_and_survives_a_round_trip():
    """Found by the property tests: a ``spaceContainerTag`` that is no id (an object)
    beside a usable ``containerTag`` gave a different record once written and read back."""
    rep = ParseReport()
    raw = {"id": "m", "memory": "x", "spaceContainerTag": {"odd": 1}, "containerTag": "t"}
    mem = parse_memory(raw, "w", rep)
    assert mem is not None and mem.container_tag == "t"
    again = parse_memory(mem.to_wire(), "w", rep)
    assert again == mem
