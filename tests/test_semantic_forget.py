"""Semantic forget, previewed on the graph, forgotten by the reviewed ids.

First the ledgered action (:func:`memscope.sources.actions.forget_many`) with a small
source that answers a given per-id report, so every ledger path is reached; then the
section under AppTest against the real sandbox over loopback (v5 routes)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from components.sections.ledger import ACTION_WORDS, OUTCOME_WORDS
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


class OwnLedger(Answering):
    """The same, writing its own rows in the ledger's file (as the embedded store does)."""

    def ledger_file(self) -> Path:
        return self.storage.path

    def forget_many(self, ids, *, reason=None, container_tag=None, actor=None):
        report = super().forget_many(ids, reason=reason, container_tag=container_tag)
        for i in report.forgotten:  # the store's own row, in its own transaction
            self.storage.record_ledger(action="forget", source=self.kind, outcome="ok",
                                       scope=self.identity(), actor=actor or "local",
                                       target_id=i)
        return report


def test_a_source_with_its_own_ledger_gets_rows_only_for_what_it_did_not_forget(storage):
    source = OwnLedger(storage, report=ForgetReport(("m1", "m2"), ("m1",),
                                                    {"m2": "No memory m2."}))
    actions.forget_many(source, storage, ["m1", "m2"], reason="old", container_tag=None,
                        actor="ann@example.com")
    rows = storage.ledger(scope=source.identity())
    assert sorted((r.target_id, r.action, r.outcome, r.actor) for r in rows) == [
        ("m1", "forget", "ok", "ann@example.com"),
        ("m2", "forget_many", "error", "ann@example.com")]
    assert source.rows_during_call == []  # nothing written ahead: the store writes its own


# -- the section under AppTest, against the sandbox's v5 routes -----------------------------

PERSONAL = "sm_project_personal"
SEMANTIC = f"/ns/{PERSONAL}/memories/semantic"
BY_IDS = f"/ns/{PERSONAL}/memories"


@pytest.fixture
def sandbox(tmp_path):
    from sandbox_fixture import running_sandbox

    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sb:
        yield sb


def v5_home(sandbox, dialect: str = "v5", **state):
    from apptest_support import run_page
    from pydantic import SecretStr

    from components.state.connection import Connection

    return run_page(connection=Connection("supermemory", base_url=sandbox.url, space=PERSONAL,
                                          dialect=dialect),
                    api_key_secret=SecretStr(sandbox.supermemory_key), **state)


def highlighted(at) -> set[str]:
    from apptest_support import graph_payload

    return {n["id"] for n in graph_payload(at)["nodes"] if n.get("highlighted")}


def preview(at, query: str) -> None:
    from apptest_support import open_fold

    if not [t for t in at.text_input if t.key == "semantic_forget_query"]:
        open_fold(at, "Forget memories about…")
    at.text_input(key="semantic_forget_query").input(query)
    next(b for b in at.button if b.label == "Preview").click().run()
    assert not at.exception, at.exception


def tick_boxes(at) -> dict[str, Any]:
    """The review's tick boxes by memory id."""
    return {str(c.key).rsplit("-tick-", 1)[1]: c for c in at.checkbox
            if c.key and str(c.key).startswith("sf-") and "-tick-" in str(c.key)}


def go_button(at):
    return next(b for b in at.button if b.key and str(b.key).endswith("-go"))


def texts(at) -> str:
    every = [e.value for kind in (at.caption, at.info, at.success, at.warning, at.error)
             for e in kind] + [c.label for c in at.checkbox]
    return " ".join(str(v) for v in every).replace("\\", "")


