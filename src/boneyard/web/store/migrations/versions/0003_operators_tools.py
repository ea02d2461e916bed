"""The operator's tools: bans, the maintenance notice, the log of the operator's actions

Revision ID: 0003
Revises: 0002

``accounts.banned`` (when an account was banned; null: it is not), ``notices`` (the one
maintenance notice every page shows) and ``admin_actions`` (each ``boneyard admin`` action:
``web/store/admin.py``).

Created: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from boneyard.web.store.migrations.helpers import add_column, create_table

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_table(
        "admin_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("account", sa.String(length=40), nullable=True),
        sa.Column("detail", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("words", sa.Text(), nullable=False),
        sa.Column("posted", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    add_column("accounts", sa.Column("banned", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_column("banned")

    op.drop_table("notices")
    op.drop_table("admin_actions")
