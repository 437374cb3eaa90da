"""The load patched after an action equals a load made after it, against the sandbox (real
sockets, real HTTP), with the requests the patch made counted from the sandbox's log:
forget by meaning (``≤ K/500 + 2``), forget-all of a large space, a version chain cut by
two forgets, an add (``≤ 3`` beyond the add and its polls), an error in the middle (only
what the action touched is read again) — on Supermemory v5, and the legacy API's forget
and add."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import fields
from datetime import timedelta
from typing import Any

import pytest
from sandbox_fixture import running_sandbox, supermemory, supermemory_v5

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord
from memscope.sandbox import Sandbox
from memscope.sources import (
    LoadResult,
    ServerError,
    Source,
    SourceError,
    actions,
    patch,
    wait_until_processed,
)
from memscope.sources.results import ForgetReport
from memscope.storage.sql import SQLiteStorage

NS = "sm_project_personal"
#: what a load reads besides the patch's own requests: lists, namespaces' pages, views
LOAD_ROUTES = ("/list/", "/v3/documents/documents")


@pytest.fixture
def sandbox(tmp_path):
    with running_sandbox(tmp_path / "sb", data="fixtures") as sb:
        yield sb


@pytest.fixture
def big(tmp_path):
    """1,350 memories in three spaces (the demo generator)."""
    with running_sandbox(tmp_path / "big", data="demo", documents=450, memories=1350) as sb:
        yield sb


def assert_same(patched: Dataset, fresh: Dataset, touched: set[str],
                slack: timedelta = timedelta(seconds=2)) -> None:
    """``patched`` reads like ``fresh`` field by field; the time a touched memory changed
    is the service's clock, so it may differ by as long as the action took (``slack``)."""
    assert set(patched.memories) == set(fresh.memories)
    for mem_id, want in fresh.memories.items():
        got = patched.memories[mem_id]
        for f in fields(MemoryRecord):
            a, b = getattr(got, f.name), getattr(want, f.name)
            if f.name == "updated_at" and mem_id in touched and a and b:
                assert abs(a - b) <= slack, (mem_id, a, b)
            else:
                assert a == b, (mem_id, f.name, a, b)
    assert patched.documents == fresh.documents
    assert patched.memory_documents == fresh.memory_documents
    assert patched.spaces == fresh.spaces
    assert patched.profiles == fresh.profiles


def read_all(src: Source) -> LoadResult:
    """``src``'s load, which must have read every memory's history view. A view given up
    on (its requests timed out on a busy test machine) leaves its memory off its document,
    which is no patch's doing: it fails here, saying so, not as a difference further on."""
    result = src.load()
    unread = result.dataset.unread
    assert not unread, f"the load gave up on {len(unread)} histories: {result.notes}"
    return result


def fresh(client: Callable[..., Source], sb: Sandbox) -> Dataset:
    """What a load made now reads: the truth a patched load is compared with (a new client
    of ``sb``, each request given 10 s: a comparison needs every view, not fast failure)."""
    return read_all(client(sb, timeout_s=10.0)).dataset


def requests(sb: Sandbox) -> list[tuple[str, str]]:
    return [(r.method, r.path) for r in sb.requests]


@pytest.fixture
def ledger(tmp_path):
    return SQLiteStorage(tmp_path / "ledger.sqlite")


def forget(src: Source, ledger: SQLiteStorage, ids: list[str], tag: str) -> ForgetReport:
    """The reviewed ids forgotten with their ledger rows, as the sections do."""
    return actions.forget_many(src, ledger, ids, reason="moved on", container_tag=tag)


# -- forget ------------------------------------------------------------------------------


