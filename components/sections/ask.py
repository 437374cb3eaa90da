"""Ask (the source's own search) and Add (a new memory) on the home page, for every source.

Ask: only the form's submit button sends a request; answers are kept in session state per
(connection, query), so reruns — clicks, filters, selections — never send it again.
Add: the form only records a pending request with a fresh token; "Confirm add" marks the
token used *before* calling the source, so no rerun can send the same text twice. A
Supermemory document is then polled (backoff, time limit) under an ``st.status`` until it
is done or failed — resumed on the next run if a rerun interrupts it — and the document
and its memories, as the service answered them, are patched into the loaded data
(:mod:`memscope.sources.patch`); the account is read again only where the source cannot
patch.

On the embedded store, while Ask's deep meaning model is still reading it (its vectors
built in the background), one line above the answer says how far it has got (polled by a
fragment); once it is done, an answer given meanwhile is asked again.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import streamlit as st

from components.sections import why
from components.sections.forget import show_change
from components.sections.forget_all import pseudonyms
from components.state import data, session
from components.state.context import AppContext, flash
from components.state.session import slot
from components.widgets import once
from components.widgets.folds import fold
from components.widgets.safe import md_escape, short
from memscope.graph.analysis import Analysis
from memscope.records.text import FULL_MAX
from memscope.reports.ask import HitView, context_relations, describe, highlight_ids, relation_label
from memscope.reports.results import because
from memscope.sources import AddResult, SearchResult, Source, SourceError, actions, patch
from memscope.sources import wait_until_processed as _wait
from memscope.sources.embedded import EmbeddedSource
from memscope.store import search as store_search

# -- the session slots this module owns (components.state.session collects them) --
ASKED = slot("asked_answers", __name__,
             "Answers by (source key, question), each sent once per data load.", dict)
ASK_CURRENT = slot("ask_current", __name__,
                   "The (source key, question) whose answer is shown.")
ADD_TEXT = slot("add_text", __name__, "The Add form's text (widget key).", str)
ADD_TITLE = slot("add_title", __name__, "The Add form's title (widget key).", str)
ADD_SPACE = slot("add_space", __name__, "The Add form's space (widget key).")
ADD_PENDING = slot("add_pending", __name__,
                   "An add waiting for its one confirmed send.")
ADD_TRACK = slot("add_track", __name__,
                 "A Supermemory document being processed after an add.")
ADD_LAST = slot("add_last", __name__, "The last add's outcome sentence.")
ADD_OPEN = slot("add_open", __name__, "Whether the Add expander is open.", bool,
               widget=True)
ASK_QUERY = slot("ask_query", __name__,
                 "The Ask box's question (its widget's key, inside a form).", str)

KEEP_ANSWERS = 20
SEARCH_LIMIT = 10
ADD_MAX_CHARS = 20_000
#: how long to poll an added Supermemory document before giving up (seconds)
PROCESSING_TIMEOUT_S = 120.0
DEFAULT_SPACE = "sm_project_default"


#: how often the "still reading in depth" line looks again (seconds)
READING_POLL_S = 2.0


@dataclass
class Asked:
    """One submitted question and its answer (or the error sentence); ``reading``: it
    was answered while the deep meaning model was still reading the store (asked again
    once it is done)."""

    query: str
    loaded_at: str
    result: SearchResult | None = None
    error: str | None = None
    reading: bool = False


def _reading(source: Source | None) -> tuple[int, int] | None:
    """How far the embedded store's deep meaning model has read it, ``(done, total)``,
    while it still reads; None otherwise (ready, switched off, another source)."""
    if not isinstance(source, EmbeddedSource):
        return None
    return store_search.meaning_progress_at(source.store.path)


def reading_line(done: int, total: int) -> str:
    """The one line said while the deep meaning model reads the store.

    >>> reading_line(3200, 10000)[:56]
    'Still reading your memories in depth (3,200 of 10,000) —'
    """
    return (f"Still reading your memories in depth ({done:,} of {total:,}) — until then, "
            "results come from words and a quicker model.")


def _reading_panel(source: Source) -> None:
    """The reading line, polled (a fragment); the whole app reruns once it is done, so
    an answer given meanwhile is asked again of the deeper model."""
    progress = _reading(source)
    if progress is None:
        st.rerun()
    else:
        st.caption(reading_line(*progress))


def _calls_note(source: Source) -> None:
    note = source.calls_note()
    if note is not None:
        st.caption(md_escape(note))


def _loaded_at(ctx: AppContext) -> str:
    return ctx.load.loaded_at.isoformat() if ctx.load is not None else ""


def _ask(ctx: AppContext, query: str) -> None:
    """Send the question once for this (connection, data load) and keep the answer."""
    source = ctx.source
    assert source is not None
    key = (source.cache_key(), query)
    answers: dict[tuple, Asked] = ASKED.setdefault()
    ASK_CURRENT.set(key)
    old = answers.get(key)
    reading = _reading(source) is not None
    if old is not None and old.loaded_at == _loaded_at(ctx) and (reading or not old.reading):
        return  # asked already about this very data: show the kept answer
    entry = Asked(query, _loaded_at(ctx), reading=reading)
    try:
        entry.result = source.search(query, container_tag=ctx.conn.space, limit=SEARCH_LIMIT)
    except SourceError as exc:
        entry.error = str(exc)
    answers.pop(key, None)
    answers[key] = entry
    while len(answers) > KEEP_ANSWERS:
        answers.pop(next(iter(answers)))


def ask_form(ctx: AppContext) -> None:
    """The Ask box (a question and its button) for the explorer's compact bar."""
    source = ctx.source
    if source is None:
        return
    reason = source.capabilities.reason("search")
    if reason:
        st.caption(f"Ask is unavailable: {md_escape(reason)}")
        return
    with st.form("ask_form", border=False):
        left, right = st.columns([5, 1], vertical_alignment="bottom")
        left.text_input("Ask your memories", key=ASK_QUERY.name,
                        placeholder="e.g. where is Maya travelling?", max_chars=500,
                        help="Answered by the source's own search: the memory service's "
                             "(Supermemory, Spomory, mem0), or, for the demo store and "
                             "opened files, words and meaning together, offline. Results "
                             "can differ from the search box beside it, which matches "
                             "words in what is drawn.")
        submitted = right.form_submit_button("Ask", width="stretch")
    if source.search_note:  # e.g. a search that changes the service's state: said first
        st.caption(md_escape(source.search_note))
    if submitted:
        query = str(ASK_QUERY.get() or "").strip()
        if query:
            _ask(ctx, query)


