"""What a source's calls return: a load and its progress, the outcome of a forget, a
forget-all's two steps, a per-id report, a semantic dry run, search hits and an add.

Plain records (the core's :class:`~memscope.records.dataset.Dataset` inside a load), never
graph or UI objects; :mod:`memscope.sources.base` declares the interface that returns them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord
from memscope.records.text import counted
from memscope.records.time import utc_now


@dataclass(frozen=True, slots=True)
class LoadProgress:
    """Progress of a load, reported after every page or history read (on the caller's
    thread). ``pages_done`` of ``pages_total`` count what ``unit`` names: list pages
    (``pages``), or, once every page is in, history reads (``histories``)."""

    pages_done: int
    pages_total: int | None
    documents: int
    memories: int
    pages_failed: int = 0
    #: the records merged so far (feed sources; read it on the callback's thread only)
    dataset: Dataset | None = field(default=None, compare=False, repr=False)
    #: what is counted: ``pages`` or ``histories``
    unit: str = "pages"

    @property
    def fraction(self) -> float:
        """Share of pages settled (done or failed), 0–1; 0 while the total is unknown."""
        if not self.pages_total:
            return 0.0
        return min(1.0, (self.pages_done + self.pages_failed) / self.pages_total)

    @property
    def words(self) -> str:
        """What is read so far, in words.

        >>> LoadProgress(18, 1358, 0, 0, unit="histories").words, LoadProgress(3, None, 0, 0).words
        ('histories 18 of 1,358', 'pages 3')
        """
        total = f" of {self.pages_total:,}" if self.pages_total else ""
        return f"{self.unit} {self.pages_done:,}{total}"


ProgressCallback = Callable[[LoadProgress], None]


@dataclass
class LoadResult:
    """What one load produced: the dataset plus how the load went.

    ``missing_pages`` names feed pages that still failed after every retry (with the
    error sentence per page in ``page_errors``), ``unread_histories`` the memories whose
    history could not be read within the retry budget (with the sentence per memory; they
    are ``dataset.unread`` too); a source's ``resume`` fetches only those. ``calls`` counts
    HTTP requests this load made; ``notes`` are warnings for the UI.
    """

    dataset: Dataset
    source: str
    label: str
    pages_total: int = 0
    pages_fetched: list[int] = field(default_factory=list)
    missing_pages: list[int] = field(default_factory=list)
    page_errors: dict[int, str] = field(default_factory=dict)
    calls: int = 0
    notes: list[str] = field(default_factory=list)
    duplicates_dropped: int = 0
    loaded_at: datetime = field(default_factory=utc_now)
    #: raw feed documents per page (deduplicated), kept for resume and saving
    raw_pages: dict[int, list[dict[str, Any]]] = field(default_factory=dict, repr=False)
    #: the decoded Spomory passport, kept for saving
    raw_passport: dict[str, Any] | None = field(default=None, repr=False)
    #: memory id -> why its history could not be read (Supermemory v5 views, mem0)
    unread_histories: dict[str, str] = field(default_factory=dict)
    #: what the source needs to resume this load (its own business; never mutated)
    resume_state: Any = field(default=None, repr=False, compare=False)

    @property
    def complete(self) -> bool:
        """True when no page is missing and every history was read."""
        return not self.missing_pages and not self.unread_histories

    def summary(self) -> str:
        """One or two sentences for the UI."""
        ds = self.dataset
        if ds.entities and not ds.relations and ds.memories:  # Graphiti, Zep: facts link them
            text = (f"Loaded {counted(len(ds.documents), 'document')}, "
                    f"{counted(len(ds.memories), 'memory')} and "
                    f"{counted(len(ds.entities), 'entity')}.")
        elif (ds.entities or ds.relations) and (ds.documents or ds.memories):  # mixed files
            text = (f"Loaded {counted(len(ds.documents), 'document')}, "
                    f"{counted(len(ds.memories), 'memory')}, "
                    f"{counted(len(ds.entities), 'entity')} and "
                    f"{counted(len(ds.relations), 'relation')}.")
        elif ds.entities or self.raw_passport is not None:
            text = (f"Loaded {counted(len(ds.entities), 'entity')} and "
                    f"{counted(len(ds.relations), 'relation')}.")
        else:
            text = (f"Loaded {counted(len(ds.documents), 'document')} and "
                    f"{counted(len(ds.memories), 'memory')}.")
        if self.missing_pages:
            pages = ", ".join(str(p) for p in self.missing_pages)
            text += (f" Page{'s' if len(self.missing_pages) > 1 else ''} {pages} of "
                     f"{self.pages_total} could not be fetched — resume to fetch only those.")
        if self.unread_histories:
            n = len(self.unread_histories)
            text += (f" The history of {n:,} {'memory' if n == 1 else 'memories'} could not "
                     f"be read — resume to read only {'that one' if n == 1 else 'those'}.")
        return text


@dataclass
class ForgetResult:
    """The outcome of forgetting (or restoring) one memory or Spomory fact."""

    target_id: str
    ok: bool
    message: str
    action: str = "forget"
    container_tag: str | None = None
    snapshot: str | None = None
    removed_ids: list[str] = field(default_factory=list)
    removed_entities: list[str] = field(default_factory=list)
    #: Spomory: the graph as re-read after the call
    load: LoadResult | None = None
    #: Supermemory v5: the service's per-id report (``DELETE /ns/{ns}/memories``)
    report: ForgetReport | None = None


@dataclass
class ForgetAllPreview:
    """Step one of forget-all: exactly what would be deleted; nothing was deleted."""

    container_tag: str | None
    count: int
    memory_ids: list[str] = field(default_factory=list)
    document_count: int | None = None
    entity_count: int | None = None
    already_forgotten: int = 0
    message: str = ""
    #: what the user may type to confirm (the space name and/or the count)
    confirm_words: tuple[str, ...] = ()

    def accepts(self, answer: str | None) -> bool:
        """True when ``answer`` (stripped) is one of :attr:`confirm_words`."""
        return (answer or "").strip() in self.confirm_words


@dataclass
class ForgetAllResult:
    """Step two of forget-all: what was deleted."""

    container_tag: str | None
    count: int
    message: str
    memory_ids: list[str] = field(default_factory=list)
    entity_count: int | None = None
    #: Supermemory v5: the service's per-id report over every batch
    report: ForgetReport | None = None


@dataclass(frozen=True)
class ForgetReport:
    """What the service said it forgot, per id (v5 DELETE /ns/{ns}/memories)."""

    requested: tuple[str, ...]
    #: ids the service matched and forgot
    forgotten: tuple[str, ...]
    #: id -> the service's sentence
    errors: dict[str, str]
    note: str | None = None
    container_tag: str | None = None

    @property
    def ok(self) -> bool:
        """True when every requested id was forgotten."""
        return not self.errors and set(self.requested) <= set(self.forgotten)

    @property
    def not_matched(self) -> tuple[str, ...]:
        """Requested ids that were neither forgotten nor given an error."""
        done = set(self.forgotten) | set(self.errors)
        return tuple(i for i in self.requested if i not in done)


@dataclass(frozen=True)
class SemanticPreview:
    """What a semantic forget would remove (a dry run: nothing was deleted)."""

    query: str
    container_tag: str | None
    #: exactly the memories the dry run matched
    ids: tuple[str, ...]
    #: id -> memory text, as the service sent it
    texts: dict[str, str]
    note: str | None = None


@dataclass
class SearchHit:
    """One search result: a memory, a document chunk or (Spomory) a context text.

    ``document_ids`` name the documents the hit came from (a chunk's document, a memory's
    sources) when the service says so.
    """

    kind: str  # "memory" | "chunk" | "context"
    text: str
    id: str | None = None
    similarity: float | None = None
    record: MemoryRecord | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    document_ids: list[str] = field(default_factory=list)


@dataclass
class SearchResult:
    """Search results plus the service's own message (Spomory answers with text), a
    ``note`` on how the results were found, in plain words (shown), and its technical
    ``detail`` (e.g. the local ranking used; for a help tooltip, never the screen)."""

    hits: list[SearchHit] = field(default_factory=list)
    total: int = 0
    message: str | None = None
    note: str | None = None
    detail: str | None = None


#: Document processing states that will not change any more.
FINAL_STATUSES = frozenset({"done", "failed"})


@dataclass
class AddResult:
    """The outcome of adding a text: the new document (or Spomory's sentence) and its status.

    ``status`` is ``done`` when the text is stored and visible on reload, ``failed`` when
    the service gave up, anything else (``queued``, ``extracting`` …) while it is still
    being processed — poll with :func:`~memscope.sources.wait_until_processed`.
    """

    id: str | None
    status: str
    message: str
    container_tag: str | None = None
    title: str | None = None
    memory_ids: list[str] = field(default_factory=list)
    #: the polls it took to get here (``wait_until_processed``) and whether time ran out
    polls: int = 0
    timed_out: bool = False
    #: Spomory: the graph as re-read after the add
    load: LoadResult | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def final(self) -> bool:
        """True when processing is over (done or failed)."""
        return self.status in FINAL_STATUSES

    @property
    def ok(self) -> bool:
        """True when the text is stored (``done``)."""
        return self.status == "done"


def forgot_ids_result(service: str, container_tag: str | None, report: ForgetReport
                      ) -> ForgetAllResult:
    """Step two of a forget-all that forgot the previewed ids (``report``), in words."""
    failed = (f" {counted(len(report.errors), 'memory')} could not be forgotten."
              if report.errors else "")
    return ForgetAllResult(container_tag, len(report.forgotten),
                           f"{service} forgot {counted(len(report.forgotten), 'memory')} in "
                           f"{container_tag}.{failed}",
                           memory_ids=list(report.forgotten), report=report)


__all__ = [
    "FINAL_STATUSES",
    "AddResult",
    "ForgetAllPreview",
    "ForgetAllResult",
    "ForgetReport",
    "ForgetResult",
    "LoadProgress",
    "LoadResult",
    "ProgressCallback",
    "SearchHit",
    "SearchResult",
    "SemanticPreview",
    "forgot_ids_result",
]
