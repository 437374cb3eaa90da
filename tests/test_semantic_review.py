"""The review queue of the semantic audit: memoised once per load in the pipeline, drawn
as suspected-contradiction edges on the graph, reviewed "not a conflict" in the ledger,
and masked in presenter mode. A small store of our own with known contradictions (the
demo's planted cases are another helper's)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from apptest_support import run_page

from components.sections import semantic_review as review
from components.sections.sidebar import PRESENTER
from memscope.graph.build import CONTRADICTS, EDGE_KINDS
from memscope.lenses.filters import Filters
from memscope.meaning.findings import SemanticFinding
from memscope.pipeline.core import Pipeline, contradiction_pairs
from memscope.pipeline.keeping import Keeper
from memscope.pipeline.loads import Loads
from memscope.settings import STORE_FILE
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store

HOME, WORK = "maya_home", "maya_work"


def _mem(mem_id: str, text: str, day: int, space: str = HOME, **extra) -> dict:
    when = f"2026-11-{day:02d}T09:00:00Z"
    return {"id": mem_id, "memory": text, "createdAt": when, "updatedAt": when,
            "spaceContainerTag": space, **extra}


def _doc(doc_id: str, title: str, day: int, space: str, memories: list[dict]) -> dict:
    when = f"2026-11-{day:02d}T09:00:00Z"
    return {"id": doc_id, "title": title, "type": "text", "createdAt": when,
            "updatedAt": when, "containerTags": [space], "memoryEntries": memories}


#: two contradictions (another place; a negation), compatible look-alikes (two
#: allergies), a resolved update chain and an update that retired an unrelated fact
DOCS = [
    _doc("doc_notes_oct", "Notes from October", 1, HOME, [
        _mem("m_lisbon", "Maya lives in Lisbon.", 1),
        _mem("m_coffee", "Maya drinks coffee every morning.", 1),
        _mem("m_peanut", "Maya is allergic to peanuts.", 1)]),
    _doc("doc_notes_nov", "Notes from November", 10, HOME, [
        _mem("m_berlin", "Maya lives in Berlin.", 10),
        _mem("m_nocoffee", "Maya does not drink coffee.", 11),
        _mem("m_shellfish", "Maya is allergic to shellfish.", 12)]),
    _doc("doc_work", "Work chat", 5, WORK, [
        _mem("m_vue", "Maya prefers Vue for frontend work.", 5, WORK, version=1,
             isLatest=False),
        _mem("m_react", "Maya prefers React for frontend work.", 8, WORK, version=2,
             isLatest=True, parentMemoryId="m_vue", rootMemoryId="m_vue"),
        _mem("m_standup", "The Atlas team holds its stand-up at 9:30.", 6, WORK, version=1,
             isLatest=False),
        _mem("m_dentist", "Maya has a dentist appointment on Friday.", 9, WORK, version=2,
             isLatest=True, parentMemoryId="m_standup", rootMemoryId="m_standup")]),
]
CONTRADICTIONS = {("m_lisbon", "m_berlin"), ("m_coffee", "m_nocoffee")}


def seed(path: Path) -> Store:
    """The store above at ``path`` (the app's data folder's store file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    store = Store.create(path)
    store.load_records(DOCS)
    return store


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return seed(tmp_path / STORE_FILE)


@pytest.fixture
def pipe(tmp_path: Path) -> Pipeline:
    return Pipeline(Loads(keep=None, settle=None, read=lambda _s: None),
                    Keeper(tmp_path / "kept"))


def _pairs(findings) -> set[tuple[str, str]]:
    return {(a, b) for a, b, _ in contradiction_pairs(findings)}


def test_the_audit_runs_once_per_load_whatever_the_view_asks(pipe: Pipeline, store: Store):
    source = EmbeddedSource(store)
    ref = pipe.loads.load(source)
    req = pipe.first(ref, source.identity())
    assert pipe.semantic(req, wait=False) is None  # a view never starts it
    pipe.view(req)
    assert pipe.memo.calls["semantic"] == 0
    findings = pipe.semantic(req)
    assert _pairs(findings) == CONTRADICTIONS
    assert {f.nodes for f in findings or () if f.kind == "suspicious_update"} == {
        ("m_standup", "m_dentist")}
    for other in (replace(req, presenter=True), replace(req, query="maya"),
                  replace(req, selected="m_lisbon"), replace(req, budget=3),
                  replace(req, node_filters=Filters(show_forgotten=False))):
        assert pipe.semantic(other) is findings
    assert pipe.memo.calls["semantic"] == 1
    touched = replace(req, load=pipe.loads.touch(ref.key))  # a forget: a new revision
    assert pipe.semantic(touched, wait=False) is None
    assert _pairs(pipe.semantic(touched)) == CONTRADICTIONS
    assert pipe.memo.calls["semantic"] == 2


def test_the_graph_draws_each_suspected_contradiction_once_audited(pipe: Pipeline,
                                                                   store: Store):
    source = EmbeddedSource(store)
    req = pipe.first(pipe.loads.load(source), source.identity())
    assert CONTRADICTS in EDGE_KINDS and CONTRADICTS in req.edge_kinds

    def drawn(r) -> set[tuple[str, str]]:
        return {(e["from"], e["to"]) for e in pipe.view(r).drawn["edges"]
                if e["kind"] == CONTRADICTS}

    assert drawn(req) == set()  # not audited yet: nothing drawn, nothing waited for
    pipe.semantic(req)
    view = pipe.view(req)
    assert drawn(req) == CONTRADICTIONS
    line = next(e for e in view.legend["edge_styles"] if e["key"] == CONTRADICTS)
    assert line["count"] == view.legend["edges"][CONTRADICTS] == 2
    assert line["label"] == "suspected contradiction" and line["style"]["dashes"]
    edge = next(e for e in view.drawn["edges"] if e["kind"] == CONTRADICTS)
    assert edge.get("title", "").startswith("suspected contradiction (score ")
    # the Relation kinds filter without it draws none and counts none
    others = replace(req, edge_kinds=frozenset(EDGE_KINDS) - {CONTRADICTS})
    assert drawn(others) == set()
    assert not any(e["key"] == CONTRADICTS and e["count"]
                   for e in pipe.view(others).legend["edge_styles"])
    # collapsed into clusters, the selection still draws its other memory and the edge
    small = replace(req, budget=2, selected="m_lisbon")
    assert ("m_lisbon", "m_berlin") in drawn(small)
    assert drawn(replace(req, budget=2)) <= CONTRADICTIONS


def test_a_pair_reviewed_as_not_a_conflict_draws_no_edge(pipe: Pipeline, store: Store):
    source = EmbeddedSource(store)
    req = pipe.first(pipe.loads.load(source), source.identity())
    findings = pipe.semantic(req) or []
    lisbon = next(f for f in findings if f.kind == "suspected_contradiction"
                  and "m_lisbon" in f.nodes)
    reviewed = replace(req, dismissed=frozenset({lisbon.key}))
    view = pipe.view(reviewed)
    drawn = {(e["from"], e["to"]) for e in view.drawn["edges"] if e["kind"] == CONTRADICTS}
    assert drawn == CONTRADICTIONS - {lisbon.nodes}
    assert view.legend["edges"][CONTRADICTS] == len(CONTRADICTIONS) - 1


def _finding(text_b: str = "Maya lives in Berlin.") -> SemanticFinding:
    return SemanticFinding("suspected_contradiction", ("m_lisbon", "m_berlin"), 0.8,
                           "Another place.", HOME, ("Maya lives in Lisbon.", text_b))


def test_not_a_conflict_is_ledgered_and_hides_the_item_until_a_text_changes(store: Store):
    source, storage = EmbeddedSource(store), store.storage()
    finding = _finding()
    message = review.not_a_conflict(storage, source, finding, actor="ana@example.org")
    assert message == ("Marked as not a conflict: “Maya lives in Lisbon.” and “Maya lives in "
                       "Berlin.” — it stays hidden until either memory changes.")
    row = storage.ledger(scope=source.identity())[0]
    assert (row.action, row.target_id, row.outcome, row.actor, row.space) == (
        review.REVIEWED, finding.key, "ok", "ana@example.org", HOME)
    assert row.snapshot == "Maya lives in Lisbon. ⟷ Maya lives in Berlin."
    reviewed = review.reviewed_keys(storage, source.identity())
    present = {"m_lisbon", "m_berlin"}
    assert review.queue([finding], reviewed, None, present) == []
    changed = _finding("Maya lives in Berlin since May.")
    assert review.queue([changed], reviewed, None, present) == [changed]
    # another source identity does not see this review
    assert review.reviewed_keys(storage, "another|source") == set()


def test_a_viewer_reviews_nothing(store: Store):
    source, storage = EmbeddedSource(store), store.storage()
    before = len(storage.ledger(scope=source.identity()))
    message = review.not_a_conflict(storage, source, _finding(), actor="v@example.org",
                                    viewer=True)
    assert message.startswith("Nothing was recorded")
    assert len(storage.ledger(scope=source.identity())) == before


def test_the_queue_keeps_loaded_filtered_memories_contradictions_first():
    update = SemanticFinding("suspicious_update", ("m_standup", "m_dentist"), 0.99, "r",
                             WORK, ("a", "b"))
    weak = replace(_finding(), score=0.3)
    strong = SemanticFinding("suspected_contradiction", ("m_coffee", "m_nocoffee"), 0.9,
                             "r", HOME, ("c", "d"))
    everything = {"m_lisbon", "m_berlin", "m_coffee", "m_nocoffee", "m_standup",
                  "m_dentist"}
    assert review.queue([update, weak, strong], set(), None, everything) == [
        strong, weak, update]
    assert review.queue([update, weak, strong], set(), {"m_coffee", "m_nocoffee"},
                        everything) == [strong]
    assert review.queue([weak], set(), None, everything - {"m_berlin"}) == []


def _texts(at) -> str:
    """Every text on the page, Markdown escapes undone."""
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "text", "info")
                     for e in getattr(at, kind)).replace("\\", "")


