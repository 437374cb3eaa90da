"""Time travel on both clocks (issue 34, item 4) on a small Graphiti-like dataset.

The facts (2026, UTC), written by hand; every expected value below is read off them:

=================  ==========  ==========  ===========  ===========
fact               learnt      retired     true from    true until
=================  ==========  ==========  ===========  ===========
``engineer``       1 Mar       1 Jun 10h   15 Jan       1 Jun
``lead``           1 Jun 10h   —           1 Jun        —            (engineer's v2)
``porto``          1 Mar       —           1 Jan        1 Feb
``porto-again``    2 Jul       —           1 May        —
``sister``         1 Mar       —           —            —            (no world clock)
``bike``           1 Mar       2 Jul       1 Mar        —
=================  ==========  ==========  ===========  ===========
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from memscope.graph.analysis import analyse
from memscope.lenses.asof import (
    BELIEVED,
    TRUE,
    Clock,
    WorldClocks,
    as_of,
    began,
    compare,
    world_clocks,
)
from memscope.records.dataset import Dataset, from_feed_pages
from memscope.records.time import day_end
from memscope.reports.audit import finding_sentence
from memscope.sources.graphiti_map import Episode, Fact, dataset_of


def at(month: int, day: int, hour: int = 9) -> datetime:
    """A time of 2026, UTC."""
    return datetime(2026, month, day, hour, tzinfo=UTC)


def _episode(uuid: str, when: datetime) -> Episode:
    return Episode(uuid, uuid, "home", f"what {uuid} said", "message", "chat", when, when)


def _fact(uuid: str, target: str, name: str, episode: str, learnt: datetime,
          **clocks: datetime) -> Fact:
    return Fact(uuid, "home", name, f"the fact {uuid}", "alice", target, (episode,), learnt,
                **clocks)


@pytest.fixture(scope="module")
def ds() -> Dataset:
    episodes = [_episode("ep-intro", at(3, 1)), _episode("ep-promotion", at(6, 1)),
                _episode("ep-misc", at(7, 2))]
    facts = [
        _fact("engineer", "acme", "WORKS_AT", "ep-intro", at(3, 1), valid_at=at(1, 15),
              invalid_at=at(6, 1), expired_at=at(6, 1, 10)),
        _fact("lead", "acme", "WORKS_AT", "ep-promotion", at(6, 1, 10), valid_at=at(6, 1)),
        _fact("porto", "porto", "LIVES_IN", "ep-intro", at(3, 1), valid_at=at(1, 1),
              invalid_at=at(2, 1)),
        _fact("porto-again", "porto", "LIVES_IN", "ep-misc", at(7, 2), valid_at=at(5, 1)),
        _fact("sister", "ana", "SISTER_OF", "ep-intro", at(3, 1)),
        _fact("bike", "bike", "OWNS", "ep-intro", at(3, 1), valid_at=at(3, 1),
              expired_at=at(7, 2)),
    ]
    return dataset_of(episodes, [], facts)


def states(ds: Dataset, day: date, clock: Clock) -> dict[str, str]:
    """Each memory shown at the end of ``day`` on ``clock``: ``latest`` or
    ``superseded`` (a fact shown before the memory learnt it is judged ``recent`` by the
    states' rule, which reads the learnt clock: counted here as ``latest``)."""
    when = day_end(day)
    past = analyse(as_of(ds, when, clock), now=when)
    return {m: "latest" if past.state(m) == "recent" else str(past.state(m))
            for m in past.dataset.memories}


def test_the_chain_is_the_one_the_mapping_made(ds: Dataset) -> None:
    assert ds.memories["lead"].parent_id == "engineer"


def test_the_world_clock_is_counted(ds: Dataset) -> None:
    # five facts carry a world clock; sister says not when it became true
    assert world_clocks(ds) == WorldClocks(facts=5, undated=1, first=date(2026, 1, 1))
    one_clock = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "a", "memory": "x", "createdAt": "2026-01-01T00:00:00Z"}]}]}])
    assert world_clocks(one_clock) == WorldClocks()


def test_a_fact_without_valid_at_starts_when_it_was_learnt(ds: Dataset) -> None:
    assert began(ds.memories["sister"], TRUE) == at(3, 1)
    assert began(ds.memories["engineer"], TRUE) == at(1, 15)
    assert began(ds.memories["engineer"], BELIEVED) == at(3, 1)


