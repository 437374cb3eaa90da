"""The path of a click, as ``docs/architecture.md`` tells it, is the path the code takes.

A click on a memory in the explorer runs the graph component's callback (the explorer's
``_on_select``), then the explorer's fragment, which draws the graph again and the node's
panel. This test records, with a profiler hook, every module of ours (``memscope/``,
``components/``, ``pages/``, ``app.py``) whose code runs from the callback's start to the
fragment's end, and compares that set with the list under the document's heading "One
click, from the browser to the panel". It also says which modules the path enters twice
(a module called again from a module it called, directly or not).
"""

from __future__ import annotations

import re
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from apptest_support import browser_click, graph_payload
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
HEADING = "One click, from the browser to the panel"
OURS = tuple(f"{ROOT}/{part}" for part in ("memscope/", "components/", "pages/", "app.py"))
#: the explorer's functions a click runs: the component's callback and the fragment
ENTRIES = frozenset({"_on_select", "explorer"})
EXPLORER = "components/sections/explorer.py"


def documented() -> list[str]:
    """The modules the document lists for the click (``- `path` — …`` under the heading,
    up to the next heading)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(HEADING)
    end = text.find("\n#", start)
    return re.findall(r"^\d+\. `([\w/.]+\.py)`", text[start:end if end > 0 else None],
                      re.M)


class Tracer:
    """Records our modules whose code runs while an explorer entry function runs."""

    def __init__(self) -> None:
        self.order: list[str] = []
        self.reentered: set[str] = set()
        self._stack: list[str | None] = []
        self._depth = 0

    @staticmethod
    def _ours(frame: FrameType) -> str | None:
        name = frame.f_code.co_filename
        return name[len(str(ROOT)) + 1:] if name.startswith(OURS) else None

    def _entry(self, frame: FrameType) -> bool:
        return frame.f_code.co_name in ENTRIES and \
            frame.f_code.co_filename.endswith(EXPLORER)

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            if self._entry(frame):
                self._depth += 1
            if self._depth:
                module = self._ours(frame)
                if module is not None:
                    if module not in self.order:
                        self.order.append(module)
                    elif module in self._stack and self._stack[-1] != module:
                        self.reentered.add(module)
                self._stack.append(module)
        elif event == "return":
            if self._depth and self._stack:
                self._stack.pop()
            if self._entry(frame):
                self._depth -= 1


def test_the_documented_click_path_is_the_one_the_code_takes(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMSCOPE_DATA_DIR", str(tmp_path / "demo"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    assert not at.exception, at.exception
    payload = graph_payload(at)
    memory = next(n["id"] for n in payload["nodes"]
                  if payload["styles"]["nodes"][n["s"]].get("kind") == "memory")
    tracer = Tracer()
    threading.setprofile(tracer)  # AppTest runs the script on a thread of its own
    sys.setprofile(tracer)
    try:
        browser_click(at, memory)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)
    assert not at.exception, at.exception
    assert at.session_state["selected_node"] == memory  # the click reached its panel
    assert tracer.order[0] == EXPLORER
    listed = documented()
    missing, stale = set(tracer.order) - set(listed), set(listed) - set(tracer.order)
    if missing or stale:
        pytest.fail("docs/architecture.md's click path is not the code's: "
                    f"runs but not listed {sorted(missing)}; listed but not run "
                    f"{sorted(stale)}. The modules in the order they are first entered:\n"
                    + "\n".join(tracer.order))
    assert len(listed) == len(set(listed)), "a module is listed twice"
    # what the document says of entering twice is what the code does
    text = DOC.read_text(encoding="utf-8")
    said = set(re.findall(r"entered twice: `([\w/.]+\.py)`", text))
    assert said == tracer.reentered, sorted(tracer.reentered)
