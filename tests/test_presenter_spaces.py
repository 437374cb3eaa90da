"""Presenter mode names every space by a pseudonym ("Space 1", "Space 2"…), never by its
tag, id or name (a tag is often a customer's or a person's name): in the masked dataset,
and on the Explorer panel, Profile, Insights, Ledger and Forget-all pages under AppTest
on the seeded demo store (its tags: ``sm_project_personal``, ``acme_work``,
``sm_project_research``)."""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile
from typing import Any

import pytest
from apptest_support import run_page
from streamlit.testing.v1 import AppTest

from components.state.connection import Connection
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
from memscope.lenses.asof import BELIEVED
from memscope.lenses.presenter import mask, mask_spaces, real_space, space_pseudonyms
from memscope.records.dataset import Dataset, from_feed_pages
from memscope.reports.insights import all_charts
from memscope.reports.summary import summarise
from memscope.settings import store_path
from memscope.sources import actions
from memscope.sources.embedded import EmbeddedSource
from memscope.store.store import Store
from memscope.view.build import build_view


def demo() -> Dataset:
    from memscope.demo.seeding import seed_if_missing

    seed_if_missing(store_path())
    return EmbeddedSource(store_path()).load().dataset


def secrets_of(ds: Dataset) -> set[str]:
    """Every space tag, space id and space name of ``ds``."""
    found = {m.container_tag for m in ds.memories.values()} | {
        m.space_id for m in ds.memories.values()}
    for s in ds.spaces:
        found |= {s.container_tag, s.id, s.name}
    found |= {t for t in ds.profiles} | {p.container_tag for p in ds.profiles.values()}
    return {t for t in found if t}


def strings(value: Any) -> list[str]:
    """Every string in ``value`` (dataclasses, dicts — keys too —, lists, tuples)."""
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [s for f in dataclasses.fields(value) for s in strings(getattr(value, f.name))]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*strings(k), *strings(v))]
    if isinstance(value, list | tuple | set | frozenset):
        return [s for v in value for s in strings(v)]
    return []


def test_masked_demo_dataset_holds_no_space_tag(fresh_data_dir):
    ds = demo()
    secrets = secrets_of(ds)
    assert {"acme_work", "sm_project_personal", "Acme Work"} <= secrets
    masked = mask(ds)
    found = {s for text in strings(masked) for s in secrets if s in text}
    assert found == set()
    assert {m.space for m in masked.memories.values()} == {"Space 1", "Space 2", "Space 3"}
    assert sorted(masked.profiles) == ["Space 1", "Space 2", "Space 3"]
    # the same memory's space before and after
    names = space_pseudonyms(ds)
    assert all(masked.memories[i].space == names[m.space]
               for i, m in ds.memories.items() if m.space)


def test_pseudonyms_follow_the_space_list_like_the_summary_card():
    ds = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "a", "memory": "x", "spaceContainerTag": "zeta_customer"},
        {"id": "b", "memory": "y", "spaceContainerTag": "jane_doe"},
        {"id": "c", "memory": "z", "spaceContainerTag": "jane_doe"}]}]}])
    names = space_pseudonyms(ds)
    assert names == {"zeta_customer": "Space 1", "jane_doe": "Space 2"}
    assert mask(ds) is not ds and space_pseudonyms(ds) == names  # deterministic
    card = summarise(analyse(mask(ds)))
    assert card.spaces == ["Space 2", "Space 1"]  # by count, named as everywhere else
    assert "jane_doe" not in " ".join(card.sentences())


def test_a_part_masked_with_the_whole_loads_names():
    whole = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "a", "memory": "x", "spaceContainerTag": "first"},
        {"id": "b", "memory": "y", "spaceContainerTag": "second"}]}]}])
    part = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "b", "memory": "y", "spaceContainerTag": "second"},
        {"id": "c", "memory": "z", "spaceContainerTag": "third"}]}]}])
    masked = mask(part, space_pseudonyms(whole))
    assert masked.memories["b"].space == "Space 2"  # not "Space 1", its number in part
    assert masked.memories["c"].space == "Space 3"  # a tag the whole lacks: next number


def test_sentences_and_typed_pseudonyms():
    names = {"acme_work": "Space 2", "acme": "Space 1"}
    assert mask_spaces("Forget all of acme_work and acme (acme_workers stays)", names) == (
        "Forget all of Space 2 and Space 1 (acme_workers stays)")
    assert real_space("Space 2", names) == "acme_work"
    assert real_space("12", names) == "12"


# -- the pages -----------------------------------------------------------------------------


