"""A view draws the audit's suspected contradictions without hashing their texts again:
a finding's key (a digest of both texts) is computed once per audit, not on every click
of every session (what bench/server_sessions.py found in the script runs' CPU), and a
review or a new audit still changes what is drawn."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from test_semantic_review import CONTRADICTIONS, seed

from memscope.graph.build import CONTRADICTS
from memscope.meaning.findings import SemanticFinding
from memscope.pipeline.core import Pipeline
from memscope.pipeline.keeping import Keeper
from memscope.pipeline.loads import Loads
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, ...]]:
    """How often each finding's key was computed (by its nodes)."""
    calls: Counter[tuple[str, ...]] = Counter()
    original = SemanticFinding.key.fget
    assert original is not None

    def key(self: SemanticFinding) -> str:
        calls[self.nodes] += 1
        return original(self)

    monkeypatch.setattr(SemanticFinding, "key", property(key))
    return calls


def _drawn(pipe: Pipeline, req) -> set[tuple[str, str]]:
    return {(e["from"], e["to"]) for e in pipe.view(req).drawn["edges"]
            if e["kind"] == CONTRADICTS}


def test_the_keys_are_computed_once_per_audit(tmp_path: Path,
                                              counted: Counter[tuple[str, ...]]):
    source = EmbeddedSource(seed(tmp_path / STORE_FILE))
    pipe = Pipeline(Loads(keep=None, settle=None, read=lambda _s: None),
                    Keeper(tmp_path / "kept"))
    ref = pipe.loads.load(source)
    req = pipe.first(ref, source.identity())
    findings = pipe.semantic(req) or []
    counted.clear()
    for selected in (None, "m_lisbon", "m_berlin", "m_coffee", None):
        assert _drawn(pipe, replace(req, selected=selected)) == CONTRADICTIONS
    assert set(counted) == CONTRADICTIONS and set(counted.values()) == {1}

    lisbon = next(f for f in findings if f.kind == "suspected_contradiction"
                  and "m_lisbon" in f.nodes)
    dismissed = frozenset({lisbon.key})
    counted.clear()
    assert _drawn(pipe, replace(req, dismissed=dismissed)) == CONTRADICTIONS - {lisbon.nodes}
    assert _drawn(pipe, req) == CONTRADICTIONS  # the review is per request, not cached
    assert not counted

    touched = replace(req, load=pipe.loads.touch(ref.key))  # a new revision, a new audit
    pipe.semantic(touched)
    assert _drawn(pipe, replace(touched, dismissed=dismissed)) == \
        CONTRADICTIONS - {lisbon.nodes}
    assert set(counted.values()) == {1} and set(counted) == CONTRADICTIONS
