"""Ranked text search of the embedded store: SQLite FTS5 with BM25, or a LIKE fallback.

One FTS5 table ``search_index`` holds every memory's text and every document's title and
summary, tokenised with ``porter unicode61`` (so "travelling" finds "travel" and accents
do not matter). Triggers keep it in step with ``memories`` and ``documents`` inside the
writing transaction itself. Only :mod:`memscope.store.store` uses this module.

A question is reduced to its content words (:data:`memscope.records.words.STOP_WORDS`
dropped, unless nothing else is left); each word also matches as a prefix ("Lisb" finds
"Lisbon"). Ranking: BM25 (title counts twice as much as body text) times the share of
the question's words a text holds, squared (a text with all of them beats one that
repeats a single word), weighted by the memory's state — a static fact ×1.25, a
superseded version ×0.5, a forgotten memory ×0.4 — with memories listed before documents.
Without FTS5 (or when FTS5 finds nothing, e.g. a substring inside a run of CJK
characters) the same weights apply to "how many query words occur" (LIKE).

An index built by an older Memscope (another tokenizer, or no version mark) is dropped
and rebuilt from the tables when the store opens (:func:`install`).
"""

from __future__ import annotations

import sqlite3
from typing import Any

from memscope.records.words import STOP_WORDS, tokens
from memscope.store.schema import DOC_TAG_FILTER

FTS5 = "fts5"
LIKE = "like"
_META_KEY = "search_index"
#: what ``meta.search_index`` holds once the index matches this module (bump it whenever
#: the table or what goes into it changes: the index is then rebuilt on open)
INDEX_VERSION = "fts5 porter 1"
TOKENIZE = "porter unicode61 remove_diacritics 2"
_TABLE = "search_index"
_TRIGGERS = ("search_mem_ai", "search_mem_au", "search_mem_ad", "search_doc_ai",
             "search_doc_au", "search_doc_ad")
#: query words shorter than this match whole words only (no prefix)
PREFIX_MIN = 3
WEIGHTS = {"forgotten": 0.4, "superseded": 0.5, "static": 1.25}
#: A small thesaurus of everyday words people ask with but memories rarely use ("where is
#: Maya travelling?" — the memory says "flies to Lisbon"): a query word that starts with a
#: key also matches these words (whole words, stemmed), as one and the same query word.
RELATED: dict[str, tuple[str, ...]] = {
    "travel": ("trip", "flight", "flies", "journey", "holiday", "vacation", "itinerary"),
    "trip": ("travel", "flight", "flies", "journey"),
    "fly": ("flies", "flight", "trip"),
    "flight": ("flies", "trip"),
    "holiday": ("vacation", "trip"),
    "vacation": ("holiday", "trip"),
    "job": ("work", "role"),
}

FTS_SCHEMA = f"""
CREATE VIRTUAL TABLE IF NOT EXISTS {_TABLE} USING fts5(
    kind UNINDEXED, ref UNINDEXED, title, body, tokenize='{TOKENIZE}');
CREATE TRIGGER IF NOT EXISTS search_mem_ai AFTER INSERT ON memories BEGIN
    INSERT INTO {_TABLE} (kind, ref, title, body) VALUES ('memory', new.id, '', new.memory);
END;
CREATE TRIGGER IF NOT EXISTS search_mem_au AFTER UPDATE OF memory ON memories BEGIN
    DELETE FROM {_TABLE} WHERE kind = 'memory' AND ref = old.id;
    INSERT INTO {_TABLE} (kind, ref, title, body) VALUES ('memory', new.id, '', new.memory);
END;
CREATE TRIGGER IF NOT EXISTS search_mem_ad AFTER DELETE ON memories BEGIN
    DELETE FROM {_TABLE} WHERE kind = 'memory' AND ref = old.id;
END;
CREATE TRIGGER IF NOT EXISTS search_doc_ai AFTER INSERT ON documents BEGIN
    INSERT INTO {_TABLE} (kind, ref, title, body)
    VALUES ('document', new.id, COALESCE(new.title, ''), COALESCE(new.summary, ''));
END;
CREATE TRIGGER IF NOT EXISTS search_doc_au AFTER UPDATE OF title, summary ON documents BEGIN
    DELETE FROM {_TABLE} WHERE kind = 'document' AND ref = old.id;
    INSERT INTO {_TABLE} (kind, ref, title, body)
    VALUES ('document', new.id, COALESCE(new.title, ''), COALESCE(new.summary, ''));
END;
CREATE TRIGGER IF NOT EXISTS search_doc_ad AFTER DELETE ON documents BEGIN
    DELETE FROM {_TABLE} WHERE kind = 'document' AND ref = old.id;
END;
"""
_REBUILD = f"""
DELETE FROM {_TABLE};
INSERT INTO {_TABLE} (kind, ref, title, body) SELECT 'memory', id, '', memory FROM memories;
INSERT INTO {_TABLE} (kind, ref, title, body)
    SELECT 'document', id, COALESCE(title, ''), COALESCE(summary, '') FROM documents;
"""

