"""Spomory records: entities and subject–predicate–object relations with provenance."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from memscope.records.models import ParseReport, _opt_id, cap_text
from memscope.records.time import parse_time

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


def decode_result(raw: Any) -> Any:
    """Undo Spomory's double encoding: ``{"result": "<json>"}`` → the decoded value.

    Anything else is returned unchanged. A ``result`` that is not JSON is returned as text.
    """
    if isinstance(raw, dict) and set(raw) == {"result"} and isinstance(raw["result"], str):
        try:
            return json.loads(raw["result"])
        except ValueError:
            return raw["result"]
    return raw


def _provenance(raw: Any) -> list[Provenance]:
    if not isinstance(raw, list):
        return []
    out = []
    for item in raw:
        if isinstance(item, dict):
            out.append(
                Provenance(
                    source_id=cap_text(item.get("source_id")),
                    source_span=cap_text(item.get("source_span")),
                    extractor=cap_text(item.get("extractor")),
                    client_name=cap_text(item.get("client_name")),
                    session_id=cap_text(item.get("session_id")),
                )
            )
    return out


def looks_like_passport(raw: Any) -> bool:
    """True when ``raw`` (decoded) has Spomory's ``entities`` and ``relations`` arrays."""
    return isinstance(raw, dict) and isinstance(raw.get("entities"), list) and isinstance(
        raw.get("relations", []), list
    )


def parse_passport(
    raw: Any, report: ParseReport
) -> tuple[list[EntityRecord], list[RelationRecord]]:
    """Parse a memory passport or ``/v1/graph`` body, decoded or in its ``result`` wrapper."""
    raw = decode_result(raw)
    if not looks_like_passport(raw):
        if raw != {}:
            report.skip("passport", "not a Spomory passport (no entities list)")
        return [], []
    entities: list[EntityRecord] = []
    for i, item in enumerate(raw.get("entities") or []):
        where = f"entities[{i}]"
        ent_id = _opt_id(item.get("id")) if isinstance(item, dict) else None
        if ent_id is None:
            report.skip(where, "entity has no id")
            continue
        aliases = item.get("aliases")
        attrs = item.get("attributes")
        entities.append(
            EntityRecord(
                id=ent_id,
                name=cap_text(item.get("name")) or ent_id,
                type=cap_text(item.get("type")) or "unknown",
                memory_type=cap_text(item.get("memory_type")),
                attributes=attrs if isinstance(attrs, dict) else {},
                aliases=[cap_text(a) or "" for a in aliases] if isinstance(aliases, list) else [],
                provenance=_provenance(item.get("provenance")),
                created_at=parse_time(item.get("created_at")),
                updated_at=parse_time(item.get("updated_at")),
                extra={k: v for k, v in item.items() if k not in ENTITY_KEYS},
            )
        )
    relations: list[RelationRecord] = []
    for i, item in enumerate(raw.get("relations") or []):
        where = f"relations[{i}]"
        if not isinstance(item, dict):
            report.skip(where, "relation is not an object")
            continue
        rel_id = _opt_id(item.get("id"))
        subject, obj = _opt_id(item.get("subject_id")), _opt_id(item.get("object_id"))
        if rel_id is None or subject is None or obj is None:
            report.skip(where, "relation lacks an id, subject_id or object_id")
            continue
        conf = item.get("confidence")
        count = item.get("mention_count")
        relations.append(
            RelationRecord(
                id=rel_id, subject_id=subject, object_id=obj,
                predicate=cap_text(item.get("predicate")) or "",
                confidence=float(conf) if isinstance(conf, int | float) else None,
                memory_type=cap_text(item.get("memory_type")),
                provenance=_provenance(item.get("provenance")),
                created_at=parse_time(item.get("created_at")),
                updated_at=parse_time(item.get("updated_at")),
                last_retrieved_at=parse_time(item.get("last_retrieved_at")),
                mention_count=count if isinstance(count, int) else None,
                valid_from=parse_time(item.get("valid_from")),
                extra={k: v for k, v in item.items() if k not in RELATION_KEYS},
            )
        )
    return entities, relations
