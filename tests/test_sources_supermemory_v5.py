"""The Supermemory v5 client against the sandbox over loopback (real sockets, real HTTP):
every page, forgotten memories, chains from the history views with the request count
checked, retries, the dialect-mismatch sentence both ways, forget by ids with the per-id
report, the semantic dry run, add and status, profiles, spaces with counts, and the key
kept out of URLs and logs."""

from __future__ import annotations

import logging
from collections import Counter
from datetime import date

import pytest
from sandbox_fixture import FAST, running_sandbox, supermemory, supermemory_v5

from memscope.sources import (
    AuthError,
    ConfirmationRequired,
    DialectMismatch,
    LoadProgress,
    NotFound,
    SupermemoryConfig,
    SupermemorySource,
    SupermemoryV5Source,
    dialects,
    supermemory_source,
    wait_until_processed,
)

NS = "sm_project_personal"
FIELDS = ("memory", "version", "is_latest", "is_forgotten", "is_static", "is_inference",
          "parent_id", "root_id", "container_tag", "space_id", "created_at")


def _fields(mem) -> list:
    """What both dialects must agree on for a memory (no relations and {} are the same)."""
    return [getattr(mem, f) for f in FIELDS] + [mem.relations or {}]


@pytest.fixture
def sandbox(tmp_path):
    """The sandbox serving the shared fixtures."""
    with running_sandbox(tmp_path, data="fixtures") as sb:
        yield sb


@pytest.fixture
def demo(tmp_path):
    """The sandbox serving the app's demo data (chains of 1–5 versions, 3 spaces)."""
    with running_sandbox(tmp_path, data="demo") as sb:
        yield sb


def _views(sb) -> list:
    """History-view requests the sandbox received (``GET /ns/{ns}/memories/{id}``)."""
    return [r for r in sb.requests if r.method == "GET" and r.path.startswith("/ns/")
            and "/memories/" in r.path]


def _chains(ds) -> dict[str, list[str]]:
    """Legacy records: chain root -> member ids."""
    out: dict[str, list[str]] = {}
    for mem in ds.memories.values():
        out.setdefault(mem.root_id or mem.id, []).append(mem.id)
    return out


def test_load_reads_every_page_of_every_namespace_forgotten_included(demo):
    seen: list[LoadProgress] = []
    src = supermemory_v5(demo, page_limit=20)
    result = src.load(progress=seen.append)
    legacy = supermemory(demo).load().dataset
    ds = result.dataset
    assert set(ds.memories) == set(legacy.memories)
    assert set(ds.documents) == set(legacy.documents)
    forgotten = {i for i, m in legacy.memories.items() if m.is_forgotten}
    assert forgotten and {i for i, m in ds.memories.items() if m.is_forgotten} == forgotten
    lists = [r for r in demo.requests if "/list/" in r.path]
    for r in lists:
        assert r.method == "POST" and r.query["limit"] == "20"
        assert r.body == ({"include": {"forgotten": True}} if r.path.endswith("/memories")
                          else {})
    pages = Counter(r.path for r in lists)
    assert max(pages.values()) > 1  # paging was exercised
    for path, n in pages.items():
        assert sorted(int(r.query["page"]) for r in lists if r.path == path) == \
            list(range(1, n + 1))
    # progress: "pages n of N" over the list pages, then "histories n of N" over the views
    assert seen and all(p.pages_total and p.pages_done <= p.pages_total for p in seen)
    units = [p.unit for p in seen]
    first = units.index("histories")
    assert set(units[:first]) == {"pages"} and set(units[first:]) == {"histories"}
    assert seen[first - 1].pages_done == seen[first - 1].pages_total == len(lists)
    assert seen[first - 1].words == f"pages {len(lists)} of {len(lists)}"
    assert seen[-1].pages_done == seen[-1].pages_total == src.last_views
    assert seen[-1].words == f"histories {src.last_views:,} of {src.last_views:,}"
    assert seen[-1].memories == len(legacy.memories)


