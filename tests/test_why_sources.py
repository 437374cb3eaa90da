"""The provenance trail through every kind of source: the embedded demo store, a snapshot
file of it (also on the command line), and the sandbox's Supermemory (legacy v3/v4 and
current v5) and Spomory, over real loopback HTTP."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT
from sandbox_fixture import running_sandbox, spomory, supermemory, supermemory_v5

from memscope.demo.seeding import seed_if_missing
from memscope.graph.analysis import Analysis, analyse
from memscope.records.dataset import Dataset
from memscope.reports.why import trail
from memscope.sources import EmbeddedSource, FileSource, save_snapshot

VUE = "Maya prefers Vue for frontend work."
NOW_SAYS = "Maya prefers React with TypeScript for new frontend work."


def _by_text(ds: Dataset, text: str) -> str:
    return next(m.id for m in ds.memories.values() if m.memory == text)


def _check_demo_chain(an: Analysis, *, content: bool = True) -> None:
    """The demo's Vue → React → React with TypeScript chain, asked from its first version."""
    t = trail(an, _by_text(an.dataset, VUE))
    # the demo's chain branches after React: both versions hold, each named
    newest, other = "Maya prefers Svelte for small personal sites.", NOW_SAYS
    assert t.statement.text == newest
    assert t.statement.also == (f"“{other}” ({_by_text(an.dataset, other)})",)
    changes = [v.change for v in t.versions]
    assert changes[:2] == ["First stated.", "“Vue” became “React”."]
    assert all(s.title and s.type for s in t.sources) and t.sources
    if content:  # the line of the document that says it
        assert any(s.passage_from == "content" and "Vue" in (s.passage or "")
                   for s in t.sources)
    else:  # v5 lists no document content: the summary stands in
        assert all(s.passage_from == "summary" and s.passage for s in t.sources)
    assert any("Prefers React with TypeScript" in c.text for c in t.profile_lines)
    react = trail(an, _by_text(an.dataset, NOW_SAYS))  # the other branch, asked directly
    assert react.statement.text == NOW_SAYS and react.statement.also == ()
    assert react.impact  # the demo infers a memory from it
    assert any("inferred" in r.words or "basis" in r.words for r in react.relations)


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("why-demo") / "memscope.db"
    seed_if_missing(path)
    return path


def test_embedded_store_and_its_snapshot(demo_store, tmp_path):
    loaded = EmbeddedSource(demo_store).load()
    _check_demo_chain(analyse(loaded.dataset))
    snap = save_snapshot(loaded, tmp_path / "snapshot.json")
    _check_demo_chain(analyse(FileSource([snap]).load().dataset))
    asked = _by_text(loaded.dataset, VUE)
    proc = subprocess.run([sys.executable, "-m", "memscope", "why", asked, str(snap), "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["statement"]["asked_id"] == asked
    assert NOW_SAYS in data["statement"]["also"][0]
    assert data["profile_lines"]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    with running_sandbox(tmp_path_factory.mktemp("why-sandbox"), data="demo") as sb:
        yield sb


def test_supermemory_legacy_and_v5(sandbox):
    _check_demo_chain(analyse(supermemory(sandbox).load().dataset))
    _check_demo_chain(analyse(supermemory_v5(sandbox).load().dataset), content=False)


def test_spomory_fact(sandbox):
    an = analyse(spomory(sandbox).load().dataset)
    t = trail(an, "r1")
    assert t.kind == "fact" and t.statement.text == "张三 — 任职于 — 某公司"
    assert [s.passage for s in t.sources] == ["张三在某公司工作。"]
