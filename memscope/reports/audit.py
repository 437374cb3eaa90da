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
    "dangling_parent": "Earlier version not loaded",
    "dangling_relation": "Relation to something not loaded",
    "cycle": "Versions that loop back on themselves",
    "branch": "Branches (a version with several later versions)",
    "multiple_latest": "More than one latest version in a chain",
    "forgotten_latest": "Forgotten but still marked latest",
    "version_repair": "Version numbers renumbered",
    "updates_contradicts_parent": "An update link disagrees with the earlier version",
    "expired_not_forgotten": "Past its forget-after date but still kept",
    "unknown_relation": "Relation of an unknown kind (read as an update)",
    "duplicate_memory": "One memory that arrived twice, different each time",
    "orphan_memory": "Memory without a loaded document",
}

#: what each finding kind means, in a sentence a reader without the internals follows
FINDING_EXPLAINED = {
    "dangling_parent": "A memory names an earlier version that is not in what was loaded, "
                       "so its history starts part-way.",
    "dangling_relation": "A relation points at a memory or document that is not in what "
                         "was loaded.",
    "cycle": "Following a memory's earlier versions comes back to where it started, so "
             "there is no first version.",
    "branch": "One version was updated twice, in two different ways: the history forks.",
    "multiple_latest": "Several versions of one memory are each marked as the current one.",
    "forgotten_latest": "A memory was forgotten but is still marked as its current version.",
    "version_repair": "Version numbers were missing or out of order; they were renumbered "
                      "by date.",
    "updates_contradicts_parent": "An 'updates' link and the memory's earlier-version "
                                  "pointer disagree about what came before.",
    "expired_not_forgotten": "A memory's forget-after date has passed, but it is still "
                             "kept.",
    "unknown_relation": "A relation of a kind Memscope does not know; it is read as an "
                        "update.",
    "duplicate_memory": "The same memory id arrived twice with different contents.",
    "orphan_memory": "A memory whose document is not in what was loaded.",
}

#: the finding kinds grouped for the Audit page, each group under a plain heading
FINDING_GROUPS = (
    ("Version history", ("cycle", "branch", "multiple_latest", "forgotten_latest",
                         "version_repair", "updates_contradicts_parent")),
    ("Something referred to but not loaded", ("dangling_parent", "dangling_relation",
                                              "orphan_memory")),
    ("Data to tidy", ("expired_not_forgotten", "duplicate_memory", "unknown_relation")),
)


def findings_present(groups: dict[str, list[Finding]]
                     ) -> list[tuple[str, list[tuple[str, list[Finding]]]]]:
    """The groups of :data:`FINDING_GROUPS` that have findings, each with its kinds that
    have some (in that order); a kind in no group goes last under "Other"."""
    grouped = {k for _, kinds in FINDING_GROUPS for k in kinds}
    rest = tuple(k for k in groups if k not in grouped)
    out = []
    for heading, kinds in (*FINDING_GROUPS, ("Other", rest)):
        present = [(k, groups[k]) for k in kinds if groups.get(k)]
        if present:
            out.append((heading, present))
    return out


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
