"""Schema migrations of the tables Memscope owns (``ledger``, ``layouts``), with Alembic,
for both backends, run from code: no ``alembic.ini`` is needed.

:func:`upgrade` runs inside the caller's transaction (the backends take a lock first, so
two replicas starting together migrate once). The revision a database is at lives in the
:data:`VERSION_TABLE` table; a revision this Memscope does not know means a newer
Memscope wrote the database, and :func:`upgrade` refuses with
:class:`~memscope.storage.errors.StorageTooNew`.

The revisions, in ``versions/``:

- ``0001`` the ledger with ``scope`` (the embedded store's schema version 2). On an
  existing ledger it adopts the table; a version-1 ledger (no ``scope``) gets the column
  and the store's own rows get its identity (``own_scope``).
- ``0002`` the ledger's ``actor``, ``status`` and ``completed_at``; the ``layouts`` table.

A new revision is a file in ``versions/`` with ``revision``/``down_revision`` and
``upgrade()``; set :data:`HEAD` to it (a test checks that it is the scripts' head).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from memscope.storage.errors import StorageTooNew

if TYPE_CHECKING:
    from alembic.config import Config

HERE = Path(__file__).resolve().parent
#: where the revision a database is at is kept (not ``alembic_version``: a shared
#: PostgreSQL database may hold another application's)
VERSION_TABLE = "memscope_schema"
#: the newest revision this Memscope knows
HEAD = "0002"


def _config(connection: Connection | None = None, own_scope: str | None = None) -> Config:
    from alembic.config import Config  # Alembic loads only when a migration may run

    cfg = Config()
    cfg.set_main_option("script_location", str(HERE))
    cfg.attributes["connection"] = connection
    cfg.attributes["own_scope"] = own_scope
    return cfg


@cache
def known_revisions() -> frozenset[str]:
    """Every revision in ``versions/``."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(_config())
    return frozenset(s.revision for s in script.walk_revisions())


def script_head() -> str | None:
    """The head revision of the scripts (what :data:`HEAD` must name)."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_config()).get_current_head()


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at; ``None`` for a database Alembic never touched."""
    if not sa.inspect(connection).has_table(VERSION_TABLE):
        return None
    versions = sa.table(VERSION_TABLE, sa.column("version_num", sa.String))
    found = connection.execute(sa.select(versions.c.version_num)).scalars().all()
    return found[0] if len(found) == 1 else ",".join(sorted(found)) or None


def upgrade(connection: Connection, *, where: str, own_scope: str | None = None,
            target: str = HEAD) -> str | None:
    """Bring the database to ``target`` (:data:`HEAD`: the newest) inside the caller's
    transaction; returns the revision it found. ``where`` names the database in the
    refusal (never a password); ``own_scope`` scopes a version-1 embedded ledger's own
    rows."""
    found = current_revision(connection)
    if found == target:
        return found
    if found is not None and found not in known_revisions():
        raise StorageTooNew(
            f"The database {where} was set up by a newer version of Memscope (schema "
            f"{found}; this one knows schemas up to {HEAD}): upgrade Memscope, or point it "
            "at another database.")
    from alembic import command

    command.upgrade(_config(connection, own_scope), target)
    return found
