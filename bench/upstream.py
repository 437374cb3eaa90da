"""Side by side: Memscope's first drawn graph against the upstream React component
``@supermemory/memory-graph`` 0.2.3, in one batch, interleaved, in headless Chromium.

Data: for each size the cached demo store of ``bench/scale.py`` (``bench/out/scale-<n>``).
The upstream page gets exactly what the sandbox's ``POST /v3/documents/documents`` answers
for that store (:class:`memscope.sandbox.supermemory_api.SupermemoryApi`, pages of 1,100
merged into one ``documents`` list), written once to ``bench/out/upstream/www/data-<n>.json``.
``bench/upstream/main.jsx`` fetches that file, renames each document's ``memoryEntries`` to
``memories`` and ``type`` to ``documentType`` (the fields ``MemoryGraph`` reads), and renders
``<MemoryGraph documents isLoading error variant="console">`` full page (``isLoading``
until the data is in, as the package README does). Nothing is capped (no ``maxNodes``).
The package, React and esbuild are installed (``npm ci`` from ``bench/upstream/``'s
``package.json`` + lock) and bundled into ``bench/out/upstream/`` (git-ignored) on first
use, or again when those sources change. A ``ThreadingHTTPServer`` on 127.0.0.1 (a
thread of this process) serves the bundle and the data; loopback only at run time.

Per size, for ``--rounds`` rounds: the upstream page; Memscope **cold** (a fresh server
as ``make run`` starts it, ``python serve.py``, on a copy of the store, nothing in memory, after
``python -m memscope warm`` persisted the layout and clusters — the first session);
the upstream page again; Memscope **warm** (a second session on that same running server).
Every page is a fresh browser context (its own cache) at 1500×1100.

Figures, all on the page clock (``performance.now()``: ms since navigation start):

- *first drawn* — upstream: the end of the first canvas paint that drew anything. An init
  script wraps ``CanvasRenderingContext2D.prototype.clearRect`` (the upstream renderer
  starts every frame with one, ``renderFrame``) and the drawing calls ``fill``,
  ``stroke``, ``fillRect``, ``strokeRect``, ``fillText``, ``drawImage``, on canvases at least
  300 px wide: a *paint* runs from one ``clearRect`` to the next; it counts as drawn once it
  made a drawing call (a frame with no nodes makes none: the renderer only clears). Its end
  is the time of its last drawing call. Chosen over sampling pixels each frame, which
  would read back a 1500×1100 canvas per frame and slow the page being measured; after
  "still" the canvas's non-transparent pixels are counted once, to show the paints drew.
  Memscope: the graph component's ``__stats.firstDrawAt`` (vis-network's first
  ``afterDrawing``), as ``bench/browser.py`` reads it;
- *still* — the last paint (upstream) / draw (Memscope) before 1.5 s without one (for the
  upstream also at least 20 animation frames without one: a starved page can go 1.5 s
  without any frame, and that is not "still"; ``bench/browser.py``'s Memscope check has no
  such guard — it draws once, so it cannot stop early). The
  upstream paints every frame while something moves: d3-force runs live up to 6,000 nodes
  (above, 12 ticks before the first paint and no simulation), and 100 and 300 ms after its
  data arrives it auto-fits the view, a zoom spring of about 57 frames. Whether that fit
  ran shows in the zoom its control reads when still (printed; 80% = it never ran, the
  view stayed at the initial zoom, seen on this machine under load);
- *paints* — upstream paints that drew, up to still; Memscope: ``__stats.draws`` up to
  still. Memscope draws an overview of at most its drawing budget (3,000 by default) where
  the upstream draws every node: the printed node counts say what each drew.

Raw runs also show wall clock (Python, navigation → the first drawn paint seen by rAF
polling / ``bench/browser.py``'s ``first_load``) and, for the upstream, when the JSON was
parsed. Memscope's measurements import ``bench/browser.py``'s helpers (``first_load``,
``still``, ``start_server``…). Every wait has a timeout, the run a deadline (``--minutes``);
what does not finish prints as ``timeout``. Prints figures; asserts nothing.

    .venv/bin/python bench/upstream.py [--sizes 1000,5000,16000,50000] [--rounds 2]
                                       [--minutes 20]

Side by side, no timing: ``.venv/bin/python bench/upstream.py --shots`` seeds the demo
store (as ``make run`` does), bundles the upstream page if needed (``npm ci``, once) and
writes ``test-screenshots/map-upstream-1400x900.png`` and ``-1920x1080.png`` beside
Memscope's first view ``map-<w>x<h>-<light|dark>.png``. After that, ``make test``
(``tests/test_map_browser.py``) writes the upstream pair too, with no network.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from browser import (  # noqa: E402
    DRAWN,
    VIEWPORT,
    Deadline,
    DeadlineExceeded,
    first_load,
    launch,
    new_page,
    start_server,
    still,
)
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402
from scale import cached_store  # noqa: E402

from memscope.demo.seeding import seed_if_missing  # noqa: E402
from memscope.settings import STORE_FILE  # noqa: E402

SOURCES = ROOT / "bench" / "upstream"
OUT = ROOT / "bench" / "out" / "upstream"
WWW = OUT / "www"
#: our files, copied next to node_modules and built there
SOURCE_FILES = ("package.json", "package-lock.json", "main.jsx", "index.html")
def _shots() -> Any:
    """``bench/upstream/shots.py`` (the feed, the static server, the upstream shot)."""
    spec = importlib.util.spec_from_file_location("upstream_shots",
                                                  ROOT / "bench" / "upstream" / "shots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_SHOTS_MODULE = _shots()
feed_documents = _SHOTS_MODULE.feed_documents
serving = _SHOTS_MODULE.serving
shoot_upstream = _SHOTS_MODULE.shoot
SHOTS = ROOT / "test-screenshots"
SHOT_VIEWPORTS = ((1400, 900), (1920, 1080))
STILL_MS = 1500
STILL_FRAMES = 20

#: The paint log (see the module docstring): ``window.__up.paints`` of
#: ``{start, end, ops}``; ``main.jsx`` adds ``marks`` and the document/memory counts.
UPSTREAM_INIT_JS = """(() => {
  if (window.__up) return;
  const up = window.__up = { paints: [], marks: {}, cur: null, frames: 0 };
  const frame = () => { up.frames++; requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
  const P = CanvasRenderingContext2D.prototype;
  const MIN_W = 300;
  const clear = P.clearRect;
  P.clearRect = function () {
    if (this.canvas.width >= MIN_W) {
      const t = performance.now();
      up.cur = { start: t, end: t, ops: 0, frame: up.frames };
      up.paints.push(up.cur);
      if (up.paints.length > 20000) up.paints.splice(1, 10000);
    }
    return clear.apply(this, arguments);
  };
  for (const name of ["fill", "stroke", "fillRect", "strokeRect", "fillText", "drawImage"]) {
    const orig = P[name];
    P[name] = function () {
      const c = up.cur;
      if (c !== null && this.canvas.width >= MIN_W) { c.ops++; c.end = performance.now(); }
      return orig.apply(this, arguments);
    };
  }
})();"""

#: The end of the first paint that drew, or false.
FIRST_PAINT_JS = """() => {
  const up = window.__up;
  const p = up && up.paints.find(p => p.ops > 0);
  return p ? p.end : false;
}"""

#: Once no paint for STILL_MS, and at least ``STILL_FRAMES`` animation frames, after one
#: that drew: the figures, else false. (Under heavy load Chromium can go more than 1.5 s
#: without a frame; the frame count keeps that gap from passing for "still".)
UPSTREAM_STILL_JS = """([quiet, frames]) => {
  const up = window.__up;
  if (!up) return false;
  const drew = up.paints.filter(p => p.ops > 0);
  const last = up.paints[up.paints.length - 1];
  if (!drew.length || performance.now() - last.end < quiet) return false;
  if (up.frames - last.frame < frames) return false;
  const d = drew.map(p => p.end - p.start).sort((a, b) => a - b);
  return { paintMs: d[Math.floor(d.length / 2)], paintMax: d[d.length - 1],
           first: drew[0].end, last: drew[drew.length - 1].end, paints: drew.length,
           empty: up.paints.length - drew.length, marks: up.marks,
           documents: up.documents || 0, memories: up.memories || 0 };
}"""

#: The zoom the upstream's control shows ("7%"): its auto-fit zooms out from 80%.
ZOOM_JS = """() => {
  for (const el of document.querySelectorAll("span, div, button"))
    if (el.children.length === 0 && /^\\d+%$/.test(el.textContent.trim()))
      return el.textContent.trim();
  return "?";
}"""

#: Non-transparent pixels of the largest canvas (once, after still).
PIXELS_JS = """() => {
  let best = null;
  for (const c of document.querySelectorAll("canvas"))
    if (!best || c.width * c.height > best.width * best.height) best = c;
  if (!best) return -1;
  const d = best.getContext("2d").getImageData(0, 0, best.width, best.height).data;
  let n = 0;
  for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++;
  return n;
}"""


@dataclass
class Run:
    """One page load of one product."""

    product: str  # "upstream" | "cold" | "warm"
    size: int
    round: int
    first: float | None = None  # ms, page clock
    still: float | None = None  # ms, page clock
    paints: int | None = None
    wall: float | None = None  # s, navigation → first drawn seen by Python
    note: str = ""
    error: str = ""


@dataclass
class Batch:
    """All runs, in the order they ran."""

    runs: list[Run] = field(default_factory=list)

    def add(self, run: Run) -> None:
        """Keep a run and print it right away."""
        self.runs.append(run)
        print("  " + raw_line(run), flush=True)


# -- the bundle ------------------------------------------------------------------------


def sources_digest() -> str:
    """SHA-256 of our source files (what the install and bundle are built from)."""
    h = hashlib.sha256()
    for name in SOURCE_FILES:
        path = SOURCES / name
        h.update(name.encode() + b"\0" + (path.read_bytes() if path.exists() else b""))
    return h.hexdigest()


def ensure_bundle() -> None:
    """Install and bundle the upstream page into ``bench/out/upstream/`` unless it is
    there already for the same sources."""
    stamp = OUT / "built.sha256"
    digest = sources_digest()
    if stamp.exists() and stamp.read_text().strip() == digest and (WWW / "main.js").exists():
        return
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed (needed once, to install the upstream)")
    OUT.mkdir(parents=True, exist_ok=True)
    WWW.mkdir(exist_ok=True)
    for name in SOURCE_FILES:
        if (SOURCES / name).exists():
            shutil.copy(SOURCES / name, OUT / name)
    t0 = time.perf_counter()
    install = "ci" if (OUT / "package-lock.json").exists() else "install"
    subprocess.run([npm, install, "--no-audit", "--no-fund", "--loglevel=error"], cwd=OUT,
                   check=True, timeout=600)
    subprocess.run([str(OUT / "node_modules" / ".bin" / "esbuild"), "main.jsx", "--bundle",
                    "--minify", "--jsx=automatic", "--format=iife", "--target=es2020",
                    '--define:process.env.NODE_ENV="production"', "--log-level=warning",
                    f"--outfile={WWW / 'main.js'}"], cwd=OUT, check=True, timeout=300)
    shutil.copy(OUT / "index.html", WWW / "index.html")
    stamp.write_text(digest + "\n")
    print(f"  (npm {install} + esbuild into {OUT.relative_to(ROOT)} in "
          f"{time.perf_counter() - t0:.1f} s)", flush=True)


# -- the data --------------------------------------------------------------------------


def ensure_data(size: int) -> tuple[str, int, int]:
    """``data-<n>.json`` in the served folder (written once): (file name, documents,
    memories)."""
    name = f"data-{size}.json"
    path, meta = WWW / name, WWW / f"data-{size}.meta.json"
    if path.exists() and meta.exists():
        counts = json.loads(meta.read_text())
        return name, int(counts["documents"]), int(counts["memories"])
    t0 = time.perf_counter()
    docs = feed_documents(cached_store(size) / STORE_FILE)
    memories = sum(len(d.get("memoryEntries") or []) for d in docs)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps({"documents": docs}, ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)
    meta.write_text(json.dumps({"documents": len(docs), "memories": memories}))
    print(f"  (wrote {name}: {len(docs)} documents, {memories} memories, "
          f"{path.stat().st_size / 1e6:.1f} MB in {time.perf_counter() - t0:.1f} s)",
          flush=True)
    return name, len(docs), memories


# -- the runs --------------------------------------------------------------------------


def failure(run: Run, exc: BaseException) -> None:
    """Mark ``run`` ``timeout`` or ``error``, with the exception's first line in its note."""
    text = str(exc).strip()
    first = text.splitlines()[0] if text else type(exc).__name__
    run.error = "timeout" if "Timeout" in first or isinstance(exc, TimeoutError) else "error"
    run.note += f"{run.error}: {first[:200]}"


def page_errors(errors: list[str]) -> str:
    """The first page error, if any."""
    return f"; {len(errors)} page error(s): {errors[0][:160]}" if errors else ""


def upstream_run(browser: Browser, url: str, run: Run, dl: Deadline) -> Run:
    """Load the upstream page once: first drawn, still, paints."""
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(UPSTREAM_INIT_JS)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda msg: errors.append(f"console: {msg.text}")
            if msg.type == "error" else None)
    try:
        t0 = time.perf_counter()
        page.goto(url, wait_until="commit", timeout=dl.ms(60))
        page.wait_for_function(FIRST_PAINT_JS, polling="raf", timeout=dl.ms(180))
        run.wall = time.perf_counter() - t0
        st = page.wait_for_function(UPSTREAM_STILL_JS, arg=[STILL_MS, STILL_FRAMES],
                                    polling=100,
                                    timeout=dl.ms(180)).json_value()
        run.first, run.still, run.paints = float(st["first"]), float(st["last"]), \
            int(st["paints"])
        marks = st["marks"]
        parsed = f"{marks['dataParsed']:.0f} ms" if "dataParsed" in marks else "?"
        run.note = (f"{st['documents']} docs + {st['memories']} memories; JSON parsed at "
                    f"{parsed}; a paint {st['paintMs']:.0f} ms (median), max "
                    f"{st['paintMax']:.0f} ms; {st['empty']} empty paints; "
                    f"{page.evaluate(PIXELS_JS)} px painted, zoom "
                    f"{page.evaluate(ZOOM_JS)} when still")
    except DeadlineExceeded:
        raise
    except (PlaywrightError, TimeoutError) as exc:
        failure(run, exc)
        run.first = _first_paint(page)
    finally:
        run.note += page_errors(errors)
        context.close()
    return run


