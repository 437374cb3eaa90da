"""A Graphiti graph read from a real embedded Kuzu database (issue 34, first part).

The graph is written by graphiti-core's own classes (``tests/graphiti_support.py``: no
LLM, no embedder) into a temporary Kuzu file, then read back through graphiti-core's
driver and read helpers by :class:`~memscope.sources.graphiti.GraphitiSource`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from graphiti_support import ENGINEER, HOME, LEAD, TEAM, at, write_graph
from pydantic import SecretStr

from components.sections.connection_form import SPACE_LABELS
from memscope.app import Connection, ConnectionProblem, Settings, configured_connection, open_source
from memscope.graph.analysis import analyse
from memscope.records.models import ParseReport, parse_memory
from memscope.sources import FileError, SourceError
from memscope.sources.graphiti import GraphitiConfig, GraphitiSource, open_driver
from memscope.view.build import build_view

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def graph_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_graph(tmp_path_factory.mktemp("graphiti") / "graph.kuzu")


@pytest.fixture(scope="module")
def loaded(graph_file: Path):
    source = GraphitiSource(GraphitiConfig("kuzu", str(graph_file)))
    try:
        yield source.load()
    finally:
        source.close()


def notes_of(report: ParseReport, record: str) -> list[str]:
    return [i.message for i in report.issues if i.record == record]


def test_a_contradicted_fact_is_a_two_version_chain(loaded) -> None:
    ds = loaded.dataset
    analysis = analyse(ds, now=at(12, 1))
    chain = analysis.chains.of("fact-lead")
    assert chain is not None and chain.root == "fact-engineer"
    assert [(e.id, e.version) for e in chain.entries] == [("fact-engineer", 1),
                                                          ("fact-lead", 2)]
    assert [e.text for e in chain.entries] == [ENGINEER, LEAD]
    g = analysis.graph.graph
    assert g.has_edge("fact-engineer", "fact-lead", key="updates")
    assert not ds.memories["fact-engineer"].is_latest and ds.memories["fact-lead"].is_latest
    assert analysis.state("fact-engineer") == "superseded"
    assert analysis.state("fact-lead") == "latest"
    kinds = {f.kind for f in analysis.findings}
    assert not kinds & {"branch", "cycle", "multiple_latest", "version_repair",
                        "updates_contradicts_parent", "orphan_memory"}


def test_episodes_are_documents_and_every_fact_links_to_each_of_its_episodes(loaded) -> None:
    ds = loaded.dataset
    assert set(ds.documents) == {"ep-intro", "ep-promotion", "ep-review", "ep-misc", "ep-team"}
    intro = ds.documents["ep-intro"]
    assert intro.title == "Alice introduces herself" and intro.type == "message"
    assert intro.content is not None and intro.content.startswith("Alice: I live in Porto")
    assert intro.source == "chat with Alice"
    assert intro.metadata == {"referenceTime": "2026-03-01T09:00:00Z", "group": HOME}
    assert sorted(intro.memory_ids) == ["fact-bike", "fact-engineer", "fact-jazz",
                                        "fact-porto", "fact-sister"]  # one episode, many
    assert ds.memory_documents["fact-lead"] == ["ep-promotion", "ep-review"]
    g = analyse(ds, now=at(12, 1)).graph.graph
    sources = [(u, k) for u, _, k in g.in_edges("fact-lead", keys=True) if k == "source"]
    assert sorted(sources) == [("ep-promotion", "source"), ("ep-review", "source")]
    # drawn once; the entities are nodes of their own
    assert g.number_of_nodes() == len(ds.documents) + len(ds.memories) + len(ds.entities)


def test_every_fact_is_drawn_with_an_edge_to_each_of_its_two_entities(loaded) -> None:
    ds = loaded.dataset
    assert {"alice", "acme", "porto", "bob", "release"} <= set(ds.entities)
    assert ds.entities["alice"].name == "Alice"
    assert ds.entities["alice"].attributes == {
        "summary": "Alice is a team lead at Acme who lives in Porto."}
    assert ds.entities["porto"].attributes == {}  # no summary, nothing made up
    assert ds.memories["fact-lead"].entity_ids == ("alice", "acme")
    g = analyse(ds, now=at(12, 1)).graph.graph
    ends = sorted(v for _, v, k in g.out_edges("fact-lead", keys=True) if k == "about")
    assert ends == ["acme", "alice"]
    # Alice is named by every fact of her group; Bob only by his
    named_alice = {u for u, _, k in g.in_edges("alice", keys=True) if k == "about"}
    assert named_alice == {m for m, mem in ds.memories.items() if "alice" in mem.entity_ids}
    assert {u for u, _, k in g.in_edges("bob", keys=True) if k == "about"} == {
        m for m, mem in ds.memories.items() if mem.container_tag == TEAM}
    drawn = [e for e in build_view(analyse(ds, now=at(12, 1)))["edges"] if e["kind"] == "about"]
    assert len(drawn) == sum(len(m.entity_ids) for m in ds.memories.values())
    assert all(e.get("dashes") and "arrows" not in e for e in drawn)  # quieter than a version


def test_groups_are_spaces_and_a_group_narrows_the_load(graph_file: Path, loaded) -> None:
    ds = loaded.dataset
    spaces = {s.container_tag: (s.document_count, s.memory_count) for s in ds.spaces}
    assert spaces == {HOME: (4, 10), TEAM: (1, 1)}
    assert {m.container_tag for m in ds.memories.values()} == {HOME, TEAM}
    with GraphitiSource(GraphitiConfig("kuzu", str(graph_file), group=TEAM)) as team:
        only = team.load().dataset
        assert set(only.memories) == {"fact-release"} and set(only.documents) == {"ep-team"}
        assert {s.container_tag for s in team.spaces()} == {HOME, TEAM}  # all listed
        assert team.capabilities.can("spaces") and team.capabilities.can("forget")
        assert "nothing to restore" in (team.capabilities.reason("restore") or "")


def test_each_fact_keeps_both_clocks_even_when_only_one_is_there(loaded) -> None:
    mems = loaded.dataset.memories
    eng = mems["fact-engineer"]
    assert (eng.valid_at, eng.invalid_at) == (at(1, 15), at(6, 1))  # true in the world
    assert (eng.created_at, eng.expired_at) == (at(3, 1), at(6, 1, 10))  # believed
    assert eng.updated_at == eng.expired_at
    sister = mems["fact-sister"]  # learnt only
    assert sister.valid_at is None and sister.invalid_at is None and sister.expired_at is None
    assert sister.created_at == at(3, 1) and sister.is_latest
    tea = mems["fact-tea"]
    assert tea.valid_at == at(7, 2) and tea.invalid_at is None and tea.expired_at is None
    assert eng.extra == {"graphitiRelation": "WORKS_AT", "graphitiSubject": "Alice",
                         "graphitiObject": "Acme"}
    wire = eng.to_wire()  # a snapshot keeps both clocks, and reads them back
    assert (wire["validAt"], wire["invalidAt"], wire["expiredAt"]) == (
        "2026-01-15T09:00:00Z", "2026-06-01T09:00:00Z", "2026-06-01T10:00:00Z")
    back = parse_memory(wire, "x", ParseReport())
    assert back is not None and back.fingerprint() == eng.fingerprint()
    assert "validAt" not in sister.to_wire()
    assert wire["entityIds"] == ["alice", "acme"]
    report = ParseReport()
    odd = parse_memory({**wire, "entityIds": "alice"}, "x", report)
    assert odd is not None and odd.entity_ids == ()
    assert any("entityIds is not a list" in i.message for i in report.issues)


def test_ambiguous_and_unmatched_retirements_are_noted_not_linked(loaded) -> None:
    ds = loaded.dataset
    report = ds.report
    for fact_id in ("fact-jazz", "fact-jazz-cool", "fact-jazz-bebop", "fact-porto",
                    "fact-porto-again", "fact-bike"):
        assert ds.memories[fact_id].parent_id is None
    assert all(m.parent_id is None for m in ds.memories.values() if m.id != "fact-lead")
    jazz = notes_of(report, "fact-jazz")
    assert len(jazz) == 1 and "2 newer facts" in jazz[0] and "no version link" in jazz[0]
    porto = notes_of(report, "fact-porto")
    assert len(porto) == 1 and "a gap" in porto[0]
    assert not notes_of(report, "fact-bike")  # retired alone: an audit finding, not a note
    assert not ds.memories["fact-bike"].is_latest and not ds.memories["fact-jazz"].is_latest
    assert ds.memories["fact-porto"].is_latest  # ended in the world, still believed
    assert not notes_of(report, "fact-engineer") and not notes_of(report, "fact-lead")
    assert not report.skipped


def test_entities_with_a_summary_are_their_groups_profile(loaded) -> None:
    profile = loaded.dataset.profiles[HOME]
    lines = {line.text: line.memory_ids for line in profile.static}
    alice = lines["Alice: Alice is a team lead at Acme who lives in Porto."]
    assert {"fact-engineer", "fact-lead", "fact-sister"} <= set(alice)
    assert "Ana: Ana is Alice's sister." in lines and not profile.dynamic
    assert [line.text for line in loaded.dataset.profiles[TEAM].static] == [
        "Bob: Bob runs the release."]


def test_the_file_is_opened_read_only_and_never_changed(graph_file: Path) -> None:
    before = hashlib.sha256(graph_file.read_bytes()).hexdigest()
    for _ in range(2):  # two sources one after the other (each closes its file)
        with GraphitiSource(GraphitiConfig("kuzu", str(graph_file))) as src:
            assert len(src.load(refresh=True).dataset.memories) == 11
            assert src.data_version() is not None
    assert hashlib.sha256(graph_file.read_bytes()).hexdigest() == before
    assert not list(graph_file.parent.glob("*.wal"))


def test_a_bad_path_is_one_sentence(tmp_path: Path) -> None:
    import kuzu

    not_kuzu = tmp_path / "notes.txt"
    not_kuzu.write_text("hello")
    empty = tmp_path / "other.kuzu"
    kuzu.Database(str(empty)).close()  # a Kuzu database, but not Graphiti's
    cases = {tmp_path / "missing.kuzu": "There is no Graphiti database at",
             not_kuzu: "notes.txt cannot be opened as a Kuzu database",
             tmp_path: "cannot be opened as a Kuzu database",
             empty: "other.kuzu is a Kuzu database without Graphiti's tables."}
    for path, words in cases.items():
        with GraphitiSource(GraphitiConfig("kuzu", str(path))) as src, \
                pytest.raises(FileError) as err:
            src.load()
        text = str(err.value)
        assert words in text and "\n" not in text and text.endswith("."), text
        assert "Traceback" not in text and "MATCH" not in text
    assert not (tmp_path / "missing.kuzu").exists()  # never created


def test_the_connection_opens_a_graphiti_source_from_the_form_or_the_settings(
        graph_file: Path) -> None:
    src = open_source(Connection("graphiti", base_url=str(graph_file)), None)
    assert isinstance(src, GraphitiSource) and src.kind == "graphiti"
    assert src.label == "Graphiti graph in Kuzu file (embedded) graph.kuzu"
    src.close()
    with pytest.raises(ConnectionProblem, match="path of its Kuzu database file"):
        open_source(Connection("graphiti", base_url=" "), None)
    with pytest.raises(ConnectionProblem, match="backend 'oracle'"):
        open_source(Connection("graphiti", base_url="x", backend="oracle"), None)
    settings = Settings.read(environ={"MEMSCOPE_SOURCE": "graphiti",
                                      "MEMSCOPE_BASE_URL": str(graph_file),
                                      "MEMSCOPE_SPACE": TEAM}, secrets={})
    conn = configured_connection(settings)
    assert (conn.kind, conn.base_url, conn.space, conn.backend) == (
        "graphiti", str(graph_file), TEAM, "kuzu")


def test_a_server_password_stays_out_of_keys_labels_and_reprs() -> None:
    secret = "s3cret-graph-password"
    cfg = GraphitiConfig("neo4j", "bolt://127.0.0.1:1", "neo4j", SecretStr(secret))
    src = GraphitiSource(cfg)
    for shown in (repr(cfg), repr(src), src.label, "|".join(src.cache_key()), src.identity()):
        assert secret not in shown
    assert src.calls_service and src.data_version() is None
    driver = open_driver(cfg)  # graphiti-core's own Neo4jDriver, the same read path
    assert type(driver).__name__ == "Neo4jDriver"
    src.close()


def test_a_load_opens_no_socket_beyond_loopback(graph_file: Path) -> None:
    script = (
        "import json, sys\n"
        "import mem0_driver\n"
        "mem0_driver._guard()\n"
        "from memscope.sources.graphiti import GraphitiConfig, GraphitiSource\n"
        "src = GraphitiSource(GraphitiConfig('kuzu', sys.argv[1]))\n"
        "n = len(src.load().dataset.memories)\n"
        "src.close()\n"
        "print(json.dumps({'facts': n, 'outside': mem0_driver.OUTSIDE}))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])}
    env.pop("GRAPHITI_TELEMETRY_ENABLED", None)  # the source must switch it off itself
    run = subprocess.run([sys.executable, "-c", script, str(graph_file)], env=env,
                         capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    said = json.loads(run.stdout.strip().splitlines()[-1])
    assert said == {"facts": 11, "outside": []}


def test_a_server_that_does_not_answer_is_one_sentence() -> None:
    cfg = GraphitiConfig("falkordb", "127.0.0.1:1")
    with GraphitiSource(cfg) as src, pytest.raises(SourceError) as err:
        src.load()
    assert "\n" not in str(err.value) and str(err.value).endswith(".")


def test_the_form_asks_each_graphiti_backend_for_what_it_needs(fresh_data_dir) -> None:
    from apptest_support import run_page

    from components.sections.connection_form import GRAPHITI_LOCATION

    def fields() -> list[str]:
        return [t.label for t in at.text_input if (t.key or "").startswith("conn_")]

    at = run_page("connection.py")
    at.radio(key="conn_kind").set_value("graphiti").run()
    assert at.radio(key="conn_backend").value == "kuzu"
    assert fields() == [GRAPHITI_LOCATION["kuzu"], SPACE_LABELS["graphiti"]]  # no password
    at.radio(key="conn_backend").set_value("neo4j").run()
    assert fields() == ["URI", "User", "Password",
                                                SPACE_LABELS["graphiti"]]
    assert at.text_input(key="conn_base_url").placeholder == "bolt://localhost:7687"
    at.radio(key="conn_backend").set_value("falkordb").run()
    assert fields() == ["Host and port", "User (optional)",
                                                "Password (optional)",
                                                SPACE_LABELS["graphiti"]]
    assert not at.exception


def test_ask_ranks_the_loaded_facts_on_this_computer(graph_file: Path) -> None:
    with GraphitiSource(GraphitiConfig("kuzu", str(graph_file))) as src:
        found = src.search("where does Alice work", limit=5)
        ids = [h.id for h in found.hits if h.kind == "memory"]
        assert {"fact-lead", "fact-engineer"} & set(ids[:3]), ids
        narrowed = GraphitiSource(GraphitiConfig("kuzu", str(graph_file), group=TEAM))
        with narrowed:
            first = narrowed.spaces()
            assert narrowed.spaces() == first and len(first) == 2  # read once, kept


def test_the_panel_says_both_clocks_in_words(loaded) -> None:
    from memscope.reports.clocks import clocks_in_words

    mems = loaded.dataset.memories
    assert clocks_in_words(mems["fact-engineer"]) == (
        "True from 15 January to 1 June 2026; learnt 1 March 2026, retired 1 June 2026.")
    assert clocks_in_words(mems["fact-sister"]) == (
        "When this became true is not recorded; learnt 1 March 2026, still believed.")
    assert clocks_in_words(mems["fact-porto"]) == (
        "True from 1 January to 1 February 2026; learnt 1 March 2026, still believed.")
    assert clocks_in_words(mems["fact-tea"]) == (
        "True from 2 July 2026; learnt 2 July 2026, still believed.")


def test_a_file_another_program_writes_is_one_sentence(tmp_path: Path) -> None:
    graph = write_graph(tmp_path / "busy.kuzu")
    script = ("import sys, time, kuzu\n"
              "db = kuzu.Database(sys.argv[1])\n"
              "print('open', flush=True)\n"
              "sys.stdin.read()\n")
    holder = subprocess.Popen([sys.executable, "-c", script, str(graph)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with GraphitiSource(GraphitiConfig("kuzu", str(graph))) as src, \
                pytest.raises(FileError) as err:
            src.load()
        assert str(err.value) == (
            "busy.kuzu is open for writing in another program (Graphiti itself?), and Kuzu "
            "lets no one else read it meanwhile: close that program or open a copy of the "
            "file.")
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)


def test_what_only_two_clocks_show_is_in_the_audit_in_words(loaded) -> None:
    from memscope.reports.audit import FINDING_GROUPS, finding_sentence

    an = analyse(loaded.dataset, now=at(12, 1))
    found = {(f.kind, f.nodes[0]) for f in an.findings if f.kind in (
        "believed_after_true", "retired_alone", "clocks_out_of_order")}
    # the bike: the memory stopped believing it on 2 July and nothing newer is linked;
    # Porto: it stopped being true in February and the Porto-again fact is no version of it
    # (a gap); the engineer fact is replaced by the lead fact, so it is not alone
    assert ("retired_alone", "fact-bike") in found and ("retired_alone", "fact-porto") in found
    assert ("retired_alone", "fact-engineer") not in found
    assert not any(kind == "clocks_out_of_order" for kind, _ in found)
    words = {f.nodes[0]: finding_sentence(an, f) for f in an.findings
             if f.kind == "retired_alone"}
    assert words["fact-bike"] == ("The memory stopped believing “Alice owns a bike” on 2 July "
                                  "2026, and no newer version of it is linked.")
    assert words["fact-porto"].startswith("“Alice lives in Porto” stopped being true on 1 "
                                          "February 2026")
    assert any("two clocks" in heading for heading, _ in FINDING_GROUPS)


def test_clocks_out_of_order_and_belief_after_the_truth_are_findings() -> None:
    from memscope.reports.audit import finding_sentence
    from memscope.sources.graphiti_map import Episode, Fact, dataset_of

    ep = Episode("ep", "ep", "g", "text", "text", "", at(1, 1), at(1, 1))
    odd = Fact("odd", "g", "R", "A fact", "a", "b", ("ep", "gone"), at(5, 1),
               expired_at=at(4, 1), valid_at=at(3, 1), invalid_at=at(2, 1))
    late = Fact("late", "g", "R", "Bo lives in Oslo", "a", "c", ("ep",), at(1, 2),
                expired_at=at(3, 12), valid_at=at(1, 1), invalid_at=at(3, 1))
    alone = Fact("alone", "g", "R", "Bo likes tea", "a", "d", ("ep",), at(1, 2))
    ds = dataset_of([ep], [], [odd, late, alone])
    assert "1 episode this fact came from could not be read." in notes_of(ds.report, "odd")
    assert ds.memory_documents["odd"] == ["ep"]
    an = analyse(ds, now=at(12, 1))
    words = {(f.kind, f.nodes[0]): finding_sentence(an, f) for f in an.findings}
    assert ("clocks_out_of_order", "late") not in words
    assert words[("clocks_out_of_order", "odd")] == (
        "“A fact” stopped being true (1 February 2026) before it became true (1 March "
        "2026).")
    assert words[("believed_after_true", "late")] == (
        "The memory went on believing “Bo lives in Oslo” for 11 days after it stopped being "
        "true (true until 1 March 2026, retired 12 March 2026).")
    assert not [k for k in words if k[1] == "alone"]  # one clock, nothing ended: no finding


def test_as_of_a_day_a_fact_retired_later_was_still_believed(loaded) -> None:
    from memscope.lenses.asof import as_of

    before = as_of(loaded.dataset, at(5, 1))  # the lead fact is not learnt yet
    assert "fact-lead" not in before.memories
    assert before.memories["fact-engineer"].is_latest
    assert before.memories["fact-bike"].is_latest  # retired on 2 July, no newer fact
    assert analyse(before, now=at(5, 1)).state("fact-bike") == "latest"
    after = as_of(loaded.dataset, at(8, 1))
    assert not after.memories["fact-engineer"].is_latest
    assert not after.memories["fact-bike"].is_latest


def test_why_cites_each_episode_a_fact_came_from_with_its_text(loaded) -> None:
    from memscope.reports.why import trail

    found = trail(analyse(loaded.dataset, now=at(12, 1)), "fact-lead")
    cited = {(s.version_id, s.document_id): s.passage for s in found.sources}
    assert cited[("fact-lead", "ep-promotion")] == (
        "Alice: I was promoted to team lead at Acme today.")
    assert cited[("fact-lead", "ep-review")] == (
        "Alice's review says she leads the Acme platform team.")
    assert ("fact-engineer", "ep-intro") in cited  # the version before, and its episode


def test_graphiti_core_reads_no_dotenv_file_into_the_environment(tmp_path):
    """graphiti-core runs ``load_dotenv()`` when imported; Memscope imports it without."""
    (tmp_path / ".env").write_text("MEMSCOPE_DOTENV_PROBE=leaked\n", encoding="utf-8")
    probe = ("import os, graphiti_core; print(os.environ.get('MEMSCOPE_DOTENV_PROBE'))")
    ours = ("import os; from memscope.sources.graphiti import _graphiti; _graphiti(); "
            "import graphiti_core.driver.kuzu_driver; "
            "print(os.environ.get('MEMSCOPE_DOTENV_PROBE'))")
    env = {k: v for k, v in os.environ.items() if k != "MEMSCOPE_DOTENV_PROBE"}
    env["PYTHONPATH"] = str(ROOT)
    run = functools.partial(subprocess.run, capture_output=True, text=True, cwd=tmp_path,
                            env=env, timeout=120, check=True)
    assert run([sys.executable, "-c", probe]).stdout.strip() == "leaked"  # what it does
    assert run([sys.executable, "-c", ours]).stdout.strip() == "None"


def test_an_entity_appears_with_the_first_fact_about_it(loaded) -> None:
    """As of a day, and on the playback's days, an undated entity is there once a fact
    about it is (green tea: from the July episode; Alice: from the first fact)."""
    from memscope.lenses.asof import as_of
    from memscope.view.timeline import build_timeline

    ds = loaded.dataset
    early, late = as_of(ds, at(3, 15)), as_of(ds, at(8, 1))
    assert "alice" in early.entities and "tea" not in early.entities
    assert "tea" in late.entities
    an = analyse(ds, now=at(12, 1))
    timeline = build_timeline(an, build_view(an))
    assert timeline is not None
    day = {row[0]: row[1] for row in timeline["nodes"]}
    assert day["tea"] == day["fact-tea"] and day["alice"] == min(
        day[m] for m, mem in ds.memories.items() if "alice" in mem.entity_ids)
