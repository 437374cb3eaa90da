"""Exports of the current (filtered) graph: GraphML, GEXF, node-link JSON, CSV, offline
HTML and an evidence pack.

Every graph export is built from one *flat* graph (:func:`flat_graph`): a
``MultiDiGraph`` whose node and edge attributes are only ``str``, ``int``, ``float`` or
``bool`` (an attribute with no value is left out; times are ISO-8601 UTC strings; each
attribute name has one type everywhere), so GraphML and GEXF declare valid keys and
Gephi, yEd and networkx read them back unchanged. Edge keys are ``e0``, ``e1`` … in
graph order, the same ids the view gives its edges. Characters that XML 1.0 forbids
(most control characters) are removed from text.

Presenter mode is upstream: pass a masked analysis (see :mod:`memscope.lenses.presenter`).

Example::

    >>> import io, networkx as nx
    >>> from memscope.graph.analysis import analyse
    >>> from memscope.records.dataset import from_feed_pages
    >>> ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
    ...     {"id": "a", "memory": "x"}, {"id": "b", "memory": "y", "parentMemoryId": "a"}]}]}])
    >>> g = nx.read_graphml(io.BytesIO(to_graphml(analyse(ds))), force_multigraph=True)
    >>> sorted(g.edges(data="kind"))
    [('a', 'b', 'updates'), ('d', 'a', 'source'), ('d', 'b', 'source')]
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import zipfile
from collections.abc import Collection, Hashable, Mapping
from typing import Any

import networkx as nx

from memscope.export.html import offline_html
from memscope.export.xml_writers import gexf_bytes, graphml_bytes
from memscope.graph.analysis import Analysis
from memscope.records.text import csv_safe, one_line, shorten
from memscope.records.time import format_time
from memscope.view.build import ViewData

__all__ = [
    "CSV_COLUMNS", "csv_safe", "evidence_json", "evidence_nodes", "evidence_pack", "flat_graph",
    "memories_csv", "offline_html", "to_gexf", "to_graphml", "to_node_link", "trail_file",
]

_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
LABEL_MAX = 60
#: a fixed ZIP timestamp keeps evidence packs byte-identical for identical input
ZIP_TIME = (2000, 1, 1, 0, 0, 0)
CSV_COLUMNS = ["id", "memory", "state", "static", "inferred", "version", "stored_version",
               "is_latest", "is_forgotten", "space", "documents", "parent_id", "root_id",
               "chain_root", "relations", "created", "updated", "forget_after", "forget_reason"]


def _clean(text: Any) -> str:
    return _XML_BAD.sub("", text if isinstance(text, str) else str(text))


def _put(attrs: dict[str, Any], key: str, value: Any) -> None:
    """Set ``key`` to a flat value; ``None`` is left out, times become ISO strings."""
    if value is None:
        return
    if isinstance(value, bool | int | float):
        attrs[key] = value
    elif hasattr(value, "isoformat"):
        attrs[key] = format_time(value)
    else:
        attrs[key] = _clean(value)


def _node_attrs(analysis: Analysis, node_id: Hashable, data: dict[str, Any]) -> dict[str, Any]:
    kind, rec = data["kind"], data["record"]
    out: dict[str, Any] = {"kind": kind}
    if kind == "memory":
        chain = analysis.chains.of(rec.id)
        entry = chain.entry(rec.id) if chain else None
        text = rec.memory
        _put(out, "state", analysis.state(rec.id))
        _put(out, "version", str(entry.version if entry else rec.version))
        _put(out, "stored_version", repr(rec.version))
        for key in ("is_latest", "is_forgotten", "is_static", "is_inference", "parent_id",
                    "root_id", "forget_reason", "created_at", "updated_at", "forget_after"):
            _put(out, key.removesuffix("_at"), getattr(rec, key))
        _put(out, "space", rec.container_tag or rec.space_id)
        _put(out, "documents", ", ".join(data.get("documents") or []))
        _put(out, "chain_root", chain.root if chain else None)
    elif kind == "document":
        text = rec.title or str(node_id)
        _put(out, "doc_type", rec.type)
        for key in ("title", "summary", "url", "status", "source", "created_at",
                    "updated_at"):
            _put(out, key.removesuffix("_at"), getattr(rec, key))
        out["memory_count"] = len(rec.memory_ids)
    else:
        text = rec.name or str(node_id)
        _put(out, "entity_type", rec.type)
        _put(out, "memory_type", rec.memory_type)
        _put(out, "aliases", " | ".join(rec.aliases) or None)
        _put(out, "created", rec.created_at)
        _put(out, "updated", rec.updated_at)
    _put(out, "label", shorten(one_line(text), LABEL_MAX))
    _put(out, "text", text)
    return out


def _edge_attrs(data: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": data["kind"]}
    for key in ("declared", "via", "predicate", "relation_id"):
        _put(out, key, data.get(key))
    conf = data.get("confidence")
    if isinstance(conf, int | float) and not isinstance(conf, bool):
        out["confidence"] = float(conf)
    return out


def flat_graph(analysis: Analysis, visible: Collection[str] | None = None, *,
               edge_kinds: Collection[str] | None = None) -> nx.MultiDiGraph:
    """The graph to export: the ``visible`` nodes (``None`` = all) and the edges between
    them (of ``edge_kinds``, ``None`` = all), with flat attributes."""
    g = analysis.graph.graph
    shown = None if visible is None else set(visible)
    kinds = None if edge_kinds is None else set(edge_kinds)
    out = nx.MultiDiGraph(generator="Memscope", now=format_time(analysis.now))
    for node_id, data in g.nodes(data=True):
        if shown is None or node_id in shown:
            out.add_node(node_id, **_node_attrs(analysis, node_id, data))
    for i, (u, v, data) in enumerate(g.edges(data=True)):
        if u in out and v in out and (kinds is None or data["kind"] in kinds):
            out.add_edge(u, v, key=f"e{i}", **_edge_attrs(data))
    return out


def to_graphml(analysis: Analysis, visible: Collection[str] | None = None, *,
               edge_kinds: Collection[str] | None = None) -> bytes:
    """GraphML (UTF-8) of the flat graph; edge ids are the edge keys. Written in one pass
    (:mod:`memscope.export.xml_writers`), not through networkx's ElementTree."""
    return graphml_bytes(flat_graph(analysis, visible, edge_kinds=edge_kinds))