def _first_paint(page: Page) -> float | None:
    """The first drawn paint so far, when a later wait failed."""
    try:
        value = page.evaluate(FIRST_PAINT_JS)
    except PlaywrightError:
        return None
    return float(value) if value is not False else None


def memscope_run(browser: Browser, url: str, run: Run, dl: Deadline) -> Run:
    """Load Memscope once (a new session): first drawn, still, draws."""
    errors: list[str] = []
    page = new_page(browser, errors)
    try:
        drawn, _idle = first_load(page, url, dl, 180)
        run.wall = drawn
        st = still(page, dl, 120)
        run.first, run.still, run.paints = st["first"], st["last"], int(st["draws"])
        nodes = page.locator(DRAWN).get_attribute("data-node-count", timeout=dl.ms(10))
        run.note = (f"{nodes} nodes drawn; graph data in the page at "
                    f"{st['received']:.0f} ms; "
                    f"new vis.Network {st['construct']:.0f} ms")
    except DeadlineExceeded:
        raise
    except (PlaywrightError, TimeoutError, RuntimeError) as exc:
        failure(run, exc)
    finally:
        run.note += page_errors(errors)
        page.context.close()
    return run


def copy_store(size: int, folder: Path) -> None:
    """The cached demo store of ``size`` memories, copied into ``folder``."""
    source = cached_store(size) / STORE_FILE
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", folder / f"{STORE_FILE}{suffix}")


