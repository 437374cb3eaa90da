"""Browser figures: the real app as ``make run`` starts it (``python serve.py``) in
headless Chromium.

For each size: a copy of the cached demo store (``bench/out/scale-<n>``) in a temp folder,
a server on a free port pointed at it (``MEMSCOPE_DATA_DIR``), then in Debian's Chromium.
The page is opened as soon as the server answers its health check (``serve.py`` warms
the caches before the server listens: "start → healthy" includes that warm-up):

(a) first loads: navigation → first drawn graph (``data-drawn``, wall clock); its segments
    on the page's clock: navigation → the graph's message arrives (the websocket frame
    naming the graph's component) → first frame, and graph data in the component → first
    frame (``__stats.firstDrawAt - firstReceivedAt``); the message → first frame split in
    four (``__stats`` marks from ``loader.js``): Streamlit's render until the component is
    called with the data, the wait for its files (and when their load started and ended:
    behind ``serve.py`` the page starts it before the message, see
    ``components/graph_view/preload.py``), decoding and set-up, and sync + ``new
    vis.Network`` + the first frame; the session's script runs and graph
    messages (``ForwardMsg``s counted on the websocket: 1 / 1 since issue 33); navigation →
    drawn *and still* (the last draw before 1.5 s without one) and the draws until then,
    the server's script time; for a **cold** server (nothing persisted, first session),
    a second session on it (warm in memory), and — after ``python -m memscope warm`` and
    a fresh server — a **persisted** first session and its second;
(b) click → panel: ``--clicks`` drawn memories in turn (each centred with the network's
    ``moveTo``, drawn, and checked with ``getNodeAt`` so the click hits it) until its text
    is in the panel, with the server's script time. In the overview (over the drawing
    budget) a cluster hexagon is clicked first (timed as "expand") and memories inside it
    after (one more hexagon is expanded whenever none is left). With ``--background N``,
    (b) is measured a second time while N more sessions act on the same server (``bench/
    sessions.py --url``, its browsers in a separate niced process group; its own figures
    are printed under the size's table), with the server's gc and where its script runs'
    time went;
(c) filter change → redrawn: "Show superseded versions" is unchecked, until the graph has
    drawn the new data and the app is idle again;
(d) server RSS (``VmRSS`` of the ``streamlit`` process) after the first and second session
    (each second session is a second tab of the first one's browser profile, so it shares its
    HTTP cache and V8's code cache; each first session has a new profile on disk, or an
    incognito context with ``--profile incognito``; before the second tab the first session
    has primed the code cache, see ``loader.js``), and per load when vis-network was
    evaluated and how many of the graph component's files came over the network rather
    than from the cache;
(e) ``--budget N`` (default the maximum, 20,000): in the second session the drawing
    budget is raised so every node is drawn, timed until drawn and until still (skipped
    when the view does not fit N);
(f) pan: with every node drawn and the whole graph in view, the mouse drags the canvas for
    3 s; median and p95 of the ``requestAnimationFrame`` intervals meanwhile.
``--first-loads`` measures (a) and (d) only (the cold session, the second, ``--tabs``
more with their median message → first frame): a few minutes to compare two versions.

Times of (b), (c), (e) are in-page (``performance.now()``) from the input event
(pointerdown/keydown) to: the text in the panel (rAF polling); the frame after the graph
component's render of the new data returned; the script state back at ``notRunning``.
"server" figures are the script run on the server alone: a ``sitecustomize.py`` put on
the server's ``PYTHONPATH`` (from a temp folder; no project file changes) logs every
``ScriptRunner._run_script`` (a fragment rerun included) with its thread's CPU and
run-queue time, and every garbage collection (see :data:`SERVER_HOOK`). Every wait has a
timeout and the whole run a deadline (``--minutes``); what does not finish in time prints
as ``timeout``.
Loopback only. Prints figures; asserts nothing. Adds ``tests/`` to ``sys.path`` for
``streamlit_server`` and ``browser_support``.

    .venv/bin/python bench/browser.py [--sizes 1000,5000,16000,50000] [--clicks 5]
                                      [--budget 20000] [--minutes 12] [--background 10]
                                      [--tabs 5]
"""

from __future__ import annotations

