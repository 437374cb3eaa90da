"""The recall map (issue 19, item 2): the core's run (each question once, a bound on calls
in flight, a stop, errors per question), its counts (never, nearly every), the CSV and
presenter mode; the real search of the sandbox's Supermemory v5 and Spomory; the page
under AppTest on the demo store, run through its real thread, presenter mode on."""

from __future__ import annotations

import csv
import io
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import NOW
from sandbox_fixture import running_sandbox, spomory, supermemory_v5

from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.presenter import mask
from memscope.records.dataset import from_feed_pages
from memscope.records.text import csv_safe
from memscope.reports import recall
from memscope.sources import SourceError


class Recorder:
    """A fake search: records every question sent and the most calls in flight at once
    (each call holds its slot a little while, with no barrier that could force it)."""

    def __init__(self, answers: dict[str, list[str]] | None = None, hold_s: float = 0.0,
                 fail: dict[str, Exception] | None = None) -> None:
        self.answers = answers or {}
        self.hold_s = hold_s
        self.fail = fail or {}
        self.sent: list[str] = []
        self.in_flight = 0
        self.most = 0
        self.lock = threading.Lock()

    def __call__(self, question: str) -> list[str]:
        with self.lock:
            self.sent.append(question)
            self.in_flight += 1
            self.most = max(self.most, self.in_flight)
        try:
            if self.hold_s:
                time.sleep(self.hold_s)
            if question in self.fail:
                raise self.fail[question]
            return self.answers.get(question, [])
        finally:
            with self.lock:
                self.in_flight -= 1


def _analysis() -> Analysis:
    """Five memories: a chain (old → new), a forgotten one and two plain latest ones."""
    t0 = NOW - timedelta(days=30)
    day = timedelta(days=1)
    mems = [
        {"id": "old", "memory": "Prefers Vue.", "isLatest": False, "createdAt": t0.isoformat()},
        {"id": "new", "memory": "Prefers React.", "parentMemoryId": "old",
         "createdAt": (t0 + 2 * day).isoformat()},
        {"id": "gone", "memory": "Lives at 41 Harbord Street.", "isForgotten": True,
         "createdAt": (t0 + 3 * day).isoformat()},
        {"id": "tea", "memory": "Drinks green tea.", "createdAt": (t0 + 4 * day).isoformat()},
        {"id": "jazz", "memory": "=HYPERLINK(\"x\") plays jazz " + "very " * 80,
         "createdAt": (t0 + 5 * day).isoformat()},
    ]
    return analyse(from_feed_pages([{"documents": [{"id": "d", "title": "Diary",
                                                    "memoryEntries": mems}]}]), NOW)


# -- the run ----------------------------------------------------------------------------


def test_each_question_is_sent_once_in_order():
    fake = Recorder()
    run = recall.run_questions(["Tea?", " tea? ", "", "# a comment", "Jazz?", "TEA?",
                                "Jazz?"], fake, workers=1)
    assert fake.sent == ["Tea?", "Jazz?"]
    assert run.questions == ("Tea?", "Jazz?") and run.ran == 2 and not run.stopped
    assert recall.read_questions("a\n\n  b  \r\nA\n#c\n") == ["a", "b"]


@pytest.mark.parametrize("workers", [1, 3])
def test_the_bound_on_calls_in_flight_is_respected(workers):
    fake = Recorder(hold_s=0.03)
    run = recall.run_questions([f"q{i}" for i in range(12)], fake, workers=workers)
    assert run.ran == 12 and sorted(fake.sent) == sorted(f"q{i}" for i in range(12))
    assert fake.most <= workers
    if workers > 1:
        assert fake.most > 1, "the questions ran side by side"


def test_progress_is_reported_after_each_question():
    seen: list[tuple[int, int, str]] = []
    recall.run_questions(["a", "b", "c"], Recorder(), workers=2,
                         progress=lambda done, total, o: seen.append((done, total, o.question)))
    assert [s[0] for s in seen] == [1, 2, 3] and {s[1] for s in seen} == {3}
    assert sorted(s[2] for s in seen) == ["a", "b", "c"]


def test_a_stop_keeps_the_questions_not_started_from_being_sent():
    stop = threading.Event()
    questions = [f"q{i}" for i in range(20)]

    class Stopper(Recorder):
        def __call__(self, question: str) -> list[str]:
            found = super().__call__(question)
            if len(self.sent) == 3:
                stop.set()  # the person clicks Stop while the third question runs
            return found

    fake = Stopper()
    run = recall.run_questions(questions, fake, workers=1, stop=stop)
    assert fake.sent == questions[:3]
    assert run.ran == 3 and run.stopped and run.not_sent == 17
    assert "3 of 20 questions ran" in run.summary() and "17 questions were not sent" in \
        run.summary()
    two = Stopper(hold_s=0.01)
    stop.clear()
    run2 = recall.run_questions(questions, two, workers=2, stop=stop)
    assert 3 <= len(two.sent) <= 4 and run2.ran == len(two.sent)  # those in flight finish


def test_a_failed_question_keeps_its_sentence_and_the_others_run():
    fake = Recorder({"tea?": ["tea"], "jazz?": ["jazz"]},
                    fail={"down?": SourceError("Supermemory did not answer in time."),
                          "bug?": ValueError("token sk-secret-123 leaked")})
    run = recall.run_questions(["tea?", "down?", "bug?", "jazz?"], fake, workers=2)
    by = {o.question: o for o in run.outcomes}
    assert run.ran == 4 and run.failed == 2 and run.answered == 2
    assert by["down?"].error == "Supermemory did not answer in time."
    bug = by["bug?"].error or ""
    assert "ValueError" in bug and "secret" not in bug and bug.endswith(".")
    assert by["tea?"].ids == ("tea",) and by["jazz?"].error is None
    assert "(2 failed)" in run.summary()


