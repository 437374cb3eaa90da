"""The embedded source: the local SQLite store (the default; no key, no network).

It can do everything the app offers, and the store ledgers every change itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

from memscope.records.models import (
    MemoryRecord,
    ParseReport,
    Profile,
    SpaceRecord,
    parse_memory,
    parse_profile,
    parse_spaces,
)
from memscope.sources._feed import FeedState
from memscope.sources.base import Capabilities, Source
from memscope.sources.errors import ConfirmationRequired, NotFound, SourceError
from memscope.sources.results import (
    AddResult,
    ForgetAllPreview,
    ForgetAllResult,
    ForgetResult,
    LoadResult,
    ProgressCallback,
    SearchHit,
    SearchResult,
)
from memscope.store.store import ConfirmationMismatch, Store, StoreError, StoreNotFound


@contextmanager
def _store_errors() -> Iterator[None]:
    """Turn store exceptions into source errors (their messages are already sentences)."""
    try:
        yield
    except ConfirmationMismatch as exc:
        raise ConfirmationRequired(str(exc), service="embedded store") from None
    except StoreNotFound as exc:
        raise NotFound(str(exc), service="embedded store") from None
    except StoreError as exc:
        raise SourceError(str(exc), service="embedded store") from None


class EmbeddedSource(Source):
    """The embedded SQLite store as a source. ``load`` is cached per data version."""

    kind = "embedded"
    capabilities = Capabilities(history=True, profile=True, forget=True, forget_all=True,
                                restore=True, search=True, spaces=True, add=True)
    add_note: ClassVar[str | None] = (
        "The embedded store works offline and extracts nothing: the text is stored as a new "
        "document with exactly one memory holding the whole text.")
    default_space: ClassVar[str] = "sm_project_default"

    def __init__(self, store: Store | str | Path, *, page_limit: int = 200,
                 container_tags: tuple[str, ...] = (), ledger_source: str = "embedded"
                 ) -> None:
        self.store = store if isinstance(store, Store) else Store(store)
        self.page_limit = page_limit
        self.container_tags = tuple(container_tags)
        #: the ``source`` the store writes in its ledger rows
        self.ledger_source = ledger_source
        self._last: LoadResult | None = None
        self._version: str | None = None

    @property
    def label(self) -> str:
        return f"embedded store {self.store.path.name}"

    def cache_key(self) -> tuple[str, ...]:
        return (self.kind, str(self.store.path.resolve()), ",".join(self.container_tags))

    def ledger_file(self) -> Path:
        """The store's own file: its changes and their ledger rows commit together."""
        return self.store.path.resolve()

    def identity(self) -> str:
        """The store's own ledger scope (``embedded|<absolute path>``): the rows the store
        writes itself and the ones :mod:`memscope.sources.actions` adds share it."""
        return self.store.identity

    def data_version(self) -> str | None:
        """``<store uid>:<counter>`` (see :meth:`Store.data_stamp`)."""
        with _store_errors():
            return self.store.data_stamp()

    def load(self, progress: ProgressCallback | None = None, *,
             refresh: bool = False) -> LoadResult:
        """Every document page, the spaces and the profiles; a cached result is returned
        while the store's data version is unchanged (unless ``refresh``)."""
        version = self.data_version()
        if self._last is not None and not refresh and version == self._version:
            return self._last
        state = FeedState()
        with _store_errors():
            # every page from one snapshot, each as cheap as the first (keyset paging)
            for answer in self.store.document_pages(self.page_limit,
                                                    list(self.container_tags)):
                page = answer["pagination"]
                state.total_pages = int(page["totalPages"] or 1)
                state.add(page["currentPage"], answer["documents"], page)
                if progress is not None:
                    progress(state.progress())
            ds, kept, dropped = state.build()
            ds.spaces = parse_spaces(self.store.list_spaces(), ds.report)
            tags = self.container_tags or tuple(s.container_tag for s in ds.spaces)
            for tag in tags:
                ds.profiles[tag] = parse_profile(self.store.profile(tag), tag, ds.report)
        result = LoadResult(dataset=ds, source=self.kind, label=self.label,
                            pages_total=state.total_pages or 0, pages_fetched=sorted(kept),
                            duplicates_dropped=dropped, raw_pages=kept)
        self._last, self._version = result, version
        return result

    def spaces(self) -> list[SpaceRecord]:
        with _store_errors():
            return parse_spaces(self.store.list_spaces(), ParseReport())

    def profile(self, container_tag: str) -> Profile:
        with _store_errors():
            return parse_profile(self.store.profile(container_tag), container_tag,
                                 ParseReport())

    def history(self, memory_id: str, *, container_tag: str | None = None
                ) -> list[MemoryRecord]:
        """The whole chain (all branches), oldest first."""
        with _store_errors():
            rows = self.store.history(memory_id)
        if not rows:
            raise NotFound(f"There is no memory with id {memory_id!r} in the store.",
                           service="embedded store")
        report = ParseReport()
        return [m for i, raw in enumerate(rows)
                if (m := parse_memory(raw, f"history[{i}]", report)) is not None]

    def search(self, query: str, *, container_tag: str | None = None,
               limit: int = 10) -> SearchResult:
        """A local ranking (SQLite FTS5 with BM25, or LIKE without FTS5) over memory text
        and document titles and summaries: memory hits first, then document hits (as
        ``chunk`` hits naming their document). ``similarity`` is the ranking score;
        ``note`` says in plain words how they were ranked, ``detail`` the technique."""
        tag = container_tag or (self.container_tags[0] if len(self.container_tags) == 1
                                else None)
        with _store_errors():
            found = self.store.search(query, limit, tag)
        loaded = self.load().dataset.memories
        hits = []
        for raw in found["hits"]:
            if raw["kind"] == "memory":
                hits.append(SearchHit("memory", raw["text"], raw["id"], raw["score"],
                                      loaded.get(raw["id"]), raw))
            else:
                hits.append(SearchHit("chunk", raw["text"], raw["id"], raw["score"], raw=raw,
                                      document_ids=[raw["id"]]))
        return SearchResult(hits, len(hits), note=found["note"], detail=found.get("detail"))

    def add(self, text: str, *, container_tag: str | None = None,
            title: str | None = None, actor: str | None = None) -> AddResult:
        """Store ``text`` as a new document with one memory (no extraction: the memory is
        the text itself), in one transaction with its ledger row (by ``actor``)."""
        tag = container_tag or (self.container_tags[0] if self.container_tags
                                else self.default_space)
        with _store_errors():
            doc = self.store.add_document(text, tag, title=title, source=self.ledger_source,
                                          actor=actor)
        mem_ids = [m["id"] for m in doc["memoryEntries"]]
        return AddResult(doc["id"], "done", f"Stored the text as document {doc['id']} with "
                         f"one memory ({mem_ids[0]}) in {tag}; nothing was extracted "
                         "(offline).", container_tag=tag, title=doc.get("title"),
                         memory_ids=mem_ids, raw=doc)

    def _act(self, memory_id: str, action: str,
             call: Callable[[], dict[str, Any]]) -> ForgetResult:
        with _store_errors():
            before = self.store.get_memory(memory_id)
            if before is None:
                raise StoreNotFound(f"There is no memory with id {memory_id!r} in the store.")
            call()
        was = bool(before.get("isForgotten"))
        changed = was != (action == "forget")
        verb = "Forgot" if action == "forget" else "Restored"
        message = (f"{verb} memory {memory_id}." if changed else
                   f"Memory {memory_id} was {'already' if was else 'not'} forgotten.")
        return ForgetResult(memory_id, True, message, action=action,
                            container_tag=before.get("spaceContainerTag"),
                            snapshot=before.get("memory"))

    def forget(self, target_id: str, *, reason: str | None = None,
               container_tag: str | None = None, actor: str | None = None) -> ForgetResult:
        """Soft-forget one memory (ledgered by the store, as done by ``actor``)."""
        return self._act(target_id, "forget", lambda: self.store.forget_memory(
            target_id, reason, source=self.ledger_source, actor=actor))

    def restore(self, memory_id: str, *, actor: str | None = None) -> ForgetResult:
        """Undo a soft forget (ledgered by the store, as done by ``actor``)."""
        return self._act(memory_id, "restore", lambda: self.store.restore_memory(
            memory_id, source=self.ledger_source, actor=actor))

    def forget_all_preview(self, container_tag: str | None = None) -> ForgetAllPreview:
        """What forgetting a whole space would do; changes nothing."""
        if not container_tag:
            raise ConfirmationRequired("Choose a space to forget everything in.")
        with _store_errors():
            plan = self.store.forget_all_preview(container_tag)
        count = int(plan["memoryCount"])
        message = (f"{count} memories from {plan['documentCount']} documents in "
                   f"{container_tag} would be forgotten; {plan['alreadyForgotten']} are "
                   "already forgotten.")
        return ForgetAllPreview(container_tag, count, list(plan["memoryIds"]),
                                int(plan["documentCount"]),
                                already_forgotten=int(plan["alreadyForgotten"]),
                                message=message, confirm_words=(container_tag, str(count)))

    def _forget_all(self, preview: ForgetAllPreview, *, confirm: str, reason: str | None,
                    actor: str | None = None, **_: Any) -> ForgetAllResult:
        """Soft-forget every memory of the space (the store re-checks ``confirm``;
        ledgered by the store, as done by ``actor``)."""
        tag = preview.container_tag or ""
        with _store_errors():
            done = self.store.forget_all(tag, confirm=confirm, reason=reason,
                                         source=self.ledger_source, actor=actor)
        count = int(done["count"])
        return ForgetAllResult(tag, count, f"Forgot {count} memories in {tag}.",
                               memory_ids=list(done.get("memoryIds") or []))
