"""Command line: ``python -m memscope inspect FILE…`` and ``python -m memscope seed``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from memscope.records.time import read_time

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


def _inspect(args: argparse.Namespace) -> int:
    from memscope.graph.analysis import analyse
    from memscope.records.dataset import UnrecognisedInput, read_files
    from memscope.reports.inspection import dumps

    now = None
    if args.now:
        now, reason = read_time(args.now)
        if now is None:
            _say(f"--now {args.now!r} {reason or 'is not an ISO-8601 time'}")
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
    _write(dumps(analysis) + "\n")
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
    p_inspect.set_defaults(func=_inspect)
    p_seed = sub.add_parser("seed", help="create and seed the embedded demo store if missing")
    p_seed.add_argument("--data-dir", help="where the store lives (default: $MEMSCOPE_DATA_DIR "
                        "or ./data)")
    p_seed.set_defaults(func=_seed)
    sub.add_parser("warm", help="compute and save the layout, clusters and names of the "
                   "embedded store (and snapshot files) so the first view is fast")
    args = parser.parse_args(args_in)
    try:
        return args.func(args)
    except Exception as exc:  # pragma: no cover - a bug in Memscope, said in one line
        print(f"memscope {args.command}: internal error ({type(exc).__name__}: {exc}); "
              "please report it", file=sys.stderr)
        return EXIT_BUG
