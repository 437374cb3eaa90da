"""The recall map: which memories the source's own search brings back for a set of
questions, and which it never does — plain data, no Streamlit.

:func:`run_questions` sends each question once (duplicates dropped, order kept) through a
search callable, at most ``workers`` at a time, reporting progress after each one; a stop
:class:`threading.Event` keeps the questions not started yet from being sent, and a
question that fails keeps its one-sentence error without stopping the others.
:func:`recall_map` counts, per memory of an analysis, how many questions recalled it;
:func:`rows` and :func:`recall_csv` list every counted memory (the latest ones included
with 0). A Spomory graph has facts (relations) instead of memories: its unit is the fact.

>>> from memscope.graph.analysis import analyse
>>> from memscope.records.dataset import from_feed_pages
>>> an = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
...     {"id": "tea", "memory": "Likes tea."}, {"id": "jazz", "memory": "Plays jazz."}]}]}]))
>>> found = {"tea?": ["tea"], "drinks?": ["tea"], "music?": []}
>>> run = run_questions(["tea?", "drinks?", "tea?", "music?"], lambda q: found[q], workers=2)
>>> run.ran, [o.question for o in run.outcomes]
(3, ['tea?', 'drinks?', 'music?'])
>>> rmap = recall_map(an, run)
>>> rmap.counts, rmap.never(), rmap.nearly_all()
({'tea': 2, 'jazz': 0}, ['jazz'], [])
"""

from __future__ import annotations

import csv
import io
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime

from memscope.graph.analysis import Analysis
from memscope.records.text import clip, csv_safe, one_line
from memscope.records.text import relation_label as join_relation
from memscope.reports.ask import context_relations
from memscope.sources import SearchResult, Source, SourceError

log = logging.getLogger("memscope.recall")

#: what one question returns: the ids of the memories (or Spomory facts) it recalled
SearchFn = Callable[[str], Sequence[str]]
#: called after each question that ran: (questions done, questions to ask, its outcome)
ProgressFn = Callable[[int, int, "Outcome"], None]

DEFAULT_WORKERS = 4
MAX_WORKERS = 16
#: "recalled by nearly every question": by at least this share of the questions answered
NEARLY_ALL_PERCENT = 80
#: the most questions one run asks (a longer list is cut, and the run says so)
MAX_QUESTIONS = 1000
#: the longest question sent (longer lines are cut)
QUESTION_MAX = 500
#: the results asked of the search per question
SEARCH_LIMIT = 10
#: memory states that count as "the latest memories" (the current versions)
LATEST_STATES = ("latest", "recent", "expiring")
#: how the graph groups the counts, in order: (key, lowest count, label)
BUCKETS: tuple[tuple[str, int, str], ...] = (
    ("0", 0, "never recalled"), ("1", 1, "recalled once"), ("2-3", 2, "recalled 2–3 times"),
    ("4+", 4, "recalled 4 times or more"))
CSV_COLUMNS = ("id", "text", "state", "count", "share")


def read_questions(text: str) -> list[str]:
    """The questions of a text, one a line: stripped, blank lines and ``#`` comments
    dropped, each once (the first spelling kept; case and spacing do not make a new
    question), cut to :data:`QUESTION_MAX` characters.

    >>> read_questions("Where is Maya?\\n\\n# demo\\n where  is maya? \\nWho owns Atlas?")
    ['Where is Maya?', 'Who owns Atlas?']
    """
    out: dict[str, str] = {}
    for line in text.splitlines():
        question = one_line(line).strip()[:QUESTION_MAX].strip()
        if question and not question.startswith("#"):
            out.setdefault(question.casefold(), question)
    return list(out.values())


def unique(questions: Iterable[str]) -> list[str]:
    """``questions`` stripped, each once (as :func:`read_questions` compares them)."""
    return read_questions("\n".join(one_line(q) for q in questions))


