"""The explorer's stage: the page stylesheet, the window height the graph follows, and Esc.

The graph is the hero of the explorer: it takes the page's width and the window's height
below it; the side panel is a drawer over the graph's right edge (``explorer.css``
places Streamlit containers by their key). Python cannot see the window, so a small
element (a Custom Component v2 with no markup, never shown) reports the window's inner
height and where the graph's stage starts on the page, once when it mounts and again
when either changes (a resize, a banner above the graph); :func:`graph_height` turns
that into the graph's height. It also keeps the last report in a cookie
(:data:`COOKIE`, ``<height>:<top>``, nothing else): the next session in that browser sends
it with its first request, so its first run already draws the graph at the window's
height and the report after the first draw — the same values — causes no second run
(which would send the whole graph again). The same element closes the drawer on Esc
pressed outside the graph (whose own Esc clears the selection) and, when the drawer's
close button is clicked, clears the graph's selection in the browser too (with the
graph's own Esc, so a later click on the same node opens the drawer again).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.components.v2 import component as _register_component

from components.state import session

STYLESHEET = Path(__file__).resolve().parents[1] / "assets" / "explorer.css"
#: the graph's height before the browser has said how tall its window is
DEFAULT_HEIGHT = 700
MIN_HEIGHT = 420
MAX_HEIGHT = 5000
#: the margin kept between the graph's bottom edge and the window's
BOTTOM_MARGIN = 14
#: the keys the stylesheet and the browser side know the stage's parts by
STAGE_KEY = "graph_stage"
DRAWER_KEY = "explorer_drawer"
CLOSE_KEY = "drawer_close"
#: the browser's cookie with the last report, ``<window height>:<stage top>`` in pixels
COOKIE = "memscope-viewport"

_JS = """
const STAGE = ".st-key-@STAGE@";
const CLOSE = ".st-key-@CLOSE@ button";
const GRAPH = "[data-testid='memscope-graph']";
const COOKIE = "@COOKIE@";

function graphCanvas() {
  // the graph's canvas lives in its component's shadow root
  const stage = document.querySelector(STAGE);
  if (!stage) return null;
  for (const host of stage.querySelectorAll("*")) {
    const found = host.shadowRoot && host.shadowRoot.querySelector(GRAPH);
    if (found) return found;
  }
  return null;
}

function openOverlay() {
  // a dialog, a popover, a calendar or a drop-down list takes Esc for itself
  return document.querySelector("[role='dialog'], [role='listbox'], [data-baseweb='popover']");
}

// the drawer's background: the theme's (Streamlit sets its colours on its own elements)
function paint() {
  const app = document.querySelector(".stApp");
  if (app) {
    document.documentElement.style.setProperty("--ms-bg", getComputedStyle(app).backgroundColor);
  }
}

