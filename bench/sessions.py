"""Concurrent sessions: N browser sessions clicking around one server at the same time.

One demo store of ``--memories`` memories, one ``streamlit run app.py`` on a free port,
one headless Chromium with ``--sessions`` contexts (each a Streamlit session), driven
concurrently with Playwright's async API (one event loop, ``asyncio.gather``). One session
loads first (warm caches; ``--cold-start`` opens all at once). Then each session acts for
``--seconds``: mostly it clicks a random drawn node (found through ``el.__network``,
centred, checked with ``getNodeAt``; in the overview these are cluster hexagons, which
expand, and later their members), sometimes (``--filter-share``) it toggles "Show
superseded versions"; between actions it waits a random ``--think`` time. Per action the
rerun time is measured in-page: from the input event (pointerdown) to the script state
back at ``notRunning`` after the run the action started.

Prints count, p50, p95 and max of the rerun times (all actions and per kind), of the
server's script runs alone (logged by the ``sitecustomize.py`` hook of
``bench/browser.py``), the initial page loads, server RSS and CPU, and errors: page errors,
``stException`` elements shown, failed waits (timeouts), actions that started no rerun.
Every wait has a timeout and the whole run a hard limit. Asserts nothing. Adds ``tests/``
to ``sys.path`` (through ``bench/browser.py``) for ``streamlit_server`` and
``browser_support``.

    .venv/bin/python bench/sessions.py [--sessions 10] [--seconds 60] [--memories 10000]
                                       [--cold-start]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from collections import Counter, defaultdict
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
    VIEWPORT,
    RunLog,
    make_store,
    rss_mb,
    start_server,
)
from browser_support import CHROMIUM, CHROMIUM_ARGS, GRAPH, IDLE
from playwright.async_api import Browser, Page, async_playwright
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

LOAD_TIMEOUT_S = 180
ACTION_TIMEOUT_S = 30
#: t0 → true once a script run started after t0 (used to tell "no rerun" from "slow")
STARTED_JS = """t0 => window.__ms.states.some(([t, s]) => t >= t0 && s !== "notRunning")"""


@dataclass
class Stats:
    """Everything the sessions measured, shared by all of them (one event loop)."""

    reruns: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    loads: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    skipped: int = 0
    samples: dict[str, str] = field(default_factory=dict)
    rss_loaded: float = 0.0
    #: (CPU seconds of the server process, wall seconds) over the acting phase
    server_cpu: tuple[float, float] = (0.0, 0.0)
    #: monotonic time the acting phase began
    acting_from: float = 0.0

    def error(self, kind: str, detail: str) -> None:
        """Count an error of ``kind``; keep the first detail of each kind."""
        self.errors[kind] += 1
        self.samples.setdefault(kind, detail.strip().splitlines()[0][:200] if detail else "")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (all its threads) in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


async def pick(page: Page, rng: random.Random, last: str | None,
               cluster_share: float) -> dict[str, Any] | None:
    """A random drawn node that a click at its centre hits (not ``last``)."""
    graph = page.locator(GRAPH)
    clusters = [i for i in await graph.evaluate(DRAWN_IDS_JS, ["cluster"]) if i != last]
    others = [i for i in await graph.evaluate(DRAWN_IDS_JS, ["memory", "document", "entity"])
              if i != last]
    pool = clusters if clusters and (not others or rng.random() < cluster_share) else others
    if not pool:
        return None
    ids = rng.sample(pool, min(30, len(pool)))
    return await graph.evaluate(PICK_JS, [ids, 1.0 if pool is clusters else 1.5])


async def open_session(browser: Browser, url: str, stats: Stats) -> Page:
    """A new context and page, navigated until the graph is drawn and the app idle."""
    context = await browser.new_context(viewport=VIEWPORT)
    await context.add_init_script(INIT_JS)
    page = await context.new_page()
    page.on("pageerror", lambda exc: stats.error("page error", str(exc)))
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
        box = page.locator("[data-testid='stCheckbox']").filter(
            has_text="Show superseded versions")
        await box.locator("label").click(timeout=ACTION_TIMEOUT_S * 1000)
    else:
        target = await pick(page, rng, last, args.cluster_share)
        if target is None:  # nothing drawn that a click at its centre would hit
            stats.skipped += 1
            return last
        kind = "click cluster" if target["id"].startswith("cluster:") else "click node"
        await page.wait_for_timeout(100)  # let the moved view paint once
        await page.mouse.click(target["x"], target["y"])
        last = target["id"]
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
    stats.reruns[kind].append(run["end"] - t0)
    for text in await page.locator(EXCEPTION).all_inner_texts():
        if text not in shown:
            shown.add(text)
            stats.error("stException shown", text)
    return last


async def session(index: int, page: Page, args: argparse.Namespace, stats: Stats,
                  stop_at: float) -> None:
    """Act until ``stop_at``; every failure is counted, none ends the run."""
    rng = random.Random(1000 + index)
    last: str | None = None
    shown: set[str] = set()
    while time.monotonic() < stop_at:
        try:
            last = await act(page, rng, args, stats, last, shown)
            await page.wait_for_selector(IDLE, timeout=ACTION_TIMEOUT_S * 1000)
        except PlaywrightTimeout as exc:
            stats.error("failed wait", str(exc))
        except PlaywrightError as exc:
            stats.error("playwright error", str(exc))
            await asyncio.sleep(1)
        await asyncio.sleep(rng.uniform(*args.think))


async def run(args: argparse.Namespace, url: str, pid: int, stats: Stats) -> None:
    """Open the sessions, let them act for ``--seconds``, close everything."""
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            t0 = time.perf_counter()
            opened: list[Page | BaseException] = []
            if not args.cold_start:  # one session first, so the rest find warm caches
                opened += await asyncio.gather(open_session(browser, url, stats),
                                               return_exceptions=True)
            opened += await asyncio.gather(*(open_session(browser, url, stats)
                                             for _ in range(args.sessions - len(opened))),
                                           return_exceptions=True)
            pages = [p for p in opened if not isinstance(p, BaseException)]
            for failure in (p for p in opened if isinstance(p, BaseException)):
                stats.error("session did not load", str(failure))
            stats.rss_loaded = rss_mb(pid)
            print(f"{len(pages)}/{args.sessions} sessions loaded in "
                  f"{time.perf_counter() - t0:.1f} s; server RSS {stats.rss_loaded:.0f} MB; "
                  f"acting for {args.seconds:g} s…", flush=True)
            stats.acting_from = time.monotonic()
            stop_at = stats.acting_from + args.seconds
            cpu0, wall0 = cpu_seconds(pid), time.monotonic()
            try:
                await asyncio.wait_for(
                    asyncio.gather(*(session(i, p, args, stats, stop_at)
                                     for i, p in enumerate(pages))),
                    timeout=args.seconds + 3 * ACTION_TIMEOUT_S)
            except TimeoutError:
                stats.error("sessions still busy at the hard limit", "")
            stats.server_cpu = (cpu_seconds(pid) - cpu0, time.monotonic() - wall0)
        finally:
            await browser.close()


def report(stats: Stats, rss: tuple[float, float], log: RunLog) -> None:
    """The figures."""
    loads = stats.loads
    if loads:
        print(f"initial loads (nav → graph drawn): n={len(loads)} first {loads[0]:.2f} s, "
              f"p50 {percentile(loads, 50):.2f} s, max {max(loads):.2f} s")
    print(f"server RSS: {rss[0]:.0f} MB after loading, {rss[1]:.0f} MB at the end")
    cpu, wall = stats.server_cpu
    if wall:
        print(f"server CPU while acting: {cpu:.1f} s in {wall:.1f} s wall "
              f"({100 * cpu / wall:.0f}% of one core; {os.cpu_count()} cores shared with "
              "Chromium)")
    rows = sorted(stats.reruns.items())
    every = [v for _, values in rows for v in values]
    server = [1000 * (end - start) for _, start, end in log.runs()
              if start >= stats.acting_from > 0]
    print(f"\n{'rerun time (ms)':<26} {'count':>6} {'p50':>6} {'p95':>6} {'max':>6}")
    for name, values in [*rows, ("all actions", every),
                         ("(server script runs only)", server)]:
        if values:
            print(f"{name:<26} {len(values):>6} {percentile(values, 50):>6.0f} "
                  f"{percentile(values, 95):>6.0f} {max(values):>6.0f}")
    if stats.skipped:
        print(f"actions skipped (no drawn node a click would hit): {stats.skipped}")
    print(f"\nerrors: {sum(stats.errors.values())}"
          + ("" if stats.errors else " (no page errors, no stException, no failed waits)"))
    for kind, count in stats.errors.most_common():
        print(f"  {kind}: {count}" + (f" — e.g. {stats.samples[kind]}"
                                      if stats.samples.get(kind) else ""))


def main() -> None:
    """Parse arguments, run, clean up, print."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--memories", type=int, default=10_000)
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
    args = parser.parse_args()
    print(f"bench/sessions.py: {args.sessions} sessions × {args.seconds:g} s on "
          f"{args.memories} memories; think {args.think[0]:g}–{args.think[1]:g} s, "
          f"filter share {args.filter_share:g}; "
          + ("cold start (all at once)" if args.cold_start else "warm start (one first)"),
          flush=True)
    with tempfile.TemporaryDirectory(prefix="memscope-sessions-") as tmp:
        t0 = time.perf_counter()
        make_store(Path(tmp), args.memories)
        print(f"demo store seeded in {time.perf_counter() - t0:.1f} s", flush=True)
        server, log = start_server(Path(tmp))
        stats = Stats()
        try:
            asyncio.run(asyncio.wait_for(
                run(args, server.url, server.process.pid, stats),
                timeout=LOAD_TIMEOUT_S + args.seconds + 4 * ACTION_TIMEOUT_S))
        except TimeoutError:
            stats.error("hard limit of the whole run reached", "")
        finally:
            rss_end = rss_mb(server.process.pid) if server.process.poll() is None else 0.0
            server.stop()
        report(stats, (stats.rss_loaded, rss_end), log)


if __name__ == "__main__":
    main()
