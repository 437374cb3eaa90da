"""The repository stands alone: its fixtures are its own, no file points outside it, and
the sandbox's default data is built into the package."""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import FIXTURES, ROOT
from sandbox_fixture import spomory, supermemory

from memscope.sandbox import Sandbox
from memscope.sandbox.data import FIXTURES_ENV

MAKER = FIXTURES / "make_fixtures.py"


def _maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_fixtures", MAKER)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _check(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(MAKER), "--check", "--dir", str(folder)],
                          capture_output=True, text=True, timeout=60, check=False)


# --- the fixtures ----------------------------------------------------------------------------

def test_committed_fixtures_are_what_the_script_makes_with_every_trap():
    run = _check(FIXTURES)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_check_reports_a_hand_edit_a_stray_file_and_a_missing_one(tmp_path):
    copy_dir = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, copy_dir)
    profile = copy_dir / "supermemory" / "profile.json"
    profile.write_text(profile.read_text("utf-8").replace("Uses Neovim", "Uses Emacs"), "utf-8")
    (copy_dir / "spomory" / "extra.json").write_text("{}\n", "utf-8")
    (copy_dir / "supermemory" / "search.json").unlink()
    run = _check(copy_dir)
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert "supermemory/profile.json: differs from what make_fixtures.py writes" in lines
    assert "spomory/extra.json: not made by this script" in lines
    assert "supermemory/search.json: missing" in lines
    assert any(line.startswith("trap missing: search_memory_and_chunk") for line in lines)


Files = dict[str, Any]


def _entries(files: Files) -> Iterator[dict[str, Any]]:
    for i in (1, 2, 3):
        for doc in files[f"supermemory/documents_page{i}.json"]["documents"]:
            yield from doc.get("memoryEntries") or []


def _entry(files: Files, mid: str) -> dict[str, Any]:
    return next(e for e in _entries(files) if e.get("id") == mid)


def _docs(files: Files, page: int) -> list[dict[str, Any]]:
    return files[f"supermemory/documents_page{page}.json"]["documents"]


def _doc(files: Files, did: str) -> dict[str, Any]:
    return next(d for p in (1, 2, 3) for d in _docs(files, p) if d["id"] == did)


def _relabel(files: Files, old: str, new: str) -> None:
    for e in _entries(files):
        e["memoryRelations"] = {k: new if v == old else v
                                for k, v in (e.get("memoryRelations") or {}).items()}


def _clear_relations(files: Files) -> None:
    for e in _entries(files):
        e["memoryRelations"] = {}


def _drop_doc(files: Files, page: int, did: str) -> None:
    docs = _docs(files, page)
    docs[:] = [d for d in docs if d["id"] != did]


def _drop_idless(files: Files) -> None:
    doc = _doc(files, "doc_bad_2")
    doc["memoryEntries"] = [e for e in doc["memoryEntries"] if "id" in e]


def _drop_chunks(files: Files) -> None:
    results = files["supermemory/search.json"]["results"]
    results[:] = [r for r in results if "chunk" not in r]


#: one edit per trap that takes exactly that trap out of the data
WITHOUT: dict[str, Callable[[Files], None]] = {
    "chain_over_pages": lambda f: _entry(f, "mem_fe_v2").update(parentMemoryId=None),
    "branch": lambda f: _entry(f, "mem_coffee_v2b").update(parentMemoryId=None),
    "extends_and_derives": lambda f: _relabel(f, "derives", "extends"),
    "relation_points_forward": _clear_relations,
    "one_memory_two_documents": lambda f: _doc(f, "doc_stack_0").update(
        memoryEntries=[_entry(f, "mem_fe_v1")]),
    "parent_never_loaded": lambda f: _entry(f, "mem_orphan_child").update(
        parentMemoryId="mem_fe_v1"),
    "unknown_relation_kind": lambda f: _relabel(f, "supersedes", "extends"),
    "states": lambda f: _entry(f, "mem_run").update(forgetAfter="2027-01-01T00:00:00Z"),
    "document_without_memories": lambda f: _drop_doc(f, 2, "doc_empty"),
    "hostile_text": lambda f: f["supermemory/profile.json"]["profile"].update(static=["x"]),
    "unicode_text": lambda f: _entry(f, "mem_unicode").update(memory="Likes oolong tea."),
    "document_without_type_or_list": lambda f: _doc(f, "doc_bad_1").update(type="text"),
    "memory_without_id": _drop_idless,
    "pagination_adds_up": lambda f: _drop_doc(f, 2, "doc_empty"),
    "search_memory_and_chunk": _drop_chunks,
    "history_of_latest": lambda f: f["supermemory/memories_list.json"]["memoryEntries"][0][
        "history"].reverse(),
    "passport_traps": lambda f: f["spomory/passport.json"]["relations"][4].update(
        object_id="e_co"),
    "rest_results_are_strings": lambda f: f["spomory/export_response.json"].update(
        result=f["spomory/passport.json"]),
}


