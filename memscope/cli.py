"""Command line: ``python -m memscope inspect FILE…``, ``seed``, ``warm``, ``diff`` and
``why MEMORY_ID FILE…`` (the provenance trail of one memory, as text or ``--json``).

``memscope diff`` loads one Supermemory space through the legacy (v3/v4) and the current
(v5) API with one key — from ``$MEMSCOPE_API_KEY`` or ``.streamlit/secrets.toml``'s
``[memory_api]`` table, never from the command line — and prints the migration report as
JSON (exit 0 when both agree, 1 on a difference, 2 on an error, said in one sentence);
``memscope diff A.json B.json`` compares two snapshot files the same way.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pydantic import ValidationError

from memscope.records.time import read_time

if TYPE_CHECKING:
    from datetime import datetime

    from memscope.meaning.findings import SemanticFinding

#: exit codes: 0 fine, 1 findings (with ``--fail-on-findings``), 2 unusable input or
#: arguments, 3 a fault of Memscope itself (one line; please report it)
EXIT_INPUT, EXIT_BUG = 2, 3


def _say(message: str) -> None:
    print(f"memscope inspect: {message}", file=sys.stderr)


def _write(text: str) -> None:
    """Write ``text`` to stdout as UTF-8, whatever the terminal's encoding."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(text)
    else:
        sys.stdout.flush()
        buffer.write(text.encode("utf-8", "replace"))
        buffer.flush()


def _now(args: argparse.Namespace) -> tuple[datetime | None, str | None]:
    """``--now`` read: the time (``None`` when not given) and the sentence refusing it."""
    if not args.now:
        return None, None
    now, reason = read_time(args.now)
    return now, None if now is not None else (
        f"--now {args.now!r} {reason or 'is not an ISO-8601 time'}")


def _inspect(args: argparse.Namespace) -> int:
    from memscope.graph.analysis import analyse
    from memscope.records.dataset import UnrecognisedInput, read_files
    from memscope.reports.inspection import dumps

    now, refused = _now(args)
    if refused:
        _say(refused)
        return EXIT_INPUT
    try:
        dataset = read_files(args.files)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        _say(f"cannot read {exc.filename or 'input'}: {reason}")
        return EXIT_INPUT
    except UnrecognisedInput as exc:
        _say(str(exc))
        return EXIT_INPUT
    analysis = analyse(dataset, now)
    semantic = []
    if not args.no_semantic:
        from memscope.meaning.audit import semantic_findings

        found = semantic_findings(analysis)
        if args.judge:
            judged = _judge(found)
            if judged is None:
                return EXIT_INPUT
            found = judged
        semantic = [f.as_dict() for f in found]
    _write(dumps(analysis, semantic) + "\n")
    if args.fail_on_findings and analysis.findings:
        return 1
    return 0


def _judge(found: list[SemanticFinding]) -> list[SemanticFinding] | None:
    """The findings after the configured judge (``None``, said in one line, when no judge
    is configured or its settings are refused)."""
    from memscope.meaning.judge import JudgeConfig, judge_findings

    url, model, key = (_configured(name, table="judge") for name in ("url", "model", "key"))
    if not url or not model:
        _say("--judge needs MEMSCOPE_JUDGE_URL and MEMSCOPE_JUDGE_MODEL (or url and model in "
             ".streamlit/secrets.toml's [judge] table); the key comes from "
             "MEMSCOPE_JUDGE_KEY or key there, never from the command line")
        return None
    try:
        config = JudgeConfig.model_validate({"base_url": url, "model": model, "api_key": key})
    except ValidationError as exc:
        _say(_first_error(exc))
        return None
    judged = judge_findings(found, config)
    _say(f"the judge confirmed {judged.confirmed} and rejected {judged.rejected} suspected "
         "contradictions")
    if judged.failed:
        _say(judged.failed)
    return judged.findings


def _configured(name: str, table: str = "memory_api") -> str | None:
    """A setting as the app reads it (:class:`memscope.app.Settings`): ``$MEMSCOPE_<NAME>``
    (``$MEMSCOPE_JUDGE_<NAME>`` for ``[judge]``) wins over ``.streamlit/secrets.toml``."""
    from memscope.app import Settings

    return Settings.read().get(name, table)


