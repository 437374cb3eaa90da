"""The Recall map page's sections: the questions, the run, and the map (the graph coloured
by how often each memory came back, the two tables, the CSV).

The run goes on a background thread owned by the session (:class:`Job`, in
:data:`RECALL_JOB`): the core's
:func:`~memscope.reports.recall.run_questions` asks each question once through the
source's own search, at most N at a time, and fills in the job's progress. The thread
never touches Streamlit; a fragment polls the job every half second and draws the
progress bar and the Stop button, which sets the job's stop event (questions not started
are never sent). When the job is done, the fragment reruns the page, which draws the map.

The counting is the core's (:mod:`memscope.reports.recall`); the explorer's own view
(:meth:`memscope.pipeline.core.Pipeline.view`) is recoloured by count bucket, shapes and
states kept, by the core's painter (:func:`memscope.view.paint.paint_recall`). In
presenter mode every text comes from the masked analysis and the questions are
numbered, not shown.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import streamlit as st

from components.graph_view import graph_view
from components.state import session
from components.state.context import AppContext
from components.state.pipeline import view_for
from components.state.session import slot
from components.widgets import nav
from components.widgets.safe import md_escape, short
from components.widgets.tables import TABLE_ROWS, more_in_csv
from memscope.graph.analysis import Analysis
from memscope.lenses.presenter import mask_spaces
from memscope.records.text import counted
from memscope.reports import recall as core
from memscope.view.paint import fade_other_groups, paint_recall

# -- the session slots this module owns (components.state.session collects them) --
RECALL_UPLOAD = slot("recall_upload", __name__,
                     "The recall map's uploaded question file (widget key).")
RECALL_GRAPH = slot("recall_graph", __name__,
                    "The recall map graph component's own state (what the browser selected).")
RECALL_JOB = slot("recall_job", __name__,
                  "The recall run of this session: its questions, stop event, progress and, "
                  "once done, its result (a background thread fills it in).")
RECALL_FROM = slot("recall_from", __name__,
                   "Where the recall map's questions come from: typed, a file or the demo's "
                   "set.", lambda: "typed", widget=True)
RECALL_TEXT = slot("recall_text", __name__,
                   "The recall map's typed questions, one a line.", str, widget=True)
RECALL_WORKERS = slot("recall_workers", __name__,
                      "The recall map's bound on questions sent at once.", lambda: 4,
                      widget=True)

log = logging.getLogger("memscope.app")

FROM_LABELS = {"typed": "Typed here", "file": "A text file", "demo": "The demo's question set"}
UPLOAD_MAX = 1_000_000
POLL_S = 0.5
GRAPH_HEIGHT = 560


def demo_questions() -> list[str]:
    """The question set shipped for the demo store (``memscope/demo/questions.txt``)."""
    text = resources.files("memscope.demo").joinpath("questions.txt").read_text("utf-8")
    return core.read_questions(text)


@dataclass
class Job:
    """One recall run of this session; the background thread fills in ``done``,
    ``failed`` and, at the end, ``run`` (or ``error``)."""

    key: tuple[Any, ...]
    questions: tuple[str, ...]
    workers: int
    stop: threading.Event = field(default_factory=threading.Event)
    done: int = 0
    failed: int = 0
    run: core.RecallRun | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None

    @property
    def running(self) -> bool:
        """True until the thread has finished (with a result or an error)."""
        return self.finished is None

    def progress(self, done: int, total: int, outcome: core.Outcome) -> None:
        """The core's progress callback (on a worker thread)."""
        self.done = done
        self.failed += outcome.error is not None

    def work(self, search: core.SearchFn) -> None:
        """The thread's body: run every question, keep the result."""
        try:
            self.run = core.run_questions(self.questions, search, workers=self.workers,
                                          progress=self.progress, stop=self.stop)
        except Exception:  # never a traceback on screen; the details go to the log
            log.exception("the recall run failed")
            self.error = ("The run broke off unexpectedly; nothing was changed, and the "
                          "details are in the server's log.")
        finally:
            self.finished = time.monotonic()


