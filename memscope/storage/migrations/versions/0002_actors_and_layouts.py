"""Who acted and how it ended; the shared layout cache.

Revision ID: 0002
Revises: 0001

The ledger gains ``actor`` (an email, or ``local`` without sign-in: every older row was
written by the one local user), ``status`` (``attempted`` before a service is called,
``completed`` with the outcome; older rows are complete) and ``completed_at``. The
``layouts`` table keeps node positions per data version key.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ledger", sa.Column("actor", sa.Text))
    op.add_column("ledger", sa.Column("status", sa.Text, nullable=False,
                                      server_default="completed"))
    op.add_column("ledger", sa.Column("completed_at", sa.Text))
    op.execute(sa.table("ledger", sa.column("actor")).update().values(actor="local"))
    op.create_index("ledger_actor", "ledger", ["actor", "id"])
    op.create_table(
        "layouts",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("positions", sa.LargeBinary, nullable=False),
        sa.Column("nodes", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("layouts")
    op.drop_index("ledger_actor", table_name="ledger")
    with op.batch_alter_table("ledger") as batch:
        batch.drop_column("completed_at")
        batch.drop_column("status")
        batch.drop_column("actor")
