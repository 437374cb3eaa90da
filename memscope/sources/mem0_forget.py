"""Forgetting on mem0's platform: one memory (``DELETE /v1/memories/{id}/``), a reviewed
list (``DELETE /v1/batch/``, at most :data:`BATCH_LIMIT` ids a request) and every loaded
memory of one entity (previewed, confirmed, then the batch). mem0 deletes whole memories
for good and takes no reason (the ledger keeps it); an older version of a chain is refused
before anything is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from urllib.parse import quote

from memscope.records.patch import mark_forgotten
from memscope.records.text import counted
from memscope.sources._http import ambiguous
from memscope.sources._remote import HttpSource
from memscope.sources.errors import BadRequest, SourceError, Unsupported
from memscope.sources.mem0_events import DELETED
from memscope.sources.results import (
    ForgetAllPreview,
    ForgetReport,
    ForgetResult,
    LoadResult,
)

SERVICE = "mem0"
#: the most ids one ``DELETE /v1/batch/`` takes
BATCH_LIMIT = 1000
OLD_VERSION = ("mem0 deletes whole memories, not one version of one: forget the latest "
               "version of this chain ({memory}) instead.")


def _q(value: str) -> str:
    return quote(value, safe="")


class Mem0Forgetting(HttpSource):
    """The forgetting half of :class:`~memscope.sources.mem0.Mem0Source`."""

    def _memory_of(self, target_id: str) -> str:
        """The mem0 memory id behind a version id (itself when unknown)."""
        mem = self._last.dataset.memories.get(target_id) if self._last else None
        owner = mem.extra.get("mem0MemoryId") if mem is not None else None
        return owner if isinstance(owner, str) and owner else target_id

    def _forgettable(self, target_id: str) -> None:
        """Refuse, sending nothing, an id that is an older version of a loaded chain."""
        owner = self._memory_of(target_id)
        if owner != target_id:
            raise Unsupported(OLD_VERSION.format(memory=owner))

    def _mark_deleted(self, ids: Sequence[str]) -> None:
        """This source's own last load with ``ids`` deleted — a new result on a patched
        copy: the load it replaces is shared with other sessions and never changed."""
        if self._last is None or not ids:
            return
        ds = mark_forgotten(self._last.dataset, ids, at=None, reason=DELETED)
        self._last = replace(self._last, dataset=ds)

    def patch_forgotten(self, previous: LoadResult, ids: Sequence[str], *,
                        reason: str | None = None) -> LoadResult | None:
        """``previous`` (never changed) with ``ids`` deleted, as this source draws a delete:
        forgotten, "Deleted in mem0." — nothing is asked (a reload would no longer list
        them; the graph keeps them, greyed, so what was deleted stays visible)."""
        if not ids:
            return previous
        return replace(previous, dataset=mark_forgotten(previous.dataset, ids, at=None,
                                                        reason=DELETED))

    def forget(self, target_id: str, *, reason: str | None = None,
               container_tag: str | None = None) -> ForgetResult:
        """``DELETE /v1/memories/{id}/``: mem0 deletes the memory for good (mem0 takes no
        reason; the ledger keeps it)."""
        self._forgettable(target_id)
        mem = self._last.dataset.memories.get(target_id) if self._last else None
        with ambiguous(SERVICE, "delete request", "deleted the memory"):
            answer = self._http.request("DELETE", f"/v1/memories/{_q(target_id)}/",
                                        operation=f"delete memory {target_id}",
                                        idempotent=False)
        self._mark_deleted([target_id])
        said = answer.get("message") if isinstance(answer, dict) else None
        return ForgetResult(target_id, True, str(said or f"mem0 deleted memory {target_id}."),
                            container_tag=mem.container_tag if mem else container_tag,
                            snapshot=mem.memory if mem else None)

    def forget_many(self, ids: Sequence[str], *, reason: str | None = None,
                    container_tag: str | None = None) -> ForgetReport:
        """``DELETE /v1/batch/`` with ``{"memories": [{"memory_id"}…]}``, at most
        :data:`BATCH_LIMIT` a request; an older version's id is refused, unsent."""
        wanted = list(dict.fromkeys(ids))
        errors: dict[str, str] = {}
        send = []
        for mem_id in wanted:
            try:
                self._forgettable(mem_id)
                send.append(mem_id)
            except Unsupported as exc:
                errors[mem_id] = str(exc)
        forgotten: list[str] = []
        for start in range(0, len(send), BATCH_LIMIT):
            part = send[start:start + BATCH_LIMIT]
            try:
                with ambiguous(SERVICE, "batch delete request", "deleted memories"):
                    self._http.request("DELETE", "/v1/batch/", operation=f"delete "
                                       f"{counted(len(part), 'memory')}", idempotent=False,
                                       json={"memories": [{"memory_id": m} for m in part]})
            except SourceError as exc:
                errors.update({m: str(exc) for m in part})
                continue
            forgotten.extend(part)
        self._mark_deleted(forgotten)
        batches = -(-len(send) // BATCH_LIMIT)
        return ForgetReport(requested=tuple(ids), forgotten=tuple(forgotten), errors=errors,
                            note=f"Deleted in {counted(batches, 'batch request')} (at most "
                                 f"{BATCH_LIMIT} ids each); mem0 takes no reason.",
                            container_tag=container_tag)

    def forget_all_preview(self, container_tag: str | None = None) -> ForgetAllPreview:
        """The loaded, not deleted memories of one entity (latest versions); sends nothing."""
        if not container_tag:
            raise BadRequest("Choose an entity to forget everything in.", service=SERVICE)
        ds = self.load().dataset
        mine = [m for m in ds.memories.values() if m.container_tag == container_tag
                and m.is_latest]
        ids = [m.id for m in mine if not m.is_forgotten]
        return ForgetAllPreview(
            container_tag, len(ids), ids, already_forgotten=len(mine) - len(ids),
            message=f"{counted(len(ids), 'memory')} of {container_tag} would be deleted (of "
                    "the memories loaded), with their histories' versions.",
            confirm_words=(container_tag, str(len(ids))))


__all__ = ["BATCH_LIMIT", "OLD_VERSION", "Mem0Forgetting"]