import argparse
import atexit
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import CHROMIUM, CHROMIUM_ARGS, GRAPH, IDLE, open_filters  # noqa: E402
from google.protobuf.message import DecodeError  # noqa: E402
from playwright.sync_api import (  # noqa: E402
    Browser,
    BrowserContext,
    Page,
    ViewportSize,
    WebSocket,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit_server import StreamlitServer, free_port, start_streamlit  # noqa: E402

from components.graph_view.files import COMPONENT_NAME as GRAPH_COMPONENT  # noqa: E402
from memscope.store.store import Store  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from scale import cached_store  # noqa: E402

from memscope.settings import STORE_FILE  # noqa: E402
from memscope.view.budget import MAX_BUDGET  # noqa: E402

VIEWPORT: ViewportSize = {"width": 1500, "height": 1100}
DRAWN = f"{GRAPH}[data-drawn='true']"
EXCEPTION = "[data-testid='stException']"

#: Installed in every page before its scripts: a log of script-state changes and the time
#: of the last input event, both in ``performance.now()`` milliseconds.
INIT_JS = """(() => {
  if (window.__ms) return;
  const ms = window.__ms = { states: [], inputAt: null };
  let last = null;
  const check = () => {
    const app = document.querySelector("[data-testid='stApp']");
    const s = app ? app.getAttribute("data-test-script-state") : null;
    if (s !== last) {
      last = s;
      ms.states.push([performance.now(), s]);
      if (ms.states.length > 400) ms.states.splice(0, 200);
    }
  };
  const input = () => { ms.inputAt = performance.now(); };
  window.addEventListener("pointerdown", input, true);
  window.addEventListener("keydown", input, true);
  const start = () => {
    new MutationObserver(check).observe(document.documentElement, {
      subtree: true, childList: true, attributes: true,
      attributeFilter: ["data-test-script-state"] });
    check();
  };
  if (document.documentElement) start();
  else document.addEventListener("DOMContentLoaded", start);
  // when each websocket message arrived: a run quick enough that React renders its
  // "running" and "notRunning" together never shows "running" (see RERUN_JS)
  ms.ws = [];
  // and when the graph's message arrived: the first whose head (the element's component
  // name comes before its payload in the protobuf) names the graph's component
  ms.graphAt = null;
  const latin1 = new TextDecoder("latin1");
  const Socket = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Socket(...args);
    socket.addEventListener("message", (event) => {
      const now = performance.now();
      ms.ws.push(now);
      if (ms.ws.length > 4000) ms.ws.splice(0, 2000);
      const data = event.data;
      if (ms.graphAt === null && data instanceof ArrayBuffer && data.byteLength > 512) {
        const head = new Uint8Array(data, 0, Math.min(4096, data.byteLength));
        if (latin1.decode(head).includes("@GRAPH_COMPONENT@")) ms.graphAt = now;
      }
    });
    return socket;
  };
  window.WebSocket.prototype = Socket.prototype;
  Object.assign(window.WebSocket, Socket);
  // vis-network's UMD build assigns globalThis.vis when its evaluation starts and fills it
  // synchronously; a microtask queued then runs once that script has finished
  let vis;
  Object.defineProperty(window, "vis", { configurable: true, get: () => vis, set: (v) => {
    vis = v;
    if (ms.visStart === undefined) {
      ms.visStart = performance.now();
      queueMicrotask(() => { ms.visDefined = performance.now(); });
    }
  } });
})();""".replace("@GRAPH_COMPONENT@", GRAPH_COMPONENT)

#: The page's fetches of the graph component's files (its modules, CSS, the library):
#: [count, of them over the network (transferSize > 0), bytes received, decoded bytes].
ASSETS_JS = """() => {
  const own = performance.getEntriesByType("resource").filter(
    (r) => r.name.includes("/_stcore/bidi-components/"));
  const net = own.filter((r) => r.transferSize > 0);
  return [own.length, net.length, net.reduce((a, r) => a + r.transferSize, 0),
          own.reduce((a, r) => a + r.decodedBodySize, 0)];
}"""

#: Hooks the graph (in the component's shadow root). ``__msDraws`` logs every
#: ``afterDrawing`` with the ``data-renders`` value then; ``__msDone`` logs, per render
#: of new data, when the component's render call returned (a MutationObserver on
#: ``data-renders`` fires right after it) and when the next frame after it (where any
#: redraw vis-network still had pending runs) was over.
DRAW_HOOK_JS = """el => {
  if (el.__msDone) return;
  el.__msDraws = [];
  el.__msDone = [];
  el.__network.on("afterDrawing", () => {
    el.__msDraws.push([performance.now(), Number(el.getAttribute("data-renders") || 0)]);
    if (el.__msDraws.length > 400) el.__msDraws.splice(0, 200);
  });
  new MutationObserver(() => {
    const n = Number(el.getAttribute("data-renders") || 0);
    const returned = performance.now();
    requestAnimationFrame(() => setTimeout(() => {
      const draws = el.__msDraws.filter(([t, r]) => r === n && t <= returned).length;
      el.__msDone.push({ n, returned, t: performance.now(), draws });
    }, 0));
  }).observe(el, { attributes: true, attributeFilter: ["data-renders"] });
}"""

#: (old, renders) → {t, draws, remounted} once the graph has drawn data newer than
#: ``renders``: the next frame after the render call returned (``draws`` = full redraws
#: vis-network did inside that call); or, when Streamlit remounted the component (``old``
#: left the page), the new graph element having drawn. False until then. The new element
#: lives in a shadow root, hence the walk over shadow hosts.
REDRAWN_JS = """([old, renders]) => {
  if (old.isConnected) {
    const done = (old.__msDone || []).find(d => d.n > renders);
    return done ? { t: done.t, draws: done.draws, remounted: false } : false;
  }
  for (const host of document.querySelectorAll("*")) {
    const el = host.shadowRoot && host.shadowRoot.querySelector(
      "[data-testid='memscope-graph'][data-drawn='true']");
    if (el) return { t: performance.now(), draws: 1, remounted: true };
  }
  return false;
}"""

#: t0 → {start, end} of the first script run that began after t0 and finished, or false.
RERUN_JS = """t0 => {
  let start = null;
  for (const [t, s] of window.__ms.states) {
    if (t < t0) continue;
    if (start === null) { if (s !== "notRunning") start = t; }
    else if (s === "notRunning") return { start, end: t };
  }
  // a quick run under load: its messages came in one batch and React rendered the
  // script state only as "notRunning"; the run is its burst of messages after t0, over
  // once 250 ms passed without another while the app shows "notRunning"
  const app = document.querySelector("[data-testid='stApp']");
  const after = window.__ms.ws.filter((t) => t >= t0);
  if (start === null && after.length > 0 && app
      && app.getAttribute("data-test-script-state") === "notRunning"
      && performance.now() - after[after.length - 1] > 250) {
    return { start: after[0], end: after[after.length - 1], batched: true };
  }
  return false;
}"""

#: (el, kinds) → ids of drawn nodes of those kinds.
DRAWN_IDS_JS = """(el, kinds) =>
  el.__network.body.data.nodes.getIds({ filter: n => kinds.includes(n.kind) })"""

#: (el, [ids, scale]) → the first id that, centred at ``scale``, is the node under its own
#: centre, with its page position; or null. ``getNodeAt`` tests the bounding boxes of the
#: last frame, and vis-network sets a node's box only when it draws the node: a node never
#: in view yet (the members of a hexagon expanded off screen) has none, so each move is
#: drawn (``redraw`` draws synchronously) before the test.
PICK_JS = """(el, [ids, scale]) => {
  const net = el.__network;
  const box = el.getBoundingClientRect();
  for (const id of ids) {
    const pos = net.getPositions([id])[id];
    if (!pos) continue;
    net.moveTo({ position: pos, scale, animation: false });
    net.redraw();
    const dom = net.canvasToDOM(pos);
    if (net.getNodeAt(dom) !== id) continue;
    return { id, x: box.left + dom.x, y: box.top + dom.y };
  }
  return null;
}"""

#: text → performance.now() once an st.text element shows exactly ``text``, else false.
PANEL_TEXT_JS = """text => {
  for (const el of document.querySelectorAll("[data-testid='stText']")) {
    if (el.textContent.trim() === text) return performance.now();
  }
  return false;
}"""


#: el → the graph's ``__stats`` once it has drawn and not drawn again for 1.5 s, else
#: false: ``draws`` so far, first/last draw and first data received (page times).
STILL_JS = """el => {
  const s = el.__stats;
  if (!s || s.firstDrawAt === null) return false;
  if (performance.now() - s.lastDrawAt < 1500) return false;
  return { draws: s.draws, first: s.firstDrawAt, last: s.lastDrawAt,
           received: s.firstReceivedAt, sync: s.syncMs || 0, construct: s.constructMs || 0,
           called: s.calledAt ?? -1, loaded: s.loadedAt ?? -1, loadStart: s.loadStartAt ?? -1,
           decode: s.decodeMs ?? -1, painted: s.firstPaintShownAt ?? -1,
           paint: s.paintMs ?? -1, build: s.buildAt ?? -1 };
}"""

#: Starts logging requestAnimationFrame times into ``window.__pan``.
PAN_START_JS = """() => {
  const w = window.__pan = { t: [], on: true };
  const f = (t) => { w.t.push(t); if (w.on) requestAnimationFrame(f); };
  requestAnimationFrame(f);
}"""

#: Stops it; returns the frame intervals in ms.
PAN_STOP_JS = """() => {
  const w = window.__pan; w.on = false;
  return w.t.slice(1).map((t, i) => t - w.t[i]);
}"""

#: (el) → a page point on the canvas with no node under it (a drag there pans), or null.
EMPTY_SPOT_JS = """el => {
  const net = el.__network, box = el.getBoundingClientRect();
  for (let i = 0; i < 400; i++) {
    const x = box.width * (0.3 + 0.4 * ((i * 37) % 100) / 100);
    const y = box.height * (0.3 + 0.4 * ((i * 61) % 100) / 100);
    if (net.getNodeAt({ x, y }) === undefined && net.getEdgeAt({ x, y }) === undefined)
      return { x: box.left + x, y: box.top + y };
  }
  return null;
}"""

#: ``sitecustomize.py`` for the server process (written to a temp folder on its
#: ``PYTHONPATH``): once Streamlit's script runner module is imported, every script run
#: (``ScriptRunner._run_script``: the script and its ``script_finished``, which includes
#: Streamlit's ``runner.postScriptGC`` full collection) is appended to
#: ``$MEMSCOPE_BENCH_RUNLOG`` as "session start end cpu runqueue": ``time.monotonic()``
#: seconds, which share one clock with this process, then the seconds the run's thread was
#: on a core and runnable but waiting for one (``/proc/self/task/<tid>/schedstat``); the
#: rest of the run it slept (the GIL, a lock, I/O). With ``$MEMSCOPE_BENCH_GCLOG`` set, a
#: ``gc.callbacks`` hook times every collection (all of them hold the GIL): each full
#: (generation 2) one and each other one of 2 ms or more is logged as "gc start seconds
#: cpu-seconds generation collected caller" (wall and thread CPU time; caller: the function
#: that called ``gc.collect``, or the one whose allocation triggered it), and every 0.5 s
#: a running total "sum now count seconds" of all of them. No project file is touched.
SERVER_HOOK = """
import collections, gc, importlib.abc, importlib.util, os, sys, threading, time

LOG = os.environ.get("MEMSCOPE_BENCH_RUNLOG")
GCLOG = os.environ.get("MEMSCOPE_BENCH_GCLOG")
TARGET = "streamlit.runtime.scriptrunner.script_runner"
_lock = threading.Lock()


def _sched():
    try:
        with open(f"/proc/self/task/{threading.get_native_id()}/schedstat") as f:
            cpu, runq = f.read().split()[:2]
        return int(cpu) / 1e9, int(runq) / 1e9
    except (OSError, ValueError):
        return 0.0, 0.0


def _patch(module):
    original = module.ScriptRunner._run_script

    def _run_script(self, rerun_data):
        start = time.monotonic()
        cpu0, runq0 = _sched()
        try:
            return original(self, rerun_data)
        finally:
            end = time.monotonic()
            cpu1, runq1 = _sched()
            with _lock, open(LOG, "a", encoding="utf-8") as out:
                out.write(f"{self._session_id} {start:.6f} {end:.6f} {cpu1 - cpu0:.6f} "
                          f"{runq1 - runq0:.6f}\\n")

    module.ScriptRunner._run_script = _run_script


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name != TARGET:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            _patch(module)

        spec.loader.exec_module = exec_module
        return spec


_gc = {"start": 0.0, "cpu": 0.0, "count": 0, "seconds": 0.0}
_gc_lines = collections.deque()


def _on_gc(phase, info):
    if phase == "start":
        _gc["start"], _gc["cpu"] = time.perf_counter(), time.thread_time()
        return
    took = time.perf_counter() - _gc["start"]
    cpu = time.thread_time() - _gc["cpu"]
    _gc["count"] += 1
    _gc["seconds"] += took
    gen = info.get("generation", -1)
    if gen == 2 or took >= 0.002:
        frame = sys._getframe(1)
        caller = frame.f_code.co_name if frame is not None else "-"
        _gc_lines.append(f"gc {time.monotonic() - took:.6f} {took:.6f} {cpu:.6f} {gen} "
                         f"{info.get('collected', 0)} {caller}")


def _flush_gc():
    while True:
        time.sleep(0.5)
        lines = []
        while _gc_lines:
            lines.append(_gc_lines.popleft())
        lines.append(f"sum {time.monotonic():.6f} {_gc['count']} {_gc['seconds']:.6f}")
        with open(GCLOG, "a", encoding="utf-8") as out:
            out.write("\\n".join(lines) + "\\n")


if LOG:
    sys.meta_path.insert(0, _Finder())
if GCLOG:
    gc.callbacks.append(_on_gc)
    threading.Thread(target=_flush_gc, name="bench-gc-log", daemon=True).start()
"""


@dataclass
class Run:
    """One script run the server's hook logged (seconds)."""

    session: str
    start: float
    end: float
    #: its thread's time on a core, and runnable but waiting for one
    cpu: float
    runq: float


@dataclass
class GcPause:
    """One garbage collection the server's hook logged."""

    start: float
    seconds: float
    #: the collecting thread's CPU time (less than ``seconds`` when it waited for a core)
    cpu: float
    generation: int
    collected: int
    caller: str


@dataclass
class RunLog:
    """The server's script runs (and garbage collections), as :data:`SERVER_HOOK` logs
    them."""

    path: Path
    gc_path: Path | None = None

    def runs(self) -> list[tuple[str, float, float]]:
        """(session id, start, end) of every finished run so far."""
        return [(r.session, r.start, r.end) for r in self.run_details()]

    def run_details(self) -> list[Run]:
        """Every finished run so far, with its thread's CPU and run-queue seconds."""
        if not self.path.exists():
            return []
        out = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            session, start, end, *sched = line.split()
            cpu, runq = (float(sched[0]), float(sched[1])) if len(sched) == 2 else (0, 0)
            out.append(Run(session, float(start), float(end), cpu, runq))
        return out

    def where_runs_went(self, start: float, end: float) -> str:
        """How the script runs that began between two monotonic times spent their wall
        time in all: on a core, runnable but waiting for a core, asleep (the GIL, a lock,
        I/O); and the full gc pauses among them."""
        runs = [r for r in self.run_details() if start <= r.start < end]
        wall = sum(r.end - r.start for r in runs)
        if not runs or wall <= 0:
            return "script runs: none"
        cpu, runq = sum(r.cpu for r in runs), sum(r.runq for r in runs)
        return (f"script runs' wall time {wall:.1f} s: on a core {100 * cpu / wall:.0f} %, "
                f"waiting for a core {100 * runq / wall:.0f} %, asleep (GIL, locks, I/O) "
                f"{100 * max(0.0, wall - cpu - runq) / wall:.0f} %")

    def after(self, t: float, timeout_s: float = 5.0, session: str | None = None
              ) -> float | None:
        """Seconds of the first run (of ``session``, when given) that began at or after
        monotonic ``t`` (waits up to ``timeout_s`` for it to be logged)."""
        deadline = time.monotonic() + timeout_s
        while True:
            found = next((e - b for s, b, e in self.runs()
                          if b >= t and session in (None, s)), None)
            if found is not None or time.monotonic() > deadline:
                return found
            time.sleep(0.05)

    def session_after(self, t: float, timeout_s: float = 5.0) -> str | None:
        """The session id of the first run that began at or after monotonic ``t``."""
        deadline = time.monotonic() + timeout_s
        while True:
            found = next((s for s, b, _ in self.runs() if b >= t), None)
            if found is not None or time.monotonic() > deadline:
                return found
            time.sleep(0.05)

    def _gc_lines(self) -> list[list[str]]:
        if self.gc_path is None or not self.gc_path.exists():
            return []
        return [line.split() for line in
                self.gc_path.read_text(encoding="utf-8").splitlines() if line.strip()]

    def gc_pauses(self) -> list[GcPause]:
        """Every full collection and every other one of 2 ms or more, so far."""
        return [GcPause(float(p[1]), float(p[2]), float(p[3]), int(p[4]), int(p[5]), p[6])
                for p in self._gc_lines() if p[0] == "gc" and len(p) == 7]

    def gc_totals(self) -> list[tuple[float, int, float]]:
        """(monotonic time, collections so far, their seconds so far), every 0.5 s."""
        return [(float(p[1]), int(p[2]), float(p[3]))
                for p in self._gc_lines() if p[0] == "sum" and len(p) == 4]

    def gc_share(self, start: float, end: float) -> tuple[int, float, float] | None:
        """(collections, their seconds, % of the wall time) between two monotonic times;
        None when the log has too few totals in between."""
        totals = [t for t in self.gc_totals() if start <= t[0] <= end]
        if len(totals) < 2:
            return None
        (t0, n0, s0), (t1, n1, s1) = totals[0], totals[-1]
        return n1 - n0, s1 - s0, 100 * (s1 - s0) / (t1 - t0)

    def gc_between(self, start: float, end: float) -> str:
        """What garbage collection cost the server between two monotonic times."""
        share = self.gc_share(start, end)
        if share is None:
            return "gc: not logged"
        pauses = [p for p in self.gc_pauses() if start <= p.start < end]
        full = [p for p in pauses if p.generation == 2]
        explicit = [p for p in full if p.caller == "_on_script_finished"]
        text = (f"gc: {share[0]} collections, {share[1]:.2f} s = {share[2]:.0f} % of the "
                f"wall time with the GIL held by the collector; {len(full)} full")
        if full:
            text += (f" ({len(explicit)} of them Streamlit's runner.postScriptGC), full "
                     f"pause p50 {1000 * statistics.median(p.seconds for p in full):.0f} ms "
                     f"(CPU {1000 * statistics.median(p.cpu for p in full):.0f} ms),"
                     f" max {1000 * max(p.seconds for p in full):.0f} ms, "
                     f"{sum(p.seconds for p in full):.2f} s in all")
        return text


def start_server(folder: Path, timeout: float = 90, env: dict[str, str] | None = None
                 ) -> tuple[StreamlitServer, RunLog]:
    """``python serve.py`` (what ``make run`` starts: the server's warm-up, then
    ``streamlit run app.py``) on a free port with ``MEMSCOPE_DATA_DIR=folder`` and the
    run-timing and gc hook; the hook and its logs live in ``folder``. ``env`` adds to the
    server's environment (e.g. ``STREAMLIT_RUNNER_POST_SCRIPT_GC=false``)."""
    hook = folder / "bench-hook"
    hook.mkdir(exist_ok=True)
    (hook / "sitecustomize.py").write_text(SERVER_HOOK, encoding="utf-8")
    log = RunLog(folder / "bench-runs.log", folder / "bench-gc.log")
    assert log.gc_path is not None
    full = {"MEMSCOPE_DATA_DIR": str(folder), "MEMSCOPE_BENCH_RUNLOG": str(log.path),
            "MEMSCOPE_BENCH_GCLOG": str(log.gc_path),
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(hook)]), **(env or {})}
    return start_streamlit("serve.py", free_port(), env=full, timeout=timeout), log