def test_every_trap_has_its_counter_example():
    assert set(WITHOUT) == set(_maker().TRAPS)


@pytest.mark.parametrize("trap", sorted(WITHOUT))
def test_each_trap_check_sees_its_trap_go(trap):
    maker = _maker()
    files = {name: json.loads(text) for name, text in maker.make().items()}
    assert maker.missing_traps(copy.deepcopy(files)) == []
    WITHOUT[trap](files)
    assert trap in maker.missing_traps(files)


# --- no path outside the repository -----------------------------------------------------------

#: a path that climbs out of its folder: one or more "../" then a name
CLIMB = re.compile(r"((?:\.\./)+)(?=[\w.-])")
#: the reference material that lived beside the repository, by any spelling
SIBLING = re.compile(r"(?<![\w-])shared/(?:fixtures|docs)\b|/\s*[\"']shared[\"']")


def _tracked_files() -> list[str]:
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout")
    run = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=ROOT,
                         capture_output=True, check=True, timeout=60)
    return [name for name in run.stdout.decode().split("\0") if name]


def outside_references(name: str, text: str) -> list[str]:
    """``name:line: text`` for every path in ``text`` that leaves the repository.

    A ``../`` path counts from the folder of the file that holds it (as links and
    ``AppTest.from_file`` do); it escapes when it climbs above the repository root.

    >>> outside_references("README.md", "see ../elsewhere/notes.md")
    ['README.md:1: see ../elsewhere/notes.md']
    >>> outside_references("tests/t.py", 'DEMO = "../components/demo.py"')
    []
    """
    depth = len(Path(name).parts) - 1
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        climbs = [m.group(1).count("../") for m in CLIMB.finditer(line)]
        if SIBLING.search(line) or any(n > depth for n in climbs):
            found.append(f"{name}:{number}: {line.strip()[:120]}")
    return found


def test_no_tracked_file_refers_to_a_path_outside_the_repository():
    found = []
    for name in _tracked_files():
        path = ROOT / name
        if not path.is_file():  # deleted in the working tree, not yet committed
            continue
        raw = path.read_bytes()
        if b"\0" in raw:
            continue
        found += outside_references(name, raw.decode("utf-8", errors="replace"))
    assert found == []


def test_the_scan_catches_the_old_spellings():
    up, sib = "../", "shared"  # spelled in pieces so that this file passes its own scan
    old = {
        "README.md": f"See `{up}{sib}/docs/architecture.md` for the rules.",
        "tests/conftest.py": f'FIXTURES = ROOT.parent / "{sib}" / "fixtures"',
        "tests/test_view.py": f'F = Path(__file__).resolve().parents[2] / "{sib}"',
        "components/graph_view/demo_app.py": f"default: ``{up * 3}elsewhere``",
    }
    assert [len(outside_references(name, text)) for name, text in old.items()] == [1, 1, 1, 1]


# --- the sandbox's default data ---------------------------------------------------------------

def test_sandbox_default_data_loads_with_no_environment(tmp_path, monkeypatch):
    monkeypatch.delenv(FIXTURES_ENV, raising=False)
    with Sandbox.create(tmp_path).start() as sb:
        feed = supermemory(sb).load()
        graph = spomory(sb).load()
    assert feed.complete and feed.dataset.documents and feed.dataset.memories
    assert graph.dataset.entities and graph.dataset.relations


def test_sandbox_command_line_asks_for_a_fixtures_folder_in_one_sentence(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != FIXTURES_ENV}
    run = subprocess.run([sys.executable, "-m", "memscope.sandbox", "--port", "0", "--dir",
                          str(tmp_path), "--data", "fixtures"], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 2
    [line] = run.stderr.strip().splitlines()
    assert "--fixtures" in line and FIXTURES_ENV in line and "Traceback" not in line
