"""The provenance trail (“Why does it believe this?”, issue 19 item 1): the core.

A small account written for it: a chain Vue → React → React with TypeScript whose last
version the service inferred, documents with content and a summary, a profile line
citing the chain, a memory derived from it; plus a parent cycle, a huge text, a masked
copy and a Spomory passport.
"""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime

import pytest
from conftest import SP

from memscope.export.formats import evidence_nodes, evidence_pack, trail_file
from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.presenter import mask
from memscope.records.dataset import Dataset, from_feed_pages, read_files
from memscope.records.models import ParseReport, parse_profile
from memscope.records.text import FULL_MAX
from memscope.reports.why import UnknownTrail, change_words, pack_trails, trail
from memscope.view.build import build_view

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


def _mem(mem_id: str, text: str, day: int, **extra: object) -> dict:
    return {"id": mem_id, "memory": text, "createdAt": f"2026-11-{day:02d}T09:00:00Z",
            "spaceContainerTag": "maya_personal", **extra}


def _dataset() -> Dataset:
    page = {"documents": [
        {"id": "d_chat", "title": "Chat about the stack", "type": "chat",
         "createdAt": "2026-11-01T08:00:00Z",
         "content": "user: I drink tea every morning.\nuser: Maya prefers Vue for frontend "
                    "work.\nassistant: Noted.",
         "memoryEntries": [_mem("v1", "Maya prefers Vue for frontend work.", 1,
                                isLatest=False)]},
        {"id": "d_notes", "title": "Stack review", "type": "notion_doc",
         "createdAt": "2026-11-10T08:00:00Z", "summary": "Notes from the stack review.",
         "memoryEntries": [_mem("v2", "Maya prefers React for frontend work.", 10,
                                parentMemoryId="v1", version=2, isLatest=False)]},
        {"id": "d_course", "title": "Course certificate", "type": "pdf",
         "createdAt": "2026-11-20T08:00:00Z",
         "memoryEntries": [
             _mem("v3", "Maya prefers React with TypeScript for frontend work.", 20,
                  parentMemoryId="v2", version=3, isInference=True),
             _mem("guess", "Maya will likely rewrite the dashboard in TypeScript.", 21,
                  isInference=True, memoryRelations={"v3": "derives"})]},
    ]}
    ds = from_feed_pages([page])
    ds.profiles["maya_personal"] = parse_profile({"profile": {
        "static": [{"text": "Prefers React with TypeScript", "memoryIds": ["v3", "v2"]}],
        "dynamic": [{"text": "Drinks tea", "memoryIds": []}]}}, "maya_personal",
        ParseReport())
    return ds


@pytest.fixture(scope="module")
def an() -> Analysis:
    return analyse(_dataset(), NOW)


def test_the_statement_is_what_the_chain_says_now_and_names_the_version_asked(an):
    t = trail(an, "v1")
    s = t.statement
    assert (s.id, s.text, s.version, s.state) == (
        "v3", "Maya prefers React with TypeScript for frontend work.", "v3", "latest")
    assert (s.asked_id, s.asked_version, s.asked_state) == ("v1", "v1", "superseded")
    assert s.note is not None and "v1 (v1), which is superseded" in s.note
    assert trail(an, "v3").statement.note is None  # asked about the current version


def test_the_versions_lead_to_it_with_their_changes_in_words_and_inference(an):
    versions = trail(an, "v1").versions
    assert [v.id for v in versions] == ["v1", "v2", "v3"]
    assert [v.created for v in versions] == [
        "2026-11-01T09:00:00Z", "2026-11-10T09:00:00Z", "2026-11-20T09:00:00Z"]
    assert [v.change for v in versions] == [
        "First stated.", "“Vue” became “React”.", "Added “with TypeScript”."]
    assert [v.inferred for v in versions] == [False, False, True]
    assert [v.asked for v in versions] == [True, False, False]
    guess = trail(an, "guess").versions[0]
    assert guess.inferred and guess.derived_from == (
        "“Maya prefers React with TypeScript for frontend work.” (v3)",)


def test_each_version_names_its_document_and_the_passage_the_source_gives(an):
    sources = {s.version_id: s for s in trail(an, "v3").sources}
    chat = sources["v1"]
    assert (chat.document_id, chat.title, chat.type, chat.date) == (
        "d_chat", "Chat about the stack", "chat", "2026-11-01T08:00:00Z")
    # the line of the content that says it, not the whole conversation
    assert (chat.passage, chat.passage_from) == (
        "user: Maya prefers Vue for frontend work.", "content")
    assert (sources["v2"].passage, sources["v2"].passage_from) == (
        "Notes from the stack review.", "summary")
    assert (sources["v3"].passage, sources["v3"].passage_from) == (None, None)


