"""The official Supermemory SDK (``supermemory>=3.62,<4``) is the contract.

Both the SDK and Memscope's Supermemory source talk to the sandbox on 127.0.0.1 for
forget, profile, search, add and document status, and the sandbox logs what arrives:

(a) every sandbox answer parses into the SDK's response model (the SDK client validates
    strictly, and the recorded JSON is validated again with ``model_validate``);
(b) Memscope sends the same method, path and JSON body as the SDK for the same operation:
    every field the SDK sent with the same value, every field the SDK's params declare
    required, and nothing the params do not declare (optional fields may be added).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import supermemory
import typing_extensions
from pydantic import BaseModel
from sandbox_fixture import running_sandbox
from sandbox_fixture import supermemory as memscope_client
from supermemory.types import (
    AddResponse,
    ClientAddParams,
    ClientProfileParams,
    DocumentGetResponse,
    MemoryForgetParams,
    MemoryForgetResponse,
    ProfileResponse,
    SearchMemoriesParams,
    SearchMemoriesResponse,
)

from memscope.sandbox import RequestRecord, Sandbox
from memscope.sources import BadRequest, SupermemorySource

SPACE = "sm_project_personal"


@pytest.fixture
def sandbox(tmp_path) -> Iterator[Sandbox]:
    with running_sandbox(tmp_path, data="fixtures") as sb:
        yield sb


@pytest.fixture
def sdk(sandbox: Sandbox) -> Iterator[supermemory.Supermemory]:
    """The official client, validating every answer against its models."""
    client = supermemory.Supermemory(api_key=sandbox.supermemory_key, base_url=sandbox.url,
                                     max_retries=0, _strict_response_validation=True)
    with client:
        yield client


@pytest.fixture
def ours(sandbox: Sandbox) -> Iterator[SupermemorySource]:
    src = memscope_client(sandbox)
    src.load()
    yield src
    src.close()


def _params(params: type) -> dict[str, bool]:
    """``{wire name: required}`` of an SDK params ``TypedDict`` (aliases applied)."""
    out = {}
    for name, hint in typing.get_type_hints(params, include_extras=True).items():
        required = typing.get_origin(hint) in (typing.Required, typing_extensions.Required)
        if required:
            hint = typing.get_args(hint)[0]
        alias = next((m.alias for m in getattr(hint, "__metadata__", ())
                      if getattr(m, "alias", None)), None)
        out[alias or name] = required
    return out


def _one(sandbox: Sandbox, call: Callable[[], Any]) -> tuple[Any, RequestRecord]:
    """Run ``call`` and return its result with the one request the sandbox received."""
    sandbox.clear_requests()
    result = call()
    assert len(sandbox.requests) == 1, [(r.method, r.path) for r in sandbox.requests]
    return result, sandbox.requests[0]


def _same_request(sdk_req: RequestRecord, our_req: RequestRecord,
                  params: type | None) -> None:
    assert (our_req.method, our_req.path, our_req.query) == (
        sdk_req.method, sdk_req.path, sdk_req.query)
    if params is None:
        assert sdk_req.body is None and our_req.body is None
        return
    declared = _params(params)
    sent_by_sdk, sent_by_us = sdk_req.body, our_req.body
    assert isinstance(sent_by_sdk, dict) and isinstance(sent_by_us, dict)
    for key, value in sent_by_sdk.items():
        assert sent_by_us.get(key) == value, f"{key}: SDK {value!r}, Memscope " \
                                             f"{sent_by_us.get(key)!r}"
    missing = {k for k, required in declared.items() if required} - set(sent_by_us)
    assert not missing, f"Memscope omits required fields {missing}"
    unknown = set(sent_by_us) - set(declared)
    assert not unknown, f"Memscope sends fields the SDK does not declare: {unknown}"


def _parses(req: RequestRecord, model: type[BaseModel]) -> None:
    """The JSON the sandbox answered to ``req`` validates as the SDK's ``model``."""
    assert req.status == 200 and req.answer is not None
    model.model_validate(req.answer)


# -- the operations ----------------------------------------------------------------------


def test_forget(sandbox: Sandbox, sdk: supermemory.Supermemory,
                ours: SupermemorySource) -> None:
    target = next(m for m in ours.last_result.dataset.memories.values()  # type: ignore[union-attr]
                  if m.container_tag == SPACE and not m.is_forgotten)
    answer, sdk_req = _one(sandbox, lambda: sdk.memories.forget(
        container_tag=SPACE, id=target.id, reason="outdated"))
    assert isinstance(answer, MemoryForgetResponse)
    assert (answer.id, answer.forgotten) == (target.id, True)
    _parses(sdk_req, MemoryForgetResponse)
    result, our_req = _one(sandbox, lambda: ours.forget(target.id, reason="outdated"))
    _parses(our_req, MemoryForgetResponse)
    assert result.ok and result.container_tag == SPACE
    _same_request(sdk_req, our_req, MemoryForgetParams)
    stored = sandbox.store.get_memory(target.id)
    assert stored is not None and stored["isForgotten"] is True