def test_a_list_page_that_keeps_failing_is_named_and_a_reload_completes(demo):
    src = supermemory_v5(demo, page_limit=20)
    demo.faults.update(fail_pages={2})
    partial = src.load()
    lists = {r.path for r in demo.requests if "/list/" in r.path and r.query["page"] == "2"}
    assert lists and len(partial.missing_pages) == len(lists)
    assert all("503 Service Unavailable: Page 2 failed" in partial.page_errors[n]
               for n in partial.missing_pages)
    assert partial.notes and not partial.complete
    assert len(partial.dataset.memories) < len(supermemory(demo).load().dataset.memories)
    demo.faults.update(fail_pages=set())
    whole = src.resume(partial)
    assert whole.complete
    assert set(whole.dataset.memories) == set(supermemory(demo).load().dataset.memories)


def test_pages_without_a_page_count_are_followed_while_full(sandbox):
    sandbox.faults.omit_pagination = True
    ds = supermemory_v5(sandbox, page_limit=3).load().dataset
    sandbox.faults.omit_pagination = False
    assert set(ds.memories) == set(supermemory_v5(sandbox).load().dataset.memories)


def test_one_store_gives_the_legacy_records(demo):
    legacy = supermemory(demo).load().dataset
    ds = supermemory_v5(demo).load().dataset
    for mem_id, old in legacy.memories.items():
        new = ds.memories[mem_id]
        assert _fields(new) == _fields(old), mem_id
        docs = ds.memory_documents.get(mem_id, [])
        # the history view names one source document: the first of the legacy ones
        assert docs == legacy.memory_documents.get(mem_id, [])[:1], mem_id


def test_history_views_reuse_what_related_told(demo):
    legacy = supermemory(demo).load().dataset
    # the default adaptive pool (it grows to 32 in flight): which views the plan makes
    # does not depend on how many run at once
    src = supermemory_v5(demo)
    result = src.load()
    views = [r.path.rsplit("/", 1)[1] for r in _views(demo)]
    assert len(views) == len(set(views)) == src.last_views  # no memory viewed twice
    assert len(views) < len(legacy.memories)
    viewed = set(views)
    for members in _chains(legacy).values():
        if len(members) < 2:
            continue
        forgotten = sum(legacy.memories[m].is_forgotten for m in members)
        heads = sum(legacy.memories[m].is_latest for m in members)  # one per branch
        # one view reaches three versions either way: a chain of up to four costs one,
        # a longer one two (plus a view per forgotten version: related lists skip them)
        allowed = heads + (len(members) > 4) + forgotten
        assert len(viewed & set(members)) <= allowed, members
    assert result.calls == len(views) + len([r for r in demo.requests
                                             if not r.path.startswith("/v")
                                             and r not in _views(demo)])
    for r in _views(demo):
        assert r.query_pairs == [("include", "related"), ("include", "documents"),
                                 ("relatedLimit", "50")]


def test_history_views_run_on_a_bounded_pool(demo):
    demo.faults.latency_ms = 20
    # the pool starts at history_concurrency and may grow up to the ceiling (issue 33)
    supermemory_v5(demo, history_concurrency=3, concurrency=3, concurrency_ceiling=3).load()
    spans = sorted([(r.started, 1) for r in _views(demo)]
                   + [(r.finished, -1) for r in _views(demo)])
    best = now = 0
    for _, step in spans:
        now += step
        best = max(best, now)
    assert 1 < best <= 3


@pytest.mark.parametrize("faults", [
    {"status_sequence": [429, 429], "retry_after": "2"},
    {"status_sequence": [500, 502, 503]},
    {"drops": 2},
], ids=["429", "5xx", "drop"])
def test_history_views_are_retried(sandbox, faults):
    clean = supermemory_v5(sandbox).load().dataset
    sandbox.requests.clear()
    slept: list[float] = []
    sandbox.faults.update(only_path=f"/ns/{NS}/memories/", **faults)
    src = SupermemoryV5Source(SupermemoryConfig(api_key=sandbox.supermemory_key,
                                                base_url=sandbox.url, backoff_base_s=0.01,
                                                backoff_max_s=0.05, timeout_s=2.0),
                              sleep=slept.append)
    ds = src.load().dataset
    assert {i: _fields(m) for i, m in ds.memories.items()} == \
        {i: _fields(m) for i, m in clean.memories.items()}
    assert ds.memory_documents == clean.memory_documents
    hit = [r for r in _views(sandbox) if r.fault]
    assert len(hit) == len(faults.get("status_sequence", [])) or faults.get("drops") == 2
    if "retry_after" in faults:
        assert sum(1 for s in slept if s >= 2) >= 2  # Retry-After: 2 was honoured


