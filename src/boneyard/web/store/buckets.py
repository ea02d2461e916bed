"""The ``guard_buckets`` table: token buckets every process shares, on PostgreSQL.

Each process counted its budgets in its own memory, so N processes gave an attacker N budgets
(issue 44 row 7: two processes, 10 password checks on one name where one allowed 5, 6 sign-ups
a minute where one allowed 3). On PostgreSQL the budgets that guard costly work (log-ins, the
names tried, sign-ups: ``budgets.SHARED``) are rows here instead, one a bucket.

Why a table updated atomically rather than advisory locks: one ``INSERT ... ON CONFLICT DO
UPDATE`` takes a token in one round trip and one statement (PostgreSQL locks the row for the
statement, so two processes taking from one bucket at once are serialized, and the second sees
what the first took); an advisory lock would need a lock, a read, a write and an unlock, and a
lock left held by a process that died mid-way. The clock is the database's (``now()``), so
processes on machines whose clocks differ refill a bucket alike. A bucket full again is no
longer needed: its row is removed now and then (``FORGET_EVERY``).
"""

from __future__ import annotations

import random

from sqlalchemy import Boolean, Float, String, delete, func, text
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.games import Base, Store
from boneyard.web.store.keys import keyed_hash

KEY_LENGTH = 64
"""A bucket's key: the keyed hash (hex) of its kind, the name tried and the client."""
FORGET_EVERY = 1000
"""About once in this many takes, the buckets full again are removed."""


class BucketRow(Base):
    __tablename__ = "guard_buckets"

    key: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    """Tokens left when last taken from (``at``)."""
    at: Mapped[float] = mapped_column(Float)
    """When it was last taken from: the database's clock, seconds since the epoch."""
    full_at: Mapped[float] = mapped_column(Float, index=True)
    """When it is full again (then its row may go)."""
    granted: Mapped[bool] = mapped_column(Boolean)
    """Whether the last take went through (what the statement answers)."""


NOW = "EXTRACT(EPOCH FROM now())"
REFILLED = f"LEAST(:burst, b.tokens + ({NOW} - b.at) * :rate)"
TAKEN = f"CASE WHEN {REFILLED} >= :cost THEN :cost ELSE 0 END"
TAKE = text(
    "INSERT INTO guard_buckets AS b (key, tokens, at, full_at, granted)"
    f" VALUES (:key, :burst - :cost, {NOW}, {NOW} + :cost / :rate, true)"
    " ON CONFLICT (key) DO UPDATE SET"
    f" granted = {REFILLED} >= :cost,"
    f" tokens = {REFILLED} - {TAKEN},"
    f" at = {NOW},"
    f" full_at = {NOW} + (:burst - ({REFILLED} - {TAKEN})) / :rate"
    " RETURNING granted, tokens"
)
"""Take ``cost`` tokens if the bucket holds them (a new bucket is full, and ``cost`` is at most
``burst``): whether it did and the tokens left. ``DO UPDATE`` sees the row as it was before
this statement, so ``REFILLED`` is the level before this take."""


class SharedBuckets:
    """Token buckets in the ``guard_buckets`` table (PostgreSQL): what every process takes from."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def take(self, key: str, rate: float, burst: float, cost: float = 1.0) -> float:
        """0 when allowed (``cost`` tokens taken from bucket ``key``, refilled ``rate`` a second
        (more than 0) up to ``burst``); else the seconds until they are there (none taken)."""
        cost = min(cost, burst)
        with self.store.alone() as connection:
            # keyed (store/keys.py): equal for equal clients and names, no address in the table
            stored = keyed_hash(self.store.secret, "budget", key)
            row = connection.execute(
                TAKE, {"key": stored, "rate": rate, "burst": burst, "cost": cost}
            ).one()
        if random.randrange(FORGET_EVERY) == 0:
            with self.store.alone() as connection:
                connection.execute(
                    delete(BucketRow).where(BucketRow.full_at < func.extract("epoch", func.now()))
                )
        if row.granted:
            return 0.0
        return max(0.0, cost - float(row.tokens)) / rate
