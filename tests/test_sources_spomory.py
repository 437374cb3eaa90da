"""The Spomory client against the sandbox over loopback (real sockets, real HTTP)."""

from __future__ import annotations

import json

import pytest
from conftest import SP
from sandbox_fixture import running_sandbox, spomory

from memscope.records.dataset import Dataset
from memscope.sources import (
    AuthError,
    BadRequest,
    ConfirmationRequired,
    ForgetMismatch,
    MalformedResponse,
    NotFound,
    QuotaExceeded,
    ServerError,
    Unsupported,
)
from memscope.sources.spomory import parse_counts


@pytest.fixture
def sandbox(tmp_path):
    """The sandbox with the shared Spomory passport (5 entities, 5 relations)."""
    with running_sandbox(tmp_path, data="fixtures") as sb:
        yield sb


def _passport() -> dict:
    return json.loads((SP / "passport.json").read_text("utf-8"))


def test_export_is_decoded_twice_into_records(sandbox):
    src = spomory(sandbox)
    result = src.load()
    expected = Dataset()
    expected.add_passport(_passport())
    assert result.dataset.entities == expected.entities
    assert result.dataset.relations == expected.relations
    assert len(result.dataset.entities) == 5 and len(result.dataset.relations) == 5
    assert result.raw_passport is not None
    assert result.raw_passport["@type"] == "memory:MemoryPassport"
    assert result.calls == 1 and result.summary() == "Loaded 5 entities and 5 relations."
    sent = sandbox.requests_to("/v1/export")[0]
    assert sent.query == {"subject_id": "default"} and sent.auth == "x-api-key"


def test_calls_are_counted_and_load_is_cached(sandbox):
    src = spomory(sandbox)
    progress = []
    first = src.load(progress=progress.append)
    assert src.load() is first and src.load() is first
    assert src.calls == 1 == len(sandbox.requests_to("/v1/export"))
    assert progress[-1].pages_done == 1 and progress[-1].memories == 5
    src.load(refresh=True)
    assert src.calls == 2 == sandbox.spomory_calls[sandbox.spomory_key]
    assert "made 2 Spomory calls" in src.calls_note()


def test_retries_count_as_calls(sandbox):
    sandbox.faults.update(status_sequence=[503])
    src = spomory(sandbox)
    src.load()
    assert src.calls == 2


def test_forget_verifies_the_relation_that_disappeared(sandbox):
    src = spomory(sandbox)
    loaded = src.load()
    target = next(r for r in loaded.dataset.relations.values() if r.predicate == "住在")
    result = src.forget(target.id)
    sent = sandbox.requests_to("/v1/memories/forget")
    assert len(sent) == 1 and sent[0].body == {"query": "张三住在北京"}
    assert result.ok and result.removed_ids == [target.id]
    assert result.message == "已忘记：张三住在北京"
    assert "e_bj" in result.removed_entities  # left without relations
    assert src.calls == 3  # export, forget, export to verify
    assert src.last_result is not None
    assert target.id not in src.last_result.dataset.relations
    assert result.load is src.last_result


def test_forget_mismatch_is_reported(sandbox):
    sandbox.faults.spomory_wrong_forget = True
    src = spomory(sandbox)
    loaded = src.load()
    target = next(r for r in loaded.dataset.relations.values() if r.predicate == "住在")
    with pytest.raises(ForgetMismatch) as err:
        src.forget(target.id)
    exc = err.value
    assert exc.expected_id == target.id
    assert exc.removed and exc.removed[0][0] != target.id
    assert str(exc).startswith("Spomory forgot a different fact: you picked “张三住在北京”")
    assert exc.removed[0][1] in str(exc)
    assert not exc.result.ok and target.id in exc.result.load.dataset.relations
    assert src.last_result is exc.result.load  # the UI shows the real state


def test_forget_is_never_retried_and_a_dropped_answer_says_to_check(sandbox):
    src = spomory(sandbox)
    loaded = src.load()
    target = next(iter(loaded.dataset.relations))
    sandbox.faults.update(status_sequence=[503], only_path="/v1/memories/forget")
    with pytest.raises(ServerError) as err:
        src.forget(target)
    assert len(sandbox.requests_to("/v1/memories/forget")) == 1
    assert "may already have deleted something — reload the graph" in str(err.value)