def warm_store(folder: Path, dl: Deadline) -> str:
    """``python -m memscope warm`` on ``folder``; its last line and time."""
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "memscope", "warm", "--data-dir",
                           str(folder)], capture_output=True, text=True, cwd=ROOT,
                          timeout=max(5, min(600, dl.remaining())), check=False)
    lines = (proc.stdout.strip() or proc.stderr.strip()).splitlines() or [""]
    return f"exit {proc.returncode} in {time.perf_counter() - t0:.1f} s: {lines[-1][:100]}"


def bench_size(size: int, browser: Browser, base: str, rounds: int, dl: Deadline,
               batch: Batch) -> None:
    """Rounds of: upstream, Memscope cold (fresh server), upstream, Memscope warm."""
    name, docs, memories = ensure_data(size)
    print(f"\n== {size} memories ({docs} documents, {docs + memories} nodes); "
          f"load {load_average()} ==", flush=True)
    url = f"{base}/index.html?data={name}"
    with tempfile.TemporaryDirectory(prefix="memscope-upstream-") as tmp:
        folder = Path(tmp)
        copy_store(size, folder)
        print(f"  python -m memscope warm: {warm_store(folder, dl)}", flush=True)
        for r in range(1, rounds + 1):
            batch.add(upstream_run(browser, url, Run("upstream", size, r), dl))
            server, _log = start_server(folder, timeout=min(120, max(5, dl.remaining())))
            try:
                batch.add(memscope_run(browser, server.url, Run("cold", size, r), dl))
                batch.add(upstream_run(browser, url, Run("upstream", size, r), dl))
                batch.add(memscope_run(browser, server.url, Run("warm", size, r), dl))
            finally:
                server.stop()


