"""The comparison over real HTTP: each sandbox API's load against a snapshot of itself,
saved before a change made through that API (Supermemory legacy and v5, Spomory)."""

from __future__ import annotations

from pathlib import Path

from sandbox_fixture import running_sandbox, spomory, supermemory, supermemory_v5

from memscope.lenses.compare import DatasetDiff, compare
from memscope.records.dataset import Dataset
from memscope.sources import FileSource, LoadResult, snapshot_bytes


def _snapshot(load: LoadResult) -> Dataset:
    """What the Compare page reads back from a snapshot saved on the Connection page."""
    return FileSource.from_bytes([("snapshot.json", snapshot_bytes(load))]).load().dataset


def _changes(diff: DatasetDiff) -> list[tuple[str, str, str, list[tuple[str, object, object]]]]:
    return [(d.change, d.record, d.id, [(f.field, f.a, f.b) for f in d.fields])
            for d in diff.differences]


def _target(ds: Dataset) -> str:
    """A memory that is the latest, not forgotten and ends no chain edge."""
    return next(m_id for m_id, m in sorted(ds.memories.items())
                if m.is_latest and not m.is_forgotten and m.parent_id is None
                and not m.relations)


def test_supermemory_legacy_and_v5_against_their_snapshots_after_a_forget(tmp_path: Path
                                                                          ) -> None:
    with running_sandbox(tmp_path) as sandbox:
        with supermemory(sandbox) as legacy:
            before = legacy.load()
            snap = _snapshot(before)
            assert compare(snap, before.dataset).identical
            target = _target(before.dataset)
            legacy.forget(target, reason="compare test")
            after = legacy.load(refresh=True)
        diff = compare(snap, after.dataset)
        assert _changes(diff) == [("changed", "memory", target, [("forgotten", False, True)])]
        assert diff.node_changes() == {target: "changed"}
        with supermemory_v5(sandbox) as v5:
            v5_before = v5.load()
            v5_snap = _snapshot(v5_before)
            assert compare(v5_snap, v5_before.dataset).identical
            second = _target(v5_before.dataset)
            assert second != target
            v5.forget(second)
            v5_after = v5.load(refresh=True)
        v5_diff = compare(v5_snap, v5_after.dataset)
        assert _changes(v5_diff) == [("changed", "memory", second,
                                      [("forgotten", False, True)])]


def test_spomory_against_its_snapshot_after_forgetting_a_fact(tmp_path: Path) -> None:
    with running_sandbox(tmp_path) as sandbox, spomory(sandbox) as source:
        before = source.load()
        snap = _snapshot(before)
        assert compare(snap, before.dataset).identical
        fact_id = sorted(before.dataset.relations)[0]
        fact = before.dataset.relations[fact_id]
        source.forget(fact_id)
        after = source.load(refresh=True)
    diff = compare(snap, after.dataset)
    changes = [(d.change, d.record, d.id) for d in diff.differences]
    assert ("removed", "fact", fact_id) in changes
    # the service drops an entity that no fact names any more: removed too, nothing else
    named = {e for r in after.dataset.relations.values() for e in (r.subject_id, r.object_id)}
    orphans = sorted({fact.subject_id, fact.object_id} - named)
    assert changes == [*(("removed", "entity", e) for e in orphans),
                       ("removed", "fact", fact_id)]
    removed_fact = next(d for d in diff.differences if d.record == "fact")
    assert removed_fact.nodes == (fact.subject_id, fact.object_id)
    assert diff.node_changes() == {e: "removed" if e in orphans else "changed"
                                   for e in (fact.subject_id, fact.object_id)}
