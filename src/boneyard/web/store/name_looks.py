"""How an account's name looks, kept beside it (``accounts.look``), so that no other name that
looks like it (a guest's, a seat's, a new account's) is taken anywhere: one indexed look-up.

An ``accounts`` table made before names had a look gets its column, its index and each
account's look when a process starts (``add_look_column``), as ``bot_jobs`` got its client.
"""

from __future__ import annotations

import contextlib

from sqlalchemy import inspect, text
from sqlalchemy.exc import IntegrityError, OperationalError, ProgrammingError

from boneyard.web.names import normal_form, skeleton
from boneyard.web.store.games import Store

LOOK_LENGTH = 200
"""The longest ``name_look`` kept (a skeleton may be longer than its name: "m" looks like "rn")."""


def name_look(name: str) -> str:
    """How a name looks: its confusable skeleton (``names.skeleton``), case folded, so "alice",
    "Alice", "a1ice" and Cyrillic "аlice" look the same."""
    return skeleton(normal_form(name).casefold()).casefold()[:LOOK_LENGTH]


def add_look_column(store: Store) -> None:
    """Give an ``accounts`` table made before names were compared by their look its ``look``
    column and index, filled in for the accounts it holds."""
    columns = {column["name"] for column in inspect(store.engine).get_columns("accounts")}
    if "look" not in columns:
        exists = "" if store.is_sqlite else "IF NOT EXISTS "
        try:
            with store.engine.begin() as connection:
                connection.execute(
                    text(
                        f"ALTER TABLE accounts ADD COLUMN {exists}look "
                        f"VARCHAR({LOOK_LENGTH}) NOT NULL DEFAULT ''"
                    )
                )
        except OperationalError:  # another process starting together added it (SQLite)
            columns = {c["name"] for c in inspect(store.engine).get_columns("accounts")}
            if "look" not in columns:
                raise
    # (made at once by another process starting together: its index is as good)
    with (
        contextlib.suppress(OperationalError, ProgrammingError, IntegrityError),
        store.engine.begin() as connection,
    ):
        connection.execute(text("CREATE INDEX IF NOT EXISTS ix_accounts_look ON accounts (look)"))
    with store.engine.begin() as connection:
        unseen = connection.execute(text("SELECT id, name FROM accounts WHERE look = ''")).all()
        for account_id, name in unseen:
            connection.execute(
                text("UPDATE accounts SET look = :look WHERE id = :id"),
                {"look": name_look(name), "id": account_id},
            )
