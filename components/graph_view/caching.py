"""The graph's versioned browser files, cached by the browser for a year.

Streamlit serves a Custom Component v2's folder with ``Cache-Control: public`` and no
``max-age``, ETag or Last-Modified: a browser may keep a file but must fetch it again
before each use. The graph's loader names every file with a hash of its content
(``…/vis-network.min.js?v=<16 hex digits>``, see ``files.py`` and ``loader.js``), so a
copy under that URL is right forever. :class:`VersionedAssetCache` says so to the
browser (``public, max-age=31536000, immutable``) for exactly those URLs: the graph's
component folder, a GET answered 200, a ``v`` of 16 hex digits. The browser then takes
vis-network from its cache in a later session without asking, and Chromium keeps the
compiled code of a script it takes from its cache (V8's code cache, which a script run
from a ``blob:`` URL never gets), so a later session neither fetches nor compiles the
library again.

:func:`install` adds the middleware to the app Streamlit builds
(``streamlit.web.server.starlette.starlette_app.create_streamlit_middleware``, used by
``streamlit run`` and by ``st.App``); ``serve.py`` calls it before the server starts.
Without it (a bare ``streamlit run app.py``) the graph works the same and the browser
fetches the library again in each session.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from components.graph_view.frontend import ASSET_COMPONENT

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: what a versioned file's response says: keep it a year, never ask again
IMMUTABLE = b"public, max-age=31536000, immutable"
#: the served folder's part of the path (after any ``server.baseUrlPath``)
FOLDER = f"/_stcore/bidi-components/{ASSET_COMPONENT}/"
_VERSION = re.compile(rb"(?:^|&)v=[0-9a-f]{16}(?:&|$)")


def versioned(path: str, query: bytes) -> bool:
    """Whether ``path``/``query`` name one of the graph's files by its content hash.

    >>> versioned(FOLDER + "vis-network.min.js", b"v=0123456789abcdef")
    True
    >>> versioned(FOLDER + "vis-network.min.js", b"")
    False
    >>> versioned("/_stcore/bidi-components/other.x/a.js", b"v=0123456789abcdef")
    False
    """
    at = path.find(FOLDER)
    return (at >= 0 and "/" not in path[at + len(FOLDER):] and len(path) > at + len(FOLDER)
            and _VERSION.search(query) is not None)


class VersionedAssetCache:
    """ASGI middleware: a year's ``Cache-Control`` on the graph's versioned files (a GET
    answered 200); every other request and response passes through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path, query = str(scope.get("path", "")), bytes(scope.get("query_string", b""))
        if (scope.get("type") != "http" or scope.get("method") != "GET"
                or not versioned(path, query)):
            await self.app(scope, receive, send)
            return

        async def send_cached(message: Message) -> None:
            if message.get("type") == "http.response.start" and message.get("status") == 200:
                headers = [(k, v) for k, v in message.get("headers", [])
                           if bytes(k).lower() != b"cache-control"]
                message = {**message, "headers": [*headers, (b"cache-control", IMMUTABLE)]}
            await send(message)

        await self.app(scope, receive, send_cached)


def installed() -> bool:
    """Whether :func:`install` ran in this process (the loader then runs vis-network from
    its URL; see ``loader.js``)."""
    from streamlit.web.server.starlette import starlette_app

    return bool(getattr(starlette_app.create_streamlit_middleware, "memscope_asset_cache",
                        False))


def install() -> None:
    """Add :class:`VersionedAssetCache` to the middleware of every Streamlit app built in
    this process from now on (idempotent)."""
    from starlette.middleware import Middleware
    from streamlit.web.server.starlette import starlette_app

    if installed():
        return
    made = starlette_app.create_streamlit_middleware

    @functools.wraps(made)
    def with_asset_cache() -> list[Middleware]:
        return [*made(), Middleware(VersionedAssetCache)]

    with_asset_cache.memscope_asset_cache = True  # type: ignore[attr-defined]
    starlette_app.create_streamlit_middleware = with_asset_cache
