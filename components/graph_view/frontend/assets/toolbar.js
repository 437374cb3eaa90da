// The toolbar and keys: buttons over the canvas (zoom, fit all, fit the selection, fit the
// caller's nodes, full screen), built with textContent (never markup), and the keys
// + / −, 0, f and Esc.

import { fitAll, fitFiltered, fitSelection, ZOOM_STEP, zoomBy } from "./selection.js";

export function clearSelection(state) {
  state.network.unselectAll();
  state.setStateValue("selected", null); // as a click on empty space does
  updateToolbar(state);
}

// Full screen takes the page's stage around the graph when there is one (a Streamlit
// container keyed `graph_stage`: the explorer's, whose drawer lies over the graph), so
// what is drawn over the graph stays; otherwise the graph's own frame.
const STAGE = ".st-key-graph_stage";

function fullscreenTarget(state) {
  const host = state.frame.getRootNode().host;
  const stage = host && typeof host.closest === "function" ? host.closest(STAGE) : null;
  return stage || state.frame;
}

export function isFullscreen(state) {
  const root = state.frame.getRootNode();
  return (root && root.fullscreenElement === state.frame)
    || document.fullscreenElement === fullscreenTarget(state);
}

function setMaximised(state, on) {
  state.maximised = on;
  state.frame.classList.toggle("ms-max", on);
  updateToolbar(state);
  // back in the page: a graph that follows the window takes its height again (the window
  // may have changed meanwhile; graph_view.js)
  if (!on && state.windowWatch) state.windowWatch.later();
}

// The component's frame through the Fullscreen API; when the browser refuses (an iframe
// without allowfullscreen, a policy), the frame fills the window instead.
function toggleFullscreen(state) {
  if (state.maximised) {
    setMaximised(state, false);
  } else if (isFullscreen(state)) {
    document.exitFullscreen().catch(() => {});
  } else if (typeof fullscreenTarget(state).requestFullscreen === "function"
             && document.fullscreenEnabled !== false) {
    fullscreenTarget(state).requestFullscreen().catch(() => setMaximised(state, true));
  } else {
    setMaximised(state, true);
  }
}

export function onKey(state, event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  if (key === "+" || key === "=") zoomBy(state, ZOOM_STEP);
  else if (key === "-" || key === "_") zoomBy(state, 1 / ZOOM_STEP);
  else if (key === "0") fitAll(state);
  else if (key === "f" || key === "F") toggleFullscreen(state);
  else if (key === "Escape") {
    if (state.maximised) setMaximised(state, false);
    else clearSelection(state);
  } else return;
  event.preventDefault();
  event.stopPropagation();
}

function button(text, label, onClick) {
  const el = document.createElement("button");
  el.type = "button";
  el.textContent = text;
  el.title = label;
  el.setAttribute("aria-label", label);
  el.addEventListener("click", (event) => {
    event.stopPropagation();
    onClick();
  });
  return el;
}

export function buildToolbar(state) {
  const bar = document.createElement("div");
  bar.className = "ms-graph-toolbar";
  bar.setAttribute("role", "toolbar");
  bar.setAttribute("aria-label", "Graph view");
  const b = {
    zoomIn: button("+", "Zoom in (+)", () => zoomBy(state, ZOOM_STEP)),
    zoomOut: button("\u2212", "Zoom out (\u2212)", () => zoomBy(state, 1 / ZOOM_STEP)),
    fitAll: button("Fit all", "Show the whole graph (0)", () => fitAll(state)),
    fitSelection: button("Fit selection", "Centre the selected node and its neighbours",
      () => fitSelection(state)),
    fitFiltered: button("Fit matches", "Show only the matching nodes", () => fitFiltered(state)),
    fullscreen: button("Full screen", "Full screen (f)", () => toggleFullscreen(state)),
  };
  b.zoomIn.dataset.action = "zoom-in";
  b.zoomOut.dataset.action = "zoom-out";
  b.fitAll.dataset.action = "fit-all";
  b.fitSelection.dataset.action = "fit-selection";
  b.fitFiltered.dataset.action = "fit-filtered";
  b.fullscreen.dataset.action = "fullscreen";
  for (const el of Object.values(b)) bar.appendChild(el);
  state.buttons = b;
  return bar;
}

export function updateToolbar(state) {
  const b = state.buttons;
  const hasSelection = state.network.getSelectedNodes().length > 0;
  b.fitSelection.disabled = !hasSelection;
  b.fitSelection.title = hasSelection ? "Centre the selected node and its neighbours"
    : "Select a node first";
  const n = state.fitIds.length;
  b.fitFiltered.hidden = n === 0;
  b.fitFiltered.textContent = state.fitLabel;
  const label = `${state.fitLabel}: show the ${n} node${n === 1 ? "" : "s"} named by the page`;
  b.fitFiltered.title = label;
  b.fitFiltered.setAttribute("aria-label", label);
  const full = state.maximised || isFullscreen(state);
  // in a full-screen stage the frame fills the screen (as when maximised)
  const filled = state.maximised || (full && fullscreenTarget(state) !== state.frame);
  if (filled !== state.frame.classList.contains("ms-max")) {
    state.frame.classList.toggle("ms-max", filled);
    const canvas = state.network.canvas;
    if (canvas && typeof canvas.setSize === "function") canvas.setSize(); // the new size now
  }
  b.fullscreen.textContent = full ? "Exit full screen" : "Full screen";
  b.fullscreen.setAttribute("aria-pressed", String(full));
}

