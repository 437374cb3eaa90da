// Memscope graph view: vis-network inside a Streamlit Custom Component v2.
//
// The vendored vis-network UMD build (vendor/) is the JS of a sibling element that
// graph_view/__init__.py mounts just before this one; it defines globalThis.vis, which
// this module waits for. Nothing is fetched from the network. Text from the data never
// becomes markup: labels are drawn on the canvas as text, and tooltips are DOM elements
// filled with textContent.
//
// Streamlit calls the default export again, with the same parentElement, whenever `data`
// changes (and does not call the previous cleanup first), so there is one vis.Network per
// parentElement, kept in a WeakMap and updated in place through its DataSets.

const NETWORKS = new WeakMap();
const VIS_TIMEOUT_MS = 30000;
const MAX_STABILIZATION = 200;
const PHYSICS_KEEP_RUNNING_MAX = 1000; // bigger graphs stop simulating after stabilising
// what a field that disappeared is reset to (null resets to the default, except here)
const RESET = { opacity: 1, shadow: { enabled: false } };

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

function tooltip(text) {
  const el = document.createElement("div");
  el.className = "ms-tip";
  el.textContent = text;
  return el;
}

function toVisItem(raw) {
  const item = Object.assign({}, raw);
  if (typeof raw.title === "string" && raw.title !== "") item.title = tooltip(raw.title);
  else delete item.title;
  return item;
}

// Bring a DataSet in line with `rawItems`: add new ids, update changed ones, remove ids
// that are gone. A field that disappeared is set to null, which resets it on a node; an
// edge keeps a null title (and would show an empty tooltip), so with `recreate` an item
// that lost a field is removed and added afresh. Returns the raw items that were added.
function sync(dataset, rawItems, cache, recreate) {
  const seen = new Set();
  const changed = [];
  const added = [];
  const stale = [];
  for (const raw of rawItems) {
    seen.add(raw.id);
    const json = JSON.stringify(raw);
    const prev = cache.get(raw.id);
    if (prev !== undefined && prev.json === json) continue;
    const item = toVisItem(raw);
    if (prev !== undefined) {
      const vanished = prev.keys.filter((key) => !(key in raw));
      if (recreate && vanished.length > 0) stale.push(raw.id);
      else for (const key of vanished) item[key] = key in RESET ? RESET[key] : null;
    } else {
      added.push(raw);
    }
    cache.set(raw.id, { json, keys: Object.keys(raw) });
    changed.push(item);
  }
  const gone = [];
  for (const id of cache.keys()) if (!seen.has(id)) gone.push(id);
  for (const id of gone) cache.delete(id);
  if (gone.length || stale.length) dataset.remove(gone.concat(stale));
  if (changed.length) dataset.update(changed);
  return added;
}

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

function themeColors(el) {
  const css = getComputedStyle(el);
  const text = css.getPropertyValue("--st-text-color").trim() || "#31333F";
  const background = css.getPropertyValue("--st-background-color").trim() || "#FFFFFF";
  const font = css.getPropertyValue("--st-font").trim() || "sans-serif";
  return { text, background, font };
}

function networkOptions(colors, n, physics) {
  return {
    autoResize: true,
    width: "100%",
    height: "100%",
    nodes: {
      borderWidth: 1,
      font: {
        color: colors.text, size: 12, face: colors.font,
        strokeWidth: 3, strokeColor: colors.background,
      },
    },
    edges: {
      smooth: false,
      selectionWidth: 1.5,
      hoverWidth: 0.5,
      arrows: { to: { scaleFactor: 0.6 } },
      font: {
        color: colors.text, size: 10, face: colors.font, align: "middle",
        strokeWidth: 3, strokeColor: colors.background,
      },
    },
    physics: physicsOptions(physics, n),
    interaction: {
      hover: true,
      tooltipDelay: 150,
      hideEdgesOnDrag: true,
      hideEdgesOnZoom: n > 3000,
      keyboard: false,
      multiselect: false,
      navigationButtons: false,
    },
    layout: { improvedLayout: false, randomSeed: 7 },
  };
}

function button(text, title, onClick) {
  const el = document.createElement("button");
  el.type = "button";
  el.textContent = text;
  el.title = title;
  el.addEventListener("click", onClick);
  return el;
}

