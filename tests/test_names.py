"""Cluster names by TF-IDF (memscope.view.names; issue 12, item 8)."""

from __future__ import annotations

from datetime import UTC, datetime

from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.presenter import mask
from memscope.records.dataset import from_feed_pages
from memscope.view.build import build_view, cluster_groups
from memscope.view.names import SEPARATOR, cluster_names

NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)

TRAVEL = ["Maya flies to Lisbon on Friday.", "Maya booked a hotel in Lisbon.",
          "The Lisbon trip starts with a flight from Toronto.",
          "Maya wants to visit the food market in Lisbon during the trip."]
DATABASE = ["Maya says Atlas uses Postgres.", "The Postgres backups for Atlas run nightly.",
            "Atlas migrations are tested against Postgres.",
            "Maya asked for a Postgres replica for Atlas."]


def two_topics() -> Analysis:
    def doc(name: str, title: str, texts: list[str]) -> dict:
        return {"id": f"doc_{name}", "title": title, "memoryEntries": [
            {"id": f"{name}{i}", "memory": t} for i, t in enumerate(texts)]}

    return analyse(from_feed_pages([{"documents": [
        doc("t", "Trip planning", TRAVEL), doc("d", "Database notes", DATABASE),
        {"id": "doc_lonely", "title": "Untitled scan"}]}]), NOW)


def by_document(an: Analysis) -> dict[str, str]:
    """Each memory and document in the cluster of its document (``""`` if alone)."""
    out = {}
    for doc_id, doc in an.dataset.documents.items():
        key = doc_id.removeprefix("doc_") if doc.memory_ids else ""
        out[doc_id] = key
        out.update(dict.fromkeys(doc.memory_ids, key))
    return out


def test_each_cluster_is_named_by_its_topic_words():
    an = two_topics()
    names = cluster_names(an, by_document(an))
    assert "Lisbon" in names["t"].split(SEPARATOR)
    assert {"Postgres", "Atlas"} <= set(names["d"].split(SEPARATOR))
    # "Maya" is in both clusters: less telling than the words only one of them has
    two = cluster_names(an, by_document(an), words=2)
    assert "Maya" not in two["t"] and "Maya" not in two["d"]
    assert names["t"].split(SEPARATOR)[0] == "Lisbon"  # 4 times, in this cluster only
    assert names[""] == "unlinked"


def test_words_sets_the_length_and_names_are_deterministic():
    an = two_topics()
    clusters = by_document(an)
    one = cluster_names(an, clusters, words=1)
    assert one["t"] == "Lisbon" and len(one["d"].split(SEPARATOR)) == 1
    assert cluster_names(an, dict(reversed(list(clusters.items())))) == \
        cluster_names(an, clusters)  # the order nodes come in changes nothing


def test_ties_are_broken_alphabetically():
    an = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "a", "memory": "zebra yak"}, {"id": "b", "memory": "yak zebra"}]}]}]), NOW)
    assert cluster_names(an, {"a": "c1", "b": "c1", "d": "c1"}, words=2) == {
        "c1": "yak · zebra"}


def test_a_cluster_without_words_gets_a_neutral_name():
    an = analyse(from_feed_pages([{"documents": [
        {"id": "d1", "title": "Scan 2024", "memoryEntries": [{"id": "m1", "memory": "12 34"}]},
        {"id": "d2", "memoryEntries": [{"id": "m2", "memory": "the of and"}]}]}]), NOW)
    names = cluster_names(an, {"d1": "c1", "m1": "c1", "d2": "c7", "m2": "c7"})
    assert names["c1"] == "Scan · 2024" or names["c1"] == "Scan"
    assert names["c7"] == "cluster 7"


def test_presenter_mode_names_say_nothing_of_the_text():
    an = two_topics()
    masked = analyse(mask(an.dataset), NOW)
    names = cluster_names(masked, by_document(masked))
    words = {w for t in TRAVEL + DATABASE for w in t.replace(".", "").split()}
    assert not any(w in name for name in names.values() for w in words if len(w) > 3)
    assert names["t"].startswith("Document") or names["t"].startswith("cluster")


def test_explorer_groups_carry_the_names_into_the_legend():
    an = two_topics()
    keys, labels = cluster_groups(an)
    trip = keys["doc_t"]
    assert "Lisbon" in labels[trip]
    legend = build_view(an)["legend"]
    assert {c["key"]: c["label"] for c in legend["colors"]}[trip] == labels[trip]


def test_a_5_mb_word_names_no_cluster():
    """A cluster whose texts hold a 5 MB word (issue 20) is named by the words a person
    wrote, and its document-title fallback is cut."""
    huge = "Q" * (5 * 2**20)
    an = analyse(from_feed_pages([{"documents": [
        {"id": "doc_t", "title": huge, "memoryEntries": [
            {"id": f"t{i}", "memory": f"{t} {huge}"} for i, t in enumerate(TRAVEL)]},
        {"id": "doc_h", "title": huge, "memoryEntries": [{"id": "h0", "memory": huge},
                                                          {"id": "h1", "memory": huge}]}]}]),
        NOW)
    clusters = {n: d.removeprefix("doc_") for d, doc in an.dataset.documents.items()
                for n in (d, *doc.memory_ids)}
    names = cluster_names(an, clusters)
    assert "Lisbon" in names["t"].split(SEPARATOR)
    assert all(len(name) <= 100 for name in names.values()), {k: len(v) for k, v in names.items()}