class DeadlineExceeded(TimeoutError):
    """The run's overall deadline passed."""


@dataclass
class Deadline:
    """The whole run's time limit; hands out wait timeouts that never exceed it."""

    end: float

    def remaining(self) -> float:
        """Seconds left."""
        return self.end - time.monotonic()

    def ms(self, cap_s: float) -> float:
        """A timeout in ms: ``cap_s``, cut to what is left; raises once nothing is left."""
        left = self.remaining()
        if left <= 1:
            raise DeadlineExceeded("the run's deadline passed")
        return 1000 * min(cap_s, left)


def rss_mb(pid: int) -> float:
    """Resident set size of process ``pid`` in MB (``VmRSS`` from /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")


def launch(pw: Any) -> Browser:
    """Debian's Chromium, headless, offline flags."""
    return pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


#: bytes each page (by ``id``) received over its websockets
WS_BYTES: dict[int, int] = {}
#: per page (by ``id``): [script runs, graph messages] the server sent it (``ForwardMsg``s:
#: ``new_session`` opens every run; a graph message is the graph's element, or its
#: ``ref_hash`` when Streamlit's message cache re-sends it)
WS_COUNTS: dict[int, list[int]] = {}


def count_message(counts: list[int], graph_hashes: set[str], payload: bytes | str) -> None:
    """Count one websocket frame from the server into ``counts`` (see :data:`WS_COUNTS`)."""
    if isinstance(payload, str):
        return
    msg = ForwardMsg()
    try:
        msg.ParseFromString(payload)
    except DecodeError:
        return
    kind = msg.WhichOneof("type")
    if kind == "new_session":
        counts[0] += 1
    elif kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
        element = msg.delta.new_element
        if (element.WhichOneof("type") == "bidi_component"
                and element.bidi_component.component_name.endswith(GRAPH_COMPONENT)):
            counts[1] += 1
            graph_hashes.add(msg.hash)
    elif kind == "ref_hash" and msg.ref_hash in graph_hashes:
        counts[1] += 1


#: ``--profile``: "disk" (a browser profile in a temp folder, as a person's browser has:
#: HTTP cache and V8's code cache) or "incognito" (``new_context``: no code cache)
PROFILE = {"kind": "disk"}


def new_context(browser: Browser) -> BrowserContext:
    """A fresh browser profile (see :data:`PROFILE`): for "disk", a Chromium of its own on
    a new temp folder, removed when the run ends."""
    if PROFILE["kind"] == "incognito":
        return browser.new_context(viewport=VIEWPORT)
    folder = tempfile.mkdtemp(prefix="memscope-profile-")
    atexit.register(shutil.rmtree, folder, True)
    return browser.browser_type.launch_persistent_context(
        folder, executable_path=CHROMIUM, args=CHROMIUM_ARGS, viewport=VIEWPORT)


def new_page(browser: Browser, errors: list[str], context: BrowserContext | None = None
             ) -> Page:
    """A page (= a fresh Streamlit session once it navigates) in a fresh profile, or in
    ``context`` (another tab of the same browser profile: its HTTP cache is shared)."""
    if context is None:
        context = new_context(browser)
        context.add_init_script(INIT_JS)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    WS_BYTES[id(page)] = 0
    counts = WS_COUNTS[id(page)] = [0, 0]
    graph_hashes: set[str] = set()

    def on_socket(ws: WebSocket) -> None:
        def count(payload: bytes | str) -> None:
            WS_BYTES[id(page)] += len(payload)
            count_message(counts, graph_hashes, payload)

        ws.on("framereceived", count)

    page.on("websocket", on_socket)
    return page


def server_ms(log: RunLog, t: float) -> str:
    """The server's script time of the first run that began after monotonic ``t``."""
    span = log.after(t)
    return "?" if span is None else millis(1000 * span)


def input_at(page: Page) -> float:
    """Time of the last pointerdown/keydown the page saw."""
    return float(page.evaluate("window.__ms.inputAt"))


def wait_rerun(page: Page, t0: float, timeout_ms: float) -> tuple[float, float]:
    """(start, end) page times of the first script run that began after ``t0``."""
    done = page.wait_for_function(RERUN_JS, arg=t0, polling=20, timeout=timeout_ms)
    value = done.json_value()
    return float(value["start"]), float(value["end"])


@dataclass
class Graph:
    """The graph element as it was before an action, and its ``data-renders`` then."""

    handle: Any
    renders: int


def hook_draws(page: Page) -> Graph:
    """Log the graph's draws from now on; remember the element and its render count."""
    graph = page.locator(GRAPH)
    graph.evaluate(DRAW_HOOK_JS)
    return Graph(graph.element_handle(), int(graph.get_attribute("data-renders") or 0))


