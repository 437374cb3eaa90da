"""Waiting for an added document to be processed, and reading search answers' documents.

>>> result = source.add("Maya adopted a cat.", container_tag="space")  # doctest: +SKIP
>>> if not result.final:                                               # doctest: +SKIP
...     result = wait_until_processed(source, result.id, timeout_s=120,
...                                   on_status=lambda r: print(r.status))
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from memscope.sources.base import Source
from memscope.sources.errors import SourceError
from memscope.sources.results import AddResult

StatusCallback = Callable[[AddResult], None]


def wait_until_processed(source: Source, document_id: str, *, timeout_s: float = 120.0,
                         on_status: StatusCallback | None = None,
                         first_delay_s: float = 0.5, max_delay_s: float = 5.0,
                         factor: float = 1.6,
                         sleep: Callable[[float], None] = time.sleep,
                         clock: Callable[[], float] = time.monotonic) -> AddResult:
    """Poll ``source.document_status(document_id)`` with exponential backoff until the
    status is ``done`` or ``failed``, or ``timeout_s`` has passed.

    ``on_status`` sees every answer. Returns the last answer; ``timed_out`` is set (and the
    message says so) when time ran out first. A poll that fails with a retryable error
    (network, 5xx …) is tolerated until the deadline; any other error is raised.
    """
    deadline = clock() + timeout_s
    delay, polls = first_delay_s, 0
    last: AddResult | None = None
    error: SourceError | None = None
    while True:
        sleep(max(0.0, min(delay, deadline - clock())))
        polls += 1
        try:
            last = source.document_status(document_id)
            error = None
        except SourceError as exc:
            if not exc.retryable:
                raise
            error = exc
        if last is not None and error is None:
            last.polls = polls
            if on_status is not None:
                on_status(last)
            if last.final:
                return last
        if clock() >= deadline:
            break
        delay = min(max_delay_s, delay * factor)
    status = last.status if last is not None else "unknown"
    why = f" The last poll failed: {error}" if error is not None else ""
    message = (f"Document {document_id} was still being processed after {timeout_s:g} s "
               f"(status {status}); reload later to see it.{why}")
    base = last or AddResult(document_id, status, message)
    base.message, base.timed_out, base.polls = message, True, polls
    return base


def document_ids(raw: dict[str, Any]) -> list[str]:
    """Document ids of a search result: ``documents[].id``, then ``documentId``."""
    ids = [d["id"] for d in raw.get("documents") or []
           if isinstance(d, dict) and isinstance(d.get("id"), str)]
    for key in ("documentId", "document_id"):
        if isinstance(raw.get(key), str) and raw[key] not in ids:
            ids.append(raw[key])
    return ids


def parse_status(service: str, document_id: str, answer: dict[str, Any]) -> AddResult:
    """An :class:`AddResult` from a ``GET /v3/documents/{id}`` answer (read leniently:
    the memories under ``memories``, as the API sends them, or a feed's
    ``memoryEntries``)."""
    status = str(answer.get("status") or "unknown")
    tags = [t for t in answer.get("containerTags") or [] if isinstance(t, str)]
    entries = answer.get("memories") or answer.get("memoryEntries")
    mem_ids = [e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)
               ] if isinstance(entries, list) else []
    title = answer.get("title") if isinstance(answer.get("title"), str) else None
    return AddResult(document_id, status, status_sentence(service, document_id, status),
                     container_tag=tags[0] if tags else None, title=title,
                     memory_ids=mem_ids, raw=answer)


def status_sentence(service: str, document_id: str, status: str) -> str:
    """One sentence on a document's processing status."""
    if status == "done":
        return f"{service} finished processing document {document_id}."
    if status == "failed":
        return f"{service} could not process document {document_id} (status failed)."
    return f"{service} is processing document {document_id} (status {status})."


__all__ = ["StatusCallback", "document_ids", "parse_status", "status_sentence",
           "wait_until_processed"]
