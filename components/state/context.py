"""The app context: what the router hands every page (connection, data, settings, ledger).

``app.py`` (the router) calls :func:`build` once per run, before the page: it follows the
URL, loads the current source (never raising for a load failure), draws the shared
sidebar and derives the analysis the pages show. Pages call :func:`current`.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any

import streamlit as st

from components.state import auth, connection, data, session
from components.state.pipeline import pipeline
from components.state.session import slot
from components.widgets.safe import md_escape
from memscope.graph.analysis import Analysis
from memscope.lenses.asof import BELIEVED, Clock, Comparison
from memscope.lenses.filters import Filters, visible_nodes
from memscope.lenses.presenter import space_pseudonyms
from memscope.lenses.redact import redact
from memscope.pipeline.request import DEFAULT_COLOR_BY, ViewRequest
from memscope.settings import store_path
from memscope.sources import LoadResult, Source, SourceError
from memscope.storage import Storage, StorageError

# -- the session slots this module owns (components.state.session collects them) --
FLASH = slot("flash_messages", __name__,
             "(kind, sentence) toasts to show after the next rerun.", list)
APP_CONTEXT = slot("app_context", __name__,
                   "The AppContext the router built for this run; pages read it.")

for _name in ("httpx", "httpcore"):  # httpx logs request URLs at INFO
    logging.getLogger(_name).setLevel(logging.WARNING)
log = logging.getLogger("memscope.app")


def _memscope_logging() -> None:
    """Memscope's own log lines (``memscope.*``) go to the server's stderr at the level
    ``MEMSCOPE_LOG_LEVEL`` names (default WARNING; INFO shows e.g. layout cache hits).
    Nothing secret is logged at any level."""
    root = logging.getLogger("memscope")
    if not root.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
    level = os.environ.get("MEMSCOPE_LOG_LEVEL", "WARNING").upper()
    root.setLevel(level if level in logging.getLevelNamesMapping() else "WARNING")


_memscope_logging()

#: what a page says when something unexpected breaks it (the details go to the server log)
PAGE_FAILED = ("Something went wrong while drawing this page; nothing was changed. The other "
               "pages still work, and the details are in the server's log.")


@contextmanager
def guarded() -> Iterator[None]:
    """Run a page: an unexpected error becomes one sentence on screen (the navigation and
    sidebar stay usable) and a traceback in the server log, never on screen. Streamlit's
    own stop and rerun signals pass through (they are not ``Exception``s). Under AppTest
    the error propagates, so a test sees it as the exception it is."""
    try:
        yield
    except Exception:
        if st.get_option("global.appTest"):
            raise
        log.exception("a page failed")
        st.error(PAGE_FAILED)


@dataclass
class Settings:
    """What the shared sidebar sets: presenter mode, time travel, filters, drawing."""

    presenter: bool = False
    as_of: date | None = None
    since: date | None = None
    #: the clock the two days read (always ``believed`` for data with one clock)
    clock: Clock = BELIEVED
    filters: Filters = field(default_factory=Filters)
    color_by: str = DEFAULT_COLOR_BY
    physics: bool = False
    budget: int | None = None
    #: the sidebar's part of the URL's query string (:data:`session.LINK_KEYS`: presenter
    #: mode, the two days and the clock), as it should read after this run
    link: dict[str, str] = field(default_factory=dict)


@dataclass
class AppContext:
    """What a page needs: the connection, its source, the analysis and the ledger."""

    conn: connection.Connection
    source: Source | None = None
    key: tuple[Any, ...] = ()
    load: LoadResult | None = None
    #: what the pages show: as of the chosen date, masked in presenter mode
    analysis: Analysis | None = None
    #: the data as it is now, unmasked: what actions (forget, ledger snapshots) act on
    current: Analysis | None = None
    error: str | None = None
    settings: Settings = field(default_factory=Settings)
    comparison: Comparison | None = None
    #: bumps whenever the shared load changes in place (forget, history fetch, resume)
    load_revision: int = 0
    #: changes only when some memory's state shown changes with the clock (never for an
    #: as-of day: its states are fixed)
    epoch: int = 0
    entry: data.Entry | None = None
    #: the one clock reading of this run: every state on every page is judged at it
    now: datetime = field(default_factory=lambda: datetime.now(UTC))
    #: the view request of this run (the sidebar's settings; ``None`` without data):
    #: the explorer adds its search, selection and expansions
    request: ViewRequest | None = None
    #: what the URL asked for when this session started (``None`` on later runs)
    link: session.Link | None = None
    #: who is using the app (``"local"`` without sign-in); a viewer changes nothing
    user: auth.User = field(default_factory=lambda: auth.User(auth.LOCAL))

    @property
    def presenter(self) -> bool:
        """Presenter mode is on: every text of the data is masked."""
        return self.settings.presenter

    @functools.cached_property
    def space_names(self) -> dict[str, str]:
        """Each real space tag of today's load → the pseudonym presenter mode shows for
        it (:func:`~memscope.lenses.presenter.space_pseudonyms`), worked out once a run
        for every section that names a space."""
        return space_pseudonyms(self.current.dataset) if self.current is not None else {}

    def space_label(self, tag: str | None) -> str:
        """How a space is named on screen: its pseudonym in presenter mode ("another
        space" for one the load does not name), else the name the loaded data gives it
        ("Personal"), else its tag ("" for none)."""
        return self.space_labeller(self.presenter)(tag)

    def space_labeller(self, presenter: bool) -> Callable[[str | None], str]:
        """:meth:`space_label` for ``presenter`` (the sidebar names spaces while it is
        still deciding presenter mode, before :attr:`settings` hold it)."""
        names = self.space_names if presenter else None
        dataset = self.current.dataset if self.current is not None else None

        def label(tag: str | None) -> str:
            if not tag:
                return ""
            if names is not None:
                return names.get(tag, "another space")
            return dataset.space_label(tag) if dataset is not None else tag
        return label

    @property
    def as_of(self) -> date | None:
        """The as-of day, if time travel is on."""
        return self.settings.as_of

    @property
    def ledger(self) -> Storage:
        """The ledger: the configured shared database, else the embedded store's file."""
        return data.ledger_store()

    def acting(self) -> dict[str, Any]:
        """Who acts, for :mod:`memscope.sources.actions` (a viewer is refused there too)."""
        return {"actor": self.user.email, "viewer": self.user.viewer}

    def visible(self) -> set[str] | None:
        """Node ids passing the sidebar's filters (``None``: no filter, everything)."""
        if self.analysis is None or self.settings.filters == Filters():
            return None
        if self.request is not None:  # the explorer's own (memoised) step
            return set(pipeline().get("visible", self.request))
        return visible_nodes(self.analysis, self.settings.filters)


def flash(message: str, kind: str = "success") -> None:
    """Show ``message`` as a toast after the next rerun. Kind ``connected`` is a success
    shown only when the next run's load succeeds (a wrong key is no success)."""
    FLASH.setdefault().append((kind, message))


def _show_flash(ctx: AppContext) -> None:
    """Toasts (and errors) flashed by the last callback; in presenter mode the data they
    quote is hidden — the data as it is now and as it was when the action ran."""
    hide: tuple[str, ...] = ()
    if ctx.presenter:
        before = APP_CONTEXT.get()
        for c in (ctx, before):
            if isinstance(c, AppContext) and c.entry is not None:
                hide += data.texts_of(c.key, c.entry)
        hide = tuple(sorted(set(hide), key=lambda t: (-len(t), t)))
    for kind, message in FLASH.get():
        if kind == "connected":  # the load says whether connecting worked
            if ctx.error:
                continue
            kind = "success"
        message = redact(message, hide)
        icon = {"success": ":material/check_circle:", "error": ":material/error:"}.get(
            kind, ":material/info:")
        st.toast(md_escape(message), icon=icon)
        if kind == "error":
            st.error(md_escape(message))
    FLASH.clear()


def _load(ctx: AppContext, screen: data.ScreenFactory | None) -> None:
    try:
        ctx.source = connection.source_for(ctx.conn)
        ctx.key, ctx.entry = data.load(ctx.source, screen=screen)
        ctx.load, ctx.load_revision = ctx.entry.load, ctx.entry.revision
        p = pipeline()
        ctx.request = p.first(ctx.entry.ref, ctx.source.identity(), ctx.now)
        ctx.current = p.today(ctx.request)
        ctx.epoch = ctx.request.epoch
    except (connection.ConnectionProblem, SourceError) as exc:
        ctx.error = str(exc)


def derive(ctx: AppContext) -> None:
    """Fill in the analysis the pages show (as of, masked) and the comparison."""
    if ctx.current is None or ctx.entry is None or ctx.request is None:
        return
    s = ctx.settings
    req = ctx.request.with_settings(presenter=s.presenter, as_of=s.as_of, since=s.since,
                                    clock=s.clock, filters=s.filters, color_by=s.color_by,
                                    **({"budget": int(s.budget)} if s.budget else {}))
    p = pipeline()
    ctx.request = req
    ctx.comparison = p.comparison(req)
    ctx.analysis = p.scoped(req)
    if s.as_of is not None:  # what is shown does not move with today's clock
        ctx.epoch = -1


def _switch_space(space: str) -> None:
    conn = connection.current()
    if space != conn.space:
        connection.switch(replace(conn, space=space))


def build(draw_sidebar: Any, user: auth.User | None = None,
          screen: data.ScreenFactory | None = None) -> AppContext:
    """Follow the URL, load the source (a live load's progress on ``screen``), draw the
    sidebar (``draw_sidebar(ctx)`` returns the :class:`Settings`) and derive what the
    pages show; never raises for a load."""
    data.ensure_demo_store(str(store_path()))
    try:  # the ledger's database: refuse to run on one newer than this Memscope
        data.ledger_store()
    except StorageError as exc:
        st.error(md_escape(str(exc)))
        st.stop()
    link = session.adopt_url(_switch_space)
    ctx = AppContext(conn=connection.current(), user=user or auth.User(auth.LOCAL),
                     link=link)
    _load(ctx, screen)
    ctx.settings = draw_sidebar(ctx)
    derive(ctx)
    _show_flash(ctx)
    session.write_url(ctx.conn.space, ctx.settings.link)
    APP_CONTEXT.set(ctx)
    return ctx


def current() -> AppContext:
    """The context the router built for this run."""
    ctx = APP_CONTEXT.get()
    if not isinstance(ctx, AppContext):  # a page run without the router (never in the app)
        raise RuntimeError("Pages run through app.py, which builds the app context.")
    return ctx
