"""What the sandbox serves: the app's demo data (the default, built in), the test fixtures
from a folder, or a synthetic feed of any size.

The package ships no fixture files: ``data="fixtures"`` reads the folder it is given (or
``$MEMSCOPE_FIXTURES``), so a sandbox started without one needs nothing outside the package.
"""

from __future__ import annotations

import json
import os
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from memscope.store.store import Store

FIXTURES_ENV = "MEMSCOPE_FIXTURES"
FIXTURE_PROFILE_TAG = "sm_project_personal"


#: relations of the generated Spomory graph served when no passport or fixtures are given
DEFAULT_SPOMORY_FACTS = 12


def fixtures_dir(explicit: str | Path | None = None) -> Path | None:
    """``explicit``, else ``$MEMSCOPE_FIXTURES``, else ``None`` (no fixtures known)."""
    if explicit:
        return Path(explicit)
    if os.environ.get(FIXTURES_ENV):
        return Path(os.environ[FIXTURES_ENV])
    return None


def _require_fixtures(explicit: str | Path | None) -> Path:
    """The fixtures folder, or a one-sentence error naming the two ways to give one."""
    folder = fixtures_dir(explicit)
    if folder is None:
        raise ValueError("the fixtures data needs a fixtures folder: pass one (--fixtures "
                         f"DIR, e.g. tests/fixtures) or set {FIXTURES_ENV}")
    return folder


def _clean(documents: list[Any]) -> list[dict[str, Any]]:
    """Documents the store can hold: records without an id (the fixture traps) dropped."""
    out, seen = [], set()
    for doc in documents:
        if not isinstance(doc, dict) or not isinstance(doc.get("id"), str) or doc["id"] in seen:
            continue
        seen.add(doc["id"])
        entries = doc.get("memoryEntries") or doc.get("memories") or []
        out.append({**doc, "memoryEntries": [e for e in entries if isinstance(e, dict)
                                             and isinstance(e.get("id"), str)]})
    return out


def fixture_records(folder: str | Path | None = None) -> tuple[list, list, dict]:
    """``(documents, spaces, profiles)`` from the Supermemory fixtures in ``folder``."""
    sm = _require_fixtures(folder) / "supermemory"
    docs: list[Any] = []
    for i in (1, 2, 3):
        docs.extend(json.loads((sm / f"documents_page{i}.json").read_text("utf-8"))["documents"])
    spaces = json.loads((sm / "container_tags.json").read_text("utf-8"))
    profile = json.loads((sm / "profile.json").read_text("utf-8"))["profile"]
    return _clean(docs), spaces, {FIXTURE_PROFILE_TAG: profile}


def fixture_passport(folder: str | Path | None = None) -> dict[str, Any]:
    """The decoded Spomory passport fixture in ``folder``."""
    path = _require_fixtures(folder) / "spomory" / "passport.json"
    return json.loads(path.read_text("utf-8"))


def default_passport(folder: str | Path | None = None) -> dict[str, Any]:
    """The Spomory graph served unless one is given: the fixtures' passport when a fixtures
    folder is known (``folder`` or ``$MEMSCOPE_FIXTURES``), else a generated one."""
    if fixtures_dir(folder) is None:
        return synthetic_passport(DEFAULT_SPOMORY_FACTS)
    return fixture_passport(folder)


