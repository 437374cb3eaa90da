"""Snapshot files: open feed pages or a passport read-only; save a load; round trips."""

from __future__ import annotations

import json

import pytest
from conftest import SM, SP
from pipeline_support import same_records
from sandbox_fixture import running_sandbox, spomory, supermemory

from memscope.records.dataset import Dataset, read_files
from memscope.sources import (
    FileError,
    FileSource,
    Unsupported,
    merge_history,
    save_snapshot,
)


def _same_records(a: Dataset, b: Dataset) -> None:
    same_records(a, b)
    assert a.spaces == b.spaces
    assert a.profiles == b.profiles


@pytest.fixture
def sandbox(tmp_path):
    with running_sandbox(tmp_path / "sb", data="fixtures") as sb:
        yield sb


def test_supermemory_load_saved_then_opened_gives_equal_records(sandbox, tmp_path):
    sandbox.faults.fail_pages = {3}
    src = supermemory(sandbox, page_limit=4)
    loaded = src.load()
    merge_history(loaded.dataset, src.history("mem_fe_v3"))  # a memory with no document
    path = save_snapshot(loaded, tmp_path / "snap.json")
    opened = FileSource([path]).load()
    _same_records(loaded.dataset, opened.dataset)
    assert opened.dataset.memory_documents["mem_fe_v1"] == []
    meta = json.loads(path.read_text("utf-8"))["x-memscope"]
    assert meta["source"] == "supermemory" and meta["missingPages"] == [3]


def test_full_supermemory_snapshot_round_trip_and_core_reader(sandbox, tmp_path):
    loaded = supermemory(sandbox, page_limit=4).load()
    path = save_snapshot(loaded, tmp_path / "snap.json")
    _same_records(loaded.dataset, FileSource([path]).load().dataset)
    core = read_files([path])  # `memscope inspect` reads the same file
    assert core.documents == loaded.dataset.documents
    assert core.memories == loaded.dataset.memories


def test_spomory_load_saved_then_opened_gives_equal_records(sandbox, tmp_path):
    loaded = spomory(sandbox).load()
    path = save_snapshot(loaded, tmp_path / "passport.json")
    opened = FileSource([path]).load()
    _same_records(loaded.dataset, opened.dataset)
    assert read_files([path]).relations == loaded.dataset.relations


def test_saved_snapshot_of_a_snapshot_is_stable(tmp_path):
    first = FileSource([SM / f"documents_page{i}.json" for i in (1, 2, 3)]).load()
    a = save_snapshot(first, tmp_path / "a.json")
    second = FileSource([a]).load()
    b = save_snapshot(second, tmp_path / "b.json")
    _same_records(first.dataset, second.dataset)
    strip = [json.loads(p.read_text("utf-8")) for p in (a, b)]
    for obj in strip:
        obj["x-memscope"].pop("savedAt")
    assert strip[0] == strip[1]


def test_opening_the_shared_fixtures_matches_the_core_reader():
    paths = [SM / f"documents_page{i}.json" for i in (1, 2, 3)] + [SP / "passport.json"]
    opened = FileSource(paths).load().dataset
    core = read_files(paths)
    assert opened.documents == core.documents and opened.memories == core.memories
    assert opened.entities == core.entities and opened.relations == core.relations
    assert [s.reason for s in opened.report.skipped] == [s.reason for s in core.report.skipped]
    assert {s.container_tag for s in opened.spaces} >= {"sm_project_personal"}


def test_export_response_file_is_double_decoded():
    opened = FileSource([SP / "export_response.json"]).load().dataset
    assert len(opened.entities) == 5 and len(opened.relations) == 5


def test_uploaded_bytes_open_like_files():
    data = (SM / "documents_page1.json").read_bytes()
    src = FileSource.from_bytes([("page1.json", data)])
    assert src.label == "file page1.json"
    assert len(src.load().dataset.documents) == 4
    assert src.cache_key() == FileSource.from_bytes([("page1.json", data)]).cache_key()


@pytest.mark.parametrize(("content", "message"), [
    (b"{not json", "bad.json is not JSON"),
    (b'{"hello": 1}', "bad.json is neither a Supermemory documents page nor a Spomory "
                      "passport."),
    (b"\xff\xfe\x00", "bad.json is not UTF-8 text ("),
    (b"[" * 5000, "bad.json is not JSON ("),
    (b"1" * 5000, "bad.json is neither"),
])
def test_bad_files_raise_one_sentence(content, message):
    with pytest.raises(FileError) as err:
        FileSource.from_bytes([("bad.json", content)]).load()
    assert str(err.value).startswith(message)


def test_missing_file_is_a_file_error(tmp_path):
    with pytest.raises(FileError, match=r"Cannot read nope\.json"):
        FileSource([tmp_path / "nope.json"]).load()


def test_files_are_read_only():
    src = FileSource([SM / "documents_page1.json"])
    for name in ("forget", "forget_all", "restore"):
        assert src.capabilities.reason(name) == ("A snapshot file is read-only; connect to the "
                                                 "live service to change it.")
    with pytest.raises(Unsupported, match="read-only"):
        src.forget("mem_trip")
    with pytest.raises(Unsupported, match="read-only"):
        src.forget_all_preview("sm_project_personal")


def test_mixed_data_is_saved_as_one_file_and_reopens_equal(tmp_path):
    paths = [SM / "documents_page1.json", SP / "passport.json"]
    mixed = FileSource(paths).load()
    ds = mixed.dataset
    assert ds.documents and ds.memories and ds.entities and ds.relations
    summary = mixed.summary()
    for count in (len(ds.documents), len(ds.memories), len(ds.entities), len(ds.relations)):
        assert str(count) in summary
    path = save_snapshot(mixed, tmp_path / "mixed.json")
    _same_records(ds, FileSource([path]).load().dataset)
    core = read_files([path])  # `memscope inspect` reads both halves too
    assert core.entities == ds.entities and core.memories == ds.memories


def test_a_byte_order_mark_is_accepted():
    data = b"\xef\xbb\xbf" + (SM / "documents_page1.json").read_bytes()
    assert len(FileSource.from_bytes([("bom.json", data)]).load().dataset.documents) == 4


def test_a_snapshot_keeps_what_its_load_could_not_read_and_whether_it_keeps_documents(
        tmp_path):
    from memscope.graph.analysis import analyse
    from memscope.records.models import MemoryRecord
    from memscope.records.time import utc_now

    ds = Dataset(keeps_documents=False)
    for mem_id in ("read", "unread"):
        ds.add_memory(MemoryRecord(mem_id, f"text of {mem_id}"), None)
    ds.unread = {"unread", "not-in-the-data"}
    opened = FileSource([save_snapshot(ds, tmp_path / "partial.json")]).load().dataset
    assert opened.unread == {"unread"} and opened.keeps_documents is False
    assert analyse(opened, utc_now()).findings == []  # no orphan, no finding on a gap
    plain = Dataset()
    plain.add_memory(MemoryRecord("m", "x"), None)
    again = FileSource([save_snapshot(plain, tmp_path / "whole.json")]).load().dataset
    assert again.unread == set() and again.keeps_documents is True
