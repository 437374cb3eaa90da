"""The Supermemory client against the sandbox over loopback (real sockets, real HTTP)."""

from __future__ import annotations

import time

import pytest
from sandbox_fixture import FEED, feed_pages, max_in_flight, running_sandbox, supermemory

from memscope.records.dataset import from_feed_pages
from memscope.sources import (
    AuthError,
    BadRequest,
    ConfirmationRequired,
    Forbidden,
    MalformedResponse,
    NetworkError,
    NotFound,
    PaymentRequired,
    RateLimited,
    ServerError,
    TimeoutError_,
    merge_history,
)


@pytest.fixture
def sandbox(tmp_path):
    """The sandbox serving the shared fixtures (12 documents: 3 pages of 4)."""
    with running_sandbox(tmp_path, data="fixtures") as sb:
        yield sb


@pytest.fixture
def synthetic(tmp_path):
    """The sandbox serving 45 synthetic documents (9 pages of 5)."""
    with running_sandbox(tmp_path, data="synthetic", documents=45) as sb:
        yield sb


def test_every_page_is_fetched_with_bounded_concurrency(synthetic):
    synthetic.faults.latency_ms = 80
    src = supermemory(synthetic, page_limit=5, concurrency=4, load_profiles=False)
    result = src.load()
    assert sorted(feed_pages(synthetic)) == list(range(1, 10))
    assert feed_pages(synthetic)[0] == 1  # page 1 first: it tells the page count
    assert result.pages_total == 9 and result.pages_fetched == list(range(1, 10))
    assert result.complete and result.missing_pages == []
    assert len(result.dataset.documents) == 45
    assert 2 <= max_in_flight(synthetic) <= 4
    assert result.calls == 9 + 1  # pages + spaces


def test_concurrency_one_is_sequential(synthetic):
    synthetic.faults.latency_ms = 20
    supermemory(synthetic, page_limit=5, concurrency=1, load_profiles=False).load()
    assert max_in_flight(synthetic) == 1


def test_progress_reports_pages_documents_and_memories(synthetic):
    seen = []
    result = supermemory(synthetic, page_limit=5, load_profiles=False).load(progress=seen.append)
    assert [p.pages_done for p in seen] == list(range(1, 10))
    assert {p.pages_total for p in seen} == {9}
    assert seen[0].documents == 5
    docs = [p.documents for p in seen]
    mems = [p.memories for p in seen]
    assert docs == sorted(docs) and mems == sorted(mems)
    assert seen[-1].documents == 45 == len(result.dataset.documents)
    assert seen[-1].memories == result.dataset.memory_count
    assert seen[-1].fraction == 1.0 and all(p.pages_failed == 0 for p in seen)


def test_429_is_retried_honouring_retry_after(sandbox):
    sandbox.faults.update(status_sequence=[429], retry_after="1", only_path=FEED)
    started = time.monotonic()
    result = supermemory(sandbox, page_limit=4).load()
    elapsed = time.monotonic() - started
    assert result.complete
    assert elapsed >= 1.0  # backoff alone would be ≤ 50 ms
    first = sandbox.requests_to(FEED)[:2]
    assert [r.status for r in first] == [429, 200] and first[1].started - first[0].started >= 1


def test_5xx_then_success(sandbox):
    sandbox.faults.update(status_sequence=[503, 502], only_path=FEED)
    result = supermemory(sandbox, page_limit=4).load()
    assert result.complete
    assert [r.status for r in sandbox.requests_to(FEED)][:3] == [503, 502, 200]


def test_5xx_every_time_is_a_server_error_after_four_attempts(sandbox):
    sandbox.faults.update(status_sequence=[503] * 10, only_path=FEED,
                          error_details="database is down")
    with pytest.raises(ServerError) as err:
        supermemory(sandbox, page_limit=4).load()
    assert len(sandbox.requests_to(FEED)) == 4 and err.value.attempts == 4
    assert "503 Service Unavailable: database is down" in str(err.value)


def test_429_every_time_is_rate_limited(sandbox):
    sandbox.faults.update(status_sequence=[429] * 10, only_path=FEED)
    with pytest.raises(RateLimited) as err:
        supermemory(sandbox, page_limit=4, max_attempts=3).load()
    assert len(sandbox.requests_to(FEED)) == 3
    assert "429 Too Many Requests: Rate limit exceeded, retry later" in str(err.value)