def test_before_anything_was_learnt_only_the_world_clock_shows_facts(ds: Dataset) -> None:
    feb = date(2026, 2, 15)
    assert states(ds, feb, BELIEVED) == {}
    # engineer was already true; porto had stopped being true on 1 February
    assert states(ds, feb, TRUE) == {"engineer": "latest", "porto": "superseded"}
    # its episode came later, but the fact keeps its source
    past = as_of(ds, day_end(feb), TRUE)
    assert list(past.documents) == ["ep-intro"]
    assert past.memory_documents["engineer"] == ["ep-intro"]


def test_a_fact_that_stopped_being_true_but_is_still_believed(ds: Dataset) -> None:
    april = date(2026, 4, 15)
    believed, true = states(ds, april, BELIEVED), states(ds, april, TRUE)
    assert believed == {"engineer": "latest", "porto": "latest", "sister": "latest",
                        "bike": "latest"}
    assert true == believed | {"porto": "superseded"}


def test_a_fact_true_before_it_was_learnt(ds: Dataset) -> None:
    may = date(2026, 5, 15)
    assert "porto-again" not in states(ds, may, BELIEVED)
    assert states(ds, may, TRUE)["porto-again"] == "latest"
    assert "ep-misc" in as_of(ds, day_end(may), TRUE).documents  # saved on 2 July
    assert "ep-misc" not in as_of(ds, day_end(may), BELIEVED).documents


def test_the_contradicted_fact_is_replaced_on_both_clocks(ds: Dataset) -> None:
    june = date(2026, 6, 15)
    for clock in (BELIEVED, TRUE):
        shown = states(ds, june, clock)
        assert (shown["engineer"], shown["lead"]) == ("superseded", "latest")


def test_without_an_end_on_the_world_clock_a_fact_ends_when_it_was_retired(
        ds: Dataset) -> None:
    assert states(ds, date(2026, 7, 1), TRUE)["bike"] == "latest"
    assert states(ds, date(2026, 7, 3), TRUE)["bike"] == "superseded"


def test_the_believed_clock_is_the_default(ds: Dataset) -> None:
    when = day_end(date(2026, 4, 15))
    assert as_of(ds, when).memories.keys() == as_of(ds, when, BELIEVED).memories.keys()
    assert compare(ds, day_end(date(2026, 2, 1)), when).clock == BELIEVED


def test_changes_since_read_the_chosen_clock(ds: Dataset) -> None:
    t1, t2 = day_end(date(2026, 2, 1)), day_end(date(2026, 5, 15))
    believed = compare(ds, t1, t2, BELIEVED)
    assert believed.added == ["engineer", "porto", "sister", "bike"]
    true = compare(ds, t1, t2, TRUE)
    # engineer and porto were already true on 1 February; porto-again became true in May
    assert sorted(true.added) == ["bike", "porto-again", "sister"]
    assert true.clock == TRUE and true.updated == []
    june = compare(ds, t2, day_end(date(2026, 6, 15)), TRUE)
    assert june.updated == ["lead"] and june.replaced == {"lead": "engineer"}


def test_a_fact_believed_long_after_it_stopped_being_true_is_an_audit_finding() -> None:
    late = _fact("late", "acme", "WORKS_AT", "ep", at(3, 1), valid_at=at(1, 1),
                 invalid_at=at(4, 1), expired_at=at(4, 13))
    prompt = _fact("prompt", "acme", "MANAGES", "ep", at(3, 1), valid_at=at(1, 1),
                   invalid_at=at(4, 1), expired_at=at(4, 1, 10))
    past = _fact("past", "acme", "VISITED", "ep", at(5, 1), valid_at=at(1, 1),
                 invalid_at=at(2, 1), expired_at=at(6, 1))  # learnt as a thing of the past
    ds = dataset_of([_episode("ep", at(3, 1))], [], [late, prompt, past])
    an = analyse(ds, now=at(12, 1))
    said = {f.nodes[0]: finding_sentence(an, f) for f in an.findings
            if f.kind == "believed_after_true"}
    assert said == {"late": f"The memory went on believing “{late.fact}” for 12 days after "
                            "it stopped being true (true until 1 April 2026, retired 13 April "
                            "2026)."}
