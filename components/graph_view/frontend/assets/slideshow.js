// The slideshow: a few nodes, each with the presenter's caption, played full screen with
// the view flying from one to the next (the Slideshow page's `slideshow` payload).
//
// The payload is { title, advance_s, steps: [{ id, caption }], play }: `play` is a token
// the page sends for a little while after its Play button was clicked; each token starts
// the show once per page load (a token seen before, a later payload without one, or a
// remount does not start it again). Playing, the graph's frame goes full screen (the
// Fullscreen API on the frame; when the browser refuses — no user gesture left, a policy,
// a headless browser — it fills the window instead, as the toolbar's own full screen
// does), a layer over the canvas shows the caption, the step's number and the controls,
// and the keys drive it: → / Space / Enter / PageDown next, ← / PageUp previous, Home and
// End, P pause or resume, Esc exit. The caption, the title and every button's text are
// set with textContent: never markup. Nothing of the data is shown by this module: the
// node's own label is what the (masked, in presenter mode) view draws on the canvas.
// At the end the view and the selection are put back as they were.

import { move } from "./selection.js";
import { isFullscreen, updateToolbar } from "./toolbar.js";

const PLAYED = new Set(); // tokens already played on this page load
const STEP_SCALE = 1.6; // the zoom a step rests at (memory labels show from 0.75)
const FLIGHT_MS = 900; // one leg of a flight
const FAR = 0.6; // farther than this share of the canvas: zoom out on the way

export const SHOW_CSS = `
.ms-graph.ms-top {
  margin: 0; padding: 0; border: 0; max-width: none; max-height: none;
  inset: 0; width: 100vw; height: 100vh;
}
.ms-show {
  position: absolute; inset: 0; z-index: 20; pointer-events: auto;
  display: flex; flex-direction: column; justify-content: space-between;
  font-family: inherit; color: var(--st-text-color, #31333f); outline: none;
}
.ms-showing .ms-graph-toolbar, .ms-showing .ms-legend, .ms-showing .ms-minimap {
  display: none !important;
}
.ms-show-head {
  display: flex; justify-content: space-between; align-items: baseline; gap: 12px;
  margin: 12px 16px 0; padding: 6px 12px; border-radius: 6px; font-size: 18px;
  background: color-mix(in srgb, var(--st-background-color, #ffffff) 82%, transparent);
}
.ms-show-title { font-weight: 600; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
.ms-show-count { white-space: nowrap; opacity: 0.8; font-variant-numeric: tabular-nums; }
.ms-show-foot { display: flex; flex-direction: column; align-items: center; gap: 10px;
  margin: 0 16px 18px; }
.ms-show-caption {
  max-width: min(900px, 92%); box-sizing: border-box; padding: 14px 22px;
  border-radius: 10px; font-size: 24px; line-height: 1.35; text-align: center;
  white-space: pre-line; overflow-wrap: anywhere;
  background: color-mix(in srgb, var(--st-background-color, #ffffff) 90%, transparent);
  border: 1px solid rgba(128, 128, 128, 0.4); box-shadow: 0 2px 12px rgba(0, 0, 0, 0.25);
}
.ms-show-caption:empty { display: none; }
.ms-show-note { font-size: 13px; opacity: 0.85; }
.ms-show-note:empty { display: none; }
.ms-show-controls { display: flex; gap: 8px; }
.ms-show-controls button {
  font: inherit; font-size: 14px; padding: 5px 14px; cursor: pointer; border-radius: 5px;
  border: 1px solid rgba(128, 128, 128, 0.5);
  background: var(--st-secondary-background-color, #f0f2f6);
  color: var(--st-text-color, #31333f);
}
.ms-show-controls button:disabled { opacity: 0.45; cursor: default; }
.ms-show-controls button[hidden] { display: none; }
`;

// -- the payload ---------------------------------------------------------------------------

function normalised(show) {
  if (!show || typeof show !== "object" || !Array.isArray(show.steps)) return null;
  const steps = show.steps
    .filter((s) => s && typeof s.id === "string" && s.id)
    .map((s) => ({ id: s.id, caption: typeof s.caption === "string" ? s.caption : "" }));
  const advance = Number(show.advance_s);
  return {
    steps,
    title: typeof show.title === "string" ? show.title : "",
    advanceMs: Number.isFinite(advance) && advance > 0 ? Math.min(advance, 120) * 1000 : 0,
    play: typeof show.play === "string" && show.play ? show.play : null,
  };
}