@dataclass
class Redraw:
    """When the graph had drawn an action's new data (page time), and how."""

    t: float
    draws: int
    remounted: bool

    def note(self) -> str:
        """What to add to the row."""
        if self.remounted:
            return "; REMOUNTED the graph component (new vis.Network)"
        return f"; {self.draws} full canvas redraws inside the update" if self.draws > 1 else ""


def wait_redrawn(page: Page, before: Graph, timeout_ms: float) -> Redraw:
    """The first redraw with newer data than ``before`` (see ``REDRAWN_JS``); a remount is
    seen by rAF polling."""
    done = page.wait_for_function(REDRAWN_JS, arg=[before.handle, before.renders],
                                  polling="raf", timeout=timeout_ms)
    value = done.json_value()
    return Redraw(float(value["t"]), int(value["draws"]), bool(value["remounted"]))


def settle(page: Page, timeout_ms: float, quiet_ms: int = 400) -> None:
    """Wait until the app is idle and stays so for ``quiet_ms`` (no follow-up rerun)."""
    page.wait_for_selector(IDLE, timeout=timeout_ms)
    page.wait_for_timeout(quiet_ms)
    page.wait_for_selector(IDLE, timeout=timeout_ms)


def pick_node(page: Page, kinds: list[str], rng: random.Random, *,
              exclude: set[str] | None = None, scale: float = 1.5,
              tries: int = 40) -> dict[str, Any] | None:
    """A drawn node of ``kinds`` centred on screen and hit by a click at its centre (at
    ``scale``, else zoomed in further: an expanded cluster's members sit close)."""
    graph = page.locator(GRAPH)
    ids = [i for i in graph.evaluate(DRAWN_IDS_JS, kinds) if i not in (exclude or set())]
    rng.shuffle(ids)
    for zoom in (scale, 3 * scale):
        found = graph.evaluate(PICK_JS, [ids[:tries], zoom]) if ids else None
        if found is not None:
            return found
    return None


def shown_counts(page: Page, timeout_ms: float) -> tuple[int, int, bool]:
    """(shown, total, overview) from the caption above the graph."""
    caption = page.locator("[data-testid='stCaptionContainer']").filter(
        has_text=re.compile(r"^Showing \d+ of \d+ nodes")).first
    text = caption.inner_text(timeout=timeout_ms)
    found = re.search(r"Showing (\d+) of (\d+) nodes", text)
    if found is None:
        raise RuntimeError(f"unexpected caption: {text!r}")
    return int(found[1]), int(found[2]), "Overview:" in text


@dataclass
class SizeResult:
    """Figures of one size, as (metric, value, note) rows."""

    size: int
    rows: list[tuple[str, str, str]] = field(default_factory=list)
    summary: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    #: pages of the running server (closed with it)
    pages: list[Page] = field(default_factory=list)
    #: what ``bench/sessions.py`` printed for the background sessions
    background: list[str] = field(default_factory=list)

    def add(self, metric: str, value: str, note: str = "", key: str | None = None) -> None:
        """One row; ``key`` also puts the value in the cross-size summary."""
        self.rows.append((metric, value, note))
        if key:
            self.summary[key] = value

    def print(self) -> None:
        """The table of this size."""
        width = max(len(r[0]) for r in self.rows)
        vwidth = max(len(r[1]) for r in self.rows)
        print(f"\n== {self.size} memories ==")
        for metric, value, note in self.rows:
            print(f"  {metric:<{width}}  {value:>{vwidth}}  {note}".rstrip())
        if self.background:
            print("  -- the background sessions (bench/sessions.py --url):")
            for line in self.background:
                print(f"  | {line}")
        for err in self.errors[:10]:
            print(f"  ! {err[:300]}")
        if len(self.errors) > 10:
            print(f"  ! … {len(self.errors) - 10} more errors")
        sys.stdout.flush()


def secs(value: float) -> str:
    """Seconds, two decimals."""
    return f"{value:.2f} s"


def millis(value: float) -> str:
    """Milliseconds, whole."""
    return f"{value:.0f} ms"


@contextmanager
def step(res: SizeResult, metric: str, key: str | None = None) -> Iterator[None]:
    """Record a timeout or failure of one measurement as its value and go on."""
    try:
        yield
    except DeadlineExceeded:
        res.add(metric, "timeout", "run deadline reached", key)
        raise
    except (PlaywrightError, TimeoutError, RuntimeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        value = "timeout" if "Timeout" in first or isinstance(exc, TimeoutError) else "error"
        res.add(metric, value, first[:120], key)
        res.errors.append(f"{metric}: {first}")


SCRIPT_SPAN_JS = """() => {
  const s = window.__ms.states;
  const i = s.findIndex(([, v]) => v === "running");
  const j = s.findIndex(([, v], k) => k > i && v === "notRunning");
  return i < 0 ? null : [s[i][0], j < 0 ? null : s[j][0]];
}"""


def script_span(page: Page) -> str:
    """When the page's first script run began and ended, in s since navigation start."""
    span = page.evaluate(SCRIPT_SPAN_JS)
    if not span:
        return "script run not seen"
    end = f"{span[1] / 1000:.2f}" if span[1] is not None else "?"
    return f"script ran {span[0] / 1000:.2f}–{end} s"


def still(page: Page, dl: Deadline, cap_s: float = 60) -> dict[str, float]:
    """The graph's ``__stats`` once it has been still (no draw) for 1.5 s."""
    handle = page.locator(GRAPH).element_handle(timeout=dl.ms(cap_s))
    done = page.wait_for_function(STILL_JS, arg=handle, polling=100, timeout=dl.ms(cap_s))
    return {k: float(v) for k, v in done.json_value().items()}


def load_rows(page: Page, res: SizeResult, label: str, key: str, log: RunLog, t_py: float,
              drawn: float, dl: Deadline, note: str = "") -> None:
    """Rows of one page load: nav → drawn (wall), graph data → first frame, drawn and
    still, the draws before still, the server's script time."""
    res.add(f"{label}: nav → graph drawn", secs(drawn),
            f"{note}{script_span(page)}; server {server_ms(log, t_py)}", key)
    with step(res, f"{label}: drawn and still", f"{key}_still"):
        st = still(page, dl)
        arrived = page.evaluate("() => window.__ms.graphAt")
        if arrived is not None:
            res.add(f"{label}: nav → graph message", millis(float(arrived)),
                    "page clock: the websocket frame carrying the graph's element arrived",
                    f"{key}_msgat")
            res.add(f"{label}: graph message → first frame", millis(st["first"] - arrived),
                    f"of which {st['received'] - arrived:.0f} ms before the component had "
                    "the data (Streamlit's render, the component's files)", f"{key}_msg")
            if st["painted"] >= 0:
                res.add(f"{label}: graph message → painted frame",
                        millis(st["painted"] - arrived),
                        f"the map painted from the payload's positions ({st['paint']:.0f} ms; "
                        "firstframe.js), the frame it goes on screen in; the live graph is "
                        f"built from {st['build'] - st['painted']:+.0f} ms (new vis.Network "
                        f"{st['construct']:.0f} ms) and its first frame replaces it at "
                        f"{st['first'] - st['painted']:+.0f} ms",
                        f"{key}_paint")
            if st["called"] >= 0 and st["loaded"] >= 0:
                res.add(f"{label}: message → first frame, by segment",
                        f"{st['called'] - arrived:.0f} + "
                        f"{max(0.0, st['loaded'] - st['called']):.0f} + "
                        f"{st['received'] - max(st['loaded'], st['called']):.0f} + "
                        f"{st['first'] - st['received']:.0f} ms",
                        "Streamlit's render until the component is called with the data; "
                        "waiting for its files (loading since "
                        f"{st['loadStart'] - arrived:+.0f} ms, ready at "
                        f"{st['loaded'] - arrived:+.0f} ms); decoding "
                        f"({st['decode']:.0f} ms) and set-up; sync, new vis.Network and "
                        "the first frame", f"{key}_seg")
        res.add(f"{label}: data → first frame", millis(st["first"] - st["received"]),
                f"__stats: sync {st['sync']:.0f} ms, new vis.Network {st['construct']:.0f} ms",
                None if arrived is not None else f"{key}_msg")
        runs, messages = WS_COUNTS.get(id(page), [0, 0])
        res.add(f"{label}: script runs / graph messages", f"{runs} / {messages}",
                "in this first session, until drawn and still (ForwardMsgs on the websocket)",
                f"{key}_runs")
        res.add(f"{label}: drawn and still", secs(st["last"] / 1000),
                f"page clock: nav start → last draw before 1.5 s without one (first at "
                f"{st['first'] / 1000:.2f} s); {st['draws']:.0f} draws",
                f"{key}_still")
        res.summary[f"{key}_draws"] = f"{st['draws']:.0f}"
    library_rows(page, res, label, key)


def library_rows(page: Page, res: SizeResult, label: str, key: str) -> None:
    """When vis-network was evaluated (page clock), and what the page fetched of the
    component's files and received over the websocket."""
    ms = page.evaluate("() => [window.__ms.visStart, window.__ms.visDefined]")
    if ms[1] is not None:
        res.add(f"{label}: library defined", secs(ms[1] / 1000),
                f"page clock: vis-network evaluated {ms[0] / 1000:.2f}–{ms[1] / 1000:.2f} s",
                f"{key}_lib")
    count, net, sent, size = page.evaluate(ASSETS_JS)
    res.add(f"{label}: component files fetched", f"{net}/{count}",
            f"over the network / asked for; {sent / 1000:.0f} kB received of "
            f"{size / 1000:.0f} kB; websocket {WS_BYTES.get(id(page), 0) / 1000:.0f} kB "
            "received", f"{key}_files")


def pan_frames(page: Page, res: SizeResult, dl: Deadline, seconds: float = 3.0) -> None:
    """Drag the whole graph in view with the mouse for ``seconds``; median and p95 of the
    requestAnimationFrame intervals meanwhile."""
    with step(res, "pan: frame interval", "pan"):
        graph = page.locator(GRAPH)
        graph.evaluate("el => el.__network.fit({ animation: false })")
        page.wait_for_timeout(500)
        spot = graph.evaluate(EMPTY_SPOT_JS)
        if spot is None:
            raise RuntimeError("no empty spot on the canvas to drag from")
        nodes = graph.get_attribute("data-node-count")
        draws0 = float(graph.evaluate("el => el.__stats.draws"))
        page.mouse.move(spot["x"], spot["y"])
        page.evaluate(PAN_START_JS)
        page.mouse.down()
        t0 = time.monotonic()
        i = 0
        while time.monotonic() - t0 < min(seconds, dl.remaining() - 2):
            i += 1
            angle = i / 15
            page.mouse.move(spot["x"] + 150 * math.sin(angle), spot["y"] + 90 * math.cos(angle))
        page.mouse.up()
        gaps = page.evaluate(PAN_STOP_JS)
        draws = float(graph.evaluate("el => el.__stats.draws")) - draws0
        if len(gaps) < 2:
            raise RuntimeError("no frames while panning")
        gaps.sort()
        p95 = gaps[min(len(gaps) - 1, int(0.95 * len(gaps)))]
        res.add("pan: frame interval", millis(statistics.median(gaps)),
                f"median; p95 {millis(p95)}, max {millis(gaps[-1])}; {len(gaps)} frames, "
                f"{draws:.0f} draws, {i} mouse moves in {time.monotonic() - t0:.1f} s; "
                f"{nodes} nodes drawn", "pan")
        res.summary["pan95"] = millis(p95)
        res.summary["pan_nodes"] = str(nodes)


def first_load(page: Page, url: str, dl: Deadline, cap_s: float) -> tuple[float, float]:
    """(navigation → graph drawn, navigation → app idle) in seconds, wall clock."""
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit", timeout=dl.ms(cap_s))
    page.wait_for_selector(DRAWN, timeout=dl.ms(cap_s))
    drawn = time.perf_counter() - t0
    page.wait_for_selector(IDLE, timeout=dl.ms(cap_s))
    idle = time.perf_counter() - t0
    settle(page, dl.ms(cap_s))
    return drawn, idle


def click_at(page: Page, target: dict[str, Any]) -> float:
    """Click a picked node; returns the page time of the pointerdown."""
    page.wait_for_timeout(150)  # let the moved view paint once
    page.mouse.click(target["x"], target["y"])
    return input_at(page)


def expand_cluster(page: Page, log: RunLog, res: SizeResult, rng: random.Random,
                   dl: Deadline) -> None:
    """Overview: click a cluster hexagon so its members are drawn; time the redraw."""
    with step(res, "overview: click cluster → redrawn", "expand"):
        before = hook_draws(page)
        target = pick_node(page, ["cluster"], rng, scale=1.0)
        if target is None:
            raise RuntimeError("no clickable cluster node")
        t_py = time.monotonic()
        t0 = click_at(page, target)
        redraw = wait_redrawn(page, before, dl.ms(60))
        begin, end = wait_rerun(page, t0, dl.ms(60))
        nodes = page.locator(GRAPH).get_attribute("data-node-count")
        res.add("overview: click cluster → redrawn", millis(redraw.t - t0),
                f"{target['id']}; rerun began {millis(begin - t0)}, idle "
                f"{millis(end - t0)}, server {server_ms(log, t_py)}; {nodes} nodes drawn"
                + redraw.note(), "expand")
        settle(page, dl.ms(60))


def memory_target(page: Page, store: Store, rng: random.Random, done: set[str]
                  ) -> tuple[dict[str, Any], str] | None:
    """A drawn memory a click would hit, not clicked before and whose text is not on
    screen yet, with that text; None when there is none."""
    for _attempt in range(5):
        target = pick_node(page, ["memory"], rng, exclude=done)
        if target is None:
            return None
        done.add(target["id"])
        record = store.get_memory(target["id"])
        text = str(record["memory"]).strip() if record else ""
        if text and page.evaluate(PANEL_TEXT_JS, text) is False:
            return target, text
    return None


def expand_more(page: Page, rng: random.Random, dl: Deadline) -> bool:
    """Overview: expand one more cluster hexagon (untimed), so more memories are drawn;
    False when no hexagon is left to click."""
    target = pick_node(page, ["cluster"], rng, scale=1.0)
    if target is None:
        return False
    t0 = click_at(page, target)
    wait_rerun(page, t0, dl.ms(60))
    settle(page, dl.ms(60))
    return True


@dataclass
class Clicks:
    """click → panel figures of one series, in ms."""

    panel: list[float] = field(default_factory=list)
    idle: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)

    def rows(self, res: SizeResult, label: str, key: str) -> None:
        """The series' rows (median, p95, max) and summary values."""
        res.add(f"click memory → panel text{label}", millis(statistics.median(self.panel)),
                f"median of {len(self.panel)}; p95 {millis(p95(self.panel))}, max "
                f"{millis(max(self.panel))}; " + ", ".join(f"{v:.0f}" for v in self.panel),
                key)
        res.add(f"click memory → idle{label}", millis(statistics.median(self.idle)),
                f"median; p95 {millis(p95(self.idle))}; rerun began after "
                f"{millis(statistics.median(self.starts))} (median)", f"{key}_idle")
        if self.server:
            res.add(f"click memory: server script{label}",
                    millis(statistics.median(self.server)),
                    f"median; p95 {millis(p95(self.server))}, max {millis(max(self.server))};"
                    " the script run on the server (sitecustomize hook)", f"{key}_server")


