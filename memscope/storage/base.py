"""The storage interface: what Memscope itself owns — the ledger and the cached layouts.

The memories stay in the memory service; Memscope keeps, per deployment, the ledger of
destructive actions and the node positions it computed. Two backends implement
:class:`Storage` (see :mod:`memscope.storage.sql`): the embedded SQLite store's file (the
default, one person) and PostgreSQL (a team, several app servers).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from pathlib import Path

from memscope.storage.layouts import K, Position
from memscope.storage.ledger import LOCAL_ACTOR, LedgerEntry


class Storage(ABC):
    """The ledger and the layout cache of one database. Safe to share between threads;
    several processes (replicas) may open the same database at once."""

    #: ``sqlite`` or ``postgresql``
    backend: str = ""

    @property
    @abstractmethod
    def location(self) -> str:
        """The database, for messages (never a password)."""

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file this storage lives in (the embedded store's), else ``None``."""
        return None

    # -- the ledger --------------------------------------------------------------------

    @abstractmethod
    def record_ledger(self, *, action: str, source: str, outcome: str, scope: str,
                      actor: str = LOCAL_ACTOR, message: str = "", space: str | None = None,
                      target_id: str | None = None, snapshot: str | None = None,
                      reason: str | None = None) -> LedgerEntry:
        """Append one ``completed`` row for an action whose outcome is known, under
        ``scope`` (the acting source's identity) and ``actor``."""

    @abstractmethod
    def begin_ledger(self, *, action: str, source: str, scope: str,
                     actor: str = LOCAL_ACTOR, space: str | None = None,
                     target_id: str | None = None, snapshot: str | None = None,
                     reason: str | None = None) -> LedgerEntry:
        """Write the ``attempted`` row of an action about to call a service (committed
        before the call: a crash during it leaves this row)."""

    @abstractmethod
    def complete_ledger(self, entry: LedgerEntry, *, outcome: str, message: str,
                        space: str | None = None, target_id: str | None = None,
                        snapshot: str | None = None) -> LedgerEntry:
        """Complete an ``attempted`` row with its outcome (``space``, ``target_id`` and
        ``snapshot`` replace the row's when given); returns the row as it now is."""

    @abstractmethod
    def ledger(self, limit: int | None = None, *, scope: str | None = None
               ) -> list[LedgerEntry]:
        """The rows of one source identity (``scope``), newest first, at most ``limit``.
        A page must always pass its scope; without one every row comes back (tests and
        maintenance only)."""

    @abstractmethod
    def actions_by(self, actor: str, limit: int | None = None, *,
                   scope: str | None = None) -> list[LedgerEntry]:
        """"All my actions": the rows of one signed-in ``actor`` across every source
        (or within ``scope``), newest first. ``"local"`` is nobody in particular, so it
        needs a ``scope``."""

    # -- the layout cache --------------------------------------------------------------

    @abstractmethod
    def get_layout(self, key: str) -> dict[str, Position] | None:
        """The positions stored under ``key`` (see :func:`~memscope.storage.layouts.
        layout_key`), or ``None``."""

    @abstractmethod
    def put_layout(self, key: str, positions: Mapping[K, Position]) -> None:
        """Store positions under ``key``, replacing what was there (two replicas that
        computed the same key at once computed the same layout)."""

    def close(self) -> None:  # noqa: B027 - optional for a backend
        """Release connections (the object is not used afterwards)."""
