"""Destructive (and adding) actions with a ledger record, whatever the source.

Every action names its ``actor`` (the signed-in person's email, or ``"local"`` without
sign-in) and is written to the :class:`~memscope.storage.Storage` passed in, scoped to the
acting source's :meth:`~memscope.sources.base.Source.identity` — a session reads back only
its own rows with ``storage.ledger(scope=source.identity())``.

- The embedded store, when the storage is its own file, writes its row itself in the
  same SQLite transaction as the change: the change and its row commit together. Only a
  refusal (nothing changed) is recorded here.
- Every other action — a remote service's, or the embedded store's when the ledger is
  elsewhere (PostgreSQL) — is written ``attempted`` *before* the call, then completed with
  the outcome; a crash during the call leaves the attempted row as its trace.

:func:`forget_many` (forget by reviewed ids, e.g. after a semantic-forget preview) writes
one row per id, each completed with that id's outcome from the service's per-id report.

A ledger that cannot be written stops the action before anything is sent: the caller
gets a :class:`~memscope.sources.errors.SourceError` with one sentence.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from memscope.sources import (
    AddResult,
    ForgetAllPreview,
    ForgetAllResult,
    ForgetMismatch,
    ForgetReport,
    ForgetResult,
    Source,
    SourceError,
)
from memscope.storage import LOCAL_ACTOR, LedgerEntry, Storage, StorageError
from memscope.store.store import Store

R = TypeVar("R")
#: what a completed row records: (outcome, message, {space/target_id/snapshot updates})
Outcome = tuple[str, str, dict[str, Any]]
#: the outcome of a call that raised something other than a source error
UNEXPECTED = ("The action failed unexpectedly, so the service may or may not have done it; "
              "reload to see what it holds.")


def _storage(ledger: Storage | Store) -> Storage:
    """A :class:`Store` stands for the ledger in its own file."""
    return ledger.storage() if isinstance(ledger, Store) else ledger


def _ledgered_by_store(source: Source, storage: Storage) -> bool:
    """True when the source writes the row itself, in the ledger's own file."""
    own = source.ledger_file()
    return own is not None and storage.sqlite_path == own


def _refused(exc: SourceError) -> str:
    return "mismatch" if isinstance(exc, ForgetMismatch) else "error"


class ViewerRefused(SourceError):
    """A viewer asked for a change: nothing is sent and nothing is written."""


def _perform(source: Source, ledger: Storage | Store, actor: str, action: str,
             call: Callable[[], R], outcome_of: Callable[[R], Outcome],
             **fields: Any) -> R:
    """Run ``call`` with its ledger row (see the module's docstring); re-raises the
    source's error after recording it. A viewer (``fields["viewer"]``) is refused before
    anything is sent."""
    if fields.pop("viewer", False):
        raise ViewerRefused(f"Nothing was done: {actor} may view this memory but not "
                            f"{action.replace('_', ' ')}.", service="ledger")
    storage = _storage(ledger)
    scope = source.identity()
    try:
        if _ledgered_by_store(source, storage):
            try:
                return call()
            except SourceError as exc:  # the store changed nothing and wrote nothing
                storage.record_ledger(action=action, source=source.kind, scope=scope,
                                      actor=actor, outcome=_refused(exc), message=str(exc),
                                      **fields)
                raise
        entry: LedgerEntry = storage.begin_ledger(action=action, source=source.kind,
                                                  scope=scope, actor=actor, **fields)
    except StorageError as exc:
        raise SourceError(f"Nothing was done: {exc}", service="ledger") from None
    try:
        result = call()
    except SourceError as exc:
        _complete(storage, entry, _refused(exc), str(exc), {})
        raise
    except Exception:
        _complete(storage, entry, "error", UNEXPECTED, {})
        raise
    outcome, message, updates = outcome_of(result)
    _complete(storage, entry, outcome, message, updates)
    return result


def _complete(storage: Storage, entry: LedgerEntry, outcome: str, message: str,
              updates: dict[str, Any]) -> None:
    try:
        storage.complete_ledger(entry, outcome=outcome, message=message, **updates)
    except StorageError as exc:  # the action happened: say so, the attempted row stays
        raise SourceError(f"The action was sent, but its outcome could not be written to "
                          f"the ledger (it stays there as attempted): {exc}",
                          service="ledger") from None