// The page's slideshow for this payload (`null`: none): kept for a later Play, started
// when it carries a new play token, stopped when it is gone or has no step left.
export function applySlideshow(state, raw) {
  const show = normalised(raw);
  state.slideshow = show;
  const playing = state.show;
  if (show === null || show.steps.length === 0) {
    if (playing) stopSlideshow(state);
    return;
  }
  if (show.play !== null && !PLAYED.has(show.play)) {
    PLAYED.add(show.play);
    startSlideshow(state);
  } else if (playing) {
    playing.steps = show.steps; // edited while playing: stay on a step that still exists
    playing.title = show.title;
    playing.advanceMs = show.advanceMs;
    goTo(state, Math.min(playing.index, show.steps.length - 1), false);
  }
}

// -- the layer over the canvas ---------------------------------------------------------------

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function control(show, text, label, action, onClick) {
  const b = el("button", "", text);
  b.type = "button";
  b.title = label;
  b.setAttribute("aria-label", label);
  b.dataset.action = action;
  b.addEventListener("click", (event) => {
    event.stopPropagation();
    onClick();
    show.layer.focus({ preventScroll: true }); // keys go on driving the show
  });
  return b;
}

function buildLayer(state, show) {
  const root = state.frame.getRootNode();
  if (root && root.querySelector && !root.querySelector("style[data-memscope-slideshow]")) {
    const style = document.createElement("style");
    style.setAttribute("data-memscope-slideshow", "");
    style.textContent = SHOW_CSS;
    (root.prepend ? root : state.frame).prepend(style);
  }
  const layer = el("div", "ms-show");
  layer.tabIndex = 0;
  layer.setAttribute("role", "dialog");
  layer.setAttribute("aria-label", "Slideshow. Keys: right arrow or space next, left arrow "
    + "previous, P pause, Esc exit.");
  layer.setAttribute("data-testid", "memscope-slideshow");
  const head = el("div", "ms-show-head");
  show.titleEl = el("span", "ms-show-title", show.title);
  show.countEl = el("span", "ms-show-count");
  head.append(show.titleEl, show.countEl);
  const foot = el("div", "ms-show-foot");
  show.captionEl = el("div", "ms-show-caption");
  show.captionEl.setAttribute("aria-live", "polite");
  show.noteEl = el("div", "ms-show-note");
  const controls = el("div", "ms-show-controls");
  show.layer = layer;
  show.prev = control(show, "\u2190 Previous", "Previous step (\u2190)", "previous",
    () => goTo(state, show.index - 1, true));
  show.pause = control(show, "Pause", "Pause or resume (P)", "pause",
    () => togglePause(state));
  show.next = control(show, "Next \u2192", "Next step (\u2192, space)", "next",
    () => next(state));
  show.exit = control(show, "Exit", "End the slideshow (Esc)", "exit",
    () => stopSlideshow(state));
  controls.append(show.prev, show.pause, show.next, show.exit);
  foot.append(show.captionEl, show.noteEl, controls);
  layer.append(head, foot);
  // the canvas under the layer takes no click: a stray one would change the selection
  for (const type of ["pointerdown", "click", "wheel", "dblclick"]) {
    layer.addEventListener(type, (event) => {
      if (event.target === layer || event.target === head || event.target === foot) {
        event.stopPropagation();
        if (type === "wheel") event.preventDefault();
      }
    }, { passive: false });
  }
  return layer;
}

// -- full screen -----------------------------------------------------------------------------

// The frame fills the window (the toolbar's own class ms-max) and, where the browser has
// popovers, is put in the top layer: Streamlit's sidebar would otherwise stay drawn over
// it (a fixed element cannot leave its ancestors' stacking context).
function fillWindow(state, on) {
  const frame = state.frame;
  if (typeof frame.showPopover === "function") {
    try {
      if (on) {
        frame.setAttribute("popover", "manual");
        frame.classList.add("ms-top");
        frame.showPopover();
      } else if (frame.hasAttribute("popover")) {
        if (frame.matches(":popover-open")) frame.hidePopover();
        frame.removeAttribute("popover");
        frame.classList.remove("ms-top");
      }
    } catch (error) {
      frame.removeAttribute("popover"); // no top layer: the window's fill alone
      frame.classList.remove("ms-top");
    }
  }
  state.maximised = on; // the toolbar's own "fills the window" (class ms-max)
  updateToolbar(state);
}

