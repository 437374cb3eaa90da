"""The graph component's browser files, as the element asks for them.

vis-network's build, the ES modules and the stylesheet are files of ``frontend/assets/``,
a package of its own (``memscope-graph-frontend``, see its ``pyproject.toml``) whose folder
Streamlit serves at ``/_stcore/bidi-components/<its served name>/``. The element's JS is
only ``loader.js`` with ``FILES``: where each file is and a hash of its content, which
the loader puts in the file's URL (see ``loader.js`` for why). Behind ``serve.py`` every
page has asked for those files before the element comes (``preload.py``).
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.components.v2 import component as _register_component

from components.graph_view import caching

#: the graph's component name (its element carries the data)
COMPONENT_NAME = "memscope_graph_view"
_HERE = Path(__file__).resolve().parent
#: the installed package that holds the browser files (``frontend/``)
FRONTEND_PACKAGE = "memscope_graph_frontend"
#: the served files that are not ES modules of the graph
LIBRARY_FILE = "vis-network.min.js"
CSS_FILE = "graph_view.css"
ENTRY_FILE = "graph_view.js"


def _frontend() -> tuple[Path, str]:
    """The folder of browser files and the name Streamlit serves it under."""
    try:
        package = importlib.import_module(FRONTEND_PACKAGE)
    except ModuleNotFoundError:
        raise RuntimeError("graph_view: the graph's browser files (the memscope-graph-frontend "
                           "package) are not installed; run `make install`.") from None
    return Path(package.ASSETS), str(package.ASSET_COMPONENT)


def _asset_base() -> str:
    """The URL path Streamlit serves the browser files under (``server.baseUrlPath``)."""
    prefix = str(st.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{prefix + '/' if prefix else ''}_stcore/bidi-components/{_frontend()[1]}/"


@functools.lru_cache(maxsize=4)
def _spec_for(base: str, files: tuple[tuple[str, int, int], ...], immutable: bool) -> str:
    """``FILES`` as JSON: each served file with a hash of its content, and whether the
    server tells browsers to keep them (``caching.py``); ``files`` (name, size, mtime)
    only keys the cache, so an edited file gets a new hash."""
    assets = _frontend()[0]
    versions = {name: hashlib.sha256((assets / name).read_bytes()).hexdigest()[:16]
                for name, _, _ in files}
    spec = {"base": base, "entry": ENTRY_FILE, "library": LIBRARY_FILE, "css": CSS_FILE,
            "versions": versions, "immutable": immutable}
    return json.dumps(spec, sort_keys=True)


def files_spec() -> str:
    """``FILES`` (see ``loader.js``) as JSON, for the files as they are now."""
    assets = _frontend()[0]
    files = tuple(sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns)
                         for p in assets.iterdir() if p.suffix in (".js", ".css")))
    return _spec_for(_asset_base(), files, caching.installed())


def loader_js() -> str:
    """The component's inline JS: ``loader.js`` and where to fetch each file from."""
    return with_files(files_spec(), "loader.js")


@functools.lru_cache(maxsize=8)
def with_files(spec: str, script: str) -> str:
    """The script ``script`` of this folder with ``const FILES = spec;`` before it, and
    without its lines of comment (they are for the reader of the file, and every element
    and page that carries the script would carry them too)."""
    text = (_HERE / script).read_text(encoding="utf-8")
    code = "".join(line for line in text.splitlines(keepends=True)
                   if not line.lstrip().startswith("//"))
    return f"const FILES = {spec};\n{code}"


@functools.lru_cache(maxsize=4)
def _registered(js: str) -> Callable[..., Any]:
    return _register_component(COMPONENT_NAME, js=js)


def mount() -> Callable[..., Any]:
    """The graph, registered with :func:`loader_js` (the same text while the files are
    unchanged, so a rerun re-sends nothing of it; the browser runs it once per page)."""
    return _registered(loader_js())
