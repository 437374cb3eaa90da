"""The first picture (issue 33, item 3) without a browser: Streamlit's page still offers
the hook it is put into, the picture is compact and safe inside a script element, and
the middleware touches nothing but a plain ``GET /``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import streamlit
from async_support import run_async

from components import first_picture
from components.first_picture import MARKER, FirstPictureMiddleware, inject
from memscope.view.picture import picture_of, version_of

INDEX = Path(streamlit.__file__).parent / "static" / "index.html"


def test_streamlits_page_offers_the_marker_the_picture_goes_after() -> None:
    """If Streamlit's index.html changes shape this fails (the page then carries no
    picture: :func:`inject` finds no marker)."""
    html = INDEX.read_bytes()
    assert html.count(MARKER) == 1
    assert html.index(MARKER) < html.index(b"</body>")
    assert inject(html, {"v": "0123456789abcdef"}, script="/*s*/") is not None


def test_the_picture_is_data_in_a_script_element_never_markup() -> None:
    hostile = "</script><img src=x onerror=alert(1)>&"
    picture = picture_of([{"id": "a", "x": 0, "y": 0}, {"id": "b", "x": 10, "y": 5}], [],
                         [{"text": hostile, "x": 0, "y": 0, "size": 20}], "abc")
    assert picture is not None
    out = inject(b'<body><div id="root"></div></body>', picture, script="/*s*/")
    assert out is not None
    text = out.decode()
    assert "<img" not in text and text.count("</script>") == 2
    data = text.split('type="application/json">', 1)[1].split("</script>", 1)[0]
    assert json.loads(data)["t"][0][3] == hostile
    assert inject(b'<div id="root"></div>', {"v": 'x" onload="1'}) is None  # not a version


def test_presenter_mode_paints_no_text() -> None:
    picture = picture_of([{"id": "a", "x": 0, "y": 0}], [],
                         [{"text": "Maya", "x": 0, "y": 0, "size": 20}], "abc", presenter=True)
    assert picture is not None and picture["t"] == []
    assert "Maya" not in json.dumps(picture)


def test_a_picture_is_versioned_by_what_it_is_drawn_from() -> None:
    assert version_of(("k",), 1, "digest") != version_of(("k",), 2, "digest")
    assert version_of(("k",), 1, "digest") != version_of(("k",), 1, "other")


def _run(scope: dict[str, Any], picture: Any, monkeypatch) -> tuple[list[dict], bool]:
    """Run the middleware around a fake Streamlit that answers ``index.html``."""
    monkeypatch.setattr(first_picture, "current_picture", lambda: picture)
    monkeypatch.setattr(first_picture, "_root", lambda: "/")
    monkeypatch.setattr(first_picture, "_theme", lambda: None)
    seen: dict[str, Any] = {}

    async def app(scope: dict, receive: Any, send: Any) -> None:
        seen["headers"] = scope.get("headers", [])
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"text/html; charset=utf-8"), (b"etag", b'"1"'),
            (b"content-length", b"999"), (b"cache-control", b"no-cache")]})
        await send({"type": "http.response.body", "body": b'<div id="root">',
                    "more_body": True})
        await send({"type": "http.response.body", "body": b"</div>"})

    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    async def receive() -> dict:
        return {"type": "http.request"}

    run_async(FirstPictureMiddleware(app)(scope, receive, send))  # type: ignore[arg-type]
    return sent, (b"if-none-match", b'"1"') in seen["headers"]


def test_the_middleware_puts_the_picture_into_a_plain_get_of_the_root(monkeypatch) -> None:
    picture = picture_of([{"id": "a", "x": 0, "y": 0}], [], [], "0123456789abcdef")
    scope = {"type": "http", "method": "GET", "path": "/", "query_string": b"",
             "headers": [(b"if-none-match", b'"1"')]}
    sent, conditional = _run(scope, picture, monkeypatch)
    assert not conditional  # never a 304: the browser's copy may have an older picture
    headers = dict(sent[0]["headers"])
    body = b"".join(m.get("body", b"") for m in sent[1:])
    assert b'data-version="0123456789abcdef"' in body
    assert headers[b"content-length"] == str(len(body)).encode()
    assert b"etag" not in headers and headers[b"cache-control"] == b"no-cache"


def test_the_middleware_leaves_every_other_request_alone(monkeypatch) -> None:
    picture = picture_of([{"id": "a", "x": 0, "y": 0}], [], [], "0123456789abcdef")
    for scope in ({"type": "http", "method": "GET", "path": "/", "query_string": b"presenter=1",
                   "headers": []},
                  {"type": "http", "method": "GET", "path": "/audit", "query_string": b"",
                   "headers": []},
                  {"type": "http", "method": "HEAD", "path": "/", "query_string": b"",
                   "headers": []}):
        sent, _ = _run(scope, picture, monkeypatch)
        assert b"ms-first-picture" not in b"".join(m.get("body", b"") for m in sent[1:])
    sent, _ = _run({"type": "http", "method": "GET", "path": "/", "query_string": b"",
                    "headers": []}, None, monkeypatch)  # no picture (sign-in, no view…)
    assert dict(sent[0]["headers"])[b"etag"] == b'"1"'


def test_serve_installs_the_middleware_after_streamlits_own() -> None:
    from streamlit.web.server.starlette import starlette_app

    from components.graph_view import caching

    made = starlette_app.create_streamlit_middleware
    try:
        caching.install()
        first_picture.install()
        first_picture.install()  # idempotent
        kinds: list[object] = [m.cls for m in starlette_app.create_streamlit_middleware()]
        assert kinds.count(FirstPictureMiddleware) == 1
        assert caching.installed() and first_picture.installed()
    finally:
        starlette_app.create_streamlit_middleware = made


def test_the_graphs_element_is_the_one_the_script_waits_for() -> None:
    from components.sections.explorer import GRAPH_STATE

    assert f".st-key-{GRAPH_STATE.name}" == first_picture.SLOT
