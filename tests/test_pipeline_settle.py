"""The explorer's first view of a large load freezes what it built into the collector's
permanent generation (as the load itself does), so no later rerun pays a full collection
over the analysis, layout and overview; later reruns and small loads freeze nothing."""

from __future__ import annotations

from typing import Any

from apptest_support import browser_click, graph_payload, run_page

from memscope import kept


def _spy(monkeypatch, min_memories: int) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(kept, "MIN_MEMORIES", min_memories)
    monkeypatch.setattr(kept, "settle_heap", lambda **kw: calls.append(kw))
    return calls


def test_a_first_view_of_a_large_load_settles_the_heap_once(fresh_data_dir, monkeypatch):
    calls = _spy(monkeypatch, 1)  # the demo store counts as large
    at = run_page()
    # the first view's settle (the load may settle too, before): nothing was dropped, so
    # no full collection first
    firsts = [c for c in calls if c == {"free_old": False}]
    assert len(firsts) == 1 and calls[-1] == {"free_old": False}
    before = len(calls)
    some = graph_payload(at)["nodes"][0]["id"]
    browser_click(at, some)  # a rerun on the same view: nothing new to freeze
    browser_click(at, None)
    assert not at.exception
    assert len(calls) == before


def test_a_small_load_never_settles(fresh_data_dir, monkeypatch):
    calls = _spy(monkeypatch, 10**9)
    run_page()
    assert calls == []