def _answer(ctx: AppContext) -> Asked | None:
    """The answer to the last question asked of this source, if any."""
    source = ctx.source
    if source is None or source.capabilities.reason("search"):
        return None
    current = ASK_CURRENT.get()
    entry = ASKED.get().get(current) if current else None
    if entry is None or current[0] != source.cache_key():
        return None
    return entry


def answer_ids(ctx: AppContext, analysis: Analysis) -> set[str]:
    """The node ids the last answer highlights in the graph (nothing is drawn)."""
    entry = _answer(ctx)
    if entry is None or entry.error or entry.result is None:
        return set()
    return highlight_ids(analysis, entry.result)


def ask_results(ctx: AppContext, analysis: Analysis) -> None:
    """The answer to the last question (in the explorer's side panel)."""
    entry = _answer(ctx)
    if entry is None or ctx.source is None:
        return
    _calls_note(ctx.source)
    reading = _reading(ctx.source)
    if entry.reading and reading is None and entry.result is not None:
        _ask(ctx, entry.query)  # the deeper model is ready now: ask it again
        entry = _answer(ctx) or entry
    if reading is not None:
        st.fragment(_reading_panel, run_every=READING_POLL_S)(ctx.source)
    _results(analysis, entry, hide=ctx.presenter)
    if not session.selected():  # with a node selected, its panel draws the dialog
        why.dialog(ctx, analysis)


