"""Issue 32: the Compare table in words: a change is "only in A", "only in B" or
"changed", each row is led by its memory's text (a link by its two memories' texts), and
a flag reads as what it means ("forgotten", "kept"), never True or False."""

from __future__ import annotations

from components.sections.compare import ABSENT, PRESENT, table
from memscope.lenses.compare import compare, kind_words, value_words
from memscope.records.dataset import from_feed_pages


def _two_sides():
    def page(forgotten: bool, extra: bool) -> dict:
        entries = [{"id": "mem_a1", "memory": "Maya drinks coffee with milk", "isLatest": False},
                   {"id": "mem_a2", "memory": "Maya drinks her coffee black",
                    "parentMemoryId": "mem_a1", "isForgotten": forgotten}]
        if extra:
            entries.append({"id": "mem_new", "memory": "Maya booked a pottery class"})
        return {"documents": [{"id": "doc_1", "title": "Coffee notes",
                               "memoryEntries": entries}]}

    return from_feed_pages([page(False, False)]), from_feed_pages([page(True, True)])


def test_the_table_reads_in_words_without_true_or_false() -> None:
    a, b = _two_sides()
    diff = compare(a, b)
    frame = table(diff, ("A: before", "B: now"), None)
    cells = " | ".join(str(v) for v in frame.drop(columns=["id"]).to_numpy().ravel())
    assert "True" not in cells and "False" not in cells
    assert "true" not in cells.split(" | ") and "false" not in cells.split(" | ")
    assert set(frame["change"]) <= {"only in A", "only in B", "changed"}
    flag = frame[frame["what changed"] == "forgotten"].iloc[0]
    assert (flag["change"], flag["memory or document"], flag["A: before"], flag["B: now"]) == (
        "changed", "Maya drinks her coffee black", "kept", "forgotten")
    new = frame[frame["id"] == "mem_new"].iloc[0]
    assert (new["change"], new["memory or document"], new["A: before"], new["B: now"]) == (
        "only in B", "Maya booked a pottery class", ABSENT, PRESENT)
    link = frame[frame["record"] == "link between versions"]
    for text in link["memory or document"]:
        assert "mem_" not in text and "→" in text  # named by the memories' texts


def test_presenter_masks_the_link_texts_too() -> None:
    a, b = _two_sides()
    masked = compare(a, b).masked()
    texts = [d.b_text or d.a_text or "" for d in masked.differences]
    assert not [t for t in texts if "coffee" in t or "pottery" in t]


def test_kinds_and_values_in_words() -> None:
    assert kind_words("removed") == "only in A"
    assert kind_words("changed: latest") == "latest version changed"
    assert value_words("latest", True) == "the latest version"
    assert value_words("forgotten", False) == "kept"
    assert value_words("text", None) is None
