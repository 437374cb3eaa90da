"""The explorer's folded sections (components/widgets/folds.py) through AppTest: closed on
a first visit, they send their label and nothing inside, so the first run has fewer
elements before the graph's first frame (issue 33, item 2); opened, they draw their
forms; a request waiting inside opens its fold by itself."""

from __future__ import annotations

from apptest_support import graph_message, open_fold, run_page

from memscope.settings import store_path
from memscope.sources.embedded import EmbeddedSource


def _keys(at) -> set[str]:
    return {w.key for kind in ("text_area", "text_input", "selectbox")
            for w in at.get(kind) if getattr(w, "key", None)}


def test_a_first_visit_sends_the_folds_closed_and_empty(fresh_data_dir) -> None:
    at = run_page()
    assert {"Add a memory", "Filters"} <= {e.label for e in at.expander}
    assert "add_text" not in _keys(at)
    assert not at.sidebar.multiselect  # the filters' widgets
    drawn = graph_message(at)
    open_fold(at, "Add a memory")
    assert "add_text" in _keys(at)
    assert not at.sidebar.multiselect  # the other stays closed
    assert graph_message(at) == drawn  # opening a fold leaves the graph as it was


def test_an_add_waiting_for_confirmation_opens_its_fold(fresh_data_dir) -> None:
    at = run_page()
    at.session_state["add_pending"] = {"text": "Maya adopted a cat named Miso.",
                                       "source": EmbeddedSource(store_path()).cache_key(),
                                       "token": "t1"}
    at.run()
    assert [b for b in at.button if b.label == "Confirm add"]  # drawn open, to be seen
    assert at.session_state["add_open"] is True
