"""Paged fetching of the Supermemory document feed with bounded concurrency.

Pages arrive in any order; they are merged into the dataset **in page order** (each as
soon as every earlier page is in, so parsing overlaps the network wait), and a document
that shifted onto the next page while loading is kept once: its first page wins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from memscope.records.dataset import Dataset
from memscope.records.jsonsafe import NUMBER_MAX
from memscope.sources.errors import SourceError
from memscope.sources.results import LoadProgress, ProgressCallback

PageFetcher = Callable[[int], tuple[list[Any], dict[str, Any]]]


def _count(value: Any) -> int | None:
    """A page or item count a server sent: a whole number within 0 … 2^53, else ``None``."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= NUMBER_MAX:
        return value
    return None


def pages_from(pagination: dict[str, Any], limit: int) -> int | None:
    """The page count a ``pagination`` object tells, or ``None`` when it does not (an
    absurd count — negative, fractional or past 2^53 — tells nothing).

    >>> pages_from({"totalItems": 101}, 50), pages_from({"totalPages": 10**400}, 50)
    (3, None)
    """
    total = _count(pagination.get("totalPages"))
    if total is not None:
        return total
    items = _count(pagination.get("totalItems"))
    if items is not None:
        return -(-items // max(1, limit))  # ceiling division, exact for any size
    return None


@dataclass
class FeedState:
    """Raw pages that arrived, failures, running counts for the progress callback, and
    the dataset, merged page by page in page order while later pages are in flight."""

    pages: dict[int, list[Any]] = field(default_factory=dict)
    errors: dict[int, str] = field(default_factory=dict)
    total_pages: int | None = None
    total_items: dict[int, int] = field(default_factory=dict)
    reported_pages: dict[int, int] = field(default_factory=dict)
    doc_ids: set[str] = field(default_factory=set)
    mem_ids: set[str] = field(default_factory=set)
    dataset: Dataset = field(default_factory=Dataset)
    kept: dict[int, list[Any]] = field(default_factory=dict)
    dropped: int = 0
    _seen: set[str] = field(default_factory=set)
    _next: int = 1

    @classmethod
    def from_pages(cls, pages: dict[int, list[Any]], total_pages: int) -> FeedState:
        """A state seeded with pages of an earlier load (for resume)."""
        state = cls(total_pages=total_pages)
        for number, docs in pages.items():
            state.add(number, docs, {})
        return state

    def add(self, number: int, docs: list[Any], pagination: dict[str, Any]) -> None:
        """Record one page that arrived, and merge every page now due in order."""
        self.pages[number] = docs
        self.errors.pop(number, None)
        items = _count(pagination.get("totalItems"))
        if items is not None:
            self.total_items[number] = items
        pages = _count(pagination.get("totalPages"))
        if pages is not None:
            self.reported_pages[number] = pages
        for doc in docs:
            if not isinstance(doc, dict):
                continue
            if isinstance(doc.get("id"), str):
                self.doc_ids.add(doc["id"])
            entries = doc.get("memoryEntries") or doc.get("memories")
            for entry in entries if isinstance(entries, list) else ():
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    self.mem_ids.add(entry["id"])
        while self._next in self.pages:
            self._merge(self._next)
            self._next += 1

    def _merge(self, number: int) -> None:
        keep = []
        for i, raw in enumerate(self.pages[number]):
            doc_id = raw.get("id") if isinstance(raw, dict) else None
            if isinstance(doc_id, str):
                if doc_id in self._seen:
                    self.dropped += 1
                    continue
                self._seen.add(doc_id)
            keep.append(raw)
            where = doc_id if isinstance(doc_id, str) else f"page {number} documents[{i}]"
            self.dataset.add_document(raw, where)
        self.kept[number] = keep

    def progress(self) -> LoadProgress:
        """Counts so far (distinct documents and memories)."""
        return LoadProgress(len(self.pages), self.total_pages, len(self.doc_ids),
                            len(self.mem_ids), len(self.errors), dataset=self.dataset)

    def missing(self) -> list[int]:
        """Pages that were due and did not arrive."""
        total = self.total_pages or 0
        return [p for p in range(1, total + 1) if p not in self.pages]

    def shifted(self) -> tuple[int, int] | None:
        """``(first, last)`` totalItems when the feed changed size while loading."""
        seen = [self.total_items[p] for p in sorted(self.total_items)]
        if seen and min(seen) != max(seen):
            return seen[0], seen[-1]
        return None

    def build(self) -> tuple[Dataset, dict[int, list[Any]], int]:
        """The dataset with every page merged (those after a missing page last, still in
        page order), the deduplicated raw pages, and how many repeats were dropped."""
        for number in sorted(self.pages):
            if number not in self.kept:
                self._merge(number)
        return self.dataset, dict(sorted(self.kept.items())), self.dropped


def fetch_pages(numbers: Iterable[int], fetch: PageFetcher, state: FeedState,
                concurrency: int, progress: ProgressCallback | None) -> None:
    """Fetch ``numbers`` with at most ``concurrency`` requests in flight.

    A page that fails after every retry is recorded in ``state.errors`` (its sentence);
    the progress callback runs on the calling thread after every settled page.
    """
    todo = list(numbers)
    if not todo:
        return
    pool = ThreadPoolExecutor(max_workers=max(1, min(concurrency, len(todo))),
                              thread_name_prefix="memscope-feed")
    try:
        running: dict[Future, int] = {pool.submit(fetch, n): n for n in todo}
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for fut in done:
                number = running.pop(fut)
                try:
                    docs, pagination = fut.result()
                except SourceError as exc:
                    state.errors[number] = str(exc)
                else:
                    state.add(number, docs, pagination)
                if progress is not None:
                    progress(state.progress())
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