def _job(ctx: AppContext) -> Job | None:
    """This session's job for the connected source, if any."""
    job = RECALL_JOB.get()
    return job if isinstance(job, Job) and job.key == ctx.key else None


def searchable(ctx: AppContext) -> bool:
    """True when the source can search; otherwise says why in one sentence."""
    source = ctx.source
    if source is None:
        return False
    reason = source.capabilities.reason("search")
    if reason:
        st.info(f"The recall map asks the source's own search, and it has none: "
                f"{md_escape(reason)}")
        return False
    return True


def _start(ctx: AppContext, questions: list[str], workers: int) -> None:
    """The Run button: start a run on a thread of its own (a running one is stopped)."""
    old = RECALL_JOB.get()
    if isinstance(old, Job):
        old.stop.set()
    source, today = ctx.source, ctx.current
    if source is None or today is None or not questions:
        return
    job = Job(ctx.key, tuple(questions), workers)
    search = core.source_search(source, today, container_tag=ctx.conn.space)
    RECALL_JOB.set(job)
    threading.Thread(target=job.work, args=(search,), name="recall-run", daemon=True).start()


def _chosen(ctx: AppContext) -> list[str]:
    """The questions of the chosen input (drawn here), each once."""
    options = ["typed", "file"] + (["demo"] if ctx.conn.kind == "embedded" else [])
    if not RECALL_FROM.is_set() and "demo" in options:
        RECALL_FROM.set("demo")  # the demo store: its own set first
    if RECALL_FROM.get() not in options:
        RECALL_FROM.set("typed")
    choice = st.radio("Questions", options, format_func=FROM_LABELS.__getitem__,
                      horizontal=True, **session.bind(RECALL_FROM))
    if choice == "demo":
        questions = demo_questions()
        with st.expander(f"The demo's {len(questions)} questions"):
            st.text("(hidden in presenter mode)" if ctx.presenter else "\n".join(questions))
        return questions
    if choice == "file":
        upload = st.file_uploader("A text file, one question a line", type=["txt"],
                                  key=RECALL_UPLOAD.name)
        if upload is None:
            return []
        blob = upload.getvalue()
        if len(blob) > UPLOAD_MAX:
            st.error(f"The file is larger than {UPLOAD_MAX // 1_000_000} MB; use a shorter "
                     "list of questions.")
            return []
        return core.read_questions(blob.decode("utf-8-sig", errors="replace"))
    text = st.text_area("One question a line", height=160,
                        placeholder="Where is Maya travelling?\nWho owns the billing service?",
                        **session.bind(RECALL_TEXT))
    return core.read_questions(str(text or ""))


def questions_form(ctx: AppContext) -> None:
    """The questions, the bound on concurrent calls and the Run button."""
    st.caption("Each question is sent once to the source's own search — "
               f"{md_escape(ctx.conn.label if ctx.source else 'the source')} — and every "
               "memory it returns is counted. The graph is then coloured by how often each "
               "memory came back.")
    if ctx.source is not None and ctx.source.search_note:
        st.caption(md_escape(ctx.source.search_note))
    questions = _chosen(ctx)
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    workers = left.slider("Questions sent at once", 1, 8,
                          help="A bound on concurrent calls to the search; a service that "
                               "limits its rate answers faster with fewer at once.",
                          **session.bind(RECALL_WORKERS))
    job = _job(ctx)
    busy = job is not None and job.running
    right.button("Run", type="primary", width="stretch", disabled=busy or not questions,
                 on_click=_start, args=(ctx, questions, int(workers)),
                 help=None if questions else "Type or choose some questions first.")
    if questions:
        st.caption(f"{counted(len(questions), 'question')} to ask, each once"
                   + (f" (the first {core.MAX_QUESTIONS} are asked)."
                      if len(questions) > core.MAX_QUESTIONS else "."))
    if ctx.source is not None and ctx.source.calls_note():
        st.caption(md_escape(ctx.source.calls_note()))
    if ctx.as_of is not None:
        st.caption("The search answers about the data as it is now; the map counts the "
                   f"memories as they stood on {ctx.as_of.isoformat()}.")


