// Memscope graph view: vis-network inside a Streamlit Custom Component v2 (the entry
// module; its default export is what Streamlit calls).
//
// These modules, their stylesheet and the vendored vis-network build are files of this
// folder, which Streamlit serves; components/graph_view/loader.js, the component's
// inline JS, fetches them from the browser's HTTP cache when it has them (their URLs
// carry a hash of their content) and defines globalThis.vis before this module runs.
// Nothing is fetched from elsewhere. Text from the data never becomes markup: labels,
// cluster names and landmark labels are drawn on the canvas as text, tooltips are plain
// strings that vis-network sets as the tooltip's innerText, and the toolbar's buttons are
// built with textContent.
//
// Streamlit calls the default export again, with the same parentElement, whenever `data`
// changes (and does not call the previous cleanup first), so there is one vis.Network per
// parentElement, kept in a WeakMap and updated in place through its DataSets. `data` is
// bytes (UTF-8 JSON, components/graph_view/message.py; a plain object works too).
// Streamlit tells a new `data` by reference, and the same message delivered again is a new
// Uint8Array: a call whose bytes equal the last drawn ones does nothing, not even decode.
//
// One draw per data change: the first payload is loaded through the Network constructor
// (setData → fit → one requested frame); later payloads are applied to the DataSets inside
// `batch`, which holds vis-network's physics engine in its "not ready" state (the state
// setData itself uses while loading), so no DataSet event draws synchronously; the
// `_dataUpdated` handler's requested frame then draws once, after every change. Every
// node is measured (label hit boxes included) in that draw, so clicks keep working.
// vis-network recomputes its indices (`_dataChanged`: edges, clusters, physics, visible
// nodes) after every DataSet event; inside `batch` those are held and run once at the end.

import {
  cullLabels, drawLayers, drawPlain, labelOrder, landmarkList, plainDragEnd, plainDragStart,
} from "./drawing.js";
import {
  networkOptions, physicsOptions, stabilizationIterations, themeOptions,
} from "./options.js";
import {
  buildLegend, fadeOthers, LEGEND_CSS, lineFilter, pickedItems,
} from "./legend.js";
import { dropFirstFrame, paintable, paintFirst } from "./firstframe.js";
import { buildMinimap, drawMinimap, markMinimapDirty } from "./minimap.js";
import {
  asBytes, decodePayload, isPlaced, sameBytes, stylesOf, sync, toVisEdge, toVisNode,
} from "./payload.js";
import { applyTimeline, buildPlayback, stopPlayback } from "./playback.js";
import {
  afterFrame, applyFocus, FIT_ANIMATION, fitView, jumpTo, move,
} from "./selection.js";
import { applySlideshow, stopSlideshow } from "./slideshow.js";
import { readable, themeColors, watchTheme } from "./theme.js";
import { buildToolbar, onKey, updateToolbar } from "./toolbar.js";

const NETWORKS = new WeakMap();
const PHYSICS_KEEP_RUNNING_MAX = 1000; // bigger graphs stop simulating after stabilising
const HIDE_EDGES_ON_ZOOM_MIN = 1000; // edges drawn during a wheel zoom only below this

// Run `change` with the physics engine "not ready", as vis-network's own setData does
// while it loads: DataSet events then only request a frame instead of drawing at once.
// `change` returns whether it changed anything; only then is a frame requested.
function batch(state, change) {
  const physics = state.network.physics;
  const held = physics && physics.ready === true;
  if (held) physics.ready = false;
  let changed = true;
  try {
    changed = change();
  } finally {
    if (held) physics.ready = true;
  }
  if (changed) state.network.emit("_requestRedraw");
}

// Run `change` (DataSet edits) with vis-network's index rebuilds (`_dataChanged`,
// `_dataUpdated`: passes over every node and edge, one per DataSet event) emitted once after.
function indexOnce(state, change) {
  const emitter = state.network.body.emitter;
  const own = Object.prototype.hasOwnProperty.call(emitter, "emit");
  const emit = emitter.emit;
  let dataChanged = false;
  let dataUpdated = false;
  emitter.emit = function held(name, ...args) {
    if (name === "_dataChanged") dataChanged = true;
    else if (name === "_dataUpdated") dataUpdated = true;
    else return emit.call(this, name, ...args);
    return this;
  };
  try {
    return change();
  } finally {
    if (own) emitter.emit = emit;
    else delete emitter.emit;
    if (dataChanged) emitter.emit("_dataChanged");
    else if (dataUpdated) emitter.emit("_dataUpdated");
  }
}

