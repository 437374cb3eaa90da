"""Concurrent sessions: N browser sessions clicking around one server at the same time.

One demo store of ``--memories`` memories, one ``streamlit run app.py`` on a free port.
The browsers run in a **separate process group** at a lower priority (``nice -n
--nice``): this script starts itself again as the driver (``--drive``), which launches one
headless Chromium with ``--sessions`` contexts (each a Streamlit session) and drives them
concurrently with Playwright's async API. So the server's figures are not the browsers'
CPU, and both are reported: the rerun time seen in the page, and the server's script runs
alone (logged by the ``sitecustomize.py`` hook of ``bench/browser.py``), with the CPU
seconds of the server and of the driver's process group per phase.

One session loads first (warm caches; ``--cold-start`` opens all at once). Then two
phases: **idle** (``--seconds``): each session acts — mostly it clicks a random drawn node
(found through ``el.__network``, centred, checked with ``getNodeAt``; in the overview these
are cluster hexagons, which expand, and later their members), sometimes
(``--filter-share``) it toggles "Show superseded versions"; between actions it waits a
random ``--think`` time. **file** (``--file-seconds``, unless ``--file-mb 0``): the same,
while one more session opens a snapshot file of about ``--file-mb`` MB (a saved demo store,
generated once into ``bench/out/``) on the Connection page and goes to the Explorer until
its graph is drawn; the others' reruns while it does are compared with their idle p95.
Per action the rerun time is measured in-page: from the input event (pointerdown) to the
script state back at ``notRunning`` after the run the action started. Per phase it prints
that (p50/p95 per kind of action), the server's own script runs (p50/p95; the hook of
``bench/browser.py``), where those runs' wall time went (on a core, waiting for a core,
asleep: the GIL, locks, I/O), what garbage collection cost (collections, share of the
wall time, full collections and how many were Streamlit's ``runner.postScriptGC``), the
CPU of the server and of the browsers, and a summary table of the phases.

``--url`` drives a server that is already running (``bench/browser.py --background``
does so; ``--server-pid``, ``--runlog`` and ``--gclog`` give its figures), ``--ready-file``
is touched once every session has loaded and ``--stop-file`` ends the phase when it
appears. ``--server-env KEY=VALUE`` adds to the environment of the server it starts
(e.g. ``STREAMLIT_RUNNER_POST_SCRIPT_GC=false`` to compare). ``--protocol`` measures the server
alone instead: the same ``--sessions``, ``--seconds``, ``--think`` and ``--memories``
driven without browsers by ``bench/server_sessions.py`` (Streamlit's websocket protocol).

Every wait has a timeout and the whole run a hard limit; loopback only. Prints figures;
asserts nothing. Adds ``tests/`` to ``sys.path`` (through ``bench/browser.py``).

    .venv/bin/python bench/sessions.py [--sessions 10] [--seconds 40] [--memories 10000]
                                       [--file-mb 30] [--file-seconds 40] [--nice 10]
                                       [--cold-start] [--server-env KEY=VALUE]
                                       [--protocol]
                                       [--url URL --server-pid PID --runlog F --gclog F]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser import (  # also puts the repository and tests/ on sys.path
    DRAWN,
    DRAWN_IDS_JS,
    EXCEPTION,
    INIT_JS,
    PICK_JS,
    RERUN_JS,
    ROOT,
    VIEWPORT,
    RunLog,
    rss_mb,
    start_server,
)
from browser_support import CHROMIUM, CHROMIUM_ARGS, GRAPH, IDLE
from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout
from scale import OUT, cached_store, make_store

from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource
from memscope.sources.files import snapshot_bytes

LOAD_TIMEOUT_S = 180
ACTION_TIMEOUT_S = 30
OPEN_TIMEOUT_S = 180
#: t0 → true once a script run started after t0 (used to tell "no rerun" from "slow")
STARTED_JS = """t0 => window.__ms.states.some(([t, s]) => t >= t0 && s !== "notRunning")"""


@dataclass
class Stats:
    """Everything the driver measured (one event loop), saved as JSON for the parent."""

    #: (kind, monotonic time of the input, rerun ms, phase)
    reruns: list[tuple[str, float, float, str]] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    skipped: int = 0
    #: reruns seen only by their websocket messages (React never showed "running")
    batched: int = 0
    skips: Counter[str] = field(default_factory=Counter)
    samples: dict[str, str] = field(default_factory=dict)
    #: phase → [monotonic start, end]; "opening" is the file session's click → drawn
    phases: dict[str, list[float]] = field(default_factory=dict)
    opener: str = ""
    phase: str = "loading"

    def error(self, kind: str, detail: str) -> None:
        """Count an error of ``kind``; keep the first detail of each kind."""
        self.errors[kind] += 1
        self.samples.setdefault(kind, detail.strip().splitlines()[0][:200] if detail else "")

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return {"reruns": self.reruns, "loads": self.loads, "errors": dict(self.errors),
                "skipped": self.skipped, "batched": self.batched, "skips": dict(self.skips),
                "samples": self.samples, "phases": self.phases,
                "opener": self.opener}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (all its threads) in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds of the live descendants of process ``root`` and itself (the driver, its
    Playwright driver and Chromium, which Playwright starts in a process group of its own)."""
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parent[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    total = 0.0
    for pid in cpu:
        walk = pid
        while walk > 1 and walk != root:
            walk = parent.get(walk, 0)
        if walk == root:
            total += cpu[pid]
    return total


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine was busy (all cores; ``/proc/stat``)."""
    fields = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:8]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of a non-empty list.

    >>> percentile([1, 2, 3, 4], 50), percentile([1, 2, 3, 4], 95)
    (2, 4)
    """
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


# -- the driver (a separate, niced process group) ---------------------------------------

async def pick(page: Page, rng: random.Random, last: str | None,
               cluster_share: float) -> dict[str, Any] | str:
    """A random drawn node that a click at its centre hits (not ``last``), else why
    there is none."""
    graph = page.locator(GRAPH)
    clusters = [i for i in await graph.evaluate(DRAWN_IDS_JS, ["cluster"]) if i != last]
    others = [i for i in await graph.evaluate(DRAWN_IDS_JS, ["memory", "document", "entity"])
              if i != last]
    pool = clusters if clusters and (not others or rng.random() < cluster_share) else others
    if not pool:
        return "no drawn node"
    ids = rng.sample(pool, min(30, len(pool)))
    scale = 1.0 if pool is clusters else 1.5
    found = await graph.evaluate(PICK_JS, [ids, scale])
    # an expanded cluster's members sit close: zoom in further when none was hit
    found = found if found is not None else await graph.evaluate(PICK_JS, [ids, 3 * scale])
    if found is not None:
        return found
    size = await graph.evaluate("el => [el.clientWidth, el.clientHeight]")
    return (f"none of {len(ids)} drawn {'clusters' if pool is clusters else 'nodes'} hit "
            f"at its centre (canvas {size[0]}×{size[1]})")


async def new_session_page(browser: Browser, stats: Stats) -> Page:
    """A page in a new context (a new Streamlit session once it navigates)."""
    context = await browser.new_context(viewport=VIEWPORT)
    await context.add_init_script(INIT_JS)
    page = await context.new_page()
    page.on("pageerror", lambda exc: stats.error("page error", str(exc)))
    return page


async def open_session(browser: Browser, url: str, stats: Stats) -> Page:
    """A new session, navigated until the graph is drawn and the app idle."""
    page = await new_session_page(browser, stats)
    t0 = time.perf_counter()
    await page.goto(url, wait_until="commit", timeout=LOAD_TIMEOUT_S * 1000)
    await page.wait_for_selector(DRAWN, timeout=LOAD_TIMEOUT_S * 1000)
    stats.loads.append(time.perf_counter() - t0)
    await page.wait_for_selector(IDLE, timeout=LOAD_TIMEOUT_S * 1000)
    return page


async def act(page: Page, rng: random.Random, args: argparse.Namespace, stats: Stats,
              last: str | None, shown: set[str]) -> str | None:
    """One action and its rerun time; returns the id clicked (or ``last``). ``shown``:
    exception texts this page already showed (each is counted once)."""
    if rng.random() < args.filter_share:
        kind = "filter toggle"
        folded = page.locator("[data-testid='stSidebar'] details:not([open])").filter(
            has=page.locator("summary", has_text="Filters"))
        if await folded.count():  # the filters are folded in a new session
            await folded.locator("summary").click(timeout=ACTION_TIMEOUT_S * 1000)
        box = page.locator("[data-testid='stCheckbox']").filter(
            has_text="Show superseded versions")
        await box.locator("label").click(timeout=ACTION_TIMEOUT_S * 1000)
    else:
        target = await pick(page, rng, last, args.cluster_share)
        if isinstance(target, str):  # nothing drawn that a click at its centre would hit
            stats.skipped += 1
            stats.skips[target.split(" (")[0]] += 1
            stats.samples.setdefault(f"skip: {target.split(' (')[0]}", target)
            return last
        kind = "click cluster" if target["id"].startswith("cluster:") else "click node"
        await page.wait_for_timeout(100)  # let the moved view paint once
        await page.mouse.click(target["x"], target["y"])
        last = target["id"]
    at, phase = time.monotonic(), stats.phase
    t0 = float(await page.evaluate("window.__ms.inputAt"))
    try:
        done = await page.wait_for_function(RERUN_JS, arg=t0, polling=20,
                                            timeout=ACTION_TIMEOUT_S * 1000)
    except PlaywrightTimeout:
        if await page.evaluate(STARTED_JS, t0):
            stats.error("failed wait (rerun > 30 s)", kind)
        else:
            stats.error("no rerun started", kind)
        await page.wait_for_selector(IDLE, timeout=ACTION_TIMEOUT_S * 1000)
        return last
    run = await done.json_value()
    stats.reruns.append((kind, at, float(run["end"]) - t0, phase))
    stats.batched += bool(run.get("batched"))
    for text in await page.locator(EXCEPTION).all_inner_texts():
        if text not in shown:
            shown.add(text)
            stats.error("stException shown", text)
    return last


def stop_requested(args: argparse.Namespace) -> bool:
    """True once ``--stop-file`` exists (the sessions finish their action and stop)."""
    return bool(args.stop_file) and Path(args.stop_file).exists()


async def session(index: int, page: Page, args: argparse.Namespace, stats: Stats,
                  stop_at: float) -> None:
    """Act until ``stop_at``; every failure is counted, none ends the run."""
    rng = random.Random(1000 + index + int(stop_at))
    last: str | None = None
    shown: set[str] = set()
    while time.monotonic() < stop_at and not stop_requested(args):
        try:
            last = await act(page, rng, args, stats, last, shown)
            await page.wait_for_selector(IDLE, timeout=ACTION_TIMEOUT_S * 1000)
        except PlaywrightTimeout as exc:
            stats.error("failed wait", str(exc))
        except PlaywrightError as exc:
            stats.error("playwright error", str(exc))
            await asyncio.sleep(1)
        await asyncio.sleep(rng.uniform(*args.think))


async def open_file(browser: Browser, url: str, path: str, stats: Stats) -> None:
    """One more session: the Connection page, upload ``path``, "Open these files", then
    the Explorer until its graph is drawn. Sets ``stats.phases["opening"]``."""
    page = await new_session_page(browser, stats)
    try:
        await page.goto(f"{url}/connection", wait_until="commit",
                        timeout=LOAD_TIMEOUT_S * 1000)
        await page.wait_for_selector(IDLE, timeout=LOAD_TIMEOUT_S * 1000)
        uploader = page.locator("[data-testid='stFileUploader'] input[type='file']")
        await uploader.set_input_files(path, timeout=OPEN_TIMEOUT_S * 1000)
        button = page.get_by_role("button", name="Open these files")
        await button.wait_for(timeout=OPEN_TIMEOUT_S * 1000)
        start = time.monotonic()
        stats.phases["opening"] = [start, start]
        await button.click(timeout=OPEN_TIMEOUT_S * 1000)
        await page.wait_for_timeout(500)
        await page.wait_for_selector(IDLE, timeout=OPEN_TIMEOUT_S * 1000)
        opened = time.monotonic() - start
        nav = page.locator("[data-testid='stSidebarNavLink']").filter(has_text="Explorer")
        await nav.click(timeout=OPEN_TIMEOUT_S * 1000)
        await page.wait_for_selector(DRAWN, timeout=OPEN_TIMEOUT_S * 1000)
        stats.phases["opening"][1] = time.monotonic()
        caption = page.locator("[data-testid='stCaptionContainer']").filter(
            has_text="Showing").first
        shown = (await caption.inner_text(timeout=10_000)).split(".")[0]
        stats.opener = (f"opened in {opened:.1f} s, Explorer drawn after "
                        f"{time.monotonic() - start:.1f} s ({shown})")
    except (PlaywrightError, PlaywrightTimeout) as exc:
        stats.error("file session failed", str(exc))
        if "opening" in stats.phases:
            stats.phases["opening"][1] = time.monotonic()
    finally:
        await page.context.close()


async def phase(name: str, seconds: float, pages: list[Page], args: argparse.Namespace,
                stats: Stats, extra: Any = None) -> None:
    """Every session acts for ``seconds`` (plus ``extra``, awaited alongside)."""
    stats.phase = name
    start = time.monotonic()
    stats.phases[name] = [start, start]
    jobs = [session(i, p, args, stats, start + seconds) for i, p in enumerate(pages)]
    try:
        await asyncio.wait_for(asyncio.gather(*jobs, *([extra] if extra else [])),
                               timeout=seconds + OPEN_TIMEOUT_S + ACTION_TIMEOUT_S)
    except TimeoutError:
        stats.error(f"{name}: sessions still busy at the hard limit", "")
    stats.phases[name][1] = time.monotonic()


async def drive(args: argparse.Namespace) -> None:
    """The driver: open the sessions, run the phases, write ``args.out``."""
    stats = Stats()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            t0 = time.perf_counter()
            opened: list[Page | BaseException] = []
            if not args.cold_start:  # one session first, so the rest find warm caches
                opened += await asyncio.gather(open_session(browser, args.drive, stats),
                                               return_exceptions=True)
            opened += await asyncio.gather(*(open_session(browser, args.drive, stats)
                                             for _ in range(args.sessions - len(opened))),
                                           return_exceptions=True)
            pages = [p for p in opened if not isinstance(p, BaseException)]
            for failure in (p for p in opened if isinstance(p, BaseException)):
                stats.error("session did not load", str(failure))
            stats.phases["loading"] = [time.monotonic() - (time.perf_counter() - t0),
                                       time.monotonic()]
            print(f"{len(pages)}/{args.sessions} sessions loaded in "
                  f"{time.perf_counter() - t0:.1f} s; acting…", flush=True)
            if args.ready_file:
                Path(args.ready_file).touch()
            await phase("idle", args.seconds, pages, args, stats)
            if args.file and not stop_requested(args):
                await phase("file", args.file_seconds, pages, args, stats,
                            open_file(browser, args.drive, args.file, stats))
        finally:
            await browser.close()
    Path(args.out).write_text(json.dumps(stats.to_json()), encoding="utf-8")


# -- the parent: server, driver, figures ------------------------------------------------

def snapshot_file(megabytes: float) -> Path:
    """A snapshot of about ``megabytes`` MB (a saved demo store; ~0.77 MB per 1k
    memories), generated once into ``bench/out/``."""
    memories = max(1000, round(megabytes / 0.77) * 1000)
    target = OUT / f"snapshot-{memories}.json"
    if not target.exists():
        result = EmbeddedSource(cached_store(memories) / STORE_FILE).load()
        target.write_bytes(snapshot_bytes(result))
    return target


@dataclass
class Sampler:
    """CPU seconds of the server (and its parse workers), of the driver with its browsers,
    and of the whole machine, sampled over time."""

    server: int
    driver: int
    samples: list[tuple[float, float, float, float]] = field(default_factory=list)

    def sample(self) -> None:
        """One (monotonic, server CPU, driver CPU, machine busy) sample."""
        with contextlib.suppress(OSError, IndexError, ValueError):
            server = tree_cpu_seconds(self.server) if self.server else 0.0
            self.samples.append((time.monotonic(), server, tree_cpu_seconds(self.driver),
                                 machine_busy_seconds()))

    def usage(self, start: float, end: float) -> tuple[float, float, float] | None:
        """(server, browsers, anything else) between two monotonic times, in % of one
        core; None when too short to sample."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        if len(inside) < 2:
            return None
        (t0, s0, d0, m0), (t1, s1, d1, m1) = inside[0], inside[-1]
        wall = t1 - t0
        server, browsers, machine = (100 * (s1 - s0) / wall, 100 * (d1 - d0) / wall,
                                     100 * (m1 - m0) / wall)
        return server, browsers, max(0.0, machine - server - browsers)

    def between(self, start: float, end: float) -> str:
        """The CPU use of each between two monotonic times, in % of one core."""
        use = self.usage(start, end)
        if use is None:
            return "cpu: too short to sample"
        return (f"CPU % of one core: server {use[0]:.0f}, browsers {use[1]:.0f} (niced, own "
                f"process group), anything else {use[2]:.0f} ({os.cpu_count()} cores)")


def row(name: str, values: list[float]) -> str:
    """One table row: count, p50, p95, max."""
    if not values:
        return f"{name:<44} {0:>6}"
    return (f"{name:<44} {len(values):>6} {percentile(values, 50):>6.0f} "
            f"{percentile(values, 95):>6.0f} {max(values):>6.0f}")


@dataclass
class PhaseFigures:
    """One line of the summary: a phase's in-page reruns, server runs, CPU and gc."""

    name: str
    seconds: float
    page: list[float]
    server: list[float]
    cpu: tuple[float, float, float] | None
    gc: tuple[int, float, float] | None

    def cells(self) -> list[str]:
        """The summary cells."""
        def pq(values: list[float], q: float) -> str:
            return f"{percentile(values, q):.0f}" if values else "–"
        cpu = [f"{v:.0f}" for v in self.cpu] if self.cpu else ["–"] * 3
        return [self.name, f"{self.seconds:.0f}", str(len(self.page)), pq(self.page, 50),
                pq(self.page, 95), str(len(self.server)), pq(self.server, 50),
                pq(self.server, 95), *cpu, f"{self.gc[2]:.0f}" if self.gc else "–"]


SUMMARY_HEAD = ["phase", "s", "actions", "page p50", "page p95", "runs", "server p50",
                "server p95", "CPU server", "browsers", "other", "gc %"]


def print_summary(figures: list[PhaseFigures]) -> None:
    """The per-phase summary table (ms; CPU in % of one core; gc: % of wall time)."""
    table = [SUMMARY_HEAD, *(f.cells() for f in figures)]
    widths = [max(len(r[i]) for r in table) for i in range(len(SUMMARY_HEAD))]
    print("\n== summary: in-page rerun (input → idle) vs the server's script run, ms ==")
    for r in table:
        print("  " + "  ".join(f"{c:>{w}}" for c, w in zip(r, widths, strict=True)))


def report_phase(name: str, data: dict[str, Any], log: RunLog, cpu: Sampler,
                 idle95: float | None) -> PhaseFigures:
    """The rows of one phase; returns its summary figures."""
    phases, runs = data["phases"], log.runs()
    start, end = phases[name]
    reruns = [r for r in data["reruns"] if r[3] == name]
    print(f"-- {name} phase, {end - start:.0f} s; {cpu.between(start, end)}")
    print(f"   {log.gc_between(start, end)}")
    print(f"   {log.where_runs_went(start, end)}")
    for kind in sorted({r[0] for r in reruns}):
        print(row(f"  {kind} (in-page)", [r[2] for r in reruns if r[0] == kind]))
    every = [r[2] for r in reruns]
    server = [1000 * (e - b) for _, b, e in runs if start <= b < end]
    print(row("  all actions (in-page: input → idle)", every))
    print(row("  server script runs (all sessions)", server))
    if name == "file" and "opening" in phases:
        a, b = phases["opening"]
        during = [r[2] for r in reruns if a <= r[1] <= b]
        print(row(f"  while the file opened ({b - a:.0f} s; in-page)", during))
        print(row("  ... server script runs (incl. the opener's)",
                  [1000 * (e - s) for _, s, e in runs if a <= s < b]))
        print(f"  the file session: {data['opener'] or 'did not finish'}; "
              f"{cpu.between(a, b)}")
        if during and idle95:
            print(f"  other sessions' p95 while the file opened: "
                  f"{percentile(during, 95) / idle95:.2f}× their idle p95")
    return PhaseFigures(name, end - start, every, server, cpu.usage(start, end),
                        log.gc_share(start, end))


def report(data: dict[str, Any], log: RunLog, cpu: Sampler, rss: float | None) -> None:
    """The figures: per phase, the reruns seen in the browsers and the server's runs."""
    loads = data["loads"]
    if loads:
        print(f"initial loads (nav → graph drawn): n={len(loads)} first {loads[0]:.2f} s, "
              f"p50 {percentile(loads, 50):.2f} s, max {max(loads):.2f} s")
    if rss is not None:
        print(f"server RSS at the end: {rss:.0f} MB")
    print(f"\n{'rerun time (ms)':<44} {'count':>6} {'p50':>6} {'p95':>6} {'max':>6}")
    figures: list[PhaseFigures] = []
    for name in ("idle", "file"):
        if name in data["phases"]:
            idle95 = percentile(figures[0].page, 95) if figures and figures[0].page else None
            figures.append(report_phase(name, data, log, cpu, idle95))
    if data.get("batched"):
        print(f"reruns seen by their messages only (a quick run whose 'running' React never "
              f"rendered; timed to its last message): {data['batched']}")
    if data["skipped"]:
        print(f"actions skipped (no drawn node a click would hit): {data['skipped']}")
        for why, count in Counter(data.get("skips", {})).most_common():
            print(f"  {why}: {count} — e.g. {data['samples'].get(f'skip: {why}', '')}")
    errors = Counter(data["errors"])
    print(f"\nerrors: {sum(errors.values())}"
          + ("" if errors else " (no page errors, no stException, no failed waits)"))
    for kind, count in errors.most_common():
        sample = data["samples"].get(kind)
        print(f"  {kind}: {count}" + (f" — e.g. {sample}" if sample else ""))
    print_summary(figures)


def run_driver(args: argparse.Namespace, url: str, out: Path, file: Path | None,
               server_pid: int) -> Sampler:
    """The driver in its own process group at ``nice --nice``; its CPU is sampled."""
    cmd = ["nice", "-n", str(args.nice), sys.executable, str(Path(__file__).resolve()),
           "--drive", url, "--out", str(out), "--sessions", str(args.sessions),
           "--seconds", str(args.seconds), "--file-seconds", str(args.file_seconds),
           "--filter-share", str(args.filter_share), "--cluster-share",
           str(args.cluster_share), "--think", *(str(t) for t in args.think)]
    cmd += ["--file", str(file)] if file else []
    cmd += ["--cold-start"] if args.cold_start else []
    cmd += ["--ready-file", args.ready_file] if args.ready_file else []
    cmd += ["--stop-file", args.stop_file] if args.stop_file else []
    limit = LOAD_TIMEOUT_S + args.seconds + args.file_seconds + 2 * OPEN_TIMEOUT_S + 60
    proc = subprocess.Popen(cmd, cwd=ROOT, start_new_session=True)
    cpu = Sampler(server_pid, proc.pid)
    deadline = time.monotonic() + limit
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            cpu.sample()
            time.sleep(0.5)
    finally:
        if proc.poll() is None:
            print("driver: hard limit reached; stopping it", flush=True)
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
    return cpu


def own_server(args: argparse.Namespace) -> None:
    """Seed a store, start a server on it, drive it, print the figures."""
    with tempfile.TemporaryDirectory(prefix="memscope-sessions-") as tmp:
        t0 = time.perf_counter()
        make_store(Path(tmp), args.memories)
        file = snapshot_file(args.file_mb) if args.file_mb > 0 else None
        print(f"demo store seeded in {time.perf_counter() - t0:.1f} s"
              + (f"; file {file.name}, {file.stat().st_size / 1e6:.1f} MB" if file else ""),
              flush=True)
        env = dict(item.split("=", 1) for item in args.server_env)
        server, log = start_server(Path(tmp), env=env)
        out = Path(tmp) / "driver.json"
        try:
            cpu = run_driver(args, server.url, out, file, server.process.pid)
            rss = rss_mb(server.process.pid) if server.process.poll() is None else None
        finally:
            server.stop()
        if not out.exists():
            print("the driver saved no measurements (see its output above)")
            return
        report(json.loads(out.read_text(encoding="utf-8")), log, cpu, rss)


def their_server(args: argparse.Namespace) -> None:
    """Drive a running server (``--url``; its pid and the hook's logs when given, for
    its CPU, RSS, script runs and gc), print the figures."""
    log = RunLog(Path(args.runlog or os.devnull), Path(args.gclog) if args.gclog else None)
    with tempfile.TemporaryDirectory(prefix="memscope-sessions-") as tmp:
        out = Path(tmp) / "driver.json"
        cpu = run_driver(args, args.url.rstrip("/"), out, None, args.server_pid)
        if not out.exists():
            print("the driver saved no measurements (see its output above)")
            return
        rss = None
        with contextlib.suppress(OSError, RuntimeError):
            rss = rss_mb(args.server_pid) if args.server_pid else None
        report(json.loads(out.read_text(encoding="utf-8")), log, cpu, rss)


def parse_args() -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=40,
                        help="the idle phase (40 s)")
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--file-mb", type=float, default=30,
                        help="size of the snapshot one more session opens (30; 0 = skip)")
    parser.add_argument("--file-seconds", type=float, default=40,
                        help="the phase in which that session opens it (40 s)")
    parser.add_argument("--nice", type=int, default=10,
                        help="niceness of the driver and its browsers (10)")
    parser.add_argument("--filter-share", type=float, default=0.1,
                        help="share of actions that toggle the superseded filter (0.1)")
    parser.add_argument("--cluster-share", type=float, default=0.4,
                        help="share of clicks on cluster hexagons while other nodes are "
                             "drawn too (0.4)")
    parser.add_argument("--think", type=float, nargs=2, default=(0.25, 1.0),
                        metavar=("MIN", "MAX"),
                        help="think time between actions, uniform in seconds (0.25 1.0)")
    parser.add_argument("--cold-start", action="store_true",
                        help="open all sessions at once on the cold server (default: one "
                             "session first, then the others on warm caches)")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                        help="add to the server's environment, e.g. STREAMLIT_RUNNER_POST_"
                             "SCRIPT_GC=false (repeatable; not with --url)")
    parser.add_argument("--url", help="drive this running server instead of seeding and "
                                      "starting one (--memories and --file-mb are ignored)")
    parser.add_argument("--server-pid", type=int, default=0,
                        help="with --url: the server's pid (its CPU and RSS)")
    parser.add_argument("--runlog", help="with --url: the server's run log "
                                         "(MEMSCOPE_BENCH_RUNLOG of bench/browser.py's hook)")
    parser.add_argument("--gclog", help="with --url: the server's gc log "
                                        "(MEMSCOPE_BENCH_GCLOG)")
    parser.add_argument("--ready-file", help="touched once every session has loaded")
    parser.add_argument("--stop-file", help="the sessions stop once this file exists")
    parser.add_argument("--protocol", action="store_true",
                        help="the server alone: the same sessions over Streamlit's "
                             "websocket protocol, no browsers (bench/server_sessions.py)")
    parser.add_argument("--drive", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--file", help=argparse.SUPPRESS)
    return parser.parse_args()


def main() -> None:
    """As the parent: seed, serve (or use ``--url``), run the driver, print; as the
    driver (``--drive URL``): act and save the measurements."""
    args = parse_args()
    if args.drive:
        asyncio.run(drive(args))
        return
    if args.protocol:  # the server alone: the same N, no browsers
        cmd = [sys.executable, str(Path(__file__).with_name("server_sessions.py")),
               "--memories", str(args.memories), "--sessions", str(args.sessions),
               "--seconds", str(args.seconds), "--think", ",".join(map(str, args.think)),
               "--stop-over", "1e9"]
        raise SystemExit(subprocess.call(cmd))
    if args.url:
        args.file_mb = 0
    print(f"bench/sessions.py: {args.sessions} sessions on "
          + (args.url if args.url else f"{args.memories} memories") + f"; idle "
          f"{args.seconds:g} s" + (f", then {args.file_seconds:g} s while one more opens a "
          f"{args.file_mb:g} MB file" if args.file_mb > 0 else "") + f"; think "
          f"{args.think[0]:g}–{args.think[1]:g} s, filter share {args.filter_share:g}; "
          f"browsers niced {args.nice} in their own process group; "
          + ("cold start" if args.cold_start else "warm start (one first)")
          + (f"; server env {' '.join(args.server_env)}" if args.server_env else ""),
          flush=True)
    if args.url:
        their_server(args)
    else:
        own_server(args)


if __name__ == "__main__":
    main()