def p95(values: list[float]) -> float:
    """Nearest-rank 95th percentile of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1))]


def click_to_panel(page: Page, log: RunLog, store: Store, res: SizeResult,
                   rng: random.Random, dl: Deadline, clicks: int, *, overview: bool = False,
                   label: str = "", key: str = "panel", session: str | None = None) -> None:
    """(b): click ``clicks`` different drawn memories in turn; each is timed until its
    text is in the panel and until the app is idle again. In the ``overview`` one more
    hexagon is expanded whenever no drawn memory is left to click. Prints median, p95
    and max; ``label`` and ``key`` name the series; ``session`` (the page's Streamlit
    session id) picks the page's own runs from the server's log when others run too."""
    with step(res, f"click memory → panel text{label}", key):
        series = Clicks()
        done: set[str] = set()
        for _ in range(clicks):
            found = memory_target(page, store, rng, done)
            if found is None and overview and expand_more(page, rng, dl):
                found = memory_target(page, store, rng, done)
            if found is None:
                raise RuntimeError("no clickable memory node"
                                   + (" (after expanding one more cluster)" if overview else ""))
            target, text = found
            t_py = time.monotonic()
            t0 = click_at(page, target)
            seen = float(page.wait_for_function(PANEL_TEXT_JS, arg=text, polling="raf",
                                                timeout=dl.ms(60)).json_value())
            begin, end = wait_rerun(page, t0, dl.ms(60))
            series.panel.append(seen - t0)
            series.idle.append(end - t0)
            series.starts.append(begin - t0)
            settle(page, dl.ms(60))
            span = log.after(t_py, session=session)
            if span is not None:
                series.server.append(1000 * span)
        series.rows(res, label, key)


def filter_change(page: Page, log: RunLog, res: SizeResult, dl: Deadline) -> None:
    """(c): uncheck "Show superseded versions"; time until redrawn and idle."""
    with step(res, "uncheck superseded → redrawn+idle", "filter"):
        before = hook_draws(page)
        open_filters(page)
        t_py = time.monotonic()
        box = page.locator("[data-testid='stCheckbox']").filter(
            has_text="Show superseded versions")
        box.locator("label").click(timeout=dl.ms(30))
        t0 = input_at(page)
        redraw = wait_redrawn(page, before, dl.ms(60))
        begin, end = wait_rerun(page, t0, dl.ms(60))
        nodes = page.locator(GRAPH).get_attribute("data-node-count")
        res.add("uncheck superseded → redrawn+idle", millis(max(redraw.t, end) - t0),
                f"rerun began {millis(begin - t0)}, redrawn {millis(redraw.t - t0)}, "
                f"idle {millis(end - t0)}, server {server_ms(log, t_py)}; {nodes} nodes drawn"
                + redraw.note(), "filter")
        settle(page, dl.ms(60))


def raise_budget(page: Page, log: RunLog, budget: int, res: SizeResult, dl: Deadline
                 ) -> bool:
    """(e): set the drawing budget; time until all nodes are drawn, and until the graph is
    still. True when every node is drawn afterwards."""
    metric = f"budget → {budget}: redrawn"
    with step(res, metric, "budget"):
        shown, _, overview = shown_counts(page, dl.ms(30))
        if not overview or shown > budget:
            why = "all drawn already" if not overview else f"{shown} nodes > budget"
            res.add(metric, "n/a", why, "budget")
            return not overview
        before = hook_draws(page)
        draws0 = float(page.locator(GRAPH).evaluate("el => el.__stats.draws"))
        open_filters(page)
        t_py = time.monotonic()
        field_ = page.locator("[data-testid='stNumberInput']").filter(
            has_text="Drawing budget").locator("input")
        field_.fill(str(budget), timeout=dl.ms(30))
        field_.press("Enter", timeout=dl.ms(30))
        t0 = input_at(page)
        redraw = wait_redrawn(page, before, dl.ms(120))
        _, end = wait_rerun(page, t0, dl.ms(120))
        nodes = page.locator(GRAPH).get_attribute("data-node-count")
        res.add(metric, millis(redraw.t - t0), f"{nodes} nodes drawn; idle {millis(end - t0)}, "
                f"server {server_ms(log, t_py)}" + redraw.note(), "budget")
        st = still(page, dl, 120)
        draws = st["draws"] - (0 if redraw.remounted else draws0)
        res.add(f"budget → {budget}: drawn and still", millis(st["last"] - t0),
                f"{draws:.0f} draws", "budget_still")
        res.summary["budget_draws"] = f"{draws:.0f}"
        return not shown_counts(page, dl.ms(30))[2]
    return False


def seeded(folder: Path, size: int, res: SizeResult) -> Path:
    """A copy of the cached demo store of ``size`` memories (``bench/out/scale-<n>``,
    generated on first use) in ``folder``."""
    t0 = time.perf_counter()
    source = cached_store(size) / STORE_FILE
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", folder / f"{STORE_FILE}{suffix}")
    res.add("demo store (cached copy)", secs(time.perf_counter() - t0))
    return folder / STORE_FILE


def bench_size(size: int, browser: Browser, dl: Deadline, opts: Options) -> SizeResult:
    """All measurements of one store size: a server with nothing persisted (cold, then a
    second session), then ``python -m memscope warm`` and a fresh server (persisted)."""
    res = SizeResult(size)
    rng = random.Random(7)
    with tempfile.TemporaryDirectory(prefix="memscope-bench-") as tmp:
        path = seeded(Path(tmp), size, res)
        store = Store(path)
        try:
            with running(Path(tmp), res, dl, "server (nothing persisted)") as (server, log):
                if opts.first_only:
                    first_two(server, log, browser, res, dl, opts.tabs)
                    return res
                measure(server, log, browser, store, res, rng, dl, opts)
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "memscope", "warm", "--data-dir", tmp],
                                  capture_output=True, text=True, cwd=ROOT,
                                  timeout=max(5, min(300, dl.remaining())))
            res.add("python -m memscope warm", secs(time.perf_counter() - t0),
                    proc.stdout.strip().splitlines()[-1][:100] if proc.returncode == 0
                    else f"exit {proc.returncode}: {proc.stderr.strip()[:100]}", "warm_cmd")
            with running(Path(tmp), res, dl, "server (derived persisted)") as (server, log):
                measure_persisted(server, log, browser, res, dl)
        except DeadlineExceeded:
            res.errors.append("run deadline reached: remaining measurements skipped")
        except subprocess.TimeoutExpired:
            res.errors.append("python -m memscope warm timed out")
    return res


@contextmanager
def running(folder: Path, res: SizeResult, dl: Deadline, label: str
            ) -> Iterator[tuple[StreamlitServer, RunLog]]:
    """A server on ``folder``; its pages' shown exceptions are collected at the end."""
    t0 = time.perf_counter()
    server, log = start_server(folder, timeout=min(900, max(5, dl.remaining())))
    res.add(f"{label}: start → healthy", secs(time.perf_counter() - t0), "",
            "healthy" if "nothing" in label else "healthy_pers")
    res.pages = []
    try:
        yield server, log
    finally:
        for page in res.pages:
            try:
                res.errors.extend(f"stException on page: {t[:200]}" for t in
                                  page.locator(EXCEPTION).all_inner_texts())
                page.context.close()
            except PlaywrightError:
                pass
        server.stop()