def _diff_say(message: str) -> None:
    print(f"memscope diff: {message}", file=sys.stderr)


def _diff(args: argparse.Namespace) -> int:
    from memscope.records.dataset import UnrecognisedInput, read_files
    from memscope.reports.migration import compare, load_both
    from memscope.sources.dialects import LEGACY_LAST_DAY_TEXT, retired
    from memscope.sources.errors import DialectMismatch, SourceError

    if len(args.files) not in (0, 2):
        _diff_say("give two snapshot files to compare, or none to load the space through "
                  "both APIs")
        return EXIT_INPUT
    if args.files:
        try:
            left, right = (read_files([f]) for f in args.files)
        except OSError as exc:
            _diff_say(f"cannot read {exc.filename or 'input'}: {exc.strerror or exc}")
            return EXIT_INPUT
        except UnrecognisedInput as exc:
            _diff_say(str(exc))
            return EXIT_INPUT
        report = compare(left, right, space=args.space, sources=(args.files[0], args.files[1]))
    else:
        key = _configured("api_key")
        if not key:
            _diff_say("set MEMSCOPE_API_KEY (or api_key in .streamlit/secrets.toml's "
                      "[memory_api] table) to the Supermemory key; it is never read from "
                      "the command line")
            return EXIT_INPUT
        space = args.space or _configured("space")
        base_url = args.base_url or _configured("base_url")
        try:
            loads = load_both(key, base_url=base_url, space=space)
        except DialectMismatch as exc:  # its sentence points at the Connection page
            if exc.dialect == "legacy" and retired():
                _diff_say("Supermemory retired its legacy API (v3/v4) on "
                          f"{LEGACY_LAST_DAY_TEXT} and this service no longer answers it, "
                          "so there is nothing to compare: the current API (v5) is the "
                          "one to use")
                return EXIT_INPUT
            missing = "current (v5)" if exc.dialect == "v5" else "legacy (v3/v4)"
            _diff_say(f"this service does not answer Supermemory's {missing} API, so the two "
                      "cannot be compared (each dialect must answer for a migration check)")
            return EXIT_INPUT
        except SourceError as exc:
            _diff_say(str(exc))
            return EXIT_INPUT
        except ValidationError as exc:  # a setting refused (never with the key's value)
            _diff_say(_first_error(exc))
            return EXIT_INPUT
        for name, words, load in (("legacy", "legacy (v3/v4)", loads.legacy),
                                  ("v5", "current (v5)", loads.v5)):
            _diff_say(f"{words}: {load.summary()} ({loads.calls.get(name, load.calls)} "
                      "requests)")
        report = compare(loads.legacy, loads.v5, space=space)
    _write(json.dumps(report.as_json(), ensure_ascii=False, indent=2) + "\n")
    return 0 if report.identical else 1


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "setting"
    return f"the {where} is not valid: {first.get('msg')}"


# -- memscope why (the provenance trail of one memory) ------------------------------------


def _why_say(message: str) -> None:
    print(f"memscope why: {message}", file=sys.stderr)


def _why(args: argparse.Namespace) -> int:
    from memscope.graph.analysis import analyse
    from memscope.lenses.presenter import mask
    from memscope.reports.why import UnknownTrail, trail
    from memscope.sources import FileSource, SourceError

    now, refused = _now(args)
    if refused:
        _why_say(refused)
        return EXIT_INPUT
    try:  # as the app opens them: a snapshot's saved profiles and spaces come along
        dataset = FileSource(args.files).load().dataset
    except SourceError as exc:
        _why_say(str(exc))
        return EXIT_INPUT
    analysis = analyse(mask(dataset) if args.presenter else dataset, now)
    try:
        found = trail(analysis, args.memory_id, masked=args.presenter)
    except UnknownTrail as exc:
        _why_say(str(exc))
        return EXIT_INPUT
    _write(json.dumps(found.as_json(), ensure_ascii=False, indent=2) + "\n" if args.json
           else found.as_text())
    return 0


