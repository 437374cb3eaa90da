"""The shared sidebar, drawn once per run by the router on every page.

Source summary, presenter mode, as of, changes since, and the explorer's filters. Every
value lives in a session slot (:mod:`components.state.session`), so it holds on every
page until the user changes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from typing import Any

import streamlit as st

from components.sections import ask, forget_all, profile, semantic_forget
from components.state import auth, connection, data, session
from components.state.context import AppContext, Settings, flash
from components.state.pipeline import pipeline
from components.state.session import slot
from components.widgets.folds import fold
from components.widgets.safe import md_escape
from memscope.graph.analysis import Analysis
from memscope.graph.build import EDGE_KINDS
from memscope.lenses.asof import BELIEVED, CLOCKS, TRUE, Clock, WorldClocks
from memscope.lenses.filters import INFERRED_CHOICES, Filters, Inferred
from memscope.records.text import clip
from memscope.sources import SourceError, SupermemorySource
from memscope.sources.dialects import retirement_sentence
from memscope.view.budget import DEFAULT_BUDGET, MAX_BUDGET, MIN_BUDGET
from memscope.view.build import COLOR_BY

# -- the session slots this module owns (components.state.session collects them) --
F_DATES = slot("f_dates", __name__,
               "Filter: created between, a (first, last) tuple (empty: everything, "
               "following the data; a tuple, so the widget is a range picker).", tuple,
               widget=True)
F_FORGOTTEN = slot("f_forgotten", __name__,
                   "Filter: show forgotten memories.", lambda: True, widget=True)
F_PHYSICS = slot("f_physics", __name__,
                 "Run a bounded force simulation instead of the server layout.", bool,
                 widget=True)
PRESENTER = slot("presenter_mode", __name__,
                 "Presenter mode: mask every text of the data on every page.", bool,
                 widget=True)
AS_OF = slot("as_of_date", __name__,
             "Show the memory as it stood at the end of this day (None: now).", widget=True)
SINCE = slot("compare_from_date", __name__,
             "Colour what changed since this day (None: no comparison).", widget=True)
CLOCK = slot("as_of_clock", __name__,
             "The clock As of and Changes since read, for data with both clocks: "
             "'believed' (what the memory believed then) or 'true' (what was true then).",
             lambda: "believed", widget=True)
F_SPACES = slot("f_spaces", __name__, "Filter: spaces shown.", list, widget=True)
F_TYPES = slot("f_types", __name__, "Filter: document types shown.", list, widget=True)
F_EDGE_KINDS = slot("f_edge_kinds", __name__,
                    "Filter: relation kinds drawn (None: all).", widget=True)
F_SUPERSEDED = slot("f_superseded", __name__,
                    "Filter: show superseded versions.", lambda: True, widget=True)
F_INFERRED = slot("f_inferred", __name__,
                  "Filter: inferred memories shown, hidden or shown alone (show, hide, only).",
                  lambda: "show", widget=True)
F_COLOR_BY = slot("f_color_by", __name__,
                  "Colour nodes by cluster, space or document type.", lambda: "cluster",
                  widget=True)
F_BUDGET = slot("f_budget", __name__,
                "Drawing budget (nodes) before the graph shows its cluster overview.",
                widget=True)
FILTERS_BOX = slot("filters_open", __name__,
                   "Whether the sidebar's folded filters are open (the expander's state; "
                   "their widgets are drawn only then).", bool, widget=True)

COLOR_LABELS = {"cluster": "Cluster", "space": "Space", "document_type": "Document type"}
#: the two clocks of time travel, as the sidebar offers them
CLOCK_LABELS: dict[str, str] = {BELIEVED: "What the memory believed then",
                                TRUE: "What was true then"}
#: widget keys whose options are space tags shown through
#: :func:`components.sections.forget_all.pseudonyms`
SPACE_WIDGETS = (F_SPACES.widget, profile.PROFILE_SPACE.widget,
                 ask.ADD_SPACE.name, semantic_forget.SEMANTIC_FORGET_SPACE.name,
                 forget_all.FORGET_ALL_SPACE.name)


def respace() -> None:
    """Presenter mode turned on or off (the toggle's callback): set each space choice
    again, so the browser shows it under its new name. A keyed widget keeps its id when
    only its shown labels change, and the browser would go on showing the old label (the
    real tag, in presenter mode) until the user picks again."""
    session.reassign(k for k in SPACE_WIDGETS if k)


def _refresh(ctx: AppContext) -> None:
    """A source that can tell what changed reads only that (a new result touched in;
    on failure the shown load stays); any other is loaded again in full."""
    source, load = ctx.source, ctx.load
    if source is None or load is None or not source.refreshes_changes:
        data.forget_cached(ctx.key)
        return
    try:
        result = source.refresh(load)
    except SourceError as exc:
        flash(str(exc), "error")
        return
    data.touch(ctx.key, result)
    flash(result.summary(), "success" if result.complete else "info")


def _resume(ctx: AppContext) -> None:
    if ctx.source is None or ctx.load is None:
        return
    try:
        result = ctx.source.resume(ctx.load)
    except SourceError as exc:
        flash(str(exc), "error")
        return
    data.touch(ctx.key, result)
    flash(result.summary(), "success" if result.complete else "info")


def _to_v5(ctx: AppContext) -> None:
    connection.switch(replace(ctx.conn, dialect="v5"))
    flash("Switched to Supermemory's current API (v5).", "connected")


def _retirement(ctx: AppContext) -> None:
    """On Supermemory's legacy API: the shutdown date, whether the account already answers
    v5 (asked once per source), and one click to switch."""
    source = ctx.source
    if not isinstance(source, SupermemorySource) or ctx.conn.kind != "supermemory":
        return
    answers = source.answers_v5()
    st.warning(md_escape(retirement_sentence(answers)), icon=":material/schedule:")
    if answers:
        st.button("Switch to the current API (v5)", on_click=_to_v5, args=(ctx,),
                  key="switch_to_v5")


def source_summary(ctx: AppContext) -> None:
    """Which source, what loaded, and the refresh/resume buttons."""
    space = ctx.conn.space
    if space and PRESENTER.get():  # a tag is often a customer's or person's name
        space = ctx.space_names.get(space, "(hidden)")
    st.caption(f"Source: {md_escape(connection.spoken(ctx.conn, ctx.source))}"
               + (f" · space {md_escape(space)}" if space else ""))
    _retirement(ctx)
    if ctx.error:  # the page says why, once; the sidebar only that nothing loaded
        st.caption("Nothing is loaded — the Connection page says why.")
    elif ctx.load is not None:
        st.caption(md_escape(ctx.load.summary()))
        if not ctx.load.complete:  # pages missing or histories unread
            st.button("Resume: read what is missing", on_click=_resume, args=(ctx,),
                      key="resume_pages")
        for note in ctx.load.notes:
            st.caption(md_escape(note))
    if ctx.source is not None:
        st.button("Refresh data", on_click=_refresh, args=(ctx,), key="refresh_data",
                  help="Load again from the source (the cache keeps data for 15 min).")


def _within(s: session.Slot[Any], low: date, high: date | None = None) -> None:
    """Forget a stored day (or range) the widget could not show: before the data began
    (a shared link, another source), or past ``high``."""
    value = s.get()
    days = value if isinstance(value, tuple | list) else (value,)
    if any(isinstance(d, date) and (d < low or (high is not None and d > high))
           for d in days):
        s.clear()


def world_clocks(ctx: AppContext) -> WorldClocks:
    """What the load holds of the world clock (memoised per load; none without data)."""
    if ctx.request is None or ctx.current is None:
        return WorldClocks()
    return pipeline().get("clocks", ctx.request)


def _clock(world: WorldClocks) -> Clock:
    """Which clock the two days read: asked only when the data has a world clock."""
    if not world.facts:
        return BELIEVED
    if CLOCK.get() not in CLOCKS:
        CLOCK.clear()
    picked = st.radio(
        "Time travel shows", list(CLOCKS),
        format_func=lambda c: CLOCK_LABELS.get(str(c), str(c)),
        help="These facts carry two clocks: when the memory learnt and retired each one, "
             "and when it was true in the world. The choice applies to “As of”, "
             "“Changes since” and the playback.", **session.bind(CLOCK))
    return TRUE if picked == TRUE else BELIEVED


def _time_travel(bounds: tuple[date, date] | None, world: WorldClocks
                 ) -> tuple[date | None, date | None, Clock]:
    if bounds is None:
        return AS_OF.get(), SINCE.get(), BELIEVED
    low = min(bounds[0], world.first) if world.first is not None else bounds[0]
    _within(AS_OF, low)
    _within(SINCE, low)
    as_of = st.date_input(
        "As of", min_value=low, format="YYYY-MM-DD", **session.bind(AS_OF),
        help="Show the memory as it stood at the end of that day (empty: now).")
    clock = _clock(world)
    since = st.date_input(
        "Changes since", min_value=low, format="YYYY-MM-DD",
        **session.bind(SINCE),
        help="Colour what was added, updated or forgotten between this day and the as-of "
             "day (or today).")
    as_of = as_of if isinstance(as_of, date) else None
    since = since if isinstance(since, date) else None
    if since is not None and since >= (as_of or date.max):
        st.caption("“Changes since” must be before the as-of day.")
    return as_of, since, clock


def time_travel_banner(ctx: AppContext) -> str | None:
    """The line above every page while time travel is on: the day and the clock, and how
    many facts were placed from when they were learnt (they say not when they became
    true); ``None`` when it is off."""
    s = ctx.settings
    if s.as_of is None and (s.since is None or s.clock != TRUE):
        return None
    parts = []
    if s.as_of is not None:
        shown = (f"what was true on {s.as_of.isoformat()}" if s.clock == TRUE else
                 f"the memory as it stood on {s.as_of.isoformat()}")
        parts.append(f"Time travel: showing {shown} (clear “As of” in the sidebar to "
                     "return to now).")
    undated = world_clocks(ctx).undated if s.clock == TRUE else 0
    if undated == 1:
        parts.append("1 fact does not say when it became true; it is counted as true from "
                     "the day the memory learnt it.")
    elif undated:
        parts.append(f"{undated} facts do not say when they became true; they are counted "
                     "as true from the day the memory learnt them.")
    return " ".join(parts) or None


def _as_range(s: session.Slot[Any]) -> None:
    """Keep a range slot a tuple (of at most two days): Streamlit draws a single-day
    picker for any other stored value (``None``, one day), and a range picker must stay
    a range picker."""
    value = s.get()
    if not (isinstance(value, tuple) and len(value) <= 2
            and all(isinstance(d, date) for d in value)):
        s.clear()


def _draw_dates(bounds: tuple[date, date] | None) -> None:
    """The "created between" filter, a range picker: empty (or one day picked, the
    second still to come) means everything, whatever the data grows to."""
    if bounds is None:
        return
    st.date_input("Created between", min_value=bounds[0], max_value=bounds[1],
                  format="YYYY-MM-DD", **session.bind(F_DATES),
                  help="Empty: every date (the range follows the data as it grows).")


def _settle_filters(analysis: Analysis) -> None:
    """Fit the stored filters to this data, drawn or not: a day range the picker can show,
    every relation kind until one is unticked, a known choice for inferred memories, the
    default drawing budget."""
    if analysis.date_range is not None:
        _as_range(F_DATES)
        _within(F_DATES, analysis.date_range[0], analysis.date_range[1])
    if not F_EDGE_KINDS.is_set():
        F_EDGE_KINDS.set(list(EDGE_KINDS))
    if F_INFERRED.get() not in INFERRED_CHOICES:
        F_INFERRED.clear()
    if not F_BUDGET.is_set():
        F_BUDGET.set(DEFAULT_BUDGET)


def _chosen_filters(analysis: Analysis, alias: dict[str, str]) -> Filters:
    """The explorer's filters as the slots hold them, for this data (the widgets show and
    set the same slots); in presenter mode (``alias``: tag → pseudonym) the spaces are
    the masked data's."""
    days = F_DATES.get() if analysis.date_range is not None else None
    start, end = (days[0], days[1]) if isinstance(days, tuple | list) and len(days) == 2 \
        else (None, None)
    return Filters(
        spaces=frozenset(alias.get(str(s), str(s)) for s in F_SPACES.get()
                         if s in analysis.spaces),
        document_types=frozenset(t for t in F_TYPES.get() if t in analysis.document_types),
        date_from=start, date_to=end, edge_kinds=frozenset(F_EDGE_KINDS.get()),
        show_superseded=bool(F_SUPERSEDED.get()), show_forgotten=bool(F_FORGOTTEN.get()),
        inferred=_stored_inferred())


