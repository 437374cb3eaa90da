"""Audit data: findings by kind, the chains table and the expiry queue, on the fixtures."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import pytest
from conftest import NOW, SM

from memscope.graph.analysis import analyse
from memscope.graph.findings import FINDING_KINDS
from memscope.lenses.asof import as_of
from memscope.records.dataset import read_files
from memscope.reports.audit import (
    CHAIN_COLUMNS,
    FINDING_TITLES,
    chain_versions,
    chains_table,
    expiry_queue,
    findings_by_kind,
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
    assert chain_versions(an, "mem_fe_v3")[-1][1] == "v3 · mem_fe_v3 (latest)"
    assert chain_versions(an, "mem_editor") == []