def test_retry_after_longer_than_allowed_is_not_waited_for(sandbox):
    sandbox.faults.update(status_sequence=[429], retry_after="3600", only_path=FEED)
    started = time.monotonic()
    with pytest.raises(RateLimited) as err:
        supermemory(sandbox, page_limit=4).load()
    assert time.monotonic() - started < 1 and err.value.retry_after == 3600
    assert "wait 3600 s" in str(err.value)


def test_timeout_is_a_typed_error(sandbox):
    sandbox.faults.update(timeouts=1, hang_s=1.5, only_path=FEED)
    started = time.monotonic()
    with pytest.raises(TimeoutError_) as err:
        supermemory(sandbox, page_limit=4, timeout_s=0.3).load()
    assert time.monotonic() - started < 1.4
    assert str(err.value) == ("Supermemory did not answer within 0.3 s (timeout) while trying "
                              "to load page 1 of the documents — try again, or raise the "
                              "timeout.")


def test_dropped_connection_is_retried(sandbox):
    sandbox.faults.update(drops=2, only_path=FEED)
    result = supermemory(sandbox, page_limit=4).load()
    assert result.complete
    assert [r.fault for r in sandbox.requests_to(FEED)][:3] == ["drop", "drop", None]


def test_connection_dropped_every_time_is_a_network_error(sandbox):
    sandbox.faults.update(drops=10, only_path=FEED)
    with pytest.raises(NetworkError) as err:
        supermemory(sandbox, page_limit=4).load()
    assert len(sandbox.requests_to(FEED)) == 4
    assert "dropped the connection to Supermemory" in str(err.value)


def test_nothing_listening_is_a_network_error(sandbox):
    url = sandbox.url
    sandbox.stop()
    src = supermemory(sandbox, base_url=url, max_attempts=2)
    with pytest.raises(NetworkError, match=r"could not connect to Supermemory at 127\.0\.0\.1"):
        src.load()
    assert src.calls == 0  # refused connections never reached a server


def test_malformed_json_is_a_clear_error(sandbox):
    sandbox.faults.update(malformed=1, only_path=FEED)
    with pytest.raises(MalformedResponse) as err:
        supermemory(sandbox, page_limit=4).load()
    assert str(err.value).startswith("Supermemory sent an answer that is not valid JSON (HTTP "
                                     "200")
    assert "load page 1 of the documents" in str(err.value)


def test_401_message_shows_error_and_details(sandbox):
    src = supermemory(sandbox, api_key="sk-wrong-key")
    with pytest.raises(AuthError) as err:
        src.load()
    assert str(err.value) == ("Supermemory rejected the API key (401 Unauthorized: Invalid or "
                              "missing API key) — re-enter it.")
    assert len(sandbox.requests_to(FEED)) == 1  # never retried


@pytest.mark.parametrize(("status", "kind", "words"), [
    (402, PaymentRequired, "plan's limit is reached (402 Payment Required: Monthly quota "
                           "used)"),
    (403, Forbidden, "does not allow this key for this space or endpoint (403 Forbidden: "
                     "Monthly quota used)"),
    (404, NotFound, "found nothing there (404 Not Found: Monthly quota used)"),
])
def test_4xx_messages_show_error_and_details(sandbox, status, kind, words):
    sandbox.faults.update(status_sequence=[status], error_details="Monthly quota used")
    with pytest.raises(kind) as err:
        supermemory(sandbox).load()
    assert words in str(err.value) and err.value.status == status
    assert err.value.error == {402: "Payment Required", 403: "Forbidden",
                               404: "Not Found"}[status]


def test_404_from_the_service_for_an_unknown_memory(sandbox):
    with pytest.raises(NotFound) as err:
        supermemory(sandbox).forget("mem_nope", container_tag="sm_project_personal")
    assert "(404 Not Found: Memory not found)" in str(err.value)


