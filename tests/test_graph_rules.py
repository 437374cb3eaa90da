"""Small hand-built cases, one per rule of graph-semantics.md."""

from __future__ import annotations

import itertools
from datetime import timedelta

from conftest import NOW

from memscope.graph.analysis import analyse
from memscope.graph.chains import Chain, Chains, build_chains
from memscope.graph.states import memory_state
from memscope.records.dataset import Dataset, from_feed_pages
from memscope.records.models import MemoryRecord
from memscope.records.time import format_time


def mem(mid: str, **kw) -> dict:
    return {"id": mid, "memory": f"text of {mid}", **kw}


def build(*docs: dict):
    return analyse(from_feed_pages([list(docs)]), NOW)


def chain_of(chains: Chains, memory_id: str) -> Chain:
    """The chain holding ``memory_id``; the test fails when there is none."""
    chain = chains.of(memory_id)
    assert chain is not None, f"{memory_id} has no chain"
    return chain


def edges(an) -> set[tuple[str, str, str]]:
    g = an.graph.graph
    return {(u, v, d["kind"]) for u, v, d in g.edges(data=True) if d["kind"] != "source"}


def kinds(an) -> set[tuple[str, tuple[str, ...]]]:
    return {(f.kind, tuple(f.nodes)) for f in an.findings}


def test_relation_edge_runs_from_other_to_declaring_memory():
    an = build({"id": "d", "memoryEntries": [mem("a"), mem("b", memoryRelations={"a": "extends"})]})
    assert edges(an) == {("a", "b", "extends")}


def test_relations_take_precedence_over_parent():
    an = build({"id": "d", "memoryEntries": [
        mem("a"), mem("p"), mem("b", parentMemoryId="p", memoryRelations={"a": "derives"})]})
    assert edges(an) == {("a", "b", "derives")}  # no p → b edge


def test_parent_is_the_fallback_when_relations_empty_or_missing():
    for rels in ({}, None):
        entry = mem("b", parentMemoryId="a")
        if rels is not None:
            entry["memoryRelations"] = rels
        an = build({"id": "d", "memoryEntries": [mem("a"), entry]})
        assert edges(an) == {("a", "b", "updates")}


def test_forward_references_across_pages_and_documents():
    pages = [
        {"documents": [{"id": "d2", "memoryEntries": [
            mem("new", version=2, parentMemoryId="old", memoryRelations={"old": "updates"})]}]},
        {"documents": [{"id": "d1", "memoryEntries": [mem("old", isLatest=False)]}]},
    ]
    an = analyse(from_feed_pages(pages), NOW)
    assert edges(an) == {("old", "new", "updates")}
    assert an.findings == []


def test_dangling_relation_and_parent_add_no_edge():
    an = build({"id": "d", "memoryEntries": [
        mem("a", memoryRelations={"ghost": "extends"}), mem("b", parentMemoryId="gone")]})
    assert edges(an) == set()
    refs = {(r.node_id, r.missing_id, r.relation) for r in an.graph.dangling}
    assert refs == {("a", "ghost", "extends"), ("b", "gone", "parent")}
    assert kinds(an) == {("dangling_relation", ("a",)), ("dangling_parent", ("b",))}
    chain = chain_of(an.chains, "b")
    assert chain.incomplete and chain.missing_parent == "gone"


def test_unknown_relation_is_read_as_updates_and_reported():
    an = build({"id": "d", "memoryEntries": [
        mem("a", isLatest=False),
        mem("b", version=2, parentMemoryId="a", memoryRelations={"a": "replaces"})]})
    assert edges(an) == {("a", "b", "updates")}
    assert kinds(an) == {("unknown_relation", ("b", "a"))}  # parent agrees: no contradiction


def test_updates_that_contradict_the_parent_pointer():
    an = build({"id": "d", "memoryEntries": [
        mem("a"), mem("x"), mem("b", parentMemoryId="x", memoryRelations={"a": "updates"})]})
    assert ("updates_contradicts_parent", ("a", "b")) in kinds(an)


