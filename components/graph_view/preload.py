"""Every page starts loading the graph's files as soon as its HTML arrives (issue 33,
item 2).

Streamlit's element only runs the graph's loader (``loader.js``) once the run's elements
are rendered; from there, fetching the files (from the HTTP cache for a returning
visitor, the network for a new one), running vis-network and compiling the modules took
100–300 ms of the time between the graph's data arriving and its first frame.
:class:`FilesPreload` puts the same loader, with the same ``FILES``, before ``</body>`` of
every HTML page Streamlit serves, as a module that starts the load once the page has
parsed; the element's loader finds that load in the page (by the files' versions) and
waits for it instead of starting its own, and starts its own when it failed. It names no
data, only the package's own files, so it is the same for every visitor; nothing is
fetched from elsewhere.

:func:`install` adds it to the app Streamlit builds, as :mod:`.caching` does (``serve.py``
calls both). A page that does not have ``</body>`` exactly once passes unchanged, and the
element loads the files itself as before.
"""

from __future__ import annotations

import functools
import logging

from components.graph_view import files
from components.graph_view.caching import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("memscope")

#: where the script goes in Streamlit's ``index.html`` (must occur exactly once)
MARKER = b"</body>"
#: request paths that are never a page (Streamlit's own endpoints and assets)
_NOT_PAGES = ("/_stcore/", "/static/", "/media/", "/component/", "/app/static/")
#: the headers a changed page cannot keep (they describe Streamlit's own bytes)
_VALIDATORS = {b"etag", b"last-modified", b"content-length", b"accept-ranges"}


def _script_html() -> bytes:
    """The ``<script>`` element: the loader with the current ``FILES``, started."""
    return _element(files.files_spec())


@functools.lru_cache(maxsize=4)
def _element(spec: str) -> bytes:
    """``loader.js`` after ``const FILES = spec;``, then its load started, as a module
    script (run once the page has parsed); ``spec`` made safe inside HTML (no ``<``,
    ``>`` or ``&`` as themselves)."""
    safe = spec.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    code = files.with_files(safe, "loader.js")
    return (f'<script type="module" id="ms-graph-files">{code}'
            "loadOnce().catch(() => {}); // the element starts it again</script>").encode()


def inject(html: bytes, element: bytes) -> bytes | None:
    """``html`` with ``element`` just before :data:`MARKER`, or ``None`` when the marker is
    not there exactly once.

    >>> inject(b"<body><div></div></body>", b"<script></script>")
    b'<body><div></div><script></script></body>'
    >>> inject(b"<body>", b"<script></script>") is None
    True
    """
    if html.count(MARKER) != 1:
        return None
    return html.replace(MARKER, element + MARKER, 1)


def _maybe_page(scope: Scope) -> bool:
    """Whether ``scope`` is a ``GET`` that Streamlit may answer with its HTML page."""
    path = str(scope.get("path", ""))
    return (scope.get("type") == "http" and scope.get("method") == "GET"
            and not any(part in path for part in _NOT_PAGES))


class FilesPreload:
    """ASGI middleware: Streamlit's HTML page with :func:`_script_html` in it; every other
    response passes through untouched (and unbuffered)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _maybe_page(scope):
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        page = False
        chunks: list[bytes] = []

        async def collect(message: Message) -> None:
            nonlocal start, page
            kind = message.get("type")
            if kind == "http.response.start":
                headers = message.get("headers", [])
                page = message.get("status") == 200 and any(
                    bytes(k).lower() == b"content-type" and bytes(v).startswith(b"text/html")
                    for k, v in headers)
                if page:
                    start = message
                    return
            elif kind == "http.response.body" and page:
                chunks.append(bytes(message.get("body", b"")))
                if not message.get("more_body", False):
                    await _answer(send, start, b"".join(chunks))
                return
            await send(message)

        await self.app(scope, receive, collect)


async def _answer(send: Send, start: Message | None, body: bytes) -> None:
    """Send the page with the script in it (unchanged when it has no single marker)."""
    if start is None:
        return
    try:
        out = inject(body, _script_html())
    except Exception as exc:  # the preload is an optimisation, never a failure
        log.warning("Page sent without the graph's preload (%s: %s)", type(exc).__name__, exc)
        out = None
    if out is None:
        await send(start)
        await send({"type": "http.response.body", "body": body})
        return
    kept = [(k, v) for k, v in start.get("headers", []) if bytes(k).lower() not in _VALIDATORS]
    kept.append((b"content-length", str(len(out)).encode()))
    await send({**start, "headers": kept})
    await send({"type": "http.response.body", "body": out})


def installed() -> bool:
    """Whether :func:`install` ran in this process."""
    from streamlit.web.server.starlette import starlette_app

    return bool(getattr(starlette_app.create_streamlit_middleware, "memscope_files_preload",
                        False))


def install() -> None:
    """Add :class:`FilesPreload` to the middleware of every Streamlit app built in this
    process from now on (idempotent)."""
    from starlette.middleware import Middleware
    from streamlit.web.server.starlette import starlette_app

    if installed():
        return
    made = starlette_app.create_streamlit_middleware

    @functools.wraps(made)
    def with_files_preload() -> list[Middleware]:
        return [*made(), Middleware(FilesPreload)]

    # (functools.wraps keeps the other middlewares' marks, which their installed() read)
    with_files_preload.memscope_files_preload = True  # type: ignore[attr-defined]
    starlette_app.create_streamlit_middleware = with_files_preload
