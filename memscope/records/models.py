"""Records: lenient parsing of what memory services send.

Every parser here takes plain JSON values (dicts, lists, strings) and returns
records, never raising on bad input: a record that cannot be used is skipped
and described in a :class:`ParseReport`; unknown keys are kept in ``extra``.

This is the edge (see :mod:`memscope.records.jsonsafe`): text is made safe (lone
surrogates become U+FFFD), times outside the supported range and numbers that cannot be
computed with are read as missing, free-form values are cut below a depth — each with a
note in the report — so no later stage needs a guard of its own.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memscope.records.jsonsafe import (
    FIELD_DEPTH,
    Cleaning,
    bounded_number,
    clean_value,
    describe_number,
    has_surrogates,
    safe_text,
)
from memscope.records.time import format_time, read_time

TEXT_CAP = 200_000
ELLIPSIS = "…"
RELATION_KINDS = ("updates", "extends", "derives")
_REPR_MAX = 60


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict | list):
        value = clean_value(value)  # cut first: str() of deep JSON recurses
    try:
        return str(value)
    except ValueError:  # an integer past Python's digit limit
        return describe_number(value)


def cap_text(value: Any) -> str | None:
    """Return ``value`` as safe text, cut to :data:`TEXT_CAP` characters with an ellipsis.

    >>> cap_text("a\\ud800") == "a\\ufffd", cap_text(None), cap_text(3)
    (True, None, '3')
    """
    if value is None:
        return None
    text = safe_text(_as_text(value))
    if len(text) > TEXT_CAP:
        return text[: TEXT_CAP - 1] + ELLIPSIS
    return text


def is_finite_number(value: Any) -> bool:
    """True for an int or float that is finite (booleans are not numbers here); an
    integer too large for a float is not.

    >>> is_finite_number(2), is_finite_number(10**400), is_finite_number(True)
    (True, False, False)
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, int):
        return -sys.float_info.max <= value <= sys.float_info.max  # exact, never overflows
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
        return safe_text(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return _as_text(value)
    return None


def short_repr(value: Any) -> str:
    """``repr`` of a value for a reason, at most 60 characters (ASCII-safe escapes)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        text = describe_number(value)
    else:
        text = safe_text(repr(value)) if not isinstance(value, dict | list) else (
            f"a JSON {'object' if isinstance(value, dict) else 'array'}")
    return text if len(text) <= _REPR_MAX else text[: _REPR_MAX - 1] + ELLIPSIS


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
        """Record a skipped record (its texts made safe)."""
        self.skipped.append(Skipped(safe_text(record), safe_text(reason)))

    def note(self, record: str, message: str) -> None:
        """Record an issue with a kept record (its texts made safe)."""
        self.issues.append(DataIssue(safe_text(record), safe_text(message)))


class FieldReader:
    """Reads the fields of one raw record through the edge rules.

    Times, numbers and depth problems are noted at once under :attr:`record` (set it to
    the record's id once known); text fields that held lone surrogates are collected and
    noted together by :meth:`done`.
    """

    def __init__(self, raw: dict[str, Any], report: ParseReport, record: str) -> None:
        self.raw = raw
        self.report = report
        self.record = record
        self._fixed: list[str] = []

    def note(self, message: str) -> None:
        """Note something about this record."""
        self.report.note(self.record, message)

    def text_value(self, value: Any, name: str) -> str | None:
        """``value`` as capped, safe text (``None`` stays ``None``)."""
        if isinstance(value, str) and has_surrogates(value) and name not in self._fixed:
            self._fixed.append(name)
        return cap_text(value)

    def text(self, key: str) -> str | None:
        """The field ``key`` as capped, safe text."""
        return self.text_value(self.raw.get(key), key)

    def ident_value(self, value: Any, name: str) -> str | None:
        """``value`` as an id (a string or an integer), safe; else ``None``."""
        if isinstance(value, str) and has_surrogates(value) and name not in self._fixed:
            self._fixed.append(name)
        return _opt_id(value)

    def ident(self, key: str) -> str | None:
        """The field ``key`` as an id."""
        return self.ident_value(self.raw.get(key), key)

    def time(self, key: str) -> datetime | None:
        """The field ``key`` as a time; a bad or out-of-range one is noted and missing."""
        value = self.raw.get(key)
        when, reason = read_time(value)
        if reason is not None:
            self.note(f"{key} {short_repr(value)} {reason}; treated as missing")
        return when

    def free(self, value: Any, name: str) -> Any:
        """A free-form JSON value, made safe and cut below :data:`FIELD_DEPTH` levels."""
        seen = Cleaning()
        out = clean_value(value, seen)
        if seen.surrogates and name not in self._fixed:
            self._fixed.append(name)
        if seen.cut:
            self.note(f"{name} is nested deeper than {FIELD_DEPTH} levels; the deeper part "
                      "was cut")
        return out

    def extra(self, known: frozenset[str]) -> dict[str, Any]:
        """The unknown keys, kept (made safe) for the record's ``extra``."""
        raw = self.raw
        if all(k in known for k in raw):
            return {}
        return self.free({k: v for k, v in raw.items() if k not in known}, "unknown keys")

    def bounded(self, key: str, what: str) -> int | float | None:
        """A number used in computations: ``None`` (noted) unless finite and bounded."""
        value = self.raw.get(key)
        if value is None:
            return None
        if bounded_number(value):
            return value
        if isinstance(value, int | float) and not isinstance(value, bool):
            self.note(f"{key} {describe_number(value)} is out of range ({what}); ignored")
        else:
            self.note(f"{key} {short_repr(value)} is not a number; ignored")
        return None

    def done(self) -> None:
        """Note the text fields whose lone surrogates were replaced."""
        if self._fixed:
            self.note(f"{', '.join(self._fixed)} held invalid characters (lone UTF-16 "
                      "surrogates); each was replaced by U+FFFD")
            self._fixed.clear()


MEMORY_KEYS = frozenset(
    {
        "id", "memory", "spaceId", "spaceContainerTag", "version", "isLatest", "isForgotten",
        "isStatic", "isInference", "parentMemoryId", "rootMemoryId", "memoryRelations",
        "forgetAfter", "forgetReason", "createdAt", "updatedAt", "validAt", "invalidAt",
        "expiredAt", "entityIds",
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
    #: inferred by the service, not stated by the user (Supermemory's ``isInference``)
    is_inference: bool = False
    parent_id: str | None = None
    root_id: str | None = None
    relations: dict[str, str] | None = None
    forget_after: datetime | None = None
    forget_reason: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: the world's clock of a temporal fact (Graphiti, Zep): when it became true and when
    #: it stopped being true; ``None`` for services that keep no such clock
    valid_at: datetime | None = None
    invalid_at: datetime | None = None
    #: the memory's own clock ends: when the service stopped believing it (``created_at``
    #: is when it learnt it)
    expired_at: datetime | None = None
    #: the entities a fact links (Graphiti, Zep: its two ends), drawn as edges to them
    entity_ids: tuple[str, ...] = ()

    @property
    def space(self) -> str | None:
        """The memory's space: its container tag, else its space id."""
        return self.container_tag or self.space_id

    def fingerprint(self) -> tuple:
        """Values that must agree when the same memory id appears twice."""
        return (
            self.memory, self.space_id, self.container_tag, repr(self.version), self.is_latest,
            self.is_forgotten, self.is_static, self.is_inference, self.parent_id, self.root_id,
            tuple(sorted((self.relations or {}).items())), self.forget_after,
            self.forget_reason, self.created_at, self.updated_at, self.valid_at,
            self.invalid_at, self.expired_at, self.entity_ids,
        )

    def to_wire(self) -> dict[str, Any]:
        """The Supermemory memory-entry shape, with unknown keys restored."""
        out = dict(self.extra)
        out.update(
            id=self.id, memory=self.memory, spaceId=self.space_id,
            spaceContainerTag=self.container_tag, version=self.version,
            isLatest=self.is_latest, isForgotten=self.is_forgotten, isStatic=self.is_static,
            isInference=self.is_inference,
            parentMemoryId=self.parent_id, rootMemoryId=self.root_id,
            memoryRelations=dict(self.relations) if self.relations is not None else None,
            forgetAfter=format_time(self.forget_after), forgetReason=self.forget_reason,
            createdAt=format_time(self.created_at), updatedAt=format_time(self.updated_at),
        )
        for key, when in (("validAt", self.valid_at), ("invalidAt", self.invalid_at),
                          ("expiredAt", self.expired_at)):
            if when is not None:  # only the temporal sources' snapshots carry them
                out[key] = format_time(when)
        if self.entity_ids:
            out["entityIds"] = list(self.entity_ids)
        return out


def _relations(f: FieldReader) -> dict[str, str] | None:
    rels_raw = f.raw.get("memoryRelations")
    if rels_raw is None:
        return None
    if not isinstance(rels_raw, dict):
        f.note("memoryRelations is not an object; ignored")
        return None
    relations: dict[str, str] = {}
    for other, kind in rels_raw.items():
        if not isinstance(other, str) or not other:
            f.note(f"relation key {short_repr(other)} is not a memory id; ignored")
            continue
        key = f.ident_value(other, "memoryRelations")
        relations[key or other] = f.text_value(_as_text(kind), "memoryRelations") or ""
    return relations


def _version(f: FieldReader) -> Any:
    """The stored version: numbers must be finite and within ±2^53, else it is read as
    missing (1); other values are kept (the chain display repairs them)."""
    value = f.raw.get("version", 1)
    if value is None:
        return 1
    if isinstance(value, int | float) and not isinstance(value, bool):
        if bounded_number(value):
            return value
        f.note(f"version {describe_number(value)} is out of range (a finite number within "
               "±2^53 is expected); read as missing (1)")
        return 1
    if isinstance(value, str):
        return f.text_value(value, "version")
    return f.free(value, "version")


def parse_memory(raw: Any, where: str, report: ParseReport) -> MemoryRecord | None:
    """Parse one memory entry; ``None`` (and a skip) when it is not a usable record."""
    if not isinstance(raw, dict):
        report.skip(where, f"memory entry is a {type(raw).__name__}, not an object")
        return None
    f = FieldReader(raw, report, where)
    mem_id = f.ident("id")
    if mem_id is None:
        report.skip(where, "memory entry has no id")
        return None
    f.record = mem_id
    text = raw.get("memory")
    mem = MemoryRecord(
        id=mem_id,
        memory=f.text_value(text if text is not None else raw.get("content"), "memory") or "",
        space_id=f.ident("spaceId"),
        container_tag=f.ident("spaceContainerTag") or f.ident("containerTag"),
        version=_version(f),
        is_latest=_bool(raw.get("isLatest"), True),
        is_forgotten=_bool(raw.get("isForgotten"), False),
        is_static=_bool(raw.get("isStatic"), False),
        is_inference=_bool(raw.get("isInference"), False),
        parent_id=f.ident("parentMemoryId"),
        root_id=f.ident("rootMemoryId"),
        relations=_relations(f),
        forget_after=f.time("forgetAfter"),
        forget_reason=f.text("forgetReason"),
        created_at=f.time("createdAt"),
        updated_at=f.time("updatedAt"),
        extra=f.extra(MEMORY_KEYS),
        valid_at=f.time("validAt"),
        invalid_at=f.time("invalidAt"),
        expired_at=f.time("expiredAt"),
        entity_ids=_entity_ids(f),
    )
    f.done()
    return mem


def _entity_ids(f: FieldReader) -> tuple[str, ...]:
    """A fact's entities (``entityIds``: a list of ids; anything else is noted and read as
    none)."""
    raw = f.raw.get("entityIds")
    if raw is None:
        return ()
    if not isinstance(raw, list):
        f.note("entityIds is not a list; ignored")
        return ()
    ids = [f.ident_value(item, "entityIds") for item in raw[:16]]
    return tuple(dict.fromkeys(i for i in ids if i))


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


def _entries(f: FieldReader) -> tuple[list[Any], str]:
    raw = f.raw
    key = "memoryEntries"
    entries = raw.get(key)
    if entries is None:
        key = "memories"
        entries = raw.get(key)
    if entries is None:
        return [], key
    if not isinstance(entries, list):
        f.note(f"{key} is not a list; no memories read from it")
        return [], key
    return entries, key


def parse_document(
    raw: Any, where: str, report: ParseReport
) -> tuple[DocumentRecord | None, list[MemoryRecord]]:
    """Parse one feed document and its memories (both wire shapes)."""
    if not isinstance(raw, dict):
        report.skip(where, f"document is a {type(raw).__name__}, not an object")
        return None, []
    f = FieldReader(raw, report, where)
    doc_id = f.ident("id")
    if doc_id is None:
        report.skip(where, "document has no id")
        return None, []
    f.record = doc_id
    doc_type = raw.get("type")
    entries, key = _entries(f)
    memories: list[MemoryRecord] = []
    for i, entry in enumerate(entries):
        mem = parse_memory(entry, f"{doc_id}/{key}[{i}]", report)
        if mem is not None:
            memories.append(mem)
    doc = DocumentRecord(
        id=doc_id,
        title=f.text("title"),
        type=f.text_value(doc_type if doc_type is not None else raw.get("documentType"),
                          "type") or "unknown",
        summary=f.text("summary"),
        url=f.text("url"),
        status=f.text("status"),
        source=f.text("source"),
        custom_id=f.ident("customId"),
        content=f.text("content"),
        metadata=f.free(raw.get("metadata"), "metadata"),
        created_at=f.time("createdAt"),
        updated_at=f.time("updatedAt"),
        extra=f.extra(DOCUMENT_KEYS),
    )
    f.done()
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
    #: what the service counts in the space (Supermemory v5 namespaces), else ``None``
    document_count: int | None = None
    memory_count: int | None = None

    @property
    def title(self) -> str:
        """How the space is named to a person: its name, else its tag."""
        return (self.name or "").strip() or self.container_tag


SPACE_KEYS = frozenset({"containerTag", "id", "name", "description", "emoji"})


def parse_spaces(raw: Any, report: ParseReport) -> list[SpaceRecord]:
    """Parse ``GET /v3/container-tags/list`` (a bare array, or ``{"containerTags": [...]}``)."""
    if isinstance(raw, dict):
        raw = raw.get("containerTags", raw.get("spaces", []))
    if not isinstance(raw, list):
        report.skip("spaces", "space list is not an array")
        return []
    out: list[SpaceRecord] = []
    for i, item in enumerate(raw):
        f = FieldReader(item if isinstance(item, dict) else {}, report, f"spaces[{i}]")
        tag = f.ident("containerTag")
        if tag is None:
            report.skip(f"spaces[{i}]", "space has no containerTag")
            continue
        f.record = tag
        out.append(SpaceRecord(container_tag=tag, id=f.ident("id"), name=f.text("name"),
                               description=f.text("description"), emoji=f.text("emoji"),
                               extra=f.extra(SPACE_KEYS)))
        f.done()
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
                raw_ids = line.get("memoryIds")
                ids = [safe_text(m) for m in raw_ids if isinstance(m, str)] if isinstance(
                    raw_ids, list) else []
                target.append(ProfileLine(cap_text(line["text"]) or "", kind, ids))
            else:
                report.skip(f"profile.{kind}[{i}]", "profile line is not text")
    return profile
