"""Forgetting in a Graphiti graph (issue 34, item 5): a fact or an episode deleted from a
real Kuzu file through graphiti-core's own operations, previewed, ledgered, said to be for
good; the load read again afterwards. Each test works on its own copy of the test graph."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from async_support import run_async
from graphiti_core.driver.kuzu_driver import KuzuDriver
from graphiti_core.edges import EntityEdge
from graphiti_support import EMB, HOME, at, write_graph

from memscope.sources import FileError, NotFound, actions, patch
from memscope.sources.graphiti import FOREVER, GraphitiConfig, GraphitiSource
from memscope.storage import open_storage


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_graph(tmp_path_factory.mktemp("graphiti-forget") / "graph.kuzu")


@pytest.fixture
def graph(original: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "graph.kuzu"
    shutil.copyfile(original, copy)
    return copy


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source(path: Path) -> GraphitiSource:
    return GraphitiSource(GraphitiConfig("kuzu", str(path)))


def test_a_fact_is_deleted_from_the_file_and_ledgered(graph: Path, tmp_path: Path) -> None:
    before = digest(graph)
    storage = open_storage(None, sqlite_path=tmp_path / "ledger.db")
    with source(graph) as src:
        loaded = src.load()
        assert src.capabilities.can("forget") and src.forgets_documents
        said = src.forget_preview("fact-bike")
        assert said == ("Memscope deletes this fact from the Graphiti graph; its entities and "
                        f"episodes stay. {FOREVER}")
        result = actions.forget(src, storage, "fact-bike", reason="sold it",
                                container_tag=HOME, snapshot="Alice owns a bike")
        assert result.ok and result.removed_ids == ["fact-bike"]
        assert result.message == f"Deleted the fact from the Graphiti graph. {FOREVER}"
        after = patch.after_forget(src, loaded, ["fact-bike"])
        assert after is not None and "fact-bike" not in after.dataset.memories
        assert "fact-bike" in loaded.dataset.memories  # the previous load is left alone
        assert "ep-intro" in after.dataset.documents  # its episode stays
    rows = storage.ledger(scope=src.identity())
    assert [(r.action, r.target_id, r.outcome, r.reason, r.space) for r in rows] == [
        ("forget", "fact-bike", "ok", "sold it", HOME)]
    assert digest(graph) != before  # the file itself changed
    with source(graph) as again:  # and a new reading (read-only) agrees
        assert "fact-bike" not in again.load().dataset.memories
        assert len(again.load().dataset.memories) == 10


def test_an_episode_takes_its_own_facts_and_entities_along(graph: Path, tmp_path: Path
                                                           ) -> None:
    with source(graph) as src:
        said = src.forget_preview("ep-misc")
        assert said.startswith("Memscope deletes this episode from the Graphiti graph and 4 "
                               "facts with it: ")
        for text in ("Alice likes only cool jazz", "Alice finds bebop too much",
                     "Alice lives in Porto again", "Alice drinks green tea"):
            assert f"“{text}”" in said
        assert "1 entity only this episode mentions goes too: “green tea”." in said
        assert said.endswith(FOREVER)
        result = src.forget("ep-misc")
        assert result.ok and sorted(result.removed_ids) == [
            "fact-jazz-bebop", "fact-jazz-cool", "fact-porto-again", "fact-tea"]
        assert result.removed_entities == ["tea"]
        assert result.message == ("Deleted from the Graphiti graph: the episode, 4 facts and "
                                  f"1 entity only it mentioned. {FOREVER}")
        ds = src.reread(src.load(), ["ep-misc"])
        assert ds is not None
    with source(graph) as again:
        ds2 = again.load().dataset
        assert "ep-misc" not in ds2.documents
        assert not {"fact-jazz-bebop", "fact-jazz-cool", "fact-porto-again",
                    "fact-tea"} & set(ds2.memories)
        assert "fact-jazz" in ds2.memories and len(ds2.memories) == 7
        names = [line.text for line in ds2.profiles[HOME].static]
        assert names  # the other entities and their summaries stay


def test_a_fact_drawn_from_two_episodes_stays_with_the_other(graph: Path) -> None:
    with source(graph) as src:
        said = src.forget_preview("ep-promotion")
        assert said.startswith("Memscope deletes this episode from the Graphiti graph and 0 "
                               "facts with it.")
        assert "1 fact also drawn from other episodes stays." in said
        src.forget("ep-promotion")
    with source(graph) as again:
        ds = again.load().dataset
        assert "ep-promotion" not in ds.documents
        assert ds.memory_documents["fact-lead"] == ["ep-review"]
        assert again.forget_preview("fact-lead").endswith(FOREVER)


def add_visit(path: Path) -> None:
    """"Alice visits Ana", drawn from ``ep-misc``: a fact of Ana's from another episode."""
    async def save() -> KuzuDriver:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            driver = KuzuDriver(str(path))
        await EntityEdge(uuid="fact-visit", group_id=HOME, source_node_uuid="alice",
                         target_node_uuid="ana", name="VISITS", fact="Alice visits Ana",
                         episodes=["ep-misc"], fact_embedding=EMB, created_at=at(7, 2),
                         valid_at=at(7, 2)).save(driver)
        return driver

    driver = run_async(save())
    driver.client.close()
    driver.db.close()


