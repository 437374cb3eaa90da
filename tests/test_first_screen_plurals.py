"""The load's summary (the sidebar's "Loaded … ") says its counts through the one plural
rule (memscope.records.text.counted): "1 document", "1 entity" — and no longer how many
pages it took; what is unread it says in words."""

from __future__ import annotations

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord
from memscope.sources.results import LoadResult


def test_the_summary_counts_records_not_pages():
    one = LoadResult(Dataset(), "supermemory", "Supermemory", pages_total=1,
                     pages_fetched=[1])
    assert one.summary() == "Loaded 0 documents and 0 memories."
    ds = Dataset()
    ds.add_memory(MemoryRecord(id="m1", memory="x"), None)
    three = LoadResult(ds, "supermemory", "Supermemory", pages_total=3,
                       pages_fetched=[1, 2, 3])
    assert three.summary() == "Loaded 0 documents and 1 memory."


def test_unread_histories_are_said_in_words_and_make_the_load_incomplete():
    unread = LoadResult(Dataset(), "supermemory", "Supermemory",
                        unread_histories={f"m{i}": "503" for i in range(12)})
    assert not unread.complete
    assert unread.summary() == ("Loaded 0 documents and 0 memories. The history of 12 "
                                "memories could not be read — resume to read only those.")
    one = LoadResult(Dataset(), "mem0", "mem0", unread_histories={"m1": "429"})
    assert one.summary().endswith("The history of 1 memory could not be read — resume to "
                                  "read only that one.")
