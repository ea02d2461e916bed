"""Storage of ratings: one rating per account and game, and the rated games' changes.

A rated game is noted when it is made (``rated_games``). When it ends, ``settle`` runs inside
the very transaction that stores its result (the store's ``on_finish``): it marks the game
settled (once: a second ending finds it settled and does nothing), reads its seats' owners and
their ratings, asks the rating system (``web/people/ratings.py``, passed in) for the new ones
and writes them. So a result and the ratings it moves commit together or not at all, on one
process or several.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, Boolean, Float, Integer, String, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, mapped_column

from boneyard.web.store.accounts import AccountRow, AccountSeatRow
from boneyard.web.store.games import Base, GameRow, Store

START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06


class RatingRow(Base):
    __tablename__ = "ratings"

    account_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class RatedGameRow(Base):
    __tablename__ = "rated_games"

    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    settled: Mapped[bool] = mapped_column(Boolean, default=False)
    changes: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)
    """Per seat ``{"seat", "account", "before", "after", "deviation"}`` once settled; null
    when the game ended unrated (a seat without its own account)."""


@dataclass(frozen=True)
class Rating:
    rating: float
    deviation: float
    volatility: float
    games: int


UNRATED_ENDINGS = frozenset({"abort", "moved"})

FRESH = Rating(START_RATING, START_DEVIATION, START_VOLATILITY, 0)

RatingSystem = Callable[[list[Rating], list[float]], list[Rating]]
"""New ratings of a game's seats from their ratings before it and the game's returns."""


class RatingStore:
    """The rating tables; ``system`` rates a finished game (given by ``web/people/ratings``)."""

    def __init__(self, store: Store, system: RatingSystem) -> None:
        self.store = store
        self.system = system
        store.create_tables([RatingRow.__table__, RatedGameRow.__table__])
        store.on_finish.append(self.settle)

    def note_rated(self, game_id: str, game: str) -> None:
        with self.store.engine.begin() as connection:
            connection.execute(insert(RatedGameRow).values(game_id=game_id, game=game))

    def rated_game(self, game_id: str) -> tuple[bool, list[dict[str, Any]] | None] | None:
        """``(settled, changes)`` of a rated game; None when the game is not rated."""
        with self.store.reads.connect() as connection:
            row = connection.execute(
                select(RatedGameRow.settled, RatedGameRow.changes).where(
                    RatedGameRow.game_id == game_id
                )
            ).first()
        return None if row is None else (bool(row[0]), row[1])

    def rated_ids(self, game_ids: list[str]) -> set[str]:
        """Which of ``game_ids`` are rated."""
        if not game_ids:
            return set()
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(RatedGameRow.game_id).where(RatedGameRow.game_id.in_(game_ids))
            ).all()
        return {r[0] for r in rows}

    def seat_ratings(self, game_ids: list[str]) -> dict[str, dict[int, tuple[str, Rating]]]:
        """For each game, its seats owned by accounts: the account's name and its rating in
        that game (a fresh one where it has none yet)."""
        if not game_ids:
            return {}
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(
                    AccountSeatRow.game_id,
                    AccountSeatRow.seat,
                    AccountRow.name,
                    RatingRow.rating,
                    RatingRow.deviation,
                    RatingRow.volatility,
                    RatingRow.games,
                )
                .join(GameRow, GameRow.id == AccountSeatRow.game_id)
                .join(AccountRow, AccountRow.id == AccountSeatRow.account_id)
                .outerjoin(
                    RatingRow,
                    (RatingRow.account_id == AccountSeatRow.account_id)
                    & (RatingRow.game == GameRow.name),
                )
                .where(AccountSeatRow.game_id.in_(game_ids))
            ).all()
        found: dict[str, dict[int, tuple[str, Rating]]] = {}
        for game_id, seat, name, rating, deviation, volatility, games in rows:
            known = FRESH if rating is None else Rating(rating, deviation, volatility, games)
            found.setdefault(game_id, {})[int(seat)] = (name, known)
        return found

    def settle(self, connection: Connection, game_id: str, returns: list[float], how: str) -> None:
        """Move the ratings of a finished rated game, in the transaction of its result. An
        aborted game (or one replaced by a continuing game) counts for nobody."""
        done = connection.execute(
            update(RatedGameRow)
            .where(RatedGameRow.game_id == game_id, RatedGameRow.settled.is_(False))
            .values(settled=True)
        )
        if done.rowcount != 1 or how in UNRATED_ENDINGS:
            return  # not rated, settled already, or ended without being played out
        game = connection.execute(
            select(RatedGameRow.game).where(RatedGameRow.game_id == game_id)
        ).scalar_one()
        seats = connection.execute(select(GameRow.seats).where(GameRow.id == game_id)).scalar_one()
        owners = dict(
            connection.execute(
                select(AccountSeatRow.seat, AccountSeatRow.account_id).where(
                    AccountSeatRow.game_id == game_id
                )
            ).all()
        )
        accounts = [owners.get(seat) for seat in range(len(seats))]
        if None in accounts or len(set(accounts)) != len(accounts) or len(accounts) < 2:
            return  # a seat without an account of its own: the game counts for nobody
        ids = [str(a) for a in accounts]
        rows = {
            r.account_id: Rating(r.rating, r.deviation, r.volatility, r.games)
            for r in connection.execute(
                select(RatingRow)
                .where(RatingRow.game == game, RatingRow.account_id.in_(ids))
                .with_for_update()
            ).all()
        }
        before = [rows.get(a, FRESH) for a in ids]
        after = self.system(before, returns)  # before any rating is written
        self._ensure(connection, [a for a in ids if a not in rows], game)
        now = time.time()
        changes = []
        for seat, (account, old, new) in enumerate(zip(ids, before, after, strict=True)):
            connection.execute(
                update(RatingRow)
                .where(RatingRow.account_id == account, RatingRow.game == game)
                .values(
                    rating=new.rating,
                    deviation=new.deviation,
                    volatility=new.volatility,
                    games=old.games + 1,
                    updated=now,
                )
            )
            changes.append(
                {
                    "seat": seat,
                    "account": account,
                    "before": old.rating,
                    "after": new.rating,
                    "deviation": new.deviation,
                }
            )
        connection.execute(
            update(RatedGameRow).where(RatedGameRow.game_id == game_id).values(changes=changes)
        )

    def _ensure(self, connection: Connection, account_ids: list[str], game: str) -> None:
        """A fresh rating row for each of ``account_ids`` that has none in ``game`` yet."""
        if not account_ids:
            return
        dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
        rows = [
            {
                "account_id": account,
                "game": game,
                "rating": FRESH.rating,
                "deviation": FRESH.deviation,
                "volatility": FRESH.volatility,
                "games": 0,
                "updated": time.time(),
            }
            for account in account_ids
        ]
        connection.execute(dialect.insert(RatingRow).values(rows).on_conflict_do_nothing())

    def ratings_of(self, account_id: str) -> dict[str, Rating]:
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(RatingRow).where(RatingRow.account_id == account_id)
            ).all()
        return {r.game: Rating(r.rating, r.deviation, r.volatility, r.games) for r in rows}

    def leaderboard(self, game: str, limit: int = 50) -> list[tuple[str, Rating]]:
        """The best ratings of ``game``, best first: ``(account name, rating)``."""
        with self.store.reads.connect() as connection:
            rows = connection.execute(
                select(
                    AccountRow.name,
                    RatingRow.rating,
                    RatingRow.deviation,
                    RatingRow.volatility,
                    RatingRow.games,
                )
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game, RatingRow.games > 0)
                .order_by(RatingRow.rating.desc())
                .limit(limit)
            ).all()
        return [(r[0], Rating(r[1], r[2], r[3], r[4])) for r in rows]
