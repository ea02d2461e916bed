"""Alembic's environment: run on the connection ``store/schema.py`` hands over (under the
start-up lock), against every table of the store's models."""

from __future__ import annotations

from alembic import context

from boneyard.web.store.schema import target_metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=target_metadata(),
    # SQLite alters a table by copying it: Alembic's batch mode does that where needed.
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
