"""The session model: what a ``st.session_state`` key is, and the registry of them all.

Nothing else in the app reads or writes ``st.session_state`` by a literal key: modules use
:class:`Slot` objects (``SELECTED.get()``, ``PRESENTER.set(True)``), each declared by the
one module that writes it — its owner, ``slot("name", __name__, "doc")`` — and collected
in :data:`REGISTRY` (families in :data:`FAMILIES`) as that module loads; a reader imports
the slot from its owner. This module declares its own slots (the selection, following the
URL); no slot is declared anywhere but in its owner.

Widgets whose value must outlive the page they are drawn on (the sidebar's presenter mode,
as-of, changes-since and filters) keep their value in a slot and draw their widget through
:func:`bind`, so Streamlit's clean-up of unrendered widgets can never reset them.

The URL mirrors what it can carry (``?node=``, ``?space=``, ``?presenter=1``, ``?asof=``,
``?since=``, ``?clock=true``); :func:`adopt_url` reads it when a session starts (or a link
changes it), handing presenter mode, the two days and the clock to the sidebar that owns
them, and :func:`write_url` is its one writer (the sidebar's part, :data:`LINK_KEYS`,
handed to it by its caller from what the sidebar set).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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


#: the query string's part the sidebar sets (what a :class:`Link` reads back)
LINK_KEYS = ("presenter", "asof", "since", "clock")


def write_url(space: str | None, link: Mapping[str, str]) -> None:
    """Make the URL carry the session's settings (the one writer of the query string):
    the selection, ``space`` and the sidebar's part, ``link`` (of :data:`LINK_KEYS`)."""
    wanted: dict[str, str] = {}
    node = selected()
    if node:
        wanted["node"] = node
    if space:
        wanted["space"] = space
        LAST_SPACE.set(space)
    wanted.update((key, link[key]) for key in LINK_KEYS if key in link)
    for key in ("node", "space", *LINK_KEYS):
        _set_param(key, wanted.get(key))
