"""Insight charts: titled and labelled, counts from the fixtures, data labels escaped."""

from __future__ import annotations

import json
from typing import Any, cast

import plotly.graph_objects as go
import pytest
from conftest import NOW, SM, SP

from memscope.graph.analysis import analyse
from memscope.records.dataset import from_feed_pages, read_files
from memscope.reports.insights import (
    CHARTS,
    added_over_time,
    all_charts,
    forget_reasons,
    forgotten_over_time,
    per_document_type,
    per_space,
    relation_kinds,
    static_vs_dynamic,
    versions_per_chain,
)


@pytest.fixture(scope="module")
def an():
    return analyse(read_files([SM / f"documents_page{i}.json" for i in (1, 2, 3)]), NOW)


def traces(fig: go.Figure) -> tuple[Any, ...]:
    """The figure's traces (plotly has no type hints: ``fig.data`` infers as its keys)."""
    return cast("tuple[Any, ...]", fig.data)


def figure_json(fig: go.Figure) -> str:
    """The figure as JSON text."""
    text = fig.to_json()
    assert isinstance(text, str)
    return text


def bars(fig: go.Figure, name: str | None = None) -> dict[str, int]:
    """{category: value} of one bar trace (the first, or the one called ``name``)."""
    trace = next(t for t in traces(fig) if name is None or t.name == name)
    cats, vals = (trace.y, trace.x) if trace.orientation == "h" else (trace.x, trace.y)
    return {str(c): int(v) for c, v in zip(cats, vals, strict=True) if v}


def test_every_chart_is_titled_and_labelled(an):
    figs = all_charts(an)
    assert list(figs) == [key for key, _ in CHARTS]
    for key, fig in figs.items():
        layout = fig.layout
        assert layout.title.text, key
        assert layout.yaxis.title.text, key
        assert fig.data, key


def test_counts_from_the_fixtures(an):
    assert bars(per_document_type(an), "documents") == {
        "text": 6, "webpage": 1, "pdf": 1, "notion_doc": 1, "image": 1, "google_doc": 1,
        "unknown": 1}
    # updates: fe_v2, fe_v3, coffee_v2, coffee_v2b and "supersedes"; extends: ts_course,
    # trip_hotel; derives: is_mle
    assert bars(relation_kinds(an)) == {"updates": 5, "extends": 2, "derives": 1}
    assert bars(versions_per_chain(an)) == {"1": 1, "3": 2}
    assert bars(forget_reasons(an)) == {"user asked to remove medical data": 1}
    states = {t.name: int(sum(t.y)) for t in traces(added_over_time(an))}
    assert states == {"forgotten": 1, "expired": 1, "superseded": 3, "latest": 14}
    assert {t.name: int(sum(t.x)) for t in traces(per_space(an))} == states
    static = static_vs_dynamic(an)
    assert bars(static, "static") == {"memories": 3}  # fe_v3, editor, allergy
    assert bars(static, "dynamic") == {"memories": 16}
    assert int(sum(traces(forgotten_over_time(an))[0].y)) == 1


def test_charts_follow_the_visible_set(an):
    visible = {"mem_fe_v1", "mem_fe_v2", "mem_fe_v3", "doc_stack_0"}
    assert bars(relation_kinds(an, visible)) == {"updates": 2}
    assert {t.name: int(sum(t.x)) for t in traces(per_space(an, visible))} == {
        "superseded": 2, "latest": 1}
    assert bars(per_document_type(an, visible), "documents") == {"google_doc": 1}
    empty = forget_reasons(an, visible)
    assert not empty.data and "No forgotten" in empty.layout.annotations[0].text
    assert not added_over_time(an, set()).data


def test_data_labels_are_escaped():
    ds = from_feed_pages([{"documents": [{
        "id": "d", "type": "<img src=x onerror=alert(1)>", "createdAt": "2026-01-01T00:00:00Z",
        "memoryEntries": [{"id": "m", "memory": "x", "spaceContainerTag": "<b>space</b>",
                           "isForgotten": True, "forgetReason": "<a href='javascript:x'>r</a>",
                           "createdAt": "2026-01-01T00:00:00Z"}]}]}])
    figs = all_charts(analyse(ds, NOW))
    text = json.dumps([json.loads(figure_json(f)) for f in figs.values()], ensure_ascii=False)
    assert "<img" not in text and "<b>" not in text and "<a " not in text
    assert "&lt;b&gt;space&lt;/b&gt;" in bars(per_space(analyse(ds, NOW)), "forgotten")


def test_spomory_predicates():
    an = analyse(read_files([SP / "passport.json"]), NOW)
    # r5's object is missing: 4 relation edges, one per predicate
    assert sum(bars(relation_kinds(an)).values()) == 4
    assert "relation: mentions" in bars(relation_kinds(an))
