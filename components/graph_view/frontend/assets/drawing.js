// Drawing and labels: the label policy per node kind, the layers drawn over vis-network's
// canvas (the caller's annotations, e.g. cluster names, and landmark labels vis would
// hide at this zoom), and the plain drawing of a big view while it is dragged. Text from
// the data is drawn on the canvas as text, never as markup.
//
// Big views stay fluid while the user drags: from PLAIN_MIN nodes in view, a drag draws
// every node as a plain filled shape (no label, border or shadow; edges are hidden while
// dragging anyway), batched by colour; the full drawing comes back on release.

const PLAIN_MIN = 2500; // nodes in view from which a drag draws them as plain shapes
const ROUND = new Set(["dot", "circle", "hexagon", "ellipse"]);

// Label policy per node kind (vis-network groups): vis draws a label once its on-screen
// size reaches drawThreshold - 1 px. Memory labels appear as the user zooms in; document,
// entity and cluster labels that vis would hide are drawn by the landmark layer instead,
// at a fixed readable size, where they fit.
export const KIND_LABELS = {
  memory: { size: 12, threshold: 10 },
  document: { size: 14, threshold: 12, landmark: 12, rank: 2 },
  entity: { size: 13, threshold: 11, landmark: 12, rank: 3 },
  cluster: { size: 16, threshold: 12, landmark: 13, rank: 1, bold: true },
};
const LANDMARK_MAX = 160; // landmark labels drawn per frame
const LANDMARK_EXAMINE = 4000; // candidates looked at per frame
const ANNOTATION_MIN_PX = 13;
const ANNOTATION_MAX_PX = 28;
const ANNOTATION_FADE_SCALE = 0.75; // from this zoom on, memory labels show: names fade
const GRID = 48; // px, the collision grid of the label layers

class Boxes {
  constructor() { this.cells = new Map(); }

  *keys(box) {
    for (let gx = Math.floor(box[0] / GRID); gx <= Math.floor(box[2] / GRID); gx++) {
      for (let gy = Math.floor(box[1] / GRID); gy <= Math.floor(box[3] / GRID); gy++) {
        yield `${gx},${gy}`;
      }
    }
  }

  hits(box) {
    for (const key of this.keys(box)) {
      for (const b of this.cells.get(key) || []) {
        if (box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3]) return true;
      }
    }
    return false;
  }

  add(box) {
    for (const key of this.keys(box)) {
      const list = this.cells.get(key);
      if (list) list.push(box);
      else this.cells.set(key, [box]);
    }
  }
}

function haloText(ctx, theme, text, x, y, px) {
  ctx.lineWidth = Math.max(3, px / 4);
  ctx.strokeStyle = theme.background;
  ctx.strokeText(text, x, y);
  ctx.fillStyle = theme.text;
  ctx.fillText(text, x, y);
}