// -- the window's height (options.height "window") ----------------------------------------
//
// The server never knows the window's size: a graph drawn with height "window" measures
// where it starts on the page and takes the window's height below that (less a margin,
// within options.window's min and max), before the Network is built — so the first frame
// is drawn and fitted at its final size, for a new visitor as for a returning one — and
// again when the window is resized or what is above it grows or shrinks. vis-network
// notices its frame's new size (autoResize) and the "resize" handler fits the view again
// unless the person has moved it.

function windowSpec(options) {
  const spec = options.window;
  if (options.height !== "window" || !spec || typeof spec !== "object") return null;
  const number = (value, fallback) => (Number.isFinite(value) ? value : fallback);
  return { min: number(spec.min, 420), max: number(spec.max, 5000),
    margin: number(spec.margin, 14) };
}

// The frame's height for `spec`: the window's inner height below the frame's top on the
// page (the page scrolls in Streamlit's main element, not in the window).
function windowHeight(frame, spec) {
  const main = document.querySelector("[data-testid='stMain']");
  const scrolled = window.scrollY + (main ? main.scrollTop : 0);
  const top = frame.getBoundingClientRect().top + scrolled;
  const wanted = Math.round(window.innerHeight - top - spec.margin);
  return Math.max(spec.min, Math.min(spec.max, wanted));
}

// Size the frame to the window now (when it follows it and is not full screen); returns
// whether its height changed.
function fitWindow(state) {
  const spec = state.window;
  const frame = state.frame;
  if (!spec || !frame.isConnected || document.fullscreenElement
      || frame.classList.contains("ms-max")) return false;
  const height = `${windowHeight(frame, spec)}px`;
  if (frame.style.height === height) return false;
  frame.style.height = height;
  state.stats.windowFits += 1;
  return true;
}

// Follow the window: its resizes, the page's block above the graph growing or shrinking
// (a banner, a caption, fonts arriving), the end of full screen. At most once a frame.
function followWindow(state) {
  if (state.windowWatch) return;
  let queued = false;
  const measure = () => {
    queued = false;
    fitWindow(state);
  };
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(measure);
  };
  const observer = new ResizeObserver(later);
  const block = document.querySelector("[data-testid='stMainBlockContainer']");
  if (block) observer.observe(block);
  window.addEventListener("resize", later);
  document.addEventListener("fullscreenchange", later);
  state.windowWatch = {
    later,
    stop: () => {
      observer.disconnect();
      window.removeEventListener("resize", later);
      document.removeEventListener("fullscreenchange", later);
    },
  };
}

// -- set-up --------------------------------------------------------------------------------