def test_failing_page_gives_partial_result_then_resume_fetches_only_it(sandbox):
    sandbox.faults.update(fail_pages={2})
    src = supermemory(sandbox, page_limit=4)
    partial = src.load()
    assert partial.missing_pages == [2] and partial.pages_fetched == [1, 3]
    assert "503 Service Unavailable: Page 2 failed" in partial.page_errors[2]
    assert feed_pages(sandbox).count(2) == 4  # every attempt was made
    assert len(partial.dataset.documents) == 8
    assert "Page 2 of 3 could not be fetched — resume" in partial.summary()

    sandbox.faults.reset()
    sandbox.clear_requests()
    done = src.resume(partial)
    assert feed_pages(sandbox) == [2]
    assert len(sandbox.requests) == 1  # no spaces or profiles again
    assert done.complete and done.calls == 1
    full = supermemory(sandbox, page_limit=4).load()
    assert done.dataset.documents == full.dataset.documents
    assert done.dataset.memories == full.dataset.memories
    assert done.dataset.memory_documents == full.dataset.memory_documents
    assert done.dataset.profiles == full.dataset.profiles


def test_resume_keeps_pages_that_still_fail_missing(sandbox):
    sandbox.faults.update(fail_pages={2, 3})
    src = supermemory(sandbox, page_limit=4)
    partial = src.load()
    sandbox.faults.update(fail_pages={3})
    again = src.resume(partial)
    assert again.missing_pages == [3] and again.pages_fetched == [1, 2]


def test_shifting_pagination_yields_no_duplicate_documents(tmp_path):
    with running_sandbox(tmp_path, data="synthetic", documents=25) as sb:
        sb.faults.shift = 2
        result = supermemory(sb, page_limit=5, load_profiles=False).load()
        ids = [d["id"] for docs in result.raw_pages.values() for d in docs]
        assert len(ids) == len(set(ids)) == 25
        assert len(result.dataset.documents) == 25
        assert result.duplicates_dropped == 2
        assert sorted(set(feed_pages(sb))) == [1, 2, 3, 4, 5, 6]  # the feed grew a page
        assert any("changed while loading (25 → 27" in n for n in result.notes)
        assert not result.dataset.report.skipped


def test_feed_without_pagination_is_followed_page_by_page(sandbox):
    sandbox.faults.omit_pagination = True
    seen = []
    result = supermemory(sandbox, page_limit=4).load(progress=seen.append)
    assert feed_pages(sandbox) == [1, 2, 3, 4]  # page 4 comes back empty
    assert len(result.dataset.documents) == 12 and result.complete
    assert [p.pages_done for p in seen] == [1, 2, 3, 4]


def test_spaces_fall_back_to_memory_tags_on_403(sandbox):
    sandbox.faults.spaces_status = 403
    result = supermemory(sandbox, page_limit=4).load()
    tags = {m.container_tag for m in result.dataset.memories.values() if m.container_tag}
    assert {s.container_tag for s in result.dataset.spaces} == tags
    assert any("key may not list spaces" in n and "403 Forbidden" in n for n in result.notes)
    assert "sm_project_personal" in result.dataset.profiles


def test_spaces_listed_when_allowed(sandbox):
    src = supermemory(sandbox, page_limit=4)
    spaces = src.spaces()
    assert [s.container_tag for s in spaces][:2] == ["sm_project_personal", "acme_work"]
    assert spaces[0].name == "Personal"


def test_profile_lines_and_nulls(sandbox):
    profile = supermemory(sandbox).profile("sm_project_personal")
    assert [line.text for line in profile.static][-1] == "<script>alert('profile')</script>"
    assert len(profile.dynamic) == 2
    assert supermemory(sandbox).profile("acme_work").static == []


def test_forget_sends_delete_with_json_body_exactly_once(sandbox):
    src = supermemory(sandbox, page_limit=4)
    src.load()
    result = src.forget("mem_trip", reason="outdated")
    sent = sandbox.requests_to("/v4/memories", "DELETE")
    assert len(sent) == 1
    assert sent[0].body == {"id": "mem_trip", "containerTag": "sm_project_personal",
                            "reason": "outdated"}
    assert sent[0].query == {}
    assert result.ok and result.snapshot and result.container_tag == "sm_project_personal"
    stored = sandbox.store.get_memory("mem_trip")
    assert stored is not None
    assert stored["isForgotten"] and stored["forgetReason"] == "outdated"
    assert src.load().dataset.memories["mem_trip"].is_forgotten


