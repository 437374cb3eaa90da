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

export function fitAll(state) {
  move(state, () => {
    state.network.fit({ animation: ANIMATION });
    return true;
  });
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
    state.network.fit({ nodes: ids, animation: ANIMATION });
    return true;
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

