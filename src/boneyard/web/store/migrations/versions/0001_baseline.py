"""The schema as it stood before migrations (boneyard 0.1.0)

Revision ID: 0001
Revises: (none)

Every table of boneyard 0.1.0, made where it is missing: a database made by an older boneyard
(before migrations: tables made by ``create_all`` as each feature came, and three columns added
by hand at start-up) has what it lacks made here, and keeps every row it holds. A table that
exists is never made again; the three hand-made columns (``bot_jobs.client``, ``accounts.look``,
``rated_games.unrated``) are added where missing, as start-up added them before.

Created: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from boneyard.web.store.migrations.helpers import add_column, create_index, create_table
from boneyard.web.store.name_looks import name_look

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _columns_added_by_hand() -> None:
    """The columns that start-up added by hand before migrations, where an older table lacks
    them: a job's client (jobs of the last minutes: nothing to carry over), an account's look
    (filled in from its name), why a settled game counted for nobody (unknown: null)."""
    add_column("bot_jobs", sa.Column("client", sa.String(64), nullable=False, server_default=""))
    if add_column("accounts", sa.Column("look", sa.String(200), nullable=False, server_default="")):
        connection = op.get_bind()
        rows = connection.execute(sa.text("SELECT id, name FROM accounts")).all()
        for account_id, name in rows:
            connection.execute(
                sa.text("UPDATE accounts SET look = :look WHERE id = :id"),
                {"look": name_look(name), "id": account_id},
            )
    add_column("rated_games", sa.Column("unrated", sa.String(16), nullable=True))


def upgrade() -> None:
    # First the older tables' missing columns (an index below may be on one of them).
    _columns_added_by_hand()
    create_table(
        "account_seats",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    create_index("account_seats", "ix_account_seats_account_id", ["account_id"])

    create_table(
        "accounts",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=40), nullable=False),
        sa.Column("look", sa.String(length=200), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("person_id", sa.String(length=32), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    create_index("accounts", "ix_accounts_look", ["look"])

    create_table(
        "bot_jobs",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("priority", sa.Integer(), nullable=False),
        sa.Column("client", sa.String(length=64), server_default="", nullable=False),
        sa.Column("args", sa.JSON(), nullable=False),
        sa.Column("budget", sa.Float(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("worker", sa.String(length=128), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=True),
        sa.Column("result", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("finished", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    create_index("bot_jobs", "bot_jobs_by_turn", ["status", "priority", "id"])

    create_table(
        "challenges",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("challenger", sa.String(length=32), nullable=False),
        sa.Column("challenged", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("clock", sa.String(length=20), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("links", sa.JSON(), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("answered", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    create_index("challenges", "ix_challenges_challenged", ["challenged"])
    create_index("challenges", "ix_challenges_challenger", ["challenger"])

    create_table(
        "continuing_games",
        sa.Column("pair", sa.String(length=140), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("pair"),
    )
    create_table(
        "games",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("seed", sa.String(length=128), nullable=False),
        sa.Column("seed_hash", sa.String(length=64), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("returns", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    create_table(
        "ladder_progress",
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("progress", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("account_id"),
    )
    create_table(
        "owner_addresses",
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("address_hash", sa.String(length=64), nullable=False),
        sa.Column("last_seen", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "address_hash"),
    )
    create_table(
        "passkey_challenges",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("challenge", sa.LargeBinary(), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(length=1400), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("public_key", sa.LargeBinary(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("credential_id"),
    )
    create_index("passkeys", "ix_passkeys_account_id", ["account_id"])

    create_table(
        "people",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    create_table(
        "rated_games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("settled", sa.Boolean(), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=True),
        sa.Column("unrated", sa.String(length=16), nullable=True),
        sa.PrimaryKeyConstraint("game_id"),
    )
    create_table(
        "ratings",
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "game"),
    )
    create_table(
        "recovery_codes",
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("code_hash"),
    )
    create_index("recovery_codes", "ix_recovery_codes_account_id", ["account_id"])

    create_table(
        "seeks",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("seeker", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("seen", sa.Float(), nullable=False),
        sa.Column("taken", sa.Boolean(), nullable=False),
        sa.Column("url", sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    create_index("seeks", "ix_seeks_game", ["game"])

    create_table(
        "series_games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("series_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("members", sa.JSON(), nullable=False),
        sa.Column("people", sa.JSON(), nullable=False),
        sa.Column("next_game", sa.String(length=32), nullable=True),
        sa.Column("open_seats", sa.JSON(), nullable=False),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("carried", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )
    create_index("series_games", "ix_series_games_series_id", ["series_id"])

    create_table(
        "session_events",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("at_seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("time", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "number"),
    )
    create_table(
        "sign_ins",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("last_seen", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id_hash"),
    )
    create_index("sign_ins", "ix_sign_ins_account_id", ["account_id"])

    create_table(
        "tournament_games",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("accounts", sa.JSON(), nullable=False),
        sa.Column("scored", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )
    create_index("tournament_games", "ix_tournament_games_tournament_id", ["tournament_id"])

    create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.String(length=32), nullable=False),
        sa.Column("account_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("sheet", sa.JSON(), nullable=False),
        sa.Column("firsts", sa.Integer(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("paired_at", sa.Float(), nullable=False),
        sa.Column("free_since", sa.Float(), nullable=False),
        sa.Column("last_opponent", sa.String(length=32), nullable=True),
        sa.Column("joined", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "account_id"),
    )
    create_table(
        "tournaments",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("minutes", sa.Float(), nullable=False),
        sa.Column("clock", sa.JSON(), nullable=False),
        sa.Column("creator", sa.String(length=40), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("starts", sa.Float(), nullable=False),
        sa.Column("ends", sa.Float(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    create_index("tournaments", "ix_tournaments_finished", ["finished"])
    create_index("tournaments", "ix_tournaments_starts", ["starts"])

    create_table(
        "actions",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.Integer(), nullable=False),
        sa.Column("player", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "seq"),
    )
    create_table(
        "clocks",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("control", sa.JSON(), nullable=False),
        sa.Column("remaining", sa.JSON(), nullable=False),
        sa.Column("started", sa.JSON(), nullable=False),
        sa.Column("running", sa.Integer(), nullable=True),
        sa.Column("since", sa.Float(), nullable=False),
        sa.Column("at_seq", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    create_index("clocks", "ix_clocks_deadline", ["deadline"])


def downgrade() -> None:
    with op.batch_alter_table("clocks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_clocks_deadline"))

    op.drop_table("clocks")
    op.drop_table("actions")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_starts"))
        batch_op.drop_index(batch_op.f("ix_tournaments_finished"))

    op.drop_table("tournaments")
    op.drop_table("tournament_players")
    with op.batch_alter_table("tournament_games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_games_tournament_id"))

    op.drop_table("tournament_games")
    with op.batch_alter_table("sign_ins", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sign_ins_account_id"))

    op.drop_table("sign_ins")
    op.drop_table("session_events")
    with op.batch_alter_table("series_games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_series_games_series_id"))

    op.drop_table("series_games")
    with op.batch_alter_table("seeks", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seeks_game"))

    op.drop_table("seeks")
    with op.batch_alter_table("recovery_codes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_recovery_codes_account_id"))

    op.drop_table("recovery_codes")
    op.drop_table("ratings")
    op.drop_table("rated_games")
    op.drop_table("people")
    with op.batch_alter_table("passkeys", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_passkeys_account_id"))

    op.drop_table("passkeys")
    op.drop_table("passkey_challenges")
    op.drop_table("owner_addresses")
    op.drop_table("ladder_progress")
    op.drop_table("games")
    op.drop_table("continuing_games")
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_challenges_challenger"))
        batch_op.drop_index(batch_op.f("ix_challenges_challenged"))

    op.drop_table("challenges")
    with op.batch_alter_table("bot_jobs", schema=None) as batch_op:
        batch_op.drop_index("bot_jobs_by_turn")

    op.drop_table("bot_jobs")
    with op.batch_alter_table("accounts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_accounts_look"))

    op.drop_table("accounts")
    with op.batch_alter_table("account_seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_account_seats_account_id"))

    op.drop_table("account_seats")
