// The graph component's inline JS: the one piece Streamlit sends in the element (a few kB).
// It loads the component's files — vis-network, the ES modules and the stylesheet in
// components/graph_view/frontend/assets/, which Streamlit serves — and hands the call on
// to the entry module's default export.
//
// `FILES` is prepended by components/graph_view/files.py:
//   { base: "/_stcore/bidi-components/<served name>/", entry: "graph_view.js",
//     library: "vis-network.min.js", css: "graph_view.css",
//     versions: { "<file>": "<hash of its content>", ... } }
//
// Streamlit serves those files with `Cache-Control: public` and no max-age, ETag or
// Last-Modified, so a browser may keep them but must fetch them again before each use: a
// plain <script src> or import would download every file again in every new session. Each
// URL here names its content (`?v=<hash>`), so a cached copy is right however old it is:
// - the ES modules and the stylesheet are fetched with `cache: "force-cache"` (from the
//   browser's HTTP cache when it has them, from the server otherwise) and linked by hand:
//   each `from "./x.js"` becomes the URL of x's source as a blob.
// - vis-network (the 470 kB library) runs as a classic script, which defines
//   globalThis.vis. Behind serve.py (`FILES.immutable`: components/graph_view/caching.py)
//   its URL is answered `max-age=31536000, immutable`, so it runs from that URL: a later
//   session takes it from the HTTP cache without asking, and Chromium runs it from V8's
//   code cache (a script run from a blob: URL never gets one), so it is fetched and
//   compiled once per browser. Chromium keeps a script's compiled code only from its
//   second run, so once per browser and version (a mark in localStorage), a few seconds
//   after the first graph is drawn and when the page is idle, the library runs a second
//   time in a hidden, empty frame of this page (`prime`): the next session already runs
//   it from the code cache. Otherwise it is fetched like the modules and run as a blob.
// Behind serve.py every page's HTML carries this file too, as a module that starts the
// load as soon as the page has parsed (preload.py): the graph's element, when it comes,
// finds that load in the page (`LOADS`, by the files' versions) and waits for it instead
// of starting its own; a load that failed is started again.
// Everything comes from the page's own server; nothing is fetched from anywhere else.

const IMPORT = /^(import\s[^;]*?\sfrom\s+)"\.\/([\w.-]+\.js)";/gm;

async function fetchText(name) {
  const url = fileUrl(name);
  let response = await fetch(url, { cache: "force-cache" });
  // a failure kept in the cache (a server that did not serve the files then) is not reused
  if (!response.ok) response = await fetch(url, { cache: "reload" });
  if (!response.ok) {
    throw new Error(`The graph's file ${name} did not load (HTTP ${response.status}); `
      + "is the memscope-graph-frontend package installed (make install)?");
  }
  return response.text();
}

function blobUrl(source) {
  return URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
}

function fileUrl(name) {
  return `${FILES.base}${name}?v=${FILES.versions[name]}`;
}

// vis-network as a classic script from `src` (see the top of this file)
function runLibrary(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`The graph's file ${FILES.library} did not load; `
      + "is the memscope-graph-frontend package installed (make install)?"));
    document.head.appendChild(script);
  });
}

// The entry module's URL, each module's imports pointing at its dependencies' URLs.
function link(sources) {
  const urls = new Map();
  const visit = (name, path) => {
    if (urls.has(name)) return urls.get(name);
    if (path.includes(name)) throw new Error(`import cycle: ${path.concat(name).join(" → ")}`);
    if (!(name in sources)) throw new Error(`the graph has no module ${name}`);
    const code = sources[name].replace(IMPORT,
      (_, head, dep) => `${head}"${visit(dep, path.concat(name))}";`);
    const url = blobUrl(code);
    urls.set(name, url);
    return url;
  };
  return visit(FILES.entry, []);
}

