"""The shared loads (:class:`memscope.pipeline.loads.Loads`) with a fake source and a
fake clock: no Streamlit, no store."""

from __future__ import annotations

import threading
import time

import pytest

from memscope.pipeline.loads import LOAD_TTL_S, Loads
from memscope.records.dataset import Dataset, from_feed_pages
from memscope.sources import LoadResult
from memscope.sources.base import Source


def _dataset(n: int = 2) -> Dataset:
    return from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": f"m{i}", "memory": f"memory {i}"} for i in range(n)]}]}])


class FakeSource(Source):
    """Counts its loads; ``version`` is its data version (``None``: it cannot tell)."""

    kind = "fake"

    def __init__(self, version: str | None = "v1", name: str = "one") -> None:
        self.version = version
        self.name = name
        self.loads = 0

    @property
    def label(self) -> str:
        return f"fake {self.name}"

    def data_version(self) -> str | None:
        return self.version

    def load(self, progress=None, *, refresh: bool = False) -> LoadResult:
        self.loads += 1
        return LoadResult(_dataset(), self.kind, self.label)


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clock() -> Clock:
    return Clock()


def _loads(clock: Clock, **kw) -> Loads:
    return Loads(clock=clock, keep=None, settle=None, read=lambda _s: None, **kw)


def test_a_second_session_shares_the_load(clock):
    loads, src = _loads(clock), FakeSource()
    a, b = loads.load(src), loads.load(src)
    assert a == b and src.loads == 1 and a.revision == 0


def test_a_versioned_source_is_not_read_again_after_the_ttl(clock):
    """The 15-minute reload applies only to a source that cannot tell its data version:
    the embedded store's unchanged data keeps its revision (every view cache holds)."""
    loads, src = _loads(clock), FakeSource("v1")
    first = loads.load(src)
    clock.t += LOAD_TTL_S + 1
    assert loads.load(src) == first and src.loads == 1
    src.version = "v2"  # the data changed: a new key, read again
    second = loads.load(src)
    assert second.key != first.key and src.loads == 2
    assert loads.keys() == [second.key]  # the old data version is dropped
    assert loads.is_stale(first.key, first.revision)


def test_an_unversioned_source_is_read_again_after_the_ttl(clock):
    loads, src = _loads(clock), FakeSource(None)
    first = loads.load(src)
    clock.t += LOAD_TTL_S - 1
    assert loads.load(src) == first
    clock.t += 2
    again = loads.load(src)
    assert src.loads == 2 and again.key == first.key and again.revision == 1


def test_touch_replaces_the_result_and_bumps_the_revision(clock):
    loads, src = _loads(clock), FakeSource()
    ref = loads.load(src)
    old = loads.get(ref)
    new_result = LoadResult(_dataset(3), "fake", "fake one")
    touched = loads.touch(ref.key, new_result)
    assert touched is not None and touched.revision == ref.revision + 1
    assert loads.get(touched).load is new_result
    assert len(old.load.dataset.memories) == 2  # the old entry was not changed in place
    assert loads.is_stale(ref.key, ref.revision)
    assert not loads.is_stale(touched.key, touched.revision)
    with pytest.raises(KeyError):
        loads.get(ref)
    assert loads.touch(("nothing",)) is None


def test_after_a_drop_revisions_continue(clock):
    loads, src = _loads(clock), FakeSource()
    ref = loads.load(src)
    loads.drop(ref.key)
    assert loads.entry(ref.key) is None and loads.is_stale(ref.key, ref.revision)
    again = loads.load(src)
    assert again.revision == ref.revision + 1 and src.loads == 2


def test_changes_are_announced(clock):
    loads, src = _loads(clock), FakeSource()
    seen: list[tuple] = []
    loads.on_change.append(seen.append)
    ref = loads.load(src)
    assert seen == []
    loads.touch(ref.key)
    loads.drop(ref.key)
    assert seen == [ref.key, ref.key]


def test_sessions_arriving_together_load_once(clock):
    class Slow(FakeSource):
        def load(self, progress=None, *, refresh=False):
            time.sleep(0.05)
            return super().load(progress, refresh=refresh)

    loads, src = _loads(clock), Slow()
    refs: list = []
    threads = [threading.Thread(target=lambda: refs.append(loads.load(src)))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert src.loads == 1 and len(set(refs)) == 1


def test_a_large_load_is_analysed_once_and_kept_with_its_digest(clock, monkeypatch):
    from memscope.view.derived import digest_of

    written: list = []
    loads = Loads(clock=clock, read=lambda _s: None, settle=None, min_memories=2,
                  keep=lambda s, r, base, digest: written.append((base, digest)))

    monkeypatch.setattr("memscope.kept.key_of", lambda s: "k")  # kept only keeps the store
    ref = loads.load(FakeSource())
    entry = loads.get(ref)
    assert entry.base is not None and entry.digest == digest_of(entry.base)
    assert written == [(entry.base, entry.digest)]  # one digest, handed to the writer


def test_a_fetch_callback_hands_over_what_it_drew(clock):
    loads, src = _loads(clock), FakeSource(None)
    ref = loads.load(src, fetch=lambda s, key: (s.load(refresh=True), {"m0": (1.0, 2.0)}))
    assert loads.get(ref).drawn == {"m0": (1.0, 2.0)}
