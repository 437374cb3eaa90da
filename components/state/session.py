"""The session model: what a ``st.session_state`` key is, and the registry of them all.

Nothing else in the app reads or writes ``st.session_state`` by a literal key: modules use
:class:`Slot` objects (``SELECTED.get()``, ``PRESENTER.set(True)``), each declared by the
one module that writes it — its owner, ``slot("name", __name__, "doc")`` — and collected
in :data:`REGISTRY` (families in :data:`FAMILIES`) as that module loads; a reader imports
the slot from its owner. This module declares its own slots (the selection, following the
URL) and, as listed debt, a few whose readers cannot import their owner.

Widgets whose value must outlive the page they are drawn on (the sidebar's presenter mode,
as-of, changes-since and filters) keep their value in a slot and draw their widget through
:func:`bind`, so Streamlit's clean-up of unrendered widgets can never reset them.

The URL mirrors what it can carry (``?node=``, ``?space=``, ``?presenter=1``, ``?asof=``,
``?since=``, ``?clock=true``); :func:`adopt_url` reads it when a session starts (or a link
changes it), handing presenter mode, the two days and the clock to the sidebar that owns
them, and
:func:`write_url` is its one writer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any, Generic, TypeVar, cast

import streamlit as st

T = TypeVar("T")

#: every declared slot by name, filled as the modules declaring them load (a slot is
#: declared by its owner; this module only collects them)
REGISTRY: dict[str, Slot[Any]] = {}
#: every declared family by prefix, filled the same way
FAMILIES: dict[str, Family] = {}


def _none() -> None:
    return None


def _collect(into: dict[str, Any], key: str, declared: Slot[Any] | Family) -> None:
    """Register ``declared`` under ``key``: twice only by the same owner (a module loaded
    again, as Streamlit does with an edited file), never by two owners."""
    held = into.get(key)
    if held is not None and held.owner != declared.owner:
        raise ValueError(f"session key {key!r} is declared twice")
    into[key] = declared


@dataclass(frozen=True)
class Slot(Generic[T]):
    """One session-state key: its name, the module that owns (writes) it, and a default."""

    name: str
    owner: str
    doc: str
    default: Callable[[], T]
    #: the widget drawn for this slot (see :func:`bind`), if any
    widget: str | None = None

    def __post_init__(self) -> None:
        _collect(REGISTRY, self.name, self)

    def get(self) -> T:
        """The value, or the default when unset (the default is not stored)."""
        if self.name in st.session_state:
            return cast(T, st.session_state[self.name])
        return self.default()

    def set(self, value: T) -> None:
        """Store ``value`` (and show it in the slot's widget on the next run)."""
        st.session_state[self.name] = value
        if self.widget is not None and self.widget in st.session_state:
            del st.session_state[self.widget]  # the widget re-reads the slot when drawn

    def setdefault(self) -> T:
        """The value, storing the default first when unset (for mutable defaults)."""
        if self.name not in st.session_state:
            st.session_state[self.name] = self.default()
        return cast(T, st.session_state[self.name])

    def clear(self) -> None:
        """Forget the value (back to the default)."""
        st.session_state.pop(self.name, None)
        if self.widget is not None:
            st.session_state.pop(self.widget, None)

    def is_set(self) -> bool:
        """True when a value is stored."""
        return self.name in st.session_state


@dataclass(frozen=True)
class Family:
    """A family of keys made at run time from a prefix (one per token or per element)."""

    prefix: str
    owner: str
    doc: str

    def __post_init__(self) -> None:
        _collect(FAMILIES, self.prefix, self)

    def key(self, suffix: str) -> str:
        """The key for ``suffix``."""
        return f"{self.prefix}{suffix}"

    def get(self, suffix: str) -> Any:
        """The value under ``suffix`` (``None`` when unset)."""
        return st.session_state.get(self.key(suffix))

    def set(self, suffix: str, value: Any) -> None:
        """Store ``value`` under ``suffix``."""
        st.session_state[self.key(suffix)] = value


def slot(name: str, owner: str, doc: str, default: Callable[[], Any] = _none,
         *, widget: bool = False) -> Slot[Any]:
    """Declare a slot (``widget=True``: its widget key is ``w.<name>``); its owner declares
    it, passing its own ``__name__`` as ``owner``."""
    return Slot(name, owner, doc, default, f"w.{name}" if widget else None)


def reassign(widget_keys: Iterable[str]) -> None:
    """Set each of these widgets' values again, unchanged, so the browser redraws them (a
    keyed widget whose shown labels changed would otherwise keep showing the old ones)."""
    for key in widget_keys:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def bind(s: Slot[Any], *, on_change: Callable[[], None] | None = None) -> dict[str, Any]:
    """Widget keyword arguments that keep the widget and the slot ``s`` in step.

    The widget is given the slot's value on every run and writes every change back into
    it (its callback runs before the script, so a change has reached the slot by then),
    so the value survives pages where the widget is not drawn. Giving it on every run, not
    only when Streamlit forgot the widget, makes Streamlit send the value to the browser
    each time: a browser that dropped the widget while the server kept its state (a run
    cut short by a click) would otherwise draw it at its default — an empty "Relation
    kinds", unticked boxes — and send that default back as the user's choice. Use as
    ``st.toggle("…", **bind(S))``.
    """
    assert s.widget is not None, f"{s.name} has no widget"
    wkey = s.widget
    st.session_state[wkey] = s.get()

    def copy_back() -> None:
        st.session_state[s.name] = st.session_state[wkey]
        if on_change is not None:
            on_change()

    return {"key": wkey, "on_change": copy_back}


# -- this module's own slots: following the URL, and the selection (select) --------------
URL_ADOPTED = slot("url_adopted", __name__,
                   "True once the URL's settings were read into this session.", bool)
LAST_LINK = slot("last_linked_node", __name__,
                 "The ?node= last adopted, so an unchanged URL does not re-select.")
LAST_SPACE = slot("last_linked_space", __name__,
                  "The ?space= last adopted.")
SELECTED = slot("selected_node", __name__,
                "The selected node id (graph click, search match, link); mirrors ?node=.")

# == slots declared here though another module owns them =================================
# Every other slot is declared by its owner (``slot("…", __name__, …)``), and REGISTRY
# collects it when that module loads. The ones below are still declared here — debt,
# listed in tests/test_architecture.py so that none is added unnoticed — because
# something that cannot import their owner reads them:
#  - the tests read them as ``session.<NAME>`` (until they import them from the owner);
#  - write_url below (this layer, under the sections) reads the sidebar's presenter mode,
#    as-of day, changes-since day and clock;
#  - PLAY_HISTORY is read only in the explorer's graph-drawing code, left as it is here;
#  - PROFILE_SPACE's owner is a page, which no section (forget_all reads it) imports.

# -- connection (components.state.connection) -------------------------------------------
CONNECTION = slot("connection", "components.state.connection",
                  "The chosen source (kind, URL, space, files), without its credential.")
API_KEY = slot("api_key_secret", "components.state.connection",
               "The API key typed on the Connection page (a SecretStr; this session only).")
FILE_BLOBS = slot("file_blobs", "components.state.connection",
                  "Bytes of the snapshot files opened in this session, by SHA-256.", dict)

# -- the router (components.state.context) ----------------------------------------------
APP_CONTEXT = slot("app_context", "components.state.context",
                   "The AppContext the router built for this run; pages read it.")

# -- the shared sidebar (components.sections.sidebar) -----------------------------------
PRESENTER = slot("presenter_mode", "components.sections.sidebar",
                 "Presenter mode: mask every text of the data on every page.", bool,
                 widget=True)
AS_OF = slot("as_of_date", "components.sections.sidebar",
             "Show the memory as it stood at the end of this day (None: now).", widget=True)
SINCE = slot("compare_from_date", "components.sections.sidebar",
             "Colour what changed since this day (None: no comparison).", widget=True)
CLOCK = slot("as_of_clock", "components.sections.sidebar",
             "The clock As of and Changes since read, for data with both clocks: "
             "'believed' (what the memory believed then) or 'true' (what was true then).",
             lambda: "believed", widget=True)
F_SPACES = slot("f_spaces", "components.sections.sidebar", "Filter: spaces shown.", list,
                widget=True)
F_TYPES = slot("f_types", "components.sections.sidebar", "Filter: document types shown.",
               list, widget=True)
F_EDGE_KINDS = slot("f_edge_kinds", "components.sections.sidebar",
                    "Filter: relation kinds drawn (None: all).", widget=True)
F_SUPERSEDED = slot("f_superseded", "components.sections.sidebar",
                    "Filter: show superseded versions.", lambda: True, widget=True)
F_INFERRED = slot("f_inferred", "components.sections.sidebar",
                  "Filter: inferred memories shown, hidden or shown alone (show, hide, only).",
                  lambda: "show", widget=True)
F_COLOR_BY = slot("f_color_by", "components.sections.sidebar",
                  "Colour nodes by cluster, space or document type.", lambda: "cluster",
                  widget=True)
F_BUDGET = slot("f_budget", "components.sections.sidebar",
                "Drawing budget (nodes) before the graph shows its cluster overview.",
                widget=True)

# -- the explorer (components.sections.explorer) ----------------------------------------
EXPANDED = slot("expanded_clusters", "components.sections.explorer",
                "Clusters of the overview the user expanded.", set)
TEXT_SEARCH = slot("text_search", "components.sections.explorer",
                   "The explorer's text search (its widget's key).", str)

# the history played back under the graph (issue 19, item 3: playback.js)
PLAY_HISTORY = slot("play_history", "components.sections.explorer",
                    "The explorer's 'Play the history' toggle: send the graph its timeline.",
                    bool, widget=True)

# -- ask and add (components.sections.ask) ----------------------------------------------
ASK_QUERY = slot("ask_query", "components.sections.ask",
                 "The Ask box's question (its widget's key, inside a form).", str)

# -- the Ledger page (components.sections.ledger) ----------------------------------------
LEDGER_FILTERS = Family("ledger_filter_", "components.sections.ledger",
                        "The Ledger page's filter widgets (actions, outcomes, sources, "
                        "spaces, text) by name.")

# -- the overview (components.sections.overview) and the graph (components.graph_view) ---
SHOW_MEMORY_TABLE = slot("show_memory_table", "components.sections.overview",
                         "Whether the explorer's memory table is built (widget key).")
GRAPH_STATE = slot("graph", "components.graph_view",
                   "The graph component's own state (what the browser selected).")

# -- the migration check (components.sections.migration) --------------------------------
MIGRATION_REPORT = slot("migration_report", "components.sections.migration",
                        "The last v4 ↔ v5 migration check: (source key, report) — its "
                        "differing ids are marked on the graph.")

# -- the Compare page (components.sections.compare) --------------------------------------
COMPARE_KIND_A = slot("compare_kind_a", "components.sections.compare",
                      "What side A of the Compare page is: live now, live as of a day or a "
                      "snapshot file.", lambda: "asof", widget=True)
COMPARE_KIND_B = slot("compare_kind_b", "components.sections.compare",
                      "What side B of the Compare page is.", lambda: "live", widget=True)
COMPARE_DAY_A = slot("compare_day_a", "components.sections.compare",
                     "Side A's as-of day on the Compare page.", widget=True)
COMPARE_DAY_B = slot("compare_day_b", "components.sections.compare",
                     "Side B's as-of day on the Compare page.", widget=True)
COMPARE_FILES = slot("compare_files", "components.sections.compare",
                     "The snapshot file chosen for each side of the Compare page: side → "
                     "(file name, bytes); this session only.", dict)

# -- the Audit page's review queue (components.sections.semantic_review) -----------------
SEMANTIC_REVIEW_MARKS = slot("semantic_review_marks", "components.sections.semantic_review",
                             "(source key, memory ids) 'Open both in the graph' asked the "
                             "explorer to mark.")
JUDGE_PRESENTER_OK = slot("judge_presenter_ok", "components.sections.semantic_review",
                          "The presenter-mode confirmation checkbox (widget key).")

# -- the judge's settings (components.sections.judge_form) -----------------------------------
JUDGE_URL = slot("judge_url", "components.sections.judge_form",
                 "The judge form's base URL (widget key).")
JUDGE_MODEL = slot("judge_model", "components.sections.judge_form",
                   "The judge form's model name (widget key).")
JUDGE_KEY_FIELD = slot("judge_key_field", "components.sections.judge_form",
                       "The judge form's password field (widget key); emptied on Use.")
JUDGE_SET = slot("judge_set", "components.sections.judge_form",
                 "(base URL, model) set on the Connection page for this session.")
JUDGE_KEY = slot("judge_key_secret", "components.sections.judge_form",
                 "The judge's key typed on the Connection page (a SecretStr; this session "
                 "only).")

# -- the Slideshow page (components.sections.slideshow; issue 19, item 3) ------------------
SLIDESHOW = slot("slideshow", "components.sections.slideshow",
                 "The slideshow being built or opened (memscope.view.slideshow.Slideshow).")
SLIDESHOW_EXPANDED = slot("slideshow_expanded", "components.sections.slideshow",
                          "Clusters of the Slideshow page's overview the user opened.", set)
SLIDESHOW_CAPTION = slot("slideshow_caption", "components.sections.slideshow",
                         "The next step's caption (widget key).", str)
SLIDESHOW_STEP_KEYS = Family("slideshow_step_", "components.sections.slideshow",
                             "The step list's buttons (up, down, remove), per action and row.")

# -- the recall map (components.sections.recall) -----------------------------------------
RECALL_JOB = slot("recall_job", "components.sections.recall",
                  "The recall run of this session: its questions, stop event, progress and, "
                  "once done, its result (a background thread fills it in).")
RECALL_FROM = slot("recall_from", "components.sections.recall",
                   "Where the recall map's questions come from: typed, a file or the demo's "
                   "set.", lambda: "typed", widget=True)
RECALL_TEXT = slot("recall_text", "components.sections.recall",
                   "The recall map's typed questions, one a line.", str, widget=True)
RECALL_WORKERS = slot("recall_workers", "components.sections.recall",
                      "The recall map's bound on questions sent at once.", lambda: 4,
                      widget=True)

# -- the Profile page (pages.profile) ---------------------------------------------------
PROFILE_SPACE = slot("profile_space", "pages.profile", "The Profile page's space.",
                     widget=True)


# -- the selection and the URL ------------------------------------------------------------
def select(node_id: str | None) -> None:
    """Make ``node_id`` the selection (``None`` clears it): the one writer of
    :data:`SELECTED` and of ``?node=``, written through at once so the next run does not
    mistake the old URL for a new link."""
    SELECTED.set(node_id or None)
    LAST_LINK.set(node_id or None)
    _set_param("node", node_id or None)


def _set_param(key: str, value: str | None) -> None:
    params = st.query_params
    if value is None:
        if key in params:
            del params[key]
    elif params.get(key) != value:
        params[key] = value


def selected() -> str | None:
    """The selected node id, if any."""
    value = SELECTED.get()
    return value if isinstance(value, str) and value else None


def _parse_day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


@dataclass(frozen=True)
class Link:
    """What the URL asked for when the session started (a reload or a shared link): the
    sidebar, which owns these settings, adopts them."""

    presenter: bool = False
    as_of: date | None = None
    since: date | None = None
    #: ``?clock=true``: time travel reads what was true (data with two clocks)
    clock: str | None = None


def adopt_url(switch_space: Callable[[str], None]) -> Link | None:
    """Read the URL: a changed ``?space=``/``?node=`` on any run (links between pages),
    and on a session's first run also the :class:`Link` settings it returns (else
    ``None``).

    A new ``?space=`` is handed to ``switch_space`` before ``?node=`` is selected (a
    switch clears the selection).
    """
    params = st.query_params
    link = None
    if not URL_ADOPTED.get():
        URL_ADOPTED.set(True)
        link = Link(presenter=params.get("presenter") == "1",
                    as_of=_parse_day(params.get("asof")),
                    since=_parse_day(params.get("since")),
                    clock="true" if params.get("clock") == "true" else None)
    node = params.get("node")  # read first: switching the space clears ?node=
    space = params.get("space")
    if space and space != LAST_SPACE.get():
        LAST_SPACE.set(space)
        switch_space(space)
    if node and node != LAST_LINK.get():
        select(node)
    return link


def write_url(space: str | None) -> None:
    """Make the URL carry the session's settings (the one writer of the query string)."""
    wanted: dict[str, str] = {}
    node = selected()
    if node:
        wanted["node"] = node
    if space:
        wanted["space"] = space
        LAST_SPACE.set(space)
    if PRESENTER.get():
        wanted["presenter"] = "1"
    for key, s in (("asof", AS_OF), ("since", SINCE)):
        day = s.get()
        if isinstance(day, date):
            wanted[key] = day.isoformat()
    if CLOCK.get() == "true":  # the default clock (what the memory believed) goes unsaid
        wanted["clock"] = "true"
    for key in ("node", "space", "presenter", "asof", "since", "clock"):
        _set_param(key, wanted.get(key))
