// Payload decoding: Streamlit hands the payload over as bytes (a Uint8Array of UTF-8
// JSON, see components/graph_view/message.py), decoded here once per new message. The
// payload is compact, each node and edge carries its own fields (id, label, title,
// position, marks) and `s`, the index of its style (kind, shape, size, colours…) in
// `styles.nodes` / `styles.edges`; here the two are merged back and the DataSets are
// brought in line with a new payload.

import { KIND_LABELS } from "./drawing.js";
import { readable, withAlpha } from "./theme.js";

// what a field that disappeared is reset to (null resets to the default, except here)
const RESET = { opacity: 1, shadow: { enabled: false } };
// a node a highlight leaves out (`faded`, memscope.view.paint.faded) has its label at this
// share of its opacity too (vis-network's node opacity leaves the label alone)
const FADE = 0.25;

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
  if (raw.faded) {
    const ink = item.font && typeof item.font.color === "string" ? item.font.color : theme.text;
    item.font = Object.assign({}, item.font, { color: withAlpha(ink, FADE) });
  }
  return item;
}

export function toVisEdge(theme, raw) {
  const item = Object.assign({}, raw);
  if (typeof raw.title !== "string" || raw.title === "") delete item.title;
  if ("color" in raw) item.color = edgeColor(theme, raw.color);
  if (item.color && typeof item.color === "object" && item.color.opacity === undefined) {
    item.color = Object.assign({}, item.color, { opacity: 1 }); // a fade undone
  }
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
    const keys = Object.keys(full);
    for (const key of Object.keys(item)) if (!(key in full)) keys.push(key); // e.g. a faded font
    cache.set(raw.id, { row: raw, n: Object.keys(raw).length, styleKey, keys });
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

// -- the message ------------------------------------------------------------------------

const DECODER = new TextDecoder("utf-8");

// `data` as a Uint8Array when it is bytes (a Uint8Array, another typed array or an
// ArrayBuffer), else null (a plain object, as before, or nothing).
export function asBytes(data) {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) {
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  return null;
}

// The payload object the bytes hold (JSON text is parsed, never turned into markup), or
// null when they are not a JSON object.
export function decodePayload(bytes) {
  let value;
  try {
    value = JSON.parse(DECODER.decode(bytes));
  } catch (error) {
    console.warn("memscope graph: the message is not JSON", error);
    return null;
  }
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : null;
}

// Whether two messages hold the same bytes. From the end: what changes most (the options,
// annotations, legend) comes after the nodes and edges. Word by word when both are aligned.
export function sameBytes(a, b) {
  if (a === b) return true;
  if (!a || !b || a.byteLength !== b.byteLength) return false;
  let end = a.byteLength;
  if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
    const words = end >> 2;
    for (let i = end - 1; i >= words << 2; i -= 1) if (a[i] !== b[i]) return false;
    const wa = new Uint32Array(a.buffer, a.byteOffset, words);
    const wb = new Uint32Array(b.buffer, b.byteOffset, words);
    for (let i = words - 1; i >= 0; i -= 1) if (wa[i] !== wb[i]) return false;
    return true;
  }
  while (end > 0) {
    end -= 1;
    if (a[end] !== b[end]) return false;
  }
  return true;
}
