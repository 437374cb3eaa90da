"""Ranked local search of the embedded store: words (SQLite FTS5 with BM25, or a LIKE
fallback) fused with meaning (text embeddings, :mod:`memscope.store.vectors`).

One FTS5 table ``search_index`` holds every memory's text and every document's title and
summary, tokenised with ``porter unicode61`` (so "travelling" finds "travel" and accents
do not matter). Triggers keep it in step with ``memories`` and ``documents`` inside the
writing transaction itself. :mod:`memscope.store.store` uses this module, and
:mod:`memscope.sources.file_ask` over an in-memory copy of a loaded file.

Words: a question is reduced to its content words (:data:`memscope.records.words.STOP_WORDS`
dropped, unless nothing else is left); each word also matches as a prefix ("Lisb" finds
"Lisbon"). BM25 (title counts twice as much as body text) times the share of the
question's words a text holds, squared (a text with all of them beats one that repeats a
single word). Without FTS5 (or when FTS5 finds nothing, e.g. a substring inside a run of
CJK characters) "how many query words occur" (LIKE) ranks instead.

Meaning: the question's content words are embedded (WordLlama, offline) and compared with
the vectors of every text, computed once per data version; texts at a cosine of at least
``MEANING_FLOOR`` count (:mod:`memscope.store.fusion`). "Where is Maya travelling?" finds
"Maya flies to Lisbon" though no word is shared — no thesaurus is involved.

The two rankings are fused by reciprocal rank (:func:`memscope.store.fusion.fuse`), a
words hit counting by the squared share of the words it holds (a text that only shares a
name counts little), and the result is weighted by the memory's state — a static fact
×1.25, a superseded version ×0.5, a forgotten memory ×0.4 — with memories listed before
documents. ``mode`` gives either ranking alone, for ``bench/ask.py``.

An index built by an older Memscope (another tokenizer, or no version mark) is dropped
and rebuilt from the tables when the store opens (:func:`install`), which also starts
computing the vectors in the background.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from memscope.records.words import STOP_WORDS, tokens
from memscope.store import fusion, vectors
from memscope.store.fusion import round_score
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
#: what :func:`search` ranks by: both fused (the default), or one alone
HYBRID, WORDS, MEANING = "hybrid", "words", "meaning"
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
    FTS5: "Best matches first, by the words you used and by what they mean; current "
          "memories rank above older versions and forgotten ones.",
    LIKE: "Texts holding more of your words, or close to them in meaning, first; current "
          "memories rank above older versions and forgotten ones.",
    "no_fts5": "Texts holding more of your words, or close to them in meaning, first; "
               "current memories rank above older versions and forgotten ones.",
}
DETAILS = {
    FTS5: "Ranked on this computer: SQLite FTS5 (BM25, Porter stemming, prefix matching, "
          "common words ignored) over memory text and document titles and summaries, "
          "fused by reciprocal rank with the similarity of WordLlama text embeddings "
          "(offline), weighted by the memory's state; memories first.",
    LIKE: "FTS5 found nothing (e.g. a word inside a run of CJK characters), so the words "
          "are ranked by how many of the query's words each text contains (SQLite LIKE), "
          "fused with the similarity of WordLlama text embeddings (offline); memories "
          "first.",
    "no_fts5": "This Python's SQLite has no FTS5, so the words are ranked by how many of "
               "the query's words each text contains (LIKE) instead of BM25, fused with "
               "the similarity of WordLlama text embeddings (offline).",
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
    vectors.install(conn)  # the meaning half, in the background
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


def _term_expression(term: str) -> str:
    """One query word for FTS5 (words are ``\\w+`` runs: no quote can occur in them)."""
    return f'"{term}" *' if len(term) >= PREFIX_MIN else f'"{term}"'


def match_expression(terms: list[str], *, every: bool = False) -> str:
    """The FTS5 query: each term quoted, as a prefix when long enough, joined by ``OR``
    (``AND`` with ``every``).

    >>> match_expression(["maya", "to"])
    '"maya" * OR "to"'
    >>> match_expression(["flying", "maya"], every=True)
    '"flying" * AND "maya" *'
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


Found = tuple[str, str, float, float]  # kind, ref, score, share of the terms held


def _candidates_fts(conn: sqlite3.Connection, terms: list[str], container_tag: str | None,
                    pool: int) -> list[Found]:
    """The best ``pool`` rows holding any term, plus the best holding every term: BM25
    times the squared share of the terms each row holds, and that share."""
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
    held = {rowid: len(terms) for rowid in rows}
    if len(terms) > 1 and rows:
        held = dict.fromkeys(rows, 0)
        ids = list(rows)
        marks = ", ".join("?" * len(ids))
        for term in terms:
            for (rowid,) in conn.execute(
                    f"SELECT rowid FROM {_TABLE} WHERE {_TABLE} MATCH ? AND rowid IN "
                    f"({marks})", [match_expression([term]), *ids]):
                held[rowid] += 1
    found = [(kind, ref, score * (held[rowid] / len(terms)) ** 2, held[rowid] / len(terms))
             for rowid, (kind, ref, score) in rows.items()]
    return sorted(found, key=lambda f: -f[2])