def test_relations_profile_lines_and_impact(an):
    t = trail(an, "v2")
    assert {(link.words, link.other_id) for link in t.relations} == {
        ("updates", "v2"), ("is a basis of", "guess")}
    assert [(c.space, c.kind, c.text, c.cites) for c in t.profile_lines] == [
        ("maya_personal", "static", "Prefers React with TypeScript", ("v3", "v2"))]
    assert t.impact == ("1 memory extends or derives from it: “Maya will likely rewrite the "
                        "dashboard in TypeScript.” (derives).", "1 profile line cites it.")
    text = t.as_text()
    for part in ("STATEMENT", "HOW IT GOT THERE (3 versions, oldest first)",
                 "WHERE IT CAME FROM", "passage (content): “user: Maya prefers Vue",
                 "RELATIONS", "is a basis of “Maya will likely", "PROFILE LINES THAT CITE IT",
                 "static, maya_personal: “Prefers React with TypeScript” (cites v3, v2)",
                 "IF IT WERE FORGOTTEN", "Inferred by the service, not stated by you"):
        assert part in text, part
    assert text.index("STATEMENT") < text.index("HOW IT GOT") < text.index("WHERE IT") \
        < text.index("RELATIONS") < text.index("PROFILE LINES") < text.index("IF IT WERE")


def test_as_json_is_plain_json_with_every_section(an):
    data = json.loads(json.dumps(trail(an, "v1").as_json()))
    assert data["kind"] == "memory" and data["statement"]["id"] == "v3"
    assert [v["id"] for v in data["versions"]] == ["v1", "v2", "v3"]
    assert data["sources"][0]["passage"] == "user: Maya prefers Vue for frontend work."
    assert data["profile_lines"][0]["cites"] == ["v3", "v2"]
    assert data["judged_at"] == "2026-11-30T12:00:00Z"


def test_a_suspected_contradiction_is_listed_among_the_relations(an):
    from memscope.meaning.findings import SemanticFinding

    found = SemanticFinding("suspected_contradiction", ("v3", "guess"), 0.8, "r", None, ())
    links = trail(an, "v3", semantic=[found]).relations
    assert ("may contradict", "guess") in {(link.words, link.other_id) for link in links}


def test_masked_trail_holds_no_real_text(an):
    ds = _dataset()
    masked = analyse(mask(ds), NOW)
    real = [m.memory for m in ds.memories.values()] + [
        t for d in ds.documents.values() for t in (d.title, d.summary, d.content) if t]
    real += ["Prefers React with TypeScript", "Drinks tea", "maya_personal"]
    words = ("vue", "react", "typescript", "maya", "tea", "dashboard", "stack", "chat about",
             "review", "frontend")
    for asked in ("v1", "v2", "v3", "guess"):
        t = trail(masked, asked, masked=True)
        out = t.as_text() + json.dumps(t.as_json(), ensure_ascii=False)
        assert not [r for r in real if r in out], asked
        assert not [w for w in words if w in out.casefold()], asked
        if asked != "guess":
            assert [c.space for c in t.profile_lines] == ["Space 1"]
    changes = [v.change for v in trail(masked, "v1", masked=True).versions]
    assert changes[0] == "First stated."
    assert changes[1] == "The text changed (what changed is hidden in presenter mode)."


def test_an_unknown_id_or_a_document_says_so_in_one_sentence(an):
    with pytest.raises(UnknownTrail, match=r"^Nothing with id nope is loaded\.$"):
        trail(an, "nope")
    with pytest.raises(UnknownTrail, match="d_chat is a document, not a memory"):
        trail(an, "d_chat")


def test_a_parent_cycle_ends_where_it_repeats():
    ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        _mem("a", "Lives in Lisbon", 1, parentMemoryId="b"),
        _mem("b", "Lives in Porto", 2, parentMemoryId="a", version=2)]}]}])
    an = analyse(ds, NOW)
    for asked in ("a", "b"):
        t = trail(an, asked)
        assert sorted(v.id for v in t.versions) == ["a", "b"]
        assert any("cycle (2 members)" in n for n in t.notes)
        assert t.as_text()