// The frame, its DataSets filled from `data` and the legend panel: everything but the
// Network (`build`), so a first view can be painted before it (firstframe.js).
function create(vis, parentElement, data) {
  const options = data.options || {};
  const frame = document.createElement("div");
  frame.className = "ms-graph";
  frame.style.height = `${Number.isFinite(options.height) ? options.height : 640}px`;
  const container = document.createElement("div");
  container.className = "ms-graph-canvas";
  container.setAttribute("data-testid", "memscope-graph");
  container.tabIndex = 0;
  container.setAttribute("role", "application");
  container.setAttribute("aria-label", "Memory graph. Keys: + and \u2212 zoom, 0 fits all, "
    + "f full screen, Esc clears the selection.");
  frame.appendChild(container);
  parentElement.appendChild(frame);
  const windowed = windowSpec(options);
  // following the window: its height now, measured where the frame is, before the
  // Network is built (which fits the view to it)
  if (windowed) frame.style.height = `${windowHeight(frame, windowed)}px`;

  const theme = themeColors(container);
  const state = {
    frame, container, parentElement, network: null, theme,
    nodes: new vis.DataSet(), edges: new vis.DataSet(),
    nodeCache: new Map(), edgeCache: new Map(), widths: new Map(),
    landmarks: [], allLandmarks: [], annotations: [], fitIds: [], fitLabel: "Fit matches",
    physics: Boolean(options.physics), focusKey: null, fitted: false, maximised: false,
    window: windowed, windowWatch: null,
    hideEdgesOnZoom: false, pendingLayout: false, renders: 0, lastData: data,
    lastBytes: null, firstFrame: null, firstView: null, waiting: null, closed: false,
    plainDrag: false, plainGroups: null,
    legendData: null, pick: null, picked: null, shownGroups: null, overlays: [], obstacles: [],
    moving: 0, pendingMove: null, zoomTarget: 1, zoomAt: 0,
    setStateValue: () => {},
    // for browser tests and benchmarks (performance.now() times)
    stats: {
      draws: 0, annotations: 0, landmarks: 0, firstDrawScale: null, fittedFirst: null,
      unchanged: 0, // calls whose bytes were the ones drawn last (nothing done)
      firstReceivedAt: performance.now(), firstDrawAt: null, lastDrawAt: null,
      firstPaintAt: null, firstPaintShownAt: null, // the painted first frame (firstframe.js)
      windowFits: 0, // heights taken from the window after the first (fitWindow)
      settleWaits: 0, // frames the first frame waited for placeholders on the page (afterSettled)
    },
  };
  // fill the DataSets before the Network exists: its constructor loads them with setData,
  // fits, and requests one frame
  const t0 = performance.now();
  const styles = stylesOf(data);
  const { added } = sync(state.nodes, data.nodes || [], styles.nodes, state.nodeCache, false,
    (raw) => toVisNode(theme, raw));
  sync(state.edges, data.edges || [], styles.edges, state.edgeCache, true,
    (raw) => toVisEdge(theme, raw));
  state.stats.syncMs = performance.now() - t0;
  state.pendingLayout = added.some((n) => !isPlaced(n));
  state.added = added.length;

  if (!parentElement.querySelector("style[data-memscope-legend]")) {
    const style = document.createElement("style");
    style.setAttribute("data-memscope-legend", "");
    style.textContent = LEGEND_CSS;
    parentElement.prepend(style);
  }
  state.legend = buildLegend(document, (id) => pickLine(state, id));
  frame.append(state.legend.element);
  container.__stats = state.stats; // for browser tests (and the console)
  return state;
}

// The Network on the filled DataSets, and everything that hangs on it: the toolbar, the
// minimap, the playback bar and the handlers.
function build(vis, state) {
  const { frame, container } = state;
  const t1 = performance.now();
  const network = new vis.Network(container, { nodes: state.nodes, edges: state.edges },
    networkOptions(state.theme, state.physics, state.added));
  state.network = network;
  state.stats.constructMs = performance.now() - t1;
  state.fitted = state.added > 0 && !state.pendingLayout && !state.physics;

  const toolbar = buildToolbar(state);
  frame.insertBefore(toolbar, state.legend.element);
  const minimap = buildMinimap(state, (position) => jumpTo(state, position));
  frame.append(minimap);
  state.overlays = [state.legend.element, minimap, toolbar]; // names and labels stay off
  frame.appendChild(buildPlayback(state, (change, only) => batch(state, () => { // playback.js
    const looks = change();
    return applyShown(state, only) || looks;
  })));
  network.on("click", (params) => {
    if (params.nodes.length > 0) {
      state.setStateValue("selected", String(params.nodes[0]));
    } else if (params.edges.length === 0) {
      state.setStateValue("selected", null);
    }
    updateToolbar(state);
  });
  network.on("stabilizationIterationsDone", () => {
    if (!state.physics || state.nodes.length > PHYSICS_KEEP_RUNNING_MAX) {
      network.setOptions({ physics: { enabled: false } });
    }
    if (!state.fitted) {
      fitView(state, null, null);
      state.fitted = true;
    }
    markMinimapDirty(state);
  });
  network.on("dragStart", () => { state.viewTouched = true; plainDragStart(state); });
  network.on("zoom", () => { state.viewTouched = true; });
  network.on("resize", () => { // vis has taken the frame's new size (see render)
    // a new width or height (the page's layout settling, the window resized): fitted
    // again, unless the person has moved the view — vis alone keeps the centre and the
    // zoom, which cuts the map at an edge
    if ((state.pendingRefit || state.fittedAround) && !state.viewTouched) {
      clearTimeout(state.refitTimer); // after vis has rescaled the view (_setCameraState)
      state.refitTimer = setTimeout(() => {
        if (state.viewTouched) return;
        fitView(state, state.fitKey ? state.fitKey.split("\n") : null, null);
      }, 0);
    }
    state.pendingRefit = false;
  });
  network.on("dragEnd", (params) => {
    plainDragEnd(state);
    if (params && params.nodes && params.nodes.length) { // moved
      markMinimapDirty(state);
      state.nodeGrid = null;
    }
  });
  network.on("beforeDrawing", () => cullLabels(state)); // drawing.js
  network.on("afterDrawing", (ctx) => {
    if (state.plainDrag && network.renderer.dragging) drawPlain(state, ctx);
    state.stats.draws += 1;
    state.stats.lastDrawAt = performance.now();
    afterFrame(state);
    if (state.stats.draws === 1) {
      state.stats.firstDrawAt = state.stats.lastDrawAt;
      state.stats.firstDrawScale = network.getScale();
      state.stats.fittedFirst = state.fitted;
      container.setAttribute("data-drawn", "true");
      dropFirstFrame(state); // firstframe.js: the painted one, replaced in this paint
    }
    drawMinimap(state);
    drawLayers(state, ctx);
  });
  container.addEventListener("pointerdown", () => container.focus({ preventScroll: true }));
  frame.addEventListener("keydown", (event) => onKey(state, event)); // canvas and toolbar
  state.onFullscreen = () => {
    updateToolbar(state);
    network.redraw();
  };
  document.addEventListener("fullscreenchange", state.onFullscreen);
  watchTheme(state, () => render(state, state.lastData));

  container.__network = network; // for browser tests (and the console)
}