// Resolves once the frame fills the screen (or the window).
function enterFullscreen(state, show) {
  const frame = state.frame;
  const fill = () => {
    if (state.show === show) fillWindow(state, true);
    show.filled = true;
  };
  if (typeof frame.requestFullscreen !== "function" || document.fullscreenEnabled === false) {
    fill();
    return Promise.resolve();
  }
  let request;
  try {
    request = frame.requestFullscreen();
  } catch (error) {
    request = Promise.reject(error);
  }
  return Promise.resolve(request).then(() => {
    if (state.show !== show) document.exitFullscreen().catch(() => {}); // ended meanwhile
    else show.fullscreen = true;
    updateToolbar(state);
  }).catch(fill);
}

// -- playing -------------------------------------------------------------------------------

export function startSlideshow(state) {
  const source = state.slideshow;
  if (!source || source.steps.length === 0) return;
  if (state.show) stopSlideshow(state, false);
  const network = state.network;
  const show = {
    steps: source.steps, title: source.title, advanceMs: source.advanceMs,
    index: 0, paused: false, timer: null, flight: 0, fullscreen: false, filled: false,
    before: {
      selected: network.getSelectedNodes(),
      position: network.getViewPosition(), scale: network.getScale(),
      maximised: state.maximised, wasFull: isFullscreen(state),
    },
  };
  state.show = show;
  state.frame.appendChild(buildLayer(state, show));
  state.frame.classList.add("ms-showing");
  show.onKey = (event) => onShowKey(state, event);
  document.addEventListener("keydown", show.onKey, true);
  show.onFullscreen = () => {
    // the browser's own Esc (or F11) left full screen: the show ends with it
    if (state.show === show && show.fullscreen && !isFullscreen(state)) {
      show.fullscreen = false;
      stopSlideshow(state, false);
    }
  };
  document.addEventListener("fullscreenchange", show.onFullscreen);
  // a resize (full screen entered or left, the window) moves the view's centre: land
  // on the step's node again
  show.onResize = () => {
    clearTimeout(show.resized);
    show.resized = setTimeout(() => {
      if (state.show === show && show.started) goTo(state, show.index, true);
    }, 150);
  };
  network.on("resize", show.onResize);
  const entered = show.before.wasFull || show.before.maximised ? Promise.resolve()
    : enterFullscreen(state, show);
  show.layer.focus({ preventScroll: true });
  // the first flight once the frame has its full-screen size
  entered.then(() => setTimeout(() => {
    if (state.show !== show) return;
    show.started = true;
    goTo(state, 0, true);
  }, 150));
  show.countEl.textContent = `Step 1 of ${show.steps.length}`;
  state.frame.setAttribute("data-slideshow", "playing");
}

function schedule(state) {
  const show = state.show;
  clearTimeout(show.timer);
  show.timer = null;
  const last = show.index >= show.steps.length - 1;
  show.pause.hidden = show.advanceMs === 0;
  show.pause.textContent = show.paused ? "Resume" : "Pause";
  if (show.advanceMs > 0 && !show.paused && !last) {
    show.timer = setTimeout(() => {
      if (state.show === show) goTo(state, show.index + 1, true);
    }, show.advanceMs + FLIGHT_MS);
  }
}

function togglePause(state) {
  const show = state.show;
  if (!show || show.advanceMs === 0) return;
  show.paused = !show.paused;
  schedule(state);
}

function next(state) {
  const show = state.show;
  if (!show) return;
  if (show.index >= show.steps.length - 1) stopSlideshow(state); // "End" on the last step
  else goTo(state, show.index + 1, true);
}