def _hidden(text: str) -> str:
    return f"({len(text)} characters, hidden in presenter mode)"


def _why_ranked(query: str, view: HitView, analysis: Analysis, hide: bool) -> str:
    """Why the result came up: the words it shares with the question (not in presenter
    mode: they may be the data's), "close in meaning", and which version it is."""
    state = analysis.state(view.node_id) if view.node_id else None
    line = because(query, view.text, state)
    if hide:
        line = " · ".join(["Matched the question", *line.split(" · ")[1:]])
    return line


def _result(analysis: Analysis, entry: Asked, view: HitView, i: int, hide: bool) -> None:
    """One result: its whole text (wrapped), why it ranked, then Show and Why?."""
    ds = analysis.dataset
    if view.kind == "chunk":
        doc = ds.documents.get(view.node_id) if view.node_id else None
        where = (doc.title or doc.id) if doc is not None else None
        st.caption("An excerpt from a document" if hide or not where else
                   f"An excerpt from “{md_escape(short(where, 60))}”")
    st.markdown(md_escape(_hidden(view.text) if hide else view.text) or "_(empty)_")
    st.caption(md_escape(_why_ranked(entry.query, view, analysis, hide)))
    if view.node_id:
        with st.container(horizontal=True, vertical_alignment="center"):
            st.button("Show in the graph", key=f"ask-hit-{i}-{view.node_id}",
                      on_click=session.select, args=(view.node_id,), type="tertiary",
                      icon=":material/my_location:",
                      help="Select it in the graph and open its panel")
            if view.node_id in ds.memories:
                why.button(view.node_id, where=f"ask-{i}", label="Why?")
    elif view.note:
        st.caption(md_escape(view.note))


def _results(analysis: Analysis, entry: Asked, *, hide: bool = False) -> None:
    if entry.error:
        st.error(md_escape(entry.error))
        return
    result = entry.result
    assert result is not None
    ids = highlight_ids(analysis, result)
    if not result.hits:
        st.info(f"Nothing found for “{md_escape(short(entry.query, 80))}”.")
        if result.message:
            st.text(result.message)  # the service's own sentence, verbatim
        return
    st.caption(f"{len(result.hits)} result{'s' if len(result.hits) != 1 else ''} for "
               f"“{md_escape(short(entry.query, 80))}”, best first; {len(ids)} highlighted "
               "in the graph." + (f" {md_escape(result.note)}" if result.note else ""),
               help=result.detail)  # how the service ranked them, for the curious
    for i, hit in enumerate(result.hits):
        with st.container(border=True, key=f"ask-result-{i}"):
            if hit.kind == "context":
                _context(analysis, hit.text, i, hide)
                continue
            _result(analysis, entry, describe(hit, analysis), i, hide)


def _context(analysis: Analysis, text: str, index: int, hide: bool) -> None:
    """A Spomory context: the text verbatim, then each loaded fact it quotes."""
    shown = text if len(text) <= FULL_MAX else (
        f"{text[:FULL_MAX]}\n… ({len(text)} characters; the first {FULL_MAX} shown)")
    st.text(f"Context ({len(text)} characters, hidden in presenter mode)" if hide else shown)
    rels = context_relations(analysis, text)
    if not rels:
        st.caption("None of the facts it quotes is in the loaded graph.")
    for rel_id in rels:
        subject = analysis.dataset.relations[rel_id].subject_id
        with st.container(horizontal=True, vertical_alignment="center", wrap=False):
            st.button(md_escape(relation_label(analysis, rel_id)),
                      key=f"ask-rel-{index}-{rel_id}", on_click=session.select,
                      args=(subject,), type="tertiary", help="Select the fact's subject",
                      width="stretch")
            why.button(rel_id, where=f"ask-rel-{index}", label="Why?")