// -- the legend's pick ---------------------------------------------------------------------

// Hide what `keep` leaves out and show the rest, on vis-network's own items (a DataSet
// update per item would re-parse each one's options: seconds at 50,000 nodes); the
// DataSet keeps no `hidden`, so a later payload's update leaves it alone. Returns how
// many changed.
function setHidden(dataset, drawn, keep) {
  let changed = 0;
  dataset.forEach((item) => {
    const hide = keep !== null && !keep(item);
    const shown = drawn[item.id];
    if (shown && Boolean(shown.options.hidden) !== hide) {
      shown.options.hidden = hide;
      changed += 1;
    }
  });
  return changed;
}

// The legend panel drawn from this payload's legend, and everything its picked line
// leaves out faded (legend.js's fadeOthers: the highlight's FADE, nothing hidden; a line
// the new legend no longer has is dropped). Returns whether any item changed.
function applyLegend(state) {
  const line = legendLine(state);
  state.pick = line ? line.id : null;
  state.container.setAttribute("data-legend-pick", state.pick || "");
  state.picked = pickedItems(lineFilter(line, state.legendData), state.nodes, state.edges);
  state.landmarks = state.picked === null ? state.allLandmarks
    : state.allLandmarks.filter((n) => state.picked.nodes.has(String(n.id)));
  // the cluster names step back while a highlight shows (drawing.js), a server's or a
  // pick's; a picked colour group's own name stays (the others are not drawn)
  state.faded = Boolean(state.highlighted)
    || (state.picked !== null && !(line && line.section === "group"));
  const faded = fadeOthers(state.network, state.picked);
  if (faded > 0) {
    state.plainGroups = null;
    markMinimapDirty(state);
  }
  return applyShown(state) || faded > 0;
}

// The legend panel drawn from this payload's legend; returns the line picked (or null).
function legendLine(state) {
  const theme = state.theme;
  return state.legend.update(state.legendData, state.pick,
    (color, min) => readable(theme, color, min), theme.text);
}

// A pick of a legend line (null: none): the fade, and the view brought to the picked
// items (or back to the whole map) unless the person has moved it, as every highlight.
function pickLine(state, id) {
  state.pick = id;
  batch(state, () => {
    const changed = applyLegend(state);
    return fitHighlight(state) || changed;
  });
}

const LEGEND_SHARE_MAX = 1 / 6; // an open legend covering more of the graph starts closed
const LEGEND_WIDE_MIN = 1200; // px of window below which the legend starts closed

