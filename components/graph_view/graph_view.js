// Memscope graph view: vis-network inside a Streamlit Custom Component v2.
//
// The vendored vis-network UMD build (vendor/) is the JS of a sibling element that
// graph_view/__init__.py mounts just before this one; it defines globalThis.vis, which
// this module waits for. Nothing is fetched from the network. Text from the data never
// becomes markup: labels, cluster names and landmark labels are drawn on the canvas as
// text, tooltips are plain strings that vis-network sets as the tooltip's innerText (text,
// never markup), and the toolbar's buttons are built with textContent.
//
// The payload is compact: each node and edge carries its own fields (id, label, title,
// position, marks) and `s`, the index of its style (kind, shape, size, colours…) in
// `styles.nodes` / `styles.edges`; the two are merged back here.
//
// Streamlit calls the default export again, with the same parentElement, whenever `data`
// changes (and does not call the previous cleanup first), so there is one vis.Network per
// parentElement, kept in a WeakMap and updated in place through its DataSets.
//
// One draw per data change: the first payload is loaded through the Network constructor
// (setData → fit → one requested frame); later payloads are applied to the DataSets inside
// `batch`, which holds vis-network's physics engine in its "not ready" state (the state
// setData itself uses while loading), so no DataSet event draws synchronously; the
// `_dataUpdated` handler's requested frame then draws once, after every change. Every
// node is measured (label hit boxes included) in that draw, so clicks keep working.
// vis-network recomputes its indices (`_dataChanged`: edges, clusters, physics, visible
// nodes) after every DataSet event; inside `batch` those are held and run once at the end.
//
// Big views stay fluid while the user drags: from PLAIN_MIN nodes in view, a drag draws
// every node as a plain filled shape (no label, border or shadow; edges are hidden while
// dragging anyway), batched by colour; the full drawing comes back on release.

const NETWORKS = new WeakMap();
const VIS_TIMEOUT_MS = 30000;
const MAX_STABILIZATION = 200;
const PHYSICS_KEEP_RUNNING_MAX = 1000; // bigger graphs stop simulating after stabilising
const HIDE_EDGES_ON_ZOOM_MIN = 1000; // edges drawn during a wheel zoom only below this
const PLAIN_MIN = 2500; // nodes in view from which a drag draws them as plain shapes
const ROUND = new Set(["dot", "circle", "hexagon", "ellipse"]);
// what a field that disappeared is reset to (null resets to the default, except here)
const RESET = { opacity: 1, shadow: { enabled: false } };
const ZOOM_STEP = 1.35;
const MIN_SCALE = 0.01;
const MAX_SCALE = 6;
const ANIMATION = { duration: 350, easingFunction: "easeInOutQuad" };

