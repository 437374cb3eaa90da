// The legend panel over the graph's top-left corner: one line per colour group, node
// shape, state and edge kind (swatch, name, count), collapsible; a click on a line brings
// what it names forward and fades the rest, a second click (or "Clear") brings everything
// back.
//
// Self-contained (no imports, no globals): the graph component imports it, and the
// offline HTML export (memscope/export/html.py) inlines the same file, so both draw the
// same panel and fade by the same rule. The input is the view's `legend`
// (memscope.view.build.Legend) as the server made it — in presenter mode its names are
// already masked. Every text from the data is set with textContent or as a title
// attribute, never as markup; swatches are drawn on small canvases from the legend's
// own styles (colours checked against a strict pattern).
//
// A pick is a highlight like every other (issue 32 item 3): what the line names stays as
// drawn and everything else fades to FADE of its opacity — the share the server's painter
// gives what a highlight leaves out (memscope.view.paint.FADE: search, Ask, a forget
// preview, recall buckets, a comparison) — nothing hidden, so the picked items stand out
// where they sit in the map. The fade happens here, in the browser, when vis-network
// draws (`fadeOthers`: a flag per drawn item, the opacity multiplied as it is drawn): it
// is instant at 50,000 nodes (no round trip, no payload sent again, no option parsed), it
// composes with whatever look an item has (a server highlight, a playback's day), it
// works the same in the offline export, and the server's view, its counts and every
// other section stay those of the whole view.
//
// While the history plays (playback.js), `setDay(counts, label)` shows the counts of the
// day shown instead of the legend's: each line's number is what that day had, a line with
// none that day is dimmed at 0, and a line with none today but some that day (a state
// the memories have since left) is listed; `setDay(null)` is today's legend again. A
// line counts nodes drawn on the map (relations for an edge kind) while the playback's
// status line counts memories, so the panel says so: "Nodes and relations drawn on
// <day>" over the lines, and each line's tooltip names its unit (`unitOf`).

export const LEGEND_CSS = `
.ms-legend {
  position: absolute; top: 8px; left: 8px; z-index: 4; box-sizing: border-box;
  width: max-content; max-width: min(250px, calc(100% - 16px));
  max-height: min(calc(100% - 16px), max(55%, 260px));
  display: flex; flex-direction: column; overflow: hidden;
  border: 1px solid rgba(128, 128, 128, 0.4); border-radius: 6px;
  background: color-mix(in srgb, var(--st-background-color, #ffffff) 90%, transparent);
  color: var(--st-text-color, #31333f); font-family: inherit;
  font-size: 12px; line-height: 1.3; box-shadow: 0 1px 4px rgba(0, 0, 0, 0.15);
}
.ms-mini-on .ms-legend { max-height: min(calc(100% - 160px), max(55%, 260px)); }
.ms-legend-head { display: flex; align-items: center; gap: 4px; padding: 3px 4px; flex: none; }
.ms-legend button {
  font: inherit; color: inherit; background: none; border: 1px solid transparent;
  border-radius: 4px; cursor: pointer; text-align: left;
}
.ms-legend button:hover, .ms-legend button:focus-visible {
  border-color: var(--st-primary-color, #ff4b4b); outline: none;
}
.ms-legend-toggle { font-weight: 600; padding: 2px 6px; flex: 1 1 auto; }
.ms-legend-all { padding: 2px 6px; flex: none; white-space: nowrap;
  background: var(--st-secondary-background-color, #f0f2f6) !important; }
.ms-legend-all[hidden], .ms-legend-body[hidden], .ms-legend-status[hidden] { display: none; }
.ms-legend-status { padding: 0 8px 4px; font-size: 11px; opacity: 0.85; flex: none; }
.ms-legend-body { overflow-y: auto; overflow-x: hidden; padding: 0 4px 4px; min-height: 0; }
.ms-legend-title { display: block; width: 100%; font-size: 11px; font-weight: 600;
  padding: 3px 4px 1px; opacity: 0.8; }
.ms-legend-lines[hidden] { display: none; }
.ms-legend-line { display: flex; align-items: center; gap: 6px; width: 100%;
  padding: 0 4px; box-sizing: border-box; min-height: 18px; }
.ms-legend-line[aria-pressed="true"] {
  background: var(--st-secondary-background-color, #f0f2f6);
  border-color: var(--st-primary-color, #ff4b4b);
}
.ms-legend-dim .ms-legend-line[aria-pressed="false"] { opacity: 0.5; }
.ms-legend-swatch { flex: none; width: 18px; height: 14px; }
.ms-legend-name { flex: 1 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap; }
.ms-legend-count { flex: none; padding-left: 6px; font-variant-numeric: tabular-nums;
  white-space: nowrap; opacity: 0.85; }
.ms-legend-line.ms-legend-none { opacity: 0.45; }
.ms-legend-day { padding: 0 8px 3px; font-size: 11px; opacity: 0.85; flex: none; }
.ms-legend-day[hidden] { display: none; }
`;

