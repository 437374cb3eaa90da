// The first frame, painted from the payload's own positions before vis-network is built
// (issue 33). `new vis.Network` builds every node and sizes every label before it can draw
// (about 170–300 ms at 1,200 nodes on the project's two-core machine, seconds at 20,000),
// while the map's first frame needs only what the payload already holds: each node's
// place, size, shape and colours, and its edges. So a first view that shows the whole map
// is painted here on a canvas over the graph's frame, at the very view the live graph
// then takes (`firstView`: the same fit as selection.js's fitView, over the same free
// area, from boxes the payload gives), and vis-network is built once that frame is on
// screen (graph_view.js); its own first frame replaces the canvas in the same paint.
// Labels, cluster names, the toolbar and the minimap come with it.
//
// Text from the data is never drawn here (no label is), and nothing becomes markup.

import { KIND_LABELS } from "./drawing.js";
import { shapePath } from "./legend.js";
import { fitScaleOf } from "./selection.js";

const CARD_LINE = 14; // px: one line of a document card's title (KIND_LABELS.document.size)
const ARROW = { scale: 0.6, head: [[0, 0], [-1, 0.3], [-0.9, 0], [-1, -0.3]] }; // options.js

// Whether this payload's first view can be painted before the Network exists: every node
// placed, the whole map fitted (no highlight to fit, focus, physics, playback or
// slideshow), and a visible page with a sized frame.
export function paintable(state, data) {
  const options = data.options || {};
  const nodes = data.nodes || [];
  if (nodes.length === 0 || options.physics || data.slideshow || data.timeline) return false;
  if (options.focus !== null && options.focus !== undefined) return false;
  if (Array.isArray(options.fit_ids) && options.fit_ids.length > 0) return false;
  if (document.visibilityState !== "visible") return false;
  if (!state.container.clientWidth || !state.container.clientHeight) return false;
  return nodes.every((n) => typeof n.x === "number" && typeof n.y === "number");
}

// A document card's title as vis-network sets it: wrapped at `width` (whole words while
// they fit; a longer word is a line of its own, never broken), as [lines, widest line].
function cardLines(ctx, text, width) {
  let lines = 1;
  let line = 0;
  let widest = 0;
  const space = ctx.measureText(" ").width;
  for (const word of String(text || "").split(/\s+/).filter(Boolean)) {
    const w = ctx.measureText(word).width;
    if (line > 0 && line + space + w <= width) {
      line += space + w;
    } else {
      if (line > 0) lines += 1;
      line = w;
    }
    widest = Math.max(widest, line);
  }
  return [lines, widest];
}

// Each drawn node's half width and half height (graph units), as selection.js's boundsOf
// reads them off vis-network's nodes: a card's whole box (its title's width, at least its
// widthConstraint, and its lines, with its margin around), any other node its size.
function halfSizes(state, items) {
  const ctx = document.createElement("canvas").getContext("2d");
  const spec = KIND_LABELS.document;
  if (ctx) ctx.font = `${spec.size}px ${state.theme.font}`;
  return items.map((n) => {
    if (n.shape !== "box") return [n.size || 10, n.size || 10];
    const wc = n.widthConstraint || {};
    const margin = Number.isFinite(n.margin) ? n.margin : 5;
    const width = Number.isFinite(wc.maximum) ? wc.maximum : 120;
    const [lines, widest] = ctx ? cardLines(ctx, n.label, width) : [1, width];
    return [Math.max(width, widest) / 2 + margin, (lines * CARD_LINE) / 2 + margin];
  });
}

// The first view: where the whole map (hidden nodes left out) fits the free area, as
// selection.js's fitView fits it, and the same transform as screen x = ox + x * scale.
// Null when nothing is drawn.
function firstView(state, items, halves) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  items.forEach((n, i) => {
    if (n.hidden) return;
    const [hw, hh] = halves[i];
    minX = Math.min(minX, n.x - hw);
    maxX = Math.max(maxX, n.x + hw);
    minY = Math.min(minY, n.y - hh);
    maxY = Math.max(maxY, n.y + hh);
  });
  if (!Number.isFinite(minX)) return null;
  const { scale, area } = fitScaleOf(state, { minX, minY, maxX, maxY }, false);
  const w = state.container.clientWidth;
  const h = state.container.clientHeight;
  const position = { x: (minX + maxX) / 2, y: (minY + maxY) / 2 };
  const cx = area.left + area.w / 2;
  const cy = area.top + area.h / 2;
  return {
    scale, area, w, h, position, offset: { x: cx - w / 2, y: cy - h / 2 },
    ox: cx - position.x * scale, oy: cy - position.y * scale,
  };
}

function colorsOf(color) {
  if (typeof color === "string") return { fill: color, border: color };
  const c = color || {};
  return { fill: c.background || "#97C2FC", border: c.border || "#2B7CE9" };
}