// The legend starts collapsed to its header when, open, it would cover more than a sixth
// of the graph, on the Slideshow, and in a window narrower than LEGEND_WIDE_MIN; decided
// once, when it first has lines, and never after the person opened or closed it.
function settleLegend(state, slideshow) {
  const panel = state.legend;
  if (state.legendSettled || panel.touched || panel.element.hidden) return;
  state.legendSettled = true;
  const w = state.container.clientWidth;
  const h = state.container.clientHeight;
  const r = panel.element.getBoundingClientRect();
  const share = w > 0 && h > 0 ? (r.width * r.height) / (w * h) : 1;
  const narrow = (globalThis.innerWidth || LEGEND_WIDE_MIN) < LEGEND_WIDE_MIN;
  if (slideshow || narrow || share > LEGEND_SHARE_MAX) panel.setOpen(false);
}

// Hide what the history playback has not reached yet (playback.js sets `state.absent`:
// node and edge ids; a legend pick fades, applyLegend). `only` (a playback step: the ids
// whose presence changed) checks those alone and rebuilds vis-network's drawn indices by
// themselves: its `_dataChanged` passes cost hundreds of ms at 6,000 nodes. A cluster's
// name is drawn while some of its nodes are shown and not faded (`shownGroups`). Returns
// whether any item changed.
function applyShown(state, only) {
  const absent = state.absent || null;
  const keepNode = absent === null ? null : (item) => !absent.nodes.has(item.id);
  const keepEdge = absent === null ? null : (item) => !absent.edges.has(item.id);
  const body = state.network.body;
  const changed = only
    ? flipHidden(state.nodes, body.nodes, keepNode, only.nodes)
      + flipHidden(state.edges, body.edges, keepEdge, only.edges)
    : setHidden(state.nodes, body.nodes, keepNode)
      + setHidden(state.edges, body.edges, keepEdge);
  if (changed > 0 && only) state.network._updateVisibleIndices();
  else if (changed > 0) body.emitter.emit("_dataChanged"); // the drawn indices again, once
  const picked = state.picked || null;
  if (keepNode === null && picked === null) {
    state.shownGroups = null;
  } else if (changed > 0 || !only) { // a cluster's name shows with its nodes
    const groups = new Set();
    state.nodes.forEach((item) => {
      const drawn = body.nodes[item.id];
      const bright = picked === null || picked.nodes.has(String(item.id));
      if (drawn && !drawn.options.hidden && bright) groups.add(item.color_group || "");
    });
    state.shownGroups = groups;
  }
  if (changed === 0) return false;
  state.plainGroups = null;
  state.nodeGrid = null; // drawing.js: the nodes' boxes for the names
  markMinimapDirty(state);
  return true;
}

// setHidden for the items `ids` only.
function flipHidden(dataset, drawn, keep, ids) {
  let changed = 0;
  for (const id of ids) {
    const shown = drawn[id];
    if (!shown) continue;
    const item = keep === null ? null : dataset.get(id);
    const hide = keep !== null && item !== null && !keep(item);
    if (Boolean(shown.options.hidden) !== hide) {
      shown.options.hidden = hide;
      changed += 1;
    }
  }
  return changed;
}

// -- one payload -------------------------------------------------------------------------

// Physics is bounded: a run is a stabilisation of at most MAX_STABILIZATION iterations
// (fewer for big graphs), after which it stops unless physics is on and the graph small.
// Nodes added without x/y get such a run even with physics off.
function applyPhysics(state, wanted, layoutNeeded) {
  const n = state.nodes.length;
  const changed = wanted !== state.physics;
  state.physics = wanted;
  if ((wanted && changed) || layoutNeeded) {
    state.network.setOptions({ physics: physicsOptions(true, n) });
    return true; // stabilise after the batch
  }
  if (changed) state.network.setOptions({ physics: { enabled: false } });
  return false;
}


function applyTheme(state) {
  const theme = themeColors(state.container);
  if (theme.key === state.theme.key) return false;
  state.theme = theme;
  state.widths.clear();
  state.plainGroups = null;
  state.nodeGrid = null; // drawing.js: the nodes' boxes for the names
  state.nodeCache.clear(); // every item again, with colours for the new background
  state.edgeCache.clear();
  state.network.setOptions(themeOptions(theme));
  return true;
}

