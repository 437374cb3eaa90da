"""Every memory as one row of a table: its text, state, badges, version, space, documents
and dates (what the explorer's "all memories" table shows; the text is data, shown as
text).

>>> from memscope.graph.analysis import analyse
>>> from memscope.records.dataset import from_feed_pages
>>> an = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
...     {"id": "a", "memory": "Maya flies to Lisbon."}]}]}]))
>>> memory_frame(an)[["id", "memory", "state", "documents"]].values.tolist()
[['a', 'Maya flies to Lisbon.', 'latest', 'd']]
"""

from __future__ import annotations

import pandas as pd

from memscope.graph.analysis import Analysis
from memscope.records.text import CELL_MAX, LINE_MAX, clip
from memscope.records.time import format_time

COLUMNS = ("id", "memory", "state", "static", "inferred", "version", "space", "documents",
           "created", "forget after", "forget reason")


def memory_frame(analysis: Analysis) -> pd.DataFrame:
    """One row per memory, in :data:`COLUMNS` (long texts clipped)."""
    ds = analysis.dataset
    rows = []
    for mem_id, mem in ds.memories.items():
        chain = analysis.chains.of(mem_id)
        entry = chain.entry(mem_id) if chain else None
        rows.append({
            "id": mem_id,
            "memory": clip(mem.memory, CELL_MAX),
            "state": analysis.state(mem_id),
            "static": mem.is_static,
            "inferred": mem.is_inference,
            "version": entry.version if entry else mem.version,
            "space": clip(ds.space_label(mem.space), LINE_MAX) if mem.space else None,
            "documents": clip(", ".join(ds.memory_documents.get(mem_id, [])), CELL_MAX),
            "created": format_time(mem.created_at),
            "forget after": format_time(mem.forget_after),
            "forget reason": clip(mem.forget_reason, CELL_MAX) if mem.forget_reason else None,
        })
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame["version"] = frame["version"].astype(str)
    return frame


__all__ = ["COLUMNS", "memory_frame"]
