"""The session model: every ``st.session_state`` key the app uses, its type and its owner.

Nothing else in the app reads or writes ``st.session_state`` by a literal key: modules use
the :class:`Slot` objects declared here (``SELECTED.get()``, ``PRESENTER.set(True)``), and
each slot names the one module that writes it. Widgets whose value must outlive the page
they are drawn on (the sidebar's presenter mode, as-of, changes-since and filters) keep
their value in a slot and draw their widget through :func:`bind`, so Streamlit's clean-up
of unrendered widgets can never reset them.

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

#: every declared slot by name (filled as the module loads)
REGISTRY: dict[str, Slot[Any]] = {}


def _none() -> None:
    return None


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
        if self.name in REGISTRY:
            raise ValueError(f"session key {self.name!r} is declared twice")
        REGISTRY[self.name] = self

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
    """Declare a slot (``widget=True``: its widget key is ``w.<name>``)."""
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


# -- connection (components.state.connection) -------------------------------------------
CONNECTION = slot("connection", "components.state.connection",
                  "The chosen source (kind, URL, space, files), without its credential.")
API_KEY = slot("api_key_secret", "components.state.connection",
               "The API key typed on the Connection page (a SecretStr; this session only).")
SOURCE = slot("source_object", "components.state.connection",
              "(identity, Source) built for the connection; closed when it changes.")
FILE_BLOBS = slot("file_blobs", "components.state.connection",
                  "Bytes of the snapshot files opened in this session, by SHA-256.", dict)

# -- the Connection page's form (components.sections.connection_form) -------------------
CONN_KIND = slot("conn_kind", "components.sections.connection_form",
                 "The form's source kind (widget key).")
CONN_BASE_URL = slot("conn_base_url", "components.sections.connection_form",
                     "The form's base URL (widget key).")
CONN_API_KEY = slot("conn_api_key", "components.sections.connection_form",
                    "The form's password field (widget key); emptied on Connect.")
CONN_SPACE = slot("conn_space", "components.sections.connection_form",
                  "The form's space (widget key).")
CONN_DIALECT = slot("conn_dialect", "components.sections.connection_form",
                    "The form's Supermemory dialect, v5 or legacy (widget key).")
CONN_BACKEND = slot("conn_backend", "components.sections.connection_form",
                    "The form's Graphiti backend: kuzu, neo4j or falkordb (widget key).")
CONN_USER = slot("conn_user", "components.sections.connection_form",
                 "The form's Graphiti database user name (widget key).")
SPACE_PICK = slot("space_pick", "components.sections.connection_form",
                  "The listed-spaces picker (widget key).")
SNAPSHOT_UPLOAD = slot("snapshot_upload", "components.sections.connection_form",
                       "The snapshot files being opened (widget key).")

# -- the router (components.state.context) ----------------------------------------------
APP_CONTEXT = slot("app_context", "components.state.context",
                   "The AppContext the router built for this run; pages read it.")
FLASH = slot("flash_messages", "components.state.context",
             "(kind, sentence) toasts to show after the next rerun.", list)
URL_ADOPTED = slot("url_adopted", "components.state.session",
                   "True once the URL's settings were read into this session.", bool)
LAST_LINK = slot("last_linked_node", "components.state.session",
                 "The ?node= last adopted, so an unchanged URL does not re-select.")
LAST_SPACE = slot("last_linked_space", "components.state.session",
                  "The ?space= last adopted.")

# -- the selection (components.state.session.select) ------------------------------------
SELECTED = slot("selected_node", "components.state.session",
                "The selected node id (graph click, search match, link); mirrors ?node=.")

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
F_DATES = slot("f_dates", "components.sections.sidebar",
               "Filter: created between, a (first, last) tuple (empty: everything, "
               "following the data; a tuple, so the widget is a range picker).", tuple,
               widget=True)
F_EDGE_KINDS = slot("f_edge_kinds", "components.sections.sidebar",
                    "Filter: relation kinds drawn (None: all).", widget=True)
F_SUPERSEDED = slot("f_superseded", "components.sections.sidebar",
                    "Filter: show superseded versions.", lambda: True, widget=True)
F_FORGOTTEN = slot("f_forgotten", "components.sections.sidebar",
                   "Filter: show forgotten memories.", lambda: True, widget=True)
F_INFERRED = slot("f_inferred", "components.sections.sidebar",
                  "Filter: inferred memories shown, hidden or shown alone (show, hide, only).",
                  lambda: "show", widget=True)
F_COLOR_BY = slot("f_color_by", "components.sections.sidebar",
                  "Colour nodes by cluster, space or document type.", lambda: "cluster",
                  widget=True)
F_PHYSICS = slot("f_physics", "components.sections.sidebar",
                 "Run a bounded force simulation instead of the server layout.", bool,
                 widget=True)
F_BUDGET = slot("f_budget", "components.sections.sidebar",
                "Drawing budget (nodes) before the graph shows its cluster overview.",
                widget=True)

# -- the explorer (components.sections.explorer) ----------------------------------------
EXPANDED = slot("expanded_clusters", "components.sections.explorer",
                "Clusters of the overview the user expanded.", set)
TEXT_SEARCH = slot("text_search", "components.sections.explorer",
                   "The explorer's text search (its widget's key).", str)
# the explorer's layout: the drawer, and the stage's element (issue 23, item 1; the
# window's height is the browser's own since issue 33, item 1)
DRAWER_DISMISSED = slot("drawer_dismissed", "components.sections.explorer",
                        "The search and answer the drawer was closed on: (query, answer key).")
VIEWPORT = slot("graph_viewport", "components.widgets.stage",
                "The stage element's key (Esc, the drawer's background); it holds no "
                "state: the graph takes the window's height in the browser.")

# the history played back under the graph (issue 19, item 3: playback.js)
PLAY_HISTORY = slot("play_history", "components.sections.explorer",
                    "The explorer's 'Play the history' toggle: send the graph its timeline.",
                    bool, widget=True)

# -- ask and add (components.sections.ask) ----------------------------------------------
ASK_QUERY = slot("ask_query", "components.sections.ask",
                 "The Ask box's question (its widget's key, inside a form).", str)
ASKED = slot("asked_answers", "components.sections.ask",
             "Answers by (source key, question), each sent once per data load.", dict)
ASK_CURRENT = slot("ask_current", "components.sections.ask",
                   "The (source key, question) whose answer is shown.")
ADD_TEXT = slot("add_text", "components.sections.ask", "The Add form's text (widget key).",
                str)
ADD_TITLE = slot("add_title", "components.sections.ask", "The Add form's title (widget key).",
                 str)
ADD_SPACE = slot("add_space", "components.sections.ask", "The Add form's space (widget key).")
ADD_PENDING = slot("add_pending", "components.sections.ask",
                   "An add waiting for its one confirmed send.")
ADD_TRACK = slot("add_track", "components.sections.ask",
                 "A Supermemory document being processed after an add.")
ADD_LAST = slot("add_last", "components.sections.ask", "The last add's outcome sentence.")

# -- the provenance trail (components.sections.why; issue 19, item 1) --------------------
WHY_OPEN = slot("why_open", "components.sections.why",
                "The memory or fact whose “Why does it believe this?” trail is open.")

# -- destructive actions ----------------------------------------------------------------
FORGET_PENDING = slot("forget_pending", "components.sections.forget",
                      "A forget waiting for its confirmation (with its once-token).")
FORGET_ALL_PENDING = slot("forget_all_pending", "components.sections.forget_all",
                          "A forget-all preview waiting for its typed confirmation.")
FORGET_ALL_FIELDS = Family("fa-", "components.sections.forget_all",
                           "The confirmation and reason fields of one forget-all preview.")
SEMANTIC_FORGET = slot("semantic_forget_pending", "components.sections.semantic_forget",
                       "A semantic-forget dry run under review (its preview, the unticked "
                       "ids, its once-token).")
SEMANTIC_FORGET_QUERY = slot("semantic_forget_query", "components.sections.semantic_forget",
                             "The 'Forget memories about…' field (its widget key).", str)
SEMANTIC_FORGET_SPACE = slot("semantic_forget_space", "components.sections.semantic_forget",
                             "The space a semantic forget looks in, when the connection "
                             "names none (its widget key).")
SEMANTIC_FORGET_FIELDS = Family("sf-", "components.sections.semantic_forget",
                                "The tick boxes and the reason field of one semantic-forget "
                                "preview, by token.")
SEMANTIC_FORGET_LAST = slot("semantic_forget_last", "components.sections.semantic_forget",
                            "The per-id report of the last confirmed semantic forget.")
ONCE_USED = slot("once_tokens_used", "components.widgets.once",
                 "Tokens of requests already sent (never send twice).", set)

LEDGER_FILTERS = Family("ledger_filter_", "components.sections.ledger",
                        "The Ledger page's filter widgets (actions, outcomes, sources, "
                        "spaces, text) by name.")
LEDGER_VIEW = slot("ledger_view", "components.sections.ledger",
                   "The Ledger page's choice: this source's rows or all my actions (widget key).")

DIFF_CHAIN = slot("diff_chain", "components.sections.audit",
                  "The Audit page's chain to compare (widget key).")
DIFF_VERSIONS = Family("diff_version_", "components.sections.audit",
                       "The Audit page's older/newer version pickers, per chain.")
CHANGE_LINKS = Family("change_link_", "components.sections.audit",
                      "The explorer's “changes since” buttons that select a memory, per "
                      "list and memory.")
EVIDENCE_NODE = slot("evidence_node", "components.sections.export",
                     "The Export page's chain or node for an evidence pack (widget key).")
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
COMPARE_UPLOADS = Family("compare_upload_", "components.sections.compare",
                         "The Compare page's file pickers, per side (widget keys).")
COMPARE_SHOW = slot("compare_show", "components.sections.compare",
                    "The kinds of difference the Compare page's table lists (none: all).",
                    list, widget=True)
COMPARE_RESULT = slot("compare_result", "components.sections.compare",
                      "The last comparison: (what both sides were, the comparison), kept "
                      "until a side or the live data changes.")
COMPARE_GRAPH = slot("compare_graph", "components.sections.compare",
                     "The Compare page's graph component's own state (its key).")

# -- the Audit page's review queue (components.sections.semantic_review) -----------------
SEMANTIC_REVIEW_HELD = slot("semantic_review_held", "components.sections.semantic_review",
                            "(source identity, finding keys) reviewed as not a conflict: "
                            "read from the ledger once, kept in step by the review.")
SEMANTIC_REVIEW_MARKS = slot("semantic_review_marks", "components.sections.semantic_review",
                             "(source key, memory ids) 'Open both in the graph' asked the "
                             "explorer to mark.")
SEMANTIC_REVIEW_KEYS = Family("semantic_review_", "components.sections.semantic_review",
                              "The review queue's buttons (not a conflict, forget, open), "
                              "per action and finding key.")
JUDGE_VERDICTS = slot("judge_verdicts", "components.sections.semantic_review",
                      "A model's verdicts by pair digest and model "
                      "(memscope.reports.judging.verdict_key → Verdict).", dict)
JUDGE_FOUND = slot("judge_found", "components.sections.semantic_review",
                   "Near misses a model was asked about, by finding key (SemanticFinding).",
                   dict)
JUDGE_ASK = slot("judge_ask", "components.sections.semantic_review",
                 "The 'Check these with a model' confirmation is open (True) or not.")
JUDGE_RUN = slot("judge_run", "components.sections.semantic_review",
                 "The model check in progress: its configuration, the pairs left, counts.")
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
SLIDESHOW_PICK = slot("slideshow_pick", "components.sections.slideshow",
                      "The node picked on the Slideshow page's graph (the next step's).")
SLIDESHOW_GRAPH = slot("slideshow_graph", "components.graph_view",
                       "The Slideshow page's graph component state (what it selected).")
SLIDESHOW_EXPANDED = slot("slideshow_expanded", "components.sections.slideshow",
                          "Clusters of the Slideshow page's overview the user opened.", set)
SLIDESHOW_CAPTION = slot("slideshow_caption", "components.sections.slideshow",
                         "The next step's caption (widget key).", str)
SLIDESHOW_TITLE = slot("slideshow_title", "components.sections.slideshow",
                       "The slideshow's title (widget key).", str)
SLIDESHOW_ADVANCE = slot("slideshow_advance", "components.sections.slideshow",
                         "Seconds a step stays while playing, 0 by hand (widget key).")
SLIDESHOW_UPLOAD = slot("slideshow_upload", "components.sections.slideshow",
                        "The slideshow file being opened (widget key).")
SLIDESHOW_NOTE = slot("slideshow_note", "components.sections.slideshow",
                      "(kind, sentences) of the last open: what was left out or refused.")
SLIDESHOW_PLAY = slot("slideshow_play", "components.sections.slideshow",
                      "(token, monotonic time) of the last Play click.")
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
RECALL_UPLOAD = slot("recall_upload", "components.sections.recall",
                     "The recall map's uploaded question file (widget key).")
RECALL_WORKERS = slot("recall_workers", "components.sections.recall",
                      "The recall map's bound on questions sent at once.", lambda: 4,
                      widget=True)
RECALL_GRAPH = slot("recall_graph", "components.sections.recall",
                    "The recall map graph component's own state (what the browser selected).")

# -- widgets' own state -----------------------------------------------------------------
GRAPH_FOCUS = Family("graph_focus::", "components.graph_view",
                     "What the graph component last asked the browser to focus.")
PROFILE_SPACE = slot("profile_space", "pages.profile", "The Profile page's space.",
                     widget=True)
FORGET_ALL_SPACE = slot("forget_all_space", "components.sections.forget_all",
                        "The Forget-all page's space (widget key).")


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
