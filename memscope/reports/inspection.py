"""``memscope inspect``: the graph of saved files as one JSON document, for scripted audits."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from memscope.graph.analysis import Analysis


def _jsonable_version(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def inspect_json(analysis: Analysis, semantic: Sequence[Mapping[str, Any]] = ()
                 ) -> dict[str, Any]:
    """The inspect document: nodes, edges, chains, findings and skipped records.

    ``semantic``: the semantic audit's findings in their plain form
    (:meth:`memscope.meaning.findings.SemanticFinding.as_dict`: suspected contradictions,
    suspicious updates, near-duplicates, each with a score and a reason), listed after the
    integrity findings.
    """
    g = analysis.graph.graph
    nodes = []
    for node_id, attrs in g.nodes(data=True):
        kind = attrs["kind"]
        record = attrs["record"]
        nodes.append({
            "id": node_id,
            "kind": kind,
            "state": analysis.state(node_id),
            "static": bool(record.is_static) if kind == "memory" else False,
            "inferred": bool(record.is_inference) if kind == "memory" else False,
            "documents": list(attrs.get("documents", [])),
        })
    edges = [{"source": u, "target": v, "kind": data["kind"]}
             for u, v, data in g.edges(data=True)]
    chains = [
        [{"id": e.id, "version": _jsonable_version(e.version),
          "stored_version": _jsonable_version(e.stored_version), "parent": e.parent_id}
         for e in chain.entries]
        for chain in analysis.chains.chains
    ]
    report = analysis.dataset.report
    return {
        "nodes": nodes,
        "edges": edges,
        "chains": chains,
        "findings": [*(f.as_dict() for f in analysis.findings), *(dict(f) for f in semantic)],
        "skipped": [{"record": s.record, "reason": s.reason} for s in report.skipped],
        "issues": [{"record": i.record, "message": i.message} for i in report.issues],
    }


def dumps(analysis: Analysis, semantic: Sequence[Mapping[str, Any]] = ()) -> str:
    """The inspect document as indented JSON text (non-ASCII kept)."""
    return json.dumps(inspect_json(analysis, semantic), ensure_ascii=False, indent=1)
