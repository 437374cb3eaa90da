"""The home page's modes under AppTest: presenter, as-of time travel, the two-date
comparison and the drawing budget's overview, on the fixtures opened as a snapshot."""

from __future__ import annotations

import hashlib
import json
from datetime import date

import pytest
from apptest_support import browser_click, graph_payload
from conftest import ROOT, SM
from streamlit.testing.v1 import AppTest

from components.sections.sidebar import AS_OF, F_BUDGET, FILTERS_BOX, PRESENTER, SINCE
from components.state.connection import Connection
from memscope.records.dataset import read_files

PAGES = [SM / f"documents_page{i}.json" for i in (1, 2, 3)]


@pytest.fixture
def home(tmp_path, monkeypatch):
    """The home page on the three fixture pages, opened as snapshot files."""
    monkeypatch.setenv("MEMSCOPE_DATA_DIR", str(tmp_path / "data"))
    blobs, files = {}, []
    for path in PAGES:
        content = path.read_bytes()
        digest = hashlib.sha256(content).hexdigest()
        blobs[digest] = content
        files.append((path.name, digest))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["file_blobs"] = blobs
    at.session_state["connection"] = Connection("file", files=tuple(files))
    at.run()
    assert not at.exception, at.exception
    return at


def payload(at: AppTest) -> dict:
    return graph_payload(at)


def node_ids(at: AppTest) -> set[str]:
    return {n["id"] for n in payload(at)["nodes"]}


def test_presenter_mode_leaks_no_text_into_the_page(home):
    ds = read_files(PAGES)
    secrets = [m.memory for m in ds.memories.values()] + [
        d.title for d in ds.documents.values() if d.title]
    home.session_state["selected_node"] = "mem_fe_v3"
    home.run()
    assert "Prefers React with TypeScript for new frontend work." in json.dumps(
        payload(home), ensure_ascii=False)
    home.toggle(key=PRESENTER.widget).set_value(True).run()
    assert not home.exception, home.exception
    text = json.dumps(payload(home), ensure_ascii=False)
    shown = " ".join(t.value for t in home.text) + " ".join(m.value for m in home.markdown)
    for secret in secrets:
        assert secret not in text, secret
        assert secret not in shown, secret
    assert node_ids(home) == set(ds.documents) | set(ds.memories)  # structure kept


def test_as_of_shows_the_memory_as_it_stood(home):
    everything = node_ids(home)
    home.date_input(key=AS_OF.widget).set_value(date(2026, 11, 12)).run()
    assert not home.exception, home.exception
    nodes = {n["id"]: n for n in payload(home)["nodes"]}
    # by the end of 2026-11-12: documents created up to 11-10 (stack_1 on 11-10, health
    # 11-08, dangling 11-07, empty 11-06, stack_0 11-02, coffee/bad_1/bad_2 11-01) and
    # their memories created by then; fe_v3 (11-20), coffee_v2 (11-15) and v2b (11-16)
    # did not exist yet, so fe_v2 was the latest version and coffee_v1 was latest too
    assert "mem_fe_v3" not in nodes and "mem_coffee_v2b" not in nodes
    assert nodes["mem_fe_v2"]["state"] == "latest"
    assert nodes["mem_coffee_v1"]["state"] == "latest"
    assert nodes["mem_run"]["state"] == "latest"  # forgetAfter 11-29 is > 7 days away
    assert set(nodes) < everything
    assert any("Time travel" in i.value for i in home.info)


def test_changes_since_colours_added_updated_forgotten(home):
    home.date_input(key=SINCE.widget).set_value(date(2026, 11, 12)).run()
    assert not home.exception, home.exception
    changes = {n["id"]: n.get("change") for n in payload(home)["nodes"] if n.get("change")}
    # after 11-12: fe_v3 (new version of fe_v2), coffee_v2 and coffee_v2b (new versions),
    # and new memories without a parent on 11-14 … 11-20
    assert changes["mem_fe_v3"] == "updated"
    assert changes["mem_coffee_v2"] == changes["mem_coffee_v2b"] == "updated"
    assert changes["mem_trip"] == changes["mem_hostile"] == "added"
    assert "mem_fe_v1" not in changes and "mem_editor" not in changes


def test_the_budget_collapses_clusters_that_expand_on_click(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMSCOPE_DATA_DIR", str(tmp_path / "demo"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[FILTERS_BOX.name] = True  # the budget is drawn under the open filters
    at.run()
    everything = node_ids(at)
    assert len(everything) > 300 and not any(n.startswith("cluster:") for n in everything)
    at.number_input(key=str(F_BUDGET.widget)).set_value(100).run()
    overview = node_ids(at)
    clusters = sorted(n for n in overview if n.startswith("cluster:"))
    assert clusters and len(overview) < len(everything) // 2
    assert any("Overview:" in c.value for c in at.caption)
    browser_click(at, clusters[0])  # a click on a cluster expands it, selects nothing
    assert not at.exception, at.exception
    assert at.session_state["selected_node"] is None
    expanded = node_ids(at)
    assert clusters[0] not in expanded and len(expanded) > len(overview)
    member = next(iter(expanded - overview))
    browser_click(at, member)  # a real node inside opens its panel as usual
    assert at.session_state["selected_node"] == member
    at.button(key="collapse_all").click().run()
    collapsed = node_ids(at)
    assert member in collapsed  # the selection stays drawn as itself
    assert len(collapsed) < len(expanded)


def test_a_link_with_an_as_of_day_before_the_data_is_ignored_not_a_crash(fresh_data_dir):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["asof"] = "1990-01-01"
    at.query_params["since"] = "not-a-day"
    at.run()
    assert not at.exception, at.exception
    assert at.date_input(key=str(AS_OF.widget)).value is None
    assert not [i for i in at.info if "Time travel" in i.value]  # the app shows today
