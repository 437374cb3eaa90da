"""The official Supermemory SDK 5.0.1 is the contract of the v5 dialect.

The 5.x SDK is named ``supermemory`` like the 3.x one in the venv (tests/test_sdk_contract.py),
so ``make test`` installs it into ``.venv/sdk5`` and tests/sdk5_driver.py runs it in a
subprocess with ``PYTHONPATH=.venv/sdk5``, pointed at the sandbox on 127.0.0.1, for list
(documents, memories), memory with related (history), namespaces, forget by ids, semantic
forget (dry run), search, profile and add:

(a) every sandbox answer parses into the SDK 5 model of that operation with no missing
    required field, no wrong type (pydantic ``model_validate``), no field the model does
    not declare (checked key by key: Fern models accept extras) and no value outside an
    enum the model lists;
(b) Memscope's v5 client sends the same method, path, query and JSON body as the SDK for
    the same operation (the sandbox records both): the SDK call is built from what
    Memscope's request names (a field the SDK does not take fails it), then the two
    logged requests are compared.

Both halves were seen to fail when a fix is undone (changed locally, run, reverted):

- sandbox: a v5 list memory carrying ``parentMemoryId`` again (the legacy field; the
  SDK's ``Memory`` has none) fails ``test_list_memories_and_documents`` and
  ``test_memory_with_related_history`` ("$.memories[0].parentMemoryId: not a field of
  the SDK's Memory");
- client: the history view's ``include`` sent comma-separated (as the v5 reference writes
  it) instead of repeated (as the SDK sends it) fails
  ``test_load_sends_what_the_sdk_sends`` ("query: SDK [('include', 'related'),
  ('include', 'documents'), …], Memscope [('include', 'related,documents'), …]").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from pydantic import SecretStr
from sandbox_fixture import FAST, running_sandbox

from memscope.sandbox import RequestRecord, Sandbox
from memscope.sources import SupermemoryConfig
from memscope.sources.supermemory_v5 import SupermemoryV5Source

ROOT = Path(__file__).resolve().parent.parent
SDK5 = ROOT / ".venv" / "sdk5"
DRIVER = ROOT / "tests" / "sdk5_driver.py"
NS = "sm_project_personal"


@pytest.fixture
def sandbox(tmp_path) -> Iterator[Sandbox]:
    with running_sandbox(tmp_path, data="fixtures") as sb:
        yield sb


def sdk5(sandbox: Sandbox, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run ``steps`` through the SDK 5.0.1 driver against ``sandbox`` (key via the
    environment only)."""
    if not (SDK5 / "supermemory" / "__init__.py").is_file():
        pytest.fail("The Supermemory SDK 5.0.1 is not installed in .venv/sdk5: run `make test` "
                    "(or `make sdk5`) to install it.")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(SDK5), SUPERMEMORY_API_KEY=sandbox.supermemory_key)
    proc = subprocess.run([sys.executable, str(DRIVER), sandbox.url], input=json.dumps(steps),
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert sandbox.supermemory_key not in proc.stdout + proc.stderr
    return json.loads(proc.stdout)


def call(sandbox: Sandbox, op: str, **args: Any) -> tuple[dict[str, Any], RequestRecord]:
    """One SDK operation: its validated answer and the one request the sandbox received."""
    sandbox.clear_requests()
    (result,) = sdk5(sandbox, [{"op": op, "args": args}])
    assert len(sandbox.requests) == 1, [(r.method, r.target) for r in sandbox.requests]
    return result, sandbox.requests[0]


def exact(result: dict[str, Any], req: RequestRecord) -> dict[str, Any]:
    """The SDK got a 200 that is exactly its model, and it is what the sandbox answered."""
    assert result.get("status") == 200, result
    assert result["problems"] == [], f"{result['model']}: {result['problems']}"
    assert req.status == 200 and req.answer == result["json"]
    return result["json"]


# -- (a) the sandbox's answers are exactly the SDK's models ------------------------------


def test_it_is_the_5_0_1_sdk_that_runs(sandbox: Sandbox) -> None:
    (about,) = sdk5(sandbox, [{"about": True}])
    assert about["version"] == "5.0.1"
    assert Path(about["file"]).resolve().is_relative_to(SDK5.resolve())


def test_namespaces(sandbox: Sandbox) -> None:
    listed = exact(*call(sandbox, "namespaces_list", page=1, limit=10))
    assert {n["namespace"] for n in listed["namespaces"]} >= {NS, "acme_work"}
    one = exact(*call(sandbox, "namespaces_get", namespace=NS))
    assert one["namespace"] == NS
    missing, _ = call(sandbox, "namespaces_get", namespace="nobody_here")
    assert (missing["error"], missing["status"], missing["problems"]) == (
        "NotFoundError", 404, [])


def test_list_memories_and_documents(sandbox: Sandbox) -> None:
    memories = exact(*call(sandbox, "list", namespace=NS, type="memories", page=1, limit=100,
                           sort="createdAt", order="desc", include={"forgotten": True}))
    assert any(m["isForgotten"] for m in memories["memories"])
    assert memories["pagination"]["totalItems"] == len(memories["memories"])
    docs = exact(*call(sandbox, "list", namespace=NS, type="documents", limit=100,
                       include={"content": True, "memory_count": True}))
    assert docs["documents"] and all("memoryCount" in d["system"] for d in docs["documents"])
    chunks = exact(*call(sandbox, "list", namespace=NS, type="chunks", sort="position"))
    assert chunks["chunks"]


def test_memory_with_related_history(sandbox: Sandbox) -> None:
    detail = exact(*call(sandbox, "memory_get", namespace=NS, id="mem_fe_v2",
                         include=["related", "documents"], related_limit=5))
    related = detail["included"]["related"]
    assert related["parents"] and related["children"]  # both item models were validated
    assert related["parents"][0]["document"] and detail["included"]["document"]
    siblings = exact(*call(sandbox, "memory_get", namespace=NS, id="mem_fe_v3",
                           include="related"))
    assert siblings["included"]["related"]["siblings"]
    missing, _ = call(sandbox, "memory_get", namespace=NS, id="mem_nope")
    assert (missing["error"], missing["problems"]) == ("NotFoundError", [])


def test_document_with_chunks_and_memories(sandbox: Sandbox) -> None:
    sandbox.store.add_document("Ferry timetable for the Lisbon weekend.", NS, title="Ferry")
    doc_id = next(d["id"] for d in sandbox.store.list_documents(1, 100)["documents"]
                  if d["title"] == "Ferry")
    doc = exact(*call(sandbox, "document_get", namespace=NS, id=doc_id,
                      include=["chunks", "memories"]))
    assert doc["chunks"] and doc["memories"]


def test_forget_by_ids(sandbox: Sandbox) -> None:
    result = exact(*call(sandbox, "forget", namespace=NS,
                         ids=["mem_run", "mem_nope", "mem_allergy"]))
    assert [m["id"] for m in result["matches"]] == ["mem_run"]
    assert {e["id"] for e in result["errors"]} == {"mem_nope", "mem_allergy"}
    stored = sandbox.store.get_memory("mem_run")
    assert stored is not None and stored["isForgotten"] is True


def test_semantic_forget_dry_run(sandbox: Sandbox) -> None:
    before = sandbox.store.data_version()
    result = exact(*call(sandbox, "forget_semantic", namespace=NS, query="Lisbon trip",
                         dry_run=True))
    assert result["matches"] and result["count"] == len(result["matches"])
    assert sandbox.store.data_version() == before


def test_search(sandbox: Sandbox) -> None:
    sandbox.store.add_document("Ferry timetable for the Lisbon weekend.", NS, title="Ferry")
    found = exact(*call(sandbox, "search", namespace=NS, query="ferry timetable Lisbon",
                        search_mode="hybrid", limit=10,
                        include={"documents": True, "related": True}))
    kinds = {"memory" if "memory" in r else "chunk" for r in found["results"]}
    assert kinds == {"memory", "chunk"}  # both result shapes were validated
    assert all(r["included"]["document"] for r in found["results"])
    related = exact(*call(sandbox, "search", namespace=NS, query="coffee",
                          search_mode="memories", include={"related": True}))
    assert any(r["included"]["related"]["children"] for r in related["results"])


def test_profile(tmp_path) -> None:
    with running_sandbox(tmp_path, data="demo") as sb:
        tag = sb.store.list_spaces()[0]["containerTag"]
        profile = exact(*call(sb, "profile", namespace=tag))["profile"]
        assert profile["static"] and profile["dynamic"]


def test_add_and_document_status(sandbox: Sandbox) -> None:
    sandbox.faults.processing_polls = 1
    added = exact(*call(sandbox, "add", namespace=NS, content="Maya adopted a cat.",
                        metadata={"title": "Cat"}))
    assert added["status"] == "queued"
    steps = [{"op": "document_get", "args": {"namespace": NS, "id": added["id"],
                                             "include": "memories"}}] * 2
    first, done = sdk5(sandbox, steps)
    assert first["problems"] == [] and first["json"]["system"]["status"] == "extracting"
    assert done["problems"] == [] and done["json"]["system"]["status"] == "done"
    assert [m["memory"] for m in done["json"]["memories"]] == ["Maya adopted a cat."]


# -- (b) Memscope sends what the SDK sends -----------------------------------------------

#: the SDK's keyword for a wire name where they differ (Fern snake-cases them)
SNAKE = {"dryRun": "dry_run", "searchMode": "search_mode", "rewriteQuery": "rewrite_query",
         "memoryCount": "memory_count", "relatedLimit": "related_limit",
         "supportingContext": "supporting_context", "taskType": "task_type"}
INTS = ("page", "limit", "relatedLimit")


def _path_parts(req: RequestRecord) -> list[str]:
    return [unquote(p) for p in req.path.split("/")[1:]]


def sdk_args(op: str, req: RequestRecord) -> dict[str, Any]:
    """The SDK call that names what Memscope's request asked for: path parts as the
    positional arguments, each query and body field as the SDK's keyword (a field the SDK
    does not take makes the SDK call fail)."""
    parts = _path_parts(req)
    args: dict[str, Any] = {}
    if parts[0] == "ns" and len(parts) > 1:
        args["namespace"] = parts[1]
    if op == "list":
        args["type"] = parts[3]
    if op in ("memory_get", "document_get"):
        args["id"] = parts[3]
    for key, value in req.query_pairs:
        if key == "include":
            args.setdefault("include", []).extend(v for v in value.split(",") if v)
        else:
            args[SNAKE.get(key, key)] = int(value) if key in INTS else value
    for key, value in (req.body or {}).items():
        if key == "include" and isinstance(value, dict):
            value = {SNAKE.get(k, k): v for k, v in value.items()}
        args[SNAKE.get(key, key)] = value
    return args


def same_request(sandbox: Sandbox, op: str, ours: RequestRecord,
                 model: str) -> dict[str, Any]:
    """Send the SDK's version of ``ours`` and compare the two requests the sandbox logged:
    the same method, path and query (repeated parameters included), every body field the
    SDK sent with the same value, every field the SDK requires, nothing it does not
    declare. Memscope's answer is checked against the SDK's model too. Returns the SDK
    call's arguments."""
    args = sdk_args(op, ours)
    sandbox.clear_requests()
    result, declared, answer = sdk5(sandbox, [
        {"op": op, "args": args}, {"declared": op},
        {"validate": model, "json": ours.answer}])
    assert "error" not in result or result["error"] != "TypeError", result["problems"]
    assert answer["problems"] == [], f"{model} (answer to Memscope): {answer['problems']}"
    (theirs,) = sandbox.requests
    assert (ours.method, ours.path) == (theirs.method, theirs.path)
    assert sorted(ours.query_pairs) == sorted(theirs.query_pairs), (
        f"query: SDK {theirs.query_pairs}, Memscope {ours.query_pairs}")
    assert {k for k, _ in ours.query_pairs} <= set(declared["query"])
    if theirs.body is None:
        assert ours.body in (None, {}), f"Memscope sends a body the SDK does not: {ours.body}"
        return args
    sent = ours.body if isinstance(ours.body, dict) else {}
    for key, value in theirs.body.items():
        assert sent.get(key) == value, f"{key}: SDK {value!r}, Memscope {sent.get(key)!r}"
    missing = set(declared["required"]) - set(sent) - {k for k, _ in ours.query_pairs}
    assert not missing, f"Memscope omits required fields {missing}"
    unknown = set(sent) - set(declared["body"])
    assert not unknown, f"Memscope sends fields the SDK does not declare: {unknown}"
    return args


@pytest.fixture
def ours(sandbox: Sandbox) -> Iterator[SupermemoryV5Source]:
    src = SupermemoryV5Source(SupermemoryConfig(api_key=SecretStr(sandbox.supermemory_key),
                                                base_url=sandbox.url, dialect="v5", **FAST))
    sandbox.clear_requests()
    src.load()
    yield src
    src.close()


def _first(sandbox: Sandbox, method: str, prefix: str, suffix: str = "") -> RequestRecord:
    return next(r for r in sandbox.requests if r.method == method
                and r.path.startswith(prefix) and r.path.endswith(suffix))


def test_load_sends_what_the_sdk_sends(sandbox: Sandbox, ours: SupermemoryV5Source) -> None:
    """Namespaces, both lists and a history view, as the load sent them."""
    loaded = list(sandbox.requests)
    namespaces = _first(sandbox, "GET", "/ns", "/ns")
    documents = _first(sandbox, "POST", f"/ns/{NS}/list/documents")
    memories = _first(sandbox, "POST", f"/ns/{NS}/list/memories")
    view = _first(sandbox, "GET", f"/ns/{NS}/memories/")
    same_request(sandbox, "namespaces_list", namespaces, "NamespaceList")
    same_request(sandbox, "list", documents, "ListResponse")
    args = same_request(sandbox, "list", memories, "ListResponse")
    assert args["include"] == {"forgotten": True}  # a load must see forgotten memories
    args = same_request(sandbox, "memory_get", view, "MemoryDetails")
    assert sorted(args["include"]) == ["documents", "related"]
    assert all(r.status == 200 for r in loaded)


def test_forget_by_ids_sends_what_the_sdk_sends(sandbox: Sandbox,
                                                ours: SupermemoryV5Source) -> None:
    sandbox.clear_requests()
    report = ours.forget_many(["mem_run", "mem_nope"], container_tag=NS)
    assert report.forgotten == ("mem_run",) and set(report.errors) == {"mem_nope"}
    (req,) = sandbox.requests
    args = same_request(sandbox, "forget", req, "ForgetResult")
    assert args == {"namespace": NS, "ids": ["mem_run", "mem_nope"]}


def test_semantic_preview_sends_what_the_sdk_sends(sandbox: Sandbox,
                                                   ours: SupermemoryV5Source) -> None:
    sandbox.clear_requests()
    preview = ours.forget_semantic_preview("Lisbon trip", container_tag=NS)
    assert preview.ids
    (req,) = sandbox.requests
    args = same_request(sandbox, "forget_semantic", req, "ForgetResult")
    assert args == {"namespace": NS, "query": "Lisbon trip", "dry_run": True}


def test_search_sends_what_the_sdk_sends(sandbox: Sandbox, ours: SupermemoryV5Source) -> None:
    sandbox.clear_requests()
    found = ours.search("coffee", container_tag=NS, limit=5)
    assert found.hits
    (req,) = sandbox.requests
    args = same_request(sandbox, "search", req, "SearchResponse")
    assert (args["query"], args["limit"]) == ("coffee", 5)


def test_profile_sends_what_the_sdk_sends(sandbox: Sandbox, ours: SupermemoryV5Source) -> None:
    sandbox.clear_requests()
    profile = ours.profile(NS)
    assert [line.text for line in profile.static]
    (req,) = sandbox.requests
    assert same_request(sandbox, "profile", req, "ProfileResponse")["namespace"] == NS


def test_add_and_status_send_what_the_sdk_sends(sandbox: Sandbox,
                                                ours: SupermemoryV5Source) -> None:
    sandbox.faults.processing_polls = 1
    sandbox.clear_requests()
    added = ours.add("Maya adopted a cat.", container_tag=NS, title="Cat")
    assert added.status == "queued" and added.id
    (req,) = sandbox.requests
    args = same_request(sandbox, "add", req, "DocumentRef")
    assert args == {"namespace": NS, "content": "Maya adopted a cat.",
                    "metadata": {"title": "Cat"}}
    sandbox.clear_requests()
    ours.document_status(added.id)
    (status,) = sandbox.requests
    same_request(sandbox, "document_get", status, "Document")


def test_a_missing_sdk_folder_fails_and_says_to_run_make_test(
        sandbox: Sandbox, tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "SDK5", tmp_path / "no-sdk5")
    with pytest.raises(pytest.fail.Exception, match=r"run `make test`"):
        sdk5(sandbox, [{"about": True}])
