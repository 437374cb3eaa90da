"""Every core stage a loaded dataset goes through, for the hostile-input and property tests.

:func:`every_stage` runs a dataset through analysis (at several ``now``), the lenses, the
view, every export, the reports (and their Arrow form, as Streamlit sends tables), the
``inspect`` document and a snapshot save and reopen. It raises whatever a stage raises:
the callers assert that nothing does.
"""

from __future__ import annotations

import io
import json
import zipfile
from datetime import datetime, timedelta
from pathlib import Path

import pandas as pd
import pyarrow as pa

from memscope.export.formats import (
    evidence_nodes,
    evidence_pack,
    memories_csv,
    to_gexf,
    to_graphml,
    to_node_link,
)
from memscope.export.html import offline_html
from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.asof import as_of, compare
from memscope.lenses.filters import Filters, search_text, visible_nodes
from memscope.lenses.presenter import mask
from memscope.records.dataset import Dataset
from memscope.records.time import EARLIEST, LATEST, day_end
from memscope.reports.audit import chains_table, expiry_queue, findings_by_kind
from memscope.reports.insights import all_charts
from memscope.reports.inspection import dumps
from memscope.sources.files import FileSource, save_snapshot
from memscope.view.build import build_view

#: the edges of the supported range, and a day in the middle
NOWS = (EARLIEST, LATEST - timedelta(microseconds=1))


def same_records(a: Dataset, b: Dataset) -> None:
    """The records of two datasets are equal (what a snapshot must keep)."""
    assert a.documents == b.documents
    assert a.memories == b.memories
    assert a.memory_documents == b.memory_documents
    assert a.entities == b.entities
    assert a.relations == b.relations


def _arrow(frame: pd.DataFrame) -> None:
    """Convert a table as Streamlit does before sending it to the browser."""
    pa.Table.from_pandas(frame)


def _not_json(token: str) -> None:
    raise AssertionError(f"{token} is not JSON")


def report_frames(ds: Dataset) -> list[pd.DataFrame]:
    """The data-issues tables the app shows."""
    report = ds.report
    return [pd.DataFrame([{"record": s.record, "reason": s.reason} for s in report.skipped]),
            pd.DataFrame([{"record": i.record, "issue": i.message} for i in report.issues])]


def _exports(analysis: Analysis) -> None:
    view = build_view(analysis)
    for color_by in ("space", "document_type"):
        build_view(analysis, color_by=color_by)
    to_graphml(analysis)
    to_gexf(analysis)
    json.dumps(to_node_link(analysis), allow_nan=False)
    memories_csv(analysis).decode("utf-8")
    offline_html(view).encode("utf-8")
    node = next(iter(analysis.dataset.memories), None) or next(
        iter(analysis.graph.graph.nodes), None)
    if node is not None:
        pack = evidence_pack(analysis, evidence_nodes(analysis, str(node)), view)
        assert zipfile.ZipFile(io.BytesIO(pack)).testzip() is None


def _reports(analysis: Analysis, charts: bool) -> None:
    if charts:
        all_charts(analysis)
    _arrow(chains_table(analysis))
    _arrow(expiry_queue(analysis))
    findings_by_kind(analysis)
    for frame in report_frames(analysis.dataset):
        _arrow(frame)
    doc = dumps(analysis)
    json.loads(doc, parse_constant=_not_json)  # strict JSON: no NaN or Infinity
    doc.encode("utf-8")


def _lenses(analysis: Analysis, now: datetime) -> None:
    ds = analysis.dataset
    for when in NOWS:
        later = analysis.at(when)
        [later.state(m) for m in ds.memories]
        analysis.epoch(when)
    span = analysis.date_range
    if span is not None:
        first, last = day_end(span[0]), day_end(span[1])
        as_of(ds, first)
        compare(ds, first, last)
        visible_nodes(analysis, Filters(date_from=span[0], date_to=span[1]))
    visible_nodes(analysis, Filters(show_superseded=False, show_forgotten=False))
    search_text(analysis, "a")
    analysis.counts()
    _ = (analysis.spaces, analysis.document_types, now)


def every_stage(ds: Dataset, now: datetime, tmp: Path, *, charts: bool = True) -> Analysis:
    """Run ``ds`` through every core stage at ``now`` (and the range's edges); returns
    the analysis at ``now``. ``charts=False`` skips the (slow) plotly charts."""
    analysis = analyse(ds, now)
    _lenses(analysis, now)
    for judged in (analysis, analyse(mask(ds), now)):
        _exports(judged)
        _reports(judged, charts)
    path = save_snapshot(ds, tmp / "snapshot.json")
    reopened = FileSource([path]).load().dataset
    same_records(ds, reopened)
    return analysis
