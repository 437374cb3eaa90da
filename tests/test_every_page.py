"""Every page under every source kind, presenter mode off and on (AppTest, real parts).

Sources: the embedded demo store (real SQLite), a snapshot file (the fixtures' feed pages
and passport), and the Supermemory and Spomory APIs served by the sandbox on 127.0.0.1.
With presenter mode on, no memory, document, entity, relation or profile text of the
source's data may appear anywhere in what the page renders — graph payload included.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import pytest
from apptest_support import app_pages, message_payload, run_page
from conftest import SM, SP
from google.protobuf.json_format import MessageToDict
from pydantic import SecretStr
from sandbox_fixture import running_sandbox
from streamlit.testing.v1 import AppTest

from components.sections.sidebar import F_BUDGET, PRESENTER
from components.state import session
from components.state.connection import API_KEY, CONNECTION, FILE_BLOBS, Connection
from memscope.records.dataset import Dataset
from memscope.settings import store_path
from memscope.sources import FileSource
from memscope.sources.embedded import EmbeddedSource

PAGES = app_pages()
SOURCES = ["embedded", "file", "supermemory", "spomory"]
FILES = [SM / f"documents_page{i}.json" for i in (1, 2, 3)] + [SP / "passport.json"]
#: texts this short can appear by coincidence ("Go", "Tea"); longer ones cannot
MIN_TEXT = 6


def data_texts(ds: Dataset) -> set[str]:
    """Every piece of text the data holds that presenter mode must hide."""
    texts: set[str | None] = set()
    for m in ds.memories.values():
        texts.add(m.memory)
    for d in ds.documents.values():
        texts.update((d.title, d.summary, d.content))
    for e in ds.entities.values():
        texts.add(e.name)
    for r in ds.relations.values():
        texts.add(r.predicate)
    for p in ds.profiles.values():
        texts.update(line.text for line in (*p.static, *p.dynamic))
    ids = {*ds.memories, *ds.documents, *ds.entities, *ds.relations}
    return {t for t in texts if t and len(t.strip()) >= MIN_TEXT and t not in ids}


def rendered_text(at: AppTest) -> str:
    """Everything the page sent to the browser, as readable (unescaped) text."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None and hasattr(proto, "DESCRIPTOR"):
            parts.append(json.dumps(MessageToDict(proto), ensure_ascii=False))
            payload = getattr(proto, "json", None)
            if isinstance(payload, str) and payload:
                with suppress(ValueError):  # the graph component's JSON: unescape \\uXXXX
                    parts.append(json.dumps(json.loads(payload), ensure_ascii=False))
            message = getattr(proto, "bytes", None)
            if isinstance(message, bytes) and message:
                with suppress(ValueError):  # the graph's message: UTF-8 JSON bytes
                    parts.append(json.dumps(message_payload(message), ensure_ascii=False))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(parts)


@contextmanager
def source_state(kind: str, tmp_path: Path) -> Iterator[tuple[dict[str, Any], Dataset]]:
    """Session state that connects the app to ``kind``, and that source's data."""
    if kind == "embedded":
        from memscope.demo.seeding import seed_if_missing

        seed_if_missing(store_path())
        yield {}, EmbeddedSource(store_path()).load().dataset
        return
    if kind == "file":
        blobs = {p.name: p.read_bytes() for p in FILES}
        digests = {name: hashlib.sha256(b).hexdigest() for name, b in blobs.items()}
        state = {FILE_BLOBS.name: {digests[n]: b for n, b in blobs.items()},
                 CONNECTION.name: Connection(
                     "file", files=tuple(digests.items()))}
        yield state, FileSource.from_bytes(list(blobs.items())).load().dataset
        return
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        key = sandbox.supermemory_key if kind == "supermemory" else sandbox.spomory_key
        conn = Connection(kind, base_url=sandbox.url, dialect="legacy")  # as built below
        state = {CONNECTION.name: conn, API_KEY.name: SecretStr(key)}
        with _session_free_build(conn, SecretStr(key)) as source:
            data = source.load().dataset
        yield state, data


@contextmanager
def _session_free_build(conn: Connection, key: SecretStr) -> Iterator[Any]:
    """The same source the app would build, made outside a Streamlit session."""
    from memscope.sources import (
        SpomoryConfig,
        SpomorySource,
        SupermemoryConfig,
        SupermemorySource,
    )

    if conn.kind == "supermemory":
        source: Any = SupermemorySource(SupermemoryConfig(api_key=key,
                                                          base_url=str(conn.base_url)))
    else:
        source = SpomorySource(SpomoryConfig(api_key=key, base_url=str(conn.base_url)))
    try:
        yield source
    finally:
        source.close()


