"""Issue 32: on the recall map, choosing buckets to highlight fades every other node to a
quarter of its opacity, in place — nothing is hidden (as the other highlights do)."""

from __future__ import annotations

from apptest_support import graph_payload, run_page
from test_recall_page import _run_to_the_end

from components.sections import recall as ui
from memscope.demo.seeding import seed_if_missing
from memscope.settings import store_path
from memscope.view.paint import FADE, fade_other_groups


def _view() -> dict:
    nodes = [{"id": i, "kind": "memory", "color_group": g, "opacity": 1.0}
             for i, g in (("a", "0"), ("b", "1"), ("c", "0"), ("d", ""))]
    edges = [{"from": "a", "to": "c"}, {"from": "a", "to": "b"}]
    return {"nodes": nodes, "edges": edges, "legend": {}}


def test_the_other_groups_fade_and_stay_drawn() -> None:
    view = _view()
    out = fade_other_groups(view, ["0"])  # type: ignore[arg-type]
    by: dict[str, dict] = {n["id"]: dict(n) for n in out["nodes"]}
    assert set(by) == {"a", "b", "c", "d"}  # faded, not hidden
    assert by["a"]["opacity"] == by["c"]["opacity"] == 1.0 and "faded" not in by["a"]
    assert by["b"]["opacity"] == by["d"]["opacity"] == FADE <= 0.25
    assert by["b"]["faded"] is True
    assert "hidden" not in by["b"]
    assert out["edges"][0] == view["edges"][0]  # between two highlighted nodes: as it was
    assert out["edges"][1] != view["edges"][1]  # to a faded one: faded
    assert fade_other_groups(view, [])["nodes"] == view["nodes"]  # type: ignore[arg-type]


def _nodes(payload: dict) -> dict[str, dict]:
    """The payload's nodes by id, each with its shared style (``s``) merged in."""
    styles = (payload.get("styles") or {}).get("nodes") or []
    return {n["id"]: {**(styles[n["s"]] if "s" in n else {}), **n}
            for n in payload["nodes"]}


def test_the_recall_map_fades_the_buckets_not_chosen(fresh_data_dir) -> None:
    seed_if_missing(store_path())
    at = _run_to_the_end(run_page("recall.py"))
    plain = _nodes(graph_payload(at))
    at.session_state[ui.HIGHLIGHT_KEY] = ["0"]
    at.run()
    assert not at.exception, at.exception
    lit = _nodes(graph_payload(at))
    assert set(lit) == set(plain)  # every node is still drawn
    never = [i for i, n in lit.items() if n.get("color_group") == "0"]
    rest = [i for i, n in lit.items() if n.get("color_group") != "0"]
    assert never and rest
    assert all(float(lit[i].get("opacity", 1.0)) == float(plain[i].get("opacity", 1.0))
               for i in never)
    assert all(float(lit[i]["opacity"]) <= 0.25 and lit[i]["faded"] for i in rest)
    assert not [i for i, n in lit.items() if n.get("hidden")]

