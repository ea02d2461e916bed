"""What the revisions share: each change made only where it is missing, so that a revision run
again over what it already did changes nothing. SQLite does not undo DDL when an upgrade stops
halfway (pysqlite commits each statement); the next start runs the revision again, and
finds its first columns already there."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op


def tables() -> set[str]:
    return set(sa.inspect(op.get_bind()).get_table_names())


def create_table(name: str, *elements: Any) -> None:
    """Make table ``name`` unless it is there."""
    if name not in tables():
        op.create_table(name, *elements)


def create_index(table: str, name: str, columns: list[str]) -> None:
    """Make index ``name`` unless it is there."""
    if name not in {index["name"] for index in sa.inspect(op.get_bind()).get_indexes(table)}:
        op.create_index(name, table, columns)


def add_column(table: str, column: sa.Column[Any]) -> bool:
    """Add ``column`` to ``table`` where the table is and lacks it (True: it was added)."""
    if table not in tables() or column.name in {
        c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)
    }:
        return False
    with op.batch_alter_table(table) as batch:
        batch.add_column(column)
    return True