// A new payload may mask or drop a text that is on screen (presenter mode, a filter, an
// as-of). vis-network's tooltip keeps the text it was given while the pointer stays on its
// item or leaves the canvas (it sets the text only when the pointer reaches another item,
// and the hidden element still holds it), and its hover state points at the old items.
// Both are cleared: the next pointer move opens a tooltip with the new payload's text.
// The canvas (labels, landmarks, annotations, the selection's bold label) is drawn from
// the new payload in the frame the update requests; the view does not move.
function closeShown(state) {
  const interaction = state.network.interactionHandler;
  if (interaction) {
    if (interaction.popupTimer !== undefined) {
      clearTimeout(interaction.popupTimer); // vis-network starts it with setTimeout
      interaction.popupTimer = undefined;
    }
    interaction.popupObj = undefined;
    const popup = interaction.popup;
    if (popup) {
      const shown = popup.hidden === false;
      popup.hide();
      popup.frame.textContent = "";
      if (shown) state.network.body.emitter.emit("hidePopup");
    }
  }
  const hovered = state.network.selectionHandler && state.network.selectionHandler.hoverObj;
  if (hovered) {
    for (const kind of ["nodes", "edges"]) {
      for (const item of Object.values(hovered[kind])) item.hover = false;
      hovered[kind] = {};
    }
  }
  state.widths.clear(); // label widths, keyed by the old labels' text
}

function render(state, data) {
  const options = data.options || {};
  const rawNodes = data.nodes || [];
  const rawEdges = data.edges || [];
  state.lastData = data;
  closeShown(state);
  // a new fixed height: fit again to it, unless the person has moved the view since the
  // last fit; a graph that follows the window sizes itself (fitWindow)
  state.window = windowSpec(options);
  let refit = false;
  if (state.window) {
    followWindow(state);
    refit = fitWindow(state) && state.fitted && !state.viewTouched;
  } else {
    if (state.windowWatch) state.windowWatch.stop();
    state.windowWatch = null;
    const height = `${Number.isFinite(options.height) ? options.height : 640}px`;
    refit = state.fitted && state.frame.style.height !== height && !state.viewTouched;
    state.frame.style.height = height;
  }
  state.annotations = (data.annotations || []).slice().sort((a, b) => b.size - a.size);
  state.legendData = data.legend && typeof data.legend === "object" ? data.legend : null;
  state.container.__legend = state.legendData; // for browser tests
  state.fitIds = Array.isArray(options.fit_ids) ? options.fit_ids : [];
  state.fitLabel = typeof options.fit_label === "string" && options.fit_label
    ? options.fit_label : "Fit matches";
  const styles = stylesOf(data);
  state.allLandmarks = landmarkList(rawNodes, rawEdges, styles.nodes);
  state.labelOrder = labelOrder(rawNodes, styles.nodes);
  state.highlighted = rawNodes.some((n) => ("faded" in n ? n.faded
    : Boolean((styles.nodes[n.s] || {}).faded))); // a highlight shows
  state.plainGroups = null;
  state.nodeGrid = null; // drawing.js: the nodes' boxes for the names
  const layers = JSON.stringify(state.annotations); // landmarks follow the nodes
  let stabilise = false;
  batch(state, () => {
    const { themed, nodes, edges } = indexOnce(state, () => {
      const fresh = applyTheme(state);
      const theme = state.theme;
      return {
        themed: fresh,
        nodes: sync(state.nodes, rawNodes, styles.nodes, state.nodeCache, false,
          (raw) => toVisNode(theme, raw)),
        edges: sync(state.edges, rawEdges, styles.edges, state.edgeCache, true,
          (raw) => toVisEdge(theme, raw)),
      };
    });
    let changed = themed;
    changed = changed || nodes.touched || edges.touched || layers !== state.layers;
    if (themed || nodes.touched || edges.touched) markMinimapDirty(state);
    changed = applyLegend(state) || changed;
    settleLegend(state, Boolean(data.slideshow));
    state.layers = layers;
    // setOptions redraws the whole canvas: call it only when the value changes
    const hideOnZoom = state.edges.length > HIDE_EDGES_ON_ZOOM_MIN;
    if (hideOnZoom !== state.hideEdgesOnZoom) {
      state.hideEdgesOnZoom = hideOnZoom;
      state.network.setOptions({ interaction: { hideEdgesOnZoom: hideOnZoom } });
    }
    const layoutNeeded = state.pendingLayout || nodes.added.some((n) => !isPlaced(n));
    state.pendingLayout = false;
    stabilise = applyPhysics(state, Boolean(options.physics), layoutNeeded);
    if (!layoutNeeded && rawNodes.length > 0 && !stabilise
        && (!state.fitted || !state.fittedAround)) {
      // the first fit (the constructor's) again, now clear of the legend panel; the
      // painted first frame's own, when the frame has kept its size since
      if (!takeFirstView(state)) fitView(state, null, null);
      state.fitted = true;
      state.fittedAround = true;
      changed = true;
    } else if (refit && !layoutNeeded && !stabilise) {
      state.pendingRefit = true; // fitted once vis has the new size: its resize keeps the
    }                            // centre and would move a fit made before it
    if (!layoutNeeded && !stabilise) changed = fitHighlight(state) || changed;
    return applyFocus(state, options) || changed;
  });
  if (stabilise) state.network.stabilize(stabilizationIterations(state.nodes.length));
  state.container.setAttribute("data-node-count", String(state.nodes.length));
  updateToolbar(state);
  applySlideshow(state, data.slideshow); // the Slideshow page's steps (slideshow.js)
  applyTimeline(state, data.timeline); // the history played back (playback.js)
}