def _by(source: Source, actor: str) -> dict[str, Any]:
    """A source that writes its own ledger rows is told who acts."""
    return {"actor": actor} if source.ledger_file() is not None else {}


def forget(source: Source, ledger: Storage | Store, target_id: str, *, reason: str | None,
           container_tag: str | None, snapshot: str | None,
           actor: str = LOCAL_ACTOR, viewer: bool = False) -> ForgetResult:
    """Forget one memory or fact and ledger the outcome; re-raises the source's error."""
    def outcome(result: ForgetResult) -> Outcome:
        return ("ok" if result.ok else "error", result.message,
                {"space": result.container_tag, "snapshot": result.snapshot})

    return _perform(source, ledger, actor, "forget",
                    lambda: source.forget(target_id, reason=reason,
                                          container_tag=container_tag, **_by(source, actor)),
                    outcome, space=container_tag, target_id=target_id, snapshot=snapshot,
                    reason=reason, viewer=viewer)


def restore(source: Source, ledger: Storage | Store, memory_id: str, *,
            actor: str = LOCAL_ACTOR, viewer: bool = False) -> ForgetResult:
    """Undo a soft forget and ledger it."""
    def outcome(result: ForgetResult) -> Outcome:
        return ("ok" if result.ok else "error", result.message,
                {"space": result.container_tag, "snapshot": result.snapshot})

    return _perform(source, ledger, actor, "restore",
                    lambda: source.restore(memory_id, **_by(source, actor)),
                    outcome, target_id=memory_id, viewer=viewer)


def forget_all(source: Source, ledger: Storage | Store, preview: ForgetAllPreview, *,
               confirm: str, reason: str | None, actor: str = LOCAL_ACTOR,
               viewer: bool = False
               ) -> ForgetAllResult:
    """Step two of forget-all, ledgered as one row (the embedded store writes one per
    memory itself)."""
    def outcome(result: ForgetAllResult) -> Outcome:
        return "ok", result.message, {"space": result.container_tag}

    return _perform(source, ledger, actor, "forget_all",
                    lambda: source.forget_all(preview, confirm=confirm, reason=reason,
                                              **_by(source, actor)),
                    outcome, space=preview.container_tag, reason=reason, viewer=viewer)


def _id_outcome(report: ForgetReport, memory_id: str, total: int) -> tuple[str, str]:
    """The (outcome, message) of one id of a :func:`forget_many` call."""
    of = f"(one of {total} reviewed ids sent in one call)" if total > 1 else ""
    if memory_id in report.errors:
        return "error", report.errors[memory_id]
    if memory_id in report.forgotten:
        return "ok", f"Forgotten {of}".strip() + "."
    return "noop", f"The service matched no memory with this id, so nothing was forgotten " \
                   f"{of}".strip() + "."


def forget_many(source: Source, ledger: Storage | Store, ids: Sequence[str], *,
                reason: str | None, container_tag: str | None,
                snapshots: Mapping[str, str] | None = None, actor: str = LOCAL_ACTOR,
                viewer: bool = False) -> ForgetReport:
    """Forget exactly the reviewed ``ids`` in one call and ledger one ``forget_many`` row
    per id with its own outcome (``ok`` forgotten, ``error`` with the service's sentence,
    ``noop`` not matched); ``snapshots`` are the texts the person reviewed.

    The rows are written ``attempted`` before the call and completed from the per-id
    report; a refused call completes every row as refused and re-raises. A source that
    writes its own ledger (the embedded store in its own file) records what it forgot
    itself; only the ids it did not forget are recorded here.
    """
    if viewer:
        raise ViewerRefused(f"Nothing was done: {actor} may view this memory but not "
                            "forget memories.", service="ledger")
    wanted = tuple(dict.fromkeys(ids))
    if not wanted:
        raise SourceError("Nothing was forgotten: no memory was chosen.", service="ledger")
    texts = snapshots or {}
    storage = _storage(ledger)
    row = {"action": "forget_many", "source": source.kind, "scope": source.identity(),
           "actor": actor, "space": container_tag, "reason": reason}

    def call() -> ForgetReport:
        return source.forget_many(wanted, reason=reason, container_tag=container_tag,
                                  **_by(source, actor))

    if _ledgered_by_store(source, storage):
        return _forget_many_by_store(storage, row, wanted, texts, call)
    entries = _begin_all(storage, row, wanted, texts)
    try:
        report = call()
    except SourceError as exc:
        _complete_all(storage, [(e, _refused(exc), str(exc)) for e in entries])
        raise
    except Exception:
        _complete_all(storage, [(e, "error", UNEXPECTED) for e in entries])
        raise
    _complete_all(storage, [(e, *_id_outcome(report, str(e.target_id), len(wanted)))
                            for e in entries])
    return report