#: one plain sentence on how results are ranked (shown), and the technical detail (for a
#: help tooltip): the screen never says "FTS5" or "BM25"
NOTES = {
    FTS5: "Best matches first; current memories rank above older versions and forgotten "
          "ones.",
    LIKE: "Texts holding more of your words first; current memories rank above older "
          "versions and forgotten ones.",
    "no_fts5": "Texts holding more of your words first; current memories rank above older "
               "versions and forgotten ones.",
}
DETAILS = {
    FTS5: "Ranked on this computer by SQLite FTS5 (BM25, Porter stemming, prefix matching, "
          "common words ignored) over memory text and document titles and summaries, "
          "weighted by the memory's state; memories first.",
    LIKE: "FTS5 found nothing (e.g. a word inside a run of CJK characters), so results are "
          "ranked by how many of the query's words each text contains (SQLite LIKE); "
          "memories first.",
    "no_fts5": "This Python's SQLite has no FTS5, so results are ranked by how many of the "
               "query's words each text contains (LIKE) instead of BM25.",
}


def fts5_available(conn: sqlite3.Connection) -> bool:
    """True when SQLite was compiled with FTS5 (``PRAGMA compile_options``)."""
    return any(row[0] == "ENABLE_FTS5" for row in conn.execute("PRAGMA compile_options"))


def install(conn: sqlite3.Connection) -> str:
    """Create (or repair) the index and its triggers; returns :data:`FTS5` or :data:`LIKE`.

    An index that is new, was left stale by a SQLite without FTS5, or was built by an older
    Memscope (another tokenizer or :data:`INDEX_VERSION`) is (re)built in one transaction;
    a table with another tokenizer is dropped first. Without FTS5 the triggers are dropped
    so that writes keep working.
    """
    if not fts5_available(conn):
        for name in _TRIGGERS:
            conn.execute(f"DROP TRIGGER IF EXISTS {name}")
        conn.execute("INSERT OR REPLACE INTO meta VALUES (?, 'stale')", (_META_KEY,))
        return LIKE
    if _in_place(conn):
        return FTS5  # the usual case: a read, no write lock
    conn.execute("BEGIN IMMEDIATE")
    try:
        if not _current_table(conn):
            for name in _TRIGGERS:
                conn.execute(f"DROP TRIGGER IF EXISTS {name}")
            conn.execute(f"DROP TABLE IF EXISTS {_TABLE}")
        for statement in _statements(FTS_SCHEMA):
            conn.execute(statement)
        state = conn.execute("SELECT value FROM meta WHERE key = ?", (_META_KEY,)).fetchone()
        if state is None or state[0] != INDEX_VERSION:
            for statement in _statements(_REBUILD):
                conn.execute(statement)
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                         (_META_KEY, INDEX_VERSION))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return FTS5


def _current_table(conn: sqlite3.Connection) -> bool:
    """True when the index table is missing or uses :data:`TOKENIZE` (kept as it is)."""
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (_TABLE,)).fetchone()
    return row is None or f"tokenize='{TOKENIZE}'" in (row[0] or "")


def _in_place(conn: sqlite3.Connection) -> bool:
    """True when the current index, all its triggers and the "in sync" mark exist."""
    names = {r[0] for r in conn.execute(
        "SELECT name FROM sqlite_master WHERE name IN (?, ?, ?, ?, ?, ?, ?)",
        (_TABLE, *_TRIGGERS))}
    state = conn.execute("SELECT value FROM meta WHERE key = ?", (_META_KEY,)).fetchone()
    return (names == {_TABLE, *_TRIGGERS} and state is not None
            and state[0] == INDEX_VERSION and _current_table(conn))


