"""A map before Streamlit has booted (issue 33, item 3): the page ``/`` carries a still
picture of the server's first view, painted as soon as the HTML arrives.

``serve.py`` calls :func:`install`, which adds :class:`FirstPictureMiddleware` to the app
Streamlit builds (as :mod:`components.graph_view.caching` does). For a ``GET`` of the
app's root with no query string (so: no page, no presenter link, no node), the
middleware asks :func:`current_picture` for the picture of the view the server opens by
itself and, when there is one, puts it into Streamlit's ``index.html`` right after its
``<div id="root"></div>`` (:data:`MARKER`): a canvas, the picture's JSON and a small
inline script (``assets/first_picture.js``) that paints it where the graph will appear
and fades it out once the live graph has drawn its first frame. Nothing is fetched from
elsewhere. Where the graph will appear is measured on Streamlit 1.67 (:data:`LAYOUT`,
:data:`LEGEND`); a browser that has drawn the same data in a window of the same size
kept the live graph's own view and rectangle, and the picture takes those exactly.

The picture is only ever the server's own default view, and only when it is already
computed (the server's warm-up, :func:`components.warmup.prewarm`, or a first
visit computed it); the middleware never computes a view itself. There is none when
sign-in is configured (:func:`components.state.auth.configured`), when the configured
connection is not the embedded store, when its data changed since the view was computed
(a newer data version: the load is no longer fresh), or when Streamlit's page no longer
has the marker. A session's own connection never shows in it: a new page knows no session.
The picture's version (``data-version`` on the canvas) names the data's load and digest,
so any data change gives a new one. Presenter mode is a per-link setting
(``?presenter=1``): such a page carries no picture at all.

The answer that carries a picture is ``no-cache`` and has no validators (no ETag, no
Last-Modified), so a browser never keeps a stale picture.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from components.graph_view.caching import ASGIApp, Message, Receive, Scope, Send
from memscope.view.picture import Picture, picture_of, version_of

log = logging.getLogger("memscope")

#: where the picture goes in Streamlit's ``index.html`` (must occur exactly once)
MARKER = b'<div id="root"></div>'
SCRIPT = Path(__file__).with_name("assets") / "first_picture.js"
#: where Streamlit 1.67 puts the explorer's graph on a first visit (CSS px): the sidebar's
#: width and the window width from which the picture is shown at all (narrower: the
#: sidebar is closed, unmeasured), the main column's side paddings, the graph canvas's
#: top (under the search bar and the summary line); see ``assets/first_picture.js``
LAYOUT: dict[str, int] = {"sidebar": 300, "wide": 768, "left": 25, "right": 25, "top": 209}
#: the legend panel in the graph (graph_view.css, legend.js), which a fit keeps clear: its
#: place, its width without rows and its widest (250 px), a colour row's width around its
#: label and count (12 px Source Sans), its height
LEGEND: dict[str, float] = {"left": 8, "top": 8, "w": 229, "max": 250, "row": 49.5,
                            "h": 360}
#: the graph's element on the page as soon as Streamlit has laid it out, before its
#: component has mounted (Streamlit's class for the element's key,
#: ``components.sections.explorer.GRAPH_STATE``): while it is there the picture waits
SLOT = ".st-key-graph"
CANVAS_STYLE = ("position:fixed;left:0;top:0;width:0;height:0;z-index:999990;"
                "pointer-events:none;opacity:1")

_lock = threading.Lock()
_made: dict[str, Picture] = {}  # the last picture made, by its version (one entry)


@functools.cache
def _script() -> str:
    """The painting script (read once)."""
    return SCRIPT.read_text(encoding="utf-8")


def _theme() -> str | None:
    from streamlit import config

    base = config.get_option("theme.base")
    return str(base) if base in ("light", "dark") else None


def current_picture() -> Picture | None:
    """The picture of the view the server opens by itself, if it may be shown and is
    computed already; ``None`` otherwise (never computes a view)."""
    try:
        return _current()
    except Exception as exc:  # a picture is an optimisation, never a failure
        log.warning("No first picture (%s: %s)", type(exc).__name__, exc)
        return None


def _current() -> Picture | None:
    from components.graph_view import group_annotations
    from components.state import auth, connection
    from components.state.pipeline import pipeline
    from memscope.pipeline.request import ViewRequest
    from memscope.settings import store_path
    from memscope.sources.embedded import EmbeddedSource

    if auth.configured():
        return None
    conn = connection.configured_connection()
    path = store_path()
    if conn.kind != "embedded" or not path.is_file():
        return None
    source = EmbeddedSource(path, container_tags=(conn.space,) if conn.space else ())
    p = pipeline()
    ref = p.loads.cached(source)  # fresh: the data version it was loaded at is current
    if ref is None:
        return None
    entry = p.loads.entry(ref.key)
    now = p.clock()
    probe = ViewRequest(load=ref, identity="", epoch=0, now=now)
    if entry is None or not p.cached("base", probe):
        return None
    req = p.first(ref, source.identity(), now)
    if not all(p.cached(step, req) for step in ("scoped", "visible", "overview", "groups",
                                                "hidden")):
        return None  # not computed yet: the next first visit computes it
    version = version_of(ref.key, ref.revision, entry.digest, req.epoch, req.color_by,
                         req.budget, _theme())
    with _lock:
        made = _made.get(version)
    if made is not None:
        return made
    drawn = p.view(req).drawn
    picture = picture_of(drawn["nodes"], drawn["edges"], group_annotations(drawn), version,
                         legend=drawn.get("legend"), presenter=req.presenter)
    if picture is None:
        return None
    with _lock:
        _made.clear()
        _made[version] = picture
    return picture


def _json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``<``, ``>``, ``&`` as themselves)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def inject(html: bytes, picture: Mapping[str, Any], theme: str | None = None,
           script: str | None = None) -> bytes | None:
    """``html`` with the picture's canvas, data and script after :data:`MARKER`, or
    ``None`` when the marker is not there exactly once.

    >>> out = inject(b'<body><div id="root"></div></body>', {"v": "ab"}, script="1")
    >>> out.count(b'id="ms-first-picture"'), b'data-version="ab"' in out
    (1, True)
    >>> inject(b"<body></body>", {"v": "ab"}) is None
    True
    """
    if html.count(MARKER) != 1:
        return None
    version = str(picture["v"])
    if not version.isalnum():
        return None
    data = {**picture, "theme": theme, "layout": LAYOUT, "legend": LEGEND, "slot": SLOT}
    code = _script() if script is None else script
    block = (f'<canvas id="ms-first-picture" data-version="{version}" aria-hidden="true" '
             f'style="{CANVAS_STYLE}"></canvas>'
             f'<script id="ms-first-picture-data" type="application/json">{_json(data)}'
             f"</script><script>{code}</script>").encode()
    return html.replace(MARKER, MARKER + block, 1)


def _root() -> str:
    from streamlit import config

    base = str(config.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}" if base else "/"


def wanted(scope: Scope, root: str) -> bool:
    """Whether ``scope`` is a plain ``GET`` of the app's root (``root``), no query.

    >>> wanted({"type": "http", "method": "GET", "path": "/", "query_string": b""}, "/")
    True
    >>> wanted({"type": "http", "method": "GET", "path": "/", "query_string": b"presenter=1"},
    ...        "/")
    False
    >>> wanted({"type": "http", "method": "GET", "path": "/audit", "query_string": b""}, "/")
    False
    """
    path = str(scope.get("path", ""))
    return (scope.get("type") == "http" and scope.get("method") == "GET"
            and not scope.get("query_string") and path.rstrip("/") == root.rstrip("/"))


_CONDITIONAL = {b"if-none-match", b"if-modified-since", b"range", b"if-range"}
_VALIDATORS = {b"etag", b"last-modified", b"content-length", b"cache-control",
               b"accept-ranges"}


class FirstPictureMiddleware:
    """ASGI middleware: Streamlit's page ``/`` with the first picture in it (see the
    module's description); every other request passes through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not wanted(scope, _root()):
            await self.app(scope, receive, send)
            return
        import anyio.to_thread

        picture = await anyio.to_thread.run_sync(current_picture)
        if picture is None:
            await self.app(scope, receive, send)
            return
        # the whole page, never a 304 or a range: what the browser keeps has no picture
        headers = [(k, v) for k, v in scope.get("headers", [])
                   if bytes(k).lower() not in _CONDITIONAL]
        inner = {**scope, "headers": headers}
        start: Message | None = None
        chunks: list[bytes] = []

        async def collect(message: Message) -> None:
            nonlocal start
            if message.get("type") == "http.response.start":
                start = message
                return
            if message.get("type") == "http.response.body":
                chunks.append(bytes(message.get("body", b"")))
                if not message.get("more_body", False):
                    await _answer(send, start, b"".join(chunks), picture)
                return
            await send(message)

        await self.app(inner, receive, collect)