def test_forget_without_a_known_space_is_refused_as_the_sdk_requires(
        sandbox: Sandbox) -> None:
    assert _params(MemoryForgetParams)["containerTag"] is True  # required by the SDK
    fresh = memscope_client(sandbox)  # nothing loaded: the space is unknown
    sandbox.clear_requests()
    with pytest.raises(BadRequest, match="Nothing was sent"):
        fresh.forget("mem_trip")
    assert sandbox.requests == []


def test_profile(sandbox: Sandbox, sdk: supermemory.Supermemory,
                 ours: SupermemorySource) -> None:
    answer, sdk_req = _one(sandbox, lambda: sdk.profile(container_tag=SPACE))
    assert isinstance(answer, ProfileResponse)
    profile, our_req = _one(sandbox, lambda: ours.profile(SPACE))
    _parses(our_req, ProfileResponse)
    _same_request(sdk_req, our_req, ClientProfileParams)
    assert [line.text for line in profile.static] == answer.profile.static
    assert [line.text for line in profile.dynamic] == answer.profile.dynamic
    # with a query the answer carries search results, in the SDK's shape too
    with_search = sdk.profile(container_tag=SPACE, q="coffee")
    assert with_search.search_results is not None and with_search.search_results.results


def test_search(sandbox: Sandbox, sdk: supermemory.Supermemory,
                ours: SupermemorySource) -> None:
    # a document whose text is also its memory: hybrid search finds a memory and a chunk
    sandbox.store.add_document("Ferry timetable for the Lisbon weekend.", SPACE,
                               title="Ferry")
    answer, sdk_req = _one(sandbox, lambda: sdk.search.memories(
        q="ferry timetable", container_tag=SPACE, search_mode="hybrid", limit=10))
    assert isinstance(answer, SearchMemoriesResponse)
    kinds = {"memory" if r.memory is not None else "chunk" for r in answer.results}
    assert kinds == {"memory", "chunk"}  # both result shapes were validated
    assert any(r.documents for r in answer.results if r.memory is not None)
    found, our_req = _one(sandbox, lambda: ours.search("ferry timetable",
                                                       container_tag=SPACE, limit=10))
    _parses(our_req, SearchMemoriesResponse)
    _same_request(sdk_req, our_req, SearchMemoriesParams)
    assert [h.id for h in found.hits] == [r.id for r in answer.results]
    assert {h.kind for h in found.hits} == kinds
    everywhere, req = _one(sandbox, lambda: sdk.search.memories(q="ferry", limit=5))
    assert isinstance(everywhere, SearchMemoriesResponse) and everywhere.results
    _parses(req, SearchMemoriesResponse)


def test_add_and_document_status(sandbox: Sandbox, sdk: supermemory.Supermemory,
                                 ours: SupermemorySource) -> None:
    sandbox.faults.processing_polls = 2
    text, title = "Maya adopted a cat named Miso.", "Cat"
    added, sdk_req = _one(sandbox, lambda: sdk.add(content=text, container_tag=SPACE,
                                                   metadata={"title": title}))
    assert isinstance(added, AddResponse) and added.status == "queued"
    result, our_req = _one(sandbox, lambda: ours.add(text, container_tag=SPACE, title=title))
    _same_request(sdk_req, our_req, ClientAddParams)
    _parses(our_req, AddResponse)
    assert result.status == "queued" and result.id != added.id

    # each status read moves a document on: extracting, chunking, then done
    first, sdk_get = _one(sandbox, lambda: sdk.documents.get(added.id))
    assert isinstance(first, DocumentGetResponse) and first.status == "extracting"
    second, our_get = _one(sandbox, lambda: ours.document_status(added.id))
    _same_request(sdk_get, our_get, None)
    _parses(our_get, DocumentGetResponse)
    assert second.status == "chunking" and not second.final
    done = sdk.documents.get(added.id)
    assert done.status == "done" and done.memories
    assert [m.memory for m in done.memories] == [text]
    again = ours.document_status(added.id)
    assert again.ok and again.memory_ids == [m.id for m in done.memories]
    assert again.container_tag == SPACE


def test_a_stored_fixture_document_parses_too(sandbox: Sandbox,
                                              sdk: supermemory.Supermemory) -> None:
    for doc_id in ("doc_trip", "doc_stack_1", "doc_empty"):
        doc = sdk.documents.get(doc_id)
        assert isinstance(doc, DocumentGetResponse) and doc.id == doc_id
    with pytest.raises(supermemory.NotFoundError):
        sdk.documents.get("doc_nope")
