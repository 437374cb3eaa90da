"""The Recall map page under AppTest on the demo store: Run starts the real thread over the
embedded store's own search with the demo's question set; the page then shows the map —
the graph recoloured by recall count with a legend of the counts, the latest memories
never recalled, the CSV — and in presenter mode none of the data's text."""

from __future__ import annotations

import time

from apptest_support import graph_payload, run_page
from streamlit.testing.v1 import AppTest
from test_every_page import data_texts, rendered_text

from components.sections import recall as ui
from components.state import session
from memscope.demo.seeding import seed_if_missing
from memscope.graph.analysis import analyse
from memscope.reports import recall
from memscope.settings import store_path
from memscope.sources.embedded import EmbeddedSource


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
        job = at.session_state[session.RECALL_JOB.name]
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
    job = _run_to_the_end(at).session_state[session.RECALL_JOB.name]
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
    fills = {ui.COLOURS[recall.bucket_of(c)] for i, c in direct.counts.items() if i in nodes}
    assert len(fills) >= 3
    for mem_id, count in direct.counts.items():
        if mem_id in nodes:
            assert nodes[mem_id]["color_group"] == recall.bucket_of(count)
    legend = {c["key"]: c["count"] for c in payload["legend"]["colors"]}
    drawn = [nodes[i] for i in direct.counts if i in nodes]
    assert legend["0"] == sum(1 for n in drawn if n["color_group"] == "0") > 0
    assert sum(legend[k] for k in ("0", "1", "2-3", "4+")) == len(drawn)
    assert "Download the recall map (CSV)" in [b.proto.label for b in at.get("download_button")]


def test_presenter_mode_shows_no_text_of_the_data(fresh_data_dir):
    seed_if_missing(store_path())
    texts = data_texts(EmbeddedSource(store_path()).load().dataset)
    at = _run_to_the_end(run_page("recall.py", **{session.PRESENTER.name: True}))
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
    at = run_page("recall.py", **{session.RECALL_FROM.name: "typed",
                                  session.RECALL_TEXT.name: "\n".join(questions),
                                  session.RECALL_WORKERS.name: 1})
    next(b for b in at.button if b.label == "Run").click().run()
    assert not at.exception, at.exception
    at.button(key="recall-stop").click().run()
    job = at.session_state[session.RECALL_JOB.name]
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
