"""Semantic forget, previewed on the graph, forgotten by the reviewed ids.

First the ledgered action (:func:`memscope.sources.actions.forget_many`) with a small
source that answers a given per-id report, so every ledger path is reached; then the
section under AppTest against the real sandbox over loopback (v5 routes)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from memscope.sources import (
    Capabilities,
    ForgetReport,
    LoadResult,
    NotFound,
    Source,
    SourceError,
    actions,
)
from memscope.sources.actions import ViewerRefused
from memscope.storage import StorageError
from memscope.storage.sql import SQLiteStorage


class Answering(Source):
    """A source whose ``forget_many`` answers ``report`` (or raises ``error``) and keeps
    every call with the ledger rows that existed while it ran."""

    kind = "answering"
    capabilities = Capabilities(forget=True, forget_many=True)

    def __init__(self, storage: SQLiteStorage, *, report: ForgetReport | None = None,
                 error: SourceError | None = None) -> None:
        self.storage = storage
        self.report = report
        self.error = error
        self.calls_seen: list[tuple[tuple[str, ...], str | None, str | None]] = []
        self.rows_during_call: list[tuple[str | None, str, str]] = []

    def load(self, progress=None, *, refresh: bool = False) -> LoadResult:
        raise NotImplementedError

    def forget_many(self, ids: Sequence[str], *, reason: str | None = None,
                    container_tag: str | None = None) -> ForgetReport:
        self.calls_seen.append((tuple(ids), reason, container_tag))
        self.rows_during_call = [(r.target_id, r.status, r.outcome)
                                 for r in self.storage.ledger(scope=self.identity())]
        if self.error is not None:
            raise self.error
        assert self.report is not None
        return self.report


@pytest.fixture
def storage(tmp_path: Path) -> SQLiteStorage:
    return SQLiteStorage(tmp_path / "ledger.sqlite")


def _rows(storage: SQLiteStorage, source: Source) -> dict[str, tuple]:
    return {str(r.target_id): (r.action, r.outcome, r.status, r.snapshot, r.reason, r.space)
            for r in storage.ledger(scope=source.identity())}


def test_one_call_with_the_reviewed_ids_and_one_row_per_id(storage):
    report = ForgetReport(requested=("m1", "m2", "m3"), forgotten=("m1",),
                          errors={"m2": "Memory m2 is locked."})
    source = Answering(storage, report=report)
    got = actions.forget_many(source, storage, ["m1", "m2", "m3", "m1"], reason="moved",
                              container_tag="sm_home",
                              snapshots={"m1": "Lives at 1 Elm St.", "m2": "Elm St. key"})
    assert got is report
    assert source.calls_seen == [(("m1", "m2", "m3"), "moved", "sm_home")]
    # every row was written before the call, as attempted
    assert sorted(source.rows_during_call) == [("m1", "attempted", "pending"),
                                               ("m2", "attempted", "pending"),
                                               ("m3", "attempted", "pending")]
    assert _rows(storage, source) == {
        "m1": ("forget_many", "ok", "completed", "Lives at 1 Elm St.", "moved", "sm_home"),
        "m2": ("forget_many", "error", "completed", "Elm St. key", "moved", "sm_home"),
        "m3": ("forget_many", "noop", "completed", None, "moved", "sm_home"),
    }
    messages = {r.target_id: r.message for r in storage.ledger(scope=source.identity())}
    assert messages["m2"] == "Memory m2 is locked."
    assert "one of 3 reviewed ids" in messages["m1"]
    assert "matched no memory" in messages["m3"]


def test_a_refused_call_completes_every_row_as_refused(storage):
    source = Answering(storage, error=NotFound("Supermemory has no namespace sm_x."))
    with pytest.raises(NotFound):
        actions.forget_many(source, storage, ["m1", "m2"], reason=None, container_tag="sm_x")
    rows = storage.ledger(scope=source.identity())
    assert sorted((r.target_id, r.outcome, r.status, r.message) for r in rows) == [
        ("m1", "error", "completed", "Supermemory has no namespace sm_x."),
        ("m2", "error", "completed", "Supermemory has no namespace sm_x.")]


def test_a_viewer_and_an_empty_review_send_nothing_and_write_nothing(storage):
    source = Answering(storage, report=ForgetReport(("m1",), ("m1",), {}))
    with pytest.raises(ViewerRefused):
        actions.forget_many(source, storage, ["m1"], reason=None, container_tag=None,
                            actor="eve@example.com", viewer=True)
    with pytest.raises(SourceError, match="no memory was chosen"):
        actions.forget_many(source, storage, [], reason=None, container_tag=None)
    assert source.calls_seen == []
    assert storage.ledger() == []


class Failing(SQLiteStorage):
    """A ledger whose second attempted row cannot be written."""

    begun = 0

    def begin_ledger(self, **kw):
        self.begun += 1
        if self.begun == 2:
            raise StorageError("The ledger database is read-only.")
        return super().begin_ledger(**kw)


def test_an_unwritable_ledger_stops_the_forget_before_anything_is_sent(tmp_path):
    storage = Failing(tmp_path / "ledger.sqlite")
    source = Answering(storage, report=ForgetReport(("m1", "m2"), ("m1", "m2"), {}))
    with pytest.raises(SourceError, match="Nothing was done: The ledger database is read-only"):
        actions.forget_many(source, storage, ["m1", "m2"], reason=None, container_tag=None)
    assert source.calls_seen == []
    [row] = storage.ledger()
    assert (row.target_id, row.outcome, row.status) == ("m1", "error", "completed")
    assert row.message.startswith("Nothing was sent")
