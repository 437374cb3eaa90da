"""Refresh on Supermemory v5 reads only what changed (issue 33, item 4), against the
sandbox (real sockets, real HTTP): an unchanged account costs the namespaces and the list
pages only; after an add, forgets and a memory updated into a new version the refreshed
load equals a fresh load field by field, with fewer views; the previous result is left
as it was; a result without a v5 load's state is loaded again in full."""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import fields, replace

import pytest
from sandbox_fixture import running_sandbox, supermemory_v5

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord
from memscope.sandbox import Sandbox
from memscope.sandbox.changes import new_version
from memscope.sources import EmbeddedSource, LoadResult, Source, wait_until_processed


@pytest.fixture
def demo(tmp_path):
    """The demo data: chains of 1–5 versions, single and forgotten memories, 3 spaces."""
    with running_sandbox(tmp_path, data="demo") as sb:
        yield sb


def same(got: Dataset, want: Dataset) -> None:
    """``got`` reads like ``want``, record by record and field by field."""
    assert list(got.memories) == list(want.memories)
    for mem_id, mem in want.memories.items():
        for f in fields(MemoryRecord):
            assert getattr(got.memories[mem_id], f.name) == getattr(mem, f.name), (
                mem_id, f.name)
    assert list(got.documents) == list(want.documents)
    assert got.documents == want.documents
    assert got.memory_documents == want.memory_documents
    assert got.spaces == want.spaces
    assert got.profiles == want.profiles
    assert got.unread == want.unread


def sent(sb: Sandbox) -> list[tuple[str, str]]:
    return [(r.method, r.path) for r in sb.requests]


def views(sb: Sandbox) -> int:
    return sum(1 for m, p in sent(sb) if m == "GET" and "/memories/" in p)


def test_an_unchanged_account_costs_its_list_pages_only(demo):
    src = supermemory_v5(demo)
    first = src.load()
    before = copy.deepcopy(first.dataset)
    demo.clear_requests()
    again = src.refresh(first)
    requests = sent(demo)
    assert requests and all(p == "/ns" or "/list/" in p for _, p in requests), requests
    assert again.calls == len(requests) and src.last_views == 0
    assert again is not first and again.dataset is not first.dataset
    same(again.dataset, first.dataset)
    same(first.dataset, before)  # the previous result is left as it was
    same(again.dataset, supermemory_v5(demo).load().dataset)
    demo.clear_requests()
    third = src.refresh(again)  # a refreshed result refreshes just as cheaply
    assert all(p == "/ns" or "/list/" in p for _, p in sent(demo))
    same(third.dataset, first.dataset)


def _changes(sb: Sandbox, src: Source, ds: Dataset) -> dict[str, list[str]]:
    """An add, three forgets (a chain's head, an older version, a single memory) and a
    chain's head updated into a new version."""
    tag = next(iter(ds.spaces)).container_tag
    chains: dict[str, list[MemoryRecord]] = {}
    for m in ds.memories.values():
        chains.setdefault(m.root_id or m.id, []).append(m)
    longest = sorted((c for c in chains.values() if len(c) >= 3 and not any(
        m.is_forgotten for m in c)), key=lambda c: (-len(c), c[0].id))
    single = next(m for c in chains.values() if len(c) == 1 and not (m := c[0]).is_forgotten
                  and m.container_tag == tag)
    head_a = max(longest[0], key=lambda m: m.version or 1)
    older_b = min(longest[1], key=lambda m: m.version or 1)
    head_c = max(longest[2], key=lambda m: m.version or 1)
    src.forget_many([head_a.id, older_b.id, single.id])
    newer = new_version(sb.store, head_c.id, "Maya now prefers tea over coffee.")
    sb.faults.update(processing_polls=1)
    added = src.add("Maya started learning the cello.", container_tag=tag)
    done = wait_until_processed(src, added.id or "", first_delay_s=0.01, max_delay_s=0.05)
    assert done.ok
    return {"forgotten": [head_a.id, older_b.id, single.id], "new": [newer],
            "updated": [head_c.id], "added": [added.id or ""]}


