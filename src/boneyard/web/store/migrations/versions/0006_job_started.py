"""The bot job table's turns by the seconds each client was really served

Revision ID: 0006
Revises: 0005

``bot_jobs.started``: when a worker claimed the job. The workers take the clients in turn by the
service each had lately (``compute/jobs.py``, ``JobQueue.claim``); that service was the sum of
its finished jobs' budgets, so an easy computer's replies (a budget of a second, thought in
milliseconds) counted as a second each, and a person who had played a dozen of them waited
behind a crowd's fresh networks for as long as it took them to be served as much (issue 44
row 5: 45 s). With ``started``, a job's service is what it took, ``finished - started``; a job
finished before this revision counts its budget, as before.

Created: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from boneyard.web.store.migrations.helpers import add_column

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_column("bot_jobs", sa.Column("started", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("bot_jobs") as batch:
        batch.drop_column("started")
