"""The home page and the Connection page under AppTest: the real scripts, real SQLite,
and (for a live source) the real sandbox over loopback."""

from __future__ import annotations

import re

import pytest
from apptest_support import element_payload, run_page
from conftest import ROOT
from pydantic import SecretStr
from sandbox_fixture import running_sandbox
from streamlit.testing.v1 import AppTest

from components.graph_view import COMPONENT_NAME
from components.sections.sidebar import F_SUPERSEDED
from components.widgets.safe import md_escape
from memscope.graph.analysis import analyse
from memscope.settings import store_path
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store


def memory_of(store: Store, memory_id: str) -> dict:
    """The stored memory (the test fails plainly when it is missing)."""
    found = store.get_memory(memory_id)
    assert found is not None, f"{memory_id} is not in the store"
    return found

def payload(at: AppTest) -> dict:
    el = next(e for e in at.get("bidi_component") if e.proto.component_name == COMPONENT_NAME)
    return element_payload(el)


def demo_analysis():
    return analyse(EmbeddedSource(store_path()).load().dataset)


def test_home_seeds_the_store_and_shows_counts(fresh_data_dir):
    assert not store_path().exists()
    at = run_page()
    assert store_path().exists()  # seeded on first run
    expected = demo_analysis().counts()
    line = next(c.value for c in at.caption if "memories" in c.value and "·" in c.value)
    assert line == (f"{expected['documents']} documents · {expected['memories']} memories · "
                    f"{expected['chains']} version chains · {expected['findings']} integrity "
                    "findings")
    assert expected["memories"] >= 300 and expected["chains"] > 0
    assert not [d for d in at.dataframe if "memory" in d.value.columns]  # built on demand
    at.toggle(key="show_memory_table").set_value(True).run()
    table = next(d.value for d in at.dataframe if "memory" in d.value.columns)
    assert len(table) == expected["memories"]
    assert set(table["state"]) >= {"latest", "superseded", "forgotten", "expiring", "expired"}
    nodes = payload(at)["nodes"]
    assert len(nodes) == expected["documents"] + expected["memories"]
    assert all("x" in n and "y" in n for n in nodes)  # server-side layout


def _branched_chain(an):
    return next(c for c in an.chains.chains if c.branches)


def test_selecting_a_memory_shows_its_panel_and_whole_history(fresh_data_dir):
    run_page()
    an = demo_analysis()
    chain = _branched_chain(an)
    leaf = chain.entries[-1].id
    at = run_page()
    before = payload(at)
    at.session_state["selected_node"] = leaf
    at.run()
    texts = [t.value for t in at.text]
    assert an.dataset.memories[leaf].memory in texts
    history = [b.label for b in at.button if b.key and b.key.startswith(f"hist-{leaf}-")]
    assert len(history) == len(chain.entries)  # every version, branches included
    assert history[-1].endswith("◀ selected")
    assert payload(at)["nodes"] == before["nodes"]  # a selection re-sends no graph


def test_deep_link_selects_the_node(fresh_data_dir):
    run_page()
    an = demo_analysis()
    doc_id, doc = next(iter(an.dataset.documents.items()))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["node"] = doc_id
    at.run()
    assert at.session_state["selected_node"] == doc_id
    assert doc.title in [t.value for t in at.text]


def test_forget_is_confirmed_sent_once_and_ledgered(fresh_data_dir):
    run_page()
    an = demo_analysis()
    target = next(m for m in an.dataset.memories.values()
                  if not m.is_forgotten and an.chains.of(m.id) is None)
    at = run_page(selected_node=target.id)
    at.button(key=f"forget-{target.id}").click().run()
    assert not at.exception, at.exception
    store = Store(store_path())
    assert memory_of(store, target.id)["isForgotten"] is False  # the dialog only opened
    reason_box = next(t for t in at.text_input if t.label == "Reason (optional)")
    reason_box.input("wrong fact")
    confirm = next(b for b in at.button if b.label == "Forget")
    confirm.click().run()
    assert not at.exception, at.exception
    assert memory_of(store, target.id)["isForgotten"] is True
    rows = [r for r in store.ledger() if r.target_id == target.id]
    assert [(r.action, r.reason, r.outcome) for r in rows] == [("forget", "wrong fact", "ok")]
    at.run()
    at.run()
    assert len([r for r in store.ledger() if r.target_id == target.id]) == 1
    states = {n["id"]: n.get("state") for n in payload(at)["nodes"]}
    assert states[target.id] == "forgotten"  # the graph refreshed


