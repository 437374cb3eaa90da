"""The house rules that code review would otherwise have to remember.

The core reads one way — records → graph → lenses → view/reports → export — with the
store, the demo, the sources and the sandbox beside it; no module imports another that
(directly or not) imports it back; and the core never imports Streamlit.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "memscope"

#: package -> the core packages it may import (besides itself and top-level helpers)
ALLOWED: dict[str, set[str]] = {
    "records": set(),
    "graph": {"records"},
    "lenses": {"records", "graph"},
    # meaning, offline: the shipped embedder and the semantic audit over an analysis
    "meaning": {"records", "graph"},
    "view": {"records", "graph", "lenses"},
    "reports": {"records", "graph", "lenses", "meaning", "sources"},
    "export": {"records", "graph", "lenses", "view"},
    # what Memscope owns (ledger, cached layouts): below the embedded store, which writes
    # its own ledger rows into it in the same transaction as its changes
    "storage": {"records"},
    "store": {"records", "storage", "meaning"},  # Ask fuses words with the embedder
    "demo": {"records", "store"},
    "sources": {"records", "store", "storage", "meaning"},  # a file's Ask, as the store's
    "sandbox": {"records", "store", "demo", "sources"},
    # the explorer's view pipeline: from a shared load to what the graph draws (and the
    # reports a page memoises beside it: the summary sentences, the memory table)
    "pipeline": {"records", "graph", "lenses", "meaning", "view", "reports", "storage",
                 "sources"},
}
#: top-level helpers a core package may import (besides memscope.settings): the view
#: pipeline reads and writes kept loads through memscope.kept
TOP_HELPERS: dict[str, set[str]] = {"pipeline": {"memscope.kept"}}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute names), including lazy imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _core_graph() -> nx.DiGraph:
    modules = {_module_name(p): p for p in CORE.rglob("*.py")}
    g = nx.DiGraph()
    g.add_nodes_from(modules)
    for name, path in modules.items():
        for target in _imports(path):
            if target in modules and target != name and target != "memscope":
                g.add_edge(name, target)
    return g


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else None


def test_the_core_has_no_import_circle():
    cycles = list(nx.simple_cycles(_core_graph()))
    assert cycles == []


def test_core_packages_import_only_what_comes_before_them():
    g = _core_graph()
    packages = {p for p in map(_package, g.nodes) if p}
    assert packages == set(ALLOWED), "declare each core package's place in ALLOWED"
    wrong = []
    for src, dst in g.edges:
        a, b = _package(src), _package(dst)
        if a and b and a != b and b not in ALLOWED[a]:
            wrong.append(f"{src} -> {dst}")
        if a and b is None and dst not in {"memscope.settings", *TOP_HELPERS.get(a, ())}:
            wrong.append(f"{src} -> {dst} (the core packages never import the app's top)")
    assert wrong == []


def test_the_package_graph_reads_one_way():
    g = nx.DiGraph()
    for src, dst in _core_graph().edges:
        a, b = _package(src), _package(dst)
        if a and b and a != b:
            g.add_edge(a, b)
    assert nx.is_directed_acyclic_graph(g), list(nx.simple_cycles(g))


def test_the_core_never_imports_streamlit():
    offenders = [str(p.relative_to(ROOT)) for p in CORE.rglob("*.py")
                 if any(m == "streamlit" or m.startswith("streamlit.") for m in _imports(p))]
    assert offenders == []


UI = [ROOT / "app.py", *(ROOT / "components").rglob("*.py"), *(ROOT / "pages").rglob("*.py")]
#: the session model, the graph widget reading its own component state by its key, and
#: the widget's stand-alone demo app (a test harness, not a page of Memscope)
SESSION_OWNERS = {"components/state/session.py", "components/graph_view/__init__.py",
                  "components/graph_view/demo_app.py"}


def test_only_the_session_model_touches_session_state():
    touching = sorted(str(p.relative_to(ROOT)) for p in UI
                      if "session_state" in p.read_text(encoding="utf-8")
                      or "query_params[" in p.read_text(encoding="utf-8"))
    assert [p for p in touching if p not in SESSION_OWNERS] == []


def test_every_session_key_names_a_real_owner():
    import importlib

    from components.state.session import REGISTRY, Family

    families = [v for v in vars(importlib.import_module("components.state.session")).values()
                if isinstance(v, Family)]
    owners = {s.owner for s in REGISTRY.values()} | {f.owner for f in families}
    for owner in owners:
        path = ROOT / owner.replace(".", "/")
        assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), \
            f"{owner} owns a session key but is not a module"
    names = [s.name for s in REGISTRY.values()] + [f.prefix for f in families]
    widgets = [s.widget for s in REGISTRY.values() if s.widget]
    assert len(set(names + widgets)) == len(names) + len(widgets), "a key is declared twice"


def _ui_graph() -> nx.DiGraph:
    """The Streamlit side's modules (components/, pages/, app.py) and their imports of
    each other, lazy ones included."""
    modules = {_module_name(p): p for p in UI}
    g = nx.DiGraph()
    g.add_nodes_from(modules)
    for name, path in modules.items():
        for target in _imports(path):
            own_package = name.startswith(f"{target}.")  # a submodule reads its package
            if target in modules and target != name and target != "components" \
                    and not own_package:
                g.add_edge(name, target)
    return g


def test_the_streamlit_side_has_no_import_circle():
    assert list(nx.simple_cycles(_ui_graph())) == []


#: the layers of components/, lowest first: a module may import its own layer and those
#: below it. ``widgets.safe`` (escaping text) is the floor every layer stands on.
UI_LAYERS = ("floor", "state", "graph_view", "widgets", "sections")
#: imports that still climb a layer — debt, listed so that none is added unnoticed
CLIMBS = {
    ("components.state.context", "components.widgets"),
    ("components.state.context", "components.widgets.nav"),
    ("components.state.data", "components.widgets.loading"),
    # the server's warm-up imports the first page's modules ahead of the first visit
    ("components.state.warmup", "components.sections"),
    ("components.state.warmup", "components.sections.explorer"),
    ("components.state.warmup", "components.sections.overview"),
}


def _layer(module: str) -> str | None:
    if module == "components.widgets.safe":
        return "floor"
    parts = module.split(".")
    return parts[1] if parts[0] == "components" and len(parts) > 1 and \
        parts[1] in UI_LAYERS else None


def test_components_import_only_their_layer_and_below_but_the_listed_climbs():
    climbs = set()
    for src, dst in _ui_graph().edges:
        a, b = _layer(src), _layer(dst)
        if a and b and UI_LAYERS.index(b) > UI_LAYERS.index(a):
            climbs.add((src, dst))
    assert climbs - CLIMBS == set(), "a new import climbs a layer of components/"
    assert CLIMBS - climbs == set(), "a listed climb is gone: take it off CLIMBS"