def test_forget_by_meaning_is_patched_in_k_over_500_plus_2_requests(sandbox, ledger):
    src = supermemory_v5(sandbox)
    load = read_all(src)
    preview = src.forget_semantic_preview("Lisbon", container_tag=NS)
    ids = list(preview.ids)
    assert len(ids) >= 2  # mem_trip and the hotel that extends it: both forgotten now
    sandbox.clear_requests()
    report = forget(src, ledger, ids, NS)
    new = patch.after_report(src, load, report, reason="moved on")
    assert new is not None and new is not load
    sent = requests(sandbox)
    assert len(sent) <= math.ceil(len(ids) / 500) + 2, sent
    assert sent == [("DELETE", f"/ns/{NS}/memories"), ("POST", f"/ns/{NS}/profile")]
    assert not any(r in p for _, p in sent for r in LOAD_ROUTES)  # the account is not read
    assert_same(new.dataset, fresh(supermemory_v5, sandbox), set(ids))
    assert not any(load.dataset.memories[i].is_forgotten for i in ids)  # shared: untouched
    assert src.last_result is new


def test_two_forgotten_versions_of_a_chain_are_cut_as_a_load_sees_them(sandbox, ledger):
    src = supermemory_v5(sandbox)
    load = read_all(src)
    assert load.dataset.memories["mem_fe_v3"].parent_id == "mem_fe_v2"
    report = forget(src, ledger, ["mem_fe_v2", "mem_fe_v3"], NS)
    new = patch.after_report(src, load, report)
    assert new is not None
    assert new.dataset.memories["mem_fe_v3"].parent_id is None  # the views cannot link them
    assert_same(new.dataset, fresh(supermemory_v5, sandbox),
                {"mem_fe_v2", "mem_fe_v3"})


def test_a_refused_id_is_read_again(sandbox, ledger):
    src = supermemory_v5(sandbox)
    load = read_all(src)
    sandbox.store.forget_memory("mem_trip", None, source="someone else")  # meanwhile
    sandbox.clear_requests()
    report = forget(src, ledger, ["mem_trip", "mem_trip_hotel"], NS)
    assert report.errors == {"mem_trip": "Memory is already forgotten"}
    new = patch.after_report(src, load, report)
    assert new is not None and new.dataset.memories["mem_trip"].is_forgotten
    assert ("GET", f"/ns/{NS}/memories/mem_trip") in requests(sandbox)
    assert_same(new.dataset, fresh(supermemory_v5, sandbox),
                {"mem_trip", "mem_trip_hotel"})


def test_forget_all_of_a_large_space_costs_its_batches_and_the_profile(big, ledger):
    src = supermemory_v5(big, timeout_s=60)  # 500 deletions at 250 ms on a busy machine
    load = read_all(src)
    assert len(load.dataset.memories) == 1350
    preview = src.forget_all_preview("acme_work")
    assert preview.count > 500
    big.clear_requests()
    big.faults.update(latency_ms=250)
    t0 = time.perf_counter()
    result = actions.forget_all(src, ledger, preview, confirm="acme_work", reason=None)
    t1 = time.perf_counter()
    assert result.report is not None
    new = patch.after_report(src, load, result.report)
    t2 = time.perf_counter()
    big.faults.update(latency_ms=0)
    assert new is not None
    sent = requests(big)
    assert len(sent) == math.ceil(preview.count / 500) + 1, sent  # the batches, the profile
    print(f"forget-all of {preview.count} of 1,350 memories at 250 ms: {len(sent)} "
          f"requests; the forget (ledger rows, the service's writes) {t1 - t0:.2f} s, "
          f"the patch {t2 - t1:.2f} s")
    took = timedelta(seconds=t2 - t0 + 2)  # the service stamps each batch as it goes
    assert_same(new.dataset, fresh(supermemory_v5, big), set(preview.memory_ids),
                slack=took)


# -- an error in the middle ---------------------------------------------------------------


def fail_second_delete(src: Source) -> None:
    """The second ``DELETE`` fails (as if every retry had): the first batch went through."""
    http = src._http  # type: ignore[attr-defined]
    real, seen = http.request, []

    def request(method: str, path: str, **kw: Any) -> Any:
        if method == "DELETE":
            seen.append(path)
            if len(seen) == 2:
                raise ServerError("The service failed.", service="Supermemory", status=500)
        return real(method, path, **kw)

    http.request = request