def test_filters_hide_superseded_and_search_highlights(fresh_data_dir):
    run_page()
    an = demo_analysis()
    superseded = {m.id for m in an.dataset.memories.values() if not m.is_latest}
    at = run_page(filters_open=True)  # the filters' widgets are drawn only when open
    everything = {n["id"] for n in payload(at)["nodes"]}
    at.checkbox(key=str(F_SUPERSEDED.widget)).uncheck().run()
    shown = {n["id"] for n in payload(at)["nodes"]}
    assert everything - shown == superseded
    word = "Lisbon"
    expected = {m.id for m in an.dataset.memories.values() if word.lower() in m.memory.lower()
                and m.is_latest}
    at.text_input(key="text_search").input(word).run()
    marked = {n["id"] for n in payload(at)["nodes"] if n.get("highlighted")}
    assert expected and expected <= marked
    match_buttons = [b for b in at.button if b.key and b.key.startswith("match-")]
    assert len(match_buttons) == len(marked)
    match_buttons[0].click().run()
    assert at.session_state["selected_node"] in marked


def test_connection_page_loads_supermemory_from_the_sandbox(fresh_data_dir, tmp_path):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        at = run_page("connection.py")
        at.radio(key="conn_kind").set_value("supermemory").run()  # redraws the fields
        at.text_input(key="conn_base_url").input(sandbox.url)
        next(t for t in at.text_input if t.label == "API key").input(sandbox.supermemory_key)
        at.button[0].click()  # the form's Connect button
        at.run()
        assert not at.exception, at.exception
        summary = " ".join(c.value for c in at.sidebar.caption)
        assert "Loaded" in summary and "documents" in summary
        assert sandbox.supermemory_key not in repr(at.session_state)  # SecretStr hides it
        # the key does not stay in the page as the password field's value
        assert next(t for t in at.text_input if t.label == "API key").value == ""
        assert sandbox.supermemory_key not in str(at._tree)
        home = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        home.session_state["connection"] = at.session_state["connection"]
        home.session_state["api_key_secret"] = at.session_state["api_key_secret"]
        home.run()
        assert not home.exception, home.exception
        ids = {n["id"] for n in payload(home)["nodes"]}
        assert {"mem_fe_v3", "doc_stack_2"} <= ids


def test_profile_page_lists_lines_with_their_memories(fresh_data_dir):
    at = run_page("profile.py")
    lines = [t.value for t in at.text if t.value.startswith("• ")]
    assert lines
    links = [link.proto for link in at.get("page_link")
             if link.proto.query_string.startswith("node=")]
    assert links, "each cited memory links to the explorer"
    cited = {m for p in demo_analysis().dataset.profiles.values()
             for line in (*p.static, *p.dynamic) for m in line.memory_ids}
    assert {p.query_string.removeprefix("node=") for p in links} <= cited
    # following the link (the explorer's URL with ?node=) selects the memory with its panel
    node = links[0].query_string.removeprefix("node=")
    home = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    home.query_params["node"] = node
    home.run()
    assert home.session_state["selected_node"] == node
    assert any(b.key == f"forget-{node}" for b in home.button)  # its panel is open


