"""The tables Memscope owns, as SQLAlchemy Core metadata (their shape at the newest
migration; :mod:`memscope.storage.migrations` builds them step by step).

Times are ISO-8601 UTC text in both backends, as the embedded store has always written
them. Layout positions are zlib-compressed JSON.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

#: an integer key that is SQLite's rowid alias there and a 64-bit identity in PostgreSQL
ROW_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")

ledger = sa.Table(
    "ledger", metadata,
    sa.Column("id", ROW_ID, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Text, nullable=False),
    sa.Column("source", sa.Text, nullable=False),
    sa.Column("space", sa.Text),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("target_id", sa.Text),
    sa.Column("snapshot", sa.Text),
    sa.Column("reason", sa.Text),
    sa.Column("outcome", sa.Text, nullable=False),
    sa.Column("message", sa.Text),
    sa.Column("scope", sa.Text),
    sa.Column("actor", sa.Text),
    sa.Column("status", sa.Text, nullable=False, server_default="completed"),
    sa.Column("completed_at", sa.Text),
    sa.Index("ledger_scope", "scope", "id"),
    sa.Index("ledger_actor", "actor", "id"),
    sqlite_autoincrement=True,
)

layouts = sa.Table(
    "layouts", metadata,
    sa.Column("key", sa.Text, primary_key=True),
    sa.Column("positions", sa.LargeBinary, nullable=False),
    sa.Column("nodes", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
)
