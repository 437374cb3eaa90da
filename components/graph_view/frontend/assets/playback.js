// The memory's history played back (memscope/view/timeline.py makes the payload): a bar
// under the graph with play/pause, speed, a step by day or week and a slider. At each step
// the nodes that did not exist yet are hidden (their edges follow: vis-network draws no
// edge to a hidden node), each memory is drawn as it stood that day, and what changed in
// the step wears the change marks (added, updated, forgotten). Nothing moves: positions
// stay, physics stays off. After the last step it rests on the view as drawn (today).
//
// A step costs one pass over the timeline's rows; only the nodes whose look changed are
// updated, and only those whose presence changed are shown or hidden. Both go to
// vis-network's drawn items (`setOptions`, `options.hidden`, as the legend's pick does)
// rather than through its DataSet: a DataSet update runs vis-network's whole-graph
// passes (`_dataUpdated`: about 250 ms at 6,000 nodes, measured with bench/browser.py
// --playback), while these cost the changed nodes and one rebuild of the drawn indices.
// The DataSet keeps the payload's items: a later payload that changes a node resets its
// look, and the step is applied again after every payload (`applyTimeline`). Text from
// the data is never shown here: dates and counts only, set with textContent.
//
// The legend follows the day shown (issue 32): each legend line's count that day comes
// from a table built once per payload while a day is shown (`legendTable`: per line, a
// running count over the days from difference arrays), so a step only looks numbers up.
// A line counts the drawn nodes (or edges) it names that are there that day — for a
// state, in the state the memory was in (the timeline's `look_states`) — and moves from
// the legend's own count by the drawn ones not there yet, so at the last day of a view
// drawn in full it is exactly what the legend says today.

import { legendSections } from "./legend.js";
import { markMinimapDirty } from "./minimap.js";
import { toVisNode } from "./payload.js";

const SPEEDS = [1, 2, 4];
export const SPAN_MS = 30000; // the whole span at 1x, whatever its length (issue 32)
const STEP_MS_MIN = 16; // one frame: a step is never shorter
const STEP_MS_MAX = 1500; // a short history does not crawl

// One step's time at 1x for a playback of `count` stops (then today): the span in SPAN_MS.
export function stepMs(count) {
  const each = SPAN_MS / Math.max(1, count);
  return Math.min(STEP_MS_MAX, Math.max(STEP_MS_MIN, each));
}
const LOOK_KEYS = ["color", "opacity", "borderWidth", "shapeProperties", "shadow", "font"];
const RESET = { opacity: 1, shadow: { enabled: false } };
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov",
  "Dec"];
const DRAWN = "-1|";

// "12 Mar 2026" for `day` days after the ISO date `start` (as timeline.day_label).
export function dayLabel(start, day) {
  const [y, m, d] = start.split("-").map(Number);
  const at = new Date(Date.UTC(y, m - 1, d + day));
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

// The status line (as timeline.status_line): on the world clock ("true", a played day)
// it names the clock, and a memory no longer latest is one no longer true.
export function statusLine(label, counts, clock) {
  const [n, superseded, forgotten] = counts;
  const world = clock === "true";
  return `${world ? `${label}, what was true` : label} \u00B7 ${n} `
    + `${n === 1 ? "memory" : "memories"} \u00B7 ${superseded} `
    + `${world ? "no longer true" : "superseded"} \u00B7 ${forgotten} forgotten`;
}

// The days a playback stops on (as timeline.steps).
export function stepDays(days, unit) {
  const every = unit === "week" ? 7 : 1;
  const out = [];
  for (let d = 0; d <= days; d += every) out.push(d);
  if (out[out.length - 1] !== days) out.push(days);
  return out;
}

function control(tag, label, action) {
  const el = document.createElement(tag);
  if (tag === "button") el.type = "button";
  el.title = label;
  el.setAttribute("aria-label", label);
  el.dataset.action = action;
  return el;
}

function options(select, items) {
  for (const [value, text] of items) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    select.appendChild(option);
  }
}

