"""``python -m memscope why MEMORY_ID FILE…``: real subprocess, real files, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT, SP

NOW = "2026-11-30T12:00:00Z"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memscope", "why", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_text_trail_of_an_old_version(feed_paths):
    proc = run("mem_fe_v1", *map(str, feed_paths), "--now", NOW)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("Why does it believe this?\nMemory mem_fe_v1 · judged at "
                          "2026-11-30 12:00:00 UTC\n")
    assert "“Prefers React with TypeScript for new frontend work.”\n  v3 · latest · " \
           "mem_fe_v3" in out
    assert "You asked about v1 (mem_fe_v1), which is superseded" in out
    assert "“Vue” became “React”." in out
    assert "v2 — “Stack decision: React” (notion_doc, 2026-11-10 08:00:00 UTC, doc_stack_1)" \
        in out
    assert "is extended by “Finished an advanced TypeScript course in November.” " \
           "(mem_ts_course)" in out
    assert proc.stderr == ""


def test_json_trail(feed_paths):
    proc = run("mem_is_mle", *map(str, feed_paths), "--now", NOW, "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["kind"] == "memory" and data["statement"]["id"] == "mem_is_mle"
    version = data["versions"][0]
    assert version["inferred"] is True
    assert version["derived_from"] == [
        "“Reads one machine-learning paper every day.” (mem_reads_ml)"]
    assert [s["document_id"] for s in data["sources"]] == ["doc_ml_reading"]
    assert data["judged_at"] == NOW


def test_spomory_fact_from_an_export_response():
    data = json.loads(run("r1", str(SP / "export_response.json"), "--json").stdout)
    assert data["kind"] == "fact"
    assert data["sources"][0]["passage"] == "张三在某公司工作。"


def test_presenter_masks_every_text(feed_paths):
    proc = run("mem_fe_v1", *map(str, feed_paths), "--now", NOW, "--presenter")
    assert proc.returncode == 0, proc.stderr
    for real in ("Vue", "React", "TypeScript", "Stack decision"):
        assert real not in proc.stdout
    assert "hidden in presenter mode" in proc.stdout


def test_unknown_id_is_one_sentence_and_exit_2(feed_paths):
    proc = run("mem_nope", *map(str, feed_paths))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == "memscope why: Nothing with id mem_nope is loaded.\n"
    doc = run("doc_stack_1", *map(str, feed_paths))
    assert doc.returncode == 2
    assert doc.stderr.strip().endswith("is a document, not a memory: ask about one of its "
                                       "memories.")


def test_unreadable_file_and_bad_now_exit_2(tmp_path, feed_paths):
    proc = run("m", str(tmp_path / "missing.json"))
    assert proc.returncode == 2
    assert proc.stderr == "memscope why: Cannot read missing.json: No such file or directory.\n"
    assert len(proc.stderr.strip().splitlines()) == 1
    bad = run("mem_fe_v1", *map(str, feed_paths), "--now", "yesterday")
    assert bad.returncode == 2 and bad.stderr.startswith("memscope why: --now 'yesterday'")
