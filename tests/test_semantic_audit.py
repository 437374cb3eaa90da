"""The semantic audit (memscope.meaning.audit): suspected contradictions, suspicious
updates and near-duplicates on small hand-made datasets, and the claim check
(memscope.meaning.claims) on the labelled pairs of tests/labelled/semantic_pairs.json."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import SecretStr

from memscope.graph.analysis import Analysis, analyse
from memscope.meaning import audit
from memscope.meaning.audit import semantic_findings
from memscope.meaning.claims import claim
from memscope.meaning.findings import SemanticFinding
from memscope.records.dataset import from_feed_pages

NOW = datetime(2026, 6, 1, tzinfo=UTC)
ROOT = Path(__file__).resolve().parents[1]


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


def test_a_large_subject_group_pairs_across_chains_only():
    """Above FULL_GROUP memories of one subject, neighbours come from other chains: a
    chain whose 450 versions all count as latest (no isLatest sent) gives no pair of its
    own, and the two unchained memories that contradict are still paired and found."""
    versions = [{"id": f"v{i:03}", "memory": f"Maya lives in a flat, revision {i}.",
                 "parentMemoryId": f"v{i - 1:03}" if i else None} for i in range(450)]
    assert len(versions) > audit.FULL_GROUP
    a = _analysis(_doc("d1", *versions, {"id": "lis", "memory": "Maya lives in Lisbon."}),
                  _doc("d2", {"id": "ber", "memory": "Maya lives in Berlin."}, day=2))
    chain_of = {m: n for n, chain in enumerate(a.chains.chains) for m in chain.ids}
    group = sorted(a.dataset.memories)
    rows = audit._Rows(a.dataset.memories, group, None)
    claims = {m: claim(a.dataset.memories[m].memory) for m in group}
    pairs = audit._candidates(group, claims, rows, chain_of)
    assert ("ber", "lis") in pairs
    assert all(not (x.startswith("v") and y.startswith("v")) for x, y in pairs)
    assert {x for pair in pairs for x in pair} >= {"ber", "lis"}
    assert audit._candidates([m for m in group if m.startswith("v")], claims, rows,
                             chain_of) == set()
    found = semantic_findings(a)
    assert _kinds(found, "suspected_contradiction") == [("lis", "ber")]


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


PAIRS = Path(__file__).parent / "labelled" / "semantic_pairs.json"
KIND = {"contradiction": "suspected_contradiction", "update": "suspicious_update",
        "duplicate": "near_duplicate"}


def _pair_flagged(pair: dict[str, Any]) -> bool:
    """Put one labelled pair in a dataset of its own (as bench/audit.py does) and say
    whether the audit flags it as its kind."""
    a = {"id": "a", "memory": pair["a"]}
    b = {"id": "b", "memory": pair["b"]}
    if pair["kind"] == "update":
        a["isLatest"] = False
        b["parentMemoryId"] = "a"
    found = semantic_findings(_analysis(_doc("d1", a, day=1), _doc("d2", b, day=2)))
    return any(f.kind == KIND[pair["kind"]] and set(f.nodes) == {"a", "b"} for f in found)


@pytest.fixture(scope="module")
def labelled() -> list[tuple[dict[str, Any], bool]]:
    pairs = json.loads(PAIRS.read_text(encoding="utf-8"))["pairs"]
    return [(p, _pair_flagged(p)) for p in pairs]


def test_the_labelled_set_is_big_enough_and_bilingual(labelled):
    langs = {p["lang"] for p, _got in labelled}
    assert len(labelled) >= 30 and langs == {"en", "zh"}
    assert {p["kind"] for p, _got in labelled} == set(KIND)


def _rates(rows: list[tuple[dict[str, Any], bool]]) -> tuple[float, float]:
    tp = sum(1 for p, got in rows if got and p["label"])
    fp = sum(1 for p, got in rows if got and not p["label"])
    fn = sum(1 for p, got in rows if not got and p["label"])
    return tp / max(1, tp + fp), tp / max(1, tp + fn)


@pytest.mark.parametrize("kind", sorted(KIND))
def test_english_precision_holds_on_every_pair(labelled, kind):
    precision, _recall = _rates([(p, g) for p, g in labelled
                                 if p["lang"] == "en" and p["kind"] == kind])
    assert precision >= 0.8


@pytest.mark.parametrize("kind", sorted(KIND))
def test_english_recall_meets_the_target_on_the_development_pairs(labelled, kind):
    # the held-out figures (lower) are printed by bench/audit.py, not asserted
    _precision, recall = _rates([(p, g) for p, g in labelled if p["lang"] == "en"
                                 and p["kind"] == kind and p["set"] == "development"])
    assert recall >= 0.8


def test_memscope_inspect_lists_the_semantic_findings_with_score_and_reason(tmp_path):
    feed = {"documents": [
        _doc("d1", {"id": "home1", "memory": "Maya lives in Lisbon."},
             {"id": "fe1", "memory": "Maya prefers Vue for frontend work.", "isLatest": False}),
        _doc("d2", {"id": "home2", "memory": "Maya lives in Berlin."},
             {"id": "bad", "memory": "Maya is allergic to peanuts.", "parentMemoryId": "fe1"},
             {"id": "dup1", "memory": "Maya keeps her notes in Obsidian."}, day=2),
        _doc("d3", {"id": "dup2", "memory": "Maya keeps her notes in Obsidian."}, day=3)]}
    path = tmp_path / "feed.json"
    path.write_text(json.dumps(feed), encoding="utf-8")
    run = [sys.executable, "-m", "memscope", "inspect", str(path), "--now", NOW.isoformat()]
    proc = subprocess.run(run, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    semantic = {f["kind"]: f for f in json.loads(proc.stdout)["findings"]
                if f["kind"] in KIND.values()}
    assert semantic["suspected_contradiction"]["nodes"] == ["home1", "home2"]
    assert semantic["suspicious_update"]["nodes"] == ["fe1", "bad"]
    assert semantic["near_duplicate"]["nodes"] == ["dup1", "dup2"]
    for f in semantic.values():
        assert 0 < f["score"] <= 1 and f["reason"].endswith(".") and f["space"] == "personal"
    quiet = subprocess.run([*run, "--no-semantic"], capture_output=True, text=True, cwd=ROOT,
                           timeout=120)
    assert not {f["kind"] for f in json.loads(quiet.stdout)["findings"]} & set(KIND.values())


class _FakeChat(BaseHTTPRequestHandler):
    """An OpenAI-compatible chat endpoint on 127.0.0.1: a conflict when statement B says
    Berlin, none otherwise, garbage for "Porto"; it records what it was sent."""

    seen: ClassVar[list[tuple[str, str | None, dict[str, Any]]]] = []

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _FakeChat.seen.append((self.path, self.headers.get("Authorization"), body))
        text = body["messages"][-1]["content"]
        if "Porto" in text:
            content = "I think so?"
        else:
            conflict = "Berlin" in text
            content = json.dumps({"conflict": conflict, "reason": "One home at a time."
                                  if conflict else "Both can hold."})
        answer = json.dumps({"choices": [{"message": {"role": "assistant",
                                                      "content": content}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def fake_chat() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeChat)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _FakeChat.seen = []
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _finding(nodes: tuple[str, str], texts: tuple[str, str], score: float = 0.8
             ) -> SemanticFinding:
    return SemanticFinding("suspected_contradiction", nodes, score, "Offline reason.",
                           "personal", texts)


def test_a_judge_confirms_or_rejects_candidates_and_the_rest_is_kept(fake_chat):
    from memscope.meaning.judge import JudgeConfig, judge_findings

    berlin = _finding(("a", "b"), ("Maya lives in Lisbon.", "Maya lives in Berlin."))
    kyoto = _finding(("c", "d"), ("Maya lives in Lisbon.", "Maya lives in Kyoto."), 0.7)
    porto = _finding(("e", "f"), ("Maya lives in Lisbon.", "Maya lives in Porto."), 0.6)
    dup = SemanticFinding("near_duplicate", ("g", "h"), 1.0, "Same.", "personal",
                          ("x", "x"))
    config = JudgeConfig(base_url=fake_chat, model="tiny", api_key=SecretStr("sk-judge-secret"))
    judged = judge_findings([berlin, kyoto, porto, dup], config)
    assert [f.nodes for f in judged.findings] == [("a", "b"), ("e", "f"), ("g", "h")]
    assert judged.findings[0].reason == ("Offline reason. The judge (tiny) agreed: One home "
                                         "at a time.")
    assert judged.findings[0].key == berlin.key  # the review key does not change
    assert judged.findings[1:] == [porto, dup]
    assert (judged.confirmed, judged.rejected) == (1, 1)
    assert judged.failed is not None and "1 of 3" in judged.failed
    assert "sk-judge-secret" not in judged.failed + repr(config)
    assert {(path, auth) for path, auth, _body in _FakeChat.seen} == {
        ("/v1/chat/completions", "Bearer sk-judge-secret")}
    assert _FakeChat.seen[0][2]["model"] == "tiny"


def test_an_unreachable_judge_keeps_the_offline_findings_and_says_so_in_one_sentence():
    from memscope.meaning.judge import JudgeConfig, judge_findings

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    berlin = _finding(("a", "b"), ("Maya lives in Lisbon.", "Maya lives in Berlin."))
    judged = judge_findings([berlin], JudgeConfig(base_url=f"http://127.0.0.1:{port}",
                                                  model="m", timeout_s=2))
    assert judged.findings == [berlin] and (judged.confirmed, judged.rejected) == (0, 0)
    assert judged.failed == ("The judge could not check 1 of 1 suspected contradictions (it "
                             "could not be reached); they are kept as the offline rule found "
                             "them.")


def test_memscope_inspect_judge_uses_the_configured_endpoint_or_says_what_is_missing(
        tmp_path, fake_chat):
    feed = {"documents": [_doc("d1", {"id": "home1", "memory": "Maya lives in Lisbon."}),
                          _doc("d2", {"id": "home2", "memory": "Maya lives in Berlin."}, day=2)]}
    path = tmp_path / "feed.json"
    path.write_text(json.dumps(feed), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMSCOPE_")}
    env["HOME"] = str(tmp_path)  # no secrets.toml of the person running the tests
    run = [sys.executable, "-m", "memscope", "inspect", str(path), "--judge"]
    missing = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, env=env,
                             timeout=120)
    assert missing.returncode == 2 and missing.stdout == ""
    assert len(missing.stderr.strip().splitlines()) == 1
    assert "MEMSCOPE_JUDGE_URL" in missing.stderr
    env.update(MEMSCOPE_JUDGE_URL=fake_chat, MEMSCOPE_JUDGE_MODEL="tiny",
               MEMSCOPE_JUDGE_KEY="sk-judge-secret")
    proc = subprocess.run(run, capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    found = [f for f in json.loads(proc.stdout)["findings"]
             if f["kind"] == "suspected_contradiction"]
    assert [f["nodes"] for f in found] == [["home1", "home2"]]
    assert found[0]["reason"].endswith("The judge (tiny) agreed: One home at a time.")
    assert "confirmed 1 and rejected 0" in proc.stderr
    assert "sk-judge-secret" not in proc.stdout + proc.stderr


def test_texts_without_words_state_nothing():
    found = semantic_findings(_analysis(
        _doc("d1", {"id": "a", "memory": ""}, {"id": "b", "memory": "🙂🙂"},
             {"id": "c", "memory": "Maya plays chess.", "isLatest": False}),
        _doc("d2", {"id": "x", "memory": "   "}, {"id": "y", "memory": "🙂", "parentMemoryId": "b"},
             {"id": "z", "memory": "…", "parentMemoryId": "c"}, day=2)))
    assert found == []


DEMO_NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def planted_demo() -> tuple[Any, list[SemanticFinding]]:
    from memscope.demo.generator import generate_planted

    data = generate_planted(7, now=DEMO_NOW)
    analysis = analyse(from_feed_pages(data.to_feed_pages()), DEMO_NOW)
    return data, semantic_findings(analysis)


def _by_text(found: list[SemanticFinding], kind: str) -> set[tuple[str, ...]]:
    return {f.texts for f in found if f.kind == kind}


def test_the_planted_demo_cases_are_found_and_their_look_alikes_are_not(planted_demo):
    _data, found = planted_demo
    omar, nimbus = "Maya's colleague Omar", "The Nimbus"
    contradictions = _by_text(found, "suspected_contradiction")
    assert {(f"{omar} lives in Porto.", f"{omar} lives in Seville."),
            (f"{omar} drinks rooibos tea every evening.", f"{omar} does not drink rooibos tea.")
            } <= contradictions
    assert any(a.startswith(f"{nimbus} design review is on")
               and b.startswith(f"{nimbus} design review is on") for a, b in contradictions)
    flagged = {text for pair in contradictions for text in pair}
    assert not {f"{omar} is allergic to dust mites.", "The Nimbus team uses Miro for workshops.",
                "The Nimbus team uses Figma for design."} & flagged
    assert not any("beta" in text for text in flagged)  # the resolved chain
    assert {(f"{omar} plays the cello on Sundays.", f"{omar} parks his car at the station."),
            ("Nimbus runs its CI on Buildkite.", "The Nimbus office plants are watered on "
             "Fridays.")} <= _by_text(found, "suspicious_update")
    backups = [f for f in found if f.kind == "near_duplicate" and "backups" in f.texts[0]]
    assert len(backups) == 1 and len(backups[0].nodes) == 3


def test_planting_leaves_the_rest_of_the_demo_as_it_was(planted_demo):
    from memscope.demo.generator import generate

    data, _found = planted_demo
    plain = generate(7, now=DEMO_NOW)
    planted_titles = {"Chat: catching up with Omar", "Notes: Omar's new flat", "Nimbus kickoff",
                      "Nimbus planning", "#nimbus-ops"}
    kept = [d for d in data.documents if d["title"] not in planted_titles]
    assert kept == plain.documents
    assert len(data.documents) == len(plain.documents) + len(planted_titles)


# --- issue 35: claims that survive other words -------------------------------------------
# Sentences made up here (other people and words than the issue-35 pairs), one test per
# mechanism of memscope.meaning.claims: clauses, owners, one-value facts, denials,
# preferences, the past, Chinese, and updates judged by meaning.

def _conflict(a: str, b: str) -> str | None:
    from memscope.meaning.claims import conflict

    found = conflict(claim(a), claim(b))
    return None if found is None else found.what


@pytest.mark.parametrize(("a", "b", "what"), [
    # an extra clause, a list, a second verb
    ("Rosa lives in Lisbon, near the river, with two cats.",
     "Rosa moved to Berlin last spring and lives there now.", "place"),
    ("Rosa works for Siemens in Munich.", "Rosa is a nurse at the Charité, her only job.",
     "name"),
    # a leading phrase before the subject, a surname, a role said in the subject
    ("Rosa's manager is Ines Moreau.", "These days Rosa reports directly to Paul Weber.",
     "person"),
    ("Rosa Costa lives in Porto.", "Rosa's flat is in Braga, near the cathedral.", "place"),
    ("Rosa's husband is called Tomas.", "Rosa is married to Felipe, a pilot.", "person"),
])
def test_a_claim_is_read_through_clauses_leading_phrases_and_roles(a, b, what):
    assert _conflict(a, b) == what


@pytest.mark.parametrize(("a", "b"), [
    ("Rosa lives in Lisbon.", "Rosa's sister lives in Berlin."),  # another person
    ("Rosa lives in Lisbon.", "Rosa grew up in Berlin."),  # the past
    ("Rosa lives in Lisbon.", "Rosa lived in Berlin from 2012 to 2016."),
    ("Rosa moved to Madrid in 2015.", "Rosa moved to Lisbon in 2021 and lives there now."),
    ("Rosa works for Siemens.", "Rosa is a volunteer at the Red Cross."),
    ("Rosa's manager is Ines Moreau.", "Rosa's mentor is Paul Weber."),
    ("Rosa's favourite colour is blue.", "Rosa's favourite season is spring."),
    ("Rosa lives in Lisbon.", "Rosa's office address is in Sintra."),
    ("Rosa's daughter is called Lia.", "Rosa's son is called Rui."),
    ("Rosa's dog is a Labrador.", "Rosa's dog is called Max."),  # what it is, its name
    ("Rosa's flat is small.", "Rosa's flat is bright."),
])
def test_look_alikes_on_one_topic_are_not_contradictions(a, b):
    assert _conflict(a, b) is None


@pytest.mark.parametrize(("a", "b", "what"), [
    ("Omar was born on 4 July 1985.", "Omar celebrates his birthday on 9 March.", "date"),
    ("Omar is 41 years old.", "Omar turned 36 in the spring.", "number"),
    ("Omar is 41.", "Omar celebrated his 50th birthday last week.", "number"),
    ("Omar's blood group is AB positive.", "Omar is blood type O negative.", "value"),
    ("Omar's native language is Arabic.", "Omar's mother tongue is French.", "name"),
    ("Omar's primary bank is Barclays.", "Omar's main bank account is with Monzo.", "name"),
    ("Omar has four children.", "Omar is the father of two kids.", "number"),  # synonyms
    ("Omar's only cat is called Pixel.", "Omar's cat is named Biscuit.", "name"),
    ("Omar's laptop is a Dell XPS.", "Omar's laptop is a MacBook Pro.", "name"),
    ("Omar's lease ends on 30 April 2026.", "Omar's lease runs until 31 May 2027.", "date"),
    ("Omar always flies from Stansted, his home airport.", "Omar's home airport is Luton.",
     "name"),
    ("Omar lives alone.", "Omar shares his flat with two friends.", "value"),
    ("Omar is single.", "Omar is married to Leila.", "value"),
    ("Omar is unemployed.", "Omar works as a driver for Uber.", "value"),
    ("Omar works part-time.", "Omar works full-time at the library.", "value"),
])
def test_one_value_attributes_are_known_in_other_words(a, b, what):
    assert _conflict(a, b) == what


def test_one_value_in_two_phrasings_is_no_conflict():
    assert _conflict("Omar was born on 4 July 1985.", "Omar's birthday is the 4th of July.") \
        is None
    assert _conflict("Omar has two kids.", "Omar has 2 children.") is None
    assert _conflict("Omar is 34.", "Omar is thirty-four years old.") is None
    assert _conflict("Omar lives in NYC.", "Omar lives in New York, near the park.") is None


@pytest.mark.parametrize(("a", "b"), [
    ("Lena has never had a dog.", "Lena has two dogs who sleep on her bed."),
    ("Lena owns no car at all.", "Lena drives her car to the lake every weekend."),
    ("Lena avoids JavaScript whenever she can.", "Lena writes her whole website in JavaScript."),
    ("Lena has never learned to swim.", "Lena swims in the sea every morning."),
    ("Lena doesn't drive.", "Lena drives the children to school."),
    ("Lena gave up chocolate.", "Lena eats chocolate after every meal."),
    ("Lena has no children.", "Lena's three children all study in Leeds."),
    ("Lena takes the bus to work.", "Lena cycles to work and never uses the bus."),
    ("Lena does not eat any meat.", "Lena eats beef stew every Sunday."),  # by the embedder
    ("Lena has no children.", "Lena has two sons at university."),  # a kin of that kind
    ("Lena has no siblings.", "Lena has a brother in Oslo."),
])
def test_denials_in_other_words_meet_what_the_other_affirms(a, b):
    assert _conflict(a, b) == "negation"


@pytest.mark.parametrize(("a", "b"), [
    ("Lena never drinks coffee after lunch.", "Lena drinks coffee every morning."),
    ("Lena has no children.", "Lena teaches children at the primary school."),
    ("Lena doesn't have a car.", "Lena borrowed her brother's car on Sunday."),
    ("Lena doesn't drink beer.", "Lena's friends drink beer every Friday."),
    ("Lena doesn't eat meat.", "Lena eats fish twice a week."),
    ("Lena doesn't like dogs.", "Lena is allergic to dogs."),
    ("Lena avoids dairy.", "Lena switched to dairy-free yoghurt."),
    ("Lena doesn't speak German.", "Lena speaks Dutch at home."),  # names are no kinds
    ("Lena eats meat.", "Lena doesn't eat red meat."),  # the negation is of "red"
    ("Lena loves hiking.", "Lena doesn't like hiking alone."),
    ("Lena has no car.", "Lena's car was sold in May."),
    ("Lena has no sisters.", "Lena has two brothers."),
])
def test_denials_that_hold_beside_the_other_text_are_not_contradictions(a, b):
    assert _conflict(a, b) is None


def test_opposite_preferences_for_one_object_survive_extra_words_but_not_a_restriction():
    assert _conflict("Lena prefers trains for anything longer than an hour.",
                     "Lena hates trains and takes the car everywhere.") == "preference"
    assert _conflict("Lena loves swimming.", "Lena hates swimming in cold water.") is None


@pytest.mark.parametrize(("a", "b", "what"), [
    ("王磊住在成都。", "王磊的家在重庆，离江边很近。", "place"),
    ("王磊在华为上班。", "王磊是小米的正式员工。", "value"),
    ("王磊的领导是赵总。", "王磊现在直接向孙经理汇报。", "person"),
    ("王磊的生日是4月2日。", "王磊出生于1991年9月18日。", "date"),
    ("王磊从来不吃辣。", "王磊每顿饭都吃很多辣。", "negation"),
    ("王磊不会滑雪。", "王磊每年冬天都去滑雪。", "negation"),
    ("王磊一个人住。", "王磊和父母住在一起。", "value"),
    ("欧阳娜娜住在上海。", "欧阳娜娜搬到了广州，现在住在那里。", "place"),
])
def test_chinese_claims_are_read_the_same_way(a, b, what):
    assert _conflict(a, b) == what


@pytest.mark.parametrize(("a", "b"), [
    ("王磊住在成都。", "王磊的姐姐住在重庆。"),  # the sister
    ("韩梅梅住在成都。", "韩梅梅的哥哥住在重庆。"),  # a three-character name
    ("王磊住在成都。", "王磊在重庆工作。"),  # a home and a workplace
    ("王磊不会说日语。", "王磊会说韩语。"),
    ("王磊今年三十岁。", "王磊的儿子今年六岁。"),
    ("王磊在华为工作。", "王磊在厨房做饭。"),
    ("王磊以前住在重庆。", "王磊住在成都。"),
])
def test_chinese_look_alikes_are_not_contradictions(a, b):
    assert _conflict(a, b) is None


def test_a_fact_conflict_needs_no_embedding_topic_and_quotes_the_values_as_written():
    found = semantic_findings(_analysis(
        _doc("d1", {"id": "a", "memory": "Noor works for the WHO in Geneva."}),
        _doc("d2", {"id": "b", "memory": "Noor's sole employer is Oxfam, in Nairobi."},
             day=2)))
    [finding] = [f for f in found if f.kind == "suspected_contradiction"]
    assert finding.nodes == ("a", "b")
    assert "“WHO” / “Oxfam”" in finding.reason


def test_texts_about_one_person_are_paired_whatever_their_subject_reads():
    found = semantic_findings(_analysis(
        _doc("d1", {"id": "a", "memory": "Ana left the firm; Pedro reports to Luis Gil now."}),
        _doc("d2", {"id": "b", "memory": "Pedro's boss is Carla Ruiz."}, day=2)))
    assert _kinds(found, "suspected_contradiction") == [("a", "b")]


def test_a_denied_kin_is_compared_with_what_is_said_of_them():
    found = semantic_findings(_analysis(
        _doc("d1", {"id": "a", "memory": "Sara has no children."},
             {"id": "c", "memory": "Sara's mother lives in Cork."}),
        _doc("d2", {"id": "b", "memory": "Sara's two sons play rugby on Saturdays."},
             day=2)))
    assert _kinds(found, "suspected_contradiction") == [("a", "b")]


def _update_flagged(parent: str, child: str) -> bool:
    found = semantic_findings(_analysis(
        _doc("d1", {"id": "p", "memory": parent, "isLatest": False}),
        _doc("d2", {"id": "c", "memory": child, "parentMemoryId": "p"}, day=2)))
    return _kinds(found, "suspicious_update") == [("p", "c")]


@pytest.mark.parametrize(("parent", "child"), [
    ("Kemal lives in Izmir.", "Kemal's brother lives in Ankara."),  # another person
    ("Kemal plays the oud.", "Kemal's daughter plays the oud."),
    ("Kemal's dentist appointment is on 3 May.", "Kemal's nephew was born on 3 May."),
    ("Kemal works at Arçelik.", "Kemal is allergic to bee stings."),
    ("Kemal enjoys jazz.", "Kemal's passport expires in 2031."),
    ("Kemal runs 10 km on Sundays.", "Kemal renewed his library card."),
    ("凯末尔住在伊兹密尔。", "凯末尔的哥哥住在安卡拉。"),
    ("凯末尔喜欢爵士乐。", "凯末尔的护照2031年到期。"),
])
def test_an_update_about_another_thing_or_person_is_suspicious_despite_the_shared_name(
        parent, child):
    assert _update_flagged(parent, child)


@pytest.mark.parametrize(("parent", "child"), [
    ("Kemal lives in Izmir.", "Kemal relocated to Ankara for a new job."),
    ("Kemal works at Arçelik.", "Kemal was promoted to head of design."),
    ("Kemal is 39.", "Kemal just turned 40."),
    ("Kemal is single.", "Kemal is now engaged to Derya."),
    ("Kemal is saving up for a motorbike.", "Kemal bought a second-hand Vespa."),
    ("Kemal reports to Aylin Kaya.", "Kemal's new manager is Mert Demir."),
    ("凯末尔住在伊兹密尔。", "凯末尔搬到了安卡拉。"),
    ("凯末尔在阿切利克工作。", "凯末尔跳槽去了另一家公司。"),
])
def test_a_genuine_update_in_other_words_is_not_suspicious(parent, child):
    assert not _update_flagged(parent, child)
