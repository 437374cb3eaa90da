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
from datetime import datetime

import pandas as pd

from memscope.graph.analysis import Analysis
from memscope.graph.chains import Chain
from memscope.graph.findings import FINDING_KINDS, Finding
from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord
from memscope.records.text import clip, counted, one_line, shorten

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
    "believed_after_true": "Believed after it stopped being true",
    "retired_alone": "No longer true or believed, with nothing newer",
    "clocks_out_of_order": "Clocks out of order",
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
    "believed_after_true": "The memory went on believing a fact for more than a day after "
                           "it stopped being true in the world.",
    "retired_alone": "A fact stopped being true, or the memory stopped believing it, but no "
                     "newer version of it is linked: what replaced it, if anything, is not "
                     "known.",
    "clocks_out_of_order": "A fact ends before it begins: it stopped being true before it "
                           "became true, or was retired before it was learnt.",
}

#: the finding kinds grouped for the Audit page, each group under a plain heading
FINDING_GROUPS = (
    ("Version history", ("cycle", "branch", "multiple_latest", "forgotten_latest",
                         "version_repair", "updates_contradicts_parent")),
    ("Something referred to but not loaded", ("dangling_parent", "dangling_relation",
                                              "orphan_memory")),
    ("Data to tidy", ("expired_not_forgotten", "duplicate_memory", "unknown_relation")),
    ("The two clocks of a fact (when it was true, when it was believed)",
     ("believed_after_true", "retired_alone", "clocks_out_of_order")),
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


#: characters of a memory's text where a finding's sentence names it
NAME_MAX = 70
#: nodes a finding's sentence names before "and N more"
NAMED_MAX = 3


def node_name(dataset: Dataset, node_id: str | None) -> str:
    """How a sentence names a node: a memory by its text (shortened, quoted), a document by
    its title, an entity by its name; never by its id.

    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "doc_1", "title": "Q3 plan",
    ...     "memoryEntries": [{"id": "mem_1", "memory": "Priya prefers async updates"}]}]}])
    >>> node_name(ds, "mem_1"), node_name(ds, "doc_1"), node_name(ds, "gone")
    ('“Priya prefers async updates”', 'the document “Q3 plan”', 'something not loaded')
    """
    if node_id is None:
        return "something not loaded"
    if (mem := dataset.memories.get(node_id)) is not None:
        return f"“{clip(mem.memory, NAME_MAX)}”" if mem.memory.strip() else "a memory without text"
    if (doc := dataset.documents.get(node_id)) is not None:
        title = clip(doc.title or "", NAME_MAX)
        return f"the document “{title}”" if title else "an untitled document"
    if (ent := dataset.entities.get(node_id)) is not None:
        return f"“{clip(ent.name or '', NAME_MAX)}”" if ent.name else "an unnamed entity"
    return "something not loaded"


def _names(dataset: Dataset, ids: list[str]) -> str:
    """The first :data:`NAMED_MAX` of ``ids`` named, and how many more."""
    named = [node_name(dataset, i) for i in ids[:NAMED_MAX]]
    more = len(ids) - NAMED_MAX
    return ", ".join(named) + (f" and {more:,} more" if more > 0 else "")


def finding_sentence(analysis: Analysis, finding: Finding) -> str:
    """``finding`` as a sentence a person reads: the memories by their text, documents by
    their title, no ids (``finding.message`` keeps them, for ``memscope inspect``); a
    sentence that ends on a quoted one keeps its full stop (``.”``, not ``.”.``).

    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": "mem_b", "memory": "Lives in Porto", "parentMemoryId": "mem_gone"}]}]}])
    >>> an = analyse(ds)
    >>> finding_sentence(an, an.findings[0])
    '“Lives in Porto” names an earlier version that was not loaded.'
    """
    said = _finding_words(analysis, finding)
    return said[:-1] if said.endswith((".”.", "?”.", "!”.")) else said


#: the finding kinds whose sentence names only their first node
_ONE_NODE = {
    "dangling_parent": "{first} names an earlier version that was not loaded.",
    "forgotten_latest": "{first} was forgotten but is still marked as the current version.",
    "unknown_relation": "{first} has a relation of a kind Memscope does not know; it is "
                        "read as an update.",
    "duplicate_memory": "{first} arrived twice with different contents; the first one is "
                        "used.",
    "orphan_memory": "{first} has no loaded document.",
}


def _finding_words(analysis: Analysis, finding: Finding) -> str:
    """:func:`finding_sentence` before its last full stop is tidied."""
    ds = analysis.dataset
    nodes = list(finding.nodes)
    first = node_name(ds, nodes[0] if nodes else None)
    kind = finding.kind
    if kind in _ONE_NODE:
        return _ONE_NODE[kind].format(first=first)
    if kind == "dangling_relation":
        if nodes and nodes[0] in ds.entities:
            return f"A relation of {first} points to an entity that is not in the data."
        return f"{first} is linked to something that was not loaded."
    if kind == "cycle":
        return (f"The versions of {first} loop back on themselves "
                f"({counted(len(nodes), 'version')}), so there is no first version.")
    if kind == "branch":
        kids = nodes[1:]
        times = "twice" if len(kids) == 2 else counted(len(kids), "time")
        return f"{first} was updated {times}, in different ways: {_names(ds, kids)}."
    if kind == "multiple_latest":
        return (f"{counted(len(nodes), 'version')} of one memory are each marked as the "
                f"current one: {_names(ds, nodes)}.")
    return _record_words(analysis, finding, first)


def _record_words(analysis: Analysis, finding: Finding, first: str) -> str:
    """The sentences that read more of the record than its text (a version, a date, a
    parent); the finding's own message for a kind this module does not know."""
    ds, nodes, kind = analysis.dataset, list(finding.nodes), finding.kind
    if kind == "version_repair" and nodes:
        chain = analysis.chains.of(nodes[0])
        entry = chain.entry(nodes[0]) if chain is not None else None
        shown = f"; shown as version {entry.version}" if entry is not None else ""
        return f"{first} had a missing or out-of-order version number{shown}."
    if kind == "updates_contradicts_parent" and len(nodes) >= 2:
        other, mem = nodes[0], nodes[1]
        record = ds.memories.get(mem)
        parent = record.parent_id if record is not None else None
        says = (f"its earlier version is {node_name(ds, parent)}" if parent
                else "it has no earlier version")
        return f"{node_name(ds, mem)} says it updates {node_name(ds, other)}, but {says}."
    if kind in _CLOCK_KINDS and nodes and nodes[0] in ds.memories:
        return _clock_words(ds.memories[nodes[0]], kind, first)
    if kind == "expired_not_forgotten" and nodes:
        record = ds.memories.get(nodes[0])
        due = record.forget_after if record is not None else None
        when = f" on {due:%Y-%m-%d}" if due is not None else ""
        return f"{first} was due to be forgotten{when} but is still kept."
    return finding.message


_CLOCK_KINDS = ("believed_after_true", "retired_alone", "clocks_out_of_order")


def _day(when: datetime | None) -> str:
    return f"{when.day} {when:%B %Y}" if when is not None else "an unknown day"


def _clock_words(mem: MemoryRecord, kind: str, first: str) -> str:
    """A two-clock finding in words, its days as dates."""
    if kind == "believed_after_true" and mem.invalid_at and mem.expired_at:
        days = (mem.expired_at - mem.invalid_at).days
        return (f"The memory went on believing {first} for {counted(days, 'day')} after it "
                f"stopped being true (true until {_day(mem.invalid_at)}, retired "
                f"{_day(mem.expired_at)}).")
    if kind == "retired_alone":
        if mem.invalid_at is not None:
            return (f"{first} stopped being true on {_day(mem.invalid_at)}, and no newer "
                    "version of it is linked.")
        return (f"The memory stopped believing {first} on {_day(mem.expired_at)}, and no "
                "newer version of it is linked.")
    if mem.valid_at and mem.invalid_at and mem.invalid_at < mem.valid_at:
        return (f"{first} stopped being true ({_day(mem.invalid_at)}) before it became true "
                f"({_day(mem.valid_at)}).")
    return (f"The memory stopped believing {first} ({_day(mem.expired_at)}) before it learnt "
            f"it ({_day(mem.created_at)}).")


def finding_ids(finding: Finding, limit: int = NAMED_MAX) -> str:
    """The ids a finding involves, as small secondary text beside its sentence."""
    ids = list(dict.fromkeys(finding.nodes))
    more = len(ids) - limit
    shown = ", ".join(ids[:limit]) + (f" and {more:,} more" if more > 0 else "")
    return f"{'id' if len(ids) == 1 else 'ids'}: {shown}" if ids else ""


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
        "space": analysis.dataset.space_label(mem.space) or None,
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
    for picking two versions to diff (the label: its number and its text, no id); empty
    for a memory without versions."""
    chain = analysis.chains.of(memory_id)
    if chain is None:
        return []
    return [(e.id, f"v{e.version}" + (" (latest)" if e.is_latest else "")
             + f" · {clip(e.text, NAME_MAX) or '(no text)'}") for e in chain.entries]


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
