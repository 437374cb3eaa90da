"""The sandbox's Supermemory v5 routes on a real socket: shapes, history view, forget,
search, profile, add, the fault switches and the dialect switches — and one store loaded
through the legacy client and through the v5 client gives the same graph (nodes, texts,
versions, chain edges, latest/forgotten flags), short of what v5 cannot say: a memory's
second source document (the history view names one) and relation kinds outside
updates/extends/derives."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr
from sandbox_fixture import FAST, FEED, free_port, running_sandbox
from sandbox_fixture import supermemory as legacy_client

from memscope.graph.build import build_graph
from memscope.sources import SupermemoryConfig
from memscope.sources.errors import DialectMismatch
from memscope.sources.supermemory_v5 import SupermemoryV5Source

NS = "sm_project_personal"
MEMORIES = f"/ns/{NS}/list/memories"


@pytest.fixture
def sandbox(tmp_path):
    with running_sandbox(tmp_path, data="fixtures") as sb:
        yield sb


@pytest.fixture
def sm(sandbox):
    with httpx.Client(base_url=sandbox.url, timeout=5,
                      headers={"Authorization": f"Bearer {sandbox.supermemory_key}"}) as c:
        yield c


def _all(sm: httpx.Client, kind: str, ns: str = NS, **include: bool) -> list[dict]:
    """Every item of a v5 list, page by page (3 a page, so paging is exercised)."""
    out, page = [], 1
    while True:
        body = sm.post(f"/ns/{ns}/list/{kind}", params={"page": page, "limit": 3},
                       json={"include": include} if include else {}).json()
        out += body[kind]
        if page >= body["pagination"]["totalPages"]:
            return out
        page += 1


def _memory(sm: httpx.Client, mem_id: str, **params) -> dict:
    resp = sm.get(f"/ns/{NS}/memories/{mem_id}", params=params)
    assert resp.status_code == 200, resp.text
    return resp.json()


def _ids(items: list[dict]) -> list[str]:
    return [i["id"] for i in items]


# -- namespaces --------------------------------------------------------------------------


def test_namespaces_with_counts_and_both_route_names(sm):
    listed = sm.get("/namespaces", params={"limit": 100}).json()
    assert sm.get("/ns", params={"limit": 100}).json() == listed  # GET /ns: the SDK's name
    by_ns = {n["namespace"]: n for n in listed["namespaces"]}
    # the fixtures' untagged documents live in the default namespace
    assert set(by_ns) == {NS, "acme_work", "sm_project_default"}
    personal = by_ns[NS]
    assert personal["documentCount"] == len(_all(sm, "documents"))
    current = [m for m in _all(sm, "memories", forgotten=True)
               if m["isLatest"] and not m["isForgotten"]]
    assert personal["memoryCount"] == len(current)
    assert listed["pagination"] == {"currentPage": 1, "limit": 100, "totalItems": 3,
                                    "totalPages": 1}
    first = sm.get("/namespaces", params={"limit": 2}).json()
    second = sm.get("/namespaces", params={"limit": 2, "page": 2}).json()
    assert _ids(first["namespaces"] + second["namespaces"]) == _ids(listed["namespaces"])
    assert [n["namespace"] for n in sm.get("/namespaces", params={"q": "ACME"}).json()[
        "namespaces"]] == ["acme_work"]


def test_one_namespace_and_an_unknown_one(sm):
    one = sm.get(f"/ns/{NS}").json()
    assert one["namespace"] == NS and set(one["system"]) == {"createdAt", "updatedAt"}
    missing = sm.get("/ns/nobody_here")
    assert missing.status_code == 404 and set(missing.json()) == {"error", "details"}


# -- lists -------------------------------------------------------------------------------


def test_memory_list_has_no_parent_id_and_hides_forgotten_unless_asked(sandbox, sm):
    live, every = _all(sm, "memories"), _all(sm, "memories", forgotten=True)
    assert "mem_allergy" in _ids(every) and "mem_allergy" not in _ids(live)
    assert len(set(_ids(every))) == len(every)  # pages cover each memory once
    stored = {m["id"] for m in sandbox._v5._index().namespace_memories(NS)}
    assert set(_ids(every)) == stored
    for mem in every:
        assert "parentMemoryId" not in mem and "rootMemoryId" not in mem
        assert set(mem) == {"id", "memory", "metadata", "isStatic", "isInference", "isLatest",
                            "isForgotten", "version", "system"}
    created = [m["system"]["createdAt"] for m in every]
    assert created == sorted(created, reverse=True)  # createdAt desc by default
    asc = sm.post(MEMORIES, params={"sort": "createdAt", "order": "asc", "limit": 100},
                  json={"include": {"forgotten": True}}).json()["memories"]
    assert [m["system"]["createdAt"] for m in asc] == sorted(created)


def test_document_list_includes_only_what_is_asked(sm):
    plain = sm.post(f"/ns/{NS}/list/documents", params={"limit": 100}, json={}).json()
    assert plain["chunks"] == [] and plain["memories"] == []
    doc = next(d for d in plain["documents"] if d["id"] == "doc_health")
    assert "content" not in doc and "memoryCount" not in doc["system"]
    rich = sm.post(f"/ns/{NS}/list/documents", params={"limit": 100},
                   json={"include": {"content": True, "memoryCount": True}}).json()
    doc = next(d for d in rich["documents"] if d["id"] == "doc_health")
    assert "content" in doc and doc["system"]["memoryCount"] == 1  # mem_allergy is forgotten
    chunks = sm.post(f"/ns/{NS}/list/chunks", params={"limit": 100, "sort": "position"},
                     json={}).json()["chunks"]
    assert chunks and all(c["documentId"] and c["id"].startswith(c["documentId"])
                          for c in chunks)


def test_list_filters_by_metadata(sm):
    def titles(flt):
        return _ids(sm.post(f"/ns/{NS}/list/documents", params={"limit": 100},
                            json={"filter": flt}).json()["documents"])

    everything = titles(None)
    claude = titles({"field": "origin", "operator": "eq", "value": "claude-code"})
    assert claude and set(claude) <= set(everything)
    others = titles({"field": "origin", "operator": "neq", "value": "claude-code"})
    assert sorted(claude + others) == sorted(everything)
    both = titles({"operator": "and", "operands": [
        {"field": "origin", "operator": "eq", "value": "claude-code"},
        {"field": "origin", "operator": "notContains", "value": "claude"}]})
    assert both == []
    bad = sm.post(f"/ns/{NS}/list/documents", json={"filter": {"field": "x", "operator": "?",
                                                                "value": 1}})
    assert bad.status_code == 400


@pytest.mark.parametrize(("params", "body"), [
    ({"limit": 0}, {}), ({"page": "x"}, {}), ({"sort": "position"}, {}),
    ({"order": "up"}, {}), ({}, {"include": [1]})])
def test_list_refuses_bad_queries(sm, params, body):
    resp = sm.post(MEMORIES, params=params, json=body)
    assert resp.status_code == 400 and set(resp.json()) == {"error", "details"}
    assert sm.post(f"/ns/{NS}/list/spaces", json={}).status_code == 400


# -- one document, one memory (the history view) -----------------------------------------


def test_document_with_chunks_and_memories(sm):
    bare = sm.get(f"/ns/{NS}/document/doc_stack_2").json()
    assert "chunks" not in bare and "memories" not in bare
    full = sm.get(f"/ns/{NS}/document/doc_stack_2", params={"include": "chunks,memories"})
    doc = full.json()
    assert doc["system"]["status"] == "done"
    assert _ids(doc["memories"]) == ["mem_fe_v3", "mem_ts_course"]
    assert doc["chunks"] and "documentId" not in doc["chunks"][0]
    assert sm.get("/ns/acme_work/document/doc_stack_2").status_code == 404
    assert sm.get(f"/ns/{NS}/document/doc_stack_2", params={"include": "x"}).status_code == 400


def test_history_view_parents_children_siblings(sm):
    middle = _memory(sm, "mem_fe_v2", include="related")
    related = middle["included"]["related"]
    assert [(r["id"], r["relation"]) for r in related["parents"]] == [("mem_fe_v1", "updates")]
    assert [(r["id"], r["relation"]) for r in related["children"]] == [("mem_fe_v3", "updates")]
    assert "document" not in middle["included"]
    tip = _memory(sm, "mem_fe_v3", include="related")["included"]["related"]
    assert _ids(tip["parents"]) == ["mem_fe_v2", "mem_fe_v1"]  # nearest first
    assert [(r["id"], r["relation"]) for r in tip["siblings"]] == [("mem_ts_course", "extends")]
    assert [(r["id"], r["relation"]) for r in _memory(
        sm, "mem_ts_course", include="related")["included"]["related"]["siblings"]] == [
        ("mem_fe_v3", "extends")]
    # a branch: both newer versions of the first coffee memory are its children
    root = _memory(sm, "mem_coffee_v1", include="related")["included"]["related"]
    assert sorted(_ids(root["children"])) == ["mem_coffee_v2", "mem_coffee_v2b"]
    capped = _memory(sm, "mem_coffee_v1", include="related", relatedLimit=1)
    assert len(capped["included"]["related"]["children"]) == 1
    # an unknown relation ("supersedes") and a parent that is not in the store are no links
    weird = _memory(sm, "mem_weird_rel", include="related")["included"]["related"]
    orphan = _memory(sm, "mem_orphan_child", include="related")["included"]["related"]
    assert weird["siblings"] == [] and orphan["parents"] == []


def test_include_repeated_or_comma_separated_is_the_same(sm):
    repeated = sm.get(f"/ns/{NS}/memories/mem_fe_v2?include=related&include=documents")
    comma = sm.get(f"/ns/{NS}/memories/mem_fe_v2?include=related,documents")
    assert repeated.json() == comma.json()
    included = comma.json()["included"]
    assert included["document"]["id"] == "doc_stack_1"
    assert included["related"]["parents"][0]["document"]["id"] == "doc_stack_0"
    assert sm.get(f"/ns/{NS}/memories/mem_fe_v2", params={"include": "nope"}).status_code == 400
    assert sm.get(f"/ns/{NS}/memories/mem_fe_v2", params={"relatedLimit": 0}).status_code == 400
    assert sm.get("/ns/acme_work/memories/mem_fe_v2").status_code == 404


def test_forgotten_memories_come_back_flagged_but_leave_related_lists(sm):
    assert sm.request("DELETE", f"/ns/{NS}/memories", json={"ids": ["mem_fe_v1"]}).json()[
        "count"] == 1
    assert _memory(sm, "mem_fe_v1")["isForgotten"] is True
    parents = _memory(sm, "mem_fe_v3", include="related")["included"]["related"]["parents"]
    assert _ids(parents) == ["mem_fe_v2"]


def test_a_list_read_again_after_a_change_shows_the_change(sm):
    """The sandbox builds each list once per data version: a forget is seen by the next
    page read, in every order asked for."""
    before = _all(sm, "memories", forgotten=True)
    assert _all(sm, "memories", forgotten=True) == before  # the same answer, read again
    assert sm.request("DELETE", f"/ns/{NS}/memories", json={"ids": ["mem_run"]}).json()[
        "count"] == 1
    after = _all(sm, "memories", forgotten=True)
    assert {m["id"]: m["isForgotten"] for m in after}["mem_run"] is True
    assert "mem_run" in _ids(before) and "mem_run" not in _ids(_all(sm, "memories"))
    newest = sm.post(f"/ns/{NS}/list/memories", params={"limit": 50, "sort": "updatedAt",
                                                         "order": "asc"}, json={}).json()
    assert "mem_run" not in _ids(newest["memories"])


# -- forget ------------------------------------------------------------------------------


def test_forget_by_ids_reports_each_id_and_the_legacy_view_agrees(sandbox, sm):
    resp = sm.request("DELETE", f"/ns/{NS}/memories", json={
        "ids": ["mem_run", "mem_nope", "mem_allergy", "mem_run"]})
    body = resp.json()
    assert resp.status_code == 200 and body["count"] == 1
    assert body["matches"] == [{"id": "mem_run", "memory": "Runs 5 km three times a week."}]
    assert {e["id"] for e in body["errors"]} == {"mem_nope", "mem_allergy"}
    assert all(e["error"] for e in body["errors"])
    # the same store: the legacy feed now shows it forgotten, and the ledger kept the audit
    feed = sm.post(FEED, json={"limit": 100}).json()["documents"]
    legacy = next(e for d in feed for e in d["memoryEntries"] if e["id"] == "mem_run")
    assert legacy["isForgotten"] is True
    rows = [r for r in sandbox.store.ledger() if r.target_id == "mem_run"]
    assert [(r.action, r.outcome) for r in rows] == [("forget", "ok")]
    assert rows[0].snapshot == "Runs 5 km three times a week."
    other_ns = sm.request("DELETE", "/ns/acme_work/memories", json={"ids": ["mem_trip"]})
    assert other_ns.json()["count"] == 0 and not sandbox.store.get_memory("mem_trip")[
        "isForgotten"]


@pytest.mark.parametrize("ids", [[], ["x"] * 501, "mem_run", [1]])
def test_forget_by_ids_needs_1_to_500_ids(sm, ids):
    assert sm.request("DELETE", f"/ns/{NS}/memories", json={"ids": ids}).status_code == 400


def test_semantic_forget_needs_dry_run_and_a_dry_run_deletes_nothing(sandbox, sm):
    url = f"/ns/{NS}/memories/semantic"
    assert sm.request("DELETE", url, json={"query": "coffee"}).status_code == 400
    assert sm.request("DELETE", url, json={"query": "coffee", "dryRun": "yes"}
                      ).status_code == 400
    before = sandbox.store.data_version()
    dry = sm.request("DELETE", url, json={"query": "trip", "dryRun": True}).json()
    assert sandbox.store.data_version() == before  # nothing written
    expected = [h["id"] for h in sandbox.store.search("trip", limit=100, container_tag=NS)[
        "hits"] if h["kind"] == "memory"]
    assert _ids(dry["matches"]) == expected and dry["count"] == len(expected) > 0
    again = sm.request("DELETE", url, json={"query": "trip", "dryRun": True}).json()
    assert again == dry  # deterministic
    done = sm.request("DELETE", url, json={"query": "trip", "dryRun": False}).json()
    assert _ids(done["matches"]) == expected
    assert all(sandbox.store.get_memory(i)["isForgotten"] for i in expected)
    assert sm.request("DELETE", url, json={"query": "trip", "dryRun": True}).json()[
        "count"] == 0


# -- search, profile, add ----------------------------------------------------------------


def test_search_modes(sandbox, sm):
    sandbox.store.add_document("Ferry timetable for the Lisbon weekend.", NS, title="Ferry")

    def search(**body):
        resp = sm.post(f"/ns/{NS}/search", json={"query": "Lisbon trip", **body})
        assert resp.status_code == 200, resp.text
        return resp.json()["results"]

    hybrid = search()
    assert {"memory" in r for r in hybrid} == {True, False}
    assert all("memory" in r and "chunk" not in r for r in search(searchMode="memories"))
    assert all("chunk" in r and "memory" not in r for r in search(searchMode="chunks"))
    scores = [r["similarity"] for r in hybrid]
    assert scores == sorted(scores, reverse=True)
    assert len(search(limit=1)) == 1
    with_docs = search(searchMode="memories", include={"documents": True})
    assert all(r["included"]["document"]["id"] for r in with_docs)
    assert sm.post(f"/ns/{NS}/search", json={"query": "x", "searchMode": "documents"}
                   ).status_code == 400  # v5 calls that mode "chunks"
    assert sm.post(f"/ns/{NS}/search", json={"q": "Lisbon"}).status_code == 400


def test_profile_entries_name_their_memory(tmp_path):
    with running_sandbox(tmp_path, data="demo") as sb, httpx.Client(
            base_url=sb.url, headers={"Authorization": f"Bearer {sb.supermemory_key}"}) as c:
        tag = sb.store.list_spaces()[0]["containerTag"]
        profile = c.post(f"/ns/{tag}/profile", json={}).json()["profile"]
        raw = sb.store.profile(tag)
        for kind in ("static", "dynamic"):
            assert [e["memory"] for e in profile[kind]] == [line["text"] for line in raw[kind]]
            for entry, line in zip(profile[kind], raw[kind], strict=True):
                cited = line["memoryIds"]
                if len(cited) == 1:
                    assert entry["id"] == cited[0] and sb.store.get_memory(cited[0])
                else:
                    assert entry["id"].startswith("aggregated_")
        assert profile["buckets"] == {}


def test_add_moves_through_the_processing_states(sandbox, sm):
    sandbox.faults.processing_polls = 2
    added = sm.post(f"/ns/{NS}/document", json={"content": "Adopted a cat named Miso.",
                                                "metadata": {"title": "Cat"}}).json()
    assert added["status"] == "queued"
    url = f"/ns/{NS}/document/{added['id']}"
    assert sm.get(f"/ns/acme_work/document/{added['id']}").status_code == 404  # not moved on
    states = [sm.get(url, params={"include": "memories"}).json()["system"]["status"]
              for _ in range(3)]
    assert states == ["extracting", "chunking", "done"]
    done = sm.get(url, params={"include": "memories"}).json()
    assert done["title"] == "Cat" and [m["memory"] for m in done["memories"]] == [
        "Adopted a cat named Miso."]
    # the legacy dialect sees the same document
    assert sm.get(f"/v3/documents/{added['id']}").json()["status"] == "done"
    assert sm.post(f"/ns/{NS}/document", json={"content": "x", "id": added["id"]}).json() == {
        "id": added["id"], "status": "done"}
    assert sm.post(f"/ns/{NS}/document", json={"content": " "}).status_code == 400


def test_add_can_end_failed(sandbox, sm):
    sandbox.faults.update(processing_polls=0, fail_processing=1)
    added = sm.post(f"/ns/{NS}/document", json={"content": "Will fail."}).json()
    doc = sm.get(f"/ns/{NS}/document/{added['id']}", params={"include": "memories"}).json()
    assert doc["system"]["status"] == "failed" and doc["memories"] == []
    assert sm.get(f"/ns/acme_work/document/{added['id']}").status_code == 404


# -- faults, keys, dialects --------------------------------------------------------------


def test_v5_routes_take_the_same_fault_switches(sandbox, sm):
    sandbox.faults.update(status_sequence=[429], retry_after="3")
    limited = sm.get("/namespaces")
    assert limited.status_code == 429 and limited.headers["Retry-After"] == "3"
    assert limited.json()["error"] == "Too Many Requests"
    sandbox.faults.update(status_sequence=[503])
    assert sm.post(MEMORIES, json={}).status_code == 503
    sandbox.faults.update(malformed=1)
    with pytest.raises(json.JSONDecodeError):
        sm.post(MEMORIES, json={}).json()
    sandbox.faults.update(drops=1)
    with pytest.raises(httpx.RemoteProtocolError):
        sm.get(f"/ns/{NS}/memories/mem_trip")
    sandbox.faults.update(timeouts=1, hang_s=0.5)
    with pytest.raises(httpx.ReadTimeout):
        sm.get("/namespaces", timeout=0.2)
    sandbox.faults.update(fail_pages={2}, fail_status=500)
    assert sm.post(MEMORIES, params={"page": 2, "limit": 3}, json={}).status_code == 500
    assert sm.post(MEMORIES, params={"page": 1, "limit": 3}, json={}).status_code == 200
    assert [r.fault for r in sandbox.requests][:5] == [
        "status 429", "status 503", "malformed", "drop", "timeout"]


def test_shift_and_missing_pagination_apply_to_v5_lists(sandbox, sm):
    first = sm.post(MEMORIES, params={"limit": 3}, json={}).json()["memories"]
    sandbox.faults.update(shift=1)
    second = sm.post(MEMORIES, params={"page": 2, "limit": 3}, json={}).json()["memories"]
    assert second[0]["id"] == first[-1]["id"]  # one memory repeats across the pages
    sandbox.faults.update(shift=0, omit_pagination=True)
    assert "pagination" not in sm.post(MEMORIES, json={}).json()


def test_latency_and_only_path(sandbox, sm):
    sandbox.faults.update(status_sequence=[503], only_path="/ns/")
    assert sm.post(FEED, json={}).status_code == 200
    assert sm.get(f"/ns/{NS}").status_code == 503
    sandbox.faults.update(only_path=None, latency_ms=150)
    started = time.monotonic()
    sm.get("/namespaces")
    assert time.monotonic() - started >= 0.15


def test_v5_routes_need_the_key(sandbox):
    for headers in ({}, {"Authorization": "Bearer nope"}):
        resp = httpx.get(sandbox.url + "/namespaces", headers=headers)
        assert resp.status_code == 401
        assert resp.json() == {"error": "Unauthorized", "details": "Invalid or missing API key"}


def test_dialect_switches_answer_404_on_one_dialect_only(sandbox, sm):
    v5_routes = [("GET", "/namespaces"), ("GET", "/ns"), ("GET", f"/ns/{NS}"),
                 ("POST", MEMORIES), ("GET", f"/ns/{NS}/memories/mem_trip"),
                 ("POST", f"/ns/{NS}/search"), ("DELETE", f"/ns/{NS}/memories")]
    legacy_routes = [("POST", FEED), ("GET", "/v3/container-tags/list"),
                     ("POST", "/v4/search"), ("POST", "/v4/profile")]
    sandbox.faults.v5_missing = True
    for method, path in v5_routes:
        resp = sm.request(method, path, json={} if method != "GET" else None)
        assert resp.status_code == 404, path
        assert resp.json()["details"] == f"No route {method} {path}"
    assert httpx.get(sandbox.url + "/namespaces").status_code == 404  # before the key check
    assert sm.post(FEED, json={}).status_code == 200
    sandbox.faults.update(v5_missing=False, legacy_missing=True)
    for method, path in legacy_routes:
        assert sm.request(method, path, json={}).status_code == 404, path
    assert sm.get("/namespaces").status_code == 200


def test_command_line_serves_both_dialects(tmp_path):
    port = free_port()
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(
        [sys.executable, "-m", "memscope.sandbox", "--port", str(port), "--dir", str(tmp_path),
         "--supermemory-key", "cli-key-5678", "--data", "fixtures",
         "--fixtures", str(root / "tests" / "fixtures")],
        cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/_sandbox/health").status_code == 200:
                    break
            except httpx.TransportError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        headers = {"Authorization": "Bearer cli-key-5678"}
        names = httpx.get(f"http://127.0.0.1:{port}/namespaces", headers=headers).json()
        assert NS in {n["namespace"] for n in names["namespaces"]}
        assert httpx.post(f"http://127.0.0.1:{port}{FEED}", json={}, headers=headers
                          ).status_code == 200
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    helped = subprocess.run([sys.executable, "-m", "memscope.sandbox", "--help"], cwd=root,
                            capture_output=True, text=True, check=True).stdout
    assert "v5" in helped and "--v5-missing" in helped and "--legacy-missing" in helped



# -- one store, two dialects, one graph --------------------------------------------------


def _v5_source(sandbox) -> SupermemoryV5Source:
    return SupermemoryV5Source(SupermemoryConfig(
        api_key=SecretStr(sandbox.supermemory_key), base_url=sandbox.url, dialect="v5", **FAST))


def _graph(ds) -> tuple[dict, set, dict]:
    """Nodes (kind), keyed edges (source and version/relation links) and each memory's
    text, version, space and flags."""
    g = build_graph(ds).graph
    nodes = {n: d["kind"] for n, d in g.nodes(data=True)}
    edges = {(u, v, k) for u, v, k in g.edges(keys=True)}
    memories = {m.id: (m.memory, m.version, m.container_tag, m.is_latest, m.is_forgotten,
                       m.is_static, m.is_inference) for m in ds.memories.values()}
    return nodes, edges, memories


def _inexpressible_in_v5(ds) -> set:
    """Legacy edges v5 cannot carry: a memory's second (third…) source document — the
    history view names one — and relation kinds outside updates/extends/derives."""
    out = set()
    for mem_id, docs in ds.memory_documents.items():
        out.update((doc, mem_id, "source") for doc in docs[1:])
    for mem in ds.memories.values():
        for other, kind in (mem.relations or {}).items():
            if kind not in ("updates", "extends", "derives"):
                out.add((other, mem.id, "updates"))
    return out


@pytest.mark.parametrize("data", ["demo", "fixtures"])
def test_one_store_seen_both_ways_gives_the_same_graph(tmp_path, data):
    with running_sandbox(tmp_path, data=data) as sb:
        # forget one memory through v5 first: the legacy view must see it forgotten too
        target = next(m for m in sb._v5._index().memories.values() if not m["isForgotten"])
        tag = target["spaceContainerTag"]
        with httpx.Client(base_url=sb.url, headers={
                "Authorization": f"Bearer {sb.supermemory_key}"}) as c:
            assert c.request("DELETE", f"/ns/{tag}/memories", json={"ids": [target["id"]]}
                             ).json()["count"] == 1
        legacy_ds = legacy_client(sb).load().dataset
        v5_ds = _v5_source(sb).load().dataset
    legacy, v5 = _graph(legacy_ds), _graph(v5_ds)
    assert v5[0] == legacy[0]  # the same documents and memories
    assert v5[2] == legacy[2]  # texts, versions, spaces, latest / forgotten / static flags
    assert legacy[2][target["id"]][4] is True
    assert v5[1] <= legacy[1]  # no edge the legacy dialect does not have …
    missing = legacy[1] - v5[1]
    assert missing <= _inexpressible_in_v5(legacy_ds), missing  # … and only these missing
    assert {k for _, _, k in v5[1]} >= {"source", "updates", "extends"}  # chains were drawn


def test_each_client_names_the_other_dialect_when_its_own_answers_404(sandbox):
    sandbox.faults.v5_missing = True
    with pytest.raises(DialectMismatch, match=r"current API \(v5\).*choose 'legacy API"):
        _v5_source(sandbox).load()
    sandbox.faults.update(v5_missing=False, legacy_missing=True)
    with pytest.raises(DialectMismatch, match=r"legacy API \(v3/v4\).*choose 'current API"):
        legacy_client(sandbox, dialect="legacy").load()
