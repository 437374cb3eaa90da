"""'Check these with a model' on the Audit page (AppTest), against the fake chat endpoint
on 127.0.0.1: nothing without a model, the warning before sending, the verdicts shown and
ledgered, the presenter-mode refusal, the Connection page's form keeping the key out of
the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from apptest_support import run_page
from judge_fake import FakeChat, serving
from pydantic import SecretStr
from test_semantic_review import seed

from components.sections import semantic_review as review
from components.sections.judge_form import (
    JUDGE_KEY,
    JUDGE_KEY_FIELD,
    JUDGE_MODEL,
    JUDGE_SET,
    JUDGE_URL,
)
from components.sections.semantic_review import JUDGE_PRESENTER_OK, SEMANTIC_REVIEW_MARKS
from components.sections.sidebar import PRESENTER
from memscope.settings import STORE_FILE


def _texts(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [w.value for w in at.warning] + [i.value for i in at.info]
    return "\n".join(str(p) for p in parts).replace("\\", "")  # markdown escapes off


def _button(at, label: str):
    return next(b for b in at.button if b.label == label)


@pytest.fixture
def url():
    with serving() as base:
        yield base


def test_without_a_model_nothing_is_offered_but_where_to_set_one(fresh_data_dir: Path,
                                                                  monkeypatch):
    for name in ("URL", "MODEL", "KEY"):
        monkeypatch.delenv(f"MEMSCOPE_JUDGE_{name}", raising=False)
    seed(fresh_data_dir / STORE_FILE)
    at = run_page("audit.py")
    shown = _texts(at)
    assert "set one on the Connection page" in shown
    assert "Check these with a model" not in [b.label for b in at.button]
    assert "cannot know what the world knows" in shown and "play cello" in shown
    assert "Found by the contradiction rule" in shown


def test_checking_with_a_model_warns_sends_shows_and_ledgers(fresh_data_dir: Path, url):
    store = seed(fresh_data_dir / STORE_FILE)
    at = run_page("audit.py", **{JUDGE_SET.name: (url, "tiny"),
                                 JUDGE_KEY.name: SecretStr("sk-fake-judge")})
    _button(at, "Check these with a model").click().run()
    host = url.split("//")[1].split("/")[0]
    warning = " ".join(w.value for w in at.warning).replace("\\", "")
    assert "Send " in warning and f"to tiny at {host}" in warning
    assert "2 the rules flagged" in warning and "It stays on this machine" in warning
    assert not FakeChat.seen  # nothing sent before Send
    _button(at, "Send").click().run()
    assert not at.exception
    shown = _texts(at)
    assert ":material/check_circle: **Confirmed by tiny** — One home at a time." in shown
    assert "Rejected by tiny" in shown
    assert {auth for _p, auth, _b in FakeChat.seen} == {"Bearer sk-fake-judge"}
    rows = [r for r in store.ledger() if r.action == "judged"]
    assert len(rows) == len(FakeChat.seen)
    assert any(r.message == "Confirmed by tiny: One home at a time." for r in rows)
    assert all("sk-fake-judge" not in (r.message + (r.reason or "") + (r.target_id or ""))
               for r in rows)
    # the verdicts outlive the session: read back from the ledger
    fresh = run_page("audit.py", **{JUDGE_SET.name: (url, "tiny")})
    assert "Confirmed by tiny" in _texts(fresh)


def test_presenter_mode_refuses_unless_confirmed(fresh_data_dir: Path, url):
    seed(fresh_data_dir / STORE_FILE)
    at = run_page("audit.py", **{JUDGE_SET.name: (url, "tiny"),
                                 PRESENTER.name: True})
    _button(at, "Check these with a model").click().run()
    assert _button(at, "Send").disabled
    assert "Refused while presenting" in _texts(at)
    at.checkbox(key=JUDGE_PRESENTER_OK.name).check().run()
    assert not _button(at, "Send").disabled
    _button(at, "Send").click().run()
    assert FakeChat.seen and "Confirmed by tiny" in _texts(at)
    assert "One home at a time" not in _texts(at)  # the model's words hidden while presenting


def test_the_connection_form_keeps_the_key_in_session_only(fresh_data_dir: Path, url):
    seed(fresh_data_dir / STORE_FILE)
    at = run_page("connection.py")
    assert "No model is set" in _texts(at)
    at.text_input(key=JUDGE_URL.name).input(url)
    at.text_input(key=JUDGE_MODEL.name).input("tiny")
    at.text_input(key=JUDGE_KEY_FIELD.name).input("sk-typed-key")
    next(b for b in at.button if b.label == "Use this model").click().run()
    assert at.session_state[JUDGE_SET.name] == (url, "tiny")
    assert at.session_state[JUDGE_KEY.name].get_secret_value() == "sk-typed-key"
    assert at.text_input(key=JUDGE_KEY_FIELD.name).value == ""
    assert "sk-typed-key" not in _texts(at)
    assert "In use: tiny at 127.0.0.1" in _texts(at)


def test_a_near_miss_a_model_confirms_joins_the_queue_found_by_the_model(
        fresh_data_dir: Path, url):
    seed(fresh_data_dir / STORE_FILE)
    FakeChat.agree = True
    at = run_page("audit.py", **{JUDGE_SET.name: (url, "tiny")})
    _button(at, "Check these with a model").click().run()
    assert "1 near miss" in " ".join(w.value for w in at.warning)
    _button(at, "Send").click().run()
    shown = _texts(at)
    assert "**Possible contradiction**" in shown
    assert "Found by a model: no rule flagged these two" in shown
    assert shown.count("Confirmed by tiny") == 3


def test_open_both_names_the_finding_that_brought_you_there(fresh_data_dir: Path):
    seed(fresh_data_dir / STORE_FILE)
    at = run_page("audit.py")
    next(b for b in at.button if b.label == "Open both in the graph").click().run()
    marks = at.session_state[SEMANTIC_REVIEW_MARKS.name]
    assert marks[2] == "suspected_contradiction"  # for the panel: review.opened_from
    assert review.opened_sentence(marks[2], len(marks[1])) == (
        "Opened from the review queue: a suspected contradiction; both memories are marked "
        "in the graph, the first selected.")
    home = run_page(**{SEMANTIC_REVIEW_MARKS.name: marks,
                       "selected_node": marks[1][0]})
    said = [i.value.replace("\\", "") for i in home.info]
    assert any(s.startswith("Opened from the review queue: a suspected contradiction")
               for s in said), said  # the panel names it too
