"""Every page of the document feed in one read: what the embedded source's load reads.

:meth:`~memscope.store.store.Store.list_documents` answers one page of
``POST /v3/documents/documents``, any page, so it skips to it with ``OFFSET``, counts the
documents again and looks each page's memories up by id. Reading every page that way
costs more per page the bigger the store (each page opens its own connection, so every
lookup starts from a cold cache; the skip walks all earlier pages). :func:`feed_pages`
gives the same pages in one read transaction (one WAL snapshot: a write while it reads
changes nothing it yields):

- the total counted once;
- the documents by keyset — each page starts after the last ``(sort key, id)`` of the
  page before, on the sort's index, so every page costs the same;
- the memories (with how many documents list each), their links to documents and their
  relations each read in one sequential scan, before the first page, and joined in
  Python.

Only :mod:`memscope.store.store` uses this module.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

from memscope.store import schema as sch

#: the memory rows with their source counts (one grouped scan of the links, not one
#: count per memory)
_MEMORIES = (
    f"SELECT {', '.join(f'm.{c}' for c in sch.MEMORY_COLUMNS)}, COALESCE(c.n, 0) AS "
    "source_count FROM memories m LEFT JOIN (SELECT memory_id, COUNT(*) AS n FROM "
    "document_memories GROUP BY memory_id) c ON c.memory_id = m.id")


def _memories(conn: sqlite3.Connection, tags: Sequence[str]) -> dict[str, sqlite3.Row]:
    """Every memory row (of ``tags`` only, when given) by id."""
    where = f" WHERE m.container_tag IN ({sch.placeholders(len(tags))})" if tags else ""
    return {row["id"]: row for row in conn.execute(_MEMORIES + where, list(tags))}


def _links(conn: sqlite3.Connection, known: dict[str, sqlite3.Row]
           ) -> dict[str, list[str]]:
    """Each document's memory ids in their listed order (only memories in ``known``)."""
    by_doc: dict[str, list[tuple[int, str]]] = {}
    for doc_id, mem_id, position in conn.execute(
            "SELECT document_id, memory_id, position FROM document_memories"):
        if mem_id in known:
            by_doc.setdefault(doc_id, []).append((position, mem_id))
    return {doc: [m for _, m in sorted(pairs)] for doc, pairs in by_doc.items()}


def _relations(conn: sqlite3.Connection, known: dict[str, sqlite3.Row]
               ) -> dict[str, dict[str, str]]:
    """``{memory id: {other id: relation}}`` in insertion order (as
    :func:`~memscope.store.schema.relation_map`), for memories in ``known``."""
    out: dict[str, dict[str, str]] = {}
    for mem_id, other, relation in conn.execute(
            "SELECT memory_id, other_memory_id, relation FROM memory_relations ORDER BY rowid"):
        if mem_id in known:
            out.setdefault(mem_id, {})[other] = relation
    return out


def feed_pages(conn: sqlite3.Connection, tags: Sequence[str], column: str, direction: str,
               limit: int) -> Iterator[dict[str, Any]]:
    """The pages ``list_documents(1 …, limit, tags, …)`` would answer, in order, read in
    ``conn``'s open read transaction: ``column`` is the sort's column (``created_at`` or
    ``updated_at``), ``direction`` ``ASC`` or ``DESC`` (ties by id, the same way). At
    least one page, empty when nothing matches."""
    tag_filter = sch.DOC_TAG_FILTER.format(ph=sch.placeholders(len(tags))) if tags else ""
    tag_args = [*tags, *tags]
    where = f"WHERE {tag_filter}" if tags else ""
    total = conn.execute(f"SELECT COUNT(*) FROM documents d {where}",
                         tag_args if tags else []).fetchone()[0]
    pages = math.ceil(total / limit)
    memories = _memories(conn, tags)
    links, relations = _links(conn, memories), _relations(conn, memories)
    after = ">" if direction == "ASC" else "<"
    order = f"ORDER BY d.{column} {direction}, d.id {direction} LIMIT ?"
    last: tuple[str, str] | None = None
    for page in range(1, max(1, pages) + 1):
        conds, args = ([tag_filter], list(tag_args)) if tags else ([], [])
        if last is not None:
            conds.append(f"(d.{column}, d.id) {after} (?, ?)")
            args += last
        sql = (f"SELECT d.* FROM documents d {'WHERE ' if conds else ''}"
               f"{' AND '.join(conds)} {order}")
        rows = conn.execute(sql, [*args, limit]).fetchall()
        docs = [sch.document_dict(r, [sch.memory_entry(memories[m], relations.get(m, {}))
                                      for m in links.get(r["id"], ())]) for r in rows]
        yield {"documents": docs,
               "pagination": {"currentPage": page, "limit": limit, "totalItems": total,
                              "totalPages": pages}}
        if not rows:
            return
        last = (rows[-1][column], rows[-1]["id"])
