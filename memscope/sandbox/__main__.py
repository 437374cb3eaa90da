"""``python -m memscope.sandbox --port 8765 --latency-ms 50`` — run the API sandbox.

One port serves Supermemory in both dialects from the same store — the current API (v5:
``/namespaces``, ``/ns/{namespace}/…``) and the legacy one (v3/v4: ``/v3/…``, ``/v4/…``) —
Spomory (``/v1/…``), mem0's platform API (``/mem0/v1/…``, ``/mem0/v3/…``: a mem0
client's base URL is ``http://127.0.0.1:8765/mem0``) and Zep Cloud's graph API (a Zep
client's base URL is ``http://127.0.0.1:8765/zep/api/v4``). By default it serves the app's demo
data and a generated Spomory graph, built into the package; ``--data fixtures --fixtures
tests/fixtures`` serves the test fixtures instead. ``--v5-missing`` / ``--legacy-missing``
make one dialect answer 404, as a service that speaks only the other would.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from memscope.sandbox.data import FIXTURES_ENV, synthetic_passport
from memscope.sandbox.faults import Faults
from memscope.sandbox.zep_api import synthetic_account
from memscope.sandbox.zep_server import ZepSandbox as Sandbox


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def _create(args: argparse.Namespace, faults: Faults) -> Sandbox:
    """The sandbox the flags describe (not started)."""
    passport = json.loads(Path(args.passport).read_text("utf-8")) if args.passport else None
    if args.spomory_facts is not None:
        passport = synthetic_passport(args.spomory_facts)
    return Sandbox.create(args.dir, data=args.data, documents=args.documents,
                          memories=args.memories, fixtures=args.fixtures,
                          passport=passport, host=args.host, port=args.port,
                          supermemory_keys=(args.supermemory_key,),
                          spomory_keys=(args.spomory_key,),
                          mem0_keys=(args.mem0_key,), zep_keys=(args.zep_key,),
                          zep_account=(synthetic_account(args.zep_facts,
                                                         graphs=args.zep_graphs)
                                       if args.zep_facts is not None else None),
                          spomory_quota=args.spomory_quota, faults=faults)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the flags, start the sandbox and serve until interrupted."""
    p = argparse.ArgumentParser(prog="python -m memscope.sandbox", description=__doc__)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    p.add_argument("--data", choices=("demo", "synthetic", "fixtures"), default="demo",
                   help="what the store holds: the app's demo data (default), a synthetic "
                   f"feed, or the test fixtures (needs --fixtures or ${FIXTURES_ENV})")
    p.add_argument("--fixtures", metavar="DIR",
                   help="fixtures folder for --data fixtures and the default passport "
                   f"(default: ${FIXTURES_ENV})")
    p.add_argument("--documents", type=int, help="documents (synthetic: 200, demo: its "
                   "default)")
    p.add_argument("--memories", type=int, help="demo memories (3 per document by default)")
    p.add_argument("--dir", help="folder of the sandbox store (default: a temporary one)")
    p.add_argument("--passport", help="Spomory passport JSON (default: the fixtures' "
                   "passport with --fixtures, else a generated graph)")
    p.add_argument("--spomory-facts", type=int,
                   help="generate a Spomory graph with this many relations instead")
    p.add_argument("--supermemory-key", default="sm_sandbox_key")
    p.add_argument("--spomory-key", default="sp_sandbox_key")
    p.add_argument("--mem0-key", default="m0-sandbox-key")
    p.add_argument("--zep-key", default="z_sandbox_key")
    p.add_argument("--zep-facts", type=int,
                   help="serve a generated Zep account with this many facts instead of the "
                   "small one")
    p.add_argument("--zep-graphs", type=int, default=10,
                   help="user graphs of the generated Zep account (10)")
    p.add_argument("--spomory-quota", type=int, default=1000)
    p.add_argument("--latency-ms", type=float, default=0.0)
    p.add_argument("--status-sequence", type=_ints, default=[], metavar="429,503,…")
    p.add_argument("--retry-after", help="Retry-After value sent with faulted 429/503")
    p.add_argument("--fail-pages", type=_ints, default=[], metavar="3,4")
    p.add_argument("--fail-status", type=int, default=503)
    p.add_argument("--timeouts", type=int, default=0, help="next N requests hang")
    p.add_argument("--hang-s", type=float, default=35.0)
    p.add_argument("--drops", type=int, default=0, help="next N connections are dropped")
    p.add_argument("--malformed", type=int, default=0, help="next N answers are cut-off JSON")
    p.add_argument("--shift", type=int, default=0, help="documents added after page 1")
    p.add_argument("--spaces-status", type=int, help="e.g. 403 for container-tags/list")
    p.add_argument("--spomory-wrong-forget", action="store_true")
    p.add_argument("--processing-polls", type=int, default=2,
                   help="status reads of an added document before it is done")
    p.add_argument("--fail-processing", type=int, default=0,
                   help="the next N added documents end failed")
    p.add_argument("--only-path", help="faults apply only to paths starting with this")
    p.add_argument("--v5-missing", action="store_true",
                   help="every Supermemory v5 route (/namespaces, /ns/…) answers 404")
    p.add_argument("--legacy-missing", action="store_true",
                   help="every legacy Supermemory route (/v3/…, /v4/…) answers 404")
    args = p.parse_args(argv)
    faults = Faults(
        latency_ms=args.latency_ms, status_sequence=args.status_sequence,
        retry_after=args.retry_after, fail_pages=set(args.fail_pages),
        fail_status=args.fail_status, timeouts=args.timeouts, hang_s=args.hang_s,
        drops=args.drops, malformed=args.malformed, shift=args.shift,
        spaces_status=args.spaces_status, spomory_wrong_forget=args.spomory_wrong_forget,
        processing_polls=args.processing_polls, fail_processing=args.fail_processing,
        only_path=args.only_path, v5_missing=args.v5_missing,
        legacy_missing=args.legacy_missing)
    try:
        sandbox = _create(args, faults)
    except (OSError, ValueError) as exc:
        print(f"memscope sandbox: {exc}", file=sys.stderr)
        return 2
    sandbox.bind()
    print(f"memscope sandbox on {sandbox.url} — store {sandbox.store.path}; "
          "faults via POST /_sandbox/faults. Ctrl-C stops.", file=sys.stderr, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        sandbox.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