const COLOR = /^(#[0-9A-Fa-f]{3,8}|rgba?\(\s*[\d.]+\s*(,\s*[\d.]+\s*){2,3}\))$/;
const TITLES = { group: "Colour", shape: "Shapes", state: "States", edge: "Relations" };
const COLOR_BY = { cluster: "cluster", space: "space", document_type: "document type" };
const NEUTRAL_FILL = "#9E9E9E";

function color(value, fallback) {
  return typeof value === "string" && COLOR.test(value.trim()) ? value.trim() : fallback;
}

function number(value, fallback, lo, hi) {
  return typeof value === "number" && Number.isFinite(value)
    ? Math.min(hi, Math.max(lo, value)) : fallback;
}

// The lines drawn: those with a count, today's or (during a playback) the day's, and
// during a playback the picked one.
function counted(lines, day, picked) {
  const out = [];
  for (const line of lines) {
    if (!line || typeof line.count !== "number") continue;
    const then = day && day.has(line.id) ? day.get(line.id) : null;
    if (line.count <= 0 && !(then > 0) && !(day && line.id === picked)) continue;
    out.push(then === null ? line : Object.assign({}, line, { count: then, today: line.count }));
  }
  return out;
}

// The legend's sections and lines, in the order drawn: [{section, title, lines}], each
// line {id, section, key, label, count, swatch} (and `today`, the legend's own count,
// when `day` — a Map of line id to that day's count — gave `count`). Lines with nothing
// drawn are left out, but for `picked` during a playback.
export function legendSections(legend, day = null, picked = null) {
  if (!legend || typeof legend !== "object") return [];
  const out = [];
  const groups = (Array.isArray(legend.colors) ? legend.colors : []).map((c) => ({
    id: `group:${c.key}`, section: "group", key: String(c.key), label: String(c.label),
    count: c.count, swatch: { shape: "dot", background: c.color, border: c.border },
  }));
  if (legend.other && typeof legend.other.count === "number") {
    const o = legend.other;
    groups.push({ id: "group:\u0000other", section: "group", key: "\u0000other",
      label: String(o.label), count: o.count,
      swatch: { shape: "dot", background: o.color, border: o.border } });
  }
  const by = COLOR_BY[legend.color_by] || legend.color_by;
  out.push({ section: "group", title: by ? `${TITLES.group}: ${by}` : TITLES.group,
    lines: counted(groups, day, picked) });
  const styled = (section, list, swatch) => ({
    section, title: TITLES[section],
    lines: counted((Array.isArray(list) ? list : []).filter((e) => e).map((e) => ({
      id: `${section}:${e.key}`, section, key: String(e.key), label: String(e.label),
      count: e.count, swatch: swatch(e.style || {}) })), day, picked),
  });
  out.push(styled("shape", legend.shapes, (s) => s));
  out.push(styled("state", legend.state_styles, (s) => Object.assign({ shape: "dot" }, s)));
  out.push(styled("edge", legend.edge_styles, (s) => Object.assign({ edge: true }, s)));
  return out.filter((s) => s.lines.length > 0);
}

// What a line's number counts, in words: nodes drawn on the map (documents, memories,
// entities, a hexagon's members), or relations (edges) for an edge kind — never memories
// alone, which is what the playback's status line counts.
export function unitOf(line) {
  const one = line.count === 1;
  if (line.section === "edge") return one ? "relation" : "relations";
  return one ? "node" : "nodes";
}

export function findLine(sections, id) {
  for (const s of sections) for (const line of s.lines) if (line.id === id) return line;
  return null;
}

// What a line names: {node, edge}, each a predicate over a drawn item (its style merged
// in), or null for "every one"; pickedItems turns it into the items a pick brings
// forward (a node line's edges between two of its nodes, an edge line's end nodes).
export function lineFilter(line, legend) {
  if (!line) return { node: null, edge: null };
  if (line.section === "edge") return { node: null, edge: (e) => e.kind === line.key };
  if (line.section === "shape") return { node: (n) => n.kind === line.key, edge: null };
  if (line.section === "state") {
    if (line.key === "static" || line.key === "inferred") {
      return { node: (n) => Boolean(n[line.key]), edge: null };
    }
    return { node: (n) => n.state === line.key, edge: null };
  }
  if (line.key === "\u0000other") {
    const listed = new Set((legend && legend.colors || []).map((c) => String(c.key)));
    return { node: (n) => !listed.has(n.color_group || ""), edge: null };
  }
  return { node: (n) => (n.color_group || "") === line.key, edge: null };
}

// -- the fade --------------------------------------------------------------------------

// What a highlight leaves out is drawn at this share of its opacity
// (memscope.view.paint.FADE; tests/test_legend_fade_browser.py holds the two equal).
export const FADE = 0.25;

// The items a picked line brings forward, {nodes, edges} (sets of ids), or null when
// nothing is picked: a node line's nodes and the edges between two of them; an edge
// line's edges and the nodes at their ends. `nodes` and `edges` are the DataSets (or
// anything with forEach over items with the payload's fields).
export function pickedItems(filter, nodes, edges) {
  if (!filter || (filter.node === null && filter.edge === null)) return null;
  const keptNodes = new Set();
  const keptEdges = new Set();
  if (filter.node !== null) {
    nodes.forEach((n) => { if (filter.node(n)) keptNodes.add(String(n.id)); });
    edges.forEach((e) => {
      if (keptNodes.has(String(e.from)) && keptNodes.has(String(e.to))) keptEdges.add(String(e.id));
    });
  } else {
    edges.forEach((e) => {
      if (!filter.edge(e)) return;
      keptEdges.add(String(e.id));
      keptNodes.add(String(e.from));
      keptNodes.add(String(e.to));
    });
  }
  return { nodes: keptNodes, edges: keptEdges };
}

// vis-network's node, edge and label classes draw a faded item (`__msFade`) at FADE of
// its opacity: a node's fill, border and glow through its own `opacity` option (as the
// server's faded nodes are drawn), an edge through its colour's opacity, a label
// (a node's or an edge's) with the canvas's alpha. Patched once per class, found from an
// item of `items` (vis-network's body.nodes or body.edges).
function patchFade(items) {
  let item = null;
  for (const id in items) {
    item = items[id];
    break;
  }
  if (!item) return;
  const proto = Object.getPrototypeOf(item);
  if (proto && !proto.__msFade && typeof proto.getFormattingValues === "function") {
    const values = proto.getFormattingValues;
    const isEdge = "fromId" in item;
    proto.getFormattingValues = function fadedValues(...args) {
      if (!this.__msFade) return values.apply(this, args);
      if (isEdge) {
        const out = values.apply(this, args);
        out.opacity = (typeof out.opacity === "number" ? out.opacity : 1) * FADE;
        return out;
      }
      const own = this.options.opacity;
      this.options.opacity = (typeof own === "number" ? own : 1) * FADE;
      try {
        return values.apply(this, args);
      } finally {
        this.options.opacity = own;
      }
    };
    proto.__msFade = true;
  }
  const label = item.labelModule && Object.getPrototypeOf(item.labelModule);
  if (label && !label.__msFade && typeof label.draw === "function") {
    const draw = label.draw;
    label.draw = function fadedDraw(ctx, ...args) {
      if (!this.__msFade || !ctx) return draw.call(this, ctx, ...args);
      const alpha = ctx.globalAlpha;
      ctx.globalAlpha = alpha * FADE;
      try {
        return draw.call(this, ctx, ...args);
      } finally {
        ctx.globalAlpha = alpha;
      }
    };
    label.__msFade = true;
  }
}

// Fade on `network` (a vis.Network) every drawn node and edge `picked` (pickedItems)
// leaves out, and none when it is null; their options, the DataSets and what is hidden
// stay as they are. Returns how many items changed (the caller asks for a frame).
export function fadeOthers(network, picked) {
  const body = network.body;
  patchFade(body.nodes);
  patchFade(body.edges);
  let changed = 0;
  const mark = (item, fade) => {
    if (Boolean(item.__msFade) === fade) return;
    item.__msFade = fade;
    if (item.labelModule) item.labelModule.__msFade = fade;
    changed += 1;
  };
  for (const id in body.nodes) mark(body.nodes[id], picked !== null && !picked.nodes.has(id));
  for (const id in body.edges) mark(body.edges[id], picked !== null && !picked.edges.has(id));
  return changed;
}

// A node shape's path around (x, y) at radius r (a box as a square), begun afresh; the
// legend's swatches and the painted first frame (firstframe.js) draw with it.
export function shapePath(ctx, shape, x, y, r) {
  ctx.beginPath();
  if (shape === "square" || shape === "box") {
    ctx.rect(x - r, y - r, 2 * r, 2 * r);
  } else if (shape === "diamond") {
    ctx.moveTo(x, y - r); ctx.lineTo(x + r, y); ctx.lineTo(x, y + r); ctx.lineTo(x - r, y);
    ctx.closePath();
  } else if (shape === "hexagon") {
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 3) * i;
      if (i === 0) ctx.moveTo(x + r * Math.cos(a), y + r * Math.sin(a));
      else ctx.lineTo(x + r * Math.cos(a), y + r * Math.sin(a));
    }
    ctx.closePath();
  } else {
    ctx.arc(x, y, r, 0, 2 * Math.PI);
  }
}

