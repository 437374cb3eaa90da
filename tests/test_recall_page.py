"""The Recall map page under AppTest — on the demo store: Run starts the real thread over the
embedded store's own search with the demo's question set; the page then shows the map —
the graph recoloured by recall count with a legend of the counts, the latest memories
never recalled, the CSV — and in presenter mode none of the data's text; Stop; and the
same page on a snapshot file and on the sandbox's Supermemory (legacy and v5) and
Spomory."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from apptest_support import graph_payload, run_page
from pydantic import SecretStr
from sandbox_fixture import running_sandbox, spomory, supermemory, supermemory_v5
from streamlit.testing.v1 import AppTest
from test_every_page import data_texts, rendered_text, source_state

from components.sections import recall as ui
from components.sections.recall import RECALL_FROM, RECALL_JOB, RECALL_TEXT, RECALL_WORKERS
from components.sections.sidebar import PRESENTER
from components.state.connection import API_KEY, CONNECTION, Connection
from memscope.demo.seeding import seed_if_missing
from memscope.graph.analysis import analyse
from memscope.records.dataset import Dataset
from memscope.reports import recall
from memscope.settings import store_path
from memscope.sources.embedded import EmbeddedSource
from memscope.view.colors import RECALL_COLORS


def _cells(at: AppTest) -> str:
    """Every cell of every table on the page, one a line (a table's data is sent as
    Arrow bytes, which :func:`rendered_text` cannot read)."""
    return "\n".join(str(v) for df in at.dataframe for col in df.value.columns
                     for v in df.value[col].tolist())


def _run_to_the_end(at: AppTest) -> AppTest:
    """Click Run, wait for the session's thread to finish, and draw the page again."""
    next(b for b in at.button if b.label == "Run").click().run()
    assert not at.exception, at.exception
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job = at.session_state[RECALL_JOB.name]
        if not job.running:
            break
        time.sleep(0.1)
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_demo_question_set_maps_the_demo_store(fresh_data_dir):
    seed_if_missing(store_path())
    source = EmbeddedSource(store_path())
    an = analyse(source.load().dataset)
    questions = ui.demo_questions()
    assert len(questions) >= 20
    at = run_page("recall.py")
    assert at.radio[0].value == "demo"  # the demo store offers its own set first
    job = _run_to_the_end(at).session_state[RECALL_JOB.name]
    assert job.run.ran == len(questions) and job.run.failed == 0
    # the same counts as the store's own search gives, question by question
    direct = recall.recall_map(an, recall.run_questions(questions, recall.source_search(
        source, an), workers=1))
    assert recall.recall_map(an, job.run).counts == direct.counts
    never = direct.never()
    assert never, "some latest memory of the demo is never recalled"
    shown = rendered_text(at)
    assert f"Latest memories never recalled ({len(never)})" in shown
    cells = _cells(at)
    assert an.dataset.memories[never[0]].memory[:60] in cells  # listed in the table
    payload = graph_payload(at)
    nodes = {n["id"]: n for n in payload["nodes"]}
    fills = {RECALL_COLORS[recall.bucket_of(c)] for i, c in direct.counts.items() if i in nodes}
    assert len(fills) >= 3
    for mem_id, count in direct.counts.items():
        if mem_id in nodes:
            assert nodes[mem_id]["color_group"] == recall.bucket_of(count)
    legend = {c["key"]: c["count"] for c in payload["legend"]["colors"]}
    drawn = [nodes[i] for i in direct.counts if i in nodes]
    assert legend["0"] == sum(1 for n in drawn if n["color_group"] == "0") > 0
    assert sum(legend[k] for k in ("0", "1", "2-3", "4+")) == len(drawn)
    assert "Download the recall map (CSV)" in [b.proto.label for b in at.get("download_button")]
    # issue 32: the legend counts every version drawn, the table the latest only; the page
    # says so, with both figures
    note = ui.never_note(direct, len(never))
    assert note in shown.replace("\\", "")
    if legend["0"] != len(never):
        assert f"{len(never)} of the {direct.buckets()['0']}" in note
    assert "each version counted" in shown


