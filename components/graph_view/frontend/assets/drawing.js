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
const PICK_FADE = 0.25; // legend.js's FADE: what a legend pick leaves out is drawn at it

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
  constructor(cell = GRID) { this.cells = new Map(); this.cell = cell; }

  *keys(box) {
    const g = this.cell;
    for (let gx = Math.floor(box[0] / g); gx <= Math.floor(box[2] / g); gx++) {
      for (let gy = Math.floor(box[1] / g); gy <= Math.floor(box[3] / g); gy++) {
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

const NODE_CELL = 120; // graph units, the grid of the drawn nodes' boxes
const NODE_GRID_EVERY_FRAME = 3000; // below this many nodes the grid is made every frame

// The drawn nodes' boxes in graph units (a card's whole box), for the cluster names to
// stay off them; kept until the data changes on big graphs (state.nodeGrid = null).
function nodeGrid(state) {
  if (state.nodeGrid && state.nodes.length > NODE_GRID_EVERY_FRAME) return state.nodeGrid;
  const grid = new Boxes(NODE_CELL);
  const body = state.network.body;
  for (const id of body.nodeIndices) {
    const n = body.nodes[id];
    if (!n || n.options.hidden) continue;
    const r = n.options.size || 10;
    const bb = n.options.shape === "box" && n.shape && n.shape.boundingBox;
    grid.add(bb && bb.right > bb.left ? [bb.left, bb.top, bb.right, bb.bottom]
      : [n.x - r, n.y - r, n.x + r, n.y + r]);
  }
  state.nodeGrid = grid;
  return grid;
}

// Whether the screen box `box` lies over a drawn node.
function overNode(grid, view, box) {
  const k = view.scale;
  return grid.hits([(box[0] - view.x) / k, (box[1] - view.y) / k, (box[2] - view.x) / k,
    (box[3] - view.y) / k]);
}

// Where a cluster's name goes: at its centre, else the nearest place above, below or
// beside it that is off every node, every name and label already drawn and the panels;
// null when there is none near.
function placeName(x0, y0, half, hh, view, state, boxes, grid) {
  const steps = [[0, 0]];
  for (let k = 1; k <= 5; k++) { // near it: up to five lines above or below, a width aside
    steps.push([0, -k], [0, k]);
    if (k <= 2) steps.push([-k / 2, -k], [k / 2, -k], [-k / 2, k], [k / 2, k]);
    if (k === 1) steps.push([-1, 0], [1, 0]);
  }
  for (const [sx, sy] of steps) {
    const placed = inside(x0 + sx * half, y0 + sy * 2 * hh, half, hh, view, state.obstacles);
    if (placed === null) continue;
    const [x, y] = placed;
    const box = [x - half, y - hh, x + half, y + hh];
    if (!boxes.hits(box) && !overNode(grid, view, box)
        && !(state.labelGrid && overNode(state.labelGrid, view, box))) return box;
  }
  return null;
}

// Cluster names (the caller's annotations) large over their clusters: their size follows
// the zoom between ANNOTATION_MIN_PX and ANNOTATION_MAX_PX, and they fade once the user
// has zoomed in far enough for the memory labels to take over. A name whose cluster is
// in view is always drawn whole inside the canvas (moved in from an edge, and off the
// legend panel), over no node (moved to the nearest free place beside its cluster, else
// left out); a name whose group the legend hides is not drawn.
function drawAnnotations(state, ctx, view, boxes) {
  const theme = state.theme;
  const shown = state.shownGroups; // null: every group
  const placedBoxes = []; // for browser tests
  let drawn = 0;
  const grid = state.annotations.length ? nodeGrid(state) : null;
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
    const box = placeName(ax, y0, half, px * 0.65, view, state, boxes, grid);
    if (box === null) continue;
    const x = (box[0] + box[2]) / 2;
    const y = (box[1] + box[3]) / 2;
    boxes.add(box);
    placedBoxes.push(box);
    ctx.globalAlpha = state.faded ? 0.25 * 0.92 // a highlight shows: the names step back
      : view.scale >= ANNOTATION_FADE_SCALE ? 0.3 : 0.92;
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
  const placedBoxes = [];
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
    if (state.labelGrid && overNode(state.labelGrid, view, box)) continue; // a vis label
    if (state.obstacles.some((o) => box[0] < o[2] && o[0] < box[2] && box[1] < o[3]
        && o[1] < box[3])) continue; // under the legend or the minimap
    boxes.add(box);
    placedBoxes.push(box);
    haloText(ctx, theme, node.label, x, top + px / 2 + 1, px);
    drawn += 1;
  }
  state.stats.landmarkBoxes = placedBoxes; // for browser tests
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
    if ("faded" in raw ? raw.faded : style.faded) continue; // a highlight leaves it out
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

// -- the labels vis-network draws itself, culled ------------------------------------------

const CULL_FROM_SCALE = 0.7; // below it vis draws no node label (KIND_LABELS thresholds)
const CULL_PAD = 2; // px between two labels
const KIND_ORDER = { cluster: 1, document: 2, entity: 3, memory: 4 };

// The order in which labels claim their place: highlighted, then clusters, documents,
// entities, memories, bigger first (ids; made once per payload).
export function labelOrder(rawNodes, styles) {
  const list = [];
  for (const raw of rawNodes) {
    if (typeof raw.label !== "string" || raw.label === "") continue;
    const style = (typeof raw.s === "number" && styles[raw.s]) || {};
    const kind = "kind" in raw ? raw.kind : style.kind;
    const size = "size" in raw ? raw.size : style.size;
    const faded = "faded" in raw ? raw.faded : style.faded;
    list.push({ id: raw.id, rank: raw.highlighted ? 0 : (KIND_ORDER[kind] || 4) + (faded ? 4 : 0),
      size: typeof size === "number" ? size : 10 });
  }
  list.sort((a, b) => a.rank - b.rank || b.size - a.size
    || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return list.map((n) => n.id);
}

// vis-network's Label draws nothing while `__culled` is set (patched once).
function patchLabel(label) {
  const proto = Object.getPrototypeOf(label);
  if (!proto || proto.__msCull) return;
  const draw = proto.draw;
  proto.draw = function culledDraw(...args) {
    if (this.__culled) return undefined;
    return draw.apply(this, args);
  };
  proto.__msCull = true;
}

// Before each frame, once zoomed in far enough for vis-network to draw node labels: the
// labels in view, in labelOrder, each kept when its box is clear of those kept before
// (the selection's always), the others culled for this frame — so no two drawn labels
// overlap, and a document card whose title would collide is drawn as a card alone. The
// kept boxes (graph units) are what the names and landmark labels then keep clear of.
export function cullLabels(state) {
  const net = state.network;
  const body = net.body;
  for (const label of state.culled || []) label.__culled = false;
  state.culled = [];
  state.labelGrid = null;
  const scale = net.getScale();
  if (scale < CULL_FROM_SCALE || !state.labelOrder) return;
  const canvas = net.canvas.frame.canvas;
  const a = net.DOMtoCanvas({ x: 0, y: 0 });
  const b = net.DOMtoCanvas({ x: canvas.clientWidth, y: canvas.clientHeight });
  const pad = CULL_PAD / scale;
  const grid = new Boxes(GRID / scale);
  const selected = net.getSelectedNodes();
  const seen = new Set();
  for (const id of selected.concat(state.labelOrder)) {
    if (seen.has(id)) continue;
    seen.add(id);
    const n = body.nodes[id];
    if (!n || n.options.hidden || !n.labelModule) continue;
    const font = (n.options.font && n.options.font.size) || 14;
    const spec = n.options.scaling && n.options.scaling.label;
    if (font * scale < ((spec && spec.drawThreshold) || 5) - 1) continue; // vis draws none
    const r = n.options.size || 10;
    if (n.x + r < a.x || n.x - r > b.x || n.y + r < a.y || n.y - r > b.y + 40 / scale) continue;
    const size = n.labelModule.size;
    const w = size && size.width;
    const h = size && size.height;
    if (!w || !h) continue; // not measured yet: drawn, and measured, this frame
    // a card's title inside it; another label hangs under its shape, half its font
    // lower (vis-network's drawExternalLabel), with room for that font's size
    const fs = (n.labelModule.fontOptions && n.labelModule.fontOptions.size) || font;
    const box = n.options.shape === "box"
      ? [n.x - w / 2 - pad, n.y - h / 2 - pad, n.x + w / 2 + pad, n.y + h / 2 + pad]
      : [n.x - w / 2 - pad, n.y + r - pad, n.x + w / 2 + pad, n.y + r + h + fs + pad];
    if (grid.hits(box) && !(selected.length && selected[0] === id)) {
      patchLabel(n.labelModule);
      n.labelModule.__culled = true;
      state.culled.push(n.labelModule);
    } else {
      grid.add(box);
    }
  }
  state.labelGrid = grid;
  state.stats.culled = state.culled.length; // for browser tests
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
    // a node a legend pick faded (legend.js's __msFade) stays faded while dragged
    const alpha = (typeof o.opacity === "number" ? o.opacity : 1) * (node.__msFade ? PICK_FADE : 1);
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

