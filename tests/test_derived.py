"""Derived data (layout, clusters, names) kept per data version: a round trip, one file per
content, never trusted when corrupt or stale, and ``python -m memscope.warm``."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memscope.demo.generator import generate
from memscope.demo.seeding import seed_if_missing
from memscope.graph.analysis import analyse
from memscope.records.dataset import Dataset, from_feed_pages
from memscope.records.text import clip
from memscope.settings import store_path
from memscope.view import derived
from memscope.view.build import build_view, cluster_groups
from memscope.view.layout import layout_positions
from memscope.warm import main as warm_main

NOW = datetime(2026, 11, 30, 12, tzinfo=UTC)


def _dataset(seed: int = 7, memories: int = 360) -> Dataset:
    demo = generate(seed, now=NOW, n_documents=max(72, memories // 5), n_memories=memories)
    return from_feed_pages(demo.to_feed_pages())


@pytest.fixture(scope="module")
def ds() -> Dataset:
    return _dataset()


def _refuse(*_args, **_kwargs):
    raise AssertionError("computed although a trusted file holds the derived data")


def test_a_round_trip_gives_back_what_was_computed(ds, tmp_path):
    an = analyse(ds, NOW)
    first = derived.load_or_compute(analysis=an, folder=tmp_path)
    assert first.positions == layout_positions(an.graph.graph, seed=derived.LAYOUT_SEED)
    assert (first.clusters, first.labels) == cluster_groups(an)
    files = list((tmp_path / "derived").iterdir())
    assert [f.name for f in files] == [f"{first.digest}.json"]
    assert re.fullmatch(r"[0-9a-f]{64}\.json", files[0].name)
    back = derived.load(first.digest, tmp_path)
    assert back == first


def test_a_kept_file_is_read_not_recomputed_and_feeds_the_views(ds, tmp_path, monkeypatch):
    first = derived.load_or_compute(ds, folder=tmp_path)
    monkeypatch.setattr(derived, "compute", _refuse)
    monkeypatch.setattr("memscope.view.groups.cluster_names", _refuse)
    an = analyse(ds, NOW + timedelta(days=40))  # another analysis, another day
    again = derived.load_or_compute(analysis=an, folder=tmp_path)
    assert again == first
    # what the pipeline's views draw with: the kept clusters and names, not computed again
    view = build_view(an, groups=(again.clusters, again.labels, again.order))
    assert {n["id"]: n["color_group"] for n in view["nodes"]} == first.clusters
    assert {c["key"]: c["label"] for c in view["legend"]["colors"]}.items() <= {
        k: clip(v) for k, v in first.labels.items()}.items()


def test_the_digest_follows_the_content_never_the_clock(ds):
    base = derived.digest_of(analyse(ds, NOW))
    assert derived.digest_of(analyse(ds, NOW + timedelta(days=400))) == base
    assert derived.digest_of(analyse(_dataset(), NOW)) == base  # same content, rebuilt
    assert derived.digest_of(analyse(_dataset(seed=8), NOW)) != base
    edited = _dataset()
    mem = next(iter(edited.memories.values()))
    mem.memory += " (edited)"
    assert derived.digest_of(analyse(edited, NOW)) != base
    linked = _dataset()
    a, b = list(linked.memories)[:2]
    linked.memories[b].parent_id = a
    assert derived.digest_of(analyse(linked, NOW)) != base


def _write(path: Path, text: str | bytes) -> None:
    path.write_bytes(text if isinstance(text, bytes) else text.encode())


@pytest.mark.parametrize("damage", [
    "garbage", "truncated", "not an object", "other format", "other digest", "nan position",
    "cluster out of range", "missing label", "another graph",
])
def test_a_corrupt_or_stale_file_is_recomputed_never_trusted(ds, tmp_path, damage):
    good = derived.load_or_compute(ds, folder=tmp_path)
    path = derived.path_of(good.digest, tmp_path)
    raw = json.loads(path.read_text())
    if damage == "garbage":
        _write(path, b"\x00\xff not json")
    elif damage == "truncated":
        _write(path, path.read_bytes()[: path.stat().st_size // 2])
    elif damage == "not an object":
        _write(path, "[1, 2, 3]")
    else:
        if damage == "other format":
            raw["format"] = derived.FORMAT + 1
        elif damage == "other digest":
            raw["digest"] = "0" * 64
        elif damage == "nan position":
            raw["x"][3] = float("nan")
        elif damage == "cluster out of range":
            raw["cluster"][0] = len(raw["keys"])
        elif damage == "missing label":
            del raw["labels"][raw["keys"][1]]
        else:  # a well-formed file that places other nodes: stale, not for this graph
            raw["ids"][0] = "not-a-node"
        _write(path, json.dumps(raw))
    if damage != "another graph":
        assert derived.load(good.digest, tmp_path) is None
    again = derived.load_or_compute(ds, folder=tmp_path)
    assert again == good
    assert derived.load(good.digest, tmp_path) == good  # and the file is whole again
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary left


def test_an_unwritable_folder_still_gives_the_derived_data(ds, tmp_path):
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the data folder should be")
    got = derived.load_or_compute(ds, folder=blocked)
    assert got.positions and got.digest == derived.digest_of(analyse(ds, NOW))
    with pytest.raises(OSError):
        derived.warm(ds, folder=blocked)


def test_warm_keeps_one_file_per_content_and_reuses_it(ds, tmp_path, monkeypatch):
    path = derived.warm(ds, folder=tmp_path)
    assert path.is_file() and path == derived.path_of(derived.digest_of(analyse(ds)), tmp_path)
    monkeypatch.setattr(derived, "compute", _refuse)
    assert derived.warm(ds, folder=tmp_path) == path


def test_the_warm_command_warms_the_store_and_names_bad_snapshots(tmp_path, capsys):
    seed_if_missing(store_path(tmp_path))
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    assert warm_main(["--data-dir", str(tmp_path), str(bad)]) == 2
    out, err = capsys.readouterr()
    assert "the embedded store" in out and "ready in" in out
    assert err.count("\n") == 1 and "bad.json" in err and "Traceback" not in err
    files = list((tmp_path / "derived").glob("*.json"))
    assert len(files) == 1
    from memscope.sources.embedded import EmbeddedSource
    an = analyse(EmbeddedSource(store_path(tmp_path)).load().dataset)
    assert derived.load(derived.digest_of(an), tmp_path) is not None
    assert warm_main(["--data-dir", str(tmp_path / "empty")]) == 0
    assert "nothing to warm" in capsys.readouterr().out


def test_bytes_round_trip_for_other_storages(ds):
    d = derived.compute(analyse(ds, NOW))
    blob = derived.to_bytes(d)
    assert derived.from_bytes(blob, d.digest) == d
    assert derived.from_bytes(blob, "f" * 64) is None  # another content's key
    assert derived.from_bytes(blob[:-10], d.digest) is None


def test_a_layout_shared_elsewhere_is_used_when_it_places_every_node(ds, tmp_path,
                                                                     monkeypatch):
    """No file here, but the storage holds this content's layout (another replica made
    it): it is used, clusters are computed here, and the file is written."""
    an = analyse(ds, NOW)
    layout = layout_positions(an.graph.graph, seed=derived.LAYOUT_SEED)
    shared = {str(n): xy for n, xy in layout.items()}
    monkeypatch.setattr("memscope.view.derived.layout_positions", _refuse)
    got = derived.load_or_compute(analysis=an, folder=tmp_path, positions=lambda: shared)
    assert got.positions == layout
    assert (got.clusters, got.labels) == cluster_groups(an)
    assert derived.load(got.digest, tmp_path) is not None


def test_a_shared_layout_missing_a_node_is_not_used(ds, tmp_path, monkeypatch):
    an = analyse(ds, NOW)
    layout = layout_positions(an.graph.graph, seed=derived.LAYOUT_SEED)
    partial = {str(n): (0.0, 0.0) for n in list(layout)[1:]}
    got = derived.load_or_compute(analysis=an, folder=tmp_path, positions=lambda: partial)
    assert got.positions == layout  # computed: the shared one would leave a node out