def load_average() -> str:
    """The 1/5/15-minute load averages."""
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


# -- printing --------------------------------------------------------------------------


def ms(value: float | None) -> str:
    """Milliseconds, whole, or ``–``."""
    return "–" if value is None else f"{value:.0f} ms"


def raw_line(run: Run) -> str:
    """One run, one line."""
    wall = "–" if run.wall is None else f"{run.wall:.2f} s"
    label = {"upstream": "upstream", "cold": "Memscope cold", "warm": "Memscope warm"}
    status = f"  {run.error.upper()}" if run.error else ""
    return (f"{run.size:>6}  r{run.round}  {label[run.product]:<14} first drawn "
            f"{ms(run.first):>9}  still {ms(run.still):>9}  paints {run.paints or '–':>4}  "
            f"wall {wall:>7}{status}  ({run.note})")


def median_of(runs: list[Run], attr: str) -> float | None:
    """Median of a figure over the runs that have it."""
    values = [v for v in (getattr(r, attr) for r in runs) if v is not None]
    return statistics.median(values) if values else None


def cell(runs: list[Run], attr: str) -> str:
    """A table cell: the median, ``timeout`` when no run got it, ``–`` with no runs."""
    if not runs:
        return "–"
    value = median_of(runs, attr)
    if value is None:
        return "timeout"
    return str(round(value)) if attr == "paints" else ms(value)