// Show step `index`: its caption and number, the view flying to its node.
function goTo(state, index, fly) {
  const show = state.show;
  if (!show) return;
  const i = Math.min(Math.max(index, 0), show.steps.length - 1);
  const moved = i !== show.index;
  show.index = i;
  const step = show.steps[i];
  const n = show.steps.length;
  show.titleEl.textContent = show.title;
  show.countEl.textContent = `Step ${i + 1} of ${n}`;
  show.captionEl.textContent = step.caption;
  show.prev.disabled = i === 0;
  show.next.textContent = i === n - 1 ? "End" : "Next \u2192";
  const present = state.nodes.get(step.id) !== null;
  show.noteEl.textContent = present ? "" : "This step's node is not in the graph shown.";
  state.frame.setAttribute("data-slideshow-step", String(i + 1));
  state.frame.setAttribute("data-slideshow-node", present ? step.id : "");
  if (present && (fly || moved)) {
    state.network.selectNodes([step.id]);
    flyTo(state, step.id);
  }
  schedule(state);
}

// The view flies to `id`: straight there when it is near, else out (both ends in view),
// then in.
function flyTo(state, id) {
  const show = state.show;
  const network = state.network;
  const target = network.getPositions([id])[id];
  if (!target) return;
  const flight = ++show.flight;
  const from = network.getViewPosition();
  const scale = network.getScale();
  const w = state.container.clientWidth || 800;
  const h = state.container.clientHeight || 600;
  const dx = Math.abs(target.x - from.x);
  const dy = Math.abs(target.y - from.y);
  const land = () => move(state, () => {
    network.moveTo({ position: target, scale: STEP_SCALE,
      animation: { duration: FLIGHT_MS, easingFunction: "easeInOutCubic" } });
    return true;
  });
  if (Math.max(dx * scale / w, dy * scale / h) <= FAR) {
    land();
    return;
  }
  const out = Math.max(0.05, Math.min(scale, STEP_SCALE,
    w / (1.4 * dx + 200), h / (1.4 * dy + 200)));
  move(state, () => {
    network.moveTo({ position: { x: (from.x + target.x) / 2, y: (from.y + target.y) / 2 },
      scale: out, animation: { duration: FLIGHT_MS * 0.8, easingFunction: "easeInOutQuad" } });
    return true;
  });
  setTimeout(() => {
    if (state.show === show && show.flight === flight) land();
  }, FLIGHT_MS * 0.8 + 40);
}

function onShowKey(state, event) {
  const show = state.show;
  if (!show || event.ctrlKey || event.metaKey || event.altKey) return;
  const key = event.key;
  if (key === "ArrowRight" || key === "ArrowDown" || key === "PageDown" || key === " "
      || key === "Enter") next(state);
  else if (key === "ArrowLeft" || key === "ArrowUp" || key === "PageUp"
           || key === "Backspace") goTo(state, show.index - 1, true);
  else if (key === "Home") goTo(state, 0, true);
  else if (key === "End") goTo(state, show.steps.length - 1, true);
  else if (key === "p" || key === "P") togglePause(state);
  else if (key === "Escape") stopSlideshow(state);
  else return;
  event.preventDefault();
  event.stopPropagation();
}

// End the show: the layer gone, full screen left, the view and selection as before.
// `restore` false: the graph is going away or another show starts (nothing to put back).
export function stopSlideshow(state, restore = true) {
  const show = state.show;
  if (!show) return;
  state.show = null;
  clearTimeout(show.timer);
  clearTimeout(show.resized);
  if (state.network) state.network.off("resize", show.onResize);
  document.removeEventListener("keydown", show.onKey, true);
  document.removeEventListener("fullscreenchange", show.onFullscreen);
  show.layer.remove();
  state.frame.classList.remove("ms-showing");
  state.frame.setAttribute("data-slideshow", "ended");
  state.frame.removeAttribute("data-slideshow-step");
  state.frame.removeAttribute("data-slideshow-node");
  if (show.fullscreen && isFullscreen(state)) document.exitFullscreen().catch(() => {});
  if (show.filled) fillWindow(state, show.before.maximised);
  if (!restore || !state.network) return;
  const network = state.network;
  network.unselectAll();
  const keep = show.before.selected.filter((id) => state.nodes.get(id) !== null);
  if (keep.length) network.selectNodes(keep);
  move(state, () => {
    network.moveTo({ position: show.before.position, scale: show.before.scale,
      animation: { duration: 500, easingFunction: "easeInOutQuad" } });
    return true;
  });
  updateToolbar(state);
}
