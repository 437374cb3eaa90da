"""The contact sheet (issue 32 item 8): every page and the main dialogs of the app on the
embedded demo store, in light, dark and presenter mode at 1400×900 and 1920×1080, written
to ``screens/`` (git-ignored) with an ``index.html`` that shows them as a captioned grid.

``make screens`` runs it: a seeded demo store in a temp folder, ``python serve.py`` on a
free port (as ``make run``), then Debian's Chromium under Playwright. Each page is a new
session on its URL (``?presenter=1`` turns presenter mode on, as a shared link does); the
dialogs are a memory's panel (``?node=<id>``), its "Why does it believe this?" trail and
its forget confirmation (nothing is forgotten: the screenshot is taken before any click
in it). Full-page screenshots, so what is below the fold is seen too. Loopback only.

Usage: ``python bench/screens.py [--out screens] [--only audit,ledger] [--sizes 1400x900]``
"""

from __future__ import annotations

import argparse
import html
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from browser_support import app_server, chromium, wait_graph, wait_idle  # noqa: E402
from playwright.sync_api import Page  # noqa: E402

from memscope.demo.seeding import seed_if_missing  # noqa: E402
from memscope.settings import STORE_FILE  # noqa: E402
from memscope.store.store import Store  # noqa: E402

#: (file stem, caption, URL path): the sidebar's links, in its order
PAGES = [
    ("explorer", "Explorer", ""), ("audit", "Audit", "audit"),
    ("profile", "Profile", "profile"), ("insights", "Insights", "insights"),
    ("recall", "Recall map", "recall"), ("slideshow", "Slideshow", "slideshow"),
    ("expiry", "Expiry queue", "expiry"), ("compare", "Compare", "compare"),
    ("export", "Export", "export"), ("ledger", "Ledger", "ledger"),
    ("forget_all", "Forget all", "forget_all"), ("connection", "Connection", "connection"),
]
DIALOGS = [("panel", "A memory's panel"), ("why", "Why? dialog"),
           ("forget", "Forget confirmation")]
MODES = ["light", "dark", "presenter"]
#: a memory with a version chain, a basis and profile lines in the demo
MEMORY = "Maya prefers Vue for frontend work."


def _memory_id(db: Path) -> str:
    hits = Store(db).search(MEMORY)["hits"]
    return next(h["id"] for h in hits if h["kind"] == "memory" and h["text"] == MEMORY)


def _settle(page: Page, graph: bool) -> None:
    wait_idle(page, 800)
    if graph and page.locator("[data-testid='memscope-graph']").count():
        wait_graph(page)  # a graph already on the page (the Explorer's is awaited apart)
    page.mouse.move(2, 2)
    page.wait_for_timeout(900)


def _shot(page: Page, path: Path, full: bool = True) -> None:
    page.screenshot(path=str(path), full_page=full)


def _dialog_shots(page: Page, url: str, node: str, out: Path, suffix: str) -> None:
    page.goto(f"{url}{'&' if '?' in url else '?'}node={node}")
    _settle(page, graph=True)
    why = page.locator(f".st-key-why-panel-{node}").get_by_role("button")
    why.first.wait_for(timeout=60_000)
    _shot(page, out / f"panel-{suffix}.png")
    why.first.click()
    page.get_by_role("dialog").get_by_text("How it got there").wait_for(timeout=60_000)
    _settle(page, graph=False)
    _shot(page, out / f"why-{suffix}.png", full=False)
    page.keyboard.press("Escape")
    page.get_by_role("dialog").wait_for(state="detached", timeout=30_000)
    wait_idle(page, 500)
    forget = page.locator(f".st-key-forget-{node}").get_by_role("button")
    if forget.count():
        forget.first.click()
        page.get_by_role("dialog").wait_for(timeout=60_000)
        _settle(page, graph=False)
        _shot(page, out / f"forget-{suffix}.png", full=False)
        page.keyboard.press("Escape")  # cancels: nothing is forgotten
        wait_idle(page, 500)


def _index(out: Path, sizes: list[tuple[int, int]], stems: list[tuple[str, str]]) -> None:
    rows = []
    for stem, caption in stems:
        cells = []
        for w, h in sizes:
            for mode in MODES:
                name = f"{stem}-{mode}-{w}x{h}.png"
                if not (out / name).exists():
                    continue
                text = html.escape(f"{caption} · {mode} · {w}×{h}")
                cells.append(f'<figure><a href="{html.escape(name)}"><img loading="lazy" '
                             f'src="{html.escape(name)}" alt="{text}"></a>'
                             f"<figcaption>{text}</figcaption></figure>")
        if cells:
            rows.append(f"<h2>{html.escape(caption)}</h2><div class=grid>{''.join(cells)}</div>")
    (out / "index.html").write_text(
        "<!doctype html><meta charset=utf-8><title>Memscope contact sheet</title><style>"
        "body{font:14px system-ui,sans-serif;margin:16px;background:#f4f4f4}"
        ".grid{display:grid;grid-template-columns:repeat(3,1fr);gap:12px}"
        "figure{margin:0;background:#fff;padding:6px;border:1px solid #ccc}"
        "img{width:100%;height:auto;display:block}"
        "figcaption{padding-top:4px}</style><h1>Memscope contact sheet</h1>"
        + "".join(rows), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--out", default=str(ROOT / "screens"))
    ap.add_argument("--only", default="", help="comma-separated stems (pages, panel, why, forget)")
    ap.add_argument("--sizes", default="1400x900,1920x1080")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sizes = [(int(s.split("x")[0]), int(s.split("x")[1])) for s in args.sizes.split(",")]
    only = set(filter(None, args.only.split(",")))
    started = time.monotonic()
    count = 0
    with tempfile.TemporaryDirectory(prefix="memscope-screens-") as tmp:
        data = Path(tmp)
        seed_if_missing(data / STORE_FILE)
        node = _memory_id(data / STORE_FILE)
        with app_server(data) as server, chromium() as browser:
            for w, h in sizes:
                for mode in MODES:
                    scheme = "dark" if mode == "dark" else "light"
                    query = "?presenter=1" if mode == "presenter" else ""
                    context = browser.new_context(viewport={"width": w, "height": h},
                                                  color_scheme=scheme)
                    page = context.new_page()
                    suffix = f"{mode}-{w}x{h}"
                    for stem, _, path in PAGES:
                        if only and stem not in only:
                            continue
                        page.goto(f"{server.url}/{path}{query}")
                        _settle(page, graph=True)
                        if stem == "explorer":
                            wait_graph(page)
                            page.wait_for_timeout(1500)
                        _shot(page, out / f"{stem}-{suffix}.png")
                        count += 1
                    if not only or only & {"panel", "why", "forget"}:
                        _dialog_shots(page, f"{server.url}/{query}", node, out, suffix)
                        count += 3
                    context.close()
                    print(f"{w}×{h} {mode}: {time.monotonic() - started:.0f} s", flush=True)
    _index(out, sizes, [(s, c) for s, c, _ in PAGES] + DIALOGS)
    print(f"{count} screenshots in {time.monotonic() - started:.0f} s: {out / 'index.html'}")


if __name__ == "__main__":
    main()