// The bar; `commit(change)` runs `change` (DataSet edits; returns whether it made any) and
// the graph's hiding pass (state.absent) in one batch: one frame per step.
export function buildPlayback(state, commit) {
  const el = document.createElement("div");
  el.className = "ms-playback";
  el.setAttribute("data-testid", "memscope-playback");
  el.setAttribute("role", "group");
  el.setAttribute("aria-label", "Play the history");
  el.hidden = true;
  const row = document.createElement("div");
  row.className = "ms-playback-row";
  const back = control("button", "Step back", "playback-back");
  back.textContent = "\u25C0";
  const play = control("button", "Play the history", "playback-play");
  const forward = control("button", "Step forward", "playback-forward");
  forward.textContent = "\u25B6";
  const unit = control("select", "Step by", "playback-unit");
  options(unit, [["day", "Day"], ["week", "Week"]]);
  const speed = control("select", "Speed", "playback-speed");
  options(speed, SPEEDS.map((s) => [String(s), `${s}\u00D7`]));
  const slider = control("input", "Date", "playback-slider");
  slider.type = "range";
  slider.min = "0";
  slider.step = "1";
  row.append(back, play, forward, unit, speed, slider);
  const status = document.createElement("div");
  status.className = "ms-playback-status";
  status.setAttribute("data-testid", "memscope-playback-status");
  status.setAttribute("aria-live", "polite");
  el.append(row, status);
  for (const name of ["pointerdown", "keydown", "click", "dblclick"]) {
    el.addEventListener(name, (event) => event.stopPropagation()); // not the graph's
  }
  el.addEventListener("wheel", (event) => event.stopPropagation(), { passive: true });

  const pb = {
    el, play, slider, status, unit, speed, commit, timeline: null,
    steps: [], pos: 0, playing: false, timer: null, applied: new Map(), rows: [],
    pending: null,
    stats: { steps: 0, applyMs: [], drawMs: [], changed: [] }, // for tests and benchmarks
  };
  state.playback = pb;
  state.stats.playback = pb.stats;
  play.addEventListener("click", () => (pb.playing ? pause(state) : start(state)));
  back.addEventListener("click", () => { pause(state); goTo(state, Math.max(0, pb.pos - 1)); });
  forward.addEventListener("click", () => {
    pause(state);
    goTo(state, Math.min(pb.steps.length, pb.pos + 1));
  });
  slider.addEventListener("input", () => {
    const pos = Number(slider.value); // read first: pause() puts the step shown back
    pause(state);
    goTo(state, pos);
  });
  unit.addEventListener("change", () => setUnit(state, unit.value));
  speed.addEventListener("change", () => {
    showPace(pb);
    if (pb.playing) schedule(state); // the next step at the new speed
  });
  state.network.on("afterDrawing", () => {
    if (pb.pending === null) return;
    pb.stats.drawMs.push(performance.now() - pb.pending);
    pb.pending = null;
  });
  state.overlays.push(el); // labels drawn on the canvas keep clear of it
  showState(state);
  return el;
}

function atToday(pb) {
  return pb.pos >= pb.steps.length;
}

// -- the legend's counts on a day ---------------------------------------------------------

