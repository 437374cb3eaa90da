"""The demo generator: determinism, the promised variety, referential integrity, scale."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memscope.demo import texts as demo_text
from memscope.demo.generator import DemoDataset, generate
from memscope.demo.seeding import main_seed, seed_store
from memscope.store.store import Store

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
RELATIONS = {"updates", "extends", "derives"}


def ts(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def dumps(data: DemoDataset) -> str:
    return json.dumps({"documents": data.documents, "spaces": data.spaces,
                       "profiles": data.profiles}, ensure_ascii=False)


@pytest.fixture(scope="module")
def data() -> DemoDataset:
    return generate(7, now=NOW)


def mems_of(data: DemoDataset) -> dict[str, dict[str, Any]]:
    return {m["id"]: m for m in data.memories()}


def holders(data: DemoDataset) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for doc in data.documents:
        for m in doc["memoryEntries"]:
            out.setdefault(m["id"], []).append(doc)
    return out


def chains(mems: dict[str, dict[str, Any]]) -> list[set[str]]:
    kids: dict[str | None, list[str]] = {}
    for m in mems.values():
        kids.setdefault(m["parentMemoryId"], []).append(m["id"])
    out = []
    for root in kids.get(None, []):
        members, stack = set(), [root]
        while stack:
            cur = stack.pop()
            members.add(cur)
            stack.extend(kids.get(cur, []))
        out.append(members)
    return out


# -- determinism -----------------------------------------------------------------------

def test_same_seed_same_output() -> None:
    assert dumps(generate(7, now=NOW)) == dumps(generate(7, now=NOW))
    big = dict(n_documents=300, n_memories=1500)
    assert dumps(generate(3, now=NOW, **big)) == dumps(generate(3, now=NOW, **big))


def test_different_seed_or_now_differs(data: DemoDataset) -> None:
    assert dumps(generate(8, now=NOW)) != dumps(data)
    later = generate(7, now=NOW + timedelta(days=3))
    assert dumps(later) != dumps(data)
    # moving ``now`` shifts every time by the same amount; the structure is the same
    first = later.documents[-1]["createdAt"], data.documents[-1]["createdAt"]
    assert ts(first[0]) - ts(first[1]) == timedelta(days=3)


def test_global_random_and_clock_are_not_used() -> None:
    state = random.getstate()
    random.seed(1)
    a = dumps(generate(5, now=NOW))
    random.seed(2)
    b = dumps(generate(5, now=NOW))
    assert a == b
    random.setstate(state)


# -- sizes and variety ---------------------------------------------------------------

@pytest.mark.parametrize(("n_docs", "n_mems"), [(72, 360), (17, 60), (250, 1200)])
def test_exact_sizes(n_docs: int, n_mems: int) -> None:
    data = generate(11, now=NOW, n_documents=n_docs, n_memories=n_mems)
    assert len(data.documents) == n_docs
    assert len({d["id"] for d in data.documents}) == n_docs
    assert sum(1 for _ in data.memories()) == n_mems
    assert all(d["memoryEntries"] for d in data.documents)


def test_too_small_is_refused() -> None:
    with pytest.raises(ValueError, match="at least"):
        generate(1, now=NOW, n_documents=5, n_memories=400)
    with pytest.raises(ValueError, match="at least"):
        generate(1, now=NOW, n_documents=72, n_memories=72)


def test_spaces_documents_and_types(data: DemoDataset) -> None:
    tags = {s["containerTag"] for s in data.spaces}
    assert {"sm_project_personal", "acme_work", "sm_project_research"} <= tags
    assert len(data.documents) >= 60
    types = Counter(d["type"] for d in data.documents)
    assert len(types) >= 8
    for doc in data.documents:
        assert doc["title"] and doc["summary"] and doc["source"] and doc["status"] == "done"
        assert doc["containerTags"][0] in tags
        if doc["type"] == "webpage":
            assert doc["url"].startswith("https://")
    mems = mems_of(data)
    for space in data.spaces:
        mine = [m for m in mems.values() if m["spaceContainerTag"] == space["containerTag"]]
        assert space["memoryCount"] == len(mine) > 0
        assert all(m["spaceId"] == space["id"] for m in mine)
        assert space["documentCount"] == sum(
            1 for d in data.documents if space["containerTag"] in d["containerTags"])


def test_memories_read_as_sentences(data: DemoDataset) -> None:
    mems = mems_of(data)
    assert len(mems) >= 300
    for m in mems.values():
        text = m["memory"]
        assert text[0].isupper() and text.endswith((".", "'")), text
        assert "{" not in text and "}" not in text, text
    names = " ".join(m["memory"] for m in mems.values())
    for who in ("Maya", "Priya", "Tom Okafor", "Atlas", "Beacon"):
        assert who in names


def test_version_chains_are_consistent(data: DemoDataset) -> None:
    mems = mems_of(data)
    has_kids = {m["parentMemoryId"] for m in mems.values() if m["parentMemoryId"]}
    for m in mems.values():
        pid = m["parentMemoryId"]
        if pid is None:
            assert m["rootMemoryId"] is None and m["version"] == 1
            continue
        parent = mems[pid]
        assert m["version"] == parent["version"] + 1
        assert m["rootMemoryId"] == (parent["rootMemoryId"] or parent["id"])
        assert m["memoryRelations"].get(pid) == "updates"
        assert ts(m["createdAt"]) > ts(parent["createdAt"])
        assert parent["isLatest"] is False
        first_child = min(ts(c["createdAt"]) for c in mems.values()
                          if c["parentMemoryId"] == pid)
        assert ts(parent["updatedAt"]) >= first_child  # superseded when first updated
    for m in mems.values():
        if m["id"] not in has_kids and not m["isForgotten"]:
            assert m["isLatest"] is True
    sizes = Counter(len(c) for c in chains(mems))
    assert {2, 3, 4, 5} <= set(sizes)
    assert max(sizes) <= 5
    branches = [p for p, n in Counter(m["parentMemoryId"] for m in mems.values()
                                      if m["parentMemoryId"]).items() if n > 1]
    assert len(branches) >= 2


def test_evolving_texts(data: DemoDataset) -> None:
    mems = mems_of(data)
    texts = {m["memory"] for m in mems.values()}
    assert {"Maya prefers Vue for frontend work.", "Maya prefers React for frontend work.",
            "Maya prefers React with TypeScript for new frontend work."} <= texts
    for m in mems.values():
        if m["parentMemoryId"]:
            assert m["memory"] != mems[m["parentMemoryId"]]["memory"]


def test_states_relative_to_now(data: DemoDataset) -> None:
    mems = list(mems_of(data).values())
    forgotten = [m for m in mems if m["isForgotten"]]
    assert len(forgotten) >= 3 and all(m["forgetReason"] for m in forgotten)
    assert all(m["forgetReason"] is None for m in mems if not m["isForgotten"])
    fa = [(ts(m["forgetAfter"]), m) for m in mems if m["forgetAfter"]]
    assert any(NOW < t < NOW + timedelta(days=7) and not m["isForgotten"] for t, m in fa)
    assert any(t <= NOW and not m["isForgotten"] for t, m in fa)
    assert any(NOW - ts(m["createdAt"]) < timedelta(hours=24) for m in mems)
    flags = Counter(m["isStatic"] for m in mems)
    assert flags[True] >= 20 and flags[False] >= 20


def test_times_are_iso_and_not_after_now(data: DemoDataset) -> None:
    docs_of = holders(data)
    for doc in data.documents:
        assert ISO.match(doc["createdAt"]) and ISO.match(doc["updatedAt"])
        assert ts(doc["createdAt"]) <= ts(doc["updatedAt"]) <= NOW
    for m in mems_of(data).values():
        for key in ("createdAt", "updatedAt"):
            assert ISO.match(m[key]) and ts(m[key]) <= NOW
        assert ts(m["createdAt"]) <= ts(m["updatedAt"])
        assert m["forgetAfter"] is None or ISO.match(m["forgetAfter"])
        assert ts(m["createdAt"]) >= min(ts(d["createdAt"]) for d in docs_of[m["id"]])
    assert [d["createdAt"] for d in data.documents] == sorted(
        (d["createdAt"] for d in data.documents), reverse=True)


def test_relations(data: DemoDataset) -> None:
    mems = mems_of(data)
    docs_of = {mid: {d["id"] for d in docs} for mid, docs in holders(data).items()}
    seen = {"extends": Counter(), "derives": Counter()}
    for m in mems.values():
        for other, kind in m["memoryRelations"].items():
            assert kind in RELATIONS
            assert other in mems, f"{m['id']} -> dangling {other}"
            if kind == "updates":
                continue
            target = mems[other]
            seen[kind]["any"] += 1
            if not docs_of[other] & docs_of[m["id"]]:
                seen[kind]["cross_document"] += 1
            if target["spaceContainerTag"] != m["spaceContainerTag"]:
                seen[kind]["cross_space"] += 1
            if kind == "derives":
                assert m["isInference"] is True
    assert seen["extends"]["any"] >= 3 and seen["derives"]["any"] >= 3
    assert seen["extends"]["cross_document"] >= 1 and seen["derives"]["cross_document"] >= 1
    assert seen["extends"]["cross_space"] + seen["derives"]["cross_space"] >= 2


def test_no_dangling_references(data: DemoDataset) -> None:
    mems = mems_of(data)
    for m in mems.values():
        assert m["parentMemoryId"] is None or m["parentMemoryId"] in mems
        assert m["rootMemoryId"] is None or m["rootMemoryId"] in mems
        assert all(other in mems for other in m["memoryRelations"])


def test_memory_under_several_documents(data: DemoDataset) -> None:
    docs_of = holders(data)
    shared = [mid for mid, docs in docs_of.items() if len(docs) > 1]
    assert shared
    for mid in shared:
        copies = [next(e for e in d["memoryEntries"] if e["id"] == mid) for d in docs_of[mid]]
        assert all(c == copies[0] for c in copies)
        assert copies[0]["sourceCount"] == len(docs_of[mid])
    assert all(m["sourceCount"] == len(docs_of[m["id"]]) for m in data.memories())


def test_profiles_cite_existing_memories(data: DemoDataset) -> None:
    mems = mems_of(data)
    assert set(data.profiles) == {s["containerTag"] for s in data.spaces}
    for tag, prof in data.profiles.items():
        assert prof["static"] and prof["dynamic"]
        for line in prof["static"] + prof["dynamic"]:
            assert line["text"] and line["memoryIds"]
            for mid in line["memoryIds"]:
                assert mems[mid]["spaceContainerTag"] == tag


def test_feed_pages(data: DemoDataset) -> None:
    pages = data.to_feed_pages(limit=25)
    assert len(pages) == 3
    assert [d for p in pages for d in p["documents"]] == data.documents
    assert pages[-1]["pagination"] == {"currentPage": 3, "limit": 25,
                                       "totalItems": len(data.documents), "totalPages": 3}
    assert json.loads(json.dumps(pages[0])) == pages[0]


def test_core_reads_the_demo_without_issues(data: DemoDataset) -> None:
    from memscope.graph.analysis import analyse
    from memscope.records.dataset import from_feed_pages

    result = analyse(from_feed_pages(data.to_feed_pages(limit=40)), NOW)
    kinds = Counter(f.kind for f in result.findings)
    assert not {"dangling_parent", "dangling_relation", "cycle", "duplicate_memory",
                "orphan_memory", "updates_contradicts_parent", "version_repair"} & set(kinds)
    assert kinds["branch"] >= 2 and kinds["expired_not_forgotten"] >= 1


# -- scale and seeding ---------------------------------------------------------------

def test_large_dataset() -> None:
    data = generate(7, now=NOW, n_documents=10_000, n_memories=50_000)
    assert len(data.documents) == 10_000
    mems = mems_of(data)
    assert len(mems) == 50_000
    assert all(m["parentMemoryId"] is None or m["parentMemoryId"] in mems
               for m in mems.values())
    assert all(o in mems for m in mems.values() for o in m["memoryRelations"])
    assert len(data.to_feed_pages(200)) == 50
    # the generated part (not only the hand-written story) has every feature, at scale
    parents = Counter(m["parentMemoryId"] for m in mems.values() if m["parentMemoryId"])
    assert sum(1 for n in parents.values() if n > 1) >= 50
    assert sum(NOW - ts(m["createdAt"]) < timedelta(hours=24) for m in mems.values()) >= 100
    fa = [ts(m["forgetAfter"]) for m in mems.values() if m["forgetAfter"]]
    assert sum(NOW < t < NOW + timedelta(days=7) for t in fa) >= 50
    assert sum(t <= NOW for t in fa) >= 50
    assert sum(m["isForgotten"] for m in mems.values()) >= 500
    kinds = Counter(k for m in mems.values() for k in m["memoryRelations"].values())
    assert kinds["extends"] >= 500 and kinds["derives"] >= 300
    assert sum(m["sourceCount"] > 1 for m in mems.values()) >= 100


def test_seed_store_and_main_seed(tmp_path: Path) -> None:
    store = Store(tmp_path / "a.sqlite")
    data = seed_store(store, now=NOW, n_documents=40, n_memories=150)
    assert store.list_documents(limit=100)["documents"] == data.documents
    path = tmp_path / "sub" / "memscope.sqlite"
    assert main_seed(path, now=NOW) is True
    assert main_seed(path, now=NOW) is False  # kept as is
    # the 72 generated documents and the 5 of the semantic audit's planted cases
    assert Store(path).list_documents(limit=1)["pagination"]["totalItems"] == 77
    assert len(Store(path).ledger()) == 1


def test_hero_story_is_complete() -> None:
    keys = [m["key"] for d in demo_text.HERO for m in d["memories"] if "key" in m]
    assert len(keys) == len(set(keys))
    refs = {m.get("parent") for d in demo_text.HERO for m in d["memories"]} | {
        k for d in demo_text.HERO for m in d["memories"] for k in m.get("rel", {})}
    assert refs - {None} <= set(keys)