def _draw_filters(analysis: Analysis, alias: dict[str, str],
                  label: Callable[[str], str]) -> None:
    """The explorer's filters' widgets; the Space filter shows each space by ``label`` (its
    name, or its pseudonym in presenter mode) and keeps the real tags as its values."""
    spaces, types = analysis.spaces, analysis.document_types
    if alias:
        order = {tag: i for i, tag in enumerate(alias)}
        spaces = sorted(spaces, key=lambda t: (order.get(t, len(order)), t))
    if spaces:
        st.multiselect("Space", spaces, placeholder="All spaces",
                       format_func=lambda t: clip(label(str(t))), **session.bind(F_SPACES))
    if types:
        st.multiselect("Document type", types, placeholder="All types",
                       format_func=lambda t: clip(str(t)), **session.bind(F_TYPES))
    _draw_dates(analysis.date_range)
    st.multiselect("Relation kinds", list(EDGE_KINDS), **session.bind(F_EDGE_KINDS))
    st.checkbox("Show superseded versions", **session.bind(F_SUPERSEDED))
    st.checkbox("Show forgotten memories", **session.bind(F_FORGOTTEN))
    st.radio("Inferred memories", list(INFERRED_CHOICES), horizontal=True,
             format_func=lambda c: INFERRED_CHOICES.get(str(c), str(c)),
             help="Memories the service inferred, not stated by you (drawn with a dotted "
                  "border and ≈).", **session.bind(F_INFERRED))