def _statements(script: str) -> list[str]:
    """Split a script into statements (trigger bodies kept whole)."""
    out, buf = [], ""
    for line in script.strip().splitlines():
        buf += line + "\n"
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    return out


def words(query: str) -> list[str]:
    """The query's distinct words, case-folded (at most 32).

    >>> words("Where is Maya travelling? Maya!")
    ['where', 'is', 'maya', 'travelling']
    """
    return list(dict.fromkeys(tokens(query)))[:32]


def key_words(query: str) -> list[str]:
    """The words searched for: :func:`words` without common words (all of them when the
    query holds nothing else).

    >>> key_words("Where is Maya travelling?"), key_words("who is it")
    (['maya', 'travelling'], ['who', 'is', 'it'])
    """
    terms = words(query)
    return [t for t in terms if t not in STOP_WORDS] or terms


def related(term: str) -> tuple[str, ...]:
    """The thesaurus words a query word also matches (:data:`RELATED`).

    >>> related("travelling"), related("maya")
    (('trip', 'flight', 'flies', 'journey', 'holiday', 'vacation', 'itinerary'), ())
    """
    for key, also in RELATED.items():
        if term.startswith(key):
            return tuple(w for w in also if w != term)
    return ()


def _term_expression(term: str) -> str:
    """One query word for FTS5 (words are ``\\w+`` runs: no quote can occur in them)."""
    own = f'"{term}" *' if len(term) >= PREFIX_MIN else f'"{term}"'
    also = [f'"{word}"' for word in related(term)]
    return "(" + " OR ".join([own, *also]) + ")" if also else own


def match_expression(terms: list[str], *, every: bool = False) -> str:
    """The FTS5 query: each term quoted, as a prefix when long enough (with its
    :func:`related` words as alternatives), joined by ``OR`` (``AND`` with ``every``).

    >>> match_expression(["maya", "to"])
    '"maya" * OR "to"'
    >>> match_expression(["flying", "maya"], every=True)
    '("flying" * OR "flies" OR "flight" OR "trip") AND "maya" *'
    """
    return (" AND " if every else " OR ").join(_term_expression(t) for t in terms)


def _weight(row: sqlite3.Row | None) -> float:
    if row is None:
        return 1.0
    weight = 1.0
    if row["is_forgotten"]:
        weight *= WEIGHTS["forgotten"]
    if not row["is_latest"]:
        weight *= WEIGHTS["superseded"]
    if row["is_static"]:
        weight *= WEIGHTS["static"]
    return weight


def _tag_filter(container_tag: str | None) -> tuple[str, list[Any]]:
    if not container_tag:
        return "", []
    doc_filter = DOC_TAG_FILTER.format(ph="?")
    sql = (" AND ((kind = 'memory' AND ref IN (SELECT id FROM memories WHERE "
           "container_tag = ?)) OR (kind = 'document' AND ref IN (SELECT d.id FROM "
           f"documents d WHERE {doc_filter})))")
    return sql, [container_tag, container_tag, container_tag]


def _candidates_fts(conn: sqlite3.Connection, terms: list[str], container_tag: str | None,
                    pool: int) -> list[tuple[str, str, float]]:
    """The best ``pool`` rows holding any term, plus the best holding every term; each
    BM25 score is multiplied by the squared share of the terms its row holds."""
    where, args = _tag_filter(container_tag)
    sql = (f"SELECT rowid, kind, ref, bm25({_TABLE}, 0.0, 0.0, 2.0, 1.0) AS rank "
           f"FROM {_TABLE} WHERE {_TABLE} MATCH ?{where} ORDER BY rank LIMIT ?")
    rows: dict[int, tuple[str, str, float]] = {}
    queries = [match_expression(terms)]
    if len(terms) > 1:
        queries.append(match_expression(terms, every=True))
    for match in queries:
        for r in conn.execute(sql, [match, *args, pool]):
            rows[r["rowid"]] = (r["kind"], r["ref"], -float(r["rank"]))
    if len(terms) > 1 and rows:
        held = {rowid: 0 for rowid in rows}
        ids = list(rows)
        marks = ", ".join("?" * len(ids))
        for term in terms:
            for (rowid,) in conn.execute(
                    f"SELECT rowid FROM {_TABLE} WHERE {_TABLE} MATCH ? AND rowid IN "
                    f"({marks})", [match_expression([term]), *ids]):
                held[rowid] += 1
        rows = {rowid: (kind, ref, score * (held[rowid] / len(terms)) ** 2)
                for rowid, (kind, ref, score) in rows.items()}
    return sorted(rows.values(), key=lambda f: -f[2])


