"""Word-level diffs between two memory texts.

Example::

    >>> word_diff("Prefers Vue for frontend", "Prefers React for frontend work")
    [('equal', 'Prefers '), ('delete', 'Vue'), ('insert', 'React'), ('equal', ' for frontend'), ('insert', ' work')]
"""  # noqa: E501

from __future__ import annotations

import re
from difflib import SequenceMatcher

_TOKEN = re.compile(r"\s+|[^\s]+")

Segment = tuple[str, str]  # ("equal" | "insert" | "delete", text)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text or "")


def word_diff(old: str | None, new: str | None) -> list[Segment]:
    """Segments that turn ``old`` into ``new``, word by word (white space kept)."""
    a, b = _tokens(old or ""), _tokens(new or "")
    out: list[Segment] = []

    def push(op: str, text: str) -> None:
        if not text:
            return
        if out and out[-1][0] == op:
            out[-1] = (op, out[-1][1] + text)
        else:
            out.append((op, text))

    matcher = SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            push("equal", "".join(a[i1:i2]))
        else:
            push("delete", "".join(a[i1:i2]))
            push("insert", "".join(b[j1:j2]))
    return out


def diff_stats(segments: list[Segment]) -> dict[str, int]:
    """Words inserted and deleted."""
    stats = {"insert": 0, "delete": 0}
    for op, text in segments:
        if op in stats:
            stats[op] += len(text.split())
    return stats
