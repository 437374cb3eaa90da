"""Scoring local Ask on labelled questions: shared by tests/test_ask_quality.py and
bench/ask.py (tests import nothing from bench/; the bench imports this).

Two sets:

- ``tests/labelled/ask_eval.json`` (issue 24): the demo store (its seed and time) plus its
  Chinese facts, one document each in their own space; ``kind`` literal / paraphrase /
  chinese.
- ``tests/labelled/heldout/ask_questions.json`` (issue 35): 155 questions written by someone who had
  not read the rankers, over the app's demo store (``generate_planted(seed=7)``), split
  once into ``development`` and ``heldout``. Tune on the first; quote only the second.

A question's rank is that of the first memory hit that answers it (memory hits only, as
the Ask panel lists them first); recall@5 is the share of its answers among the first
five memory hits.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memscope.demo.seeding import seed_store
from memscope.store import search as store_search
from memscope.store import vectors
from memscope.store.store import Store

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "tests" / "labelled" / "ask_eval.json"
HELDOUT = ROOT / "tests" / "labelled" / "heldout" / "ask_questions.json"
MODES = (store_search.WORDS, store_search.MEANING, store_search.HYBRID)
KINDS = ("literal", "paraphrase", "chinese")
#: the held-out file's groups, in the order printed
GROUPS = ("all", "paraphrased", "chinese", "literal")
#: the held-out questions' memory ids do not depend on the demo's time (the file says so)
HELDOUT_NOW = datetime(2026, 12, 5, 12, tzinfo=UTC)

Ranker = Callable[[str], list[str]]


@dataclass(frozen=True)
class Scores:
    """Recall@5 and MRR over some questions; ``top3``: how many had an answer in the
    first three."""

    recall5: float
    mrr: float
    n: int
    top3: int = 0


def eval_set(path: Path = EVAL) -> dict[str, Any]:
    """The evaluation set (questions, their answers, the Chinese facts)."""
    return json.loads(path.read_text(encoding="utf-8"))


def eval_store(folder: Path, data: dict[str, Any] | None = None) -> Store:
    """The demo store of the evaluation set, with its Chinese facts, in ``folder``."""
    data = data or eval_set()
    store = Store.create(folder / "ask-eval.db")
    seed_store(store, seed=data["demo"]["seed"], now=datetime.fromisoformat(data["demo"]["now"]))
    store.load_records([{"id": f"doc_{m['id']}", "containerTags": [data["chinese_space"]],
                         "memoryEntries": [{"id": m["id"], "memory": m["memory"]}]}
                        for m in data["chinese_memories"]])
    return store


def heldout_set(path: Path = HELDOUT) -> dict[str, Any]:
    """The held-out question file (``development`` and ``heldout`` lists)."""
    return json.loads(path.read_text(encoding="utf-8"))


def heldout_store(folder: Path) -> Store:
    """The app's demo store, as the held-out questions were written for, in ``folder``."""
    store = Store.create(folder / "ask-heldout.db")
    seed_store(store, seed=7, now=HELDOUT_NOW, planted=True)
    return store


def missing_answers(store: Store, questions: list[dict[str, Any]]) -> list[str]:
    """The answer ids of ``questions`` that ``store`` does not hold."""
    return [a for q in questions for a in q["answers"] if store.get_memory(a) is None]


@contextmanager
def reading(store: Store) -> Iterator[sqlite3.Connection]:
    """A read connection on ``store`` as :mod:`memscope.store.store` opens one."""
    conn = sqlite3.connect(store.path, timeout=30, isolation_level=None)
    conn.row_factory = sqlite3.Row
    try:
        conn.execute("BEGIN")
        yield conn
    finally:
        conn.close()


def settled(store: Store, timeout: float | None = None) -> str:
    """Wait until ``store``'s meaning vectors are built: the fast ones' thread has ended,
    and the deep ones are ready when switched on (``MEMSCOPE_DEEP_MEANING``); returns the
    deep ones' state (``ready``, ``off``, ``unavailable``, or ``building`` after
    ``timeout`` seconds)."""
    for thread in [t for t in threading.enumerate() if t.name == "memscope-vectors"]:
        thread.join()
    with reading(store) as conn:
        return vectors.deep_wait(conn, timeout).state


