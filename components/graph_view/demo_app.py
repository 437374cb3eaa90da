"""Demo of the graph component on the test fixtures (used by the browser test).

Run from the repository root::

    streamlit run components/graph_view/demo_app.py

``MEMSCOPE_FIXTURES`` points at another fixtures folder (default: the repository's
``tests/fixtures``).
"""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `streamlit run` puts only this folder on sys.path
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from components.graph_view import graph_view, group_annotations  # noqa: E402
from memscope.graph.analysis import Analysis, analyse  # noqa: E402
from memscope.records.dataset import read_files  # noqa: E402
from memscope.view.build import COLOR_BY, ViewData, build_view, highlight  # noqa: E402
from memscope.view.layout import Position, layout_positions  # noqa: E402

FIXTURES = Path(os.environ.get("MEMSCOPE_FIXTURES", ROOT / "tests" / "fixtures"))
#: the fixtures' snapshot time, so that their "recent" memories show as recent
NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


@st.cache_resource
def load() -> tuple[Analysis, dict[str, Position]]:
    """The fixtures read through the core, and their layout (shared, never mutated)."""
    files = [FIXTURES / "supermemory" / f"documents_page{i}.json" for i in (1, 2, 3)]
    files.append(FIXTURES / "spomory" / "passport.json")
    analysis = analyse(read_files(files), NOW)
    return analysis, layout_positions(analysis.graph.graph)  # type: ignore[return-value]


@st.cache_data
def view_for(color_by: str) -> ViewData:
    """The drawn view for one colouring."""
    analysis, positions = load()
    return build_view(analysis, color_by=color_by, positions=positions)  # type: ignore[arg-type]


def on_select(node_id: str | None) -> None:
    """The demo keeps its selection under its own key, as an app would."""
    st.session_state["selected_node"] = node_id


st.set_page_config(page_title="Memscope · graph view demo", page_icon="🧠", layout="wide")
st.title("Graph view demo")
left, right = st.columns([3, 1])
color_by = right.radio("Colour by", COLOR_BY, key="color_by")
physics = right.toggle("Physics", value=False, key="physics")
find = right.text_input("Find", key="find").strip().casefold()
view = view_for(color_by)
matches = sorted(n["id"] for n in view["nodes"] if find and find in n["label"].casefold())
drawn = highlight(view, matches) if matches else view
with left:
    graph_view(drawn, key="graph", height=560, physics=physics,
               focus=st.session_state.get("selected_node"), on_select=on_select,
               fit_ids=matches, annotations=group_annotations(view))
right.text(f"Selected node: {st.session_state.get('selected_node') or '—'}")
right.text(f"Matches: {len(matches)}")
right.json(view["legend"], expanded=False)