def test_a_404_on_the_first_route_names_the_other_dialect(sandbox, monkeypatch):
    monkeypatch.setattr(dialects, "today_utc", lambda: date(2026, 12, 5))
    sandbox.faults.v5_missing = True
    with pytest.raises(DialectMismatch) as err:
        supermemory_v5(sandbox).load()
    assert str(err.value) == (
        "This service does not answer Supermemory's current API (v5) routes (404 on GET "
        "/ns); choose 'legacy API (v3/v4)' or 'Automatic' on the Connection page.")
    assert supermemory(sandbox).load().dataset.memories  # the legacy API still answers
    sandbox.faults.update(v5_missing=False, legacy_missing=True)
    with pytest.raises(DialectMismatch) as err:
        supermemory(sandbox).load()
    assert str(err.value) == (
        "This service does not answer Supermemory's legacy API (v3/v4) routes (404 on POST "
        "/v3/documents/documents); choose 'current API (v5)' or 'Automatic' on the "
        "Connection page.")
    assert supermemory_v5(sandbox).load().dataset.memories


def test_from_1_january_2027_a_legacy_404_says_the_api_was_retired(sandbox, monkeypatch):
    sandbox.faults.legacy_missing = True
    monkeypatch.setattr(dialects, "today_utc", lambda: date(2026, 12, 31))
    with pytest.raises(DialectMismatch, match="does not answer Supermemory's legacy API"):
        supermemory(sandbox).load()
    monkeypatch.setattr(dialects, "today_utc", lambda: date(2027, 1, 1))
    with pytest.raises(DialectMismatch) as err:
        supermemory(sandbox).load()
    assert str(err.value) == (
        "Supermemory retired its legacy API (v3/v4) on 31 December 2026 (404 on POST "
        "/v3/documents/documents): connect with its current API (v5) — choose 'current API "
        "(v5)' or 'Automatic' on the Connection page.")


def test_auto_asks_v5_first_and_falls_back_to_legacy_only_on_a_404(sandbox):
    cfg = {"api_key": sandbox.supermemory_key, "base_url": sandbox.url, **FAST}
    assert SupermemoryConfig(**cfg).dialect == "auto"  # naming no dialect is auto
    src = supermemory_source(SupermemoryConfig(**cfg))
    probes = [r for r in sandbox.requests if r.path == "/ns"]
    assert isinstance(src, SupermemoryV5Source) and src.auto
    assert [(r.status, r.query) for r in probes] == [(200, {"page": "1", "limit": "1"})]
    truth = src.load().dataset

    sandbox.faults.v5_missing = True
    legacy = supermemory_source(SupermemoryConfig(**cfg))
    assert type(legacy) is SupermemorySource and legacy.auto
    before = len(sandbox.requests)
    assert legacy.answers_v5() is False  # known from the probe: no second request
    assert len(sandbox.requests) == before
    assert legacy.load().dataset.memories.keys() == truth.memories.keys()

    sandbox.faults.legacy_missing = True  # neither API: a wrong base URL, most likely
    with pytest.raises(DialectMismatch, match=r"answers neither .* check the base URL"):
        supermemory_source(SupermemoryConfig(**cfg)).load()


def test_auto_raises_what_is_not_a_missing_route(sandbox):
    cfg = {"api_key": "sm_wrong_key", "base_url": sandbox.url, **FAST}
    with pytest.raises(AuthError):
        supermemory_source(SupermemoryConfig(**cfg))
    sandbox.faults.update(status_sequence=[404], error_details="Monthly quota used")
    cfg["api_key"] = sandbox.supermemory_key
    with pytest.raises(NotFound, match="Monthly quota used"):
        supermemory_source(SupermemoryConfig(**cfg))


def test_a_legacy_connection_asks_once_whether_the_account_answers_v5(sandbox):
    legacy = supermemory(sandbox)
    assert legacy.answers_v5() is True and legacy.answers_v5() is True
    assert len([r for r in sandbox.requests if r.path == "/ns"]) == 1
    sandbox.faults.v5_missing = True
    assert supermemory(sandbox).answers_v5() is False
    words = dialects.retirement_sentence(True, date(2026, 12, 5))
    assert "31 December 2026" in words and "already answers the current API (v5)" in words
    words = dialects.retirement_sentence(False, date(2027, 1, 2))
    assert words.startswith("Supermemory retired its legacy API (v3/v4) on 31 December 2026")
    assert "does not answer the current API (v5) yet" in words