def ranked(conn: sqlite3.Connection, question: str, mode: str, *, limit: int = 50,
           backend: str = store_search.FTS5) -> list[str]:
    """The memory ids Ask lists for ``question`` ranked by ``mode``, best first."""
    found = store_search.search(conn, question, limit=limit, backend=backend, mode=mode)
    return [h["id"] for h in found["hits"] if h["kind"] == "memory"]


def first_rank(ids: list[str], relevant: list[str]) -> int | None:
    """The 1-based rank of the first relevant id, None when none is listed.

    >>> first_rank(["a", "b", "c"], ["c", "b"]), first_rank(["a"], ["z"])
    (2, None)
    """
    rel = set(relevant)
    return next((i + 1 for i, x in enumerate(ids) if x in rel), None)


def score(rankings: list[tuple[list[str], list[str]]]) -> Scores:
    """Recall@5 and MRR of ``(ranked ids, relevant ids)`` pairs.

    >>> score([(["a", "b"], ["b"]), (["c"], ["d", "c"])])
    Scores(recall5=0.75, mrr=0.75, n=2, top3=2)
    """
    if not rankings:
        return Scores(0.0, 0.0, 0)
    recall = mrr = 0.0
    top3 = 0
    for ids, relevant in rankings:
        recall += len(set(relevant) & set(ids[:5])) / len(set(relevant))
        rank = first_rank(ids, relevant)
        mrr += 1 / rank if rank else 0.0
        top3 += rank is not None and rank <= 3
    n = len(rankings)
    return Scores(round(recall / n, 3), round(mrr / n, 3), n, top3)


def evaluate(store: Store, data: dict[str, Any] | None = None
             ) -> dict[str, dict[str, Scores]]:
    """``{mode: {kind or "all": Scores}}`` over the labelled evaluation set."""
    data = data or eval_set()
    out: dict[str, dict[str, Scores]] = {}
    with reading(store) as conn:
        for mode in MODES:
            pairs = {kind: [(ranked(conn, q["q"], mode), q["relevant"])
                            for q in data["questions"] if q["kind"] == kind]
                     for kind in KINDS}
            out[mode] = {kind: score(p) for kind, p in pairs.items()}
            out[mode]["all"] = score([x for p in pairs.values() for x in p])
    return out


def in_group(question: dict[str, Any], group: str) -> bool:
    """Whether a held-out-file question belongs to ``group`` (:data:`GROUPS`)."""
    return {"all": True, "paraphrased": bool(question["paraphrased"]),
            "chinese": question["lang"] == "zh",
            "literal": not question["paraphrased"]}[group]


def rank_questions(questions: list[dict[str, Any]], rank: Ranker
                   ) -> list[tuple[list[str], list[str]]]:
    """``(ranked ids, answers)`` per question of the held-out file, ranked by ``rank``."""
    return [(rank(q["question"]), q["answers"]) for q in questions]


def group_scores(questions: list[dict[str, Any]],
                 rankings: list[tuple[list[str], list[str]]]) -> dict[str, Scores]:
    """:data:`GROUPS` → Scores of ``rankings`` (one per question, in order)."""
    return {g: score([r for q, r in zip(questions, rankings, strict=True) if in_group(q, g)])
            for g in GROUPS}


def evaluate_heldout(store: Store, questions: list[dict[str, Any]],
                     modes: tuple[str, ...] = MODES) -> dict[str, dict[str, Scores]]:
    """``{mode: {group: Scores}}`` of held-out-file ``questions`` on ``store``."""
    out: dict[str, dict[str, Scores]] = {}
    with reading(store) as conn:
        for mode in modes:
            rankings = rank_questions(questions, lambda q, m=mode: ranked(conn, q, m))
            out[mode] = group_scores(questions, rankings)
    return out
