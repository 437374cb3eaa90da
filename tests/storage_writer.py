"""A separate OS process acting on a storage, for tests/test_storage.py.

``python storage_writer.py write URL WRITER N GO_FILE`` waits for ``GO_FILE`` to exist,
opens the storage (so two writers also race to migrate a new database), then writes ``N``
ledger rows tagged ``WRITER:<i>`` — odd ones as attempted-then-completed pairs.

``python storage_writer.py crash URL ACTOR`` forgets through
:func:`memscope.sources.actions.forget` with a source whose call kills the process, as a
server dying mid-call would.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memscope.sources import FileSource, actions  # noqa: E402
from memscope.storage import open_storage  # noqa: E402

SM_PAGE = ROOT / "tests" / "fixtures" / "supermemory" / "documents_page1.json"
SCOPE = "writer|shared"


class DiesMidCall(FileSource):
    """A file source whose forget kills the process before answering."""

    def forget(self, target_id: str, *, reason: str | None = None,
               container_tag: str | None = None):  # type: ignore[override]
        os._exit(17)


def write(url: str, writer: str, n: int, go_file: str) -> None:
    while not os.path.exists(go_file):
        time.sleep(0.005)
    storage = open_storage(url, sqlite_path="unused.db")
    for i in range(n):
        tag = f"{writer}:{i}"
        if i % 2:
            entry = storage.begin_ledger(action="forget", source="writer", scope=SCOPE,
                                         actor=writer, target_id=tag)
            storage.complete_ledger(entry, outcome="ok", message=f"done {tag}")
        else:
            storage.record_ledger(action="forget", source="writer", scope=SCOPE,
                                  actor=writer, outcome="ok", target_id=tag,
                                  message=f"done {tag}")
    storage.close()


def crash(url: str, actor: str) -> None:
    storage = open_storage(url, sqlite_path="unused.db")
    actions.forget(DiesMidCall([SM_PAGE]), storage, "mem_trip", reason="crash test",
                   container_tag=None, snapshot="Plans a trip.", actor=actor)


if __name__ == "__main__":
    if sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    else:
        crash(sys.argv[2], sys.argv[3])
