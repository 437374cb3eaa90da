"""The Export page's pieces: the filtered graph in every format, and evidence packs.

Files are generated only when a download button is pressed (Streamlit runs the callable
then), so the page itself stays fast on large graphs. Presenter mode is upstream: the
analysis this page gets is already masked when it is on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection

import streamlit as st

from components.sections.audit import node_link
from components.state import session
from components.state.context import AppContext
from components.state.session import slot
from components.widgets.safe import md_escape, short
from memscope.export import formats as export
from memscope.graph.analysis import Analysis
from memscope.reports.why import pack_trails
from memscope.view.build import ViewData, build_view
from memscope.view.edges import keep_edge_kinds
from memscope.view.layout import layout_positions

# -- the session slots this module owns (components.state.session collects them) --
EVIDENCE_NODE = slot("evidence_node", __name__,
                     "The Export page's chain or node for an evidence pack (widget key).")


def current_view(analysis: Analysis, visible: Collection[str] | None,
                 edge_kinds: Collection[str] | None = None) -> ViewData:
    """The view the explorer draws for ``visible`` (laid out on the server; cluster
    colours), with edges limited to ``edge_kinds``."""
    g = analysis.graph.graph
    sub = g if visible is None else g.subgraph(visible)
    view = build_view(analysis, visible=visible, positions=layout_positions(sub, seed=7))
    return keep_edge_kinds(view, edge_kinds)


def _downloads(items: list[tuple[str, Callable[[], bytes | str], str, str]]) -> None:
    cols = st.columns(len(items))
    for col, (label, make, name, mime) in zip(cols, items, strict=True):
        with col:
            st.download_button(label, data=make, file_name=name, mime=mime,
                               key=f"dl_{name}", on_click="ignore", width="stretch")


def graph_downloads(ctx: AppContext, analysis: Analysis, visible: Collection[str] | None
                    ) -> None:
    """GraphML, GEXF, node-link JSON, memories CSV and the offline HTML view."""
    kinds = ctx.settings.filters.edge_kinds

    def node_link_json() -> bytes:
        data = export.to_node_link(analysis, visible, edge_kinds=kinds)
        return json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")

    def html() -> str:
        return export.offline_html(current_view(analysis, visible, kinds), "Memscope graph")

    _downloads([
        ("GraphML", lambda: export.to_graphml(analysis, visible, edge_kinds=kinds),
         "memscope.graphml", "application/graphml+xml"),
        ("GEXF", lambda: export.to_gexf(analysis, visible, edge_kinds=kinds),
         "memscope.gexf", "application/gexf+xml"),
        ("Node-link JSON", node_link_json, "memscope-node-link.json", "application/json"),
    ])
    _downloads([
        ("Memories CSV", lambda: export.memories_csv(analysis, visible), "memscope-memories.csv",
         "text/csv"),
        ("Offline HTML view", html, "memscope-graph.html", "text/html"),
    ])
    st.caption("GraphML and GEXF open in Gephi, yEd and networkx; every attribute is text, "
               "a number or a boolean. The HTML file loads nothing from the network.")


def _evidence_choices(analysis: Analysis) -> list[str]:
    ds = analysis.dataset
    roots = [c.root for c in analysis.chains.chains]
    rest = [m for m in ds.memories if analysis.chains.of(m) is None]
    return [*roots, *rest, *ds.documents, *ds.entities]


def evidence_zip(analysis: Analysis, node_id: str, *, masked: bool = False) -> bytes:
    """The evidence pack of ``node_id`` (:func:`memscope.export.formats.evidence_nodes`):
    its records, its view, and the provenance trail of each version that holds."""
    nodes = export.evidence_nodes(analysis, node_id)
    return export.evidence_pack(analysis, nodes, current_view(analysis, nodes),
                                title=f"Evidence: {node_id}",
                                trails=pack_trails(analysis, nodes, masked=masked))


def evidence_section(analysis: Analysis, *, masked: bool = False) -> None:
    """Pick a chain (or any node); download its evidence pack (with the provenance trail
    of each version that holds; ``masked``: presenter mode, changes told without words)."""
    choices = _evidence_choices(analysis)
    if not choices:
        st.info("Nothing is loaded to make an evidence pack of.")
        return
    selected = session.selected()
    chain = analysis.chains.of(selected) if isinstance(selected, str) else None
    start = chain.root if chain else selected
    index = choices.index(start) if start in choices else 0
    ds = analysis.dataset

    def describe(node_id: str) -> str:
        rec = ds.memories.get(node_id) or ds.documents.get(node_id) or ds.entities.get(node_id)
        text = getattr(rec, "memory", None) or getattr(rec, "title", None) \
            or getattr(rec, "name", None) or ""
        kind = "chain" if analysis.chains.of(node_id) else ds.kind_of(node_id)
        return f"{short(text, 60)} · {kind} · {node_id}" if text else f"{kind} · {node_id}"

    node_id = st.selectbox("Chain or node", choices, index=index, key=EVIDENCE_NODE.name,
                           format_func=describe)
    nodes = export.evidence_nodes(analysis, node_id)
    memories = sum(1 for n in nodes if n in ds.memories)
    st.caption(f"The pack holds {len(nodes)} nodes ({memories} memory versions) and every "
               "edge between them.")
    node_link(analysis, node_id)

    def pack() -> bytes:
        return evidence_zip(analysis, node_id, masked=masked)

    safe_name = "".join(c if c.isalnum() or c in "-_" else "_" for c in node_id)[:60]
    st.download_button("Download evidence pack (ZIP)", data=pack,
                       file_name=f"memscope-evidence-{safe_name}.zip",
                       mime="application/zip", key="dl_evidence", on_click="ignore")
    st.caption(md_escape("evidence.json (every version, edge, timestamp and reason), "
                         "memories.csv, view.html, why-<id>.txt (the provenance trail of each "
                         "version that holds, plain text) and MANIFEST.sha256 "
                         "(check with: sha256sum -c MANIFEST.sha256)."))
