"""A data version's load and analysis kept on disk (memscope.kept): read back only for
exactly that data and code, only when signed by the folder's own key; written by
``memscope warm`` and by the app's first load of a large store; read by the app and by
the server's warm-up instead of loading the store."""

from __future__ import annotations

import os
import pickle
import stat
import threading
from pathlib import Path

import pytest
from conftest import FIXTURES

from memscope import kept
from memscope.demo.seeding import seed_if_missing
from memscope.graph.analysis import analyse
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource
from memscope.sources.files import FileSource
from memscope.store.store import Store
from memscope.view.derived import digest_of
from memscope.warm import main as warm_main


@pytest.fixture
def source(tmp_path) -> EmbeddedSource:
    seed_if_missing(tmp_path / STORE_FILE)
    return EmbeddedSource(tmp_path / STORE_FILE)


def _keep(source: EmbeddedSource) -> Path:
    load = source.load(refresh=True)
    path = kept.keep(source, load, analyse(load.dataset), min_memories=0)
    assert path is not None
    return path


def _read(source: EmbeddedSource) -> kept.Kept:
    found = kept.read(source)
    assert found is not None
    return found


def _refuse(*_args, **_kwargs):
    raise AssertionError("loaded from the store although the load was kept")


def test_what_is_kept_reads_back_whole(source):
    load = source.load(refresh=True)
    an = analyse(load.dataset)
    _keep(source)
    back = kept.read(source)
    assert back is not None
    assert back.load.dataset.memories.keys() == load.dataset.memories.keys()
    assert all(back.load.dataset.memories[m].memory == rec.memory
               for m, rec in load.dataset.memories.items())
    assert sorted(back.analysis.graph.graph.edges) == sorted(an.graph.graph.edges)
    assert back.analysis.chains.chains == an.chains.chains
    assert back.digest == digest_of(an)
    assert back.load.raw_pages == {}  # the records hold everything; the pages are not kept


def test_another_data_version_is_not_served_the_old_one(source):
    _keep(source)
    source.store.add_document("Maya moved to Porto.", "sm_project_default")
    assert kept.read(source) is None
    _keep(source)
    texts = {m.memory for m in _read(source).load.dataset.memories.values()}
    assert "Maya moved to Porto." in texts


def test_another_scope_or_code_is_another_key(source, monkeypatch):
    base = kept.key_of(source)
    scoped = EmbeddedSource(source.store, container_tags=("sm_project_default",))
    assert kept.key_of(scoped) != base
    monkeypatch.setattr(kept, "code_fingerprint", lambda: "another version of Memscope")
    assert kept.key_of(source) != base