def test_the_audit_page_shows_each_item_side_by_side(fresh_data_dir: Path):
    seed(fresh_data_dir / STORE_FILE)
    at = run_page("audit.py")
    shown = _texts(at)
    assert "2 suspected contradictions, 1 suspicious update" in shown
    for text in ("Maya lives in", "drinks", "does", "The Atlas team", "dentist"):
        assert text in shown
    assert "Notes from October" in shown and "Notes from November" in shown
    assert "created 2026-11-01 09:00 UTC" in shown and HOME in shown
    assert ":blue-background[Lisbon.]" in shown  # the word diff, each side its part
    assert ":blue-background[Berlin.]" in shown  # neutral marks: neither side struck
    assert ":red-background[~~Lisbon.~~]" not in shown
    assert "another place (“Lisbon” / “Berlin”)" in shown  # why it was flagged
    assert "may have retired a fact by mistake" in shown
    assert "score 0." in shown
    labels = [b.label for b in at.button]
    assert labels.count("Not a conflict") == 3
    assert labels.count("Forget the older") == 2
    assert labels.count("Open both in the graph") == 3


def test_presenter_mode_masks_the_queue(fresh_data_dir: Path):
    seed(fresh_data_dir / STORE_FILE)
    at = run_page("audit.py", **{PRESENTER.name: True})
    page = _texts(at)
    assert "suspected contradictions" in page and "Space 1" in page
    for mem_id in (m["id"] for d in DOCS for m in d["memoryEntries"]):  # ids are shown
        page = page.replace(mem_id, "")
    words = {w.strip(".,") for d in DOCS for m in d["memoryEntries"]
             for w in m["memory"].split() if len(w) > 4}
    words |= {"Notes", "October", "November", HOME, WORK}
    leaked = sorted(w for w in words if w in page)
    assert leaked == []
    assert review.MASKED_REASONS["suspected_contradiction"] in page


