"""The demo's cluster names against names a person would accept (issue 23 item 3).

``labelled/cluster_names_demo.json`` was written by hand before the naming changed: for
each demo cluster a few of its members (id → text) and the names a person would title it
with. A cluster is found by its members — their ids, or their texts should the ids change —
so planted demo memories added later move no cluster out from under its names.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from memscope.demo.generator import generate
from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.presenter import mask
from memscope.records.dataset import from_feed_pages, read_files
from memscope.view.build import cluster_groups

FIXTURES = Path(__file__).resolve().parent / "fixtures"
LABELLED = Path(__file__).resolve().parent / "labelled"  # written by hand, not by the script
EXPECTED = json.loads((LABELLED / "cluster_names_demo.json").read_text("utf-8"))
NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


@pytest.fixture(scope="module")
def demo() -> Analysis:
    return analyse(from_feed_pages(generate(7, now=NOW).to_feed_pages()), NOW)


def _text(analysis: Analysis, node: str) -> str:
    record = analysis.graph.graph.nodes[node]["record"]
    return (getattr(record, "memory", None) or getattr(record, "title", None)
            or getattr(record, "name", None) or "")


def _cluster_of(analysis: Analysis, keys: dict[str, str],
                members: dict[str, str]) -> str:
    """The cluster holding most of ``members`` (by id, else by text); it must hold at
    least half of them, or the demo changed too much for the names written by hand."""
    by_text: dict[str, set[str]] = {}
    for node, key in keys.items():
        by_text.setdefault(_text(analysis, node), set()).add(key)
    votes: Counter[str] = Counter()
    for node_id, text in members.items():
        votes.update({keys[node_id]} if node_id in keys else by_text.get(text, set()))
    assert votes, f"none of {list(members.values())[:2]} is in the data any more"
    key, n = votes.most_common(1)[0]
    assert key and 2 * n >= len(members), (
        f"{list(members.values())[:2]} … no longer share one cluster: {dict(votes)}")
    return key


def _check(analysis: Analysis, expected: list[dict]) -> list[str]:
    """Each expected cluster's name, asserted to be among the accepted ones."""
    keys, labels = cluster_groups(analysis)
    wrong = []
    found = []
    for item in expected:
        key = _cluster_of(analysis, keys, item["members"])
        found.append(key)
        if labels[key].casefold() not in {n.casefold() for n in item["names"]}:
            wrong.append(f"{labels[key]!r} (was {item['was']!r}; accepted: {item['names']})")
    assert not wrong, "names a person would not give:\n" + "\n".join(wrong)
    assert len(set(found)) == len(found), "two expected clusters are one now"
    return [labels[k] for k in found]


def test_every_demo_cluster_reads_as_a_name_a_person_would_give(demo: Analysis) -> None:
    names = _check(demo, EXPECTED["demo"])
    assert len(names) >= 30
    _, labels = cluster_groups(demo)
    every = [name for key, name in labels.items() if key]
    assert len({n.casefold() for n in every}) == len(every), "two clusters share a name"
    assert all(" · " not in n and "…" not in n for n in every)


def test_the_spomory_graph_is_named_by_its_chinese_hub() -> None:
    for item in EXPECTED["spomory"]:
        analysis = analyse(read_files([FIXTURES / item["fixture"]]), NOW)
        _check(analysis, [item])


def test_presenter_mode_names_the_demo_without_a_word_of_it(demo: Analysis) -> None:
    """The masked analysis (placeholders only) gives neutral names, all distinct."""
    _, labels = cluster_groups(analyse(mask(demo.dataset), NOW))
    said = {w.casefold() for item in EXPECTED["demo"] for name in item["names"]
            for w in name.replace("'s", "").split() if len(w) > 3}
    every = [name for key, name in labels.items() if key]
    assert len(every) >= 30 and len(set(every)) == len(every)
    assert all(name.startswith(("Document ", "cluster ")) for name in every), every
    assert not {w.casefold() for n in every for w in n.split()} & said