export default function stage(component) {
  const { setStateValue } = component;
  const kit = globalThis.__memscopeStage || (globalThis.__memscopeStage = {});
  kit.setStateValue = setStateValue;
  // what this session's runs drew with before any report: the cookie its first request sent
  const remembered = component.data && component.data.remembered;
  kit.remembered = remembered && Number.isFinite(remembered.top)
    && Number.isFinite(remembered.height) ? remembered : null;
  paint(); // called again when the theme changes
  if (kit.cleanup) return kit.cleanup;
  let sent = null;
  let timer = null;
  let tries = 0;
  const measure = () => {
    timer = null;
    const stage = document.querySelector(STAGE);
    // only once the graph has drawn: a new height sent while its files still load would
    // reach it as a second payload before the first is drawn
    const canvas = stage && graphCanvas();
    if (!canvas || canvas.getAttribute("data-drawn") !== "true") {
      if (tries++ < 400) timer = setTimeout(measure, 150);
      return;
    }
    tries = 0;
    const main = document.querySelector("[data-testid='stMain']");
    const scrolled = window.scrollY + (main ? main.scrollTop : 0);
    const top = Math.round(stage.getBoundingClientRect().top + scrolled);
    const height = Math.round(window.innerHeight);
    if (document.fullscreenElement) return; // the graph fills the screen meanwhile
    const drawn = sent || kit.remembered;
    if (drawn && Math.abs(drawn.top - top) < 3 && Math.abs(drawn.height - height) < 3) return;
    sent = { top, height };
    kit.setStateValue("viewport", sent);
    document.cookie = `${COOKIE}=${height}:${top}; path=/; max-age=31536000; samesite=strict`;
  };
  const later = () => {
    paint();
    if (timer === null) timer = setTimeout(measure, 120);
  };
  const scheme = window.matchMedia("(prefers-color-scheme: dark)");
  const repaint = () => setTimeout(paint, 150);
  scheme.addEventListener("change", repaint);
  const onKey = (event) => {
    if (event.key !== "Escape" || event.defaultPrevented || openOverlay()) return;
    const close = document.querySelector(CLOSE);
    if (close) close.click();
  };
  const onClick = (event) => {
    const target = event.target instanceof Element ? event.target.closest(CLOSE) : null;
    const canvas = target && graphCanvas();
    if (canvas) {
      canvas.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    }
  };
  const observer = new ResizeObserver(later);
  // what is above the stage grows or shrinks with the page's block (a banner, a caption)
  observer.observe(document.querySelector("[data-testid='stMainBlockContainer']")
    || document.body);
  window.addEventListener("resize", later);
  document.addEventListener("keydown", onKey);
  document.addEventListener("click", onClick, true);
  measure();
  kit.cleanup = () => {
    observer.disconnect();
    scheme.removeEventListener("change", repaint);
    window.removeEventListener("resize", later);
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("click", onClick, true);
    if (timer !== null) clearTimeout(timer);
    delete globalThis.__memscopeStage;
  };
  return kit.cleanup;
}
""".replace("@STAGE@", STAGE_KEY).replace("@CLOSE@", CLOSE_KEY).replace("@COOKIE@", COOKIE)


def stylesheet() -> None:
    """Put the page stylesheet on the page (a style-only element: it takes no room)."""
    st.html(STYLESHEET)


@functools.lru_cache(maxsize=1)
def _component() -> Callable[..., Any]:
    return _register_component("memscope_stage", js=_JS)


def graph_height(viewport: Any) -> int:
    """The graph's height in pixels for ``viewport`` (``{"height", "top"}``: the window's
    inner height and the page offset where the graph starts), so the graph reaches the
    window's bottom edge; :data:`DEFAULT_HEIGHT` before the browser has said.

    >>> graph_height({"height": 900, "top": 150})
    736
    >>> graph_height(None), graph_height({"height": 500, "top": 300})
    (700, 420)
    """
    if not isinstance(viewport, Mapping):
        return DEFAULT_HEIGHT
    height, top = viewport.get("height"), viewport.get("top")
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (height, top)):
        return DEFAULT_HEIGHT
    wanted = int(height) - int(top) - BOTTOM_MARGIN  # type: ignore[arg-type]
    return max(MIN_HEIGHT, min(MAX_HEIGHT, wanted))


def remembered(cookie: Any) -> dict[str, int] | None:
    """The viewport a :data:`COOKIE` value names (``"<height>:<top>"``), or ``None`` for
    anything else.

    >>> remembered("900:150"), remembered("900:x"), remembered(None), remembered("1:2:3")
    ({'height': 900, 'top': 150}, None, None, None)
    """
    if not isinstance(cookie, str) or len(cookie) > 20:
        return None
    parts = cookie.split(":")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    height, top = int(parts[0]), int(parts[1])
    return {"height": height, "top": top} if height <= 100_000 and top <= 100_000 else None


def viewport() -> int:
    """Draw the (invisible) reporting element; return the graph's height for this run:
    from the element's report, else from the cookie the session's first request sent."""
    kept = remembered(st.context.cookies.get(COOKIE))  # as the session's first request sent it
    _component()(key=session.VIEWPORT.name, data={"remembered": kept},
                 on_viewport_change=_ignore)
    state = session.VIEWPORT.get()
    reported = state.get("viewport") if isinstance(state, Mapping) else None
    return graph_height(reported if reported is not None else kept)


def _ignore() -> None:
    """The report's callback: the rerun it causes is all that is needed."""
