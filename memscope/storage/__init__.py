"""What Memscope itself owns — the action ledger and the cached layouts — behind one
interface (:class:`Storage`), in the embedded store's SQLite file (the default) or in
PostgreSQL (a team deployment with several app servers).

>>> storage = Memscope().storage()  # memscope.app: the configured one  # doctest: +SKIP
"""

from memscope.storage.base import Storage
from memscope.storage.errors import StorageConfigError, StorageError, StorageTooNew
from memscope.storage.layouts import Position, layout_key
from memscope.storage.ledger import LOCAL_ACTOR, LedgerEntry
from memscope.storage.sql import PostgresStorage, SQLiteStorage, open_storage
from memscope.storage.urls import URL_ENV, describe

__all__ = ["LOCAL_ACTOR", "URL_ENV", "LedgerEntry", "Position", "PostgresStorage",
           "SQLiteStorage", "Storage", "StorageConfigError", "StorageError", "StorageTooNew",
           "describe", "layout_key", "open_storage"]
