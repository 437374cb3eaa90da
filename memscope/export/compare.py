"""A comparison of two datasets (:mod:`memscope.lenses.compare`) as a CSV file.

One row per difference (per changed field for a record both sides hold), in the
comparison's order. Texts are bounded (:func:`memscope.records.text.clip`, one line of at
most :data:`TEXT_MAX` characters) and a cell a spreadsheet would run as a formula gets a
leading ``'`` (:func:`memscope.export.formats.csv_safe`).

>>> from memscope.records.dataset import from_feed_pages
>>> from memscope.lenses.compare import compare
>>> a = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
...     {"id": "m", "memory": "=1+1"}]}]}])
>>> b = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": []}]}])
>>> print(comparison_csv(compare(a, b), ("snapshot", "live")).decode())
change,record,id,field,snapshot,live
removed,memory,m,,'=1+1,
<BLANKLINE>
"""

from __future__ import annotations

import csv
import io
from collections.abc import Collection

from memscope.export.formats import csv_safe
from memscope.lenses.compare import DatasetDiff, Value
from memscope.records.text import clip

#: the longest text a cell holds
TEXT_MAX = 500
COLUMNS = ("change", "record", "id", "field")


def cell(value: Value) -> str:
    """One value as a bounded, one-line cell (``true``/``false`` for flags)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return clip(str(value), TEXT_MAX)


def comparison_csv(diff: DatasetDiff, names: tuple[str, str] = ("A", "B"),
                   kinds: Collection[str] | None = None) -> bytes:
    """The differences (of ``kinds``, default all) as UTF-8 CSV; ``names`` head the two
    value columns (bounded too)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([*COLUMNS, *(csv_safe(clip(n, 60)) for n in names)])
    for row in diff.rows(kinds):
        writer.writerow([csv_safe(v) for v in (row.change, row.record, clip(row.id, TEXT_MAX),
                                               row.field, cell(row.a), cell(row.b))])
    return buf.getvalue().encode("utf-8")


__all__ = ["COLUMNS", "TEXT_MAX", "cell", "comparison_csv"]
