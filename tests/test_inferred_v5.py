"""What Supermemory's current API (v5) cannot do with an inferred memory is said where
inferred memories are: under the sidebar's "Inferred memories" filter and beside a
memory's inferred badge (AppTest, the sandbox's demo data on 127.0.0.1); the legacy API,
which reviews them, says nothing of the kind."""

from __future__ import annotations

import pytest
from pydantic import SecretStr
from sandbox_fixture import running_sandbox, supermemory_v5

from memscope.sources.supermemory_v5 import NO_ROUTE

NOTE = NO_ROUTE["review_inferred"]


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory):
    with running_sandbox(tmp_path_factory.mktemp("sandbox"), data="demo") as sb:
        yield sb


def run(sandbox, dialect: str, selected: str | None = None, **more: object):
    from apptest_support import run_page

    from components.state.connection import Connection

    state: dict[str, object] = {"selected_node": selected} if selected else {}
    state.update(more)
    return run_page(connection=Connection("supermemory", base_url=sandbox.url,
                                          dialect=dialect),
                    api_key_secret=SecretStr(sandbox.supermemory_key), **state)


def said(elements) -> list[str]:
    return [e.value.replace("\\", "") for e in elements]


def test_v5_says_it_cannot_review_inferred_memories_where_they_are(fresh_data_dir, sandbox):
    at = run(sandbox, "v5", filters_open=True)  # said beside the filter for them
    assert not at.exception, at.exception
    assert NOTE in said(at.sidebar.caption)
    memories = supermemory_v5(sandbox).load().dataset.memories.values()
    inferred = next(m.id for m in memories if m.is_inference and m.is_latest)
    at = run(sandbox, "v5", selected=inferred)
    assert NOTE in said(at.main.caption)
    stated = next(m.id for m in memories if not m.is_inference and m.is_latest)
    at = run(sandbox, "v5", selected=stated)
    assert NOTE not in said(at.main.caption)  # a stated memory needs no review


def test_the_legacy_api_says_nothing_of_the_kind(fresh_data_dir, sandbox):
    at = run(sandbox, "legacy")
    assert not at.exception, at.exception
    assert not [c for c in said(at.sidebar.caption) + said(at.main.caption)
                if "inferred" in c and "cannot review" in c]
