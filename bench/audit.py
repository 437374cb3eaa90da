"""Semantic audit figures: precision and recall per kind on the labelled pairs, and time.

(a) ``tests/labelled/semantic_pairs.json``: each pair is put in a dataset of its own (a
    contradiction: two latest memories in two documents of one space; an update: the
    second updates the first; a duplicate: the same in two documents) and
    ``semantic_findings`` runs on it; a pair counts as flagged when a finding of its kind
    names its two memories. Precision and recall per kind and language, and the pairs it
    gets wrong (with the pair's note when it has one).
(b) time: the demo generator at ``--sizes`` memories (default 50,000), analysed, then
    ``semantic_findings`` timed from cold (the embedding of every memory included) and
    again with the rows given (as a caller that already embedded them for Ask would).

(c) ``tests/labelled/heldout/audit_pairs.json`` and ``tests/labelled/heldout2/audit_pairs.json``
    (issue 35: each written by someone who had not read the rules, split at once into
    development and held-out halves): each pair in a dataset of
    its own — ``relation: none``, two latest memories in two documents; ``updates``, b
    updates a — and scored per language for suspected contradictions (``contradiction``
    positive; ``lookalike`` and ``resolved`` negative) and suspicious updates
    (``unrelated_update`` positive; ``genuine_update`` and ``resolved`` negative). The
    held-out half is printed apart: only its figures are quoted, and nothing is tuned on it.
    The development-only sets under ``tests/labelled/`` (``zh_dev``, ``en_dev``,
    ``en_dev2``, ``zh_updates_dev``, ``zh_dev2``, ``zh_updates_dev2``, ``en_dev3``,
    ``zh_dev3``, ``en_dev4``, ``zh_dev4``, ``en_dev5``, ``zh_dev5``, ``en_dev6``, ``zh_dev6``,
    ``en_dev7``, ``zh_dev7``, ``en_dev8``, ``zh_dev8``, ``en_dev9``, ``zh_dev9``, ``en_dev10``,
    ``zh_dev10``, ``en_dev11``, ``zh_dev11``, ``en_dev12``, ``zh_dev12``,
    ``en_dev13``, ``zh_dev13``, ``en_dev14``, ``zh_dev14``, ``en_dev15``,
    ``en_dev16``, ``zh_dev15``, ``en_dev17``, ``zh_dev16``,
    ``en_dev18``, ``zh_dev17``, ``en_dev19``, ``zh_dev18``, ``en_dev20``, ``zh_dev19``,
    ``en_dev21``, ``zh_dev20``, ``en_dev22``, ``zh_dev21``, ``en_dev23``,
    ``zh_dev22``: see their READMEs)
    are printed with them.

Run: ``.venv/bin/python bench/audit.py [--sizes 5000,50000] [--skip-time]
[--heldout-only]``. Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memscope.graph.analysis import Analysis, analyse  # noqa: E402
from memscope.meaning.audit import semantic_findings  # noqa: E402
from memscope.meaning.claims import claim  # noqa: E402
from memscope.records.dataset import from_feed_pages  # noqa: E402

PAIRS = ROOT / "tests" / "labelled" / "semantic_pairs.json"
HELDOUT = ROOT / "tests" / "labelled" / "heldout" / "audit_pairs.json"
#: a second set by a second writer (2026-12-06), split the same way
HELDOUT2 = ROOT / "tests" / "labelled" / "heldout2" / "audit_pairs.json"
#: Chinese and English pairs for development only (no held-out half): see their READMEs
ZH_DEV = ROOT / "tests" / "labelled" / "zh_dev" / "pairs.json"
EN_DEV = ROOT / "tests" / "labelled" / "en_dev" / "pairs.json"
EN_DEV2 = ROOT / "tests" / "labelled" / "en_dev2" / "pairs.json"
ZH_UPDATES_DEV = ROOT / "tests" / "labelled" / "zh_updates_dev" / "pairs.json"
ZH_DEV2 = ROOT / "tests" / "labelled" / "zh_dev2" / "pairs.json"
ZH_UPDATES_DEV2 = ROOT / "tests" / "labelled" / "zh_updates_dev2" / "pairs.json"
EN_DEV3 = ROOT / "tests" / "labelled" / "en_dev3" / "pairs.json"
ZH_DEV3 = ROOT / "tests" / "labelled" / "zh_dev3" / "pairs.json"
EN_DEV4 = ROOT / "tests" / "labelled" / "en_dev4" / "pairs.json"
ZH_DEV4 = ROOT / "tests" / "labelled" / "zh_dev4" / "pairs.json"
EN_DEV5 = ROOT / "tests" / "labelled" / "en_dev5" / "pairs.json"
ZH_DEV5 = ROOT / "tests" / "labelled" / "zh_dev5" / "pairs.json"
EN_DEV6 = ROOT / "tests" / "labelled" / "en_dev6" / "pairs.json"
ZH_DEV6 = ROOT / "tests" / "labelled" / "zh_dev6" / "pairs.json"
EN_DEV7 = ROOT / "tests" / "labelled" / "en_dev7" / "pairs.json"
ZH_DEV7 = ROOT / "tests" / "labelled" / "zh_dev7" / "pairs.json"
EN_DEV8 = ROOT / "tests" / "labelled" / "en_dev8" / "pairs.json"
ZH_DEV8 = ROOT / "tests" / "labelled" / "zh_dev8" / "pairs.json"
EN_DEV9 = ROOT / "tests" / "labelled" / "en_dev9" / "pairs.json"
ZH_DEV9 = ROOT / "tests" / "labelled" / "zh_dev9" / "pairs.json"
EN_DEV10 = ROOT / "tests" / "labelled" / "en_dev10" / "pairs.json"
ZH_DEV10 = ROOT / "tests" / "labelled" / "zh_dev10" / "pairs.json"
EN_DEV11 = ROOT / "tests" / "labelled" / "en_dev11" / "pairs.json"
ZH_DEV11 = ROOT / "tests" / "labelled" / "zh_dev11" / "pairs.json"
EN_DEV12 = ROOT / "tests" / "labelled" / "en_dev12" / "pairs.json"
ZH_DEV12 = ROOT / "tests" / "labelled" / "zh_dev12" / "pairs.json"
EN_DEV13 = ROOT / "tests" / "labelled" / "en_dev13" / "pairs.json"
ZH_DEV13 = ROOT / "tests" / "labelled" / "zh_dev13" / "pairs.json"
EN_DEV14 = ROOT / "tests" / "labelled" / "en_dev14" / "pairs.json"
ZH_DEV14 = ROOT / "tests" / "labelled" / "zh_dev14" / "pairs.json"
EN_DEV15 = ROOT / "tests" / "labelled" / "en_dev15" / "pairs.json"
EN_DEV16 = ROOT / "tests" / "labelled" / "en_dev16" / "pairs.json"
ZH_DEV15 = ROOT / "tests" / "labelled" / "zh_dev15" / "pairs.json"
EN_DEV17 = ROOT / "tests" / "labelled" / "en_dev17" / "pairs.json"
ZH_DEV16 = ROOT / "tests" / "labelled" / "zh_dev16" / "pairs.json"
EN_DEV18 = ROOT / "tests" / "labelled" / "en_dev18" / "pairs.json"
ZH_DEV17 = ROOT / "tests" / "labelled" / "zh_dev17" / "pairs.json"
EN_DEV19 = ROOT / "tests" / "labelled" / "en_dev19" / "pairs.json"
ZH_DEV18 = ROOT / "tests" / "labelled" / "zh_dev18" / "pairs.json"
EN_DEV20 = ROOT / "tests" / "labelled" / "en_dev20" / "pairs.json"
ZH_DEV19 = ROOT / "tests" / "labelled" / "zh_dev19" / "pairs.json"
EN_DEV21 = ROOT / "tests" / "labelled" / "en_dev21" / "pairs.json"
ZH_DEV20 = ROOT / "tests" / "labelled" / "zh_dev20" / "pairs.json"
EN_DEV22 = ROOT / "tests" / "labelled" / "en_dev22" / "pairs.json"
ZH_DEV21 = ROOT / "tests" / "labelled" / "zh_dev21" / "pairs.json"
EN_DEV23 = ROOT / "tests" / "labelled" / "en_dev23" / "pairs.json"
ZH_DEV22 = ROOT / "tests" / "labelled" / "zh_dev22" / "pairs.json"
EN_DEV24 = ROOT / "tests" / "labelled" / "en_dev24" / "pairs.json"
EN_DEV25 = ROOT / "tests" / "labelled" / "en_dev25" / "pairs.json"
#: held-out label -> (the finding kind it is scored for, whether it should be flagged)
HELDOUT_KINDS = {
    "contradiction": (("contradiction", True),),
    "lookalike": (("contradiction", False),),
    "unrelated_update": (("update", True),),
    "genuine_update": (("update", False),),
    "resolved": (("contradiction", False), ("update", False)),
}
NOW = datetime(2026, 6, 1, tzinfo=UTC)
KIND = {"contradiction": "suspected_contradiction", "update": "suspicious_update",
        "duplicate": "near_duplicate"}


def pair_analysis(pair: dict[str, Any]) -> Analysis:
    """The dataset of one labelled pair: memories ``a`` and ``b`` in documents d1 and d2
    (``b`` updates ``a`` for an update pair)."""
    a = {"id": "a", "memory": pair["a"], "spaceContainerTag": "s",
         "createdAt": "2026-05-01T10:00:00Z"}
    b = {"id": "b", "memory": pair["b"], "spaceContainerTag": "s",
         "createdAt": "2026-05-02T10:00:00Z"}
    if pair.get("kind") == "update" or pair.get("relation") == "updates":
        a["isLatest"] = False
        b["parentMemoryId"] = "a"
    docs = [{"id": f"d{n}", "title": f"d{n}", "memoryEntries": [m]} for n, m in ((1, a), (2, b))]
    return analyse(from_feed_pages([{"documents": docs}]), NOW)


def flagged(pair: dict[str, Any]) -> bool:
    """Whether the audit flags the pair as its kind."""
    kind = KIND[pair["kind"]]
    return any(f.kind == kind and set(f.nodes) == {"a", "b"}
               for f in semantic_findings(pair_analysis(pair)))


def scores(pairs: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (language, kind): true/false positives, false negatives, the misses."""
    out: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {"tp": 0, "fp": 0, "fn": 0, "tn": 0, "wrong": []})
    for pair in pairs:
        got = flagged(pair)
        cell = out[(pair["lang"], pair["kind"])]
        key = ("tp" if pair["label"] else "fp") if got else ("fn" if pair["label"] else "tn")
        cell[key] += 1
        if key in ("fp", "fn"):
            cell["wrong"].append((key, pair))
    return out