def test_a_file_altered_or_signed_elsewhere_is_never_unpickled(source, tmp_path):
    path = _keep(source)
    blob = path.read_bytes()
    marker = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    evil = pickle.dumps(Payload())
    head = len(kept.MAGIC)
    # the same signature over another body; a truncated file; another folder's key
    for bad in (blob[:head + 32] + evil, blob[:len(blob) // 2],
                blob[:head] + bytes(32) + evil):
        path.write_bytes(bad)
        assert kept.read(source) is None
    assert not marker.exists()
    path.write_bytes(blob)
    (path.parent / kept.KEY_FILE).write_bytes(os.urandom(32))  # the folder's key changed
    assert kept.read(source) is None


def test_the_key_file_is_private_and_small_loads_are_not_kept(source):
    load = source.load(refresh=True)
    assert len(load.dataset.memories) < kept.MIN_MEMORIES
    assert kept.keep(source, load, analyse(load.dataset)) is None  # quick to load anyway
    path = _keep(source)
    mode = stat.S_IMODE((path.parent / kept.KEY_FILE).stat().st_mode)
    assert mode == 0o600


def test_only_the_embedded_store_is_kept():
    src = FileSource([FIXTURES / "supermemory" / "documents_page1.json"])
    load = src.load()
    assert load.dataset.memories
    assert kept.key_of(src) is None
    assert kept.keep(src, load, analyse(load.dataset), min_memories=0) is None


def test_warm_keeps_a_large_store_and_reads_it_back(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(kept, "MIN_MEMORIES", 100)  # the demo store has 360 memories
    seed_if_missing(tmp_path / STORE_FILE)
    assert warm_main(["--data-dir", str(tmp_path)]) == 0
    assert len(list((tmp_path / "derived").glob("load-*.pickle"))) == 1
    monkeypatch.setattr(EmbeddedSource, "load", _refuse)
    assert warm_main(["--data-dir", str(tmp_path)]) == 0  # read back, not loaded
    assert "ready in" in capsys.readouterr().out


def test_the_app_draws_from_a_kept_load_without_reading_the_store(fresh_data_dir,
                                                                  monkeypatch):
    """A fresh server (nothing in memory) with the load kept on disk: the first page is
    drawn from it, and the store is never read page by page."""
    import streamlit as st
    from apptest_support import graph_payload, run_page

    from components.state import data

    seed_if_missing(fresh_data_dir / STORE_FILE)
    source = EmbeddedSource(fresh_data_dir / STORE_FILE)
    _keep(source)
    ids = set(_read(source).analysis.graph.graph)
    data.loads().clear()
    st.cache_resource.clear()
    monkeypatch.setattr(Store, "list_documents", _refuse)
    monkeypatch.setattr(Store, "document_pages", _refuse)  # the load's one pass
    at = run_page()
    drawn = {n["id"] for n in graph_payload(at)["nodes"]}
    assert drawn and drawn <= ids


def test_the_first_large_load_is_kept_for_the_next_server(fresh_data_dir, monkeypatch):
    """The app's first load of a large store writes it to disk in the background: a
    server started later reads it back."""
    import streamlit as st
    from apptest_support import run_page

    from components.state import data

    monkeypatch.setattr(kept, "MIN_MEMORIES", 100)
    seed_if_missing(fresh_data_dir / STORE_FILE)
    data.loads().clear()
    st.cache_resource.clear()
    run_page()
    for thread in [t for t in threading.enumerate() if t.name == "memscope-keep"]:
        thread.join(timeout=60)
    assert kept.read(EmbeddedSource(fresh_data_dir / STORE_FILE)) is not None


def test_the_servers_warm_up_fills_the_caches_the_first_page_uses(fresh_data_dir,
                                                                  monkeypatch):
    import streamlit as st
    from apptest_support import graph_payload, run_page

    from components.state import data
    from components.warmup import prewarm

    seed_if_missing(fresh_data_dir / STORE_FILE)
    data.loads().clear()
    st.cache_resource.clear()
    prewarm()
    assert len(data.loads().keys()) == 1
    # the first page loads nothing, lays nothing out, builds no overview or summary again
    monkeypatch.setattr(Store, "list_documents", _refuse)
    monkeypatch.setattr(Store, "document_pages", _refuse)  # the load's one pass
    monkeypatch.setattr("memscope.view.derived.layout_positions", _refuse)
    monkeypatch.setattr("memscope.pipeline.steps.overview_of", _refuse)
    monkeypatch.setattr("memscope.pipeline.steps.summarise", _refuse)
    at = run_page()
    assert len(graph_payload(at)["nodes"]) > 100


def test_the_warm_up_does_nothing_without_a_store(fresh_data_dir):
    from components.state import data
    from components.warmup import prewarm

    data.loads().clear()
    prewarm()
    assert data.loads().keys() == [] and not fresh_data_dir.exists()


def test_settling_the_heap_freezes_the_load_and_frees_the_old_one():
    """After a load the collector skips what is alive (frozen); an old load that became
    garbage with reference cycles is freed at the next load, not kept for ever."""
    import gc
    import weakref

    class Node:
        me: object = None

    old = Node()
    old.me = old  # a cycle, as a networkx graph and its cached views make one
    alive = weakref.ref(old)
    kept.settle_heap()
    assert gc.get_freeze_count() > 0
    del old  # the next load replaced it: garbage, frozen, so no collection frees it
    gc.collect()
    assert alive() is not None
    kept.settle_heap()
    assert alive() is None
    gc.unfreeze()


def test_a_new_data_version_replaces_the_old_load_in_memory(source):
    """After a change the store's old data is dropped from the shared loads (sessions
    still showing it rerun onto the new data), not kept beside it until restart."""
    from components.state import data

    data.loads().clear()
    old_key, old = data.load(source)
    source.store.add_document("Maya moved to Porto.", "sm_project_default")
    new_key, new = data.load(source)
    assert new_key != old_key and data.loads().keys() == [new_key]
    assert data.is_stale(old_key, old.revision) and not data.is_stale(new_key, new.revision)


def test_the_warm_up_freezes_without_a_full_collection():
    """``free_old=False`` (the warm-up: nothing was dropped) only freezes; the next load's
    settle still frees what became garbage."""
    import gc
    import weakref

    class Node:
        me: object = None

    old = Node()
    old.me = old
    alive = weakref.ref(old)
    kept.settle_heap()
    del old
    kept.settle_heap(free_old=False)
    assert alive() is not None  # no full collection ran
    kept.settle_heap()
    assert alive() is None
    gc.unfreeze()


def test_the_kept_digest_never_outlives_a_derived_format(source, monkeypatch):
    """The digest kept beside a load names the derived data's format and seed: after a
    format bump the kept file is another one (its digest would name stale layouts)."""
    from memscope.view import derived

    before = kept.key_of(source)
    monkeypatch.setattr("memscope.kept.DERIVED_FORMAT", derived.FORMAT + 1)
    assert kept.key_of(source) not in (None, before)
