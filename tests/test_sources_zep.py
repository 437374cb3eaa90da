"""``zep-cloud`` 4.0.1's ``Zep`` client is the contract of the Zep source and sandbox.

The SDK is installed in the project's environment, so it runs in this process, pointed at
the sandbox's Zep API on 127.0.0.1 (``base_url``), while a guard refuses every connection
or name look-up beyond loopback (and a probe shows that it does):

(a) the SDK parses every answer the sandbox gives into its own models (``GraphPage``,
    ``UserPage``, ``EpisodePage``, ``NodePage``, ``EdgePage``, ``AsyncResult``), across
    several pages by ``next_cursor``;
(b) Memscope's source sends the same method, path, query, JSON body and the headers that
    matter (``Authorization: Api-Key …``, ``content-type``, an ``Idempotency-Key``) as the
    SDK for every operation they share — both logged by the sandbox and compared;
(c) Memscope reads the account as Graphiti's model: a contradicted fact is a two-version
    chain, a fact with one clock keeps it, an episode links every fact it produced, a fact
    from two episodes has two sources;
(d) 429 with ``Retry-After`` and 5xx are retried; a bad key, a bad URL and a service that
    keeps failing each give one sentence, never the key.

(b) was seen to fail when a detail is changed (locally, run, reverted): Memscope's search
sending ``{"query", "limit"}`` instead of the SDK's ``{"query"}`` fails
``test_memscope_sends_what_the_sdk_sends`` at the search request.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import SecretStr
from sandbox_fixture import FAST, running_sandbox
from zep_cloud import AsyncResult, Edge, Episode, Graph, Node, User
from zep_cloud.client import Zep

from memscope.app import Connection, Settings, configured_connection, open_source
from memscope.graph.analysis import analyse
from memscope.sandbox import RequestRecord, Sandbox
from memscope.sandbox.zep_api import PREFIX, small_account
from memscope.sources import AuthError, NetworkError, ServerError, SourceError
from memscope.sources.zep import ZepConfig, ZepSource

#: the headers whose values must match the SDK's (the key itself is masked by the sandbox)
SAME_HEADERS = ("authorization", "content-type")


def _loopback(host: Any) -> bool:
    try:
        return ipaddress.ip_address(str(host)).is_loopback
    except ValueError:
        return str(host) == "localhost"


@pytest.fixture(autouse=True)
def no_socket_beyond_loopback(monkeypatch) -> Iterator[list[str]]:
    """Refuse (and list) every connection or look-up beyond 127.0.0.1 / ::1."""
    outside: list[str] = []
    connect, lookup = socket.socket.connect, socket.getaddrinfo

    def checked(sock: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else address
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _loopback(host):
            outside.append(str(host))
            raise OSError(f"test guard: no connection to {host}")
        return connect(sock, address)

    def checked_lookup(host: Any, *args: Any, **kwargs: Any) -> Any:
        if host is not None and not _loopback(host):
            outside.append(str(host))
            raise socket.gaierror(f"test guard: no look-up of {host}")
        return lookup(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", checked)
    monkeypatch.setattr(socket, "getaddrinfo", checked_lookup)
    yield outside
    assert [h for h in outside if h not in ("10.255.255.1", "api.getzep.com")] == []


@pytest.fixture
def sandbox(tmp_path) -> Iterator[Sandbox]:
    with running_sandbox(tmp_path / "sb", data="synthetic", documents=2) as sb:
        yield sb


def sdk(sb: Sandbox) -> Zep:
    return Zep(api_key=sb.zep_key, base_url=sb.zep_url, max_retries=0)


def memscope(sb: Sandbox, **overrides: Any) -> ZepSource:
    return ZepSource(ZepConfig(api_key=SecretStr(sb.zep_key), base_url=sb.zep_url,
                               **{**FAST, **overrides}))


def wire(req: RequestRecord) -> tuple[Any, ...]:
    """What must be alike: method, path, query, body and the headers that matter."""
    heads = tuple((h, req.headers.get(h)) for h in SAME_HEADERS)
    return (req.method, req.path, tuple(sorted(req.query_pairs)), repr(req.body), heads,
            bool(req.headers.get("idempotency-key")))


def sent(sb: Sandbox) -> list[RequestRecord]:
    got = [r for r in sb.requests if r.path.startswith(PREFIX)]
    sb.clear_requests()
    return got


def alice(sb: Sandbox) -> str:
    return next(g.uuid for g in sb.zep.account.graphs.values()
                if g.record.get("name") == "Alice Moreau")


def test_the_guard_refuses_anything_beyond_loopback(no_socket_beyond_loopback):
    with pytest.raises(OSError, match="test guard"):
        socket.create_connection(("10.255.255.1", 80), timeout=1)
    with pytest.raises(Exception, match="test guard"):
        Zep(api_key="k", max_retries=0).graph.list()  # Zep's own address: refused
    assert "10.255.255.1" in no_socket_beyond_loopback
    assert "api.getzep.com" in no_socket_beyond_loopback


def test_the_sdk_parses_every_answer_across_pages(sandbox):
    client = sdk(sandbox)
    graphs = list(client.graph.list(page_size=1))  # three graphs: three pages
    assert all(isinstance(g, Graph) for g in graphs)
    assert sorted(g.type or "" for g in graphs) == ["standard", "user", "user"]
    users = list(client.user.list(page_size=1))
    assert all(isinstance(u, User) for u in users) and {u.user_id for u in users} == {
        "alice", "bob"}
    assert {u.graph_uuid for u in users} <= {g.uuid_ for g in graphs}
    g = alice(sandbox)
    edges = list(client.graph.edge.list(g, page_size=2))
    episodes = list(client.graph.episode.list(g, page_size=2))
    nodes = list(client.graph.node.list(g, page_size=2))
    assert (len(edges), len(episodes), len(nodes)) == (5, 3, 5)
    assert all(isinstance(x, Edge) for x in edges)
    assert all(isinstance(x, Episode) for x in episodes)
    assert all(isinstance(x, Node) for x in nodes)
    pages = [r for r in sandbox.requests if r.path.endswith("/edges/list")]
    assert len(pages) == 3 and [("cursor" in r.query) for r in pages] == [False, True, True]
    retired = [e for e in edges if e.expired_at]
    assert retired and all(e.invalid_at for e in retired)
    # a user graph is addressed by its user's uuid too
    user = next(u for u in users if u.user_id == "alice")
    assert len(list(client.graph.edge.list(user.uuid_ or "", page_size=100))) == 5
    found = client.graph.search_edges(g, query="Alice Acme", page_size=3)
    assert found.items and found.items[0].score is not None
    done = client.graph.edge.delete(g, edges[0].uuid_ or "")
    assert isinstance(done, AsyncResult) and done.task and done.task.status == "succeeded"
    ep = client.graph.episode.delete(g, episodes[0].uuid_ or "")
    assert isinstance(ep, AsyncResult)


def test_memscope_sends_what_the_sdk_sends(sandbox):
    g = alice(sandbox)
    client = sdk(sandbox)
    sent(sandbox)
    list(client.graph.list(page_size=2))
    list(client.user.list(page_size=2))
    for lister in (client.graph.episode, client.graph.node, client.graph.edge):
        list(lister.list(g, page_size=2))
    client.graph.search_edges(g, query="Alice Acme", page_size=3)
    edge = sorted(sandbox.zep.account.graphs[g].edges)[0]
    episode = sorted(sandbox.zep.account.graphs[g].episodes)[0]
    client.graph.edge.delete(g, edge)
    client.graph.episode.delete(g, episode)
    theirs = sent(sandbox)

    sandbox.zep.account = small_account()  # the same account again
    src = memscope(sandbox, page_size=2, graphs=("user:alice",), concurrency=1)
    src.load()
    src.search("Alice Acme", container_tag="user:alice", limit=3)
    src.forget(edge)
    src.forget(episode)
    mine = sent(sandbox)
    assert sorted(map(wire, mine)) == sorted(map(wire, theirs))
    assert all(r.headers["authorization"] == "Api-Key ***" for r in mine)
    assert {r.method for r in mine} == {"POST", "DELETE"}


def test_memscope_reads_the_graph_as_graphiti_s_model(sandbox):
    result = memscope(sandbox).load()
    ds = result.dataset
    assert {s.container_tag: s.name for s in ds.spaces} == {
        "user:alice": "Alice Moreau", "user:bob": "Bob Okafor",
        "graph:acme-products": "Acme products"}
    by_text = {m.memory: m for m in ds.memories.values()}
    old, new = by_text["Alice is a junior engineer at Acme."], by_text[
        "Alice leads the platform team at Acme."]
    assert (new.parent_id, new.version, new.is_latest) == (old.id, 2, True)
    assert not old.is_latest and old.expired_at and old.invalid_at
    one_clock = by_text["Alice mostly writes Python."]
    assert one_clock.valid_at is None and one_clock.created_at is not None
    assert len(ds.memory_documents[one_clock.id]) == 2  # drawn from two episodes
    intro = next(d for d in ds.documents.values() if (d.content or "").startswith("Alice: I'm"))
    assert len(intro.memory_ids) == 3  # one episode, three facts
    porto = next(m for m in ds.memories.values() if "Porto" in m.memory and m.expired_at)
    assert any(f.kind == "retired_alone" and f.nodes == [porto.id]  # retired, nothing newer
               for f in analyse(ds).findings)
    src = memscope(sandbox)
    assert [m.memory for m in src.history(new.id)] == [old.memory, new.memory]
    assert src.profile("user:alice").static
    assert {s.container_tag for s in src.spaces()} == {s.container_tag for s in ds.spaces}
    found = src.search("Bob coffee", limit=3)  # every loaded graph, merged by Zep's score
    assert found.hits and all(h.record is not None for h in found.hits)
    best = found.hits[0].record
    assert best is not None and best.container_tag == "user:bob"


def test_forgetting_a_fact_and_an_episode_with_its_preview(sandbox):
    src = memscope(sandbox, graphs=("user:alice",))
    first = src.load()
    ds = first.dataset
    by_text = {m.memory: m.id for m in ds.memories.values()}
    intro = next(d.id for d in ds.documents.values() if (d.content or "").startswith("Alice: I'm"))
    preview = src.forget_preview(intro)
    assert "2 facts drawn from it alone" in preview and "cannot be undone" in preview
    assert "1 fact also drawn from other episodes stays" in preview
    assert "cannot be undone" in src.forget_preview(by_text["Alice lives in Lyon."])
    result = src.forget(intro)
    drawn = src.patch_forgotten(first, [intro])  # as the graph shows it until a reload
    assert drawn is not None and intro not in drawn.dataset.documents
    assert {m.id for m in drawn.dataset.memories.values() if m.is_forgotten} == set(
        result.removed_ids)
    assert intro in first.dataset.documents  # the shared load is never changed
    assert result.ok and sorted(result.removed_ids) == sorted(
        [by_text["Alice is a junior engineer at Acme."], by_text["Alice lives in Porto."]])
    graph = sandbox.zep.account.graphs[alice(sandbox)]
    assert intro not in graph.episodes
    assert by_text["Alice lives in Porto."] not in graph.edges
    assert graph.edges[by_text["Alice mostly writes Python."]]["episode_uuids"]  # kept
    src.forget(by_text["Alice lives in Lyon."])
    assert by_text["Alice lives in Lyon."] not in graph.edges
    again = src.load(refresh=True).dataset
    assert len(again.memories) == 2 and len(again.documents) == 2
    assert src.capabilities.reason("restore") is not None


def test_429_with_retry_after_and_5xx_are_retried(sandbox):
    sandbox.faults.update(status_sequence=[429, 503, 502], retry_after="2")
    waits: list[float] = []
    src = ZepSource(ZepConfig(api_key=SecretStr(sandbox.zep_key), base_url=sandbox.zep_url,
                              **FAST), sleep=waits.append)
    result = src.load()
    assert len(result.dataset.memories) == 12
    assert waits and max(waits) >= 2.0  # the Retry-After was honoured
    faulted = [r.fault for r in sandbox.requests if r.fault]
    assert faulted == ["status 429", "status 503", "status 502"]
    assert src._http.gate.cuts == 1  # the 429 narrowed the pool


def test_a_service_that_keeps_failing_gives_one_sentence(sandbox):
    sandbox.faults.update(status_sequence=[503] * 10)
    with pytest.raises(ServerError) as failed:
        memscope(sandbox).load()
    text = str(failed.value)
    assert "Zep had a service error" in text and "\n" not in text


def test_a_bad_key_or_url_is_one_sentence_without_the_key(sandbox, caplog):
    caplog.set_level("DEBUG")
    wrong = "z_wrong_key_123"
    src = ZepSource(ZepConfig(api_key=SecretStr(wrong), base_url=sandbox.zep_url, **FAST))
    with pytest.raises(AuthError) as denied:
        src.load()
    assert str(denied.value).startswith("Zep rejected the API key")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    nowhere = ZepSource(ZepConfig(api_key=SecretStr(wrong), base_url=f"http://127.0.0.1:{port}",
                                  **{**FAST, "retry_budget_s": 0}))
    with pytest.raises(NetworkError) as refused:
        nowhere.load()
    assert "could not connect to Zep" in str(refused.value)
    for said in (str(denied.value), str(refused.value), caplog.text, repr(src),
                 "|".join(src.cache_key()), src.identity(),
                 *(r.target for r in sandbox.requests)):
        assert wrong not in said and sandbox.zep_key not in said


def test_the_app_opens_a_zep_connection(sandbox):
    settings = Settings.read(environ={"MEMSCOPE_SOURCE": "zep",
                                      "MEMSCOPE_API_KEY": sandbox.zep_key,
                                      "MEMSCOPE_BASE_URL": sandbox.zep_url,
                                      "MEMSCOPE_SPACE": "user:bob"}, secrets={})
    conn = configured_connection(settings)
    assert (conn.kind, conn.base_url, conn.space) == ("zep", sandbox.zep_url, "user:bob")
    src = open_source(conn, settings.api_key())
    assert isinstance(src, ZepSource)
    assert {m.container_tag for m in src.load().dataset.memories.values()} == {"user:bob"}
    default = open_source(Connection("zep"), SecretStr("k"))
    assert isinstance(default, ZepSource)
    assert default.config.base_url == "https://api.getzep.com/api/v4"


def test_one_item_a_page_reads_the_same_graph(sandbox):
    whole = memscope(sandbox).load()
    paged = memscope(sandbox, page_size=1, concurrency=2).load()
    assert set(paged.dataset.memories) == set(whole.dataset.memories)
    assert set(paged.dataset.documents) == set(whole.dataset.documents)
    assert paged.calls > whole.calls >= 2 + 3 * 3  # two account lists, three per graph
    cursors = [r for r in sandbox.requests if r.query.get("cursor")]
    assert cursors and all(r.status == 200 for r in cursors)


def test_a_dropped_connection_is_retried_and_a_cut_off_answer_is_one_sentence(sandbox):
    sandbox.faults.update(drops=1)
    assert len(memscope(sandbox).load().dataset.memories) == 12
    sandbox.faults.update(malformed=1)
    with pytest.raises(SourceError) as cut:
        memscope(sandbox).load()
    assert "not valid JSON" in str(cut.value) and "\n" not in str(cut.value)
