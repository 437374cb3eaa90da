// Selection and the view: zoom, fit all, fit the selection, fit the caller's nodes, and
// the caller's focus (select a node and centre it).

export const ZOOM_STEP = 1.35;
const MIN_SCALE = 0.01;
const MAX_SCALE = 6;
const ANIMATION = { duration: 350, easingFunction: "easeInOutQuad" };
export const FIT_ANIMATION = ANIMATION;

// vis-network loses track of an animation when a second one starts before the first has
// drawn a frame (its frame handler stays registered and later pulls the view back), so a
// move asked for in that window waits for the next frame; only the latest one is kept.
export function move(state, start) {
  state.viewTouched = true; // a toolbar or key move: no automatic fit after it
  if (state.moving && performance.now() - state.moving < 1000) {
    state.pendingMove = start;
    return;
  }
  state.moving = start() ? performance.now() : 0;
}

export function afterFrame(state) {
  state.moving = 0;
  const next = state.pendingMove;
  if (next) {
    state.pendingMove = null;
    setTimeout(() => move(state, next), 0);
  }
}

export function zoomBy(state, factor) {
  move(state, () => {
    // successive steps build on the last target, not on a scale half-way there
    const recent = performance.now() - state.zoomAt < 400;
    const from = recent ? state.zoomTarget : state.network.getScale();
    const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, from * factor));
    state.zoomTarget = scale;
    state.zoomAt = performance.now();
    state.network.moveTo({ scale, animation: { duration: 200, easingFunction: "easeOutQuad" } });
    return true;
  });
}

const MINIMAP_ZOOM = 2; // minimap.js's MINIMAP_RATIO: it shows past this zoom of a fit-all
const MINIMAP_BOX = { w: 180, h: 120, gap: 8 }; // graph_view.css's .ms-minimap
const GAP = 8; // px kept between the fitted map and a panel

// The panels over the canvas a fit keeps clear, in the container's pixels: the legend
// (open or collapsed to its header), the history's playback bar, and the minimap's corner
// when `minimap` (a fit that zooms in far enough shows it).
function panelRects(state, minimap) {
  const canvas = state.container.getBoundingClientRect();
  const h = state.container.clientHeight || 400;
  const out = [];
  const els = [state.legend && state.legend.element, state.playback && state.playback.el];
  for (const el of els) {
    if (!el || el.hidden || !el.isConnected) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) {
      out.push({ left: r.left - canvas.left, top: r.top - canvas.top,
        right: r.right - canvas.left, bottom: r.bottom - canvas.top });
    }
  }
  if (minimap) {
    const above = out.filter((r) => r.bottom > h - MINIMAP_BOX.gap - 4 && r.top > h / 2);
    const bottom = above.length ? Math.min(...above.map((r) => r.top)) - MINIMAP_BOX.gap : h
      - MINIMAP_BOX.gap;
    out.push({ left: MINIMAP_BOX.gap, top: bottom - MINIMAP_BOX.h,
      right: MINIMAP_BOX.gap + MINIMAP_BOX.w, bottom });
  }
  return out;
}

// The candidate areas clear of every panel (they all hang from the left edge): right of
// them all, full height; between the top panels and the bottom ones, full width; the
// whole canvas when there is none.
function freeAreas(state, minimap) {
  const w = state.container.clientWidth || 600;
  const h = state.container.clientHeight || 400;
  const rects = panelRects(state, minimap);
  if (rects.length === 0) return [{ left: 0, top: 0, w, h }];
  const right = Math.max(...rects.map((r) => r.right)) + GAP;
  const tops = rects.filter((r) => r.top + r.bottom < h);
  const bottoms = rects.filter((r) => r.top + r.bottom >= h);
  const top = tops.length ? Math.max(...tops.map((r) => r.bottom)) + GAP : 0;
  const bottom = bottoms.length ? Math.min(...bottoms.map((r) => r.top)) - GAP : h;
  const out = [];
  if (w - right > 40) out.push({ left: right, top: 0, w: w - right, h });
  if (bottom - top > 40) out.push({ left: 0, top, w, h: bottom - top });
  return out.length ? out : [{ left: 0, top: 0, w, h }];
}

// The free area in which the box `b` is drawn largest, and that scale.
function bestArea(state, b, minimap) {
  let best = null;
  for (const area of freeAreas(state, minimap)) {
    const scale = Math.max(MIN_SCALE, Math.min(1,
      area.w / (FIT_SPARE * Math.max(b.maxX - b.minX, 1)),
      area.h / (FIT_SPARE * Math.max(b.maxY - b.minY, 1))));
    if (best === null || scale > best.scale) best = { scale, area };
  }
  return best;
}