def tree_text(at: AppTest) -> str:
    """Every element's message on the page (labels, options, tables, chart specs)."""
    out: list[str] = []

    def walk(node: Any) -> None:
        proto = getattr(node, "proto", None)
        if proto is not None:
            out.append(str(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(out)


def leaks(at: AppTest, secrets: set[str]) -> list[str]:
    text = tree_text(at)
    return sorted(s for s in secrets if s in text)


@pytest.fixture
def secrets(fresh_data_dir) -> set[str]:
    return secrets_of(demo()) - {"Personal", "Research"}  # words the app itself may use


def test_explorer_panel_names_the_space_by_pseudonym(secrets):
    ds = demo()
    mem = next(m for m in ds.memories.values() if m.container_tag == "acme_work")
    plain = run_page(None, selected_node=mem.id)
    # the panel names the space as the data names it when not masked
    assert "Space: Acme Work" in tree_text(plain)
    at = run_page(None, presenter_mode=True, selected_node=mem.id)
    assert leaks(at, secrets) == []
    assert f"Space: {space_pseudonyms(ds)['acme_work']}" in tree_text(at)


@pytest.mark.parametrize("page", ["profile.py", "insights.py", "forget_all.py", "connection.py"])
def test_pages_name_spaces_by_pseudonym(secrets, page):
    plain = run_page(page)
    assert [s for s in secrets if s in tree_text(plain)], "the page shows spaces unmasked"
    at = run_page(page, presenter_mode=True)
    assert leaks(at, secrets) == []
    assert "Space 1" in tree_text(at)


def test_profile_choice_keeps_the_real_tag(secrets):
    at = run_page("profile.py", presenter_mode=True, profile_space="acme_work")
    assert leaks(at, secrets) == []
    assert at.selectbox[0].value == "acme_work"  # the value is real, only shown masked
    assert "Profile of Space 2" in tree_text(at)


def test_ledger_names_spaces_by_pseudonym(secrets):
    ds = demo()
    mem = next(m for m in ds.memories.values()
               if m.container_tag == "acme_work" and not m.is_forgotten)
    actions.forget(EmbeddedSource(store_path()), Store(store_path()), mem.id,
                   reason="wrong", container_tag=mem.container_tag, snapshot=mem.memory)
    plain = run_page("ledger.py")
    assert "Acme Work" in tree_text(plain)  # as the data names it, when not masked
    at = run_page("ledger.py", presenter_mode=True)
    assert leaks(at, secrets) == []
    table = next(d.value for d in at.dataframe if "space" in d.value.columns)
    assert {s for s in table["space"] if s} == {"Space 2"}  # (no space: an empty cell)


def test_no_space_tag_in_payload_charts_or_exports(fresh_data_dir):
    ds = demo()
    secrets = secrets_of(ds)
    plain = analyse(ds)
    assert "acme_work" in json.dumps(build_view(plain, color_by="space"))  # check finds it
    an = analyse(mask(ds))
    blobs = [json.dumps(build_view(an, color_by=c), ensure_ascii=False)
             for c in ("space", "cluster")]
    blobs += [f.to_json() or "" for f in all_charts(an).values()]
    blobs += [b.decode("utf-8") for b in (to_graphml(an), to_gexf(an), memories_csv(an))]
    blobs += [json.dumps(to_node_link(an), ensure_ascii=False),
              offline_html(build_view(an, color_by="space"), "Demo")]
    mem = next(i for i, m in ds.memories.items() if m.container_tag == "acme_work")
    nodes = evidence_nodes(an, mem)
    pack = zipfile.ZipFile(io.BytesIO(evidence_pack(an, nodes, build_view(an, visible=nodes))))
    blobs += [pack.read(name).decode("utf-8") for name in pack.namelist()]
    assert sorted({s for b in blobs for s in secrets if s in b}) == []


def test_sidebar_source_line_names_the_connected_space_by_pseudonym(secrets):
    conn = Connection("embedded", space="acme_work")
    plain = run_page(None, connection=conn)
    assert "space acme_work" in tree_text(plain)
    at = run_page(None, connection=conn, presenter_mode=True)
    assert leaks(at, secrets) == []
    assert "space Space 2" in tree_text(at)


def test_the_connection_picker_names_every_listed_space_by_pseudonym(secrets):
    """The Connection page's Space picker lists what the service lists; in presenter mode
    each is a pseudonym, a space the load does not name numbered on, never its tag."""
    conn = Connection("embedded", space="acme_work")
    at = run_page("connection.py", connection=conn, presenter_mode=True)
    picker = next(s for s in at.selectbox if s.label == "Space")
    assert picker.options[0] == "All spaces" and len(picker.options) > 2
    assert all(o.startswith("Space ") for o in picker.options[1:]), picker.options
    assert [s for s in secrets if any(s in o for o in picker.options)] == []


def test_redacted_sentences_name_no_space(fresh_data_dir):
    """A toast or a service's sentence in presenter mode (``redact``) hides space tags,
    ids and names like every other text of the data."""
    from memscope.lenses.redact import dataset_texts, redact

    ds = demo()
    texts = dataset_texts(ds)
    for secret in secrets_of(ds):
        said = redact(f"Added the text to {secret}; it is processing.", texts)
        assert secret not in said, said


def test_an_as_of_day_in_presenter_mode_numbers_spaces_like_the_whole_load():
    """The pipeline's ``past`` step masks the day's data with the whole load's names."""
    from datetime import UTC, date, datetime

    from memscope.pipeline import steps

    old = "2026-01-05T10:00:00Z"
    whole = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "a", "memory": "new one", "spaceContainerTag": "later_space",
         "createdAt": "2026-06-01T10:00:00Z"},
        {"id": "b", "memory": "old one", "spaceContainerTag": "early_space",
         "createdAt": old}]}]}])
    names = space_pseudonyms(whole)
    entry = dataclasses.make_dataclass("E", ["load"])(
        dataclasses.make_dataclass("L", ["dataset"])(whole))
    day = steps.STEPS["past"].fn(entry, date(2026, 2, 1), True, BELIEVED)
    assert set(day.dataset.memories) == {"b"}
    assert day.dataset.memories["b"].space == names["early_space"]
    assert datetime(2026, 2, 1, tzinfo=UTC) < day.now
