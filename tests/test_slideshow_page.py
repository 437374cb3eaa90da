"""The Slideshow page under AppTest (the real app, real parts) on each kind of source —
the embedded demo store, a snapshot file, Supermemory and Spomory served by the sandbox
on 127.0.0.1 — with presenter mode on: three nodes are picked with a click as the
browser sends it, captioned and added, reordered and removed; the graph's payload carries
exactly those steps and a Play token; nothing of the data's own text is rendered, while
the captions are. (The browser journey is tests/test_slideshow_browser.py.)"""

from __future__ import annotations

import pytest
from apptest_support import browser_click, graph_payload, run_page
from streamlit.testing.v1 import AppTest
from test_every_page import data_texts, rendered_text, source_state

from components.sections.explorer import EXPANDED
from components.sections.sidebar import F_BUDGET, PRESENTER
from components.sections.slideshow import (
    SLIDESHOW,
    SLIDESHOW_CAPTION,
    SLIDESHOW_EXPANDED,
    SLIDESHOW_STEP_KEYS,
)
from memscope.view.slideshow import Slideshow

CAPTIONS = ["First, the question we start from", "Then where the answer came from",
            "And what changed since"]


def build(at: AppTest, nodes: list[str]) -> None:
    """Pick each node, type its caption, Add step."""
    for node, caption in zip(nodes, CAPTIONS, strict=True):
        browser_click(at, node)
        assert not at.exception, at.exception
        at.text_area(key=SLIDESHOW_CAPTION.name).input(caption)
        at.button(key="slideshow_add").click().run()
        assert not at.exception, at.exception


def steps_sent(at: AppTest) -> list[tuple[str, str]]:
    return [(s["id"], s["caption"]) for s in graph_payload(at)["slideshow"]["steps"]]


def pick_three(at: AppTest) -> list[str]:
    """Three nodes the page's graph draws (spread over its order)."""
    ids = [n["id"] for n in graph_payload(at)["nodes"] if not n["id"].startswith("cluster:")]
    assert len(ids) >= 3
    return [ids[0], ids[len(ids) // 2], ids[-1]]


@pytest.mark.parametrize("kind", ["embedded", "file", "supermemory", "spomory"])
def test_build_reorder_and_play_with_presenter_on(kind, fresh_data_dir, tmp_path) -> None:
    with source_state(kind, tmp_path) as (state, dataset):
        texts = data_texts(dataset)
        at = run_page("slideshow.py", **state, **{PRESENTER.name: True})
        assert graph_payload(at)["slideshow"]["steps"] == []
        assert at.button(key="slideshow_play_button").disabled
        nodes = pick_three(at)
        build(at, nodes)
        assert steps_sent(at) == list(zip(nodes, CAPTIONS, strict=True))
        show = at.session_state[SLIDESHOW.name]
        assert isinstance(show, Slideshow) and show.data is not None  # made on this data
        assert not at.main.warning  # nothing missing, not other data

        at.button(key=SLIDESHOW_STEP_KEYS.key("up-2")).click().run()
        assert [i for i, _ in steps_sent(at)] == [nodes[0], nodes[2], nodes[1]]
        at.button(key=SLIDESHOW_STEP_KEYS.key("remove-0")).click().run()
        assert [i for i, _ in steps_sent(at)] == [nodes[2], nodes[1]]

        # a caption edited in place (its step's popover), the others unchanged
        field = next(t for t in at.text_area if t.key and t.key.startswith(
            SLIDESHOW_STEP_KEYS.key("caption-1-")))
        field.input("A better line\u202e, fixed")
        save = next(b for b in at.button if b.key == SLIDESHOW_STEP_KEYS.key(
            f"save-{str(field.key).removeprefix(SLIDESHOW_STEP_KEYS.prefix)}"))
        save.click().run()
        assert not at.exception, at.exception
        assert steps_sent(at) == [(nodes[2], CAPTIONS[2]), (nodes[1], "A better line, fixed")]
        shown_captions = [CAPTIONS[2], "A better line, fixed"]

        at.button(key="slideshow_play_button").click().run()
        token = graph_payload(at)["slideshow"]["play"]
        assert isinstance(token, str) and len(token) == 16
        at.button(key="slideshow_play_button").click().run()
        assert graph_payload(at)["slideshow"]["play"] != token  # each Play plays anew

        shown = rendered_text(at)
        assert sorted(t for t in texts if t in shown) == [], kind
        assert all(c in shown for c in shown_captions)  # the user's own words


def test_without_presenter_mode_the_steps_name_their_nodes(fresh_data_dir, tmp_path) -> None:
    """The check above can fail: plainly, the step list names the nodes by their text."""
    with source_state("embedded", tmp_path) as (state, dataset):
        texts = data_texts(dataset)
        at = run_page("slideshow.py", **state)
        nodes = pick_three(at)
        build(at, nodes)
        listed = " ".join(str(m.value) for m in at.markdown).replace("\\", "")
        assert [t for t in texts if t[:30] in listed], "the steps name their nodes"


def test_a_show_opened_on_other_data_says_which_steps_are_missing(fresh_data_dir,
                                                                 tmp_path) -> None:
    with source_state("embedded", tmp_path) as (state, _):
        at = run_page("slideshow.py", **state)
        node = pick_three(at)[0]
        other = (Slideshow().added(node, "here").added("mem_not_here", "gone")
                 .marked("file|0123456789abcdef"))
        at.session_state[SLIDESHOW.name] = other
        at.run()
        assert not at.exception, at.exception
        assert [str(w.value).replace("\\", "") for w in at.main.warning] == [
            "This slideshow was made on other data: step 2 of its 2 is not in this data, "
            "and it is skipped when it plays."]
        assert steps_sent(at) == [(node, "here")]
        assert not at.button(key="slideshow_play_button").disabled


def test_under_the_cluster_overview_a_cluster_opens_and_the_steps_stay_drawn(
        fresh_data_dir, tmp_path) -> None:
    """A drawing budget small enough for the overview (a large account): a click on a
    cluster opens it here (the explorer's own expansions are untouched), a node inside
    is picked and added, and once the cluster is closed again the step's node is still
    drawn as itself (so the show can fly to it)."""
    from memscope.view.budget import MIN_BUDGET

    with source_state("embedded", tmp_path) as (state, _):
        at = run_page("slideshow.py", **state, **{F_BUDGET.name: MIN_BUDGET})
        before = {n["id"] for n in graph_payload(at)["nodes"]}
        cluster = next(i for i in sorted(before) if i.startswith("cluster:"))
        browser_click(at, cluster)
        assert not at.exception, at.exception
        opened = {n["id"] for n in graph_payload(at)["nodes"]}
        inside = sorted(opened - before)
        assert inside and cluster not in opened
        assert EXPANDED.name not in at.session_state  # the explorer's, untouched
        build(at, (inside * 3)[:3])  # a small cluster: a node may come twice
        assert steps_sent(at)[0][0] == inside[0]
        at.session_state[SLIDESHOW_EXPANDED.name] = set()
        at.run()
        closed = {n["id"] for n in graph_payload(at)["nodes"]}
        assert cluster in closed and inside[0] in closed  # drawn as itself, on top
        assert steps_sent(at)[0][0] == inside[0]
        assert not at.main.warning
