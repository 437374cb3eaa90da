"""Hostile sizes (issue 20, item 4): how long the Explorer takes on a feed whose every text
field holds one 5 MB word.

The files are those of the hostile-input tests (``tests/test_hostile_input.py``'s
``huge_word_files``: a feed page and a Spomory passport, about 89 MB together). Two
figures:

(a) **server**: the Explorer page's script run on that data in-process (Streamlit's
    AppTest, the files preset as the session's snapshot source): the first run (reading
    and analysing the files included) and the median of ``--runs`` reruns (the analysis
    cached, so the page's own drawing);
(b) **browser**: ``python serve.py`` on a free port (an empty data folder), headless
    Chromium (``/usr/bin/chromium``) opens the Connection page, uploads both files and
    clicks "Open these files" (timed until the app is idle again), then clicks Explorer in
    the navigation: the time until its graph is drawn (``data-drawn``), until the app is
    idle, and until the page answers a script (``page.evaluate``) — a frozen tab answers
    late — with the longest of those round trips over the next two seconds; then a click
    on the huge memory's node until its panel (its "History") is shown, and until the app
    is idle and the page answers; and how much text the page holds before and after.

Loopback only. Prints figures; asserts nothing. Adds ``tests/`` to ``sys.path``.

    .venv/bin/python bench/hostile.py [--runs 3] [--timeout 300] [--no-browser]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import GRAPH, IDLE, NODE_CENTRE, app_server, chromium  # noqa: E402
from test_hostile_input import huge_word_files  # noqa: E402

EXPLORER_LINK = "[data-testid='stSidebarNavLink']"


def server_runs(runs: int) -> tuple[float, list[float]]:
    """Seconds of the Explorer's script run: the first, then ``runs`` more (AppTest)."""
    from streamlit.testing.v1 import AppTest
    from test_hostile_input import _huge_state

    state = _huge_state()
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=900)
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page("pages/explorer.py")
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
        if at.exception:
            print(f"  the Explorer raised: {at.exception[0].message}")
            break
    return times[0], times[1:]


def browser_run(folder: Path, timeout_s: float) -> dict[str, float]:
    """The browser figures (seconds; see the module docstring)."""
    paths = []
    for name, blob in huge_word_files():
        path = folder / name
        path.write_bytes(blob)
        paths.append(str(path))
    out: dict[str, float] = {}
    ms = int(timeout_s * 1000)
    data = folder / "data"
    data.mkdir()
    with app_server(data) as server, chromium() as browser:
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        page.goto(f"{server.url}/connection", wait_until="commit", timeout=ms)
        page.wait_for_selector(IDLE, timeout=ms)
        page.locator("[data-testid='stFileUploader'] input[type='file']").set_input_files(
            paths, timeout=ms)
        button = page.get_by_role("button", name="Open these files")
        button.wait_for(timeout=ms)
        start = time.monotonic()
        button.click(timeout=ms)
        page.wait_for_timeout(500)
        page.wait_for_selector(IDLE, timeout=ms)
        out["open files → idle"] = time.monotonic() - start
        start = time.monotonic()
        page.locator(EXPLORER_LINK).filter(has_text="Explorer").click(timeout=ms)
        page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=ms)
        out["Explorer click → graph drawn"] = time.monotonic() - start
        page.wait_for_selector(IDLE, timeout=ms)
        out["Explorer click → idle"] = time.monotonic() - start
        page.evaluate("() => document.querySelectorAll('*').length")
        out["Explorer click → page answers"] = time.monotonic() - start
        worst = 0.0
        until = time.monotonic() + 2
        while time.monotonic() < until:
            t = time.monotonic()
            page.evaluate("() => document.body.innerText.length")
            worst = max(worst, time.monotonic() - t)
            page.wait_for_timeout(100)
        out["longest page round trip in the 2 s after"] = worst
        out["characters of text in the page"] = float(
            page.evaluate("() => document.body.innerText.length"))
        at = page.eval_on_selector(GRAPH, NODE_CENTRE, "m_huge2")
        start = time.monotonic()
        page.mouse.click(at["x"], at["y"])
        page.get_by_text("History", exact=True).wait_for(timeout=ms)
        out["click the huge memory → its panel"] = time.monotonic() - start
        page.wait_for_timeout(300)
        page.wait_for_selector(IDLE, timeout=ms)
        page.evaluate("() => document.body.innerText.length")
        out["click the huge memory → idle, page answers"] = time.monotonic() - start
        out["characters of text in the page with the panel"] = float(
            page.evaluate("() => document.body.innerText.length"))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description="The Explorer on 5 MB words.")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    sizes = [len(blob) for _, blob in huge_word_files()]
    print(f"5 MB words in every text field: {len(sizes)} files, {sum(sizes) / 1e6:.1f} MB")
    with tempfile.TemporaryDirectory(prefix="memscope-hostile-") as tmp:
        os.environ["MEMSCOPE_DATA_DIR"] = str(Path(tmp) / "apptest")
        first, rest = server_runs(args.runs)
        print(f"server: Explorer script run {first:.2f} s first, "
              f"{statistics.median(rest):.2f} s median of {len(rest)} reruns" if rest
              else f"server: Explorer script run {first:.2f} s")
        if args.no_browser:
            return
        try:
            figures = browser_run(Path(tmp), args.timeout)
        except Exception as exc:  # a timeout is a figure too
            print(f"browser: did not finish ({type(exc).__name__}: {str(exc)[:200]})")
            return
        for label, value in figures.items():
            print(f"browser: {label}: " + (f"{value:,.0f}" if label.startswith("characters")
                                           else f"{value:.2f} s"))


if __name__ == "__main__":
    main()
