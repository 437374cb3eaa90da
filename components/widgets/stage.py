"""The explorer's stage: the page stylesheet, the drawer's background, and Esc.

The graph is the hero of the explorer: it takes the page's width and the window's height
below it; the side panel is a drawer over the graph's right edge (``explorer.css``
places Streamlit containers by their key). The graph sizes itself in the browser
(``graph_view(height=WINDOW)``: it measures where it starts on the page and takes the
window's height below that, before it draws and again on a resize), so the server never
needs the window's size: a first visit — new or returning — is one script run and one
graph message. A small element (a Custom Component v2 with no markup, never shown, with
no state: it never causes a run) paints the drawer's background in the theme's colour,
closes the drawer on Esc pressed outside the graph (whose own Esc clears the selection)
and, when the drawer's close button is clicked, clears the graph's selection in the
browser too (with the graph's own Esc, so a later click on the same node opens the
drawer again). It also deletes the window-size cookie earlier versions kept
(:data:`OLD_COOKIE`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.components.v2 import component as _register_component

from components.graph_view import WINDOW
from components.state.session import slot

# -- the session slots this module owns (components.state.session collects them) --
VIEWPORT = slot("graph_viewport", __name__,
                "The stage element's key (Esc, the drawer's background); it holds no "
                "state: the graph takes the window's height in the browser.")

STYLESHEET = Path(__file__).resolve().parents[1] / "assets" / "explorer.css"
#: the explorer graph's height: the window's, below the graph (sized in the browser)
GRAPH_HEIGHT = WINDOW
#: the keys the stylesheet and the browser side know the stage's parts by
STAGE_KEY = "graph_stage"
DRAWER_KEY = "explorer_drawer"
CLOSE_KEY = "drawer_close"
#: the cookie in which earlier versions kept the window's size (deleted when present)
OLD_COOKIE = "memscope-viewport"

_JS = """
const STAGE = ".st-key-@STAGE@";
const CLOSE = ".st-key-@CLOSE@ button";
const GRAPH = "[data-testid='memscope-graph']";
const OLD_COOKIE = "@COOKIE@";

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
  const kit = globalThis.__memscopeStage || (globalThis.__memscopeStage = {});
  paint(); // called again when the theme changes
  if (kit.cleanup) return kit.cleanup;
  if (document.cookie.split("; ").some((c) => c.startsWith(`${OLD_COOKIE}=`))) {
    document.cookie = `${OLD_COOKIE}=; path=/; max-age=0; samesite=strict`;
  }
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
  // the theme's background may change with the page's block (a theme switch re-renders it)
  const observer = new ResizeObserver(paint);
  observer.observe(document.querySelector("[data-testid='stMainBlockContainer']")
    || document.body);
  document.addEventListener("keydown", onKey);
  document.addEventListener("click", onClick, true);
  kit.cleanup = () => {
    observer.disconnect();
    scheme.removeEventListener("change", repaint);
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("click", onClick, true);
    delete globalThis.__memscopeStage;
  };
  return kit.cleanup;
}
""".replace("@STAGE@", STAGE_KEY).replace("@CLOSE@", CLOSE_KEY).replace("@COOKIE@", OLD_COOKIE)


def stylesheet() -> None:
    """Put the page stylesheet on the page (a style-only element: it takes no room)."""
    st.html(STYLESHEET)


@functools.lru_cache(maxsize=1)
def _component() -> Callable[..., Any]:
    return _register_component("memscope_stage", js=_JS)


def mount() -> None:
    """Draw the stage's (invisible) element: the drawer's background, Esc, the close
    button's reach into the graph. It has no state and never causes a run."""
    _component()(key=VIEWPORT.name)