def test_a_failing_audit_is_one_sentence_and_the_page_goes_on(fresh_data_dir: Path,
                                                              monkeypatch):
    import memscope.pipeline.steps as steps

    def broken(_analysis):
        raise ValueError("a bug in the audit")

    monkeypatch.setattr(steps, "semantic_findings", broken)
    seed(fresh_data_dir / STORE_FILE)
    at = run_page("audit.py")
    assert [w.value for w in at.warning] == [review.FAILED]
    assert "Version chains" in [h.value for h in at.subheader]


def test_a_failing_audit_never_stops_the_warm_up(pipe: Pipeline, store: Store, monkeypatch):
    import memscope.pipeline.steps as steps

    def broken(_analysis):
        raise ValueError("a bug in the audit")

    monkeypatch.setattr(steps, "semantic_findings", broken)
    req = pipe.prewarm(EmbeddedSource(store))
    assert pipe.memo.calls["overview"] == 1  # the first view was still drawn
    assert pipe.semantic(req, wait=False) is None


def test_a_viewer_sees_the_queue_but_no_action_that_changes_anything(fresh_data_dir: Path):
    from test_sign_in import app

    seed(fresh_data_dir / STORE_FILE)
    at = app({"is_logged_in": True, "email": "viewer@example.com"}, "audit.py")
    assert "2 suspected contradictions" in _texts(at)
    labels = {b.label for b in at.button}
    assert "Open both in the graph" in labels
    assert not labels & {"Not a conflict", "Forget the older", "Forget this one"}
