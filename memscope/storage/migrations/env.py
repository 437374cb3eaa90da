"""Alembic's entry point for :func:`memscope.storage.migrations.upgrade`: it runs the
revisions on the connection (and inside the transaction) the caller passed in
``config.attributes``. Importing this file outside Alembic does nothing."""

from __future__ import annotations

from alembic import context


def run() -> None:
    """Run the pending revisions on the caller's connection."""
    from memscope.storage.migrations import VERSION_TABLE

    context.configure(connection=context.config.attributes["connection"],
                      version_table=VERSION_TABLE)
    with context.begin_transaction():
        context.run_migrations()


if hasattr(context, "config"):  # Alembic is running this file
    run()