// Per legend line id: {today, run} — how many drawn items it names today, and `run[d]`
// how many of them are there on day d. Built once per payload (and legend, and timeline
// rows: a new timeline over other days — another clock — is shown while the old one is
// paused, so the rows are part of what the table is kept for).
function legendTable(state) {
  const pb = state.playback;
  const tl = pb.timeline;
  const legend = state.legendData;
  if (pb.legendTable && pb.legendTable.legend === legend && pb.legendTable.rows === pb.rows) {
    return pb.legendTable;
  }
  const days = tl.days;
  const end = days + 1; // "never": past the last day
  const lines = new Map();
  const line = (id) => {
    let out = lines.get(id);
    if (!out) {
      out = { today: 0, run: new Int32Array(days + 2) };
      lines.set(id, out);
    }
    return out;
  };
  const add = (id, from, to, today = true) => { // there from day `from` to before day `to`
    const l = line(id);
    if (to >= end && today) l.today += 1;
    if (from >= to) return;
    l.run[from] += 1;
    l.run[to] -= 1;
  };
  const rows = new Map(pb.rows.map((row) => [row[0], row]));
  const lookStates = Array.isArray(tl.look_states) ? tl.look_states : [];
  const listed = new Set((legend && Array.isArray(legend.colors) ? legend.colors : [])
    .map((c) => String(c.key)));
  const first = new Map();
  state.nodes.forEach((n) => {
    const row = rows.get(n.id);
    const from = row ? Math.max(0, Number(row[1])) : 0;
    first.set(n.id, from);
    const group = n.color_group || "";
    add(listed.has(group) ? `group:${group}` : "group:\u0000other", from, end);
    add(`shape:${n.kind}`, from, end);
    if (n.static) add("state:static", from, end);
    if (n.inferred) add("state:inferred", from, end);
    if (!row || row.length <= 4) {
      if (n.state) add(`state:${n.state}`, from, end);
      return;
    }
    // today is the view as drawn (its state now, as the legend's own count), which may
    // differ from the last played day's (a memory no longer "added in the last day")
    if (n.state) line(`state:${n.state}`).today += 1;
    for (let i = 4; i < row.length; i += 2) { // its state from each segment's day on
      const look = row[i + 1];
      const st = look >= 0 ? lookStates[look] : n.state;
      const to = i + 2 < row.length ? Math.min(end, row[i + 2]) : end;
      if (st) add(`state:${st}`, Math.max(from, row[i]), to, false);
    }
  });
  const later = new Map(tl.edges.map(([id, d]) => [id, d]));
  state.edges.forEach((e) => { // an edge is there once both ends and it are
    const from = Math.max(first.get(e.from) ?? 0, first.get(e.to) ?? 0, later.get(e.id) ?? 0);
    add(`edge:${e.kind}`, Math.min(from, end), end);
  });
  for (const l of lines.values()) for (let d = 1; d <= days; d++) l.run[d] += l.run[d - 1];
  const own = new Map();
  for (const s of legendSections(legend)) for (const l of s.lines) own.set(l.id, l.count);
  pb.legendTable = { legend, rows: pb.rows, lines, own };
  return pb.legendTable;
}

// Each legend line's count on `day` (a Map of line id to count): the legend's own count
// less its drawn items not there yet, and, for a line with none today, those there then.
// In an overview (a cluster's hexagon stands for its members, counted in the legend) a
// hexagon not there yet takes one off, not its members: approximate, but 0 when none
// of the line's drawn items is there yet (a hexagon appears with its first member).
function legendOn(state, day) {
  if (!state.legendData) return null;
  const table = legendTable(state);
  const out = new Map();
  for (const [id, l] of table.lines) {
    const then = l.run[day];
    out.set(id, then === 0 ? 0 : Math.max(0, (table.own.get(id) || 0) - l.today + then));
  }
  for (const id of table.own.keys()) if (!out.has(id)) out.set(id, table.own.get(id));
  return out;
}

// One step's time at the speed chosen, on the bar (for browser tests and the console).
function showPace(pb) {
  if (pb.steps) pb.el.dataset.stepMs = String(stepMs(pb.steps.length) / Number(pb.speed.value || 1));
}

function showState(state) {
  const pb = state.playback;
  const tl = pb.timeline;
  showPace(pb);
  pb.play.textContent = pb.playing ? "\u275A\u275A Pause" : "\u25B6 Play";
  pb.play.setAttribute("aria-label", pb.playing ? "Pause" : "Play the history");
  pb.play.title = pb.play.getAttribute("aria-label");
  pb.slider.max = String(pb.steps.length);
  pb.slider.value = String(pb.pos);
  pb.el.dataset.playing = String(pb.playing);
  if (!tl) return;
  const today = atToday(pb);
  const day = today ? null : pb.steps[pb.pos];
  const label = today ? tl.today.label : dayLabel(tl.start, day);
  // the days on the timeline's clock; today is the view as drawn, on the memory's own
  const clock = today ? "believed" : tl.clock;
  pb.status.textContent = statusLine(label, today ? tl.today.counts : tl.counts[day], clock);
  pb.el.dataset.clock = typeof tl.clock === "string" ? tl.clock : "believed";
  if (state.legend && state.legend.setDay) {
    state.legend.setDay(today ? null : legendOn(state, day), label);
  }
  pb.slider.setAttribute("aria-valuetext", label);
  pb.el.dataset.day = today ? "today" : String(day);
  pb.el.dataset.pos = String(pb.pos);
}

