"""Changes to a sandbox's store that no API route makes: a memory updated into a new
version (Supermemory extracts one from an added document; the sandbox's add makes a
single memory), for tests of what a refresh must notice."""

from __future__ import annotations

import sqlite3
import uuid
from contextlib import closing
from typing import Any

from memscope.records.time import iso_utc, utc_now
from memscope.store.store import Store


def new_version(store: Store, memory_id: str, text: str, *,
                document_id: str | None = None) -> str:
    """``memory_id`` updated into a new version holding ``text``, in a new document of
    the same space (the old version is no longer latest, both updated now); returns the
    new memory's id. Bumps the store's data version."""
    with closing(sqlite3.connect(store.path)) as conn:
        conn.row_factory = sqlite3.Row
        row = conn.execute("SELECT id, container_tag, space_id, version, root_memory_id FROM "
                           "memories WHERE id = ?", (memory_id,)).fetchone()
    if row is None:
        raise KeyError(memory_id)
    now = iso_utc(utc_now())
    new_id = f"mem_{uuid.uuid4().hex[:16]}"
    doc_id = document_id or f"doc_{uuid.uuid4().hex[:16]}"
    entry: dict[str, Any] = {
        "id": new_id, "memory": text, "spaceContainerTag": row["container_tag"],
        "spaceId": row["space_id"], "version": int(row["version"]) + 1, "isLatest": True,
        "parentMemoryId": memory_id, "rootMemoryId": row["root_memory_id"] or memory_id,
        "memoryRelations": {memory_id: "updates"}, "createdAt": now, "updatedAt": now}
    store.load_records([{"id": doc_id, "title": text[:60], "summary": text, "type": "text",
                         "status": "done", "content": text,
                         "containerTags": [row["container_tag"]], "createdAt": now,
                         "updatedAt": now, "memoryEntries": [entry]}], action="add")
    with closing(sqlite3.connect(store.path)) as conn, conn:
        conn.execute("UPDATE memories SET is_latest = 0, updated_at = ? WHERE id = ?",
                     (now, memory_id))
        conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 "
                     "WHERE key = 'data_version'")
    return new_id
