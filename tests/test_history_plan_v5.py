"""The v5 history plan makes the same views whatever the order its answers come in and
however many are in flight: a held older version is never viewed while a view that may
still name it (a forgotten memory's, another older version's) has not answered. Driven by
a fake fetcher whose answers are let through by events in a chosen order, no timing."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest

from memscope.sources._history_v5 import REACH, HistoryOutcome, HistoryPlan

NS = "ns"
#: how long a fetch or the test waits for the other side before calling it a hang
HANG_S = 10.0


@dataclass
class Account:
    """Memories as the service keeps them: id -> (version, parent id, forgotten)."""

    memories: dict[str, tuple[int, str | None, bool]] = field(default_factory=dict)
    #: ids the list pages leave out
    unlisted: set[str] = field(default_factory=set)

    def chain(self, name: str, length: int, *, forgotten: Iterable[int] = (),
              below: str | None = None) -> None:
        """Versions ``{name}{v}`` of one chain; ``below``: the version it branches off."""
        gone = set(forgotten)
        parent, start = below, (self.memories[below][0] + 1 if below else 1)
        for v in range(start, start + length):
            mem_id = f"{name}{v}"
            self.memories[mem_id] = (v, parent, v in gone)
            parent = mem_id

    def items(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """What the list pages say of each listed memory."""
        parents = {p for _, p, _ in self.memories.values() if p}
        return {m: (NS, {"id": m, "version": v, "isLatest": m not in parents,
                         "isForgotten": gone})
                for m, (v, _, gone) in self.memories.items() if m not in self.unlisted}

    def _item(self, mem_id: str) -> dict[str, Any]:
        """A related item: id, version, relation and document."""
        return {"id": mem_id, "version": self.memories[mem_id][0], "relation": "updates",
                "document": {"id": f"doc_{mem_id}"}}

    def view(self, mem_id: str) -> dict[str, Any]:
        """The history view, as the sandbox answers it: versions up to :data:`REACH`
        steps up and down (every branch), forgotten ones left out."""
        up, cur = [], self.memories[mem_id][1]
        while cur and len(up) < REACH:
            up.append(cur)
            cur = self.memories[cur][1]
        down, level = [], [mem_id]
        for _ in range(REACH):
            level = [c for c, (_, p, _) in self.memories.items() if p in level]
            down += level

        def shown(ids: list[str]) -> list[dict[str, Any]]:
            return [self._item(i) for i in ids if not self.memories[i][2]]

        return {"id": mem_id, "version": self.memories[mem_id][0],
                "included": {"document": {"id": f"doc_{mem_id}"},
                             "related": {"parents": shown(up), "children": shown(down),
                                         "siblings": []}}}


class Gated:
    """A fetcher whose answers wait for :meth:`let` (or :meth:`open`): the test decides
    in which order views answer."""

    def __init__(self, account: Account) -> None:
        self.account = account
        self.asked: list[str] = []
        self.waiting: dict[str, threading.Event] = {}
        self.opened = self.finished = False
        self.lock = threading.Condition()

    def __call__(self, ns: str, mem_id: str) -> Any:
        """The view of ``mem_id``, once the test lets it through."""
        gate = threading.Event()
        with self.lock:
            self.asked.append(mem_id)
            if self.opened:
                gate.set()
            else:
                self.waiting[mem_id] = gate
            self.lock.notify_all()
        if not gate.wait(HANG_S):
            raise AssertionError(f"the view of {mem_id} was never let through")
        return self.account.view(mem_id)

    def wait_for(self, ready: Callable[[], bool]) -> None:
        """Block until ``ready()`` holds (checked whenever a view is asked for)."""
        with self.lock:
            assert self.lock.wait_for(ready, HANG_S)

    def let(self, mem_id: str) -> None:
        """Let the waiting view of ``mem_id`` answer."""
        with self.lock:
            self.waiting.pop(mem_id).set()

    def finish(self) -> None:
        """The plan has returned: no view will be asked for any more."""
        with self.lock:
            self.finished = True
            self.lock.notify_all()

    def open(self) -> None:
        """Let every view waiting, and every one asked from now on, through."""
        with self.lock:
            self.opened = True
            for gate in self.waiting.values():
                gate.set()
            self.waiting.clear()


def _run_in_thread(plan: HistoryPlan, fetch: Gated) -> Callable[[], HistoryOutcome]:
    """Start ``plan.run()`` on a thread; the returned call joins it and gives its outcome."""
    box: list[Any] = []

    def target() -> None:
        try:
            box.append(plan.run())
        except BaseException as exc:  # handed to the test thread
            box.append(exc)
        finally:
            fetch.finish()

    thread = threading.Thread(target=target, daemon=True)
    thread.start()

    def join() -> HistoryOutcome:
        thread.join(HANG_S)
        assert box, "the plan never finished"
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]
    return join


def test_a_held_version_a_forgotten_view_in_flight_will_settle_is_not_viewed():
    """The race the wider pool hit: the head names version 2 (its document, not its
    parent, which is forgotten and so left out); the forgotten first version's view, still
    in flight when the head answers, tells version 2's parent. Version 2 must wait for it
    and is then never viewed."""
    account = Account()
    account.chain("c", 3, forgotten=[1])
    fetch = Gated(account)
    answered = threading.Event()

    def progress(done: int, _planned: int) -> None:
        if done:
            answered.set()

    plan = HistoryPlan(account.items(), fetch, progress=progress)
    join = _run_in_thread(plan, fetch)
    fetch.wait_for(lambda: {"c3", "c1"} <= set(fetch.waiting))  # both in flight
    fetch.let("c3")  # the head answers first …
    assert answered.wait(HANG_S)  # … and the plan has read it
    fetch.let("c1")  # then the forgotten version
    fetch.open()
    out = join()
    assert sorted(fetch.asked) == ["c1", "c3"] and out.views == 2
    assert out.parent == {"c3": "c2", "c2": "c1"}
    assert out.memory_document == {m: f"doc_{m}" for m in ("c1", "c2", "c3")}


@pytest.mark.parametrize("width", [1, 2, 32])
def test_older_versions_one_view_may_settle_are_not_viewed_at_once(width):
    """The head names versions 4 and 3 (5 is forgotten and not listed), neither settled;
    version 4's view settles 3, so 3 is not viewed alongside it, however wide the pool."""
    account = Account()
    account.chain("g", 6, forgotten=[5])
    account.unlisted.add("g5")
    fetch = Gated(account)
    fetch.open()
    out = HistoryPlan(account.items(), fetch, pool=32, width=lambda: width).run()
    assert fetch.asked == ["g6", "g4"] and out.views == 2
    assert out.parent == {"g4": "g3", "g3": "g2", "g2": "g1"}


