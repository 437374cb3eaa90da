"""The graph component's browser files: Streamlit finds and serves them (the
``memscope-graph-frontend`` package), each URL names its content, the modules link as the
loader links them, and in a real Chromium a second session of the same browser fetches
none of them again and receives none of them over the websocket."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from browser_support import GRAPH, IDLE, assert_loopback_only, chromium
from playwright.sync_api import Browser, Page, Route, WebSocket
from streamlit.components.v2.component_manager import BidiComponentManager
from streamlit.components.v2.manifest_scanner import scan_component_manifests
from streamlit_server import StreamlitServer

import components.graph_view.files as graph_files
from memscope.view import library
from memscope.view.library import vis_network_js

FRONTEND = Path(graph_files.__file__).resolve().parent / "frontend"
ASSETS = FRONTEND / "assets"
SERVED = "memscope-graph-frontend.graph"
LOADER = Path(graph_files.__file__).resolve().parent / "loader.js"


def served_files() -> set[str]:
    return {p.name for p in ASSETS.iterdir() if p.suffix in (".js", ".css")}


def files_spec(js: str) -> dict:
    """The ``FILES`` object the loader's text starts with."""
    head, _, _ = js.partition(";\n")
    assert head.startswith("const FILES = ")
    return json.loads(head.removeprefix("const FILES = "))


def test_streamlit_serves_the_installed_package_folder() -> None:
    found = {manifest.name: (manifest, root) for manifest, root in scan_component_manifests()}
    manifest, root = found["memscope-graph-frontend"]
    assert [(c.name, c.asset_dir) for c in manifest.components] == [("graph", "assets")]
    assert root.resolve() == FRONTEND
    manager = BidiComponentManager()
    manager.discover_and_register_components(start_file_watching=False)
    assert manager.get_component_path(SERVED) == str(ASSETS)


def test_each_url_names_the_content_of_its_file(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    spec = files_spec(graph_files.loader_js())
    assert spec["base"] == f"/_stcore/bidi-components/{SERVED}/"
    assert (spec["entry"], spec["library"], spec["css"]) == (
        "graph_view.js", "vis-network.min.js", "graph_view.css")
    assert set(spec["versions"]) == served_files()
    for name, version in spec["versions"].items():
        assert version == hashlib.sha256((ASSETS / name).read_bytes()).hexdigest()[:16]
    # an edited file gets a new URL, and only that file
    copy = tmp_path / "assets"
    shutil.copytree(ASSETS, copy)
    monkeypatch.setattr(graph_files, "_frontend", lambda: (copy, SERVED))
    before = files_spec(graph_files.loader_js())["versions"]
    with (copy / "theme.js").open("a", encoding="utf-8") as f:
        f.write("// edited\n")
    after = files_spec(graph_files.loader_js())["versions"]
    assert {n for n in before if before[n] != after[n]} == {"theme.js"}


def test_the_urls_follow_the_servers_base_path(monkeypatch: pytest.MonkeyPatch) -> None:
    options = {"server.baseUrlPath": "/team/memscope/"}
    monkeypatch.setattr(graph_files.st, "get_option", lambda name: options[name])
    spec = files_spec(graph_files.loader_js())
    assert spec["base"] == f"/team/memscope/_stcore/bidi-components/{SERVED}/"


def test_a_missing_package_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(graph_files, "FRONTEND_PACKAGE", "memscope_no_such_package")
    with pytest.raises(RuntimeError, match=r"not installed; run `make install`\.$"):
        graph_files.loader_js()
    monkeypatch.setattr(library, "PACKAGE", "memscope_no_such_package")
    with pytest.raises(FileNotFoundError, match=r"not installed; run `make install`\.$"):
        library.vendor_file()


def test_the_modules_link_as_the_loader_links_them() -> None:
    """Every import is one the loader rewrites (its own pattern), of a served module, and
    the imports from the entry reach every module without a cycle."""
    found = re.search(r"^const IMPORT = /(.+)/gm;$", LOADER.read_text(encoding="utf-8"), re.M)
    assert found is not None
    pattern = re.compile(found.group(1), re.M)
    modules = {name for name in served_files() if name.endswith(".js")} - {"vis-network.min.js"}
    imports: dict[str, list[str]] = {}
    for name in sorted(modules):
        source = (ASSETS / name).read_text(encoding="utf-8")
        deps = [m.group(2) for m in pattern.finditer(source)]
        assert len(re.findall(r"^import\b", source, re.M)) == len(deps), name
        assert not re.search(r"\bimport\s*\(|^export\s[^;]*\sfrom\s", source, re.M), name
        assert not re.search(r"https?:|//cdn|fetch\(", source), name
        assert set(deps) <= modules, name
        imports[name] = deps
    reached: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import cycle: {' → '.join((*path, name))}"
        reached.add(name)
        for dep in imports[name]:
            visit(dep, (*path, name))

    visit("graph_view.js", ())
    assert reached == modules


# -- in a real Chromium ----------------------------------------------------------------------

#: the page's fetches of the component's files: [path, bytes over the network, bytes decoded]
ENTRIES_JS = """() => performance.getEntriesByType("resource")
  .filter((r) => r.name.includes("/_stcore/bidi-components/"))
  .map((r) => [new URL(r.name).pathname + new URL(r.name).search, r.transferSize,
               r.decodedBodySize])"""


@pytest.fixture(scope="module")
def server(graph_demo: StreamlitServer) -> StreamlitServer:
    """The graph component's demo app (conftest's ``graph_demo``)."""
    return graph_demo


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as b:
        yield b


def open_session(page: Page, url: str, frames: list[bytes], urls: list[str]) -> None:
    """Open the app in ``page`` (a new Streamlit session); collect what it receives."""
    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, bytes) else payload.encode()))

    page.on("websocket", on_socket)
    page.on("request", lambda request: urls.append(request.url))
    page.goto(url)
    page.wait_for_selector(IDLE, timeout=60_000)
    page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=60_000)