def test_a_live_load_draws_the_graph_while_pages_arrive(fresh_data_dir, tmp_path,
                                                        monkeypatch):
    from components.state import connection
    from components.widgets import loading
    monkeypatch.setattr(loading, "PREVIEW_EVERY_S", 0.0)  # a preview after every page
    with running_sandbox(tmp_path / "sandbox", data="synthetic", documents=600,
                         memories=1800) as sandbox:
        sandbox.faults.latency_ms = 20
        home = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
        home.session_state["connection"] = connection.Connection(
            "supermemory", base_url=sandbox.url, dialect="legacy")  # previews per feed page
        home.session_state["api_key_secret"] = SecretStr(sandbox.supermemory_key)
        home.run()
        assert not home.exception, home.exception
        graphs = [e for e in home.get("bidi_component")
                  if e.proto.component_name == COMPONENT_NAME]
        assert len(graphs) == 1  # the previews are gone once the load is done
        key = next(k for k in loading._drawn if sandbox.url in k)
        early = loading.positions_drawn_while_loading(key)
        assert early and 0 < len(early) < 600 + 1800  # drawn before every page was in
        final = {n["id"]: (n["x"], n["y"]) for n in payload(home)["nodes"]}
        assert len(final) > len(early)
        moved = [n for n, xy in early.items() if n in final and final[n] != xy]
        assert moved == []  # what was drawn while loading kept its place


def test_a_hostile_server_error_is_one_escaped_sentence(fresh_data_dir, tmp_path):
    from components.state import connection
    hostile = "<img src=x onerror=alert(1)> [click](javascript:alert(2)) **loud**"
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        sandbox.faults.status_sequence = [422]
        sandbox.faults.error_details = hostile
        at = run_page("connection.py", connection=connection.Connection(
            "supermemory", base_url=sandbox.url), api_key_secret=SecretStr("sm_wrong"))
        errors = [e.value for e in at.error]
        assert errors, "the failure is shown"
        assert all("Traceback" not in e for e in errors)
        shown = errors[0]
        # markdown and HTML arrive escaped: the page shows the characters, never a tag,
        # link or bold text
        assert "\\<img src=x onerror=alert\\(1\\)\\>" in shown
        assert "\\[click\\]\\(javascript\\:alert\\(2\\)\\)" in shown
        assert "\\*\\*loud\\*\\*" in shown


def _forget_fact(at: AppTest, rel_id: str) -> None:
    at.button(key=f"forget-{rel_id}").click().run()
    assert not at.exception, at.exception
    next(b for b in at.button if b.label == "Forget").click().run()
    assert not at.exception, at.exception


@pytest.mark.parametrize("wrong", [False, True])
def test_forgetting_a_spomory_fact_is_checked_and_ledgered(fresh_data_dir, tmp_path, wrong):
    from components.state.connection import Connection

    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        sandbox.faults.spomory_wrong_forget = wrong
        at = run_page(connection=Connection("spomory", base_url=sandbox.url),
                      api_key_secret=SecretStr(sandbox.spomory_key), selected_node="e_zs")
        edges_before = {e["id"] for e in payload(at)["edges"]}
        assert "Forget: 张三住在北京" in [b.label for b in at.button]
        _forget_fact(at, "r2")  # 张三 —住在→ 北京
        shown_errors = [e.value for e in at.error]
        at.run()
        ledger = [r for r in Store(store_path()).ledger() if r.target_id == "r2"]
        assert len(ledger) == 1 and ledger[0].snapshot == "张三住在北京"
        remaining = {r["id"] for r in sandbox.spomory.export()["relations"]}
        if wrong:  # the service deleted another fact: said loudly, ledgered as mismatch
            assert ledger[0].outcome == "mismatch"
            assert "r2" in remaining
            assert any("张三住在北京" in e and "张三任职于某公司" in e for e in shown_errors)
        else:
            assert ledger[0].outcome == "ok" and "r2" not in remaining
            assert shown_errors == []
            assert len(payload(at)["edges"]) == len(edges_before) - 1  # the graph refreshed