def test_preview_highlights_the_matches_untick_confirm_forgets_the_reviewed_ids(
        fresh_data_dir, sandbox):
    from memscope.settings import store_path
    from memscope.store.store import Store

    at = v5_home(sandbox)
    assert highlighted(at) == set()
    preview(at, "frontend")
    [dry] = sandbox.requests_to(SEMANTIC, "DELETE")
    assert dry.body == {"query": "frontend", "dryRun": True}
    matched = [m["id"] for m in dry.answer["matches"]]
    assert len(matched) >= 2
    boxes = tick_boxes(at)
    assert list(boxes) == matched and all(b.value for b in boxes.values())
    assert highlighted(at) == set(matched)  # exactly what the dry run matched
    assert not sandbox.requests_to(BY_IDS, "DELETE")  # nothing deleted yet
    keep = matched[0]
    boxes[keep].uncheck().run()
    reviewed = matched[1:]
    assert highlighted(at) == set(reviewed)
    assert go_button(at).label == f"Forget {len(reviewed)} memor" + (
        "y" if len(reviewed) == 1 else "ies")
    at.text_input(key=f"sf-{str(go_button(at).key)[3:-3]}-reason").input("moved on")
    before = len(sandbox.requests)
    go_button(at).click().run()
    assert not at.exception, at.exception
    [sent] = sandbox.requests_to(BY_IDS, "DELETE")
    assert sent.body == {"ids": reviewed}  # by the reviewed ids, in the preview's order
    assert len(sandbox.requests_to(SEMANTIC, "DELETE")) == 1  # no second semantic call
    assert all(sandbox.store.get_memory(i)["isForgotten"] for i in reviewed)
    assert sandbox.store.get_memory(keep)["isForgotten"] is False
    # the per-id report on screen, one ledger row per id
    assert f"Forgotten {len(reviewed)} of {len(reviewed)} reviewed" in texts(at)
    table = next(d.value for d in at.dataframe if "outcome" in d.value.columns)
    assert list(table["id"]) == reviewed and set(table["outcome"]) == {"forgotten"}
    rows = [r for r in Store(store_path()).ledger() if r.action == "forget_many"]
    assert sorted((r.target_id, r.outcome, r.reason, r.space, r.status) for r in rows) == \
        sorted((i, "ok", "moved on", PERSONAL, "completed") for i in reviewed)
    assert {r.snapshot for r in rows} == {m["memory"] for m in dry.answer["matches"]
                                          if m["id"] in reviewed}
    # the loaded data was patched, not read again: the forget and the space's profile are
    # all that was sent (no list page, no history view); the graph shows them forgotten,
    # nothing is highlighted any more
    at.run()
    assert [(r.method, r.path) for r in sandbox.requests[before:]] == [
        ("DELETE", BY_IDS), ("POST", f"/ns/{PERSONAL}/profile")]
    from apptest_support import graph_payload

    states = {n["id"]: n.get("state") for n in graph_payload(at)["nodes"]}
    assert {states[i] for i in reviewed} == {"forgotten"} and states[keep] != "forgotten"
    assert highlighted(at) == set()
    assert not tick_boxes(at)
    # the Ledger page lists one row per reviewed id
    at.switch_page("pages/ledger.py").run()
    assert not at.exception, at.exception
    ledger = next(d.value for d in at.dataframe if "target_id" in d.value.columns)
    mine = ledger[ledger["action"] == ACTION_WORDS["forget_many"]]
    assert sorted(mine["target_id"]) == sorted(reviewed)
    assert set(mine["outcome"]) == {OUTCOME_WORDS["ok"]}


def test_a_second_click_on_confirm_sends_nothing_more(fresh_data_dir, sandbox):
    at = v5_home(sandbox)
    preview(at, "Lisbon")
    confirm = go_button(at)
    confirm.click().run()
    confirm.click().run()  # the same button again, from the page as it was drawn
    assert not at.exception, at.exception
    at.run()
    assert len(sandbox.requests_to(BY_IDS, "DELETE")) == 1
    assert len(sandbox.requests_to(SEMANTIC, "DELETE")) == 1


