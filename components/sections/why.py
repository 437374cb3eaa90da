"""“Why does it believe this?”: the provenance trail of a memory or fact, in one dialog.

A "Why does it believe this?" button (a memory's panel), a "Why?" button (each Ask answer
hit, each fact of a Spomory entity or context) only records which trail to show
(:data:`WHY_OPEN`); :func:`dialog`, drawn once per run where
the drawer is, opens it while that is set. The trail is built by the core
(:func:`memscope.reports.why.trail`) from the analysis the page shows — the masked one in
presenter mode, so no real text reaches the dialog — and every text of it is shown as
text (``st.text``, or escaped markdown), never as HTML.
"""

from __future__ import annotations

import json

import streamlit as st

from components.sections import semantic_review
from components.state.context import AppContext
from components.state.pipeline import pipeline
from components.state.session import slot
from components.widgets.safe import md_escape, short
from memscope.export.formats import trail_file
from memscope.graph.analysis import Analysis
from memscope.meaning.findings import SemanticFinding
from memscope.records.text import relation_label
from memscope.reports.trail import stated_note, turn_label, versions_heading
from memscope.reports.why import Trail, UnknownTrail, trail

# -- the session slots this module owns (components.state.session collects them) --
WHY_OPEN = slot("why_open", __name__,
                "The memory or fact whose “Why does it believe this?” trail is open.")

TITLE = "Why does it believe this?"


def open_trail(node_id: str) -> None:
    """Show the trail of ``node_id`` (a button callback)."""
    WHY_OPEN.set(node_id)


def _close() -> None:
    WHY_OPEN.clear()


def button(node_id: str, *, where: str, label: str = TITLE) -> None:
    """The button that opens the trail of ``node_id`` (``where``: keeps its key unique)."""
    st.button(label, key=f"why-{where}-{node_id}", on_click=open_trail, args=(node_id,),
              icon=":material/manage_search:",
              help="Its versions and what changed, the documents it came from, its "
                   "relations, the profile lines citing it and what forgetting it would "
                   "take with it.")


def fact_buttons(analysis: Analysis, entity_id: str) -> None:
    """A "Why?" button for each fact of a Spomory entity."""
    ds = analysis.dataset
    facts = [r for r in ds.relations.values() if entity_id in (r.subject_id, r.object_id)]
    if not facts:
        return
    names = {e_id: e.name for e_id, e in ds.entities.items()}
    st.caption("Why does it believe a fact?")
    for rel in facts:
        said = relation_label(names.get(rel.subject_id, rel.subject_id), rel.predicate,
                              names.get(rel.object_id, rel.object_id))
        button(rel.id, where=f"fact-{entity_id}", label=f"Why? {md_escape(short(said, 60))}")


def _semantic(ctx: AppContext) -> list[SemanticFinding]:
    """The semantic audit's findings when they are done (never computed here), less the
    pairs reviewed as not a conflict."""
    if ctx.request is None:
        return []
    found = pipeline().semantic(ctx.request, wait=False) or []
    dismissed = semantic_review.dismissed(ctx)
    return [f for f in found if f.key not in dismissed]


def dialog(ctx: AppContext, analysis: Analysis) -> None:
    """Draw the trail's dialog when one was asked for (call it once per run)."""
    node_id = WHY_OPEN.get()
    if isinstance(node_id, str) and node_id:
        _dialog(ctx, analysis, node_id)


def _heading(text: str) -> None:
    st.markdown(f"**{md_escape(text)}**")


def _when(iso: str | None) -> str:
    return iso[:16].replace("T", " ") + " UTC" if iso else "undated"


@st.dialog(TITLE, width="large", on_dismiss=_close)
def _dialog(ctx: AppContext, analysis: Analysis, node_id: str) -> None:
    try:
        found = trail(analysis, node_id, semantic=_semantic(ctx), masked=ctx.presenter)
    except UnknownTrail as exc:
        st.info(md_escape(str(exc)))
        return
    body(found)
    left, right = st.columns(2)
    left.download_button("Download the trail (text)", data=found.as_text(),
                         file_name=trail_file(found.statement.asked_id), mime="text/plain",
                         key=f"why-dl-text-{node_id}", on_click="ignore")
    right.download_button("Download as JSON", data=json.dumps(
        found.as_json(), ensure_ascii=False, indent=2),
        file_name=trail_file(found.statement.asked_id).replace(".txt", ".json"),
        mime="application/json", key=f"why-dl-json-{node_id}", on_click="ignore")


def body(t: Trail) -> None:
    """The trail, top to bottom: statement, versions, sources, relations, profile lines,
    impact and notes."""
    s = t.statement
    _heading("What it believes")
    st.text(s.text)
    st.caption(md_escape(f"{'Fact' if t.kind == 'fact' else 'Memory'} {short(s.id, 80)} · "
                         f"{s.version} · "
                         f"{s.state or '—'}"))
    if s.note:
        st.caption(md_escape(s.note))
    if s.also:
        st.text("\n".join(f"Also holds: {other}" for other in s.also))
    _heading(versions_heading(len(t.versions)))
    note = stated_note(t.versions)  # once, not on every version
    if note:
        st.caption(note)
    for v in t.versions:
        with st.container(border=True, gap="small"):
            st.caption(md_escape(f"{v.version} · {_when(v.created)} · {v.state or '—'} · "
                                 f"{short(v.id, 80)}{' · asked about' if v.asked else ''}"))
            st.text(f"{v.text}\n→ {v.change}")
            if v.inferred:
                came = f" — inferred from {', '.join(v.derived_from)}" if v.derived_from else ""
                st.markdown(":yellow-badge[≈ inferred — not stated by you]"
                            + md_escape(came))
    _heading("Where it came from")
    names = {v.id: v.version for v in t.versions}
    lines = []
    for src in t.sources:
        lines.append(f"{names.get(src.version_id, src.version_id)} — {src.title} "
                     f"({src.type}, {_when(src.date)})")
        if src.passage:
            lines.append(f"    passage ({src.passage_from}): “{src.passage}”")
    st.text("\n".join(lines) or t.sourceless)
    for c in t.conversations:
        _heading(f"The conversation it most likely came from "
                 f"({names.get(c.version_id, short(c.version_id, 80))})")
        st.caption(md_escape(f"Session: {c.session} · saved {_when(c.saved)}"))
        st.caption(md_escape(c.how))
        st.text("\n".join(f"{turn_label(turn)}: {turn.text}" for turn in c.turns))
    _heading("Relations")
    st.text("\n".join(f"{link.words} “{link.other}” ({short(link.other_id, 80)})"
                      for link in t.relations)
            or "None.")
    _heading("Profile lines that cite it")
    st.text("\n".join(f"{c.kind}, {c.space}: “{c.text}” ({c.how} {', '.join(c.cites)})"
                      for c in t.profile_lines) or "None.")
    _heading("If it were forgotten")
    st.text("\n".join(t.impact) or "Nothing else depends on it.")
    if t.notes:
        _heading("Notes")
        st.text("\n".join(t.notes))