def test_presenter_mode_shows_no_text_of_the_data(fresh_data_dir):
    seed_if_missing(store_path())
    texts = data_texts(EmbeddedSource(store_path()).load().dataset)
    at = _run_to_the_end(run_page("recall.py", **{PRESENTER.name: True}))
    shown = rendered_text(at)
    assert "Latest memories never recalled" in shown
    assert sorted(t for t in texts if t in shown) == []
    cells = _cells(at)
    assert "Memory " in cells and sorted(t for t in texts if t[:40] in cells) == []
    assert not [q for q in ui.demo_questions() if q in shown]  # numbered, not shown


def test_stop_keeps_the_rest_of_the_questions_from_being_sent(fresh_data_dir):
    """Typed questions, Run, then Stop while the run is going: the result says how many
    ran and how many were not sent."""
    seed_if_missing(store_path())
    questions = [f"Where is Maya travelling in week {i}?" for i in range(1000)]
    at = run_page("recall.py", **{RECALL_FROM.name: "typed",
                                  RECALL_TEXT.name: "\n".join(questions),
                                  RECALL_WORKERS.name: 1})
    next(b for b in at.button if b.label == "Run").click().run()
    assert not at.exception, at.exception
    job = at.session_state[RECALL_JOB.name]
    deadline = time.monotonic() + 60  # the run is going: a first question has its answer
    while job.done == 0 and job.running and time.monotonic() < deadline:
        time.sleep(0.02)
    assert job.done > 0 and job.running
    at.button(key="recall-stop").click().run()
    assert job.stop.is_set()
    deadline = time.monotonic() + 60
    while job.running and time.monotonic() < deadline:
        time.sleep(0.05)
    at.run()
    run = job.run
    assert run.stopped and 0 < run.ran < len(questions)
    assert run.ran + run.not_sent == len(questions)
    assert any(f"{run.ran} of {len(questions)} questions ran" in w.value and
               "not sent" in w.value for w in at.warning)


@pytest.mark.parametrize("kind", ["file", "supermemory", "supermemory-v5", "spomory"])
def test_the_page_maps_a_snapshot_and_the_sandbox_services(kind, fresh_data_dir, tmp_path):
    """Typed questions on a snapshot file and on the sandbox's Supermemory (legacy, v5)
    and Spomory, presenter mode on: the run answers every question, the map is drawn
    (facts for Spomory) and no text of the data is on the page or in its tables."""
    with _connected(kind, tmp_path) as (state, dataset):
        texts = data_texts(dataset)
        questions = "Lisbon trip\ncoffee\n张三住在哪里\nfrontend framework"
        at = _run_to_the_end(run_page("recall.py", **state, **{
            PRESENTER.name: True, RECALL_FROM.name: "typed",
            RECALL_TEXT.name: questions}))
        job = at.session_state[RECALL_JOB.name]
        assert job.run.ran == 4 and job.run.failed == 0, [o.error for o in job.run.outcomes]
        unit = "facts" if kind == "spomory" else "memories"
        shown = rendered_text(at)
        assert f"Latest {unit} never recalled" in shown
        assert sorted(t for t in texts if t in shown) == []
        cells = _cells(at)
        assert sorted(t for t in texts if t[:40] in cells) == []
        assert graph_payload(at)["legend"]["color_by"] == "times recalled"


@contextmanager
def _connected(kind: str, tmp_path: Path) -> Iterator[tuple[dict[str, Any], Dataset]]:
    """Session state connecting the app to ``kind``, and that source's data."""
    if kind == "file":
        with source_state("file", tmp_path) as found:
            yield found
        return
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        if kind == "spomory":
            key, source = sandbox.spomory_key, spomory(sandbox)
            conn = Connection("spomory", base_url=sandbox.url)
        else:
            v5 = kind == "supermemory-v5"
            key = sandbox.supermemory_key
            source = supermemory_v5(sandbox) if v5 else supermemory(sandbox)
            conn = Connection("supermemory", base_url=sandbox.url,
                              dialect="v5" if v5 else "legacy")
        try:
            dataset = source.load().dataset
        finally:
            source.close()
        yield {CONNECTION.name: conn, API_KEY.name: SecretStr(key)}, dataset