# -- the map ----------------------------------------------------------------------------


def test_counts_never_and_nearly_every_question():
    an = _analysis()
    answers = {"q1": ["new", "tea", "tea"], "q2": ["new", "tea"], "q3": ["new", "x_unloaded"],
               "q4": ["new"], "q5": ["new", "gone"]}
    fake = Recorder(answers, fail={"q6": SourceError("Down.")})
    rmap = recall.recall_map(an, recall.run_questions([*answers, "q6"], fake))
    assert rmap.counts == {"old": 0, "new": 5, "gone": 1, "tea": 2, "jazz": 0}
    assert rmap.outside == {"x_unloaded"}
    # the latest memories never recalled, newest first: not the superseded nor the forgotten
    assert rmap.never() == ["jazz"]
    # 5 answered (the failed question is not counted): nearly every is 4 of 5 (80 %)
    assert rmap.nearly_threshold == 4 and rmap.nearly_all() == ["new"]
    assert rmap.buckets() == {"0": 2, "1": 1, "2-3": 1, "4+": 1}
    assert rmap.share(5) == 1.0


def test_nothing_is_never_recalled_when_no_question_was_answered():
    an = _analysis()
    rmap = recall.recall_map(an, recall.run_questions(["q"], Recorder(
        fail={"q": SourceError("Down.")})))
    assert rmap.never() == [] and rmap.nearly_all() == [] and rmap.nearly_threshold is None


def test_the_csv_lists_every_memory_clipped_and_safe():
    an = _analysis()
    run = recall.run_questions(["a", "b"], Recorder({"a": ["tea", "new"], "b": ["new"]}))
    table = list(csv.reader(io.StringIO(recall.recall_csv(an, recall.recall_map(an, run))
                                        .decode("utf-8"))))
    assert tuple(table[0]) == recall.CSV_COLUMNS
    rows = {r[0]: r for r in table[1:]}
    assert set(rows) == set(an.dataset.memories)  # one row each, the never recalled too
    assert rows["new"][3:] == ["2", "1.0000"] and rows["tea"][3:] == ["1", "0.5000"]
    assert rows["jazz"][3] == "0" and rows["jazz"][2] == "latest"
    jazz = rows["jazz"][1]
    assert jazz.startswith("'=HYPERLINK") and len(jazz) <= 201 and jazz.endswith("…")
    assert [r[0] for r in table[1:3]] == ["new", "tea"]  # most recalled first


def test_the_csv_guards_formulas_as_the_export_does():
    """The recall CSV and the exports share one rule (records.text.csv_safe): every
    formula start is guarded, other text is left alone."""
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert csv_safe(start + "x") == "'" + start + "x"
    for start in ("a", "'", " "):
        assert csv_safe(start + "x") == start + "x"


def test_presenter_mode_shows_no_real_text():
    an = _analysis()
    masked = analyse(mask(an.dataset), NOW)
    run = recall.run_questions(["a"], Recorder({"a": ["tea", "jazz"]}))
    rmap = recall.recall_map(masked, run)
    assert rmap.counts == recall.recall_map(an, run).counts  # the same ids, the same counts
    out = recall.recall_csv(masked, rmap).decode("utf-8")
    for mem in an.dataset.memories.values():
        assert mem.memory[:12] not in out
    assert "Memory 4 (" in out
    texts = [r.text for r in recall.rows(masked, rmap)]
    assert all(t.startswith("Memory ") for t in texts)


# -- the sandbox: Supermemory v5 and Spomory, over real HTTP on loopback -------------------


def test_supermemory_v5_search_through_the_sandbox(tmp_path: Path):
    from sandbox_fixture import max_in_flight

    with running_sandbox(tmp_path / "sb") as sandbox:
        source = supermemory_v5(sandbox)
        try:
            an = analyse(source.load().dataset, NOW)
            asked = {m.id: m.memory for m in list(an.dataset.memories.values())[:6]}
            sandbox.clear_requests()
            run = recall.run_questions([*asked.values(), *asked.values()],
                                       recall.source_search(source, an), workers=2)
        finally:
            source.close()
        assert run.ran == len(set(asked.values())) and run.failed == 0
        rmap = recall.recall_map(an, run)
        assert all(rmap.counts[m] >= 1 for m in asked)  # a memory's own text recalls it
        searches = [r.path for r in sandbox.requests if r.path.endswith("/search")]
        tags = {p for p in searches}
        assert len(searches) == run.ran * len(tags)  # each question once per space
        assert all(max_in_flight(sandbox, p) <= 2 for p in tags)


def test_spomory_counts_facts_through_the_sandbox(tmp_path: Path):
    with running_sandbox(tmp_path / "sb") as sandbox:
        source = spomory(sandbox)
        try:
            an = analyse(source.load().dataset, NOW)
            run = recall.run_questions(["张三住在哪里", "鳄梨"],
                                       recall.source_search(source, an), workers=2)
        finally:
            source.close()
    rmap = recall.recall_map(an, run)
    assert rmap.unit == "fact" and set(rmap.counts) == set(an.dataset.relations)
    by = {o.question: o for o in run.outcomes}
    assert by["鳄梨"].ids == ()
    lives = next(r for r, rel in an.dataset.relations.items() if rel.predicate == "住在")
    assert lives in by["张三住在哪里"].ids and rmap.counts[lives] == 1
    assert "张三 — 住在 — 北京" in recall.text_of(an, lives)
