"""Presenter mode: structure kept, no original text in the masked data, the page payload,
the charts or any export."""

from __future__ import annotations

import io
import json
import zipfile

import plotly.graph_objects as go
import pytest
from conftest import NOW, SM, SP

from memscope.export.formats import (
    evidence_nodes,
    evidence_pack,
    memories_csv,
    offline_html,
    to_gexf,
    to_graphml,
    to_node_link,
)
from memscope.graph.analysis import analyse
from memscope.lenses.presenter import mask, mask_text, space_pseudonyms
from memscope.records.dataset import read_files
from memscope.records.models import ParseReport, parse_profile
from memscope.reports.insights import all_charts
from memscope.view.build import build_view

TAG = "sm_project_personal"


@pytest.fixture(scope="module")
def ds():
    data = read_files([SM / f"documents_page{i}.json" for i in (1, 2, 3)] + [SP / "passport.json"])
    raw = json.loads((SM / "profile.json").read_text(encoding="utf-8"))
    data.profiles[TAG] = parse_profile(raw, TAG, ParseReport())
    return data


def figure_json(fig: go.Figure) -> str:
    """The figure as JSON text."""
    text = fig.to_json()
    assert isinstance(text, str)
    return text


def originals(ds) -> set[str]:
    """Every personal text of the dataset (at least 4 characters long)."""
    texts: set[str | None] = set()
    for m in ds.memories.values():
        texts |= {m.memory, m.forget_reason}
    for d in ds.documents.values():
        texts |= {d.title, d.summary, d.url, d.content}
    for p in ds.profiles.values():
        texts |= {line.text for line in [*p.static, *p.dynamic]}
    for e in ds.entities.values():
        texts |= {e.name, *e.aliases}
    for r in ds.relations.values():
        texts |= {r.predicate, *(p.source_span for p in r.provenance)}
    return {t for t in texts if t and len(t) >= 2}


def leaks(text: str, secrets: set[str]) -> list[str]:
    return sorted(s for s in secrets if s in text)


def test_mask_keeps_structure_and_ids(ds):
    masked = mask(ds)
    assert list(masked.memories) == list(ds.memories)
    assert list(masked.documents) == list(ds.documents)
    assert masked.memory_documents == ds.memory_documents
    assert list(masked.entities) == list(ds.entities)
    a, b = analyse(ds, NOW), analyse(masked, NOW)
    assert sorted(a.graph.graph.edges(keys=True)) == sorted(b.graph.graph.edges(keys=True))
    assert [c.ids for c in a.chains.chains] == [c.ids for c in b.chains.chains]
    assert [(f.kind, f.nodes) for f in a.findings] == [(f.kind, f.nodes) for f in b.findings]
    assert {m: a.state(m) for m in ds.memories} == {m: b.state(m) for m in ds.memories}
    # the profile is kept under its space's pseudonym (a tag may be a person's name)
    profile = masked.profiles[space_pseudonyms(ds)[TAG]]
    assert len(profile.static) == 3 and len(profile.dynamic) == 2


def test_mask_placeholders_are_neutral_and_deterministic(ds):
    masked = mask(ds)
    first = next(iter(ds.memories))
    assert masked.memories[first].memory == f"Memory 1 ({len(ds.memories[first].memory)} chars)"
    assert masked.documents["doc_stack_2"].title == "Document 1"
    assert masked.memories["mem_allergy"].forget_reason == "Reason 1"
    assert masked.relations["r1"].predicate == "predicate 1"
    assert masked.entities["e_zs"].aliases == ["Alias 1.1"]
    again = mask(ds)
    assert [m.memory for m in again.memories.values()] == [
        m.memory for m in masked.memories.values()]
    assert ds.memories["mem_allergy"].memory == "Allergic to penicillin."  # input untouched
    assert mask_text(None) is None


def test_masked_dataset_holds_no_original_text(ds):
    secrets = originals(ds)
    assert "<script>alert('memory')</script> likes <b>bold</b> text" in secrets
    masked = mask(ds)
    values = []
    for collection in (masked.memories, masked.documents, masked.entities, masked.relations):
        for rec in collection.values():
            values.extend(str(getattr(rec, f)) for f in rec.__slots__)
    for p in masked.profiles.values():
        values.extend(line.text for line in [*p.static, *p.dynamic])
    assert leaks("\n".join(values), secrets) == []


def test_no_original_text_in_payload_charts_or_exports(ds):
    secrets = originals(ds)
    an = analyse(mask(ds), NOW)
    view = build_view(an)
    payload = json.dumps(view, ensure_ascii=False)
    assert leaks(payload, secrets) == []
    plain = json.dumps(build_view(analyse(ds, NOW)), ensure_ascii=False)
    assert "Allergic to penicillin." in leaks(plain, secrets)  # the check does find text
    charts = json.dumps([json.loads(figure_json(f)) for f in all_charts(an).values()],
                        ensure_ascii=False)
    assert leaks(charts, secrets) == []
    for blob in (to_graphml(an), to_gexf(an), memories_csv(an),
                 json.dumps(to_node_link(an), ensure_ascii=False).encode()):
        assert leaks(blob.decode("utf-8"), secrets) == []
    page = offline_html(view, "Demo")
    start = page.index('id="memscope-data">') + len('id="memscope-data">')
    data = json.loads(page[start:page.index("</script>", start)])
    assert leaks(json.dumps(data, ensure_ascii=False), secrets) == []
    nodes = evidence_nodes(an, "mem_coffee_v2")
    pack = zipfile.ZipFile(io.BytesIO(evidence_pack(an, nodes, build_view(an, visible=nodes))))
    for name in pack.namelist():
        assert leaks(pack.read(name).decode("utf-8"), secrets) == [], name


def test_the_panel_does_not_word_diff_two_placeholders() -> None:
    """Seen on the contact sheet (``make screens``): "Memory ~~189~~ 69 (~~37~~ (57 chars)"."""
    from components.sections.panels import _diff_markdown

    shown = _diff_markdown("Memory 189 (37 chars)", "Memory 69 (57 chars)")
    assert shown.startswith("Memory 69 \\(57 chars\\)") and "~~" not in shown  # (escaped)
    assert "hidden in presenter mode" in shown
    assert "~~" in _diff_markdown("Maya likes tea", "Maya likes green tea") \
        or ":green-background[" in _diff_markdown("Maya likes tea", "Maya likes green tea")