def test_a_404_with_the_service_s_own_reason_stays_not_found(sandbox):
    sandbox.faults.update(status_sequence=[404], error_details="Monthly quota used")
    with pytest.raises(NotFound) as err:
        supermemory_v5(sandbox).load()
    assert not isinstance(err.value, DialectMismatch)
    assert "Monthly quota used" in str(err.value)


def test_forget_many_reports_per_id(sandbox):
    src = supermemory_v5(sandbox)
    ds = src.load().dataset
    live = [m.id for m in ds.memories.values() if m.container_tag == NS
            and not m.is_forgotten][:2]
    gone = next(m.id for m in ds.memories.values() if m.container_tag == NS
                and m.is_forgotten)
    sandbox.requests.clear()
    report = src.forget_many([*live, gone, "mem_nope"], reason="tidy up")
    assert report.requested == (*live, gone, "mem_nope")
    assert report.forgotten == tuple(live)
    assert report.errors[gone] == "Memory is already forgotten"
    # mem_nope is in no loaded space: nothing is sent for it, and the report says so
    assert "does not know which space" in report.errors["mem_nope"]
    assert report.note and "no reason" in report.note
    deletes = [r for r in sandbox.requests if r.method == "DELETE"]
    assert [(r.path, r.body) for r in deletes] == [(f"/ns/{NS}/memories",
                                                    {"ids": [*live, gone]})]
    # the source's own last load is a new, patched one; the loaded one (shared) is unchanged
    assert src.last_result is not None
    assert all(src.last_result.dataset.memories[i].is_forgotten for i in live)
    assert not any(ds.memories[i].is_forgotten for i in live)
    again = supermemory_v5(sandbox).load().dataset
    assert all(again.memories[i].is_forgotten for i in live)


def test_forget_many_sends_at_most_500_ids_a_request(sandbox):
    ids = [f"mem_x{i}" for i in range(510)]
    report = supermemory_v5(sandbox, timeout_s=60).forget_many(ids, container_tag=NS)
    deletes = [r for r in sandbox.requests if r.method == "DELETE"]
    assert [len(r.body["ids"]) for r in deletes] == [500, 10]
    assert report.forgotten == () and set(report.errors) == set(ids)
    assert report.errors["mem_x0"] == f"Memory not found in namespace {NS}"


def test_forget_one_carries_the_report(sandbox):
    src = supermemory_v5(sandbox)
    ds = src.load().dataset
    target = next(m for m in ds.memories.values() if m.container_tag == NS
                  and not m.is_forgotten)
    result = src.forget(target.id)
    assert result.ok and result.report is not None
    assert result.report.forgotten == (target.id,)
    assert result.message == f"Supermemory forgot memory {target.id}."
    twice = src.forget(target.id)
    assert not twice.ok
    assert twice.message == (f"Supermemory did not forget memory {target.id}: Memory is "
                             "already forgotten.")


def test_forget_all_forgets_the_previewed_ids_after_confirmation(sandbox):
    src = supermemory_v5(sandbox)
    preview = src.forget_all_preview(NS)
    ds = src.last_result.dataset if src.last_result else None
    assert ds is not None
    live = {m.id for m in ds.memories.values() if m.container_tag == NS
            and not m.is_forgotten}
    assert set(preview.memory_ids) == live and preview.count == len(live)
    before = len(sandbox.requests)
    with pytest.raises(ConfirmationRequired):
        src.forget_all(preview, confirm="yes")
    assert len(sandbox.requests) == before  # nothing was sent
    done = src.forget_all(preview, confirm=NS)
    assert set(done.memory_ids) == live and done.count == len(live)
    assert done.report is not None and not done.report.errors


