"""The Compare page under AppTest: a snapshot against the live data on the demo store, a
snapshot file, the sandbox's Supermemory and Spomory; presenter mode hides every text;
a bad file is one sentence."""

from __future__ import annotations

import json
from typing import Any

import pytest
from apptest_support import graph_payload, run_page
from test_every_page import data_texts, rendered_text, source_state

from components.sections.compare import (
    COMPARE_DAY_A,
    COMPARE_DAY_B,
    COMPARE_FILES,
    COMPARE_KIND_A,
    COMPARE_KIND_B,
    RECORD_WORDS,
)
from components.sections.sidebar import PRESENTER
from memscope.sources import snapshot_bytes

#: a chain edge's row, as the table names its record
EDGE = RECORD_WORDS["edge"]


def _without_one(data: bytes) -> tuple[bytes, str]:
    """A snapshot with one record left out (a memory, or a Spomory fact): its id."""
    obj: dict[str, Any] = json.loads(data)
    for doc in obj.get("documents") or []:
        if doc.get("memoryEntries"):
            gone = doc["memoryEntries"].pop()
            return json.dumps(obj).encode(), gone["id"]
    gone = obj["relations"].pop()
    return json.dumps(obj).encode(), gone["id"]


def _state(snapshot: bytes, **more: Any) -> dict[str, Any]:
    return {COMPARE_KIND_A.name: "file", COMPARE_KIND_B.name: "live",
            COMPARE_FILES.name: {"a": ("before.json", snapshot)}, **more}


@pytest.mark.parametrize("presenter", [False, True], ids=["plain", "presenter"])
@pytest.mark.parametrize("kind", ["embedded", "file", "supermemory", "spomory"])
def test_a_snapshot_against_the_live_data(kind: str, presenter: bool, fresh_data_dir,
                                          tmp_path) -> None:
    with source_state(kind, tmp_path) as (state, dataset):
        snapshot, gone = _without_one(snapshot_bytes(dataset))
        at = run_page("compare.py", **state, **_state(snapshot),
                      **{PRESENTER.name: presenter})
        assert not at.error, [e.value for e in at.error]
        (warning,) = at.main.warning  # the sidebar may say the legacy API retires
        assert "differs from" in warning.value and "added" in warning.value
        table = at.dataframe[0].value
        records = table[table["record"] != EDGE]
        assert list(records["change"]) == ["only in B"] and list(records["id"]) == [gone]
        edges = table[table["record"] == EDGE]  # its chain edges went with it
        assert set(edges["change"]) <= {"only in B"} and all(gone in i for i in edges["id"])
        shown = rendered_text(at).replace("\\", "")  # markdown escapes: before\\.json
        if presenter:
            leaked = sorted(t for t in data_texts(dataset) if t in shown)
            assert leaked == [], leaked[:3]
            assert "before.json" not in shown  # a file's name may be personal too
        else:
            assert "before.json" in shown
        if kind != "spomory":  # a fact is an edge: its two entities are marked instead
            nodes = {n["id"]: n for n in graph_payload(at)["nodes"]}
            assert nodes[gone]["change"] == "added"
            linked = {e for i in edges["id"] for e in i.split(" (")[0].split(" → ")}
            assert {i for i, n in nodes.items() if "change" in n} <= {gone} | linked


def test_a_bad_file_is_one_sentence(fresh_data_dir) -> None:
    at = run_page("compare.py", **_state(b"{not json"))
    (error,) = at.error
    said = error.value.replace("\\", "")  # markdown escapes
    assert said.startswith("before.json is not JSON (") and said.endswith(").")
    assert "Traceback" not in said and not at.dataframe
    other = run_page("compare.py", **_state(b'{"hello": "world"}'))
    (error,) = other.error
    assert error.value.replace("\\", "") == ("before.json is neither a Supermemory "
                                              "documents page nor a Spomory passport.")


def test_as_of_one_day_against_another_day(fresh_data_dir) -> None:
    """Two moments of the demo store: the page's counts are those of the core's
    comparison of the store as of each day's end."""
    from datetime import UTC, datetime, timedelta

    from memscope.demo.seeding import seed_if_missing
    from memscope.lenses.compare import compare_moments
    from memscope.records.time import day_end
    from memscope.settings import store_path
    from memscope.sources.embedded import EmbeddedSource

    seed_if_missing(store_path())
    ds = EmbeddedSource(store_path()).load().dataset
    today = datetime.now(UTC).date()
    first, second = today - timedelta(days=20), today - timedelta(days=5)
    expected = compare_moments(ds, day_end(first), day_end(second))
    assert not expected.identical
    at = run_page("compare.py", **{COMPARE_KIND_A.name: "asof",
                                   COMPARE_DAY_A.name: first,
                                   COMPARE_KIND_B.name: "asof",
                                   COMPARE_DAY_B.name: second})
    assert not at.error, [e.value for e in at.error]
    metrics = {m.label: int(m.value) for m in at.metric}
    changed = sum(1 for d in expected.differences if d.change == "changed")
    assert metrics == {"Added": expected.counts()["added"],
                       "Removed": expected.counts()["removed"], "Changed": changed}
    assert len(at.dataframe[0].value) == len(expected.rows())
    caption = " ".join(c.value for c in at.caption).replace("\\", "")
    assert f"side B (live as of {second.isoformat()})" in caption


def test_two_snapshot_files(fresh_data_dir) -> None:
    from conftest import SM

    pages = [SM / f"documents_page{i}.json" for i in (1, 2, 3)]
    one = pages[0].read_bytes()
    snapshot, gone = _without_one(one)
    at = run_page("compare.py", **{COMPARE_KIND_A.name: "file",
                                   COMPARE_KIND_B.name: "file",
                                   COMPARE_FILES.name: {"a": ("a.json", one),
                                                                "b": ("b.json", snapshot)}})
    assert not at.error, [e.value for e in at.error]
    table = at.dataframe[0].value
    records = table[table["record"] != EDGE]
    assert list(zip(records["change"], records["id"], strict=True)) == [("only in A", gone)]
    same = run_page("compare.py", **{COMPARE_KIND_A.name: "file",
                                     COMPARE_KIND_B.name: "file",
                                     COMPARE_FILES.name: {"a": ("a.json", one),
                                                                  "b": ("a.json", one)}})
    assert next(i.value for i in same.info).startswith("Both sides are the same")
