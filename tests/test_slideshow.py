"""The slideshow's core (memscope/view/slideshow.py): a saved show reads back as it was,
captions and titles stay bounded, hostile or garbled files give one sentence and never a
crash, and a show opened on other data says which of its steps that data lacks — on the
embedded demo store, a snapshot file and the sandbox's Supermemory (both dialects) and
Spomory over loopback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import SM, SP
from sandbox_fixture import running_sandbox, spomory, supermemory, supermemory_v5

from memscope.graph.analysis import analyse
from memscope.records.dataset import Dataset
from memscope.sources import FileSource, Source
from memscope.sources.embedded import EmbeddedSource
from memscope.view.slideshow import (
    CAPTION_LINES,
    CAPTION_MAX,
    FILE_MAX,
    STEPS_MAX,
    TITLE_MAX,
    DataMark,
    Slideshow,
    SlideshowError,
    checked_payload,
    clean_caption,
    coverage,
    play_payload,
    read_slideshow,
    slideshow_bytes,
)


def file_of(steps: object, **fields: object) -> bytes:
    """A slideshow file with these steps (and other top-level fields)."""
    return json.dumps({"format": "memscope-slideshow", "version": 1, "steps": steps,
                       **fields}).encode()


# -- round trip --------------------------------------------------------------------------------

def test_a_saved_show_reads_back_as_it_was_and_names_no_location() -> None:
    identity = "embedded|/home/someone/secret-project/memscope.sqlite3|"
    show = (Slideshow().added("mem_1", "Where it all starts").added("doc_2", "Zweite Station")
            .added("ent_3", "第三步：实体").titled("Demo for Acme").advancing(7)
            .marked(identity))
    data = slideshow_bytes(show)
    again, notes = read_slideshow(data)
    assert again == show and notes == []
    assert [s.node for s in again.steps] == ["mem_1", "doc_2", "ent_3"]
    assert again.steps[2].caption == "第三步：实体"
    assert (again.title, again.advance_s) == ("Demo for Acme", 7)
    assert again.data == DataMark("embedded", DataMark.of(identity).digest)
    assert len(data) < 1024  # a small file
    assert b"secret-project" not in data and b"/home" not in data  # the digest, not the path


def test_reordering_and_removing_steps() -> None:
    show = Slideshow().added("a", "1").added("b", "2").added("c", "3")
    assert [s.node for s in show.moved(0, 1).steps] == ["b", "a", "c"]
    assert [s.node for s in show.moved(2, -5).steps] == ["c", "a", "b"]  # kept within
    assert show.moved(7, 1) == show and show.removed(-1) == show
    assert [s.node for s in show.removed(1).steps] == ["a", "c"]
    assert show.recaptioned(1, "two\x07").steps[1].caption == "two"


# -- bounds -------------------------------------------------------------------------------

def test_captions_and_titles_stay_bounded() -> None:
    long = clean_caption("word " * 5_000)
    assert len(long) == CAPTION_MAX and long.endswith("…")
    assert clean_caption("x" * 5_000_000).endswith("…")  # only the start is read
    assert clean_caption("a\u202eevil\u2066b\x00c\x1b[31m") == "aevilbc[31m"
    assert clean_caption("1\n2\n3\n4\n5\n6").count("\n") == CAPTION_LINES - 1
    assert clean_caption("\ud800 lone") == "\ufffd lone"
    show = Slideshow().titled("T" * 500 + "\nsecond line")
    assert len(show.title) == TITLE_MAX and "\n" not in show.title
    assert Slideshow().advancing(10**9).advance_s == 120
    assert Slideshow().advancing(float("nan")).advance_s == 0
    assert Slideshow().advancing(-4).advance_s == 0
    full = Slideshow()
    for i in range(STEPS_MAX + 5):
        full = full.added(f"n{i}")
    assert len(full.steps) == STEPS_MAX and full.full


def test_a_file_with_too_long_captions_or_too_many_steps_is_cut_and_says_so() -> None:
    steps = [{"node": f"n{i}", "caption": "c" * 1000 if i < 2 else "fine"}
             for i in range(STEPS_MAX + 10)]
    show, notes = read_slideshow(file_of(steps, title="x" * 999, advance_s=1e400))
    assert len(show.steps) == STEPS_MAX
    assert all(len(s.caption) <= CAPTION_MAX for s in show.steps)
    assert notes == ["2 captions longer than 280 characters were shortened.",
                     f"Only the first {STEPS_MAX} of its {STEPS_MAX + 10} steps were kept."]
    assert len(show.title) == TITLE_MAX and show.advance_s == 0


# -- hostile and garbled files ---------------------------------------------------------------

REFUSED = {
    "empty": b"",
    "not UTF-8": b"\xff\xfe\x00garbage\xc3",
    "not JSON": b"this is a note, not a slideshow",
    "deep": b"[" * 200_000 + b"]" * 200_000,
    "a list": b"[1, 2, 3]",
    "another format": json.dumps({"format": "something-else", "steps": []}).encode(),
    "no version": json.dumps({"format": "memscope-slideshow", "steps": []}).encode(),
    "text version": file_of([], version="1"),
    "newer": file_of([], version=99),
    "steps not a list": file_of({"node": "a"}),
    "too big": b" " * (FILE_MAX + 1),
    "huge integer version": (b'{"format": "memscope-slideshow", "version": 1' + b"0" * 5000
                             + b', "steps": []}'),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_file_that_is_not_a_slideshow_gives_one_sentence(name: str) -> None:
    with pytest.raises(SlideshowError) as caught:
        read_slideshow(REFUSED[name])
    sentence = str(caught.value)
    assert sentence.endswith(".") and "\n" not in sentence and len(sentence) < 200
    assert "Traceback" not in sentence and "Error" not in sentence


def test_unreadable_steps_are_left_out_and_said() -> None:
    steps = [{"node": "ok", "caption": "<script>alert(1)</script>"}, {"node": 12}, "step",
             None, {"node": ""}, {"node": "x" * 5000}, {"node": "a\x00b"},
             {"node": " padded"}, {"node": "fine", "caption": {"nested": ["x"]}},
             [[[[]]]], {"node": "last"}]
    show, notes = read_slideshow(file_of(steps, data={"kind": "embedded", "digest": "zz"},
                                         advance_s="soon"))
    assert [s.node for s in show.steps] == ["ok", "last"]
    assert show.steps[0].caption == "<script>alert(1)</script>"  # text: shown as text
    assert notes == ["9 steps could not be read (no node id, or not text) and were left out."]
    assert show.data is None and show.advance_s == 0  # a garbled mark names no data


def test_a_byte_order_mark_and_a_missing_caption_are_fine() -> None:
    show, notes = read_slideshow(b"\xef\xbb\xbf" + file_of([{"node": "a"}]))
    assert [(s.node, s.caption) for s in show.steps] == [("a", "")] and notes == []


# -- other data --------------------------------------------------------------------------------

def test_a_show_on_other_data_says_which_steps_are_missing() -> None:
    show = Slideshow()
    for node in "abcde":
        show = show.added(node, f"about {node}")
    show = show.marked("supermemory|https://api.example|key:abc")
    here = coverage(show, set("abcde"), identity="supermemory|https://api.example|key:abc")
    assert here.missing == () and not here.other_data and here.sentence() is None
    other = coverage(show, {"a", "c"}, {"a"}, identity="embedded|/data/x.sqlite3")
    assert other.missing == (2, 4, 5) and other.hidden == (3,) and other.playable == (1,)
    assert other.sentence() == (
        "This slideshow was made on other data: steps 2, 4 and 5 of its 5 are not in this "
        "data; step 3 is hidden by the sidebar's filters or the as-of day, and they are "
        "skipped when it plays.")
    complete = coverage(show, set("abcde"), identity="embedded|/data/x.sqlite3")
    assert complete.sentence() == ("This slideshow was made on other data, but every one of "
                                   "its steps is in this data.")
    unmarked = coverage(Slideshow().added("a"), set(), identity="embedded|x")
    assert not unmarked.other_data
    assert unmarked.sentence() == ("Step 1 of its 1 is not in this data, and it is skipped "
                                   "when it plays.")


def test_the_browser_gets_only_steps_it_can_draw() -> None:
    show = Slideshow().added("a", "A").added("gone", "G").added("b", "B").titled("Show")
    payload = play_payload(show, {"a", "b"}, "tok_1")
    assert payload == {"title": "Show", "advance_s": 0, "play": "tok_1",
                       "steps": [{"id": "a", "caption": "A"}, {"id": "b", "caption": "B"}]}
    hostile = {**payload, "steps": [{"id": "a", "caption": "x\u202e" * 400}, {"id": "zz"}]}
    checked = checked_payload(hostile, {"a"})
    assert [s["id"] for s in checked["steps"]] == ["a"]
    assert len(checked["steps"][0]["caption"]) == CAPTION_MAX
    assert "\u202e" not in checked["steps"][0]["caption"]
    with pytest.raises(ValueError, match="play token"):
        checked_payload({**payload, "play": "</script>"}, {"a"})
    with pytest.raises(TypeError, match="slideshow"):
        checked_payload({"steps": "a"}, {"a"})


# -- the four kinds of source ------------------------------------------------------------------

FILES = [SM / f"documents_page{i}.json" for i in (1, 2, 3)] + [SP / "passport.json"]


@contextmanager
def loaded(kind: str, tmp_path: Path) -> Iterator[tuple[Source, Dataset]]:
    """A source of ``kind`` and its data, loaded as the app loads it."""
    if kind == "embedded":
        from memscope.demo.seeding import seed_if_missing

        path = tmp_path / "memscope.sqlite3"
        seed_if_missing(path)
        source: Source = EmbeddedSource(path)
        yield source, source.load().dataset
        return
    if kind == "file":
        source = FileSource.from_bytes([(p.name, p.read_bytes()) for p in FILES])
        yield source, source.load().dataset
        return
    with running_sandbox(tmp_path / "sandbox", data="fixtures") as sandbox:
        make = {"supermemory": supermemory, "supermemory_v5": supermemory_v5,
                "spomory": spomory}[kind]
        source = make(sandbox)
        try:
            yield source, source.load().dataset
        finally:
            source.close()


def three_nodes(ds: Dataset) -> list[str]:
    """Three nodes of ``ds`` of different kinds where it has them (a memory, a document
    or an entity, another memory; Spomory has entities only)."""
    memories = sorted(ds.memories)
    others = sorted(ds.documents) or sorted(ds.entities)
    if len(memories) >= 2:
        return [memories[0], others[0], memories[-1]]
    return [others[0], others[len(others) // 2], others[-1]]


def texts_of(ds: Dataset) -> set[str]:
    """The data's texts long enough not to appear by chance."""
    texts = {m.memory for m in ds.memories.values()} | {e.name for e in ds.entities.values()}
    texts |= {d.title for d in ds.documents.values()}
    return {t for t in texts if t and len(t) > 5}