// The view the first frame was painted at (firstframe.js), taken by the live graph so its
// own first frame replaces the painted one without a move; false when there is none or
// the frame has changed size since (then it is fitted anew).
function takeFirstView(state) {
  const view = state.firstView;
  state.firstView = null;
  if (!view || state.container.clientWidth !== view.w
      || state.container.clientHeight !== view.h) return false;
  if (state.network.canvas && state.network.canvas.setSize) state.network.canvas.setSize();
  state.network.moveTo({ position: view.position, scale: view.scale, offset: view.offset });
  state.stats.fitArea = { ...view.area, scale: view.scale };
  return true;
}

// A new highlighted set (the caller's fit_ids: search matches, an answer, a preview, the
// filtered set, a comparison's differences) brings the view to it, and its end back to
// the whole map, unless the person has moved the view; a legend pick is such a set too,
// and stands for the caller's while it lasts. Returns whether the view moved.
function fitHighlight(state) {
  const wanted = state.picked !== null ? [...state.picked.nodes] : state.fitIds;
  const ids = wanted.filter((id) => state.nodes.get(id) !== null);
  const key = ids.join("\n");
  const first = state.fitKey === undefined;
  if (key === state.fitKey) return false;
  state.fitKey = key;
  if (state.viewTouched || (first && ids.length === 0)) return false;
  if (first) return fitView(state, ids, null);
  move(state, () => fitView(state, ids.length ? ids : null, FIT_ANIMATION));
  state.viewTouched = false; // moved for the person, not by them
  return true;
}

// Streamlit keeps only the latest cleanup and runs it on unmount: release the network
// (or the build still to come, after a painted first frame).
function cleanupOf(state, parentElement) {
  return () => {
    state.closed = true;
    stopSlideshow(state, false);
    stopPlayback(state);
    clearTimeout(state.refitTimer);
    if (state.windowWatch) state.windowWatch.stop();
    if (state.themeObserver) state.themeObserver.disconnect();
    document.removeEventListener("fullscreenchange", state.onFullscreen);
    if (state.network) state.network.destroy();
    state.frame.remove();
    if (NETWORKS.get(parentElement) === state) NETWORKS.delete(parentElement);
  };
}

// A payload drawn: counted for browser tests, then rendered.
function show(state, payload) {
  state.renders += 1;
  state.container.setAttribute("data-renders", String(state.renders)); // for browser tests
  render(state, payload);
}

// The first view painted from the payload (firstframe.js) with the legend it keeps clear
// of, when it can be; returns whether it was.
function paintFirstFrame(state, data) {
  if (!paintable(state, data)) return false;
  state.legendData = data.legend && typeof data.legend === "object" ? data.legend : null;
  legendLine(state);
  settleLegend(state, false);
  const t0 = performance.now();
  state.firstView = paintFirst(state);
  if (state.firstView === null) return false;
  state.stats.firstPaintAt = performance.now();
  state.stats.paintMs = state.stats.firstPaintAt - t0;
  state.container.setAttribute("data-painted", "true");
  return true;
}

