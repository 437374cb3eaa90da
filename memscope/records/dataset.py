"""A dataset: every record of one load, merged across pages, with what was skipped.

This is where "one node per id" is decided: a memory listed under several documents is
kept once (first occurrence wins; a later, different occurrence is a duplicate), and an
id that is already used by another kind of record is skipped.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memscope.records.jsonsafe import JsonError, load_json
from memscope.records.models import (
    DocumentRecord,
    MemoryRecord,
    ParseReport,
    Profile,
    SpaceRecord,
    parse_document,
)
from memscope.records.passport import (
    EntityRecord,
    RelationRecord,
    decode_result,
    looks_like_passport,
    parse_passport,
)


@dataclass(slots=True)
class Duplicate:
    """A memory id seen again with different values (the first occurrence is kept)."""

    memory_id: str
    document_id: str | None


@dataclass
class Dataset:
    """Everything one load produced, ready for the graph builder."""

    documents: dict[str, DocumentRecord] = field(default_factory=dict)
    memories: dict[str, MemoryRecord] = field(default_factory=dict)
    memory_documents: dict[str, list[str]] = field(default_factory=dict)
    entities: dict[str, EntityRecord] = field(default_factory=dict)
    relations: dict[str, RelationRecord] = field(default_factory=dict)
    spaces: list[SpaceRecord] = field(default_factory=list)
    profiles: dict[str, Profile] = field(default_factory=dict)
    duplicates: list[Duplicate] = field(default_factory=list)
    report: ParseReport = field(default_factory=ParseReport)
    #: memories the load listed but whose own history could not be read (a throttled or
    #: failing service): their document and versions are unknown, not absent, so no
    #: finding may rest on them until a resume reads them
    unread: set[str] = field(default_factory=set)
    #: False for a source that keeps no source documents (mem0): a memory without one is
    #: how that service works, not an integrity finding
    keeps_documents: bool = True

    def carry(self, other: Dataset) -> Dataset:
        """``other`` with this dataset's load facts (unread memories still present in it,
        whether documents are kept): a lens that builds a new dataset calls this."""
        other.unread = {m for m in self.unread if m in other.memories}
        other.keeps_documents = self.keeps_documents
        return other

    def space_label(self, tag: str | None) -> str:
        """How a space is named to a person: the name the data gives it ("Personal"), else
        its tag as it is ("" for none). A masked dataset (presenter mode) names its spaces
        by their pseudonyms, so this never shows a real name there.

        >>> ds = Dataset(spaces=[SpaceRecord("sm_project_personal", name="Personal")])
        >>> ds.space_label("sm_project_personal"), ds.space_label("acme_work")
        ('Personal', 'acme_work')
        """
        if not tag:
            return ""
        return next((s.title for s in self.spaces if s.container_tag == tag), tag)

    def kind_of(self, node_id: str) -> str | None:
        """``document``, ``memory``, ``entity`` or ``None`` for an unknown id."""
        if node_id in self.memories:
            return "memory"
        if node_id in self.documents:
            return "document"
        if node_id in self.entities:
            return "entity"
        return None

    def add_document(self, raw: Any, where: str) -> None:
        """Parse one feed document and merge it and its memories in."""
        doc, memories = parse_document(raw, where, self.report)
        if doc is None:
            return
        if doc.id in self.documents:
            self.report.skip(where, f"document {doc.id} appears again; first occurrence kept")
            return
        if doc.id in self.memories or doc.id in self.entities:
            self.report.skip(where, f"document id {doc.id} is already used by another record")
            return
        self.documents[doc.id] = doc
        for mem in memories:
            self.add_memory(mem, doc.id)

    def add_memory(self, mem: MemoryRecord, document_id: str | None) -> None:
        """Merge one memory seen under ``document_id`` (``None``: seen on its own)."""
        mem_id = mem.id
        if mem_id in self.documents or mem_id in self.entities:
            self.report.skip(
                f"{document_id}/{mem_id}" if document_id else mem_id,
                f"memory id {mem_id} is already used by another record",
            )
            return
        known = self.memories.get(mem_id)
        if known is None:
            self.memories[mem_id] = mem
            self.memory_documents[mem_id] = []
        elif known.fingerprint() != mem.fingerprint():
            self.duplicates.append(Duplicate(mem_id, document_id))
            self.report.note(
                mem_id,
                f"memory {mem_id} appears again"
                + (f" under {document_id}" if document_id else "")
                + " with different values; the first occurrence is kept",
            )
        if document_id is not None:
            docs = self.memory_documents[mem_id]
            if document_id not in docs:
                docs.append(document_id)
                self.documents[document_id].memory_ids.append(mem_id)

    def add_passport(self, raw: Any) -> None:
        """Merge a Spomory passport (decoded or wrapped in ``{"result": ...}``)."""
        entities, relations = parse_passport(raw, self.report)
        for ent in entities:
            if ent.id in self.entities or ent.id in self.documents or ent.id in self.memories:
                self.report.skip(f"entity {ent.id}", f"id {ent.id} is already used")
                continue
            self.entities[ent.id] = ent
        for rel in relations:
            if rel.id in self.relations:
                self.report.skip(f"relation {rel.id}", f"relation {rel.id} appears again")
                continue
            self.relations[rel.id] = rel

    @property
    def memory_count(self) -> int:
        """Number of distinct memories."""
        return len(self.memories)


def _documents_of(obj: Any) -> list[Any] | None:
    """The document list of a feed page (response object or bare list), else ``None``."""
    if isinstance(obj, list):
        return obj
    if isinstance(obj, dict):
        docs = obj.get("documents")
        if isinstance(docs, list):
            return docs
    return None


class UnrecognisedInput(ValueError):
    """The input is neither Supermemory feed pages nor a Spomory passport."""


def from_feed_pages(pages: Iterable[Any], dataset: Dataset | None = None) -> Dataset:
    """Merge Supermemory feed pages (response objects or bare document lists) into a dataset."""
    ds = dataset if dataset is not None else Dataset()
    for p, page in enumerate(pages, start=1):
        docs = _documents_of(page)
        if docs is None:
            raise UnrecognisedInput(f"page {p} has no documents list")
        for i, raw in enumerate(docs):
            where = raw["id"] if isinstance(raw, dict) and isinstance(raw.get("id"), str) else (
                f"page {p} documents[{i}]"
            )
            ds.add_document(raw, where)
    return ds


def _is_empty_graph(obj: Any) -> bool:
    """Spomory's ``/v1/graph`` answer when no entity matched: ``{"result": "{}"}``."""
    return isinstance(obj, dict) and obj.get("result") == "{}" and len(obj) == 1