def test_one_node_for_a_memory_under_two_documents():
    m = mem("m")
    an = build({"id": "d1", "memoryEntries": [m]}, {"id": "d2", "memoryEntries": [dict(m)]})
    g = an.graph.graph
    assert g.nodes["m"]["documents"] == ["d1", "d2"]
    assert sorted((u, v) for u, v, k in g.edges(keys=True) if k == "source") == [
        ("d1", "m"), ("d2", "m")]
    assert an.findings == []


def test_a_later_different_occurrence_is_a_duplicate_and_first_wins():
    an = build({"id": "d1", "memoryEntries": [mem("m")]},
               {"id": "d2", "memoryEntries": [{"id": "m", "memory": "changed"}]})
    assert an.dataset.memories["m"].memory == "text of m"
    assert kinds(an) == {("duplicate_memory", ("m",))}
    assert an.graph.graph.nodes["m"]["documents"] == ["d1", "d2"]


def test_id_used_by_a_document_and_a_memory_skips_the_later_record():
    ds = from_feed_pages([[{"id": "x", "memoryEntries": []},
                           {"id": "d", "memoryEntries": [mem("x")]}]])
    assert ds.kind_of("x") == "document" and "x" not in ds.memories
    assert ds.report.skipped[0].reason == "memory id x is already used by another record"


def test_cycle_terminates_holds_each_member_once_and_is_reported():
    memories = {
        "m1": MemoryRecord("m1", "a", parent_id="m2"),
        "m2": MemoryRecord("m2", "b", parent_id="m1"),
        "m3": MemoryRecord("m3", "c", parent_id="m1"),
    }
    chains = build_chains(memories)
    assert len(chains) == 1
    assert sorted(chain_of(chains, "m3").ids) == ["m1", "m2", "m3"]
    assert sorted(chain_of(chains, "m1").cycle) == ["m1", "m2"]
    ds = Dataset()
    for m in memories.values():
        ds.add_memory(m, None)
    an = analyse(ds, NOW)
    cycle = [f for f in an.findings if f.kind == "cycle"]
    assert len(cycle) == 1 and sorted(cycle[0].nodes) == ["m1", "m2"]


def test_self_parent_is_a_cycle_of_one():
    chains = build_chains({"m": MemoryRecord("m", "a", parent_id="m")})
    chain = chain_of(chains, "m")
    assert chain.ids == ["m"] and chain.cycle == ["m"]


def test_branches_depth_first_siblings_by_created_at_then_id():
    t = lambda h: format_time(NOW - timedelta(days=30) + timedelta(hours=h))  # noqa: E731
    an = build({"id": "d", "memoryEntries": [
        mem("r", createdAt=t(0)),
        mem("late", parentMemoryId="r", createdAt=t(5)),
        mem("early", parentMemoryId="r", createdAt=t(1)),
        mem("early_child", parentMemoryId="early", createdAt=t(9)),
        mem("tie_b", parentMemoryId="late", createdAt=t(6)),
        mem("tie_a", parentMemoryId="late", createdAt=t(6)),
    ]})
    chain = chain_of(an.chains, "tie_a")
    assert chain.ids == ["r", "early", "early_child", "late", "tie_a", "tie_b"]
    assert chain.branches == {"r": ["early", "late"], "late": ["tie_a", "tie_b"]}
    assert [e.depth for e in chain.entries] == [0, 1, 2, 1, 2, 2]


def test_single_memory_has_no_chain():
    an = build({"id": "d", "memoryEntries": [mem("alone")]})
    assert an.chains.of("alone") is None and len(an.chains) == 0


def test_version_repair_and_branches_continue_from_parent():
    an = build({"id": "d", "memoryEntries": [
        mem("a", version=1), mem("b", version=5, parentMemoryId="a"),
        mem("c", version=5, parentMemoryId="b"), mem("c2", version="7", parentMemoryId="b"),
        mem("z", version=None, parentMemoryId="c")]})
    chain = chain_of(an.chains, "a")
    shown = {e.id: e.version for e in chain.entries}
    assert shown == {"a": 1, "b": 5, "c": 6, "c2": 6, "z": 7}
    repaired = {f.nodes[0] for f in an.findings if f.kind == "version_repair"}
    assert repaired == {"c", "c2", "z"}  # a missing version takes the default 1: z is repaired


