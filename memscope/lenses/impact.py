"""What forgetting a memory touches: later versions, dependants, profile lines."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from memscope.graph.analysis import Analysis
from memscope.records.models import ProfileLine
from memscope.records.text import counted, one_line, shorten


@dataclass
class Impact:
    """The preview shown before a forget is confirmed."""

    memory_id: str
    later_versions: list[str] = field(default_factory=list)
    dependants: list[tuple[str, str]] = field(default_factory=list)  # (memory id, kind)
    profile_lines: list[ProfileLine] = field(default_factory=list)

    def sentences(self, texts: Mapping[str, str] | None = None) -> list[str]:
        """The impact as short sentences (empty when nothing else is touched), naming each
        memory by its text when ``texts`` (memory id → text) has it, else by its id.

        >>> Impact("m1", later_versions=["m2"]).sentences({"m2": "Maya lives in Porto"})
        ['1 later version builds on it: “Maya lives in Porto”.']
        """
        texts = texts or {}

        def name(memory_id: str) -> str:
            text = texts.get(memory_id)
            return f"“{shorten(one_line(text), 80)}”" if text else memory_id

        out = []
        if self.later_versions:
            n = len(self.later_versions)
            out.append(f"{n} later version{' builds' if n == 1 else 's build'} on it: "
                       + ", ".join(map(name, self.later_versions)) + ".")
        if self.dependants:
            n = len(self.dependants)
            out.append(f"{n} memor{'y extends or derives' if n == 1 else 'ies extend or derive'}"
                       " from it: " + ", ".join(f"{name(m)} ({k})" for m, k in self.dependants)
                       + ".")
        if self.profile_lines:
            n = len(self.profile_lines)
            out.append(f"{counted(n, 'profile line')} {'cites' if n == 1 else 'cite'} it.")
        return out


def forget_impact(analysis: Analysis, memory_id: str) -> Impact:
    """Later versions in its chain, memories that extend/derive from it, citing lines."""
    impact = Impact(memory_id)
    chain = analysis.chains.of(memory_id)
    if chain is not None:
        below: set[str] = {memory_id}
        for entry in chain.entries:  # chain order puts parents before children
            if entry.parent_id in below and entry.id != memory_id:
                below.add(entry.id)
                impact.later_versions.append(entry.id)
    g = analysis.graph.graph
    if memory_id in g:
        for _, target, kind in g.out_edges(memory_id, keys=True):
            if kind in ("extends", "derives"):
                impact.dependants.append((target, kind))
    for profile in analysis.dataset.profiles.values():
        for line in (*profile.static, *profile.dynamic):
            if memory_id in line.memory_ids:
                impact.profile_lines.append(line)
    return impact