// The box around `ids` (graph units; each node's shape — a box with its label inside —
// not the labels under dots and hexagons: vis-network places those only as it draws, so
// a fit before the first frame and one after it would differ), hidden nodes left out;
// null when there is none.
export function boundsOf(body, ids) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const id of ids) {
    const n = body.nodes[id];
    if (!n || n.options.hidden) continue;
    const boxed = n.options.shape === "box" && n.shape && n.shape.width > 0;
    const halfW = boxed ? n.shape.width / 2 : (n.options.size || 10);
    const halfH = boxed ? n.shape.height / 2 : (n.options.size || 10);
    const left = n.x - halfW;
    const right = n.x + halfW;
    const top = n.y - halfH;
    const bottom = n.y + halfH;
    if (left < minX) minX = left;
    if (right > maxX) maxX = right;
    if (top < minY) minY = top;
    if (bottom > maxY) maxY = bottom;
  }
  return Number.isFinite(minX) ? { minX, minY, maxX, maxY } : null;
}

const FIT_SPARE = 1.06; // a fit leaves 6% of the free area around the map

// The scale at which the box `b` fits the free area (at most 1), and that area
// ({left, top, w, h}); `minimap`: keep the minimap's corner free too.
export function fitScaleOf(state, b, minimap = false) {
  return bestArea(state, b, minimap);
}

// Show `ids` (default: every node drawn) whole in the free area: what "fit" means here.
// A fit that zooms in past the minimap's threshold keeps its corner free too.
// Returns false when there is nothing to show.
export function fitView(state, ids, animation) {
  const body = state.network.body;
  // vis takes the frame's size first (else its next frame rescales the view it is given)
  if (state.network.canvas && state.network.canvas.setSize) state.network.canvas.setSize();
  body.emitter.emit("_resizeNodes"); // every label measured, as vis's fit does
  const b = boundsOf(body, ids || body.nodeIndices);
  if (b === null) return false;
  let fit = fitScaleOf(state, b, false);
  if (ids) {
    const all = boundsOf(body, body.nodeIndices);
    if (all !== null && fit.scale > MINIMAP_ZOOM * fitScaleOf(state, all, false).scale) {
      fit = fitScaleOf(state, b, true);
    }
  }
  const { scale, area } = fit;
  const w = state.container.clientWidth || 600;
  const h = state.container.clientHeight || 400;
  const position = { x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2 };
  const offset = { x: area.left + area.w / 2 - w / 2, y: area.top + area.h / 2 - h / 2 };
  const options = { position, scale, offset };
  if (animation) options.animation = animation;
  state.network.moveTo(options);
  state.stats.fitArea = { ...area, scale };
  return true;
}

export function fitAll(state) {
  move(state, () => fitView(state, null, ANIMATION));
  state.viewTouched = false; // the whole graph again: a resize fits it again too
}

// The selected node in the centre, zoomed so its neighbours are in view too.
export function fitSelection(state) {
  move(state, () => {
    const [id] = state.network.getSelectedNodes();
    if (id === undefined) return false;
    const ids = [id].concat(state.network.getConnectedNodes(id));
    const pos = state.network.getPositions(ids);
    const centre = pos[id];
    let dx = 0;
    let dy = 0;
    for (const other of ids) {
      if (!pos[other]) continue;
      dx = Math.max(dx, Math.abs(pos[other].x - centre.x));
      dy = Math.max(dy, Math.abs(pos[other].y - centre.y));
    }
    const w = state.container.clientWidth || 600;
    const h = state.container.clientHeight || 400;
    const margin = 60; // canvas units around the farthest neighbour (its label, its size)
    const scale = Math.min(1.5, w / (2 * (dx + margin)), h / (2 * (dy + margin)));
    state.network.moveTo({ position: centre, scale: Math.max(MIN_SCALE, scale),
      animation: ANIMATION });
    return true;
  });
}

export function fitFiltered(state) {
  move(state, () => {
    const ids = state.fitIds.filter((id) => state.nodes.get(id) !== null);
    if (ids.length === 0) return false;
    return fitView(state, ids, ANIMATION);
  });
}

export function applyFocus(state, options) {
  const id = options.focus;
  if (id === null || id === undefined) return false;
  const key = JSON.stringify([id, options.focus_rev || 0]);
  if (key === state.focusKey) return false;
  state.focusKey = key;
  if (state.nodes.get(id) === null) return false;
  state.network.selectNodes([id]);
  move(state, () => {
    state.network.focus(id, {
      scale: Math.max(state.network.getScale(), 1.0),
      animation: { duration: 400, easingFunction: "easeInOutQuad" },
    });
    return true;
  });
  state.setStateValue("selected", id); // mirror what is shown, so a later click counts
  return true;
}


// Centre the view on `position` (graph units) at the same zoom: a click on the minimap.
export function jumpTo(state, position) {
  move(state, () => {
    state.network.moveTo({ position, scale: state.network.getScale(), animation: ANIMATION });
    return true;
  });
}
