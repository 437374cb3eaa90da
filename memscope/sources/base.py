"""The one interface every source implements, its capabilities and its result records.

A source returns records (the core's models in a :class:`~memscope.records.dataset.Dataset`),
never graph or UI objects. The UI asks :attr:`Source.capabilities` what a source can do
and shows :meth:`Capabilities.reason` when it cannot.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord, Profile, SpaceRecord
from memscope.sources.errors import ConfirmationRequired, SourceError, Unsupported
from memscope.sources.results import (
    AddResult,
    ForgetAllPreview,
    ForgetAllResult,
    ForgetReport,
    ForgetResult,
    LoadResult,
    ProgressCallback,
    SearchResult,
    SemanticPreview,
    forgot_ids_result,
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
    #: the service's name in a sentence ("Supermemory forgot …")
    service: ClassVar[str] = "The service"
    capabilities: Capabilities = Capabilities()
    #: a side effect of searching the UI must mention next to the search box
    search_note: ClassVar[str | None] = None
    #: what adding a text does with it, in one sentence for the add form
    add_note: ClassVar[str | None] = None
    #: True when :meth:`forget` also takes a document's id (Zep: an episode, with the
    #: facts drawn from it alone)
    forgets_documents: ClassVar[bool] = False

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

    def forget_preview(self, target_id: str) -> str | None:
        """What the service deletes with ``target_id`` and whether it can be undone, in
        plain words for the forget dialog (sends nothing), or ``None``: nothing to add to
        the graph's own impact preview."""
        return None

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
                   reason: str | None = None, **by: Any) -> ForgetAllResult:
        """Step two of forget-all, the same for every source: ``confirm`` must be one of
        ``preview.confirm_words``; a source that forgets by ids sends nothing when the
        preview holds none; the request itself is the source's :meth:`_forget_all`
        (``by`` carries who acts, to a source that writes its own ledger)."""
        if not self.capabilities.forget_all:
            raise self.unsupported("forget_all")
        require_confirmation(preview, confirm)
        if self.capabilities.forget_all_by_ids and not preview.memory_ids:
            return ForgetAllResult(preview.container_tag, 0, "There was nothing left to "
                                   f"forget in {preview.container_tag}.")
        return self._forget_all(preview, confirm=confirm.strip(), reason=reason, **by)

    def _forget_all(self, preview: ForgetAllPreview, *, confirm: str, reason: str | None,
                    **by: Any) -> ForgetAllResult:
        """The request of a confirmed forget-all: by default the previewed ids through
        :meth:`forget_many`; a service that clears a space (or graph) itself overrides it."""
        report = self.forget_many(preview.memory_ids, reason=reason,
                                  container_tag=preview.container_tag)
        return forgot_ids_result(self.service, preview.container_tag, report)

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
    "Capabilities",
    "Source",
    "forget_each",
    "merge_history",
    "require_confirmation",
]