@dataclass(frozen=True, slots=True)
class Outcome:
    """One question that ran: the ids it recalled (each once), or its error sentence."""

    question: str
    ids: tuple[str, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class RecallRun:
    """A run: the questions to ask (each once, in order) and the outcomes of those that
    ran, in the same order; ``stopped`` when a stop kept some from being sent."""

    questions: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    stopped: bool = False
    #: questions dropped because the list was longer than :data:`MAX_QUESTIONS`
    cut: int = 0

    @property
    def ran(self) -> int:
        """How many questions were sent."""
        return len(self.outcomes)

    @property
    def failed(self) -> int:
        """How many of them failed."""
        return sum(1 for o in self.outcomes if o.error is not None)

    @property
    def answered(self) -> int:
        """How many were answered (sent, and not failed): the shares' denominator."""
        return self.ran - self.failed

    @property
    def not_sent(self) -> int:
        """How many questions were never sent (a stop)."""
        return len(self.questions) - self.ran

    def summary(self) -> str:
        """One or two sentences: how many ran, failed and were not sent."""
        asked = len(self.questions)
        text = f"{self.ran} of {asked} question{'s' if asked != 1 else ''} ran"
        text += f" ({self.failed} failed)." if self.failed else "."
        if self.stopped:
            were = "s were" if self.not_sent != 1 else " was"
            text += f" Stopped: {self.not_sent} question{were} not sent."
        if self.cut:
            text += f" The list was cut to its first {MAX_QUESTIONS} questions."
        return text


def _error_sentence(exc: Exception) -> str:
    if isinstance(exc, SourceError):
        return str(exc)
    # an unexpected failure: its message may hold anything, so only its kind is kept
    return f"The search failed unexpectedly ({type(exc).__name__}); the other questions ran."


def _ask(question: str, search: SearchFn, stop: threading.Event) -> Outcome | None:
    """One question, or ``None`` when the stop came before it started."""
    if stop.is_set():
        return None
    try:
        found = search(question)
    except Exception as exc:  # one question's failure never stops the run
        log.warning("a recall question failed: %s", type(exc).__name__)
        return Outcome(question, error=_error_sentence(exc))
    return Outcome(question, tuple(dict.fromkeys(str(i) for i in found)))


def run_questions(questions: Iterable[str], search: SearchFn, *,
                  workers: int = DEFAULT_WORKERS, progress: ProgressFn | None = None,
                  stop: threading.Event | None = None) -> RecallRun:
    """Ask every question once through ``search``, at most ``workers`` at a time.

    ``progress`` is called after each question that ran (from a worker thread, one call
    at a time). Once ``stop`` is set, no question not yet started is sent; those already
    sent finish, and the run says how many ran.
    """
    asked = unique(questions)
    cut = max(0, len(asked) - MAX_QUESTIONS)
    asked = asked[:MAX_QUESTIONS]
    stop = stop or threading.Event()
    n = max(1, min(int(workers), MAX_WORKERS))
    done: dict[int, Outcome] = {}
    lock = threading.Lock()

    def one(index: int) -> None:
        outcome = _ask(asked[index], search, stop)
        if outcome is None:
            return
        with lock:
            done[index] = outcome
            if progress is not None:
                progress(len(done), len(asked), outcome)

    if asked:
        with ThreadPoolExecutor(max_workers=min(n, len(asked)),
                                thread_name_prefix="recall") as pool:
            list(pool.map(one, range(len(asked))))
    outcomes = tuple(done[i] for i in sorted(done))
    return RecallRun(tuple(asked), outcomes, stopped=len(outcomes) < len(asked), cut=cut)


# -- from a source's search to recalled ids ------------------------------------------------


def unit_of(analysis: Analysis) -> str:
    """What the map counts: ``"memory"``, or ``"fact"`` for a graph of entities and
    relations only (Spomory)."""
    ds = analysis.dataset
    return "fact" if not ds.memories and ds.relations else "memory"


def recalled_ids(analysis: Analysis, result: SearchResult) -> list[str]:
    """The memories a search result recalled (memory hits, by id, loaded or not), or for
    a Spomory context the loaded facts it quotes. Excerpts of documents are not memories
    and count for nothing. ``analysis`` must hold the real texts (a context is matched
    against the facts' sentences), never the masked ones."""
    out: list[str] = []
    for hit in result.hits:
        if hit.kind == "memory" and hit.id:
            out.append(hit.id)
        elif hit.kind == "context":
            out.extend(context_relations(analysis, hit.text))
    return list(dict.fromkeys(out))


def source_search(source: Source, analysis: Analysis, *, container_tag: str | None = None,
                  limit: int = SEARCH_LIMIT) -> SearchFn:
    """A :data:`SearchFn` over ``source``'s own search (the embedded store's Ask,
    Supermemory, Spomory, mem0, a file's Ask), mapped onto ``analysis`` (unmasked)."""

    def search(question: str) -> list[str]:
        return recalled_ids(analysis,
                            source.search(question, container_tag=container_tag, limit=limit))

    return search


# -- the map ------------------------------------------------------------------------------


def bucket_of(count: int) -> str:
    """The key of the :data:`BUCKETS` group ``count`` falls in.

    >>> [bucket_of(c) for c in (0, 1, 2, 3, 4, 40)]
    ['0', '1', '2-3', '2-3', '4+', '4+']
    """
    key = BUCKETS[0][0]
    for name, low, _ in BUCKETS:
        if count >= low:
            key = name
    return key


@dataclass(frozen=True, slots=True)
class Row:
    """One memory (or fact) of the map: its id, text clipped, state, count and share."""

    id: str
    text: str
    state: str
    count: int
    share: float
    created_at: datetime | None = None


@dataclass
class RecallMap:
    """Per memory of one analysis (or fact, see :attr:`unit`), how many questions of a run
    recalled it."""

    run: RecallRun
    unit: str
    #: id -> count, for every memory (fact) of the analysis, in the dataset's order
    counts: dict[str, int]
    #: the latest memories (every fact)
    latest: frozenset[str]
    #: ids recalled that the analysis does not hold (another space, not loaded, as of)
    outside: frozenset[str] = field(default_factory=frozenset)
    #: creation time per id, for "the latest memories never recalled", newest first
    created: dict[str, datetime | None] = field(default_factory=dict)

    def share(self, count: int) -> float:
        """``count`` over the questions answered (0 when none was)."""
        return count / self.run.answered if self.run.answered else 0.0

    @property
    def nearly_threshold(self) -> int | None:
        """The fewest questions that make "nearly every question": at least
        :data:`NEARLY_ALL_PERCENT` % of those answered (``None`` when none was)."""
        answered = self.run.answered
        if not answered:
            return None
        return max(1, -(-answered * NEARLY_ALL_PERCENT // 100))

    def never(self) -> list[str]:
        """The latest memories no question recalled, the newest first."""
        if not self.run.answered:
            return []
        ids = [i for i, c in self.counts.items() if c == 0 and i in self.latest]
        return sorted(ids, key=lambda i: _newest_first(self.created.get(i)))

    def nearly_all(self) -> list[str]:
        """The memories recalled by nearly every question answered, most recalled first."""
        low = self.nearly_threshold
        if low is None:
            return []
        ids = [i for i, c in self.counts.items() if c >= low]
        return sorted(ids, key=lambda i: -self.counts[i])

    def buckets(self) -> dict[str, int]:
        """How many memories fall in each :data:`BUCKETS` group (every key listed)."""
        out = {key: 0 for key, _, _ in BUCKETS}
        for count in self.counts.values():
            out[bucket_of(count)] += 1
        return out


def _newest_first(when: datetime | None) -> tuple[int, float]:
    return (1, 0.0) if when is None else (0, -when.timestamp())


def recall_map(analysis: Analysis, run: RecallRun) -> RecallMap:
    """Count, for every memory of ``analysis`` (every fact of a Spomory graph), how many
    questions of ``run`` recalled it."""
    ds = analysis.dataset
    unit = unit_of(analysis)
    if unit == "fact":
        counts = dict.fromkeys(ds.relations, 0)
        latest = frozenset(ds.relations)
        created = {r_id: r.created_at for r_id, r in ds.relations.items()}
    else:
        counts = dict.fromkeys(ds.memories, 0)
        latest = frozenset(m for m in ds.memories if analysis.state(m) in LATEST_STATES)
        created = {m_id: m.created_at for m_id, m in ds.memories.items()}
    outside: set[str] = set()
    for outcome in run.outcomes:
        for item in outcome.ids:
            if item in counts:
                counts[item] += 1
            else:
                outside.add(item)
    return RecallMap(run, unit, counts, latest, frozenset(outside), created)


def text_of(analysis: Analysis, item: str, limit: int = 200) -> str:
    """A memory's text, or a fact's ``subject — predicate — object``, clipped to one line
    (:func:`memscope.records.text.clip`). Pass the masked analysis in presenter mode."""
    ds = analysis.dataset
    mem = ds.memories.get(item)
    if mem is not None:
        return clip(mem.memory, limit)
    rel = ds.relations.get(item)
    if rel is None:
        return ""
    names = {e_id: e.name for e_id, e in ds.entities.items()}
    return clip(join_relation(names.get(rel.subject_id, rel.subject_id), rel.predicate,
                              names.get(rel.object_id, rel.object_id)), limit)


def state_of(analysis: Analysis, rmap: RecallMap, item: str) -> str:
    """A memory's state (a fact is ``"fact"``)."""
    return "fact" if rmap.unit == "fact" else analysis.state(item) or ""


def rows(analysis: Analysis, rmap: RecallMap, ids: Iterable[str] | None = None, *,
         limit: int = 200) -> list[Row]:
    """One row per memory of ``ids`` (default: every memory counted, most recalled first,
    then the latest never recalled, then the rest), texts from ``analysis`` — the masked
    one in presenter mode."""
    if ids is None:
        never = rmap.never()
        rest = set(never)
        ids = sorted((i for i in rmap.counts if i not in rest and rmap.counts[i]),
                     key=lambda i: -rmap.counts[i])
        ids += never + [i for i in rmap.counts if not rmap.counts[i] and i not in rest]
    return [Row(i, text_of(analysis, i, limit), state_of(analysis, rmap, i),
                rmap.counts.get(i, 0), round(rmap.share(rmap.counts.get(i, 0)), 4),
                rmap.created.get(i)) for i in ids]


def recall_csv(analysis: Analysis, rmap: RecallMap) -> bytes:
    """The map as CSV (:data:`CSV_COLUMNS`), UTF-8: one row per memory (fact) counted,
    the latest never recalled included with 0; texts from ``analysis`` (the masked one in
    presenter mode) clipped to one line. A cell a spreadsheet would run as a formula gets
    a leading ``'``."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows(analysis, rmap):
        writer.writerow([csv_safe(v) for v in (row.id, row.text, row.state, row.count,
                                            f"{row.share:.4f}")])
    return buf.getvalue().encode("utf-8")


__all__ = ["BUCKETS", "CSV_COLUMNS", "DEFAULT_WORKERS", "LATEST_STATES", "MAX_QUESTIONS",
           "MAX_WORKERS", "NEARLY_ALL_PERCENT", "Outcome", "RecallMap", "RecallRun", "Row",
           "SearchFn", "bucket_of", "read_questions", "recall_csv", "recall_map",
           "recalled_ids", "rows", "run_questions", "source_search", "state_of", "text_of",
           "unique", "unit_of"]