def _seed(args: argparse.Namespace) -> int:
    from memscope.demo.seeding import seed_if_missing
    from memscope.settings import store_path

    path = store_path(args.data_dir)
    created = seed_if_missing(path)
    print(f"memscope: {'seeded' if created else 'kept'} the embedded store at {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in[:1] == ["warm"]:  # its own parser: memscope warm [--data-dir D] [files…]
        from memscope.warm import main as warm

        return warm(args_in[1:])
    parser = argparse.ArgumentParser(prog="memscope", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p_inspect = sub.add_parser(
        "inspect", help="print the graph of saved feed pages or a Spomory passport as JSON")
    p_inspect.add_argument("files", nargs="+", help="JSON files, read as one dataset")
    p_inspect.add_argument("--now", help="judge states at this ISO-8601 time (default: now)")
    p_inspect.add_argument("--fail-on-findings", action="store_true",
                           help="exit 1 when there are integrity findings")
    p_inspect.add_argument("--no-semantic", action="store_true",
                           help="leave out the semantic audit's findings (suspected "
                           "contradictions, suspicious updates, near-duplicates)")
    p_inspect.add_argument("--judge", action="store_true",
                           help="confirm or reject suspected contradictions with an "
                           "OpenAI-compatible chat endpoint: MEMSCOPE_JUDGE_URL, "
                           "MEMSCOPE_JUDGE_MODEL, MEMSCOPE_JUDGE_KEY (or [judge] url, model, "
                           "key in .streamlit/secrets.toml)")
    p_inspect.set_defaults(func=_inspect)
    p_seed = sub.add_parser("seed", help="create and seed the embedded demo store if missing")
    p_seed.add_argument("--data-dir", help="where the store lives (default: $MEMSCOPE_DATA_DIR "
                        "or ./data)")
    p_seed.set_defaults(func=_seed)
    sub.add_parser("warm", help="compute and save the layout, clusters and names of the "
                   "embedded store (and snapshot files) so the first view is fast")
    p_diff = sub.add_parser(
        "diff", help="load one Supermemory space through the legacy (v3/v4) and current "
        "(v5) APIs and print what differs as JSON (exit 1 on a difference); the key comes "
        "from MEMSCOPE_API_KEY or .streamlit/secrets.toml, never from the command line",
        description="Compare one space as Supermemory's legacy (v3/v4) and current (v5) "
        "APIs return it, or two snapshot files. Exit 0: identical, 1: a difference, 2: an "
        "error.")
    p_diff.add_argument("files", nargs="*", help="two snapshot files to compare instead "
                        "(the first as the legacy side)")
    p_diff.add_argument("--space", help="the container tag (namespace) to compare (default: "
                        "$MEMSCOPE_SPACE, else every space)")
    p_diff.add_argument("--base-url", help="the service (default: $MEMSCOPE_BASE_URL, else "
                        "https://api.supermemory.ai)")
    p_diff.set_defaults(func=_diff)
    p_why = sub.add_parser(
        "why", help="print why the memory service believes one memory: its statement, "
        "versions, source documents, relations, citing profile lines and forget impact",
        description="The provenance trail of one memory (or Spomory fact) of saved files. "
        "Exit 0: printed, 2: unusable input or an id that is not loaded.")
    p_why.add_argument("memory_id", help="the memory's id (a Spomory fact: its relation id)")
    p_why.add_argument("files", nargs="+", help="JSON files, read as one dataset")
    p_why.add_argument("--json", action="store_true", help="print the trail as JSON")
    p_why.add_argument("--now", help="judge states at this ISO-8601 time (default: now)")
    p_why.add_argument("--presenter", action="store_true",
                       help="mask every text of the data, as presenter mode does")
    p_why.set_defaults(func=_why)
    args = parser.parse_args(args_in)
    try:
        return args.func(args)
    except Exception as exc:  # pragma: no cover - a bug in Memscope, said in one line
        print(f"memscope {args.command}: internal error ({type(exc).__name__}: {exc}); "
              "please report it", file=sys.stderr)
        return EXIT_BUG
