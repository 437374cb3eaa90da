"""The audit views as plain data: findings by kind, the chains table, the expiry queue.

Example::

    >>> from datetime import UTC, datetime
    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": "a", "memory": "v1", "isLatest": False},
    ...     {"id": "b", "memory": "v2", "parentMemoryId": "a"}]}]}])
    >>> chains_table(analyse(ds))[["root", "latest", "length"]].values.tolist()
    [['a', 'b', 2]]
"""

from __future__ import annotations

from collections.abc import Collection

import pandas as pd

from memscope.graph.analysis import Analysis
from memscope.graph.chains import Chain
from memscope.graph.findings import FINDING_KINDS, Finding
from memscope.records.text import one_line, shorten

#: one line per finding kind, for headings
FINDING_TITLES = {
    "dangling_parent": "Parent not loaded",
    "dangling_relation": "Relation to something not loaded",
    "cycle": "Parent pointers form a cycle",
    "branch": "Branches (a version with several later versions)",
    "multiple_latest": "More than one latest version in a chain",
    "forgotten_latest": "Forgotten but still marked latest",
    "version_repair": "Version numbers repaired",
    "updates_contradicts_parent": "'updates' relation contradicts the parent pointer",
    "expired_not_forgotten": "Past forgetAfter but not forgotten",
    "unknown_relation": "Unknown relation type (read as 'updates')",
    "duplicate_memory": "Same memory id with different values",
    "orphan_memory": "Memory without a loaded document",
}

CHAIN_COLUMNS = ["root", "latest", "length", "branches", "forgotten", "first", "last",
                 "incomplete", "cycle", "text"]
EXPIRY_COLUMNS = ["id", "memory", "space", "forget after", "state", "expired", "days left"]


def findings_by_kind(analysis: Analysis, visible: Collection[str] | None = None
                     ) -> dict[str, list[Finding]]:
    """Every finding kind of graph-semantics.md, in :data:`FINDING_KINDS` order, with its
    findings (an empty list for a kind with none). With ``visible``, only findings that
    involve at least one visible node."""
    out: dict[str, list[Finding]] = {kind: [] for kind in FINDING_KINDS}
    shown = None if visible is None else set(visible)
    for finding in analysis.findings:
        if shown is None or any(n in shown for n in finding.nodes):
            out.setdefault(finding.kind, []).append(finding)
    return out


def chains_table(analysis: Analysis, visible: Collection[str] | None = None) -> pd.DataFrame:
    """One row per version chain, for a sortable table.

    ``latest`` lists the ids marked latest and not forgotten (comma-separated),
    ``branches`` counts versions with two or more later versions, ``forgotten`` counts
    forgotten versions, ``first``/``last`` are the earliest and latest ``createdAt``,
    ``text`` is the text of the newest latest version (else of the last entry). With
    ``visible``, only chains with at least one visible member.
    """
    shown = None if visible is None else set(visible)
    rows = []
    for chain in analysis.chains.chains:
        if shown is not None and not any(e.id in shown for e in chain.entries):
            continue
        latest = chain.latest_ids
        created = [e.created_at for e in chain.entries if e.created_at is not None]
        rows.append({
            "root": chain.root,
            "latest": ", ".join(latest),
            "length": len(chain.entries),
            "branches": len(chain.branches),
            "forgotten": sum(1 for e in chain.entries if e.is_forgotten),
            "first": min(created) if created else None,
            "last": max(created) if created else None,
            "incomplete": chain.incomplete,
            "cycle": bool(chain.cycle),
            "text": _newest_text(chain),
        })
    frame = pd.DataFrame(rows, columns=CHAIN_COLUMNS)
    for col in ("first", "last"):
        frame[col] = pd.to_datetime(frame[col], utc=True)
    return frame


def _newest_text(chain: Chain) -> str:
    """The text of the chain's newest latest version, else of its last entry."""
    latest = chain.latest_ids
    entry = chain.entry(latest[-1]) if latest else None
    return (entry or chain.entries[-1]).text


def expiry_queue(analysis: Analysis, visible: Collection[str] | None = None) -> pd.DataFrame:
    """Memories with a ``forgetAfter``, soonest first (then by id).

    ``state`` is the memory state at ``analysis.now``; ``expired`` is True when
    ``forgetAfter`` ≤ now (forgotten or not); ``days left`` is negative once it passed.

    >>> from datetime import UTC, datetime
    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": "m", "memory": "x", "forgetAfter": "2026-01-02T12:00:00Z"}]}]}])
    >>> queue = expiry_queue(analyse(ds, datetime(2026, 1, 1, tzinfo=UTC)))
    >>> queue[["id", "state", "expired", "days left"]].values.tolist()
    [['m', 'expiring', False, 1.5]]
    """
    shown = None if visible is None else set(visible)
    now = analysis.now
    items = [(m.forget_after, m_id, m) for m_id, m in analysis.dataset.memories.items()
             if m.forget_after is not None and (shown is None or m_id in shown)]
    items.sort(key=lambda t: (t[0], t[1]))
    rows = [{
        "id": m_id,
        "memory": mem.memory,
        "space": mem.space,
        "forget after": due,
        "state": analysis.state(m_id),
        "expired": due <= now,
        "days left": round((due - now).total_seconds() / 86400, 1),
    } for due, m_id, mem in items]
    frame = pd.DataFrame(rows, columns=EXPIRY_COLUMNS)
    frame["forget after"] = pd.to_datetime(frame["forget after"], utc=True)
    return frame


def chain_versions(analysis: Analysis, memory_id: str) -> list[tuple[str, str]]:
    """``(id, label)`` of every version in the chain of ``memory_id``, in chain order,
    for picking two versions to diff; empty for a memory without versions."""
    chain = analysis.chains.of(memory_id)
    if chain is None:
        return []
    return [(e.id, f"v{e.version} · {e.id}" + (" (latest)" if e.is_latest else ""))
            for e in chain.entries]


VERSION_COLUMNS = ["version", "id", "latest", "forgotten", "created", "text"]
#: versions per page of a chain's versions table
VERSION_PAGE = 100
#: characters of a version's text in that table
TEXT_MAX = 300


def version_pages(analysis: Analysis, memory_id: str, page_size: int = VERSION_PAGE) -> int:
    """How many pages of ``page_size`` versions the chain of ``memory_id`` fills (0 for
    a memory without versions)."""
    chain = analysis.chains.of(memory_id)
    return 0 if chain is None else -(-len(chain.entries) // page_size)


def chain_versions_page(analysis: Analysis, memory_id: str, page: int = 0,
                        page_size: int = VERSION_PAGE) -> pd.DataFrame:
    """Page ``page`` (from 0) of the versions of the chain of ``memory_id``, in chain
    order, ``page_size`` rows at most: a 20,000-version chain is never one table.

    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": f"v{i}", "memory": f"t{i}", "parentMemoryId": f"v{i - 1}" if i else None}
    ...     for i in range(5)]}]}])
    >>> chain_versions_page(analyse(ds), "v0", 1, 2)[["version", "id"]].values.tolist()
    [[3, 'v2'], [4, 'v3']]
    """
    chain = analysis.chains.of(memory_id)
    entries = [] if chain is None else chain.entries[page * page_size:(page + 1) * page_size]
    frame = pd.DataFrame([{
        "version": e.version, "id": e.id, "latest": e.is_latest, "forgotten": e.is_forgotten,
        "created": e.created_at, "text": shorten(one_line(e.text), TEXT_MAX)}
        for e in entries], columns=VERSION_COLUMNS)
    frame["created"] = pd.to_datetime(frame["created"], utc=True)
    return frame