def input_shape(obj: Any) -> str | None:
    """What a decoded JSON value holds: ``"feed"`` (a documents page or bare list),
    ``"passport"`` (a Spomory passport, maybe wrapped), ``"both"`` (a page that also
    carries a passport's ``entities``/``relations``: a mixed snapshot), ``"empty"``
    (Spomory's empty graph) or ``None``.

    >>> input_shape([]), input_shape({"entities": []}), input_shape({"x": 1})
    ('feed', 'passport', None)
    >>> input_shape({"documents": [], "entities": [], "relations": []})
    'both'
    """
    return _shape(obj, decode_result(obj))


def _shape(obj: Any, decoded: Any) -> str | None:
    if _is_empty_graph(obj):
        return "empty"
    feed = _documents_of(obj) is not None
    passport = looks_like_passport(decoded)
    if feed and passport:
        return "both"
    return "feed" if feed else "passport" if passport else None


def from_objects(objects: Iterable[Any]) -> Dataset:
    """Build one dataset from decoded JSON values: feed pages and/or Spomory passports
    (a value holding both adds its documents first)."""
    ds = Dataset()
    for n, obj in enumerate(objects, start=1):
        decoded = decode_result(obj, ds.report)
        shape = _shape(obj, decoded)
        if shape is None:
            raise UnrecognisedInput(
                f"input {n} is neither a Supermemory documents page nor a Spomory passport"
            )
        if shape in ("feed", "both"):
            from_feed_pages([obj], ds)
        if shape in ("passport", "both"):
            ds.add_passport(decoded)
    return ds


def decode_json_bytes(data: bytes) -> tuple[Any, list[str]]:
    """Decode a JSON file's bytes (UTF-8, a byte-order mark allowed); ``(value, notes)``.

    Raises :class:`~memscope.records.jsonsafe.JsonError` whose text completes "the file
    is …" (``not UTF-8 text (…)`` or ``not JSON (…)``).

    >>> decode_json_bytes(b'\\xef\\xbb\\xbf{"documents": []}')
    ({'documents': []}, [])
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise JsonError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    return load_json(text)


def read_files(paths: Iterable[str | Path]) -> Dataset:
    """Read JSON files (feed pages or a passport, a UTF-8 byte-order mark allowed) as
    one dataset; what had to be cut while decoding is noted under the file's name.

    Raises ``OSError`` for an unreadable file and :class:`UnrecognisedInput` (with the file
    name) for one that is not JSON or not a supported shape.
    """
    objects, notes = [], []
    for path in paths:
        try:
            obj, said = decode_json_bytes(Path(path).read_bytes())
        except JsonError as exc:
            raise UnrecognisedInput(f"{path}: {exc}") from None
        inner = ParseReport()
        decoded = decode_result(obj, inner)  # once: a passport's result string can be big
        shape = _shape(obj, decoded)
        if shape is None:
            raise UnrecognisedInput(
                f"{path}: neither a Supermemory documents page nor a Spomory passport"
            )
        objects.append(decoded if shape == "passport" else obj)
        notes.extend((str(path), note) for note in [*said, *(i.message for i in inner.issues)])
    ds = from_objects(objects)
    for where, note in notes:
        ds.report.note(where, note)
    return ds
