"""Destructive (and adding) actions with a ledger record, whatever the source.

The embedded store writes its own ledger row inside the same transaction as a change it
makes; every other outcome — any source's refusal or failure, and every result of the
other sources — is recorded here in the local ledger. Every row is scoped to the acting
source's :meth:`~memscope.sources.base.Source.identity`, so a session reads back only its
own rows with ``ledger.ledger(scope=source.identity())``.
"""

from __future__ import annotations

from typing import Any

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


def _record(ledger: Store, source: Source, action: str, outcome: str, message: str,
            **fields: Any) -> None:
    """One ledger row for ``source``, scoped to its identity."""
    ledger.record_ledger(action=action, source=source.kind, scope=source.identity(),
                         outcome=outcome, message=message, **fields)


def forget(source: Source, ledger: Store, target_id: str, *, reason: str | None,
           container_tag: str | None, snapshot: str | None) -> ForgetResult:
    """Forget one memory or fact and ledger the outcome; re-raises the source's error."""
    try:
        result = source.forget(target_id, reason=reason, container_tag=container_tag)
    except SourceError as exc:
        _record(ledger, source, "forget",
                "mismatch" if isinstance(exc, ForgetMismatch) else "error", str(exc),
                space=container_tag, target_id=target_id, snapshot=snapshot, reason=reason)
        raise
    if not _self_ledgering(source):
        _record(ledger, source, "forget", "ok" if result.ok else "error", result.message,
                space=result.container_tag or container_tag, target_id=target_id,
                snapshot=result.snapshot or snapshot, reason=reason)
    return result


def restore(source: Source, ledger: Store, memory_id: str) -> ForgetResult:
    """Undo a soft forget and ledger it."""
    try:
        result = source.restore(memory_id)
    except SourceError as exc:
        _record(ledger, source, "restore", "error", str(exc), target_id=memory_id)
        raise
    if not _self_ledgering(source):
        _record(ledger, source, "restore", "ok" if result.ok else "error", result.message,
                target_id=memory_id, space=result.container_tag, snapshot=result.snapshot)
    return result


def forget_all(source: Source, ledger: Store, preview: ForgetAllPreview, *, confirm: str,
               reason: str | None) -> ForgetAllResult:
    """Step two of forget-all, ledgered as one row."""
    try:
        result = source.forget_all(preview, confirm=confirm, reason=reason)
    except SourceError as exc:
        _record(ledger, source, "forget_all", "error", str(exc), space=preview.container_tag,
                reason=reason)
        raise
    if not _self_ledgering(source):
        _record(ledger, source, "forget_all", "ok", result.message,
                space=result.container_tag, reason=reason)
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
        _record(ledger, source, "add", "error", str(exc), space=container_tag, snapshot=text)
        raise
    if not _self_ledgering(source):
        _record(ledger, source, "add", "error" if result.status == "failed" else "ok",
                result.message, space=result.container_tag or container_tag,
                target_id=result.id, snapshot=text)
    return result


def add_processed(source: Source, ledger: Store, result: AddResult, text: str | None) -> None:
    """Ledger the end of an asynchronous add when processing failed (a done document
    needs no second row; one still processing is not an outcome yet)."""
    if result.status == "failed":
        _record(ledger, source, "add", "error", result.message, space=result.container_tag,
                target_id=result.id, snapshot=text)
