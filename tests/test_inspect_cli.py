"""``python -m memscope inspect``: real subprocess, real files, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT, SM, SP


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memscope", "inspect", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


def test_feed_pages_as_one_dataset(feed_paths):
    proc = run(*map(str, feed_paths), "--now", "2026-11-30T12:00:00Z")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert set(out) >= {"nodes", "edges", "chains", "findings", "skipped"}
    assert len([n for n in out["nodes"] if n["kind"] == "memory"]) == 19
    assert ("expired_not_forgotten", ["mem_run"]) in [
        (f["kind"], f["nodes"]) for f in out["findings"]]


def test_now_changes_states(feed_paths):
    early = json.loads(run(*map(str, feed_paths), "--now", "2026-11-25T00:00:00Z").stdout)
    run_state = {n["id"]: n["state"] for n in early["nodes"]}["mem_run"]
    assert run_state == "expiring"  # forgetAfter 2026-11-29 is within 7 days of 11-25


def test_bare_document_list_is_accepted(tmp_path):
    page = json.loads((SM / "documents_page2.json").read_text())
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(page["documents"]))
    out = json.loads(run(str(bare)).stdout)
    assert "doc_health" in {n["id"] for n in out["nodes"]}


def test_spomory_export_response():
    out = json.loads(run(str(SP / "export_response.json")).stdout)
    assert len(out["nodes"]) == 5 and all(e["kind"] == "relation" for e in out["edges"])


def test_fail_on_findings_exits_1(feed_paths, tmp_path):
    assert run(*map(str, feed_paths), "--fail-on-findings").returncode == 1
    clean = tmp_path / "clean.json"
    clean.write_text(json.dumps({"documents": [{"id": "d", "memoryEntries": [
        {"id": "m", "memory": "fine", "createdAt": "2026-01-01T00:00:00Z"}]}]}))
    assert run(str(clean), "--fail-on-findings").returncode == 0


def test_unreadable_and_unrecognised_files_exit_2_with_one_line(tmp_path):
    missing = run(str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and missing.stdout == ""
    assert len(missing.stderr.strip().splitlines()) == 1 and "nope.json" in missing.stderr
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    bad = run(str(junk))
    assert bad.returncode == 2 and "not JSON" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    other = run(str(SM / "profile.json"))
    assert other.returncode == 2 and "neither" in other.stderr
    bad_now = run(str(SM / "documents_page1.json"), "--now", "soon")
    assert bad_now.returncode == 2 and "--now" in bad_now.stderr
