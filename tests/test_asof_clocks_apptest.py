"""The as-of clock choice in the app (issue 34, item 4): asked only for data with a world
clock (a Graphiti graph in a Kuzu file, written with graphiti-core's classes), and it
changes what the graph draws."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from apptest_support import graph_payload, run_page
from graphiti_support import write_graph
from streamlit.testing.v1 import AppTest

from components.sections.sidebar import AS_OF, CLOCK, SINCE
from components.state.connection import CONNECTION, Connection
from components.state.context import APP_CONTEXT

CLOCK_KEY = "w.as_of_clock"
FEB15 = date(2026, 2, 15)


def _drawn(at: AppTest) -> set[str]:
    return {n["id"] for n in graph_payload(at)["nodes"]}


def _banner(at: AppTest) -> str:
    return " ".join(i.value for i in at.info if "Time travel" in i.value)


def test_data_with_one_clock_is_not_asked_which(fresh_data_dir: Path) -> None:
    at = run_page(**{AS_OF.name: date(2026, 11, 15)})
    assert CLOCK_KEY not in [r.key for r in at.radio]
    assert "the memory as it stood on 2026-11-15" in _banner(at)


def test_the_clock_choice_changes_what_is_drawn(fresh_data_dir: Path, tmp_path: Path
                                                ) -> None:
    graph = write_graph(tmp_path / "alice.kuzu")
    conn = Connection("graphiti", base_url=str(graph), backend="kuzu")
    at = run_page(**{CONNECTION.name: conn, AS_OF.name: FEB15})
    clock = at.radio(key=CLOCK_KEY)
    assert clock.value == "believed" and clock.label == "Time travel shows"
    assert clock.options == ["What the memory believed then", "What was true then"]
    # on 15 February the memory had learnt nothing yet (its first episode is of 1 March)
    assert "the memory as it stood on 2026-02-15" in _banner(at)
    assert not {"fact-engineer", "fact-porto"} & _drawn(at)

    clock.set_value("true").run()
    assert not at.exception
    # engineer was true from 15 January, Porto until 1 February: both are drawn
    assert {"fact-engineer", "fact-porto", "ep-intro"} <= _drawn(at)
    assert "fact-lead" not in _drawn(at)
    banner = _banner(at)
    assert "showing what was true on 2026-02-15" in banner
    assert ("1 fact does not say when it became true; it is counted as true from the day "
            "the memory learnt it.") in banner
    assert CLOCK.name in at.session_state and at.session_state[
        CLOCK.name] == "true"


def test_changes_since_read_the_chosen_clock(fresh_data_dir: Path, tmp_path: Path) -> None:
    graph = write_graph(tmp_path / "alice.kuzu")
    conn = Connection("graphiti", base_url=str(graph), backend="kuzu")
    at = run_page(**{CONNECTION.name: conn, AS_OF.name: date(2026, 5, 15),
                     SINCE.name: date(2026, 2, 15)})
    believed = at.session_state[APP_CONTEXT.name].comparison
    # learnt on 1 March: Alice's intro facts; Porto was already over but still learnt then
    assert {"fact-engineer", "fact-porto", "fact-sister"} <= set(believed.added)
    at.radio(key=CLOCK_KEY).set_value("true").run()
    true = at.session_state[APP_CONTEXT.name].comparison
    assert true.clock == "true"
    # engineer and Porto were true before 15 February; Porto again became true on 1 May
    assert not {"fact-engineer", "fact-porto"} & set(true.added)
    assert {"fact-porto-again", "fact-sister", "fact-bike"} <= set(true.added)