def test_semantic_preview_is_a_dry_run_and_deletes_nothing(sandbox):
    src = supermemory_v5(sandbox)
    ds = src.load().dataset
    word = next(m.memory.split()[-1].strip(".") for m in ds.memories.values()
                if m.container_tag == NS and not m.is_forgotten)
    sandbox.requests.clear()
    preview = src.forget_semantic_preview(word, container_tag=NS)
    sent = [r for r in sandbox.requests if r.method == "DELETE"]
    assert [(r.path, r.body) for r in sent] == [
        (f"/ns/{NS}/memories/semantic", {"query": word, "dryRun": True})]
    assert preview.ids and set(preview.ids) <= set(ds.memories)
    assert all(preview.texts[i] == ds.memories[i].memory for i in preview.ids)
    again = supermemory_v5(sandbox).load().dataset
    assert not any(again.memories[i].is_forgotten for i in preview.ids)


def test_add_then_status_until_done(sandbox):
    sandbox.faults.processing_polls = 2
    src = supermemory_v5(sandbox)
    added = src.add("Maya adopted a cat named Pixel.", container_tag=NS, title="Pets")
    post = [r for r in sandbox.requests if r.method == "POST" and r.path.endswith("/document")]
    assert [(r.path, r.body) for r in post] == [
        (f"/ns/{NS}/document", {"content": "Maya adopted a cat named Pixel.",
                                "metadata": {"title": "Pets"}})]
    assert added.id and not added.final and added.container_tag == NS
    seen: list[str] = []
    final = wait_until_processed(src, added.id, timeout_s=30, sleep=lambda _s: None,
                                 on_status=lambda r: seen.append(r.status))
    assert final.status == "done" and final.memory_ids
    assert len(seen) >= 2 and seen[-1] == "done"
    gets = [r for r in sandbox.requests if r.path == f"/ns/{NS}/document/{added.id}"]
    assert all(r.query_pairs == [("include", "memories")] for r in gets)


def test_profile_lines_name_their_memories(demo):
    src = supermemory_v5(demo)
    ds = src.load().dataset
    lines = [line for p in ds.profiles.values() for line in (*p.static, *p.dynamic)]
    cited = {m for line in lines for m in line.memory_ids}
    assert cited and cited <= set(ds.memories)
    # a line names its one memory; an aggregated line (a summary of several) names none
    assert all(len(line.memory_ids) <= 1 for line in lines)
    sent = [r for r in demo.requests if r.path.endswith("/profile")]
    assert sent and all(r.method == "POST" and r.body == {} for r in sent)


def test_spaces_come_with_their_counts(demo):
    src = supermemory_v5(demo)
    ds = src.load().dataset
    spaces = {s.container_tag: s for s in src.spaces()}
    assert set(spaces) == {m.container_tag for m in ds.memories.values()}
    for tag, space in spaces.items():
        current = [m for m in ds.memories.values() if m.container_tag == tag
                   and m.is_latest and not m.is_forgotten]
        docs = {d for m in ds.memories.values() if m.container_tag == tag
                for d in ds.memory_documents.get(m.id, [])}
        assert space.memory_count == len(current)
        assert space.document_count == len(docs)
    assert {s.container_tag: s.memory_count for s in ds.spaces} == \
        {t: s.memory_count for t, s in spaces.items()}


def test_search_and_history(demo):
    src = supermemory_v5(demo)
    ds = src.load().dataset
    latest = next(m for m in ds.memories.values() if m.is_latest and m.parent_id
                  and m.container_tag == NS)
    chain = src.history(latest.id)
    assert chain[-1].id == latest.id and chain[-2].id == latest.parent_id
    assert [m.version for m in chain] == sorted(m.version for m in chain)
    word = latest.memory.split()[0]
    found = src.search(word, container_tag=NS, limit=5)
    assert found.hits and len(found.hits) <= 5
    sent = [r for r in demo.requests if r.path == f"/ns/{NS}/search"]
    assert sent[-1].body == {"query": word, "searchMode": "hybrid", "limit": 5,
                             "include": {"documents": True}}
    memory_hits = [h for h in found.hits if h.kind == "memory"]
    assert memory_hits and all(h.id in ds.memories for h in memory_hits)
    assert any(h.document_ids for h in memory_hits)


def test_what_v5_cannot_do_says_why(sandbox):
    caps = SupermemoryV5Source.capabilities
    assert caps.can("forget_many") and caps.can("semantic_forget") and caps.can("history")
    assert caps.reason("restore") == ("Supermemory's current API (v5) has no route to "
                                      "restore a forgotten memory.")
    assert SupermemorySource.capabilities.can("forget_many")
    assert not SupermemorySource.capabilities.can("semantic_forget")
    cfg = {"api_key": sandbox.supermemory_key, "base_url": sandbox.url}
    assert isinstance(supermemory_source(SupermemoryConfig(**cfg)), SupermemoryV5Source)
    assert type(supermemory_source(SupermemoryConfig(**cfg, dialect="legacy"))) is \
        SupermemorySource


