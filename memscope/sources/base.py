"""The one interface every source implements, its capabilities and its result records.

A source returns records (the core's models in a :class:`~memscope.records.dataset.Dataset`),
never graph or UI objects. The UI asks :attr:`Source.capabilities` what a source can do
and shows :meth:`Capabilities.reason` when it cannot.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord, Profile, SpaceRecord
from memscope.records.text import counted
from memscope.records.time import utc_now
from memscope.sources.errors import (
    AuthError,
    BadRequest,
    ConfirmationRequired,
    DialectMismatch,
    FileError,
    Forbidden,
    ForgetMismatch,
    MalformedResponse,
    NetworkError,
    NotFound,
    PaymentRequired,
    QuotaExceeded,
    RateLimited,
    ServerError,
    SourceError,
    TimeoutError_,
    Unsupported,
)

CAPABILITY_NAMES = ("history", "profile", "forget", "forget_all", "restore", "search", "spaces",
                    "add")
#: reviewed-id forgetting with a per-id report, and the dry run of a semantic forget
#: (Supermemory v5); :meth:`Capabilities.as_dict` lists them only when asked to
BULK_CAPABILITY_NAMES = ("forget_many", "semantic_forget")
ALL_CAPABILITY_NAMES = CAPABILITY_NAMES + BULK_CAPABILITY_NAMES


@dataclass(frozen=True)
class Capabilities:
    """What a source can do; ``why_not`` holds one sentence per missing capability.

    ``forget_all_by_ids`` says how forget-all works when the source has it: ``True`` —
    it forgets exactly the ids in the preview (the loaded memories of the space, which
    the caller may narrow, e.g. to the explorer's filter, before step two); ``False`` —
    the service clears the whole space (or graph) itself and no filter narrows it.
    """

    history: bool = False
    profile: bool = False
    forget: bool = False
    forget_all: bool = False
    restore: bool = False
    search: bool = False
    spaces: bool = False
    add: bool = False
    why_not: tuple[tuple[str, str], ...] = ()
    #: forget a reviewed list of ids in one call, with a per-id report
    forget_many: bool = False
    #: preview (dry run) a semantic forget; the forget itself goes by the reviewed ids
    semantic_forget: bool = False
    forget_all_by_ids: bool = False

    def can(self, name: str) -> bool:
        """True when the capability ``name`` (one of :data:`ALL_CAPABILITY_NAMES`) is there."""
        if name not in ALL_CAPABILITY_NAMES:
            raise ValueError(f"unknown capability {name!r}")
        return bool(getattr(self, name))

    def note(self, name: str) -> str | None:
        """The sentence ``why_not`` holds for ``name`` (``None`` when it says nothing): for
        what the interface has no switch for, e.g. ``review_inferred``."""
        return dict(self.why_not).get(name)

    def reason(self, name: str) -> str | None:
        """Why ``name`` is unavailable (one sentence), or ``None`` when it is available."""
        if self.can(name):
            return None
        return dict(self.why_not).get(name, f"This source cannot {name.replace('_', '-')}.")

    def as_dict(self, *, bulk: bool = False) -> dict[str, bool]:
        """``{capability: available}`` over :data:`CAPABILITY_NAMES` (plus
        :data:`BULK_CAPABILITY_NAMES` with ``bulk=True``)."""
        names = ALL_CAPABILITY_NAMES if bulk else CAPABILITY_NAMES
        return {name: self.can(name) for name in names}


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
        if (ds.entities or ds.relations) and (ds.documents or ds.memories):  # mixed files
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


def merge_history(dataset: Dataset, records: Iterable[MemoryRecord]) -> list[str]:
    """Add history records that the dataset lacks (as memories seen on their own).

    Records already present are left alone (the loaded occurrence wins). Returns the ids
    that were added.
    """
    added = []
    for rec in records:
        if rec.id not in dataset.memories and dataset.kind_of(rec.id) is None:
            dataset.add_memory(rec, None)
            added.append(rec.id)
    return added


def forget_each(source: Source, ids: Sequence[str], *, reason: str | None = None,
                container_tag: str | None = None) -> ForgetReport:
    """:meth:`Source.forget_many` for a source that forgets one id per call: calls
    :meth:`Source.forget` for each id in turn; a failed id gets its error sentence."""
    forgotten: list[str] = []
    errors: dict[str, str] = {}
    for target in dict.fromkeys(ids):
        try:
            result = source.forget(target, reason=reason, container_tag=container_tag)
        except SourceError as exc:
            errors[target] = str(exc)
            continue
        if result.ok:
            forgotten.append(target)
        else:
            errors[target] = result.message
    return ForgetReport(requested=tuple(ids), forgotten=tuple(forgotten), errors=errors,
                        note=f"Forgotten one id per call ({len(dict.fromkeys(ids))} calls).",
                        container_tag=container_tag)


def require_confirmation(preview: ForgetAllPreview, confirm: str | None) -> None:
    """Raise :class:`ConfirmationRequired` unless ``confirm`` matches the preview."""
    if not preview.accepts(confirm):
        words = " or ".join(repr(w) for w in preview.confirm_words)
        raise ConfirmationRequired(f"Nothing was deleted: type {words} to confirm.")


class Source(ABC):
    """A place memories come from. Subclasses set :attr:`kind` and :attr:`capabilities`
    and override the methods their capabilities promise; the rest raise
    :class:`Unsupported` with the capability's reason."""

    kind: ClassVar[str] = "source"
    capabilities: Capabilities = Capabilities()
    #: a side effect of searching the UI must mention next to the search box
    search_note: ClassVar[str | None] = None
    #: what adding a text does with it, in one sentence for the add form
    add_note: ClassVar[str | None] = None

    _last: LoadResult | None = None

    @property
    def label(self) -> str:
        """A human name for the source (never holds a credential)."""
        return self.kind

    @property
    def calls(self) -> int:
        """HTTP calls this source object has made so far (0 for local sources)."""
        return 0

    @property
    def calls_service(self) -> bool:
        """True when loading goes over the network (worth a progress display)."""
        return False

    @property
    def last_result(self) -> LoadResult | None:
        """The most recent load (``load()`` without ``refresh`` returns it)."""
        return self._last

    def cache_key(self) -> tuple[str, ...]:
        """A key for caches: kind, location, credential *fingerprint*, scope."""
        return (self.kind, self.label)

    def ledger_file(self) -> Path | None:
        """The SQLite file in which the source writes its own ledger rows, in the same
        transaction as the change (the embedded store's), else ``None``."""
        return None

    def identity(self) -> str:
        """Who acts, for the ledger: a stable string of the source kind, its location
        and, for a service, the credential's *fingerprint* — never a secret. Two sessions
        with the same identity share ledger rows; any other session never sees them.

        By default the cache key's parts joined with ``|`` (kind and location); the HTTP
        sources give ``kind|base URL|key:<fingerprint>``, the embedded store
        ``embedded|<absolute path of the store>``.
        """
        return "|".join(self.cache_key())

    def calls_note(self) -> str | None:
        """One sentence on how this source counts its calls to a service (for the UI
        next to search and add), or ``None`` when it calls no service."""
        return None

    def data_version(self) -> str | None:
        """A token that changes when the data changes, if the source can tell cheaply."""
        return None

    @abstractmethod
    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        """Load everything this source offers; with ``refresh=False`` a previous
        result may be returned without calling the service again."""

    def resume(self, previous: LoadResult,
               progress: ProgressCallback | None = None) -> LoadResult:
        """Fetch only what ``previous`` is missing (the pages and histories it names) and
        return a new result; ``previous`` is left as it is (other sessions read it)."""
        if previous.complete:
            return previous
        raise Unsupported(f"{self.label} cannot resume a partial load; reload instead.")

    #: True when :meth:`refresh` reads only what changed since a load (else it is a
    #: full load again)
    refreshes_changes: ClassVar[bool] = False

    def refresh(self, previous: LoadResult,
                progress: ProgressCallback | None = None) -> LoadResult:
        """The source's data read again, as a fresh load would give it; a source that can
        tell what changed since ``previous`` reads only that (``previous`` is left as it
        is: other sessions read it). By default a full load."""
        return self.load(progress, refresh=True)

    def unsupported(self, capability: str) -> Unsupported:
        """The :class:`Unsupported` error for a missing capability."""
        return Unsupported(self.capabilities.reason(capability)
                           or f"{self.label} cannot {capability}.")

    def history(self, memory_id: str, *, container_tag: str | None = None
                ) -> list[MemoryRecord]:
        """Every version of the chain holding ``memory_id``, oldest first."""
        raise self.unsupported("history")

    def profile(self, container_tag: str) -> Profile:
        """The profile of one space."""
        raise self.unsupported("profile")

    def spaces(self) -> list[SpaceRecord]:
        """The spaces (container tags) this source can see."""
        raise self.unsupported("spaces")

    def search(self, query: str, *, container_tag: str | None = None,
               limit: int = 10) -> SearchResult:
        """Search memories."""
        raise self.unsupported("search")

    def add(self, text: str, *, container_tag: str | None = None,
            title: str | None = None) -> AddResult:
        """Add ``text`` (to ``container_tag`` where the source has spaces). Sent once:
        never retried after the request may have reached the service."""
        raise self.unsupported("add")

    def document_status(self, document_id: str) -> AddResult:
        """The processing status of a document added with :meth:`add`."""
        raise Unsupported(f"{self.label} processes added text at once; there is no status "
                          "to poll.")

    def forget(self, target_id: str, *, reason: str | None = None,
               container_tag: str | None = None) -> ForgetResult:
        """Forget one memory (Supermemory, embedded) or fact (Spomory relation id)."""
        raise self.unsupported("forget")

    def forget_many(self, ids: Sequence[str], *, reason: str | None = None,
                    container_tag: str | None = None) -> ForgetReport:
        """Forget exactly ``ids`` and report, per id, what the service did."""
        raise self.unsupported("forget_many")

    def forget_semantic_preview(self, query: str, *, container_tag: str | None = None
                                ) -> SemanticPreview:
        """A dry run of a semantic forget: the memories it would remove; deletes nothing."""
        raise self.unsupported("semantic_forget")

    def restore(self, memory_id: str) -> ForgetResult:
        """Undo a soft forget."""
        raise self.unsupported("restore")

    def forget_all_preview(self, container_tag: str | None = None) -> ForgetAllPreview:
        """Step one of forget-all; deletes nothing."""
        raise self.unsupported("forget_all")

    def forget_all(self, preview: ForgetAllPreview, *, confirm: str,
                   reason: str | None = None) -> ForgetAllResult:
        """Step two of forget-all; ``confirm`` must be one of ``preview.confirm_words``."""
        raise self.unsupported("forget_all")

    # -- patching a load after an action (memscope.sources.patch calls these) -----------

    def patch_forgotten(self, previous: LoadResult, ids: Sequence[str], *,
                        reason: str | None = None) -> LoadResult | None:
        """``previous`` (never changed) with the memories ``ids``, which this source just
        forgot, as a load made now would show them — asking the service only what it
        must. ``None``: this source cannot say, so the caller reads the load again."""
        return None

    def patch_restored(self, previous: LoadResult, ids: Sequence[str]) -> LoadResult | None:
        """``previous`` with the memories ``ids`` just restored, or ``None`` (reload)."""
        return None

    def patch_added(self, previous: LoadResult, added: AddResult) -> LoadResult | None:
        """``previous`` with the document ``added`` names (processed: ``done``) and its
        memories, read from the service as a load would read them, or ``None`` (reload)."""
        return None

    def reread(self, previous: LoadResult, ids: Sequence[str]) -> LoadResult | None:
        """``previous`` with the memories ``ids`` read again as the service holds them now
        (after an action failed in the middle), or ``None`` (reload). May raise the
        source's :class:`SourceError` when the service cannot be read."""
        return None

    def close(self) -> None:  # noqa: B027 - optional hook, a no-op by default
        """Release connections (idempotent)."""

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.label!r})"


__all__ = [
    "ALL_CAPABILITY_NAMES",
    "BULK_CAPABILITY_NAMES",
    "CAPABILITY_NAMES",
    "FINAL_STATUSES",
    "AddResult",
    "AuthError",
    "BadRequest",
    "Capabilities",
    "ConfirmationRequired",
    "DialectMismatch",
    "FileError",
    "Forbidden",
    "ForgetAllPreview",
    "ForgetAllResult",
    "ForgetMismatch",
    "ForgetReport",
    "ForgetResult",
    "LoadProgress",
    "LoadResult",
    "MalformedResponse",
    "NetworkError",
    "NotFound",
    "PaymentRequired",
    "ProgressCallback",
    "QuotaExceeded",
    "RateLimited",
    "SearchHit",
    "SearchResult",
    "SemanticPreview",
    "ServerError",
    "Source",
    "SourceError",
    "TimeoutError_",
    "Unsupported",
    "forget_each",
    "merge_history",
    "require_confirmation",
]