def progress(ctx: AppContext) -> None:
    """While a run is going: its progress and the Stop button, polled by a fragment."""
    job = _job(ctx)
    if job is not None and job.running:
        st.fragment(_progress_panel, run_every=POLL_S)(job)


def _progress_panel(job: Job) -> None:
    if not job.running:
        st.rerun()  # the whole page: draw the map
    total = max(1, len(job.questions))
    st.progress(min(1.0, job.done / total),
                text=f"{job.done} of {counted(len(job.questions), 'question')} answered"
                     + (f", {job.failed} failed" if job.failed else "") + "…")
    if job.stop.is_set():
        st.caption("Stopping: the questions already sent finish, no other is sent.")
    else:
        st.button("Stop", key="recall-stop", icon=":material/stop:", on_click=job.stop.set,
                  help="Questions not started yet are not sent.")


# -- the map ------------------------------------------------------------------------------


def node_counts(analysis: Analysis, rmap: core.RecallMap) -> dict[str, int]:
    """The count each graph node is coloured by: a memory's own; for facts (Spomory),
    an entity's most recalled fact."""
    if rmap.unit == "memory":
        return dict(rmap.counts)
    out: dict[str, int] = {}
    for rel_id, count in rmap.counts.items():
        rel = analysis.dataset.relations.get(rel_id)
        if rel is None:
            continue
        for end in (rel.subject_id, rel.object_id):
            out[end] = max(out.get(end, 0), count)
    return out


#: the widget key of the map's "Highlight" choice of recall buckets
HIGHLIGHT_KEY = "recall_highlight"


def _bucket_labels(unit: str) -> dict[str, str]:
    labels = {key: label for key, _, label in core.BUCKETS}
    if unit == "fact":  # an entity is drawn, coloured by its facts
        labels = {k: f"{v} (its most recalled fact)" for k, v in labels.items()}
    return labels


def _graph(ctx: AppContext, analysis: Analysis, rmap: core.RecallMap) -> None:
    """The explorer's view of the data, recoloured by recall count."""
    req = ctx.request
    if req is None:
        return
    view = view_for(req)
    counts = node_counts(analysis, rmap)
    labels = _bucket_labels(rmap.unit)
    drawn = paint_recall(view.drawn, counts, labels, core.bucket_of, rmap.run.answered)
    buckets = rmap.buckets()
    chosen = st.pills("Highlight", [key for key, _, _ in core.BUCKETS if buckets[key]],
                      selection_mode="multi", key=HIGHLIGHT_KEY,
                      format_func=lambda key: f"{labels[key]} ({buckets[key]:,})",
                      help="The chosen groups stay bright; every other node fades to a "
                           "quarter, in place (nothing is hidden).")
    drawn = fade_other_groups(drawn, chosen or ())
    lit = [n["id"] for n in drawn["nodes"] if chosen and n.get("color_group") in chosen]
    clicked = graph_view(drawn, key=RECALL_GRAPH.name, height=GRAPH_HEIGHT,
                         physics=ctx.settings.physics, fit_ids=lit,
                         fit_label="Fit highlighted")
    word = rmap.unit
    what = (f"every {word} drawn, each version counted (superseded and forgotten too)"
            if word == "memory" else f"each {word}")
    st.caption(f"The map and its legend count {what}: of {counted(len(rmap.counts), word)}, "
               + "; ".join(f"{buckets[key]} {label}" for key, _, label in core.BUCKETS)
               + f". {view.caption(req.budget)}")
    if clicked and clicked in counts:
        st.caption(f"Selected: {md_escape(short(core.text_of(analysis, clicked), 80))} — "
                   f"recalled by {counts[clicked]} of "
                   f"{counted(rmap.run.answered, 'question')}.")
        nav.open_node(clicked)


