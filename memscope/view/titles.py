"""What a node says: the text its label is cut from, and its tooltip.

Text from the data goes into a node's ``label`` (cut to :data:`LABEL_MAX`, a document
card's to :data:`CARD_LABEL_MAX`) and ``title`` (whole, up to :data:`TITLE_MAX`, plain
text); the graph component never renders either as HTML.

>>> from types import SimpleNamespace as R
>>> text_of("memory", R(memory=""), "m1"), text_of("entity", R(name="Maya"), "e1")
('m1', 'Maya')
"""

from __future__ import annotations

from collections.abc import Hashable
from datetime import datetime
from typing import Any

import networkx as nx

from memscope.records.text import clip, shorten
from memscope.view.wording import relative_time

LABEL_MAX = 24
CARD_LABEL_MAX = 40
TITLE_MAX = 2000


def text_of(kind: str, record: Any, node_id: Hashable) -> str:
    """The node's own text: a document's title, a memory's text, an entity's name (its
    id when it has none)."""
    if kind == "document":
        return record.title or str(node_id)
    if kind == "memory":
        return record.memory or str(node_id)
    return record.name or str(node_id)


def short_text(g: nx.MultiDiGraph, node: Hashable, limit: int) -> str:
    """The text of ``g``'s node, clipped to ``limit``."""
    attrs = g.nodes[node]
    return clip(text_of(attrs["kind"], attrs["record"], node), limit)


def _when(record: Any, now: datetime | None) -> list[str]:
    """When a memory was made and when it is (or was) to be forgotten, in words."""
    if now is None:
        return []
    out = []
    if record.created_at is not None:
        out.append(f"added {relative_time(record.created_at, now)}")
    if record.forget_after is not None:
        verb = "to be forgotten" if record.forget_after > now else "forget date passed"
        out.append(f"{verb} {relative_time(record.forget_after, now)}")
    return ["; ".join(out)] if out else []


def title(kind: str, record: Any, node_id: Hashable, state: str | None,
          now: datetime | None = None) -> str:
    """The tooltip: full text first, then facts, as plain lines (times as "3 days ago"
    seen from ``now``)."""
    text = text_of(kind, record, node_id)
    if kind == "document":
        facts = [f"document {node_id} · {record.type}"
                 + (f" · {record.status}" if record.status else "")]
        facts += [x for x in (record.url, record.summary) if x]
    elif kind == "memory":
        badges = (f"{state}" + (" · static" if record.is_static else "")
                  + (" · inferred, not stated by you" if record.is_inference else ""))
        space = record.space
        facts = [f"memory {node_id} · {badges} · version {record.version!r}"
                 + (f" · space {space}" if space else "")]
        facts += _when(record, now)
        if record.forget_reason:
            facts.append(f"forget reason: {record.forget_reason}")
    else:
        facts = [f"entity {node_id} · {record.type}"]
        if record.aliases:
            facts.append("aliases: " + ", ".join(record.aliases))
    # each part cut first: a 5 MB text is never joined whole to be cut after
    return shorten("\n".join(shorten(t, TITLE_MAX) for t in [text, *facts]), TITLE_MAX)


__all__ = ["CARD_LABEL_MAX", "LABEL_MAX", "TITLE_MAX", "short_text", "text_of", "title"]
