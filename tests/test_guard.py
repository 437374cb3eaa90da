"""The router's safety net: an unexpected error is one sentence and a log line, never a
traceback on screen (outside AppTest, where it propagates so tests see it)."""

from __future__ import annotations

import logging

import pytest

from components.state.context import PAGE_FAILED, guarded


def test_an_unexpected_error_becomes_one_sentence_and_a_log_entry(caplog, monkeypatch):
    shown: list[str] = []
    monkeypatch.setattr("components.state.context.st.error", shown.append)
    with caplog.at_level(logging.ERROR, logger="memscope.app"), guarded():
        raise KeyError("boom")
    assert shown == [PAGE_FAILED]
    assert "Traceback" not in PAGE_FAILED and "KeyError" not in PAGE_FAILED
    assert any(r.exc_info and r.exc_info[0] is KeyError for r in caplog.records)


def test_streamlit_stop_passes_through():
    from streamlit.runtime.scriptrunner_utils.exceptions import StopException

    with pytest.raises(StopException), guarded():
        raise StopException()
