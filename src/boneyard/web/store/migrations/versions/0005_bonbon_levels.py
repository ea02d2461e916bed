"""Bon-Bon's computer seats keep the opponent they were made with

Revision ID: 0005
Revises: 0004

Bon-Bon's scale gained a level below its top (the native ISMCTS, level 5): the ``expert``, level
5 until now, is level 6. A computer seat stores its level by number, so a Bon-Bon seat stored
as ``"5"`` meant the expert and would meet the new, weaker level 5 after the upgrade: it is
renumbered ``"6"`` here, so every game goes on against the opponent it was made with (and its
record names that opponent). Going back down turns ``"6"`` into ``"5"``, the expert's number
there; a game made at the new level 5 then meets the expert, the nearest level the older code
has above it.

Created: 2026-12-02
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from boneyard.games.bonbon.rules import BonBonGame

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

GAMES = sa.table(
    "games",
    sa.column("id", sa.String()),
    sa.column("name", sa.String()),
    sa.column("seats", sa.JSON()),
)


def _renumber(before: str, after: str) -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(GAMES.c.id, GAMES.c.seats).where(GAMES.c.name == BonBonGame.name)
    ).all()
    for game_id, seats in rows:
        changed: list[dict[str, Any]] = [
            {**seat, "level": after}
            if seat.get("kind") == "computer" and seat.get("level") == before
            else seat
            for seat in seats
        ]
        if changed != seats:
            connection.execute(sa.update(GAMES).where(GAMES.c.id == game_id).values(seats=changed))


def upgrade() -> None:
    _renumber("5", "6")


def downgrade() -> None:
    _renumber("6", "5")
