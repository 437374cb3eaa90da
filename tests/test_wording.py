"""Plain words (memscope.view.wording; issue 12, item 11)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memscope.graph.analysis import analyse
from memscope.records.dataset import from_objects
from memscope.records.text import relation_label
from memscope.view.build import build_view
from memscope.view.wording import relative_time

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize(("delta", "words"), [
    (timedelta(0), "just now"),
    (timedelta(seconds=-44), "just now"),
    (timedelta(minutes=-1), "1 minute ago"),
    (timedelta(minutes=-5), "5 minutes ago"),
    (timedelta(hours=-3), "3 hours ago"),
    (timedelta(hours=-23), "yesterday"),
    (timedelta(days=-3), "3 days ago"),
    (timedelta(days=2), "in 2 days"),
    (timedelta(days=-14), "2 weeks ago"),
    (timedelta(days=-60), "2 months ago"),
    (timedelta(days=-365 * 2), "2 years ago"),
    (timedelta(days=365 * 3), "in 3 years"),
])
def test_relative_time(delta: timedelta, words: str):
    assert relative_time(NOW + delta, NOW) == words


def test_relative_time_is_monotonic_in_magnitude():
    """Further in the past never reads as a smaller amount of the same unit."""
    order = ["minute", "hour", "day", "week", "month", "year"]
    last = (0, 0)
    for minutes in range(1, 60 * 24 * 800, 97):
        text = relative_time(NOW - timedelta(minutes=minutes), NOW)
        if text in ("just now", "yesterday"):
            continue
        n, unit = text.split()[:2]
        rank = (order.index(unit.rstrip("s")), int(n))
        assert rank >= last, (minutes, text)
        last = rank


def test_relation_labels_keep_their_parts_apart():
    assert relation_label("张三", "knows", "e_missing") == "张三 — knows — e_missing"
    assert "张三knowse_missing" not in relation_label("张三", "knows", "e_missing")


def test_relation_edge_tooltips_use_the_separated_label():
    an = analyse(from_objects([{"entities": [{"id": "e1", "name": "张三"},
                                             {"id": "e2", "name": "Python"}], "relations": [
        {"id": "r", "subject_id": "e1", "predicate": "knows", "object_id": "e2"},
        {"id": "r2", "subject_id": "e2", "predicate": "likes", "object_id": "e1"}],
        }]), NOW)
    titles = [e.get("title", "") for e in build_view(an)["edges"] if e["kind"] == "relation"]
    assert titles and all(" — " in t for t in titles)
    assert "张三 — knows — Python" in titles and "Python — likes — 张三" in titles


def test_the_ask_list_labels_relations_the_same_way():
    from memscope.reports.ask import relation_label as ask_label
    an = analyse(from_objects([{"entities": [{"id": "e1", "name": "张三"}], "relations": [
        {"id": "r", "subject_id": "e1", "predicate": "knows", "object_id": "e_missing"},
        {"id": "r2", "subject_id": "e1", "predicate": "", "object_id": "e1"}]}]), NOW)
    assert ask_label(an, "r") == relation_label("张三", "knows", "e_missing")
    assert ask_label(an, "r2") == relation_label("张三", "", "张三") == "张三 — ? — 张三"