def _candidates_like(conn: sqlite3.Connection, terms: list[str], container_tag: str | None,
                     pool: int) -> list[Found]:
    def like(column: str) -> tuple[str, list[str]]:
        parts = " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for _ in terms)
        return parts, [f"%{_escape(t)}%" for t in terms]

    mem_sql, mem_args = like("m.memory")
    title_sql, title_args = like("d.title")
    summary_sql, summary_args = like("d.summary")
    tag_mem = " AND m.container_tag = ?" if container_tag else ""
    tag_doc = (" AND " + DOC_TAG_FILTER.format(ph="?")) if container_tag else ""
    tags = [container_tag] if container_tag else []
    rows: list[tuple[str, str, str]] = [
        ("memory", row["id"], row["text"]) for row in conn.execute(
            f"SELECT m.id, m.memory AS text FROM memories m WHERE ({mem_sql}){tag_mem}",
            [*mem_args, *tags])]
    rows += [("document", row["id"], row["text"]) for row in conn.execute(
        f"SELECT d.id, COALESCE(d.title, '') || ' ' || COALESCE(d.summary, '') AS text "
        f"FROM documents d WHERE ({title_sql} OR {summary_sql}){tag_doc}",
        [*title_args, *summary_args, *tags, *tags])]
    found = []
    for kind, ref, text in rows:
        low = (text or "").casefold()
        held = sum(t in low for t in terms)
        if held:
            found.append((kind, ref, _overlap(terms, low), held / len(terms)))
    found.sort(key=lambda f: -f[2])
    return found[:pool]


def _escape(term: str) -> str:
    return term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _overlap(terms: list[str], text: str) -> float:
    """Words found (1 each) plus a little for repeats."""
    low = (text or "").casefold()
    return sum(1.0 + 0.1 * (low.count(t) - 1) for t in terms if t in low)


def search(conn: sqlite3.Connection, query: str, *, limit: int = 10,
           container_tag: str | None = None, backend: str = FTS5,
           mode: str = HYBRID) -> dict[str, Any]:
    """``{"hits": [...], "method": "fts5" | "like"}`` — the words' ranking used; each hit
    is ``{"kind": "memory" | "document", "id", "text", "title", "containerTag",
    "score"}`` (higher is better). ``mode``: :data:`HYBRID` (words and meaning fused),
    :data:`WORDS` (BM25 alone) or :data:`MEANING` (embeddings alone), for comparing."""
    terms = key_words(query)
    limit = min(limit, 200)
    if not terms or limit < 1:
        return {"hits": [], "method": backend}
    pool = max(40, 4 * limit)
    method = backend
    words_found: list[Found] = []
    if mode != MEANING:
        words_found = _candidates_fts(conn, terms, container_tag, pool) \
            if backend == FTS5 else []
        if not words_found:
            method = LIKE
            words_found = _candidates_like(conn, terms, container_tag, pool)
    meaning_found = fusion.nearest(conn, query, container_tag) if mode != WORDS else []
    keys = [(f[0], f[1]) for f in words_found] + [(f[0], f[1]) for f in meaning_found]
    rows = _rows(conn, keys)
    weight = {key: _weight(row) if key[0] == "memory" else 1.0
              for key, row in rows.items()}
    if mode == WORDS:
        scores = {(k, r): round_score(s * weight.get((k, r), 1.0)) for k, r, s, _ in words_found}
    elif mode == MEANING:
        scores = {(k, r): round_score(s * weight.get((k, r), 1.0)) for k, r, s in meaning_found}
    else:
        words_found = [(k, r, sc, fusion.subject_share(terms, rows[k, r], share))
                       if k == "memory" and (k, r) in rows else (k, r, sc, share)
                       for k, r, sc, share in words_found]
        scores = fusion.fuse(words_found, meaning_found, weight)
    hits = [_hit(key, rows[key], score) for key, score in scores.items() if key in rows]
    hits.sort(key=lambda h: (h["kind"] != "memory", -h["score"], h["id"]))
    return {"hits": hits[:limit], "method": method}


def _rows(conn: sqlite3.Connection, keys: list[tuple[str, str]]
          ) -> dict[tuple[str, str], sqlite3.Row]:
    """The memory and document rows named in ``keys`` (those that still exist)."""
    mem_ids = list(dict.fromkeys(ref for kind, ref in keys if kind == "memory"))
    doc_ids = list(dict.fromkeys(ref for kind, ref in keys if kind == "document"))
    out: dict[tuple[str, str], sqlite3.Row] = {}
    if mem_ids:
        out.update((("memory", r["id"]), r) for r in conn.execute(
            "SELECT id, memory, container_tag, is_latest, is_forgotten, is_static FROM "
            f"memories WHERE id IN ({', '.join('?' * len(mem_ids))})", mem_ids))
    if doc_ids:
        out.update((("document", r["id"]), r) for r in conn.execute(
            "SELECT id, title, summary, container_tag FROM documents "
            f"WHERE id IN ({', '.join('?' * len(doc_ids))})", doc_ids))
    return out


def _hit(key: tuple[str, str], row: sqlite3.Row, score: float) -> dict[str, Any]:
    kind, ref = key
    if kind == "memory":
        return {"kind": kind, "id": ref, "text": row["memory"], "title": None,
                "containerTag": row["container_tag"], "score": score}
    text = " — ".join(dict.fromkeys(t for t in (row["title"], row["summary"]) if t))
    return {"kind": kind, "id": ref, "text": text, "title": row["title"],
            "containerTag": row["container_tag"], "score": score}
