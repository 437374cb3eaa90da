"""The page's early load of the graph's files (components/graph_view/preload.py): the
middleware puts the loader in Streamlit's HTML page and nowhere else, with the same
files and versions the element's loader names, and starts it."""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from components.graph_view import files, preload

PAGE = b'<html><head></head><body><div id="root"></div></body></html>'


def _serve(app: Any, path: str, method: str = "GET") -> tuple[dict, bytes]:
    """Run the ASGI ``app`` on one request; the response's start message and body."""
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": method, "path": path, "query_string": b"",
             "headers": []}
    # in a thread of its own: a test before may leave an event loop running in this one
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start, body


def _streamlit(body: bytes, content_type: bytes, status: int = 200) -> Any:
    """A stand-in for Streamlit's app: answers every request with ``body``."""
    async def app(scope: dict, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", content_type),
                                (b"content-length", str(len(body)).encode()),
                                (b"etag", b'"abc"')]})
        await send({"type": "http.response.body", "body": body})
    return app


def _spec_in(html: str) -> dict:
    found = re.search(r'<script type="module" id="ms-graph-files">const FILES = (\{.*?\});\n',
                      html)
    assert found, html[:300]
    return json.loads(found.group(1))


def test_the_page_carries_the_script_with_the_loaders_files() -> None:
    start, body = _serve(preload.FilesPreload(_streamlit(PAGE, b"text/html")), "/audit")
    html = body.decode()
    assert html.count('id="ms-graph-files"') == 1
    assert html.index('id="ms-graph-files"') < html.index("</body>")
    assert "loadOnce().catch(" in html  # started by the page itself
    loader = re.match(r"const FILES = (\{.*?\});\n", files.loader_js())
    assert loader is not None
    assert _spec_in(html) == json.loads(loader.group(1))  # the same files, same versions
    headers = dict(start["headers"])
    assert headers[b"content-length"] == str(len(body)).encode()
    assert b"etag" not in headers  # the bytes are no longer Streamlit's own


def test_nothing_else_is_touched() -> None:
    script = b"console.log('</body>')"
    for path, body, kind in (("/static/js/index.js", script, b"text/javascript"),
                             ("/_stcore/health", b"ok", b"text/plain"),
                             ("/", b'{"a": "</body>"}', b"application/json")):
        start, out = _serve(preload.FilesPreload(_streamlit(body, kind)), path)
        assert out == body, path
        assert (b"etag", b'"abc"') in start["headers"]
    start, out = _serve(preload.FilesPreload(_streamlit(PAGE, b"text/html")), "/", "POST")
    assert out == PAGE
    start, out = _serve(preload.FilesPreload(_streamlit(PAGE, b"text/html", 404)), "/x")
    assert out == PAGE and start["status"] == 404


def test_a_page_without_one_marker_is_sent_unchanged() -> None:
    for page in (b"<html><body>", PAGE + b"</body>"):
        start, out = _serve(preload.FilesPreload(_streamlit(page, b"text/html")), "/")
        assert out == page
        assert dict(start["headers"])[b"content-length"] == str(len(page)).encode()


def test_the_script_is_safe_inside_html() -> None:
    element = preload._element('{"base": "/a</script><b>&"}')
    inner = element.decode().removeprefix('<script type="module" id="ms-graph-files">')
    assert "</script>" not in inner.removesuffix("</script>")
    spec = preload._script_html().decode()
    assert spec.count("<script") == 1 and spec.count("</script>") == 1


def test_streamlits_page_still_offers_the_marker() -> None:
    """The page Streamlit serves has ``</body>`` exactly once, where the loader goes: a
    Streamlit whose page changed would otherwise lose the early load without a word."""
    import streamlit

    page = Path(streamlit.__file__).parent / "static" / "index.html"
    html = page.read_bytes()
    assert preload.inject(html, b"<script></script>") is not None