def synthetic_passport(n_facts: int, *, seed: int = 7) -> dict[str, Any]:
    """A memory passport with ``n_facts`` relations between about ``n_facts / 2`` entities."""
    rng = random.Random(seed)
    stamp = "2026-11-02T10:00:00.000000Z"
    n_entities = max(2, n_facts // 2)
    entities = [{"id": f"e{i}", "name": f"Entity {i}", "type": "unknown",
                 "memory_type": "semantic", "attributes": {}, "aliases": [], "provenance": [],
                 "created_at": stamp, "updated_at": stamp} for i in range(n_entities)]
    relations = []
    for i in range(n_facts):
        a, b = rng.sample(range(n_entities), 2)
        pred = rng.choice(("认识", "喜欢", "works with", "uses"))
        relations.append({
            "id": f"r{i}", "subject_id": f"e{a}", "predicate": pred, "object_id": f"e{b}",
            "confidence": round(rng.uniform(0.5, 1), 2), "memory_type": "semantic",
            "provenance": [{"source_id": "sandbox", "source_span": f"Entity {a} {pred} "
                            f"Entity {b}.", "extractor": "sandbox"}],
            "created_at": stamp, "updated_at": stamp})
    return {"@type": "memory:MemoryPassport", "subject_id": "default", "entities": entities,
            "relations": relations}


def _iso(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def synthetic_records(n_documents: int, *, seed: int = 7, now: datetime | None = None,
                      n_spaces: int = 3) -> tuple[list, list, dict]:
    """``(documents, spaces, profiles)``: ``n_documents`` documents with 1–3 memories
    each; about a fifth of the memories update a memory of an older document."""
    rng = random.Random(seed)
    now = now or datetime(2026, 11, 30, 12, tzinfo=UTC)
    tags = [f"sm_project_space{i}" for i in range(n_spaces)]
    spaces = [{"id": f"ct_{i}", "containerTag": t, "name": f"Space {i}",
               "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}
              for i, t in enumerate(tags)]
    docs: list[dict[str, Any]] = []
    heads: list[dict[str, Any]] = []  # latest memories that a later one may update
    for d in range(n_documents):
        created = now - timedelta(minutes=10 * (n_documents - d))
        tag = tags[d % n_spaces]
        entries = []
        for m in range(rng.randint(1, 3)):
            mem: dict[str, Any] = {
                "id": f"mem_{d}_{m}", "memory": f"Synthetic fact {d}.{m} about topic "
                f"{rng.randint(1, 500)}.", "spaceId": f"ct_{d % n_spaces}",
                "spaceContainerTag": tag, "version": 1, "isLatest": True,
                "parentMemoryId": None, "rootMemoryId": None, "memoryRelations": {},
                "isStatic": rng.random() < 0.2, "isForgotten": rng.random() < 0.03,
                "forgetAfter": None, "forgetReason": None,
                "createdAt": _iso(created), "updatedAt": _iso(created)}
            same_space = [h for h in heads[-30:] if h["spaceContainerTag"] == tag]
            if same_space and rng.random() < 0.2:
                parent = rng.choice(same_space)
                heads.remove(parent)
                parent["isLatest"] = False
                mem.update(version=parent["version"] + 1, parentMemoryId=parent["id"],
                           rootMemoryId=parent["rootMemoryId"] or parent["id"],
                           memoryRelations={parent["id"]: "updates"})
            heads.append(mem)
            entries.append(mem)
        docs.append({"id": f"doc_{d}", "title": f"Synthetic document {d}",
                     "summary": f"Notes number {d}.", "source": "sandbox",
                     "type": rng.choice(["text", "note", "webpage", "pdf"]), "status": "done",
                     "metadata": {"n": d}, "createdAt": _iso(created),
                     "updatedAt": _iso(created), "memoryEntries": entries})
    docs.reverse()  # newest first, as the feed sends them
    profiles = {t: {"static": [f"Static line of {t}"], "dynamic": [f"Recent line of {t}"]}
                for t in tags}
    return docs, spaces, profiles


def seed(store: Store, data: str = "demo", *, documents: int | None = None,
         memories: int | None = None, seed: int = 7,
         fixtures: str | Path | None = None) -> None:
    """Fill an empty store: ``demo`` (the app's demo dataset; its default size unless
    ``documents`` and ``memories`` — three per document by default — are given),
    ``synthetic`` (``documents`` of them, 200 by default) or ``fixtures`` (read from the
    ``fixtures`` folder, else ``$MEMSCOPE_FIXTURES``)."""
    if data == "demo":
        from memscope.demo.seeding import seed_store

        if documents is None:
            seed_store(store, seed=seed)
        else:
            seed_store(store, seed=seed, n_documents=documents,
                       n_memories=memories or 3 * documents)
        return
    if data == "fixtures":
        docs, spaces, profiles = fixture_records(fixtures)
    elif data == "synthetic":
        docs, spaces, profiles = synthetic_records(documents or 200, seed=seed)
    else:
        raise ValueError(f"unknown sandbox data {data!r}: demo, synthetic or fixtures")
    store.load_records(docs, spaces, profiles, source="sandbox")
