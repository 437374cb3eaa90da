"""What the semantic audit finds: one :class:`SemanticFinding` per suspected
contradiction, suspicious update or group of near-duplicates.

The audit itself (:func:`memscope.meaning.audit.semantic_findings`) reads an analysis and
returns these; the Audit page's review queue, the graph's suspected-contradiction edges and
``memscope inspect`` all read the same list.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

Kind = Literal["suspected_contradiction", "suspicious_update", "near_duplicate"]
KINDS: tuple[Kind, ...] = ("suspected_contradiction", "suspicious_update", "near_duplicate")


@dataclass(frozen=True)
class SemanticFinding:
    """One finding of the semantic audit.

    ``nodes``: a contradiction's two memory ids (older first), an update's (parent,
    child), a near-duplicate group's members. ``score`` in [0, 1] (higher: surer).
    ``reason``: one sentence a person can read. ``texts``: the memories' texts as they
    were when found, in ``nodes`` order, so :attr:`key` changes when either memory does.
    """

    kind: Kind
    nodes: tuple[str, ...]
    score: float
    reason: str
    space: str | None
    texts: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        """Plain JSON form, as ``memscope inspect`` lists it beside the integrity findings
        (``message`` and ``reason`` are the same sentence: ``message`` as those have it)."""
        return {"kind": self.kind, "nodes": list(self.nodes), "message": self.reason,
                "reason": self.reason, "score": self.score, "space": self.space}

    @property
    def key(self) -> str:
        """A stable id: the kind, the ids and a digest of their texts. A "not a conflict"
        review is kept against this key, so it lapses when either memory changes."""
        digest = hashlib.sha256("\x1f".join((self.kind, *self.nodes, *self.texts))
                                .encode()).hexdigest()[:16]
        return f"{self.kind}:{digest}"