def test_a_chain_where_nothing_holds_shows_its_newest_version():
    ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        _mem("a", "Lives in Lisbon", 1, isLatest=False),
        _mem("b", "Lives in Porto", 2, parentMemoryId="a", isForgotten=True)]}]}])
    s = trail(analyse(ds, NOW), "a").statement
    assert s.id == "b" and s.state == "forgotten"
    assert s.note is not None and "No version of this chain holds now" in s.note


def test_every_text_is_bounded():
    huge = "word " * 1_000_000
    ds = from_feed_pages([{"documents": [{"id": "d", "title": "T" * 5_000_000,
                                          "content": huge, "memoryEntries": [
        _mem("a", huge, 1, isLatest=False), _mem("b", huge + "more", 2, parentMemoryId="a")]}]}])
    t = trail(analyse(ds, NOW), "a")
    assert len(t.statement.text) <= FULL_MAX
    assert all(len(v.text) <= 200 and len(v.change) < 500 for v in t.versions)
    assert all(len(s.title) <= 200 and len(s.passage or "") <= 1000 for s in t.sources)
    assert len(t.as_text()) < FULL_MAX + 5_000
    long_id = "m" * 1_000_000  # an id from the data is bounded where it is shown too
    ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        _mem(long_id, "Lives in Lisbon", 1, isLatest=False),
        _mem("b", "Lives in Porto", 2, parentMemoryId=long_id)]}]}])
    assert len(trail(analyse(ds, NOW), long_id).as_text()) < 5_000


def test_change_words_tells_replacements_additions_and_removals():
    assert change_words("Lives in Lisbon", "Lives in Porto") == "“Lisbon” became “Porto”."
    assert change_words("Likes tea", "Likes green tea") == "Added “green”."
    assert change_words("Likes green tea", "Likes tea") == "Removed “green”."
    many = change_words("a b c d e f g h i j", "a B c D e F g H i J")
    assert many.endswith("; and 1 more change.") and many.startswith("“b” became “B”")


def test_a_spomory_fact_trail_quotes_its_provenance():
    an = analyse(read_files([SP / "passport.json"]), NOW)
    t = trail(an, "r1")
    assert t.kind == "fact" and t.statement.text == "张三 — 任职于 — 某公司"
    assert [(s.title, s.passage, s.passage_from) for s in t.sources] == [
        ("api", "张三在某公司工作。", "provenance")]
    assert ("subject:", "e_zs") in {(link.words, link.other_id) for link in t.relations}
    with pytest.raises(UnknownTrail, match="is an entity, not a fact"):
        trail(an, "e_zs")
    hostile = trail(an, "r4").as_text()
    assert "<svg onload=alert('entity')>" in hostile  # text, kept as it is


def test_the_evidence_pack_holds_one_trail_file_per_chain(an):
    nodes = evidence_nodes(an, "v1")
    trails = pack_trails(an, nodes)
    assert list(trails) == ["v3"]  # the version that holds stands for the chain
    blob = evidence_pack(an, nodes, build_view(an, visible=nodes), trails=trails)
    zf = zipfile.ZipFile(io.BytesIO(blob))
    assert trail_file("v3") in zf.namelist()
    assert zf.read(trail_file("v3")).decode("utf-8") == trail(an, "v3").as_text()
    manifest = zf.read("MANIFEST.sha256").decode("ascii")
    assert f"  {trail_file('v3')}\n" in manifest
    assert trail_file("a/b") != trail_file("a_b")  # two ids, two files


def test_a_profile_line_naming_no_memory_is_found_by_what_it_says():
    ds = _dataset()
    ds.profiles["maya_personal"] = parse_profile({"profile": {
        "static": ["Prefers React with TypeScript for frontend work", "Prefers React"],
        "dynamic": ["Drinks tea"]}}, "maya_personal", ParseReport())  # the legacy shape
    lines = trail(analyse(ds, NOW), "v1").profile_lines
    assert [(c.text, c.cites, c.how) for c in lines] == [
        ("Prefers React with TypeScript for frontend work", ("v3",), "says what"),
        ("Prefers React", ("v2", "v3"), "says what")]


def test_a_source_that_keeps_no_documents_says_so_instead_of_none_is_loaded():
    from memscope.records.models import MemoryRecord
    from memscope.reports.why import KEEPS_NONE, SOURCELESS

    for keeps, said in ((True, SOURCELESS), (False, KEEPS_NONE)):
        ds = Dataset(keeps_documents=keeps)
        ds.add_memory(MemoryRecord("m", "Likes tea"), None)
        t = trail(analyse(ds, NOW), "m")
        assert t.sourceless == said and said in t.as_text()
