"""The sidebar's filters are folded under one heading that says how many of them narrow
the view (issue 33: a first frame does not wait for widgets it does not need)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from apptest_support import graph_payload
from streamlit.testing.v1 import AppTest

from components.sections.sidebar import FILTERS_BOX, filters_heading
from memscope.lenses.filters import Filters

ROOT = Path(__file__).resolve().parents[1]


def test_the_heading_counts_the_filters_that_narrow_the_view() -> None:
    assert filters_heading(Filters()) == "Filters"
    assert filters_heading(Filters(show_superseded=False)) == "Filters · 1 on"
    narrowed = Filters(spaces=frozenset({"work"}), document_types=frozenset({"pdf"}),
                       date_from=date(2026, 1, 1), date_to=date(2026, 2, 1),
                       edge_kinds=frozenset({"updates"}), show_forgotten=False,
                       inferred="hide")
    assert filters_heading(narrowed) == "Filters · 6 on"


@pytest.fixture
def app(tmp_path, monkeypatch) -> AppTest:
    monkeypatch.setenv("MEMSCOPE_DATA_DIR", str(tmp_path / "demo"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    assert not at.exception, at.exception
    return at


def test_unticking_a_filter_names_it_in_the_folded_heading(app: AppTest) -> None:
    heading = [e.label for e in app.sidebar.expander]
    assert heading == ["Filters"], heading
    # folded, its widgets are not drawn at all (issue 33: they slowed every first frame)
    assert not [c for c in app.sidebar.checkbox if c.label == "Show superseded versions"]
    app.session_state[FILTERS_BOX.name] = True  # as opening it does (a rerun)
    app.run()
    box = next(c for c in app.sidebar.checkbox if c.label == "Show superseded versions")
    box.uncheck().run()
    assert not app.exception, app.exception
    assert [e.label for e in app.sidebar.expander] == ["Filters · 1 on"]
    # the widgets under it are the ones the view reads
    box = next(c for c in app.sidebar.checkbox if c.label == "Show superseded versions")
    assert box.value is False


def test_a_folded_filter_still_narrows_the_view(app: AppTest) -> None:
    app.session_state[FILTERS_BOX.name] = True
    app.run()
    whole = len(graph_payload(app)["nodes"])
    next(c for c in app.sidebar.checkbox if c.label == "Show superseded versions").uncheck()
    app.run()
    narrowed = len(graph_payload(app)["nodes"])
    assert narrowed < whole
    app.session_state[FILTERS_BOX.name] = False  # folded again: no widget, same view
    app.run()
    assert not app.exception, app.exception
    assert not [c for c in app.sidebar.checkbox if c.label == "Show superseded versions"]
    assert len(graph_payload(app)["nodes"]) == narrowed
    assert [e.label for e in app.sidebar.expander] == ["Filters · 1 on"]