// One swatch: a node shape (fill, border, width, dashes, opacity, glow) or an edge (line,
// width, dashes, arrow), from the legend's style; `colorOf(c, min)` adapts a colour to
// the theme (the graph's own readable() in the app).
export function drawSwatch(canvas, swatch, colorOf, ink) {
  const ratio = Math.max(1, Math.round(globalThis.devicePixelRatio || 1));
  const w = 18;
  const h = 14;
  canvas.width = w * ratio;
  canvas.height = h * ratio;
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, w, h);
  if (swatch.edge) {
    const c = swatch.color && typeof swatch.color === "object" ? swatch.color.color
      : swatch.color;
    const stroke = colorOf(color(c, "#777777"), 2.4);
    ctx.strokeStyle = stroke;
    ctx.fillStyle = stroke;
    ctx.lineWidth = number(swatch.width, 1.5, 0.5, 4);
    const dashes = Array.isArray(swatch.dashes) ? swatch.dashes.map((d) => number(d, 2, 1, 8))
      : [];
    ctx.setLineDash(dashes);
    ctx.beginPath();
    ctx.moveTo(1, h / 2);
    ctx.lineTo(swatch.arrows ? w - 6 : w - 1, h / 2);
    ctx.stroke();
    if (swatch.arrows) {
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.moveTo(w - 1, h / 2); ctx.lineTo(w - 7, h / 2 - 4); ctx.lineTo(w - 7, h / 2 + 4);
      ctx.closePath();
      ctx.fill();
    }
    return;
  }
  const x = w / 2;
  const y = h / 2;
  const r = 5;
  const shadow = swatch.shadow;
  if (shadow && typeof shadow === "object" && shadow.enabled) {
    ctx.beginPath();
    ctx.arc(x, y, r + 1.5, 0, 2 * Math.PI);
    ctx.strokeStyle = color(shadow.color, "#0072B2");
    ctx.lineWidth = 2;
    ctx.stroke();
  }
  ctx.globalAlpha = number(swatch.opacity, 1, 0.1, 1);
  shapePath(ctx, swatch.shape, x, y, r);
  ctx.fillStyle = colorOf(color(swatch.background, NEUTRAL_FILL), 2.0);
  ctx.fill();
  ctx.lineWidth = Math.min(number(swatch.borderWidth, 1.2, 0.5, 6), 3);
  ctx.setLineDash(Array.isArray(swatch.borderDashes)
    ? swatch.borderDashes.map((d) => number(d, 2, 1, 8) / 2) : []);
  ctx.strokeStyle = colorOf(color(swatch.border, ink), 2.4);
  ctx.stroke();
  ctx.globalAlpha = 1;
}