def test_a_forgotten_memory_can_be_restored_and_it_is_ledgered(fresh_data_dir):
    run_page()
    an = demo_analysis()
    target = next(m for m in an.dataset.memories.values() if m.is_forgotten)
    at = run_page(selected_node=target.id)
    assert [b for b in at.button if b.key == f"forget-{target.id}"] == []
    at.button(key=f"restore-{target.id}").click().run()
    assert not at.exception, at.exception
    store = Store(store_path())
    assert memory_of(store, target.id)["isForgotten"] is False
    assert [(r.action, r.outcome) for r in store.ledger() if r.target_id == target.id] == [
        ("restore", "ok")]
    states = {n["id"]: n.get("state") for n in payload(at)["nodes"]}
    assert states[target.id] != "forgotten"
    assert at.button(key=f"forget-{target.id}")  # and it can be forgotten again


def test_deep_link_with_a_space_scopes_the_load_and_selects_the_node(fresh_data_dir):
    run_page()
    an = demo_analysis()
    space = "acme_work"
    node = next(m.id for m in an.dataset.memories.values() if m.container_tag == space)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["space"] = space
    at.query_params["node"] = node
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["selected_node"] == node
    shown = {n["id"] for n in payload(at)["nodes"]}
    memories = shown & set(an.dataset.memories)
    assert node in memories
    assert {an.dataset.memories[m].container_tag for m in memories} == {space}
    assert len(memories) < len(an.dataset.memories)


def test_the_summary_card_says_what_the_analysis_counts(fresh_data_dir):
    at = run_page()
    analysis = at.session_state["app_context"].analysis
    card = next(m.value for m in at.markdown if "memories are current" in m.value
                or "memory is current" in m.value)
    states = [analysis.state(m) for m in analysis.dataset.memories]
    current = sum(1 for s in states if s in ("latest", "recent", "expiring"))
    superseded = sum(1 for s in states if s == "superseded")
    forgotten = sum(1 for s in states if s == "forgotten")
    for number in (current, superseded, forgotten, len(analysis.dataset.memories)):
        assert re.search(rf"\b{number}\b", card.replace(",", "")), (number, card)
    assert str(len(analysis.findings)) in card.replace(",", "")


def test_the_forget_preview_names_what_it_touches_by_its_text(fresh_data_dir):
    run_page()
    an = demo_analysis()
    chain = next(c for c in an.chains.chains if len(c.entries) >= 2)
    root, later = chain.entries[0].id, chain.entries[1].id
    at = run_page(selected_node=root)
    at.button(key=f"forget-{root}").click().run()
    assert not at.exception, at.exception
    warning = next(w.value for w in at.warning if "This also touches" in w.value)
    assert md_escape(later) not in warning and later not in warning  # no bare id
    words = an.dataset.memories[later].memory.split()[:3]
    assert all(w.strip(".,") in warning for w in words), warning


def test_a_warmed_store_opens_without_layout_work(fresh_data_dir, monkeypatch):
    """`memscope seed` then `memscope warm` (what `make run` does): the first view reads
    the saved layout and clusters — no layout is computed on the first request."""
    from memscope.cli import main as cli

    assert cli(["seed"]) == 0
    assert cli(["warm"]) == 0
    assert list((fresh_data_dir / "derived").glob("*.json"))

    def no_layout(*args, **kwargs):
        raise AssertionError("the first request laid the graph out")

    monkeypatch.setattr("memscope.view.derived.layout_positions", no_layout)
    at = run_page()
    assert len(payload(at)["nodes"]) > 100


def test_the_panel_names_the_cluster_of_the_selected_node(fresh_data_dir):
    from memscope.view.build import cluster_groups

    run_page()
    an = demo_analysis()
    clusters, labels = cluster_groups(an)
    node = next(m for m in an.dataset.memories if clusters.get(m))
    at = run_page(selected_node=node)
    caption = next(c.value for c in at.caption if c.value.startswith("In the cluster"))
    assert md_escape(labels[clusters[node]]) in caption
