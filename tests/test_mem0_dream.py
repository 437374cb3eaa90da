"""mem0's Dream (its platform supersedes outdated memories and merges duplicates) read by
the mem0 source: a superseded memory is the version before its replacement, a merged one
is forgotten and linked to its canonical memory; the sandbox serves the same shape
(``replaced_by``, ``merged_into``, ``synthesized``; ``latest_only`` and ``include_merged``
in a read's body); and a mem0 load counts no "orphan memory" findings.

Field names: ``replaced_by`` and ``synthesized`` are in mem0's API reference (its
``docs/openapi.json``, v3 list results); ``latest_only`` is what mem0ai 2.2.1's
``get_all``/``search`` send (``GetAllMemoryOptions``); ``include_merged`` is the read flag
of docs.mem0.ai/platform/features/dream. The merged record's link is not in the reference
yet: Memscope reads ``merged_into``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from sandbox_fixture import FAST, running_sandbox
from test_mem0_contract import client

from memscope.graph.analysis import analyse
from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord, ParseReport
from memscope.reports.why import trail
from memscope.sandbox import Sandbox
from memscope.sources import Mem0Config, Mem0Source
from memscope.sources.mem0_events import chain, dream_links

TAG = "user:sm_project_personal"


@pytest.fixture
def dreamy(tmp_path) -> Iterator[Sandbox]:
    with running_sandbox(tmp_path / "sb", mem0_dream=True) as sb:
        yield sb


def mem0(sandbox: Sandbox, **overrides: Any) -> Mem0Source:
    return Mem0Source(Mem0Config(api_key=SecretStr(sandbox.mem0_key),
                                 base_url=sandbox.mem0_url, **{**FAST, **overrides}))


def listed(**raw: Any) -> dict[str, Any]:
    return {"user_id": "alice", "created_at": "2025-03-01T09:00:00Z", **raw}


def add(mem_id: str, text: str, at: str) -> list[dict[str, Any]]:
    return [{"id": f"h-{mem_id}", "event": "ADD", "new_memory": text, "created_at": at}]


def test_superseded_is_the_version_before_and_merged_is_forgotten_into_its_canonical():
    report = ParseReport()
    raw = {
        "lisbon": listed(id="lisbon", memory="Lives in Lisbon", replaced_by="berlin"),
        "berlin": listed(id="berlin", memory="Moved to Berlin"),
        "rex": listed(id="rex", memory="Has a dog named Rex", merged_into="rex2"),
        "rex2": listed(id="rex2", memory="Has a dog Rex, a golden retriever"),
        "gone": listed(id="gone", memory="Drives a Subaru", replaced_by="not-loaded"),
        "early": listed(id="early", memory="Is an early riser", synthesized=True),
    }
    times = {"lisbon": "2025-01-01T09:00:00Z", "berlin": "2025-02-01T09:00:00Z",
             "rex": "2025-01-05T09:00:00Z", "rex2": "2025-02-05T09:00:00Z",
             "gone": "2025-01-07T09:00:00Z", "early": "2025-01-09T09:00:00Z"}
    chains = {m: chain(m, add(m, r["memory"], times[m]), report, current=r, space=TAG)
              for m, r in raw.items()}
    chains["berlin"] = chain("berlin", [*add("berlin", "Moves to Berlin", times["berlin"]), {
        "id": "h-berlin-2", "event": "UPDATE", "old_memory": "Moves to Berlin",
        "new_memory": "Moved to Berlin", "created_at": times["berlin"],
        "updated_at": "2025-02-10T09:00:00Z"}], report, current=raw["berlin"], space=TAG)
    records = {r.id: r for r in dream_links(chains, report)}
    # superseded: one chain Lisbon → Berlin (two versions), numbered on
    assert [(records[i].parent_id, records[i].version, records[i].is_latest)
            for i in ("lisbon", "h-berlin", "berlin")] == [
        (None, 1, False), ("lisbon", 2, False), ("h-berlin", 3, True)]
    assert records["berlin"].root_id == "lisbon"
    # merged: forgotten with its canonical's text, the canonical extends it
    rex = records["rex"]
    assert (rex.is_forgotten, rex.is_latest) == (True, False)
    assert rex.forget_reason == ("Merged by mem0’s Dream into “Has a dog Rex, a golden "
                                 "retriever” (rex2).")
    assert rex.extra["forgottenAt"] == "2025-02-05T09:00:00Z"
    assert records["rex2"].relations == {"rex": "extends"}
    assert records["early"].is_inference
    assert any("not-loaded, which is not loaded" in i.message for i in report.issues)
    an = analyse(_dataset(records.values()))
    assert {m: an.state(m) for m in ("lisbon", "berlin", "rex", "gone")} == {
        "lisbon": "superseded", "berlin": "latest", "rex": "forgotten", "gone": "superseded"}
    assert [f.kind for f in an.findings] == []
    kinds = {(u, v, k) for u, v, k in an.graph.graph.edges(keys=True)}
    assert {("lisbon", "h-berlin", "updates"), ("h-berlin", "berlin", "updates"),
            ("rex", "rex2", "extends")} <= kinds
    said = trail(an, "rex").as_text()
    assert "is extended by “Has a dog Rex, a golden retriever” (rex2)" in said
    assert [v.id for v in trail(an, "lisbon").versions] == ["lisbon", "h-berlin", "berlin"]


def _dataset(records: Iterable[MemoryRecord]) -> Dataset:
    ds = Dataset(keeps_documents=False)
    for rec in records:
        ds.add_memory(rec, None)
    return ds


def test_two_memories_superseded_by_one_and_a_loop_are_noted_not_drawn():
    report = ParseReport()
    raw = {"a": listed(id="a", memory="A", replaced_by="c", created_at="2025-01-01T00:00:00Z"),
           "b": listed(id="b", memory="B", replaced_by="c", created_at="2025-01-02T00:00:00Z"),
           "c": listed(id="c", memory="C", created_at="2025-01-03T00:00:00Z"),
           "x": listed(id="x", memory="X", replaced_by="y"),
           "y": listed(id="y", memory="Y", replaced_by="x")}
    chains = {m: chain(m, [], report, current=r) for m, r in raw.items()}
    records = {r.id: r for r in dream_links(chains, report)}
    assert records["c"].parent_id == "b" and records["a"].parent_id is None  # the newest
    assert not records["a"].is_latest
    assert (records["x"].parent_id, records["y"].parent_id).count(None) == 1
    said = " ".join(i.message for i in report.issues)
    assert "replaced a newer memory too" in said and "the loop is not drawn" in said


def test_a_dream_shaped_sandbox_load_draws_superseded_and_merged_memories(dreamy):
    result = mem0(dreamy, entities=(TAG,)).load()
    ds = result.dataset
    bodies = [r.body for r in dreamy.requests if r.path == "/mem0/v3/memories/"]
    assert bodies == [{"filters": {"user_id": "sm_project_personal"}, "include_merged": True}]
    an = analyse(ds)
    states = Counter(an.state(m) for m in ds.memories)
    assert states["superseded"] >= 3 and states["forgotten"] == 2
    merged = {m.id: m.forget_reason for m in ds.memories.values() if m.is_forgotten}
    assert set(merged) == {"mem_trip", "mem_fe_v3"}
    assert merged["mem_trip"] == ("Merged by mem0’s Dream into “Booked a hotel near Alfama "
                                  "for the Lisbon trip.” (mem_trip_hotel).")
    # each version a memory of its own at the service, one chain here
    assert [ds.memories[i].parent_id for i in ("mem_fe_v1", "mem_fe_v2", "mem_fe_v3")] == [
        None, "mem_fe_v1", "mem_fe_v2"]
    assert ("mem_trip", "mem_trip_hotel", "extends") in set(an.graph.graph.edges(keys=True))
    assert Counter(f.kind for f in an.findings) == Counter(expired_not_forgotten=1)


def test_the_sandbox_reads_latest_only_and_include_merged_as_dream_does(dreamy):
    def ids(**flags: Any) -> set[str]:
        answer = httpx.post(f"{dreamy.mem0_url}/v3/memories/", headers={
            "Authorization": f"Token {dreamy.mem0_key}"}, json={
            "filters": {"user_id": "sm_project_personal"}, **flags}, params={"page_size": 100})
        assert answer.status_code == 200, answer.text
        return {m["id"] for m in answer.json()["results"]}

    default, latest, everything = ids(), ids(latest_only=True), ids(include_merged=True)
    assert latest < default < everything
    assert everything - default == {"mem_trip", "mem_fe_v3"}  # merged: hidden by default
    assert {"mem_fe_v1", "mem_fe_v2"} <= default - latest  # superseded: shown by default
    bad = httpx.post(f"{dreamy.mem0_url}/v3/memories/", headers={
        "Authorization": f"Token {dreamy.mem0_key}"}, json={
        "filters": {"user_id": "sm_project_personal"}, "latest_only": "yes"})
    assert bad.status_code == 400


def test_a_service_refusing_include_merged_is_asked_again_without_it(dreamy):
    dreamy.faults.update(status_sequence=[400], only_path="/mem0/v3/memories/")
    result = mem0(dreamy, entities=(TAG,)).load()
    bodies = [r.body for r in dreamy.requests if r.path == "/mem0/v3/memories/"]
    assert [("include_merged" in b) for b in bodies] == [True, False]
    assert any("refused include_merged" in n for n in result.notes)
    assert not [m for m in result.dataset.memories.values() if m.is_forgotten]


@pytest.mark.parametrize("dream", [False, True])
def test_a_mem0_load_reports_no_orphan_memories(tmp_path, dream):
    """mem0 keeps no documents (``Dataset.keeps_documents``): a demo-sized load used to
    count one ``orphan_memory`` per memory in the header."""
    with running_sandbox(tmp_path / "sb", data="demo", mem0_dream=dream) as sb:
        ds = mem0(sb).load().dataset
    after = Counter(f.kind for f in analyse(ds).findings)
    ds.keeps_documents = True  # what a load counted before
    before = Counter(f.kind for f in analyse(ds).findings)
    assert before["orphan_memory"] == len(ds.memories) > 300
    assert after == Counter(expired_not_forgotten=3)


def test_the_real_client_reads_dream_shaped_answers_with_both_flags(dreamy, tmp_path):
    """mem0ai 2.2.1's ``get_all`` sends ``latest_only`` (an option of its own) and
    ``include_merged`` (passed on as any keyword is) at the top of the JSON body."""
    steps = [{"op": "get_all", "kwargs": {"filters": {"user_id": "sm_project_personal"},
                                          "page": 1, "page_size": 100, **flags}}
             for flags in ({}, {"latest_only": True}, {"include_merged": True})]
    report = client(dreamy, steps, tmp_path)
    assert [r for r in report["results"] if "error" in r] == []
    default, latest, everything = ({m["id"] for m in r["json"]["results"]}
                                   for r in report["results"])
    assert latest < default < everything
    bodies = [r.body for r in dreamy.requests if r.path == "/mem0/v3/memories/"]
    assert bodies[1:] == [{"filters": {"user_id": "sm_project_personal"}, "latest_only": True},
                          {"filters": {"user_id": "sm_project_personal"},
                           "include_merged": True}]
    superseded = next(m for m in report["results"][0]["json"]["results"] if m["replaced_by"])
    assert superseded["replaced_by"] in everything and superseded["merged_into"] is None
