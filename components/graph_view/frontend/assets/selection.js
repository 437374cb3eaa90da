// Selection and the view: zoom, fit all, fit the selection, fit the caller's nodes, and
// the caller's focus (select a node and centre it).

export const ZOOM_STEP = 1.35;
const MIN_SCALE = 0.01;
const MAX_SCALE = 6;
const ANIMATION = { duration: 350, easingFunction: "easeInOutQuad" };

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

// The part of the canvas the graph is fitted into: right of the legend panel when the
// panel is open and tall (so no node starts hidden under it), else the whole canvas.
function freeArea(state) {
  const w = state.container.clientWidth || 600;
  const h = state.container.clientHeight || 400;
  const el = state.legend && state.legend.element;
  let left = 0;
  if (el && !el.hidden && el.isConnected) {
    const panel = el.getBoundingClientRect();
    const canvas = state.container.getBoundingClientRect();
    const right = panel.right - canvas.left + 8;
    if (panel.height > h * 0.35 && right < w * 0.5) left = right;
  }
  return { left, w: w - left, h };
}

// The box around `ids` (graph units; each node's label included, as vis-network's own fit
// measures it), hidden nodes left out; null when there is none.
export function boundsOf(body, ids) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const id of ids) {
    const n = body.nodes[id];
    if (!n || n.options.hidden) continue;
    const bb = n.shape && n.shape.boundingBox;
    let left = n.x - (n.options.size || 10);
    let right = n.x + (n.options.size || 10);
    let top = n.y - (n.options.size || 10);
    let bottom = n.y + (n.options.size || 10);
    if (bb && bb.right > bb.left && bb.bottom > bb.top) {
      left = bb.left; right = bb.right; top = bb.top; bottom = bb.bottom;
    }
    if (left < minX) minX = left;
    if (right > maxX) maxX = right;
    if (top < minY) minY = top;
    if (bottom > maxY) maxY = bottom;
  }
  return Number.isFinite(minX) ? { minX, minY, maxX, maxY } : null;
}

// The scale at which the box `b` fits the free area (vis-network's fit: 10% to spare, at
// most 1), and that area.
export function fitScaleOf(state, b) {
  const area = freeArea(state);
  const scale = Math.max(MIN_SCALE, Math.min(1,
    area.w / (1.1 * Math.max(b.maxX - b.minX, 1)),
    area.h / (1.1 * Math.max(b.maxY - b.minY, 1))));
  return { scale, area };
}

// Show `ids` (default: every node drawn) whole in the free area: what "fit" means here.
// Returns false when there is nothing to show.
export function fitView(state, ids, animation) {
  state.network.body.emitter.emit("_resizeNodes"); // every label measured, as vis's fit does
  const b = boundsOf(state.network.body, ids || state.network.body.nodeIndices);
  if (b === null) return false;
  const { scale, area } = fitScaleOf(state, b);
  const position = { x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2 };
  const options = { position, scale, offset: { x: area.left / 2, y: 0 } };
  if (animation) options.animation = animation;
  state.network.moveTo(options);
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
