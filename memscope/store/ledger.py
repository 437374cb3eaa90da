"""The action ledger: one row per destructive or state-changing action any source performed.

The embedded store keeps the ledger in SQLite (see :mod:`memscope.store.store`); other sources
record their actions (including failed ones) through ``Store.record_ledger``. Every row
carries the identity of the source that acted (its *scope*); a session reads only its own
scope with ``Store.ledger(scope=source.identity())``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

#: Actions the app writes. Other strings are accepted (the ledger is an open log).
ACTIONS = ("forget", "restore", "forget_all", "add", "seed")
#: ``ok`` = done, ``noop`` = nothing to change, ``error`` = the source refused or failed,
#: ``mismatch`` = the source changed something other than what was asked (Spomory).
OUTCOMES = ("ok", "noop", "error", "mismatch")


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One recorded action.

    ``time`` is an ISO-8601 UTC string; ``space`` the container tag; ``target_id`` the
    memory (or document) acted on; ``snapshot`` its text at the time of the action;
    ``scope`` the identity of the source that acted (kind, location, credential
    fingerprint — see ``Source.identity``), ``None`` for a row older than scopes.
    """

    time: str
    source: str
    space: str | None
    action: str
    target_id: str | None
    snapshot: str | None
    reason: str | None
    outcome: str
    message: str
    id: int | None = None
    scope: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> LedgerEntry:
        """Build an entry from a ``ledger`` table row (a mapping or ``sqlite3.Row``)."""
        return cls(time=row["at"], source=row["source"], space=row["space"],
                   action=row["action"], target_id=row["target_id"],
                   snapshot=row["snapshot"], reason=row["reason"],
                   outcome=row["outcome"], message=row["message"] or "", id=row["id"],
                   scope=row["scope"])

    def row(self) -> tuple[Any, ...]:
        """The values of a ``ledger`` row, in ``schema.LEDGER_COLUMNS`` order."""
        return (self.time, self.source, self.space, self.action, self.target_id,
                self.snapshot, self.reason, self.outcome, self.message, self.scope)

    def to_dict(self) -> dict[str, Any]:
        """The entry as a plain dict (for tables and JSON)."""
        return asdict(self)
