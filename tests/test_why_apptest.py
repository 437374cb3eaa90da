"""The trail's dialog under AppTest on the sandbox's Spomory (real loopback HTTP): a
"Why?" beside each fact an answer quotes and beside each fact of a selected entity opens
the fact's trail, with its provenance passage, and no second Spomory call."""

from __future__ import annotations

from apptest_support import run_page
from pydantic import SecretStr
from sandbox_fixture import running_sandbox
from streamlit.testing.v1 import AppTest

from components.state.connection import Connection


def _texts(at: AppTest) -> str:
    return "\n".join(t.value for t in at.text)


def _why(at: AppTest, prefix: str) -> None:
    button = next(b for b in at.button if b.key and b.key.startswith(prefix))
    button.click().run()
    assert not at.exception, at.exception


def test_a_spomory_fact_trail_from_an_answer_and_from_an_entity(fresh_data_dir, tmp_path):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        at = run_page(connection=Connection("spomory", base_url=sandbox.url),
                      api_key_secret=SecretStr(sandbox.spomory_key))
        at.text_input(key="ask_query").input("张三")
        next(b for b in at.button if b.label == "Ask").click().run()
        assert "How it got there" not in " ".join(m.value for m in at.markdown)
        _why(at, "why-ask-rel-")
        facts = {r["id"] for r in sandbox.spomory.export()["relations"]}
        assert at.session_state["why_open"] in facts
        shown = _texts(at)
        assert "passage (provenance): “" in shown
        assert "A fact keeps no version history" in shown
        assert any("How it got there" in m.value for m in at.markdown)
        searches = len(sandbox.requests_to("/v1/memories/search"))

        at.session_state["why_open"] = None  # the dialog dismissed
        at.session_state["selected_node"] = "e_zs"
        at.run()
        _why(at, "why-fact-e_zs-")
        assert "张三 — " in _texts(at) and "passage (provenance)" in _texts(at)
        assert len(sandbox.requests_to("/v1/memories/search")) == searches