// Label policy per node kind (vis-network groups): vis draws a label once its on-screen
// size reaches drawThreshold - 1 px. Memory labels appear as the user zooms in; document,
// entity and cluster labels that vis would hide are drawn by the landmark layer instead,
// at a fixed readable size, where they fit.
const KIND_LABELS = {
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

// Resolves with globalThis.vis once the library element has run (one shared promise, so
// calls that wait resolve in the order they were made).
const VIS_READY = new Promise((resolve, reject) => {
  const started = Date.now();
  const poll = () => {
    const vis = globalThis.vis;
    if (vis && vis.Network && vis.DataSet) resolve(vis);
    else if (Date.now() - started > VIS_TIMEOUT_MS) reject(new Error("vis-network did not load"));
    else setTimeout(poll, 20);
  };
  poll();
});

// -- colours -----------------------------------------------------------------------------

function parseHex(color) {
  if (typeof color !== "string" || color[0] !== "#") return null;
  let hex = color.slice(1);
  if (hex.length === 3) hex = hex.split("").map((c) => c + c).join("");
  if (hex.length !== 6 || !/^[0-9a-fA-F]{6}$/.test(hex)) return null;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

function parseColor(color) {
  const hex = parseHex(color);
  if (hex) return hex;
  const m = /^rgba?\(\s*(\d+)[\s,]+(\d+)[\s,]+(\d+)/.exec(String(color || "").trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function luminance(rgb) {
  const [r, g, b] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

function toHex(rgb) {
  return "#" + rgb.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
}

// On a dark background, a colour too close to it is mixed towards white until it stands
// out (min contrast ratio `min`); other colours, and every colour on a light theme, stay.
function readable(theme, color, min) {
  if (!theme.dark) return color;
  const key = `${color}|${min}`;
  const known = theme.cache.get(key);
  if (known !== undefined) return known;
  const rgb = parseHex(color);
  let out = color;
  if (rgb && contrast(rgb, theme.bg) < min) {
    let mixed = rgb;
    for (let t = 0.15; t <= 1.0001 && contrast(mixed, theme.bg) < min; t += 0.15) {
      mixed = rgb.map((v) => v + (255 - v) * t);
    }
    out = toHex(mixed);
  }
  theme.cache.set(key, out);
  return out;
}

function themeColors(el) {
  const css = getComputedStyle(el);
  const text = css.getPropertyValue("--st-text-color").trim() || "#31333F";
  const background = css.getPropertyValue("--st-background-color").trim() || "#FFFFFF";
  const font = css.getPropertyValue("--st-font").trim() || "sans-serif";
  const bg = parseColor(background) || [255, 255, 255];
  return {
    text, background, font, bg, dark: luminance(bg) < 0.2,
    key: `${text}|${background}|${font}`, cache: new Map(),
  };
}

// -- data --------------------------------------------------------------------------------

// An item of the payload with its style merged back in (its own fields win).
function expand(raw, styles) {
  const style = typeof raw.s === "number" ? styles[raw.s] : undefined;
  const item = Object.assign({}, style, raw);
  delete item.s;
  return item;
}

function nodeColor(theme, color) {
  if (typeof color === "string") return readable(theme, color, 2.0);
  if (!color || typeof color !== "object") return color;
  const out = Object.assign({}, color);
  if (typeof out.background === "string") out.background = readable(theme, out.background, 2.0);
  if (typeof out.border === "string") out.border = readable(theme, out.border, 2.4);
  return out;
}

function edgeColor(theme, color) {
  if (typeof color === "string") return readable(theme, color, 2.4);
  if (!color || typeof color !== "object" || typeof color.color !== "string") return color;
  return Object.assign({}, color, { color: readable(theme, color.color, 2.4) });
}

function toVisNode(theme, raw) {
  const item = Object.assign({}, raw);
  if (typeof raw.title !== "string" || raw.title === "") delete item.title;
  if (raw.kind in KIND_LABELS) item.group = raw.kind;
  if ("color" in raw) item.color = nodeColor(theme, raw.color);
  if (raw.font && typeof raw.font.color === "string") {
    item.font = Object.assign({}, raw.font, { color: readable(theme, raw.font.color, 4.5) });
  }
  return item;
}

function toVisEdge(theme, raw) {
  const item = Object.assign({}, raw);
  if (typeof raw.title !== "string" || raw.title === "") delete item.title;
  if ("color" in raw) item.color = edgeColor(theme, raw.color);
  return item;
}

// Whether a payload row is the cached one: same own fields, same style (no string per row).
function sameRow(prev, raw, styleKey) {
  if (prev.styleKey !== styleKey) return false;
  const row = prev.row;
  let n = 0;
  for (const key in raw) {
    if (key !== "s" && row[key] !== raw[key]) return false;
    n += 1;
  }
  return n === prev.n;
}

// Bring a DataSet in line with `rawItems` (payload rows pointing into `styles`): add new
// ids, update changed ones, remove ids that are gone. A field that disappeared is set to
// null, which resets it on a node; an edge keeps a null title (and would show an empty
// tooltip), so with `recreate` an item that lost a field is removed and added afresh.
// Returns the items (styles merged) that were added and whether anything changed.
function sync(dataset, rawItems, styles, cache, recreate, convert) {
  const styleKeys = styles.map((style) => JSON.stringify(style));
  const seen = new Set();
  const changed = [];
  const added = [];
  const stale = [];
  for (const raw of rawItems) {
    seen.add(raw.id);
    const styleKey = typeof raw.s === "number" ? styleKeys[raw.s] : undefined;
    const prev = cache.get(raw.id);
    if (prev !== undefined && sameRow(prev, raw, styleKey)) continue;
    const full = expand(raw, styles);
    const item = convert(full);
    if (prev !== undefined) {
      const vanished = prev.keys.filter((key) => !(key in full) && !(key in item));
      if (recreate && vanished.length > 0) stale.push(raw.id);
      else for (const key of vanished) item[key] = key in RESET ? RESET[key] : null;
    } else {
      added.push(full);
    }
    cache.set(raw.id, { row: raw, n: Object.keys(raw).length, styleKey, keys: Object.keys(full) });
    changed.push(item);
  }
  const gone = [];
  for (const id of cache.keys()) if (!seen.has(id)) gone.push(id);
  for (const id of gone) cache.delete(id);
  if (gone.length || stale.length) dataset.remove(gone.concat(stale));
  if (changed.length) dataset.update(changed);
  return { added, touched: gone.length + changed.length > 0 };
}

// -- options -----------------------------------------------------------------------------

function stabilizationIterations(n) {
  return Math.max(10, Math.min(MAX_STABILIZATION, Math.floor(50000 / Math.max(n, 1))));
}

function physicsOptions(enabled, n) {
  return {
    enabled,
    solver: "barnesHut",
    barnesHut: {
      gravitationalConstant: -2500, springLength: 140, springConstant: 0.04,
      damping: 0.35, avoidOverlap: 0.1,
    },
    stabilization: {
      enabled: true, iterations: stabilizationIterations(n), updateInterval: 25, fit: false,
    },
    minVelocity: 1.5,
    maxVelocity: 40,
    timestep: 0.5,
  };
}

function groupOptions(theme) {
  const groups = {};
  for (const [kind, spec] of Object.entries(KIND_LABELS)) {
    groups[kind] = {
      font: { size: spec.size, face: theme.font },
      scaling: { label: { drawThreshold: spec.threshold, maxVisible: 26 } },
    };
  }
  return groups;
}

function themeOptions(theme) {
  return {
    nodes: {
      font: { color: theme.text, face: theme.font, strokeWidth: 3, strokeColor: theme.background },
    },
    edges: {
      font: {
        color: theme.text, face: theme.font, strokeWidth: 3, strokeColor: theme.background,
      },
    },
    groups: groupOptions(theme),
  };
}

function networkOptions(theme, physics, n) {
  const options = themeOptions(theme);
  Object.assign(options.nodes, { borderWidth: 1 });
  options.nodes.font.size = 12;
  Object.assign(options.edges, {
    smooth: false,
    selectionWidth: 1.5,
    hoverWidth: 0.5,
    arrows: { to: { scaleFactor: 0.6 } },
  });
  Object.assign(options.edges.font, { size: 10, align: "middle" });
  return Object.assign(options, {
    autoResize: true,
    width: "100%",
    height: "100%",
    physics: physicsOptions(physics, n),
    interaction: {
      hover: true,
      tooltipDelay: 150,
      hideEdgesOnDrag: true,
      hideEdgesOnZoom: false,
      keyboard: false,
      multiselect: false,
      navigationButtons: false,
    },
    layout: { improvedLayout: false, randomSeed: 7 },
  });
}

// -- batching ----------------------------------------------------------------------------

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

// -- the label layers ----------------------------------------------------------------------

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

function drawLayers(state, ctx) {
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

function landmarkList(rawNodes, rawEdges, styles) {
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

function stylesOf(data) {
  const styles = data.styles || {};
  return {
    nodes: Array.isArray(styles.nodes) ? styles.nodes : [],
    edges: Array.isArray(styles.edges) ? styles.edges : [],
  };
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
function plainDragStart(state) {
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

function plainDragEnd(state) {
  if (!state.plainDrag) return;
  state.plainDrag = false;
  state.network.renderer.options.hideNodesOnDrag = false;
  state.network.body.emitter.emit("_requestRedraw"); // the full drawing again
}

// Every node in view as a filled square (a disc when it is round and big enough to
// tell), one path per fill; ctx is in graph coordinates (vis-network's afterDrawing).
function drawPlain(state, ctx) {
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

// -- the view: zoom, fit, full screen, selection -----------------------------------------

// vis-network loses track of an animation when a second one starts before the first has
// drawn a frame (its frame handler stays registered and later pulls the view back), so a
// move asked for in that window waits for the next frame; only the latest one is kept.
function move(state, start) {
  if (state.moving && performance.now() - state.moving < 1000) {
    state.pendingMove = start;
    return;
  }
  state.moving = start() ? performance.now() : 0;
}

function afterFrame(state) {
  state.moving = 0;
  const next = state.pendingMove;
  if (next) {
    state.pendingMove = null;
    setTimeout(() => move(state, next), 0);
  }
}

function zoomBy(state, factor) {
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

function fitAll(state) {
  move(state, () => {
    state.network.fit({ animation: ANIMATION });
    return true;
  });
}

// The selected node in the centre, zoomed so its neighbours are in view too.
function fitSelection(state) {
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

function fitFiltered(state) {
  move(state, () => {
    const ids = state.fitIds.filter((id) => state.nodes.get(id) !== null);
    if (ids.length === 0) return false;
    state.network.fit({ nodes: ids, animation: ANIMATION });
    return true;
  });
}

function clearSelection(state) {
  state.network.unselectAll();
  state.setStateValue("selected", null); // as a click on empty space does
  updateToolbar(state);
}

function isFullscreen(state) {
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

function onKey(state, event) {
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

// -- the toolbar ---------------------------------------------------------------------------

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

function buildToolbar(state) {
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

function updateToolbar(state) {
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

// -- set-up --------------------------------------------------------------------------------

function create(vis, parentElement, data) {
  const options = data.options || {};
  const frame = document.createElement("div");
  frame.className = "ms-graph";
  frame.style.height = `${options.height || 640}px`;
  const container = document.createElement("div");
  container.className = "ms-graph-canvas";
  container.setAttribute("data-testid", "memscope-graph");
  container.tabIndex = 0;
  container.setAttribute("role", "application");
  container.setAttribute("aria-label", "Memory graph. Keys: + and \u2212 zoom, 0 fits all, "
    + "f full screen, Esc clears the selection.");
  frame.appendChild(container);
  parentElement.appendChild(frame);

  const theme = themeColors(container);
  const state = {
    frame, container, parentElement, network: null, theme,
    nodes: new vis.DataSet(), edges: new vis.DataSet(),
    nodeCache: new Map(), edgeCache: new Map(), widths: new Map(),
    landmarks: [], annotations: [], fitIds: [], fitLabel: "Fit matches",
    physics: Boolean(options.physics), focusKey: null, fitted: false, maximised: false,
    hideEdgesOnZoom: false, pendingLayout: false, renders: 0, lastData: data,
    plainDrag: false, plainGroups: null,
    moving: 0, pendingMove: null, zoomTarget: 1, zoomAt: 0,
    setStateValue: () => {},
    // for browser tests and benchmarks (performance.now() times)
    stats: {
      draws: 0, annotations: 0, landmarks: 0, firstDrawScale: null, fittedFirst: null,
      firstReceivedAt: performance.now(), firstDrawAt: null, lastDrawAt: null,
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
  const t1 = performance.now();
  state.pendingLayout = added.some((n) => !isPlaced(n));
  const network = new vis.Network(container, { nodes: state.nodes, edges: state.edges },
    networkOptions(theme, state.physics, added.length));
  state.network = network;
  Object.assign(state.stats, { syncMs: t1 - t0, constructMs: performance.now() - t1 });
  state.fitted = added.length > 0 && !state.pendingLayout && !state.physics;

  frame.appendChild(buildToolbar(state));
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
      network.fit();
      state.fitted = true;
    }
  });
  network.on("dragStart", () => plainDragStart(state));
  network.on("dragEnd", () => plainDragEnd(state));
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
    }
    drawLayers(state, ctx);
  });
  container.addEventListener("pointerdown", () => container.focus({ preventScroll: true }));
  frame.addEventListener("keydown", (event) => onKey(state, event)); // canvas and toolbar
  state.onFullscreen = () => {
    updateToolbar(state);
    network.redraw();
  };
  document.addEventListener("fullscreenchange", state.onFullscreen);
  watchTheme(state);

  container.__network = network; // for browser tests (and the console)
  container.__stats = state.stats;
  return state;
}

function isPlaced(raw) {
  return typeof raw.x === "number" && typeof raw.y === "number";
}

// Streamlit passes its theme as CSS variables on an ancestor of the component; a theme
// switch changes that ancestor's class, and the graph re-reads its colours.
function watchTheme(state) {
  const root = state.parentElement.getRootNode();
  const host = root && root.host ? root.host : state.parentElement;
  const targets = [host, host.parentElement, host.parentElement && host.parentElement.parentElement]
    .filter(Boolean);
  state.themeObserver = new MutationObserver(() => {
    const theme = themeColors(state.container);
    if (theme.key !== state.theme.key) render(state, state.lastData);
  });
  for (const el of targets) {
    state.themeObserver.observe(el, { attributes: true, attributeFilter: ["class", "style"] });
  }
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

function applyFocus(state, options) {
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

function applyTheme(state) {
  const theme = themeColors(state.container);
  if (theme.key === state.theme.key) return false;
  state.theme = theme;
  state.widths.clear();
  state.plainGroups = null;
  state.nodeCache.clear(); // every item again, with colours for the new background
  state.edgeCache.clear();
  state.network.setOptions(themeOptions(theme));
  return true;
}

function render(state, data) {
  const options = data.options || {};
  const rawNodes = data.nodes || [];
  const rawEdges = data.edges || [];
  state.lastData = data;
  state.frame.style.height = `${options.height || 640}px`;
  state.annotations = (data.annotations || []).slice().sort((a, b) => b.size - a.size);
  state.fitIds = Array.isArray(options.fit_ids) ? options.fit_ids : [];
  state.fitLabel = typeof options.fit_label === "string" && options.fit_label
    ? options.fit_label : "Fit matches";
  const styles = stylesOf(data);
  state.landmarks = landmarkList(rawNodes, rawEdges, styles.nodes);
  state.plainGroups = null;
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
    if (!state.fitted && !layoutNeeded && rawNodes.length > 0 && !stabilise) {
      state.network.fit();
      state.fitted = true;
      changed = true;
    }
    return applyFocus(state, options) || changed;
  });
  if (stabilise) state.network.stabilize(stabilizationIterations(state.nodes.length));
  state.container.setAttribute("data-node-count", String(state.nodes.length));
  updateToolbar(state);
}

export default async function graphView(component) {
  const { data, parentElement, setStateValue } = component;
  const vis = await VIS_READY;
  let state = NETWORKS.get(parentElement);
  if (state === undefined || !state.frame.isConnected) {
    state = create(vis, parentElement, data || {});
    NETWORKS.set(parentElement, state);
  }
  state.setStateValue = setStateValue;
  state.renders += 1;
  state.container.setAttribute("data-renders", String(state.renders)); // for browser tests
  render(state, data || {});
  // Streamlit keeps only the latest cleanup and runs it on unmount: release the network.
  return () => {
    state.themeObserver.disconnect();
    document.removeEventListener("fullscreenchange", state.onFullscreen);
    state.network.destroy();
    state.frame.remove();
    if (NETWORKS.get(parentElement) === state) NETWORKS.delete(parentElement);
  };
}