@pytest.mark.parametrize("kind", ["embedded", "file", "supermemory", "supermemory_v5",
                                  "spomory"])
def test_a_show_on_each_source_round_trips_and_plays_there_only(kind: str,
                                                                tmp_path: Path) -> None:
    with loaded(kind, tmp_path) as (source, ds):
        ids = set(analyse(ds).graph.graph.nodes)
        nodes = three_nodes(ds)
        assert set(nodes) <= ids
        show = Slideshow().titled("A walk through")
        for i, node in enumerate(nodes, 1):
            show = show.added(node, f"Step {i}: look here")
        data = slideshow_bytes(show.marked(source.identity()))
        assert len(set(nodes)) == 3
        texts = texts_of(ds)
        assert texts and not [t for t in texts if t.encode() in data]  # no text of the data
        assert source.identity().encode() not in data
        again, notes = read_slideshow(data)
        assert notes == [] and [s.node for s in again.steps] == nodes
        here = coverage(again, ids, ids, source.identity())
        assert here.playable == (1, 2, 3) and here.sentence() is None
        assert [s["id"] for s in play_payload(again, ids)["steps"]] == nodes
        # the same file on data that lacks the middle node: said, and skipped
        elsewhere = coverage(again, ids - {nodes[1]}, None, "file|0123456789abcdef")
        assert elsewhere.other_data and elsewhere.missing == (2,)
        assert elsewhere.sentence() == ("This slideshow was made on other data: step 2 of its "
                                        "3 is not in this data, and it is skipped when it "
                                        "plays.")
