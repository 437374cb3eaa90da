"""``mem0ai`` 2.2.1's ``MemoryClient`` is the contract of the mem0 source and sandbox.

``make test`` installs mem0ai without its dependencies into ``.venv/mem0``;
tests/mem0_driver.py runs the real ``MemoryClient`` in a subprocess against the sandbox's
mem0 API on 127.0.0.1, with ``MEM0_TELEMETRY=False``, its own ``MEM0_DIR`` and a guard that
refuses (and lists) every connection or name look-up beyond loopback:

(a) the client accepts the sandbox's answers (no error) in the shapes its code reads —
    ``{count, next, previous, results}`` for a list, a bare list of events for a history,
    ``results`` for entities and search — and Memscope reads the same answers into the
    same chains;
(b) Memscope's mem0 source sends the same method, path, query and JSON body as the client
    for every operation it shares with it (list page, history, entities, search, add,
    delete, batch delete): both requests are logged by the sandbox and compared;
(c) nothing left the machine: no posthog client was made, and the only hosts the guard
    saw are the two the test itself probes (which proves it watches).

Both halves were seen to fail when a detail is changed (locally, run, reverted): Memscope's
search sending ``limit`` instead of ``top_k`` fails ``test_memscope_sends_what_the_client_
sends`` ("search … 'top_k': 5} != … 'limit': 5}"); the sandbox answering a history as
``{"results": [...]}`` instead of the bare list the client returns fails
``test_the_client_reads_every_answer_and_memscope_reads_them_alike``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr
from sandbox_fixture import FAST, running_sandbox

from memscope.records.models import ParseReport
from memscope.sandbox import RequestRecord, Sandbox
from memscope.sources import AuthError, Mem0Config, Mem0Source
from memscope.sources.mem0_events import chain

ROOT = Path(__file__).resolve().parent.parent
MEM0 = ROOT / ".venv" / "mem0"
DRIVER = ROOT / "tests" / "mem0_driver.py"
USER = "sm_project_personal"
TAG = f"user:{USER}"


@pytest.fixture
def sandbox(tmp_path) -> Iterator[Sandbox]:
    with running_sandbox(tmp_path / "sb") as sb:
        yield sb


def client(sandbox: Sandbox, steps: list[dict[str, Any]], home: Path) -> dict[str, Any]:
    """Run ``steps`` through ``MemoryClient`` against the sandbox (key via the environment
    only); the driver's whole report."""
    if not (MEM0 / "mem0" / "client" / "main.py").is_file():
        pytest.fail("mem0ai 2.2.1 is not installed in .venv/mem0: run `make test` (or "
                    "`make mem0`) to install it.")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MEM0_API_KEY")}
    env.update(PYTHONPATH=str(MEM0), MEM0_API_KEY=sandbox.mem0_key, MEM0_TELEMETRY="False",
               MEM0_DIR=str(home), HOME=str(home))
    proc = subprocess.run([sys.executable, str(DRIVER), sandbox.mem0_url],
                          input=json.dumps(steps), capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert sandbox.mem0_key not in proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def memscope(sandbox: Sandbox, **overrides: Any) -> Mem0Source:
    return Mem0Source(Mem0Config(api_key=SecretStr(sandbox.mem0_key),
                                 base_url=sandbox.mem0_url, **{**FAST, **overrides}))


def wire(req: RequestRecord) -> tuple[str, str, list[tuple[str, str]], Any]:
    return req.method, req.path, sorted(req.query_pairs), req.body


def sent(sandbox: Sandbox) -> list[RequestRecord]:
    """What arrived since the last call, the client's key check (``/v1/ping/``) left out."""
    got = [r for r in sandbox.requests if not r.path.endswith("/v1/ping/")]
    sandbox.clear_requests()
    return got


def test_the_real_client_runs_with_telemetry_off_and_nothing_leaves(sandbox, tmp_path):
    report = client(sandbox, [{"op": "users"}, {"probe": "10.255.255.1"},
                              {"probe": "example.com"}], tmp_path)
    assert Path(report["client_file"]).resolve().is_relative_to(MEM0.resolve())
    assert (MEM0 / "mem0ai-2.2.1.dist-info").is_dir()
    assert report["telemetry"] is False and report["client_posthog"] is False
    assert report["posthog_clients"] == 0
    users, *probes = report["results"]
    assert "error" not in users, users
    assert [p["connected"] for p in probes] == [False, False]
    assert report["outside"] == ["10.255.255.1", "example.com"]  # the probes, nothing else
    assert (tmp_path / "config.json").is_file()  # mem0's own files went to MEM0_DIR
    assert {r.path for r in sandbox.requests} == {"/mem0/v1/ping/", "/mem0/v1/entities/"}


def test_the_client_reads_every_answer_and_memscope_reads_them_alike(sandbox, tmp_path):
    src = memscope(sandbox, entities=(TAG,))
    loaded = src.load().dataset
    chains = [m for m in loaded.memories.values() if m.is_latest and m.version != 1]
    assert chains, "the fixtures hold memories with an update"
    mem = chains[0]
    report = client(sandbox, [
        {"op": "users"},
        {"op": "get_all", "kwargs": {"filters": {"user_id": USER}, "page": 1,
                                     "page_size": 100}},
        {"op": "get", "args": [mem.id]},
        {"op": "history", "args": [mem.id]},
        {"op": "search", "args": [mem.memory], "kwargs": {"filters": {"user_id": USER}}},
    ], tmp_path)
    users, listed, one, history, found = (r.get("json") for r in report["results"])
    assert [r for r in report["results"] if "error" in r] == []
    assert {f"{u['type']}:{u['name']}" for u in users["results"]} >= {TAG}
    assert set(listed) == {"count", "next", "previous", "results"}
    assert listed["count"] == len(listed["results"]) == sum(
        1 for m in loaded.memories.values() if m.is_latest and not m.is_forgotten)
    assert one["id"] == mem.id and one["memory"] == mem.memory
    assert isinstance(history, list) and history[0]["event"] == "ADD"
    assert {e["event"] for e in history} <= {"ADD", "UPDATE", "DELETE"}
    assert found["results"][0]["id"] == mem.id
    # the client's answers read by Memscope give the chain Memscope loaded
    again = chain(mem.id, history, ParseReport(), current=one, space=TAG)
    mine = sorted((m for m in loaded.memories.values() if m.extra["mem0MemoryId"] == mem.id),
                  key=lambda m: m.version)
    assert [(m.id, m.memory, m.parent_id, m.created_at) for m in again] == [
        (m.id, m.memory, m.parent_id, m.created_at) for m in mine]


def test_memscope_sends_what_the_client_sends(sandbox, tmp_path):
    src = memscope(sandbox, entities=(TAG,), page_size=3)
    loaded = src.load().dataset
    alive = [m.id for m in loaded.memories.values() if m.is_latest and not m.is_forgotten]
    assert len(alive) >= 7
    sandbox.clear_requests()
    # Memscope's requests, one operation at a time
    ours: dict[str, RequestRecord] = {}
    src._page(TAG, 2)
    ours["list"], = sent(sandbox)
    src._history(alive[0])
    ours["history"], = sent(sandbox)
    src.spaces()
    ours["entities"], = sent(sandbox)
    src.search("Atlas standup", container_tag=TAG, limit=5)
    ours["search"], = sent(sandbox)
    src.add("Prefers window seats on trains.", container_tag=TAG)
    ours["add"], = sent(sandbox)
    src.forget(alive[1])
    ours["delete"], = sent(sandbox)
    src.forget_many([alive[2], alive[3]])
    ours["batch"], = sent(sandbox)
    # the client's requests for the same operations (other ids where one is deleted)
    steps = [
        {"op": "get_all", "kwargs": {"filters": {"user_id": USER}, "page": 2,
                                     "page_size": 3, "include_merged": True}},
        {"op": "history", "args": [alive[0]]},
        {"op": "users"},
        {"op": "search", "args": ["Atlas standup"],
         "kwargs": {"filters": {"user_id": USER}, "top_k": 5}},
        {"op": "add", "args": ["Prefers window seats on trains."],
         "kwargs": {"user_id": USER}},
        {"op": "delete", "args": [alive[4]]},
        {"op": "batch_delete", "args": [[{"memory_id": alive[5]}, {"memory_id": alive[6]}]]},
    ]
    report = client(sandbox, steps, tmp_path)
    assert [r for r in report["results"] if "error" in r] == []
    theirs = dict(zip(ours, sent(sandbox), strict=True))
    swap = {alive[4]: alive[1], alive[5]: alive[2], alive[6]: alive[3]}
    for op, req in theirs.items():
        method, path, query, body = wire(req)
        for other, mine in swap.items():
            path = path.replace(other, mine)
        if isinstance(body, dict) and "memories" in body:
            body = {"memories": [{"memory_id": swap.get(m["memory_id"], m["memory_id"])}
                                 for m in body["memories"]]}
        assert (method, path, query, body) == wire(ours[op]), op
        assert ours[op].status == req.status == 200, op


def test_a_wrong_key_is_one_sentence_and_never_shown(sandbox):
    wrong = Mem0Source(Mem0Config(api_key=SecretStr("m0-not-this-one"), base_url=sandbox.mem0_url,
                                  **FAST))
    with pytest.raises(AuthError) as raised:
        wrong.load()
    said = str(raised.value)
    assert said.startswith("mem0 rejected the API key (401") and "m0-not-this-one" not in said
    assert [r.auth for r in sandbox.requests] == [None]  # a Token header, never logged
