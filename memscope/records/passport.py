"""Spomory records: entities and subject–predicate–object relations with provenance."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memscope.records.jsonsafe import JsonError, load_json, safe_text
from memscope.records.models import FieldReader, ParseReport, short_repr

ENTITY_KEYS = frozenset(
    {"id", "name", "type", "memory_type", "attributes", "aliases", "provenance",
     "created_at", "updated_at"}
)
RELATION_KEYS = frozenset(
    {"id", "subject_id", "predicate", "object_id", "confidence", "memory_type", "provenance",
     "created_at", "updated_at", "last_retrieved_at", "mention_count", "valid_from"}
)


@dataclass(slots=True)
class Provenance:
    """Where a fact came from."""

    source_id: str | None
    source_span: str | None
    extractor: str | None = None
    client_name: str | None = None
    session_id: str | None = None


@dataclass(slots=True)
class EntityRecord:
    """A Spomory entity."""

    id: str
    name: str
    type: str = "unknown"
    memory_type: str | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    aliases: list[str] = field(default_factory=list)
    provenance: list[Provenance] = field(default_factory=list)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class RelationRecord:
    """A Spomory fact: subject —predicate→ object."""

    id: str
    subject_id: str
    predicate: str
    object_id: str
    confidence: float | None = None
    memory_type: str | None = None
    provenance: list[Provenance] = field(default_factory=list)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    last_retrieved_at: datetime | None = None
    mention_count: int | None = None
    valid_from: datetime | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def sentence(self, names: dict[str, str]) -> str:
        """The fact as text (``subject predicate object``), as Spomory's forget expects."""
        subject = names.get(self.subject_id, self.subject_id)
        obj = names.get(self.object_id, self.object_id)
        return f"{subject}{self.predicate}{obj}"


def decode_result(raw: Any, report: ParseReport | None = None) -> Any:
    """Undo Spomory's double encoding: ``{"result": "<json>"}`` → the decoded value.

    Anything else is returned unchanged. A ``result`` that is not JSON is returned as
    (safe) text. The inner JSON may be of any depth and number size (see
    :func:`memscope.records.jsonsafe.load_json`); what had to be cut is noted in
    ``report``.

    >>> decode_result({"result": '{"entities": []}'})
    {'entities': []}
    >>> decode_result({"result": "no \\ud800 json"}) == "no \\ufffd json"
    True
    """
    if isinstance(raw, dict) and set(raw) == {"result"} and isinstance(raw["result"], str):
        try:
            value, notes = load_json(raw["result"])
        except JsonError:
            return safe_text(raw["result"])
        if report is not None:
            for note in notes:
                report.note("result", note)
        return safe_text(value) if isinstance(value, str) else value
    return raw


def _provenance(f: FieldReader) -> list[Provenance]:
    raw = f.raw.get("provenance")
    if not isinstance(raw, list):
        return []
    out = []
    for item in raw:
        if isinstance(item, dict):
            out.append(Provenance(*(f.text_value(item.get(key), "provenance") for key in (
                "source_id", "source_span", "extractor", "client_name", "session_id"))))
    return out


def looks_like_passport(raw: Any) -> bool:
    """True when ``raw`` (decoded) has Spomory's ``entities`` and ``relations`` arrays."""
    return isinstance(raw, dict) and isinstance(raw.get("entities"), list) and isinstance(
        raw.get("relations", []), list
    )


def parse_entity(item: Any, where: str, report: ParseReport) -> EntityRecord | None:
    """Parse one passport entity; ``None`` (and a skip) when it has no id."""
    f = FieldReader(item if isinstance(item, dict) else {}, report, where)
    ent_id = f.ident("id")
    if ent_id is None:
        report.skip(where, "entity has no id")
        return None
    f.record = ent_id
    aliases = f.raw.get("aliases")
    attrs = f.free(f.raw.get("attributes"), "attributes")
    ent = EntityRecord(
        id=ent_id,
        name=f.text("name") or ent_id,
        type=f.text("type") or "unknown",
        memory_type=f.text("memory_type"),
        attributes=attrs if isinstance(attrs, dict) else {},
        aliases=[f.text_value(a, "aliases") or "" for a in aliases]
        if isinstance(aliases, list) else [],
        provenance=_provenance(f),
        created_at=f.time("created_at"),
        updated_at=f.time("updated_at"),
        extra=f.extra(ENTITY_KEYS),
    )
    f.done()
    return ent


def _confidence(f: FieldReader) -> float | None:
    value = f.bounded("confidence", "a finite number is expected")
    return float(value) if value is not None else None


def _count(f: FieldReader) -> int | None:
    value = f.raw.get("mention_count")
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        count = f.bounded("mention_count", "a count within 0 … 2^53 is expected")
        if count is not None and count >= 0:
            return int(count)
        if count is not None:
            f.note(f"mention_count {value} is negative; ignored")
        return None
    f.note(f"mention_count {short_repr(value)} is not a whole number; ignored")
    return None


def parse_relation(item: Any, where: str, report: ParseReport) -> RelationRecord | None:
    """Parse one passport relation; ``None`` (and a skip) when it lacks an id or an end."""
    if not isinstance(item, dict):
        report.skip(where, "relation is not an object")
        return None
    f = FieldReader(item, report, where)
    rel_id = f.ident("id")
    subject, obj = f.ident("subject_id"), f.ident("object_id")
    if rel_id is None or subject is None or obj is None:
        report.skip(where, "relation lacks an id, subject_id or object_id")
        return None
    f.record = rel_id
    rel = RelationRecord(
        id=rel_id, subject_id=subject, object_id=obj,
        predicate=f.text("predicate") or "",
        confidence=_confidence(f),
        memory_type=f.text("memory_type"),
        provenance=_provenance(f),
        created_at=f.time("created_at"),
        updated_at=f.time("updated_at"),
        last_retrieved_at=f.time("last_retrieved_at"),
        mention_count=_count(f),
        valid_from=f.time("valid_from"),
        extra=f.extra(RELATION_KEYS),
    )
    f.done()
    return rel


def parse_passport(
    raw: Any, report: ParseReport
) -> tuple[list[EntityRecord], list[RelationRecord]]:
    """Parse a memory passport or ``/v1/graph`` body, decoded or in its ``result`` wrapper."""
    raw = decode_result(raw, report)
    if not looks_like_passport(raw):
        if raw != {}:
            report.skip("passport", "not a Spomory passport (no entities list)")
        return [], []
    entities = [ent for i, item in enumerate(raw.get("entities") or [])
                if (ent := parse_entity(item, f"entities[{i}]", report)) is not None]
    relations = [rel for i, item in enumerate(raw.get("relations") or [])
                 if (rel := parse_relation(item, f"relations[{i}]", report)) is not None]
    return entities, relations