def test_after_changes_a_refresh_equals_a_fresh_load_with_fewer_views(demo):
    src = supermemory_v5(demo)
    first = src.load()
    full_views = src.last_views
    before = copy.deepcopy(first.dataset)
    told = _changes(demo, src, first.dataset)
    demo.clear_requests()
    again = src.refresh(first)
    refresh_views = views(demo)
    fresh_src = supermemory_v5(demo)
    fresh = fresh_src.load()
    same(again.dataset, fresh.dataset)
    same(first.dataset, before)
    assert told["added"][0] in again.dataset.documents
    assert told["new"][0] in again.dataset.memories
    assert again.dataset.memories[told["new"][0]].parent_id == told["updated"][0]
    assert not again.dataset.memories[told["updated"][0]].is_latest
    assert all(again.dataset.memories[i].is_forgotten for i in told["forgotten"])
    assert 0 < refresh_views < full_views / 4, (refresh_views, full_views)
    assert again.complete


def test_a_forget_patched_result_still_refreshes_to_a_fresh_load(demo):
    src = supermemory_v5(demo)
    first = src.load()
    ids = [m.id for m in first.dataset.memories.values() if not m.is_forgotten][:2]
    patched = src.patch_forgotten(first, ids) if src.forget_many(ids).forgotten else None
    assert patched is not None
    again = src.refresh(patched)
    same(again.dataset, supermemory_v5(demo).load().dataset)


def test_a_result_without_a_v5_state_is_loaded_again_in_full(demo):
    """Every request of a full load is made again, and nothing else: which history views a
    load makes follows from the answers alone, however many run at once and in whatever
    order they answer."""
    # (10 s a request: on a busy test machine a fast-failing request is retried or a view
    # given up on, and the two loads would differ by that, not by what a refresh does)
    src = supermemory_v5(demo, timeout_s=10.0)
    demo.clear_requests()
    first = src.load()
    assert not first.dataset.unread, f"the load gave up on a history view: {first.notes}"
    full = Counter((r.method, r.target) for r in demo.requests)
    assert first.calls == sum(full.values())
    bare: LoadResult = replace(first, resume_state=None)
    demo.clear_requests()
    again = src.refresh(bare)
    made = Counter((r.method, r.target) for r in demo.requests)
    assert made == full  # the whole load again, request for request
    assert again.calls == first.calls
    same(again.dataset, first.dataset)


def test_a_source_that_cannot_tell_what_changed_loads_again(demo):
    src = EmbeddedSource(demo.store)
    first = src.load()
    assert not src.refreshes_changes
    same(src.refresh(first).dataset, first.dataset)


def test_the_refresh_button_touches_in_a_refresh_or_drops_the_load(demo, monkeypatch):
    from types import SimpleNamespace

    from components.sections import sidebar

    done: list[tuple[str, object]] = []
    monkeypatch.setattr(sidebar.data, "touch", lambda key, result: done.append(("touch",
                                                                                result)))
    monkeypatch.setattr(sidebar.data, "forget_cached", lambda key: done.append(("drop", key)))
    monkeypatch.setattr(sidebar, "flash", lambda message, kind="success": None)
    src = supermemory_v5(demo)
    first = src.load()
    demo.clear_requests()
    sidebar._refresh(SimpleNamespace(source=src, load=first, key=("k",)))  # type: ignore[arg-type]
    assert [d[0] for d in done] == ["touch"] and isinstance(done[0][1], LoadResult)
    assert all(p == "/ns" or "/list/" in p for _, p in sent(demo))
    embedded = EmbeddedSource(demo.store)
    sidebar._refresh(SimpleNamespace(source=embedded, load=embedded.load(),  # type: ignore[arg-type]
                                     key=("e",)))
    assert done[-1] == ("drop", ("e",))
