"""Checking pairs with a model (memscope.reports.judging) against a fake chat endpoint on
127.0.0.1: good JSON, JSON inside prose, an answer that is not JSON, a refusal, a
timeout, a slow answer, a 503 retried; the key only in the header; near misses."""

from __future__ import annotations

import socket

import pytest
from judge_fake import FakeChat, serving

from memscope.graph.analysis import analyse
from memscope.meaning.findings import SemanticFinding
from memscope.records.dataset import from_objects
from memscope.reports.judging import (
    Candidate,
    JudgeClient,
    JudgeFailed,
    Verdict,
    candidates,
    config_from,
    fingerprint,
    host,
    is_local,
    near_misses,
    verdict_key,
    verdicts_for,
)

SECRET = "sk-judge-very-secret"


def _pair(b: str, a: str = "Maya lives in Lisbon.") -> SemanticFinding:
    return SemanticFinding("suspected_contradiction", ("m1", "m2"), 0.8, "Rule.", "home",
                           (a, b))


@pytest.fixture
def url():
    with serving() as base:
        yield base


def test_verdicts_from_good_json_and_json_inside_prose(url):
    config = config_from(url, "tiny", SECRET)
    assert config is not None
    with JudgeClient(config) as client:
        yes = client.check(_pair("Maya lives in Berlin."))
        no = client.check(_pair("Maya lives in Kyoto."))
    assert yes == Verdict(True, "One home at a time.", "tiny")
    assert yes.label == "confirmed by tiny" and no.label == "rejected by tiny"
    assert no.reason == "Both can hold."
    assert {auth for _p, auth, _b in FakeChat.seen} == {f"Bearer {SECRET}"}
    assert all(p == "/v1/chat/completions" for p, _a, _b in FakeChat.seen)
    assert SECRET not in repr(client) + repr(config) + fingerprint(config)


def test_no_key_sends_no_authorization_header(url):
    config = config_from(url, "tiny", "")
    assert config is not None and config.api_key is None
    with JudgeClient(config) as client:
        client.check(_pair("Maya lives in Berlin."))
    assert FakeChat.seen[0][1] is None


@pytest.mark.parametrize(("text", "said"), [
    ("garbled", "not the JSON verdict"),
    ("please refuse", "declined to answer (I can't help"),
])
def test_an_unreadable_answer_or_a_refusal_is_one_sentence(url, text, said):
    config = config_from(url, "tiny", SECRET)
    assert config is not None
    with JudgeClient(config) as client, pytest.raises(JudgeFailed) as caught:
        client.check(_pair(text))
    assert said in str(caught.value) and SECRET not in str(caught.value)


def test_a_timeout_fails_that_pair_and_a_slow_answer_still_counts(url):
    config = config_from(url, "tiny", SECRET)
    assert config is not None
    config = config.model_copy(update={"timeout_s": 1.5})
    with JudgeClient(config) as client:
        with pytest.raises(JudgeFailed) as caught:
            client.check(_pair("stall"))
        assert "did not answer within 1.5 s" in str(caught.value)
        assert client.check(_pair("slowly")).conflict is True


def test_a_503_is_retried(url):
    config = config_from(url, "tiny", None)
    assert config is not None
    with JudgeClient(config, retry_budget_s=10) as client:
        assert client.check(_pair("flaky Kyoto")).conflict is False
    assert len(FakeChat.seen) == 2


def test_an_unreachable_endpoint_says_so_without_the_key():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = config_from(f"http://127.0.0.1:{port}", "m", SECRET)
    assert config is not None
    with JudgeClient(config, retry_budget_s=0) as client, pytest.raises(JudgeFailed) as caught:
        client.check(_pair("x"))
    assert "could not connect" in str(caught.value) and SECRET not in str(caught.value)


def test_configuration_rules():
    assert config_from(None, "m", "k") is None and config_from("http://h", " ", None) is None
    with pytest.raises(ValueError, match="http"):
        config_from("ftp://h", "m", None)
    with pytest.raises(ValueError, match="key field"):
        config_from("https://user:pw@h/v1", "m", None)
    remote = config_from("https://api.example.com/v1/", "gpt", "k")
    assert remote is not None and remote.base_url == "https://api.example.com/v1"
    assert host(remote) == "api.example.com" and not is_local(remote)
    local = config_from("http://127.0.0.1:11434/v1", "llama", None)
    assert local is not None and is_local(local) and host(local) == "127.0.0.1:11434"


def test_verdicts_are_kept_by_pair_digest_and_model():
    a, b = _pair("Maya lives in Berlin."), _pair("Maya lives in Porto.")
    assert verdict_key(a, "x") != verdict_key(b, "x") != verdict_key(a, "y")
    kept = {verdict_key(a, "x"): Verdict(True, "r", "x"),
            verdict_key(a, "y"): Verdict(False, "s", "y"),
            verdict_key(b, "x"): Verdict(False, "t", "x")}
    assert [v.model for v in verdicts_for(kept, a)] == ["x", "y"]


def _mem(mem_id: str, text: str, day: int) -> dict:
    when = f"2026-11-{day:02d}T09:00:00Z"
    return {"id": mem_id, "memory": text, "createdAt": when, "updatedAt": when,
            "spaceContainerTag": "home"}


def test_candidates_are_the_rules_findings_then_near_misses():
    ds = from_objects([{"documents": [{"id": "d1", "title": "Notes", "containerTags": ["home"],
                                       "createdAt": "2026-11-01T09:00:00Z",
                                       "memoryEntries": [
        _mem("t1", "Noor is teetotal and never drinks alcohol.", 1),
        _mem("t2", "Noor orders a whisky at the bar every Friday and drinks it.", 2),
        _mem("t3", "The office printer is on the third floor.", 3)]}]}])
    analysis = analyse(ds)
    misses = near_misses(analysis, [], limit=5)
    assert [m.nodes for m in misses] == [("t1", "t2")]
    assert "No rule flagged" in misses[0].reason
    ruled = SemanticFinding("suspected_contradiction", ("t1", "t3"), 0.9, "Rule.", "home",
                            ("a", "b"))
    out = candidates(analysis, [ruled])
    assert out[0] == Candidate(ruled) and out[1].near_miss and out[1].finding.nodes == (
        "t1", "t2")
    flagged = SemanticFinding("suspected_contradiction", ("t1", "t2"), 0.9, "Rule.", "home",
                              ("a", "b"))
    assert [c.near_miss for c in candidates(analysis, [flagged])] == [False]
