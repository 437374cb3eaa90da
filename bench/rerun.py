"""One rerun of the explorer after a click, at a large size: where its time goes.

Runs the app under Streamlit's AppTest (no browser, no server) on a demo store of
``--memories`` memories (bench/scale.py's ``cached_store``), lets the first run load and
warm every cache, then times the reruns a person causes: a click on a memory, a click on a
cluster's hexagon, unticking "Show superseded versions". For each it prints the wall time,
the collector's passes inside it (``gc.callbacks``) and, with ``--profile N``, the N
functions of the script thread with the most cumulative time. Asserts nothing. Run:
``.venv/bin/python bench/rerun.py --memories 50000 [--profile 25]``.

AppTest reruns the whole script where a browser would rerun only the explorer's fragment,
so the figures include the router and sidebar (small: the load and analysis are cached).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from scale import cached_store  # noqa: E402  (bench/ is on the path only now)

SUPERSEDED = "Show superseded versions"


class _Collector:
    """The collector's passes (count, seconds, by generation) while it is switched on."""

    def __init__(self) -> None:
        self.passes: list[tuple[int, float]] = []
        self._t0 = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._t0 = time.perf_counter()
        else:
            self.passes.append((int(info["generation"]), time.perf_counter() - self._t0))

    def summary(self) -> str:
        if not self.passes:
            return "no collector pass"
        total = sum(t for _, t in self.passes)
        gens = sorted({g for g, _ in self.passes})
        return f"{len(self.passes)} collector passes (generations {gens}) {total:.2f} s"


class _ThreadProfile:
    """A cProfile of the script thread: Streamlit runs the script in its own thread, which
    a profile started in this one would not see."""

    def __init__(self) -> None:
        self.profile: cProfile.Profile | None = None

    def install(self) -> None:
        from streamlit.runtime.scriptrunner.script_runner import ScriptRunner

        original = ScriptRunner._run_script  # pyright: ignore[reportPrivateUsage]
        holder = self

        def profiled(runner: Any, *args: Any, **kwargs: Any) -> Any:
            if holder.profile is None:
                return original(runner, *args, **kwargs)
            holder.profile.enable()
            try:
                return original(runner, *args, **kwargs)
            finally:
                holder.profile.disable()

        ScriptRunner._run_script = profiled  # pyright: ignore[reportPrivateUsage, reportAttributeAccessIssue]


def _step(label: str, fn: Callable[[], object], prof: _ThreadProfile, top: int) -> None:
    collector = _Collector()
    prof.profile = cProfile.Profile() if top else None
    gc.callbacks.append(collector)
    t0 = time.perf_counter()
    try:
        fn()
    finally:
        took = time.perf_counter() - t0
        gc.callbacks.remove(collector)
    print(f"{label:<40} {took:7.2f} s   {collector.summary()}", flush=True)
    if prof.profile is not None:
        out = io.StringIO()
        pstats.Stats(prof.profile, stream=out).sort_stats("cumulative").print_stats(top)
        print(out.getvalue(), flush=True)
        prof.profile = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=50_000)
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="print the N functions with the most cumulative time per step")
    args = parser.parse_args()
    os.environ["MEMSCOPE_DATA_DIR"] = str(cached_store(args.memories))
    from apptest_support import browser_click, graph_payload
    from streamlit.testing.v1 import AppTest

    from components.sections.sidebar import FILTERS_BOX

    prof = _ThreadProfile()
    prof.install()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=1800)
    at.session_state[FILTERS_BOX.name] = True  # the filters' widgets are drawn only when open
    print(f"{args.memories:,} memories")
    _step("first run (load, analyse, lay out)", lambda: at.run(), prof, 0)
    _step("a rerun, nothing changed", lambda: at.run(), prof, 0)
    hexagon = next(n["id"] for n in graph_payload(at)["nodes"]
                   if n["id"].startswith("cluster:"))
    _step(f"click a hexagon ({hexagon})", lambda: browser_click(at, hexagon), prof,
          args.profile)
    drawn = [n["id"] for n in graph_payload(at)["nodes"]
             if not n["id"].startswith(("cluster:", "doc"))]
    memory = drawn[0] if drawn else None
    if memory is None:
        print("(no memory drawn after the expansion)")
    else:
        _step(f"click a memory ({memory})", lambda: browser_click(at, memory), prof,
              args.profile)
        _step("click empty space", lambda: browser_click(at, None), prof, 0)
    box = next((b for b in at.checkbox if b.label == SUPERSEDED), None)
    if box is None:
        print(f"(no '{SUPERSEDED}' checkbox on the page)")
    else:
        _step("untick superseded versions", lambda: box.uncheck().run(), prof, args.profile)
    if at.exception:
        print(f"the app raised: {at.exception}")


if __name__ == "__main__":
    main()
