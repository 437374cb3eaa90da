"""Side-by-side screenshots: the upstream ``@supermemory/memory-graph`` on a store's data.

The upstream page (``main.jsx``, bundled by ``bench/upstream.py`` into
``bench/out/upstream/www/``) is fed exactly what the sandbox's
``POST /v3/documents/documents`` answers for the store (every page merged), served from a
thread of this process on 127.0.0.1. Nothing here installs anything: without a built
bundle :func:`built` is false and a caller skips the shot (``python bench/upstream.py
--shots`` builds it with ``npm ci`` first). Used by that command and by
``tests/test_map_browser.py``, which puts Memscope's first view beside it.
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from memscope.sandbox.faults import Faults
from memscope.sandbox.supermemory_api import SupermemoryApi
from memscope.store.store import Store

ROOT = Path(__file__).resolve().parents[2]
WWW = ROOT / "bench" / "out" / "upstream" / "www"
PAGE_SIZE = 1100  # the largest page the feed answers
#: the upstream has drawn once its canvas has this many painted pixels
PAINTED_JS = """() => {
  let best = null;
  for (const c of document.querySelectorAll("canvas"))
    if (!best || c.width * c.height > best.width * best.height) best = c;
  if (!best || best.width < 300) return false;
  const d = best.getContext("2d").getImageData(0, 0, best.width, best.height).data;
  let n = 0;
  for (let i = 3; i < d.length; i += 16) if (d[i] !== 0) n++;
  return n > 2000;
}"""


def built() -> bool:
    """True when ``bench/upstream.py`` has bundled the upstream page."""
    return (WWW / "main.js").exists() and (WWW / "index.html").exists()


def feed_documents(store_path: Path) -> list[dict[str, Any]]:
    """Every page of the sandbox's ``POST /v3/documents/documents`` for the store, merged
    into one list (the exact JSON the API would give, page by page)."""
    api = SupermemoryApi(Store(store_path), Faults())
    documents: list[dict[str, Any]] = []
    page = 1
    while True:
        reply = api.documents({"page": page, "limit": PAGE_SIZE})
        body = json.loads(reply.body) if isinstance(reply.body, bytes) else reply.body
        documents.extend(body["documents"])
        if page >= body["pagination"]["totalPages"]:
            return documents
        page += 1


class _Quiet(SimpleHTTPRequestHandler):
    """Static files, no request log."""

    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing."""


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """``folder`` over HTTP on 127.0.0.1 (a free port, a daemon thread); yields the URL."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def shoot(browser: Any, store_path: Path, shots: dict[str, tuple[int, int]],
          settle_ms: int = 6000) -> dict[str, int]:
    """Screenshots of the upstream graph of ``store_path``'s data: ``{png path: (width,
    height)}``, each in a fresh page once its canvas has drawn and ``settle_ms`` passed
    (its force simulation and auto-fit run live). Returns the documents and memories fed.
    Needs :func:`built`."""
    if not built():
        raise RuntimeError("the upstream page is not built: run python bench/upstream.py "
                           "--shots once")
    docs = feed_documents(store_path)
    name = "data-shots.json"
    (WWW / name).write_text(json.dumps({"documents": docs}, ensure_ascii=False),
                            encoding="utf-8")
    with serving(WWW) as base:
        for path, (width, height) in shots.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            try:
                page.goto(f"{base}/index.html?data={name}")
                page.wait_for_function(PAINTED_JS, polling=250, timeout=60_000)
                page.wait_for_timeout(settle_ms)
                page.screenshot(path=str(path))
            finally:
                page.close()
    return {"documents": len(docs),
            "memories": sum(len(d.get("memoryEntries") or []) for d in docs)}