def _table(analysis: Analysis, rmap: core.RecallMap, ids: list[str], *,
           never: bool = False) -> None:
    """A table of ``ids``: the never recalled with the day each was added, the others
    with their count and share."""
    unit = "memory" if rmap.unit == "memory" else "fact"
    table: list[dict[str, Any]] = []
    for r in core.rows(analysis, rmap, ids[:TABLE_ROWS]):
        line: dict[str, Any] = {unit: r.text, "state": r.state}
        if never:
            line["added"] = r.created_at.date().isoformat() if r.created_at else ""
        else:
            line |= {"recalled by": r.count, "share": round(100 * r.share)}
        table.append(line | {"id": r.id})
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={"share": st.column_config.NumberColumn(
                     "share", format="%d %%", help="Of the questions answered")})
    more_in_csv(len(ids))


def never_note(rmap: core.RecallMap, latest: int) -> str:
    """What the table of the never recalled counts, against the map's figure (the map
    counts every version; the table only the latest ones)."""
    on_map = rmap.buckets()["0"]
    many = "memories" if rmap.unit == "memory" else "facts"
    if on_map == latest:
        return f"The same {latest} as on the map: every one of them is a latest version."
    return (f"Only latest {many} are listed: {latest} of the {on_map} the map shows as never "
            f"recalled; the other {on_map - latest} are earlier versions or forgotten.")


def _questions(ctx: AppContext, run: core.RecallRun) -> None:
    """What each question recalled (numbered in presenter mode), and its error."""
    with st.expander(f"Each question ({run.ran} ran)"):
        st.dataframe([{"question": f"Question {i}" if ctx.presenter else q.question,
                       "recalled": len(q.ids),
                       "error": (mask_spaces(q.error, ctx.space_names)
                                 if ctx.presenter and q.error else q.error or "")}
                      for i, q in enumerate(run.outcomes, start=1)],
                     hide_index=True, width="stretch")


def results(ctx: AppContext, analysis: Analysis) -> None:
    """The last finished run's map: the graph, the two tables and the CSV."""
    job = _job(ctx)
    if job is None or job.running:
        return
    if job.error is not None or job.run is None:
        st.error(md_escape(job.error or "The run gave no result."))
        return
    run = job.run
    rmap = core.recall_map(analysis, run)
    took = (job.finished or job.started) - job.started
    (st.warning if run.stopped or run.failed else st.success)(
        md_escape(run.summary()) + f" It took {took:.1f} s.")
    _questions(ctx, run)
    if not run.answered:
        st.info("No question was answered, so nothing can be counted.")
        return
    if rmap.outside:
        st.caption(f"{counted(len(rmap.outside), 'recalled id')} are not in the graph shown "
                   "(another space, as of an earlier day, or added since the load).")
    _graph(ctx, analysis, rmap)
    word, many = ("memory", "memories") if rmap.unit == "memory" else ("fact", "facts")
    never = rmap.never()
    st.subheader(f"Latest {many} never recalled ({len(never)})")
    st.caption(never_note(rmap, len(never)))
    if never:
        _table(analysis, rmap, never, never=True)
    else:
        st.caption(f"Every latest {word} came back for at least one question.")
    nearly = rmap.nearly_all()
    low = rmap.nearly_threshold
    st.subheader(f"Recalled by nearly every question ({len(nearly)})")
    st.caption(f"“Nearly every” is at least {core.NEARLY_ALL_PERCENT} % of the questions "
               f"answered: {low} of {run.answered}.")
    if nearly:
        _table(analysis, rmap, nearly)
    else:
        st.caption(f"No {word} came back for that many questions.")
    st.download_button("Download the recall map (CSV)", core.recall_csv(analysis, rmap),
                       file_name="recall-map.csv", mime="text/csv",
                       icon=":material/download:",
                       help=f"One row per {word}: id, text, state, how many questions "
                            "recalled it and their share"
                            + (" (texts masked: presenter mode)." if ctx.presenter else "."))