def open_page(browser: Browser, res: SizeResult, context: BrowserContext | None = None
              ) -> Page:
    """A new session's page (in ``context`` if given), closed with its server."""
    page = new_page(browser, res.errors, context)
    res.pages.append(page)
    return page


@dataclass
class Options:
    """What to measure besides the first loads."""

    budget: int
    clicks: int
    #: sessions to run in the background for the second click series (0 = none)
    background: int = 0
    #: more second sessions (tabs of the first one's browser) for medians (0 = none)
    tabs: int = 0
    #: only the first loads: the cold session and the second (and ``tabs`` more)
    first_only: bool = False


class Background:
    """``sessions`` more sessions on a running server, acting all the time: ``bench/
    sessions.py --url`` drives them from a separate, niced process group and prints its
    own figures (their reruns, the server's script runs, gc, CPU) when stopped."""

    def __init__(self, server: StreamlitServer, log: RunLog, sessions: int, folder: Path
                 ) -> None:
        self.ready = folder / "background.ready"
        self.stop_file = folder / "background.stop"
        self.lines: list[str] = []
        cmd = [sys.executable, str(ROOT / "bench" / "sessions.py"), "--url", server.url,
               "--server-pid", str(server.process.pid), "--runlog", str(log.path),
               "--gclog", str(log.gc_path or ""), "--sessions", str(sessions),
               "--seconds", "3600", "--file-mb", "0", "--ready-file", str(self.ready),
               "--stop-file", str(self.stop_file)]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.append(line.rstrip())

    def wait_ready(self, timeout_s: float) -> bool:
        """True once every session has loaded and acts (False: timeout or it ended)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and self.proc.poll() is None:
            if self.ready.exists():
                return True
            time.sleep(0.5)
        return False

    def finish(self, timeout_s: float = 120) -> list[str]:
        """Stop the sessions (each ends its current action) and return the output."""
        self.stop_file.touch()
        try:
            self.proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            self.proc.wait(timeout=30)
        self.reader.join(timeout=10)
        return self.lines


def first_two(server: StreamlitServer, log: RunLog, browser: Browser, res: SizeResult,
              dl: Deadline, tabs: int = 0) -> tuple[Page, Page, bool, str | None] | None:
    """(a) and (d) on a fresh server: the cold first session and a second one (and
    ``tabs`` more, see :func:`more_tabs`). Returns the first two pages, whether the graph
    is an overview and the first page's session id."""
    pid = server.process.pid
    page1 = open_page(browser, res)
    with step(res, "cold: nav → graph drawn", "cold"):
        t_py = time.monotonic()
        drawn, _ = first_load(page1, server.url, dl, 180)
        load_rows(page1, res, "cold", "cold", log, t_py, drawn, dl,
                  "fresh server, nothing persisted; ")
    if page1.locator(DRAWN).count() == 0:
        return None
    session = log.session_after(t_py)
    shown, total, overview = shown_counts(page1, dl.ms(30))
    drawn_nodes = page1.locator(GRAPH).get_attribute("data-node-count")
    res.add("graph nodes (shown/total)", f"{shown}/{total}",
            f"{drawn_nodes} drawn" + (" (overview)" if overview else ""), "nodes")
    rss = [rss_mb(pid)]
    res.add("server RSS after 1st session", f"{rss[0]:.0f} MB", "", "rss1")
    wait_primed(page1, res, "1st session", dl)
    page2 = open_page(browser, res, page1.context)  # a second tab: the browser's cache
    with step(res, "2nd session: nav → graph drawn", "second"):
        t_py = time.monotonic()
        drawn, _ = first_load(page2, server.url, dl, 120)
        load_rows(page2, res, "2nd session", "second", log, t_py, drawn, dl,
                  "same server, warm in memory, a second tab of the same browser; ")
        rss.append(rss_mb(pid))
        res.add("server RSS growth, session 2", f"{rss[-1] - rss[-2]:+.1f} MB",
                f"RSS {rss[-1]:.0f} MB", "grow2")
    if tabs:
        more_tabs(server, browser, page1.context, res, dl, tabs)
    return page1, page2, overview, session


#: the loader's mark once the first session has primed V8's code cache (``loader.js``)
PRIMED_JS = "() => localStorage.getItem('memscope-graph-code-cache')"


def wait_primed(page: Page, res: SizeResult, label: str, dl: Deadline) -> None:
    """Before a second tab of ``page``'s profile: wait (at most 15 s) until its first
    session ran the library a second time for the code cache, as a person's browser has
    by the time they open the app again; the time since the first draw is a row."""
    if PROFILE["kind"] == "incognito":
        return
    try:
        page.wait_for_function(f"({PRIMED_JS})() !== null", timeout=dl.ms(15))
        first = still(page, dl)["first"]
        res.add(f"{label}: code cache primed", secs((page.evaluate("performance.now()")
                                                     - first) / 1000),
                "after the first draw (or less: measured once primed); loader.js runs "
                "vis-network once more in a hidden frame")
    except PlaywrightError:
        res.add(f"{label}: code cache primed", "timeout", "not within 15 s")


def more_tabs(server: StreamlitServer, browser: Browser, context: BrowserContext,
              res: SizeResult, dl: Deadline, n: int) -> None:
    """``n`` more second sessions, one tab after the other in the first one's browser
    profile (each closed once measured): medians of nav → drawn, the library defined,
    the first frame, and the component's files fetched over the network in all."""
    with step(res, f"2nd session ×{n}: nav → graph drawn", "tabs"):
        drawn: list[float] = []
        lib: list[float] = []
        first: list[float] = []
        to_frame: list[float] = []  # graph message → first frame
        to_paint: list[float] = []  # graph message → the painted first frame
        to_call: list[float] = []  # graph message → the component called with the data
        net = asked = 0
        for _ in range(n):
            page = new_page(browser, res.errors, context)
            try:
                wall, _ = first_load(page, server.url, dl, 120)
                drawn.append(wall)
                st = still(page, dl)
                first.append(st["first"] / 1000)
                arrived = page.evaluate("() => window.__ms.graphAt")
                if arrived is not None:
                    to_frame.append(st["first"] - arrived)
                    if st["painted"] >= 0:
                        to_paint.append(st["painted"] - arrived)
                    if st["called"] >= 0:
                        to_call.append(st["called"] - arrived)
                defined = page.evaluate("() => window.__ms.visDefined")
                if defined is not None:
                    lib.append(defined / 1000)
                count, over, _, _ = page.evaluate(ASSETS_JS)
                asked, net = asked + count, net + over
            finally:
                page.close()
        med = statistics.median
        res.add(f"2nd session ×{n}: nav → graph drawn", secs(med(drawn)),
                f"median; min {min(drawn):.2f} s, max {max(drawn):.2f} s; first frame "
                f"(page clock) median {med(first):.2f} s", "tabs")
        if to_frame:
            res.add(f"2nd session ×{n}: graph message → first frame", millis(med(to_frame)),
                    f"median; min {min(to_frame):.0f}, max {max(to_frame):.0f} ms"
                    + (f"; → component called: median {med(to_call):.0f} ms" if to_call
                       else ""), "tabs_msg")
        if to_paint:
            res.add(f"2nd session ×{n}: graph message → painted frame", millis(med(to_paint)),
                    f"median of {len(to_paint)}; min {min(to_paint):.0f}, "
                    f"max {max(to_paint):.0f} ms", "tabs_paint")
        if lib:
            res.add(f"2nd session ×{n}: library defined", secs(med(lib)),
                    f"median, page clock; min {min(lib):.2f} s, max {max(lib):.2f} s",
                    "tabs_lib")
        res.add(f"2nd session ×{n}: component files fetched", f"{net}/{asked}",
                "over the network / asked for, all tabs", "tabs_files")


