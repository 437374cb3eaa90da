"""Command line: ``python -m memscope inspect FILE…`` and ``python -m memscope seed``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from memscope.records.time import parse_time


def _inspect(args: argparse.Namespace) -> int:
    from memscope.graph.analysis import analyse
    from memscope.records.dataset import UnrecognisedInput, read_files
    from memscope.reports.inspection import dumps

    now = None
    if args.now:
        now = parse_time(args.now)
        if now is None:
            print(f"memscope inspect: --now {args.now!r} is not an ISO-8601 time", file=sys.stderr)
            return 2
    try:
        dataset = read_files(args.files)
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        print(f"memscope inspect: cannot read {getattr(exc, 'filename', '') or 'input'}: "
              f"{reason}", file=sys.stderr)
        return 2
    except UnrecognisedInput as exc:
        print(f"memscope inspect: {exc}", file=sys.stderr)
        return 2
    analysis = analyse(dataset, now)
    sys.stdout.write(dumps(analysis) + "\n")
    if args.fail_on_findings and analysis.findings:
        return 1
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
    parser = argparse.ArgumentParser(prog="memscope", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p_inspect = sub.add_parser(
        "inspect", help="print the graph of saved feed pages or a Spomory passport as JSON")
    p_inspect.add_argument("files", nargs="+", help="JSON files, read as one dataset")
    p_inspect.add_argument("--now", help="judge states at this ISO-8601 time (default: now)")
    p_inspect.add_argument("--fail-on-findings", action="store_true",
                           help="exit 1 when there are integrity findings")
    p_inspect.set_defaults(func=_inspect)
    p_seed = sub.add_parser("seed", help="create and seed the embedded demo store if missing")
    p_seed.add_argument("--data-dir", help="where the store lives (default: $MEMSCOPE_DATA_DIR "
                        "or ./data)")
    p_seed.set_defaults(func=_seed)
    args = parser.parse_args(argv)
    return args.func(args)