def _varied() -> Account:
    """Chains of every shape the plan meets: single and forgotten single versions, short
    and long chains, forgotten versions first, in the middle (one, and three in a row) and
    at the head, a gap the list leaves out, and branches whose older versions reach each
    other."""
    account = Account()
    account.chain("s", 1)
    account.chain("sf", 1, forgotten=[1])
    account.chain("a", 5)
    account.chain("b", 3, forgotten=[1])
    account.chain("c", 9)
    account.chain("d", 6, forgotten=[5])
    account.chain("e", 8, forgotten=[4, 5, 6])
    account.chain("f", 4, forgotten=[4])
    account.chain("g", 6, forgotten=[5])
    account.unlisted.add("g5")
    account.chain("r", 4)
    account.chain("ra", 5, below="r4")
    account.chain("rc", 3, below="r4")
    account.chain("rb", 2, below="r2")
    account.chain("h", 12, forgotten=[2, 7])
    return account


def _gated_run(account: Account, seed: int, width: int) -> tuple[list[str], HistoryOutcome]:
    """One run where the views answer one at a time in an order drawn from ``seed``,
    at most ``width`` in flight."""
    fetch, rng = Gated(account), random.Random(seed)
    plan = HistoryPlan(account.items(), fetch, pool=32, width=lambda: width)
    join = _run_in_thread(plan, fetch)
    while True:
        fetch.wait_for(lambda: bool(fetch.waiting) or fetch.finished)
        with fetch.lock:
            if not fetch.waiting:
                break
            fetch.waiting.pop(rng.choice(sorted(fetch.waiting))).set()
    return fetch.asked, join()


def test_the_views_do_not_depend_on_the_order_answers_come_in():
    account = _varied()
    reference = Gated(account)
    reference.open()
    want = HistoryPlan(account.items(), reference, pool=1).run()
    assert want.views == len(reference.asked) == len(set(reference.asked))
    for seed in range(12):
        asked, out = _gated_run(account, seed, width=(1, 3, 8, 32)[seed % 4])
        assert sorted(asked) == sorted(reference.asked), seed
        assert out.views == want.views
        assert (out.parent, out.root, out.memory_document) == (
            want.parent, want.root, want.memory_document), seed
