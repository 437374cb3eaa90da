"""Trips a new user hit on the first screen, under AppTest (against the sandbox over
loopback): a wrong API key says so once and shows no success, in both Supermemory
dialects, while the right key still says "Connected"; "Created between" stays a range
picker and its range filters the graph."""

from __future__ import annotations

import re
from datetime import date

import pytest
from apptest_support import run_page
from sandbox_fixture import running_sandbox
from streamlit.testing.v1 import AppTest

from memscope.sandbox import Sandbox

DIALECTS = ["v5", "legacy"]
SHOWING = re.compile(r"Showing (\d+) of (\d+) nodes")


def statuses(at: AppTest) -> list[str]:
    """Every status a person reads: errors, warnings, successes, infos, toasts and
    captions, in the main area and the sidebar (markdown escapes removed)."""
    found = [*at.error, *at.warning, *at.success, *at.info, *at.toast, *at.caption]
    return [str(e.value).replace("\\", "") for e in found]


def connect(at: AppTest, sandbox: Sandbox, dialect: str, key: str) -> None:
    at.radio(key="conn_kind").set_value("supermemory").run()  # redraws the fields
    at.radio(key="conn_dialect").set_value(dialect)
    at.text_input(key="conn_base_url").input(sandbox.url)
    next(t for t in at.text_input if t.label == "API key").input(key)
    next(b for b in at.button if b.label == "Connect").click()
    at.run()
    assert not at.exception, at.exception


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_wrong_key_says_so_once_and_shows_no_success(fresh_data_dir, tmp_path, dialect):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        at = run_page("connection.py")
        connect(at, sandbox, dialect, "sm_wrong_key_123")
        texts = statuses(at)
        assert not at.success and not any("Connected" in t for t in texts), texts
        assert [t for t in texts if "rejected the API key" in t] == [at.error[0].value
                                                                    .replace("\\", "")]
        assert len(at.error) == 1, texts
        assert "Nothing is loaded — the Connection page says why." in texts  # sidebar
        # the right key afterwards: connected, and no refusal left on the page
        connect(at, sandbox, dialect, sandbox.supermemory_key)
        texts = statuses(at)
        assert any(t.startswith("Connected to Supermemory") for t in texts), texts
        assert not at.error and not any("rejected" in t for t in texts), texts


def test_created_between_stays_a_range_picker_and_filters(fresh_data_dir):
    """A day stored the old way (one date) is forgotten, so the widget is a range picker;
    a range set in it narrows the graph's caption."""
    at = run_page(None, f_dates=date(2026, 1, 1), filters_open=True)
    picker = at.date_input(key="w.f_dates")
    assert picker.proto.is_range and picker.value == ()
    shown, total = _showing(at)
    assert shown == total
    low, high = (date.fromisoformat(picker.proto.min), date.fromisoformat(picker.proto.max))
    picker.set_value((low + (high - low) / 3, low + (high - low) * 2 / 3)).run()
    assert not at.exception, at.exception
    assert at.date_input(key="w.f_dates").proto.is_range
    narrowed, again = _showing(at)
    assert again == total and 0 < narrowed < total


def _showing(at: AppTest) -> tuple[int, int]:
    found = next(m for c in at.caption if (m := SHOWING.search(str(c.value))))
    return int(found[1]), int(found[2])