function edgeColorOf(color) {
  if (typeof color === "string") return { ink: color, alpha: 1 };
  const c = color || {};
  return { ink: c.color || "#848484", alpha: Number.isFinite(c.opacity) ? c.opacity : 1 };
}

function drawEdges(ctx, edges, at, scale) {
  for (const e of edges) {
    const a = at.get(String(e.from));
    const b = at.get(String(e.to));
    if (!a || !b || e.hidden) continue;
    const { ink, alpha } = edgeColorOf(e.color);
    const width = Math.max(Number(e.width) || 1, 0.3 / scale);
    ctx.globalAlpha = alpha;
    ctx.strokeStyle = ink;
    ctx.lineWidth = width;
    ctx.setLineDash(Array.isArray(e.dashes) ? e.dashes : []);
    ctx.beginPath();
    ctx.moveTo(a.x, a.y);
    ctx.lineTo(b.x, b.y);
    ctx.stroke();
    const arrow = e.arrows === "to" || (e.arrows && e.arrows.to);
    const dist = Math.hypot(b.x - a.x, b.y - a.y);
    if (!arrow || dist === 0) continue;
    const length = 15 * ARROW.scale + 3 * width;
    const angle = Math.atan2(b.y - a.y, b.x - a.x);
    const reach = dist - (b.size || 10);
    const tip = [a.x + Math.cos(angle) * reach, a.y + Math.sin(angle) * reach];
    ctx.setLineDash([]);
    ctx.fillStyle = ink;
    ctx.beginPath();
    ARROW.head.forEach(([px, py], i) => {
      const x = tip[0] + length * (px * Math.cos(angle) - py * Math.sin(angle));
      const y = tip[1] + length * (px * Math.sin(angle) + py * Math.cos(angle));
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    });
    ctx.closePath();
    ctx.fill();
  }
}

function drawNodes(ctx, items, halves, scale) {
  items.forEach((n, i) => {
    if (n.hidden) return;
    const [hw, hh] = halves[i];
    const { fill, border } = colorsOf(n.color);
    ctx.globalAlpha = Number.isFinite(n.opacity) ? n.opacity : 1;
    if (n.shape === "box") { // a card: its own width and height, rounded as vis draws it
      ctx.beginPath();
      ctx.roundRect(n.x - hw, n.y - hh, 2 * hw, 2 * hh, 6);
    } else {
      shapePath(ctx, n.shape, n.x, n.y, n.size || 10);
    }
    ctx.fillStyle = fill;
    ctx.fill();
    const borderWidth = (Number.isFinite(n.borderWidth) ? n.borderWidth : 1) / scale;
    if (borderWidth <= 0) return;
    const dashes = n.shapeProperties && n.shapeProperties.borderDashes;
    ctx.setLineDash(Array.isArray(dashes) ? dashes : []);
    ctx.lineWidth = Math.min(2 * hw, borderWidth);
    ctx.strokeStyle = border;
    ctx.stroke();
  });
  ctx.globalAlpha = 1;
  ctx.setLineDash([]);
}

// Paint the DataSets' nodes and edges (as vis-network will have them: styles merged,
// colours made readable on the theme) at the first view, on a canvas over the graph's
// frame. Returns the view (for the live graph to take), or null when nothing was painted.
export function paintFirst(state) {
  // vis-network places a node at its position's whole part (parseInt)
  const items = state.nodes.get().map((n) => ({ ...n, x: Math.trunc(n.x), y: Math.trunc(n.y) }));
  const halves = halfSizes(state, items);
  const view = firstView(state, items, halves);
  if (view === null) return null;
  const canvas = document.createElement("canvas");
  canvas.className = "ms-first-frame";
  canvas.setAttribute("aria-hidden", "true");
  const dpr = globalThis.devicePixelRatio || 1;
  canvas.width = Math.round(view.w * dpr);
  canvas.height = Math.round(view.h * dpr);
  canvas.style.width = `${view.w}px`;
  canvas.style.height = `${view.h}px`;
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  ctx.setTransform(dpr * view.scale, 0, 0, dpr * view.scale, dpr * view.ox, dpr * view.oy);
  const at = new Map(items.map((n) => [String(n.id), n]));
  drawEdges(ctx, state.edges.get(), at, view.scale);
  drawNodes(ctx, items, halves, view.scale);
  state.container.after(canvas); // under the legend and the toolbar, over the empty canvas
  state.firstFrame = canvas;
  // the view in the container's pixels, for the page's first picture to hand over to
  // (components/assets/first_picture.js), as the live graph's own view once it is built
  state.container.__firstView = { scale: view.scale, ox: view.ox, oy: view.oy };
  state.stats.fitArea = { ...view.area, scale: view.scale };
  return view;
}

// The live graph has drawn its first frame: the painted one goes, in the same paint.
export function dropFirstFrame(state) {
  if (!state.firstFrame) return;
  state.firstFrame.remove();
  state.firstFrame = null;
}
