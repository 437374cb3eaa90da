"""The first picture (issue 33, item 3): when the map is on screen, against the bare
Streamlit page's first element and the live graph's first frame.

    python bench/first_picture.py [--sizes 1000 5000] [--runs 3]

Each size is a demo store of that many memories (:func:`scale.cached_store`) served by
``python serve.py`` (warm before it listens); each run is a new browser context (a new
visitor), then one more page in the same context (a returning visitor). Times are ms
from navigation start, taken in the page (``performance.now()``): the picture on screen
(the frame after it was painted), the live graph's first frame, and the bare page's
title. Also the largest distance between a node in the picture and the same node in the
live graph's first frame. Figures go to stdout; never a test.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from browser_support import CHROMIUM, CHROMIUM_ARGS, GRAPH  # noqa: E402
from playwright.sync_api import Browser, sync_playwright  # noqa: E402
from scale import cached_store  # noqa: E402
from streamlit_server import StreamlitServer, free_port, start_streamlit  # noqa: E402
from test_first_picture_browser import JUMP, KEEP_DATA  # noqa: E402

from memscope.settings import STORE_FILE  # noqa: E402

BARE_APP = 'import streamlit as st\n\nst.title("Memscope floor")\nst.write("A bare page.")\n'
#: the bare page's title: the first frame it is in, in page time
SEEN_H1 = """(() => { const look = () => { if (document.querySelector("h1")) {
  window.__h1At = performance.now(); return; } requestAnimationFrame(look); };
  requestAnimationFrame(look); })();"""


def _warm(server: StreamlitServer, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while "server warm in" not in server.log() and time.monotonic() < deadline:
        time.sleep(0.2)


def visit(browser: Browser, url: str, context: Any = None) -> dict[str, Any]:
    """One page on ``url``: the picture's times, the live graph's first frame, the jump."""
    context = context or browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.add_init_script(KEEP_DATA)
    page.goto(url, wait_until="commit", timeout=120_000)
    page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=120_000)
    page.wait_for_timeout(300)
    pic = page.evaluate("() => window.__msFirstPicture || null")
    drawn = page.locator(GRAPH).evaluate("el => el.__stats.firstDrawAt")
    jump = page.locator(GRAPH).evaluate(JUMP) if pic else None
    page.close()
    return {"context": context, "shown": pic and pic.get("shownAt"), "drawn": drawn,
            "jump": jump and jump["worst"], "exact": jump and jump["exact"],
            "version": pic and pic.get("version")}


def floor(browser: Browser, runs: int) -> list[float]:
    """The bare page's title, in page time, one new visitor per run (one server)."""
    out: list[float] = []
    with tempfile.TemporaryDirectory(prefix="memscope-floor-") as tmp:
        app = Path(tmp) / "bare.py"
        app.write_text(BARE_APP, encoding="utf-8")
        server = start_streamlit(app, free_port(), timeout=60)
        try:
            for _ in range(runs + 1):  # the first one warms the server
                context = browser.new_context(viewport={"width": 1400, "height": 900})
                page = context.new_page()
                page.add_init_script(SEEN_H1)
                page.goto(server.url, wait_until="commit")
                page.wait_for_function("() => window.__h1At !== undefined", timeout=60_000)
                out.append(float(page.evaluate("() => window.__h1At")))
                context.close()
        finally:
            server.stop()
    return out[1:]


def med(values: list[float]) -> str:
    """The median in ms and the values."""
    kept = [v for v in values if v is not None]
    if not kept:
        return "none"
    return f"{statistics.median(kept):,.0f} ms ({', '.join(f'{v:,.0f}' for v in kept)})"


def main(argv: list[str] | None = None) -> int:
    """Print one block per size and the floor."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 5000])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        base = floor(browser, args.runs)
        print(f"bare page floor (title on screen, new visitor): {med(base)}", flush=True)
        for size in args.sizes:
            with tempfile.TemporaryDirectory(prefix="memscope-picture-") as tmp:
                source = cached_store(size) / STORE_FILE
                shutil.copy(source, Path(tmp) / STORE_FILE)
                server = start_streamlit("serve.py", free_port(), timeout=300, env={
                    "MEMSCOPE_DATA_DIR": tmp, "MEMSCOPE_LOG_LEVEL": "INFO"})
                try:
                    _warm(server)
                    visit(browser, server.url)["context"].close()  # the server's first page
                    new, again = [], []
                    for _ in range(args.runs):
                        first = visit(browser, server.url)
                        new.append(first)
                        again.append(visit(browser, server.url, first["context"]))
                        first["context"].close()
                finally:
                    server.stop()
            shown = [r["shown"] for r in new]
            ratio = (statistics.median([s for s in shown if s]) / statistics.median(base)
                     if base and any(shown) else float("nan"))
            print(f"{size:,} memories: first picture {med(shown)} = {ratio:.2f} × floor; "
                  f"live first frame {med([r['drawn'] for r in new])}; "
                  f"jump ≤ {max((r['jump'] or 0) for r in new):.1f} px (new visitor)", flush=True)
            print(f"{size:,} memories, returning visitor: first picture "
                  f"{med([r['shown'] for r in again])}; live first frame "
                  f"{med([r['drawn'] for r in again])}; jump ≤ "
                  f"{max((r['jump'] or 0) for r in again):.1f} px", flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
