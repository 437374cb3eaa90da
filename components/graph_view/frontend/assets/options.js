// vis-network's options: the network as Memscope draws it, the theme's fonts and colours,
// and bounded physics (a stabilisation of at most MAX_STABILIZATION iterations, fewer for
// big graphs).

import { KIND_LABELS } from "./drawing.js";

const MAX_STABILIZATION = 200;

export function stabilizationIterations(n) {
  return Math.max(10, Math.min(MAX_STABILIZATION, Math.floor(50000 / Math.max(n, 1))));
}

export function physicsOptions(enabled, n) {
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

export function themeOptions(theme) {
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

// A selected or hovered node keeps how its state draws it (fill, border colour, dashes,
// opacity): vis-network's default swaps in its highlight colours and doubles the border.
// The selection is a ring drawn around the node instead (drawing.js, drawSelection).
export function keepStateStyle(values, _id, selected, hovering) {
  if (hovering && !selected) values.borderWidth += 1;
}

export function networkOptions(theme, physics, n) {
  const options = themeOptions(theme);
  Object.assign(options.nodes, { borderWidth: 1, chosen: { node: keepStateStyle, label: true } });
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
