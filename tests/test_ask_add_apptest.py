"""The Ask and Add boxes under AppTest: the real home page, real SQLite, and the sandbox
over loopback for Spomory and Supermemory."""

from __future__ import annotations

from apptest_support import element_payload, open_fold, run_page
from pydantic import SecretStr
from sandbox_fixture import running_sandbox
from streamlit.testing.v1 import AppTest

from components.graph_view import COMPONENT_NAME
from components.state.connection import Connection
from memscope.graph.analysis import analyse
from memscope.reports.ask import highlight_ids
from memscope.settings import store_path
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store

PERSONAL = "sm_project_personal"



def memory_of(store: Store, memory_id: str) -> dict:
    """The stored memory (the test fails plainly when it is missing)."""
    found = store.get_memory(memory_id)
    assert found is not None, f"{memory_id} is not in the store"
    return found

def home(**state) -> AppTest:
    return run_page(**state)


def highlighted(at: AppTest) -> set[str]:
    el = next(e for e in at.get("bidi_component") if e.proto.component_name == COMPONENT_NAME)
    return {n["id"] for n in element_payload(el)["nodes"] if n.get("highlighted")}


def node_ids(at: AppTest) -> set[str]:
    el = next(e for e in at.get("bidi_component") if e.proto.component_name == COMPONENT_NAME)
    return {n["id"] for n in element_payload(el)["nodes"]}


def ask(at: AppTest, query: str) -> None:
    at.text_input(key="ask_query").input(query)
    next(b for b in at.button if b.label == "Ask").click().run()
    assert not at.exception, at.exception


def click(at: AppTest, label: str) -> None:
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception, at.exception


def add(at: AppTest, text: str) -> None:
    open_fold(at, "Add a memory")
    at.text_area(key="add_text").input(text)
    click(at, "Add…")
    assert any("It is sent once" in w.value for w in at.warning)
    click(at, "Confirm add")


def captions(at: AppTest) -> str:
    """Every caption, markdown escapes removed."""
    return " ".join(c.value for c in at.caption).replace("\\", "")


def test_ask_lists_results_highlights_them_and_selects_one(fresh_data_dir):
    home()
    src = EmbeddedSource(store_path())
    expected = highlight_ids(analyse(src.load().dataset), src.search("Lisbon trip"))
    at = home()
    assert highlighted(at) == set()
    ask(at, "Lisbon trip")
    hits = [b for b in at.button if b.key and b.key.startswith("ask-hit-")]
    assert len(hits) == 10 and expected and highlighted(at) == expected
    assert "FTS5" not in captions(at)  # plain words on screen (detail in help tooltips)
    hits[1].click().run()
    assert at.session_state["selected_node"] == str(hits[1].key).split("-", 3)[3]
    assert highlighted(at) == expected  # kept across the rerun
    at.text_input(key="text_search").input("Kyoto").run()  # the local filter adds to it
    assert expected < highlighted(at)


def test_add_is_confirmed_sent_once_and_ledgered(fresh_data_dir):
    at = home()
    store = Store(store_path())
    text = "Maya adopted a cat named Miso."
    assert not [t for t in at.text_area if t.key == "add_text"]  # folded: not drawn
    open_fold(at, "Add a memory")
    at.text_area(key="add_text").input(text)
    click(at, "Add…")
    assert not [r for r in store.ledger() if r.action == "add"]  # nothing sent yet
    assert text in [t.value for t in at.text]
    click(at, "Confirm add")
    at.run()
    at.run()
    rows = [r for r in store.ledger() if r.action == "add"]
    assert [(r.snapshot, r.outcome) for r in rows] == [(text, "ok")]
    new_memory = at.session_state["selected_node"]
    assert memory_of(store, new_memory)["memory"] == text
    assert new_memory in node_ids(at)  # the graph reloaded
    assert not [b for b in at.button if b.label == "Confirm add"]


def test_cancel_sends_nothing(fresh_data_dir):
    at = home()
    open_fold(at, "Add a memory")
    at.text_area(key="add_text").input("Never mind.")
    click(at, "Add…")
    click(at, "Cancel")
    assert not [r for r in Store(store_path()).ledger() if r.action == "add"]


def test_spomory_ask_shows_context_calls_and_never_resends(fresh_data_dir, tmp_path):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        at = home(connection=Connection("spomory", base_url=sandbox.url),
                  api_key_secret=SecretStr(sandbox.spomory_key))
        assert "This session made 1 Spomory call;" in captions(at)
        assert "last_retrieved_at" in captions(at)  # said before anything is searched
        ask(at, "张三")
        context = next(t.value for t in at.text if t.value.startswith("相关记忆"))
        assert "张三" in context
        assert "This session made 2 Spomory calls;" in captions(at)
        marked = highlighted(at)
        assert marked and marked <= {e["id"] for e in sandbox.spomory.export()["entities"]}
        facts = [b for b in at.button if b.key and b.key.startswith("ask-rel-")]
        assert facts
        facts[0].click().run()
        at.run()
        ask(at, "张三")  # the same question again: the kept answer is shown
        assert len(sandbox.requests_to("/v1/memories/search")) == 1
        assert highlighted(at) == marked
        assert at.session_state["selected_node"] in marked