def with_background(server: StreamlitServer, log: RunLog, page: Page, store: Store,
                    res: SizeResult, rng: random.Random, dl: Deadline, opts: Options,
                    overview: bool, session: str | None) -> None:
    """(b) again while ``opts.background`` more sessions act on the same server."""
    n = opts.background
    label = f" ({n} background sessions)"
    folder = Path(tempfile.mkdtemp(prefix="memscope-background-"))
    t0 = time.perf_counter()
    background = Background(server, log, n, folder)
    try:
        if not background.wait_ready(min(600, max(5, dl.remaining() - 60))):
            res.add(f"background: {n} sessions loaded", "timeout",
                    "they did not all load in time", "bg_load")
            return
        res.add(f"background: {n} sessions loaded", secs(time.perf_counter() - t0),
                "warm server; each then acts every 0.25–1 s (sessions.py --url)", "bg_load")
        page.wait_for_timeout(3000)  # let them get going
        t_runs = time.monotonic()
        click_to_panel(page, log, store, res, rng, dl, opts.clicks, overview=overview,
                       label=label, key="panel_bg", session=session)
        res.add(f"server while clicking{label}", "",
                f"{log.gc_between(t_runs, time.monotonic())}; "
                f"{log.where_runs_went(t_runs, time.monotonic())}")
    finally:
        res.background = background.finish()
        shutil.rmtree(folder, ignore_errors=True)


def measure(server: StreamlitServer, log: RunLog, browser: Browser, store: Store,
            res: SizeResult, rng: random.Random, dl: Deadline, opts: Options) -> None:
    """(a)–(e) and the pan against a server with nothing persisted; with
    ``opts.background``, (b) a second time while that many more sessions act."""
    loaded = first_two(server, log, browser, res, dl, opts.tabs)
    if loaded is None:
        return
    page1, page2, overview, session = loaded
    if overview:
        expand_cluster(page1, log, res, rng, dl)
    click_to_panel(page1, log, store, res, rng, dl, opts.clicks, overview=overview,
                   session=session)
    if opts.background:
        with_background(server, log, page1, store, res, rng, dl, opts, overview, session)
    filter_change(page1, log, res, dl)
    all_drawn = not overview
    if opts.budget and overview:
        all_drawn = raise_budget(page2, log, opts.budget, res, dl)
    if all_drawn:
        pan_frames(page2, res, dl)
    else:
        res.add("pan: frame interval", "n/a", "not every node is drawn", "pan")
    res.add("server RSS at the end", f"{rss_mb(server.process.pid):.0f} MB", "", "rss_end")


def measure_persisted(server: StreamlitServer, log: RunLog, browser: Browser,
                      res: SizeResult, dl: Deadline) -> None:
    """First loads on a fresh server whose derived data ``memscope warm`` persisted."""
    page = open_page(browser, res)
    with step(res, "persisted: nav → graph drawn", "pers"):
        t_py = time.monotonic()
        drawn, _ = first_load(page, server.url, dl, 180)
        load_rows(page, res, "persisted", "pers", log, t_py, drawn, dl,
                  "fresh server after `memscope warm`; ")
    wait_primed(page, res, "persisted", dl)
    page = open_page(browser, res, page.context)
    with step(res, "persisted 2nd: nav → graph drawn", "pers2"):
        t_py = time.monotonic()
        drawn, _ = first_load(page, server.url, dl, 120)
        load_rows(page, res, "persisted 2nd", "pers2", log, t_py, drawn, dl,
                  "second session; ")


BARE_APP = """import streamlit as st

st.title("Memscope floor")
st.write("A bare Streamlit page: a title and one line.")
"""
BARE_FIRST = "h1:has-text('Memscope floor')"


@dataclass
class Floor:
    """A bare Streamlit page's first element (nav → its title visible, wall clock)."""

    fresh: list[float] = field(default_factory=list)
    second: list[float] = field(default_factory=list)

    def line(self) -> str:
        """The floor as one printed line."""
        med = statistics.median
        parts = []
        if self.fresh:
            parts.append(f"fresh server median {med(self.fresh):.2f} s (n={len(self.fresh)}:"
                         f" {', '.join(f'{v:.2f}' for v in self.fresh)})")
        if self.second:
            parts.append(f"second session median {med(self.second):.2f} s (n="
                         f"{len(self.second)}: {', '.join(f'{v:.2f}' for v in self.second)})")
        return "; ".join(parts) or "not measured"


def bare_floor(browser: Browser, dl: Deadline, servers: int = 3, tabs: int = 5) -> Floor:
    """A bare page (a title and one line, its own ``streamlit run`` on a free port, the
    same browser set-up): the first session on each of ``servers`` fresh servers, then
    ``tabs`` more sessions as tabs of the last one's browser profile."""
    floor = Floor()
    errors: list[str] = []
    with tempfile.TemporaryDirectory(prefix="memscope-floor-") as tmp:
        app = Path(tmp) / "bare.py"
        app.write_text(BARE_APP, encoding="utf-8")
        for i in range(servers):
            server = start_streamlit(app, free_port(), timeout=min(60, max(5, dl.remaining())))
            try:
                page = new_page(browser, errors)
                t0 = time.perf_counter()
                page.goto(server.url, wait_until="commit", timeout=dl.ms(60))
                page.wait_for_selector(BARE_FIRST, timeout=dl.ms(60))
                floor.fresh.append(time.perf_counter() - t0)
                page.wait_for_selector(IDLE, timeout=dl.ms(60))
                if i == servers - 1:
                    for _ in range(tabs):
                        tab = new_page(browser, errors, page.context)
                        t0 = time.perf_counter()
                        tab.goto(server.url, wait_until="commit", timeout=dl.ms(60))
                        tab.wait_for_selector(BARE_FIRST, timeout=dl.ms(60))
                        floor.second.append(time.perf_counter() - t0)
                        tab.wait_for_selector(IDLE, timeout=dl.ms(60))
                        tab.close()
                page.context.close()
            finally:
                server.stop()
    return floor


def ratio_rows(results: list[SizeResult], floor: Floor) -> None:
    """Each first-drawn figure as a ratio to the bare page's first element (issue 20's
    targets: second session ≤ 1.3 ×, fresh server after ``memscope warm`` ≤ 1.5 × the
    second-session floor)."""
    if not floor.second:
        return
    base2 = statistics.median(floor.second)
    base1 = statistics.median(floor.fresh) if floor.fresh else None
    print(f"\n== ratio to the bare page's first element ==\n  floor: {floor.line()}")
    for r in results:
        cells = []
        for label, key, target in (("cold", "cold", None), ("2nd session", "second", 1.3),
                                   ("2nd ×N median", "tabs", 1.3),
                                   ("persisted (fresh server after warm)", "pers", 1.5),
                                   ("persisted 2nd", "pers2", 1.3)):
            value = r.summary.get(key, "")
            if not value.endswith(" s"):
                continue
            v = float(value[:-2])
            text = f"{label} {v:.2f} s = {v / base2:.2f} ×"
            if key == "pers" and base1:
                text += f" ({v / base1:.2f} × the fresh-server floor)"
            if target:
                text += " ok" if v / base2 <= target else f" (target ≤ {target} ×: missed)"
            cells.append(text)
        print(f"  {r.size:>7}: " + "; ".join(cells))


#: summary figures compared across sizes by :func:`growth_rows`
GROWTH = [("cold drawn", "cold"), ("2nd drawn", "second"), ("pers. drawn", "pers"),
          ("pers. 2nd", "pers2"), ("server RSS 1st", "rss1"), ("start → healthy", "healthy"),
          ("healthy (persisted)", "healthy_pers"), ("memscope warm", "warm_cmd"),
          ("server RSS at the end", "rss_end")]


def _number(value: str) -> float | None:
    """The leading number of a printed figure (``"3.21 s"``, ``"812 MB"``), if any."""
    match = re.match(r"[-+]?\d+(\.\d+)?", value)
    return float(match.group(0)) if match else None


def growth_rows(results: list[SizeResult]) -> None:
    """Each size's figures over 50k as a ratio to the 50k figure of the same run."""
    base = next((r for r in results if r.size == 50_000), None)
    if base is None:
        return
    print("\n== growth: ratio to the 50k figure (linear 50k → 200k is 4 ×; bound 4.5 ×) ==")
    for r in results:
        if r.size <= 50_000:
            continue
        cells = []
        for title, key in GROWTH:
            b, v = _number(base.summary.get(key, "")), _number(r.summary.get(key, ""))
            if b and v is not None:
                cells.append(f"{title} {r.summary[key]} = {v / b:.2f} ×")
        print(f"  {r.size:>7}: " + "; ".join(cells))


