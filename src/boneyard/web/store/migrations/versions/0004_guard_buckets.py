"""Budgets shared by every process: the guard's token buckets

Revision ID: 0004
Revises: 0003

``guard_buckets`` (``web/store/buckets.py``): one row per budget key (a keyed hash of its kind,
the name tried and the client), taken from atomically by every process on PostgreSQL.

Created: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from boneyard.web.store.migrations.helpers import create_index, create_table

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_table(
        "guard_buckets",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("full_at", sa.Float(), nullable=False),
        sa.Column("granted", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    create_index("guard_buckets", "ix_guard_buckets_full_at", ["full_at"])


def downgrade() -> None:
    op.drop_table("guard_buckets")