def _stored_inferred() -> Inferred:
    value = F_INFERRED.get()
    return value if value in ("show", "hide", "only") else "show"


def filters_heading(stored: Filters) -> str:
    """The folded filters' heading: "Filters", or how many of them narrow the view
    ("Filters · 2 on"), so a narrowed view never looks like the whole."""
    n = stored.active()
    return f"Filters · {n} on" if n else "Filters"


def _stored_filters() -> Filters:
    """The filters as stored: for a run that cannot draw them (no data loaded), and for
    the heading drawn before them."""
    kinds = F_EDGE_KINDS.get()
    days = F_DATES.get()
    start, end = (days[0], days[1]) if isinstance(days, tuple | list) and len(days) == 2 \
        else (None, None)
    return Filters(spaces=frozenset(F_SPACES.get()),
                   document_types=frozenset(F_TYPES.get()),
                   date_from=start, date_to=end,
                   edge_kinds=frozenset(EDGE_KINDS if kinds is None else kinds),
                   show_superseded=bool(F_SUPERSEDED.get()),
                   show_forgotten=bool(F_FORGOTTEN.get()),
                   inferred=_stored_inferred())


def _adopt(link: session.Link | None) -> None:
    """Take presenter mode, the two days and the clock from the link the session started
    with."""
    if link is None:
        return
    if link.presenter:
        PRESENTER.set(True)
    if link.as_of is not None:
        AS_OF.set(link.as_of)
    if link.since is not None:
        SINCE.set(link.since)
    if link.clock is not None:
        CLOCK.set(link.clock)


