"""The Slideshow page's section: build a show on the explorer's graph, save it, open one,
play it full screen.

The graph is the explorer's view (the process's pipeline, the sidebar's settings: in
presenter mode its labels and tooltips are already masked), with the show's nodes
highlighted and the picked one selected. A click picks a node; "Add step" appends it
with the typed caption. The show itself is plain data (:mod:`memscope.view.slideshow`)
kept in the session; Save downloads it as a small JSON file and Open reads one back
leniently (a file it cannot read is one sentence). Play hands the browser a new token
and the graph component (``slideshow.js``) plays the steps full screen. Captions and the
title are the user's own text: they are shown as text (never markup) in presenter mode
too; nothing else of the data is named here but the (masked) labels the view draws.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import replace
from typing import Any

import streamlit as st

from components.graph_view import graph_view, group_annotations
from components.state.context import AppContext
from components.state.pipeline import view_for
from components.state.session import Family, slot
from components.widgets.safe import md_escape, short
from memscope.graph.analysis import Analysis
from memscope.pipeline.request import ViewRequest
from memscope.records.text import counted
from memscope.view.budget import cluster_of, is_cluster
from memscope.view.build import ViewData
from memscope.view.slideshow import (
    ADVANCE_MAX,
    CAPTION_MAX,
    FILE_MAX,
    FILE_NAME,
    STEPS_MAX,
    TITLE_MAX,
    Coverage,
    Slideshow,
    SlideshowError,
    Step,
    coverage,
    play_payload,
    read_slideshow,
    slideshow_bytes,
)

# -- the session slots this module owns (components.state.session collects them) --
SLIDESHOW_PICK = slot("slideshow_pick", __name__,
                      "The node picked on the Slideshow page's graph (the next step's).")
SLIDESHOW_GRAPH = slot("slideshow_graph", __name__,
                       "The Slideshow page's graph component state (what it selected).")
SLIDESHOW_TITLE = slot("slideshow_title", __name__,
                       "The slideshow's title (widget key).", str)
SLIDESHOW_ADVANCE = slot("slideshow_advance", __name__,
                         "Seconds a step stays while playing, 0 by hand (widget key).")
SLIDESHOW_UPLOAD = slot("slideshow_upload", __name__,
                        "The slideshow file being opened (widget key).")
SLIDESHOW_NOTE = slot("slideshow_note", __name__,
                      "(kind, sentences) of the last open: what was left out or refused.")
SLIDESHOW_PLAY = slot("slideshow_play", __name__,
                      "(token, monotonic time) of the last Play click.")
SLIDESHOW = slot("slideshow", __name__,
                 "The slideshow being built or opened (memscope.view.slideshow.Slideshow).")
SLIDESHOW_EXPANDED = slot("slideshow_expanded", __name__,
                          "Clusters of the Slideshow page's overview the user opened.", set)
SLIDESHOW_CAPTION = slot("slideshow_caption", __name__,
                         "The next step's caption (widget key).", str)
SLIDESHOW_STEP_KEYS = Family("slideshow_step_", __name__,
                             "The step list's buttons (up, down, remove), per action and row.")

#: how long after a Play click its token is still sent (a rerun within it plays nothing
#: new: the browser plays a token once)
PLAY_WINDOW_S = 20.0
GRAPH_HEIGHT = 620
KIND_NAMES = {"memory": "Memory", "document": "Document", "entity": "Entity",
              "cluster": "Cluster"}


def _show() -> Slideshow:
    show = SLIDESHOW.get()
    return show if isinstance(show, Slideshow) else Slideshow()


def _set(show: Slideshow) -> None:
    SLIDESHOW.set(show)


# -- callbacks (run before the script) -------------------------------------------------------

def _on_pick(node_id: str | None) -> None:
    """A click on the graph: a cluster of the overview opens or closes, any other node is
    picked for the next step."""
    if node_id is not None and is_cluster(node_id):
        opened: set[str] = SLIDESHOW_EXPANDED.setdefault()
        opened ^= {cluster_of(node_id)}
        return
    SLIDESHOW_PICK.set(node_id)


def _add(identity: str | None) -> None:
    """Append the picked node with the typed caption; a new show is marked as made on
    this data (``identity``: the source's)."""
    pick = SLIDESHOW_PICK.get()
    if not isinstance(pick, str) or not pick:
        return
    show = _show()
    if show.data is None and not show.steps and identity is not None:
        show = show.marked(identity)
    _set(show.added(pick, str(SLIDESHOW_CAPTION.get() or "")))
    SLIDESHOW_CAPTION.set("")


def _move(index: int, delta: int) -> None:
    _set(_show().moved(index, delta))


def _remove(index: int) -> None:
    _set(_show().removed(index))


def _caption_key(index: int, step: Step) -> str:
    """The edit field's key of step ``index``: it names the step's content too, so after a
    reorder or an edit no field shows another step's old text."""
    digest = hashlib.sha256(f"{step.node}\0{step.caption}".encode("utf-8", "replace"))
    return f"caption-{index}-{digest.hexdigest()[:12]}"


def _recaption(index: int, field: str) -> None:
    _set(_show().recaptioned(index, str(SLIDESHOW_STEP_KEYS.get(field) or "")))


def _retitle() -> None:
    _set(_show().titled(str(SLIDESHOW_TITLE.get() or "")))


def _readvance() -> None:
    _set(_show().advancing(SLIDESHOW_ADVANCE.get()))


def _clear() -> None:
    _set(Slideshow())
    for s in (SLIDESHOW_TITLE, SLIDESHOW_ADVANCE, SLIDESHOW_NOTE, SLIDESHOW_PLAY):
        s.clear()


def _play() -> None:
    SLIDESHOW_PLAY.set((secrets.token_hex(8), time.monotonic()))


def _open() -> None:
    """A file chosen in the uploader: read it once, leniently; what was left out, or why
    it could not be read, is kept for the page to say."""
    upload: Any = SLIDESHOW_UPLOAD.get()
    if upload is None:
        return
    try:
        data = upload.read(FILE_MAX + 1)
        show, notes = read_slideshow(data)
    except SlideshowError as exc:
        SLIDESHOW_NOTE.set(("error", [str(exc)]))
        return
    except OSError:
        SLIDESHOW_NOTE.set(("error", ["The file could not be read; choose it again."]))
        return
    _set(show)
    SLIDESHOW_TITLE.set(show.title)
    SLIDESHOW_ADVANCE.set(show.advance_s)
    SLIDESHOW_PLAY.clear()
    SLIDESHOW_NOTE.set(("info", [f"Opened a slideshow of "
                                 f"{counted(len(show.steps), 'step')}.", *notes]))


# -- the page ----------------------------------------------------------------------------------

def _request(ctx: AppContext, show: Slideshow, pick: str | None) -> ViewRequest | None:
    if ctx.request is None:
        return None
    return replace(ctx.request, query="", selected=pick,
                   expanded=frozenset(SLIDESHOW_EXPANDED.get()),
                   marked=frozenset(s.node for s in show.steps))


def _labels(drawn: ViewData) -> dict[str, tuple[str, str]]:
    """Each drawn node → (its kind's name, its label as the view draws it)."""
    return {n["id"]: (KIND_NAMES.get(n.get("kind", ""), "Node"), n.get("label", ""))
            for n in drawn["nodes"]}


def _named(labels: dict[str, tuple[str, str]], node: str) -> str:
    kind, label = labels.get(node, ("Node", ""))
    return f"{kind}: {short(label, 70)}" if label else kind


def _token() -> str | None:
    value = SLIDESHOW_PLAY.get()
    if isinstance(value, tuple) and len(value) == 2 and time.monotonic() - value[1] < \
            PLAY_WINDOW_S:
        return str(value[0])
    return None


def section(ctx: AppContext, analysis: Analysis) -> None:
    """The page: the graph on the left, the show's builder on the right."""
    show = _show()
    pick = SLIDESHOW_PICK.get()
    req = _request(ctx, show, pick if isinstance(pick, str) else None)
    if req is None:
        st.info("No data is loaded.")
        return
    view = view_for(req)
    drawn = view.drawn
    labels = _labels(drawn)
    ids = {*(ctx.current or analysis).graph.graph.nodes, *analysis.graph.graph.nodes}
    identity = ctx.source.identity() if ctx.source is not None else None
    cover = coverage(show, ids, set(labels), identity)
    left, right = st.columns([5, 3], gap="medium")
    with left:
        graph_view(drawn, key=SLIDESHOW_GRAPH.name, height=GRAPH_HEIGHT,
                   physics=ctx.settings.physics, focus=view.focus(req.selected),
                   on_select=_on_pick, annotations=group_annotations(drawn),
                   slideshow=play_payload(show, set(labels), _token()))
        st.caption(f"{view.caption(req.budget)} Click a node to pick it for the next step; "
                   "the show's nodes have a heavy border.")
    with right:
        _builder(show, req.selected, labels, identity)
        _steps(show, labels, cover)
        _controls(show, cover, identity)


def _builder(show: Slideshow, pick: str | None, labels: dict[str, tuple[str, str]],
             identity: str | None) -> None:
    st.markdown("**Next step**")
    if pick and pick in labels:
        st.markdown(f"Picked — {md_escape(_named(labels, pick))}")
    else:
        st.caption("Click a node in the graph to pick it.")
    st.text_area("Caption", key=SLIDESHOW_CAPTION.name, max_chars=CAPTION_MAX,
                 height=90, placeholder="What to say while this node is shown")
    full = show.full
    st.button("Add step", key="slideshow_add", icon=":material/add:", on_click=_add,
              args=(identity,),
              disabled=not (pick and pick in labels) or full,
              help=f"A show holds at most {STEPS_MAX} steps." if full else
              "Append the picked node with this caption.")


def _steps(show: Slideshow, labels: dict[str, tuple[str, str]], cover: Coverage) -> None:
    st.markdown(f"**Steps** ({len(show.steps)})")
    if not show.steps:
        st.caption("No step yet: pick a node, type a caption, Add step.")
        return
    skipped = {*cover.missing, *cover.hidden}
    with st.container(height=min(380, 24 + 80 * len(show.steps)), border=True):
        for i, step in enumerate(show.steps):
            n = i + 1
            where = ("not in this data" if n in cover.missing else
                     "hidden here" if n in cover.hidden else _named(labels, step.node))
            text, edit, up, down, remove = st.columns([6, 1, 1, 1, 1], gap="small",
                                                      vertical_alignment="top")
            with text:
                st.markdown(f"**{n}.** {md_escape(where)}"
                            + (" — skipped" if n in skipped else ""))
                if step.caption:
                    st.text(step.caption)  # the user's own words, as text
            with edit.popover("", icon=":material/edit:", help="Edit this step's caption"):
                field = _caption_key(i, step)
                st.text_area("Caption", value=step.caption,
                             key=SLIDESHOW_STEP_KEYS.key(field), max_chars=CAPTION_MAX,
                             height=90)
                st.button("Save caption", key=SLIDESHOW_STEP_KEYS.key(f"save-{field}"),
                          on_click=_recaption, args=(i, field))
            up.button("", key=SLIDESHOW_STEP_KEYS.key(f"up-{i}"),
                      icon=":material/arrow_upward:",
                      on_click=_move, args=(i, -1), disabled=i == 0, help="Move up",
                      type="tertiary")
            down.button("", key=SLIDESHOW_STEP_KEYS.key(f"down-{i}"),
                        icon=":material/arrow_downward:",
                        on_click=_move, args=(i, 1), disabled=i == len(show.steps) - 1,
                        help="Move down", type="tertiary")
            remove.button("", key=SLIDESHOW_STEP_KEYS.key(f"remove-{i}"),
                          icon=":material/close:",
                          on_click=_remove, args=(i,), help="Remove this step",
                          type="tertiary")


def _note() -> None:
    note = SLIDESHOW_NOTE.get()
    if not (isinstance(note, tuple) and len(note) == 2):
        return
    kind, lines = note
    text = " ".join(md_escape(str(line)) for line in lines)
    if kind == "error":
        st.error(text, icon=":material/error:")
    else:
        st.info(text, icon=":material/info:")


def _controls(show: Slideshow, cover: Coverage, identity: str | None) -> None:
    if not SLIDESHOW_TITLE.is_set():
        SLIDESHOW_TITLE.set(show.title)
    if not SLIDESHOW_ADVANCE.is_set():
        SLIDESHOW_ADVANCE.set(show.advance_s)
    st.text_input("Title (shown while playing)", key=SLIDESHOW_TITLE.name,
                  max_chars=TITLE_MAX, on_change=_retitle)
    st.number_input("Next step by itself after (seconds; 0: only by hand)",
                    key=SLIDESHOW_ADVANCE.name, min_value=0, max_value=ADVANCE_MAX,
                    step=1, on_change=_readvance)
    sentence = cover.sentence()
    if sentence:
        st.warning(md_escape(sentence), icon=":material/warning:")
    playable = len(cover.playable)
    with st.container(horizontal=True, gap="small"):
        st.button("Play", key="slideshow_play_button", type="primary",
                  icon=":material/play_arrow:", on_click=_play, disabled=playable == 0,
                  help="Full screen, flying from step to step: → or space next, ← back, "
                       "P pause, Esc exit.")
        saved = show.marked(identity) if identity is not None else show
        st.download_button("Save", data=slideshow_bytes(saved), file_name=FILE_NAME,
                           mime="application/json", key="slideshow_save",
                           icon=":material/download:", disabled=not show.steps,
                           on_click="ignore",
                           help="A small JSON file: node ids, your captions and title.")
        st.button("Clear", key="slideshow_clear", icon=":material/delete:", on_click=_clear,
                  disabled=not show.steps and not show.title, type="tertiary")
    st.file_uploader("Open a slideshow file", type=["json"],
                     key=SLIDESHOW_UPLOAD.name, on_change=_open)
    _note()