def ratio(num: float | None, den: float | None) -> str:
    """``num / den`` as ×, or ``–``."""
    return "–" if num is None or not den else f"{num / den:.2f}×"


def table_row(size: int, runs: list[Run]) -> list[str]:
    """One size's row of the summary."""
    by = {p: [r for r in runs if r.size == size and r.product == p]
          for p in ("upstream", "warm", "cold")}
    up_first = median_of(by["upstream"], "first")
    return [str(size), cell(by["upstream"], "first"), cell(by["warm"], "first"),
            cell(by["cold"], "first"), ratio(median_of(by["warm"], "first"), up_first),
            ratio(median_of(by["cold"], "first"), up_first),
            cell(by["upstream"], "still"), cell(by["upstream"], "paints"),
            cell(by["warm"], "still"), cell(by["warm"], "paints"),
            cell(by["cold"], "still"), cell(by["cold"], "paints"),
            str(len(by["upstream"]))]


HEADER = ["memories", "upstream first", "MS warm first", "MS cold first", "warm/up",
          "cold/up", "up still", "paints", "MS warm still", "draws", "MS cold still", "draws",
          "up runs"]


def print_table(sizes: list[int], batch: Batch) -> None:
    """Medians per size (page clock, ms since navigation start)."""
    table = [HEADER] + [table_row(s, batch.runs) for s in sizes]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEADER))]
    print("\n== summary (medians; page clock from navigation start; MS = Memscope) ==")
    for row in table:
        print("  " + "  ".join(f"{c:>{w}}" for c, w in zip(row, widths, strict=True)))
    print("\n== raw runs ==")
    for run in batch.runs:
        print("  " + raw_line(run))


