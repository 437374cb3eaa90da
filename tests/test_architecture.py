"""The house rules that code review would otherwise have to remember.

The core reads one way — records → graph → lenses → view/reports → export — with the
store, the demo, the sources and the sandbox beside it; no module imports another that
(directly or not) imports it back; and the core never imports Streamlit.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Declared:
    """One ``slot(...)`` or ``Family(...)`` as written in a module of the UI."""

    module: str  # the module it is declared in
    variable: str
    key: str  # its name, or a family's prefix
    owner: str
    family: bool
    widget: bool


def _declarations() -> list[Declared]:
    """Every session slot and family declared in components/, pages/ and app.py."""
    found: list[Declared] = []
    for path in UI:
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and getattr(n.func, "id", getattr(n.func, "attr", None)) in ("slot", "Family")
                 and n.args and isinstance(n.args[0], ast.Constant)]
        top = [n for n in tree.body if isinstance(n, ast.Assign) and n.value in calls]
        assert len(top) == len(calls), f"{module} declares a slot outside its top level"
        for node in top:
            call = node.value
            assert isinstance(call, ast.Call) and isinstance(node.targets[0], ast.Name)
            key, owner = call.args[:2]
            assert isinstance(key, ast.Constant)
            if isinstance(owner, ast.Name) and owner.id == "__name__":
                named = module
            else:
                assert isinstance(owner, ast.Constant), f"{module}: an owner is __name__ or text"
                named = str(owner.value)
            found.append(Declared(
                module, node.targets[0].id, str(key.value), named,
                getattr(call.func, "id", getattr(call.func, "attr", "")) == "Family",
                any(k.arg == "widget" and isinstance(k.value, ast.Constant) and k.value.value
                    for k in call.keywords)))
    return found


def test_every_session_key_is_declared_once_by_its_owner():
    declared = _declarations()
    keys = [d.key for d in declared] + [f"w.{d.key}" for d in declared if d.widget]
    assert len(set(keys)) == len(keys), "a key is declared twice"
    for d in declared:
        path = ROOT / d.owner.replace(".", "/")
        assert path.with_suffix(".py").exists() or (path / "__init__.py").exists(), \
            f"{d.owner} owns a session key but is not a module"
    elsewhere = [f"{d.variable} is declared in {d.module} but owned by {d.owner}"
                 for d in declared if d.owner != d.module]
    assert elsewhere == [], "a slot is declared by its owner (slot('…', __name__, …))"


def test_the_registry_collects_every_slot_its_owners_declare():
    import importlib

    from components.state.session import FAMILIES, REGISTRY

    declared = _declarations()
    assert not [d for d in declared if d.module.startswith("pages.")], \
        "pages only arrange: a page declares no slot"
    for module in sorted({d.module for d in declared}):
        importlib.import_module(module)
    assert {k: s.owner for k, s in REGISTRY.items()} == \
        {d.key: d.owner for d in declared if not d.family}
    assert {k: f.owner for k, f in FAMILIES.items()} == \
        {d.key: d.owner for d in declared if d.family}


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
#: below it. ``widgets.safe`` (escaping text) is the floor every layer stands on; "top" is
#: the server's glue directly under components/ (the warm-up, the first picture), which
#: may import every layer and which none imports.
UI_LAYERS = ("floor", "state", "graph_view", "widgets", "sections", "top")


def _layer(module: str) -> str | None:
    if module == "components.widgets.safe":
        return "floor"
    parts = module.split(".")
    if parts[0] != "components" or len(parts) < 2:
        return None
    if parts[1] in UI_LAYERS:
        return parts[1]
    return "top" if len(parts) == 2 else None


def test_components_import_only_their_layer_and_below():
    climbs = set()
    for src, dst in _ui_graph().edges:
        a, b = _layer(src), _layer(dst)
        if a and b and UI_LAYERS.index(b) > UI_LAYERS.index(a):
            climbs.add((src, dst))
    assert climbs == set(), "an import climbs a layer of components/"
    assert _layer("components.warmup") == "top" == _layer("components.first_picture")


def test_the_graph_widget_stands_alone():
    """components/graph_view imports no other module of the app's UI (it keeps its own
    state by its own key, as a library component does)."""
    outside = [(src, dst) for src, dst in _ui_graph().edges
               if _layer(src) == "graph_view" and _layer(dst) not in ("graph_view", None)]
    assert outside == []
