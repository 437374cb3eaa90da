// Payload decoding: the payload is compact, each node and edge carries its own fields (id,
// label, title, position, marks) and `s`, the index of its style (kind, shape, size,
// colours…) in `styles.nodes` / `styles.edges`; here the two are merged back and the
// DataSets are brought in line with a new payload.

import { KIND_LABELS } from "./drawing.js";
import { readable } from "./theme.js";

// what a field that disappeared is reset to (null resets to the default, except here)
const RESET = { opacity: 1, shadow: { enabled: false } };

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

export function toVisNode(theme, raw) {
  const item = Object.assign({}, raw);
  if (typeof raw.title !== "string" || raw.title === "") delete item.title;
  if (raw.kind in KIND_LABELS) item.group = raw.kind;
  if ("color" in raw) item.color = nodeColor(theme, raw.color);
  if (raw.font && typeof raw.font.color === "string") {
    item.font = Object.assign({}, raw.font, { color: readable(theme, raw.font.color, 4.5) });
  }
  return item;
}

export function toVisEdge(theme, raw) {
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
export function sync(dataset, rawItems, styles, cache, recreate, convert) {
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

export function stylesOf(data) {
  const styles = data.styles || {};
  return {
    nodes: Array.isArray(styles.nodes) ? styles.nodes : [],
    edges: Array.isArray(styles.edges) ? styles.edges : [],
  };
}

export function isPlaced(raw) {
  return typeof raw.x === "number" && typeof raw.y === "number";
}