SUMMARY = [("memories", "size"), ("nodes", "nodes"),
           ("cold runs/msgs", "cold_runs"), ("msg at", "cold_msgat"),
           ("cold drawn", "cold"), ("msg→frame", "cold_msg"), ("→painted", "cold_paint"),
           ("still", "cold_still"),
           ("draws", "cold_draws"),
           ("2nd runs/msgs", "second_runs"), ("msg at", "second_msgat"),
           ("2nd drawn", "second"), ("msg→frame", "second_msg"), ("→painted", "second_paint"),
           ("lib", "second_lib"),
           ("files", "second_files"), ("still", "second_still"),
           ("2nd ×N drawn", "tabs"), ("→painted", "tabs_paint"), ("lib", "tabs_lib"),
           ("files", "tabs_files"),
           ("draws", "second_draws"),
           ("pers. drawn", "pers"), ("msg→frame", "pers_msg"), ("still", "pers_still"),
           ("pers. 2nd", "pers2"),
           ("budget→drawn", "budget"), ("still", "budget_still"), ("draws", "budget_draws"),
           ("pan p50", "pan"), ("p95", "pan95"), ("@nodes", "pan_nodes"),
           ("click→panel", "panel"), ("(server)", "panel_server"),
           ("+bg click→panel", "panel_bg"), ("(server)", "panel_bg_server"),
           ("filter", "filter"),
           ("RSS 1st", "rss1"), ("+2nd", "grow2")]


def print_summary(results: list[SizeResult]) -> None:
    """One line per size."""
    table = [[title for title, _ in SUMMARY]]
    table += [[str(r.size) if key == "size" else r.summary.get(key, "–") for _, key in SUMMARY]
              for r in results]
    widths = [max(len(row[i]) for row in table) for i in range(len(SUMMARY))]
    print("\n== summary ==")
    for row in table:
        print("  " + "  ".join(f"{cell:>{w}}" for cell, w in zip(row, widths, strict=True)))


# -- the history played back (issue 19, item 3: playback.js) -------------------------------

PLAY_BAR = "[data-testid='memscope-playback']"
#: rAF intervals while the playback plays, and the playback's own per-step figures
PLAY_PROBE = """() => { const out = window.__msFrames = []; let last = performance.now();
  const tick = (t) => { out.push(t - last); last = t; if (window.__msFrames === out)
    requestAnimationFrame(tick); }; requestAnimationFrame(tick); }"""


def _spread(values: list[float]) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    return (f"median {millis(ordered[len(ordered) // 2])}, p95 {millis(p95(ordered))}, "
            f"max {millis(ordered[-1])}")


def bench_playback(size: int, browser: Browser, dl: Deadline, speed: int = 4) -> SizeResult:
    """Play the history by day at ``speed``× with every node drawn: per step, the time to
    apply it (the pass over the timeline and the DataSet update) and from the step to its
    frame (``afterDrawing``), the nodes changed, and the frame intervals meanwhile; the
    server's timeline build in the core, on the same store."""
    import json

    from memscope.graph.analysis import analyse
    from memscope.sources.embedded import EmbeddedSource
    from memscope.view.build import build_view
    from memscope.view.timeline import build_timeline

    res = SizeResult(size)
    with tempfile.TemporaryDirectory(prefix="memscope-bench-") as tmp:
        path = seeded(Path(tmp), size, res)
        an = analyse(EmbeddedSource(path).load().dataset)
        view = build_view(an)
        t0 = time.perf_counter()
        timeline = build_timeline(an, view)
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        build_timeline(an, view)
        again = time.perf_counter() - t0
        days = timeline["days"] if timeline else 0
        res.add("timeline built (core)", millis(first * 1000),
                f"again (states remembered) {millis(again * 1000)}; {len(view['nodes'])} "
                f"nodes, {days + 1} days; {len(json.dumps(timeline)) / 1e3:.0f} kB of JSON")
        with running(Path(tmp), res, dl, "server (nothing persisted)") as (server, log):
            page = open_page(browser, res)
            first_load(page, server.url, dl, 600)
            raise_budget(page, log, MAX_BUDGET, res, dl)
            page.locator("label").filter(has_text="Play the history").click(timeout=dl.ms(30))
            page.locator(PLAY_BAR).wait_for(state="visible", timeout=dl.ms(300))
            settle(page, dl.ms(60))
            bar = page.locator(PLAY_BAR)
            bar.locator("[data-action='playback-speed']").select_option(str(speed))
            page.evaluate(PLAY_PROBE)
            t0 = time.perf_counter()
            bar.locator("[data-action='playback-play']").click()
            page.locator(f"{PLAY_BAR}[data-day='today'][data-playing='false']").wait_for(
                timeout=dl.ms(60 + days * 2))
            wall = time.perf_counter() - t0
            frames = page.evaluate("() => { const f = window.__msFrames; "
                                   "window.__msFrames = null; return f; }")
            stats = page.locator(GRAPH).evaluate("el => el.__stats.playback")
            step_ms = 700 / speed
            drawn = stats["drawMs"]
            late = sum(1 for v in drawn if v > step_ms)
            nodes = page.locator(GRAPH).get_attribute("data-node-count")
            res.add(f"played by day at {speed}×", secs(wall),
                    f"{stats['steps']} steps of {millis(step_ms)}; {nodes} nodes drawn")
            res.add("step: apply", _spread(stats["applyMs"]),
                    "a pass over the rows, the changed nodes set on vis-network's items")
            res.add("step → its frame drawn", _spread(drawn),
                    f"{late} of {len(drawn)} steps later than the step's {millis(step_ms)}")
            changed = sorted(stats["changed"]) or [0]
            res.add("nodes updated per step", f"median {changed[len(changed) // 2]}",
                    f"max {changed[-1]}")
            res.add("frame intervals while playing", _spread(frames or []))
    return res


def main() -> None:
    """Parse arguments, run every size within the deadline, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,5000,16000,50000",
                        help="comma-separated memory counts (default 1000,5000,16000,50000;"
                             " 16000 memories are about 20k nodes)")
    parser.add_argument("--budget", type=int, default=MAX_BUDGET,
                        help=f"in the 2nd session raise the drawing budget to this, so every "
                             f"node is drawn for the pan (default {MAX_BUDGET}; 0 = skip)")
    parser.add_argument("--clicks", type=int, default=5,
                        help="memories clicked in (b), median and max printed (default 5)")
    parser.add_argument("--minutes", type=float, default=12.0,
                        help="deadline for the whole run (default 12)")
    parser.add_argument("--background", type=int, default=0, metavar="N",
                        help="after (b), start N more sessions on the same server (bench/"
                             "sessions.py --url: a separate, niced process group, each "
                             "acting every 0.25–1 s) and measure (b) again (default 0)")
    parser.add_argument("--tabs", type=int, default=0, metavar="N",
                        help="after the 2nd session, N more (each a new tab of the first "
                             "session's browser), printed as medians (default 0)")
    parser.add_argument("--playback", type=int, default=0, metavar="N",
                        help="only play the history (issue 19) at N memories with every "
                             "node drawn: step and frame times (e.g. 5000)")
    parser.add_argument("--playback-speed", type=int, default=4, choices=(1, 2, 4),
                        help="the playback's speed for --playback (default 4: 175 ms a step)")
    parser.add_argument("--profile", choices=("disk", "incognito"), default="disk",
                        help="each fresh session's browser profile: a temp folder, as a "
                             "person's browser (default; HTTP and V8 code caches), or an "
                             "incognito context (no code cache)")
    parser.add_argument("--first-loads", action="store_true",
                        help="only (a) and (d) on a cold server: the first session, the "
                             "second and --tabs more (no clicks, filter, pan, persisted)")
    parser.add_argument("--no-floor", action="store_true",
                        help="skip the bare Streamlit page measured first (the floor the "
                             "first-drawn figures are printed as ratios to)")
    args = parser.parse_args()
    PROFILE["kind"] = args.profile
    if args.playback:
        with sync_playwright() as pw:
            browser = launch(pw)
            try:
                res = bench_playback(args.playback, browser,
                                     Deadline(time.monotonic() + 60 * args.minutes),
                                     args.playback_speed)
            finally:
                browser.close()
        res.print()
        return
    opts = Options(args.budget, args.clicks, args.background, args.tabs,
                   args.first_loads)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    dl = Deadline(time.monotonic() + 60 * args.minutes)
    print(f"bench/browser.py: sizes {sizes}, budget {args.budget or 'off'}, background "
          f"sessions {args.background}, "
          f"deadline {args.minutes:g} min; Chromium {CHROMIUM} headless, {args.profile} "
          "profiles", flush=True)
    results: list[SizeResult] = []
    floor = Floor()
    with sync_playwright() as pw:
        browser = launch(pw)
        try:
            if not args.no_floor:
                t0 = time.perf_counter()
                floor = bare_floor(browser, dl)
                print(f"\n== bare Streamlit page (the floor) ==\n  {floor.line()}; "
                      f"load average {os.getloadavg()[0]:.1f}; "
                      f"{time.perf_counter() - t0:.1f} s", flush=True)
            for size in sizes:
                if dl.remaining() < 20:
                    print(f"\n== {size} memories == skipped: run deadline reached", flush=True)
                    continue
                t0 = time.perf_counter()
                res = bench_size(size, browser, dl, opts)
                res.add("wall time of this size", secs(time.perf_counter() - t0))
                res.print()
                results.append(res)
        finally:
            browser.close()
    print_summary(results)
    ratio_rows(results, floor)
    growth_rows(results)


if __name__ == "__main__":
    main()