// Cluster names (the caller's annotations) large over their clusters: their size follows
// the zoom between ANNOTATION_MIN_PX and ANNOTATION_MAX_PX, and they fade once the user
// has zoomed in far enough for the memory labels to take over. A name whose cluster is
// in view is always drawn whole inside the canvas (moved in from an edge, and off the
// legend panel); a name whose group the legend hides is not drawn.
function drawAnnotations(state, ctx, view, boxes) {
  const theme = state.theme;
  const shown = state.shownGroups; // null: every group
  const placedBoxes = []; // for browser tests
  let drawn = 0;
  for (const a of state.annotations) {
    if (shown && typeof a.group === "string" && !shown.has(a.group)) continue;
    const ax = a.x * view.scale + view.x;
    const y0 = a.y * view.scale + view.y;
    if (ax < 0 || y0 < 0 || ax > view.w || y0 > view.h) continue; // its cluster is not in view
    const natural = a.size * view.scale;
    const px = Math.min(ANNOTATION_MAX_PX, Math.max(ANNOTATION_MIN_PX, natural));
    ctx.font = `600 ${px.toFixed(1)}px ${theme.font}`;
    const width = ctx.measureText(a.text).width + (a.color ? px : 0);
    const half = width / 2 + 4;
    const placed = inside(ax, y0, half, px * 0.65, view, state.obstacles);
    if (placed === null) continue;
    const [x, y] = placed;
    const box = [x - half, y - px * 0.65, x + half, y + px * 0.65];
    if (boxes.hits(box)) continue;
    boxes.add(box);
    placedBoxes.push(box);
    ctx.globalAlpha = view.scale >= ANNOTATION_FADE_SCALE ? 0.3 : 0.92;
    const tx = a.color ? x + px / 2 : x;
    if (a.color) {
      ctx.beginPath();
      ctx.arc(box[0] + 4 + px * 0.35, y, px * 0.3, 0, 2 * Math.PI);
      ctx.fillStyle = a.color;
      ctx.fill();
      ctx.strokeStyle = theme.text;
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    haloText(ctx, theme, a.text, tx, y, px);
    drawn += 1;
  }
  ctx.globalAlpha = 1;
  state.stats.annotationBoxes = placedBoxes;
  return drawn;
}

const EDGE_GAP = 4; // px kept between a name and the canvas's edge

// Where a box of half-size (hw, hh) centred near (x, y) fits whole in the canvas and off
// the panels over it (`obstacles`, screen boxes), or null when it cannot.
export function inside(x, y, hw, hh, view, obstacles) {
  if (2 * hw + 2 * EDGE_GAP > view.w || 2 * hh + 2 * EDGE_GAP > view.h) return null;
  const clampX = (v) => Math.min(view.w - EDGE_GAP - hw, Math.max(EDGE_GAP + hw, v));
  const clampY = (v) => Math.min(view.h - EDGE_GAP - hh, Math.max(EDGE_GAP + hh, v));
  let cx = clampX(x);
  let cy = clampY(y);
  for (const o of obstacles || []) {
    if (cx - hw >= o[2] || cx + hw <= o[0] || cy - hh >= o[3] || cy + hh <= o[1]) continue;
    // beside the panel (right of it, else below it), whichever moves the name less
    const right = clampX(o[2] + EDGE_GAP + hw);
    const below = clampY(o[3] + EDGE_GAP + hh);
    if (Math.abs(right - cx) <= Math.abs(below - cy) && right - hw >= o[2]) cx = right;
    else if (below - hh >= o[3]) cy = below;
    else return null;
  }
  for (const o of obstacles || []) {
    if (!(cx - hw >= o[2] || cx + hw <= o[0] || cy - hh >= o[3] || cy + hh <= o[1])) return null;
  }
  return [cx, cy];
}

// The selection as a ring around each selected node, outside its border, so the node's
// own state style (dashes, fill, opacity, state border) stays visible under it.
function drawSelection(state, ctx, view) {
  const ids = state.network.getSelectedNodes();
  if (ids.length === 0) return;
  const body = state.network.body.nodes;
  const positions = state.network.getPositions(ids);
  for (const id of ids) {
    const node = body[id];
    const pos = positions[id];
    if (!node || !pos || node.options.hidden) continue;
    const x = pos.x * view.scale + view.x;
    const y = pos.y * view.scale + view.y;
    const size = (node.options.size || 10) * view.scale;
    const border = (node.options.borderWidth || 1) * view.scale;
    const r = Math.max(7, size * (node.options.shape === "square" ? 1.42 : 1.15) + border + 4);
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.lineWidth = 5;
    ctx.strokeStyle = state.theme.background;
    ctx.stroke();
    ctx.lineWidth = 2.5;
    ctx.strokeStyle = state.theme.primary;
    ctx.stroke();
  }
}

// Labels vis-network hides at this zoom, drawn at a readable fixed size where they fit:
// the selected node, search matches, clusters, documents, entities (in that order).
function drawLandmarks(state, ctx, view, boxes) {
  const theme = state.theme;
  const selected = new Set(state.network.getSelectedNodes());
  const wanted = state.landmarks.filter((n) => selected.has(n.id)).concat(state.landmarks);
  const ids = wanted.slice(0, LANDMARK_EXAMINE).map((n) => n.id);
  const positions = state.network.getPositions(ids);
  const body = state.network.body.nodes;
  const done = new Set();
  let drawn = 0;
  for (const node of wanted.slice(0, LANDMARK_EXAMINE)) {
    if (drawn >= LANDMARK_MAX) break;
    if (done.has(node.id)) continue;
    done.add(node.id);
    const spec = KIND_LABELS[node.kind] || KIND_LABELS.memory;
    if (spec.size * view.scale >= spec.threshold - 1) continue; // vis draws this one
    const pos = positions[node.id];
    if (!pos || (body[node.id] && body[node.id].options.hidden)) continue;
    const x = pos.x * view.scale + view.x;
    const top = pos.y * view.scale + view.y + node.size * view.scale + 2;
    if (x < -100 || top < -20 || x > view.w + 100 || top > view.h + 20) continue;
    const px = spec.landmark || 12;
    const bold = spec.bold || selected.has(node.id);
    ctx.font = `${bold ? "600 " : ""}${px}px ${theme.font}`;
    const cacheKey = `${bold}|${node.label}`;
    let width = state.widths.get(cacheKey);
    if (width === undefined) {
      width = ctx.measureText(node.label).width;
      state.widths.set(cacheKey, width);
    }
    const box = [x - width / 2 - 6, top, x + width / 2 + 6, top + px + 2];
    if (box[0] < 0 || box[2] > view.w || box[3] > view.h || boxes.hits(box)) continue;
    if (state.obstacles.some((o) => box[0] < o[2] && o[0] < box[2] && box[1] < o[3]
        && o[1] < box[3])) continue; // under the legend or the minimap
    boxes.add(box);
    haloText(ctx, theme, node.label, x, top + px / 2 + 1, px);
    drawn += 1;
  }
  return drawn;
}

// The panels over the canvas (legend, minimap) as boxes in canvas pixels.
function overlayBoxes(state, canvas) {
  const origin = canvas.getBoundingClientRect();
  const out = [];
  for (const el of state.overlays || []) {
    if (el.hidden || !el.isConnected) continue;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0) {
      out.push([r.left - origin.left, r.top - origin.top, r.right - origin.left,
        r.bottom - origin.top]);
    }
  }
  return out;
}

