"""Local Ask over loaded records (snapshot files, a mem0 ``history.db``): the embedded
store's hybrid search — words (SQLite FTS5 with BM25, or LIKE) fused with meaning
(WordLlama embeddings) by reciprocal rank — run on the records a file source loaded.

:class:`AskIndex` copies one dataset's memory texts (with their state: latest, forgotten,
static) and document titles and summaries into an in-memory SQLite database shaped like
the embedded store's tables, so :func:`memscope.store.search.search` ranks them with the
very same code: the same tokenizer, BM25 weights, key words, possessive rule, fusion
constants and state weights. The index is built once per loaded data version, on the
first question, and kept with the source (:class:`KeptAsk`); its vectors are embedded
once, on that first question, by :func:`memscope.store.vectors.current`, which keeps
them in the process under a digest of the records (:func:`content_uid`: a second session
on the same data reuses them; the process holds the :data:`memscope.store.vectors.HOLD`
most recently used sets). Nothing is written to disk and nothing is fetched.

>>> from memscope.records.dataset import Dataset
>>> from memscope.records.models import MemoryRecord
>>> ds = Dataset()
>>> ds.add_memory(MemoryRecord("m1", "Maya flies to Lisbon on Friday.", container_tag="p"),
...               None)
>>> ds.add_memory(MemoryRecord("m2", "The Atlas project uses Postgres.", container_tag="p"),
...               None)
>>> index = AskIndex(ds)
>>> [h.id for h in index.search("Where is Maya travelling?").hits]
['m1']
>>> [h.id for h in index.search("Atlas", container_tag="elsewhere").hits]
[]
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
from typing import Any

from memscope.meaning.embed import EmbedderUnavailable
from memscope.records.dataset import Dataset
from memscope.sources.results import LoadResult, SearchHit, SearchResult
from memscope.store import search as store_search
from memscope.store import vectors

#: the embedded store's columns that the search reads, and nothing else
_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE memories (id TEXT PRIMARY KEY, memory TEXT NOT NULL, container_tag TEXT,
    is_latest INTEGER NOT NULL, is_forgotten INTEGER NOT NULL, is_static INTEGER NOT NULL);
CREATE TABLE documents (id TEXT PRIMARY KEY, title TEXT, summary TEXT, container_tag TEXT);
CREATE TABLE document_memories (document_id TEXT NOT NULL, memory_id TEXT NOT NULL);
"""


def _rows(ds: Dataset) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]],
                                 list[tuple[str, str]]]:
    memories = [(m.id, m.memory or "", m.space, int(m.is_latest), int(m.is_forgotten),
                 int(m.is_static)) for m in ds.memories.values()]
    documents = [(d.id, d.title, d.summary) for d in ds.documents.values()]
    links = [(d.id, m) for d in ds.documents.values() for m in dict.fromkeys(d.memory_ids)
             if m in ds.memories]
    return memories, documents, links


def content_uid(*parts: list[Any]) -> str:
    """A name for what the index holds (letters and digits): the digest of its rows, so
    that the same records share their vectors and other records never do.

    >>> content_uid([("m1", "a")]) == content_uid([("m1", "a")]) != content_uid([("m1", "b")])
    True
    """
    digest = hashlib.blake2b(digest_size=12)
    for part in parts:
        for row in part:
            digest.update(repr(row).encode("utf-8", "surrogatepass") + b"\0")
        digest.update(b"\1")
    return "file" + digest.hexdigest()


def _connect(ds: Dataset) -> tuple[sqlite3.Connection, str]:
    """An in-memory database holding ``ds``'s texts and the search index over them;
    returns it and the words' backend (``fts5`` or ``like``)."""
    memories, documents, links = _rows(ds)
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.executescript(_TABLES)
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO meta VALUES (?, ?)",
                     [("store_uid", content_uid(memories, documents, links)),
                      ("data_version", "1")])
    conn.executemany("INSERT OR IGNORE INTO memories VALUES (?, ?, ?, ?, ?, ?)", memories)
    conn.executemany("INSERT OR IGNORE INTO documents VALUES (?, ?, ?, NULL)", documents)
    conn.executemany("INSERT INTO document_memories VALUES (?, ?)", links)
    conn.execute("COMMIT")
    return conn, store_search.install(conn)


class AskIndex:
    """The words and meaning index of one dataset. Thread-safe: one question at a time."""

    def __init__(self, dataset: Dataset) -> None:
        self.dataset = dataset
        self._lock = threading.Lock()
        self._conn, self.backend = _connect(dataset)
        self._embedded = False

    def _vectors(self) -> None:
        """Embed every text once (on the first question), so that later questions only
        embed themselves; without the model, Ask ranks by words alone (logged once)."""
        if not self._embedded:
            self._embedded = True
            # without the model, memscope.store.fusion.nearest logs it and ranks by words
            with contextlib.suppress(EmbedderUnavailable):
                vectors.current(self._conn)

    def search(self, query: str, *, container_tag: str | None = None, limit: int = 10,
               mode: str = store_search.HYBRID) -> SearchResult:
        """Memory hits first, then document hits (as ``chunk`` hits naming their
        document), ranked as the embedded store ranks; ``note`` says in plain words how,
        ``detail`` names the technique. ``mode`` as in :func:`memscope.store.search.search`."""
        with self._lock:
            if mode != store_search.WORDS:
                self._vectors()
            found = store_search.search(self._conn, query, limit=limit,
                                        container_tag=container_tag, backend=self.backend,
                                        mode=mode)
        note_key = "no_fts5" if self.backend != store_search.FTS5 else found["method"]
        memories = self.dataset.memories
        hits = []
        for raw in found["hits"]:
            if raw["kind"] == "memory":
                hits.append(SearchHit("memory", raw["text"], raw["id"], raw["score"],
                                      memories.get(raw["id"]), raw))
            else:
                hits.append(SearchHit("chunk", raw["text"], raw["id"], raw["score"], raw=raw,
                                      document_ids=[raw["id"]]))
        return SearchResult(hits, len(hits), note=store_search.NOTES[note_key],
                            detail=store_search.DETAILS[note_key])

    def close(self) -> None:
        """Release the in-memory database."""
        with self._lock:
            self._conn.close()


class KeptAsk:
    """A source's :class:`AskIndex`, built on the first question about a load and kept
    until the source loads other data (a refresh gives a new dataset) or closes."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._index: AskIndex | None = None

    def search(self, result: LoadResult, query: str, **kwargs: Any) -> SearchResult:
        """:meth:`AskIndex.search` over ``result``'s dataset, under this object's lock:
        a :meth:`close` or another load's index (from another thread: a recall run's
        worker, a rerun) waits for the question in flight instead of closing its
        database under it. (The index answers one question at a time anyway.)"""
        with self._lock:
            return self._held(result).search(query, **kwargs)

    def index(self, result: LoadResult) -> AskIndex:
        """The index of ``result``'s dataset (built now if it is not the one kept)."""
        with self._lock:
            return self._held(result)

    def _held(self, result: LoadResult) -> AskIndex:
        """The kept index, replaced by one of ``result``'s dataset if it is another's
        (the caller holds the lock)."""
        held = self._index
        if held is None or held.dataset is not result.dataset:
            if held is not None:
                held.close()
            held = self._index = AskIndex(result.dataset)
        return held

    def close(self) -> None:
        """Drop the kept index (idempotent)."""
        with self._lock:
            if self._index is not None:
                self._index.close()
                self._index = None


__all__ = ["AskIndex", "KeptAsk", "content_uid"]
