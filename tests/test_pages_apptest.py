"""Audit, Insights, Expiry, Export, Ledger and Forget-all pages under AppTest: the real
scripts on a fresh data directory (real SQLite; the Supermemory sandbox over loopback)."""

from __future__ import annotations

import hashlib

from apptest_support import run_page
from conftest import SM
from pydantic import SecretStr
from sandbox_fixture import running_sandbox
from streamlit.testing.v1 import AppTest

from components.sections.ledger import LEDGER_FILTERS
from components.sections.sidebar import F_SPACES, F_TYPES
from components.state.connection import Connection
from memscope.graph.analysis import analyse
from memscope.graph.findings import FINDING_KINDS
from memscope.reports.audit import FINDING_TITLES
from memscope.settings import store_path
from memscope.sources import actions
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store


def memory_of(store: Store, memory_id: str) -> dict:
    """The stored memory (the test fails plainly when it is missing)."""
    found = store.get_memory(memory_id)
    assert found is not None, f"{memory_id} is not in the store"
    return found

def open_page(page: str, **state) -> AppTest:
    """Run ``pages/<page>`` with ``app.py`` as the entry point (so links to it resolve)."""
    return run_page(page, **state)


def demo():
    return analyse(EmbeddedSource(store_path()).load().dataset)


def table_with(at: AppTest, column: str):
    """The first dataframe that has ``column``."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def node_links(at: AppTest) -> list[str]:
    return [link.proto.query_string.removeprefix("node=") for link in at.get("page_link")
            if link.proto.query_string.startswith("node=")]


def test_audit_page(fresh_data_dir):
    at = open_page("audit.py")
    an = demo()
    # issue 32: the findings present, grouped and explained in words; no table of every
    # kind, no snake_case kind, no kind with none
    assert not any("what it means" in d.value.columns for d in at.dataframe)
    expected = {k: sum(1 for f in an.findings if f.kind == k) for k in FINDING_KINDS}
    labels = [e.proto.label for e in at.expander]
    shown = [k for k in FINDING_KINDS if expected[k]]
    assert shown, "the demo has findings"
    for kind in FINDING_KINDS:
        title = f"{FINDING_TITLES[kind]} — {expected[kind]:,}"
        assert (title in labels) == bool(expected[kind]), title
        assert not any(kind in label for label in labels if "_" in kind)
    linked = set(node_links(at))
    assert {n for f in an.findings for n in f.nodes if n in an.graph.graph} <= linked
    chains = table_with(at, "branches")
    assert len(chains) == len(an.chains)
    # the diff: pick a chain with a changed text, old vs new side by side
    chain = next(c for c in an.chains.chains
                 if len(c.entries) >= 2 and c.entries[0].text != c.entries[-1].text)
    at.selectbox(key="diff_chain").set_value(chain.root).run()
    assert not at.exception, at.exception
    marks = " ".join(m.value for m in at.markdown)
    assert ":red-background[" in marks and ":green-background[" in marks


def test_audit_page_follows_the_explorer_filters(fresh_data_dir):
    open_page("audit.py")
    an = demo()
    space = sorted({m.container_tag for m in an.dataset.memories.values() if m.container_tag})[0]
    at = open_page("audit.py", **{F_SPACES.name: [space]})
    assert any("Follows the sidebar's filters" in c.value for c in at.caption)
    chains = table_with(at, "branches")
    in_space = [c for c in an.chains.chains
                if any(an.dataset.memories[e.id].container_tag == space for e in c.entries)]
    assert len(chains) == len(in_space) < len(an.chains)


def test_insights_page(fresh_data_dir):
    at = open_page("insights.py")
    charts = at.get("plotly_chart")
    assert len(charts) == 8
    assert all('"title"' in c.proto.spec for c in charts)


def test_expiry_page(fresh_data_dir):
    at = open_page("expiry.py")
    an = demo()
    due = sorted((m.forget_after, m.id) for m in an.dataset.memories.values() if m.forget_after)
    table = table_with(at, "days left")
    assert list(table["id"]) == [i for _, i in due]
    assert set(table.loc[table["expired"], "flag"]) == {"⚠️ expired"}
    assert node_links(at)[:len(due)] == [i for _, i in due]


def test_export_page(fresh_data_dir):
    at = open_page("export.py")
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["GraphML", "GEXF", "Node-link JSON", "Memories CSV", "Offline HTML view",
                      "Download evidence pack (ZIP)"]
    an = demo()
    chain = an.chains.chains[0]
    at = open_page("export.py", selected_node=chain.entries[-1].id)
    assert at.selectbox(key="evidence_node").value == chain.root


def test_forget_all_two_steps_and_ledger(fresh_data_dir):
    open_page("forget_all.py")
    an = demo()
    spaces = {}
    for m in an.dataset.memories.values():
        spaces.setdefault(m.container_tag, []).append(m)
    space = min(spaces, key=lambda s: len(spaces[s]))
    live = sorted(m.id for m in spaces[space] if not m.is_forgotten)
    store = Store(store_path())
    at = open_page("forget_all.py")
    at.selectbox(key="forget_all_space").set_value(space).run()
    before = store.dump()
    at.button(key="forget_all_preview").click().run()  # step one
    assert not at.exception, at.exception
    assert store.dump() == before  # nothing changed
    assert {m.label: m.value for m in at.metric}["Would be forgotten"] == str(len(live))
    go = next(b for b in at.button if (b.key or "").startswith("fa-go-"))
    assert go.disabled
    confirm = next(t for t in at.text_input if t.label.startswith("Type"))
    confirm.input("not the space").run()
    assert next(b for b in at.button if (b.key or "").startswith("fa-go-")).disabled
    assert store.dump() == before
    next(t for t in at.text_input if t.label.startswith("Reason")).input("demo reset")
    next(t for t in at.text_input if t.label.startswith("Type")).input(space).run()
    next(b for b in at.button if (b.key or "").startswith("fa-go-")).click().run()  # step two
    assert not at.exception, at.exception
    assert all(memory_of(store, i)["isForgotten"] for i in live)
    rows = [r for r in store.ledger() if r.action == "forget_all"]
    assert sorted(str(r.target_id) for r in rows) == live
    assert {(r.space, r.reason, r.outcome) for r in rows} == {(space, "demo reset", "ok")}
    at.run()
    at.run()
    assert len([r for r in store.ledger() if r.action == "forget_all"]) == len(live)
    ledger = open_page("ledger.py")
    table = table_with(ledger, "outcome")
    assert set(live) <= set(table["target_id"])
    ledger.multiselect(key=LEDGER_FILTERS.key("actions")).set_value(
        ["Forgot everything in a space"]).run()  # the action in words
    shown = table_with(ledger, "outcome")
    assert sorted(shown["target_id"]) == live


def test_ledger_page_shows_a_forget(fresh_data_dir):
    open_page("ledger.py")
    an = demo()
    mem = next(m for m in an.dataset.memories.values() if not m.is_forgotten)
    source = EmbeddedSource(store_path())
    actions.forget(source, Store(store_path()), mem.id, reason="wrong", container_tag=None,
                   snapshot=mem.memory)
    at = open_page("ledger.py")
    table = table_with(at, "outcome")
    row = table[table["target_id"] == mem.id].iloc[0]
    assert (row["action"], row["snapshot"], row["reason"], row["outcome"]) == (
        "Forgot a memory", mem.memory, "wrong", "done")  # in words, not "forget"/"ok"
    at.text_input(key=LEDGER_FILTERS.key("text")).input(mem.id).run()
    assert list(table_with(at, "outcome")["target_id"]) == [mem.id]


def test_forget_all_says_why_a_file_cannot(fresh_data_dir):
    blob = (SM / "documents_page1.json").read_bytes()
    digest = hashlib.sha256(blob).hexdigest()
    at = open_page("forget_all.py",
                   connection=Connection("file", files=(("page1.json", digest),)),
                   file_blobs={digest: blob})
    assert any("A snapshot file is read-only" in i.value.replace("\\", "") for i in at.info)
    assert not [b for b in at.button if b.key == "forget_all_preview"]


def test_supermemory_bulk_forget_of_the_filtered_memories(fresh_data_dir, tmp_path):
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        # the filter keeps the pdf document doc_ml_reading and its three memories
        state = {"connection": Connection("supermemory", base_url=sandbox.url, dialect="legacy"),
                 "api_key_secret": SecretStr(sandbox.supermemory_key),
                 F_TYPES.name: ["pdf"]}
        at = open_page("forget_all.py", **state)
        at.button(key="forget_all_preview").click().run()
        assert not at.exception, at.exception
        calls = sandbox.requests_to("/v4/memories/forget-matching", "POST")
        assert [c.body["dryRun"] for c in calls] == [True]  # the dry run came first
        assert {m.label: m.value for m in at.metric}["Would be forgotten"] == "3"
        next(t for t in at.text_input if t.label.startswith("Type")).input("3").run()
        next(b for b in at.button if (b.key or "").startswith("fa-go-")).click().run()
        assert not at.exception, at.exception
        calls = sandbox.requests_to("/v4/memories/forget-matching", "POST")
        assert [c.body["dryRun"] for c in calls] == [True, False]
        assert calls[1].body["ids"] == ["mem_reads_ml", "mem_is_mle", "mem_coffee_v2"]
        rows = [r for r in Store(store_path()).ledger() if r.action == "forget_all"]
        assert [(r.source, r.space, r.outcome) for r in rows] == [
            ("supermemory", "sm_project_personal", "ok")]


CHANGES_SCRIPT = '''
from datetime import UTC, datetime
from components.sections.audit import changes_section
from memscope.graph.analysis import analyse
from memscope.lenses.asof import as_of, compare
from memscope.records.dataset import read_files
ds = read_files([f"{FOLDER}/documents_page{i}.json" for i in (1, 2, 3)])
t1, t2 = datetime(2026, 11, 12, tzinfo=UTC), datetime(2026, 11, 16, 12, tzinfo=UTC)
changes_section(analyse(as_of(ds, t2), now=t2), compare(ds, t1, t2))
'''


def test_changes_section_lists_the_comparison():
    at = AppTest.from_string(CHANGES_SCRIPT.replace("{FOLDER}", str(SM)), default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    heads = [m.value for m in at.markdown if m.value.startswith("**")]
    # 11-12 → 11-16 12:00: reads_ml, is_mle, hostile, unicode added; coffee v2 and v2b
    assert heads == ["**Added: 4**", "**Updated (new versions): 2**", "**Forgotten: 0**"]