def test_spomory_add_shows_the_sentence_and_reloads_with_one_export(fresh_data_dir, tmp_path):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        at = home(connection=Connection("spomory", base_url=sandbox.url),
                  api_key_secret=SecretStr(sandbox.spomory_key))
        assert not [t for t in at.text_input if t.label == "Title (optional)"]  # no spaces
        add(at, "Alice works at Acme.")
        at.run()
        said = " ".join(s.value for s in at.success).replace("\\", "")
        assert "answered: 新增实体 2 个" in said
        assert len(sandbox.requests_to("/v1/memories", "POST")) == 1
        assert len(sandbox.requests_to("/v1/export")) == 2  # the first load and one reload
        names = {e["name"]: e["id"] for e in sandbox.spomory.export()["entities"]}
        assert {names["Alice"], names["Acme"]} <= node_ids(at)
        assert "This session made 3 Spomory calls;" in captions(at)
        rows = [(r.source, r.outcome) for r in Store(store_path()).ledger()
                if r.action == "add"]
        assert rows == [("spomory", "ok")]


def test_supermemory_add_polls_until_done_then_reloads(fresh_data_dir, tmp_path):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        sandbox.faults.update(processing_polls=2)
        at = home(connection=Connection("supermemory", base_url=sandbox.url, space=PERSONAL,
                                        dialect="legacy"),
                  api_key_secret=SecretStr(sandbox.supermemory_key))
        add(at, "Maya started learning the cello.")
        assert not at.exception, at.exception
        [post] = sandbox.requests_to("/v3/documents", "POST")
        assert post.body["containerTag"] == PERSONAL
        doc_id = next(r.path.rsplit("/", 1)[1] for r in sandbox.requests
                      if r.method == "GET" and r.path.startswith("/v3/documents/"))
        assert len(sandbox.requests_to(f"/v3/documents/{doc_id}")) == 3  # 2 steps, then done
        assert doc_id in node_ids(at)  # patched in after done
        assert at.session_state["selected_node"] in node_ids(at)
        # the patch read the feed's first page (newest first) only, not the account
        assert len(sandbox.requests_to("/v3/documents/documents", "POST")) == 2
        at.run()
        at.run()
        assert len(sandbox.requests_to("/v3/documents", "POST")) == 1
        rows = [r for r in Store(store_path()).ledger() if r.action == "add"]
        assert [(r.source, r.target_id, r.outcome) for r in rows] == [
            ("supermemory", doc_id, "ok")]


def test_a_v5_add_is_patched_in_with_the_documents_memories(fresh_data_dir, tmp_path):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        sandbox.faults.update(processing_polls=1)
        at = home(connection=Connection("supermemory", base_url=sandbox.url, space=PERSONAL,
                                        dialect="v5"),
                  api_key_secret=SecretStr(sandbox.supermemory_key))
        loaded = len(sandbox.requests)
        add(at, "Maya started learning the cello.")
        assert not at.exception, at.exception
        at.run()
        sent = [(r.method, r.path) for r in sandbox.requests[loaded:]]
        [post] = sandbox.requests_to(f"/ns/{PERSONAL}/document", "POST")
        doc_id = post.answer["id"]
        polls = [s for s in sent if s == ("GET", f"/ns/{PERSONAL}/document/{doc_id}")]
        rest = [s for s in sent if s not in polls and s != ("POST", post.path)]
        assert len(polls) == 2  # one processing step, then done (with its memories)
        # then its memory's history view, the namespaces and the profile: no list page
        assert len(rest) <= 3 and not [p for _, p in rest if "/list/" in p], rest
        assert doc_id in node_ids(at)
        assert at.session_state["selected_node"] in node_ids(at)


def test_supermemory_failed_processing_is_reported(fresh_data_dir, tmp_path):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        sandbox.faults.update(processing_polls=1, fail_processing=1)
        at = home(connection=Connection("supermemory", base_url=sandbox.url, space=PERSONAL,
                                        dialect="legacy"),
                  api_key_secret=SecretStr(sandbox.supermemory_key))
        add(at, "This text will fail.")
        assert any("could not process document" in e.value for e in at.error)
        rows = [r.outcome for r in reversed(Store(store_path()).ledger())
                if r.action == "add"]
        assert rows == ["ok", "error"]
