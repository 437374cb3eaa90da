"""Destructive (and adding) actions with a ledger record, whatever the source.

The embedded store writes its own ledger row inside the same transaction as a change it
makes; every other outcome — any source's refusal or failure, and every result of the
other sources — is recorded here in the local ledger.
"""

from __future__ import annotations

from memscope.sources import (
    AddResult,
    ForgetAllPreview,
    ForgetAllResult,
    ForgetMismatch,
    ForgetResult,
    Source,
    SourceError,
)
from memscope.store.store import Store


def _self_ledgering(source: Source) -> bool:
    return bool(getattr(source, "ledgers_itself", False))


def forget(source: Source, ledger: Store, target_id: str, *, reason: str | None,
           container_tag: str | None, snapshot: str | None) -> ForgetResult:
    """Forget one memory or fact and ledger the outcome; re-raises the source's error."""
    try:
        result = source.forget(target_id, reason=reason, container_tag=container_tag)
    except SourceError as exc:
        ledger.record_ledger(
            action="forget", source=source.kind, space=container_tag, target_id=target_id,
            snapshot=snapshot, reason=reason,
            outcome="mismatch" if isinstance(exc, ForgetMismatch) else "error",
            message=str(exc))
        raise
    if not _self_ledgering(source):
        ledger.record_ledger(
            action="forget", source=source.kind, space=result.container_tag or container_tag,
            target_id=target_id, snapshot=result.snapshot or snapshot, reason=reason,
            outcome="ok" if result.ok else "error", message=result.message)
    return result


def restore(source: Source, ledger: Store, memory_id: str) -> ForgetResult:
    """Undo a soft forget and ledger it."""
    try:
        result = source.restore(memory_id)
    except SourceError as exc:
        ledger.record_ledger(action="restore", source=source.kind, target_id=memory_id,
                             outcome="error", message=str(exc))
        raise
    if not _self_ledgering(source):
        ledger.record_ledger(action="restore", source=source.kind, target_id=memory_id,
                             space=result.container_tag, snapshot=result.snapshot,
                             outcome="ok" if result.ok else "error", message=result.message)
    return result


def forget_all(source: Source, ledger: Store, preview: ForgetAllPreview, *, confirm: str,
               reason: str | None) -> ForgetAllResult:
    """Step two of forget-all, ledgered as one row."""
    try:
        result = source.forget_all(preview, confirm=confirm, reason=reason)
    except SourceError as exc:
        ledger.record_ledger(action="forget_all", source=source.kind,
                             space=preview.container_tag, reason=reason,
                             outcome="error", message=str(exc))
        raise
    if not _self_ledgering(source):
        ledger.record_ledger(action="forget_all", source=source.kind,
                             space=result.container_tag, reason=reason, outcome="ok",
                             message=result.message)
    return result


def add(source: Source, ledger: Store, text: str, *, container_tag: str | None,
        title: str | None = None) -> AddResult:
    """Add a text (sent once) and ledger it as ``add``; re-raises the source's error.

    The embedded store ledgers its own add; an asynchronous add (Supermemory) is ledgered
    when it is accepted — :func:`add_processed` adds a row if processing then fails.
    """
    try:
        result = source.add(text, container_tag=container_tag, title=title)
    except SourceError as exc:
        ledger.record_ledger(action="add", source=source.kind, space=container_tag,
                             snapshot=text, outcome="error", message=str(exc))
        raise
    if not _self_ledgering(source):
        ledger.record_ledger(action="add", source=source.kind,
                             space=result.container_tag or container_tag,
                             target_id=result.id, snapshot=text,
                             outcome="error" if result.status == "failed" else "ok",
                             message=result.message)
    return result


def add_processed(source: Source, ledger: Store, result: AddResult, text: str | None) -> None:
    """Ledger the end of an asynchronous add when processing failed (a done document
    needs no second row; one still processing is not an outcome yet)."""
    if result.status == "failed":
        ledger.record_ledger(action="add", source=source.kind, space=result.container_tag,
                             target_id=result.id, snapshot=text, outcome="error",
                             message=result.message)
