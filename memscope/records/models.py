"""Records: lenient parsing of what memory services send.

Every parser here takes plain JSON values (dicts, lists, strings) and returns
records, never raising on bad input: a record that cannot be used is skipped
and described in a :class:`ParseReport`; unknown keys are kept in ``extra``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memscope.records.time import format_time, parse_time

TEXT_CAP = 200_000
ELLIPSIS = "…"
RELATION_KINDS = ("updates", "extends", "derives")


def cap_text(value: Any) -> str | None:
    """Return ``value`` as text, cut to :data:`TEXT_CAP` characters with an ellipsis."""
    if value is None:
        return None
    text = value if isinstance(value, str) else str(value)
    if len(text) > TEXT_CAP:
        return text[: TEXT_CAP - 1] + ELLIPSIS
    return text


def is_finite_number(value: Any) -> bool:
    """True for an int or float that is finite (booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return math.isfinite(value)


def _bool(value: Any, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return bool(value)
    if isinstance(value, str):
        low = value.strip().lower()
        if low in ("true", "1", "yes"):
            return True
        if low in ("false", "0", "no", ""):
            return False
    return default


def _opt_id(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


@dataclass(slots=True)
class Skipped:
    """A record that was not used, and why."""

    record: str
    reason: str


@dataclass(slots=True)
class DataIssue:
    """Something odd about a record that was kept."""

    record: str
    message: str


@dataclass
class ParseReport:
    """What parsing skipped or noticed; the UI lists it in a "data issues" panel."""

    skipped: list[Skipped] = field(default_factory=list)
    issues: list[DataIssue] = field(default_factory=list)

    def skip(self, record: str, reason: str) -> None:
        """Record a skipped record."""
        self.skipped.append(Skipped(record, reason))

    def note(self, record: str, message: str) -> None:
        """Record an issue with a kept record."""
        self.issues.append(DataIssue(record, message))


MEMORY_KEYS = frozenset(
    {
        "id", "memory", "spaceId", "spaceContainerTag", "version", "isLatest", "isForgotten",
        "isStatic", "parentMemoryId", "rootMemoryId", "memoryRelations", "forgetAfter",
        "forgetReason", "createdAt", "updatedAt",
    }
)


@dataclass(slots=True)
class MemoryRecord:
    """One memory version, as the service sent it (defaults per graph-semantics.md)."""

    id: str
    memory: str
    space_id: str | None = None
    container_tag: str | None = None
    version: Any = 1
    is_latest: bool = True
    is_forgotten: bool = False
    is_static: bool = False
    parent_id: str | None = None
    root_id: str | None = None
    relations: dict[str, str] | None = None
    forget_after: datetime | None = None
    forget_reason: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def space(self) -> str | None:
        """The memory's space: its container tag, else its space id."""
        return self.container_tag or self.space_id

    def fingerprint(self) -> tuple:
        """Values that must agree when the same memory id appears twice."""
        return (
            self.memory, self.space_id, self.container_tag, repr(self.version), self.is_latest,
            self.is_forgotten, self.is_static, self.parent_id, self.root_id,
            tuple(sorted((self.relations or {}).items())), self.forget_after,
            self.forget_reason, self.created_at, self.updated_at,
        )

    def to_wire(self) -> dict[str, Any]:
        """The Supermemory memory-entry shape, with unknown keys restored."""
        out = dict(self.extra)
        out.update(
            id=self.id, memory=self.memory, spaceId=self.space_id,
            spaceContainerTag=self.container_tag, version=self.version,
            isLatest=self.is_latest, isForgotten=self.is_forgotten, isStatic=self.is_static,
            parentMemoryId=self.parent_id, rootMemoryId=self.root_id,
            memoryRelations=dict(self.relations) if self.relations is not None else None,
            forgetAfter=format_time(self.forget_after), forgetReason=self.forget_reason,
            createdAt=format_time(self.created_at), updatedAt=format_time(self.updated_at),
        )
        return out


def parse_memory(raw: Any, where: str, report: ParseReport) -> MemoryRecord | None:
    """Parse one memory entry; ``None`` (and a skip) when it is not a usable record."""
    if not isinstance(raw, dict):
        report.skip(where, f"memory entry is a {type(raw).__name__}, not an object")
        return None
    mem_id = _opt_id(raw.get("id"))
    if mem_id is None:
        report.skip(where, "memory entry has no id")
        return None
    rels_raw = raw.get("memoryRelations")
    relations: dict[str, str] | None
    if rels_raw is None:
        relations = None
    elif isinstance(rels_raw, dict):
        relations = {}
        for other, kind in rels_raw.items():
            if not isinstance(other, str) or not other:
                report.note(mem_id, f"relation key {other!r} is not a memory id; ignored")
                continue
            relations[other] = kind if isinstance(kind, str) else str(kind)
    else:
        report.note(mem_id, "memoryRelations is not an object; ignored")
        relations = None
    text = raw.get("memory")
    if text is None:
        text = raw.get("content")
    times = {}
    for key in ("forgetAfter", "createdAt", "updatedAt"):
        value = raw.get(key)
        times[key] = parse_time(value)
        if value not in (None, "") and times[key] is None:
            report.note(mem_id, f"{key} {value!r} is not an ISO-8601 time; ignored")
    version = raw.get("version", 1)
    if version is None:
        version = 1
    return MemoryRecord(
        id=mem_id,
        memory=cap_text(text) or "",
        space_id=_opt_id(raw.get("spaceId")),
        container_tag=_opt_id(raw.get("spaceContainerTag") or raw.get("containerTag")),
        version=version,
        is_latest=_bool(raw.get("isLatest"), True),
        is_forgotten=_bool(raw.get("isForgotten"), False),
        is_static=_bool(raw.get("isStatic"), False),
        parent_id=_opt_id(raw.get("parentMemoryId")),
        root_id=_opt_id(raw.get("rootMemoryId")),
        relations=relations,
        forget_after=times["forgetAfter"],
        forget_reason=cap_text(raw.get("forgetReason")),
        created_at=times["createdAt"],
        updated_at=times["updatedAt"],
        extra={k: v for k, v in raw.items() if k not in MEMORY_KEYS},
    )


DOCUMENT_KEYS = frozenset(
    {
        "id", "customId", "title", "summary", "url", "source", "type", "documentType",
        "status", "metadata", "createdAt", "updatedAt", "memoryEntries", "memories", "content",
    }
)


@dataclass(slots=True)
class DocumentRecord:
    """One ingested document; ``memory_ids`` lists its memories in wire order."""

    id: str
    title: str | None = None
    type: str = "unknown"
    summary: str | None = None
    url: str | None = None
    status: str | None = None
    source: str | None = None
    custom_id: str | None = None
    content: str | None = None
    metadata: Any = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    memory_ids: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_wire(self, memories: list[dict[str, Any]]) -> dict[str, Any]:
        """The Supermemory feed document shape, with ``memoryEntries``."""
        out = dict(self.extra)
        out.update(
            id=self.id, customId=self.custom_id, title=self.title, summary=self.summary,
            url=self.url, source=self.source, type=self.type, status=self.status,
            metadata=self.metadata, createdAt=format_time(self.created_at),
            updatedAt=format_time(self.updated_at), memoryEntries=memories,
        )
        if self.content is not None:
            out["content"] = self.content
        return out


def parse_document(
    raw: Any, where: str, report: ParseReport
) -> tuple[DocumentRecord | None, list[MemoryRecord]]:
    """Parse one feed document and its memories (both wire shapes)."""
    if not isinstance(raw, dict):
        report.skip(where, f"document is a {type(raw).__name__}, not an object")
        return None, []
    doc_id = _opt_id(raw.get("id"))
    if doc_id is None:
        report.skip(where, "document has no id")
        return None, []
    doc_type = raw.get("type")
    if doc_type is None:
        doc_type = raw.get("documentType")
    entries = raw.get("memoryEntries")
    key = "memoryEntries"
    if entries is None:
        entries = raw.get("memories")
        key = "memories"
    if entries is None:
        entries = []
    elif not isinstance(entries, list):
        report.note(doc_id, f"{key} is not a list; no memories read from it")
        entries = []
    memories: list[MemoryRecord] = []
    for i, entry in enumerate(entries):
        mem = parse_memory(entry, f"{doc_id}/{key}[{i}]", report)
        if mem is not None:
            memories.append(mem)
    doc = DocumentRecord(
        id=doc_id,
        title=cap_text(raw.get("title")),
        type=cap_text(doc_type) or "unknown",
        summary=cap_text(raw.get("summary")),
        url=cap_text(raw.get("url")),
        status=cap_text(raw.get("status")),
        source=cap_text(raw.get("source")),
        custom_id=_opt_id(raw.get("customId")),
        content=cap_text(raw.get("content")),
        metadata=raw.get("metadata"),
        created_at=parse_time(raw.get("createdAt")),
        updated_at=parse_time(raw.get("updatedAt")),
        extra={k: v for k, v in raw.items() if k not in DOCUMENT_KEYS},
    )
    return doc, memories


@dataclass(slots=True)
class SpaceRecord:
    """A space (container tag)."""

    container_tag: str
    id: str | None = None
    name: str | None = None
    description: str | None = None
    emoji: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def parse_spaces(raw: Any, report: ParseReport) -> list[SpaceRecord]:
    """Parse ``GET /v3/container-tags/list`` (a bare array, or ``{"containerTags": [...]}``)."""
    if isinstance(raw, dict):
        raw = raw.get("containerTags", raw.get("spaces", []))
    if not isinstance(raw, list):
        report.skip("spaces", "space list is not an array")
        return []
    out: list[SpaceRecord] = []
    for i, item in enumerate(raw):
        tag = _opt_id(item.get("containerTag")) if isinstance(item, dict) else None
        if tag is None:
            report.skip(f"spaces[{i}]", "space has no containerTag")
            continue
        out.append(
            SpaceRecord(
                container_tag=tag, id=_opt_id(item.get("id")), name=cap_text(item.get("name")),
                description=cap_text(item.get("description")), emoji=cap_text(item.get("emoji")),
                extra={k: v for k, v in item.items()
                       if k not in ("containerTag", "id", "name", "description", "emoji")},
            )
        )
    return out


@dataclass(slots=True)
class ProfileLine:
    """One profile line and the memories it came from, where the source knows them."""

    text: str
    kind: str  # "static" | "dynamic"
    memory_ids: list[str] = field(default_factory=list)


@dataclass
class Profile:
    """The profile of one space."""

    container_tag: str | None
    static: list[ProfileLine] = field(default_factory=list)
    dynamic: list[ProfileLine] = field(default_factory=list)


def parse_profile(raw: Any, container_tag: str | None, report: ParseReport) -> Profile:
    """Parse ``POST /v4/profile`` or the store's profile (lines as strings or objects)."""
    body = raw.get("profile", raw) if isinstance(raw, dict) else None
    profile = Profile(container_tag)
    if not isinstance(body, dict):
        if raw is not None and body is not None:
            report.note("profile", "profile is not an object; treated as empty")
        return profile
    for kind in ("static", "dynamic"):
        lines = body.get(kind) or []
        if not isinstance(lines, list):
            report.note("profile", f"profile.{kind} is not a list; treated as empty")
            continue
        target = profile.static if kind == "static" else profile.dynamic
        for i, line in enumerate(lines):
            if isinstance(line, str):
                target.append(ProfileLine(cap_text(line) or "", kind))
            elif isinstance(line, dict) and isinstance(line.get("text"), str):
                ids = [m for m in line.get("memoryIds") or [] if isinstance(m, str)]
                target.append(ProfileLine(cap_text(line["text"]) or "", kind, ids))
            else:
                report.skip(f"profile.{kind}[{i}]", "profile line is not text")
    return profile
