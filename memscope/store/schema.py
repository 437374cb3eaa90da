"""SQLite schema of the embedded store and the row <-> Supermemory-shape converters.

Only :mod:`memscope.store.store` uses this module. Times are ISO-8601 UTC strings ending in
``Z``; JSON columns hold ``json.dumps`` text or NULL; booleans are 0/1 integers.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

#: The version of the memory tables below. The ledger (and the layout cache) are not
#: here: :mod:`memscope.storage.migrations` creates and migrates them (Alembic), in the
#: same file — version 2 of this schema is the ledger with ``scope``, their revision 0001.
SCHEMA_VERSION = 2

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


DOC_TAG_FILTER = (
    "(d.container_tag IN ({ph}) OR EXISTS (SELECT 1 FROM document_memories f "
    "JOIN memories fm ON fm.id = f.memory_id WHERE f.document_id = d.id "
    "AND fm.container_tag IN ({ph})))")
HISTORY_SQL = f"""
WITH RECURSIVE up(id, parent) AS (
    SELECT id, parent_memory_id FROM memories WHERE id = ?
    UNION
    SELECT m.id, m.parent_memory_id FROM memories m JOIN up ON m.id = up.parent
), chain(id) AS (
    SELECT id FROM up
    UNION
    SELECT m.id FROM memories m JOIN chain ON m.parent_memory_id = chain.id
)
SELECT {MEMORY_SELECT} FROM memories m WHERE m.id IN (SELECT id FROM chain)
ORDER BY m.created_at, m.id"""


def migrate(conn: sqlite3.Connection) -> int:
    """Record :data:`SCHEMA_VERSION` (call inside a write transaction, after
    :data:`SCHEMA`); returns the version it found (0 = a new file). The memory tables have
    not changed since version 1; the ledger's own migrations run separately."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    found = int(row[0]) if row is not None else 0
    if found < SCHEMA_VERSION:
        conn.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)",
                     (str(SCHEMA_VERSION),))
    return found


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


def prepare_records(documents: Iterable[Mapping[str, Any]]) -> tuple[
        list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[str, str, int]],
        list[tuple[str, str, str]], dict[str, str | None]]:
    """Rows for documents, memories (first occurrence wins), document-memory links and
    relations, plus ``{container_tag: space id seen}`` for every tag in the data."""
    doc_rows, mem_rows, links, rels, seen_tags = [], [], [], [], {}
    known: set[str] = set()
    for doc in documents:
        entries = doc.get("memoryEntries") or doc.get("memories") or []
        tags = doc.get("containerTags") or []
        tag = (tags[0] if tags else doc.get("containerTag")) or next(
            (e.get("spaceContainerTag") for e in entries if e.get("spaceContainerTag")),
            None)
        doc_rows.append(document_row(doc, tag))
        if tag:
            seen_tags.setdefault(tag, None)
        linked: set[str] = set()
        for entry in entries:
            mem_id = entry["id"]
            if mem_id not in known:
                known.add(mem_id)
                mem_rows.append(memory_row(entry, tag))
                rels.extend((mem_id, other, kind) for other, kind
                            in (entry.get("memoryRelations") or {}).items())
                mtag = entry.get("spaceContainerTag") or tag
                if mtag and seen_tags.get(mtag) is None:
                    seen_tags[mtag] = entry.get("spaceId")
            if mem_id not in linked:
                linked.add(mem_id)
                links.append((doc["id"], mem_id, len(linked) - 1))
    return doc_rows, mem_rows, links, rels, seen_tags