def test_an_error_in_the_middle_rereads_what_the_forget_touched(big, ledger):
    src = supermemory_v5(big, timeout_s=10.0)  # 1,350 views on a busy machine
    load = read_all(src)
    ids = [m.id for m in load.dataset.memories.values()
           if m.container_tag == "acme_work" and not m.is_forgotten]
    assert len(ids) > 500
    fail_second_delete(src)
    big.clear_requests()
    with pytest.raises(SourceError):
        forget(src, ledger, ids, "acme_work")
    assert len(big.requests_to("/ns/acme_work/memories", "DELETE")) == 1  # 500 forgotten
    big.clear_requests()
    new = patch.after_error(src, load, ids)
    assert new is not None
    sent = requests(big)
    pages = [p for _, p in sent if p == "/ns/acme_work/list/memories"]
    assert 0 < len(pages) <= math.ceil(555 / 200) + 1  # the space's memory pages only
    assert not [p for _, p in sent if "/list/" in p and p != "/ns/acme_work/list/memories"]
    assert len(sent) == len(pages) + 2, sent  # + the namespaces, the profile
    now = fresh(supermemory_v5, big)
    assert sum(now.memories[i].is_forgotten for i in ids) == 500
    assert_same(new.dataset, now, set(ids))


def test_one_failed_forget_rereads_one_memory(sandbox):
    src = supermemory_v5(sandbox)
    load = read_all(src)
    sandbox.clear_requests()
    new = patch.after_error(src, load, ["mem_run"])
    assert new is not None
    assert requests(sandbox) == [("GET", f"/ns/{NS}/memories/mem_run"), ("GET", "/ns"),
                                 ("POST", f"/ns/{NS}/profile")]
    assert_same(new.dataset, fresh(supermemory_v5, sandbox), set())


# -- add ----------------------------------------------------------------------------------


def added(sb: Sandbox, src: Source, text: str):
    sb.faults.update(processing_polls=2)
    first = src.add(text, container_tag=NS)
    done = wait_until_processed(src, first.id or "", first_delay_s=0.01, max_delay_s=0.05)
    assert done.ok
    return done


def test_an_add_on_v5_is_patched_in_three_requests(sandbox):
    src = supermemory_v5(sandbox)
    load = read_all(src)
    done = added(sandbox, src, "Maya started learning the cello.")
    sandbox.clear_requests()
    new = patch.after_add(src, load, done)
    assert new is not None
    sent = requests(sandbox)
    assert len(sent) <= 3 and not any(r in p for _, p in sent for r in LOAD_ROUTES), sent
    assert done.id in new.dataset.documents and set(done.memory_ids) <= set(new.dataset.memories)
    assert done.id not in load.dataset.documents
    assert_same(new.dataset, fresh(supermemory_v5, sandbox), set())


def test_the_legacy_api_forget_and_add_are_patched_too(sandbox, ledger):
    src = supermemory(sandbox)
    load: LoadResult = read_all(src)
    ids = ["mem_trip", "mem_coffee_v2"]
    sandbox.clear_requests()
    report = forget(src, ledger, ids, NS)
    new = patch.after_report(src, load, report, reason="moved on")
    assert new is not None
    assert [p for _, p in requests(sandbox)] == ["/v4/memories", "/v4/memories", "/v4/profile"]
    assert new.dataset.memories["mem_trip"].forget_reason == "moved on"
    assert_same(new.dataset, fresh(supermemory, sandbox), set(ids))
    done = added(sandbox, src, "Maya started learning the cello.")
    sandbox.clear_requests()
    again = patch.after_add(src, new, done)
    assert again is not None
    assert [p for _, p in requests(sandbox)] == ["/v3/documents/documents",
                                                 "/v3/container-tags/list", "/v4/profile"]
    # the forgotten memories keep the time the forget patched in (this computer's clock,
    # within the slack of the service's): the add touched nothing else
    assert_same(again.dataset, fresh(supermemory, sandbox), set(ids))
