"""Supermemory v5 answers in the shapes the records layer reads (the legacy feed's).

A v5 memory keeps its times under ``system`` and names no document or parent; the
history views (:mod:`memscope.sources._history_v5`) supply those, and here they are put
where a legacy feed document has them (``memoryEntries`` with ``parentMemoryId``,
``rootMemoryId`` and ``memoryRelations``), so one store read through either dialect
gives the same records.
"""

from __future__ import annotations

from typing import Any

from memscope.records.dataset import Dataset
from memscope.records.models import MemoryRecord, ParseReport, SpaceRecord, parse_memory
from memscope.sources._history_v5 import HistoryOutcome
from memscope.sources.processing import status_sentence
from memscope.sources.results import AddResult, SearchHit
from memscope.sources.supermemory import SERVICE

MEMORY_FIELDS = ("memory", "version", "isLatest", "isForgotten", "isStatic", "isInference")


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _system(raw: dict[str, Any]) -> dict[str, Any]:
    system = raw.get("system")
    return system if isinstance(system, dict) else {}


def space(raw: dict[str, Any], report: ParseReport) -> SpaceRecord:
    """One ``GET /ns`` namespace as a space, with its document and memory counts."""
    extra = {k: v for k, v in raw.items() if k not in {
        "id", "namespace", "description", "documentCount", "memoryCount"}}
    ident = raw.get("id")
    description = raw.get("description")
    return SpaceRecord(container_tag=raw["namespace"],
                       id=ident if isinstance(ident, str) else None,
                       description=description if isinstance(description, str) else None,
                       extra=extra, document_count=_count(raw.get("documentCount")),
                       memory_count=_count(raw.get("memoryCount")))


def memory_wire(raw: dict[str, Any], tag: str, space_id: str | None,
                outcome: HistoryOutcome | None = None) -> dict[str, Any]:
    """A v5 memory (list item, view or related item) as a legacy memory entry."""
    out: dict[str, Any] = {"id": raw["id"], "spaceContainerTag": tag}
    out.update({k: raw[k] for k in MEMORY_FIELDS if k in raw})
    if space_id:
        out["spaceId"] = space_id
    system = _system(raw)
    for key in ("createdAt", "updatedAt"):
        if system.get(key) is not None:
            out[key] = system[key]
    metadata = raw.get("metadata")
    if isinstance(metadata, dict) and metadata:
        out["metadata"] = metadata
    if outcome is not None:
        mem_id = raw["id"]
        out["parentMemoryId"] = outcome.parent.get(mem_id)
        out["rootMemoryId"] = outcome.root.get(mem_id)
        rels = outcome.relations.get(mem_id)
        out["memoryRelations"] = dict(rels) if rels else None
    return out


def _document_wire(raw: dict[str, Any]) -> dict[str, Any]:
    """A v5 document (list item or included document) as a legacy feed document."""
    out: dict[str, Any] = {k: raw[k] for k in ("id", "title", "type", "summary", "url",
                                               "content") if raw.get(k) is not None}
    metadata = raw.get("metadata")
    if isinstance(metadata, dict) and metadata:
        out["metadata"] = metadata
    system = _system(raw)
    for key in ("status", "createdAt", "updatedAt"):
        if system.get(key) is not None:
            out[key] = system[key]
    return out


def dataset(names: list[str], spaces: list[SpaceRecord],
            lists: dict[tuple[str, str], list[Any]],
            items: dict[str, tuple[str, dict[str, Any]]], outcome: HistoryOutcome) -> Dataset:
    """The records of a v5 load: documents with the memories the views linked to them
    (list order), then memories no view linked to a document, on their own."""
    space_ids = {s.container_tag: s.id for s in spaces}
    docs: dict[str, dict[str, Any]] = {}
    for ns in names:
        for raw in lists[(ns, "documents")]:
            if isinstance(raw, dict) and isinstance(raw.get("id"), str):
                docs.setdefault(raw["id"], {**_document_wire(raw), "memoryEntries": []})
    alone: list[MemoryRecord] = []
    ds = Dataset()
    for mem_id, (ns, raw) in items.items():
        entry = memory_wire(raw, ns, space_ids.get(ns), outcome)
        doc_id = outcome.memory_document.get(mem_id)
        if doc_id is not None and doc_id not in docs and doc_id in outcome.documents:
            docs[doc_id] = {**_document_wire(outcome.documents[doc_id]), "memoryEntries": []}
        if doc_id in docs:
            docs[doc_id]["memoryEntries"].append(entry)
        else:
            mem = parse_memory(entry, mem_id, ds.report)
            if mem is not None:
                alone.append(mem)
    for doc_id, doc in docs.items():
        ds.add_document(doc, doc_id)
    for mem in alone:
        if mem.id not in ds.memories:
            ds.add_memory(mem, None)
    return ds