def insert_profiles(conn: sqlite3.Connection,
                    profiles: Mapping[str, Mapping[str, Any]]) -> int:
    """Insert profile lines (strings or ``{"text", "memoryIds"}``); returns how many."""
    next_id = conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM profile_lines").fetchone()[0]
    lines, cites = [], []
    for tag, profile in profiles.items():
        for kind in ("static", "dynamic"):
            for pos, line in enumerate((profile or {}).get(kind) or []):
                text = line if isinstance(line, str) else line.get("text") or ""
                ids = [] if isinstance(line, str) else line.get("memoryIds") or []
                lines.append((next_id, tag, kind, pos, text))
                cites.extend((next_id, m) for m in dict.fromkeys(ids))
                next_id += 1
    conn.executemany("INSERT INTO profile_lines VALUES (?, ?, ?, ?, ?)", lines)
    conn.executemany("INSERT INTO profile_line_memories VALUES (?, ?)", cites)
    return len(lines)


def attach_memories(conn: sqlite3.Connection, rows: Sequence[sqlite3.Row],
                    tags: Sequence[str]) -> list[dict[str, Any]]:
    """Feed documents for ``documents`` rows with their memory entries (of ``tags`` only
    when given)."""
    by_doc: dict[str, list[sqlite3.Row]] = {r["id"]: [] for r in rows}
    tag_filter = f" AND m.container_tag IN ({placeholders(len(tags))})" if tags else ""
    for part in chunks(list(by_doc)):
        sql = (f"SELECT dm.document_id AS doc_id, {MEMORY_SELECT} FROM document_memories"
               f" dm JOIN memories m ON m.id = dm.memory_id WHERE dm.document_id IN "
               f"({placeholders(len(part))}){tag_filter} "
               "ORDER BY dm.document_id, dm.position")
        for row in conn.execute(sql, [*part, *tags]):
            by_doc[row["doc_id"]].append(row)
    rels = relation_map(conn, (m["id"] for ms in by_doc.values() for m in ms))
    return [document_dict(r, [memory_entry(m, rels.get(m["id"], {})) for m in by_doc[r["id"]]])
            for r in rows]


def space_plan(conn: sqlite3.Connection, container_tag: str) -> dict[str, Any] | None:
    """What forget-all of one space would touch (``_rows`` = the memory rows to forget);
    ``None`` when the space is unknown."""
    known = conn.execute("SELECT EXISTS (SELECT 1 FROM spaces WHERE container_tag = ?) OR "
                         "EXISTS (SELECT 1 FROM memories WHERE container_tag = ?)",
                         (container_tag, container_tag)).fetchone()[0]
    if not known:
        return None
    rows = conn.execute("SELECT id, memory, is_forgotten FROM memories WHERE "
                        "container_tag = ? ORDER BY created_at, id",
                        (container_tag,)).fetchall()
    todo = [r for r in rows if not r["is_forgotten"]]
    ids = [r["id"] for r in todo]
    docs: set[str] = set()
    for part in chunks(ids):
        docs.update(r[0] for r in conn.execute(
            "SELECT DISTINCT document_id FROM document_memories WHERE memory_id IN "
            f"({placeholders(len(part))})", list(part)))
    return {"containerTag": container_tag, "memoryCount": len(ids),
            "documentCount": len(docs), "memoryIds": ids,
            "alreadyForgotten": len(rows) - len(ids), "_rows": todo}


def read_profile(conn: sqlite3.Connection, container_tag: str) -> dict[str, list[dict[str, Any]]]:
    """The profile lines of one space with the ids of the memories each line cites."""
    out: dict[str, list[dict[str, Any]]] = {"static": [], "dynamic": []}
    lines = conn.execute("SELECT id, kind, text FROM profile_lines WHERE container_tag = ? "
                         "ORDER BY kind, position, id", (container_tag,)).fetchall()
    cites: dict[int, list[str]] = {}
    for line_id, mem_id in conn.execute(
            "SELECT c.line_id, c.memory_id FROM profile_line_memories c JOIN profile_lines p "
            "ON p.id = c.line_id WHERE p.container_tag = ? ORDER BY c.rowid", (container_tag,)):
        cites.setdefault(line_id, []).append(mem_id)
    for line in lines:
        out[line["kind"]].append({"text": line["text"], "memoryIds": cites.get(line["id"], [])})
    return out
