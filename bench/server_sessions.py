"""The server alone: N sessions driven without browsers, over Streamlit's own websocket
protocol, against one server.

One demo store of ``--memories`` memories (the cached ``bench/out/scale-<n>``), one
``python serve.py`` on a free port with the run-timing hook of ``bench/browser.py``. Each
session is a websocket to ``/_stcore/stream`` (subprotocol ``streamlit``, as the frontend
opens it) that speaks the frontend's protobufs: a ``BackMsg.rerun_script`` with the
session's current widget states (and the hashes of the cacheable messages it has
already received, as the browser reports them, so the server sends references instead),
then it reads ``ForwardMsg`` until ``script_finished``. The widgets are found in the
deltas (their ids): an action is a click on a memory (the graph component's state
``{"selected": id}``, what its JavaScript sets on a click), "Show superseded versions"
toggled, or the selection cleared; between actions each session waits a random
``--think`` time. The first run of each session (its page load) is timed apart.

For each N of ``--sessions`` (one server for all of them, each N for ``--seconds``) it
prints: the server's script runs (wall p50/p95 from the hook; where their time went: on a
core, waiting for a core, asleep), the round trip each client saw (rerun sent → script
finished received, i.e. with the websocket's backlog), the server's CPU share and RSS.
Then the p95 script run at 10 sessions against issue 20's target (≤ 300 ms) and the
largest N whose p95 is ≤ 1 s.

What it does not capture: the browsers (no JavaScript, no drawing, no component files
fetched; the page's own reruns, e.g. when the graph reports its height, do not happen) and
the clicks are on memories picked from the store, not on drawn nodes (in the overview the
browser's click would be on a hexagon first).

The sessions stop cooperatively (a shared event, checked between actions; the current
action finishes first), never by cancelling a read: on Python 3.11 ``asyncio.wait_for``
swallows a cancellation that arrives in the same loop pass as the awaited frame (CPython
gh-86296, fixed in 3.12), so a cancelled session went on acting and the sweep hung in its
``gather`` (seen from 8 sessions at once with 10k memories and first taken for sessions
that never loaded; the server had finished every run). Reads use ``asyncio.timeout``. A
session that does not load within ``--load-timeout`` ends the sweep with one line.

What the server's side is made of (2 Dec 2026, 10k memories, ``--py-spy``): one Python
process does the script work of every session on about one core (the GIL); from about
10 sessions the runs wait for it ("asleep" in the figures), and at 30 the server is at
one core with 90 % of the runs' wall time waiting. Per run, most CPU goes to sending the
graph (Streamlit encodes the component's data twice: a sorted JSON digest for its
identity, then the payload), ``with_extra`` and ``compact_view``; Streamlit's per-element
enqueue (a self-pipe write and a config lock per message) is a GIL hand-off each time.

Loopback only. Prints figures; asserts nothing.

    .venv/bin/python bench/server_sessions.py [--memories 10000] [--sessions 1,5,10,20,30]
                                              [--seconds 20] [--think 0.25,1.0]
                                              [--load-timeout 180] [--stop-over 2.0]
                                              [--py-spy /tmp/pyspy/bin/py-spy [--py-spy-gil]]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from browser import RunLog, rss_mb, start_server  # noqa: E402
from scale import cached_store  # noqa: E402
from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ClientState_pb2 import ClientState  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from memscope.settings import STORE_FILE  # noqa: E402

SUPERSEDED = "Show superseded versions"


@dataclass
class Session:
    """One protocol-level session: its widgets' ids and states, the hashes it caches."""

    graph_id: str | None = None
    superseded_id: str | None = None
    states: dict[str, WidgetState] = field(default_factory=dict)
    cached: set[str] = field(default_factory=set)
    #: (kind, sent, finished) of every action, monotonic seconds
    trips: list[tuple[str, float, float]] = field(default_factory=list)
    received: int = 0
    errors: list[str] = field(default_factory=list)

    def note(self, msg: ForwardMsg) -> None:
        """Remember widget ids from a delta and a cacheable message's hash."""
        if msg.metadata.cacheable and msg.hash:
            self.cached.add(msg.hash)
        if msg.WhichOneof("type") != "delta":
            return
        if msg.delta.WhichOneof("type") == "add_block":
            block = msg.delta.add_block
            if block.WhichOneof("type") == "expandable" and block.expandable.id and \
                    block.expandable.label.startswith("Filters"):
                # the folded filters draw their widgets only when open: open them on the
                # next rerun, as a person would before toggling one
                self.states[block.expandable.id] = WidgetState(id=block.expandable.id,
                                                               bool_value=True)
            return
        if msg.delta.WhichOneof("type") != "new_element":
            return
        el = msg.delta.new_element
        kind = el.WhichOneof("type")
        if kind == "bidi_component" and self.graph_id is None \
                and el.bidi_component.id.endswith("graph"):
            self.graph_id = el.bidi_component.id
        elif kind == "checkbox" and el.checkbox.label == SUPERSEDED:
            self.superseded_id = el.checkbox.id
            if el.checkbox.id not in self.states:
                self.states[el.checkbox.id] = WidgetState(id=el.checkbox.id,
                                                          bool_value=el.checkbox.default)
        elif kind == "exception":
            self.errors.append(el.exception.message[:200])

    def rerun(self) -> bytes:
        """The ``BackMsg`` of a rerun with the current widget states."""
        msg = BackMsg(rerun_script=ClientState(
            query_string="", page_script_hash="",
            widget_states=WidgetStates(widgets=list(self.states.values())),
            cached_message_hashes=sorted(self.cached)))
        return msg.SerializeToString()