def test_no_match_is_one_sentence_and_nothing_to_confirm(fresh_data_dir, sandbox):
    at = v5_home(sandbox)
    preview(at, "zzqx nothing like this")
    assert "No memory matches “zzqx nothing like this”: nothing would be forgotten." \
        in texts(at)
    assert not tick_boxes(at) and highlighted(at) == set()
    assert not [b for b in at.button if b.key and str(b.key).endswith("-go")]
    next(b for b in at.button if b.label == "Close the preview").click().run()
    assert "No memory matches" not in texts(at)
    assert not sandbox.requests_to(BY_IDS, "DELETE")


def test_presenter_mode_masks_the_texts_under_review(fresh_data_dir, sandbox):
    at = v5_home(sandbox, presenter_mode=True)
    preview(at, "Lisbon")
    labels = " ".join(c.label for c in tick_boxes(at).values())
    assert "Lisbon" not in labels and "hidden in presenter mode" in labels
    assert highlighted(at)  # still drawn on the graph


def test_the_legacy_dialect_says_why_and_draws_nothing_else(fresh_data_dir, sandbox):
    at = v5_home(sandbox, dialect="legacy")
    assert "Forgetting memories by meaning is unavailable: Supermemory's legacy API (v3/v4) " \
           "has no dry run" in texts(at)
    assert not [e for e in at.expander if "Forget memories about" in e.label]
    assert not [t for t in at.text_input if t.key == "semantic_forget_query"]


def test_the_embedded_store_draws_nothing(fresh_data_dir):
    from apptest_support import run_page

    at = run_page()
    assert "by meaning" not in texts(at)
    assert not [t for t in at.text_input if t.key == "semantic_forget_query"]


def test_the_one_node_forget_on_v5_sends_its_id_and_shows_the_services_report(
        fresh_data_dir, sandbox):
    from memscope.settings import store_path
    from memscope.store.store import Store

    at = v5_home(sandbox, selected_node="mem_run")
    at.button(key="forget-mem_run").click().run()
    next(t for t in at.text_input if t.label == "Reason (optional)").input("stopped running")
    next(b for b in at.button if b.label == "Forget").click().run()
    assert not at.exception, at.exception
    [sent] = sandbox.requests_to(BY_IDS, "DELETE")
    assert sent.body == {"ids": ["mem_run"]}
    toasts = " ".join(t.value for t in at.toast).replace("\\", "")
    assert "Supermemory forgot memory mem_run." in toasts
    assert "takes no reason; Memscope's ledger keeps it" in toasts
    [row] = [r for r in Store(store_path()).ledger() if r.target_id == "mem_run"]
    assert (row.action, row.outcome, row.reason) == ("forget", "ok", "stopped running")


def test_a_memory_forgotten_meanwhile_is_reported_and_ledgered_as_refused(
        fresh_data_dir, sandbox):
    from memscope.settings import store_path
    from memscope.store.store import Store

    at = v5_home(sandbox)
    preview(at, "Lisbon")
    assert set(tick_boxes(at)) == {"mem_trip", "mem_trip_hotel"}
    sandbox.store.forget_memory("mem_trip", None, source="someone else")  # meanwhile
    go_button(at).click().run()
    assert not at.exception, at.exception
    [sent] = sandbox.requests_to(BY_IDS, "DELETE")
    assert sorted(sent.body["ids"]) == ["mem_trip", "mem_trip_hotel"]
    assert "Forgotten 1 of 2 reviewed memories. 1 refused by the service." in texts(at)
    table = next(d.value for d in at.dataframe if "outcome" in d.value.columns)
    outcome = dict(zip(table["id"], table["outcome"], strict=True))
    assert outcome == {"mem_trip": "error: Memory is already forgotten",
                       "mem_trip_hotel": "forgotten"}
    rows = {r.target_id: (r.outcome, r.message) for r in Store(store_path()).ledger()
            if r.action == "forget_many"}
    assert rows["mem_trip"] == ("error", "Memory is already forgotten")
    assert rows["mem_trip_hotel"][0] == "ok"