// The look item of node `id` (from the payload row, plus its look then and its mark).
function lookItem(state, id, look, mark) {
  const pb = state.playback;
  const raw = pb.raw.get(id);
  const styles = pb.styles;
  const style = raw && typeof raw.s === "number" ? styles[raw.s] : undefined;
  const full = Object.assign({}, style, raw);
  delete full.s;
  if (look >= 0) Object.assign(full, pb.timeline.looks[look]);
  if (mark) Object.assign(full, pb.timeline.marks[mark]);
  const vis = toVisNode(state.theme, full);
  const out = { id };
  for (const key of LOOK_KEYS) {
    const value = vis[key];
    out[key] = value === undefined || value === null ? (key in RESET ? RESET[key] : null) : value;
  }
  return out;
}

// A vis-network object the node reads through to `reference` (as vis-network's own
// bridgeObject: nested objects bridged too), so what is merged into it stays the node's.
function bridge(reference) {
  const out = Object.create(reference);
  for (const key of Object.keys(reference)) {
    const value = reference[key];
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      out[key] = bridge(value);
    }
  }
  return out;
}

// Set a look on drawn node `node`. A field sent as null (reset to the default) makes
// vis-network delete the node's own object, which then reads through to the options every
// node shares; the next look merged into that field would change every node (one
// superseded look dashed every border). The node gets its own bridge to the defaults back.
function setLook(node, item) {
  node.setOptions(item);
  const shared = Object.getPrototypeOf(node.options);
  for (const key of LOOK_KEYS) {
    if (item[key] !== null || Object.prototype.hasOwnProperty.call(node.options, key)) continue;
    const value = shared ? shared[key] : undefined;
    if (value !== null && typeof value === "object") node.options[key] = bridge(value);
  }
}

// Bring every node in line with step `pos` (steps.length: today, the view as drawn).
// `force`: push every look set again (a new payload or theme may have reset some).
function apply(state, pos, force) {
  const t0 = performance.now();
  const pb = state.playback;
  pb.pos = pos;
  const today = atToday(pb);
  const day = today ? Infinity : pb.steps[pos];
  const prev = today || pos === 0 ? -1 : pb.steps[pos - 1];
  const absentNodes = new Set();
  const items = [];
  for (const row of pb.rows) {
    const id = row[0];
    const appear = row[1];
    let key = DRAWN;
    let look = -1;
    let mark = null;
    if (!today) {
      if (appear > day) {
        absentNodes.add(id);
        continue; // its look is set when it appears
      }
      for (let i = 4; i < row.length && row[i] <= day; i += 2) look = row[i + 1];
      const gone = row[3];
      if (gone >= 0 && prev < gone && gone <= day) mark = "forgotten";
      else if (appear >= 0 && prev < appear) mark = row[2] ? "updated" : "added";
      key = `${look}|${mark || ""}`;
    }
    const was = pb.applied.get(id);
    if (was === undefined && key === DRAWN) continue; // as the payload drew it
    if (was === key && !force) continue;
    if (!pb.raw.has(id)) continue;
    items.push(lookItem(state, id, look, mark));
    if (key === DRAWN) pb.applied.delete(id);
    else pb.applied.set(id, key);
  }
  const absentEdges = new Set();
  if (!today) for (const [id, d] of pb.timeline.edges) if (d > day) absentEdges.add(id);
  const was = state.absent || { nodes: new Set(), edges: new Set() };
  const only = { nodes: flipped(was.nodes, absentNodes), edges: flipped(was.edges, absentEdges) };
  state.absent = today ? null : { nodes: absentNodes, edges: absentEdges };
  pb.commit(() => {
    const drawn = state.network.body.nodes;
    for (const item of items) if (drawn[item.id]) setLook(drawn[item.id], item);
    if (items.length) markMinimapDirty(state);
    return items.length > 0;
  }, only);
  pb.stats.steps += 1;
  pb.stats.applyMs.push(performance.now() - t0);
  pb.stats.changed.push(items.length);
  pb.pending = t0; // the next frame draws this step
  showState(state);
}