def chain(raws: list[dict[str, Any]], tag: str) -> list[MemoryRecord]:
    """A history view's versions as records, oldest first, each with its parent."""
    report = ParseReport()
    order = sorted({r["id"]: r for r in raws}.values(),
                   key=lambda r: (r.get("version") if isinstance(r.get("version"), int | float)
                                  else 1, r["id"]))
    out: list[MemoryRecord] = []
    for i, raw in enumerate(order):
        entry = memory_wire(raw, tag, None)
        if i:
            entry.update(parentMemoryId=order[i - 1]["id"], rootMemoryId=order[0]["id"],
                         memoryRelations={order[i - 1]["id"]: "updates"})
        mem = parse_memory(entry, f"history[{i}]", report)
        if mem is not None:
            out.append(mem)
    return out


def profile(answer: Any) -> dict[str, Any]:
    """``POST /ns/{ns}/profile`` as the profile reader takes it: each ``{id, memory}``
    entry a line naming its memory (an ``aggregated_`` id names a summary of several,
    so no one memory)."""
    body = answer.get("profile") if isinstance(answer, dict) else None
    if not isinstance(body, dict):
        return {"profile": body}
    out: dict[str, Any] = {}
    for kind in ("static", "dynamic"):
        lines = body.get(kind)
        if not isinstance(lines, list):
            out[kind] = lines
            continue
        out[kind] = []
        for line in lines:
            if isinstance(line, dict) and isinstance(line.get("memory"), str):
                ident = line.get("id")
                ids = [ident] if isinstance(ident, str) and not ident.startswith(
                    "aggregated_") else []
                out[kind].append({"text": line["memory"], "memoryIds": ids})
            else:
                out[kind].append(line)
    return {"profile": out}


def hits(results: list[Any], tag: str) -> list[SearchHit]:
    """``POST /ns/{ns}/search`` results as memory and chunk hits (with their document)."""
    out: list[SearchHit] = []
    report = ParseReport()
    for i, raw in enumerate(results):
        if not isinstance(raw, dict) or not isinstance(raw.get("id"), str):
            continue
        sim = raw.get("similarity")
        sim = float(sim) if isinstance(sim, int | float) else None
        included = raw.get("included")
        doc = included.get("document") if isinstance(included, dict) else None
        docs = [doc["id"]] if isinstance(doc, dict) and isinstance(doc.get("id"), str) else []
        if raw.get("memory") is not None:
            record = parse_memory(memory_wire(raw, tag, None), f"results[{i}]", report)
            out.append(SearchHit("memory", str(raw["memory"]), raw["id"], sim, record, raw,
                                 docs))
        elif raw.get("chunk") is not None:
            out.append(SearchHit("chunk", str(raw["chunk"]), raw["id"], sim, raw=raw,
                                 document_ids=docs))
    return out


def status(document_id: str, answer: dict[str, Any], tag: str) -> AddResult:
    """``GET /ns/{ns}/document/{id}``: the status under ``system`` and its memories."""
    state = str(_system(answer).get("status") or answer.get("status") or "unknown")
    entries = answer.get("memories")
    mem_ids = [e["id"] for e in entries if isinstance(e, dict) and isinstance(e.get("id"), str)
               ] if isinstance(entries, list) else []
    title = answer.get("title") if isinstance(answer.get("title"), str) else None
    return AddResult(document_id, state, status_sentence(SERVICE, document_id, state),
                     container_tag=tag, title=title, memory_ids=mem_ids, raw=answer)


def forget_answer(answer: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    """``(matched ids, {id: error})`` of a v5 forget answer."""
    done = [m["id"] for m in answer.get("matches") or []
            if isinstance(m, dict) and isinstance(m.get("id"), str)]
    errors = {e["id"]: str(e.get("error") or "not forgotten")
              for e in answer.get("errors") or []
              if isinstance(e, dict) and isinstance(e.get("id"), str)}
    return done, errors


def match_texts(matches: list[Any]) -> dict[str, str]:
    """``{id: memory}`` of a semantic forget's matches, in the service's order."""
    return {m["id"]: str(m.get("memory") or "") for m in matches
            if isinstance(m, dict) and isinstance(m.get("id"), str)}