function create(vis, parentElement) {
  const frame = document.createElement("div");
  frame.className = "ms-graph";
  const container = document.createElement("div");
  container.className = "ms-graph-canvas";
  container.setAttribute("data-testid", "memscope-graph");
  frame.appendChild(container);
  parentElement.appendChild(frame);

  const nodes = new vis.DataSet();
  const edges = new vis.DataSet();
  const network = new vis.Network(container, { nodes, edges },
    networkOptions(themeColors(container), 0, false));
  const state = {
    frame, container, nodes, edges, network,
    nodeCache: new Map(), edgeCache: new Map(),
    physics: false, focusKey: null, fitted: false, renders: 0, setStateValue: null,
  };

  const toolbar = document.createElement("div");
  toolbar.className = "ms-graph-toolbar";
  toolbar.appendChild(button("Fit", "Show the whole graph", () => {
    network.fit({ animation: { duration: 300, easingFunction: "easeInOutQuad" } });
  }));
  frame.appendChild(toolbar);

  network.on("click", (params) => {
    if (params.nodes.length > 0) {
      state.setStateValue("selected", String(params.nodes[0]));
    } else if (params.edges.length === 0) {
      state.setStateValue("selected", null);
    }
  });
  network.on("stabilizationIterationsDone", () => {
    const n = state.nodes.length;
    if (!state.physics || n > PHYSICS_KEEP_RUNNING_MAX) {
      network.setOptions({ physics: { enabled: false } });
    }
    if (!state.fitted) {
      network.fit();
      state.fitted = true;
    }
  });
  network.once("afterDrawing", () => {
    container.setAttribute("data-drawn", "true");
  });

  container.__network = network;
  return state;
}

// Physics is bounded: a run is a stabilisation of at most MAX_STABILIZATION iterations
// (fewer for big graphs), after which it stops unless physics is on and the graph small.
// Nodes added without x/y get such a run even with physics off.
function applyPhysics(state, wanted, layoutNeeded) {
  const n = state.nodes.length;
  const changed = wanted !== state.physics;
  state.physics = wanted;
  if ((wanted && changed) || layoutNeeded) {
    state.network.setOptions({ physics: physicsOptions(true, n) });
    state.network.stabilize(stabilizationIterations(n));
  } else if (changed) {
    state.network.setOptions({ physics: { enabled: false } });
  }
}

function applyFocus(state, options) {
  const id = options.focus;
  if (id === null || id === undefined) return;
  const key = JSON.stringify([id, options.focus_rev || 0]);
  if (key === state.focusKey) return;
  state.focusKey = key;
  if (state.nodes.get(id) === null) return;
  state.network.selectNodes([id]);
  state.network.focus(id, {
    scale: Math.max(state.network.getScale(), 1.0),
    animation: { duration: 400, easingFunction: "easeInOutQuad" },
  });
  state.setStateValue("selected", id); // mirror what is shown, so a later click counts
}

function render(state, data) {
  const options = data.options || {};
  const rawNodes = data.nodes || [];
  state.frame.style.height = `${options.height || 640}px`;
  const added = sync(state.nodes, rawNodes, state.nodeCache, false);
  sync(state.edges, data.edges || [], state.edgeCache, true);
  // setOptions redraws the whole canvas: call it only when the value changes
  const hideEdges = state.nodes.length > 3000;
  if (hideEdges !== state.hideEdgesOnZoom) {
    state.hideEdgesOnZoom = hideEdges;
    state.network.setOptions({ interaction: { hideEdgesOnZoom: hideEdges } });
  }
  state.container.setAttribute("data-node-count", String(state.nodes.length));
  const layoutNeeded = added.some((n) => typeof n.x !== "number" || typeof n.y !== "number");
  applyPhysics(state, Boolean(options.physics), layoutNeeded);
  if (!state.fitted && !layoutNeeded && rawNodes.length > 0) {
    state.network.fit();
    state.fitted = true;
  }
  applyFocus(state, options);
}

export default async function graphView(component) {
  const { data, parentElement, setStateValue } = component;
  const vis = await VIS_READY;
  let state = NETWORKS.get(parentElement);
  if (state === undefined || !state.frame.isConnected) {
    state = create(vis, parentElement);
    NETWORKS.set(parentElement, state);
  }
  state.setStateValue = setStateValue;
  state.renders += 1;
  state.container.setAttribute("data-renders", String(state.renders)); // for browser tests
  render(state, data || {});
  // Streamlit keeps only the latest cleanup and runs it on unmount: release the network.
  return () => {
    state.network.destroy();
    state.frame.remove();
    if (NETWORKS.get(parentElement) === state) NETWORKS.delete(parentElement);
  };
}
