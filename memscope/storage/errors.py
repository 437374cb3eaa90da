"""What goes wrong with the storage; every message is one sentence for the user (and
never holds a password)."""

from __future__ import annotations


class StorageError(Exception):
    """The ledger or the layout cache could not be read or written."""


class StorageTooNew(StorageError):
    """The database was set up by a newer Memscope: this one refuses to start on it."""


class StorageConfigError(StorageError):
    """The storage URL is not one Memscope can use."""