# -- add ----------------------------------------------------------------------------------


def _space_options(ctx: AppContext) -> list[str]:
    if ctx.conn.space:
        return [ctx.conn.space]
    shown = ctx.current or ctx.analysis  # real tags: presenter mode's are pseudonyms
    ds = shown.dataset if shown is not None else None
    tags = sorted({s.container_tag for s in ds.spaces} | {
        m.container_tag for m in ds.memories.values() if m.container_tag}) if ds else []
    return tags + ([DEFAULT_SPACE] if DEFAULT_SPACE not in tags else [])


def _request(source_key: tuple, spaces: bool) -> None:
    """The form's submit: record what to add, with a fresh token (sends nothing)."""
    text = str(ADD_TEXT.get() or "").strip()
    if not text:
        flash("Type the text to add first.", "info")
        return
    title = str(ADD_TITLE.get() or "").strip() if spaces else ""
    once.pend(ADD_PENDING, text=text, title=title or None,
              space=ADD_SPACE.get() if spaces else None, source=source_key)


def _cancel() -> None:
    once.drop(ADD_PENDING)


def _confirm(ctx: AppContext, token: str) -> None:
    """Send the pending add exactly once (a button callback)."""
    pending = once.pending(ADD_PENDING, token)
    if pending is None or ctx.source is None:
        return
    once.claim(token)
    once.drop(ADD_PENDING)
    try:
        result = actions.add(ctx.source, ctx.ledger, pending["text"],
                             container_tag=pending["space"], title=pending["title"],
                             **ctx.acting())
    except SourceError as exc:
        flash(str(exc), "error")
        return
    if result.final or result.id is None:
        _finish(ctx, result)
        return
    ADD_TRACK.set({"id": result.id, "text": pending["text"],
                   "source": pending["source"], "status": result.status,
                   "deadline": time.time() + PROCESSING_TIMEOUT_S})


def _reload(ctx: AppContext, result: AddResult) -> None:
    """Make the shared load show the added text.

    A source whose data version changed (the embedded store) is reloaded under its new
    key by itself; Spomory's add re-read its graph already; a service the source can
    patch from (Supermemory) gets the added document and its memories patched in,
    reading only those; anything else is loaded again here and *touched* in — dropping
    it with ``forget_cached`` would reload it under the same key and revision, and the
    cached analysis of the old data would be reused.
    """
    source = ctx.source
    if source is None or not result.ok:
        return
    if result.load is not None:
        data.touch(ctx.key, result.load)
    elif source.data_version() is not None:
        data.forget_cached(ctx.key)
    else:
        show_change(ctx, lambda load: patch.after_add(source, load, result),
                    otherwise=lambda: _load_again(ctx, source))


def _load_again(ctx: AppContext, source: Source) -> None:
    """Read the whole load again and touch it in (a source that cannot patch an add)."""
    try:
        data.touch(ctx.key, source.load(refresh=True))
    except SourceError as exc:
        data.forget_cached(ctx.key)
        flash(str(exc), "error")


def _finish(ctx: AppContext, result: AddResult) -> None:
    """Reload the graph after an add, select what was added and say what happened."""
    _reload(ctx, result)
    if result.ok and (result.memory_ids or result.id):
        session.select(result.memory_ids[0] if result.memory_ids else result.id)
    label = ctx.source.label if ctx.source is not None else "The source"
    if result.status == "failed":
        kind, message = "error", result.message
    elif result.timed_out:
        kind, message = "info", result.message
    elif result.load is not None:  # Spomory: its own sentence, verbatim
        kind, message = "success", f"{label} answered: {result.message}"
    else:
        kind, message = "success", result.message
    flash(message, kind)
    ADD_LAST.set((kind, message))


