"""The mem0 platform source against the sandbox on 127.0.0.1: chains, spaces, the pool,
the retry rules, forgetting (ledgered) and what it refuses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr
from sandbox_fixture import FAST, running_sandbox

from memscope.export.formats import evidence_json, evidence_nodes
from memscope.graph.analysis import analyse
from memscope.graph.build import build_graph
from memscope.lenses.presenter import mask_spaces, space_pseudonyms
from memscope.records.models import ParseReport
from memscope.reports.audit import chains_table
from memscope.sandbox import Sandbox
from memscope.sources import MalformedResponse, Mem0Config, Mem0Source, Unsupported, actions
from memscope.sources.mem0_events import DELETED, chain
from memscope.store.store import Store

TAG = "user:sm_project_personal"


@pytest.fixture
def sandbox(tmp_path) -> Iterator[Sandbox]:
    with running_sandbox(tmp_path / "sb") as sb:
        yield sb


def mem0(sandbox: Sandbox, **overrides: Any) -> Mem0Source:
    return Mem0Source(Mem0Config(api_key=SecretStr(sandbox.mem0_key),
                                 base_url=sandbox.mem0_url, **{**FAST, **overrides}))


def in_flight(sandbox: Sandbox, suffix: str) -> int:
    """The most requests ending in ``suffix`` the sandbox handled at one moment."""
    spans = [(r.started, r.finished) for r in sandbox.requests if r.path.endswith(suffix)]
    events = sorted([(s, 1) for s, _ in spans] + [(e, -1) for _, e in spans])
    best = now = 0
    for _, step in events:
        now += step
        best = max(best, now)
    return best


def test_a_load_is_every_entity_with_every_history_as_chains(sandbox):
    src = mem0(sandbox, page_size=5)
    result = src.load()
    ds = result.dataset
    listed = {t: n for t, n in ((s.container_tag, s.memory_count) for s in ds.spaces)}
    assert TAG in listed and all(t.startswith("user:") for t in listed)
    latest = [m for m in ds.memories.values() if m.is_latest]
    assert len(latest) == sum(n or 0 for n in listed.values())
    # one list page per 5 memories of an entity, one history per memory, the entities
    pages = sum(-(-(n or 0) // 5) for n in listed.values())
    assert result.calls == 1 + pages + len(latest)
    assert len(sandbox.requests_to("/mem0/v1/entities/")) == 1
    # every older version is the parent of the next and the chain ends at the mem0 id
    for mem in latest:
        versions = sorted((m for m in ds.memories.values()
                           if m.extra["mem0MemoryId"] == mem.id), key=lambda m: m.version)
        assert versions[-1] is mem and [v.parent_id for v in versions] == [
            None, *(v.id for v in versions[:-1])]
        assert all(v.container_tag == mem.container_tag for v in versions)
    graph = build_graph(ds)
    updates = [e for e in graph.graph.edges(data=True) if e[2].get("kind") == "updates"]
    assert len(updates) == len(ds.memories) - len(latest) > 0


def test_histories_run_on_a_bounded_pool_and_429_pauses_it(sandbox):
    sandbox.faults.latency_ms = 20
    src = mem0(sandbox, history_concurrency=3, entities=(TAG,))
    src.load()
    assert in_flight(sandbox, "/history/") == 3
    sandbox.clear_requests()
    sandbox.faults.update(latency_ms=0, status_sequence=[429, 503], retry_after="0",
                          only_path="/mem0/v1/memories/")
    again = src.load(refresh=True)
    statuses = [r.status for r in sandbox.requests if r.path.endswith("/history/")]
    assert statuses.count(429) == 1 and statuses.count(503) == 1
    assert again.notes == [] and len(again.dataset.memories) == len(src.load().dataset.memories)


def test_a_history_that_still_fails_is_one_version_and_said(sandbox):
    src = mem0(sandbox, entities=(TAG,), max_attempts=1)
    sandbox.faults.update(status_sequence=[500], only_path="/mem0/v1/memories/")
    result = src.load()
    assert len(result.notes) == 1 and "could not be read" in result.notes[0]
    assert any("shown as one version" in i.message for i in result.dataset.report.issues)


def test_forget_deletes_the_memory_ledgered_and_an_old_version_is_refused(sandbox, tmp_path):
    src = mem0(sandbox, entities=(TAG,))
    ds = src.load().dataset
    old = next(m for m in ds.memories.values() if not m.is_latest)
    sandbox.clear_requests()
    with pytest.raises(Unsupported, match="mem0 deletes whole memories"):
        src.forget(old.id)
    assert sandbox.requests == []  # nothing was sent
    target = old.extra["mem0MemoryId"]
    ledger = Store.create(tmp_path / "ledger.db")
    result = actions.forget(src, ledger, target, reason="wrong", container_tag=TAG,
                            snapshot=ds.memories[target].memory)
    assert result.ok and src.load().dataset.memories[target].is_forgotten
    assert not ds.memories[target].is_forgotten  # the load other sessions read is untouched
    (row,) = ledger.ledger(scope=src.identity())
    assert (row.action, row.outcome, row.target_id, row.reason) == ("forget", "ok", target,
                                                                     "wrong")
    after = src.load(refresh=True).dataset
    assert after.memories.get(target) is None  # a deleted memory is no longer listed
    assert [e["event"] for e in src._history(target)][-1] == "DELETE"


def test_forget_many_is_one_batch_with_a_per_id_report(sandbox):
    src = mem0(sandbox, entities=(TAG,))
    ds = src.load().dataset
    ids = [m.id for m in ds.memories.values() if m.is_latest][:3]
    old = next(m.id for m in ds.memories.values() if not m.is_latest)
    sandbox.clear_requests()
    report = src.forget_many([*ids, old])
    assert report.forgotten == tuple(ids) and list(report.errors) == [old]
    (req,) = sandbox.requests
    assert (req.method, req.path, req.body) == ("DELETE", "/mem0/v1/batch/",
                                                {"memories": [{"memory_id": i} for i in ids]})
    preview = src.forget_all_preview(TAG)
    assert not set(ids) & set(preview.memory_ids)
    assert preview.confirm_words == (TAG, str(preview.count))


def test_search_and_add(sandbox):
    src = mem0(sandbox, entities=(TAG,))
    ds = src.load().dataset
    mem = next(m for m in ds.memories.values() if m.is_latest)
    found = src.search(mem.memory, limit=3)
    assert found.hits[0].id == mem.id and found.hits[0].record is mem
    added = src.add("Keeps a paper notebook for ideas.")
    assert added.ok and added.memory_ids
    assert added.memory_ids[0] in src.load(refresh=True).dataset.memories


def test_events_the_graph_cannot_show_are_said():
    report = ParseReport()
    events = [{"id": "e1", "event": "UPDATE", "old_memory": "a", "new_memory": "b",
               "updated_at": "2025-01-02T00:00:00Z"},
              {"id": "e2", "event": "UPDATE", "old_memory": "zzz", "new_memory": "c",
               "updated_at": "2025-01-03T00:00:00Z"},
              {"id": "e3", "event": "NOOP", "updated_at": "2025-01-04T00:00:00Z"},
              {"id": "e4", "event": "DELETE", "old_memory": "c",
               "updated_at": "2025-01-05T00:00:00Z"}]
    recs = chain("m", events, report)
    assert [(r.id, r.memory) for r in recs] == [("e1", "b"), ("m", "c")]
    assert recs[-1].is_forgotten and recs[-1].forget_reason == DELETED
    assert recs[-1].updated_at is not None and recs[-1].updated_at.day == 5
    said = " ".join(i.message for i in report.issues) + " ".join(s.reason for s in
                                                                 report.skipped)
    assert "starts with an UPDATE" in said and "an event is missing" in said
    assert "NOOP" in said


def test_the_audit_evidence_and_presenter_work_on_a_mem0_load_unchanged(sandbox):
    ds = mem0(sandbox, entities=(TAG,)).load().dataset
    analysis = analyse(ds)
    table = chains_table(analysis)
    longest = max(analysis.chains.chains, key=lambda c: len(c.ids))
    assert len(table) == len(analysis.chains.chains) and len(longest.ids) >= 2
    latest = longest.ids[-1] if ds.memories[longest.ids[-1]].is_latest else next(
        i for i in longest.ids if ds.memories[i].is_latest)
    pack = evidence_json(analysis, evidence_nodes(analysis, latest))
    assert {n["id"] for n in pack["nodes"]} == set(longest.ids)
    names = space_pseudonyms(ds)
    assert TAG in names and TAG not in mask_spaces(f"forgot a memory of {TAG}", names)


def test_dropped_connections_are_retried_and_a_cut_off_answer_is_one_sentence(sandbox):
    sandbox.faults.update(drops=2, only_path="/mem0/v3/memories/")
    src = mem0(sandbox, entities=(TAG,))
    assert src.load().notes == []
    sandbox.faults.update(drops=0, malformed=1)
    with pytest.raises(MalformedResponse) as raised:
        src.load(refresh=True)
    assert str(raised.value).startswith("mem0 sent an answer that is not valid JSON")


def test_a_list_page_that_still_fails_is_named_and_the_rest_loads(sandbox):
    sandbox.faults.update(fail_pages={2}, fail_status=503)
    result = mem0(sandbox, entities=(TAG,), page_size=3, max_attempts=2).load()
    assert result.missing_pages == [2] and not result.complete  # a gap, said as one
    assert result.page_errors[2].startswith(f"Page 2 of {TAG} could not be read")
    failed = [r for r in sandbox.requests if r.query.get("page") == "2"]
    assert [r.status for r in failed] == [503, 503]
    assert sum(1 for m in result.dataset.memories.values() if m.is_latest) > 3


def test_a_forget_patches_the_load_without_reading_mem0_again(sandbox):
    from memscope.sources import patch

    src = mem0(sandbox, entities=(TAG,))
    load = src.load()
    ids = [m.id for m in load.dataset.memories.values() if m.is_latest][:2]
    report = src.forget_many(ids)
    sandbox.clear_requests()
    new = patch.after_report(src, load, report)
    assert new is not None and sandbox.requests == []  # nothing read again
    assert all(new.dataset.memories[i].is_forgotten for i in ids)
    assert not any(load.dataset.memories[i].is_forgotten for i in ids)  # shared: untouched
