"""The sandbox itself: a real HTTP server with key checks, both APIs' shapes and faults."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr
from sandbox_fixture import FEED, free_port, running_sandbox

from memscope.sandbox import Faults


@pytest.fixture
def sandbox(tmp_path):
    with running_sandbox(tmp_path, data="fixtures") as sb:
        yield sb


@pytest.fixture
def sm(sandbox):
    with httpx.Client(base_url=sandbox.url, timeout=5,
                      headers={"Authorization": f"Bearer {sandbox.supermemory_key}"}) as c:
        yield c


@pytest.fixture
def sp(sandbox):
    with httpx.Client(base_url=sandbox.url, timeout=5,
                      headers={"x-api-key": sandbox.spomory_key}) as c:
        yield c


def test_supermemory_feed_pages(sm):
    page = sm.post(FEED, json={"page": 1, "limit": 5}).json()
    assert len(page["documents"]) == 5
    assert page["pagination"] == {"currentPage": 1, "limit": 5, "totalItems": 12,
                                  "totalPages": 3}
    last = sm.post(FEED, json={"page": 3, "limit": 5}).json()
    assert len(last["documents"]) == 2
    assert sm.post(FEED, json={"page": 0}).status_code == 400


def test_supermemory_auth_and_error_shape(sandbox):
    for headers in ({}, {"Authorization": "Bearer nope"}, {"x-api-key": sandbox.supermemory_key}):
        resp = httpx.post(sandbox.url + FEED, json={}, headers=headers)
        assert resp.status_code == 401
        assert resp.json() == {"error": "Unauthorized", "details": "Invalid or missing API key"}


def test_spomory_auth_x_api_key_wins(sandbox):
    url = sandbox.url + "/v1/export"
    assert httpx.get(url).json() == {
        "detail": "missing API key (x-api-key header or Authorization: Bearer)"}
    assert httpx.get(url, headers={"Authorization": f"Bearer {sandbox.spomory_key}"}
                     ).status_code == 200
    both = httpx.get(url, headers={"x-api-key": "wrong",
                                   "Authorization": f"Bearer {sandbox.spomory_key}"})
    assert both.status_code == 401 and both.json() == {"detail": "invalid or revoked API key"}


def test_spomory_export_is_a_json_string_and_validation_is_fastapi_shaped(sp):
    body = sp.get("/v1/export").json()
    assert set(body) == {"result"} and isinstance(body["result"], str)
    assert json.loads(body["result"])["@type"] == "memory:MemoryPassport"
    bad = sp.get("/v1/memories/search")
    assert bad.status_code == 422
    assert bad.json() == {"detail": [{"loc": ["query", "query"], "msg": "Field required",
                                      "type": "missing"}]}
    assert sp.get("/v1/graph", params={"entity_name": "nobody"}).json() == {"result": "{}"}


def test_spomory_forget_all_preview_deletes_nothing(sandbox, sp):
    said = sp.post("/v1/memories/forget-all").json()["result"]
    assert said.startswith("这将永久删除整个记忆图谱：5 个实体、5 条关系")
    assert len(sandbox.spomory.relations) == 5
    assert sp.post("/v1/memories/forget-all", params={"confirm": "maybe"}).status_code == 422


def test_spomory_forget_deletes_the_nearest_or_deliberately_another(sandbox, sp):
    assert sp.post("/v1/memories/forget", json={"query": "张三住在北京"}).json() == {
        "result": "已忘记：张三住在北京"}
    sandbox.faults.spomory_wrong_forget = True
    said = sp.post("/v1/memories/forget", json={"query": "张三任职于某公司"}).json()["result"]
    assert said.startswith("已忘记：") and said != "已忘记：张三任职于某公司"


def test_supermemory_delete_with_body_and_forget_matching(sandbox, sm):
    missing = sm.request("DELETE", "/v4/memories", json={"id": "mem_trip", "reason": "old"})
    assert missing.status_code == 400 and "containerTag" in missing.json()["details"]
    assert not sandbox.store.get_memory("mem_trip")["isForgotten"]
    elsewhere = sm.request("DELETE", "/v4/memories", json={
        "id": "mem_trip", "containerTag": "acme_work"})
    assert elsewhere.status_code == 404  # not a memory of that space
    resp = sm.request("DELETE", "/v4/memories", json={
        "id": "mem_trip", "containerTag": "sm_project_personal", "reason": "old"})
    assert resp.json() == {"id": "mem_trip", "forgotten": True}
    assert sm.request("DELETE", "/v4/memories", json={
        "id": "zzz", "containerTag": "sm_project_personal"}).status_code == 404
    dry = sm.post("/v4/memories/forget-matching",
                  json={"ids": ["mem_run", "mem_trip"], "dryRun": True}).json()
    assert dry["dryRun"] is True and [c["id"] for c in dry["candidates"]] == ["mem_run"]
    assert not sandbox.store.get_memory("mem_run")["isForgotten"]


def test_supermemory_memories_list_needs_tags_and_returns_history(sm):
    assert sm.post("/v4/memories/list", json={}).status_code == 400
    body = sm.post("/v4/memories/list", json={"containerTags": ["sm_project_personal"],
                                              "limit": 100}).json()
    tip = next(e for e in body["memoryEntries"] if e["id"] == "mem_fe_v3")
    assert [h["id"] for h in tip["history"]] == ["mem_fe_v2", "mem_fe_v1"]


def test_supermemory_add_and_get_document(sm):
    added = sm.post("/v3/documents", json={"content": "Likes green tea.",
                                           "containerTag": "sm_project_personal"}).json()
    assert added["status"] == "queued"
    doc = sm.get(f"/v3/documents/{added['id']}").json()
    # the API's document shape: ``memories`` (not the feed's ``memoryEntries``)
    assert "memoryEntries" not in doc
    assert [m["memory"] for m in doc["memories"]] == ["Likes green tea."]
    assert (doc["status"], doc["containerTags"]) == ("done", ["sm_project_personal"])
    assert sm.get("/v3/documents/doc_nope").status_code == 404


def test_fault_switches(sandbox, sm):
    sandbox.faults.update(status_sequence=[429], retry_after="7")
    limited = sm.post(FEED, json={})
    assert limited.status_code == 429 and limited.headers["Retry-After"] == "7"
    assert limited.json()["error"] == "Too Many Requests"
    sandbox.faults.update(malformed=1)
    with pytest.raises(json.JSONDecodeError):
        sm.post(FEED, json={}).json()
    sandbox.faults.update(drops=1)
    with pytest.raises(httpx.RemoteProtocolError):
        sm.post(FEED, json={})
    sandbox.faults.update(timeouts=1, hang_s=0.5)
    with pytest.raises(httpx.ReadTimeout):
        sm.post(FEED, json={}, timeout=0.2)
    sandbox.faults.update(fail_pages={2}, fail_status=500)
    assert sm.post(FEED, json={"page": 2, "limit": 5}).status_code == 500
    assert sm.post(FEED, json={"page": 1, "limit": 5}).status_code == 200
    sandbox.faults.update(spaces_status=403)
    assert sm.get("/v3/container-tags/list").status_code == 403
    assert [r.fault for r in sandbox.requests][:4] == ["status 429", "malformed", "drop",
                                                       "timeout"]


def test_only_path_narrows_faults(sandbox, sm):
    sandbox.faults.update(status_sequence=[503], only_path="/v4/")
    assert sm.post(FEED, json={}).status_code == 200
    assert sm.post("/v4/profile", json={"containerTag": "acme_work"}).status_code == 503


def test_latency(sandbox, sm):
    sandbox.faults.latency_ms = 150
    started = time.monotonic()
    sm.get("/v3/container-tags/list")
    assert time.monotonic() - started >= 0.15


def test_control_endpoint(sandbox):
    faults = httpx.post(sandbox.url + "/_sandbox/faults",
                        json={"fail_pages": [3], "latency_ms": 5}).json()
    assert faults["fail_pages"] == [3] and sandbox.faults.fail_pages == {3}
    assert httpx.post(sandbox.url + "/_sandbox/faults", json={"nope": 1}).status_code == 400
    httpx.post(sandbox.url + "/_sandbox/reset")
    assert sandbox.faults.fail_pages == set() and sandbox.faults.latency_ms == 0


def test_faults_reset_and_update():
    f = Faults(drops=2, fail_pages={1})
    assert f.take("drops") and f.take("drops") and not f.take("drops")
    f.update(status_sequence=("429",))
    assert f.take_status() == 429 and f.take_status() is None
    f.reset()
    assert f.as_dict() == Faults().as_dict()


def test_generated_spomory_graph(tmp_path):
    from memscope.sandbox.data import synthetic_passport
    from memscope.sources import SpomoryConfig, SpomorySource

    with running_sandbox(tmp_path, passport=synthetic_passport(40)) as sb:
        src = SpomorySource(SpomoryConfig(api_key=SecretStr(sb.spomory_key), base_url=sb.url))
        ds = src.load().dataset
        assert len(ds.relations) == 40 and len(ds.entities) == 20


def test_command_line_starts_the_server(tmp_path):
    port = free_port()
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(
        [sys.executable, "-m", "memscope.sandbox", "--port", str(port), "--latency-ms", "5",
         "--dir", str(tmp_path), "--supermemory-key", "cli-key-1234", "--data", "fixtures",
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
        page = httpx.post(f"http://127.0.0.1:{port}{FEED}", json={"limit": 200},
                          headers={"Authorization": "Bearer cli-key-1234"}).json()
        assert page["pagination"]["totalItems"] == 12
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        err = proc.stderr.read().decode() if proc.stderr else ""
    assert f"memscope sandbox on http://127.0.0.1:{port}" in err
    assert "cli-key-1234" not in err