@pytest.mark.parametrize("presenter", [False, True], ids=["plain", "presenter"])
@pytest.mark.parametrize("kind", SOURCES)
def test_every_page_runs_and_presenter_mode_hides_every_text(kind, presenter,
                                                              fresh_data_dir, tmp_path):
    with source_state(kind, tmp_path) as (state, dataset):
        texts = data_texts(dataset)
        assert texts, "the source has text to hide"
        for page in PAGES:
            at = run_page(page, **state, **{PRESENTER.name: presenter})
            assert not at.exception, (page, at.exception)
            assert not [e.value for e in at.error if "Traceback" in e.value]
            shown = rendered_text(at)
            leaked = sorted(t for t in texts if t in shown)
            if presenter:
                assert leaked == [], f"{page} shows {leaked[:3]}"
            elif page == "explorer.py":
                assert leaked, "without presenter mode the explorer shows the data"


def test_presenter_mode_masks_the_cluster_overview(fresh_data_dir, tmp_path):
    """A budget small enough to force the overview: its hexagons' names and tooltips
    carry no document title or memory text."""
    from memscope.view.budget import MIN_BUDGET

    with source_state("embedded", tmp_path) as (state, dataset):
        texts = data_texts(dataset)
        budget = {F_BUDGET.name: MIN_BUDGET}
        plain = run_page("explorer.py", **state, **budget)
        clusters = [n for n in _graph_nodes(plain) if n["id"].startswith("cluster:")]
        assert clusters, "the budget forces the overview"
        # plainly, a hexagon is named by words of its memories (or a document title)
        words = {w for n in clusters for w in re.findall(r"[A-Za-z]{4,}", n["label"])}
        data_words = {w for t in texts for w in re.findall(r"[A-Za-z]{4,}", t)}
        assert words & data_words
        at = run_page("explorer.py", **state, **budget, **{PRESENTER.name: True})
        masked = [n for n in _graph_nodes(at) if n["id"].startswith("cluster:")]
        assert len(masked) == len(clusters)
        hexagons = json.dumps(masked, ensure_ascii=False)
        assert sorted(w for w in words & data_words if re.search(rf"\b{w}\b", hexagons)) == []
        shown = rendered_text(at)
        assert sorted(t for t in texts if t in shown) == []


def _graph_nodes(at: AppTest) -> list[dict[str, Any]]:
    from apptest_support import graph_payload

    return graph_payload(at)["nodes"]


def test_presenter_mode_redacts_the_data_quoted_in_a_toast(fresh_data_dir, tmp_path):
    """A wrong Spomory forget is reported loudly, and the sentence quotes both facts:
    in presenter mode the facts are hidden, the sentence stays."""
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        sandbox.faults.spomory_wrong_forget = True
        at = run_page(**{CONNECTION.name: Connection("spomory", base_url=sandbox.url),
                         API_KEY.name: SecretStr(sandbox.spomory_key),
                         session.SELECTED.name: "e_zs", PRESENTER.name: True})
        at.button(key="forget-r2").click().run()
        next(b for b in at.button if b.label == "Forget").click().run()
        assert not at.exception, at.exception
        errors = [e.value for e in at.error]
        assert errors, "the mismatch is said loudly"
        shown = rendered_text(at)
        for fact in ("张三住在北京", "张三任职于某公司", "住在", "任职于"):
            assert fact not in shown
        assert any("hidden text" in e for e in errors)


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


HOSTILE_PAGE = (
    '{"documents": [{"id": "doc_h\\ud800", "title": "Lone \\udfff surrogate", '
    '"createdAt": "0001-01-01T00:00:00+14:00", "updatedAt": "9999-12-31T23:59:59-14:00", '
    '"metadata": {"deep": ' + _deep(100_000) + '}, "memoryEntries": ['
    '{"id": "m_big", "memory": "A version of four hundred digits", "version": '
    + "9" * 400 + ', "isLatest": true, "createdAt": "9999-12-31T23:59:59-14:00", '
    '"forgetAfter": "0001-01-01T00:00:00+14:00"},'
    '{"id": "m_ok", "memory": "An ordinary well-formed memory survives", "version": 1, '
    '"isLatest": true, "createdAt": "2026-11-01T00:00:00Z"},'
    '{"id": "m_huge", "memory": "Huge integer beyond the parser limit", "version": '
    + "7" * 5000 + ', "isLatest": true}]}], "total": 1}'
)


def test_a_hostile_snapshot_opens_on_every_page(fresh_data_dir):
    """Extreme dates, huge numbers, 100,000-level nesting and lone surrogates in one
    snapshot file: every page shows it with no exception, and the good record survives."""
    blob = ("\ufeff" + HOSTILE_PAGE).encode("utf-8", "surrogatepass")
    digest = hashlib.sha256(blob).hexdigest()
    state = {FILE_BLOBS.name: {digest: blob},
             CONNECTION.name: Connection("file", files=(("hostile.json", digest),))}
    for page in PAGES:
        for presenter in (False, True):
            at = run_page(page, **state, **{PRESENTER.name: presenter})
            assert not at.exception, (page, at.exception)
            assert not [e.value for e in at.error], (page, [e.value for e in at.error])
    home = run_page("explorer.py", **state)
    from apptest_support import graph_payload

    ids = {n["id"] for n in graph_payload(home)["nodes"]}
    assert "m_ok" in ids and "m_big" in ids
