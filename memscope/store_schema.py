"""SQLite schema of the embedded store and the row <-> Supermemory-shape converters.

Only :mod:`memscope.store` uses this module. Times are ISO-8601 UTC strings ending in
``Z``; JSON columns hold ``json.dumps`` text or NULL; booleans are 0/1 integers.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS spaces (
    id TEXT PRIMARY KEY,
    container_tag TEXT NOT NULL UNIQUE,
    name TEXT, description TEXT, emoji TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY,
    custom_id TEXT, title TEXT, summary TEXT, url TEXT, source TEXT,
    type TEXT NOT NULL DEFAULT 'text', status TEXT NOT NULL DEFAULT 'done',
    content TEXT, container_tag TEXT, metadata TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS documents_created ON documents (created_at, id);
CREATE INDEX IF NOT EXISTS documents_updated ON documents (updated_at, id);
CREATE INDEX IF NOT EXISTS documents_tag ON documents (container_tag);
CREATE TABLE IF NOT EXISTS memories (
    id TEXT PRIMARY KEY,
    memory TEXT NOT NULL,
    space_id TEXT, container_tag TEXT,
    version INTEGER NOT NULL DEFAULT 1,
    is_latest INTEGER NOT NULL DEFAULT 1,
    is_forgotten INTEGER NOT NULL DEFAULT 0,
    is_static INTEGER NOT NULL DEFAULT 0,
    is_inference INTEGER NOT NULL DEFAULT 0,
    parent_memory_id TEXT, root_memory_id TEXT,
    forget_after TEXT, forget_reason TEXT, forgotten_at TEXT,
    metadata TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memories_tag ON memories (container_tag);
CREATE INDEX IF NOT EXISTS memories_parent ON memories (parent_memory_id);
CREATE TABLE IF NOT EXISTS document_memories (
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    memory_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (document_id, memory_id)
);
CREATE INDEX IF NOT EXISTS document_memories_memory ON document_memories (memory_id);
CREATE TABLE IF NOT EXISTS memory_relations (
    memory_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    other_memory_id TEXT NOT NULL,
    relation TEXT NOT NULL,
    PRIMARY KEY (memory_id, other_memory_id)
);
CREATE INDEX IF NOT EXISTS memory_relations_other ON memory_relations (other_memory_id);
CREATE TABLE IF NOT EXISTS profile_lines (
    id INTEGER PRIMARY KEY,
    container_tag TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('static', 'dynamic')),
    position INTEGER NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS profile_lines_tag ON profile_lines (container_tag, kind, position);
CREATE TABLE IF NOT EXISTS profile_line_memories (
    line_id INTEGER NOT NULL REFERENCES profile_lines (id) ON DELETE CASCADE,
    memory_id TEXT NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
    PRIMARY KEY (line_id, memory_id)
);
CREATE TABLE IF NOT EXISTS ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL, source TEXT NOT NULL, space TEXT, action TEXT NOT NULL,
    target_id TEXT, snapshot TEXT, reason TEXT, outcome TEXT NOT NULL, message TEXT
);
"""

TABLES = ("meta", "spaces", "documents", "memories", "document_memories", "memory_relations",
          "profile_lines", "profile_line_memories", "ledger")

MEMORY_COLUMNS = ("id", "memory", "space_id", "container_tag", "version", "is_latest",
                  "is_forgotten", "is_static", "is_inference", "parent_memory_id",
                  "root_memory_id", "forget_after", "forget_reason", "forgotten_at",
                  "metadata", "created_at", "updated_at")
DOCUMENT_COLUMNS = ("id", "custom_id", "title", "summary", "url", "source", "type", "status",
                    "content", "container_tag", "metadata", "created_at", "updated_at")
SPACE_COLUMNS = ("id", "container_tag", "name", "description", "emoji", "created_at",
                 "updated_at")

#: SELECT list for memory rows with the number of documents that list each memory.
MEMORY_SELECT = (", ".join(f"m.{c}" for c in MEMORY_COLUMNS)
                 + ", (SELECT COUNT(*) FROM document_memories x WHERE x.memory_id = m.id)"
                 " AS source_count")


def insert_sql(table: str, columns: Sequence[str]) -> str:
    """``INSERT INTO table (cols) VALUES (?, …)``."""
    return (f"INSERT INTO {table} ({', '.join(columns)}) "
            f"VALUES ({', '.join('?' for _ in columns)})")


def chunks(items: Sequence[Any], size: int = 500) -> Iterator[Sequence[Any]]:
    """Slices of at most ``size`` items (keeps ``IN (…)`` lists under SQLite's limit)."""
    for start in range(0, len(items), size):
        yield items[start:start + size]


def placeholders(n: int) -> str:
    """``?, ?, …`` with ``n`` marks."""
    return ", ".join("?" * n)


