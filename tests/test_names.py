"""Cluster names: a short phrase from each cluster's own text (memscope.view.names; issue 12
item 8, issue 23 item 3).

The expected names changed with issue 23 item 3 (a phrase, not a word triple joined by
" · "); what is asserted about topic words, determinism, ties, stop words, presenter mode
and huge words is the same."""

from __future__ import annotations

import re
from datetime import UTC, datetime

from memscope.graph.analysis import Analysis, analyse
from memscope.lenses.presenter import mask
from memscope.records.dataset import from_feed_pages, from_objects
from memscope.view.build import build_view, cluster_groups
from memscope.view.names import NAME_MAX, cluster_names

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
    assert names["d"] == "Atlas"  # Atlas and Postgres 4 times each: the alphabet decides
    # "Maya" is in both clusters: less telling than the words only one of them has
    two = cluster_names(an, by_document(an), words=2)
    assert "Maya" not in two["t"] and "Maya" not in two["d"]
    assert names["t"] == "Lisbon"  # 4 times, in this cluster only
    assert names[""] == "unlinked"


def test_words_sets_the_length_and_names_are_deterministic():
    an = two_topics()
    clusters = by_document(an)
    one = cluster_names(an, clusters, words=1)
    assert one["t"] == "Lisbon" and len(one["d"].split()) == 1
    assert cluster_names(an, dict(reversed(list(clusters.items())))) == \
        cluster_names(an, clusters)  # the order nodes come in changes nothing


def test_ties_are_broken_alphabetically():
    # capitalised: a word only ever written in lower case is a common noun, never a name
    # alone (then neither would name the cluster and no tie would be broken)
    an = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "a", "memory": "Zebra Yak"}, {"id": "b", "memory": "Yak Zebra"}]}]}]), NOW)
    assert cluster_names(an, {"a": "c1", "b": "c1", "d": "c1"}, words=2) == {
        "c1": "Yak"}


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
    assert "Lisbon" in names["t"]
    assert all(len(name) <= 100 for name in names.values()), {k: len(v) for k, v in names.items()}


def _by_doc(documents: list[dict]) -> tuple[Analysis, dict[str, str]]:
    """The analysis of ``documents`` and each node in the cluster named by its document."""
    an = analyse(from_feed_pages([{"documents": documents}]), NOW)
    return an, {n: d for d, doc in an.dataset.documents.items() for n in (d, *doc.memory_ids)}


def _doc(doc_id: str, title: str, texts: list[str]) -> dict:
    return {"id": doc_id, "title": title, "memoryEntries": [
        {"id": f"{doc_id}_{i}", "memory": t} for i, t in enumerate(texts)]}


FRIEND = ["Maya's friend Jess lives in Berlin.", "Maya's friend Jess is vegan.",
          "Maya's friend Jess runs 10 km on Sundays.",
          "Maya's friend Jess's phone is a Fairphone 5."]
TRACKING = ["Lena tracks Lumen experiments in MLflow.", "Lena tracks Lumen experiments in Aim.",
            "Lena tracks Lumen experiments in a shared spreadsheet."]


def test_a_cluster_is_titled_by_a_phrase_it_says():
    """The phrase every memory says, whole ("Jess's phone" counts for "… Jess"), over the
    words it is made of; ``words`` caps its length."""
    an, clusters = _by_doc([_doc("f", "Gadget wishlist", FRIEND),
                            _doc("l", "Research opinions", TRACKING)])
    names = cluster_names(an, clusters)
    assert names["f"] == "Maya's friend Jess"
    assert cluster_names(an, clusters, words=1)["f"] == "Jess"
    # a name is no clause: "Lena tracks Lumen" is three words in a row, but "tracks" says
    # what someone does
    assert names["l"] == "Lumen experiments"
    assert all(" · " not in name for name in names.values())


def test_names_are_distinct_even_for_clusters_that_say_the_same():
    an, clusters = _by_doc([_doc(k, "Friends", FRIEND) for k in ("a", "b", "c", "d")])
    names = cluster_names(an, clusters)
    assert len({n.casefold() for n in names.values()}) == 4, names
    assert names["a"] == "Maya's friend Jess"  # the first cluster gets the best phrase
    said = {w.casefold() for t in [*FRIEND, "Friends"] for w in re.findall(r"[\w']+", t)}
    for name in names.values():  # each a phrase of their own text (or one with a number)
        words = re.findall(r"[\w']+", re.sub(r" \(\d+\)$", "", name))
        assert {w.casefold() for w in words} <= said, name
    assert cluster_names(an, dict(reversed(list(clusters.items())))) == names


def test_a_chinese_entity_names_its_cluster_as_written():
    """A run of Chinese characters is one word; the entity most linked names the web."""
    entities = [{"id": i, "name": n} for i, n in
                (("zs", "张三"), ("bj", "北京"), ("co", "某公司"), ("py", "Python"))]
    relations = [{"id": f"r{k}", "subject_id": "zs", "predicate": p, "object_id": o}
                 for k, (p, o) in enumerate((("住在", "bj"), ("任职于", "co"), ("擅长", "py")))]
    an = analyse(from_objects([{"@type": "memory:MemoryPassport", "entities": entities,
                                "relations": relations}]), NOW)
    assert cluster_names(an, dict.fromkeys(("zs", "bj", "co", "py"), "c1")) == {"c1": "张三"}


def test_a_name_is_never_cut_inside_a_word():
    """Without a phrase, a cluster takes its document's title: the words that fit, whole,
    with no ellipsis and no small word left dangling."""
    title = "All at once: everything, everywhere, and a review of the year gone by"
    an, clusters = _by_doc([_doc("q", title, ["12 34", "56"])])
    name = cluster_names(an, clusters)["q"]  # (no phrase: common words and small ones)
    assert name == "All at once: everything, everywhere"
    assert len(name) <= NAME_MAX and "…" not in name
    assert title.startswith(name) and not title[len(name)].isalnum()  # cut between words


def test_markup_names_nothing():
    """A tag is markup, not a word: a hostile title names its cluster by the words a
    person wrote beside it (and never as HTML: names are text)."""
    an, clusters = _by_doc([_doc("h", "<img src=x onerror=alert('title')>", [
        "<script>alert('memory')</script> likes <b>bold</b> text",
        "Naïve café Ørsted"])])
    name = cluster_names(an, clusters)["h"]
    assert name == "Naïve café Ørsted"