def test_multiple_latest_and_forgotten_latest():
    an = build({"id": "d", "memoryEntries": [
        mem("a", isLatest=True), mem("b", parentMemoryId="a"),
        mem("f", isForgotten=True, isLatest=True)]})
    assert ("multiple_latest", ("a", "b")) in kinds(an)
    assert ("forgotten_latest", ("f",)) in kinds(an)


def test_orphan_memory_has_no_loaded_document():
    ds = Dataset()
    ds.add_memory(MemoryRecord("lonely", "x"), None)
    an = analyse(ds, NOW)
    assert kinds(an) == {("orphan_memory", ("lonely",))}


def test_no_orphan_memory_where_the_source_keeps_no_documents():
    ds = Dataset(keeps_documents=False)  # mem0: a memory never has a document
    ds.add_memory(MemoryRecord("lonely", "x"), None)
    ds.add_memory(MemoryRecord("b", "y", parent_id="gone"), None)
    assert kinds(analyse(ds, NOW)) == {("dangling_parent", ("b",))}


def test_no_finding_rests_on_an_unread_memory():
    ds = Dataset()
    ds.add_memory(MemoryRecord("unread", "x"), None)  # its history view was refused
    ds.add_memory(MemoryRecord("read", "y"), None)
    ds.add_memory(MemoryRecord("v2", "z", parent_id="unread", version=2), None)
    ds.unread = {"unread"}
    assert kinds(analyse(ds, NOW)) == {("orphan_memory", ("read",)), ("orphan_memory", ("v2",))}
    ds.unread = set()  # read at last (a resume): what it shows is a finding again
    assert ("orphan_memory", ("unread",)) in kinds(analyse(ds, NOW))


def test_states_in_order_with_injected_now():
    def state(**kw):
        return memory_state(MemoryRecord("m", "x", **kw), NOW)

    day = timedelta(days=1)
    assert state(is_forgotten=True, forget_after=NOW - day, is_latest=False) == "forgotten"
    assert state(forget_after=NOW) == "expired"
    assert state(forget_after=NOW + day, is_latest=False) == "expiring"
    assert state(forget_after=NOW + 7 * day) == "latest"  # not strictly within 7 days
    assert state(is_latest=False, created_at=NOW) == "superseded"
    assert state(created_at=NOW - timedelta(hours=23)) == "recent"
    assert state(created_at=NOW - timedelta(hours=24)) == "latest"
    assert state(created_at=NOW) == "recent"
    # a fact the memory learns only later (seen on the world's clock) is not "recent" yet
    assert state(created_at=NOW + timedelta(hours=1)) == "latest"


def test_expired_not_forgotten_depends_on_now():
    entry = mem("m", forgetAfter="2026-12-01T00:00:00Z")
    ds = from_feed_pages([[{"id": "d", "memoryEntries": [entry]}]])
    assert analyse(ds, NOW).findings == []
    later = NOW + timedelta(days=2)
    assert kinds(analyse(ds, later)) == {("expired_not_forgotten", ("m",))}


def test_state_epochs_change_exactly_when_some_state_changes(feed_paths):
    from memscope.graph.states import state_epoch, transition_times
    from memscope.records.dataset import read_files

    ds = read_files(feed_paths)
    times = transition_times(ds.memories.values())
    # every transition instant, and the instants just before and after it
    probes = sorted({t + d for t in times for d in (-timedelta(microseconds=1),
                                                    timedelta(0), timedelta(microseconds=1))})
    snapshots = [(state_epoch(times, t), tuple(memory_state(m, t) for m in
                                               ds.memories.values())) for t in probes]
    changes = 0
    for (e1, s1), (e2, s2) in itertools.pairwise(snapshots):
        if e1 == e2:
            assert s1 == s2  # same epoch: same states, so caches may key on the epoch
        changes += s1 != s2
    assert changes >= 3  # the fixtures do change state over time (recent, expiry)