def _dump(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


def _load(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _int(value: Any, default: int) -> int:
    if isinstance(value, bool) or value is None:
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def memory_row(entry: Mapping[str, Any], fallback_tag: str | None = None) -> tuple[Any, ...]:
    """A ``memories`` row (in :data:`MEMORY_COLUMNS` order) from a feed memory entry."""
    forgotten = bool(entry.get("isForgotten"))
    forgotten_at = entry.get("forgottenAt") or (entry.get("updatedAt") if forgotten else None)
    created = entry.get("createdAt") or entry.get("updatedAt") or ""
    return (entry["id"], entry.get("memory") or "", entry.get("spaceId"),
            entry.get("spaceContainerTag") or fallback_tag, _int(entry.get("version"), 1),
            int(entry.get("isLatest", True) is not False), int(forgotten),
            int(bool(entry.get("isStatic"))), int(bool(entry.get("isInference"))),
            entry.get("parentMemoryId"), entry.get("rootMemoryId"), entry.get("forgetAfter"),
            entry.get("forgetReason"), forgotten_at, _dump(entry.get("metadata")),
            created, entry.get("updatedAt") or created)


def document_row(doc: Mapping[str, Any], container_tag: str | None) -> tuple[Any, ...]:
    """A ``documents`` row (in :data:`DOCUMENT_COLUMNS` order) from a feed document."""
    created = doc.get("createdAt") or doc.get("updatedAt") or ""
    return (doc["id"], doc.get("customId"), doc.get("title"), doc.get("summary"),
            doc.get("url"), doc.get("source"), doc.get("type") or doc.get("documentType")
            or "text", doc.get("status") or "done", doc.get("content"), container_tag,
            _dump(doc.get("metadata")), created, doc.get("updatedAt") or created)


def memory_entry(row: sqlite3.Row, relations: Mapping[str, str]) -> dict[str, Any]:
    """The Supermemory memory-entry dict for a row selected with :data:`MEMORY_SELECT`."""
    return {
        "id": row["id"], "memory": row["memory"], "spaceId": row["space_id"],
        "version": row["version"], "isLatest": bool(row["is_latest"]),
        "parentMemoryId": row["parent_memory_id"], "rootMemoryId": row["root_memory_id"],
        "memoryRelations": dict(relations), "sourceCount": row["source_count"],
        "isInference": bool(row["is_inference"]), "isStatic": bool(row["is_static"]),
        "isForgotten": bool(row["is_forgotten"]), "forgetAfter": row["forget_after"],
        "forgetReason": row["forget_reason"], "metadata": _load(row["metadata"]),
        "createdAt": row["created_at"], "updatedAt": row["updated_at"],
        "spaceContainerTag": row["container_tag"],
    }


def document_dict(row: sqlite3.Row, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The Supermemory feed document dict for a ``documents`` row."""
    tag = row["container_tag"]
    return {
        "id": row["id"], "customId": row["custom_id"], "title": row["title"],
        "summary": row["summary"], "url": row["url"], "source": row["source"],
        "type": row["type"], "status": row["status"], "content": row["content"],
        "metadata": _load(row["metadata"]), "containerTags": [tag] if tag else [],
        "createdAt": row["created_at"], "updatedAt": row["updated_at"],
        "memoryEntries": entries,
    }


def space_dict(row: sqlite3.Row) -> dict[str, Any]:
    """The ``/v3/container-tags/list`` item for a space row with its two counts."""
    return {
        "id": row["id"], "name": row["name"], "containerTag": row["container_tag"],
        "description": row["description"], "emoji": row["emoji"],
        "createdAt": row["created_at"], "updatedAt": row["updated_at"],
        "documentCount": row["document_count"], "memoryCount": row["memory_count"],
    }


def relation_map(conn: sqlite3.Connection, ids: Iterable[str]) -> dict[str, dict[str, str]]:
    """``{memory_id: {other_id: relation}}`` for ``ids``, in insertion order."""
    out: dict[str, dict[str, str]] = {}
    id_list = list(dict.fromkeys(ids))
    for part in chunks(id_list):
        sql = ("SELECT memory_id, other_memory_id, relation FROM memory_relations "
               f"WHERE memory_id IN ({placeholders(len(part))}) ORDER BY rowid")
        for mem_id, other, rel in conn.execute(sql, part):
            out.setdefault(mem_id, {})[other] = rel
    return out


def entries_for(conn: sqlite3.Connection, rows: Sequence[sqlite3.Row]) -> list[dict[str, Any]]:
    """Memory-entry dicts for memory rows, relations included."""
    rels = relation_map(conn, [r["id"] for r in rows])
    return [memory_entry(r, rels.get(r["id"], {})) for r in rows]
