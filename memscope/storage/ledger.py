"""The action ledger's row: one destructive or state-changing action, who did it, and how
it ended.

Every row carries the identity of the source that acted (its *scope*: kind, location,
credential fingerprint — see ``Source.identity``) and the *actor*: the signed-in person's
email, or :data:`LOCAL_ACTOR` when there is no sign-in. An action on a remote service is
written twice: an ``attempted`` row before the call, then the same row ``completed`` with
the outcome, so a crash in between leaves a trace. Actions the embedded store performs
itself are written once, ``completed``, in the same transaction as the change.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

#: Actions the app writes. Other strings are accepted (the ledger is an open log).
ACTIONS = ("forget", "forget_many", "restore", "forget_all", "add", "seed")
#: ``ok`` = done, ``noop`` = nothing to change, ``error`` = the source refused or failed,
#: ``mismatch`` = the source changed something other than what was asked (Spomory),
#: ``pending`` = not known yet (an ``attempted`` row).
OUTCOMES = ("ok", "noop", "error", "mismatch", "pending")
#: ``attempted`` = written before calling the service; ``completed`` = the outcome is known.
STATUSES = ("attempted", "completed")
#: The actor when nobody is signed in (one person on one machine).
LOCAL_ACTOR = "local"

#: The ``ledger`` table's writable columns, in :meth:`LedgerEntry.row` order.
LEDGER_COLUMNS = ("at", "source", "space", "action", "target_id", "snapshot", "reason",
                  "outcome", "message", "scope", "actor", "status", "completed_at")


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One recorded action.

    ``time`` is an ISO-8601 UTC string (when the action was recorded or attempted);
    ``space`` the container tag; ``target_id`` the memory (or document) acted on;
    ``snapshot`` its text at the time of the action; ``scope`` the identity of the source
    that acted, ``None`` for a row older than scopes; ``actor`` who acted (``None`` for a
    row older than actors); ``status`` ``attempted`` or ``completed``; ``completed_at``
    when the outcome was written.
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
    actor: str | None = None
    status: str = "completed"
    completed_at: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> LedgerEntry:
        """Build an entry from a ``ledger`` table row (a mapping or ``sqlite3.Row``)."""
        return cls(time=row["at"], source=row["source"], space=row["space"],
                   action=row["action"], target_id=row["target_id"],
                   snapshot=row["snapshot"], reason=row["reason"],
                   outcome=row["outcome"], message=row["message"] or "", id=int(row["id"]),
                   scope=row["scope"], actor=row["actor"], status=row["status"],
                   completed_at=row["completed_at"])

    def row(self) -> tuple[Any, ...]:
        """The values of a ``ledger`` row, in :data:`LEDGER_COLUMNS` order."""
        return (self.time, self.source, self.space, self.action, self.target_id,
                self.snapshot, self.reason, self.outcome, self.message, self.scope,
                self.actor, self.status, self.completed_at)

    def values(self) -> dict[str, Any]:
        """The row as ``{column: value}`` (for SQLAlchemy inserts)."""
        return dict(zip(LEDGER_COLUMNS, self.row(), strict=True))

    def to_dict(self) -> dict[str, Any]:
        """The entry as a plain dict (for tables and JSON)."""
        return asdict(self)