def test_the_key_never_reaches_a_url_or_a_log(sandbox, caplog):
    caplog.set_level(logging.DEBUG)
    src = supermemory_v5(sandbox)
    src.load()
    src.search("cat", container_tag=NS)
    src.forget_semantic_preview("cat", container_tag=NS)
    key = sandbox.supermemory_key
    assert sandbox.requests and all(key not in r.target for r in sandbox.requests)
    assert all(r.auth == "bearer" for r in sandbox.requests)
    assert key not in caplog.text
    assert key not in repr(src) + src.label + repr(src.cache_key()) + src.identity()
    assert key not in repr(src.config)


def test_configured_connections_name_their_dialect(monkeypatch):
    from components.state import connection

    monkeypatch.setenv("MEMSCOPE_SOURCE", "supermemory")
    monkeypatch.setenv("MEMSCOPE_API_KEY", "sm_test_key")
    monkeypatch.delenv(connection.DIALECT_ENV, raising=False)
    assert connection.configured_connection().dialect == "auto"  # none named: auto
    monkeypatch.setenv(connection.DIALECT_ENV, "v5")
    conn = connection.configured_connection()
    assert conn.dialect == "v5" and conn.label == "Supermemory — current API (v5)"
    monkeypatch.setenv(connection.DIALECT_ENV, "v6")
    assert connection.configured_connection().dialect == "unknown"


def test_the_connection_page_offers_both_dialects_and_names_the_other(fresh_data_dir,
                                                                       tmp_path):
    from apptest_support import run_page

    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sb:
        sb.faults.v5_missing = True
        at = run_page("connection.py")
        # the embedded store's form has no dialect (issue 32: Supermemory's choice shows
        # only for Supermemory)
        assert not [r for r in at.radio if r.key == "conn_dialect"]
        at.radio(key="conn_kind").set_value("supermemory").run()
        dialect = at.radio(key="conn_dialect")
        assert dialect.value == "auto"  # a new connection asks v5 first
        assert list(dialect.options) == [
            "Automatic: the current API (v5), or the legacy one where only that answers",
            "Current API (v5)", "Legacy API (v3/v4) — shut down on 31 December 2026"]

        def connect(choice: str) -> None:
            at.radio(key="conn_kind").set_value("supermemory").run()  # redraws the fields
            at.radio(key="conn_dialect").set_value(choice)
            at.text_input(key="conn_base_url").input(sb.url)
            next(t for t in at.text_input if t.label == "API key").input(sb.supermemory_key)
            next(b for b in at.button if b.label == "Connect").click()
            at.run()
            assert not at.exception, at.exception

        connect("v5")
        shown = " ".join(e.value for e in at.error).replace("\\", "")  # markdown-escaped
        assert ("This service does not answer Supermemory's current API (v5) routes (404 on "
                "GET /ns); choose 'legacy API (v3/v4)' or 'Automatic' on the Connection "
                "page.") in shown
        connect("auto")  # v5 answers 404: the legacy API, said so with its shutdown date
        assert at.session_state["connection"].dialect == "auto"
        assert not at.error
        said = " ".join(w.value for w in at.sidebar.warning).replace("\\", "")
        assert "shuts its legacy API (v3/v4) down on 31 December 2026" in said or \
            "retired its legacy API (v3/v4) on 31 December 2026" in said
        assert "does not answer the current API (v5) yet" in said
        assert any("legacy API (v3/v4), chosen automatically" in c.value.replace("\\", "")
                   for c in at.sidebar.caption)
        connect("legacy")
        assert at.session_state["connection"].dialect == "legacy"
        assert not [e for e in at.error if "v3/v4" in e.value]
        sb.faults.v5_missing = False
        connect("v5")
        picker = at.selectbox(key="space_pick")
        counts = {s.container_tag: s for s in supermemory_v5(sb).spaces()}
        personal = counts[NS]
        assert f"{NS} ({personal.document_count} documents, {personal.memory_count} " \
               "memories)" in list(picker.options)
