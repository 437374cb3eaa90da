// The minimap: once the view is zoomed in past MINIMAP_RATIO times the scale that fits the
// whole graph, a small overview in the canvas's bottom-left corner shows every drawn node
// and a "you are here" rectangle; a click on it centres the view there (same zoom).
//
// Cheap at 50,000 nodes: a data change costs one pass for the bounds (the zoom test); the
// overview (every node a 1–2 px dot in its fill) is drawn into an offscreen canvas once
// per data change, when it is first shown; a frame only copies it and draws the rectangle.

import { boundsOf, fitScaleOf } from "./selection.js";

export const MINIMAP_RATIO = 2;
const W = 180;
const H = 120;
const PAD = 6;

export function buildMinimap(state, onJump) {
  const el = document.createElement("canvas");
  el.className = "ms-minimap";
  el.setAttribute("data-testid", "memscope-minimap");
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "Overview of the whole graph; click to move the view there");
  el.title = "Overview: click to move the view there";
  el.hidden = true;
  el.addEventListener("pointerdown", (event) => event.stopPropagation());
  el.addEventListener("wheel", (event) => event.stopPropagation(), { passive: true });
  el.addEventListener("click", (event) => {
    event.stopPropagation();
    const map = state.minimap;
    if (!map.frame) return;
    const box = el.getBoundingClientRect();
    const mx = event.clientX - box.left;
    const my = event.clientY - box.top;
    const f = map.frame;
    onJump({ x: f.minX + (mx - f.ox) / f.k, y: f.minY + (my - f.oy) / f.k });
  });
  state.minimap = { el, dirty: true, stale: true, overview: null, frame: null, bounds: null,
    shown: false };
  return el;
}

export function markMinimapDirty(state) {
  if (state.minimap) state.minimap.dirty = true;
}

// After a data change: the bounds at once (one pass, for the zoom test), the overview
// when it is next shown.
function refresh(state) {
  const map = state.minimap;
  map.dirty = false;
  map.bounds = boundsOf(state.network.body, state.network.body.nodeIndices);
  map.stale = true;
}

function paint(state) {
  const t0 = performance.now();
  const map = state.minimap;
  map.stale = false;
  const b = map.bounds;
  if (!b) {
    map.frame = null;
    map.overview = null;
    return;
  }
  const spanX = Math.max(b.maxX - b.minX, 1);
  const spanY = Math.max(b.maxY - b.minY, 1);
  const k = Math.min((W - 2 * PAD) / spanX, (H - 2 * PAD) / spanY);
  const ox = (W - spanX * k) / 2;
  const oy = (H - spanY * k) / 2;
  map.frame = { minX: b.minX, minY: b.minY, spanX, spanY, k, ox, oy };
  const ratio = Math.max(1, Math.round(globalThis.devicePixelRatio || 1));
  const off = map.overview || document.createElement("canvas");
  off.width = W * ratio;
  off.height = H * ratio;
  const ctx = off.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, W, H);
  const byFill = new Map();
  const body = state.network.body;
  for (const id of body.nodeIndices) {
    const n = body.nodes[id];
    if (!n) continue;
    const fill = (n.options.color && n.options.color.background) || "#97C2FC";
    let list = byFill.get(fill);
    if (!list) byFill.set(fill, (list = []));
    list.push(n);
  }
  for (const [fill, nodes] of byFill) {
    ctx.fillStyle = fill;
    for (const n of nodes) {
      const r = Math.max(0.75, Math.min(3, (n.options.size || 10) * k));
      ctx.fillRect(ox + (n.x - b.minX) * k - r, oy + (n.y - b.minY) * k - r, 2 * r, 2 * r);
    }
  }
  map.overview = off;
  state.stats.minimapBuildMs = performance.now() - t0; // for benchmarks
  state.stats.minimapBuilds = (state.stats.minimapBuilds || 0) + 1;
}

// The scale "Fit all" shows (selection.js, fitView), from the bounds kept with the overview.
export function fitScale(state) {
  const map = state.minimap;
  if (map.dirty) refresh(state);
  return map.bounds ? fitScaleOf(state, map.bounds).scale : null;
}

// Called after every frame: show or hide the minimap, and draw it when shown.
export function drawMinimap(state) {
  const map = state.minimap;
  if (!map) return;
  const fit = fitScale(state);
  const zoom = fit ? state.network.getScale() / fit : 0;
  if (zoom > MINIMAP_RATIO && map.stale) paint(state);
  const show = zoom > MINIMAP_RATIO && map.overview !== null;
  if (show !== map.shown) {
    map.shown = show;
    map.el.hidden = !show;
    state.frame.classList.toggle("ms-mini-on", show);
  }
  state.stats.minimapZoom = zoom;
  if (!show) return;
  const t0 = performance.now();
  const el = map.el;
  const ratio = Math.max(1, Math.round(globalThis.devicePixelRatio || 1));
  if (el.width !== W * ratio) {
    el.width = W * ratio;
    el.height = H * ratio;
  }
  const ctx = el.getContext("2d");
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, el.width, el.height);
  ctx.drawImage(map.overview, 0, 0);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  const net = state.network;
  const a = net.DOMtoCanvas({ x: 0, y: 0 });
  const b = net.DOMtoCanvas({ x: state.container.clientWidth, y: state.container.clientHeight });
  const f = map.frame;
  const x0 = f.ox + (a.x - f.minX) * f.k;
  const y0 = f.oy + (a.y - f.minY) * f.k;
  const x1 = f.ox + (b.x - f.minX) * f.k;
  const y1 = f.oy + (b.y - f.minY) * f.k;
  // at least 4 px, so "you are here" stays visible at any zoom
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const rw = Math.max(4, x1 - x0);
  const rh = Math.max(4, y1 - y0);
  ctx.fillStyle = state.theme.dark ? "rgba(255,255,255,0.12)" : "rgba(0,0,0,0.08)";
  ctx.fillRect(cx - rw / 2, cy - rh / 2, rw, rh);
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = state.theme.primary || "#ff4b4b";
  ctx.strokeRect(cx - rw / 2, cy - rh / 2, rw, rh);
  state.stats.minimapRect = { x: cx - rw / 2, y: cy - rh / 2, w: rw, h: rh };
  state.stats.minimapDrawMs = performance.now() - t0; // for benchmarks
}