def to_gexf(analysis: Analysis, visible: Collection[str] | None = None, *,
            edge_kinds: Collection[str] | None = None) -> bytes:
    """GEXF 1.2 (UTF-8) of the flat graph; node ``label`` is the short text, edge ids are
    the edge keys; ``lastmodifieddate`` is the analysis's day (the same input gives the
    same bytes)."""
    g = flat_graph(analysis, visible, edge_kinds=edge_kinds)
    return gexf_bytes(g, (format_time(analysis.now) or "2000-01-01")[:10])


def to_node_link(analysis: Analysis, visible: Collection[str] | None = None, *,
                 edge_kinds: Collection[str] | None = None) -> dict[str, Any]:
    """networkx node-link data of the flat graph (``"edges"`` holds the links); JSON-ready.
    Read back with ``nx.node_link_graph(data, edges="edges")``."""
    return nx.node_link_data(flat_graph(analysis, visible, edge_kinds=edge_kinds),
                             edges="edges")


def memories_csv(analysis: Analysis, visible: Collection[str] | None = None) -> bytes:
    """One row per visible memory (columns :data:`CSV_COLUMNS`), UTF-8.

    A text cell that starts with ``=``, ``+``, ``-``, ``@``, tab or CR gets a leading
    ``'`` so that a spreadsheet shows it instead of running it as a formula.
    """
    ds = analysis.dataset
    shown = None if visible is None else set(visible)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for mem_id, mem in ds.memories.items():
        if shown is not None and mem_id not in shown:
            continue
        chain = analysis.chains.of(mem_id)
        entry = chain.entry(mem_id) if chain else None
        row = [mem_id, mem.memory, analysis.state(mem_id), mem.is_static, mem.is_inference,
               entry.version if entry else mem.version, mem.version, mem.is_latest,
               mem.is_forgotten, mem.space,
               " ".join(ds.memory_documents.get(mem_id, [])), mem.parent_id, mem.root_id,
               chain.root if chain else None,
               json.dumps(mem.relations, ensure_ascii=False) if mem.relations else None,
               format_time(mem.created_at), format_time(mem.updated_at),
               format_time(mem.forget_after), mem.forget_reason]
        writer.writerow(["" if v is None else csv_safe(v) for v in row])
    return buf.getvalue().encode("utf-8")


def evidence_nodes(analysis: Analysis, node_id: str) -> list[str]:
    """The nodes an evidence pack for ``node_id`` should hold: the whole version chain of
    a memory (or the memory alone) plus their source documents; a document with its
    memories; an entity with the entities it is related to."""
    ds, g = analysis.dataset, analysis.graph.graph
    if node_id in ds.memories:
        chain = analysis.chains.of(node_id)
        mems = chain.ids if chain else [node_id]
        docs = [d for m in mems for d in ds.memory_documents.get(m, [])]
        return list(dict.fromkeys([*mems, *docs]))
    if node_id in ds.documents:
        return [node_id, *ds.documents[node_id].memory_ids]
    if node_id in ds.entities:
        return list(dict.fromkeys([node_id, *g.successors(node_id), *g.predecessors(node_id)]))
    return []


def _memory_json(analysis: Analysis, mem_id: str) -> dict[str, Any]:
    ds = analysis.dataset
    mem = ds.memories[mem_id]
    chain = analysis.chains.of(mem_id)
    entry = chain.entry(mem_id) if chain else None
    return {
        "id": mem_id, "kind": "memory", "text": mem.memory, "state": analysis.state(mem_id),
        "version": entry.version if entry else mem.version, "storedVersion": mem.version,
        "isLatest": mem.is_latest, "isForgotten": mem.is_forgotten, "isStatic": mem.is_static,
        "isInference": mem.is_inference,
        "parentMemoryId": mem.parent_id, "rootMemoryId": mem.root_id,
        "memoryRelations": mem.relations, "spaceContainerTag": mem.container_tag,
        "spaceId": mem.space_id, "documents": ds.memory_documents.get(mem_id, []),
        "createdAt": format_time(mem.created_at), "updatedAt": format_time(mem.updated_at),
        "forgetAfter": format_time(mem.forget_after), "forgetReason": mem.forget_reason,
        "chainRoot": chain.root if chain else None,
    }


