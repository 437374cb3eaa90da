"""Audit data: findings by kind, the chains table and the expiry queue, on the fixtures."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pandas as pd
import pytest
from conftest import NOW, SM

from memscope.graph.analysis import analyse
from memscope.graph.findings import FINDING_KINDS, Finding
from memscope.lenses.asof import as_of
from memscope.records.dataset import read_files
from memscope.reports.audit import (
    CHAIN_COLUMNS,
    FINDING_TITLES,
    chain_versions,
    chains_table,
    expiry_queue,
    finding_ids,
    finding_sentence,
    findings_by_kind,
    node_name,
)


@pytest.fixture(scope="module")
def ds():
    return read_files([SM / f"documents_page{i}.json" for i in (1, 2, 3)])


@pytest.fixture(scope="module")
def an(ds):
    return analyse(ds, NOW)


def test_findings_grouped_by_every_kind_in_order(an):
    groups = findings_by_kind(an)
    assert list(groups) == list(FINDING_KINDS) == list(FINDING_TITLES)
    nodes = {kind: [f.nodes for f in items] for kind, items in groups.items() if items}
    assert nodes == {
        "dangling_parent": [["mem_orphan_child"]],  # parent mem_not_loaded
        "branch": [["mem_coffee_v1", "mem_coffee_v2", "mem_coffee_v2b"]],
        "multiple_latest": [["mem_coffee_v2", "mem_coffee_v2b"]],
        "forgotten_latest": [["mem_allergy"]],
        # "supersedes" is read as "updates", and mem_weird_rel has no parent
        "updates_contradicts_parent": [["mem_editor", "mem_weird_rel"]],
        "expired_not_forgotten": [["mem_run"]],  # forgetAfter 11-29 < now 11-30
        "unknown_relation": [["mem_weird_rel", "mem_editor"]],
    }


def test_findings_follow_the_visible_set(an):
    groups = findings_by_kind(an, {"mem_run"})
    assert {k: len(v) for k, v in groups.items() if v} == {"expired_not_forgotten": 1}


def test_chains_table(an):
    table = chains_table(an)
    assert list(table.columns) == CHAIN_COLUMNS
    rows = {r["root"]: r for r in table.to_dict("records")}
    assert set(rows) == {"mem_fe_v1", "mem_coffee_v1", "mem_orphan_child"}
    fe = rows["mem_fe_v1"]
    assert (fe["latest"], fe["length"], fe["branches"], fe["forgotten"]) == ("mem_fe_v3", 3, 0, 0)
    assert fe["first"] == pd.Timestamp("2026-11-02T09:00Z")
    assert fe["last"] == pd.Timestamp("2026-11-20T09:00Z")
    assert fe["text"] == "Prefers React with TypeScript for new frontend work."
    coffee = rows["mem_coffee_v1"]
    assert (coffee["latest"], coffee["length"], coffee["branches"]) == (
        "mem_coffee_v2, mem_coffee_v2b", 3, 1)
    orphan = rows["mem_orphan_child"]
    assert (orphan["length"], orphan["incomplete"], orphan["cycle"]) == (1, True, False)
    assert table.sort_values("length")["root"].iloc[0] == "mem_orphan_child"  # sortable
    assert list(chains_table(an, {"mem_fe_v2"})["root"]) == ["mem_fe_v1"]


def test_chains_table_as_of(ds):
    when = datetime(2026, 11, 12, tzinfo=UTC)
    table = chains_table(analyse(as_of(ds, when), now=when))
    rows = {r["root"]: r for r in table.to_dict("records")}
    assert set(rows) == {"mem_fe_v1", "mem_orphan_child"}  # coffee had one version then
    assert (rows["mem_fe_v1"]["latest"], rows["mem_fe_v1"]["length"]) == ("mem_fe_v2", 2)


def test_expiry_queue_soonest_first(an, ds):
    queue = expiry_queue(an)
    assert list(queue["id"]) == ["mem_run", "mem_trip"]  # 2026-11-29, 2027-03-31
    assert list(queue["expired"]) == [True, False]
    assert list(queue["state"]) == ["expired", "latest"]
    assert queue["days left"].iloc[0] == -1.5  # 36 h before now
    when = datetime(2026, 11, 23, tzinfo=UTC)
    before = expiry_queue(analyse(as_of(ds, when), now=when))
    assert list(before["state"]) == ["expiring", "latest"]
    assert list(before["expired"]) == [False, False]
    assert expiry_queue(an, {"mem_trip"})["id"].tolist() == ["mem_trip"]
    assert expiry_queue(an, set()).empty


def test_chain_versions_for_the_diff_picker(an):
    assert [v for v, _ in chain_versions(an, "mem_fe_v2")] == [
        "mem_fe_v1", "mem_fe_v2", "mem_fe_v3"]
    # a version picked by its number and its words; no id
    assert chain_versions(an, "mem_fe_v3")[-1][1] == (
        "v3 (latest) · Prefers React with TypeScript for new frontend work.")
    assert chain_versions(an, "mem_editor") == []


#: what an id of the fixtures and the demo looks like (``mem_…``, ``doc_…``)
ID = re.compile(r"\b(?:mem|doc)_[A-Za-z0-9_]+")


def test_finding_sentences_name_memories_by_their_words_not_their_ids(an, ds):
    assert {f.kind for f in an.findings} >= {"dangling_parent", "branch", "multiple_latest",
                                             "forgotten_latest", "expired_not_forgotten",
                                             "updates_contradicts_parent",
                                             "unknown_relation"}
    ids = set(ds.memories) | set(ds.documents)
    for finding in an.findings:
        said = finding_sentence(an, finding)
        assert not ID.search(said), said
        assert not [i for i in ids if i in said], said
        assert not said.endswith(".”."), said
        assert set(finding.nodes) <= set(finding_ids(finding).removeprefix("ids: ")
                                         .removeprefix("id: ").split(", "))
    forgotten = next(f for f in an.findings if f.kind == "forgotten_latest")
    text = ds.memories["mem_allergy"].memory
    assert finding_sentence(an, forgotten) == (
        f"“{text}” was forgotten but is still marked as the current version.")
    expired = next(f for f in an.findings if f.kind == "expired_not_forgotten")
    assert "was due to be forgotten on 2026-11-29" in finding_sentence(an, expired)


def test_every_finding_kind_has_words(an):
    """A kind the sentence builder does not know would fall back to the id sentence."""
    for kind in FINDING_KINDS:
        said = finding_sentence(an, Finding(kind, ["mem_allergy", "mem_run"], "Memory x."))
        assert said != "Memory x." and not ID.search(said), kind


def test_node_names_use_titles_and_text(ds):
    doc = next(iter(ds.documents.values()))
    assert node_name(ds, doc.id) == f"the document “{doc.title}”"
    assert node_name(ds, "mem_not_loaded") == "something not loaded"
