"""A self-contained, offline HTML page of a graph view (vis-network inlined).

The page loads nothing: a Content-Security-Policy forbids every fetch, the vendored
vis-network build is inlined, and the view's data rides in a
``<script type="application/json">`` block with ``<``, ``>``, ``&`` written as
``\\u003c``/``\\u003e``/``\\u0026`` and ``/`` as ``\\/`` (all valid JSON escapes), so data
can neither close the block nor spell a URL. The page's own script sets labels and
tooltips as text (``textContent``), never as markup.

No ``http://`` or ``https://`` appears anywhere in the file. The vis-network build
contains a few URLs — in its licence header comment, the SVG namespace string and error
messages — and they are *neutralised*, not stripped: every ``://`` in the library is
written ``:\\/\\/``, which is the same string to JavaScript (``\\/`` is ``/`` in strings
and regular expressions; the header is a comment), so the licence header stays readable.
The library's ``sourceMappingURL`` line is dropped.

The legend is the graph component's own panel: its file (``legend.js``, in the same
``memscope-graph-frontend`` package as vis-network) is inlined with its ``export``
keywords dropped, so the page draws the same lines (swatch, name, count), collapses the
same way and, on a click, fades everything but one line's nodes or edges to a quarter of
its opacity (legend.js's ``fadeOthers``, the app's own fade) and brings the view to them
unless the reader has moved it, as the app does.

Example::

    >>> page = offline_html({"nodes": [{"id": "a", "label": "<b>x</b>", "title": "t"}],
    ...                      "edges": [], "legend": {}}, "Demo")
    >>> "<b>x</b>" in page, "\\\\u003cb\\\\u003ex" in page, "http" + "://" in page
    (False, True, False)
"""

from __future__ import annotations

import functools
import html
import json
import re
from typing import Any

from memscope.view.build import ViewData
from memscope.view.library import asset_file, vis_network_js

LEGEND_FILE = "legend.js"

CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
       "img-src data:; base-uri 'none'; form-action 'none'")

_STYLE = """
body { margin: 0; font-family: system-ui, sans-serif; color: #31333F; background: #fff; }
header { padding: 10px 16px; border-bottom: 1px solid #ddd; }
h1 { font-size: 18px; margin: 0; }
.meta { font-size: 12px; color: #666; }
:root { --st-background-color: #ffffff; --st-secondary-background-color: #f0f2f6;
        --st-text-color: #31333F; --st-primary-color: #ff4b4b; }
main { display: flex; height: calc(100vh - 58px); }
#stage { flex: 1; min-width: 0; position: relative; }
#graph { position: absolute; inset: 0; }
aside { width: 300px; overflow: auto; padding: 10px 14px; border-left: 1px solid #ddd;
        font-size: 13px; }
#detail { white-space: pre-wrap; overflow-wrap: anywhere; background: #f5f4ed;
          padding: 8px; border-radius: 4px; min-height: 3em; }
.vis-tooltip { position: absolute; visibility: hidden; z-index: 5; max-width: 360px;
  padding: 6px 8px; border: 1px solid #aaa; border-radius: 4px; background: #f5f4ed;
  font-size: 12px; pointer-events: none; box-shadow: 0 2px 8px rgba(0,0,0,.2); }
.ms-tip { white-space: pre-wrap; overflow-wrap: anywhere; }
"""

