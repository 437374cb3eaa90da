"""``python -m memscope diff``: a real subprocess against the real sandbox on 127.0.0.1,
which serves the legacy (v3/v4) and the v5 routes from one store."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from sandbox_fixture import running_sandbox

from memscope.reports.migration import load_both
from memscope.sandbox import Sandbox
from memscope.sources.files import save_snapshot

SPACE = "sm_project_personal"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Sandbox]:
    with running_sandbox(tmp_path_factory.mktemp("sandbox"), data="demo") as sb:
        yield sb


def diff(*args: str, key: str | None, home: Path, **env: str) -> subprocess.CompletedProcess:
    """``memscope diff`` with the key in the environment only (never in argv), run where
    no secrets file is."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("MEMSCOPE_")}
    clean.update(HOME=str(home), PYTHONPATH=str(ROOT), **env)
    if key is not None:
        clean["MEMSCOPE_API_KEY"] = key
    return subprocess.run([sys.executable, "-m", "memscope", "diff", *args],
                          capture_output=True, text=True, cwd=home, env=clean, timeout=120)


def test_an_identical_account_exits_0_with_its_sentence(sandbox: Sandbox, tmp_path: Path
                                                        ) -> None:
    proc = diff("--base-url", sandbox.url, "--space", SPACE, key=sandbox.supermemory_key,
                home=tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    n = out["counts"]["legacy"]
    assert out["identical"] is True and out["rows"] == [] and out["space"] == SPACE
    assert n == out["counts"]["v5"] and n["memories"] > 50 and n["edges"] > 10
    assert out["sentence"] == (
        f"The legacy (v3/v4) and current (v5) APIs return the same {n['memories']} memories, "
        f"{n['documents']} documents and {n['edges']} chain edges for this space.")
    # both dialects were really spoken, for this namespace
    assert sandbox.requests_to("/v3/documents/documents", "POST")
    assert sandbox.requests_to(f"/ns/{SPACE}/list/memories", "POST")
    assert sandbox.supermemory_key not in proc.stdout + proc.stderr


def _planted(sandbox: Sandbox) -> tuple[Any, str, str]:
    """The v5 routes' index with one memory's text changed and one single memory
    dropped: the store behind the legacy routes is untouched."""
    index = sandbox._v5._index()  # pyright: ignore[reportPrivateUsage]
    mems = [m for m in index.namespace_memories(SPACE) if not m.get("isForgotten")]
    linked = set(index.children) | set(index.siblings) | {
        m.get("parentMemoryId") for m in index.memories.values()}
    single = next(m["id"] for m in mems if m["id"] not in linked and not m.get("parentMemoryId"))
    changed = next(m["id"] for m in mems if m["id"] != single)
    memories = {k: v for k, v in index.memories.items() if k != single}
    memories[changed] = {**memories[changed], "memory": "A planted v5-only text."}
    return dataclasses.replace(index, memories=memories), changed, single


def test_a_planted_difference_exits_1_and_names_it(sandbox: Sandbox, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    planted, changed, dropped = _planted(sandbox)
    monkeypatch.setattr(sandbox._v5, "_index", lambda: planted)  # pyright: ignore[reportPrivateUsage]
    proc = diff("--base-url", sandbox.url, "--space", SPACE, key=sandbox.supermemory_key,
                home=tmp_path)
    assert proc.returncode == 1, proc.stderr
    out = json.loads(proc.stdout)
    assert out["identical"] is False
    rows = {(r["kind"], r["id"]): r for r in out["rows"]}
    assert set(rows) == {("memory", dropped), ("text", changed)}
    assert rows[("memory", dropped)]["legacy"] == "present"
    assert rows[("memory", dropped)]["v5"] == "missing"
    assert rows[("text", changed)]["v5"] == "A planted v5-only text."
    assert rows[("text", changed)]["legacy"] != "A planted v5-only text."
    assert out["differences"] == {"memory": 1, "text": 1}
    assert out["sentence"] == ("The legacy (v3/v4) and current (v5) APIs differ for this "
                               "space: 2 differences (1 memory only one API returns, 1 "
                               "changed text).")


def test_errors_exit_2_with_one_sentence(sandbox: Sandbox, tmp_path: Path) -> None:
    no_key = diff("--base-url", sandbox.url, key=None, home=tmp_path)
    assert no_key.returncode == 2 and no_key.stdout == ""
    assert "MEMSCOPE_API_KEY" in no_key.stderr and len(no_key.stderr.splitlines()) == 1
    sandbox.faults.update(v5_missing=True)
    try:
        mismatch = diff("--base-url", sandbox.url, "--space", SPACE,
                        key=sandbox.supermemory_key, home=tmp_path)
    finally:
        sandbox.faults.reset()
    assert mismatch.returncode == 2 and mismatch.stdout == ""
    assert len(mismatch.stderr.strip().splitlines()) == 1, mismatch.stderr
    assert "v5" in mismatch.stderr and "Traceback" not in mismatch.stderr
    assert "Connection page" not in mismatch.stderr  # a sentence for the command line
    wrong = diff("--base-url", sandbox.url, key="sk-not-the-key", home=tmp_path)
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert "sk-not-the-key" not in wrong.stderr
    one_file = diff(str(tmp_path / "a.json"), key=None, home=tmp_path)
    assert one_file.returncode == 2 and "two snapshot files" in one_file.stderr


def test_two_snapshot_files_use_the_same_comparison(sandbox: Sandbox, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    loads = load_both(sandbox.supermemory_key, base_url=sandbox.url, space=SPACE)
    legacy = save_snapshot(loads.legacy, tmp_path / "legacy.json")
    v5 = save_snapshot(loads.v5, tmp_path / "v5.json")
    same = diff(str(legacy), str(v5), key=None, home=tmp_path)
    assert same.returncode == 0, same.stderr
    out = json.loads(same.stdout)
    assert out["identical"] is True
    assert out["sources"] == {"legacy": str(legacy), "v5": str(v5)}
    planted, changed, dropped = _planted(sandbox)
    monkeypatch.setattr(sandbox._v5, "_index", lambda: planted)  # pyright: ignore[reportPrivateUsage]
    other = load_both(sandbox.supermemory_key, base_url=sandbox.url, space=SPACE).v5
    v5_planted = save_snapshot(other, tmp_path / "v5-planted.json")
    differs = diff(str(legacy), str(v5_planted), key=None, home=tmp_path)
    assert differs.returncode == 1
    assert {(r["kind"], r["id"]) for r in json.loads(differs.stdout)["rows"]} == {
        ("memory", dropped), ("text", changed)}
    missing = diff(str(legacy), str(tmp_path / "nowhere.json"), key=None, home=tmp_path)
    assert missing.returncode == 2 and "cannot read" in missing.stderr


# -- the Connection page's section (AppTest: the real page, the real sandbox) ---------------


def _connection_page(sandbox: Sandbox, **state: Any) -> Any:
    from apptest_support import run_page
    from pydantic import SecretStr

    from components.state.connection import Connection

    return run_page("connection.py", connection=Connection(
        "supermemory", base_url=sandbox.url, space=SPACE),
        api_key_secret=SecretStr(sandbox.supermemory_key), **state)


def _compare(at: Any) -> Any:
    from components.sections.migration import BUTTON

    button = next(b for b in at.button if b.label == BUTTON)
    button.click().run()
    assert not at.exception, at.exception
    return at


def test_the_connection_page_section(sandbox: Sandbox, fresh_data_dir: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from apptest_support import graph_payload, run_page

    from components.sections.migration import MIGRATION_REPORT, TITLE
    from components.sections.sidebar import PRESENTER

    at = _connection_page(sandbox)
    assert TITLE in [h.value for h in at.subheader]
    _compare(at)
    (ok,) = [s.value for s in at.success if "APIs return the same" in s.value]
    assert ok.startswith("The legacy \\(v3/v4\\) and current \\(v5\\) APIs return the same")
    assert not [d for d in at.dataframe if "current (v5)" in d.value.columns]
    # a planted difference behind the v5 routes only
    planted, changed, dropped = _planted(sandbox)
    monkeypatch.setattr(sandbox._v5, "_index", lambda: planted)  # pyright: ignore[reportPrivateUsage]
    _compare(at)
    assert [w.value for w in at.warning if "differ for this space" in w.value]
    table = next(d.value for d in at.dataframe if "current (v5)" in d.value.columns)
    assert set(zip(table["what"], table["id"], strict=True)) == {
        ("memory", dropped), ("text", changed)}
    text_row = table[table["what"] == "text"].iloc[0]
    assert text_row["current (v5)"] == "A planted v5-only text."
    assert sandbox.supermemory_key not in str(at._tree)
    # presenter mode masks the texts in the table
    at.toggle(key=str(PRESENTER.widget)).set_value(True).run()
    masked = next(d.value for d in at.dataframe if "current (v5)" in d.value.columns)
    text_row = masked[masked["what"] == "text"].iloc[0]
    assert text_row["current (v5)"] == "Memory text (23 chars)"
    assert "A planted v5-only text." not in str(at._tree)
    # the explorer marks the differing nodes that its graph holds
    home = run_page(connection=at.session_state["connection"],
                    api_key_secret=at.session_state["api_key_secret"],
                    migration_report=at.session_state[MIGRATION_REPORT.name])
    marked = {n["id"] for n in graph_payload(home)["nodes"] if n.get("highlighted")}
    assert marked == {changed, dropped}  # both are in the graph the connection loaded


def test_the_section_is_not_shown_where_it_does_not_apply(fresh_data_dir: Path,
                                                          tmp_path: Path) -> None:
    """Issue 32: only Supermemory has two APIs; the embedded store, Spomory and an opened
    file (a mem0 history.db) show no migration check at all."""
    from apptest_support import run_page

    from components.sections.migration import BUTTON, TITLE
    from components.state.connection import Connection

    for conn in (None, Connection("spomory", base_url="http://127.0.0.1:9"),
                 Connection("file", files=(("history.db", "0" * 64),))):
        at = run_page("connection.py", **({} if conn is None else {"connection": conn}))
        assert TITLE not in [h.value for h in at.subheader], conn
        assert not [c for c in at.caption if "Supermemory's two APIs" in c.value], conn
        assert not [b for b in at.button if b.label == BUTTON], conn