// The panel: `buildLegend(doc, onPick)` returns {element, update(legend, picked, colorOf,
// ink)}; `onPick(id | null)` is called on a click (null: show all).
export function buildLegend(doc, onPick) {
  const el = doc.createElement("div");
  el.className = "ms-legend";
  el.setAttribute("role", "region");
  el.setAttribute("aria-label", "Legend");
  el.setAttribute("data-testid", "memscope-legend");
  const head = doc.createElement("div");
  head.className = "ms-legend-head";
  const toggle = doc.createElement("button");
  toggle.type = "button";
  toggle.className = "ms-legend-toggle";
  toggle.setAttribute("aria-expanded", "true");
  toggle.dataset.action = "legend-toggle";
  const all = doc.createElement("button");
  all.type = "button";
  all.className = "ms-legend-all";
  all.textContent = "Clear";
  all.title = "Bring every node and edge back to full strength";
  all.dataset.action = "legend-all";
  all.hidden = true;
  head.append(toggle, all);
  const status = doc.createElement("div");
  status.className = "ms-legend-status";
  status.hidden = true;
  const body = doc.createElement("div");
  body.className = "ms-legend-body";
  const note = doc.createElement("div"); // the day the counts are of, during a playback
  note.className = "ms-legend-day";
  note.hidden = true;
  el.append(head, note, status, body);
  // which sections show their lines (the colours at first; a click on a title toggles)
  // `touched`: the person opened or closed it (the graph then never does)
  // `day`: during a playback, {counts, label} of the day shown (setDay); `args`: the last
  // update's, to draw the panel again with the day's lines
  const panel = { element: el, open: true, picked: null, sections: [], touched: false,
    shown: new Set(["group"]), day: null, args: null };
  const setOpen = (open) => {
    panel.open = open;
    body.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = `${open ? "\u25BE" : "\u25B8"} Legend`;
    toggle.title = open ? "Collapse the legend" : "Expand the legend";
  };
  setOpen(true);
  panel.setOpen = setOpen;
  for (const node of [toggle, all, body]) {
    // the canvas below must not take these clicks (no deselection, no drag)
    node.addEventListener("pointerdown", (event) => event.stopPropagation());
  }
  toggle.addEventListener("click", (event) => {
    event.stopPropagation();
    panel.touched = true;
    setOpen(!panel.open);
  });
  all.addEventListener("click", (event) => {
    event.stopPropagation();
    onPick(null);
  });
  body.addEventListener("click", (event) => {
    const title = event.target.closest && event.target.closest(".ms-legend-title");
    if (title) {
      event.stopPropagation();
      const section = title.dataset.toggles;
      const open = !panel.shown.has(section);
      if (open) panel.shown.add(section);
      else panel.shown.delete(section);
      setSection(title, open);
      return;
    }
    const button = event.target.closest && event.target.closest(".ms-legend-line");
    if (!button) return;
    event.stopPropagation();
    const id = button.dataset.line;
    onPick(panel.picked === id ? null : id);
  });
  el.addEventListener("wheel", (event) => event.stopPropagation(), { passive: true });
  const setSection = (title, open) => {
    const lines = title.nextElementSibling;
    if (lines) lines.hidden = !open;
    title.setAttribute("aria-expanded", String(open));
    title.textContent = `${open ? "\u25BE" : "\u25B8"} ${title.dataset.title}`
      + (open ? "" : ` (${title.dataset.lines})`);
  };

  panel.update = (legend, picked, colorOf, ink) => {
    panel.args = [legend, picked, colorOf, ink];
    const day = panel.day;
    const sections = legendSections(legend, day && day.counts, picked);
    panel.sections = sections;
    const line = picked ? findLine(sections, picked) : null;
    // the keyboard's place survives the lines drawn again: the focused line keeps the
    // focus, and "Clear" (hidden once nothing is picked) hands it to the line it cleared
    const active = doc.activeElement;
    const before = panel.picked;
    const focused = active && body.contains(active) && active.dataset.line ? active.dataset.line
      : active === all && line === null ? before : null;
    const scroll = body.scrollTop;
    panel.picked = line ? line.id : null;
    el.hidden = sections.length === 0;
    el.classList.toggle("ms-legend-dim", line !== null);
    all.hidden = line === null;
    status.hidden = line === null;
    status.textContent = line === null ? "" : `Highlighting ${line.label}; the rest is `
      + "faded. Click it again or \u201CClear\u201D to bring everything back.";
    body.textContent = "";
    showDay();
    for (const s of sections) {
      // the picked line's section stays open
      if (line !== null && line.section === s.section) panel.shown.add(s.section);
      const title = doc.createElement("button");
      title.type = "button";
      title.className = "ms-legend-title";
      title.dataset.toggles = s.section;
      title.dataset.title = s.title;
      title.dataset.lines = String(s.lines.length);
      title.dataset.action = `legend-section-${s.section}`;
      const lines = doc.createElement("div");
      lines.className = "ms-legend-lines";
      body.append(title, lines);
      setSection(title, panel.shown.has(s.section));
      for (const item of s.lines) {
        const button = doc.createElement("button");
        button.type = "button";
        button.className = "ms-legend-line";
        button.dataset.line = item.id;
        button.dataset.section = item.section;
        button.setAttribute("aria-pressed", String(item.id === panel.picked));
        const swatch = doc.createElement("canvas");
        swatch.className = "ms-legend-swatch";
        drawSwatch(swatch, item.swatch, colorOf, ink);
        const name = doc.createElement("span");
        name.className = "ms-legend-name";
        name.textContent = item.label;
        const number_ = doc.createElement("span");
        number_.className = "ms-legend-count";
        button.append(swatch, name, number_);
        showCount(button, item);
        lines.appendChild(button);
      }
    }
    body.scrollTop = scroll;
    const buttons = [...body.querySelectorAll(".ms-legend-line")];
    const pressed = line === null || line.id === before ? null
      : buttons.find((b) => b.dataset.line === line.id);
    if (pressed) { // a new pick: its line whole in the panel's list
      const box = body.getBoundingClientRect();
      const r = pressed.getBoundingClientRect();
      if (r.bottom > box.bottom) body.scrollTop += r.bottom - box.bottom + 2;
      else if (r.top < box.top) body.scrollTop -= box.top - r.top + 2;
    }
    const again = focused ? buttons.find((b) => b.dataset.line === focused) : null;
    if (again) again.focus({ preventScroll: true });
    return line;
  };

  const showDay = () => {
    const day = panel.day;
    el.dataset.day = day ? day.label : "";
    note.hidden = day === null;
    note.textContent = day ? `Nodes and relations drawn on ${day.label}` : "";
  };

  // A line's number, its tooltip, and whether it is dimmed (none on the day shown).
  const showCount = (button, item) => {
    const count = item.count.toLocaleString("en-US");
    const day = panel.day;
    button.querySelector(".ms-legend-count").textContent = count;
    button.classList.toggle("ms-legend-none", day !== null && item.count === 0);
    button.title = `${item.label}: ${count} ${unitOf(item)}${day ? ` on ${day.label}` : ""}`
      + `. Click to highlight ${item.count === 1 ? "it" : "them"} (the rest fades).`;
  };

  // The counts of the day shown during a playback (a Map of line id to count, and the
  // day's label), or null: the legend's own (today's). Numbers change in place; the
  // panel is drawn again only when the lines listed change.
  panel.setDay = (counts, label) => {
    const day = counts ? { counts, label: String(label) } : null;
    if (day === null && panel.day === null) return;
    panel.day = day;
    if (!panel.args) return;
    const [legend, picked] = panel.args;
    const sections = legendSections(legend, counts, picked);
    const buttons = [...body.querySelectorAll(".ms-legend-line")];
    const ids = sections.flatMap((s) => s.lines.map((l) => l.id));
    if (ids.length !== buttons.length
        || ids.some((id, i) => buttons[i].dataset.line !== id)) {
      panel.update(...panel.args);
      // a picked line with none today (a state of the past) is let go: everything shows
      if (picked && panel.picked === null) onPick(null);
      return;
    }
    panel.sections = sections;
    showDay();
    let i = 0;
    for (const s of sections) for (const item of s.lines) showCount(buttons[i++], item);
  };
  return panel;
}
