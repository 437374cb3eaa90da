"""The load's summary (the sidebar's "Loaded … from N pages") says its counts through the
one plural rule (memscope.records.text.counted): "from 1 page", "1 entity"."""

from __future__ import annotations

from memscope.records.dataset import Dataset
from memscope.records.text import counted
from memscope.sources.base import LoadResult


def test_one_page_is_one_page():
    one = LoadResult(Dataset(), "supermemory", "Supermemory", pages_total=1,
                     pages_fetched=[1])
    assert one.summary() == "Loaded 0 documents and 0 memories from 1 page."
    three = LoadResult(Dataset(), "supermemory", "Supermemory", pages_total=3,
                       pages_fetched=[1, 2, 3])
    assert three.summary().endswith(f"from {counted(3, 'page')}.")
    assert three.summary().endswith("from 3 pages.")