def evidence_json(analysis: Analysis, node_ids: Collection[str]) -> dict[str, Any]:
    """Everything known about ``node_ids``: each memory version (text, versions, flags,
    every timestamp, forget reason), document and entity; every edge between them; the
    chains they belong to; the findings that involve them; dangling references."""
    ds, g = analysis.dataset, analysis.graph.graph
    wanted = [n for n in dict.fromkeys(node_ids) if n in g]
    chosen = set(wanted)
    nodes: list[dict[str, Any]] = []
    for n in wanted:
        if n in ds.memories:
            nodes.append(_memory_json(analysis, n))
        elif n in ds.documents:
            d = ds.documents[n]
            nodes.append({"id": n, "kind": "document", "title": d.title, "type": d.type,
                          "summary": d.summary, "url": d.url, "status": d.status,
                          "source": d.source, "memories": list(d.memory_ids),
                          "createdAt": format_time(d.created_at),
                          "updatedAt": format_time(d.updated_at)})
        else:
            e = ds.entities[n]
            nodes.append({"id": n, "kind": "entity", "name": e.name, "type": e.type,
                          "aliases": list(e.aliases), "createdAt": format_time(e.created_at),
                          "updatedAt": format_time(e.updated_at)})
    edges = []
    for i, (u, v, data) in enumerate(g.edges(data=True)):
        if u in chosen and v in chosen:
            edge = {"id": f"e{i}", "from": u, "to": v, **_edge_attrs(data)}
            rel = data.get("record")
            if rel is not None:
                edge.update(createdAt=format_time(rel.created_at),
                            updatedAt=format_time(rel.updated_at),
                            provenance=[{"sourceId": p.source_id, "sourceSpan": p.source_span}
                                        for p in rel.provenance])
            edges.append(edge)
    chains = []
    for chain in {id(c): c for n in wanted if (c := analysis.chains.of(n))}.values():
        chains.append({"root": chain.root, "incomplete": chain.incomplete,
                       "missingParent": chain.missing_parent, "cycle": list(chain.cycle),
                       "branches": chain.branches, "versions": chain.ids})
    return {
        "generator": "Memscope", "judgedAt": format_time(analysis.now),
        "nodes": nodes, "edges": edges, "chains": chains,
        "findings": [f.as_dict() for f in analysis.findings if chosen & set(f.nodes)],
        "dangling": [{"node": d.node_id, "missing": d.missing_id, "relation": d.relation}
                     for d in analysis.graph.dangling if d.node_id in chosen],
    }


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def trail_file(node_id: str) -> str:
    """The pack's file name of the trail of ``node_id``: ``why-<id>.txt``, the id's
    characters outside ``[A-Za-z0-9_-]`` made ``_`` (then a digest, so two ids stay two).

    >>> trail_file("mem_fe_v3"), trail_file("a/b")[:8]
    ('why-mem_fe_v3.txt', 'why-a_b-')
    """
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_"
                   for c in node_id[:60])
    if safe != node_id:
        safe += "-" + hashlib.sha256(node_id.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"why-{safe}.txt"


def evidence_pack(analysis: Analysis, node_ids: Collection[str], view: ViewData, *,
                  title: str = "Memscope evidence",
                  trails: Mapping[str, str] | None = None) -> bytes:
    """A ZIP: ``evidence.json`` (:func:`evidence_json`), ``memories.csv`` (the memories
    among ``node_ids``), ``view.html`` (:func:`offline_html` of ``view``), one
    ``why-<id>.txt`` per entry of ``trails`` (id → the plain text of its provenance trail,
    :func:`memscope.reports.why.pack_trails`: readable without Memscope) and
    ``MANIFEST.sha256`` (``sha256sum`` format: ``<hex>  <name>`` for each other file).

    Deterministic: the same input gives the same bytes (fixed file times, ``judgedAt`` is
    the analysis's ``now``). Check with ``sha256sum -c MANIFEST.sha256``.
    """
    files = {
        "evidence.json": json.dumps(evidence_json(analysis, node_ids), ensure_ascii=False,
                                    indent=2).encode("utf-8"),
        "memories.csv": memories_csv(analysis, set(node_ids)),
        "view.html": offline_html(view, title).encode("utf-8"),
    }
    for node_id, text in (trails or {}).items():
        files[trail_file(node_id)] = text.encode("utf-8")
    files["MANIFEST.sha256"] = "".join(
        f"{_sha256(data)}  {name}\n" for name, data in files.items()).encode("ascii")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return buf.getvalue()
