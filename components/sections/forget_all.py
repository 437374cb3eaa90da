"""The Forget-all page's pieces: a two-step, typed-confirmation bulk forget, sent once.

Step one asks the source for a preview (the embedded store's plan, Spomory's
``confirm=false`` answer, Supermemory's ``forget-matching`` dry run) and keeps it in
session state with a fresh token; nothing is deleted. Step two needs the space name or
the count typed exactly; the token is marked used *before* the call, so no rerun can send
it twice, and :func:`memscope.sources.actions.forget_all` writes the ledger row.

Supermemory forgets exactly the previewed ids, so there the preview is narrowed to the
memories in the explorer's current filter; the embedded store and Spomory forget a whole
space or graph, and the page says so. What was forgotten is patched into the loaded data
where the source can (:func:`components.sections.forget.show_change`); otherwise, or when
the service forgot a whole space, the data is read again.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

import pandas as pd
import streamlit as st

from components.sections.forget import show_change
from components.state.context import AppContext, flash
from components.state.session import Family, slot
from components.widgets import once
from components.widgets.safe import md_escape
from memscope.graph.analysis import Analysis
from memscope.lenses.presenter import mask_spaces, real_space
from memscope.sources import (
    ForgetAllPreview,
    ForgetAllResult,
    LoadResult,
    Source,
    SourceError,
    actions,
    patch,
)

# -- the session slots this module owns (components.state.session collects them) --
FORGET_ALL_PENDING = slot("forget_all_pending", __name__,
                          "A forget-all preview waiting for its typed confirmation.")
FORGET_ALL_FIELDS = Family("fa-", __name__,
                           "The confirmation and reason fields of one forget-all preview.")
FORGET_ALL_SPACE = slot("forget_all_space", __name__,
                        "The Forget-all page's space (widget key).")

#: sources whose forget-all deletes exactly ``preview.memory_ids`` (forget-matching by ids)
MAX_ROWS = 2000


def spaces_of(analysis: Analysis) -> list[str]:
    """The container tags of the loaded memories, sorted."""
    return sorted({m.container_tag for m in analysis.dataset.memories.values()
                   if m.container_tag})


def real_spaces(ctx: AppContext, analysis: Analysis) -> list[str]:
    """The real container tags to choose from (today's unmasked data: in presenter mode
    the shown analysis carries pseudonyms, and an action needs the real tag)."""
    return spaces_of(ctx.current or analysis)


def pseudonyms(ctx: AppContext) -> dict[str, str]:
    """Each real space tag → its pseudonym in presenter mode; empty otherwise."""
    return ctx.space_names if ctx.presenter else {}


def narrow(preview: ForgetAllPreview, visible: Collection[str], analysis: Analysis
           ) -> ForgetAllPreview:
    """``preview`` limited to the ``visible`` memories (for sources that forget by id)."""
    ids = [i for i in preview.memory_ids if i in visible]
    if len(ids) == len(preview.memory_ids):
        return preview
    docs = {d for i in ids for d in analysis.dataset.memory_documents.get(i, [])}
    words = tuple(w for w in (preview.container_tag, str(len(ids))) if w)
    return replace(preview, memory_ids=ids, count=len(ids), document_count=len(docs),
                   confirm_words=words,
                   message=f"{preview.message} Narrowed to the {len(ids)} of them in the "
                           "explorer's current filter.".strip())


def _preview(ctx: AppContext, tag: str | None, visible: Collection[str] | None) -> None:
    """Step one (a button callback): ask the source; delete nothing."""
    FORGET_ALL_PENDING.clear()
    if ctx.source is None or ctx.analysis is None:
        return
    try:
        preview = ctx.source.forget_all_preview(tag)
    except SourceError as exc:
        flash(str(exc), "error")
        return
    if visible is not None and ctx.source.capabilities.forget_all_by_ids:
        preview = narrow(preview, visible, ctx.analysis)
    once.pend(FORGET_ALL_PENDING, preview=preview, tag=tag, key=ctx.key)


def _cancel() -> None:
    once.drop(FORGET_ALL_PENDING)


def _patched(source: Source, load: LoadResult | None, preview: ForgetAllPreview,
             result: ForgetAllResult | None, reason: str | None) -> LoadResult | None:
    """The load after forget-all: a source that forgets by ids gets what it forgot marked
    (its report's refusals, or after an error the previewed ids, read again); ``None``
    for one that cleared a whole space (read it again)."""
    if not source.capabilities.forget_all_by_ids:
        return None
    if result is None:
        return patch.after_error(source, load, preview.memory_ids)
    if result.report is not None:
        return patch.after_report(source, load, result.report, reason=reason)
    return patch.after_forget(source, load, result.memory_ids, reason=reason)


def _perform(ctx: AppContext, token: str) -> None:
    """Step two (a button callback): check the typed answer, then forget once."""
    pending = once.pending(FORGET_ALL_PENDING, token)
    source = ctx.source
    if pending is None or source is None:
        return
    preview: ForgetAllPreview = pending["preview"]
    answer = real_space(FORGET_ALL_FIELDS.get(f"confirm-{token}") or "", pseudonyms(ctx))
    if not preview.accepts(answer):
        flash("Nothing was deleted: the confirmation does not match.", "error")
        return
    once.claim(token)
    reason = (FORGET_ALL_FIELDS.get(f"reason-{token}") or "").strip() or None
    result: ForgetAllResult | None = None
    try:
        result = actions.forget_all(source, ctx.ledger, preview,
                                    confirm=answer, reason=reason, **ctx.acting())
    except SourceError as exc:
        flash(mask_spaces(str(exc), pseudonyms(ctx)), "error")
    else:
        flash(mask_spaces(result.message, pseudonyms(ctx)), "success")
    once.drop(FORGET_ALL_PENDING)
    show_change(ctx, lambda load: _patched(source, load, preview, result, reason))


def _preview_table(analysis: Analysis, preview: ForgetAllPreview) -> None:
    mems = analysis.dataset.memories
    rows = [{"id": i, "memory": mems[i].memory if i in mems else None,
             "forgotten already": mems[i].is_forgotten if i in mems else None}
            for i in preview.memory_ids[:MAX_ROWS]]
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, key="forget_all_preview_table")
    if len(preview.memory_ids) > MAX_ROWS:
        st.caption(f"… and {len(preview.memory_ids) - MAX_ROWS} more.")


def forget_all_section(ctx: AppContext, analysis: Analysis,
                       visible: Collection[str] | None) -> None:
    """Step one (preview) and, once a preview exists, step two (typed confirmation)."""
    source = ctx.source
    if source is None:
        st.error(md_escape(ctx.error or "No source is connected."))
        return
    if not ctx.user.may_change:
        st.info("You are signed in as a viewer: forget-all is for editors.")
        return
    why_not = source.capabilities.reason("forget_all")
    if why_not:
        st.info(f"Forget-all is unavailable: {md_escape(why_not)}")
        return
    spaces = real_spaces(ctx, analysis)
    alias = pseudonyms(ctx)  # presenter mode: the real tag is the value, never shown
    if alias:  # listed as "Space 1, 2…"
        order = {t: i for i, t in enumerate(alias)}
        spaces.sort(key=lambda t: (order.get(t, len(order)), t))
    tag: str | None = None
    if spaces:
        index = spaces.index(ctx.conn.space) if ctx.conn.space in spaces else 0
        tag = st.selectbox("Space", spaces, index=index, key=FORGET_ALL_SPACE.name,
                           format_func=lambda t: ctx.space_label(str(t)))
    if source.capabilities.forget_all_by_ids:
        st.caption("Forgets the loaded memories of this space"
                   + (" that are in the explorer's current filter" if visible is not None
                      else "") + ", by id, after a dry run.")
    else:
        st.caption("Forgets everything in the " + ("space" if tag else "memory graph")
                   + "; the explorer's filters do not narrow it.")
    st.button("Step 1 · Preview what would be deleted", key="forget_all_preview",
              on_click=_preview, args=(ctx, tag, visible),
              help="Asks the source what would be deleted. Nothing is deleted.")
    pending = FORGET_ALL_PENDING.get()
    if not pending or pending["tag"] != tag or pending["key"] != ctx.key:
        return
    preview: ForgetAllPreview = pending["preview"]
    token = pending["token"]
    with st.container(border=True):
        st.markdown("**Step 1 · Preview** — nothing has been deleted.")
        if preview.message:
            st.text(mask_spaces(preview.message, alias))
        cols = st.columns(3)
        cols[0].metric("Would be forgotten", preview.count)
        if preview.document_count is not None:
            cols[1].metric("From documents", preview.document_count)
        if preview.entity_count is not None:
            cols[1].metric("Entities", preview.entity_count)
        cols[2].metric("Already forgotten", preview.already_forgotten)
        _preview_table(analysis, preview)
    if preview.count == 0 and not preview.memory_ids:
        st.info("There is nothing to forget.")
        st.button("Close the preview", key=FORGET_ALL_FIELDS.key(f"cancel-{token}"),
                  on_click=_cancel)
        return
    with st.container(border=True):
        st.markdown("**Step 2 · Confirm**")
        words = " or ".join(f"“{alias.get(w, w)}”" for w in preview.confirm_words)
        answer = st.text_input(md_escape(f"Type {words} to confirm"),
                               key=FORGET_ALL_FIELDS.key(f"confirm-{token}"))
        answer = real_space(answer, alias)
        st.text_input("Reason (optional, written to the ledger)",
                      key=FORGET_ALL_FIELDS.key(f"reason-{token}"))
        left, right = st.columns(2)
        noun = "facts" if preview.entity_count is not None else "memories"
        left.button(f"Step 2 · Forget {preview.count} {noun}", type="primary",
                    key=FORGET_ALL_FIELDS.key(f"go-{token}"), disabled=not preview.accepts(answer),
                    on_click=_perform, args=(ctx, token))
        right.button("Cancel", key=FORGET_ALL_FIELDS.key(f"cancel-{token}"), on_click=_cancel)