def _link() -> dict[str, str]:
    """The sidebar's part of the URL (:data:`components.state.session.LINK_KEYS`):
    presenter mode, the two days and the clock, as the slots hold them."""
    link: dict[str, str] = {}
    if PRESENTER.get():
        link["presenter"] = "1"
    for key, s in (("asof", AS_OF), ("since", SINCE)):
        day = s.get()
        if isinstance(day, date):
            link[key] = day.isoformat()
    # the default clock (what the memory believed) goes unsaid
    if CLOCK.get() == "true":
        link["clock"] = "true"
    return link


def draw(ctx: AppContext) -> Settings:
    """The whole shared sidebar; returns what it sets."""
    _adopt(ctx.link)
    with st.sidebar:
        auth.sign_out_button(ctx.user)
        source_summary(ctx)
        st.divider()
        presenter = st.toggle(
            "Presenter mode", **session.bind(PRESENTER, on_change=respace),
            help="Masks memory, document and profile text and names spaces Space 1, "
                 "Space 2… everywhere (graph, panels, charts, exports); the structure "
                 "stays. Holds on every page until you turn it off.")
        current = ctx.current
        bounds = current.date_range if current is not None else None
        as_of, since, clock = _time_travel(bounds, world_clocks(ctx))
        if current is None:
            return Settings(presenter=bool(presenter), as_of=as_of, since=since,
                            filters=_stored_filters(), link=_link())
        st.divider()
        # folded until opened, and its widgets drawn only while it is open: a page's first
        # frame does not wait for a dozen widgets it does not need (issue 33: they took
        # most of the browser's render before the graph); the slots hold every value, so
        # the view is the same folded or not, and the heading says when any of them
        # narrows it
        _settle_filters(current)
        alias = ctx.space_names if presenter else {}
        box, is_open = fold(filters_heading(_stored_filters()), FILTERS_BOX)
        if is_open:
            with box:
                _draw_filters(current, alias, ctx.space_labeller(bool(presenter)))
                note = (ctx.source.capabilities.note("review_inferred") if ctx.source
                        else None)
                if note and any(m.is_inference for m in current.dataset.memories.values()):
                    st.caption(md_escape(note))
                st.selectbox("Colour by", list(COLOR_BY),
                             format_func=lambda c: COLOR_LABELS.get(str(c), str(c)),
                             **session.bind(F_COLOR_BY))
                st.toggle("Physics", help="A bounded force simulation; off draws the "
                          "server layout.", **session.bind(F_PHYSICS))
                st.number_input(
                    "Drawing budget (nodes)", min_value=MIN_BUDGET, max_value=MAX_BUDGET,
                    step=500, help="Past this many nodes the graph shows an overview: "
                    "clusters collapse into hexagons that expand on click.",
                    **session.bind(F_BUDGET))
        filters = _chosen_filters(current, alias)
        color_by, physics, budget = F_COLOR_BY.get(), F_PHYSICS.get(), F_BUDGET.get()
    return Settings(presenter=bool(presenter), as_of=as_of, since=since, clock=clock,
                    filters=filters, color_by=str(color_by), physics=bool(physics),
                    budget=int(budget), link=_link())
