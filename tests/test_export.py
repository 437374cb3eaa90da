"""Exports: networkx reads back the same graph; the HTML is offline and shows text as
text; evidence packs verify against their manifest."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import xml.etree.ElementTree as ET
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import networkx as nx
import pytest
from conftest import NOW, SM, SP

from memscope.export.formats import (
    CSV_COLUMNS,
    evidence_json,
    evidence_nodes,
    evidence_pack,
    flat_graph,
    memories_csv,
    offline_html,
    to_gexf,
    to_graphml,
    to_node_link,
)
from memscope.graph.analysis import analyse
from memscope.records.dataset import from_feed_pages, read_files
from memscope.view.build import build_view
from memscope.view.layout import layout_positions

HOSTILE = "<script>alert('memory')</script> likes <b>bold</b> text"


@pytest.fixture(scope="module")
def an():
    paths = [SM / f"documents_page{i}.json" for i in (1, 2, 3)] + [SP / "passport.json"]
    return analyse(read_files(paths), NOW)


def edge_set(g: nx.MultiDiGraph) -> set:
    return {(u, v, k, tuple(sorted(d.items()))) for u, v, k, d in g.edges(keys=True, data=True)}


def test_flat_graph_has_only_plain_attribute_types(an):
    g = flat_graph(an)
    assert g.number_of_nodes() == an.graph.graph.number_of_nodes() == 12 + 19 + 5
    assert g.number_of_edges() == an.graph.graph.number_of_edges()
    types: dict[str, set] = {}
    for _, data in g.nodes(data=True):
        for k, v in data.items():
            types.setdefault(k, set()).add(type(v))
    assert all(t <= {str, int, float, bool} and len(t) == 1 for t in types.values()), types
    assert g.nodes["mem_hostile"]["text"] == HOSTILE
    assert g.nodes["mem_allergy"]["forget_reason"] == "user asked to remove medical data"
    assert g.nodes["mem_fe_v3"]["created"] == "2026-11-20T09:00:00Z"
    assert g.nodes["mem_fe_v3"]["is_static"] is True


def test_graphml_round_trip(an):
    data = to_graphml(an)
    back = nx.read_graphml(io.BytesIO(data), force_multigraph=True)
    flat = flat_graph(an)
    assert dict(back.nodes(data=True)) == dict(flat.nodes(data=True))
    assert edge_set(back) == edge_set(flat)
    keys = [(k.get("for"), k.get("attr.name")) for k in ET.fromstring(data)
            if k.tag.endswith("key")]
    assert len(keys) == len(set(keys))  # one declaration per attribute (Gephi, yEd)


def test_gexf_round_trip(an):
    back = nx.read_gexf(io.BytesIO(to_gexf(an)))
    flat = flat_graph(an)
    assert dict(back.nodes(data=True)) == dict(flat.nodes(data=True))
    # GEXF keeps each edge's id as its "id" attribute
    got = {(u, v, d["id"], tuple(sorted((k, x) for k, x in d.items() if k != "id")))
           for u, v, d in back.edges(data=True)}
    assert got == edge_set(flat)


def test_node_link_round_trip(an):
    data = json.loads(json.dumps(to_node_link(an), ensure_ascii=False))
    back = nx.node_link_graph(data, edges="edges")
    flat = flat_graph(an)
    assert dict(back.nodes(data=True)) == dict(flat.nodes(data=True))
    assert edge_set(back) == edge_set(flat)


def test_exports_follow_the_visible_set_and_edge_kinds(an):
    visible = {"doc_coffee", "mem_coffee_v1", "mem_coffee_v2b", "mem_coffee_v2"}
    g = nx.read_graphml(io.BytesIO(to_graphml(an, visible)), force_multigraph=True)
    assert set(g) == visible
    assert sorted((u, v, d["kind"]) for u, v, d in g.edges(data=True)) == [
        ("doc_coffee", "mem_coffee_v1", "source"), ("doc_coffee", "mem_coffee_v2b", "source"),
        ("mem_coffee_v1", "mem_coffee_v2", "updates"),
        ("mem_coffee_v1", "mem_coffee_v2b", "updates")]
    only = flat_graph(an, visible, edge_kinds={"updates"})
    assert {d["kind"] for _, _, d in only.edges(data=True)} == {"updates"}


def test_xml_exports_survive_control_characters():
    ds = from_feed_pages([{"documents": [{"id": "d", "title": "bell\x07 and nul\x00",
                                          "memoryEntries": [{"id": "m", "memory": "a\x01b"}]}]}])
    an = analyse(ds, NOW)
    assert nx.read_graphml(io.BytesIO(to_graphml(an))).nodes["m"]["text"] == "ab"
    assert nx.read_gexf(io.BytesIO(to_gexf(an))).nodes["d"]["title"] == "bell and nul"


def test_memories_csv(an):
    rows = list(csv.DictReader(io.StringIO(memories_csv(an).decode("utf-8"))))
    assert len(rows) == 19 and list(rows[0]) == CSV_COLUMNS
    by_id = {r["id"]: r for r in rows}
    assert by_id["mem_hostile"]["memory"] == HOSTILE
    assert by_id["mem_unicode"]["memory"] == "喜欢喝乌龙茶 🍵 — naïve café ørsted"
    assert by_id["mem_run"]["state"] == "expired"
    assert by_id["mem_coffee_v2b"]["chain_root"] == "mem_coffee_v1"
    formula = from_feed_pages([{"documents": [{"id": "d", "memoryEntries": [
        {"id": "m", "memory": "=HYPERLINK(\"x\")"}]}]}])
    row = next(csv.DictReader(io.StringIO(memories_csv(analyse(formula)).decode())))
    assert row["memory"] == "'=HYPERLINK(\"x\")"


# -- offline HTML ------------------------------------------------------------------------

RESOURCE = re.compile(r"""<(?:script|link|img|iframe|object|embed|source|video|audio)\b[^>]*
                          \b(?:src|href|data)\s*=|(?<![\w.])url\(|@import""", re.I | re.X)


def start_tags(page: str) -> list[tuple[str, tuple]]:
    """The elements an HTML parser sees (script contents are not parsed as tags)."""
    found: list[tuple[str, tuple]] = []

    class Parser(HTMLParser):
        def handle_starttag(self, tag, attrs):
            found.append((tag, tuple(attrs)))

    Parser().feed(page)
    return found


def html_data(page: str) -> dict:
    start = page.index('id="memscope-data">') + len('id="memscope-data">')
    return json.loads(page[start:page.index("</script>", start)])


@pytest.fixture(scope="module")
def html_page(an):
    view = build_view(an, positions=layout_positions(an.graph.graph, seed=7))
    return offline_html(view, "Demo <i>title</i> https://example.org")


def test_html_loads_no_resource(html_page):
    page = html_page
    # strict: no http(s) URL anywhere — the library's own URLs (licence comment, SVG
    # namespace) are neutralised as ":\/\/", data and title escape "/" too
    assert "http://" not in page and "https://" not in page
    assert not RESOURCE.search(html_page)
    tags = start_tags(page)
    # the data block, vis-network, our code; nothing with a src/href
    assert [t for t in tags if t[0] == "script"] == [
        ("script", (("type", "application/json"), ("id", "memscope-data"))),
        ("script", ()), ("script", ())]
    assert not [t for t in tags if {"src", "href", "data"} & {k for k, _ in t[1]}]
    assert "<!--" not in page  # (would change how the HTML parser ends a script)
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert "sourceMappingURL" not in page
    assert "vis-network" in page and "@license" in page  # the licence header stays


def test_html_shows_hostile_text_literally(html_page):
    page = html_page
    data = html_data(page)
    titles = {n["id"]: n["title"] for n in data["nodes"]}
    assert titles["mem_hostile"].startswith(HOSTILE)
    assert titles["doc_hostile"].startswith("<img src=x onerror=alert('title')>")
    assert "<script>alert" not in page and "<img src=x" not in page and "<svg onload" not in page
    assert "<title>Demo &lt;i&gt;title&lt;&#47;i&gt; https:&#47;&#47;example.org</title>" in page
    assert "innerHTML" not in page.split("<script>")[-1]  # our code sets text only


# -- evidence packs ------------------------------------------------------------------------

def test_evidence_nodes(an):
    assert evidence_nodes(an, "mem_coffee_v2") == [
        "mem_coffee_v1", "mem_coffee_v2", "mem_coffee_v2b", "doc_coffee", "doc_ml_reading"]
    assert evidence_nodes(an, "mem_editor") == ["mem_editor", "doc_stack_1", "doc_stack_0"]
    assert evidence_nodes(an, "doc_health") == ["doc_health", "mem_allergy", "mem_run"]
    assert evidence_nodes(an, "nope") == []


def test_evidence_pack_manifest_matches_its_files(an):
    nodes = evidence_nodes(an, "mem_coffee_v2")
    view = build_view(an, visible=nodes)
    blob = evidence_pack(an, nodes, view)
    zf = zipfile.ZipFile(io.BytesIO(blob))
    assert sorted(zf.namelist()) == ["MANIFEST.sha256", "evidence.json", "memories.csv",
                                     "view.html"]
    manifest = zf.read("MANIFEST.sha256").decode("ascii").splitlines()
    listed = {name: digest for digest, name in (line.split("  ", 1) for line in manifest)}
    assert set(listed) == {"evidence.json", "memories.csv", "view.html"}
    for name, digest in listed.items():
        assert hashlib.sha256(zf.read(name)).hexdigest() == digest
    assert evidence_pack(an, nodes, view) == blob  # deterministic
    evidence = json.loads(zf.read("evidence.json"))
    versions = {n["id"]: n for n in evidence["nodes"] if n["kind"] == "memory"}
    assert set(versions) == {"mem_coffee_v1", "mem_coffee_v2", "mem_coffee_v2b"}
    assert versions["mem_coffee_v2b"]["createdAt"] == "2026-11-16T09:00:00Z"
    assert versions["mem_coffee_v2b"]["parentMemoryId"] == "mem_coffee_v1"
    assert {(e["from"], e["to"], e["kind"]) for e in evidence["edges"]} >= {
        ("mem_coffee_v1", "mem_coffee_v2", "updates"),
        ("mem_coffee_v1", "mem_coffee_v2b", "updates")}
    assert evidence["chains"][0]["branches"] == {
        "mem_coffee_v1": ["mem_coffee_v2", "mem_coffee_v2b"]}
    assert {f["kind"] for f in evidence["findings"]} == {"branch", "multiple_latest"}
    csv_rows = list(csv.DictReader(io.StringIO(zf.read("memories.csv").decode())))
    assert [r["id"] for r in csv_rows] == ["mem_coffee_v2", "mem_coffee_v1", "mem_coffee_v2b"]
    assert "http://" not in zf.read("view.html").decode()


def test_evidence_json_keeps_reasons_and_provenance(an):
    forgotten = evidence_json(an, ["mem_allergy", "doc_health"])
    mem = next(n for n in forgotten["nodes"] if n["id"] == "mem_allergy")
    assert (mem["isForgotten"], mem["forgetReason"]) == (True, "user asked to remove medical data")
    assert mem["updatedAt"] == "2026-11-08T09:00:00Z"
    facts = evidence_json(an, evidence_nodes(an, "e_x"))
    edge = next(e for e in facts["edges"] if e["relation_id"] == "r4")
    assert edge["provenance"] == [{"sourceId": "api",
                                   "sourceSpan": "<script>alert('span')</script>"}]
    assert edge["createdAt"] == "2026-11-05T10:00:00Z"


# -- the HTML in a real browser ------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"needs Chromium at {CHROMIUM}")
def test_html_draws_offline_in_chromium(html_page, tmp_path):
    from browser_support import chromium
    from playwright.sync_api import Dialog

    path = tmp_path / "graph.html"
    path.write_text(html_page, encoding="utf-8")
    # the process's one Chromium (browser_support): a second Playwright in this thread
    # would fail once another test has started the shared one
    with chromium() as browser:
        tab = browser.new_context().new_page()
        requests: list[str] = []
        problems: list[str] = []

        def refuse(dialog: Dialog) -> None:
            problems.append(dialog.message)
            dialog.dismiss()

        tab.on("request", lambda r: requests.append(r.url))
        tab.on("dialog", refuse)
        tab.on("pageerror", lambda e: problems.append(str(e)))
        tab.goto(path.as_uri())
        tab.wait_for_selector("#graph[data-drawn='true']", timeout=20000)
        tip = tab.evaluate("document.getElementById('graph').__network.body.data.nodes"
                           ".get('mem_hostile').title.textContent")
        assert tip.startswith(HOSTILE)
        assert "cluster" in tab.inner_text("#legend")
        assert tab.title() == "Demo <i>title</i> https://example.org"
        assert requests == [path.as_uri()] and problems == []


def test_xml_exports_keep_whitespace_quotes_and_markup_in_text():
    text = 'line one\r\nline\ttwo "quoted" <b>&amp;</b> \u00e9'
    ds = from_feed_pages([{"documents": [{"id": "d", "title": text, "memoryEntries": [
        {"id": "m", "memory": text}, {"id": "n", "memory": "x", "parentMemoryId": "m"}]}]}])
    an = analyse(ds, NOW)
    g = nx.read_graphml(io.BytesIO(to_graphml(an)), force_multigraph=True)
    assert g.nodes["m"]["text"] == text and g.nodes["d"]["title"] == text
    gexf = nx.read_gexf(io.BytesIO(to_gexf(an)))
    assert gexf.nodes["m"]["text"] == text and gexf.nodes["d"]["title"] == text
    assert to_gexf(an) == to_gexf(an) and to_graphml(an) == to_graphml(an)


def test_the_export_pages_pack_holds_a_trail_per_holding_version(an):
    """What "Download evidence pack" sends: the pack of the chain with the provenance
    trail of each version that holds (both branches of the coffee chain), readable as text
    and listed in the manifest; from masked data, no memory text in any trail."""
    from components.sections.export import evidence_zip
    from memscope.lenses.presenter import mask

    zf = zipfile.ZipFile(io.BytesIO(evidence_zip(an, "mem_coffee_v2")))
    trails = sorted(n for n in zf.namelist() if n.startswith("why-"))
    holding = sorted(i for i in ("mem_coffee_v1", "mem_coffee_v2", "mem_coffee_v2b")
                     if an.state(i) in ("latest", "recent", "expiring"))
    assert holding, "the fixture's coffee chain has a version that holds"
    assert trails == [f"why-{i}.txt" for i in holding]
    manifest = zf.read("MANIFEST.sha256").decode("ascii")
    for name in trails:
        text = zf.read(name).decode("utf-8")
        assert an.dataset.memories[name[4:-4]].memory in text
        assert f"  {name}\n" in manifest
    masked = analyse(mask(an.dataset), NOW)
    zf = zipfile.ZipFile(io.BytesIO(evidence_zip(masked, "mem_coffee_v2", masked=True)))
    texts = [zf.read(n).decode("utf-8") for n in zf.namelist() if n.startswith("why-")]
    assert texts
    real = {m.memory for m in an.dataset.memories.values() if m.memory}
    assert not [t for t in real for body in texts if t in body]