def test_forget_refuses_before_sending_when_the_space_is_unknown(sandbox):
    src = supermemory(sandbox)  # nothing loaded, not limited to one space
    with pytest.raises(BadRequest, match="does not know which space memory mem_trip is in"):
        src.forget("mem_trip", reason="outdated")
    assert sandbox.requests_to("/v4/memories", "DELETE") == []
    assert not sandbox.store.get_memory("mem_trip")["isForgotten"]
    # a source limited to one space names that space
    assert supermemory(sandbox, container_tags=("sm_project_personal",)).forget("mem_trip").ok
    sent = sandbox.requests_to("/v4/memories", "DELETE")
    assert [r.body for r in sent] == [{"id": "mem_trip", "containerTag": "sm_project_personal"}]


def test_the_space_of_a_memory_comes_from_its_document_or_its_space_id():
    from memscope.records.models import SpaceRecord
    from memscope.sources._spaces import space_of_memory

    ds = from_feed_pages([{"documents": [
        {"id": "d1", "containerTags": ["team_a"], "memoryEntries": [
            {"id": "m1", "memory": "no tag of its own"}]},
        {"id": "d2", "memoryEntries": [{"id": "m2", "memory": "by space id",
                                        "spaceId": "sp_b"}]},
        {"id": "d3", "containerTags": ["team_a"], "memoryEntries": [
            {"id": "m3", "memory": "listed under two spaces"}]},
        {"id": "d4", "containerTags": ["team_c"], "memoryEntries": [
            {"id": "m3", "memory": "listed under two spaces"}]},
    ]}])
    ds.spaces = [SpaceRecord(container_tag="team_b", id="sp_b")]
    assert [space_of_memory(ds, m) for m in ("m1", "m2", "m3", "m_unknown")] == [
        "team_a", "team_b", None, None]


def test_history_completes_a_chain_whose_older_versions_were_not_loaded(sandbox):
    sandbox.faults.fail_pages = {3}
    src = supermemory(sandbox, page_limit=4)
    result = src.load()
    assert "mem_fe_v1" not in result.dataset.memories
    chain = src.history("mem_fe_v3")
    assert [m.id for m in chain] == ["mem_fe_v1", "mem_fe_v2", "mem_fe_v3"]
    assert all(m.container_tag == "sm_project_personal" for m in chain)
    added = merge_history(result.dataset, chain)
    assert added == ["mem_fe_v1"]
    assert result.dataset.memory_documents["mem_fe_v1"] == []
    body = sandbox.requests_to("/v4/memories/list")[0].body
    assert body["containerTags"] == ["sm_project_personal"]


def test_history_of_an_unknown_memory_is_not_found(sandbox):
    with pytest.raises(NotFound, match="no history for memory mem_nope"):
        supermemory(sandbox).history("mem_nope", container_tag="sm_project_personal")


def test_search_returns_memory_hits(sandbox):
    found = supermemory(sandbox).search("TypeScript", container_tag="sm_project_personal")
    assert found.hits and found.hits[0].kind == "memory"
    assert found.hits[0].id == "mem_fe_v3" and found.hits[0].record is not None


def test_forget_all_preview_changes_nothing_then_confirm(sandbox):
    src = supermemory(sandbox, page_limit=4)
    src.load()
    before = sandbox.store.dump()["memories"]
    preview = src.forget_all_preview("sm_project_personal")
    assert preview.count > 0 and sandbox.store.dump()["memories"] == before
    assert preview.confirm_words == ("sm_project_personal", str(preview.count))
    assert sandbox.requests_to("/v4/memories/forget-matching")[0].body["dryRun"] is True
    calls = src.calls
    with pytest.raises(ConfirmationRequired):
        src.forget_all(preview, confirm="yes")
    assert src.calls == calls
    done = src.forget_all(preview, confirm=str(preview.count), reason="cleanup")
    assert done.count == preview.count
    assert all(sandbox.store.get_memory(i)["isForgotten"] for i in preview.memory_ids)


def test_load_is_cached_until_refresh(sandbox):
    src = supermemory(sandbox, page_limit=4, load_profiles=False)
    first = src.load()
    calls = src.calls
    assert src.load() is first and src.calls == calls
    assert src.load(refresh=True) is not first and src.calls > calls