// Build the Network once the painted frame is on screen (after the next frame; a timer as
// well, for a page that draws no frame meanwhile), then draw the latest payload. The
// build is a user-blocking task where the browser has them, so it comes before the rest
// of the page's queued rendering work (as it did when it ran inside the component's
// call). A failure says so in one sentence where the graph would be.
function buildLater(vis, state) {
  let done = false;
  const go = () => {
    if (done || state.closed) return;
    done = true;
    clearTimeout(timer);
    const payload = state.waiting;
    state.waiting = null;
    state.stats.buildAt = performance.now();
    try {
      build(vis, state);
      show(state, payload);
    } catch (error) {
      dropFirstFrame(state);
      const box = document.createElement("div");
      box.setAttribute("data-memscope-graph-error", "");
      box.setAttribute("role", "alert");
      box.style.cssText = "padding: 1rem; border: 1px solid rgba(128, 128, 128, 0.3); "
        + "border-radius: 0.5rem; color: var(--st-text-color, #31333f);";
      box.textContent = `The graph could not be drawn: ${error instanceof Error
        ? error.message : String(error)}`;
      state.frame.replaceWith(box);
    }
  };
  // browser tests hold the build with a promise here, to look at the painted frame
  const hold = globalThis.__msHoldFirstBuild;
  const held = hold && typeof hold.then === "function";
  const timer = held ? null : setTimeout(go, 100);
  const tasks = globalThis.scheduler;
  const soon = tasks && typeof tasks.postTask === "function"
    ? () => tasks.postTask(go, { priority: "user-blocking" }) : () => setTimeout(go, 0);
  requestAnimationFrame(() => {
    state.stats.firstPaintShownAt = performance.now(); // the painted frame goes on screen
    if (held) hold.then(soon);
    else soon();
  });
}

// Run `then` once no element of the page is still a placeholder: Streamlit shows a
// skeleton for an element whose code is still loading (a new visitor's first page), and
// what it stands for may move the graph — a row above it, or the page's stylesheet (an
// element too, which sets the paddings) — and refit it right after its first frame. At
// most SETTLE_MS; a payload that comes meanwhile waits in `state.waiting` and is the one
// drawn.
const SETTLE_MS = 1500;

function afterSettled(state, parentElement, then) {
  const anchor = parentElement instanceof ShadowRoot ? parentElement.host : parentElement;
  const started = performance.now();
  const pending = () => Boolean(anchor && anchor.isConnected
    && document.querySelector("[data-testid='stSkeleton']"));
  const check = () => {
    if (state.closed) return;
    if (pending() && performance.now() - started < SETTLE_MS) {
      state.stats.settleWaits += 1;
      requestAnimationFrame(check);
      return;
    }
    then();
  };
  check();
}

export default function graphView(component) {
  const { data, parentElement, setStateValue } = component;
  const vis = globalThis.vis;
  if (!vis || !vis.Network || !vis.DataSet) throw new Error("vis-network is not loaded");
  let state = NETWORKS.get(parentElement);
  const fresh = state === undefined || !state.frame.isConnected;
  const bytes = asBytes(data);
  if (!fresh) {
    state.setStateValue = setStateValue;
    // the message drawn last, delivered again (e.g. by a rerun): nothing would change
    if (bytes !== null && sameBytes(state.lastBytes, bytes)) {
      state.stats.unchanged += 1;
      return state.cleanup;
    }
  }
  const t0 = performance.now();
  const payload = bytes !== null ? decodePayload(bytes) : data || {};
  const decodeMs = performance.now() - t0;
  if (payload === null && !fresh) return state.cleanup; // unreadable: keep what is drawn
  state = fresh ? create(vis, parentElement, payload || {}) : state;
  state.lastBytes = bytes;
  state.setStateValue = setStateValue;
  if (fresh) {
    state.stats.decodeMs = decodeMs;
    state.cleanup = cleanupOf(state, parentElement);
    NETWORKS.set(parentElement, state);
    state.waiting = payload || {};
    afterSettled(state, parentElement, () => {
      fitWindow(state); // the height from where the frame now stands
      if (paintFirstFrame(state, state.waiting)) { // the Network is built after that frame
        buildLater(vis, state);
        return;
      }
      const first = state.waiting;
      state.waiting = null;
      build(vis, state);
      show(state, first);
    });
    return state.cleanup;
  } else if (state.network === null) { // painted, not built yet: the latest payload waits
    state.waiting = payload;
    state.firstView = null; // painted from another payload: the live graph fits its own
    return state.cleanup;
  }
  show(state, payload || {});
  return state.cleanup;
}
