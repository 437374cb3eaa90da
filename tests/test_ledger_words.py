"""Issue 32: the Ledger's action, source, outcome and status columns in plain words
(no snake_case kind such as "forget_all" or "supermemory_v5" on screen)."""

from __future__ import annotations

import re

from apptest_support import run_page

from components.sections.ledger import ledger_frame
from memscope.settings import STORE_FILE
from memscope.sources import actions
from memscope.sources.embedded import EmbeddedSource
from memscope.storage.ledger import LedgerEntry
from memscope.store.store import Store

SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")


def _entry(**kw: object) -> LedgerEntry:
    base: dict[str, object] = {
        "time": "2026-12-05T10:00:00Z", "actor": "local", "source": "embedded",
        "space": None, "action": "forget", "target_id": "m1", "snapshot": "Lives in Porto",
        "reason": None, "outcome": "ok", "message": ""}
    return LedgerEntry(**(base | kw))  # type: ignore[arg-type]


def test_every_kind_the_ledger_writes_reads_in_words() -> None:
    entries = [
        _entry(action="forget_all", source="supermemory_v5", target_id=None, snapshot=None),
        _entry(action="restore", source="mem0-history", outcome="noop"),
        _entry(action="forget", source="spomory", outcome="mismatch", status="attempted"),
        _entry(action="reviewed", source="file", outcome="error",
               target_id="suspected_contradiction:ee54", snapshot="A ⟷ B"),
        _entry(action="judged", source="graphiti", outcome="pending"),
        _entry(action="seed", source="embedded", target_id=None, snapshot=None),
        _entry(action="add", source="supermemory"),
        _entry(action="brand_new_kind", source="some_future_source_v2"),
    ]
    frame = ledger_frame(entries)
    shown = frame[["what", "action", "source", "outcome", "status"]]
    for value in shown.astype(str).to_numpy().ravel():
        assert not SNAKE.search(value), value
    assert list(frame["action"][:2]) == ["Forgot everything in a space", "Restored a memory"]
    assert frame["source"].iloc[0] == "Supermemory"
    assert list(frame["outcome"][:3]) == ["done", "nothing to do",
                                          "refused: something else would have been forgotten"]
    assert frame["status"].iloc[2] == "sent, no answer recorded"
    assert frame["what"].iloc[0] == "Forgot every memory in the space"
    assert list(frame["action"][-1:]) == ["Brand new kind"]
    assert list(frame["source"][-1:]) == ["Some future source"]


def test_the_ledger_page_shows_words(fresh_data_dir) -> None:
    run_page("ledger.py")  # seeds the demo store
    store_file = fresh_data_dir / STORE_FILE
    source, store = EmbeddedSource(store_file), Store(store_file)
    mem = next(m for m in source.load().dataset.memories.values() if not m.is_forgotten)
    actions.forget(source, store, mem.id, reason="wrong", container_tag=None,
                   snapshot=mem.memory)
    at = run_page("ledger.py")
    table = next(d.value for d in at.dataframe if "outcome" in d.value.columns)
    for column in ("action", "source", "outcome", "status"):
        for value in table[column].dropna().astype(str):
            assert not SNAKE.search(value), (column, value)
    assert "Forgot a memory" in set(table["action"])
    assert "Embedded demo store" in set(table["source"])
    chooser = next(m for m in at.multiselect if m.label == "Action")
    assert "Forgot a memory" in chooser.options and "forget" not in chooser.options


def test_a_space_is_named_as_the_service_names_it() -> None:
    """Outside presenter mode the ledger names a space by the name the loaded data gives it
    ("Personal", not "sm_project_personal"); a tag it does not name stays as it is; in
    presenter mode the pseudonym wins."""
    entries = [_entry(space="sm_project_personal"), _entry(space="old_tag")]
    names = {"sm_project_personal": "Personal"}
    assert list(ledger_frame(entries, names=names)["space"]) == ["Personal", "old_tag"]
    masked = ledger_frame(entries, presenter=True, names=names,
                          spaces={"sm_project_personal": "Space 1"})
    assert list(masked["space"]) == ["Space 1", "Space 2"]
