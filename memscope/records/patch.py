"""A loaded dataset changed by what an action did, instead of read again: always a copy.

A dataset in a shared load is read by other sessions, so nothing here changes the one it
is given: each function returns a new :class:`~memscope.records.dataset.Dataset` with its
own containers (dicts, lists) and new records for what changed, sharing the records that
did not. The sources (:mod:`memscope.sources.patch`) decide *what* changed — which ids the
service forgot, the memories and documents it answered — and call these to apply it, so a
patched dataset reads like a load made after the action.

>>> from memscope.records.models import MemoryRecord
>>> ds = Dataset()
>>> ds.add_memory(MemoryRecord(id="m", memory="x"), None)
>>> after = mark_forgotten(ds, ["m"], at=None, reason="moved")
>>> after.memories["m"].is_forgotten, ds.memories["m"].is_forgotten
(True, False)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace
from datetime import datetime

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord, Profile, SpaceRecord


def copy(ds: Dataset) -> Dataset:
    """A new dataset with its own containers, sharing every record (replace a record to
    change it; never change one in place)."""
    return replace(ds, documents=dict(ds.documents), memories=dict(ds.memories),
                   memory_documents=dict(ds.memory_documents), entities=dict(ds.entities),
                   relations=dict(ds.relations), spaces=list(ds.spaces),
                   profiles=dict(ds.profiles), duplicates=list(ds.duplicates),
                   unread=set(ds.unread))


def mark_forgotten(ds: Dataset, ids: Iterable[str], *, at: datetime | None,
                   reason: str | None) -> Dataset:
    """``ds`` with the memories ``ids`` forgotten: ``is_forgotten``, ``forget_reason`` set
    to ``reason`` and ``updated_at`` to ``at`` (``None``: left as it was). A memory already
    forgotten, or not loaded, is left alone."""
    out = copy(ds)
    for mem_id in dict.fromkeys(ids):
        mem = out.memories.get(mem_id)
        if mem is None or mem.is_forgotten:
            continue
        out.memories[mem_id] = replace(mem, is_forgotten=True, forget_reason=reason,
                                       updated_at=at or mem.updated_at)
    return out


def mark_restored(ds: Dataset, ids: Iterable[str], *, at: datetime | None) -> Dataset:
    """``ds`` with the memories ``ids`` no longer forgotten (reason cleared, ``updated_at``
    set to ``at`` when given); one not forgotten, or not loaded, is left alone."""
    out = copy(ds)
    for mem_id in dict.fromkeys(ids):
        mem = out.memories.get(mem_id)
        if mem is None or not mem.is_forgotten:
            continue
        out.memories[mem_id] = replace(mem, is_forgotten=False, forget_reason=None,
                                       updated_at=at or mem.updated_at)
    return out


def _root(ds: Dataset, mem_id: str) -> str | None:
    """The first version up the parent path of ``mem_id`` (``None`` for a first one)."""
    seen, top = {mem_id}, ds.memories[mem_id].parent_id
    while top is not None and top in ds.memories and top not in seen:
        seen.add(top)
        parent = ds.memories[top].parent_id
        if parent is None:
            break
        top = parent
    return top


def unlink_forgotten(ds: Dataset, ids: Collection[str]) -> Dataset:
    """``ds`` without the links (a version's parent, an extends or derives link) between
    two forgotten memories one of which is in ``ids``, and with the roots below a cut
    link read again up the parent path.

    What Supermemory v5 shows after a forget: its history views leave forgotten memories
    out of every related list, so a load sees no link between two forgotten memories."""
    out = copy(ds)
    forgotten = {i for i, m in out.memories.items() if m.is_forgotten}
    cut: list[str] = []
    for mem_id, mem in ds.memories.items():
        if mem_id not in forgotten:
            continue
        drop = {o for o in (mem.relations or {}) if o in forgotten
                and (mem_id in ids or o in ids)}
        parent = mem.parent_id if mem.parent_id in forgotten and (
            mem_id in ids or mem.parent_id in ids) else None
        if not drop and parent is None:
            continue
        rels = {o: k for o, k in (mem.relations or {}).items() if o not in drop}
        out.memories[mem_id] = replace(mem, relations=rels or None,
                                       parent_id=None if parent else mem.parent_id)
        if parent is not None:
            cut.append(mem_id)
    if not cut:
        return out
    children: dict[str, list[str]] = {}
    for mem_id, mem in out.memories.items():
        if mem.parent_id is not None:
            children.setdefault(mem.parent_id, []).append(mem_id)
    below, seen = list(cut), set(cut)
    while below:
        mem_id = below.pop()
        out.memories[mem_id] = replace(out.memories[mem_id], root_id=_root(out, mem_id))
        for child in children.get(mem_id, []):
            if child not in seen:
                seen.add(child)
                below.append(child)
    return out


def refresh_memories(ds: Dataset, records: Iterable[MemoryRecord], *,
                     gone: Iterable[str] = ()) -> Dataset:
    """``ds`` with the loaded memories ``records`` name replaced by them, as re-read from
    the service: their state (flags, text, times) is the record's; where the record does
    not say (a list item names no parent, root or links) the loaded values stay. The
    memories ``gone`` (the service no longer has them) are removed, with their links to
    documents. Records of memories not loaded are left out."""
    out = copy(ds)
    for rec in records:
        old = out.memories.get(rec.id)
        if old is None:
            continue
        out.memories[rec.id] = replace(
            rec, parent_id=rec.parent_id if rec.parent_id is not None else old.parent_id,
            root_id=rec.root_id if rec.root_id is not None else old.root_id,
            relations=rec.relations if rec.relations is not None else old.relations,
            space_id=rec.space_id or old.space_id)
    for mem_id in dict.fromkeys(gone):
        if out.memories.pop(mem_id, None) is None:
            continue
        for doc_id in out.memory_documents.pop(mem_id, []):
            doc = out.documents.get(doc_id)
            if doc is not None:
                out.documents[doc_id] = replace(
                    doc, memory_ids=[m for m in doc.memory_ids if m != mem_id])
        out.unread.discard(mem_id)
    return out


def add_records(ds: Dataset, fragment: Dataset, *,
                not_latest: Iterable[str] = ()) -> Dataset:
    """``ds`` with the documents and memories of ``fragment`` (e.g. an added document
    as the service answered it): new documents come first (a load lists the newest
    first), new memories are linked to their documents, and memories already loaded take
    the fragment's state (:func:`refresh_memories`) and its document links. The memories
    ``not_latest`` (those a new version replaced) are no longer latest."""
    out = refresh_memories(ds, [m for m in fragment.memories.values() if m.id in ds.memories])
    fresh = {d: replace(doc, memory_ids=list(doc.memory_ids))
             for d, doc in fragment.documents.items() if d not in out.documents}
    out.documents = {**fresh, **out.documents}
    new = {m: rec for m, rec in fragment.memories.items() if m not in out.memories}
    out.memories = {**new, **out.memories}
    for mem_id in fragment.memories:
        docs = list(out.memory_documents.get(mem_id, []))
        for doc_id in fragment.memory_documents.get(mem_id, []):
            if doc_id in out.documents and doc_id not in docs:
                docs.append(doc_id)
                if doc_id not in fresh:  # an older document: its list is a new one
                    doc = out.documents[doc_id]
                    out.documents[doc_id] = replace(doc, memory_ids=[*doc.memory_ids, mem_id])
        out.memory_documents[mem_id] = docs
    for mem_id in dict.fromkeys(not_latest):
        mem = out.memories.get(mem_id)
        if mem is not None and mem.is_latest:
            out.memories[mem_id] = replace(mem, is_latest=False)
    return out


def with_spaces(ds: Dataset, spaces: Iterable[SpaceRecord], *, keep: bool = True) -> Dataset:
    """``ds`` with ``spaces`` (as the service listed them now) in place of the loaded ones
    of the same tag; with ``keep`` the loaded spaces the list lacks stay after them."""
    out = copy(ds)
    listed = list(spaces)
    tags = {s.container_tag for s in listed}
    out.spaces = listed + ([s for s in ds.spaces if s.container_tag not in tags]
                           if keep else [])
    return out


def with_profiles(ds: Dataset, profiles: dict[str, Profile]) -> Dataset:
    """``ds`` with ``profiles`` (per space tag) in place of the loaded ones."""
    out = copy(ds)
    out.profiles.update(profiles)
    return out


def recount(ds: Dataset, before: Dataset, ids: Iterable[str]) -> Dataset:
    """``ds`` with each space's ``memory_count`` (where the service counts: current
    memories, latest and not forgotten) less the memories ``ids`` that were current in
    ``before`` and are not any more in ``ds``."""
    gone: dict[str, int] = {}
    for mem_id in dict.fromkeys(ids):
        was, now = before.memories.get(mem_id), ds.memories.get(mem_id)
        if was is None or not was.is_latest or was.is_forgotten or not was.container_tag:
            continue
        if now is None or now.is_forgotten or not now.is_latest:
            gone[was.container_tag] = gone.get(was.container_tag, 0) + 1
    if not gone:
        return ds
    out = copy(ds)
    out.spaces = [replace(s, memory_count=max(0, s.memory_count - gone[s.container_tag]))
                  if s.memory_count is not None and s.container_tag in gone else s
                  for s in ds.spaces]
    return out


__all__ = ["add_records", "copy", "mark_forgotten", "mark_restored", "recount",
           "refresh_memories", "unlink_forgotten", "with_profiles", "with_spaces"]