def _track(ctx: AppContext) -> None:
    """Poll an added document until done/failed (or the time limit), then reload."""
    track = ADD_TRACK.get()
    if not track or ctx.source is None:
        return
    if track["source"] != ctx.source.cache_key():
        ADD_TRACK.clear()
        return
    doc_id = track["id"]
    said = md_escape(doc_id)  # labels are markdown; ids and statuses come from the server
    with st.status(f"Processing document {said}: {md_escape(track['status'])}…",
                   expanded=True) as box:
        line = st.empty()

        def on_status(r: AddResult) -> None:
            track["status"] = r.status
            line.text(f"Status: {r.status} (poll {r.polls})")
            box.update(label=f"Processing document {said}: {md_escape(r.status)}…")

        try:
            result = _wait(ctx.source, doc_id, on_status=on_status,
                           timeout_s=max(0.0, track["deadline"] - time.time()))
        except SourceError as exc:
            ADD_TRACK.clear()
            box.update(label=f"Could not read the status of {said}", state="error")
            flash(str(exc), "error")
            return
        ADD_TRACK.clear()
        if result.ok:
            box.update(label=f"{md_escape(result.message)} Reloading the graph…")
        actions.add_processed(ctx.source, ctx.ledger, result, track["text"],
                              actor=ctx.user.email)
        _finish(ctx, result)
        box.update(label=md_escape(result.message),
                   state="complete" if result.ok else "error")
    st.rerun()


def add_box(ctx: AppContext) -> None:
    """The Add expander: a form, then a confirmation; shows processing status (all in one
    container, like :func:`ask_box`)."""
    with st.container():
        _add_box(ctx)


def _add_box(ctx: AppContext) -> None:
    source = ctx.source
    if source is None or not ctx.user.may_change:
        return
    _track(ctx)
    pending = ADD_PENDING.get()
    if pending and pending["source"] != source.cache_key():
        pending = None
    box, is_open = fold("Add a memory", ADD_OPEN, icon=":material/add:",
                        open_now=bool(pending))
    if not is_open:  # nothing inside is drawn until it is opened (folds.py)
        return
    with box:
        reason = source.capabilities.reason("add")
        if reason:
            st.caption(f"Add is unavailable: {md_escape(reason)}")
            return
        if source.add_note:
            st.caption(md_escape(source.add_note))
        _calls_note(source)
        last = ADD_LAST.get()
        if last and not pending:
            show = {"error": st.error, "info": st.info}.get(last[0], st.success)
            show(f"Last add: {md_escape(last[1])}")
        if pending:
            _confirmation(ctx, source, pending)
            return
        with st.form("add_form", border=False):
            st.text_area("Text to remember", key=ADD_TEXT.name, max_chars=ADD_MAX_CHARS,
                         placeholder="e.g. Maya adopted a cat named Miso.")
            if source.capabilities.can("spaces"):
                left, right = st.columns(2)
                left.text_input("Title (optional)", key=ADD_TITLE.name, max_chars=200)
                right.selectbox("Space", _space_options(ctx), key=ADD_SPACE.name,
                                format_func=lambda t: ctx.space_label(str(t)))
            st.form_submit_button("Add…", on_click=_request,
                                  args=(source.cache_key(), source.capabilities.can("spaces")),
                                  help="Asks for confirmation before anything is sent.")


def _confirmation(ctx: AppContext, source: Source, pending: dict) -> None:
    space = pending.get("space")
    where = f" to space {pseudonyms(ctx).get(space, space)}" if space else ""
    st.warning(f"Add this text to {md_escape(source.label)}{md_escape(where)}? It is sent "
               "once and written to the ledger.")
    st.text(pending["text"])
    if pending.get("title"):
        st.caption(f"Title: {md_escape(pending['title'])}")
    left, right = st.columns(2)
    token = pending["token"]
    left.button("Confirm add", type="primary", key=f"add-confirm-{token}", on_click=_confirm,
                args=(ctx, token))
    right.button("Cancel", key=f"add-cancel-{token}", on_click=_cancel)