async def _answer(send: Send, start: Message | None, body: bytes,
                  picture: Picture) -> None:
    """Send the page, with the picture when it is Streamlit's HTML page."""
    if start is None:
        return
    headers = list(start.get("headers", []))
    html = any(bytes(k).lower() == b"content-type" and bytes(v).startswith(b"text/html")
               for k, v in headers)
    out = inject(body, picture, _theme()) if html and start.get("status") == 200 else None
    if out is None:
        if html and start.get("status") == 200:
            log.warning("No first picture: Streamlit's page has no %s", MARKER.decode())
        await send(start)
        await send({"type": "http.response.body", "body": body})
        return
    kept = [(k, v) for k, v in headers if bytes(k).lower() not in _VALIDATORS]
    kept += [(b"content-length", str(len(out)).encode()), (b"cache-control", b"no-cache")]
    await send({**start, "headers": kept})
    await send({"type": "http.response.body", "body": out})


def installed() -> bool:
    """Whether :func:`install` ran in this process."""
    from streamlit.web.server.starlette import starlette_app

    return bool(getattr(starlette_app.create_streamlit_middleware, "memscope_first_picture",
                        False))


def install() -> None:
    """Add :class:`FirstPictureMiddleware` to the middleware of every Streamlit app built
    in this process from now on (idempotent)."""
    from starlette.middleware import Middleware
    from streamlit.web.server.starlette import starlette_app

    if installed():
        return
    made = starlette_app.create_streamlit_middleware

    @functools.wraps(made)
    def with_first_picture() -> list[Middleware]:
        return [*made(), Middleware(FirstPictureMiddleware)]

    # (functools.wraps keeps the asset cache's mark, which its installed() reads)
    with_first_picture.memscope_first_picture = True  # type: ignore[attr-defined]
    starlette_app.create_streamlit_middleware = with_first_picture