async def run_once(ws: object, s: Session, kind: str, timeout: float = 120) -> None:
    """Send one rerun and read until its ``script_finished``."""
    t0 = time.monotonic()
    await ws.send(s.rerun())  # type: ignore[attr-defined]
    while True:
        # not asyncio.wait_for: on 3.11 it can swallow a cancellation (see the docstring)
        async with asyncio.timeout(timeout):
            data = await ws.recv()  # type: ignore[attr-defined]
        s.received += len(data)
        msg = ForwardMsg()
        msg.ParseFromString(data)
        s.note(msg)
        if msg.WhichOneof("type") == "script_finished" and msg.script_finished in (
                ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR,
                ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY):
            break
    s.trips.append((kind, t0, time.monotonic()))


def act(s: Session, rng: random.Random, memories: list[str]) -> str:
    """Change the session's widget states for one random action; returns its kind."""
    roll = rng.random()
    if s.superseded_id and roll < 0.2:
        old = s.states[s.superseded_id].bool_value
        s.states[s.superseded_id] = WidgetState(id=s.superseded_id, bool_value=not old)
        return "filter"
    if s.graph_id and roll < 0.85:
        pick = rng.choice(memories)
        s.states[s.graph_id] = WidgetState(id=s.graph_id,
                                           json_value=json.dumps({"selected": pick}))
        return "click"
    if s.graph_id:
        s.states[s.graph_id] = WidgetState(id=s.graph_id,
                                           json_value=json.dumps({"selected": None}))
    return "clear"


async def drive(url: str, s: Session, seed: int, memories: list[str], stop: asyncio.Event,
                think: tuple[float, float], loaded: asyncio.Event) -> None:
    """One session: load, then act until ``stop`` is set (the action under way finishes)."""
    rng = random.Random(seed)
    uri = url.replace("http://", "ws://") + "/_stcore/stream"
    async with connect(uri, subprotocols=["streamlit"], max_size=None,  # type: ignore[list-item]
                       open_timeout=60, ping_interval=None) as ws:
        await run_once(ws, s, "load")
        loaded.set()
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):  # the think time, cut short by stop
                async with asyncio.timeout(rng.uniform(*think)):
                    await stop.wait()
            if stop.is_set():
                break
            await run_once(ws, s, act(s, rng, memories))


