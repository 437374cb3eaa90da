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

A ledger that cannot be written stops the action before anything is sent: the caller
gets a :class:`~memscope.sources.errors.SourceError` with one sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from memscope.sources import (
    AddResult,
    ForgetAllPreview,
    ForgetAllResult,
    ForgetMismatch,
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
