// The toolbar and keys: buttons over the canvas (zoom, fit all, fit the selection, fit the
// caller's nodes, full screen), built with textContent (never markup), and the keys
// + / −, 0, f and Esc.

import { fitAll, fitFiltered, fitSelection, ZOOM_STEP, zoomBy } from "./selection.js";

export function clearSelection(state) {
  state.network.unselectAll();
  state.setStateValue("selected", null); // as a click on empty space does
  updateToolbar(state);
}

export function isFullscreen(state) {
  const root = state.frame.getRootNode();
  return (root && root.fullscreenElement === state.frame)
    || document.fullscreenElement === state.frame;
}

function setMaximised(state, on) {
  state.maximised = on;
  state.frame.classList.toggle("ms-max", on);
  updateToolbar(state);
}

// The component's frame through the Fullscreen API; when the browser refuses (an iframe
// without allowfullscreen, a policy), the frame fills the window instead.
function toggleFullscreen(state) {
  if (state.maximised) {
    setMaximised(state, false);
  } else if (isFullscreen(state)) {
    document.exitFullscreen().catch(() => {});
  } else if (typeof state.frame.requestFullscreen === "function"
             && document.fullscreenEnabled !== false) {
    state.frame.requestFullscreen().catch(() => setMaximised(state, true));
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
  b.fullscreen.textContent = full ? "Exit full screen" : "Full screen";
  b.fullscreen.setAttribute("aria-pressed", String(full));
}