def test_an_entity_that_goes_takes_its_facts_from_other_episodes_too(graph: Path) -> None:
    add_visit(graph)
    with source(graph) as src:
        said = src.forget_preview("ep-intro")
        assert said.startswith("Memscope deletes this episode from the Graphiti graph and 6 "
                               "facts with it: ")
        assert "“Alice visits Ana”" in said and "“Ana is Alice's sister”" in said
        assert "2 entities only this episode mentions go too: " in said
        assert "“bike”" in said and "“Ana”" in said
        result = src.forget("ep-intro")
        assert "fact-visit" in result.removed_ids and set(result.removed_entities) == {
            "bike", "ana"}
    with source(graph) as again:
        ds = again.load().dataset
        assert not {"fact-visit", "fact-sister", "fact-bike", "fact-engineer"} & set(ds.memories)
        assert {"fact-lead", "fact-tea"} <= set(ds.memories)


def test_another_reader_of_the_file_sees_the_delete(graph: Path) -> None:
    with source(graph) as reader, source(graph) as writer:
        assert "fact-tea" in reader.load().dataset.memories  # its file stays open
        writer.load()
        writer.forget("fact-tea")
        assert "fact-tea" not in reader.load(refresh=True).dataset.memories


def test_forgetting_what_is_gone_is_one_sentence(graph: Path) -> None:
    with source(graph) as stale, source(graph) as src:
        stale.load()
        src.load()
        src.forget("ep-team")
        for gone in ("ep-team", "fact-release"):  # its load still holds them
            with pytest.raises(NotFound) as err:
                stale.forget(gone)
            assert str(err.value) == ("It is no longer in the Graphiti graph (deleted "
                                      "elsewhere?); reload to see what it holds.")
        with pytest.raises(NotFound) as err:
            src.forget("no-such-fact")
        assert str(err.value) == ("no-such-fact is no fact or episode of this Graphiti "
                                  "graph; reload it.")


def test_a_file_another_program_holds_is_one_sentence_and_unchanged(graph: Path,
                                                                     tmp_path: Path) -> None:
    src = source(graph)
    src.load()
    src.close()  # the loaded graph stays; the file is no longer held here
    script = ("import sys, kuzu\n"
              "db = kuzu.Database(sys.argv[1])\n"
              "print('open', flush=True)\n"
              "sys.stdin.read()\n")
    holder = subprocess.Popen([sys.executable, "-c", script, str(graph)], text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    storage = open_storage(None, sqlite_path=tmp_path / "ledger.db")
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with pytest.raises(FileError) as err:
            actions.forget(src, storage, "fact-bike", reason=None, container_tag=HOME,
                           snapshot=None)
        assert str(err.value) == (
            "Nothing was deleted: graph.kuzu is open in another program (Graphiti itself?), "
            "and Kuzu lets only one program change it at a time: close that program and "
            "try again.")
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=60)
        src.close()
    row = storage.ledger(scope=src.identity())[0]
    assert (row.target_id, row.outcome) == ("fact-bike", "error")
    with source(graph) as again:  # nothing was deleted (the holder's own open rewrites
        assert "fact-bike" in again.load().dataset.memories  # the file, so no hash here)