export function drawLayers(state, ctx) {
  const canvas = ctx.canvas;
  const w = canvas.clientWidth;
  const h = canvas.clientHeight;
  if (!w || !h) return;
  const origin = state.network.canvasToDOM({ x: 0, y: 0 });
  const view = { scale: state.network.getScale(), x: origin.x, y: origin.y, w, h };
  const ratio = canvas.width / w;
  ctx.save();
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineJoin = "round";
  state.obstacles = overlayBoxes(state, canvas);
  const boxes = new Boxes();
  drawSelection(state, ctx, view);
  state.stats.annotations = drawAnnotations(state, ctx, view, boxes);
  state.stats.landmarks = drawLandmarks(state, ctx, view, boxes);
  ctx.restore();
}

export function landmarkList(rawNodes, rawEdges, styles) {
  const degree = new Map();
  for (const e of rawEdges) {
    degree.set(e.from, (degree.get(e.from) || 0) + 1);
    degree.set(e.to, (degree.get(e.to) || 0) + 1);
  }
  const list = [];
  for (const raw of rawNodes) {
    if (typeof raw.label !== "string" || raw.label === "") continue;
    const style = (typeof raw.s === "number" && styles[raw.s]) || {};
    const kind = "kind" in raw ? raw.kind : style.kind;
    const size = "size" in raw ? raw.size : style.size;
    const spec = KIND_LABELS[kind];
    const rank = raw.highlighted ? 0 : spec && spec.rank;
    if (rank === undefined) continue;
    list.push({
      id: raw.id, label: raw.label, kind, rank,
      size: typeof size === "number" ? size : 10, degree: degree.get(raw.id) || 0,
    });
  }
  list.sort((a, b) => a.rank - b.rank || b.size - a.size || b.degree - a.degree
    || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return list;
}

// -- plain drawing while dragging a big view ------------------------------------------------

// The drawn nodes by fill: [{ fill, alpha, round, nodes }], rebuilt after a data change.
function plainGroups(state) {
  if (state.plainGroups) return state.plainGroups;
  const byKey = new Map();
  const body = state.network.body;
  for (const id of body.nodeIndices) {
    const node = body.nodes[id];
    if (!node || node.options.hidden) continue;
    const o = node.options;
    const fill = (o.color && o.color.background) || "#97C2FC";
    const alpha = typeof o.opacity === "number" ? o.opacity : 1;
    const round = ROUND.has(o.shape);
    const key = `${fill}|${alpha}|${round}`;
    let group = byKey.get(key);
    if (!group) {
      group = { fill, alpha, round, nodes: [] };
      byKey.set(key, group);
    }
    group.nodes.push(node);
  }
  state.plainGroups = Array.from(byKey.values());
  return state.plainGroups;
}

function inView(state) {
  const net = state.network;
  const canvas = net.canvas.frame.canvas;
  const a = net.DOMtoCanvas({ x: 0, y: 0 });
  const b = net.DOMtoCanvas({ x: canvas.clientWidth, y: canvas.clientHeight });
  return { left: a.x, top: a.y, right: b.x, bottom: b.y };
}

// A drag over PLAIN_MIN nodes in view: vis skips the nodes (hideNodesOnDrag), drawPlain draws.
export function plainDragStart(state) {
  const box = inView(state);
  let count = 0;
  const body = state.network.body;
  for (const id of body.nodeIndices) {
    const node = body.nodes[id];
    if (node && node.x >= box.left && node.x <= box.right && node.y >= box.top
        && node.y <= box.bottom) count += 1;
    if (count >= PLAIN_MIN) break;
  }
  state.plainDrag = count >= PLAIN_MIN;
  state.network.renderer.options.hideNodesOnDrag = state.plainDrag;
}

export function plainDragEnd(state) {
  if (!state.plainDrag) return;
  state.plainDrag = false;
  state.network.renderer.options.hideNodesOnDrag = false;
  state.network.body.emitter.emit("_requestRedraw"); // the full drawing again
}

// Every node in view as a filled square (a disc when it is round and big enough to
// tell), one path per fill; ctx is in graph coordinates (vis-network's afterDrawing).
export function drawPlain(state, ctx) {
  const box = inView(state);
  const scale = state.network.getScale();
  for (const group of plainGroups(state)) {
    ctx.globalAlpha = group.alpha;
    ctx.fillStyle = group.fill;
    ctx.beginPath();
    for (const node of group.nodes) {
      const x = node.x;
      const y = node.y;
      const r = node.options.size || 10;
      if (x + r < box.left || x - r > box.right || y + r < box.top || y - r > box.bottom) continue;
      if (group.round && r * scale >= 2) {
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, 2 * Math.PI);
      } else {
        ctx.rect(x - r, y - r, 2 * r, 2 * r);
      }
    }
    ctx.fill();
  }
  ctx.globalAlpha = 1;
}