async def wait_loaded(tasks: list[asyncio.Task[None]], events: list[asyncio.Event],
                      timeout: float) -> None:
    """Return once every session has loaded; raise if one ended first or time ran out."""
    deadline = time.monotonic() + timeout
    waits = [asyncio.create_task(e.wait()) for e in events]
    try:
        while not all(e.is_set() for e in events) and not any(t.done() for t in tasks):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            pending = [t for t in (*waits, *tasks) if not t.done()]
            await asyncio.wait(pending, timeout=left, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()
    failed = [t for t in tasks if t.done()]  # a session ended before acting: it failed
    if failed or not all(e.is_set() for e in events):
        why = [repr(t.exception())[:160] for t in failed if not t.cancelled()]
        raise RuntimeError(f"{len(events)} sessions: {sum(e.is_set() for e in events)} "
                           f"loaded in {timeout:g} s; {len(failed)} ended early: "
                           f"{'; '.join(why) or 'none'}")


async def stop_all(tasks: list[asyncio.Task[None]], stop: asyncio.Event,
                   grace: float = 150) -> int:
    """Set ``stop``, let each session finish its action and close its socket; cancel
    what is still running after ``grace`` s. Returns how many had to be cancelled."""
    stop.set()
    _, pending = await asyncio.wait(tasks, timeout=grace)
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return len(pending)


#: frames every script run goes through (left out of the profile's inclusive list)
RUNNER = ("streamlit/runtime/scriptrunner/", "streamlit/navigation/page.py",
          "streamlit/runtime/fragment.py", "streamlit/runtime/metrics_util.py")


def profile_lines(raw: Path, top: int = 14) -> list[str]:
    """The script threads' share of a py-spy ``--format raw`` profile, the frames of
    memscope, components and Streamlit they spent it in (inclusive) and the leaves."""
    inclusive: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    total = script = 0
    for line in raw.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n, frames = int(count), stack.split(";")
        total += n
        if not any("_run_script_thread" in f for f in frames):
            continue
        script += n
        leaves[frames[-1]] += n
        names = {f.rsplit(":", 1)[0] + ")" for f in frames
                 if any(k in f for k in ("memscope/", "components/", "streamlit/"))
                 and not any(k in f for k in RUNNER)}
        inclusive.update(dict.fromkeys(names, n))
    if not total:
        return ["  profile: no samples"]
    out = [f"  profile: {total} samples, {100 * script / total:.0f} % in script threads; "
           "share of the script threads' samples, inclusive:"]
    out += [f"    {100 * v / script:5.1f} %  {k}" for k, v in inclusive.most_common(top)]
    out.append("  leaves:")
    out += [f"    {100 * v / script:5.1f} %  {k}" for k, v in leaves.most_common(top // 2)]
    return out


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


async def phase(url: str, pid: int, log: RunLog, n: int, seconds: float,
                think: tuple[float, float], memories: list[str],
                load_timeout: float, spy: tuple[str, bool] | None) -> dict[str, float]:
    """``n`` sessions for ``seconds`` after all have loaded; prints one block."""
    sessions = [Session() for _ in range(n)]
    events = [asyncio.Event() for _ in range(n)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(drive(url, s, 1000 * n + i, memories, stop, think, e))
             for i, (s, e) in enumerate(zip(sessions, events, strict=True))]
    try:
        await wait_loaded(tasks, events, load_timeout)
    except RuntimeError:
        await stop_all(tasks, stop, grace=10)
        raise
    loads = [s.trips[0][2] - s.trips[0][1] for s in sessions]
    t0, c0 = time.monotonic(), cpu_s(pid)
    end = t0 + seconds
    raw = Path(tempfile.gettempdir()) / f"server-sessions-{os.getpid()}-{n}.txt"
    recorder = None if spy is None else await asyncio.create_subprocess_exec(
        spy[0], "record", "--pid", str(pid), "--duration", str(max(1, int(seconds))),
        "--rate", "50", "--format", "raw", "-o", str(raw),
        *(["--gil"] if spy[1] else ["--nonblocking"]),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    await asyncio.sleep(seconds)
    t1, c1 = time.monotonic(), cpu_s(pid)
    if recorder is not None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(30):
                await recorder.wait()
    cancelled = await stop_all(tasks, stop)
    trips = [b - a for s in sessions for kind, a, b in s.trips[1:] if a >= t0 and b <= end]
    runs = [r for r in log.run_details() if t0 <= r.start and r.end <= end]
    walls = [r.end - r.start for r in runs]
    wall = sum(walls) or 1.0
    cpu, runq = sum(r.cpu for r in runs), sum(r.runq for r in runs)
    errors = [e for s in sessions for e in s.errors]
    kinds = Counter(kind for s in sessions for kind, a, _ in s.trips[1:] if a >= t0)
    found = sum(1 for s in sessions if s.graph_id and s.superseded_id)
    out = {"n": n, "runs": len(walls), "p50": statistics.median(walls) if walls else 0,
           "p95": pct(walls, 0.95) if walls else 0,
           "trip50": statistics.median(trips) if trips else 0,
           "trip95": pct(trips, 0.95) if trips else 0,
           "cpu": 100 * (c1 - c0) / (t1 - t0), "rss": rss_mb(pid)}
    print(f"\n{n} sessions: loads p50 {statistics.median(loads):.2f} s, max {max(loads):.2f} "
          f"s (first run of each, client round trip); then {seconds:g} s of actions", flush=True)
    print(f"  server script runs: {len(walls)}, p50 {1000 * out['p50']:.0f} ms, p95 "
          f"{1000 * out['p95']:.0f} ms, max {1000 * max(walls, default=0):.0f} ms; their "
          f"wall time: on a core {100 * cpu / wall:.0f} %, waiting for a core "
          f"{100 * runq / wall:.0f} %, asleep (GIL, locks, I/O) "
          f"{100 * max(0.0, wall - cpu - runq) / wall:.0f} %")
    print(f"  actions: {', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}; graph and "
          f"filter widgets found in {found}/{n} sessions")
    print(f"  client round trip (rerun sent → script_finished read): {len(trips)}, p50 "
          f"{1000 * out['trip50']:.0f} ms, p95 {1000 * out['trip95']:.0f} ms")
    print(f"  server CPU {out['cpu']:.0f} % of one core; RSS {out['rss']:.0f} MB; received "
          f"{sum(s.received for s in sessions) / 1e6:.1f} MB in all"
          + (f"; {len(errors)} exceptions shown, first: {errors[0]}" if errors else "")
          + (f"; {cancelled} sessions did not stop by themselves and were cancelled"
             if cancelled else ""), flush=True)
    if spy is not None:
        print("\n".join(profile_lines(raw) if raw.exists() else
                        ["  profile: py-spy wrote nothing (permissions?)"]), flush=True)
        raw.unlink(missing_ok=True)
    return out


def memory_ids(store: Path, limit: int = 2000) -> list[str]:
    """Some memory ids of the store (what a click selects)."""
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT id FROM memories LIMIT ?", (limit,)).fetchall()
    return [str(r[0]) for r in rows]


async def main_async(args: argparse.Namespace) -> None:
    """One server; each N in turn; the summary lines."""
    think = tuple(float(x) for x in args.think.split(","))
    assert len(think) == 2
    sizes = [int(x) for x in args.sessions.split(",")]
    spy = (args.py_spy, args.py_spy_gil) if args.py_spy else None
    with tempfile.TemporaryDirectory(prefix="memscope-server-sessions-") as tmp:
        source = cached_store(args.memories) / STORE_FILE
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{source}{suffix}").exists():
                shutil.copy(f"{source}{suffix}", Path(tmp) / f"{STORE_FILE}{suffix}")
        store = Path(tmp) / STORE_FILE
        memories = memory_ids(store)
        t0 = time.perf_counter()
        server, log = start_server(Path(tmp), timeout=300)
        print(f"bench/server_sessions.py: {args.memories} memories, server healthy after "
              f"{time.perf_counter() - t0:.1f} s (pid {server.process.pid}, RSS "
              f"{rss_mb(server.process.pid):.0f} MB); {os.cpu_count()} CPUs, load average "
              f"{os.getloadavg()[0]:.1f}; think {think[0]:g}–{think[1]:g} s", flush=True)
        results = []
        try:
            for n in sizes:
                print(f"(starting {n} sessions at load average {os.getloadavg()[0]:.1f})",
                      flush=True)
                try:
                    results.append(await phase(server.url, server.process.pid, log, n,
                                               args.seconds, think, memories,  # type: ignore[arg-type]
                                               args.load_timeout, spy))
                except RuntimeError as exc:
                    print(f"\n{exc}", flush=True)
                    break
                if results[-1]["p95"] > args.stop_over:
                    break
        finally:
            server.stop()
    print("\n== summary ==\n  N  runs  p50 ms  p95 ms  trip p50  trip p95  CPU %  RSS MB")
    for r in results:
        print(f"  {r['n']:>2} {r['runs']:>5} {1000 * r['p50']:>7.0f} {1000 * r['p95']:>7.0f} "
              f"{1000 * r['trip50']:>9.0f} {1000 * r['trip95']:>9.0f} {r['cpu']:>6.0f} "
              f"{r['rss']:>7.0f}")
    ten = next((r for r in results if r["n"] == 10), None)
    if ten:
        verdict = "met" if ten["p95"] <= 0.3 else "missed"
        print(f"  p95 script run at 10 sessions: {1000 * ten['p95']:.0f} ms (target ≤ 300 ms:"
              f" {verdict})")
    over = next((r for r in results if r["p95"] > 1.0), None)
    under = [r["n"] for r in results if over is None or r["n"] < over["n"]]
    if over is None:
        print(f"  largest N with p95 ≤ 1 s: {max(under) if under else 'none'} (not reached: "
              "every N tried stayed under 1 s)")
    else:
        later = [r["n"] for r in results if r["n"] > over["n"] and r["p95"] <= 1.0]
        print(f"  largest N with p95 ≤ 1 s: {max(under) if under else 'none'} (the first N "
              f"over it: {over['n']}, p95 {1000 * over['p95']:.0f} ms"
              + (f"; later under again: {', '.join(map(str, later))} — a noisy machine, "
                 "run again" if later else "") + ")")


def main() -> None:
    """Parse arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--sessions", default="1,5,10,20,30",
                        help="comma-separated session counts, in turn on one server")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="seconds of actions per session count, after all loaded")
    parser.add_argument("--think", default="0.25,1.0",
                        help="min,max seconds a session waits between actions")
    parser.add_argument("--load-timeout", type=float, default=180.0,
                        help="seconds every session of an N has to load in")
    parser.add_argument("--py-spy", metavar="PATH",
                        help="a py-spy binary (installed outside the project, e.g. pip "
                             "install --target /tmp/pyspy py-spy): profile the server during "
                             "each N's actions and print where the script threads were")
    parser.add_argument("--py-spy-gil", action="store_true",
                        help="with --py-spy: sample only the thread holding the GIL (the "
                             "CPU picture; without it, every thread not idle: the wall)")
    parser.add_argument("--stop-over", type=float, default=2.0,
                        help="stop trying larger N once the p95 script run is over this")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
