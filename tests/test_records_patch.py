"""The loaded data patched after an action (memscope.records.patch, memscope.sources.patch):
always a copy — the dataset other sessions read is never changed — and the source decides
what changed, or says it cannot (``None``: read the load again)."""

from __future__ import annotations

import copy as deep
from collections.abc import Sequence
from datetime import UTC, datetime

import pytest

from memscope.records import patch as rp
from memscope.records.dataset import Dataset, from_feed_pages
from memscope.records.models import MemoryRecord, Profile, SpaceRecord
from memscope.sources import patch
from memscope.sources.base import Source
from memscope.sources.errors import ServerError
from memscope.sources.results import (
    AddResult,
    ForgetReport,
    LoadProgress,
    LoadResult,
    ProgressCallback,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
T1 = datetime(2026, 2, 1, tzinfo=UTC)


def feed() -> Dataset:
    """Two documents: a chain v1 → v2 → v3 → v4 and two linked single memories."""
    def mem(i: str, **kw):
        return {"id": i, "memory": f"text {i}", "spaceContainerTag": "s",
                "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z", **kw}

    chain = [mem("v1", version=1, isLatest=False),
             mem("v2", version=2, isLatest=False, parentMemoryId="v1", rootMemoryId="v1",
                 memoryRelations={"v1": "updates"}),
             mem("v3", version=3, isLatest=False, parentMemoryId="v2", rootMemoryId="v1",
                 memoryRelations={"v2": "updates"}),
             mem("v4", version=4, parentMemoryId="v3", rootMemoryId="v1",
                 memoryRelations={"v3": "updates"})]
    pair = [mem("a"), mem("b", memoryRelations={"a": "extends"})]
    ds = from_feed_pages([[{"id": "d1", "title": "chain", "memoryEntries": chain},
                           {"id": "d2", "title": "pair", "memoryEntries": pair}]])
    ds.spaces = [SpaceRecord(container_tag="s", memory_count=3, document_count=2)]
    ds.profiles = {"s": Profile(container_tag="s")}
    return ds


def test_mark_forgotten_is_a_copy_with_the_time_and_reason():
    ds = feed()
    kept = deep.deepcopy(ds)
    after = rp.mark_forgotten(ds, ["a", "v4", "nope"], at=T1, reason="moved")
    assert ds == kept  # the shared one is untouched
    a = after.memories["a"]
    assert (a.is_forgotten, a.forget_reason, a.updated_at) == (True, "moved", T1)
    assert after.memories["b"] is ds.memories["b"]  # unchanged records are shared
    assert "nope" not in after.memories
    again = rp.mark_forgotten(after, ["a"], at=T0, reason="other")
    assert again.memories["a"] == a  # already forgotten: left as it was
    kept_time = rp.mark_forgotten(ds, ["b"], at=None, reason=None)
    assert kept_time.memories["b"].updated_at == ds.memories["b"].updated_at


def test_mark_restored_clears_the_flag_and_reason():
    gone = rp.mark_forgotten(feed(), ["a"], at=T0, reason="moved")
    back = rp.mark_restored(gone, ["a", "b"], at=T1)
    assert (back.memories["a"].is_forgotten, back.memories["a"].forget_reason,
            back.memories["a"].updated_at) == (False, None, T1)
    assert back.memories["b"] is gone.memories["b"]  # not forgotten: left alone
    assert gone.memories["a"].is_forgotten


def test_unlink_forgotten_drops_links_between_two_forgotten_memories_only():
    ds = rp.mark_forgotten(feed(), ["a", "b"], at=T1, reason=None)
    after = rp.unlink_forgotten(ds, {"a", "b"})
    assert after.memories["b"].relations is None  # extends between two forgotten ones
    assert ds.memories["b"].relations == {"a": "extends"}
    one = rp.unlink_forgotten(rp.mark_forgotten(feed(), ["b"], at=T1, reason=None), {"b"})
    assert one.memories["b"].relations == {"a": "extends"}  # "a" is not forgotten


def test_unlink_forgotten_cuts_a_chain_and_reads_the_roots_below_again():
    ds = rp.mark_forgotten(feed(), ["v2", "v3"], at=T1, reason=None)
    after = rp.unlink_forgotten(ds, {"v2", "v3"})
    v2, v3, v4 = (after.memories[i] for i in ("v2", "v3", "v4"))
    assert (v2.parent_id, v2.root_id) == ("v1", "v1")  # v1 is not forgotten
    assert (v3.parent_id, v3.root_id, v3.relations) == (None, None, None)
    assert (v4.parent_id, v4.root_id) == ("v3", "v3")  # its chain now starts at v3
    assert ds.memories["v4"].root_id == "v1"
    # links between memories forgotten earlier, none of them in ids, are not this call's
    untouched = rp.unlink_forgotten(after, {"a"})
    assert untouched.memories == after.memories


def test_refresh_memories_takes_the_service_state_and_keeps_what_it_does_not_say():
    ds = feed()
    reread = MemoryRecord(id="v4", memory="new text", container_tag="s", version=4,
                          is_forgotten=True, updated_at=T1)
    after = rp.refresh_memories(ds, [reread, MemoryRecord(id="x", memory="not loaded")],
                                gone=["a"])
    v4 = after.memories["v4"]
    assert (v4.memory, v4.is_forgotten, v4.updated_at) == ("new text", True, T1)
    assert (v4.parent_id, v4.root_id, v4.relations) == ("v3", "v1", {"v3": "updates"})
    assert "x" not in after.memories
    assert "a" not in after.memories and "a" not in after.memory_documents
    assert after.documents["d2"].memory_ids == ["b"]
    assert ds.documents["d2"].memory_ids == ["a", "b"] and "a" in ds.memories


def test_add_records_puts_the_new_document_first_and_retires_what_it_replaced():
    ds = feed()
    kept = deep.deepcopy(ds)
    fragment = from_feed_pages([[{"id": "d3", "title": "new", "memoryEntries": [
        {"id": "v5", "memory": "newest", "version": 5, "parentMemoryId": "v4",
         "rootMemoryId": "v1", "memoryRelations": {"v4": "updates"},
         "spaceContainerTag": "s"},
        {"id": "b", "memory": "text b", "spaceContainerTag": "s",
         "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-02-01T00:00:00Z",
         "memoryRelations": {"a": "extends"}}]}]])
    after = rp.add_records(ds, fragment, not_latest=["v4"])
    assert ds == kept
    assert next(iter(after.documents)) == "d3" and after.documents["d3"].memory_ids == ["v5", "b"]
    assert after.memory_documents["v5"] == ["d3"]
    assert after.memory_documents["b"] == ["d2", "d3"]  # a memory seen under both
    assert after.memories["b"].updated_at == T1  # its state is the service's now
    assert after.memories["v4"].is_latest is False and ds.memories["v4"].is_latest
    assert after.documents["d1"] is ds.documents["d1"]


def test_spaces_profiles_and_counts():
    ds = feed()
    listed = rp.with_spaces(ds, [SpaceRecord(container_tag="t")])
    assert [s.container_tag for s in listed.spaces] == ["t", "s"]
    assert [s.container_tag for s in rp.with_spaces(ds, [SpaceRecord("t")], keep=False)
            .spaces] == ["t"]
    line = Profile(container_tag="s", static=[])
    assert rp.with_profiles(ds, {"s": line}).profiles["s"] is line
    gone = rp.mark_forgotten(ds, ["a", "v3", "v4"], at=T1, reason=None)
    counted = rp.recount(gone, ds, ["a", "v3", "v4"])  # v3 was not current
    assert counted.spaces[0].memory_count == 1 and ds.spaces[0].memory_count == 3


# -- memscope.sources.patch: the calls the sections make -----------------------------------


class Patching(Source):
    """A source that patches forgets by marking them, and fails to read again."""

    kind = "test"

    def __init__(self, *, fail: bool = False) -> None:
        self.fail = fail
        self.reread_ids: list[str] = []

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        return LoadResult(feed(), self.kind, self.label)

    def patch_forgotten(self, previous: LoadResult, ids: Sequence[str], *,
                        reason: str | None = None) -> LoadResult | None:
        return patch.patched(previous, rp.mark_forgotten(previous.dataset, ids,
                                                         at=patch.now(), reason=reason))

    def reread(self, previous: LoadResult, ids: Sequence[str]) -> LoadResult | None:
        self.reread_ids += ids
        if self.fail:
            raise ServerError("The service is down.")
        return patch.patched(previous, previous.dataset, calls=len(ids))


class Plain(Source):
    kind = "plain"

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        if progress is not None:
            progress(LoadProgress(1, 1, 0, 0))
        return LoadResult(Dataset(), self.kind, self.label)


def test_a_source_that_cannot_patch_says_none_and_nothing_changed_is_the_same_load():
    src, load = Plain(), Plain().load()
    assert patch.after_forget(src, load, ["m"]) is None
    assert patch.after_restore(src, load, ["m"]) is None
    assert patch.after_error(src, load, ["m"]) is None
    assert patch.after_add(src, load, AddResult("d", "done", "")) is None
    assert patch.after_forget(src, load, []) is load
    assert patch.after_add(src, load, AddResult("d", "failed", "")) is load
    assert patch.after_forget(src, None, ["m"]) is None


def test_a_patch_is_a_new_result_stamped_now():
    src = Patching()
    load = src.load()
    new = patch.after_forget(src, load, ["a", "a"], reason="r")
    assert new is not None and new is not load
    assert new.dataset.memories["a"].is_forgotten and not load.dataset.memories["a"].is_forgotten
    assert new.loaded_at >= load.loaded_at
    assert patch.now().microsecond == 0


def test_a_report_marks_what_was_forgotten_and_rereads_what_was_refused():
    src = Patching()
    load = src.load()
    report = ForgetReport(("a", "b", "v4"), ("a",), {"b": "refused"})
    new = patch.after_report(src, load, report, reason=None)
    assert new is not None and new.dataset.memories["a"].is_forgotten
    assert src.reread_ids == ["b", "v4"]  # refused, and not matched
    assert new.calls == 2
    failing = Patching(fail=True)
    kept = patch.after_report(failing, load, report)
    assert kept is not None and kept.dataset.memories["a"].is_forgotten  # the forget stands
    assert patch.after_error(failing, load, ["a"]) is None  # a failed re-read: reload


@pytest.mark.parametrize("ids", [["a"], ["a", "b", "v1"]])
def test_the_shared_dataset_is_never_changed(ids):
    src = Patching()
    load = src.load()
    kept = deep.deepcopy(load.dataset)
    patch.after_forget(src, load, ids)
    patch.after_error(src, load, ids)
    assert load.dataset == kept