def _candidates_like(conn: sqlite3.Connection, terms: list[str], container_tag: str | None,
                     pool: int) -> list[tuple[str, str, float]]:
    def like(column: str) -> tuple[str, list[str]]:
        parts = " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for _ in terms)
        return parts, [f"%{_escape(t)}%" for t in terms]

    mem_sql, mem_args = like("m.memory")
    title_sql, title_args = like("d.title")
    summary_sql, summary_args = like("d.summary")
    tag_mem = " AND m.container_tag = ?" if container_tag else ""
    tag_doc = (" AND " + DOC_TAG_FILTER.format(ph="?")) if container_tag else ""
    tags = [container_tag] if container_tag else []
    found: list[tuple[str, str, float]] = []
    for row in conn.execute(f"SELECT m.id, m.memory AS text FROM memories m WHERE "
                            f"({mem_sql}){tag_mem}", [*mem_args, *tags]):
        found.append(("memory", row["id"], _overlap(terms, row["text"])))
    for row in conn.execute(
            f"SELECT d.id, COALESCE(d.title, '') || ' ' || COALESCE(d.summary, '') AS text "
            f"FROM documents d WHERE ({title_sql} OR {summary_sql}){tag_doc}",
            [*title_args, *summary_args, *tags, *tags]):
        found.append(("document", row["id"], _overlap(terms, row["text"])))
    found = [f for f in found if f[2] > 0]
    found.sort(key=lambda f: -f[2])
    return found[:pool]


def _escape(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _overlap(terms: list[str], text: str) -> float:
    """Words found (1 each) plus a little for repeats."""
    low = (text or "").casefold()
    return sum(1.0 + 0.1 * (low.count(t) - 1) for t in terms if t in low)


def search(conn: sqlite3.Connection, query: str, *, limit: int = 10,
           container_tag: str | None = None, backend: str = FTS5) -> dict[str, Any]:
    """``{"hits": [...], "method": "fts5" | "like"}``; each hit is ``{"kind": "memory" |
    "document", "id", "text", "title", "containerTag", "score"}`` (higher is better)."""
    terms = key_words(query)
    limit = min(limit, 200)
    if not terms or limit < 1:
        return {"hits": [], "method": backend}
    pool = max(40, 4 * limit)
    method = backend
    found = _candidates_fts(conn, terms, container_tag, pool) if backend == FTS5 else []
    if not found:
        method = LIKE
        found = _candidates_like(conn, terms, container_tag, pool)
    hits = _details(conn, found)
    hits.sort(key=lambda h: (h["kind"] != "memory", -h["score"], h["id"]))
    return {"hits": hits[:limit], "method": method}


def _details(conn: sqlite3.Connection,
             found: list[tuple[str, str, float]]) -> list[dict[str, Any]]:
    mem_ids = [ref for kind, ref, _ in found if kind == "memory"]
    doc_ids = [ref for kind, ref, _ in found if kind == "document"]
    mems = {r["id"]: r for r in conn.execute(
        "SELECT id, memory, container_tag, is_latest, is_forgotten, is_static FROM memories "
        f"WHERE id IN ({', '.join('?' * len(mem_ids))})", mem_ids)} if mem_ids else {}
    docs = {r["id"]: r for r in conn.execute(
        "SELECT id, title, summary, container_tag FROM documents "
        f"WHERE id IN ({', '.join('?' * len(doc_ids))})", doc_ids)} if doc_ids else {}
    hits = []
    for kind, ref, score in found:
        if kind == "memory" and ref in mems:
            row = mems[ref]
            hits.append({"kind": kind, "id": ref, "text": row["memory"], "title": None,
                         "containerTag": row["container_tag"],
                         "score": _round(score * _weight(row))})
        elif kind == "document" and ref in docs:
            row = docs[ref]
            text = " — ".join(dict.fromkeys(t for t in (row["title"], row["summary"]) if t))
            hits.append({"kind": kind, "id": ref, "text": text, "title": row["title"],
                         "containerTag": row["container_tag"], "score": _round(score)})
    return hits


def _round(score: float) -> float:
    """Four significant digits (a tiny BM25 score in a small store keeps its order).

    >>> _round(3.14159265), _round(0.0000123456)
    (3.142, 1.235e-05)
    """
    return float(f"{score:.4g}")