// The ids in one set and not the other.
function flipped(a, b) {
  const out = [];
  for (const id of a) if (!b.has(id)) out.push(id);
  for (const id of b) if (!a.has(id)) out.push(id);
  return out;
}

function goTo(state, pos) {
  apply(state, pos, false);
}

// The next step one step's time after `since` (the start of this one: the time spent
// applying it counts).
function schedule(state, since = performance.now()) {
  const pb = state.playback;
  clearTimeout(pb.timer);
  const wait = stepMs(pb.steps.length) / Number(pb.speed.value || 1) - (performance.now() - since);
  pb.timer = setTimeout(() => tick(state), Math.max(0, wait));
}

function tick(state) {
  const pb = state.playback;
  if (!pb.playing) return;
  const t0 = performance.now();
  goTo(state, pb.pos + 1);
  if (atToday(pb)) pause(state); // the end: it rests on today
  else schedule(state, t0);
}

function start(state) {
  const pb = state.playback;
  if (!pb.timeline || pb.steps.length === 0) return;
  if (state.physics) state.network.setOptions({ physics: { enabled: false } }); // never move
  pb.playing = true;
  if (atToday(pb)) goTo(state, 0);
  else showState(state);
  schedule(state);
}

function pause(state) {
  const pb = state.playback;
  clearTimeout(pb.timer);
  pb.timer = null;
  pb.playing = false;
  showState(state);
}

function setUnit(state, unit) {
  const pb = state.playback;
  const today = atToday(pb);
  const day = today ? null : pb.steps[pb.pos];
  pb.steps = stepDays(pb.timeline.days, unit);
  let pos = pb.steps.length;
  if (!today) {
    pos = 0;
    while (pos + 1 < pb.steps.length && pb.steps[pos + 1] <= day) pos += 1;
  }
  goTo(state, pos);
}

// A new payload: its timeline (or none). A timeline over the same days keeps its step and
// whether it plays (a click, a search: the looks are pushed again, the payload may have
// reset some); one over other days rests on today; none hides the bar.
export function applyTimeline(state, timeline) {
  const pb = state.playback;
  if (!pb) return;
  const data = state.lastData || {};
  pb.raw = new Map((data.nodes || []).map((raw) => [raw.id, raw]));
  pb.legendTable = null; // the legend's counts on a day: built again for this payload
  pb.styles = (data.styles && Array.isArray(data.styles.nodes)) ? data.styles.nodes : [];
  const valid = timeline && typeof timeline === "object" && Array.isArray(timeline.nodes)
    && Array.isArray(timeline.counts) && Array.isArray(timeline.edges) && timeline.today
    && typeof timeline.start === "string" && typeof timeline.days === "number";
  if (!valid) {
    if (pb.timeline) {
      pause(state);
      apply(state, pb.steps.length, true); // back to the view as drawn
      pb.timeline = null;
      pb.rows = [];
    }
    pb.el.hidden = true;
    state.frame.classList.remove("ms-playback-on");
    if (state.legend && state.legend.setDay) state.legend.setDay(null);
    return;
  }
  const old = pb.timeline;
  const span = old !== null && old.start === timeline.start && old.days === timeline.days;
  if (old !== null && !span) {
    pause(state);
    apply(state, pb.steps.length, true); // the old timeline's looks undone
  }
  pb.timeline = timeline;
  pb.rows = timeline.nodes;
  pb.el.hidden = false;
  state.frame.classList.add("ms-playback-on");
  if (!span) {
    pb.steps = stepDays(timeline.days, pb.unit.value);
    pb.applied = new Map();
    pb.pos = pb.steps.length;
    showState(state);
  } else if (!atToday(pb)) {
    apply(state, pb.pos, true);
  } else {
    showState(state);
  }
}

export function stopPlayback(state) {
  const pb = state.playback;
  if (pb) clearTimeout(pb.timer);
}