_SCRIPT = """
(function () {
  "use strict";
/*LEGEND*/
  var data = JSON.parse(document.getElementById("memscope-data").textContent);
  function tip(text) {
    var el = document.createElement("div");
    el.className = "ms-tip";
    el.textContent = text;
    return el;
  }
  function item(raw) {
    var out = Object.assign({}, raw);
    if (typeof raw.title === "string" && raw.title !== "") out.title = tip(raw.title);
    else delete out.title;
    return out;
  }
  var nodes = new vis.DataSet(data.nodes.map(item));
  var edges = new vis.DataSet(data.edges.map(item));
  var placed = data.nodes.length > 0 && data.nodes.every(function (n) {
    return typeof n.x === "number" && typeof n.y === "number";
  });
  var container = document.getElementById("graph");
  var network = new vis.Network(container, { nodes: nodes, edges: edges }, {
    nodes: { borderWidth: 1, font: { size: 12, strokeWidth: 3, strokeColor: "#ffffff" } },
    edges: { smooth: false, arrows: { to: { scaleFactor: 0.6 } },
             font: { size: 10, align: "middle", strokeWidth: 3, strokeColor: "#ffffff" } },
    physics: { enabled: !placed, solver: "barnesHut",
               stabilization: { enabled: true, iterations: 200, fit: true } },
    interaction: { hover: true, tooltipDelay: 150, keyboard: false },
    layout: { improvedLayout: false, randomSeed: 7 }
  });
  network.once("stabilizationIterationsDone", function () {
    network.setOptions({ physics: { enabled: false } });
  });
  network.once("afterDrawing", function () {
    container.setAttribute("data-drawn", "true");
  });
  container.__network = network;
  container.setAttribute("data-node-count", String(data.nodes.length));
  var detail = document.getElementById("detail");
  var byId = {};
  data.nodes.forEach(function (n) { byId[n.id] = n; });
  network.on("click", function (p) {
    var n = p.nodes.length ? byId[p.nodes[0]] : null;
    detail.textContent = n ? (n.title || n.label || n.id) : "Click a node to read it.";
  });
  var style = document.createElement("style");
  style.textContent = LEGEND_CSS;
  document.head.appendChild(style);
  var lg = data.legend || {};
  var pick = null;
  var touched = false; // the person moved the view: a pick no longer moves it
  network.on("dragStart", function () { touched = true; });
  network.on("zoom", function () { touched = true; });
  var panel = buildLegend(document, function (id) {
    pick = id;
    apply(true);
  });
  function apply(fit) {
    var line = panel.update(lg, pick, function (c) { return c; }, "#31333F");
    pick = line ? line.id : null;
    container.setAttribute("data-legend-pick", pick || "");
    var picked = pickedItems(lineFilter(line, lg), nodes, edges);
    if (fadeOthers(network, picked) > 0) network.redraw();
    if (fit && !touched) {
      var how = { animation: { duration: 350, easingFunction: "easeInOutQuad" } };
      if (picked !== null) how.nodes = Array.from(picked.nodes);
      network.fit(how);
    }
  }
  panel.element.id = "legend";
  document.getElementById("stage").appendChild(panel.element);
  apply(false);
})();
"""


@functools.lru_cache(maxsize=1)
def legend_js() -> str:
    """The graph component's legend module as plain script (its ``export`` keywords
    dropped), to run inside the page's own function.

    >>> "function buildLegend(" in legend_js()
    True
    >>> [line for line in legend_js().splitlines() if line.startswith(("export", "import"))]
    []
    """
    path = asset_file(LEGEND_FILE, "the graph's legend")
    text = re.sub(r"^export (?=const |function )", "", path.read_text(encoding="utf-8"),
                  flags=re.MULTILINE)
    if re.search(r"^\s*(import|export)\b", text, re.MULTILINE) or "://" in text or "</" in text:
        raise ValueError("legend.js must stay one self-contained module with no URL or tag")
    return text


@functools.lru_cache(maxsize=1)
def vendor_js() -> str:
    """The vendored vis-network build, neutralised for inlining (see the module docstring).

    >>> "://" in vendor_js(), "</script" in vendor_js().lower()
    (False, False)
    """
    text = vis_network_js()
    text = text.replace("://", ":\\/\\/")
    if "</script" in text.lower():  # would end the inline <script> early
        raise ValueError("the vendored vis-network build contains '</script'")
    return text


def json_for_script(value: Any) -> str:
    """``value`` as JSON that is safe inside ``<script type="application/json">``.

    >>> print(json_for_script({"t": "</b> & https://x"}))
    {"t": "\\u003c\\/b\\u003e \\u0026 https:\\/\\/x"}
    """
    text = json.dumps(value, ensure_ascii=False)
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("/", "\\/"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


def _text(value: str) -> str:
    """Escape for HTML text, with ``/`` as an entity (so no URL can be spelled)."""
    return html.escape(value).replace("/", "&#47;")


def offline_html(view: ViewData, title: str = "Memscope graph") -> str:
    """A single HTML file that draws ``view`` offline, with a legend and a text panel
    showing the clicked node's tooltip text."""
    data = {"nodes": view["nodes"], "edges": view["edges"], "legend": view.get("legend", {})}
    meta = f"{len(view['nodes'])} nodes · {len(view['edges'])} edges · offline export"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n"
        "<meta name=\"referrer\" content=\"no-referrer\">\n"
        f"<title>{_text(title)}</title>\n<style>{_STYLE}</style>\n</head>\n<body>\n"
        f"<header><h1>{_text(title)}</h1><div class=\"meta\">{_text(meta)}</div></header>\n"
        "<main><div id=\"stage\"><div id=\"graph\" data-testid=\"memscope-graph\"></div>"
        "</div>\n<aside><strong>Selected</strong><div id=\"detail\">Click a node to read it."
        "</div></aside></main>\n"
        "<script type=\"application/json\" id=\"memscope-data\">"
        f"{json_for_script(data)}</script>\n"
        f"<script>\n{vendor_js()}\n</script>\n"
        f"<script>{_SCRIPT.replace('/*LEGEND*/', legend_js())}</script>\n</body>\n</html>\n"
    )