def _forget_many_by_store(storage: Storage, row: dict[str, Any], wanted: tuple[str, ...],
                          texts: Mapping[str, str], call: Callable[[], ForgetReport]
                          ) -> ForgetReport:
    """The embedded store in its own file wrote the rows of what it forgot: record the
    rest (refused, failed or not matched ids)."""
    try:
        try:
            report = call()
        except SourceError as exc:
            for i in wanted:
                storage.record_ledger(**row, outcome=_refused(exc), message=str(exc),
                                      target_id=i, snapshot=texts.get(i))
            raise
        for i in wanted:
            if i not in report.forgotten:
                outcome, message = _id_outcome(report, i, len(wanted))
                storage.record_ledger(**row, outcome=outcome, message=message,
                                      target_id=i, snapshot=texts.get(i))
    except StorageError as exc:
        raise SourceError(f"The ledger could not be written: {exc}",
                          service="ledger") from None
    return report


def _begin_all(storage: Storage, row: dict[str, Any], wanted: tuple[str, ...],
               texts: Mapping[str, str]) -> list[LedgerEntry]:
    """One ``attempted`` row per id; if the ledger fails, nothing is sent (the rows
    already written say so)."""
    entries: list[LedgerEntry] = []
    try:
        for i in wanted:
            entries.append(storage.begin_ledger(**row, target_id=i, snapshot=texts.get(i)))
    except StorageError as exc:
        for entry in entries:
            with contextlib.suppress(StorageError):
                storage.complete_ledger(entry, outcome="error", message=(
                    "Nothing was sent: the ledger could not be written."))
        raise SourceError(f"Nothing was done: {exc}", service="ledger") from None
    return entries


def _complete_all(storage: Storage, done: list[tuple[LedgerEntry, str, str]]) -> None:
    """Complete every row (trying all of them), then report the first failure."""
    failure: SourceError | None = None
    for entry, outcome, message in done:
        try:
            _complete(storage, entry, outcome, message, {})
        except SourceError as exc:
            failure = failure or exc
    if failure is not None:
        raise failure


def add(source: Source, ledger: Storage | Store, text: str, *, container_tag: str | None,
        title: str | None = None, actor: str = LOCAL_ACTOR,
        viewer: bool = False) -> AddResult:
    """Add a text (sent once) and ledger it as ``add``; re-raises the source's error.

    An asynchronous add (Supermemory) is ledgered when it is accepted —
    :func:`add_processed` adds a row if processing then fails.
    """
    def outcome(result: AddResult) -> Outcome:
        return ("error" if result.status == "failed" else "ok", result.message,
                {"space": result.container_tag, "target_id": result.id})

    return _perform(source, ledger, actor, "add",
                    lambda: source.add(text, container_tag=container_tag, title=title,
                                       **_by(source, actor)),
                    outcome, space=container_tag, snapshot=text, viewer=viewer)


def add_processed(source: Source, ledger: Storage | Store, result: AddResult,
                  text: str | None, *, actor: str = LOCAL_ACTOR) -> None:
    """Ledger the end of an asynchronous add when processing failed (a done document
    needs no second row; one still processing is not an outcome yet)."""
    if result.status != "failed":
        return
    try:
        _storage(ledger).record_ledger(
            action="add", source=source.kind, scope=source.identity(), actor=actor,
            outcome="error", message=result.message, space=result.container_tag,
            target_id=result.id, snapshot=text)
    except StorageError as exc:
        raise SourceError(str(exc), service="ledger") from None