def test_forget_unknown_relation_makes_no_call(sandbox):
    src = spomory(sandbox)
    src.load()
    with pytest.raises(NotFound):
        src.forget("r_nope")
    assert src.calls == 1


def test_forget_all_preview_changes_nothing(sandbox):
    src = spomory(sandbox)
    src.load()
    preview = src.forget_all_preview()
    assert preview.message.startswith("这将永久删除整个记忆图谱：5 个实体、5 条关系")
    assert (preview.entity_count, preview.count) == (5, 5)
    assert preview.confirm_words == ("5",)
    sent = sandbox.requests_to("/v1/memories/forget-all")[0]
    assert sent.query == {"confirm": "false"}
    again = src.load(refresh=True)
    assert len(again.dataset.relations) == 5 and len(sandbox.spomory.relations) == 5


def test_forget_all_needs_the_typed_count(sandbox):
    src = spomory(sandbox)
    src.load()
    preview = src.forget_all_preview()
    calls = src.calls
    with pytest.raises(ConfirmationRequired, match="type '5' to confirm"):
        src.forget_all(preview, confirm="yes")
    assert src.calls == calls and len(sandbox.spomory.relations) == 5
    done = src.forget_all(preview, confirm="5")
    assert done.message == "已清空整个记忆图谱：删除了 5 个实体、5 条关系"
    assert (done.entity_count, done.count) == (5, 5)
    assert src.last_result is not None
    assert not sandbox.spomory.relations and not src.last_result.dataset.relations
    assert src.calls == calls + 1


def test_search_context_and_nothing_found(sandbox):
    src = spomory(sandbox)
    found = src.search("张三 北京")
    assert found.hits[0].kind == "context" and "张三住在北京" in found.hits[0].text
    nothing = src.search("zzzz")
    assert nothing.hits == [] and nothing.message == "没有找到相关记忆。"
    assert sandbox.requests_to("/v1/memories/search")[0].query == {"query": "张三 北京",
                                                                  "top_k": "10"}


def test_graph_is_called_only_on_request(sandbox):
    src = spomory(sandbox)
    src.load()
    assert sandbox.requests_to("/v1/graph") == []
    around = src.neighbourhood("Zhang San")
    assert "e_zs" in around.entities and around.relations
    assert src.neighbourhood("nobody").entities == {}
    assert len(sandbox.requests_to("/v1/graph")) == 2


def test_quota_exceeded_is_not_retried(tmp_path):
    with running_sandbox(tmp_path, spomory_quota=1) as sb:
        src = spomory(sb)
        src.load()
        with pytest.raises(QuotaExceeded) as err:
            src.load(refresh=True)
        assert "lifetime call quota is used up (429 Too Many Requests: API key quota " \
               "exceeded)" in str(err.value)
        assert len(sb.requests_to("/v1/export")) == 2


def test_bad_key_and_validation_messages(sandbox):
    with pytest.raises(AuthError, match=r"\(401 Unauthorized: invalid or revoked API key\)"):
        spomory(sandbox, api_key="sp-wrong").load()
    with pytest.raises(BadRequest, match=r"\(422 Unprocessable Entity: query.query: Field "
                                         r"required\)"):
        spomory(sandbox).search("")


def test_export_that_is_not_a_passport_is_malformed(sandbox):
    sandbox.faults.spomory_bad_export = True
    with pytest.raises(MalformedResponse, match="not a memory passport"):
        spomory(sandbox).load()


def test_capabilities_say_why(sandbox):
    src = spomory(sandbox)
    assert src.capabilities.can("forget") and not src.capabilities.can("history")
    with pytest.raises(Unsupported, match="no version history"):
        src.history("r1")
    assert "no spaces" in (src.capabilities.reason("spaces") or "")


def test_remember_adds_facts(sandbox):
    src = spomory(sandbox)
    said = src.remember("李四住在上海。")
    assert said == "新增实体 2 个，合并已有实体 0 个，新增关系 1 条"
    assert len(src.load().dataset.relations) == 6


def test_parse_counts():
    assert parse_counts("已清空整个记忆图谱：删除了 5 个实体、12 条关系") == (5, 12)
    assert parse_counts("记忆图谱是空的，没有可以忘记的内容。") is None
