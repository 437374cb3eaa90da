"""The ledger with ``scope``: the embedded store's schema version 2.

Revision ID: 0001
Revises: (none)

On a database without a ledger, creates it. On an embedded store written before Alembic,
adopts its ledger; a version-1 ledger (no ``scope``) gets the column, and the store's own
rows (its own source kinds, and seed rows) get its identity, passed as ``own_scope`` —
every other old row stays unscoped: kept, shown to no session.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context, op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

#: the sources whose old rows the embedded store wrote itself
OWN_SOURCES = ("embedded", "sandbox")


def _create() -> None:
    op.create_table(
        "ledger",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  primary_key=True, autoincrement=True),
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
        sqlite_autoincrement=True,
    )


def _scope_version_one() -> None:
    op.add_column("ledger", sa.Column("scope", sa.Text))
    own = context.config.attributes.get("own_scope")
    if own:
        ledger = sa.table("ledger", sa.column("scope"), sa.column("source"),
                          sa.column("action"))
        op.execute(ledger.update()
                   .where(sa.or_(ledger.c.source.in_(OWN_SOURCES), ledger.c.action == "seed"))
                   .values(scope=own))


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("ledger"):
        _create()
    elif "scope" not in {c["name"] for c in inspector.get_columns("ledger")}:
        _scope_version_one()
    if "ledger_scope" not in {i["name"] for i in inspector.get_indexes("ledger")}:
        op.create_index("ledger_scope", "ledger", ["scope", "id"])


def downgrade() -> None:
    op.drop_index("ledger_scope", table_name="ledger")
    op.drop_table("ledger")
