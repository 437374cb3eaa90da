"""Results that read as answers (issue 35, item 7): the drawer is "Results"; each result
is its whole text, then why it ranked (shared words, "close in meaning", which version)
and its Why? button; no "memory · 0.51 · latest:" in front of the text."""

from __future__ import annotations

from test_ask_add_apptest import ask, home

from components.sections.sidebar import PRESENTER
from memscope.reports.results import because, shared_words
from memscope.settings import store_path
from memscope.sources.embedded import EmbeddedSource


def test_why_a_result_ranked_in_words():
    assert shared_words("Who manages Maya at work?", "Maya's manager at work is Tom.") == [
        "maya", "work"]
    assert because("her exercise?", "Maya runs every morning.", "latest") == (
        "Close in meaning (no word in common) · current version")
    assert because("Maya trip", "Maya's trip to Lisbon", "superseded").endswith(
        "an older version, replaced since")
    assert because("x", "y", None) == "Close in meaning (no word in common)"


def test_the_drawer_lists_whole_texts_then_why_they_ranked(fresh_data_dir):
    home()
    hits = EmbeddedSource(store_path()).search("Lisbon trip").hits
    at = home()
    ask(at, "Lisbon trip")
    shown = [m.value.replace("\\", "") for m in at.markdown]
    assert "**Results**" in shown
    first = next(h for h in hits if h.kind == "memory")
    assert first.text in shown  # the whole text, not a shortened label
    assert not [t for t in shown if t.startswith(("memory ·", "excerpt ·"))]
    captions = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "Shares “lisbon”" in captions and "current version" in captions
    labels = [b.label for b in at.button]
    assert labels.count("Show in the graph") >= 1 and "Why?" in labels


def test_presenter_mode_hides_the_text_and_the_shared_words(fresh_data_dir):
    home()
    at = home(**{PRESENTER.name: True})
    ask(at, "Lisbon trip")
    captions = " ".join(c.value for c in at.caption).replace("\\", "")
    assert "Matched the question" in captions and "Shares “lisbon”" not in captions
    assert any("hidden in presenter mode" in m.value for m in at.markdown)
