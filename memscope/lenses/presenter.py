"""Presenter mode: the same memory graph with every piece of personal text replaced.

:func:`mask` returns a copy of a dataset in which ids, dates, flags, versions, links,
spaces' container tags, document types and statuses are kept, and every text written by
or about the user is replaced by a neutral placeholder that keeps the structure:

* memory text → ``"Memory 12 (34 chars)"`` (numbered in dataset order);
* document title → ``"Document 3"``, summary / content → ``"Summary of document 3
  (N chars)"`` / ``"Content of document 3 (N chars)"``, url → ``"URL of document 3"``,
  metadata → ``None``;
* forget reasons and Spomory predicates → ``"Reason 2"`` / ``"predicate 2"``, the same
  placeholder for the same text (so charts of reasons or predicates keep their shape);
* profile lines → ``"Static profile line 1 of <space>"`` (cited memory ids kept);
* entity names → ``"Entity 4"``, aliases → ``"Alias 4.1"``, attributes → ``{}``;
  provenance spans → ``"Span (N chars)"``;
* space tags (a memory's container tag and space id, a space's tag, id and name, a
  profile's key) → one stable pseudonym per space, ``"Space 1"``, ``"Space 2"``… (see
  :func:`space_pseudonyms`: a tag is often a customer's or a person's name); space
  descriptions → ``None``; every record's unknown fields (``extra``) are dropped, since
  they may hold text too.

Deterministic: the same dataset gives the same masked dataset.

    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "title": "Diary",
    ...     "memoryEntries": [{"id": "m", "memory": "Secret plan"}]}]}])
    >>> masked = mask(ds)
    >>> masked.memories["m"].memory, masked.documents["d"].title, ds.memories["m"].memory
    ('Memory 1 (11 chars)', 'Document 1', 'Secret plan')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import replace

from memscope.records.dataset import Dataset, Duplicate
from memscope.records.models import ParseReport, Profile, ProfileLine
from memscope.records.passport import Provenance


class _Names:
    """The same placeholder for the same text: ``"<prefix> <n>"``."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.seen: dict[str, str] = {}

    def __call__(self, text: str | None) -> str | None:
        if text is None:
            return None
        if text not in self.seen:
            self.seen[text] = f"{self.prefix} {len(self.seen) + 1}"
        return self.seen[text]


def _sized(label: str, text: str | None) -> str | None:
    return None if text is None else f"{label} ({len(text)} chars)"


def mask_text(text: str | None, label: str = "Text") -> str | None:
    """One text replaced by ``"<label> (N chars)"`` (``None`` stays ``None``).

    >>> mask_text("Allergic to penicillin.", "Snapshot")
    'Snapshot (23 chars)'
    """
    return _sized(label, text)


def extend_pseudonyms(known: Mapping[str, str], tags: Iterable[str]) -> dict[str, str]:
    """``known`` (tag → pseudonym) plus a pseudonym for each of ``tags`` it lacks,
    numbered on from the known ones in sorted order: a tag the loaded data does not name
    (a ledger row of an older load, a space the service lists but the load left out) is
    never shown as it is in presenter mode.

    >>> extend_pseudonyms({"acme_work": "Space 1"}, ["zeta", "acme_work", "alpha"])
    {'acme_work': 'Space 1', 'alpha': 'Space 2', 'zeta': 'Space 3'}
    """
    out = dict(known)
    for tag in sorted({t for t in tags if t and t not in out}):
        out[tag] = f"Space {len(set(out.values())) + 1}"
    return out


def space_pseudonyms(dataset: Dataset) -> dict[str, str]:
    """Each space tag (and space id) of ``dataset`` → its pseudonym ``"Space <n>"``.

    Numbered in a deterministic order: the spaces of the space list first, in its order
    (what the summary card has always called "Space 1/2/3"), then any other tag in the
    order the memories and profiles name it. A space's id, and the space id of a memory
    that also has a tag, get the same pseudonym as the tag.

    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": "m", "memory": "x", "spaceContainerTag": "acme_work", "spaceId": "s9"},
    ...     {"id": "n", "memory": "y", "spaceContainerTag": "jane_doe"}]}]}])
    >>> space_pseudonyms(ds)
    {'acme_work': 'Space 1', 's9': 'Space 1', 'jane_doe': 'Space 2'}
    """
    out: dict[str, str] = {}
    count = 0

    def name(key: str | None, alias: str | None = None) -> None:
        nonlocal count
        if not key:
            return
        if key not in out:
            count += 1
            out[key] = f"Space {count}"
        if alias and alias not in out:
            out[alias] = out[key]

    for s in dataset.spaces:
        name(s.container_tag, s.id)
    for m in dataset.memories.values():
        name(m.container_tag or m.space_id, m.space_id if m.container_tag else None)
    for tag, profile in dataset.profiles.items():
        name(tag)
        name(profile.container_tag)
    return out