@pytest.mark.browser
def test_a_second_session_fetches_none_of_the_files_again(server: StreamlitServer,
                                                          browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    urls: list[str] = []
    try:
        first, second = context.new_page(), context.new_page()  # two tabs, one HTTP cache
        frames1: list[bytes] = []
        open_session(first, server.url, frames1, urls)
        fetched = first.evaluate(ENTRIES_JS)
        paths = {path.split("?")[0].rsplit("/", 1)[1] for path, _, _ in fetched}
        assert paths == served_files()  # each file once, all from the server
        assert len(fetched) == len(paths) and all(sent > 0 for _, sent, _ in fetched)

        frames2: list[bytes] = []
        open_session(second, server.url, frames2, urls)
        again = second.evaluate(ENTRIES_JS)
        assert sorted(path for path, _, _ in again) == sorted(path for path, _, _ in fetched)
        # every file from the browser's cache: nothing crossed the network for it
        assert [(path, sent) for path, sent, _ in again if sent != 0] == []
        assert all(size > 0 for _, _, size in again)
        # the same measure sees a download: the library fetched past the cache
        library = next(path for path, _, _ in again if "vis-network" in path)
        second.evaluate("url => fetch(url, { cache: 'no-store' }).then((r) => r.text())",
                        library)
        assert second.evaluate(ENTRIES_JS)[-1][1] > 0

        # and the library never came over the websocket, in either session
        tail = vis_network_js()[-200:].encode()
        for frames in (frames1, frames2):
            assert frames and not any(tail in frame for frame in frames)
            assert sum(map(len, frames)) < 200_000  # the demo's data; the library is 470 KB
    finally:
        context.close()
    assert_loopback_only(urls)


@pytest.mark.browser
def test_why_the_loader_forces_the_cache(server: StreamlitServer) -> None:
    """Streamlit serves the files with ``Cache-Control: public`` and no expiry or validator:
    a plain ``<script src>`` would download them again in every session (the reason
    loader.js fetches with ``cache: "force-cache"`` by content-hashed URLs). Should this
    change, the loader could import the modules directly."""
    url = f"{server.url}/_stcore/bidi-components/{SERVED}/vis-network.min.js"
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        headers = {k.lower(): v for k, v in response.headers.items()}
    assert headers["cache-control"] == "public"
    assert not {"etag", "last-modified", "expires"} & set(headers)


def failing(failures: int, asked: list[str]) -> Callable[[Route], None]:
    """A route handler: 404 for the first ``failures`` requests, then the server's file."""
    def handler(route: Route) -> None:
        asked.append(route.request.url)
        if len(asked) <= failures:
            route.fulfill(status=404, body="not found")
        else:
            route.continue_()

    return handler


@pytest.mark.browser
def test_a_file_that_does_not_load_is_tried_past_the_cache_then_named(
        server: StreamlitServer, browser: Browser) -> None:
    pattern = re.compile(r".*/_stcore/bidi-components/.*/theme\.js\?v=.*")
    for failures, drawn in ((1, True), (99, False)):
        context = browser.new_context(viewport={"width": 1200, "height": 800})
        asked: list[str] = []
        once_then_serve = failing(failures, asked)
        try:
            page = context.new_page()
            page.route(pattern, once_then_serve)
            page.goto(server.url)
            page.wait_for_selector(IDLE, timeout=60_000)
            if drawn:  # the second fetch went past the cache and got the file
                page.wait_for_selector(f"{GRAPH}[data-drawn='true']", timeout=60_000)
                assert len(asked) == 2
            else:
                message = ("The graph's file theme.js did not load (HTTP 404); is the "
                           "memscope-graph-frontend package installed (make install)?")
                alert = page.get_by_role("alert")
                alert.wait_for(timeout=30_000)
                assert alert.text_content() == message  # one sentence, no stack
                assert page.locator(GRAPH).count() == 0
        finally:
            context.close()
