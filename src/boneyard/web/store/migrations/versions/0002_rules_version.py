"""Each game records the version of its rules

Revision ID: 0002
Revises: 0001

A game is rebuilt by replaying its action numbers, and nothing said which rules those numbers
meant: ``games.rules_version`` now does (``Game.rules_version``). Games stored before it count
as version 1, the version every game's rules had then.

Created: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from boneyard.web.store.migrations.helpers import add_column

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_column(
        "games", sa.Column("rules_version", sa.Integer(), server_default="1", nullable=False)
    )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch_op:
        batch_op.drop_column("rules_version")