def mask_spaces(sentence: str, pseudonyms: dict[str, str]) -> str:
    """``sentence`` with each real space tag in it (a whole word) replaced by its pseudonym.

    >>> mask_spaces("Forgets 3 memories of acme_work.", {"acme_work": "Space 1"})
    'Forgets 3 memories of Space 1.'
    """
    for tag in sorted(pseudonyms, key=lambda t: (-len(t), t)):
        if tag in sentence:
            sentence = re.sub(rf"(?<![\w-]){re.escape(tag)}(?![\w-])",
                              pseudonyms[tag], sentence)
    return sentence


def real_space(shown: str, pseudonyms: dict[str, str]) -> str:
    """The space tag whose pseudonym is ``shown`` (``shown`` itself when none is).

    >>> real_space(" Space 2 ", {"acme": "Space 1", "jane": "Space 2"}), real_space("x", {})
    ('jane', 'x')
    """
    wanted = shown.strip()
    return next((tag for tag, name in pseudonyms.items() if name == wanted), shown)


def _named(dataset: Dataset, given: dict[str, str] | None) -> dict[str, str]:
    """:func:`space_pseudonyms` of ``dataset``, numbered as ``given`` where it says."""
    own = space_pseudonyms(dataset)
    if given is None:
        return own
    out, same = dict(given), {}
    for tag, local in own.items():
        if tag in out:
            same.setdefault(local, out[tag])
            continue
        if local not in same:
            same[local] = f"Space {len(set(out.values())) + 1}"
        out[tag] = same[local]
    return out


def _provenance(items: list[Provenance]) -> list[Provenance]:
    return [replace(p, source_span=_sized("Span", p.source_span)) for p in items]


def mask(dataset: Dataset, spaces: dict[str, str] | None = None) -> Dataset:
    """A masked copy of ``dataset`` (see the module docstring); the input is unchanged.

    ``spaces`` (tag → pseudonym, e.g. :func:`space_pseudonyms` of the whole load when
    ``dataset`` is a part of it, such as the data as of a day) names the spaces the same
    way as that whole; a tag it lacks gets the next free number."""
    reasons = _Names("Reason")
    predicates = _Names("predicate")
    spaces = _named(dataset, spaces)

    def space(tag: str | None) -> str | None:
        return spaces.get(tag, tag) if tag else tag

    out = Dataset()
    for n, (doc_id, doc) in enumerate(dataset.documents.items(), start=1):
        out.documents[doc_id] = replace(
            doc, title=f"Document {n}",
            summary=_sized(f"Summary of document {n}", doc.summary),
            url=None if doc.url is None else f"URL of document {n}",
            content=_sized(f"Content of document {n}", doc.content),
            metadata=None, memory_ids=list(doc.memory_ids), extra={})
    for n, (mem_id, mem) in enumerate(dataset.memories.items(), start=1):
        relations = None if mem.relations is None else dict(mem.relations)
        out.memories[mem_id] = replace(
            mem, memory=f"Memory {n} ({len(mem.memory)} chars)",
            container_tag=space(mem.container_tag), space_id=space(mem.space_id),
            forget_reason=reasons(mem.forget_reason), relations=relations, extra={})
        out.memory_documents[mem_id] = list(dataset.memory_documents.get(mem_id, []))
    for n, (ent_id, ent) in enumerate(dataset.entities.items(), start=1):
        out.entities[ent_id] = replace(
            ent, name=f"Entity {n}",
            aliases=[f"Alias {n}.{i}" for i in range(1, len(ent.aliases) + 1)],
            attributes={}, provenance=_provenance(ent.provenance), extra={})
    for rel_id, rel in dataset.relations.items():
        out.relations[rel_id] = replace(rel, predicate=predicates(rel.predicate) or "",
                                        provenance=_provenance(rel.provenance), extra={})
    out.spaces = [replace(s, container_tag=spaces[s.container_tag], id=space(s.id),
                          name=None if s.name is None else spaces[s.container_tag],
                          description=None, extra={})
                  for s in dataset.spaces]
    for tag, profile in dataset.profiles.items():
        where = space(tag) or "this space"
        out.profiles[space(tag) or tag] = Profile(space(profile.container_tag), *(
            [ProfileLine(f"{kind.title()} profile line {i} of {where}", line.kind,
                         list(line.memory_ids))
             for i, line in enumerate(lines, start=1)]
            for kind, lines in (("static", profile.static), ("dynamic", profile.dynamic))))
    out.duplicates = [Duplicate(d.memory_id, d.document_id) for d in dataset.duplicates]
    out.report = ParseReport(list(dataset.report.skipped), list(dataset.report.issues))
    return dataset.carry(out)
