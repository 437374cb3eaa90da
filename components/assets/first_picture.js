// Memscope's first picture (components/first_picture.py inlines this into the page "/"):
// paint the server's first view on a canvas where the graph will appear, before the app
// has booted, and fade it out once the live graph has drawn its first frame.
//
// The picture's data is the JSON of memscope/view/picture.py in the script element
// #ms-first-picture-data. Text from the data is only ever drawn on the canvas (fillText),
// never turned into markup. The canvas takes no pointer events and goes away at the first
// click, key, wheel or resize, when the page goes elsewhere, when the app shows an error,
// when the app is idle without a graph, and after 20 s in any case.
(() => {
  "use strict";
  const canvas = document.getElementById("ms-first-picture");
  const source = document.getElementById("ms-first-picture-data");
  if (!canvas || !source) return;
  let P;
  try {
    P = JSON.parse(source.textContent || "");
  } catch (err) {
    canvas.remove();
    return;
  }
  const KEY = "memscope.firstPicture";
  const GRAPH = "[data-testid='memscope-graph']";
  const SPARE = 1.06; // selection.js FIT_SPARE: a fit leaves 6% around the map
  const GAP = 8; // selection.js GAP: px kept between the map and a panel
  // the graph's canvas: the window below its top less 14 px, less its frame's 1 px border
  const WINDOW = { margin: 15, min: 418 };
  // where Streamlit puts the graph on a first visit (see components/first_picture.py)
  const LAYOUT = P.layout || { sidebar: 300, wide: 768, left: 25, right: 25, top: 209 };
  const LEGEND = P.legend || { left: 8, top: 8, w: 229, max: 250, row: 49.5, h: 360 };
  const SLOT = P.slot || ".st-key-graph"; // the graph's element, before it has mounted
  const LIFE_MS = 20000;
  if (window.innerWidth < LAYOUT.wide) { // a narrow window: where the graph goes is unmeasured
    canvas.remove();
    return;
  }
  const where = location.pathname + location.search;
  const started = performance.now();
  const state = {
    version: P.v, first: null, last: null, painted: 0, done: false, doneAt: null,
    reason: null, exact: false, paintedAt: null, shownAt: null, guess: null,
  };
  window.__msFirstPicture = state; // for browser tests and benchmarks

  function load() {
    try {
      return JSON.parse(localStorage.getItem(KEY) || "null");
    } catch (err) {
      return null;
    }
  }
  function save(value) {
    try {
      localStorage.setItem(KEY, JSON.stringify(value));
    } catch (err) { /* private mode: the next visit guesses again */ }
  }

  // The theme Streamlit will show: the configured base, else the one chosen in its
  // Settings (kept in localStorage under Streamlit's key), else the system's.
  function chosenTheme() {
    try {
      const kept = JSON.parse(
        localStorage.getItem(`stActiveTheme-${window.location.pathname}-v2`) || "null");
      const name = String((kept && kept.name) || "").toLowerCase();
      if (name.includes("dark")) return "dark";
      if (name.includes("light")) return "light";
    } catch (err) { /* none kept */ }
    return null;
  }
  const chosen = P.theme || chosenTheme();
  const dark = chosen === "dark" || (chosen !== "light" && window.matchMedia
    && window.matchMedia("(prefers-color-scheme: dark)").matches);
  const INK = dark ? "rgba(250,250,250,0.92)" : "rgba(49,51,63,0.92)";
  const HALO = dark ? "rgba(14,17,23,0.85)" : "rgba(255,255,255,0.85)";
  const EDGE = dark ? "rgba(160,166,180,0.35)" : "rgba(120,124,136,0.35)";

  // The graph's rectangle on a first visit: the main column right of the sidebar, from
  // below the search bar and the summary line down to the window's bottom.
  function guessRect() {
    const W = window.innerWidth;
    const H = window.innerHeight;
    const left = LAYOUT.sidebar + LAYOUT.left; // a wide window: the sidebar is open
    const w = Math.max(100, W - left - LAYOUT.right);
    const h = Math.max(WINDOW.min, H - LAYOUT.top - WINDOW.margin);
    return { left, top: LAYOUT.top, w, h };
  }

  // The legend's width: its widest colour row (label and count in 12 px Source Sans,
  // measured here: exact once the page's font has loaded), at most LEGEND.max.
  function legendWidth() {
    const rows = P.g || [];
    const ctx = rows.length ? document.createElement("canvas").getContext("2d") : null;
    if (!ctx) return LEGEND.w;
    ctx.font = '12px "Source Sans", sans-serif';
    let widest = 0;
    for (const [label, count] of rows) {
      const text = Number(count).toLocaleString("en-US");
      widest = Math.max(widest, ctx.measureText(String(label)).width
        + ctx.measureText(text).width);
    }
    return Math.min(LEGEND.max, widest + LEGEND.row);
  }

  // The free area a fit uses (selection.js freeAreas/bestArea): right of the legend, or
  // below it, whichever draws the map larger.
  function fitAreas(rect) {
    const right = LEGEND.left + legendWidth() + GAP;
    const below = LEGEND.top + Math.min(LEGEND.h, rect.h - 2 * LEGEND.top) + GAP;
    const out = [];
    if (rect.w - right > 40) out.push({ left: right, top: 0, w: rect.w - right, h: rect.h });
    if (rect.h - below > 40) out.push({ left: 0, top: below, w: rect.w, h: rect.h - below });
    return out.length ? out : [{ left: 0, top: 0, w: rect.w, h: rect.h }];
  }

  function scaleIn(area) {
    const [x0, y0, x1, y1] = P.b;
    return Math.max(0.01, Math.min(1, area.w / (SPARE * Math.max(x1 - x0, 1)),
      area.h / (SPARE * Math.max(y1 - y0, 1))));
  }

  // The view: screen x = rect.left + ox + x * scale (and the same for y).
  function fitted(rect, areas) {
    let best = null;
    for (const area of areas) {
      const scale = scaleIn(area);
      if (best === null || scale > best.scale) best = { scale, area };
    }
    const [x0, y0, x1, y1] = P.b;
    const { scale, area } = best;
    return { ...rect, scale, ox: area.left + area.w / 2 - ((x0 + x1) / 2) * scale,
      oy: area.top + area.h / 2 - ((y0 + y1) / 2) * scale };
  }

  // The first view: the last live graph's own view when it drew this very picture in a
  // window of this size, else a fit into its rectangle, else into the guessed one.
  function firstView() {
    const kept = load();
    const sameWindow = kept && kept.W === window.innerWidth && kept.H === window.innerHeight;
    if (sameWindow && kept.v === P.v && Number.isFinite(kept.scale)) {
      state.exact = true;
      return { ...kept.rect, scale: kept.scale, ox: kept.ox, oy: kept.oy };
    }
    const rect = sameWindow && kept.rect ? kept.rect : guessRect();
    const areas = sameWindow && kept.area ? [kept.area] : fitAreas(rect);
    return fitted(rect, areas);
  }

  function hexagon(ctx, x, y, r) {
    ctx.moveTo(x + r, y);
    for (let i = 1; i < 6; i += 1) {
      const a = (Math.PI / 3) * i;
      ctx.lineTo(x + r * Math.cos(a), y + r * Math.sin(a));
    }
    ctx.closePath();
  }

  // `live`: the live graph's own view (its first frame comes next), not a guess
  function paint(view, live = false) {
    const dpr = window.devicePixelRatio || 1;
    canvas.style.left = `${view.left}px`;
    canvas.style.top = `${view.top}px`;
    canvas.style.width = `${view.w}px`;
    canvas.style.height = `${view.h}px`;
    canvas.width = Math.round(view.w * dpr);
    canvas.height = Math.round(view.h * dpr);
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(dpr * view.scale, 0, 0, dpr * view.scale, dpr * view.ox, dpr * view.oy);
    const n = P.n;
    const s = view.scale;
    ctx.lineWidth = 1 / s;
    ctx.strokeStyle = EDGE;
    ctx.beginPath();
    for (let i = 0; i < P.e.length; i += 2) {
      const a = P.e[i] * 5;
      const b = P.e[i + 1] * 5;
      ctx.moveTo(n[a], n[a + 1]);
      ctx.lineTo(n[b], n[b + 1]);
    }
    ctx.stroke();
    for (let i = 0; i < n.length; i += 5) {
      const [x, y, r, shape, c] = [n[i], n[i + 1], n[i + 2], n[i + 3], n[i + 4]];
      const [fill, border] = P.c[c] || ["#9E9E9E", "#616161"];
      ctx.beginPath();
      if (shape === 1) ctx.rect(x - 60, y - 17, 120, 34);
      else if (shape === 2) hexagon(ctx, x, y, r);
      else ctx.arc(x, y, r, 0, 2 * Math.PI);
      ctx.fillStyle = fill;
      ctx.fill();
      ctx.lineWidth = Math.max(1, 1.5 / s);
      ctx.strokeStyle = border;
      ctx.stroke();
    }
    // cluster names as drawing.js sizes them: between 13 and 28 px, whole in the canvas
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineJoin = "round";
    for (const [x, y, size, text] of P.t) {
      const ax = view.ox + x * s;
      const ay = view.oy + y * s;
      if (ax < 0 || ay < 0 || ax > view.w || ay > view.h) continue;
      const px = Math.min(28, Math.max(13, size * s));
      ctx.font = `600 ${px.toFixed(1)}px "Source Sans", "Source Sans Pro", sans-serif`;
      const half = ctx.measureText(String(text)).width / 2 + 4;
      const cx = Math.min(Math.max(ax, half + 4), view.w - half - 4);
      ctx.lineWidth = 3;
      ctx.strokeStyle = HALO;
      ctx.strokeText(String(text), cx, ay);
      ctx.fillStyle = INK;
      ctx.fillText(String(text), cx, ay);
    }
    state.painted += 1;
    state.last = view;
    if (!live) state.guess = view;
    if (state.first === null) {
      state.first = view;
      state.paintedAt = performance.now();
      requestAnimationFrame(() => { state.shownAt = performance.now(); }); // on screen
      canvas.setAttribute("data-painted", "true");
    }
  }

  function finish(reason) {
    if (state.done) return;
    state.done = true;
    state.doneAt = performance.now();
    state.reason = reason;
    for (const name of ["pointerdown", "wheel", "keydown", "resize"]) {
      window.removeEventListener(name, stop, true);
    }
    if (dark) document.documentElement.style.background = "";
    canvas.style.transition = "opacity 160ms ease-out";
    canvas.style.opacity = "0";
    setTimeout(() => canvas.remove(), reason === "drawn" ? 200 : 0);
  }
  function stop() {
    finish("interaction");
  }

  // The live graph's container, in the page or in a component's shadow root.
  function liveGraph() {
    const here = document.querySelector(GRAPH);
    if (here) return here;
    for (const host of document.querySelectorAll(
      "[data-testid='stBidiComponentIsolated'], [data-testid='stBidiComponent'] *")) {
      if (host.shadowRoot) {
        const inside = host.shadowRoot.querySelector(GRAPH);
        if (inside) return inside;
      }
    }
    return null;
  }

  // The live graph's view and rectangle, kept for the next visit in a window this size:
  // its network's, or before the network is built, the view its first frame was painted
  // at (firstframe.js), which the network then takes.
  function liveView(el) {
    const net = el.__network;
    const painted = el.__firstView;
    let at = null;
    if (net && typeof net.canvasToDOM === "function") {
      const o = net.canvasToDOM({ x: 0, y: 0 });
      at = { scale: net.getScale(), ox: o.x, oy: o.y };
    } else if (painted && Number.isFinite(painted.scale)) {
      at = { scale: painted.scale, ox: painted.ox, oy: painted.oy };
    }
    if (at === null) return null;
    const box = el.getBoundingClientRect();
    if (box.width < 10 || box.height < 10) return null;
    const view = { left: box.left, top: box.top, w: box.width, h: box.height, ...at };
    const area = el.__stats && el.__stats.fitArea;
    save({ W: window.innerWidth, H: window.innerHeight, v: P.v, rect:
      { left: box.left, top: box.top, w: box.width, h: box.height },
    area: area ? { left: area.left, top: area.top, w: area.w, h: area.h } : null,
    scale: view.scale, ox: view.ox, oy: view.oy });
    return view;
  }

  function same(a, b) {
    return a && b && ["left", "top", "w", "h", "scale", "ox", "oy"]
      .every((k) => Math.abs(a[k] - b[k]) < 1e-6);
  }

  let idleFrames = 0;
  function tick() {
    if (state.done) return;
    if (performance.now() - started > LIFE_MS) return finish("timeout");
    if (location.pathname + location.search !== where) return finish("navigated");
    if (document.querySelector("[data-testid='stException']")) return finish("error");
    const el = liveGraph();
    if (el) {
      idleFrames = 0;
      const view = liveView(el);
      if (el.getAttribute("data-drawn") === "true"
          || el.getAttribute("data-painted") === "true") { // its first frame is on screen
        if (view && !same(view, state.last)) paint(view, true);
        return finish("drawn");
      }
      // the live graph is built but not drawn yet: its first frame comes next, at its view
      if (view && !same(view, state.last)) paint(view, true);
    } else if (!document.querySelector(SLOT) && document.querySelector(
      "[data-testid='stApp'][data-test-script-state='notRunning']")) {
      idleFrames += 1; // the app is idle and has no graph coming: not the first view
      if (idleFrames > 90) return finish("no graph");
    }
    requestAnimationFrame(tick);
  }

  for (const name of ["pointerdown", "wheel", "keydown", "resize"]) {
    window.addEventListener(name, stop, true);
  }
  if (dark) document.documentElement.style.background = "#0e1117";
  const initial = firstView();
  paint(initial);
  // the legend was measured in a stand-in font: once the page's font (preloaded by
  // Streamlit's page) is there, measured and fitted again, unless the live graph has come
  const FONT = '12px "Source Sans"';
  if (!state.exact && P.g && P.g.length && document.fonts && !document.fonts.check(FONT)) {
    document.fonts.load(FONT).then(() => {
      if (!state.done && state.last === initial) paint(firstView());
    }, () => {});
  }
  requestAnimationFrame(tick);
})();