def heldout_scores(pairs: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Per (language, kind) over held-out-format pairs: tp/fp/fn/tn and the mistakes."""
    out: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {"tp": 0, "fp": 0, "fn": 0, "tn": 0, "wrong": []})
    for pair in pairs:
        found = semantic_findings(pair_analysis(pair))
        for kind, positive in HELDOUT_KINDS[pair["label"]]:
            got = any(f.kind == KIND[kind] and set(f.nodes) == {"a", "b"} for f in found)
            cell = out[(pair["lang"], kind)]
            key = ("tp" if positive else "fp") if got else ("fn" if positive else "tn")
            cell[key] += 1
            if key in ("fp", "fn"):
                cell["wrong"].append((key, pair))
    return out


def print_heldout(*, show_misses: bool = False, dev_only: bool = False) -> None:
    """The development half, then (unless ``dev_only``, for whoever is tuning the rules)
    the held-out half: the figures to quote."""
    for path in (HELDOUT, HELDOUT2, ZH_DEV, EN_DEV, EN_DEV2, ZH_UPDATES_DEV, ZH_DEV2,
                 ZH_UPDATES_DEV2, EN_DEV3, ZH_DEV3, EN_DEV4, ZH_DEV4, EN_DEV5, ZH_DEV5,
                 EN_DEV6, ZH_DEV6, EN_DEV7, ZH_DEV7, EN_DEV8, ZH_DEV8,
                 EN_DEV9, ZH_DEV9, EN_DEV10, ZH_DEV10, EN_DEV11, ZH_DEV11,
                 EN_DEV12, ZH_DEV12, EN_DEV13, ZH_DEV13, EN_DEV14, ZH_DEV14, EN_DEV15,
                 EN_DEV16, ZH_DEV15, EN_DEV17, ZH_DEV16, EN_DEV18, ZH_DEV17,
                 EN_DEV19, ZH_DEV18, EN_DEV20, ZH_DEV19, EN_DEV21, ZH_DEV20,
                 EN_DEV22, ZH_DEV21, EN_DEV23, ZH_DEV22, EN_DEV24,
                 EN_DEV25):
        _print_set(path, show_misses=show_misses, dev_only=dev_only)


def _print_set(path: Path, *, show_misses: bool, dev_only: bool) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    print(f"\nissue 35 pairs ({path.relative_to(ROOT)}, written {data['written']}):")
    for half in ("development",) if dev_only else ("development", "heldout"):
        pairs = data.get(half) or []
        if not pairs:
            continue  # a development-only set has no held-out half
        print(f"\n{half} half ({len(pairs)} pairs):")
        table = heldout_scores(pairs)
        _print_table(table, misses=False)
        for lang in ("en", "zh"):
            plain = [p for p in pairs if p["lang"] == lang and p["label"] == "contradiction"
                     and not p.get("needs_world_knowledge")]
            found = sum(1 for p in plain if any(
                f.kind == KIND["contradiction"] and set(f.nodes) == {"a", "b"}
                for f in semantic_findings(pair_analysis(p))))
            print(f"{lang} contradictions needing no world knowledge: {found} of {len(plain)} "
                  f"found (recall {_ratio(found, len(plain))})")
        if show_misses and half == "development":  # never list the held-out mistakes
            for (lang, kind), c in sorted(table.items()):
                for key, pair in c["wrong"]:
                    what = "missed" if key == "fn" else "wrongly flagged"
                    print(f"  {lang} {kind} {what} [{pair['label']}]: {pair['a']!r} / "
                          f"{pair['b']!r}")


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.2f}" if b else "n/a"


def print_quality() -> None:
    pairs = json.loads(PAIRS.read_text(encoding="utf-8"))["pairs"]
    print(f"labelled pairs: {len(pairs)} ({PAIRS.relative_to(ROOT)})")
    for title, chosen in (("all pairs", pairs),
                          *((f"{name} pairs only", [p for p in pairs if p["set"] == name])
                            for name in ("development", "second", "held-out"))):
        print(f"\n{title} ({len(chosen)}):")
        _print_table(scores(chosen), misses=title == "all pairs")


def _print_table(table: dict[tuple[str, str], dict[str, Any]], *, misses: bool) -> None:
    print(f"{'lang':4} {'kind':13} {'pairs':>5} {'tp':>3} {'fp':>3} {'fn':>3} "
          f"{'precision':>9} {'recall':>6}")
    for (lang, kind), c in sorted(table.items()):
        n = c["tp"] + c["fp"] + c["fn"] + c["tn"]
        print(f"{lang:4} {kind:13} {n:5} {c['tp']:3} {c['fp']:3} {c['fn']:3} "
              f"{_ratio(c['tp'], c['tp'] + c['fp']):>9} {_ratio(c['tp'], c['tp'] + c['fn']):>6}")
    for (lang, kind), c in sorted(table.items()) if misses else ():
        for key, pair in c["wrong"]:
            what = "missed" if key == "fn" else "wrongly flagged"
            note = f" — {pair['note']}" if pair.get("note") else ""
            print(f"  {lang} {kind} {what} ({pair['set']}): {pair['a']!r} / {pair['b']!r}{note}")


def print_time(sizes: list[int]) -> None:
    from memscope.demo.generator import generate
    from memscope.meaning.embed import embed

    for n in sizes:
        data = generate(7, now=NOW, n_documents=max(72, n // 5), n_memories=n)
        analysis = analyse(from_feed_pages(data.to_feed_pages()), NOW)
        memories = analysis.dataset.memories
        embed(["warm the model"])
        claim.cache_clear()
        t0, c0 = time.perf_counter(), time.process_time()
        found = semantic_findings(analysis)
        cold, cold_cpu = time.perf_counter() - t0, time.process_time() - c0
        ids = sorted(memories)
        t0 = time.perf_counter()
        rows = dict(zip(ids, embed([memories[i].memory for i in ids]), strict=True))
        embedding = time.perf_counter() - t0
        claim.cache_clear()
        t0, c0 = time.perf_counter(), time.process_time()
        again = semantic_findings(analysis, rows)
        given, given_cpu = time.perf_counter() - t0, time.process_time() - c0
        by_kind: dict[str, int] = defaultdict(int)
        for f in found:
            by_kind[f.kind] += 1
        latest = sum(1 for m in memories.values() if m.is_latest and not m.is_forgotten)
        distinct = len({m.memory for m in memories.values()})
        print(f"{len(memories):,} memories ({latest:,} latest, not forgotten; {distinct:,} "
              f"distinct texts): semantic_findings {cold:.2f} s cold, embedding included "
              f"({cold_cpu:.2f} s CPU), {given:.2f} s with the rows given ({given_cpu:.2f} s "
              f"CPU; embedding every memory alone: {embedding:.2f} s); load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; "
              f"{dict(sorted(by_kind.items()))}; same list both ways: {found == again}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="50000", help="memory counts, comma-separated")
    parser.add_argument("--skip-time", action="store_true")
    parser.add_argument("--heldout-only", action="store_true",
                        help="only the issue-35 pairs (development, then held-out)")
    parser.add_argument("--dev-misses", action="store_true",
                        help="list the development half's mistakes (never the held-out's)")
    parser.add_argument("--dev-only", action="store_true",
                        help="the development half alone (while tuning: the held-out "
                             "figures are not to be looked at)")
    args = parser.parse_args()
    if args.heldout_only or args.dev_only:
        print_heldout(show_misses=args.dev_misses, dev_only=args.dev_only)
        return
    print_quality()
    print_heldout(show_misses=args.dev_misses)
    if not args.skip_time:
        print_time([int(s) for s in args.sizes.split(",") if s])


if __name__ == "__main__":
    main()
