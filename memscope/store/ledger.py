"""The action ledger's row, as the embedded store writes it (defined in
:mod:`memscope.storage.ledger`, where the ledger lives; kept here for old imports)."""

from memscope.storage.ledger import ACTIONS, LOCAL_ACTOR, OUTCOMES, STATUSES, LedgerEntry

__all__ = ["ACTIONS", "LOCAL_ACTOR", "OUTCOMES", "STATUSES", "LedgerEntry"]
