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
// has zoomed in far enough for the memory labels to take over.
function drawAnnotations(state, ctx, view, boxes) {
  const theme = state.theme;
  let drawn = 0;
  for (const a of state.annotations) {
    const x = a.x * view.scale + view.x;
    const y = a.y * view.scale + view.y;
    if (x < -200 || y < -50 || x > view.w + 200 || y > view.h + 50) continue;
    const natural = a.size * view.scale;
    const px = Math.min(ANNOTATION_MAX_PX, Math.max(ANNOTATION_MIN_PX, natural));
    ctx.font = `600 ${px.toFixed(1)}px ${theme.font}`;
    const width = ctx.measureText(a.text).width + (a.color ? px : 0);
    const box = [x - width / 2 - 4, y - px * 0.65, x + width / 2 + 4, y + px * 0.65];
    if (boxes.hits(box)) continue;
    boxes.add(box);
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
  return drawn;
}

// Labels vis-network hides at this zoom, drawn at a readable fixed size where they fit:
// the selected node, search matches, clusters, documents, entities (in that order).
function drawLandmarks(state, ctx, view, boxes) {
  const theme = state.theme;
  const selected = new Set(state.network.getSelectedNodes());
  const wanted = state.landmarks.filter((n) => selected.has(n.id)).concat(state.landmarks);
  const ids = wanted.slice(0, LANDMARK_EXAMINE).map((n) => n.id);
  const positions = state.network.getPositions(ids);
  const done = new Set();
  let drawn = 0;
  for (const node of wanted.slice(0, LANDMARK_EXAMINE)) {
    if (drawn >= LANDMARK_MAX) break;
    if (done.has(node.id)) continue;
    done.add(node.id);
    const spec = KIND_LABELS[node.kind] || KIND_LABELS.memory;
    if (spec.size * view.scale >= spec.threshold - 1) continue; // vis draws this one
    const pos = positions[node.id];
    if (!pos) continue;
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
    boxes.add(box);
    haloText(ctx, theme, node.label, x, top + px / 2 + 1, px);
    drawn += 1;
  }
  return drawn;
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
  const boxes = new Boxes();
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

