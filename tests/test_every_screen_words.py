"""Issue 32, items 4 and 6: words instead of internals, history that reads.

The Audit page's findings grouped and explained (the report's half), a ledger entry as a
sentence that leads with the memory's text, the connection form in each service's own
words (the source chosen outside the form redraws it), a straight chain as one line of
versions, a rewritten sentence as two sentences, and the trail's versions heading.
"""

from __future__ import annotations

from apptest_support import run_page

from components.sections.connection_form import BASE_URL_LABEL, SPACE_LABELS
from components.sections.ledger import describe, ledger_frame
from components.sections.panels import _diff_markdown, branch_levels, rewritten, version_line
from memscope.graph.analysis import analyse
from memscope.graph.findings import FINDING_KINDS, Finding
from memscope.lenses.diff import word_diff
from memscope.records.dataset import from_feed_pages
from memscope.reports.audit import FINDING_EXPLAINED, FINDING_GROUPS, findings_present
from memscope.reports.trail import Version, stated_note, versions_heading
from memscope.storage.ledger import LedgerEntry


def test_every_kind_is_grouped_and_explained_and_only_present_kinds_are_listed() -> None:
    grouped = [k for _, kinds in FINDING_GROUPS for k in kinds]
    assert sorted(grouped) == sorted(FINDING_KINDS) and len(set(grouped)) == len(grouped)
    assert set(FINDING_EXPLAINED) == set(FINDING_KINDS)
    assert all("_" not in FINDING_EXPLAINED[k] for k in FINDING_KINDS)
    groups = {k: [] for k in FINDING_KINDS} | {"branch": [Finding("branch", ["a"], "x")]}
    assert findings_present(groups) == [("Version history", [("branch", groups["branch"])])]
    assert findings_present({k: [] for k in FINDING_KINDS}) == []


def _entry(**kw) -> LedgerEntry:
    base = {"time": "2026-12-05T10:00:00Z", "actor": "local", "source": "embedded",
            "space": None, "action": "forget", "target_id": "m1", "snapshot": None,
            "reason": None, "outcome": "ok", "message": ""}
    return LedgerEntry(**(base | kw))


def test_a_ledger_entry_reads_as_a_sentence_with_the_id_last() -> None:
    review = _entry(action="reviewed", target_id="suspected_contradiction:ee54aa01",
                    snapshot="Priya lives in Lisbon. ⟷ Priya lives in Porto.")
    forget = _entry(snapshot="Priya prefers async updates in Slack")
    frame = ledger_frame([review, forget])
    assert list(frame["what"]) == [
        "Marked as not a conflict: possible contradiction “Priya lives in Lisbon.” ⟷ "
        "“Priya lives in Porto.”",
        "Forgot “Priya prefers async updates in Slack”"]
    assert "suspected_contradiction" not in " ".join(frame["what"])
    masked = ledger_frame([forget], presenter=True)
    assert masked["what"].iloc[0] == "Forgot a memory (text hidden: presenter mode)"
    assert describe("restore", "m1", None) == "Restored a memory (its text was not kept)"


def test_the_form_asks_for_what_each_service_calls_things(fresh_data_dir) -> None:
    at = run_page("connection.py")  # the embedded store: no URL, key or dialect
    assert not [r for r in at.radio if r.key == "conn_dialect"]
    assert BASE_URL_LABEL not in [t.label for t in at.text_input]
    at.radio(key="conn_kind").set_value("mem0").run()
    labels = [t.label for t in at.text_input]
    assert SPACE_LABELS["mem0"] in labels and "Space (container tag, optional)" not in labels
    assert BASE_URL_LABEL in labels and "Spomory" not in BASE_URL_LABEL
    assert at.text_input(key="conn_base_url").placeholder == "https://api.mem0.ai"
    assert not [r for r in at.radio if r.key == "conn_dialect"]  # Supermemory's only
    assert not [c for c in at.caption if "mem0:" in c.value]
    at.radio(key="conn_kind").set_value("spomory").run()
    assert not [t for t in at.text_input if t.key == "conn_space"]  # Spomory has none
    at.radio(key="conn_kind").set_value("supermemory").run()
    assert at.radio(key="conn_dialect").value == "auto"
    assert "Space (container tag, optional)" in [t.label for t in at.text_input]


def _chain(n: int):
    entries = [{"id": "a", "memory": "Priya prefers short calls over long threads",
                "isLatest": n == 1}]
    for i in range(2, n + 1):
        entries.append({"id": f"v{i}", "memory": f"Priya prefers async updates in Slack {i}",
                        "parentMemoryId": entries[-1]["id"], "version": i,
                        "isLatest": i == n})
    an = analyse(from_feed_pages([{"documents": [{"id": "d", "memoryEntries": entries}]}]))
    chain = an.chains.of("a")
    assert chain is not None
    return chain


def test_a_straight_chain_is_one_line_of_versions() -> None:
    chain = _chain(4)
    assert set(branch_levels(chain).values()) == {0}  # no "↳ ↳ ↳ v4"
    assert version_line(chain, "v3") == "v1 → v2 → **v3** → v4"
    long = version_line(_chain(30), "a")
    assert long.startswith("**v1** → v2") and "… 18 more …" in long and long.endswith("v30")


def test_a_rewritten_sentence_is_two_sentences_with_the_changed_words_marked() -> None:
    old, new = "Priya prefers short calls over long threads", "Priya prefers async updates in Slack"
    assert rewritten(word_diff(old, new))
    shown = _diff_markdown(old, new)
    was, now = shown.split("  \n")
    assert was.startswith("was: Priya prefers :red-background[") and "~~" not in shown
    assert now.startswith("now: Priya prefers :green-background[async updates in Slack]")
    light = _diff_markdown("Lives in Lisbon", "Lives in Porto")
    assert "\n" not in light and ":red-background[~~Lisbon~~]" in light


def test_the_trail_says_stated_once_and_one_version_without_an_order() -> None:
    assert versions_heading(1) == "How it got there (1 version)"
    assert versions_heading(2) == "How it got there (2 versions, oldest first)"

    def version(inferred: bool) -> Version:
        return Version(id="m", version="v1", created=None, state="latest", text="t",
                       change="first version", inferred=inferred)

    assert stated_note([version(False)]) == "Stated, not inferred."
    assert stated_note([version(False)] * 3) == "Every version was stated, not inferred."
    assert stated_note([version(False), version(True)]) is None  # the inferred are marked


def test_spaces_are_named_as_the_data_names_them(fresh_data_dir) -> None:
    """A space is named by the name the data gives it ("Acme Work"), not by its tag
    (acme_work), on the pages that name spaces: the profile's choice and heading, the
    expiry queue's table and the sidebar's Space filter."""
    profile = run_page("profile.py", profile_space="acme_work", filters_open=True)
    assert "Profile of Acme Work" in [m.value.strip("*") for m in profile.markdown]
    assert profile.selectbox[0].value == "acme_work"  # the value stays the tag
    assert "Acme Work" in profile.sidebar.multiselect[0].options
    assert "acme_work" not in profile.sidebar.multiselect[0].options
    expiry = run_page("expiry.py")
    table = next(d.value for d in expiry.dataframe if "space" in d.value.columns)
    spaces = {s for s in table["space"] if s}
    assert spaces and spaces <= {"Personal", "Acme Work", "Research"}, spaces