def side_by_side() -> None:
    """``--shots``: the demo store (as ``make run`` seeds it) drawn by the upstream and by
    Memscope's first view, at 1400×900 and 1920×1080 (Memscope light and dark), into
    ``test-screenshots/map-upstream-<w>x<h>.png`` and ``map-<w>x<h>-<scheme>.png`` — the
    same files ``tests/test_map_browser.py`` writes once the bundle exists."""
    ensure_bundle()
    SHOTS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="memscope-shots-") as tmp, \
            sync_playwright() as pw:
        folder = Path(tmp)
        seed_if_missing(folder / STORE_FILE)
        browser = launch(pw)
        server, _log = start_server(folder, timeout=120)
        try:
            fed = shoot_upstream(browser, folder / STORE_FILE, {
                SHOTS / f"map-upstream-{w}x{h}.png": (w, h) for w, h in SHOT_VIEWPORTS})
            print(f"upstream: {fed['documents']} documents, {fed['memories']} memories")
            for w, h in SHOT_VIEWPORTS:
                for scheme in ("light", "dark"):
                    page = browser.new_page(viewport={"width": w, "height": h},
                                            color_scheme=scheme)
                    page.goto(server.url)
                    page.wait_for_selector(DRAWN, timeout=120_000)
                    page.wait_for_timeout(1500)
                    page.screenshot(path=str(SHOTS / f"map-{w}x{h}-{scheme}.png"))
                    page.close()
            print(f"screenshots in {SHOTS.relative_to(ROOT)}/: map-upstream-*.png beside "
                  "map-<w>x<h>-<light|dark>.png")
        finally:
            server.stop()
            browser.close()


def main() -> None:
    """Parse arguments, build the upstream page once, run every size, print."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,5000,16000,50000",
                        help="comma-separated memory counts (default 1000,5000,16000,50000)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="rounds per size; each loads the upstream twice and Memscope "
                             "cold and warm once (default 2)")
    parser.add_argument("--minutes", type=float, default=20.0,
                        help="deadline for the whole run (default 20)")
    parser.add_argument("--shots", action="store_true",
                        help="only the side-by-side screenshots of the demo store "
                             "(test-screenshots/map-*.png), no timing")
    args = parser.parse_args()
    if args.shots:
        side_by_side()
        return
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    dl = Deadline(time.monotonic() + 60 * args.minutes)
    print(f"bench/upstream.py: sizes {sizes}, {args.rounds} round(s), deadline "
          f"{args.minutes:g} min; load {load_average()} on {os.cpu_count()} cores", flush=True)
    ensure_bundle()
    batch = Batch()
    with serving(WWW) as base, sync_playwright() as pw:
        browser = launch(pw)
        try:
            for size in sizes:
                if dl.remaining() < 20:
                    print(f"\n== {size} memories == skipped: run deadline reached", flush=True)
                    continue
                try:
                    bench_size(size, browser, base, args.rounds, dl, batch)
                except DeadlineExceeded:
                    print("  ! run deadline reached: the rest of this size is skipped",
                          flush=True)
        finally:
            browser.close()
    print_table(sizes, batch)
    print(f"\nload at the end: {load_average()}")


if __name__ == "__main__":
    main()