async function load() {
  const defined = () => Boolean(globalThis.vis && globalThis.vis.Network);
  const ready = defined(); // run already (a load before this one, in this page)
  const direct = Boolean(FILES.immutable) && !ready;
  const names = Object.keys(FILES.versions)
    .filter((name) => name !== FILES.library || (!ready && !direct));
  const library = direct ? runLibrary(fileUrl(FILES.library)) : null;
  library?.catch(() => {}); // awaited below; a module's failure may be reported first
  const texts = await Promise.all(names.map(fetchText));
  const sources = Object.fromEntries(names.map((name, i) => [name, texts[i]]));
  if (library) {
    await library;
  } else if (!defined()) {
    // without its source-map comment: the map is not shipped
    const code = sources[FILES.library].replace(/\n\/\/# sourceMappingURL=\S*\s*$/, "\n");
    await runLibrary(blobUrl(code));
  }
  const entry = await import(link(sources));
  return { graphView: entry.default, css: sources[FILES.css] };
}

// One load per page and version of the files, shared by every graph on it and by the
// page's own early run (preload.py), with when it started and ended (copied into the
// graph's `__stats` for benchmarks). Each copy of this file is a module of its own (the
// element's, the page's), so the loads are kept on the page, by the files' versions.
const LOADS = (globalThis.__memscopeGraphLoads ??= {});
const LOAD_KEY = JSON.stringify([FILES.base, FILES.versions]);

function loadOnce() {
  let loading = LOADS[LOAD_KEY];
  if (loading === undefined) {
    const marks = { loadStartAt: performance.now(), loadedAt: null };
    loading = load().then((loaded) => {
      marks.loadedAt = performance.now();
      return loaded;
    }).catch((error) => {
      if (LOADS[LOAD_KEY] === loading) delete LOADS[LOAD_KEY]; // the next call tries again
      throw error;
    });
    loading.marks = marks;
    LOADS[LOAD_KEY] = loading;
  }
  return loading;
}

let primed = false; // once per page: see `prime`

// The library's second run, in a hidden frame with nothing but that script, so Chromium
// keeps its compiled code for the next session (see the top of this file).
function prime() {
  const mark = "memscope-graph-code-cache";
  const version = FILES.versions[FILES.library];
  try {
    if (primed || !FILES.immutable || localStorage.getItem(mark) === version) return;
  } catch {
    return; // no storage here: no mark to keep, so no second run either
  }
  primed = true;
  const run = () => {
    const frame = document.createElement("iframe");
    frame.hidden = true;
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    const script = frame.ownerDocument.createElement("script");
    script.src = new URL(fileUrl(FILES.library), document.baseURI).href;
    frame.srcdoc = `<!doctype html>${script.outerHTML}`;
    frame.onload = () => {
      frame.remove();
      try { localStorage.setItem(mark, version); } catch { /* the next page tries again */ }
    };
    document.body.appendChild(frame);
  };
  const idle = globalThis.requestIdleCallback || ((fn) => setTimeout(fn, 0));
  setTimeout(() => idle(run, { timeout: 5_000 }), 1_000);
}

function showFailure(root, error) {
  let box = root.querySelector("[data-memscope-graph-error]");
  if (!box) {
    box = document.createElement("div");
    box.setAttribute("data-memscope-graph-error", "");
    box.setAttribute("role", "alert");
    box.style.cssText = "padding: 1rem; border: 1px solid rgba(128, 128, 128, 0.3); "
      + "border-radius: 0.5rem; font-family: var(--st-font, sans-serif); "
      + "color: var(--st-text-color, #31333f);";
    root.appendChild(box);
  }
  box.textContent = error instanceof Error ? error.message : String(error);
}

// Called for the graph (with its data) and, just before, for an element without data
// that only starts the load, so the files load while the graph's data is on its way.
export default async function graphViewLoader(component) {
  const calledAt = performance.now();
  const pending = loadOnce();
  if (component.data === null || component.data === undefined) {
    pending.catch(() => {}); // the graph's own call reports a failure
    return undefined;
  }
  const root = component.parentElement; // the component's shadow root
  let loaded;
  try {
    loaded = await pending;
  } catch (error) {
    showFailure(root, error); // one sentence in place of the graph (the next data retries)
    return undefined;
  }
  const { graphView, css } = loaded;
  for (const old of root.querySelectorAll("[data-memscope-graph-error]")) old.remove();
  if (!root.querySelector("style[data-memscope-graph]")) {
    const style = document.createElement("style");
    style.setAttribute("data-memscope-graph", "");
    style.textContent = css;
    root.prepend(style);
  }
  const cleanup = graphView(component);
  const stats = root.querySelector("[data-testid='memscope-graph']")?.__stats;
  if (stats && stats.calledAt === undefined) Object.assign(stats, pending.marks, { calledAt });
  prime();
  return cleanup;
}
